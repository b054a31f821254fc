//! The rest of Python's `operator` module (the bitwise, unary, identity, container and
//! in-place operators as functions, `attrgetter`, `methodcaller`) and `functools.cmp_to_key`.
//! Each operator goes through the evaluator's own path, so a user class's methods
//! (`__add__`, `__lt__`, `__index__` …) answer as they do in an expression.

use std::sync::{Arc, OnceLock};

use super::functools::registered;
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::Builtin;
use crate::eval::items::Sub;
use crate::eval::Interp;
use crate::value::class::{attr_get, Class, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, UnaryOp};

macro_rules! op {
    ($name:literal, $sig:literal, $doc:literal, $ex:literal, $f:expr) => {
        Builtin::function(concat!("operator.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import operator\n", $ex)])
    };
}

/// `operator`'s remaining functions and `functools.cmp_to_key`.
pub static OPERATOR_FNS: &[Builtin] = &[
    op!("matmul", "(a, b, /)", "`a @ b` as a function.", "operator.matmul(tf.eye(2), tf.ones([2, 1]))", |it, a| binary(it, a, BinOp::MatMul)),
    op!("lshift", "(a, b, /)", "`a << b` as a function.", "operator.lshift(1, 4)", |it, a| binary(it, a, BinOp::LShift)),
    op!("rshift", "(a, b, /)", "`a >> b` as a function.", "operator.rshift(32, 2)", |it, a| binary(it, a, BinOp::RShift)),
    op!("and_", "(a, b, /)", "`a & b` as a function.", "operator.and_(12, 10)", |it, a| binary(it, a, BinOp::BitAnd)),
    op!("or_", "(a, b, /)", "`a | b` as a function.", "operator.or_(12, 10)", |it, a| binary(it, a, BinOp::BitOr)),
    op!("xor", "(a, b, /)", "`a ^ b` as a function.", "operator.xor(12, 10)", |it, a| binary(it, a, BinOp::BitXor)),
    op!("concat", "(a, b, /)", "`a + b` for two sequences.", "operator.concat([1], [2])", concat),
    op!("iadd", "(a, b, /)", "`a += b` as a function: a list is extended in place and returned.", "l = [1]\noperator.iadd(l, [2])\nl", |it, a| in_place(it, a, BinOp::Add)),
    op!("iconcat", "(a, b, /)", "`a += b` for two sequences: a list is extended in place and returned.", "l = [1]\noperator.iconcat(l, [2])\nl", iconcat),
    op!("ilshift", "(a, b, /)", "`a <<= b` as a function.", "operator.ilshift(1, 4)", |it, a| in_place(it, a, BinOp::LShift)),
    op!("irshift", "(a, b, /)", "`a >>= b` as a function.", "operator.irshift(32, 2)", |it, a| in_place(it, a, BinOp::RShift)),
    op!("imatmul", "(a, b, /)", "`a @= b` as a function.", "operator.imatmul(tf.eye(2), tf.ones([2, 1]))", |it, a| in_place(it, a, BinOp::MatMul)),
    op!("call", "(obj, /, *args, **kwargs)", "`obj(*args, **kwargs)` as a function.", "operator.call(max, 3, 5, key=lambda x: -x)", |it, a| it.call(a.value("obj"), a.forwarded(), a.call)),
    op!("isub", "(a, b, /)", "`a -= b` as a function.", "operator.isub(5, 2)", |it, a| in_place(it, a, BinOp::Sub)),
    op!("imul", "(a, b, /)", "`a *= b` as a function: a list is repeated in place and returned.", "operator.imul([1], 3)", |it, a| in_place(it, a, BinOp::Mul)),
    op!("itruediv", "(a, b, /)", "`a /= b` as a function.", "operator.itruediv(7, 2)", |it, a| in_place(it, a, BinOp::Div)),
    op!("ifloordiv", "(a, b, /)", "`a //= b` as a function.", "operator.ifloordiv(7, 2)", |it, a| in_place(it, a, BinOp::FloorDiv)),
    op!("imod", "(a, b, /)", "`a %= b` as a function.", "operator.imod(7, 2)", |it, a| in_place(it, a, BinOp::Mod)),
    op!("ipow", "(a, b, /)", "`a **= b` as a function.", "operator.ipow(2, 5)", |it, a| in_place(it, a, BinOp::Pow)),
    op!("ior", "(a, b, /)", "`a |= b` as a function: a dict is updated in place and returned.", "operator.ior({'a': 1}, {'b': 2})", |it, a| in_place(it, a, BinOp::BitOr)),
    op!("iand", "(a, b, /)", "`a &= b` as a function.", "operator.iand(12, 10)", |it, a| in_place(it, a, BinOp::BitAnd)),
    op!("ixor", "(a, b, /)", "`a ^= b` as a function.", "operator.ixor(12, 10)", |it, a| in_place(it, a, BinOp::BitXor)),
    op!("pos", "(a, /)", "`+a` as a function.", "operator.pos(-2)", |it, a| unary(it, a, UnaryOp::Pos)),
    op!("invert", "(a, /)", "`~a` as a function.", "operator.invert(5)", |it, a| unary(it, a, UnaryOp::Invert)),
    op!("inv", "(a, /)", "`~a` as a function (the same as invert).", "operator.inv(5)", |it, a| unary(it, a, UnaryOp::Invert)),
    op!("abs", "(a, /)", "`abs(a)` as a function.", "operator.abs(-3)", |it, a| it.call_values(&Value::Builtin(registered("abs")), vec![a.value("a").clone()], a.call)),
    op!("not_", "(a, /)", "`not a` as a function.", "operator.not_([])", |it, a| Ok(Value::Bool(!it.truth(a.value("a"), a.span("a"))?))),
    op!("truth", "(a, /)", "`bool(a)` as a function.", "operator.truth([0])", |it, a| Ok(Value::Bool(it.truth(a.value("a"), a.span("a"))?))),
    op!("is_", "(a, b, /)", "`a is b` as a function.", "x = [1]\noperator.is_(x, x), operator.is_(x, [1])", |_, a| Ok(Value::Bool(crate::eval::operators::identical(a.value("a"), a.value("b"))))),
    op!("is_not", "(a, b, /)", "`a is not b` as a function.", "operator.is_not(None, 0)", |_, a| Ok(Value::Bool(!crate::eval::operators::identical(a.value("a"), a.value("b"))))),
    op!("contains", "(a, b, /)", "`b in a` as a function (note the order).", "operator.contains([1, 2], 2)", contains),
    op!("countOf", "(a, b, /)", "How many items of a equal b.", "operator.countOf([1, 2, 1], 1)", |it, a| count_index(it, a, false)),
    op!("indexOf", "(a, b, /)", "The index of the first item of a that equals b (ValueError if none does).", "operator.indexOf('abc', 'c')", |it, a| count_index(it, a, true)),
    op!("index", "(a, /)", "a as an int, for a value usable as an index (an int, a bool, or an object with `__index__`).", "operator.index(True)", index),
    op!("setitem", "(a, b, c, /)", "`a[b] = c` as a function.", "l = [1, 2]\noperator.setitem(l, 0, 9)\nl", setitem),
    op!("delitem", "(a, b, /)", "`del a[b]` as a function.", "d = {'k': 1}\noperator.delitem(d, 'k')\nd", delitem),
    op!("length_hint", "(obj, default=0, /)", "len(obj) where it has one, else default.", "operator.length_hint(iter([1, 2]), 5)", length_hint),
    Builtin::function("operator.attrgetter", "(attr, /, *attrs)", attrgetter)
        .doc("A function giving `obj.attr` (dotted names reach deeper; a tuple of them for several attributes).")
        .examples(&["import operator\nclass P:\n    def __init__(self, n):\n        self.n = n\n[p.n for p in sorted([P(2), P(1)], key=operator.attrgetter('n'))]", "import operator\noperator.attrgetter('real', 'imag')(3)"]),
    Builtin::method("operator.attrgetter.__call__", "(self, obj, /)", attrgetter_call)
        .doc("Calls an attribute getter.")
        .examples(&["import operator\noperator.attrgetter('real')(2)"]),
    Builtin::function("operator.methodcaller", "(name, /, *args, **kwargs)", methodcaller)
        .doc("A function calling `obj.name(*args, **kwargs)`.")
        .examples(&["import operator\nlist(map(operator.methodcaller('upper'), ['a', 'b']))"]),
    Builtin::method("operator.methodcaller.__call__", "(self, obj, /)", methodcaller_call)
        .doc("Calls a method caller.")
        .examples(&["import operator\noperator.methodcaller('split', ',')('a,b')"]),
    Builtin::function("functools.cmp_to_key", "(mycmp)", cmp_to_key)
        .doc("Turns an old-style comparison function (negative, zero or positive for less, equal, greater) into a key for sorted, min and max.")
        .examples(&["import functools\nsorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a))"]),
    Builtin::method("functools.cmp_to_key.__call__", "(self, obj)", key_of)
        .doc("Wraps a value for comparison by the function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(1) < k(2)"]),
    Builtin::method("functools.KeyWrapper.__lt__", "(self, other)", |it, a| compare(it, a, BinOp::Lt))
        .doc("Less than, by the comparison function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(1) < k(2)"]),
    Builtin::method("functools.KeyWrapper.__gt__", "(self, other)", |it, a| compare(it, a, BinOp::Gt))
        .doc("Greater than, by the comparison function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(1) > k(2)"]),
    Builtin::method("functools.KeyWrapper.__le__", "(self, other)", |it, a| compare(it, a, BinOp::Le))
        .doc("At most, by the comparison function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(2) <= k(2)"]),
    Builtin::method("functools.KeyWrapper.__ge__", "(self, other)", |it, a| compare(it, a, BinOp::Ge))
        .doc("At least, by the comparison function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(1) >= k(2)"]),
    Builtin::method("functools.KeyWrapper.__eq__", "(self, other)", |it, a| compare(it, a, BinOp::Eq))
        .doc("Equal, by the comparison function.")
        .examples(&["import functools\nk = functools.cmp_to_key(lambda a, b: a - b)\nk(1) == k(1)"]),
];

