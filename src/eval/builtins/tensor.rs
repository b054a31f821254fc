//! Dense tensors: construction, dtype conversion, elementwise math and reductions.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::engine::literal::{self, Flavor};
use crate::engine::ops::kernels::{BinaryOp, UnaryOp};
use crate::engine::ops::reduce::ReduceOp;
use crate::engine::ops::{broadcast, reduce};
use crate::engine::{Array, DType, ErrorClass, Scalar, Tensor};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::operators::map_unary;
use crate::eval::Interp;
use crate::value::Value;

/// The list an example of a unary function applies to: `[[1.0, 4.0], [9.0]]` unless given.
macro_rules! example_input {
    () => {
        "[[1.0, 4.0], [9.0]]"
    };
    ($input:literal) => {
        $input
    };
}

macro_rules! unary_math {
    ($($name:literal => $op:ident $([$input:literal])?, $doc:literal;)*) => {
        &[$(
            Builtin::function($name, "(x)", |_, a| unary(a, UnaryOp::$op)).doc($doc)
                .examples(&[concat!(
                    $name,
                    "(tf.ragged.constant(",
                    example_input!($($input)?),
                    "))"
                )]),
        )*]
    };
}

macro_rules! binary_math {
    ($($name:literal => $op:ident, $doc:literal;)*) => {
        &[$(
            Builtin::function($name, "(x, y)", |_, a| binary(a, BinaryOp::$op)).doc($doc)
                .examples(&[concat!($name, "(tf.ragged.constant([[1, 2], [3]]), 2)")]),
        )*]
    };
}

/// `tf.<name>` (also `tf.math.<name>`), with an example reducing the rows of `$input`.
macro_rules! reductions {
    ($($name:literal => $op:ident, $input:literal, $doc:literal;)*) => {
        &[$(
            Builtin::function(concat!("tf.", $name), "(input_tensor, axis=None, keepdims=False)", |_, a| reduce_fn(a, ReduceOp::$op)).doc($doc)
                .aliases(&[concat!("tf.math.", $name)])
                .examples(&[concat!("tf.", $name, "(tf.ragged.constant(", $input, "), axis=1)")]),
        )*]
    };
}

