//! `tf.debugging`'s asserts, as TensorFlow's eager mode runs them: a check that holds gives
//! None; one that fails raises InvalidArgumentError for a value check, ValueError for a
//! shape check (the static shape is known) and TypeError for a dtype check. Comparisons go
//! through the engine's broadcasting kernels, so dense and ragged tensors both work.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::broadcast;
use ragtag_engine::ops::kernels::BinaryOp;
use ragtag_engine::{Array, DType, ExceptionClass, Scalar, Tensor};

macro_rules! compare {
    ($($name:literal, $alias:literal, $op:expr, $text:literal, $doc:literal, $ex:literal;)*) => {
        /// The elementwise comparisons of two tensors.
        pub static COMPARE: &[Builtin] = &[
            $(
                Builtin::function($name, "(x, y, message=None, summarize=None, name=None)", |_, a| pair(a, $op, $text))
                    .doc($doc)
                    .aliases(&[$alias])
                    .examples(&[$ex]),
            )*
        ];
    };
}

compare! {
    "tf.debugging.assert_equal", "tf.assert_equal", BinaryOp::Eq, "==",
        "None when x == y holds for every element (broadcast together), else InvalidArgumentError.", "tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2])";
    "tf.debugging.assert_none_equal", "tf.assert_none_equal", BinaryOp::Ne, "!=",
        "None when x != y holds for every element, else InvalidArgumentError.", "tf.debugging.assert_none_equal(tf.constant([1, 2]), 3)";
    "tf.debugging.assert_greater", "tf.assert_greater", BinaryOp::Gt, ">",
        "None when x > y holds for every element, else InvalidArgumentError.", "tf.debugging.assert_greater(tf.constant([3, 4]), 2)";
    "tf.debugging.assert_greater_equal", "tf.assert_greater_equal", BinaryOp::Ge, ">=",
        "None when x >= y holds for every element, else InvalidArgumentError.", "tf.debugging.assert_greater_equal(tf.constant([2, 4]), 2)";
    "tf.debugging.assert_less", "tf.assert_less", BinaryOp::Lt, "<",
        "None when x < y holds for every element, else InvalidArgumentError.", "tf.debugging.assert_less(tf.constant([1, 2]), 3)";
    "tf.debugging.assert_less_equal", "tf.assert_less_equal", BinaryOp::Le, "<=",
        "None when x <= y holds for every element, else InvalidArgumentError.", "tf.debugging.assert_less_equal(tf.constant([1, 3]), 3)";
}

macro_rules! sign {
    ($($name:literal, $op:expr, $text:literal, $doc:literal, $ex:literal;)*) => {
        /// The comparisons of a tensor with zero.
        pub static SIGN: &[Builtin] = &[
            $(
                Builtin::function($name, "(x, message=None, summarize=None, name=None)", |_, a| against_zero(a, $op, $text))
                    .doc($doc)
                    .examples(&[$ex]),
            )*
        ];
    };
}

sign! {
    "tf.debugging.assert_positive", BinaryOp::Gt, "x > 0",
        "None when every element is above zero, else InvalidArgumentError.", "tf.debugging.assert_positive(tf.constant([1, 2]))";
    "tf.debugging.assert_negative", BinaryOp::Lt, "x < 0",
        "None when every element is below zero, else InvalidArgumentError.", "tf.debugging.assert_negative(tf.constant([-1.5]))";
    "tf.debugging.assert_non_negative", BinaryOp::Ge, "x >= 0",
        "None when no element is below zero, else InvalidArgumentError.", "tf.debugging.assert_non_negative(tf.constant([0, 2]))";
    "tf.debugging.assert_non_positive", BinaryOp::Le, "x <= 0",
        "None when no element is above zero, else InvalidArgumentError.", "tf.debugging.assert_non_positive(tf.constant([0, -2]))";
}

