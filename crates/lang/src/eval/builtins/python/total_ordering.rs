//! `functools.total_ordering`: a class that defines one ordering method (`__lt__`,
//! `__le__`, `__gt__` or `__ge__`) and `__eq__` gets the other three, each computed from
//! that one and `==` by CPython's rules (a `NotImplemented` from the defined method is
//! passed on).

use super::functools::registered;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::class::attr_set;
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::BinOp;

/// How a missing method is made from the defined one (`root`) and `==`.
#[derive(Clone, Copy)]
enum Rule {
    /// `not root and self != other`.
    NotRootAndNe,
    /// `root or self == other`.
    RootOrEq,
    /// `not root`.
    NotRoot,
    /// `not root or self == other`.
    NotRootOrEq,
    /// `root and self != other`.
    RootAndNe,
}

/// For each method that can be defined, the ones it gives: (name, rule).
const DERIVED: &[(&str, [(&str, Rule); 3])] = &[
    (
        "__lt__",
        [
            ("__gt__", Rule::NotRootAndNe),
            ("__le__", Rule::RootOrEq),
            ("__ge__", Rule::NotRoot),
        ],
    ),
    (
        "__le__",
        [
            ("__ge__", Rule::NotRootOrEq),
            ("__lt__", Rule::RootAndNe),
            ("__gt__", Rule::NotRoot),
        ],
    ),
    (
        "__gt__",
        [
            ("__lt__", Rule::NotRootAndNe),
            ("__ge__", Rule::RootOrEq),
            ("__le__", Rule::NotRoot),
        ],
    ),
    (
        "__ge__",
        [
            ("__le__", Rule::NotRootOrEq),
            ("__gt__", Rule::RootAndNe),
            ("__lt__", Rule::NotRoot),
        ],
    ),
];

macro_rules! derived {
    ($root:literal, $name:literal, $rule:expr) => {
        Builtin::method(
            concat!("functools.total_ordering.", $name, "_from", $root),
            "(self, other)",
            |it, a| derive(it, a, $root, $rule),
        )
        .doc(concat!("`", $name, "` made from `", $root, "` and `==` by functools.total_ordering."))
        .examples(&[concat!(
            "import functools\n@functools.total_ordering\nclass V:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return self.v == o.v\n    def ",
            $root,
            "(self, o):\n        return self.v < o.v\nV(1) ",
            "<= V(2)"
        )])
    };
}

/// The decorator and the methods it gives.
pub static TOTAL_ORDERING: &[Builtin] = &[
    Builtin::function("functools.total_ordering", "(cls)", total_ordering)
        .doc("A class decorator: from one ordering method (`__lt__`, `__le__`, `__gt__` or `__ge__`) and `__eq__`, the class gets the other three.")
        .examples(&["import functools\n@functools.total_ordering\nclass V:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return self.v == o.v\n    def __lt__(self, o):\n        return self.v < o.v\nV(2) >= V(1), V(1) <= V(1)"]),
    derived!("__lt__", "__gt__", Rule::NotRootAndNe),
    derived!("__lt__", "__le__", Rule::RootOrEq),
    derived!("__lt__", "__ge__", Rule::NotRoot),
    derived!("__le__", "__ge__", Rule::NotRootOrEq),
    derived!("__le__", "__lt__", Rule::RootAndNe),
    derived!("__le__", "__gt__", Rule::NotRoot),
    derived!("__gt__", "__lt__", Rule::NotRootAndNe),
    derived!("__gt__", "__ge__", Rule::RootOrEq),
    derived!("__gt__", "__le__", Rule::NotRoot),
    derived!("__ge__", "__le__", Rule::NotRootOrEq),
    derived!("__ge__", "__gt__", Rule::RootAndNe),
    derived!("__ge__", "__lt__", Rule::NotRoot),
];

fn total_ordering(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Class(cls) = a.value("cls") else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "total_ordering needs a class, not {}",
                a.value("cls").type_name()
            ),
        )
        .at(a.span("cls")));
    };
    // The methods the class defines itself or inherits from a class of the user's
    // (not object's defaults); CPython prefers __lt__, then __le__, __gt__, __ge__.
    let defined = |name: &str| cls.lookup(name).is_some();
    let Some((root, derived)) = DERIVED.iter().find(|(root, _)| defined(root)) else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "must define at least one ordering operation: < > <= >=",
        )
        .at(a.span("cls")));
    };
    for (name, _) in derived {
        if !defined(name) {
            let b = registered(&format!("functools.total_ordering.{name}_from{root}"));
            attr_set(&cls.attrs, name, Value::Builtin(b));
        }
    }
    Ok(a.value("cls").clone())
}

fn derive(it: &mut Interp<'_>, a: &Args, root: &str, rule: Rule) -> Result<Value> {
    let (me, other) = (a.value("self"), a.value("other"));
    let Value::Instance(i) = me else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    let Some(method) = i.class.lookup(root) else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    let r = it.call_values(&method, vec![me.clone(), other.clone()], a.call)?;
    if crate::eval::dunder::is_not_implemented(&r) {
        return Ok(r);
    }
    let root_true = it.truth(&r, a.call)?;
    let equal = |it: &mut Interp<'_>| -> Result<bool> {
        let v = it
            .binary_values(BinOp::Eq, me, other, a.call)?
            .map_err(|e| Error::from(e).at(a.call))?;
        it.truth(&v, a.call)
    };
    let answer = match rule {
        Rule::NotRootAndNe => !root_true && !equal(it)?,
        Rule::RootOrEq => root_true || equal(it)?,
        Rule::NotRoot => !root_true,
        Rule::NotRootOrEq => !root_true || equal(it)?,
        Rule::RootAndNe => root_true && !equal(it)?,
    };
    Ok(Value::Bool(answer))
}