/// Construction and properties of dense tensors.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.constant", "(value, dtype=None, shape=None)", constant)
        .doc("A dense tensor from a rectangular nested list: Python ints become int32, floats float32, strings string. Rows of different lengths are an error here; use tf.ragged.constant.")
        .examples(&["tf.constant([[1, 2], [3, 4]])", "tf.constant(1.5, dtype=tf.float64)"]),
    Builtin::method("tf.Tensor.astype", "(self, dtype)", astype)
        .doc("NumPy's `astype`: the same values converted to `dtype`.")
        .examples(&["np.array([[1], [2]]).astype('float32')"]),
    Builtin::function("tf.cast", "(x, dtype)", cast)
        .doc("The same values converted to `dtype`; floats truncate toward zero when cast to ints. Works on dense, ragged and sparse tensors.")
        .aliases(&["tf.dtypes.cast"])
        .examples(&["tf.cast(tf.ragged.constant([[1, 2], [3]]), tf.float32)"]),
    Builtin::function("tf.convert_to_tensor", "(value, dtype=None)", convert_to_tensor)
        .doc("A tensor from a value: lists become dense tensors (ragged ones when rows differ); tensors pass through.")
        .examples(&["tf.convert_to_tensor([1, 2])"]),
    Builtin::property("tf.Tensor.shape", tensor_shape)
        .doc("The static shape as a TensorShape.")
        .examples(&["tf.constant([[1, 2, 3], [4, 5, 6]]).shape"]),
    Builtin::property("tf.Tensor.dtype", dtype_prop)
        .doc("The element type.")
        .examples(&["tf.constant([1.5]).dtype"]),
    Builtin::property("tf.Tensor.ndim", ndim)
        .doc("The rank (number of dimensions).")
        .examples(&["tf.constant([[1, 2]]).ndim"]),
    Builtin::method("tf.Tensor.tolist", "(self)", tolist)
        .doc("The values as nested Python lists.")
        .examples(&["tf.constant([[1, 2]]).tolist()"]),
    Builtin::method("tf.Tensor.get_shape", "(self)", tensor_shape)
        .doc("The static shape (same as `.shape`).")
        .examples(&["tf.constant([[1, 2]]).get_shape()"]),
    Builtin::method("tf.TensorShape.as_list", "(self)", shape_as_list)
        .doc("The dimensions as a Python list (`None` for unknown sizes).")
        .examples(&["tf.ragged.constant([[1], [2, 3]]).shape.as_list()"]),
    Builtin::property("tf.TensorShape.rank", shape_rank)
        .doc("The number of dimensions.")
        .examples(&["tf.constant([[1, 2]]).shape.rank"]),
    Builtin::function("tf.shape", "(input, out_type=tf.int32)", tf_shape)
        .doc("The dynamic shape as an int32 (or `out_type`) tensor: for ragged tensors the bounding shape, for sparse ones the dense_shape.")
        .examples(&["tf.shape(tf.constant([[1, 2, 3]]))", "tf.shape(tf.constant([[1, 2, 3]]), out_type=tf.int64)"]),
    Builtin::function("tf.shape_n", "(input, out_type=tf.int32)", tf_shape_n)
        .doc("The shapes of a list of tensors, as a list of int32 (or `out_type`) vectors.")
        .examples(&["tf.shape_n([tf.constant([[1, 2]]), tf.constant([1, 2, 3])])"]),
    Builtin::function("tf.rank", "(input)", tf_rank)
        .doc("The number of dimensions, as a scalar int32 tensor (dense, ragged or sparse).")
        .examples(&["tf.rank(tf.ragged.constant([[1], [2, 3]]))"]),
    Builtin::function("tf.size", "(input, out_type=tf.int32)", tf_size)
        .doc("The number of elements as a scalar int32 (or `out_type`) tensor: the number of values for ragged tensors, the product of dense_shape for sparse ones.")
        .examples(&["tf.size(tf.ragged.constant([[1], [2, 3]]))", "tf.size(tf.constant([[1, 2]]), out_type=tf.int64)"]),
    Builtin::function("tf.one_hot", "(indices, depth, on_value=None, off_value=None, axis=None, dtype=None)", one_hot)
        .doc("Each index becomes a vector of `depth` values: `on_value` (1) at the index and `off_value` (0) elsewhere, on a new axis (`axis`, default last). Indices outside [0, depth) give all off values. The dtype comes from `dtype`, else from on_value/off_value, else float32. Ragged indices keep their rows; the new axis must come after the ragged dimensions.")
        .examples(&["tf.one_hot(tf.ragged.constant([[0, 2], [], [1]]), 3)", "tf.one_hot([0, 2, -1], 3, on_value=5, off_value=-1, axis=0)"]),
    Builtin::function("tf.ones_like", "(input, dtype=None)", |_, a| like(a, 1))
        .doc("A tensor of ones with the shape (and row partitions) of `input`, in its dtype unless `dtype` is given.")
        .examples(&["tf.ones_like(tf.ragged.constant([[1, 2], [], [3]]))"]),
    Builtin::function("tf.zeros_like", "(input, dtype=None)", |_, a| like(a, 0))
        .doc("A tensor of zeros (False, or empty strings) with the shape (and row partitions) of `input`, in its dtype unless `dtype` is given.")
        .examples(&["tf.zeros_like(tf.ragged.constant([[1.5, 2.0], [3.0]]), dtype=tf.int64)"]),
    Builtin::function("tf.range", "(start, limit=None, delta=1, dtype=None)", tf_range)
        .doc("The numbers from `start` (or 0) up to `limit`, stepping by `delta`; int32 for ints, float32 for floats.")
        .examples(&["tf.range(5)", "tf.range(4096.0)[:3]"]),
    Builtin::function("tf.fill", "(dims, value)", tf_fill)
        .doc("A dense tensor of shape `dims` with every element `value`.")
        .examples(&["tf.fill([2, 3], '#')"]),
    Builtin::function("tf.zeros", "(shape, dtype=None)", |_, a| filled(a, 0))
        .doc("A dense tensor of zeros (float32 unless `dtype` says otherwise).")
        .examples(&["tf.zeros([2, 2], dtype=tf.int32)"]),
    Builtin::function("tf.ones", "(shape, dtype=None)", |_, a| filled(a, 1))
        .doc("A dense tensor of ones (float32 unless `dtype` says otherwise).")
        .examples(&["tf.ones([3])"]),
    Builtin::function("tf.reshape", "(tensor, shape)", tf_reshape)
        .doc("The same values in a new dense shape; one dimension may be -1 (inferred).")
        .examples(&["tf.reshape(tf.range(6), [2, 3])"]),
];