/// The other asserts.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.debugging.assert_near", "(x, y, rtol=None, atol=None, message=None, summarize=None, name=None)", near)
        .doc("None when |x - y| <= atol + rtol * |y| for every element (both default to 10 × the dtype's epsilon), else InvalidArgumentError.")
        .examples(&["tf.debugging.assert_near(tf.constant([1.0, 2.0]), [1.0, 2.000001])"]),
    Builtin::function("tf.debugging.assert_rank", "(x, rank, message=None, name=None)", |_, a| rank(a, false))
        .doc("None when `x` has rank `rank`, else ValueError.")
        .aliases(&["tf.assert_rank"])
        .examples(&["tf.debugging.assert_rank(tf.zeros([2, 3]), 2)"]),
    Builtin::function("tf.debugging.assert_rank_at_least", "(x, rank, message=None, name=None)", |_, a| rank(a, true))
        .doc("None when `x` has rank `rank` or more, else ValueError.")
        .examples(&["tf.debugging.assert_rank_at_least(tf.zeros([2, 3]), 1)"]),
    Builtin::function("tf.debugging.assert_scalar", "(tensor, message=None, name=None)", assert_scalar)
        .doc("None when the tensor is a scalar (rank 0), else ValueError.")
        .examples(&["tf.debugging.assert_scalar(tf.constant(3))"]),
    Builtin::function("tf.debugging.assert_type", "(tensor, tf_type, message=None, name=None)", assert_type)
        .doc("None when the tensor's dtype is `tf_type`, else TypeError.")
        .examples(&["tf.debugging.assert_type(tf.constant([1.5]), tf.float32)"]),
    Builtin::function("tf.debugging.assert_integer", "(x, message=None, name=None)", integer)
        .doc("None when the tensor's dtype is an integer type, else TypeError.")
        .examples(&["tf.debugging.assert_integer(tf.constant([1, 2]))"]),
    Builtin::function("tf.debugging.assert_all_finite", "(x, message)", all_finite)
        .doc("The tensor itself, or an InvalidArgumentError with `message` when a float element is nan or infinite.")
        .examples(&["tf.debugging.assert_all_finite(tf.constant([1.0, 2.0]), 'bad')"]),
    Builtin::function("tf.debugging.assert_proper_iterable", "(values)", proper_iterable)
        .doc("None when `values` is an iterable of values (a list, tuple, …), TypeError for a tensor, array, string or non-iterable.")
        .examples(&["tf.debugging.assert_proper_iterable([1, 2])"]),
    Builtin::function("tf.debugging.is_numeric_tensor", "(tensor)", is_numeric)
        .doc("Whether `tensor` is a tensor (dense, ragged or sparse) of a number dtype (a Python bool).")
        .examples(&["tf.debugging.is_numeric_tensor(tf.constant([1.0]))"]),
    Builtin::function("tf.debugging.Assert", "(condition, data, summarize=None, name=None)", assert_op)
        .doc("None when the bool `condition` holds, else InvalidArgumentError showing `data` (a list of tensors).")
        .aliases(&["tf.Assert"])
        .examples(&["tf.debugging.Assert(tf.reduce_all(tf.constant([1, 2]) > 0), [tf.constant([1, 2])])"]),
];

fn failed(a: &Args, what: String) -> Error {
    let message = a
        .builtin()
        .params()
        .iter()
        .any(|p| p.name == "message")
        .then(|| a.get("message"))
        .flatten()
        .and_then(|v| match v {
            Value::Str(s) => Some(s.to_string()),
            _ => None,
        });
    let text = match message {
        Some(m) if !m.is_empty() => format!("{m}\n{what}"),
        _ => what,
    };
    Error::new(ExceptionClass::InvalidArgumentError, text).at(a.call)
}

/// Whether `op(x, y)` holds for every element, after broadcasting (TensorFlow's
/// InvalidArgumentError when the shapes or dtypes do not fit).
fn holds(
    op: BinaryOp,
    x: &Array,
    y: &Array,
) -> std::result::Result<bool, ragtag_engine::Exception> {
    if x.dtype() != y.dtype() {
        return Err(ragtag_engine::Exception::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "cannot compute {op:?} as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
                x.dtype(),
                y.dtype()
            ),
        ));
    }
    let out = broadcast::binary(op, x, y)?;
    let b = ragtag_engine::ops::cast::cast_buffer(out.flat_values().data(), DType::Int64)?;
    Ok(b.to_i64_vec().is_some_and(|v| v.iter().all(|&k| k != 0)))
}

