//! Making an instance of a user class: `C(*args, **kwargs)` calls `C.__new__(C, …)` when
//! the class or a base defines one (implicitly a static method), then `__init__` on what it
//! returned when that is an instance of `C`; without a `__new__`, `object.__new__` makes a
//! bare instance. `object.__new__` and `object.__init__` refuse extra arguments as
//! CPython's do: each when it is the one overridden, both when neither is.

use std::sync::Arc;

use super::args::CallArg;
use super::builtins::python::builtin_bases as bases;
use super::classes::{is_wrapper, type_error};
use super::Interp;
use crate::diagnostic::Result;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::Span;

/// The function a class's own `__new__` (its or a base's) calls, unwrapped from the static
/// method it is stored as.
pub(super) fn user_new(cls: &Arc<Class>) -> Option<Value> {
    match cls.lookup("__new__")? {
        Value::Instance(w) if is_wrapper(&w, "staticmethod") => attr_get(&w.attrs, "__func__"),
        v @ (Value::Closure(_) | Value::Builtin(_) | Value::Bound(_)) => Some(v),
        _ => None,
    }
}

/// Whether a class overrides `__init__` (itself, a base, or the builtin type it derives
/// from), or is an exception class (whose base's `__init__` takes the arguments).
fn has_init(cls: &Arc<Class>) -> bool {
    cls.lookup("__init__").is_some() || cls.exception_base().is_some()
}

/// Whether a class overrides `__new__` (itself, a base, or the builtin type it derives from).
fn has_new(cls: &Arc<Class>) -> bool {
    cls.lookup("__new__").is_some() || cls.builtin_base().is_some()
}

/// A new bare instance of `cls` (what `object.__new__(cls, *given)` gives): its base value
/// made, an exception's `args` (and a SystemExit's `code`) set from `given`.
pub fn bare_instance(cls: &Arc<Class>, given: &[Value]) -> Value {
    let inst = Instance::new(cls.clone());
    bases::init_base(&inst);
    if cls.exception_base().is_some() {
        // A SystemExit's `code`: None, its one argument, or the tuple of them.
        if cls.exception_base() == Some(ExceptionClass::SystemExit) {
            let code = match given {
                [] => Value::None,
                [one] => one.clone(),
                many => Value::tuple(many.to_vec()),
            };
            attr_set(&inst.attrs, "code", code);
        }
        attr_set(&inst.attrs, "args", Value::tuple(given.to_vec()));
    }
    Value::Instance(inst)
}

/// `object.__new__(cls, *given, **keywords)`: a bare instance of the user class `cls`.
pub fn object_new(cls: &Value, given: &[Value], keywords: usize, span: Span) -> Result<Value> {
    let extra = given.len() + keywords;
    let Value::Class(c) = cls else {
        return Err(type_error(
            format!(
                "object.__new__(X): X is not a type object ({})",
                cls.type_name()
            ),
            span,
        ));
    };
    let value_base = c
        .builtin_base()
        .filter(|b| matches!(*b, "tuple" | "str" | "int" | "float"));
    if let Some(ty) = value_base {
        // CPython names the first class in the order without a `__new__` of its own.
        let own = c.mro().into_iter().find_map(|k| match k {
            Value::Class(k) if k.is_python() && attr_get(&k.attrs, "__new__").is_none() => {
                Some(k.name)
            }
            _ => None,
        });
        return Err(type_error(
            format!(
                "object.__new__({}) is not safe, use {}.__new__()",
                c.name,
                own.unwrap_or(ty)
            ),
            span,
        ));
    }
    if !c.is_python() {
        return Err(type_error(
            format!(
                "object.__new__({}) is not safe, use {}.__new__()",
                c.name, c.name
            ),
            span,
        ));
    }
    if extra > 0 && c.exception_base().is_none() {
        if c.lookup("__new__").is_some() {
            return Err(type_error(
                "object.__new__() takes exactly one argument (the type to instantiate)".into(),
                span,
            ));
        }
        if !has_init(c) {
            return Err(type_error(format!("{}() takes no arguments", c.name), span));
        }
    }
    // An exception's `args` are the arguments `__new__` was given.
    let given = if c.exception_base().is_some() {
        given
    } else {
        &[]
    };
    Ok(bare_instance(c, given))
}

/// `object.__init__(self, *args, **kwargs)`: nothing, or CPython's TypeError for extra
/// arguments.
pub fn object_init(obj: &Value, extra: usize, span: Span) -> Result<Value> {
    if let (Value::Instance(i), true) = (obj, extra > 0) {
        let c = &i.class;
        if c.is_python() && c.exception_base().is_none() {
            if c.lookup("__init__").is_some() {
                return Err(type_error(
                    "object.__init__() takes exactly one argument (the instance to initialize)"
                        .into(),
                    span,
                ));
            }
            if !has_new(c) {
                return Err(type_error(format!("{}() takes no arguments", c.name), span));
            }
        }
    }
    Ok(Value::None)
}

impl<'s> Interp<'s> {
    /// `Class(args…)`: `__new__` when the class has one, then `__init__`.
    pub(super) fn instantiate(
        &mut self,
        cls: &Arc<Class>,
        args: Vec<CallArg>,
        span: Span,
    ) -> Result<Value> {
        if cls.module == "builtins" && cls.name == "NoneType" && args.is_empty() {
            return Ok(Value::None);
        }
        if !cls.is_python() {
            return Err(type_error(
                format!("cannot create '{}' instances", cls.name),
                span,
            ));
        }
        // A `TypedDict` class makes plain dicts.
        if cls.lookup("__typeddict__").is_some() {
            if let Some(dict) = super::builtins::registry().get("dict") {
                return self.call(&Value::Builtin(dict), args, span);
            }
        }
        let v = match user_new(cls) {
            Some(new) => {
                let made =
                    self.call_method(&Value::Class(cls.clone()), &new, args.clone(), span)?;
                // `__init__` runs only on an instance of the class.
                let ours = matches!(&made, Value::Instance(i) if i.class.is_subclass_of(&Value::Class(cls.clone())));
                if !ours {
                    return Ok(made);
                }
                made
            }
            // Only an exception keeps the arguments (as its `args`).
            None if cls.exception_base().is_none() => bare_instance(cls, &[]),
            None => {
                let given: Vec<Value> = args
                    .iter()
                    .filter(|a| a.name.is_none())
                    .map(|a| a.value.clone())
                    .collect();
                bare_instance(cls, &given)
            }
        };
        let Value::Instance(inst) = &v else {
            return Ok(v);
        };
        let class = inst.class.clone();
        match class.lookup("__init__") {
            Some(init @ (Value::Closure(_) | Value::Builtin(_))) => {
                let r = self.call_method(&v, &init, args, span)?;
                if !matches!(r, Value::None) {
                    return Err(type_error(
                        format!("__init__() should return None, not '{}'", r.type_name()),
                        span,
                    ));
                }
            }
            _ if has_new(&class) || class.exception_base().is_some() || args.is_empty() => {}
            _ => {
                return Err(type_error(
                    format!("{}() takes no arguments", cls.name),
                    span,
                ))
            }
        }
        self.prime_quietly(&v, span);
        Ok(v)
    }
}
