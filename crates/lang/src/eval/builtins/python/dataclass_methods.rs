//! The methods `@dataclass` gives a class, as CPython 3.11 generates them: `__init__` from
//! the fields (defaults, `default_factory`, `init=False`, keyword-only fields,
//! `__post_init__`), `__repr__`, `__eq__` and the orderings over the fields as a tuple, the
//! frozen `__hash__`, `__setattr__` and `__delattr__`; and a field object's repr.

use std::cell::RefCell;
use std::sync::Arc;

use super::super::Builtin;
use super::dataclasses::{fa, flag, frozen_error, is_missing};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::BinOp;

/// The generated methods (found by name when `@dataclass` sets them on a class).
pub static DATACLASS_METHODS: &[Builtin] = &[
    Builtin::method("dataclasses._dataclass.__init__", "(self, *args, **kwargs)", init)
        .doc("Sets each field from the arguments (by position or by name), its default or its default_factory, then calls `__post_init__` if the class has one.")
        .examples(&["from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n    y: int = 2\nP(1).y"]),
    Builtin::method("dataclasses._dataclass.__repr__", "(self)", repr)
        .doc("`P(x=1, y=2)`: the class name and each field shown in the repr.")
        .examples(&["from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nrepr(P(1))"]),
    Builtin::method("dataclasses._dataclass.__eq__", "(self, other)", eq)
        .doc("Equal to an instance of the same class whose compared fields are equal.")
        .examples(&["from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nP(1) == P(1)"]),
    Builtin::method("dataclasses._dataclass.__lt__", "(self, other)", |it, a| order(it, a, BinOp::Lt))
        .doc("Orders instances of the same class as the tuples of their compared fields.")
        .examples(&["from dataclasses import dataclass\n@dataclass(order=True)\nclass P:\n    x: int\nP(1) < P(2)"]),
    Builtin::method("dataclasses._dataclass.__le__", "(self, other)", |it, a| order(it, a, BinOp::Le))
        .doc("Orders instances of the same class as the tuples of their compared fields.")
        .examples(&["from dataclasses import dataclass\n@dataclass(order=True)\nclass P:\n    x: int\nP(1) <= P(1)"]),
    Builtin::method("dataclasses._dataclass.__gt__", "(self, other)", |it, a| order(it, a, BinOp::Gt))
        .doc("Orders instances of the same class as the tuples of their compared fields.")
        .examples(&["from dataclasses import dataclass\n@dataclass(order=True)\nclass P:\n    x: int\nP(3) > P(2)"]),
    Builtin::method("dataclasses._dataclass.__ge__", "(self, other)", |it, a| order(it, a, BinOp::Ge))
        .doc("Orders instances of the same class as the tuples of their compared fields.")
        .examples(&["from dataclasses import dataclass\n@dataclass(order=True)\nclass P:\n    x: int\nP(2) >= P(1)"]),
    Builtin::method("dataclasses._dataclass.__hash__", "(self)", hash)
        .doc("The hash of the tuple of the compared fields (frozen dataclasses, or `unsafe_hash=True`).")
        .examples(&["from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\nhash(P(1)) == hash((1,))"]),
    Builtin::method("dataclasses._dataclass.__setattr__", "(self, name, value)", setattr)
        .doc("A frozen dataclass refuses assignment to its fields with FrozenInstanceError.")
        .examples(&["from dataclasses import dataclass, FrozenInstanceError\n@dataclass(frozen=True)\nclass P:\n    x: int\np = P(1)\ntry:\n    p.x = 2\nexcept FrozenInstanceError as e:\n    print(e)"]),
    Builtin::method("dataclasses._dataclass.__delattr__", "(self, name)", delattr)
        .doc("A frozen dataclass refuses `del` of its fields with FrozenInstanceError.")
        .examples(&["from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\np = P(1)\ntry:\n    del p.x\nexcept AttributeError as e:\n    print(type(e).__name__, e)"]),
    Builtin::method("dataclasses.Field.__repr__", "(self)", field_repr)
        .doc("`Field(name='x',type=<class 'int'>,default=…,…)`, as CPython shows a field.")
        .examples(&["from dataclasses import dataclass, fields\n@dataclass\nclass P:\n    x: int = 1\nfields(P)[0].default"]),
];

/// The fields of a dataclass, in definition order (the bases' first); not its `InitVar`s.
pub(super) fn field_list(c: &Arc<Class>) -> Vec<Arc<Instance>> {
    let mut list = init_fields(c);
    list.retain(|f| !is_init_var(f));
    list
}

fn is_init_var(f: &Instance) -> bool {
    matches!(fa(f, "_field_type"), Value::Str(s) if s.as_str() == "_FIELD_INITVAR")
}