fn pair(a: &Args, op: BinaryOp, text: &str) -> Result<Value> {
    let x = a.array("x", None)?;
    let y = a.array("y", Some(x.dtype()))?;
    if holds(op, &x, &y).map_err(|e| Error::from(e).at(a.call))? {
        return Ok(Value::None);
    }
    Err(failed(
        a,
        format!("Condition x {text} y did not hold element-wise."),
    ))
}

fn against_zero(a: &Args, op: BinaryOp, text: &str) -> Result<Value> {
    let x = a.array("x", None)?;
    if x.flat_values().size() == 0 {
        return Ok(Value::None);
    }
    let zero = ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(0), x.dtype())
        .map_err(|e| a.err_at("x", e))?;
    let zero = Array::Dense(Tensor::scalar(zero));
    if holds(op, &x, &zero).map_err(|e| Error::from(e).at(a.call))? {
        return Ok(Value::None);
    }
    Err(failed(
        a,
        format!("Condition {text} did not hold element-wise."),
    ))
}

fn near(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let y = a.array("y", Some(x.dtype()))?;
    let eps = match x.dtype() {
        DType::Float16 => 9.765625e-4,
        DType::BFloat16 => 7.8125e-3,
        DType::Float32 => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    };
    let tol = |n: &str| -> Result<f64> {
        match a.get(n) {
            None => Ok(10.0 * eps),
            Some(v) => convert::to_f64(v).map_err(|e| a.err_at(n, e)),
        }
    };
    let (rtol, atol) = (tol("rtol")?, tol("atol")?);
    if x.dtype() != y.dtype() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("x has dtype {} but y has dtype {}", x.dtype(), y.dtype()),
        )
        .at(a.call));
    }
    let go = || -> std::result::Result<bool, ragtag_engine::Exception> {
        let f = |arr: &Array| -> std::result::Result<Array, ragtag_engine::Exception> {
            Ok(match arr {
                Array::Dense(t) => Array::Dense(Tensor::from_parts(
                    t.shape().to_vec(),
                    ragtag_engine::ops::cast::cast_buffer(t.data(), DType::Float64)?,
                )),
                Array::Ragged(r) => {
                    let fv = r.flat_values();
                    let data = ragtag_engine::ops::cast::cast_buffer(fv.data(), DType::Float64)?;
                    Array::Ragged(
                        r.with_flat_values(Tensor::from_parts(fv.shape().to_vec(), data))?,
                    )
                }
            })
        };
        let (xf, yf) = (f(&x)?, f(&y)?);
        let diff = broadcast::binary(BinaryOp::Sub, &xf, &yf)?;
        let abs = |arr: &Array| -> std::result::Result<Array, ragtag_engine::Exception> {
            broadcast::binary(
                BinaryOp::Maximum,
                arr,
                &broadcast::binary(BinaryOp::Sub, &scalar(0.0), arr)?,
            )
        };
        let bound = broadcast::binary(
            BinaryOp::Add,
            &broadcast::binary(BinaryOp::Mul, &abs(&yf)?, &scalar(rtol))?,
            &scalar(atol),
        )?;
        holds(BinaryOp::Le, &abs(&diff)?, &bound)
    };
    if go().map_err(|e| Error::from(e).at(a.call))? {
        return Ok(Value::None);
    }
    Err(failed(
        a,
        format!("x and y not equal to tolerance rtol = {rtol}, atol = {atol}"),
    ))
}

fn scalar(v: f64) -> Array {
    Array::Dense(Tensor::scalar(Scalar::F64(v)))
}

/// Argument `name` as a tensor, for the asserts TensorFlow does not dispatch on a
/// RaggedTensor: converting one to a tensor is a ValueError there.
fn dense_arg(a: &Args, name: &str) -> Result<Arc<Array>> {
    let x = a.array(name, None)?;
    if let Array::Ragged(_) = &*x {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "{} does not take a RaggedTensor: it converts its argument to a dense tensor",
                a.builtin().name
            ),
        )
        .at(a.span(name)));
    }
    Ok(x)
}