fn op_error(a: &Args, e: ragtag_engine::Exception) -> Error {
    Error::from(e).at(a.call)
}

pub(super) fn binary(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    it.binary_values(op, a.value("a"), a.value("b"), a.call)?
        .map_err(|e| op_error(a, e))
}

pub(super) fn unary(it: &mut Interp<'_>, a: &Args, op: UnaryOp) -> Result<Value> {
    let v = a.value("a");
    if let Value::Instance(_) = v {
        return it.instance_unary(op, v, a.call);
    }
    crate::eval::operators::unary(op, v).map_err(|e| op_error(a, e))
}

fn in_place(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    // A class's `__iadd__` (etc.) first, then its `__add__`, as `a += b` does.
    let (x, y) = (a.value("a"), a.value("b"));
    if matches!(x, Value::Instance(_)) || matches!(y, Value::Instance(_)) {
        return it.instance_aug(op, x, y, a.call);
    }
    match crate::eval::operators::in_place(op, a.value("a"), a.value("b")) {
        Some(r) => r.map_err(|e| op_error(a, e)),
        None => binary(it, a, op),
    }
}

/// `a += b` once `a` is a sequence (CPython's TypeError otherwise).
fn iconcat(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    sequence_a(a)?;
    in_place(it, a, BinOp::Add)
}

