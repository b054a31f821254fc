//! Classes deriving from `tuple`, `str`, `int` and `float` (`class Point(tuple)`,
//! `class Tag(str)`, `class Flags(int)`), built as those deriving from `dict` and `list` are
//! (see `builtin_bases`): an instance holds a plain value of the type (its base value), set
//! once by the type's `__new__` (`super().__new__(cls, (x, y))`, `int.__new__(cls, 5)`), and
//! the class standing for the type in the MRO has the operators below, which act on that
//! value and give the plain type (`Flags(1) + 1` is an int, `Tag('a') + 'b'` a str). The
//! type's other methods (`upper`, `bit_length`, `count`) are the builtin ones bound to the
//! base value. The instance prints as the base value and hashes as it (`dict.rs` `Key::of`),
//! so it is the same dict key.

use super::builtin_bases::base_of;
use super::functools::registered;
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::{repr_of, str_of};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, UnaryOp};

#[rustfmt::skip]
macro_rules! m {
    ($ty:literal, $name:literal, $sig:literal, $f:expr, $doc:literal, $sample:literal, $ex:literal) => {
        Builtin::method(concat!($ty, ".", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("class X(", $ty, "): pass\nx = X(", $sample, ")\n", $ex)])
    };
}

/// What every one of the four types has.
#[rustfmt::skip]
macro_rules! common {
    ($ty:literal, $s:literal) => {
        [
            Builtin::function(concat!($ty, ".__new__"), "(cls, *args, **kwargs)", |it, a| value_new(it, a, $ty))
                .doc(concat!("A new instance of `cls` (a class deriving from ", $ty, ") holding `", $ty, "(*args, **kwargs)`: what `super().__new__(cls, …)` runs."))
                .examples(&[concat!("class X(", $ty, "): pass\ntype(", $ty, ".__new__(X, ", $s, ")).__name__")]),
            m!($ty, "__repr__", "(self)", repr, "The base value's repr.", $s, "repr(x)"),
            m!($ty, "__format__", "(self, format_spec)", format, "`format(value, format_spec)` of the base value.", $s, "format(x, '')"),
            m!($ty, "__eq__", "(self, other)", |it, a| compare(it, a, BinOp::Eq), "`==` between the base values.", $s, "x == x"),
            m!($ty, "__ne__", "(self, other)", |it, a| compare(it, a, BinOp::Ne), "`!=` between the base values.", $s, "x != x"),
            m!($ty, "__lt__", "(self, other)", |it, a| compare(it, a, BinOp::Lt), "`<` between the base values.", $s, "x < x"),
            m!($ty, "__le__", "(self, other)", |it, a| compare(it, a, BinOp::Le), "`<=` between the base values.", $s, "x <= x"),
            m!($ty, "__gt__", "(self, other)", |it, a| compare(it, a, BinOp::Gt), "`>` between the base values.", $s, "x > x"),
            m!($ty, "__ge__", "(self, other)", |it, a| compare(it, a, BinOp::Ge), "`>=` between the base values.", $s, "x >= x"),
            m!($ty, "__add__", "(self, other)", |it, a| arith(it, a, BinOp::Add, false), "`+` on the base value: a plain value of the type.", $s, "x + x"),
            m!($ty, "__radd__", "(self, other)", |it, a| arith(it, a, BinOp::Add, true), "`other + self` on the base value.", $s, "x.__radd__(x)"),
            m!($ty, "__mul__", "(self, other)", |it, a| arith(it, a, BinOp::Mul, false), "`*` on the base value.", $s, "x * 2"),
            m!($ty, "__rmul__", "(self, other)", |it, a| arith(it, a, BinOp::Mul, true), "`other * self` on the base value.", $s, "2 * x"),
            m!($ty, "__bool__", "(self)", truth, "The base value's truth.", $s, "bool(x)"),
        ]
    };
}

