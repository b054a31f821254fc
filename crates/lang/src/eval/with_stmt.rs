//! `with` statements, and raising and catching instances of user exception classes.

use std::sync::Arc;

use super::{Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::class::{Class, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl<'s> Interp<'s> {
    /// `with a as x, b: body`: the items nest, the first outermost.
    pub(super) fn exec_with(
        &mut self,
        items: &[(Expr, Option<Target>)],
        body: &[Stmt],
    ) -> Result<Flow> {
        let Some(((e, target), rest)) = items.split_first() else {
            return self.exec_block(body);
        };
        let mgr = self.eval(e)?;
        let protocol = |it: &mut Self, name: &str| {
            it.get_attr(mgr.clone(), name, e.span, e.span).map_err(|_| {
                let missing = if name == "__enter__" {
                    ""
                } else {
                    " (missed __exit__ method)"
                };
                Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "'{}' object does not support the context manager protocol{missing}",
                        mgr.type_name()
                    ),
                )
                .at(e.span)
            })
        };
        let enter = protocol(self, "__enter__")?;
        let exit = protocol(self, "__exit__")?;
        let entered = self.call_values(&enter, Vec::new(), e.span)?;
        let result = self.with_body(target.as_ref(), entered, rest, body);
        match result {
            Ok(flow) => {
                self.call_values(&exit, vec![Value::None, Value::None, Value::None], e.span)?;
                Ok(flow)
            }
            Err(err) if err.class == ExceptionClass::KeyboardInterrupt => Err(err),
            Err(err) => {
                let (class, value) = self.exception_values(&err);
                let r = self.call_values(&exit, vec![class, value, Value::None], e.span)?;
                if self.truth(&r, e.span)? {
                    self.raised = None;
                    Ok(Flow::Normal)
                } else {
                    Err(err)
                }
            }
        }
    }

    fn with_body(
        &mut self,
        target: Option<&Target>,
        entered: Value,
        rest: &[(Expr, Option<Target>)],
        body: &[Stmt],
    ) -> Result<Flow> {
        if let Some(t) = target {
            self.assign(t, entered)?;
        }
        self.exec_with(rest, body)
    }

    /// The class and the value of a raised error, as `__exit__` and `except … as e` see
    /// them: the user's instance when it is one.
    pub(super) fn exception_values(&mut self, err: &Error) -> (Value, Value) {
        if let Some((x @ Value::Exception(_), class, message)) = &self.raised {
            if *class == err.class && *message == err.message {
                return (Value::ErrorClass(err.class), x.clone());
            }
        }
        match self.raised_instance(err) {
            Some(i) => (Value::Class(i.class.clone()), Value::Instance(i)),
            None => (
                Value::ErrorClass(err.class),
                Value::Exception(Arc::new(err.to_exception())),
            ),
        }
    }

    /// The user exception instance `err` was raised from, if it was.
    pub(super) fn raised_instance(&self, err: &Error) -> Option<Arc<Instance>> {
        match &self.raised {
            Some((Value::Instance(i), class, message))
                if *class == err.class && *message == err.message =>
            {
                Some(i.clone())
            }
            _ => None,
        }
    }

    /// `raise value` for an instance or a class of the user's.
    pub(super) fn raise_object(&mut self, v: Value, span: Span) -> Result<Error> {
        let v = match v {
            Value::Class(c) => self.instantiate(&c, Vec::new(), span)?,
            other => other,
        };
        let base = match &v {
            Value::Instance(i) => i.class.exception_base(),
            _ => None,
        };
        let Some(base) = base else {
            return Ok(Error::new(
                ExceptionClass::TypeError,
                "exceptions must derive from BaseException",
            )
            .at(span));
        };
        self.prepare_shown(&v, span)?;
        let message = crate::render::tf_text::str_of(&v);
        // A class of a module shows with the module's name, as CPython's traceback does
        // (`dataclasses.FrozenInstanceError`).
        let name = match &v {
            Value::Instance(i) if matches!(i.class.module, "__main__" | "builtins") => i.class.name,
            Value::Instance(i) => {
                crate::value::class::intern(&format!("{}.{}", i.class.module, i.class.name))
            }
            _ => base.name(),
        };
        // A class deriving from SystemExit carries the exit status of its code, as
        // `sys.exit` does.
        let hint = match &v {
            Value::Instance(i) if base == ExceptionClass::SystemExit => {
                let args = match crate::value::class::attr_get(&i.attrs, "args") {
                    Some(Value::Tuple(t)) => t.to_vec(),
                    _ => Vec::new(),
                };
                Some(super::builtins::python::exception_args::exit_hint(&args))
            }
            _ => None,
        };
        self.raised = Some((v, base, message.clone()));
        let err = Error::new(base, message).at(span).raised_as(name);
        Ok(match hint {
            Some(h) => err.with_hint(h),
            None => err,
        })
    }

    /// Whether an `except` naming the user's class `c` catches `err`.
    pub(super) fn user_class_catches(&self, c: &Arc<Class>, err: &Error) -> bool {
        self.raised_instance(err)
            .is_some_and(|i| i.class.is_subclass_of(&Value::Class(c.clone())))
    }
}

