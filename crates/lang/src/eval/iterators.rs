//! Stepping iterators: `next()` of every kind in [`IterState`], turning any iterable into
//! an iterator (`iter(xs)`), and draining one into a list where a whole sequence is needed.

use std::collections::VecDeque;
use std::sync::Arc;

use super::combinatorics::{combinatoric, zip_strict};
use super::operators::python_eq;
use super::{subscript, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_engine::{budget, Exception, ExceptionClass};
use ragtag_syntax::ast::{BinOp, Span};

/// The iterator over `v`: itself for an iterator, else one over its items (a list's,
/// a tuple's, a string's characters, a dict's keys, a tensor's rows).
pub fn to_iter(v: &Value) -> std::result::Result<Value, Exception> {
    if let Value::Iter(_) = v {
        return Ok(v.clone());
    }
    if let Value::List(l) = v {
        let state = IterState::List {
            list: l.clone(),
            pos: 0,
        };
        return Ok(Value::Iter(PyIter::new("list_iterator", state)));
    }
    if let Value::Range(r) = v {
        return Ok(Value::Iter(PyIter::new(
            "range_iterator",
            IterState::Range {
                next: r.start,
                stop: r.stop,
                step: r.step,
            },
        )));
    }
    let kind = match v {
        Value::Tuple(_) => "tuple_iterator",
        Value::Str(_) => "str_ascii_iterator",
        Value::Dict(_) => "dict_keyiterator",
        _ => "iterator",
    };
    let items = subscript::iterate(v)?;
    Ok(Value::Iter(PyIter::new(kind, IterState::Seq(items.into()))))
}

fn not_iterator(v: &Value) -> Exception {
    Exception::new(
        ExceptionClass::TypeError,
        format!("'{}' object is not an iterator", v.type_name()),
    )
}

impl<'s> Interp<'s> {
    /// The next item of the iterator `v` (`None`: exhausted); a TypeError when `v` is
    /// not an iterator.
    pub fn next_of(&mut self, v: &Value, span: Span) -> Result<Option<Value>> {
        let Value::Iter(it) = v else {
            return Err(Error::from(not_iterator(v)).at(span));
        };
        self.next_iter(it, span)
    }

    /// The next item of `it`.
    pub fn next_iter(&mut self, it: &Arc<PyIter>, span: Span) -> Result<Option<Value>> {
        self.check_cancel()?;
        let Some(mut state) = it.take().map_err(|e| Error::from(e).at(span))? else {
            return Ok(None);
        };
        if let IterState::Generator(_) = &*state {
            return self.resume(it, state, super::generator::Resume::Next, span);
        }
        let generated = matches!(&*state, IterState::GenExp { .. });
        match self.step(&mut state, span) {
            Ok(Some(v)) => {
                it.put(state);
                Ok(Some(v))
            }
            Ok(None) => {
                it.finish();
                Ok(None)
            }
            // A generator that raised is finished; `map` and the rest can go on.
            Err(e) if generated => {
                it.finish();
                Err(e)
            }
            Err(e) => {
                it.put(state);
                Err(e)
            }
        }
    }

    /// Every remaining item of an iterable, in a list (an iterator is drained; interrupts
    /// and the memory budget are checked as it grows).
    pub fn collect(&mut self, v: &Value, span: Span) -> Result<Vec<Value>> {
        if !matches!(v, Value::Iter(_)) {
            return self.iterate_value(v, span);
        }
        let mut out = Vec::new();
        while let Some(x) = self.next_of(v, span)? {
            budget::grow("list", &mut out, 1).map_err(|e| Error::from(e).at(span))?;
            out.push(x);
        }
        Ok(out)
    }

    fn call1(&mut self, f: &Value, args: Vec<Value>, span: Span) -> Result<Value> {
        self.call_values(f, args, span)
    }

    fn step(&mut self, state: &mut IterState, span: Span) -> Result<Option<Value>> {
        let err = |e: Exception| Error::from(e).at(span);
        Ok(Some(match state {
            IterState::Seq(items) => return Ok(items.pop_front()),
            IterState::List { list, pos } => {
                let Some(v) = list.get(*pos) else {
                    return Ok(None);
                };
                *pos += 1;
                v
            }
            IterState::Range { next, stop, step } => {
                let more = if *step > 0 {
                    *next < *stop
                } else {
                    *next > *stop
                };
                if !more {
                    return Ok(None);
                }
                let v = *next;
                *next = next.saturating_add(*step);
                if *next == v {
                    *stop = v;
                }
                Value::Int(v)
            }
            IterState::Count { next, step } => {
                let v = next.clone();
                *next = super::operators::binary(BinOp::Add, next, step).map_err(err)?;
                v
            }
            IterState::Walk {
                stack,
                last,
                follow,
            } => return super::builtins::python::os_walk::step(self, stack, last, *follow, span),
            IterState::Repeat { value, left } => {
                if let Some(n) = left {
                    if *n <= 0 {
                        return Ok(None);
                    }
                    *n -= 1;
                }
                value.clone()
            }
            IterState::Cycle { src, saved, pos } => {
                if let Some(s) = src.clone() {
                    match self.next_of(&s, span)? {
                        Some(v) => {
                            budget::grow("cycle", saved, 1).map_err(err)?;
                            saved.push(v.clone());
                            return Ok(Some(v));
                        }
                        None => *src = None,
                    }
                }
                if saved.is_empty() {
                    return Ok(None);
                }
                let v = saved[*pos % saved.len()].clone();
                *pos = (*pos + 1) % saved.len();
                v
            }
            IterState::Chain { iters, more } => loop {
                let Some(front) = iters.front().cloned() else {
                    let Some(m) = more.clone() else {
                        return Ok(None);
                    };
                    match self.next_of(&m, span)? {
                        Some(next) => iters.push_back(to_iter(&next).map_err(err)?),
                        None => return Ok(None),
                    }
                    continue;
                };
                match self.next_of(&front, span)? {
                    Some(v) => break v,
                    None => {
                        iters.pop_front();
                    }
                }
            },
            IterState::Map { func, iters, star } => {
                let (func, iters, star) = (func.clone(), iters.clone(), *star);
                let mut args = Vec::new();
                for i in &iters {
                    match self.next_of(i, span)? {
                        Some(v) => args.push(v),
                        None => return Ok(None),
                    }
                }
                if star {
                    let item = args.pop().unwrap_or(Value::None);
                    args = self.collect(&item, span)?;
                }
                self.call1(&func, args, span)?
            }
            IterState::Filter { func, iter, invert } => {
                let (func, iter, invert) = (func.clone(), iter.clone(), *invert);
                loop {
                    let Some(item) = self.next_of(&iter, span)? else {
                        return Ok(None);
                    };
                    let keep = match &func {
                        Value::None => item.clone(),
                        f => self.call1(f, vec![item.clone()], span)?,
                    };
                    if keep.truthy().map_err(err)? != invert {
                        break item;
                    }
                }
            }
            IterState::Zip { iters, strict } => {
                let (iters, strict) = (iters.clone(), *strict);
                if iters.is_empty() {
                    return Ok(None);
                }
                let mut items = Vec::new();
                for (i, x) in iters.iter().enumerate() {
                    match self.next_of(x, span)? {
                        Some(v) => items.push(v),
                        None if !strict => return Ok(None),
                        None if i > 0 => return Err(zip_strict(i, "shorter").at(span)),
                        None => {
                            for (j, y) in iters.iter().enumerate().skip(1) {
                                if self.next_of(y, span)?.is_some() {
                                    return Err(zip_strict(j, "longer").at(span));
                                }
                            }
                            return Ok(None);
                        }
                    }
                }
                Value::tuple(items)
            }
            IterState::ZipLongest { iters, live, fill } => {
                let mut items = Vec::new();
                for (i, x) in iters.clone().iter().enumerate() {
                    let got = if live[i] {
                        self.next_of(x, span)?
                    } else {
                        None
                    };
                    if got.is_none() {
                        live[i] = false;
                    }
                    items.push(got.unwrap_or_else(|| fill.clone()));
                }
                if !live.iter().any(|l| *l) {
                    return Ok(None);
                }
                Value::tuple(items)
            }
            IterState::Enumerate { iter, n } => {
                let Some(v) = self.next_of(&iter.clone(), span)? else {
                    return Ok(None);
                };
                *n += 1;
                Value::tuple(vec![Value::Int(*n - 1), v])
            }
            IterState::Islice {
                iter,
                next,
                stop,
                step,
                pos,
            } => {
                let iter = iter.clone();
                if stop.is_some_and(|s| *next >= s) {
                    // CPython consumes up to the stop before it reports the end.
                    while stop.is_some_and(|s| *pos < s) {
                        if self.next_of(&iter, span)?.is_none() {
                            break;
                        }
                        *pos += 1;
                    }
                    return Ok(None);
                }
                while *pos < *next {
                    if self.next_of(&iter, span)?.is_none() {
                        return Ok(None);
                    }
                    *pos += 1;
                }
                let Some(v) = self.next_of(&iter, span)? else {
                    return Ok(None);
                };
                *pos += 1;
                *next += *step;
                v
            }
            IterState::While {
                func,
                iter,
                take,
                done,
            } => {
                let (func, iter) = (func.clone(), iter.clone());
                if *take {
                    if *done {
                        return Ok(None);
                    }
                    let Some(v) = self.next_of(&iter, span)? else {
                        return Ok(None);
                    };
                    if self
                        .call1(&func, vec![v.clone()], span)?
                        .truthy()
                        .map_err(err)?
                    {
                        v
                    } else {
                        *done = true;
                        return Ok(None);
                    }
                } else {
                    loop {
                        let Some(v) = self.next_of(&iter, span)? else {
                            return Ok(None);
                        };
                        if *done {
                            break v;
                        }
                        if !self
                            .call1(&func, vec![v.clone()], span)?
                            .truthy()
                            .map_err(err)?
                        {
                            *done = true;
                            break v;
                        }
                    }
                }
            }
            IterState::Accumulate { iter, func, acc } => {
                let Some(v) = self.next_of(&iter.clone(), span)? else {
                    return Ok(None);
                };
                let next = match (acc.take(), func.clone()) {
                    (None, _) => v,
                    (Some(a), Some(f)) => self.call1(&f, vec![a, v], span)?,
                    (Some(a), None) => super::operators::binary(BinOp::Add, &a, &v).map_err(err)?,
                };
                *acc = Some(next.clone());
                next
            }
            IterState::Pairwise { iter, last } => {
                let iter = iter.clone();
                let a = match last.take() {
                    Some(a) => a,
                    None => match self.next_of(&iter, span)? {
                        Some(a) => a,
                        None => return Ok(None),
                    },
                };
                let Some(b) = self.next_of(&iter, span)? else {
                    return Ok(None);
                };
                *last = Some(b.clone());
                Value::tuple(vec![a, b])
            }
            IterState::GroupBy { iter, key, pending } => {
                let (iter, key) = (iter.clone(), key.clone());
                let (k, first) = match pending.take() {
                    Some(p) => p,
                    None => match self.next_of(&iter, span)? {
                        Some(v) => (self.key_of(&key, &v, span)?, v),
                        None => return Ok(None),
                    },
                };
                let mut group = VecDeque::from([first]);
                while let Some(v) = self.next_of(&iter, span)? {
                    let k2 = self.key_of(&key, &v, span)?;
                    if python_eq(&k, &k2) {
                        group.push_back(v);
                    } else {
                        *pending = Some((k2, v));
                        break;
                    }
                }
                let g = PyIter::new("itertools._grouper", IterState::Seq(group));
                Value::tuple(vec![k, Value::Iter(g)])
            }
            IterState::Combinatoric {
                pool,
                how,
                idx,
                cycles,
                first,
            } => return combinatoric(pool, *how, idx, cycles, first),
            IterState::Tee { shared, pos } => {
                let (iter, have) = {
                    let s = shared.lock().unwrap_or_else(|e| e.into_inner());
                    match s.buffer.get(*pos - s.base) {
                        Some(v) => (None, Some(v.clone())),
                        None => (Some(s.iter.clone()), None),
                    }
                };
                let v = match (have, iter) {
                    (Some(v), _) => v,
                    (None, Some(i)) => {
                        let Some(v) = self.next_of(&i, span)? else {
                            return Ok(None);
                        };
                        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                        s.buffer.push_back(v.clone());
                        v
                    }
                    (None, None) => return Ok(None),
                };
                *pos += 1;
                v
            }
            IterState::Call { func, sentinel } => {
                let (func, sentinel) = (func.clone(), sentinel.clone());
                let v = self.call1(&func, Vec::new(), span)?;
                if python_eq(&v, &sentinel) {
                    return Ok(None);
                }
                v
            }
            IterState::GenExp {
                elt,
                gens,
                env,
                iters,
            } => {
                if self.frames.len() >= super::recursion_limit() {
                    return Err(Error::new(
                        ExceptionClass::RecursionError,
                        "maximum recursion depth exceeded",
                    )
                    .at(span));
                }
                self.frames.push(env.clone());
                let r = self.genexp_step(elt, gens, iters, span);
                self.frames.pop();
                return r;
            }
            IterState::Generator(_) => return Ok(None),
            IterState::Object { obj } => {
                let obj = obj.clone();
                return self.user_next(&obj, span);
            }
        }))
    }

    fn key_of(&mut self, key: &Option<Value>, v: &Value, span: Span) -> Result<Value> {
        match key {
            Some(f) if !matches!(f, Value::None) => self.call1(f, vec![v.clone()], span),
            _ => Ok(v.clone()),
        }
    }

    /// One item of a generator expression: advances the innermost open clause, opening
    /// inner clauses and testing filters until an element comes out.
    fn genexp_step(
        &mut self,
        elt: &ragtag_syntax::ast::Expr,
        gens: &[ragtag_syntax::ast::Comprehension],
        iters: &mut Vec<Value>,
        span: Span,
    ) -> Result<Option<Value>> {
        'next: loop {
            let Some(top) = iters.last().cloned() else {
                return Ok(None);
            };
            let level = iters.len() - 1;
            let Some(item) = self.next_of(&top, span)? else {
                iters.pop();
                if iters.is_empty() {
                    return Ok(None);
                }
                continue;
            };
            let g = &gens[level];
            self.assign(&g.target, item)?;
            for c in &g.conds {
                let keep = self.eval(c)?;
                if !keep.truthy().map_err(|e| Error::from(e).at(c.span))? {
                    continue 'next;
                }
            }
            if level + 1 < gens.len() {
                let inner = &gens[level + 1];
                let v = self.eval_iterable(&inner.iter)?;
                iters.push(v);
                continue;
            }
            return self.eval(elt).map(Some);
        }
    }

    /// Evaluates the iterable of a `for` clause into an iterator; `range(…)` counts
    /// lazily, without building its list.
    pub(super) fn eval_iterable(&mut self, e: &ragtag_syntax::ast::Expr) -> Result<Value> {
        if let Some(r) = self.lazy_range(e)? {
            return Ok(r);
        }
        let v = self.eval(e)?;
        self.iter_of(&v, e.span)
    }

    /// An iterator over `v`: `iter(v)`. An instance of a user class is read whole through
    /// its `__iter__` or `__getitem__` (ragtag has no `__next__` protocol yet).
    pub fn iter_of(&mut self, v: &Value, span: Span) -> Result<Value> {
        if let Value::Instance(_) = v {
            if let Some(it) = self.instance_iter(v, span)? {
                return Ok(it);
            }
            let items = self.iterate_value(v, span)?;
            return to_iter(&Value::list(items)).map_err(|err| Error::from(err).at(span));
        }
        to_iter(v).map_err(|err| Error::from(err).at(span))
    }

    /// `range(…)` written in place, as a lazy iterator (`None` for anything else).
    fn lazy_range(&mut self, e: &ragtag_syntax::ast::Expr) -> Result<Option<Value>> {
        use ragtag_syntax::ast::ExprKind;
        let ExprKind::Call(f, args) = &e.kind else {
            return Ok(None);
        };
        let ExprKind::Name(n) = &f.kind else {
            return Ok(None);
        };
        if n != "range"
            || args
                .iter()
                .any(|a| a.name.is_some() || a.star || a.double_star)
        {
            return Ok(None);
        }
        if !matches!(self.lookup(n, f.span)?, Value::Builtin(b) if b.name == "range") {
            return Ok(None);
        }
        let mut values = Vec::new();
        for a in args {
            values.push(self.eval(&a.value)?);
        }
        let ints: Option<Vec<i64>> = values
            .iter()
            .map(|v| match v {
                Value::Int(i) => Some(*i),
                _ => None,
            })
            .collect();
        let (next, stop, step) = match ints.as_deref() {
            Some(&[stop]) => (0, stop, 1),
            Some(&[start, stop]) => (start, stop, 1),
            Some(&[start, stop, step]) if step != 0 => (start, stop, step),
            _ => {
                // Let `range` itself say what is wrong.
                let r = self.call_values(&Value::Builtin(range_builtin()), values, e.span)?;
                return to_iter(&r)
                    .map(Some)
                    .map_err(|err| Error::from(err).at(e.span));
            }
        };
        Ok(Some(Value::Iter(PyIter::new(
            "range_iterator",
            IterState::Range { next, stop, step },
        ))))
    }
}

fn range_builtin() -> &'static crate::eval::builtins::Builtin {
    crate::eval::builtins::registry()
        .get("range")
        .expect("range is a builtin")
}