/// The rank a value has (a tensor's, or a Python value's as a tensor).
fn rank_of(a: &Args, name: &str) -> Result<usize> {
    match a.value(name) {
        Value::Sparse(s) => Ok(s.dense_shape().len()),
        _ => Ok(dense_arg(a, name)?.rank()),
    }
}

fn rank(a: &Args, at_least: bool) -> Result<Value> {
    let have = rank_of(a, "x")?;
    let want = a.int("rank")?;
    let ok = if at_least {
        have as i64 >= want
    } else {
        have as i64 == want
    };
    if ok {
        return Ok(Value::None);
    }
    let message = a.opt_str("message")?.unwrap_or_default();
    let what = if at_least { "at least " } else { "" };
    Err(Error::new(
        ExceptionClass::ValueError,
        format!("{message}Tensor x must have rank {what}{want}.  Received rank {have}"),
    )
    .at(a.call))
}

fn scalar_check(a: &Args) -> Result<Arc<Array>> {
    let x = dense_arg(a, "tensor")?;
    if x.rank() != 0 {
        let message = a.opt_str("message")?.unwrap_or_default();
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("{message}Expected scalar shape, saw shape: {}.", x.rank()),
        )
        .at(a.call));
    }
    Ok(x)
}

fn assert_scalar(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    scalar_check(a).map(|_| Value::None)
}

fn assert_type(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let want = a.dtype("tf_type")?.ok_or_else(|| {
        Error::new(ExceptionClass::TypeError, "tf_type must be a dtype").at(a.call)
    })?;
    let have = match a.value("tensor") {
        Value::Sparse(s) => s.values().dtype(),
        _ => dense_arg(a, "tensor")?.dtype(),
    };
    if have == want {
        return Ok(Value::None);
    }
    let message = a.opt_str("message")?.unwrap_or_default();
    Err(Error::new(
        ExceptionClass::TypeError,
        format!(
            "{message}tensor must be of type {}; got {}",
            want.name(),
            have.name()
        ),
    )
    .at(a.call))
}

fn integer(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = dense_arg(a, "x")?.dtype();
    if d.is_int() {
        return Ok(Value::None);
    }
    let message = a.opt_str("message")?.unwrap_or_default();
    Err(Error::new(
        ExceptionClass::TypeError,
        format!("{message}Expected integer type, got {}", d.name()),
    )
    .at(a.call))
}

fn all_finite(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let message = a.opt_str("message")?.unwrap_or_default();
    let fv = x.flat_values();
    if !fv.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("assert_all_finite needs a float tensor, not {}", fv.dtype()),
        )
        .at(a.span("x")));
    }
    let v = fv.data().to_f64_vec().unwrap_or_default();
    match v.iter().find(|x| !x.is_finite()) {
        Some(bad) => Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "{message} : Tensor had {} values",
                if bad.is_nan() { "NaN" } else { "Inf" }
            ),
        )
        .at(a.span("x"))),
        None => Ok(Value::Array(x)),
    }
}

fn proper_iterable(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("values");
    let refused = match v {
        Value::Array(_) | Value::Sparse(_) | Value::NdArray(_) | Value::Lod(_) => {
            Some("Expected argument \"values\" to be iterable, not a tensor or array")
        }
        Value::Str(_) => Some("Expected argument \"values\" to be iterable, not a string"),
        _ if crate::eval::subscript::iterate(v).is_err() => {
            Some("Expected argument \"values\" to be iterable")
        }
        _ => None,
    };
    match refused {
        None => Ok(Value::None),
        Some(m) => Err(Error::new(ExceptionClass::TypeError, m).at(a.span("values"))),
    }
}

fn is_numeric(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = match a.value("tensor") {
        Value::Array(x) => Some(x.dtype()),
        Value::Sparse(s) => Some(s.values().dtype()),
        _ => None,
    };
    Ok(Value::Bool(
        d.is_some_and(|d| d.is_numeric() && d != DType::Bool),
    ))
}