impl<'s> Interp<'s> {
    /// `@decorators` then a `def` or `class`: the definition runs, then each decorator
    /// (the nearest first) is applied to what it bound. Decorators that are not functions
    /// or classes of the program, nor `property`, `staticmethod` or `classmethod`
    /// (`@tf.function`), leave the definition as it is.
    pub(super) fn exec_decorated(&mut self, decorators: &[Expr], def: &Stmt) -> Result<Flow> {
        let mut found = Vec::new();
        for d in decorators {
            match self.eval(d) {
                Ok(v) => found.push((v, d.span)),
                // A decorator from TensorFlow, NumPy or Paddle that ragtag does not have
                // (`@tf.function`), or a name a module lacks (`@typing.overload`), leaves
                // the definition as it is: eager code runs the same without it.
                Err(e) if self.foreign_decorator(d, &e) => {}
                Err(e) => return Err(e),
            }
        }
        let name = match &def.kind {
            StmtKind::Def { name, .. } | StmtKind::Class { name, .. } => name.clone(),
            _ => return self.exec(def),
        };
        self.exec(def)?;
        let mut v = self.lookup(&name, def.span)?;
        for (d, span) in found.into_iter().rev() {
            let applies = match &d {
                Value::Closure(_) | Value::Class(_) | Value::Bound(_) | Value::Instance(_) => true,
                // A library's own functions and methods (a graph or device decorator) are
                // dropped as above; Python's builtins apply as in CPython.
                Value::Method(m) => !library_builtin(m.builtin.name),
                Value::Builtin(b) => !library_builtin(b.name),
                _ => true,
            };
            if applies {
                v = self.call_values(&d, vec![v], span)?;
            }
        }
        self.set(&name, v);
        Ok(Flow::Normal)
    }

    /// Whether a decorator that failed to evaluate is one to drop: anything from the
    /// TensorFlow, NumPy or Paddle modules, or an attribute some module lacks.
    fn foreign_decorator(&self, d: &Expr, e: &Error) -> bool {
        let mut root = match &d.kind {
            ExprKind::Call(f, _) => &**f,
            _ => d,
        };
        let mut dotted = false;
        while let ExprKind::Attr(obj, _) = &root.kind {
            root = obj;
            dotted = true;
        }
        let ExprKind::Name(n) = &root.kind else {
            return false;
        };
        match self.lookup(n, root.span) {
            Ok(Value::Module(m)) if dotted => {
                library_builtin(&format!("{m}.")) || e.class == ExceptionClass::AttributeError
            }
            _ => false,
        }
    }
}

/// Whether a builtin belongs to TensorFlow, NumPy, Paddle or Awkward Array rather than to
/// Python.
fn library_builtin(name: &str) -> bool {
    ["tf.", "np.", "fluid.", "paddle.", "ak."]
        .iter()
        .any(|p| name.starts_with(p))
}