/// Elementwise math.
pub static MATH: &[Builtin] = unary_math! {
    "tf.math.square" => Square, "The square of every element.";
    "tf.math.sqrt" => Sqrt, "The square root of every element (floats only).";
    "tf.math.exp" => Exp, "e raised to every element (floats only).";
    "tf.math.log" => Log, "The natural logarithm of every element (floats only).";
    "tf.math.abs" => Abs, "The absolute value of every element.";
    "tf.math.negative" => Neg, "Every element negated.";
    "tf.math.sign" => Sign, "-1, 0 or 1 for every element.";
    "tf.math.floor" => Floor, "Every element rounded down (floats only).";
    "tf.math.ceil" => Ceil, "Every element rounded up (floats only).";
    "tf.math.round" => Round, "Every element rounded to the nearest integer, ties to even.";
    "tf.math.sin" => Sin, "The sine of every element (floats only).";
    "tf.math.cos" => Cos, "The cosine of every element (floats only).";
    "tf.math.tanh" => Tanh, "The hyperbolic tangent of every element (floats only).";
    "tf.math.sigmoid" => Sigmoid, "The logistic sigmoid of every element (floats only).";
    "tf.math.reciprocal" => Reciprocal, "1 / x for every element.";
    "tf.math.is_nan" => IsNan, "True where an element is NaN.";
    "tf.math.logical_not" => LogicalNot ["[[True, False], [False]]"], "The logical not of every element (bool only); the same as `~x`.";
};

/// Elementwise binary math with broadcasting.
pub static BINARY: &[Builtin] = binary_math! {
    "tf.math.add" => Add, "x + y, elementwise with broadcasting (strings concatenate).";
    "tf.math.subtract" => Sub, "x - y, elementwise with broadcasting.";
    "tf.math.multiply" => Mul, "x * y, elementwise with broadcasting.";
    "tf.math.divide" => Div, "x / y, elementwise; integer inputs give float64, as in TensorFlow.";
    "tf.math.truediv" => Div, "x / y, elementwise; integer inputs give float64.";
    "tf.math.floordiv" => FloorDiv, "x // y, elementwise, rounding toward negative infinity.";
    "tf.math.floormod" => Mod, "x % y, elementwise, with the sign of y.";
    "tf.math.pow" => Pow, "x ** y, elementwise.";
    "tf.math.maximum" => Maximum, "The larger of x and y, elementwise.";
    "tf.math.minimum" => Minimum, "The smaller of x and y, elementwise.";
    "tf.math.equal" => Eq, "x == y, elementwise.";
    "tf.math.not_equal" => Ne, "x != y, elementwise.";
    "tf.math.less" => Lt, "x < y, elementwise.";
    "tf.math.less_equal" => Le, "x <= y, elementwise.";
    "tf.math.greater" => Gt, "x > y, elementwise.";
    "tf.math.greater_equal" => Ge, "x >= y, elementwise.";
    "tf.math.logical_and" => And, "x and y, elementwise (bool).";
    "tf.math.logical_or" => Or, "x or y, elementwise (bool).";
    "tf.math.logical_xor" => Xor, "x xor y, elementwise (bool).";
};

