//! `dataclasses` as CPython 3.11 has it: `@dataclass` (with `init`, `repr`, `eq`, `order`,
//! `unsafe_hash`, `frozen`, `match_args`, `kw_only`, `slots`) reads a class's annotations
//! into fields (`ClassVar[…]` is not one, `InitVar[…]` goes only to `__init__` and
//! `__post_init__`, `_: KW_ONLY` makes the rest keyword-only) and gives the class the methods
//! CPython generates (see `dataclass_methods`); `field`, `MISSING`, `InitVar`, `KW_ONLY` and
//! `FrozenInstanceError` (`fields`, `asdict`, … are in `dataclass_functions`).

use std::sync::{Arc, OnceLock};

use super::super::{registry, Builtin};
use super::dataclass_methods::{field_list, init_fields};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_del, attr_get, attr_set, Class, Instance};
use crate::value::{PyDict, Value};
use ragtag_engine::ExceptionClass;

/// The `dataclasses` module's functions.
pub static DATACLASSES: &[Builtin] = &[
    Builtin::function(
        "dataclasses.dataclass",
        "(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False, match_args=True, kw_only=False, slots=False)",
        dataclass,
    )
    .doc(
        "A class decorator: each annotated class attribute becomes a field, and the class \
         gets `__init__`, `__repr__` (`Point(x=1, y=2)`) and `__eq__`; `order=True` adds \
         `<`, `<=`, `>`, `>=`, `frozen=True` refuses assignment (FrozenInstanceError) and \
         makes instances hashable. `@dataclass(...)` with options gives the decorator.",
    )
    .examples(&["from dataclasses import dataclass\n@dataclass\nclass Point:\n    x: int\n    y: int = 0\nPoint(1)"]),
    Builtin::function(
        "dataclasses.field",
        "(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True, metadata=None, kw_only=MISSING)",
        field,
    )
    .doc(
        "A field's options, assigned to an annotated class attribute: `default`, or \
         `default_factory` (called for each new instance: `field(default_factory=list)`), \
         and whether it is in `__init__`, the repr, comparisons and the hash.",
    )
    .examples(&["from dataclasses import dataclass, field\n@dataclass\nclass Bag:\n    items: list = field(default_factory=list)\nBag()"]),
    Builtin::method("dataclasses.InitVar.__class_getitem__", "(cls, type)", init_var)
        .doc("`InitVar[int]`: an annotation whose name is a parameter of `__init__`, passed on to `__post_init__`, not a field.")
        .examples(&["from dataclasses import dataclass, InitVar, fields
@dataclass
class C:
    x: int
    k: InitVar[int] = 2
    def __post_init__(self, k):
        self.x *= k
C(3), len(fields(C))"]),
    Builtin::method("dataclasses._decorator.__call__", "(self, cls)", decorate)
        .doc("What `dataclass(...)` with options returns applies them to the class it decorates.")
        .examples(&["from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\nhash(P(1)) == hash(P(1))"]),
];

/// A class of the `dataclasses` module, made once.
fn module_class(
    cell: &'static OnceLock<Arc<Class>>,
    name: &str,
    bases: Vec<Value>,
    methods: &[&str],
) -> Arc<Class> {
    cell.get_or_init(|| {
        let attrs = methods
            .iter()
            .filter_map(|m| {
                let b = registry().get(&format!("dataclasses.{name}.{m}"))?;
                Some((m.to_string(), Value::Builtin(b)))
            })
            .collect();
        Class::new(name, "dataclasses", bases, attrs)
    })
    .clone()
}

/// The class of field objects.
pub(super) fn field_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    module_class(&CLASS, "Field", Vec::new(), &["__repr__"])
}

/// `dataclasses.MISSING`: the default of a field that has none.
pub(super) fn missing() -> Value {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    static MISSING: OnceLock<Arc<Instance>> = OnceLock::new();
    Value::Instance(
        MISSING
            .get_or_init(|| Instance::new(module_class(&CLASS, "_MISSING_TYPE", Vec::new(), &[])))
            .clone(),
    )
}

/// `dataclasses.InitVar`.
fn init_var_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    module_class(&CLASS, "InitVar", Vec::new(), &["__class_getitem__"])
}

/// `dataclasses.KW_ONLY`: the annotation after which fields are keyword-only.
fn kw_only_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    module_class(&CLASS, "KW_ONLY", Vec::new(), &[])
}

fn init_var(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = Instance::new(init_var_class());
    let ty = a.value("type").clone();
    let shown = format!("dataclasses.InitVar[{}]", super::identity::arg_repr(&ty));
    attr_set(&i.attrs, "type", ty);
    i.set_shown(shown.clone(), shown);
    Ok(Value::Instance(i))
}

