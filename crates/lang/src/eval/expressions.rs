//! Expressions: evaluating each kind of expression node.

use super::builtins::python::format;
use super::{operators, subscript, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::{ClosureBody, PyDict, PyList, PySet, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, Exception};
use ragtag_syntax::ast::*;

impl<'s> Interp<'s> {
    /// Evaluates an expression.
    ///
    /// The kinds a loop body evaluates over and over are here; the rest are in
    /// [`Self::eval_rest`], out of line, so that this function's frame (one per nested
    /// expression) stays small.
    pub fn eval(&mut self, e: &Expr) -> Result<Value> {
        // Leaves first: they evaluate nothing nested, so they need no stack check.
        match &e.kind {
            ExprKind::Int(i) => return Ok(Value::Int(*i)),
            ExprKind::Float(f) => return Ok(Value::Float(*f)),
            ExprKind::Bool(b) => return Ok(Value::Bool(*b)),
            ExprKind::None => return Ok(Value::None),
            ExprKind::Name(n) => return self.lookup_ident(n, e.span),
            _ => {}
        }
        ragtag_engine::guard::check_stack().map_err(|err| Error::from(err).at(e.span))?;
        Ok(match &e.kind {
            ExprKind::Attr(obj, name) => {
                if let Some(v) = self.name_own_attr(obj, name) {
                    return Ok(v);
                }
                let o = self.eval(obj)?;
                self.get_attr(o, name, e.span, obj.span)?
            }
            ExprKind::Call(f, args) => return self.eval_call(e, f, args),
            ExprKind::Subscript(obj, index) => {
                if let Some(r) = self.named_item(obj, index, e.span) {
                    return r;
                }
                let o = self.eval(obj)?;
                subscript::subscript(self, &o, index, e.span)?
            }
            ExprKind::Binary(op, l, r) if !matches!(op, BinOp::In | BinOp::NotIn) => {
                return self.eval_binary(e, *op, l, r)
            }
            _ => return self.eval_rest(e),
        })
    }

    /// `x.name` for a variable `x` holding an instance whose own attribute `name` is simply
    /// the answer (`self.total`): read without taking a reference to the instance.
    fn name_own_attr(&self, obj: &Expr, name: &str) -> Option<Value> {
        let ExprKind::Name(n) = &obj.kind else {
            return None;
        };
        match self.peek_ident(n)? {
            Value::Instance(i) => super::classes::own_plain_attr(i, name),
            _ => None,
        }
    }

    /// `l op r`, eagerly.
    #[inline]
    fn eval_binary(&mut self, e: &Expr, op: BinOp, l: &Expr, r: &Expr) -> Result<Value> {
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        // Two ints (counters, indices, sums) are answered here, without the checks for
        // instances, containers and tensors.
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            if let Some(v) = operators::small_ints(op, *x, *y) {
                return Ok(v);
            }
        }
        match self.binary_values(op, &a, &b, e.span)? {
            Ok(v) => Ok(v),
            Err(err) => Err(binary_error(err, e.span, l, r, &a, &b)),
        }
    }

    /// A call expression, `f(args)` or `obj.name(args)`.
    #[inline(never)]
    fn eval_call(&mut self, e: &Expr, f: &Expr, args: &[Arg]) -> Result<Value> {
        if let ExprKind::Attr(obj, name) = &f.kind {
            return self.call_attr(f, obj, name, args, e.span);
        }
        if let ExprKind::Name(n) = &f.kind {
            if let Some(result) = self.cached_call(n, args, e.span) {
                return result;
            }
        }
        let func = self.eval(f)?;
        let func = match func {
            Value::Closure(c) => match self.call_closure_positional(c, args, e.span) {
                Ok(result) => return result,
                Err(c) => Value::Closure(c),
            },
            func => func,
        };
        let direct = match &func {
            Value::Builtin(b) => self.call_builtin_positional(b, None, args, e.span),
            _ => None,
        };
        if let Some(result) = direct {
            return result;
        }
        let call_args = self.call_args(&func, args)?;
        let result = self.call(&func, call_args, e.span)?;
        Ok(self.rebind_receiver(f, &func, result))
    }

    /// Every other kind of expression.
    #[inline(never)]
    fn eval_rest(&mut self, e: &Expr) -> Result<Value> {
        let v = match &e.kind {
            // The kinds `eval` takes itself.
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Name(_)
            | ExprKind::Attr(..)
            | ExprKind::Call(..)
            | ExprKind::Subscript(..) => return self.eval(e),
            ExprKind::Str(s) => Value::str(s),
            ExprKind::FString(parts) => {
                // Room for the literal text and a short value in each field, so that most
                // f-strings are built without growing their string.
                let room = parts
                    .iter()
                    .map(|p| match p {
                        FPart::Text(t) => t.len(),
                        FPart::Field(_) => 16,
                    })
                    .sum::<usize>();
                #[allow(clippy::disallowed_methods)] // sized by the source text
                let mut out = String::with_capacity(room);
                self.fstring(parts, &mut out)?;
                Value::str(out)
            }
            ExprKind::Ellipsis => Value::Opaque(crate::value::ThinStr::from("Ellipsis")),
            ExprKind::List(items) => {
                if let Some(n) = subscript::literal_nested(e) {
                    Value::literal(n.into())
                } else {
                    Value::list(self.display_items(items)?)
                }
            }
            ExprKind::Data(n) => Value::List(PyList::from_literal(n.clone())),
            ExprKind::Tuple(items) => Value::tuple(self.display_items(items)?),
            ExprKind::Dict(items) => self.dict_display(items)?,
            // The parser admits `*x` only as an item of a display or a target list.
            ExprKind::Starred(_) => {
                return Err(Error::new(
                    ExceptionClass::SyntaxError,
                    "can't use starred expression here",
                )
                .at(e.span))
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                if let Value::Instance(_) = v {
                    return self.instance_unary(*op, &v, e.span);
                }
                operators::unary(*op, &v).map_err(|err| Error::from(err).at(e.span))?
            }
            ExprKind::Binary(op @ (BinOp::In | BinOp::NotIn), l, r) if self.is_iter_expr(r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                self.contains_lazy(*op, &a, &b, e.span)?
            }
            ExprKind::Binary(op, l, r) => return self.eval_binary(e, *op, l, r),
            ExprKind::Logic(op, l, r) => {
                let a = self.eval(l)?;
                let t = self.truth(&a, l.span)?;
                match (op, t) {
                    (LogicOp::And, false) | (LogicOp::Or, true) => a,
                    _ => self.eval(r)?,
                }
            }
            ExprKind::Walrus(name, value) => {
                let v = self.eval(value)?;
                self.bind_walrus(name, v.clone());
                v
            }
            ExprKind::Compare(first, links) => {
                let mut left = self.eval(first)?;
                let mut left_expr: &Expr = first;
                let mut result = Value::Bool(true);
                for (op, right_expr) in links {
                    let right = self.eval(right_expr)?;
                    let span = left_expr.span.to(right_expr.span);
                    result = match self.binary_values(*op, &left, &right, span)? {
                        Ok(v) => v,
                        Err(err) => {
                            return Err(binary_error(
                                err, span, left_expr, right_expr, &left, &right,
                            ))
                        }
                    };
                    if !self.truth(&result, span)? {
                        break;
                    }
                    left = right;
                    left_expr = right_expr;
                }
                result
            }
            ExprKind::Not(x) => {
                let v = self.eval(x)?;
                Value::Bool(!self.truth(&v, x.span)?)
            }
            ExprKind::Lambda(params, body) => {
                self.make_closure("<lambda>", params, ClosureBody::Expr((**body).clone()))?
            }
            ExprKind::IfElse { cond, then, orelse } => {
                let c = self.eval(cond)?;
                if self.truth(&c, cond.span)? {
                    self.eval(then)?
                } else {
                    self.eval(orelse)?
                }
            }
            ExprKind::GenExp { elt, generators } => self.genexp(elt, generators)?,
            ExprKind::Yield(_) | ExprKind::YieldFrom(_) => {
                return Err(
                    Error::new(ExceptionClass::SyntaxError, "'yield' outside function").at(e.span),
                )
            }
            ExprKind::ListComp { elt, generators } => {
                let mut out = Vec::new();
                self.comprehension(generators, &mut |it: &mut Interp<'s>| {
                    let v = it.eval(elt)?;
                    budget::grow("comprehension", &mut out, 1)
                        .map_err(|err| Error::from(err).at(elt.span))?;
                    out.push(v);
                    Ok(())
                })?;
                Value::list(out)
            }
            ExprKind::DictComp {
                key,
                value,
                generators,
            } => {
                let d = PyDict::new(Vec::new()).map_err(Error::from)?;
                self.comprehension(generators, &mut |it: &mut Interp<'s>| {
                    let k = it.eval(key)?;
                    let v = it.eval(value)?;
                    d.insert(k, v).map_err(|err| Error::from(err).at(key.span))
                })?;
                Value::Dict(d)
            }
            ExprKind::Set(items) => {
                let constants = items.len() > 2 && items.iter().all(int_or_str_literal);
                let items = self.display_items(items)?;
                for x in &items {
                    self.prime_key(x, e.span)?;
                }
                let made = if constants {
                    PySet::from_constants(items)
                } else {
                    PySet::from_items(items, false)
                };
                Value::Set(made.map_err(|err| Error::from(err).at(e.span))?)
            }
            ExprKind::SetComp { elt, generators } => {
                let s = PySet::empty(false);
                self.comprehension(generators, &mut |it: &mut Interp<'s>| {
                    let v = it.eval(elt)?;
                    it.prime_key(&v, elt.span)?;
                    s.add(v).map_err(|err| Error::from(err).at(elt.span))
                })?;
                Value::Set(s)
            }
            ExprKind::Bytes(b) => Value::bytes(b.clone()),
            ExprKind::BigInt(text) => match operators::bigint::parse_literal(text) {
                Some(n) => operators::bigint::norm(n),
                None => {
                    return Err(
                        Error::new(ExceptionClass::SyntaxError, "invalid integer literal")
                            .at(e.span),
                    )
                }
            },
        };
        Ok(v)
    }
}