/// Reductions.
pub static REDUCTIONS: &[Builtin] = reductions! {
    "reduce_sum" => Sum, "[[3, 1, 4], [], [5, 9]]", "The sum over `axis` (all axes when None); empty rows sum to 0.";
    "reduce_prod" => Prod, "[[3, 1, 4], [], [5, 9]]", "The product over `axis`; empty rows give 1.";
    "reduce_max" => Max, "[[3, 1, 4], [], [5, 9]]", "The maximum over `axis`; an empty ragged row gives the dtype's lowest finite value (an empty dense axis gives -inf for floats).";
    "reduce_min" => Min, "[[3, 1, 4], [], [5, 9]]", "The minimum over `axis`; an empty ragged row gives the dtype's largest finite value (an empty dense axis gives inf for floats).";
    "reduce_mean" => Mean, "[[3, 1, 4], [], [5, 9]]", "The mean over `axis`. For ragged tensors each row is averaged over its own length (empty rows give nan); integer ragged means are float64.";
    "reduce_any" => Any, "[[True, False], [], [False]]", "True where any element over `axis` is true (bool; ragged numbers count as true when nonzero).";
    "reduce_all" => All, "[[True, False], [], [True]]", "True where every element over `axis` is true (bool; ragged numbers count as true when nonzero).";
    "reduce_variance" => Variance, "[[1.0, 2.0, 3.0], [4.0]]", "The population variance over `axis` (floats; ragged integers give float64).";
    "reduce_std" => Std, "[[1.0, 2.0, 3.0], [4.0]]", "The population standard deviation over `axis` (floats; ragged integers give float64).";
};

/// The unary ops TensorFlow also dispatches for SparseTensor (zero stays zero).
const SPARSE_UNARY: [UnaryOp; 13] = [
    UnaryOp::Abs,
    UnaryOp::Asin,
    UnaryOp::Asinh,
    UnaryOp::Atan,
    UnaryOp::Atanh,
    UnaryOp::Erf,
    UnaryOp::Neg,
    UnaryOp::Sign,
    UnaryOp::Sin,
    UnaryOp::Sqrt,
    UnaryOp::Square,
    UnaryOp::Tan,
    UnaryOp::Tanh,
];

pub(super) fn unary(a: &Args, op: UnaryOp) -> Result<Value> {
    let x = a.value("x");
    if matches!(x, Value::Sparse(_)) && !SPARSE_UNARY.contains(&op) {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "{} does not take a SparseTensor",
                a.builtin().name
            ),
        )
        .at(a.span("x"))
        .with_hint("apply it to the values: tf.sparse.map_values(f, sp), or densify first with tf.sparse.to_dense"));
    }
    let x = match x {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Value::Array(a.array("x", None)?),
        other => other.clone(),
    };
    map_unary(op, &x).map_err(|e| a.err_at("x", e))
}

pub(super) fn binary(a: &Args, op: BinaryOp) -> Result<Value> {
    let (x, y) = (a.value("x"), a.value("y"));
    let hint = match (x, y) {
        (Value::Array(t), _) | (_, Value::Array(t)) => Some(t.dtype()),
        _ => None,
    };
    let xa = a.array("x", hint)?;
    let ya = a.array("y", Some(xa.dtype()))?;
    broadcast::binary(op, &xa, &ya)
        .map(Value::from_array)
        .map_err(|e| Error::from(e).at(a.call))
}

fn reduce_fn(a: &Args, op: ReduceOp) -> Result<Value> {
    let x = a.array("input_tensor", None)?;
    let axes = match a.get("axis") {
        None => None,
        Some(_) => Some(a.ints("axis")?),
    };
    let keepdims = a.flag("keepdims", false)?;
    reduce::reduce(&x, axes.as_deref(), op, keepdims)
        .map(Value::from_array)
        .map_err(|e| a.err_at("axis", e))
}

fn constant(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?;
    let v = a.value("value");
    let t = match v {
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => match dtype {
                Some(d) if d != t.dtype() => {
                    return super::cast_array(arr, d)
                        .map(Value::from_array)
                        .map_err(|e| a.err_at("value", e))
                }
                _ => t.clone(),
            },
            Array::Ragged(_) => {
                return Err(Error::new(
                    ErrorClass::ValueError,
                    "tf.constant cannot hold a ragged tensor: its rows have different lengths",
                )
                .at(a.span("value"))
                .with_hint("use rt.to_tensor() to pad it into a dense tensor"))
            }
        },
        _ => {
            let n = convert::to_nested(v).map_err(|e| a.err_at("value", e))?;
            literal::constant(&n, dtype, Flavor::TensorFlow).map_err(|e| a.err_at("value", e))?
        }
    };
    let t = match a.get("shape") {
        None => t,
        Some(_) => {
            let shape = crate::engine::size::dims("dimensions", &a.ints("shape")?)
                .map_err(|e| a.err_at("shape", e))?;
            if t.size() == 1 {
                Tensor::filled("tf.constant", shape, &t.data().get(0))
                    .map_err(|e| a.err_at("shape", e))?
            } else {
                t.reshaped(shape).map_err(|e| a.err_at("shape", e))?
            }
        }
    };
    Ok(Value::tensor(t))
}

