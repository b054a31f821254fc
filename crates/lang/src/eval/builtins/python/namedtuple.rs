//! `collections.namedtuple`: a class whose instances are tuples with named fields. The
//! class derives from `tuple` (so `isinstance(p, tuple)`), its instances keep their fields
//! as attributes and hash and compare as the tuple of their items (`P(1, 2) == (1, 2)`).

use std::sync::Arc;

use super::super::{registry, Builtin};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::{python_cmp, python_eq};
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::iter::{iter_value, IterState};
use crate::value::{named, PyDict, Value};
use ragtag_engine::ExceptionClass;

const M: &str = "collections._namedtuple";

/// `namedtuple` and the methods its classes share.
pub static NAMEDTUPLE: &[Builtin] = &[
    Builtin::function(
        "collections.namedtuple",
        "(typename, field_names, *, rename=False, defaults=None, module=None)",
        namedtuple,
    )
    .doc(
        "A tuple class with named fields: `P = namedtuple('P', 'x y')`, `P(1, 2).x`; \
         `_fields`, `_asdict()`, `_replace(**kw)`, `P._make(items)`, `defaults=` for the \
         rightmost fields, `rename=True` to replace invalid names by `_0`, `_1`, ….",
    )
    .examples(&["from collections import namedtuple\nP = namedtuple('P', 'x y')\nP(1, y=2)"]),
    Builtin::method(
        "collections._namedtuple.__init__",
        "(self, *args, **kwargs)",
        init,
    )
    .doc("Sets the fields from the arguments, by position or by name.")
    .examples(&["from collections import namedtuple\nnamedtuple('P', 'x')(1).x"]),
    Builtin::method("collections._namedtuple.__repr__", "(self)", repr)
        .doc("`P(x=1, y=2)`.")
        .examples(&["from collections import namedtuple\nrepr(namedtuple('P', 'x')(1))"]),
    Builtin::method("collections._namedtuple.__len__", "(self)", len)
        .doc("The number of fields.")
        .examples(&["from collections import namedtuple\nlen(namedtuple('P', 'x y')(1, 2))"]),
    Builtin::method("collections._namedtuple.__iter__", "(self)", iter)
        .doc("The items in field order.")
        .examples(&["from collections import namedtuple\nlist(namedtuple('P', 'x y')(1, 2))"]),
    Builtin::method(
        "collections._namedtuple.__getitem__",
        "(self, key)",
        getitem,
    )
    .doc("An item by position, or a tuple of a slice.")
    .examples(&["from collections import namedtuple\nnamedtuple('P', 'x y')(1, 2)[-1]"]),
    Builtin::method(
        "collections._namedtuple.__contains__",
        "(self, item)",
        contains,
    )
    .doc("Whether an item equals `item`.")
    .examples(&["from collections import namedtuple\n2 in namedtuple('P', 'x y')(1, 2)"]),
    Builtin::method("collections._namedtuple.__eq__", "(self, other)", eq)
        .doc("Equal to a tuple (or named tuple) of equal items.")
        .examples(&["from collections import namedtuple\nnamedtuple('P', 'x y')(1, 2) == (1, 2)"]),
    Builtin::method("collections._namedtuple.__ne__", "(self, other)", ne)
        .doc("Not equal to the tuple of its items.")
        .examples(&["from collections import namedtuple\nnamedtuple('P', 'x')(1) != (2,)"]),
    Builtin::method("collections._namedtuple.__lt__", "(self, other)", lt)
        .doc("Orders as the tuple of its items.")
        .examples(&["from collections import namedtuple\nP = namedtuple('P', 'x')\nP(1) < P(2)"]),
    Builtin::method("collections._namedtuple.__le__", "(self, other)", le)
        .doc("Orders as the tuple of its items.")
        .examples(&["from collections import namedtuple\nP = namedtuple('P', 'x')\nP(1) <= P(1)"]),
    Builtin::method("collections._namedtuple.__gt__", "(self, other)", gt)
        .doc("Orders as the tuple of its items.")
        .examples(&["from collections import namedtuple\nP = namedtuple('P', 'x')\nP(3) > P(2)"]),
    Builtin::method("collections._namedtuple.__ge__", "(self, other)", ge)
        .doc("Orders as the tuple of its items.")
        .examples(&["from collections import namedtuple\nP = namedtuple('P', 'x')\nP(2) >= P(2)"]),
    Builtin::method("collections._namedtuple._asdict", "(self)", asdict)
        .doc("A dict of the fields and their items.")
        .examples(&["from collections import namedtuple\nnamedtuple('P', 'x y')(1, 2)._asdict()"]),
    Builtin::method(
        "collections._namedtuple._replace",
        "(self, **kwargs)",
        replace,
    )
    .doc("A new instance with the named fields replaced.")
    .examples(&["from collections import namedtuple\nnamedtuple('P', 'x y')(1, 2)._replace(y=5)"]),
    Builtin::function("collections._namedtuple._make", "(cls, iterable)", make)
        .doc("A new instance from an iterable of exactly one item per field (a classmethod).")
        .examples(&["from collections import namedtuple\nnamedtuple('P', 'x y')._make([1, 2])"]),
];

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c == '_' || c.is_alphabetic())
        && cs.all(|c| c == '_' || c.is_alphanumeric())
}

