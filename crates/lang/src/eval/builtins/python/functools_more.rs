//! `functools.wraps` / `update_wrapper`, `cached_property`, `singledispatch` and
//! `partialmethod`. A cached property and a partial method are properties whose getter is a
//! builtin (so an instance finds them as it finds any property); a single-dispatch function
//! is an instance of a class of its own, holding its registry.

use std::sync::{Arc, OnceLock};

use super::functools::{hold, registered};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::{registry, Builtin};
use crate::eval::operators::identical;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::{PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

const SD: &str = "import functools\n@functools.singledispatch\ndef show(x):\n    return 'object'\n@show.register\ndef _(x: int):\n    return 'int'\n";

/// The decorators and the methods of what they make.
pub static FUNCTOOLS_MORE: &[Builtin] = &[
    Builtin::function("functools.update_wrapper", "(wrapper, wrapped, assigned=None, updated=None)", update_wrapper)
        .doc("Gives `wrapper` the `__module__`, `__name__`, `__qualname__`, `__doc__` and `__dict__` items of `wrapped`, and `__wrapped__ = wrapped`; returns `wrapper`.")
        .examples(&["import functools\ndef f():\n    'doc'\ndef g():\n    pass\nfunctools.update_wrapper(g, f).__name__"]),
    Builtin::function("functools.wraps", "(wrapped, assigned=None, updated=None)", wraps)
        .doc("A decorator applying `update_wrapper(wrapper, wrapped)`: `@functools.wraps(f)` on the inner function of a decorator.")
        .examples(&["import functools\ndef deco(f):\n    @functools.wraps(f)\n    def inner(*a):\n        return f(*a)\n    return inner\n@deco\ndef add(x, y):\n    'Adds.'\n    return x + y\nadd.__name__, add.__doc__, add(1, 2)"]),
    Builtin::method("functools.wraps.__call__", "(self, wrapper)", wraps_call)
        .doc("Applies the wrapped function's names to `wrapper`.")
        .examples(&["import functools\ndef f():\n    pass\nfunctools.wraps(f)(lambda: 0).__name__"]),
    Builtin::function("functools.cached_property", "(func)", cached_property)
        .doc("A property computed once per instance: the first read calls `func(self)` and keeps the value in the instance's `__dict__`.")
        .examples(&["import functools\nclass C:\n    @functools.cached_property\n    def big(self):\n        print('computing')\n        return 42\nc = C()\nc.big + c.big"]),
    Builtin::method("functools.cached_property.__get__", "(self, instance)", cached_get)
        .doc("The kept value, else `func(instance)`, kept.")
        .examples(&["import functools\nclass C:\n    @functools.cached_property\n    def v(self):\n        return 1\nC().v"]),
    Builtin::method("functools.cached_property.__set__", "(self, instance, value)", cached_set)
        .doc("Replaces the kept value.")
        .examples(&["import functools\nclass C:\n    @functools.cached_property\n    def v(self):\n        return 1\nc = C()\nc.v = 5\nc.v"]),
    Builtin::function("functools.singledispatch", "(func)", singledispatch)
        .doc("A function that picks an implementation by its first argument's class (through its MRO); `f.register(cls)` or `@f.register` on a function whose first parameter is annotated adds one.")
        .examples(&[SD, "import functools\n@functools.singledispatch\ndef f(x):\n    return 'object'\nf.register(str, lambda x: 'str')\nf('a'), f(1.5)"]),
    Builtin::function("functools.singledispatchmethod", "(func)", singledispatchmethod)
        .doc("In a class body: a method that picks an implementation by the class of its first argument after `self`; `@f.register` on a method whose second parameter is annotated, or `f.register(cls)`, adds one.")
        .examples(&["import functools
class C:
    @functools.singledispatchmethod
    def show(self, x):
        return 'object'
    @show.register
    def _(self, x: int):
        return 'int'
C().show(1), C().show('s')"]),
    Builtin::method("functools.singledispatch.__call__", "(self, *args, **kwargs)", sd_call)
        .doc("Calls the implementation registered for the first argument's class.")
        .examples(&[concat!("import functools\n@functools.singledispatch\ndef show(x):\n    return 'object'\n@show.register\ndef _(x: int):\n    return 'int'\n", "show(True), show('s')")]),
    Builtin::method("functools.singledispatch.register", "(self, cls, func=None)", sd_register)
        .doc("Registers `func` for `cls`; with no `func`, a decorator; given a function, registers it for its first parameter's annotation.")
        .examples(&[concat!("import functools\n@functools.singledispatch\ndef show(x):\n    return 'object'\n@show.register(list)\ndef _(x):\n    return 'list'\n", "show([1])")]),
    Builtin::method("functools.singledispatch._register_to", "(self, func)", sd_register_to)
        .doc("What `register(cls)` returns: registers the function it decorates.")
        .examples(&["import functools\n@functools.singledispatch\ndef f(x):\n    return 0\nf.register(int)(lambda x: 1)(0)"]),
    Builtin::method("functools.singledispatch.dispatch", "(self, cls)", sd_dispatch)
        .doc("The implementation chosen for class `cls`.")
        .examples(&[concat!("import functools\n@functools.singledispatch\ndef show(x):\n    return 'object'\n@show.register\ndef _(x: int):\n    return 'int'\n", "show.dispatch(bool)(1)")]),
    Builtin::function("functools.partialmethod", "(func, /, *args, **kwargs)", partialmethod)
        .doc("In a class body: a method calling `func(self, *args, *more, **kwargs)`.")
        .examples(&["import functools\nclass C:\n    def set(self, k, v):\n        return (k, v)\n    on = functools.partialmethod(set, 'on')\nC().on(1)"]),
    Builtin::method("functools.partialmethod.__get__", "(self, instance)", partialmethod_get)
        .doc("The partial function of `func` with the instance first.")
        .examples(&["import functools\nclass C:\n    def f(self, x):\n        return x\n    g = functools.partialmethod(f, 3)\nC().g()"]),
];

fn method(name: &str, receiver: Value) -> Value {
    Value::method(receiver, registered(name))
}

/// The attributes `update_wrapper` copies, by CPython's default.
const ASSIGNED: [&str; 4] = ["__module__", "__name__", "__qualname__", "__doc__"];

fn update(it: &mut Interp<'_>, wrapper: &Value, wrapped: &Value, span: Span) -> Result<()> {
    let set = |it: &mut Interp<'_>, name: &str, v: Value| -> Result<()> {
        if !it.set_attr_raw(wrapper, name, v.clone(), span)? {
            // A builtin class's instance (a single-dispatch function) keeps them too.
            if let Value::Instance(i) = wrapper {
                attr_set(&i.attrs, name, v);
            }
        }
        Ok(())
    };
    for name in ASSIGNED {
        if let Ok(v) = it.get_attr(wrapped.clone(), name, span, span) {
            set(it, name, v)?;
        }
    }
    if let Ok(Value::Dict(d)) = it.get_attr(wrapped.clone(), "__dict__", span, span) {
        for (k, v) in d.items() {
            if let Value::Str(k) = k {
                set(it, &k, v)?;
            }
        }
    }
    set(it, "__wrapped__", wrapped.clone())
}

fn update_wrapper(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    update(it, a.value("wrapper"), a.value("wrapped"), a.call)?;
    Ok(a.value("wrapper").clone())
}

fn wraps(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(method(
        "functools.wraps.__call__",
        a.value("wrapped").clone(),
    ))
}

fn wraps_call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    update(it, a.value("wrapper"), a.value("self"), a.call)?;
    Ok(a.value("wrapper").clone())
}

fn name_of(it: &mut Interp<'_>, f: &Value, span: Span) -> String {
    match it.get_attr(f.clone(), "__name__", span, span) {
        Ok(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    }
}

fn cached_property(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let func = a.value("func").clone();
    let name = name_of(it, &func, a.call);
    let held = Value::tuple(vec![func, Value::str(name)]);
    Ok(crate::eval::classes_wrapper(
        "property",
        vec![
            (
                "fget".into(),
                method("functools.cached_property.__get__", held.clone()),
            ),
            (
                "fset".into(),
                method("functools.cached_property.__set__", held),
            ),
        ],
    ))
}

/// A cached property's function and name.
fn held_pair(a: &Args) -> (Value, String) {
    match a.value("self") {
        Value::Tuple(t) if t.len() == 2 => {
            let name = match &t[1] {
                Value::Str(s) => s.to_string(),
                _ => String::new(),
            };
            (t[0].clone(), name)
        }
        _ => (Value::None, String::new()),
    }
}

fn cached_get(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (func, name) = held_pair(a);
    let obj = a.value("instance");
    if let Value::Instance(i) = obj {
        if let Some(v) = attr_get(&i.attrs, &name) {
            return Ok(v);
        }
    }
    let v = it.call_values(&func, vec![obj.clone()], a.call)?;
    if let Value::Instance(i) = obj {
        attr_set(&i.attrs, &name, v.clone());
    }
    Ok(v)
}

fn cached_set(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (_, name) = held_pair(a);
    if let Value::Instance(i) = a.value("instance") {
        attr_set(&i.attrs, &name, a.value("value").clone());
    }
    Ok(Value::None)
}

/// The class of single-dispatch functions.
fn dispatch_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            let attrs = ["__call__", "register", "dispatch"]
                .iter()
                .filter_map(|m| {
                    let b = registry().get(&format!("functools.singledispatch.{m}"))?;
                    Some((m.to_string(), Value::Builtin(b)))
                })
                .collect();
            Class::new("function", "functools", Vec::new(), attrs)
        })
        .clone()
}