/// What an annotation makes: a field, an `InitVar` pseudo-field, or nothing (`ClassVar`).
fn field_type(ty: &Value) -> Option<&'static str> {
    let init_var = match ty {
        Value::Instance(i) => Arc::ptr_eq(&i.class, &init_var_class()),
        Value::Class(c) => Arc::ptr_eq(c, &init_var_class()),
        _ => false,
    };
    if init_var {
        Some("_FIELD_INITVAR")
    } else if super::typing_classes::is_class_var(ty) {
        None
    } else {
        Some("_FIELD")
    }
}

/// Whether `v` is `MISSING`.
pub(super) fn is_missing(v: &Value) -> bool {
    matches!((v, missing()), (Value::Instance(a), Value::Instance(b)) if Arc::ptr_eq(a, &b))
}

/// `dataclasses.FrozenInstanceError`, an AttributeError.
pub(super) fn frozen_error() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    module_class(
        &CLASS,
        "FrozenInstanceError",
        vec![Value::ErrorClass(ExceptionClass::AttributeError)],
        &[],
    )
}

/// The module's names that are not functions.
pub fn constant(path: &str) -> Option<Value> {
    match path {
        "dataclasses.MISSING" => Some(missing()),
        "dataclasses.FrozenInstanceError" => Some(Value::Class(frozen_error())),
        "dataclasses.Field" => Some(Value::Class(field_class())),
        "dataclasses.InitVar" => Some(Value::Class(init_var_class())),
        "dataclasses.KW_ONLY" => Some(Value::Class(kw_only_class())),
        _ => None,
    }
}

fn is_field(v: &Value) -> Option<&Arc<Instance>> {
    match v {
        Value::Instance(i) if Arc::ptr_eq(&i.class, &field_class()) => Some(i),
        _ => None,
    }
}

/// An attribute of a field object.
pub(super) fn fa(f: &Instance, name: &str) -> Value {
    attr_get(&f.attrs, name).unwrap_or(Value::None)
}

/// Whether a field's flag is set.
pub(super) fn flag(f: &Instance, name: &str) -> bool {
    matches!(fa(f, name), Value::Bool(true))
}

/// A new field object.
fn new_field(options: &[(&str, Value)]) -> Arc<Instance> {
    let f = Instance::new(field_class());
    for (k, v) in options {
        attr_set(&f.attrs, k, v.clone());
    }
    f
}

fn field(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let given = |n: &str, d: Value| a.given(n).cloned().unwrap_or(d);
    let default = given("default", missing());
    let factory = given("default_factory", missing());
    if !is_missing(&default) && !is_missing(&factory) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "cannot specify both default and default_factory",
        )
        .at(a.call));
    }
    let flag = |n: &str| a.flag(n, true).map(Value::Bool);
    let metadata = match a.get("metadata") {
        Some(m) => m.clone(),
        None => Value::Dict(PyDict::new(Vec::new()).map_err(|e| Error::from(e).at(a.call))?),
    };
    Ok(Value::Instance(new_field(&[
        ("name", Value::None),
        ("type", Value::None),
        ("default", default),
        ("default_factory", factory),
        ("init", flag("init")?),
        ("repr", flag("repr")?),
        ("hash", a.value("hash").clone()),
        ("compare", flag("compare")?),
        ("metadata", metadata),
        ("kw_only", given("kw_only", missing())),
    ])))
}

/// The options of `@dataclass(...)`.
struct Params {
    init: bool,
    repr: bool,
    eq: bool,
    order: bool,
    unsafe_hash: bool,
    frozen: bool,
    match_args: bool,
    kw_only: bool,
    slots: bool,
}

const PARAM_NAMES: [&str; 9] = [
    "init",
    "repr",
    "eq",
    "order",
    "unsafe_hash",
    "frozen",
    "match_args",
    "kw_only",
    "slots",
];

fn params_of(get: impl Fn(&str, bool) -> Result<bool>) -> Result<Params> {
    Ok(Params {
        init: get("init", true)?,
        repr: get("repr", true)?,
        eq: get("eq", true)?,
        order: get("order", false)?,
        unsafe_hash: get("unsafe_hash", false)?,
        frozen: get("frozen", false)?,
        match_args: get("match_args", true)?,
        kw_only: get("kw_only", false)?,
        slots: get("slots", false)?,
    })
}

fn dataclass(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let params = params_of(|n, d| a.flag(n, d))?;
    match a.value("cls") {
        Value::None => {
            // `@dataclass(...)`: a decorator that remembers the options.
            static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
            let d = Instance::new(module_class(
                &CLASS,
                "_decorator",
                Vec::new(),
                &["__call__"],
            ));
            for n in PARAM_NAMES {
                let default = matches!(n, "init" | "repr" | "eq" | "match_args");
                attr_set(&d.attrs, n, Value::Bool(a.flag(n, default)?));
            }
            Ok(Value::Instance(d))
        }
        Value::Class(c) => process(it, c, &params, a),
        other => Err(not_a_class(other, a)),
    }
}