/// What `str` and `tuple` have.
#[rustfmt::skip]
macro_rules! sequence {
    ($ty:literal, $s:literal) => {
        [
            m!($ty, "__len__", "(self)", len, "The base value's length.", $s, "len(x)"),
            m!($ty, "__iter__", "(self)", iter, "An iterator over the base value.", $s, "list(x)"),
            m!($ty, "__contains__", "(self, key, /)", contains, "`key in` the base value.", $s, "x[0] in x"),
            m!($ty, "__getitem__", "(self, key, /)", getitem, "An item of the base value; a slice is a plain value of the type.", $s, "x[0], x[:1]"),
        ]
    };
}

/// What `int` and `float` have.
#[rustfmt::skip]
macro_rules! number {
    ($ty:literal, $s:literal) => {
        [
            m!($ty, "__sub__", "(self, other)", |it, a| arith(it, a, BinOp::Sub, false), "`-` on the base value.", $s, "x - 1"),
            m!($ty, "__rsub__", "(self, other)", |it, a| arith(it, a, BinOp::Sub, true), "`other - self` on the base value.", $s, "1 - x"),
            m!($ty, "__truediv__", "(self, other)", |it, a| arith(it, a, BinOp::Div, false), "`/` on the base value.", $s, "x / 2"),
            m!($ty, "__rtruediv__", "(self, other)", |it, a| arith(it, a, BinOp::Div, true), "`other / self` on the base value.", $s, "1 / x"),
            m!($ty, "__floordiv__", "(self, other)", |it, a| arith(it, a, BinOp::FloorDiv, false), "`//` on the base value.", $s, "x // 2"),
            m!($ty, "__rfloordiv__", "(self, other)", |it, a| arith(it, a, BinOp::FloorDiv, true), "`other // self` on the base value.", $s, "7 // x"),
            m!($ty, "__mod__", "(self, other)", |it, a| arith(it, a, BinOp::Mod, false), "`%` on the base value.", $s, "x % 2"),
            m!($ty, "__rmod__", "(self, other)", |it, a| arith(it, a, BinOp::Mod, true), "`other % self` on the base value.", $s, "7 % x"),
            m!($ty, "__pow__", "(self, other)", |it, a| arith(it, a, BinOp::Pow, false), "`**` on the base value.", $s, "x ** 2"),
            m!($ty, "__rpow__", "(self, other)", |it, a| arith(it, a, BinOp::Pow, true), "`other ** self` on the base value.", $s, "2 ** x"),
            m!($ty, "__neg__", "(self)", |it, a| unary(it, a, UnaryOp::Neg), "`-` of the base value.", $s, "-x"),
            m!($ty, "__pos__", "(self)", |it, a| unary(it, a, UnaryOp::Pos), "`+` of the base value.", $s, "+x"),
            m!($ty, "__abs__", "(self)", |it, a| call(it, a, "abs"), "`abs` of the base value.", $s, "abs(x)"),
            m!($ty, "__int__", "(self)", |it, a| call(it, a, "int"), "`int` of the base value.", $s, "int(x)"),
            m!($ty, "__float__", "(self)", |it, a| call(it, a, "float"), "`float` of the base value.", $s, "float(x)"),
            m!($ty, "__round__", "(self, ndigits=None)", round, "`round` of the base value.", $s, "round(x)"),
        ]
    };
}