fn astype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a
        .dtype("dtype")?
        .ok_or_else(|| Error::new(ErrorClass::TypeError, "astype needs a dtype").at(a.call))?;
    let x = a.array("self", None)?;
    super::cast_array(&x, d)
        .map(Value::from_array)
        .map_err(|e| a.err_at("dtype", e))
}

fn cast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a
        .dtype("dtype")?
        .ok_or_else(|| Error::new(ErrorClass::TypeError, "tf.cast needs a dtype").at(a.call))?;
    if let Value::Sparse(s) = a.value("x") {
        let values = Tensor::vector(
            crate::engine::ops::cast::cast_buffer(s.values().data(), d)
                .map_err(|e| a.err_at("x", e))?,
        );
        return Ok(Value::Sparse(Arc::new(
            crate::engine::Sparse::new(s.indices().to_vec(), values, s.dense_shape().to_vec())
                .map_err(|e| a.err_at("x", e))?,
        )));
    }
    let x = a.array("x", None)?;
    super::cast_array(&x, d)
        .map(Value::from_array)
        .map_err(|e| a.err_at("x", e))
}

fn convert_to_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a.dtype("dtype")?;
    let x = a.array("value", d)?;
    match d {
        Some(d) if d != x.dtype() => super::cast_array(&x, d)
            .map(Value::from_array)
            .map_err(|e| a.err_at("value", e)),
        _ => Ok(Value::Array(x)),
    }
}

fn self_array(a: &Args) -> Result<Arc<Array>> {
    a.array("self", None)
}

fn tensor_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Shape(Arc::new(self_array(a)?.shape())))
}

fn dtype_prop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::DType(self_array(a)?.dtype()))
}

fn ndim(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(self_array(a)?.rank() as i64))
}

fn tolist(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = self_array(a)?;
    if x.rank() == 0 {
        return Ok(convert::unwrap_scalar(Value::Array(x)));
    }
    Ok(convert::array_to_list(&x))
}

fn shape_dims(a: &Args) -> Vec<Option<usize>> {
    match a.value("self") {
        Value::Shape(s) => s.to_vec(),
        _ => Vec::new(),
    }
}

fn shape_as_list(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        shape_dims(a)
            .into_iter()
            .map(|d| d.map_or(Value::None, |d| Value::Int(d as i64)))
            .collect(),
    ))
}

fn shape_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(shape_dims(a).len() as i64))
}

/// The `out_type` argument: an integer dtype (`float_ok` also allows floats, as tf.size does).
fn out_type(a: &Args, float_ok: bool) -> Result<DType> {
    match a.dtype("out_type")? {
        None => Ok(DType::Int32),
        Some(d) if d.is_int() || (float_ok && d.is_float()) => Ok(d),
        Some(d) => Err(Error::new(
            ErrorClass::InvalidArgumentError,
            format!("out_type must be int32 or int64, not {d}"),
        )
        .at(a.span("out_type"))),
    }
}

/// `dims` as a vector of `dtype`.
fn dims_tensor(dims: &[i64], dtype: DType, a: &Args) -> Result<Value> {
    let buf = crate::engine::Buffer::I64(dims.to_vec());
    let buf =
        crate::engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("out_type", e))?;
    Ok(Value::tensor(Tensor::vector(buf)))
}

/// The dynamic shape of a dense, ragged (bounding shape) or sparse value.
fn dynamic_shape(v: &Value, a: &Args, name: &str) -> Result<Vec<i64>> {
    if let Value::Sparse(sp) = v {
        return Ok(sp.dense_shape().to_vec());
    }
    let x = convert::to_array(v, None).map_err(|e| a.err_at(name, e))?;
    Ok(match &*x {
        Array::Dense(t) => t.shape().iter().map(|&d| d as i64).collect(),
        Array::Ragged(r) => r.bounding_shape().into_iter().map(|d| d as i64).collect(),
    })
}

fn tf_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, false)?;
    let dims = dynamic_shape(a.value("input"), a, "input")?;
    dims_tensor(&dims, dtype, a)
}