/// The fields and the `InitVar`s: what `__init__` takes.
pub(super) fn init_fields(c: &Arc<Class>) -> Vec<Arc<Instance>> {
    match c.lookup("__dataclass_fields__") {
        Some(Value::Dict(d)) => d
            .values()
            .into_iter()
            .filter_map(|f| match f {
                Value::Instance(f) => Some(f),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The fields of a dataclass or of an instance of one; None for anything else.
pub(super) fn fields_of(v: &Value) -> Option<Vec<Arc<Instance>>> {
    let c = match v {
        Value::Class(c) => c,
        Value::Instance(i) => &i.class,
        _ => return None,
    };
    c.lookup("__dataclass_fields__")?;
    Some(field_list(c))
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "a dataclass method needs a dataclass instance, not {}",
                v.type_name()
            ),
        )
        .at(a.call)),
    }
}

fn name_of(f: &Instance) -> String {
    match fa(f, "name") {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

/// Whether the class was made with `frozen=True`.
fn frozen(c: &Arc<Class>) -> bool {
    matches!(c.lookup("__dataclass_params__"), Some(Value::Instance(p)) if flag(&p, "frozen"))
}

fn type_err(msg: String, a: &Args) -> Error {
    Error::new(ExceptionClass::TypeError, msg).at(a.call)
}

/// `'a', 'b' and 'c'`, as CPython lists missing arguments.
fn listed(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match quoted.len() {
        1 => quoted[0].clone(),
        2 => format!("{} and {}", quoted[0], quoted[1]),
        n => format!("{}, and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

fn init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let me = Value::Instance(i.clone());
    let fields = init_fields(&i.class);
    let cname = i.class.name;
    let params: Vec<&Arc<Instance>> = fields.iter().filter(|f| flag(f, "init")).collect();
    let positional: Vec<&Arc<Instance>> = params
        .iter()
        .copied()
        .filter(|f| !flag(f, "kw_only"))
        .collect();
    if a.rest().len() > positional.len() {
        return Err(type_err(
            format!(
                "{cname}.__init__() takes {} positional argument{} but {} were given",
                positional.len() + 1,
                if positional.is_empty() { "" } else { "s" },
                a.rest().len() + 1
            ),
            a,
        ));
    }
    let mut given: Vec<(String, Value)> = positional
        .iter()
        .zip(a.rest())
        .map(|(f, (v, _))| (name_of(f), v.clone()))
        .collect();
    for (k, v, at) in a.kwargs() {
        if !params.iter().any(|f| name_of(f) == *k) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{cname}.__init__() got an unexpected keyword argument '{k}'"),
            )
            .at(*at));
        }
        if given.iter().any(|(n, _)| n == k) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{cname}.__init__() got multiple values for argument '{k}'"),
            )
            .at(*at));
        }
        given.push((k.clone(), v.clone()));
    }
    let no_default =
        |f: &Instance| is_missing(&fa(f, "default")) && is_missing(&fa(f, "default_factory"));
    for kw in [false, true] {
        let missing: Vec<String> = params
            .iter()
            .filter(|f| flag(f, "kw_only") == kw && no_default(f))
            .map(|f| name_of(f))
            .filter(|n| !given.iter().any(|(g, _)| g == n))
            .collect();
        if !missing.is_empty() {
            return Err(type_err(
                format!(
                    "{cname}.__init__() missing {} required {} argument{}: {}",
                    missing.len(),
                    if kw { "keyword-only" } else { "positional" },
                    if missing.len() == 1 { "" } else { "s" },
                    listed(&missing)
                ),
                a,
            ));
        }
    }
    let raw = frozen(&i.class);
    // The `InitVar`s' values, for `__post_init__`.
    let mut post = Vec::new();
    for f in &fields {
        let n = name_of(f);
        let value = match given.iter().find(|(g, _)| *g == n) {
            Some((_, v)) => v.clone(),
            None => {
                let factory = fa(f, "default_factory");
                if !is_missing(&factory) {
                    it.call_values(&factory, Vec::new(), a.call)?
                } else if flag(f, "init") {
                    fa(f, "default")
                } else {
                    // A field outside `__init__` without a factory keeps its default on the
                    // class (and none at all without one).
                    continue;
                }
            }
        };
        if is_init_var(f) {
            post.push(CallArg {
                name: None,
                value,
                span: a.call,
            });
        } else if raw {
            // A frozen class's `__init__` stores as `object.__setattr__` does.
            attr_set(&i.attrs, &n, value);
        } else {
            it.store_attribute(&me, &n, value, a.call)?;
        }
    }
    if let Some(post_init) = i.class.lookup("__post_init__") {
        it.call_method(&me, &post_init, post, a.call)?;
    }
    Ok(Value::None)
}

thread_local! {
    /// The instances whose repr is being made (a field holding its own instance shows `...`).
    static IN_REPR: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let key = Arc::as_ptr(&i) as usize;
    if IN_REPR.with(|r| r.borrow().contains(&key)) {
        return Ok(Value::str("..."));
    }
    IN_REPR.with(|r| r.borrow_mut().push(key));
    let result: Result<Value> = (|| {
        let mut parts = Vec::new();
        for f in field_list(&i.class).iter().filter(|f| flag(f, "repr")) {
            let n = name_of(f);
            let v = attr_get(&i.attrs, &n)
                .or_else(|| i.class.lookup(&n))
                .unwrap_or(Value::None);
            it.prepare_shown(&v, a.call)?;
            parts.push(format!("{n}={}", repr_of(&v)));
        }
        Ok(Value::str(format!(
            "{}({})",
            i.class.name,
            parts.join(", ")
        )))
    })();
    IN_REPR.with(|r| r.borrow_mut().retain(|k| *k != key));
    result
}

