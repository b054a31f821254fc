//! Statements: running blocks, control flow, `try`/`except`, `raise`, `assert` and
//! `import`.

use super::builtins;
use super::{root_module, subscript, Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::{ClosureBody, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl<'s> Interp<'s> {
    /// Runs statements in order until one breaks, continues or returns.
    pub(super) fn exec_block(&mut self, body: &[Stmt]) -> Result<Flow> {
        self.block_depth += 1;
        let flow = self.exec_statements(body);
        self.block_depth -= 1;
        flow
    }

    fn exec_statements(&mut self, body: &[Stmt]) -> Result<Flow> {
        for stmt in body {
            self.check_cancel()?;
            match self.exec(stmt)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs one statement.
    ///
    /// The kinds a loop body runs over and over are here; the rest are in
    /// [`Self::exec_rest`], out of line, so that this function's frame stays small.
    pub(super) fn exec(&mut self, stmt: &Stmt) -> Result<Flow> {
        ragtag_engine::guard::check_stack().map_err(|e| Error::from(e).at(stmt.span))?;
        match &stmt.kind {
            StmtKind::Expr(e) => {
                let v = self.eval(e)?;
                // A None inside a block (a call in a loop) shows nothing.
                let quiet = self.block_depth > 0 && matches!(v, Value::None);
                if self.frames.is_empty() && !quiet {
                    self.show_statement_value(e, v)?;
                }
            }
            StmtKind::Assign { targets, value } => {
                let v = self.eval(value)?;
                for t in targets {
                    self.assign(t, v.clone())?;
                }
            }
            StmtKind::If { cond, body, orelse } => {
                let c = self.eval(cond)?;
                let t = self.truth(&c, cond.span)?;
                return self.exec_block(if t { body } else { orelse });
            }
            StmtKind::AugAssign { target, op, value } => {
                self.aug_assign(target, *op, value, stmt.span)?;
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            // Read when the function is defined (see `Bindings`); nothing to do when run.
            StmtKind::Pass | StmtKind::Global(_) | StmtKind::Nonlocal(_) => {}
            _ => return self.exec_rest(stmt),
        }
        Ok(Flow::Normal)
    }

    /// Shows the value of an expression statement at top level, as the REPL and `run` do.
    #[inline(never)]
    fn show_statement_value(&mut self, e: &Expr, v: Value) -> Result<()> {
        // A top-level call of `print` shows only what it printed.
        let print_call = matches!(&e.kind, ExprKind::Call(f, _)
            if matches!(&f.kind, ExprKind::Name(n) if n == "print"));
        // A None shows only for a statement of its own at top level (not a call inside a
        // loop), as CPython shows each top-level statement's value.
        let shows_none = self.sink.shows_none() && !print_call && self.block_depth == 0;
        if !matches!(v, Value::None) || shows_none {
            self.prepare_shown(&v, e.span)?;
            self.sink.display(&v);
        }
        Ok(())
    }

    /// Every other kind of statement.
    #[inline(never)]
    fn exec_rest(&mut self, stmt: &Stmt) -> Result<Flow> {
        match &stmt.kind {
            StmtKind::Expr(_)
            | StmtKind::Assign { .. }
            | StmtKind::If { .. }
            | StmtKind::AugAssign { .. }
            | StmtKind::Return(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Pass
            | StmtKind::Global(_)
            | StmtKind::Nonlocal(_) => return self.exec(stmt),
            // `from __future__ import …` only changes how Python 2 compiled the file.
            StmtKind::Import { module, .. } if module.starts_with("__future__.") => {}
            StmtKind::Import { module, alias } => {
                let bound = alias
                    .clone()
                    .unwrap_or_else(|| module.split('.').next().unwrap_or(module).to_string());
                let value = import(module).map_err(|e| e.at(stmt.span))?;
                let value = match (alias, value) {
                    // `import a.b` binds `a`.
                    (None, Value::Module(m)) => {
                        let root = m.split('.').next().unwrap_or("").to_string();
                        Value::Module(crate::value::ThinStr::from(root.as_str()))
                    }
                    (_, v) => v,
                };
                self.set(&bound, value);
            }
            StmtKind::ImportAll { module } => {
                let Value::Module(m) = import(module).map_err(|e| e.at(stmt.span))? else {
                    let (package, _) = module.rsplit_once('.').unwrap_or((module, ""));
                    return Err(Error::new(
                        ExceptionClass::ModuleNotFoundError,
                        format!("No module named '{module}'; '{package}' is not a package"),
                    )
                    .at(stmt.span));
                };
                for name in builtins::module_names(&m) {
                    if let Some(v) = builtins::module_attr(&m, &name) {
                        self.set(&name, v);
                    }
                }
            }
            StmtKind::Del(items) => {
                for e in items {
                    self.delete(e)?;
                }
            }
            StmtKind::While { cond, body, orelse } => loop {
                self.check_cancel()?;
                let c = self.eval(cond)?;
                if !self.truth(&c, cond.span)? {
                    return self.exec_block(orelse);
                }
                match self.exec_block(body)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
            },
            StmtKind::Def {
                name,
                params,
                body,
                returns,
            } => {
                let shown = match &self.qualname {
                    Some(q) => format!("{q}.{name}"),
                    None => name.clone(),
                };
                let mut closure =
                    self.make_closure(&shown, params, ClosureBody::Block(body.clone()))?;
                self.annotate_function(&mut closure, params, returns.as_deref())?;
                self.set(name, closure);
            }
            StmtKind::Raise(e, cause) => return Err(self.raise_error(e.as_ref(), cause.as_ref())?),
            StmtKind::Assert { test, msg } => {
                let t = self.eval(test)?;
                let holds = self.truth(&t, test.span)?;
                if !holds {
                    let message = match msg {
                        Some(m) => crate::render::tf_text::str_of(&self.eval(m)?),
                        None => String::new(),
                    };
                    return Err(Error::new(ExceptionClass::AssertionError, message)
                        .at(test.span)
                        .with_hint("the asserted condition is false"));
                }
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => {
                // `else:` runs when the items ran out, not after a `break`; a `break` or
                // `continue` in it belongs to an enclosing loop.
                return match self.exec_for(target, iter, body)? {
                    Flow::Break => Ok(Flow::Normal),
                    Flow::Normal | Flow::Continue => self.exec_block(orelse),
                    ret => Ok(ret),
                };
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            } => return self.exec_try(body, handlers, orelse, finally),
            StmtKind::Class { name, bases, body } => {
                self.exec_class(name, bases, body, stmt.span)?;
            }
            StmtKind::With { items, body } => return self.exec_with(items, body),
            StmtKind::Decorated { decorators, def } => return self.exec_decorated(decorators, def),
            StmtKind::Match { subject, cases } => return self.exec_match(subject, cases),
            StmtKind::AnnAssign {
                target,
                annotation,
                value,
                simple,
            } => self.exec_ann_assign(target, annotation, value.as_ref(), *simple)?,
        }
        Ok(Flow::Normal)
    }

    /// `try`: the body, the handler that catches its error or else the `else:` block, then
    /// the `finally:` block.
    #[inline(never)]
    fn exec_try(
        &mut self,
        body: &[Stmt],
        handlers: &[Handler],
        orelse: &[Stmt],
        finally: &[Stmt],
    ) -> Result<Flow> {
        let result = self.exec_block(body);
        let result = match result {
            Err(err)
                if err.class != ExceptionClass::KeyboardInterrupt
                    || self.catches_interrupt(handlers) =>
            {
                self.handle(err, handlers)
            }
            // `else:` runs when the body raised nothing and did not return, break or
            // continue; its own errors are not the handlers' to catch.
            Ok(Flow::Normal) => self.exec_block(orelse),
            other => other,
        };
        if !finally.is_empty() {
            match self.exec_block(finally)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        result
    }

    /// A `for` loop's passes: `Flow::Break` when a `break` ended it.
    #[inline(never)]
    fn exec_for(&mut self, target: &Target, iter: &Expr, body: &[Stmt]) -> Result<Flow> {
        let mut it = self.eval(iter)?;
        if let Value::Instance(_) = it {
            it = self.iter_of(&it, iter.span)?;
        }
        if let Value::Iter(_) = it {
            return self.for_iter(target, &it, body, iter.span);
        }
        // A range's items are made one pass at a time, as CPython's range iterator
        // does: `for i in range(10**12)` allocates nothing up front.
        if let Value::Range(r) = it {
            for k in 0..r.len() {
                self.check_cancel()?;
                self.assign(target, Value::Int(r.at(k)))?;
                match self.exec_block(body)? {
                    Flow::Break => return Ok(Flow::Break),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
            }
            return Ok(Flow::Normal);
        }
        // A list is read an item at a time, as CPython's list iterator reads it: items
        // appended in the loop are visited (a work list), and the loop sees changes.
        if let Value::List(l) = &it {
            let mut k = 0;
            while let Some(item) = l.get(k) {
                self.check_cancel()?;
                self.assign(target, item)?;
                match self.exec_block(body)? {
                    Flow::Break => return Ok(Flow::Break),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
                k += 1;
            }
            return Ok(Flow::Normal);
        }
        let items = self.iterate_value(&it, iter.span)?;
        let sized = super::keys::Sized::of(&it);
        for item in items {
            self.check_cancel()?;
            self.assign(target, item)?;
            match self.exec_block(body)? {
                Flow::Break => return Ok(Flow::Break),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
            if let Some(s) = &sized {
                s.check(iter.span)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// `target op= value`: the target (and a subscript's object and index) is evaluated once;
    /// a list's `+=` and `*=` and a dict's `|=` change it in place, as Python's do.
    fn aug_assign(&mut self, target: &Target, op: BinOp, value: &Expr, span: Span) -> Result<()> {
        // `self.total += x`, in place when it can be (see `aug_own_attr`).
        if let Target::Attr(obj, name, _) = target {
            if self.aug_named_attr(obj, name, op, value) {
                return Ok(());
            }
        }
        let (current, place) = match target {
            Target::Name(n, s) => (self.lookup_ident(n, *s)?, Place::Name),
            Target::Subscript(obj, index, s) => {
                let o = self.eval(obj)?;
                let sub = self.eval_sub(&o, index, *s)?;
                let cur = match &o {
                    Value::List(_) | Value::Dict(_) | Value::Tuple(_) | Value::Str(_) => {
                        match self.dict_missing(&o, &sub, *s)? {
                            Some(v) => v,
                            None => super::items::get_item(&o, &sub, *s)?,
                        }
                    }
                    // Reading a tensor's item is fine; storing it back fails below.
                    _ => subscript::subscript(self, &o, index, *s)?,
                };
                (cur, Place::Item(o, sub))
            }
            Target::Attr(obj, name, s) => {
                // The object is evaluated once, as CPython does (`f().x += 1` calls `f` once).
                let o = self.eval(obj)?;
                let own = match &o {
                    Value::Instance(i) => super::classes::own_plain_attr(i, name),
                    _ => None,
                };
                let cur = match own {
                    Some(v) => v,
                    None => self.get_attr(o.clone(), name, *s, obj.span)?,
                };
                (cur, Place::Attr(o, name, *s))
            }
            Target::Tuple(_, s) | Target::Starred(_, s) => {
                return Err(Error::new(
                    ExceptionClass::SyntaxError,
                    "'tuple' is an illegal expression for augmented assignment",
                )
                .at(*s))
            }
        };
        let mut operand = self.eval(value)?;
        // A list's `+=` extends it with any iterable: a generator's or an iterable object's
        // items are read first.
        if op == BinOp::Add
            && matches!(current, Value::List(_))
            && matches!(operand, Value::Iter(_) | Value::Instance(_))
        {
            operand = Value::list(self.iterate_value(&operand, value.span)?);
        }
        if matches!(current, Value::Instance(_)) || matches!(operand, Value::Instance(_)) {
            let v = self.instance_aug(op, &current, &operand, span)?;
            return self.store_aug(target, place, v);
        }
        if let (Value::Int(x), Value::Int(y)) = (&current, &operand) {
            if let Some(v) = super::operators::small_ints(op, *x, *y) {
                return self.store_aug(target, place, v);
            }
        }
        let v = match super::operators::in_place(op, &current, &operand) {
            Some(r) => r,
            None => super::operators::binary(op, &current, &operand),
        }
        .map_err(|err| {
            Error::from(err)
                .at(span)
                .with_label(target.span(), crate::render::describe(&current))
                .with_label(value.span, crate::render::describe(&operand))
        })?;
        self.store_aug(target, place, v)
    }

    /// Stores an augmented assignment's result where its target was read.
    fn store_aug(&mut self, target: &Target, place: Place, v: Value) -> Result<()> {
        match (target, place) {
            (_, Place::Item(o, sub)) => self.store_item(&o, sub, v, target.span()),
            (_, Place::Attr(o, name, s)) => self.store_attr(&o, name, v, s),
            (Target::Name(n, _), Place::Name) => {
                self.set_ident(n, v);
                Ok(())
            }
            (t, Place::Name) => self.assign(t, v),
        }
    }

    /// `o[sub] = v` after an augmented operator: an instance's `__setitem__`, else the
    /// container's own item.
    fn store_item(
        &mut self,
        o: &Value,
        sub: super::items::Sub,
        v: Value,
        span: Span,
    ) -> Result<()> {
        if !matches!(o, Value::Instance(_)) {
            return super::items::set_item(o, sub, v, span);
        }
        let opt = |x: Option<i64>| x.map_or(Value::None, Value::Int);
        let key = match sub {
            super::items::Sub::Key(k, _) => k,
            super::items::Sub::Slice(a, b, c) => {
                Value::Slice(std::sync::Arc::new(crate::value::slice::PySlice {
                    start: opt(a),
                    stop: opt(b),
                    step: opt(c),
                }))
            }
        };
        if self.dunder(o, "__setitem__", vec![key, v], span)?.is_none() {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object does not support item assignment",
                    o.type_name()
                ),
            )
            .at(span));
        }
        Ok(())
    }

    /// Whether a handler names a class that catches KeyboardInterrupt. Read from the
    /// source, not evaluated: an interrupted run evaluates nothing more unless a handler
    /// asks for the interrupt (a bare `except:` does not, so Ctrl-C still stops a loop).
    pub(super) fn catches_interrupt(&self, handlers: &[Handler]) -> bool {
        let names_it = |c: &Expr| match &c.kind {
            ExprKind::Name(n) => ExceptionClass::from_name(n).is_some_and(|k| {
                k.name() == n.as_str() && k.catches(ExceptionClass::KeyboardInterrupt)
            }),
            _ => false,
        };
        handlers.iter().any(|h| h.classes.iter().any(names_it))
    }

    /// Runs the first handler whose classes catch `err`; `err` again when none does.
    fn handle(&mut self, err: Error, handlers: &[Handler]) -> Result<Flow> {
        for h in handlers {
            let matched = self.handler_matches(&err, h)?;
            if matched {
                // The handled object is made now, so that `except … as e`, a bare `raise`
                // and the `__context__` of what the handler raises are the same object.
                let (_, value) = self.exception_values(&err);
                self.raised = Some((value.clone(), err.class, err.message.clone()));
                if let Some(name) = &h.name {
                    self.set(name, value);
                }
                self.handling.push((err, self.raised.clone()));
                let flow = self.exec_block(&h.body);
                self.handling.pop();
                // A handler that ran to its end is done with the exception: the next error
                // with the same class and message is a new object.
                if flow.is_ok() {
                    self.raised = None;
                }
                // As CPython, `except … as e` unbinds `e` when the handler ends.
                if let Some(name) = &h.name {
                    let e = Expr {
                        kind: ExprKind::Name(name.as_str().into()),
                        span: h.span,
                    };
                    let _ = self.delete(&e);
                }
                return flow;
            }
        }
        Err(err)
    }
}

/// `break` or `continue` that no loop encloses.
pub(super) fn outside_loop(span: Span) -> Error {
    Error::new(
        ExceptionClass::SyntaxError,
        "'break' or 'continue' outside loop",
    )
    .at(span)
}

/// The value `import module` gives: a module ragtag provides, or a name inside one
/// (`from tensorflow.ragged import constant`); ModuleNotFoundError otherwise.
fn import(module: &str) -> Result<Value> {
    let canonical = match module {
        "tensorflow" => "tf".to_string(),
        "numpy" => "np".to_string(),
        "paddle.fluid" => "fluid".to_string(),
        m => m
            .strip_prefix("tensorflow.")
            .map(|r| format!("tf.{r}"))
            .or_else(|| m.strip_prefix("numpy.").map(|r| format!("np.{r}")))
            .or_else(|| {
                m.strip_prefix("paddle.fluid.")
                    .map(|r| format!("fluid.{r}"))
            })
            .unwrap_or_else(|| m.to_string()),
    };
    let mut parts = canonical.split('.');
    let first = parts.next().unwrap_or("");
    // Python names the first part of the path that does not exist.
    let written: Vec<&str> = module.split('.').collect();
    let extra = written.len().saturating_sub(canonical.split('.').count());
    let not_found = |depth: usize| {
        let name = written[..(depth + extra + 1).min(written.len())].join(".");
        Error::new(
            ExceptionClass::ModuleNotFoundError,
            format!("No module named '{name}'"),
        )
        .with_hint(builtins::python::provided_modules())
    };
    let real = builtins::python::ROOT_MODULES.contains(&written[0]);
    let stdlib = builtins::python::STDLIB_MODULES.contains(&written[0]);
    let root = match root_module(first).filter(|r| *r == first && real) {
        Some(root) => root,
        None if stdlib => first,
        None => return Err(not_found(0)),
    };
    let mut v = Value::Module(crate::value::ThinStr::from(root));
    for (depth, part) in parts.enumerate() {
        let Value::Module(m) = &v else {
            return Err(not_found(depth + 1));
        };
        v = builtins::module_attr(m, part).ok_or_else(|| not_found(depth + 1))?;
    }
    Ok(v)
}

/// Where an augmented assignment's target was read, to store the result back there.
enum Place<'a> {
    /// A name.
    Name,
    /// An item of the evaluated object, at the evaluated subscript.
    Item(Value, super::items::Sub),
    /// An attribute of the evaluated object.
    Attr(Value, &'a str, Span),
}