/// What `int` alone has.
#[rustfmt::skip]
macro_rules! integer {
    ($ty:literal, $s:literal) => {
        [
            m!($ty, "__and__", "(self, other)", |it, a| arith(it, a, BinOp::BitAnd, false), "`&` on the base value.", $s, "x & 1"),
            m!($ty, "__rand__", "(self, other)", |it, a| arith(it, a, BinOp::BitAnd, true), "`other & self` on the base value.", $s, "1 & x"),
            m!($ty, "__or__", "(self, other)", |it, a| arith(it, a, BinOp::BitOr, false), "`|` on the base value.", $s, "x | 1"),
            m!($ty, "__ror__", "(self, other)", |it, a| arith(it, a, BinOp::BitOr, true), "`other | self` on the base value.", $s, "1 | x"),
            m!($ty, "__xor__", "(self, other)", |it, a| arith(it, a, BinOp::BitXor, false), "`^` on the base value.", $s, "x ^ 1"),
            m!($ty, "__rxor__", "(self, other)", |it, a| arith(it, a, BinOp::BitXor, true), "`other ^ self` on the base value.", $s, "1 ^ x"),
            m!($ty, "__lshift__", "(self, other)", |it, a| arith(it, a, BinOp::LShift, false), "`<<` on the base value.", $s, "x << 1"),
            m!($ty, "__rshift__", "(self, other)", |it, a| arith(it, a, BinOp::RShift, false), "`>>` on the base value.", $s, "x >> 1"),
            m!($ty, "__invert__", "(self)", |it, a| unary(it, a, UnaryOp::Invert), "`~` of the base value.", $s, "~x"),
            m!($ty, "__index__", "(self)", |_, a| Ok(me(a)), "The base value, where an index is wanted.", $s, "[1, 2, 3, 4][x]"),
        ]
    };
}

/// The operators of the classes standing for `tuple`, `str`, `int` and `float` as bases.
#[rustfmt::skip]
pub static VALUE_BASE_METHODS: &[&[Builtin]] = &[
    &common!("tuple", "(1, 2)"),
    &sequence!("tuple", "(1, 2)"),
    &common!("str", "'ab'"),
    &sequence!("str", "'ab'"),
    &[m!("str", "__str__", "(self)", str_, "The base value (a plain str).", "'ab'", "str(x)")],
    &[m!("str", "__rmod__", "(self, other)", |it, a| arith(it, a, BinOp::Mod, true), "`other % self`, the base value as the argument.", "'ab'", "'<%s>' % x")],
    &[m!("str", "__mod__", "(self, other)", |it, a| arith(it, a, BinOp::Mod, false), "`%` formatting with the base value as the format.", "'%s!'", "x % 1")],
    &common!("int", "3"),
    &number!("int", "3"),
    &integer!("int", "3"),
    &common!("float", "1.5"),
    &number!("float", "1.5"),
];

fn me(a: &Args) -> Value {
    base_of(a.value("self"))
}

fn at<T>(a: &Args, r: std::result::Result<T, ragtag_engine::Exception>) -> Result<T> {
    r.map_err(|e| Error::from(e).at(a.call))
}

/// `ty.__new__(cls, *args, **kwargs)`: `ty(*args, **kwargs)` held by a new instance of `cls`.
fn value_new(it: &mut Interp<'_>, a: &Args, ty: &str) -> Result<Value> {
    let args = a.forwarded();
    if a.rest().len() > 1 && matches!(ty, "tuple" | "float") {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("{ty} expected at most 1 argument, got {}", a.rest().len()),
        )
        .at(a.call));
    }
    let value = it.call(&Value::Builtin(registered(ty)), args, a.call)?;
    let cls = a.value("cls");
    let Value::Class(c) = cls else {
        if matches!(cls, Value::Builtin(b) if b.name == ty) {
            return Ok(value);
        }
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{ty}.__new__(X): X is not a type object ({})",
                cls.type_name()
            ),
        )
        .at(a.call));
    };
    if !c.is_python() || !c.is_subclass_of(&Value::Builtin(registered(ty))) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{ty}.__new__({}): {} is not a subtype of {ty}",
                c.name, c.name
            ),
        )
        .at(a.call));
    }
    let made = crate::eval::construct::bare_instance(c, &[]);
    if let Value::Instance(i) = &made {
        i.set_base(value);
    }
    Ok(made)
}

fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = me(a);
    it.prepare_shown(&v, a.call)?;
    Ok(Value::str(repr_of(&v)))
}

fn str_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = me(a);
    it.prepare_shown(&v, a.call)?;
    Ok(Value::str(str_of(&v)))
}

fn format(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // An empty format is the instance's `str` (a `__str__` of its class's own included).
    if matches!(a.value("format_spec"), Value::Str(s) if s.is_empty()) {
        let s = Value::Builtin(registered("str"));
        return it.call_values(&s, vec![a.value("self").clone()], a.call);
    }
    let f = Value::Builtin(registered("format"));
    it.call_values(&f, vec![me(a), a.value("format_spec").clone()], a.call)
}