fn tf_shape_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, false)?;
    let items =
        crate::eval::operators::as_items(a.value("input")).map_err(|e| a.err_at("input", e))?;
    let mut out = Vec::new();
    for v in &items {
        out.push(dims_tensor(&dynamic_shape(v, a, "input")?, dtype, a)?);
    }
    Ok(Value::list(out))
}

fn tf_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let rank = match a.value("input") {
        Value::Sparse(sp) => sp.dense_shape().len(),
        _ => a.array("input", None)?.rank(),
    };
    Ok(Value::tensor(Tensor::scalar(Scalar::I32(rank as i32))))
}

fn tf_size(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, true)?;
    let n: i64 = match a.value("input") {
        Value::Sparse(sp) => sp
            .dense_shape()
            .iter()
            .fold(1i64, |p, &d| p.saturating_mul(d)),
        _ => a.array("input", None)?.flat_values().size() as i64,
    };
    let s = crate::engine::ops::cast::cast_scalar(&Scalar::I64(n), dtype)
        .map_err(|e| a.err_at("out_type", e))?;
    Ok(Value::tensor(Tensor::scalar(s)))
}

fn one_hot(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let indices = a.array("indices", None)?;
    let depth = a.int("depth")?;
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let given = |name: &str| a.get(name).filter(|v| !matches!(v, Value::None));
    let dtype_of = |name: &str| -> Result<Option<DType>> {
        given(name)
            .map(|v| convert::to_array(v, None).map(|x| x.dtype()))
            .transpose()
            .map_err(|e| a.err_at(name, e))
    };
    let (on_dt, off_dt) = (dtype_of("on_value")?, dtype_of("off_value")?);
    if let (Some(x), Some(y)) = (on_dt, off_dt) {
        if x != y {
            return Err(Error::new(
                ErrorClass::TypeError,
                format!("on_value ({x}) and off_value ({y}) must have the same dtype"),
            )
            .at(a.span("off_value")));
        }
    }
    let dtype = a
        .dtype("dtype")?
        .or(on_dt)
        .or(off_dt)
        .unwrap_or(DType::Float32);
    let value = |name: &str, default: i64| -> Result<Scalar> {
        match given(name) {
            Some(v) => convert::to_scalar(v, Some(dtype)).map_err(|e| a.err_at(name, e)),
            None => crate::engine::ops::cast::cast_scalar(&Scalar::I64(default), dtype)
                .map_err(|e| a.err_at("dtype", e)),
        }
    };
    let (on, off) = (value("on_value", 1)?, value("off_value", 0)?);
    crate::engine::ops::one_hot::one_hot(&indices, depth, &on, &off, axis)
        .map(Value::from_array)
        .map_err(|e| {
            let at = if e.message.contains("axis") {
                "axis"
            } else if e.message.contains("depth") {
                "depth"
            } else {
                "indices"
            };
            a.err_at(at, e)
        })
}

/// `tf.ones_like` (`one` = 1) and `tf.zeros_like` (`one` = 0).
fn like(a: &Args, one: i64) -> Result<Value> {
    if matches!(a.value("input"), Value::Sparse(_)) {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!("{} does not take a SparseTensor", a.builtin().name),
        )
        .at(a.span("input"))
        .with_hint("for the values: tf.sparse.map_values(tf.ones_like, sp)"));
    }
    let x = a.array("input", None)?;
    let dtype = a.dtype("dtype")?.unwrap_or(x.dtype());
    let fv = x.flat_values();
    let value = if dtype == DType::String {
        if one == 1 {
            return Err(Error::new(
                ErrorClass::InvalidArgumentError,
                "tf.ones_like is not defined for string tensors",
            )
            .at(a.span("input")));
        }
        Scalar::Str(Vec::new())
    } else {
        crate::engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
            .map_err(|e| a.err_at("dtype", e))?
    };
    let t = Tensor::filled(a.builtin().name, fv.shape().to_vec(), &value)
        .map_err(|e| a.err_at("input", e))?;
    let out = match &*x {
        Array::Dense(_) => Array::Dense(t),
        Array::Ragged(r) => Array::Ragged(r.with_flat_values(t).map_err(|e| a.err_at("input", e))?),
    };
    Ok(Value::from_array(out))
}

