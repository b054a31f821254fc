//! The descriptor protocol for the user's classes: an object stored on a class whose own
//! class defines `__get__` answers reading the attribute (`obj.x` is
//! `D.__get__(d, obj, type(obj))`), one whose class also defines `__set__` or `__delete__`
//! (a data descriptor) answers before the instance's own attributes and takes over setting
//! and deleting them, and `__set_name__(owner, name)` tells each the name it was stored under
//! when its class is made. `property` is ragtag's own and is handled where attributes are.
//!
//! Also the other hook of making a class: the first `__init_subclass__` among its bases is
//! called with the new class and the class statement's keywords; and `type(name, bases,
//! dict)`, which makes a class with both hooks as a `class` statement does.

use std::sync::Arc;

use super::args::CallArg;
use super::classes::{arg, is_wrapper, wrapper};
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::class::{attr_get, attr_items, Class, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::Span;

/// `v`'s class's method `name`, when `v` is an instance of a user class that has one.
fn method_of(v: &Value, name: &str) -> Option<Value> {
    match v {
        Value::Instance(d) if d.class.is_python() => d.class.lookup(name),
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

/// Makes a plain `def __init_subclass__` in a class body a class method and a plain `def
/// __new__` a static method, as `type` does.
pub(super) fn implicit_classmethods(attrs: &mut [(String, Value)]) {
    for (name, v) in attrs.iter_mut() {
        if name == "__init_subclass__" && matches!(v, Value::Closure(_)) {
            let f = std::mem::replace(v, Value::None);
            *v = wrapper("classmethod", vec![("__func__".into(), f)]);
        }
        // `__new__` is a static method without the decorator.
        if name == "__new__" && matches!(v, Value::Closure(_)) {
            let f = std::mem::replace(v, Value::None);
            *v = wrapper("staticmethod", vec![("__func__".into(), f)]);
        }
    }
}

impl Interp<'_> {
    /// Calls the first `__init_subclass__` after the new class `cls` in its MRO with `cls`
    /// and the class statement's `keywords`; with none, `object`'s takes no keywords.
    pub(super) fn init_subclass(
        &mut self,
        cls: &Arc<Class>,
        keywords: Vec<CallArg>,
        span: Span,
    ) -> Result<()> {
        let found = cls.mro().into_iter().skip(1).find_map(|c| match c {
            Value::Class(k) => attr_get(&k.attrs, "__init_subclass__"),
            _ => None,
        });
        let func = match found {
            Some(Value::Instance(w)) if is_wrapper(&w, "classmethod") => {
                attr_get(&w.attrs, "__func__").unwrap_or(Value::None)
            }
            Some(f) => f,
            None if keywords.is_empty() => return Ok(()),
            None => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "{}.__init_subclass__() takes no keyword arguments",
                        cls.name
                    ),
                )
                .at(span)
                .with_hint("a class statement's keywords go to a base class's __init_subclass__"))
            }
        };
        self.call_method(&Value::Class(cls.clone()), &func, keywords, span)?;
        Ok(())
    }
}

impl Interp<'_> {
    /// `type(name, bases, dict)`: a new class, made as a `class` statement makes one.
    pub(crate) fn type_new(
        &mut self,
        name: &Value,
        bases: &Value,
        dict: &Value,
        span: Span,
    ) -> Result<Value> {
        let type_error = |msg: String| Error::new(ExceptionClass::TypeError, msg).at(span);
        let Value::Str(name) = name else {
            return Err(type_error(format!(
                "type.__new__() argument 1 must be str, not {}",
                name.type_name()
            )));
        };
        let Value::Tuple(bases) = bases else {
            return Err(type_error(format!(
                "type.__new__() argument 2 must be tuple, not {}",
                bases.type_name()
            )));
        };
        let Value::Dict(dict) = dict else {
            return Err(type_error(format!(
                "type.__new__() argument 3 must be dict, not {}",
                dict.type_name()
            )));
        };
        let mut base_values = Vec::new();
        for b in bases.iter() {
            base_values.extend(super::classes::base_entry(b, span)?);
        }
        super::protocols::check_bases(&base_values, span)?;
        let mut attrs = Vec::new();
        for (k, v) in dict.items() {
            match k {
                Value::Str(k) => attrs.push((k.to_string(), v)),
                other => {
                    return Err(type_error(format!(
                        "ragtag keeps only str keys in a class's namespace, not {}",
                        other.type_name()
                    )))
                }
            }
        }
        let has = |n: &str| attrs.iter().any(|(k, _)| k == n);
        if has("__eq__") && !has("__hash__") {
            attrs.push(("__hash__".into(), Value::None));
        }
        implicit_classmethods(&mut attrs);
        let cls = Class::new(name, "__main__", base_values, attrs);
        self.set_names(&cls, span)?;
        self.init_subclass(&cls, Vec::new(), span)?;
        Ok(Value::Class(cls))
    }
}
