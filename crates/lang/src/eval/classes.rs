//! User classes: the `class` statement, making instances, the attributes of instances and
//! classes (methods bound to their receiver, properties, static and class methods), and
//! `super()`.

use std::sync::Arc;

use super::args::CallArg;
use super::builtins::python::builtin_bases as bases;
use super::builtins::python::typing_classes as typing;
use super::builtins::Kind;
use super::{Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::class::Instance;
use crate::value::class::{attr_get, attr_items, attr_set, builtin_type, Bound, Class};
use crate::value::env::Env;
use crate::value::{Closure, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

pub use crate::value::class::type_repr;

/// Whether `i` is one of the builtin wrapper objects (`property`, `staticmethod`, …).
pub(super) fn is_wrapper(i: &Instance, name: &str) -> bool {
    i.class.module == "builtins" && i.class.name == name
}

/// A wrapper object (`property(fget)`, `staticmethod(f)`) holding `attrs`.
pub fn wrapper(name: &str, attrs: Vec<(String, Value)>) -> Value {
    let Value::Class(c) = builtin_type(name, "builtins") else {
        unreachable!("builtin_type makes a class")
    };
    let i = Instance::new(c);
    for (k, v) in attrs {
        attr_set(&i.attrs, &k, v);
    }
    Value::Instance(i)
}

pub(super) fn attr_error(msg: String, span: Span) -> Error {
    Error::new(ExceptionClass::AttributeError, msg).at_labeled(span, "unknown attribute")
}

pub(super) fn type_error(msg: String, span: Span) -> Error {
    Error::new(ExceptionClass::TypeError, msg).at(span)
}

/// An instance's `__dict__`: its attributes but those a class's `__slots__` holds.
fn instance_dict(i: &Instance) -> Result<Value> {
    let declared = i.class.declared_slots();
    // An exception's `args` is BaseException's slot, not in its `__dict__`.
    let exception = i.class.exception_base().is_some();
    let items = attr_items(&i.attrs)
        .into_iter()
        .filter(|(k, _)| !(declared.contains(k) || (exception && k == "args")))
        .map(|(k, v)| (Value::str(k), v))
        .collect();
    Value::dict(items).map_err(Error::from)
}

/// The function `i.name` calls, when reading it does nothing else: `i` is an instance of a
/// user class with no attribute `name` of its own, and its class's `name` is a plain `def`
/// (not a property, static or class method). The caller calls it with `i` first.
pub(super) fn plain_function(i: &Instance, name: &str) -> Option<Arc<Closure>> {
    if !i.class.is_python() || (i.attrs.may_have(name) && attr_get(&i.attrs, name).is_some()) {
        return None;
    }
    match i.class.lookup(name)? {
        Value::Closure(c) => Some(c),
        _ => None,
    }
}

/// `i.name` when it is simply `i`'s own attribute: with no descriptor or hook in the way,
/// an attribute of its own is the answer.
pub(super) fn own_plain_attr(i: &Instance, name: &str) -> Option<Value> {
    if matches!(name, "__class__" | "__dict__") || !i.class.plain_instances() {
        return None;
    }
    attr_get(&i.attrs, name)
}

/// `v` as found on a class, seen through an instance `obj` (or the class itself when `obj`
/// is `None`): functions bind to it, static methods unwrap, class methods bind to the class.
pub(super) fn bind(v: Value, obj: Option<&Value>, cls: &Value) -> Value {
    match &v {
        Value::Closure(_) => match obj {
            Some(o) => Value::Bound(Arc::new(Bound {
                receiver: o.clone(),
                func: v,
            })),
            None => v,
        },
        Value::Builtin(b) if b.kind == Kind::Method => match obj {
            Some(o) => Value::method(o.clone(), b),
            None => v,
        },
        // A `functools.singledispatchmethod` binds as a function does.
        Value::Instance(w) if super::builtins::python::is_dispatch_method(w) => match obj {
            Some(o) => Value::Bound(Arc::new(Bound {
                receiver: o.clone(),
                func: v,
            })),
            None => v,
        },
        Value::Instance(w) if is_wrapper(w, "staticmethod") => {
            attr_get(&w.attrs, "__func__").unwrap_or(Value::None)
        }
        Value::Instance(w) if is_wrapper(w, "classmethod") => Value::Bound(Arc::new(Bound {
            receiver: cls.clone(),
            func: attr_get(&w.attrs, "__func__").unwrap_or(Value::None),
        })),
        _ => v,
    }
}

/// What a base class written as `v` puts in a new class's MRO: a class itself, the class
/// standing for `dict` or `list`, nothing for `object`; a TypeError for anything else.
pub(super) fn base_entry(v: &Value, span: Span) -> Result<Option<Value>> {
    match v {
        Value::Class(_) | Value::ErrorClass(_) => Ok(Some(v.clone())),
        Value::Builtin(b) if b.name == "object" => Ok(None),
        Value::Builtin(b) if bases::base_class(b.name).is_some() => Ok(bases::base_class(b.name)),
        other => Err(type_error(
            format!(
                "ragtag cannot subclass '{}'",
                crate::render::tf_text::repr_of(other)
            ),
            span,
        )
        .with_hint(
            "a class may derive from other classes, exception classes, object, dict, list, tuple, str, int, float and collections' Counter, defaultdict and OrderedDict",
        )),
    }
}

impl<'s> Interp<'s> {
    /// `class name(bases): body`: runs the body in a scope of its own, whose names become
    /// the class's attributes.
    pub(super) fn exec_class(
        &mut self,
        name: &str,
        bases: &[Arg],
        body: &[Stmt],
        span: Span,
    ) -> Result<()> {
        let mut base_values = Vec::new();
        // `typing.NamedTuple` and `typing.TypedDict` as a base: the class is made from the
        // body's annotations.
        let mut special = None;
        // The class keywords (`class P(Base, name='p')`) go to `__init_subclass__`.
        let mut keywords = Vec::new();
        for a in bases {
            if let Some(k) = a.name.as_ref().filter(|k| *k != "metaclass") {
                let value = self.eval(&a.value)?;
                keywords.push(CallArg {
                    name: Some(k.clone()),
                    value,
                    span: a.value.span,
                });
            }
            if a.name.is_some() || a.star || a.double_star {
                continue;
            }
            let v = self.eval(&a.value)?;
            let v = typing::mro_entry(&v).unwrap_or(v);
            match typing::special_base(&v) {
                Some(kind) => special = Some(kind),
                None => base_values.extend(base_entry(&v, a.value.span)?),
            }
        }
        super::protocols::check_bases(&base_values, span)?;
        let env = Env::new(Default::default(), None, self.shared_frame());
        self.frames.push(env.clone());
        let qual = match &self.qualname {
            Some(q) => format!("{q}.{name}"),
            None => name.to_string(),
        };
        let saved = self.qualname.replace(qual);
        let result = self.exec_block(body);
        self.qualname = saved;
        self.frames.pop();
        if !matches!(result?, Flow::Normal) {
            return Err(
                Error::new(ExceptionClass::SyntaxError, "'return' outside function").at(span),
            );
        }
        let mut attrs: Vec<(String, Value)> = env
            .vars()
            .drain()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        super::class_order::order_attrs(body, &mut attrs);
        // A class that defines `__eq__` and not `__hash__` gets `__hash__ = None`, as
        // CPython's `type` does: its instances are unhashable.
        if let Some(kind) = special {
            let cls = typing::special_class(kind, name, attrs).map_err(|e| e.at(span))?;
            self.set(name, cls);
            return Ok(());
        }
        let has = |n: &str| attrs.iter().any(|(k, _)| k == n);
        if has("__eq__") && !has("__hash__") {
            attrs.push(("__hash__".into(), Value::None));
        }
        super::descriptors::implicit_classmethods(&mut attrs);
        let cls = Class::new(name, "__main__", base_values, attrs);
        // The methods' `super()` finds the class here.
        env.vars()
            .insert("__class__".into(), Value::Class(cls.clone()));
        self.set_names(&cls, span)?;
        self.init_subclass(&cls, keywords, span)?;
        self.set(name, Value::Class(cls));
        Ok(())
    }

    /// Calls `func` with `receiver` as its first argument.
    pub(super) fn call_method(
        &mut self,
        receiver: &Value,
        func: &Value,
        args: Vec<CallArg>,
        span: Span,
    ) -> Result<Value> {
        let mut all = vec![CallArg {
            name: None,
            value: receiver.clone(),
            span,
        }];
        all.extend(args);
        self.call(func, all, span)
    }

    /// `value.name` for classes, instances, bound methods and the names every object
    /// has (`__class__`, `__name__`); `None` when the usual lookup should answer.
    pub(super) fn object_attr(
        &mut self,
        o: &Value,
        name: &str,
        span: Span,
    ) -> Result<Option<Value>> {
        if let Value::Closure(c) = o {
            if let Some(v) = super::protocols::function_attr(c, name)? {
                return Ok(Some(v));
            }
        }
        Ok(Some(match (o, name) {
            (Value::Instance(i), _) => return self.instance_attr(i, name, span).map(Some),
            (Value::Class(c), _) => return self.class_attr(c, name, span).map(Some),
            (_, "__class__") => super::builtins::python::objects::type_of(o),
            (Value::Bound(b), "__self__") => b.receiver.clone(),
            (Value::Bound(b), "__func__") => b.func.clone(),
            (Value::Bound(b), "__name__") => return self.object_attr(&b.func, name, span),
            (Value::Builtin(b), "__name__") => Value::str(b.short_name()),
            (Value::Closure(c), "__name__") => {
                Value::str(c.name.rsplit('.').next().unwrap_or(&c.name))
            }
            (Value::Closure(c), "__qualname__") => Value::str(&c.name),
            (Value::Closure(c), "__annotations__") => match &c.annotations {
                Some(d) => d.clone(),
                None => Value::dict(Vec::new())?,
            },
            (Value::ErrorClass(k), "__name__" | "__qualname__") => Value::str(k.name()),
            (Value::ErrorClass(k), "__module__") => Value::str(match k {
                _ if k.is_tf() => "tensorflow.python.framework.errors_impl",
                ExceptionClass::AxisError => "numpy.exceptions",
                _ => "builtins",
            }),
            (Value::ErrorClass(k), "__bases__") => Value::tuple(match k.parent() {
                Some(p) => vec![Value::ErrorClass(p)],
                None => vec![super::builtins::python::objects::object_type()],
            }),
            (Value::ErrorClass(k), "__mro__") => {
                Value::tuple(super::protocols::error_class_mro(*k))
            }
            // `Exception.__init__(self, msg)` in a subclass's `__init__`.
            (Value::ErrorClass(_), "__init__" | "__str__" | "__repr__") => {
                super::builtins::python::objects::method(&format!("BaseException.{name}"))
            }
            (Value::ErrorClass(_), "mro") => match super::builtins::registry().get("type.mro") {
                Some(b) => Value::method(o.clone(), b),
                None => return Ok(None),
            },
            (Value::Module(m), "__name__") if m.as_ref() == "tf.RaggedTensor" => {
                Value::str("RaggedTensor")
            }
            _ => return Ok(None),
        }))
    }

    fn instance_attr(&mut self, i: &Arc<Instance>, name: &str, span: Span) -> Result<Value> {
        if is_wrapper(i, "super") {
            return self.super_attr(i, name, span);
        }
        match name {
            "__class__" => return Ok(Value::Class(i.class.clone())),
            "__dict__" if i.class.slot_names().is_none() => return instance_dict(i),
            _ => {}
        }
        if let Some(v) = own_plain_attr(i, name) {
            return Ok(v);
        }
        let this = || Value::Instance(i.clone());
        let found = i.class.lookup(name);
        if let Some(Value::Instance(p)) = &found {
            if is_wrapper(p, "property") {
                return match attr_get(&p.attrs, "fget") {
                    Some(Value::None) | None => Err(attr_error(
                        format!(
                            "property '{name}' of '{}' object has no getter",
                            i.class.name
                        ),
                        span,
                    )),
                    Some(f) => self.call_values(&f, vec![this()], span),
                };
            }
        }
        if let Some(f) = &found {
            if let Some(v) = self.descriptor_get(f, Some(&this()), &i.class, true, span)? {
                return Ok(v);
            }
        }
        if let Some(v) = attr_get(&i.attrs, name) {
            return Ok(v);
        }
        if let Some(v) = found {
            if let Some(got) = self.descriptor_get(&v, Some(&this()), &i.class, false, span)? {
                return Ok(got);
            }
            return Ok(bind(v, Some(&this()), &Value::Class(i.class.clone())));
        }
        if let Some(v) = bases::base_attr(self, &this(), name, span) {
            return Ok(v);
        }
        // An exception's chaining attributes and BaseException's methods (`add_note`).
        if i.class.exception_base().is_some() {
            if let Some(v) = crate::value::exception_chain::chain_attr(&this(), name) {
                return Ok(v);
            }
            if let Some(b) = super::builtins::registry().get(&format!("BaseException.{name}")) {
                return Ok(Value::method(this(), b));
            }
        }
        if let Some(g) = i.class.lookup("__getattr__") {
            return self.call_method(&this(), &g, vec![arg(Value::str(name), span)], span);
        }
        Err(attr_error(
            format!("'{}' object has no attribute '{name}'", i.class.name),
            span,
        ))
    }

    fn class_attr(&mut self, c: &Arc<Class>, name: &str, span: Span) -> Result<Value> {
        let cls = Value::Class(c.clone());
        match name {
            "__name__" | "__qualname__" => return Ok(Value::str(c.name)),
            "__module__" => return Ok(Value::str(c.module)),
            "__bases__" => {
                let bases = if c.bases.is_empty() && c.is_python() {
                    vec![super::builtins::python::objects::object_type()]
                } else {
                    c.bases.clone()
                };
                return Ok(Value::tuple(bases));
            }
            "__mro__" => return Ok(Value::tuple(super::protocols::full_mro(c))),
            "mro" if c.lookup("mro").is_none() => return Ok(super::protocols::mro_method(c)),
            "__dict__" => return super::builtins::python::objects::attrs_dict(&c.attrs),
            "__new__" if c.lookup(name).is_none() && c.is_python() => {
                return Ok(super::builtins::python::objects::method("object.__new__"))
            }
            _ => {}
        }
        match c.lookup(name) {
            Some(v) => match self.descriptor_get(&v, None, c, false, span)? {
                Some(got) => Ok(got),
                None => Ok(bind(v, None, &cls)),
            },
            None => Err(attr_error(
                format!("type object '{}' has no attribute '{name}'", c.name),
                span,
            )),
        }
    }

    /// The attributes of an instance or a class, as `vars()` shows them.
    pub(super) fn vars_of(&self, o: &Value, span: Span) -> Result<Value> {
        match o {
            Value::Instance(i) if i.class.slot_names().is_none() => instance_dict(i),
            Value::Class(c) => super::builtins::python::objects::attrs_dict(&c.attrs),
            other => Err(
                type_error("vars() argument must have __dict__ attribute".into(), span).with_hint(
                    format!("a {} has no attributes of its own", other.type_name()),
                ),
            ),
        }
    }
}

/// A positional call argument.
pub(super) fn arg(value: Value, span: Span) -> CallArg {
    CallArg {
        name: None,
        value,
        span,
    }
}

/// The attributes of an instance, in the order they were set.
pub fn instance_attrs(i: &Instance) -> Vec<(String, Value)> {
    attr_items(&i.attrs)
}

impl<'s> Interp<'s> {
    /// `obj.name`, as `getattr` reads it.
    pub fn attribute(&mut self, o: Value, name: &str, span: Span) -> Result<Value> {
        self.get_attr(o, name, span, span)
    }

    /// `obj.name = v`, as `setattr` does it.
    pub fn store_attribute(&mut self, o: &Value, name: &str, v: Value, span: Span) -> Result<()> {
        if self.set_object_attr(o, name, v, span)? {
            return Ok(());
        }
        Err(self.attr_unsettable(o, name, span))
    }

    /// `del obj.name`, as `delattr` does it.
    pub fn delete_attribute(&mut self, o: &Value, name: &str, span: Span) -> Result<()> {
        if self.del_object_attr(o, name, span)? {
            return Ok(());
        }
        Err(self.attr_unsettable(o, name, span))
    }

    /// `vars(obj)`.
    pub fn vars_value(&mut self, o: &Value, span: Span) -> Result<Value> {
        self.vars_of(o, span)
    }

    /// `super()` with no arguments.
    pub fn super_value(&mut self, span: Span) -> Result<Value> {
        self.zero_arg_super(span)
    }
}