/// The compared fields' values of `self`, and of `other` when it is an instance of the
/// same class (None otherwise: the comparison is NotImplemented).
fn compared(a: &Args) -> Result<Option<(Vec<Value>, Vec<Value>)>> {
    let i = this(a)?;
    let Value::Instance(o) = a.value("other") else {
        return Ok(None);
    };
    if !Arc::ptr_eq(&i.class, &o.class) {
        return Ok(None);
    }
    let names: Vec<String> = field_list(&i.class)
        .iter()
        .filter(|f| flag(f, "compare"))
        .map(|f| name_of(f))
        .collect();
    let of = |x: &Instance| {
        names
            .iter()
            .map(|n| {
                attr_get(&x.attrs, n)
                    .or_else(|| x.class.lookup(n))
                    .unwrap_or(Value::None)
            })
            .collect()
    };
    Ok(Some((of(&i), of(o))))
}

fn eq(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Some((x, y)) = compared(a)? else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    Ok(Value::Bool(it.eq_values(
        &Value::tuple(x),
        &Value::tuple(y),
        a.call,
    )?))
}

/// `op` between the tuples of compared fields: the first unequal pair decides.
fn order(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    let Some((x, y)) = compared(a)? else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    for (p, q) in x.iter().zip(&y) {
        if !it.eq_values(p, q, a.call)? {
            let r = it.instance_binary(op, p, q, a.call)?;
            return Ok(Value::Bool(it.truth(&r, a.call)?));
        }
    }
    Ok(Value::Bool(matches!(op, BinOp::Le | BinOp::Ge)))
}

fn hash(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    // A field's `hash` option decides; None (the default) follows `compare`.
    let values: Vec<Value> = field_list(&i.class)
        .iter()
        .filter(|f| match fa(f, "hash") {
            Value::None => flag(f, "compare"),
            h => h.truthy().unwrap_or(false),
        })
        .map(|f| attr_get(&i.attrs, &name_of(f)).unwrap_or(Value::None))
        .collect();
    Ok(Value::Int(it.hash_value(&Value::tuple(values), a.call)?))
}

fn attr_name(a: &Args) -> Result<String> {
    match a.value("name") {
        Value::Str(s) => Ok(s.to_string()),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!("attribute name must be string, not '{}'", v.type_name()),
        )
        .at(a.span("name"))),
    }
}

/// Whether a frozen instance refuses changing `name`: every name on an instance of the
/// frozen class itself, only the fields on an instance of a subclass.
fn refuses(i: &Arc<Instance>, name: &str) -> bool {
    let own = matches!(attr_get(&i.class.attrs, "__dataclass_params__"), Some(Value::Instance(p)) if flag(&p, "frozen"));
    own || field_list(&i.class).iter().any(|f| name_of(f) == name)
}

fn raise_frozen(it: &mut Interp<'_>, msg: String, a: &Args) -> Error {
    let e = Instance::new(frozen_error());
    attr_set(
        &e.attrs,
        "args",
        Value::tuple(vec![Value::str(msg.clone())]),
    );
    // The evaluator computes shown text only for the program's own classes: this one's is
    // an exception's, its message.
    e.set_shown(
        format!("FrozenInstanceError({})", repr_of(&Value::str(&msg))),
        msg,
    );
    match it.raise_object(Value::Instance(e), a.call) {
        Ok(err) | Err(err) => err,
    }
}

fn setattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let name = attr_name(a)?;
    if refuses(&i, &name) {
        return Err(raise_frozen(
            it,
            format!("cannot assign to field '{name}'"),
            a,
        ));
    }
    it.set_attr_raw(a.value("self"), &name, a.value("value").clone(), a.call)?;
    Ok(Value::None)
}

fn delattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let name = attr_name(a)?;
    if refuses(&i, &name) {
        return Err(raise_frozen(it, format!("cannot delete field '{name}'"), a));
    }
    if !it.del_attr_raw(a.value("self"), &name, a.call)? {
        return Err(Error::new(ExceptionClass::AttributeError, name).at(a.call));
    }
    Ok(Value::None)
}

fn field_repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = this(a)?;
    let mut parts = Vec::new();
    for n in [
        "name",
        "type",
        "default",
        "default_factory",
        "init",
        "repr",
        "hash",
        "compare",
        "metadata",
        "kw_only",
    ] {
        let v = fa(&f, n);
        it.prepare_shown(&v, a.call)?;
        let shown = match (n, &v) {
            ("metadata", Value::Dict(_)) => format!("mappingproxy({})", repr_of(&v)),
            _ => repr_of(&v),
        };
        parts.push(format!("{n}={shown}"));
    }
    let kind = match fa(&f, "_field_type") {
        Value::Str(s) => s.to_string(),
        _ => "_FIELD".into(),
    };
    parts.push(format!("_field_type={kind}"));
    Ok(Value::str(format!("Field({})", parts.join(","))))
}
