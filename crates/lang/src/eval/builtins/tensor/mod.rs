//! Dense tensors: construction, dtype conversion, elementwise math and reductions. The
//! tables and the elementwise and reducing kernels' argument handling are here; the
//! constructors and shape functions are in modules by concern.

mod cast;
mod factories;
mod shape;

use self::cast::{astype, cast, constant, convert_to_tensor};
use self::factories::{filled, like, one_hot, tf_fill, tf_range};
use self::shape::{
    shape_as_list, shape_rank, tf_rank, tf_reshape, tf_shape, tf_shape_n, tf_size, tolist,
};
use super::common::{binary_table, dtype_prop, ndim_prop, reduction_axes, shape_prop, unary_table};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::map_unary;
use crate::value::Value;
use ragtag_engine::ops::kernels::{BinaryOp, UnaryOp};
use ragtag_engine::ops::reduce::ReduceOp;
use ragtag_engine::ops::{broadcast, reduce};
use ragtag_engine::ExceptionClass;

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
    Builtin::property("tf.Tensor.shape", shape_prop)
        .doc("The static shape as a TensorShape.")
        .examples(&["tf.constant([[1, 2, 3], [4, 5, 6]]).shape"]),
    Builtin::property("tf.Tensor.dtype", dtype_prop)
        .doc("The element type.")
        .examples(&["tf.constant([1.5]).dtype"]),
    Builtin::property("tf.Tensor.ndim", ndim_prop)
        .doc("The rank (number of dimensions).")
        .examples(&["tf.constant([[1, 2]]).ndim"]),
    Builtin::method("tf.Tensor.tolist", "(self)", tolist)
        .doc("The values as nested Python lists.")
        .examples(&["tf.constant([[1, 2]]).tolist()"]),
    Builtin::method("tf.Tensor.get_shape", "(self)", shape_prop)
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
pub static MATH: &[Builtin] = unary_table! {
    default "[[1.0, 4.0], [9.0]]";
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
pub static BINARY: &[Builtin] = binary_table! {
    example "tf.ragged.constant([[1, 2], [3]]), 2";
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
            ExceptionClass::ValueError,
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
    let (axes, keepdims) = reduction_axes(a)?;
    reduce::reduce(&x, axes.as_deref(), op, keepdims)
        .map(Value::from_array)
        .map_err(|e| a.err_at("axis", e))
}
