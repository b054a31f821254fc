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
    Builtin::function("tf.shape", "(input)", tf_shape)
        .doc("The dynamic shape as an int32 tensor (for ragged tensors, the bounding shape).")
        .examples(&["tf.shape(tf.constant([[1, 2, 3]]))"]),
    Builtin::function("tf.rank", "(input)", tf_rank)
        .doc("The number of dimensions, as a scalar int32 tensor.")
        .examples(&["tf.rank(tf.ragged.constant([[1], [2, 3]]))"]),
    Builtin::function("tf.size", "(input)", tf_size)
        .doc("The number of elements (values, for ragged tensors), as a scalar int32 tensor.")
        .examples(&["tf.size(tf.ragged.constant([[1], [2, 3]]))"]),
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
    "reduce_max" => Max, "[[3, 1, 4], [], [5, 9]]", "The maximum over `axis`; an empty row gives the dtype's smallest value.";
    "reduce_min" => Min, "[[3, 1, 4], [], [5, 9]]", "The minimum over `axis`; an empty row gives the dtype's largest value.";
    "reduce_mean" => Mean, "[[3, 1, 4], [], [5, 9]]", "The mean over `axis`. For ragged tensors each row is averaged over its own length (empty rows give nan); integer ragged means are float64.";
    "reduce_any" => Any, "[[True, False], [], [False]]", "True where any element over `axis` is true (bool).";
    "reduce_all" => All, "[[True, False], [], [True]]", "True where every element over `axis` is true (bool).";
    "reduce_variance" => Variance, "[[1.0, 2.0, 3.0], [4.0]]", "The population variance over `axis` (floats).";
    "reduce_std" => Std, "[[1.0, 2.0, 3.0], [4.0]]", "The population standard deviation over `axis` (floats).";
};

fn unary(a: &Args, op: UnaryOp) -> Result<Value> {
    let x = a.value("x");
    let x = match x {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Value::Array(a.array("x", None)?),
        other => other.clone(),
    };
    map_unary(op, &x).map_err(|e| a.err_at("x", e))
}

fn binary(a: &Args, op: BinaryOp) -> Result<Value> {
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

fn tf_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let dims: Vec<usize> = match &*x {
        Array::Dense(t) => t.shape().to_vec(),
        Array::Ragged(r) => r.bounding_shape(),
    };
    Ok(Value::tensor(Tensor::vector(crate::engine::Buffer::I32(
        dims.into_iter().map(|d| d as i32).collect(),
    ))))
}

fn tf_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    Ok(Value::tensor(Tensor::scalar(Scalar::I32(x.rank() as i32))))
}

fn tf_size(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    Ok(Value::tensor(Tensor::scalar(Scalar::I32(
        x.flat_values().size() as i32,
    ))))
}

fn tf_range(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let is_float = |v: &Value| {
        matches!(v, Value::Float(_)) || v.as_dense().is_some_and(|t| t.dtype().is_float())
    };
    let any_float = ["start", "limit", "delta"]
        .iter()
        .any(|n| a.get(n).is_some_and(is_float));
    let dtype = a.dtype("dtype")?.unwrap_or(if any_float {
        DType::Float32
    } else {
        DType::Int32
    });
    let num = |n: &str| -> Result<Option<f64>> {
        a.get(n)
            .map(|v| convert::to_f64(v).map_err(|e| a.err_at(n, e)))
            .transpose()
    };
    let first = num("start")?.unwrap_or(0.0);
    let (start, limit) = match num("limit")? {
        Some(l) => (first, l),
        None => (0.0, first),
    };
    let delta = num("delta")?.unwrap_or(1.0);
    if delta == 0.0 {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            "tf.range needs a nonzero delta",
        )
        .at(a.span("delta")));
    }
    let count = ((limit - start) / delta).ceil().max(0.0);
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
    let s = crate::engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
        .map_err(|e| a.err_at("dtype", e))?;
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