/// CPython's TypeError when `concat`'s or `iconcat`'s first argument is not a sequence.
fn sequence_a(a: &Args) -> Result<()> {
    let x = a.value("a");
    if matches!(
        x,
        Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Bytes(_) | Value::ByteArray(_)
    ) {
        return Ok(());
    }
    Err(Error::new(
        ExceptionClass::TypeError,
        format!("'{}' object can't be concatenated", x.type_name()),
    )
    .at(a.span("a")))
}

fn concat(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    sequence_a(a)?;
    binary(it, a, BinOp::Add)
}

fn contains(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    it.binary_values(BinOp::In, a.value("b"), a.value("a"), a.call)?
        .map_err(|e| op_error(a, e))
}

fn count_index(it: &mut Interp<'_>, a: &Args, first: bool) -> Result<Value> {
    let items = it.collect(a.value("a"), a.span("a"))?;
    let mut count = 0;
    for (i, x) in items.iter().enumerate() {
        let equal = crate::eval::operators::identical(x, a.value("b"))
            || match it.binary_values(BinOp::Eq, x, a.value("b"), a.call)? {
                Ok(v) => it.truth(&v, a.call)?,
                Err(_) => false,
            };
        if equal {
            if first {
                return Ok(Value::Int(i as i64));
            }
            count += 1;
        }
    }
    if first {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "sequence.index(x): x not in sequence",
        )
        .at(a.call));
    }
    Ok(Value::Int(count))
}

fn index(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("a") {
        Value::Int(_) | Value::BigInt(_) => Ok(a.value("a").clone()),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        v @ Value::Instance(i) if i.class.lookup("__index__").is_some() => {
            let f = it.get_attr(v.clone(), "__index__", a.call, a.span("a"))?;
            it.call(&f, Vec::new(), a.call)
        }
        other => Err(Error::not_an_integer(other.type_name()).at(a.span("a"))),
    }
}

fn setitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sub = Sub::Key(a.value("b").clone(), a.span("b"));
    crate::eval::items::set_item(a.value("a"), sub, a.value("c").clone(), a.call)?;
    Ok(Value::None)
}