fn singledispatch(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let func = a.value("func").clone();
    let i = Instance::new(dispatch_class());
    let me = Value::Instance(i.clone());
    update(it, &me, &func, a.call)?;
    let object = super::objects::object_type();
    let table = vec![Value::tuple(vec![object, func.clone()])];
    attr_set(
        &i.attrs,
        "_registry",
        Value::List(PyList::new(table, false)),
    );
    let shown = format!(
        "<function {} at {:#x}>",
        name_of(it, &func, a.call),
        Arc::as_ptr(&i) as usize
    );
    i.set_shown(shown.clone(), shown);
    Ok(me)
}

fn singledispatchmethod(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = singledispatch(it, a)?;
    if let Value::Instance(i) = &me {
        attr_set(&i.attrs, "_method", Value::Bool(true));
        let shown = format!(
            "<functools.singledispatchmethod object at {:#x}>",
            Arc::as_ptr(i) as usize
        );
        i.set_shown(shown.clone(), shown);
    }
    Ok(me)
}

/// Whether `v` is a `singledispatchmethod` (which binds to an instance as a function does).
pub fn is_dispatch_method(v: &Instance) -> bool {
    v.class.module == "functools" && attr_get(&v.attrs, "_method").is_some()
}

/// How many arguments come before the one dispatched on: `self` for a method.
fn skipped(i: &Instance) -> usize {
    usize::from(attr_get(&i.attrs, "_method").is_some())
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "a single-dispatch function is needed, not {}",
                other.type_name()
            ),
        )
        .at(a.call)),
    }
}

