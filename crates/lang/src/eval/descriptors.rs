//! The descriptor protocol for the user's classes: an object stored on a class whose own
//! class defines `__get__` answers reading the attribute (`obj.x` is
//! `D.__get__(d, obj, type(obj))`), one whose class also defines `__set__` or `__delete__`
//! (a data descriptor) answers before the instance's own attributes and takes over setting
//! and deleting them, and `__set_name__(owner, name)` tells each the name it was stored under
//! when its class is made. `property` is ragtag's own and is handled where attributes are.

use std::sync::Arc;

use super::classes::arg;
use super::Interp;
use crate::diagnostic::Result;
use crate::value::class::{attr_items, Class, Instance};
use crate::value::Value;
use ragtag_syntax::ast::Span;

/// `v`'s class's method `name`, when `v` is an instance of a user class that has one.
fn method_of(v: &Value, name: &str) -> Option<Value> {
    match v {
        Value::Instance(d) if d.class.module == "__main__" => d.class.lookup(name),
        _ => None,
    }
}

/// Whether `d` is a data descriptor: its class defines `__set__` or `__delete__`.
fn is_data(d: &Instance) -> bool {
    d.class.lookup("__set__").is_some() || d.class.lookup("__delete__").is_some()
}

impl Interp<'_> {
    /// `found.__get__(obj, cls)` when `found` (an attribute of `cls`) is a descriptor, and
    /// a data descriptor when `data_only` (the ones that answer before an instance's own
    /// attributes); `obj` is None when the attribute is read from the class itself.
    pub(super) fn descriptor_get(
        &mut self,
        found: &Value,
        obj: Option<&Value>,
        cls: &Arc<Class>,
        data_only: bool,
        span: Span,
    ) -> Result<Option<Value>> {
        let Some(get) = method_of(found, "__get__") else {
            return Ok(None);
        };
        if data_only && !matches!(found, Value::Instance(d) if is_data(d)) {
            return Ok(None);
        }
        let args = vec![
            arg(obj.cloned().unwrap_or(Value::None), span),
            arg(Value::Class(cls.clone()), span),
        ];
        self.call_method(found, &get, args, span).map(Some)
    }

    /// `found.__set__(obj, v)` when `found` (an attribute of `obj`'s class) is a descriptor
    /// that sets; false otherwise.
    pub(super) fn descriptor_set(
        &mut self,
        found: &Value,
        obj: &Value,
        v: &Value,
        span: Span,
    ) -> Result<bool> {
        let Some(set) = method_of(found, "__set__") else {
            return Ok(false);
        };
        let args = vec![arg(obj.clone(), span), arg(v.clone(), span)];
        self.call_method(found, &set, args, span)?;
        Ok(true)
    }

    /// `found.__delete__(obj)` when `found` (an attribute of `obj`'s class) is a descriptor
    /// that deletes; false otherwise.
    pub(super) fn descriptor_delete(
        &mut self,
        found: &Value,
        obj: &Value,
        span: Span,
    ) -> Result<bool> {
        let Some(delete) = method_of(found, "__delete__") else {
            return Ok(false);
        };
        self.call_method(found, &delete, vec![arg(obj.clone(), span)], span)?;
        Ok(true)
    }

    /// Calls `__set_name__(cls, name)` on each attribute of the new class `cls` whose class
    /// defines it, in the order the attributes were defined, as `type` does.
    pub(super) fn set_names(&mut self, cls: &Arc<Class>, span: Span) -> Result<()> {
        for (name, v) in attr_items(&cls.attrs) {
            if let Some(set_name) = method_of(&v, "__set_name__") {
                let args = vec![
                    arg(Value::Class(cls.clone()), span),
                    arg(Value::str(name), span),
                ];
                self.call_method(&v, &set_name, args, span)?;
            }
        }
        Ok(())
    }
}