fn not_a_class(other: &Value, a: &Args) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "dataclass() should be called on a class, not {}",
            other.type_name()
        ),
    )
    .at(a.span("cls"))
}

fn decorate(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(d) = a.value("self") else {
        return Ok(Value::None);
    };
    let params = params_of(|n, _| Ok(flag(d, n)))?;
    match a.value("cls") {
        Value::Class(c) => process(it, c, &params, a),
        other => Err(not_a_class(other, a)),
    }
}

/// Whether CPython 3.11 refuses `v` as a field default: an instance of a type that is not
/// hashable (list, dict, set, a dataclass with `eq` and without `frozen`).
fn mutable_default(v: &Value) -> bool {
    match v {
        Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::ByteArray(_) | Value::Deque(_) => {
            !matches!(v, Value::Set(s) if s.is_frozen())
        }
        Value::Instance(i) => matches!(i.class.lookup("__hash__"), Some(Value::None)),
        _ => false,
    }
}

fn type_repr(v: &Value) -> String {
    match v {
        Value::Instance(i) => i.class.repr(),
        v => format!("<class '{}'>", v.type_name()),
    }
}

pub(super) fn err(class: ExceptionClass, msg: String, a: &Args) -> Error {
    Error::new(class, msg).at(a.call)
}

/// Makes `c` a dataclass: its fields (the bases' first, then its own annotations) and the
/// methods its options ask for, each only where the class does not define its own.
fn process(_: &mut Interp<'_>, c: &Arc<Class>, p: &Params, a: &Args) -> Result<Value> {
    if p.order && !p.eq {
        return Err(err(
            ExceptionClass::ValueError,
            "eq must be true if order is true".into(),
            a,
        ));
    }
    let mut fields: Vec<(String, Arc<Instance>)> = Vec::new();
    let mro = c.mro();
    for base in mro[1..].iter().rev() {
        if let Value::Class(b) = base {
            if let Some(Value::Dict(d)) = attr_get(&b.attrs, "__dataclass_fields__") {
                for (k, f) in d.items() {
                    if let (Value::Str(k), Some(f)) = (k, is_field(&f)) {
                        match fields.iter_mut().find(|(n, _)| n == k.as_str()) {
                            Some(slot) => slot.1 = f.clone(),
                            None => fields.push((k.to_string(), f.clone())),
                        }
                    }
                }
            }
        }
    }
    let annotations = match attr_get(&c.attrs, "__annotations__") {
        Some(Value::Dict(d)) => d.items(),
        _ => Vec::new(),
    };
    // Fields after `_: KW_ONLY` are keyword-only.
    let mut kw_only = p.kw_only;
    for (name, ty) in &annotations {
        let Value::Str(name) = name else { continue };
        if matches!(ty, Value::Class(k) if Arc::ptr_eq(k, &kw_only_class())) {
            kw_only = true;
            continue;
        }
        let Some(kind) = field_type(ty) else { continue };
        let name = name.to_string();
        let own = attr_get(&c.attrs, &name);
        let f = match own.as_ref().and_then(is_field) {
            Some(f) => {
                // A field() object becomes the field; the class keeps only its default.
                match fa(f, "default") {
                    d if is_missing(&d) => {
                        attr_del(&c.attrs, &name);
                    }
                    d => attr_set(&c.attrs, &name, d),
                }
                if is_missing(&fa(f, "kw_only")) {
                    attr_set(&f.attrs, "kw_only", Value::Bool(kw_only));
                }
                f.clone()
            }
            None => new_field(&[
                ("default", own.clone().unwrap_or_else(missing)),
                ("default_factory", missing()),
                ("init", Value::Bool(true)),
                ("repr", Value::Bool(true)),
                ("hash", Value::None),
                ("compare", Value::Bool(true)),
                (
                    "metadata",
                    Value::Dict(PyDict::new(Vec::new()).map_err(Error::from)?),
                ),
                ("kw_only", Value::Bool(kw_only)),
            ]),
        };
        attr_set(&f.attrs, "_field_type", Value::str(kind));
        attr_set(&f.attrs, "name", Value::str(&name));
        attr_set(&f.attrs, "type", ty.clone());
        let default = fa(&f, "default");
        if mutable_default(&default) {
            return Err(err(
                ExceptionClass::ValueError,
                format!(
                    "mutable default {} for field {name} is not allowed: use default_factory",
                    type_repr(&default)
                ),
                a,
            ));
        }
        match fields.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = f,
            None => fields.push((name, f)),
        }
    }
    // A field() without an annotation is a mistake CPython reports.
    for (k, v) in crate::value::class::attr_items(&c.attrs) {
        if is_field(&v).is_some()
            && !annotations
                .iter()
                .any(|(n, _)| matches!(n, Value::Str(n) if **n == k))
        {
            return Err(err(
                ExceptionClass::TypeError,
                format!("'{k}' is a field but has no type annotation"),
                a,
            ));
        }
    }
    let table = PyDict::new(Vec::new()).map_err(Error::from)?;
    for (k, f) in &fields {
        table
            .insert(Value::str(k), Value::Instance(f.clone()))
            .map_err(Error::from)?;
    }
    attr_set(&c.attrs, "__dataclass_fields__", Value::Dict(table));
    static PARAMS: OnceLock<Arc<Class>> = OnceLock::new();
    let params = Instance::new(module_class(&PARAMS, "_DataclassParams", Vec::new(), &[]));
    for (n, v) in [
        ("init", p.init),
        ("repr", p.repr),
        ("eq", p.eq),
        ("order", p.order),
        ("unsafe_hash", p.unsafe_hash),
        ("frozen", p.frozen),
    ] {
        attr_set(&params.attrs, n, Value::Bool(v));
    }
    attr_set(&c.attrs, "__dataclass_params__", Value::Instance(params));
    if p.slots {
        let names = field_list(c).iter().map(|f| fa(f, "name")).collect();
        attr_set(&c.attrs, "__slots__", Value::tuple(names));
    }
    let list = init_fields(c);
    if p.init {
        check_default_order(&list, a)?;
    }
    let own = |n: &str| attr_get(&c.attrs, n);
    // CPython's table of what becomes of `__hash__` reads the class as written: its own
    // `__hash__` is kept, unless it is the None a class body's `__eq__` implies.
    let explicit = match own("__hash__") {
        None => false,
        Some(Value::None) => own("__eq__").is_none(),
        Some(_) => true,
    };
    let method = |n: &str| {
        registry()
            .get(&format!("dataclasses._dataclass.{n}"))
            .map(Value::Builtin)
            .unwrap_or(Value::None)
    };
    let set_new = |n: &str| {
        if own(n).is_none() {
            attr_set(&c.attrs, n, method(n));
        }
    };
    if p.init {
        set_new("__init__");
    }
    if p.repr {
        set_new("__repr__");
    }
    if p.eq {
        set_new("__eq__");
    }
    let overwrite = |n: &str, extra: &str| -> Result<()> {
        if own(n).is_some() {
            return Err(err(
                ExceptionClass::TypeError,
                format!("Cannot overwrite attribute {n} in class {}{extra}", c.name),
                a,
            ));
        }
        attr_set(&c.attrs, n, method(n));
        Ok(())
    };
    if p.order {
        for n in ["__lt__", "__le__", "__gt__", "__ge__"] {
            overwrite(n, ". Consider using functools.total_ordering")?;
        }
    }
    if p.frozen {
        overwrite("__setattr__", "")?;
        overwrite("__delattr__", "")?;
    }
    if p.unsafe_hash {
        if explicit {
            return Err(err(
                ExceptionClass::TypeError,
                format!("Cannot overwrite attribute __hash__ in class {}", c.name),
                a,
            ));
        }
        attr_set(&c.attrs, "__hash__", method("__hash__"));
    } else if p.eq && !explicit {
        let hash = if p.frozen {
            method("__hash__")
        } else {
            Value::None
        };
        attr_set(&c.attrs, "__hash__", hash);
    }
    if p.match_args && own("__match_args__").is_none() {
        let names = list
            .iter()
            .filter(|f| flag(f, "init") && !flag(f, "kw_only"))
            .map(|f| fa(f, "name"))
            .collect();
        attr_set(&c.attrs, "__match_args__", Value::tuple(names));
    }
    Ok(Value::Class(c.clone()))
}

/// CPython's TypeError for a field without a default after one with a default (among the
/// positional parameters of `__init__`).
fn check_default_order(list: &[Arc<Instance>], a: &Args) -> Result<()> {
    let mut seen_default = false;
    for f in list
        .iter()
        .filter(|f| flag(f, "init") && !flag(f, "kw_only"))
    {
        let has = !is_missing(&fa(f, "default")) || !is_missing(&fa(f, "default_factory"));
        if has {
            seen_default = true;
        } else if seen_default {
            return Err(err(
                ExceptionClass::TypeError,
                format!(
                    "non-default argument {} follows default argument",
                    crate::render::tf_text::repr_of(&fa(f, "name"))
                ),
                a,
            ));
        }
    }
    Ok(())
}