fn table(i: &Instance) -> Vec<Value> {
    match attr_get(&i.attrs, "_registry") {
        Some(Value::List(l)) => l.items(),
        _ => Vec::new(),
    }
}

/// The builtin types a single-dispatch function can register.
const TYPES: &[&str] = &[
    "object",
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "bytes",
    "bytearray",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "range",
    "slice",
    "type",
    "collections.Counter",
    "collections.defaultdict",
    "collections.OrderedDict",
    "collections.deque",
];

fn is_class(v: &Value) -> bool {
    matches!(v, Value::Class(_) | Value::ErrorClass(_))
        || matches!(v, Value::Builtin(b) if TYPES.contains(&b.name))
}

fn add(i: &Instance, cls: Value, func: Value) {
    if let Some(Value::List(l)) = attr_get(&i.attrs, "_registry") {
        l.with_mut(|v| v.push(Value::tuple(vec![cls, func])));
    }
}

/// The classes a value of class `cls` belongs to, nearest first.
fn mro_of(cls: &Value) -> Vec<Value> {
    let object = super::objects::object_type();
    match cls {
        Value::Class(c) => crate::eval::protocols::full_mro(c),
        Value::Builtin(b) => {
            let mut out = vec![cls.clone()];
            let base = match b.name {
                "bool" => Some("int"),
                "collections.Counter" | "collections.defaultdict" | "collections.OrderedDict" => {
                    Some("dict")
                }
                _ => None,
            };
            if let Some(base) = base.and_then(|n| registry().get(n)) {
                out.push(Value::Builtin(base));
            }
            out.push(object);
            out
        }
        other => vec![other.clone(), object],
    }
}