/// TensorFlow's dtype order for tf.range's inferred dtype (the widest argument wins).
const RANGE_DTYPES: [DType; 4] = [DType::Int32, DType::Int64, DType::Float32, DType::Float64];

fn tf_range(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let names = ["start", "limit", "delta"];
    let given = |n: &str| a.get(n).filter(|v| !matches!(v, Value::None));
    let arg_dtype = |n: &str| -> Result<Option<DType>> {
        Ok(match given(n) {
            None => None,
            Some(Value::Int(i)) => Some(if i32::try_from(*i).is_ok() {
                DType::Int32
            } else {
                DType::Int64
            }),
            Some(Value::Float(_)) => Some(DType::Float32),
            Some(_) => Some(a.array(n, None)?.dtype()),
        })
    };
    let mut inferred = DType::Int32;
    for n in names {
        if let Some(d) = arg_dtype(n)? {
            if !RANGE_DTYPES.contains(&d) {
                return Err(Error::new(
                    ErrorClass::TypeError,
                    format!("tf.range needs numbers, but {n} is {d}"),
                )
                .at(a.span(n)));
            }
            let pos = |d: DType| RANGE_DTYPES.iter().position(|&x| x == d);
            if pos(d) > pos(inferred) {
                inferred = d;
            }
        }
    }
    let dtype = a.dtype("dtype")?.unwrap_or(inferred);
    if !RANGE_DTYPES.contains(&dtype) {
        return Err(Error::new(
            ErrorClass::TypeError,
            format!("tf.range cannot make {dtype} values"),
        )
        .at(a.span("dtype")));
    }
    // With one argument it is the limit and the range starts at 0.
    let one_arg = given("limit").is_none();
    if dtype.is_int() {
        let int = |n: &str, default: i64| -> Result<i64> {
            match given(n) {
                None => Ok(default),
                Some(Value::Int(i)) => Ok(*i),
                Some(v) => {
                    let t = convert::to_scalar(v, None).map_err(|e| a.err_at(n, e))?;
                    match crate::engine::ops::cast::cast_scalar(&t, DType::Int64) {
                        Ok(Scalar::I64(i)) => Ok(i),
                        Ok(_) => unreachable!("cast to int64"),
                        Err(e) => Err(a.err_at(n, e)),
                    }
                }
            }
        };
        let start = if one_arg { 0 } else { int("start", 0)? };
        let limit = int(if one_arg { "start" } else { "limit" }, 0)?;
        let delta = int("delta", 1)?;
        check_range_signs(a, start as f64, limit as f64, delta as f64, delta == 0)?;
        let span = (i128::from(limit) - i128::from(start)).unsigned_abs();
        let step = i128::from(delta).unsigned_abs();
        let count = span.div_ceil(step);
        // int64 values are the result; int32 ones are cast from them (both live at once).
        let extra = if dtype == DType::Int64 {
            0
        } else {
            dtype.item_bytes()
        };
        crate::engine::budget::check("tf.range", count, 8 + extra)
            .map_err(|e| Error::from(e).at(a.call))?;
        let n = count as usize;
        let mut values: Vec<i64> =
            crate::engine::budget::vec("tf.range", n).map_err(|e| Error::from(e).at(a.call))?;
        crate::engine::interrupt::for_chunks(n, |chunk| {
            values.extend(chunk.map(|i| start.wrapping_add((i as i64).wrapping_mul(delta))))
        })
        .map_err(|e| Error::from(e).at(a.call))?;
        let buf = crate::engine::Buffer::I64(values);
        let buf = if dtype == DType::Int64 {
            buf
        } else {
            crate::engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("dtype", e))?
        };
        return Ok(Value::tensor(Tensor::vector(buf)));
    }
    let num = |n: &str| -> Result<Option<f64>> {
        given(n)
            .map(|v| convert::to_f64(v).map_err(|e| a.err_at(n, e)))
            .transpose()
    };
    let first = num("start")?.unwrap_or(0.0);
    let (start, limit) = match num("limit")? {
        Some(l) => (first, l),
        None => (0.0, first),
    };
    let delta = num("delta")?.unwrap_or(1.0);
    check_range_signs(a, start, limit, delta, delta == 0.0)?;
    let count = ((limit - start) / delta).abs().ceil();
    if !count.is_finite() {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            "tf.range needs finite start, limit and delta",
        )
        .at(a.call));
    }
    // Values are computed in float64, then cast: both buffers live at once.
    crate::engine::budget::check("tf.range", count as u128, 8 + dtype.item_bytes())
        .map_err(|e| Error::from(e).at(a.call))?;
    let n = count as usize;
    let mut values: Vec<f64> =
        crate::engine::budget::vec("tf.range", n).map_err(|e| Error::from(e).at(a.call))?;
    crate::engine::interrupt::for_chunks(n, |chunk| {
        values.extend(chunk.map(|i| start + i as f64 * delta))
    })
    .map_err(|e| Error::from(e).at(a.call))?;
    let buf = crate::engine::Buffer::F64(values);
    let buf =
        crate::engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("dtype", e))?;
    Ok(Value::tensor(Tensor::vector(buf)))
}

