//! `raise`: what it raises, the cause `raise … from` names and the context it is raised in
//! (`__cause__`, `__context__`, `__suppress_context__`), and which `except` clause catches
//! an error.

use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::exception_chain::update_chain;
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl Interp<'_> {
    /// The error `raise e [from cause]` (or a bare `raise`) raises.
    #[inline(never)]
    pub(super) fn raise_error(&mut self, e: Option<&Expr>, cause: Option<&Expr>) -> Result<Error> {
        let Some(e) = e else {
            // A bare `raise` in a handler raises the exception it handles again.
            return Ok(match self.handling.last() {
                Some((err, raised)) => {
                    self.raised = raised.clone();
                    err.clone()
                }
                None => Error::new(
                    ExceptionClass::RuntimeError,
                    "No active exception to reraise",
                ),
            });
        };
        let v = self.eval(e)?;
        let cause = match cause {
            Some(c) => Some(self.exception_cause(c)?),
            None => None,
        };
        let err = match &v {
            Value::Exception(x) => {
                // `except … as e` gets this very object back (`e is err`).
                self.raised = Some((v.clone(), x.class, x.message.clone()));
                Error::from((**x).clone())
            }
            Value::ErrorClass(c) => {
                let x = std::sync::Arc::new(ragtag_engine::Exception::new(*c, ""));
                self.raised = Some((Value::Exception(x), *c, String::new()));
                Error::new(*c, "")
            }
            Value::Instance(_) | Value::Class(_) => self.raise_object(v.clone(), e.span)?,
            other => Error::new(
                ExceptionClass::TypeError,
                format!(
                    "exceptions must derive from BaseException, not {}",
                    other.type_name()
                ),
            ),
        }
        .at(e.span);
        if let Some((raised, _, _)) = &self.raised {
            let context = match self.handling.last() {
                Some((_, Some((handled, _, _))))
                    if !super::operators::identical(handled, raised) =>
                {
                    Some(handled.clone())
                }
                _ => None,
            };
            if context.is_some() || cause.is_some() {
                update_chain(raised, |ch| {
                    if let Some(c) = context {
                        ch.context = Some(c);
                    }
                    if let Some(c) = cause {
                        ch.cause = match c {
                            Value::None => None,
                            c => Some(c),
                        };
                        ch.suppress = true;
                    }
                });
            }
        }
        Ok(err)
    }

    /// An error no handler caught, as its report shows it: with the notes `add_note` gave
    /// it after its message (as CPython prints them), and a hint naming its `__cause__` or,
    /// when no cause suppressed it, the exception being handled when it was raised.
    pub(super) fn uncaught(&self, mut e: Error) -> Error {
        let Some((obj, class, message)) = &self.raised else {
            return e;
        };
        if *class != e.class || *message != e.message {
            return e;
        }
        let chain = crate::value::exception_chain::chain_of(obj);
        let notes = match obj {
            Value::Instance(i) => crate::value::class::attr_get(&i.attrs, "__notes__"),
            _ => chain.notes.clone(),
        };
        if let Some(Value::List(l)) = notes {
            for n in l.items() {
                e.message.push('\n');
                e.message.push_str(&crate::render::tf_text::str_of(&n));
            }
        }
        let describe = |v: &Value| match v {
            Value::Exception(x) if x.message.is_empty() => x.class.name().to_string(),
            Value::Exception(x) => format!("{}: {}", x.class.name(), x.message),
            Value::Instance(i) => {
                let text = crate::render::tf_text::str_of(v);
                if text.is_empty() {
                    i.class.name.to_string()
                } else {
                    format!("{}: {text}", i.class.name)
                }
            }
            other => crate::render::tf_text::repr_of(other),
        };
        let line = match (&chain.cause, &chain.context) {
            (Some(c), _) => Some(format!("raised from {} (its __cause__)", describe(c))),
            (None, Some(c)) if !chain.suppress => Some(format!(
                "raised while handling {} (its __context__)",
                describe(c)
            )),
            _ => None,
        };
        if let Some(line) = line {
            e.hint = Some(match e.hint.take() {
                Some(h) => format!("{h}\n{line}"),
                None => line,
            });
        }
        e
    }

    /// The exception `raise … from c` names: an exception object, a class (made with no
    /// arguments) or None.
    fn exception_cause(&mut self, c: &Expr) -> Result<Value> {
        let v = self.eval(c)?;
        Ok(match v {
            Value::None | Value::Exception(_) => v,
            Value::ErrorClass(k) => {
                Value::Exception(std::sync::Arc::new(ragtag_engine::Exception::new(k, "")))
            }
            Value::Instance(ref i) if i.class.exception_base().is_some() => v,
            Value::Class(ref k) if k.exception_base().is_some() => {
                self.instantiate(k, Vec::new(), c.span)?
            }
            _ => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "exception causes must derive from BaseException",
                )
                .at(c.span))
            }
        })
    }

    /// Whether the `except` clause `h` catches `err`.
    pub(super) fn handler_matches(&mut self, err: &Error, h: &Handler) -> Result<bool> {
        let mut matched = h.classes.is_empty();
        for c in &h.classes {
            let v = self.eval(c)?;
            let classes: Vec<Value> = match v {
                Value::Tuple(items) => items.to_vec(),
                other => vec![other],
            };
            for class in classes {
                let class = match &class {
                    Value::Class(k) => {
                        matched |= self.user_class_catches(k, err);
                        continue;
                    }
                    Value::ErrorClass(k) => *k,
                    other => {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "catching classes that do not inherit from BaseException is not allowed (got a {})",
                                other.type_name()
                            ),
                        )
                        .at(c.span))
                    }
                };
                // A user's exception with several builtin bases is caught by each.
                matched |= match self.raised_instance(err) {
                    Some(i) => i.class.is_subclass_of(&Value::ErrorClass(class)),
                    None => class.catches(err.class),
                };
            }
        }
        Ok(matched)
    }
}