fn assert_op(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let c = a.array("condition", Some(DType::Bool))?;
    if c.dtype() != DType::Bool || c.rank() != 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "The condition of Assert must be a bool scalar, not {} of rank {}",
                c.dtype(),
                c.rank()
            ),
        )
        .at(a.span("condition")));
    }
    if c.flat_values().data().get(0) == Scalar::Bool(true) {
        return Ok(Value::None);
    }
    let data = crate::eval::subscript::iterate(a.value("data")).map_err(|e| a.err_at("data", e))?;
    let shown: Vec<String> = data.iter().map(|v| v.type_name().to_string()).collect();
    Err(Error::new(
        ExceptionClass::InvalidArgumentError,
        format!("assertion failed: [{}]", shown.join(", ")),
    )
    .at(a.call))
}

/// `tf.debugging.assert_shapes`.
pub static SHAPES: &[Builtin] = &[Builtin::function(
    "tf.debugging.assert_shapes",
    "(shapes, data=None, summarize=None, message=None, name=None)",
    assert_shapes,
)
.doc("None when each (tensor, shape) pair fits: a shape lists ints, named dimensions (the same name means the same size across tensors) and may start with '*' or '...' for any leading dimensions; else ValueError.")
.examples(&["tf.debugging.assert_shapes([(tf.zeros([2, 3]), ('N', 3)), (tf.zeros([2]), ('N',))])"])];

/// One dimension of an `assert_shapes` spec.
enum Dim {
    Size(usize),
    Named(String),
}

fn assert_shapes(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pairs =
        crate::eval::subscript::iterate(a.value("shapes")).map_err(|e| a.err_at("shapes", e))?;
    let mut names: Vec<(String, usize)> = Vec::new();
    let bad = |m: String| Error::new(ExceptionClass::ValueError, m).at(a.call);
    for (i, pair) in pairs.iter().enumerate() {
        let parts = crate::eval::subscript::iterate(pair).map_err(|e| a.err_at("shapes", e))?;
        let [tensor, spec] = parts.as_slice() else {
            return Err(bad(format!("shapes[{i}] must be a (tensor, shape) pair")));
        };
        let shape: Vec<usize> = match tensor {
            Value::Sparse(s) => s.shape_usize(),
            v => {
                let x = convert::to_array(v, None).map_err(|e| a.err_at("shapes", e))?;
                match &*x {
                    Array::Dense(t) => t.shape().to_vec(),
                    Array::Ragged(r) => {
                        return Err(bad(format!(
                            "shapes[{i}] is a RaggedTensor of rank {}: assert_shapes needs dense shapes",
                            r.rank()
                        )))
                    }
                }
            }
        };
        let mut dims = Vec::new();
        let mut any_prefix = false;
        let spec_items = match spec {
            Value::Str(s) => vec![Value::Str(s.clone())],
            v => crate::eval::subscript::iterate(v).map_err(|e| a.err_at("shapes", e))?,
        };
        for (k, d) in spec_items.iter().enumerate() {
            match d {
                Value::Str(s) if k == 0 && (s.as_str() == "*" || s.as_str() == "...") => {
                    any_prefix = true
                }
                Value::Str(s) => dims.push(Dim::Named(s.to_string())),
                v => {
                    let n = convert::to_int(v).map_err(|e| a.err_at("shapes", e))?;
                    dims.push(Dim::Size(n.max(0) as usize));
                }
            }
        }
        let rank_ok = if any_prefix {
            shape.len() >= dims.len()
        } else {
            shape.len() == dims.len()
        };
        if !rank_ok {
            return Err(bad(format!(
                "Specified by tensor shapes[{i}] dimension count: expected rank {}{}, got shape {shape:?}",
                if any_prefix { "at least " } else { "" },
                dims.len()
            )));
        }
        let tail = &shape[shape.len() - dims.len()..];
        for (d, &have) in dims.iter().zip(tail) {
            match d {
                Dim::Size(n) if *n != have => {
                    return Err(bad(format!(
                        "Specified by tensor shapes[{i}]: expected size {n}, got shape {shape:?}"
                    )))
                }
                Dim::Named(name) => match names.iter().find(|(n, _)| n == name) {
                    Some((_, size)) if *size != have => {
                        return Err(bad(format!(
                            "Specified by tensor shapes[{i}]: dimension '{name}' is {have}, but {size} elsewhere"
                        )))
                    }
                    Some(_) => {}
                    None => names.push((name.clone(), have)),
                },
                Dim::Size(_) => {}
            }
        }
    }
    Ok(Value::None)
}