/// TensorFlow's checks: a nonzero delta that points from start toward limit.
fn check_range_signs(a: &Args, start: f64, limit: f64, delta: f64, zero: bool) -> Result<()> {
    if zero {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            "tf.range needs a nonzero delta",
        )
        .at(a.span("delta")));
    }
    if (delta > 0.0 && start > limit) || (delta < 0.0 && start < limit) {
        let need = if delta > 0.0 {
            "start <= limit"
        } else {
            "start >= limit"
        };
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            format!("tf.range requires {need} when delta is {delta}"),
        )
        .at(a.call)
        .with_hint("flip the sign of delta, or swap start and limit"));
    }
    Ok(())
}

/// Non-negative dimensions whose element count fits in int64 (InvalidArgumentError).
fn dims_arg(a: &Args, name: &str) -> Result<Vec<usize>> {
    crate::engine::size::dims("dimensions", &a.ints(name)?).map_err(|e| a.err_at(name, e))
}

fn tf_fill(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dims = dims_arg(a, "dims")?;
    let value = convert::to_scalar(a.value("value"), None).map_err(|e| a.err_at("value", e))?;
    Tensor::filled("tf.fill", dims, &value)
        .map(Value::tensor)
        .map_err(|e| a.err_at("dims", e))
}

fn filled(a: &Args, one: i64) -> Result<Value> {
    let dims = dims_arg(a, "shape")?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    // Zeros are each dtype's default (`''` for strings, as in TensorFlow); a string one is a
    // TypeError there and here.
    let s = if one == 0 {
        Scalar::default_of(dtype)
    } else {
        crate::engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
            .map_err(|e| a.err_at("dtype", e))?
    };
    Tensor::filled(a.builtin().name, dims, &s)
        .map(Value::tensor)
        .map_err(|e| a.err_at("shape", e))
}

fn tf_reshape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let Array::Dense(t) = &*x else {
        return Err(
            Error::new(ErrorClass::TypeError, "tf.reshape needs a dense tensor")
                .at(a.span("tensor"))
                .with_hint(
                    "flatten a ragged tensor with rt.flat_values, or pad it with rt.to_tensor()",
                ),
        );
    };
    let dims = a.ints("shape")?;
    if let Some(d) = dims.iter().find(|&&d| d < -1) {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            format!("size {d} in the shape must be non-negative (or -1, to infer it)"),
        )
        .at(a.span("shape")));
    }
    let known_dims: Vec<usize> = dims
        .iter()
        .filter(|&&d| d >= 0)
        .map(|&d| d as usize)
        .collect();
    let known = crate::engine::size::numel(&known_dims).map_err(|e| a.err_at("shape", e))?;
    let unknown = dims.iter().filter(|&&d| d < 0).count();
    if unknown > 1 {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            "only one dimension of the shape can be -1",
        )
        .at(a.span("shape")));
    }
    let shape: Vec<usize> = dims
        .iter()
        .map(|&d| {
            if d < 0 {
                t.size().checked_div(known).unwrap_or(0)
            } else {
                d as usize
            }
        })
        .collect();
    t.reshaped(shape.clone()).map(Value::tensor).map_err(|_| {
        Error::new(
            ErrorClass::InvalidArgumentError,
            format!(
                "cannot reshape a tensor of {} values (shape {:?}) into shape {:?}",
                t.size(),
                t.shape(),
                shape
            ),
        )
        .at(a.span("shape"))
    })
}