fn call(it: &mut Interp<'_>, a: &Args, name: &str) -> Result<Value> {
    it.call_values(&Value::Builtin(registered(name)), vec![me(a)], a.call)
}

fn round(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut args = vec![me(a)];
    if let Some(n) = a.get("ndigits").filter(|n| !matches!(n, Value::None)) {
        args.push(n.clone());
    }
    it.call_values(&Value::Builtin(registered("round")), args, a.call)
}

fn truth(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(it.truth(&me(a), a.call)?))
}

/// Whether `v` is a value the operators of a base value take (not another user object).
fn plain(v: &Value) -> bool {
    !matches!(v, Value::Instance(_))
}

fn compare(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    let (x, y) = (me(a), base_of(a.value("other")));
    if !plain(&y) {
        return Ok(crate::eval::dunder::not_implemented());
    }
    let r = it.binary_values(op, &x, &y, a.call)?;
    at(a, r)
}

fn arith(it: &mut Interp<'_>, a: &Args, op: BinOp, reflected: bool) -> Result<Value> {
    let (x, y) = (me(a), base_of(a.value("other")));
    if !plain(&y) {
        return Ok(crate::eval::dunder::not_implemented());
    }
    let (l, r) = if reflected { (&y, &x) } else { (&x, &y) };
    let r = it.binary_values(op, l, r, a.call)?;
    at(a, r)
}

fn unary(_: &mut Interp<'_>, a: &Args, op: UnaryOp) -> Result<Value> {
    at(a, crate::eval::operators::unary(op, &me(a)))
}

fn len(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(match me(a) {
        Value::Tuple(t) => t.len() as i64,
        Value::Str(s) => s.chars().count() as i64,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("object of type '{}' has no len()", other.type_name()),
            )
            .at(a.call))
        }
    }))
}

fn iter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    at(a, crate::eval::iterators::to_iter(&me(a)))
}

fn contains(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = it.binary_values(BinOp::In, a.value("key"), &me(a), a.call)?;
    let r = at(a, r)?;
    Ok(Value::Bool(it.truth(&r, a.call)?))
}

fn getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    super::builtin_bases::item(it, &me(a), a.value("key"), a)
}

/// The builtins that read a number or a str's characters (not keeping the object itself):
/// an instance of a class deriving from tuple, str, int or float passed to one is its base
/// value, as CPython's read the value inside a subclass's instance.
const VALUE_READERS: &[&str] = &[
    "int", "float", "abs", "round", "chr", "ord", "bin", "hex", "oct", "divmod", "pow", "range",
    "complex",
];

/// The prefixes of the methods and functions that read values likewise.
const VALUE_READER_PREFIXES: &[&str] = &["math.", "str.", "int.", "float.", "tuple."];

/// Replaces the arguments of a call of `b` that are instances of classes deriving from
/// tuple, str, int or float by their base values, for the builtins that only read them
/// (`math.sqrt(x)`, `range(n)`, `'a,b'.split(sep)`); a method's receiver stays itself.
pub fn unwrap_values(b: &Builtin, args: &mut [CallArg]) {
    let holds_value = |a: &CallArg| matches!(&a.value, Value::Instance(i) if i.base().is_some());
    if !args.iter().any(holds_value) {
        return;
    }
    let reads = VALUE_READERS.contains(&b.name)
        || VALUE_READER_PREFIXES.iter().any(|p| b.name.starts_with(p));
    if !reads {
        return;
    }
    let skip = usize::from(b.kind == crate::eval::builtins::Kind::Method);
    for a in args.iter_mut().skip(skip) {
        if let Value::Instance(i) = &a.value {
            if let Some(
                v @ (Value::Tuple(_)
                | Value::Str(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::BigInt(_)),
            ) = i.base()
            {
                a.value = v.clone();
            }
        }
    }
}