fn value_error(msg: String, a: &Args, at: &str) -> Error {
    Error::new(ExceptionClass::ValueError, msg).at(a.span(at))
}

fn names_of(a: &Args) -> Result<Vec<String>> {
    let v = a.value("field_names");
    let items = match v {
        Value::Str(s) => s
            .replace(',', " ")
            .split_whitespace()
            .map(Value::str)
            .collect(),
        other => iterate(other).map_err(|e| a.err_at("field_names", e))?,
    };
    items
        .iter()
        .map(|x| match x {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "Type names and field names must be strings, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("field_names"))),
        })
        .collect()
}

fn namedtuple(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let typename = match a.value("typename") {
        Value::Str(s) => s.to_string(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "Type names and field names must be strings, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("typename")))
        }
    };
    let mut names = names_of(a)?;
    let rename = a.flag("rename", false)?;
    if rename {
        let mut seen = std::collections::HashSet::new();
        for (i, n) in names.iter_mut().enumerate() {
            if !is_identifier(n)
                || KEYWORDS.contains(&n.as_str())
                || n.starts_with('_')
                || !seen.insert(n.clone())
            {
                *n = format!("_{i}");
            }
        }
    }
    for n in std::iter::once(&typename).chain(names.iter()) {
        if !is_identifier(n) {
            return Err(value_error(
                format!("Type names and field names must be valid identifiers: '{n}'"),
                a,
                "field_names",
            ));
        }
        if KEYWORDS.contains(&n.as_str()) {
            return Err(value_error(
                format!("Type names and field names cannot be a keyword: '{n}'"),
                a,
                "field_names",
            ));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for n in &names {
        if n.starts_with('_') && !rename {
            return Err(value_error(
                format!("Field names cannot start with an underscore: '{n}'"),
                a,
                "field_names",
            ));
        }
        if !seen.insert(n.clone()) {
            return Err(value_error(
                format!("Encountered duplicate field name: '{n}'"),
                a,
                "field_names",
            ));
        }
    }
    let defaults = match a.value("defaults") {
        Value::None => Vec::new(),
        v => iterate(v).map_err(|e| a.err_at("defaults", e))?,
    };
    if defaults.len() > names.len() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "Got more default values than field names",
        )
        .at(a.span("defaults")));
    }
    make_class(&typename, &names, defaults)
}