fn delitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sub = Sub::Key(a.value("b").clone(), a.span("b"));
    crate::eval::items::del_item(a.value("a"), sub, a.call)?;
    Ok(Value::None)
}

fn length_hint(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("obj");
    if matches!(v, Value::Iter(_)) {
        return Ok(a.given("default").cloned().unwrap_or(Value::Int(0)));
    }
    // An iterator's remaining length is not kept: the default, as for an object
    // without `__len__`.
    match it.call_values(&Value::Builtin(registered("len")), vec![v.clone()], a.call) {
        Ok(n) => Ok(n),
        Err(e) if e.class == ExceptionClass::TypeError => {
            Ok(a.given("default").cloned().unwrap_or(Value::Int(0)))
        }
        Err(e) => Err(e),
    }
}

fn attrgetter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut names = vec![a.value("attr").clone()];
    names.extend(a.rest().iter().map(|(v, _)| v.clone()));
    for n in &names {
        if !matches!(n, Value::Str(_)) {
            return Err(
                Error::new(ExceptionClass::TypeError, "attribute name must be a string").at(a.call),
            );
        }
    }
    Ok(Value::method(
        Value::tuple(names),
        registered("operator.attrgetter.__call__"),
    ))
}

fn attrgetter_call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Tuple(names) = a.value("self") else {
        return Ok(Value::None);
    };
    let mut got = Vec::new();
    for n in names.iter() {
        let Value::Str(path) = n else { continue };
        let mut v = a.value("obj").clone();
        for part in path.split('.') {
            v = it.get_attr(v, part, a.call, a.span("obj"))?;
        }
        got.push(v);
    }
    Ok(if got.len() == 1 {
        got.remove(0)
    } else {
        Value::tuple(got)
    })
}

fn methodcaller(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(_) = a.value("name") else {
        return Err(
            Error::new(ExceptionClass::TypeError, "method name must be a string")
                .at(a.span("name")),
        );
    };
    Ok(Value::method(
        super::functools::hold(a.value("name").clone(), a),
        registered("operator.methodcaller.__call__"),
    ))
}

fn methodcaller_call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Tuple(held) = a.value("self") else {
        return Ok(Value::None);
    };
    let (Value::Str(name), Value::Tuple(args), Value::Tuple(kwargs)) =
        (&held[0], &held[1], &held[2])
    else {
        return Ok(Value::None);
    };
    let method = it.get_attr(a.value("obj").clone(), name, a.call, a.span("obj"))?;
    let mut call: Vec<CallArg> = args
        .iter()
        .map(|v| CallArg {
            name: None,
            value: v.clone(),
            span: a.call,
        })
        .collect();
    for pair in kwargs.iter() {
        if let Value::Tuple(p) = pair {
            if let Value::Str(k) = &p[0] {
                call.push(CallArg {
                    name: Some(k.to_string()),
                    value: p[1].clone(),
                    span: a.call,
                });
            }
        }
    }
    it.call(&method, call, a.call)
}

/// The class of what a `cmp_to_key` key makes of a value.
fn key_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            let attrs = ["__lt__", "__gt__", "__le__", "__ge__", "__eq__"]
                .iter()
                .map(|m| {
                    let b = registered(&format!("functools.KeyWrapper.{m}"));
                    (m.to_string(), Value::Builtin(b))
                })
                .collect();
            Class::new("KeyWrapper", "functools", Vec::new(), attrs)
        })
        .clone()
}

fn cmp_to_key(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::method(
        a.value("mycmp").clone(),
        registered("functools.cmp_to_key.__call__"),
    ))
}

fn key_of(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = Instance::new(key_class());
    crate::value::class::attr_set(&i.attrs, "obj", a.value("obj").clone());
    crate::value::class::attr_set(&i.attrs, "cmp", a.value("self").clone());
    Ok(Value::Instance(i))
}

fn compare(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    let (Value::Instance(me), Value::Instance(other)) = (a.value("self"), a.value("other")) else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "other argument must be K instance",
        )
        .at(a.call));
    };
    let (Some(cmp), Some(x), Some(y)) = (
        attr_get(&me.attrs, "cmp"),
        attr_get(&me.attrs, "obj"),
        attr_get(&other.attrs, "obj"),
    ) else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "other argument must be K instance",
        )
        .at(a.call));
    };
    let r = it.call_values(&cmp, vec![x, y], a.call)?;
    it.binary_values(op, &r, &Value::Int(0), a.call)?
        .map_err(|e| op_error(a, e))
}
