//! `super()`: the proxy a method's `super()` makes, and attribute lookup through it (in the
//! classes after the method's class in the receiver's order).

use std::sync::Arc;

use super::builtins::python::builtin_bases as bases;
use super::classes::{attr_error, bind, wrapper};
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::class::{attr_get, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::Span;

impl<'s> Interp<'s> {
    /// `super().name`: looked up in the classes after `__thisclass__` in the receiver's
    /// order, bound to the receiver.
    pub(super) fn super_attr(
        &mut self,
        s: &Arc<Instance>,
        name: &str,
        span: Span,
    ) -> Result<Value> {
        let this = attr_get(&s.attrs, "__thisclass__").unwrap_or(Value::None);
        let obj = attr_get(&s.attrs, "__self__").unwrap_or(Value::None);
        let cls = match &obj {
            Value::Instance(i) => Value::Class(i.class.clone()),
            other => other.clone(),
        };
        let Value::Class(start) = &cls else {
            return Err(attr_error(
                format!("'super' object has no attribute '{name}'"),
                span,
            ));
        };
        let mro = start.mro();
        let after = mro
            .iter()
            .position(|c| super::operators::identical(c, &this))
            .map_or(0, |p| p + 1);
        let receiver = match &obj {
            Value::Class(_) => None,
            o => Some(o),
        };
        for c in &mro[after..] {
            match c {
                Value::Class(k) => {
                    if let Some(v) = attr_get(&k.attrs, name) {
                        return Ok(bind(v, receiver, &cls));
                    }
                }
                Value::ErrorClass(_) if name == "__init__" => {
                    return Ok(bind(
                        super::builtins::python::objects::method("BaseException.__init__"),
                        Some(&obj),
                        &cls,
                    ))
                }
                Value::ErrorClass(_) if name == "__str__" || name == "__repr__" => {
                    return Ok(bind(
                        super::builtins::python::objects::method("BaseException.__str__"),
                        Some(&obj),
                        &cls,
                    ))
                }
                _ => {}
            }
        }
        if let Some(v) = receiver.and_then(|o| bases::base_attr(self, o, name, span)) {
            return Ok(v);
        }
        match name {
            // `object.__new__` is a static method: the caller passes the class.
            "__new__" => Ok(super::builtins::python::objects::method("object.__new__")),
            "__init__" | "__setattr__" | "__delattr__" | "__format__" | "__hash__"
            | "__init_subclass__" => Ok(bind(
                super::builtins::python::objects::method(&format!("object.{name}")),
                Some(&obj),
                &cls,
            )),
            _ => Err(attr_error(
                format!("'super' object has no attribute '{name}'"),
                span,
            )),
        }
    }

    /// `super()` in a method: the class it is defined in and the receiver of the call.
    pub(super) fn zero_arg_super(&mut self, span: Span) -> Result<Value> {
        let no_args = || Error::new(ExceptionClass::RuntimeError, "super(): no arguments").at(span);
        let this = self.lookup("__class__", span).map_err(|_| {
            Error::new(
                ExceptionClass::RuntimeError,
                "super(): __class__ cell not found",
            )
            .at(span)
        })?;
        // CPython's object is the call's first argument, whatever its name: none in a
        // lambda without parameters or at top level, the iterator in a comprehension.
        let Some(frame) = self.frames.last() else {
            return Err(no_args());
        };
        let Some(bindings) = &frame.bindings else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "super(type, obj): obj must be an instance or subtype of type",
            )
            .at(span)
            .with_hint("a comprehension runs in its own scope, where `super()` has no object: call it outside the comprehension"));
        };
        let first = bindings.receiver.clone().ok_or_else(no_args)?;
        let obj = self.local_value(&first).ok_or_else(|| {
            Error::new(ExceptionClass::RuntimeError, "super(): arg[0] deleted").at(span)
        })?;
        Ok(wrapper(
            "super",
            vec![("__thisclass__".into(), this), ("__self__".into(), obj)],
        ))
    }
}