/// The class of a named tuple with these (checked) field names, the last of which take
/// `defaults` (`collections.namedtuple`, and `typing.NamedTuple`'s two forms).
pub(super) fn make_class(typename: &str, names: &[String], defaults: Vec<Value>) -> Result<Value> {
    let first = names.len() - defaults.len();
    let field_defaults = PyDict::new(Vec::new()).map_err(Error::from)?;
    for (n, d) in names[first..].iter().zip(defaults) {
        field_defaults
            .insert(Value::str(n), d)
            .map_err(Error::from)?;
    }
    let mut attrs: Vec<(String, Value)> = NAMEDTUPLE[1..]
        .iter()
        .filter_map(|b| {
            let short = b.name.strip_prefix(M)?.strip_prefix('.')?;
            let v = registry().get(b.name).map(Value::Builtin)?;
            let v = if short == "_make" {
                crate::eval::classes_wrapper("classmethod", vec![("__func__".into(), v)])
            } else {
                v
            };
            Some((short.to_string(), v))
        })
        .collect();
    attrs.push((
        "_fields".into(),
        Value::tuple(names.iter().map(Value::str).collect()),
    ));
    attrs.push(("_field_defaults".into(), Value::Dict(field_defaults)));
    attrs.push(("__namedtuple__".into(), Value::Bool(true)));
    let bases = registry()
        .get("tuple")
        .map(Value::Builtin)
        .into_iter()
        .collect();
    Ok(Value::Class(Class::new(typename, "__main__", bases, attrs)))
}

fn this(a: &Args) -> Result<(Arc<Instance>, Vec<String>)> {
    if let Value::Instance(i) = a.value("self") {
        if let Some(f) = named::fields(i) {
            return Ok((i.clone(), f));
        }
    }
    Err(Error::new(
        ExceptionClass::TypeError,
        "a named tuple method needs a named tuple",
    )
    .at(a.call))
}

fn items(a: &Args) -> Result<Vec<Value>> {
    let (i, _) = this(a)?;
    Ok(named::items(&i).unwrap_or_default())
}

fn init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (i, fields) = this(a)?;
    let name = i.class.name;
    let given = a.rest();
    if given.len() > fields.len() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{name}.__new__() takes {} positional arguments but {} were given",
                fields.len() + 1,
                given.len() + 1
            ),
        )
        .at(a.call));
    }
    let mut slots: Vec<Option<Value>> = fields.iter().map(|_| None).collect();
    for (k, (v, _)) in given.iter().enumerate() {
        slots[k] = Some(v.clone());
    }
    for (k, v, at) in a.kwargs() {
        let Some(p) = fields.iter().position(|f| f == k) else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name}.__new__() got an unexpected keyword argument '{k}'"),
            )
            .at(*at));
        };
        if slots[p].is_some() {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name}.__new__() got multiple values for argument '{k}'"),
            )
            .at(*at));
        }
        slots[p] = Some(v.clone());
    }
    let defaults = match i.class.lookup("_field_defaults") {
        Some(Value::Dict(d)) => Some(d),
        _ => None,
    };
    let mut missing = Vec::new();
    for (f, slot) in fields.iter().zip(slots.iter_mut()) {
        if slot.is_none() {
            *slot = defaults
                .as_ref()
                .and_then(|d| d.get(&Value::str(f)).ok().flatten());
        }
        match slot {
            Some(v) => attr_set(&i.attrs, f, v.clone()),
            None => missing.push(format!("'{f}'")),
        }
    }
    if !missing.is_empty() {
        let list = match missing.len() {
            1 => missing[0].clone(),
            n => format!("{} and {}", missing[..n - 1].join(", "), missing[n - 1]),
        };
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{name}.__new__() missing {} required positional argument{}: {list}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            ),
        )
        .at(a.call));
    }
    Ok(Value::None)
}

fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (i, fields) = this(a)?;
    let mut parts = Vec::new();
    for f in &fields {
        let v = attr_get(&i.attrs, f).unwrap_or(Value::None);
        it.prepare_shown(&v, a.call)?;
        parts.push(format!("{f}={}", repr_of(&v)));
    }
    Ok(Value::str(format!(
        "{}({})",
        i.class.name,
        parts.join(", ")
    )))
}

