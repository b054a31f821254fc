//! NumPy arithmetic: NumPy's dtype rules (NEP 50 weak Python scalars), and NumPy arrays
//! beside tensors.

use std::sync::Arc;

use super::{convert, kernel_op};
use crate::value::Value;
use ragtag_engine::ops::broadcast;
use ragtag_engine::type_error;
use ragtag_engine::{Array, Exception, ExceptionClass, Tensor};
use ragtag_syntax::ast::BinOp;

/// A tensor operand; a NumPy array beside a tensor takes the tensor's numeric dtype, as
/// TensorFlow converts it (`tf.constant([1]) + np.array([1.5])` is int32).
pub(super) fn numpy_as(
    v: &Value,
    hint: Option<ragtag_engine::DType>,
) -> Result<Arc<Array>, Exception> {
    let x = convert::to_array(v, hint)?;
    match (v, hint, &*x) {
        (Value::NdArray(_), Some(d), Array::Dense(t))
            if d != t.dtype() && d.is_numeric() && t.dtype().is_numeric() =>
        {
            Ok(Arc::new(Array::Dense(Tensor::from_parts(
                t.shape().to_vec(),
                ragtag_engine::ops::cast::cast_buffer(t.data(), d)?,
            ))))
        }
        _ => Ok(x),
    }
}

/// An operand of NumPy arithmetic: its elements, and whether it is a Python scalar (a
/// "weak" type that takes the array's dtype where it fits, as NumPy 2 does).
pub(crate) fn numpy_operand(v: &Value) -> Result<(Tensor, bool), Exception> {
    use ragtag_engine::Scalar;
    Ok(match v {
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => (t.clone(), false),
            crate::value::NdArray::Object(..) => {
                return Err(type_error!(
                    "arithmetic on an object array (the rows of a RaggedTensor) is not supported"
                )
                .with_hint("compute on the RaggedTensor itself, then call .numpy()"))
            }
        },
        Value::Bool(x) => (Tensor::scalar(Scalar::Bool(*x)), true),
        Value::Int(x) => (Tensor::scalar(Scalar::I64(*x)), true),
        Value::Float(x) => (Tensor::scalar(Scalar::F64(*x)), true),
        Value::List(_) | Value::Tuple(_) => {
            let n = convert::to_nested(v)?;
            (
                ragtag_engine::literal::constant(&n, None, ragtag_engine::literal::Flavor::NumPy)?,
                false,
            )
        }
        other => {
            return Err(type_error!(
                "unsupported operand type for a NumPy array: '{}'",
                other.type_name()
            ))
        }
    })
}

/// NumPy's result dtype for two operands (NEP 50: a Python scalar adapts to the array).
fn numpy_result_dtype(
    a: ragtag_engine::DType,
    weak_a: bool,
    b: ragtag_engine::DType,
    weak_b: bool,
) -> Result<ragtag_engine::DType, Exception> {
    use ragtag_engine::DType as D;
    if a == D::String || b == D::String {
        return Err(type_error!(
            "NumPy arithmetic needs numbers, not strings (dtypes {a} and {b})"
        ));
    }
    let rank = |d: D| match d {
        D::Bool => 0,
        _ if d.is_int() => 1,
        _ => 2,
    };
    if weak_a != weak_b {
        let (strong, weak) = if weak_a { (b, a) } else { (a, b) };
        return Ok(if rank(weak) <= rank(strong) {
            strong
        } else if weak == D::Float64 {
            D::Float64
        } else {
            D::Int64
        });
    }
    Ok(crate::eval::builtins::numpy::promote(a, b))
}

/// Elementwise NumPy arithmetic with NumPy's dtype rules; the result is a NumPy array.
pub(super) fn numpy_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Exception> {
    let k = kernel_op(op)
        .ok_or_else(|| type_error!("operator {op} is not defined for NumPy arrays"))?;
    numpy_kernel(k, a, b, matches!(op, BinOp::Div))
}

/// Elementwise kernel `k` on two NumPy operands with NumPy's dtype rules (`true_div`: the
/// result is a float even for ints, as `/` gives); the result is a NumPy array.
pub(crate) fn numpy_kernel(
    k: ragtag_engine::ops::kernels::BinaryOp,
    a: &Value,
    b: &Value,
    true_div: bool,
) -> Result<Value, Exception> {
    use ragtag_engine::DType as D;
    let (x, wx) = numpy_operand(a)?;
    let (y, wy) = numpy_operand(b)?;
    let mut d = numpy_result_dtype(x.dtype(), wx, y.dtype(), wy)?;
    if true_div && !d.is_float() {
        d = D::Float64;
    }
    let cast = |t: Tensor| -> Result<Array, Exception> {
        if t.dtype() == d {
            return Ok(Array::Dense(t));
        }
        Ok(Array::Dense(Tensor::from_parts(
            t.shape().to_vec(),
            ragtag_engine::ops::cast::cast_buffer(t.data(), d)?,
        )))
    };
    // NumPy reports shapes that do not broadcast as a ValueError.
    let out = broadcast::binary(k, &cast(x)?, &cast(y)?).map_err(|mut e| {
        if e.class == ExceptionClass::InvalidArgumentError {
            e.class = ExceptionClass::ValueError;
        }
        e
    })?;
    match out {
        Array::Dense(t) => Ok(Value::NdArray(Arc::new(crate::value::NdArray::Dense(t)))),
        Array::Ragged(_) => Err(type_error!("a NumPy array has no ragged dimensions")),
    }
}

/// An operand of NumPy's `matmul`: a tensor converts as `np.asarray` would (a ragged one
/// cannot), anything else as in NumPy arithmetic.
fn matmul_operand(v: &Value) -> Result<Tensor, Exception> {
    match v {
        Value::Array(a) => match &**a {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(type_error!(
                "np.matmul needs rectangular arrays, not a RaggedTensor"
            )
            .with_hint("use tf.linalg.matmul (or @) on the RaggedTensor itself")),
        },
        _ => numpy_operand(v).map(|(t, _)| t),
    }
}

/// NumPy's `matmul` (`a @ b` on arrays, `np.matmul`): both operands take NumPy's common
/// dtype (int32 with float32 is float64), vectors are allowed, and the result is a NumPy
/// array (a NumPy scalar for two vectors).
pub fn numpy_matmul(a: &Value, b: &Value) -> Result<Value, Exception> {
    let x = matmul_operand(a)?;
    let y = matmul_operand(b)?;
    let d = numpy_result_dtype(x.dtype(), false, y.dtype(), false).map_err(|e| {
        type_error!(
            "ufunc 'matmul' did not contain a loop with signature matching types: {}",
            e.message
        )
    })?;
    let cast = |t: Tensor| -> Result<Tensor, Exception> {
        if t.dtype() == d {
            return Ok(t);
        }
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            ragtag_engine::ops::cast::cast_buffer(t.data(), d)?,
        ))
    };
    let out = ragtag_engine::ops::matmul::numpy_matmul(&cast(x)?, &cast(y)?)?;
    Ok(Value::NdArray(Arc::new(crate::value::NdArray::Dense(out))))
}
