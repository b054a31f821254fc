//! Python's `functools` (`reduce`, `partial`) and `operator` (the operators as functions,
//! `itemgetter`). A partial function or an item getter is a builtin bound to what it
//! remembers, called like any function.

use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, UnaryOp};

macro_rules! binary_op {
    ($name:literal, $op:literal, $fn:ident) => {
        Builtin::function(concat!("operator.", $name), "(a, b)", $fn)
            .doc(concat!(
                "`a ",
                $op,
                " b` as a function (Python's `operator.",
                $name,
                "`)."
            ))
            .examples(&[concat!("import operator\noperator.", $name, "(7, 2)")])
    };
}

/// The `functools` and `operator` modules.
pub static FUNCTOOLS: &[Builtin] = &[
    Builtin::function(
        "functools.reduce",
        "(function, iterable, initial=None)",
        reduce,
    )
    .doc("Folds the items from the left: `function(function(initial, x0), x1)`, …")
    .examples(&["import functools\nfunctools.reduce(lambda a, b: a * b, [1, 2, 3, 4])"]),
    Builtin::function("functools.partial", "(func, *args, **kwargs)", partial)
        .doc("`func` with its first arguments (and some keywords) given now; the rest at the call.")
        .examples(&["import functools\nfunctools.partial(pow, 2)(10)"]),
    Builtin::method(
        "functools.partial.__call__",
        "(self, *args, **kwargs)",
        partial_call,
    )
    .doc("Calls a partial function.")
    .examples(&["import functools\nfunctools.partial(max, 3)(1)"]),
    Builtin::function("operator.itemgetter", "(*items)", itemgetter)
        .doc("A function giving `x[item]` (a tuple of them for several items).")
        .examples(&["import operator\nsorted([(1, 'b'), (2, 'a')], key=operator.itemgetter(1))"]),
    Builtin::method(
        "operator.itemgetter.__call__",
        "(self, obj)",
        itemgetter_call,
    )
    .doc("Calls an item getter.")
    .examples(&["import operator\noperator.itemgetter(0)([5, 6])"]),
    binary_op!("add", "+", add),
    binary_op!("sub", "-", sub),
    binary_op!("mul", "*", mul),
    binary_op!("truediv", "/", truediv),
    binary_op!("floordiv", "//", floordiv),
    binary_op!("mod", "%", mod_),
    binary_op!("pow", "**", pow),
    binary_op!("eq", "==", eq),
    binary_op!("ne", "!=", ne),
    binary_op!("lt", "<", lt),
    binary_op!("le", "<=", le),
    binary_op!("gt", ">", gt),
    binary_op!("ge", ">=", ge),
    Builtin::function("operator.neg", "(a)", neg)
        .doc("`-a` as a function.")
        .examples(&["import operator\noperator.neg(3)"]),
    Builtin::function("operator.getitem", "(a, b)", getitem)
        .doc("`a[b]` as a function.")
        .examples(&["import operator\noperator.getitem([4, 5], 1)"]),
];

fn reduce(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let func = a.value("function").clone();
    let items = super::iterators::iter_arg(a, "iterable")?;
    let mut acc = match a.given("initial") {
        Some(v) => v.clone(),
        None => it.next_of(&items, a.call)?.ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                "reduce() of empty iterable with no initial value",
            )
            .at(a.call)
        })?,
    };
    while let Some(x) = it.next_of(&items, a.call)? {
        acc = it.call_values(&func, vec![acc, x], a.call)?;
    }
    Ok(acc)
}

pub(super) fn registered(name: &str) -> &'static Builtin {
    crate::eval::builtins::registry()
        .get(name)
        .expect("the builtin is in this table")
}

/// The members of `table` directly under `prefix` (`json.JSONEncoder.`), as the attributes
/// of the class a standard module's table defines.
pub(super) fn class_members(table: &[Builtin], prefix: &str) -> Vec<(String, Value)> {
    table
        .iter()
        .filter_map(|b| {
            let short = b.name.strip_prefix(prefix)?;
            (!short.contains('.')).then(|| (short.to_string(), Value::Builtin(registered(b.name))))
        })
        .collect()
}

/// What a partial function or a method caller remembers: `head` (the function, the
/// method's name), then the call's extra positional arguments and its keyword arguments as
/// `(name, value)` pairs.
pub(super) fn hold(head: Value, a: &Args) -> Value {
    let kwargs: Vec<Value> = a
        .kwargs()
        .iter()
        .map(|(k, v, _)| Value::tuple(vec![Value::str(k), v.clone()]))
        .collect();
    let args: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    Value::tuple(vec![head, Value::tuple(args), Value::tuple(kwargs)])
}

fn partial(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::method(
        hold(a.value("func").clone(), a),
        registered("functools.partial.__call__"),
    ))
}

fn partial_call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Tuple(held) = a.value("self") else {
        return Ok(Value::None);
    };
    let (func, args, kwargs) = (&held[0], &held[1], &held[2]);
    let mut call = Vec::new();
    let arg = |name: Option<String>, value: Value| CallArg {
        name,
        value,
        span: a.call,
    };
    if let Value::Tuple(args) = args {
        call.extend(args.iter().map(|v| arg(None, v.clone())));
    }
    call.extend(a.rest().iter().map(|(v, _)| arg(None, v.clone())));
    if let Value::Tuple(kw) = kwargs {
        for pair in kw.iter() {
            if let Value::Tuple(p) = pair {
                if let Value::Str(k) = &p[0] {
                    if !a.kwargs().iter().any(|(n, _, _)| n == k.as_str()) {
                        call.push(arg(Some(k.to_string()), p[1].clone()));
                    }
                }
            }
        }
    }
    call.extend(
        a.kwargs()
            .iter()
            .map(|(k, v, _)| arg(Some(k.clone()), v.clone())),
    );
    it.call(func, call, a.call)
}

fn itemgetter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    if items.is_empty() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "itemgetter expected 1 argument, got 0",
        )
        .at(a.call));
    }
    Ok(Value::method(
        Value::tuple(items),
        registered("operator.itemgetter.__call__"),
    ))
}

fn item(obj: &Value, key: &Value, a: &Args) -> Result<Value> {
    let sub = crate::eval::items::Sub::Key(key.clone(), a.call);
    crate::eval::items::get_item(obj, &sub, a.call)
}

fn itemgetter_call(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Tuple(keys) = a.value("self") else {
        return Ok(Value::None);
    };
    let obj = a.value("obj");
    if keys.len() == 1 {
        return item(obj, &keys[0], a);
    }
    let got = keys
        .iter()
        .map(|k| item(obj, k, a))
        .collect::<Result<_>>()?;
    Ok(Value::tuple(got))
}

macro_rules! op_fn {
    ($($fn:ident => $op:expr),* $(,)?) => {
        $(fn $fn(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
            super::operator_fns::binary(it, a, $op)
        })*
    };
}

op_fn!(
    add => BinOp::Add, sub => BinOp::Sub, mul => BinOp::Mul, truediv => BinOp::Div,
    floordiv => BinOp::FloorDiv, mod_ => BinOp::Mod, pow => BinOp::Pow, eq => BinOp::Eq,
    ne => BinOp::Ne, lt => BinOp::Lt, le => BinOp::Le, gt => BinOp::Gt, ge => BinOp::Ge,
);

fn neg(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    super::operator_fns::unary(it, a, UnaryOp::Neg)
}

fn getitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    item(a.value("a"), a.value("b"), a)
}