fn len(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(this(a)?.1.len() as i64))
}

fn iter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "tuple_iterator",
        IterState::Seq(items(a)?.into()),
    ))
}

fn getitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = Value::tuple(items(a)?);
    let sub = match a.value("key") {
        Value::Slice(s) => {
            let [x, y, z] = s.parts().map(super::slices::bound);
            let at = |r: std::result::Result<Option<i64>, ragtag_engine::Exception>| {
                r.map_err(|e| a.err_at("key", e))
            };
            crate::eval::items::Sub::Slice(at(x)?, at(y)?, at(z)?)
        }
        k => crate::eval::items::Sub::Key(k.clone(), a.span("key")),
    };
    crate::eval::items::get_item(&t, &sub, a.call)
}

fn contains(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.value("item");
    Ok(Value::Bool(items(a)?.iter().any(|v| python_eq(v, x))))
}

/// The items of the other operand when it is a tuple or a named tuple.
fn other_items(a: &Args) -> Option<Vec<Value>> {
    match a.value("other") {
        Value::Tuple(t) => Some(t.to_vec()),
        Value::Instance(i) => named::items(i),
        _ => None,
    }
}

fn eq(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match other_items(a) {
        Some(o) => Value::Bool(python_eq(&Value::tuple(items(a)?), &Value::tuple(o))),
        None => crate::eval::dunder_not_implemented(),
    })
}

fn ne(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match eq(it, a)? {
        Value::Bool(b) => Value::Bool(!b),
        other => other,
    })
}

fn order(a: &Args, keep: fn(std::cmp::Ordering) -> bool) -> Result<Value> {
    let Some(o) = other_items(a) else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    let c = python_cmp(&Value::tuple(items(a)?), &Value::tuple(o))
        .map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::Bool(keep(c)))
}

fn lt(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    order(a, |c| c.is_lt())
}

fn le(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    order(a, |c| c.is_le())
}

fn gt(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    order(a, |c| c.is_gt())
}

fn ge(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    order(a, |c| c.is_ge())
}

fn asdict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (i, fields) = this(a)?;
    Ok(Value::Dict(PyDict::from_str_keys(fields.into_iter().map(
        |f| {
            let v = attr_get(&i.attrs, &f).unwrap_or(Value::None);
            (f, v)
        },
    ))))
}

fn replace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (i, fields) = this(a)?;
    let unknown: Vec<String> = a
        .kwargs()
        .iter()
        .filter(|(k, _, _)| !fields.contains(k))
        .map(|(k, _, _)| format!("'{k}'"))
        .collect();
    if !unknown.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Got unexpected field names: [{}]", unknown.join(", ")),
        )
        .at(a.call));
    }
    let new = Instance::new(i.class.clone());
    for f in &fields {
        let v = a
            .kwargs()
            .iter()
            .find(|(k, _, _)| k == f)
            .map(|(_, v, _)| v.clone())
            .or_else(|| attr_get(&i.attrs, f))
            .unwrap_or(Value::None);
        attr_set(&new.attrs, f, v);
    }
    Ok(Value::Instance(new))
}

fn make(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Class(c) = a.value("cls") else {
        return Err(
            Error::new(ExceptionClass::TypeError, "_make needs a named tuple class").at(a.call),
        );
    };
    let items = iterate(a.value("iterable")).map_err(|e| a.err_at("iterable", e))?;
    let new = Instance::new(c.clone());
    let fields = named::fields(&new).unwrap_or_default();
    if items.len() != fields.len() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("Expected {} arguments, got {}", fields.len(), items.len()),
        )
        .at(a.call));
    }
    for (f, v) in fields.iter().zip(items) {
        attr_set(&new.attrs, f, v);
    }
    Ok(Value::Instance(new))
}