/// The items of a comprehension's `for` clause (see `Interp::comprehension_items`).
enum CompItems {
    Range(crate::value::range::PyRange, std::ops::Range<i128>),
    Values(std::vec::IntoIter<Value>),
}

impl Iterator for CompItems {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        match self {
            CompItems::Range(r, ks) => ks.next().map(|k| Value::Int(r.at(k))),
            CompItems::Values(items) => items.next(),
        }
    }
}

/// An int or str literal (`-1` included): CPython folds a set display of three or more of
/// them into a constant.
fn int_or_str_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::BigInt(_) | ExprKind::Str(_) => true,
        ExprKind::Unary(UnaryOp::Neg | UnaryOp::Pos | UnaryOp::Invert, x) => {
            matches!(x.kind, ExprKind::Int(_) | ExprKind::BigInt(_))
        }
        _ => false,
    }
}

impl<'s> Interp<'s> {
    /// Runs the `for` clauses of a comprehension, calling `emit` for each combination that
    /// passes the filters. The first iterable is evaluated where the comprehension is; the
    /// loop variables live in their own frame, as in Python 3.
    fn comprehension(
        &mut self,
        generators: &[Comprehension],
        emit: &mut dyn FnMut(&mut Interp<'s>) -> Result<()>,
    ) -> Result<()> {
        let Some(first) = generators.first() else {
            return emit(self);
        };
        let it = self.eval(&first.iter)?;
        let items = self.comprehension_items(&it, first.iter.span)?;
        let env = crate::value::env::Env::comprehension(self.shared_frame());
        let vars = self.spare_locals();
        self.push_own_frame(env, vars);
        let result = self.comprehension_level(generators, 0, Some(items), emit);
        if let Some(vars) = self.own_frame_vars() {
            self.keep_locals(vars);
        }
        self.frames.pop();
        result
    }

    fn comprehension_level(
        &mut self,
        generators: &[Comprehension],
        level: usize,
        items: Option<CompItems>,
        emit: &mut dyn FnMut(&mut Interp<'s>) -> Result<()>,
    ) -> Result<()> {
        let g = &generators[level];
        let items = match items {
            Some(items) => items,
            None => {
                let it = self.eval(&g.iter)?;
                self.comprehension_items(&it, g.iter.span)?
            }
        };
        'items: for item in items {
            self.check_cancel()?;
            self.assign(&g.target, item)?;
            for c in &g.conds {
                let test = self.eval(c)?;
                if !self.truth(&test, c.span)? {
                    continue 'items;
                }
            }
            if level + 1 == generators.len() {
                emit(self)?;
            } else {
                self.comprehension_level(generators, level + 1, None, emit)?;
            }
        }
        Ok(())
    }

    /// What a comprehension's `for` clause runs over: a range's items made one at a time
    /// (`[i for i in range(n)]` does not first build a list of `n` ints), anything else
    /// collected as iterating it gives.
    fn comprehension_items(&mut self, it: &Value, span: Span) -> Result<CompItems> {
        Ok(match it {
            Value::Range(r) => CompItems::Range(**r, 0..r.len()),
            _ => CompItems::Values(self.collect(it, span)?.into_iter()),
        })
    }

    /// Writes an f-string's text and formatted fields to `out`.
    fn fstring(&mut self, parts: &[FPart], out: &mut String) -> Result<()> {
        for part in parts {
            match part {
                FPart::Text(t) => out.push_str(t),
                FPart::Field(f) => {
                    let v = self.eval(&f.expr)?;
                    self.prepare_shown(&v, f.expr.span)?;
                    // A spec written as plain text (`{x:>7}`, the common case) is used as
                    // written; only one with nested fields is built for each value.
                    let built;
                    let spec: &str = match f.spec.as_slice() {
                        [] => "",
                        [FPart::Text(t)] => t,
                        parts => {
                            let mut s = String::new();
                            self.fstring(parts, &mut s)?;
                            built = s;
                            &built
                        }
                    };
                    // `{x=}` shows the repr unless a conversion or a spec is given.
                    let conversion = match (f.conversion, &f.debug) {
                        (None, Some(_)) if f.spec.is_empty() => Some('r'),
                        (c, _) => c,
                    };
                    let v = format::convert(&v, conversion);
                    let text = match self.format_instance(&v, spec, f.expr.span)? {
                        Some(text) => text,
                        None => format::format_value(&v, spec)
                            .map_err(|err| Error::from(err).at(f.expr.span))?,
                    };
                    let total = out.len() + text.len() + f.debug.as_ref().map_or(0, String::len);
                    budget::check_bytes("f-string", total as u128)
                        .map_err(|err| Error::from(err).at(f.expr.span))?;
                    if let Some(d) = &f.debug {
                        out.push_str(d);
                    }
                    // A field that starts the text is moved in, not copied.
                    if out.is_empty() {
                        *out = text;
                    } else {
                        out.push_str(&text);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Labels both operands of a failing binary operator with their descriptions (kind,
/// dtype and shape); the error's span is the whole expression.
impl Interp<'_> {
    /// `a op b` on evaluated operands, as the expression computes it: a user instance's
    /// methods, containers of instances compared item by item, or the operator itself.
    /// The inner error is the operator's own failure, for the caller to point at its
    /// operands.
    #[inline]
    pub(crate) fn binary_values(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<std::result::Result<Value, Exception>> {
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            return self.instance_binary(op, a, b, span).map(Ok);
        }
        let compares = match op {
            BinOp::Eq | BinOp::Ne => true,
            // Only a list's or tuple's items are compared with `==` (a dict's or set's `in`
            // hashes).
            BinOp::In | BinOp::NotIn => matches!(b, Value::List(_) | Value::Tuple(_)),
            _ => false,
        };
        if compares
            && (super::protocols::holds_instance(b)
                || (matches!(op, BinOp::Eq | BinOp::Ne) && super::protocols::holds_instance(a)))
        {
            return self.container_binary(op, a, b, span).map(Ok);
        }
        // `'%s' % (obj,)`, `'%(k)r' % {'k': obj}`: instances inside are formatted with their
        // `__str__` and `__repr__`, as an instance alone is.
        if op == BinOp::Mod && matches!(a, Value::Str(_)) && may_hold_shown(b) {
            self.prepare_shown(b, span)?;
        }
        match operators::binary(op, a, b) {
            Ok(v) => Ok(Ok(v)),
            // Lists or tuples of instances order item by item with their methods.
            Err(_) if op.is_comparison() && super::protocols::orders_instances(a, b) => {
                self.sequence_order(op, a, b, span).map(Ok)
            }
            // `int | None`: the union of two types.
            Err(err) => match op {
                BinOp::BitOr => {
                    use crate::eval::builtins::python::union_type::{type_union, union_error};
                    match type_union(a, b) {
                        // Hashed now, as an instance is when made, so a dict finds it.
                        Some(u) => {
                            self.prime_quietly(&u, span);
                            Ok(Ok(u))
                        }
                        None => Ok(Err(union_error(a, b).unwrap_or(err))),
                    }
                }
                _ => Ok(Err(err)),
            },
        }
    }
}

fn binary_error(err: Exception, span: Span, l: &Expr, r: &Expr, a: &Value, b: &Value) -> Error {
    let describe = |v: &Value| crate::render::describe(v);
    Error::from(err)
        .at(span)
        .with_label(l.span, describe(a))
        .with_label(r.span, describe(b))
}

/// Whether the arguments of `'…' % b` may hold an instance to format with its `__str__` or
/// `__repr__`: a dict, or a tuple with an item other than a number, str, bool or None (the
/// usual `'%d: %s' % (i, name)` is not looked into).
fn may_hold_shown(b: &Value) -> bool {
    match b {
        Value::Dict(_) => true,
        Value::Tuple(items) => !items.iter().all(|x| {
            matches!(
                x,
                Value::Int(_) | Value::Float(_) | Value::Str(_) | Value::Bool(_) | Value::None
            )
        }),
        _ => false,
    }
}