fn find(i: &Instance, cls: &Value) -> Value {
    let entries = table(i);
    for c in mro_of(cls) {
        // The latest registration for a class wins.
        for e in entries.iter().rev() {
            if let Value::Tuple(p) = e {
                if identical(&p[0], &c) {
                    return p[1].clone();
                }
            }
        }
    }
    entries
        .first()
        .and_then(|e| match e {
            Value::Tuple(p) => Some(p[1].clone()),
            _ => None,
        })
        .unwrap_or(Value::None)
}

fn sd_call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let Some((first, _)) = a.rest().get(skipped(&i)) else {
        let name = attr_get(&i.attrs, "__name__")
            .map_or(String::new(), |v| crate::render::tf_text::str_of(&v));
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("{name} requires at least 1 positional argument"),
        )
        .at(a.call));
    };
    let f = find(&i, &super::objects::type_of(first));
    it.call(&f, a.forwarded(), a.call)
}

fn sd_register(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let cls = a.value("cls").clone();
    if is_class(&cls) {
        return Ok(match a.get("func") {
            Some(f) => {
                add(&i, cls, f.clone());
                f.clone()
            }
            None => method(
                "functools.singledispatch._register_to",
                Value::tuple(vec![Value::Instance(i), cls]),
            ),
        });
    }
    // `@f.register` on a function: its first parameter's annotation is the class.
    let annotated = match &cls {
        Value::Closure(c) => match (&c.annotations, c.params.first()) {
            (Some(Value::Dict(d)), Some(_)) => match c.params.get(skipped(&i)) {
                Some(p) => d.get(&Value::str(&p.name)).ok().flatten(),
                None => None,
            },
            _ => None,
        },
        _ => None,
    };
    match annotated {
        Some(t) if is_class(&t) => {
            add(&i, t, cls.clone());
            Ok(cls)
        }
        Some(t) => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "Invalid annotation for {}. {} is not a class.",
                repr_of(&Value::str(name_of(it, &cls, a.call))),
                repr_of(&t)
            ),
        )
        .at(a.span("cls"))),
        None => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "Invalid first argument to `register()`. {} is not a class or union type.",
                repr_of(&cls)
            ),
        )
        .at(a.span("cls"))),
    }
}

fn sd_register_to(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Tuple(t) = a.value("self") {
        if let (Value::Instance(i), cls) = (&t[0], &t[1]) {
            add(i, cls.clone(), a.value("func").clone());
        }
    }
    Ok(a.value("func").clone())
}

fn sd_dispatch(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    Ok(find(&i, a.value("cls")))
}

fn partialmethod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let held = hold(a.value("func").clone(), a);
    Ok(crate::eval::classes_wrapper(
        "property",
        vec![
            (
                "fget".into(),
                method("functools.partialmethod.__get__", held),
            ),
            ("fset".into(), Value::None),
        ],
    ))
}

fn partialmethod_get(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Tuple(held) = a.value("self") else {
        return Ok(Value::None);
    };
    let mut args = vec![a.value("instance").clone()];
    if let Value::Tuple(t) = &held[1] {
        args.extend(t.iter().cloned());
    }
    let partial = Value::tuple(vec![held[0].clone(), Value::tuple(args), held[2].clone()]);
    Ok(method("functools.partial.__call__", partial))
}
