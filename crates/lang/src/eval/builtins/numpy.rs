//! NumPy arrays: `np.array` and friends, `x.numpy()`, and the array's own attributes.
//! Arrays follow NumPy's defaults (Python ints are int64, floats float64) and print as
//! NumPy does; they convert wherever a tensor is expected.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::np_type::NpType;
use crate::value::{NdArray, Value};
use ragtag_engine::literal::{self, Flavor};
use ragtag_engine::{Array, DType, ExceptionClass, Scalar, Tensor};

/// NumPy functions and the methods of arrays.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.array", "(object, dtype=None)", np_array)
        .doc("A NumPy array: Python ints become int64 and floats float64, as in NumPy; a tensor keeps its dtype (a LoDTensor gives its data block as a dense tensor).")
        .aliases(&["np.asarray"])
        .examples(&["np.array([[1, 2], [3, 4]])", "np.asarray(tf.constant([1.5]))"]),
    Builtin::function("np.zeros", "(shape, dtype=None)", |_, a| filled(a, 0))
        .doc("A NumPy array of zeros (float64 unless `dtype` says otherwise).")
        .examples(&["np.zeros([2, 3], dtype=np.int32)"]),
    Builtin::function("np.ones", "(shape, dtype=None)", |_, a| filled(a, 1))
        .doc("A NumPy array of ones (float64 unless `dtype` says otherwise).")
        .examples(&["np.ones(3)"]),
    Builtin::function("np.arange", "(start, stop=None, step=None, dtype=None)", arange)
        .doc("Evenly spaced values from `start` (or 0) up to `stop`: int64 for ints, float64 when any bound is a float.")
        .examples(&["np.arange(5)", "np.arange(1, 2, 0.25)"]),
    Builtin::function("np.concatenate", "(arrays, axis=0)", concatenate)
        .doc("The arrays joined along an existing axis.")
        .examples(&["np.concatenate([np.array([1, 2]), np.array([3])])"]),
    Builtin::function("np.stack", "(arrays, axis=0)", stack)
        .doc("The arrays (all of one shape) stacked along a new axis.")
        .examples(&["np.stack([np.array([1, 2]), np.array([3, 4])], axis=1)"]),
    Builtin::method("tf.Tensor.numpy", "(self)", tensor_numpy)
        .doc("The values as a NumPy array (a NumPy scalar for a scalar tensor).")
        .examples(&["tf.constant([3, 4, 5]).numpy()", "tf.constant(3).numpy()"]),
    Builtin::method("tf.RaggedTensor.numpy", "(self)", tensor_numpy)
        .doc("The rows as a NumPy object array of row arrays, as TensorFlow returns.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).numpy()"]),
    Builtin::property("np.ndarray.shape", nd_shape)
        .doc("The dimensions as a tuple of ints.")
        .examples(&["np.zeros([2, 3]).shape"]),
    Builtin::property("np.ndarray.dtype", nd_dtype)
        .doc("The element type.")
        .examples(&["np.array([1, 2]).dtype"]),
    Builtin::property("np.ndarray.ndim", nd_ndim)
        .doc("The number of dimensions.")
        .examples(&["np.zeros([2, 3]).ndim"]),
    Builtin::property("np.ndarray.size", nd_size)
        .doc("The number of elements.")
        .examples(&["np.zeros([2, 3]).size"]),
    Builtin::method("np.ndarray.tolist", "(self)", nd_tolist)
        .doc("The elements as nested Python lists (a Python scalar for a 0-d array).")
        .examples(&["tf.constant([[1, 2], [3, 4]]).numpy().tolist()"]),
    Builtin::method("np.ndarray.astype", "(self, dtype)", nd_astype)
        .doc("The same elements converted to `dtype`.")
        .examples(&["np.array([1, 2]).astype(np.float32)"]),
];

/// A dense NumPy array value.
pub fn nd(t: Tensor) -> Value {
    Value::NdArray(Arc::new(NdArray::Dense(t)))
}

/// A tensor as NumPy gives it back: a dense array, or an object array of row arrays.
pub fn array_to_nd(a: &Array) -> Result<Value> {
    // A string scalar's `.numpy()` is a Python bytes, as TensorFlow gives it.
    if let Array::Dense(t) = a {
        if t.rank() == 0 && t.dtype() == ragtag_engine::DType::String {
            return Ok(crate::value::scalar_to_value(t.data().get(0)));
        }
    }
    Ok(Value::NdArray(Arc::new(convert::array_to_ndarray(a)?)))
}

fn self_nd(a: &Args) -> Result<&NdArray> {
    match a.value("self") {
        Value::NdArray(n) => Ok(n),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("expected a NumPy array, got a {}", other.type_name()),
        )
        .at(a.call)),
    }
}

fn np_array(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?;
    let v = a.value("object");
    let t = match v {
        Value::NdArray(n) => match &**n {
            NdArray::Dense(t) => t.clone(),
            NdArray::Object(..) if dtype.is_none() => return Ok(v.clone()),
            NdArray::Object(..) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "setting an array element with a sequence: the rows differ in length",
                )
                .at(a.span("object")))
            }
        },
        // The seed conformance cases show a LoDTensor's data block as a dense tensor.
        Value::Lod(l) => return Ok(Value::tensor(l.data().clone())),
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => t.clone(),
            Array::Ragged(_) => return array_to_nd(arr).map_err(|e| e.at(a.span("object"))),
        },
        // A large block of numbers read into columns, when rectangular.
        Value::List(l)
            if l.cached_literal()
                .and_then(|lit| lit.columns().and_then(|c| c.rect_shape()))
                .is_some() =>
        {
            let lit = l.cached_literal().expect("matched above");
            match lit.columns().and_then(|c| c.to_array(None, Flavor::NumPy)) {
                Some(Ok(Array::Dense(t))) => t,
                Some(Err(e)) => return Err(a.err_at("object", e)),
                _ => unreachable!("a rectangular literal in columns is a dense tensor"),
            }
        }
        _ => {
            let n = convert::to_nested(v).map_err(|e| a.err_at("object", e))?;
            literal::constant(&n, None, Flavor::NumPy).map_err(|e| a.err_at("object", e))?
        }
    };
    match dtype {
        Some(d) => cast(&t, d).map(nd).map_err(|e| e.at(a.span("dtype"))),
        None => Ok(nd(t)),
    }
}

fn cast(t: &Tensor, d: DType) -> Result<Tensor> {
    if t.dtype() == d {
        return Ok(t.clone());
    }
    Ok(Tensor::from_parts(
        t.shape().to_vec(),
        ragtag_engine::ops::cast::cast_buffer(t.data(), d)?,
    ))
}

fn shape_arg(a: &Args) -> Result<Vec<usize>> {
    let dims = match a.value("shape") {
        Value::Int(n) => vec![*n],
        _ => a.ints("shape")?,
    };
    dims.into_iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                Error::new(
                    ExceptionClass::ValueError,
                    "negative dimensions are not allowed",
                )
                .at(a.span("shape"))
            })
        })
        .collect()
}

fn filled(a: &Args, one: i64) -> Result<Value> {
    let dims = shape_arg(a)?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float64);
    let s = ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
        .map_err(|e| a.err_at("dtype", e))?;
    Tensor::filled(a.builtin().name, dims, &s)
        .map(nd)
        .map_err(|e| a.err_at("shape", e))
}

fn arange(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let any_float = ["start", "stop", "step"]
        .iter()
        .any(|n| matches!(a.get(n), Some(Value::Float(_))));
    let num = |n: &str| -> Result<Option<f64>> {
        match a.get(n) {
            None | Some(Value::None) => Ok(None),
            Some(v) => convert::to_f64(v).map(Some).map_err(|e| a.err_at(n, e)),
        }
    };
    let first = num("start")?.unwrap_or(0.0);
    let (start, stop) = match num("stop")? {
        Some(s) => (first, s),
        None => (0.0, first),
    };
    let step = num("step")?.unwrap_or(1.0);
    if step == 0.0 {
        return Err(Error::new(ExceptionClass::ZeroDivisionError, "division by zero").at(a.call));
    }
    let count = ((stop - start) / step).ceil().max(0.0);
    if !count.is_finite() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "arange needs finite start, stop and step",
        )
        .at(a.call));
    }
    ragtag_engine::budget::check("np.arange", count as u128, 16)
        .map_err(|e| Error::from(e).at(a.call))?;
    let n = count as usize;
    let default = if any_float {
        DType::Float64
    } else {
        DType::Int64
    };
    let dtype = a.dtype("dtype")?.unwrap_or(default);
    let t = if any_float {
        let mut values: Vec<f64> =
            ragtag_engine::budget::vec("np.arange", n).map_err(|e| Error::from(e).at(a.call))?;
        ragtag_engine::interrupt::for_chunks(n, |chunk| {
            values.extend(chunk.map(|i| start + i as f64 * step))
        })
        .map_err(|e| Error::from(e).at(a.call))?;
        Tensor::vector(ragtag_engine::Buffer::F64(values.into()))
    } else {
        let (s, st) = (start as i64, step as i64);
        let mut values: Vec<i64> =
            ragtag_engine::budget::vec("np.arange", n).map_err(|e| Error::from(e).at(a.call))?;
        ragtag_engine::interrupt::for_chunks(n, |chunk| {
            values.extend(chunk.map(|i| s.wrapping_add((i as i64).wrapping_mul(st))))
        })
        .map_err(|e| Error::from(e).at(a.call))?;
        Tensor::vector(ragtag_engine::Buffer::I64(values.into()))
    };
    cast(&t, dtype).map(nd).map_err(|e| e.at(a.call))
}

/// The arrays of a `np.concatenate` / `np.stack` argument, promoted to one dtype.
fn array_list(a: &Args) -> Result<Vec<Tensor>> {
    let items =
        crate::eval::subscript::iterate(a.value("arrays")).map_err(|e| a.err_at("arrays", e))?;
    if items.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "need at least one array to concatenate",
        )
        .at(a.span("arrays")));
    }
    let mut ts = Vec::new();
    for item in &items {
        let t = match item {
            Value::NdArray(n) => match &**n {
                NdArray::Dense(t) => t.clone(),
                NdArray::Object(..) => {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        "object arrays (rows of a RaggedTensor) cannot be joined here",
                    )
                    .at(a.span("arrays")))
                }
            },
            Value::Array(arr) => match &**arr {
                Array::Dense(t) => t.clone(),
                Array::Ragged(_) => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "a RaggedTensor is not a rectangular array",
                    )
                    .at(a.span("arrays")))
                }
            },
            other => {
                let n = convert::to_nested(other).map_err(|e| a.err_at("arrays", e))?;
                literal::constant(&n, None, Flavor::NumPy).map_err(|e| a.err_at("arrays", e))?
            }
        };
        ts.push(t);
    }
    let mut d = ts[0].dtype();
    for t in &ts[1..] {
        d = promote(d, t.dtype());
    }
    ts.iter()
        .map(|t| cast(t, d).map_err(|e| e.at(a.span("arrays"))))
        .collect()
}

/// NumPy's promotion of two array dtypes (`np.result_type`): within a kind the wider type;
/// a signed and an unsigned int meet in the smallest signed int that holds both (uint64
/// with a signed int is float64); an int and a float in the float that holds the int's
/// values (8-bit ints: float16, 16-bit: float32, wider: float64) or the float, whichever
/// is wider; strings win.
pub(crate) fn promote(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let by_size = |x: DType, y: DType| {
        if x.item_bytes() >= y.item_bytes() {
            x
        } else {
            y
        }
    };
    // The narrowest float that holds every value of an int type (as NumPy's table has it).
    let float_for = |d: DType| match d.item_bytes() {
        1 => Float16,
        2 => Float32,
        _ => Float64,
    };
    match (a, b) {
        (String, _) | (_, String) => String,
        (Bool, d) | (d, Bool) => d,
        (BFloat16, d) | (d, BFloat16) if d.is_float() => by_size(d, Float32).max(Float32),
        (x, y) if x.is_float() && y.is_float() => by_size(x, y),
        (x, y) if x.is_float() || y.is_float() => {
            let (f, i) = if x.is_float() { (x, y) } else { (y, x) };
            by_size(f, float_for(i))
        }
        (x, y) if x.is_unsigned() == y.is_unsigned() => by_size(x, y),
        (x, y) => {
            let (u, i) = if x.is_unsigned() { (x, y) } else { (y, x) };
            match u.item_bytes() {
                8 => Float64,
                n if i.item_bytes() > n => i,
                1 => Int16,
                2 => Int32,
                _ => Int64,
            }
        }
    }
}

fn concatenate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let ts = array_list(a)?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    let axis = a.opt_int("axis")?.unwrap_or(0);
    ragtag_engine::ops::concat::concat_dense(&refs, axis)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn stack(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let ts = array_list(a)?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    let axis = a.opt_int("axis")?.unwrap_or(0);
    ragtag_engine::ops::concat::stack_dense(&refs, axis)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn tensor_numpy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("self", None)?;
    array_to_nd(&x).map_err(|e| e.at(a.call))
}

fn nd_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tuple(
        self_nd(a)?
            .shape()
            .into_iter()
            .map(|d| Value::Int(d as i64))
            .collect(),
    ))
}

fn nd_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match self_nd(a)? {
        NdArray::Dense(t) => Value::NpType(NpType::dtype(t.dtype())),
        NdArray::Object(..) => Value::NpType(NpType::dtype(ragtag_engine::DType::String)),
    })
}

fn nd_ndim(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(self_nd(a)?.shape().len() as i64))
}

fn nd_size(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(
        self_nd(a)?.shape().iter().product::<usize>() as i64
    ))
}

fn nd_tolist(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(tolist(self_nd(a)?))
}

fn tolist(n: &NdArray) -> Value {
    match n {
        NdArray::Dense(t) if t.rank() == 0 => crate::value::scalar_to_value(t.data().get(0)),
        NdArray::Dense(t) => convert::array_to_list(&Array::Dense(t.clone())),
        NdArray::Object(items, _) => Value::list(items.to_vec()),
    }
}

fn nd_astype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a
        .dtype("dtype")?
        .ok_or_else(|| Error::new(ExceptionClass::TypeError, "astype needs a dtype").at(a.call))?;
    match self_nd(a)? {
        NdArray::Dense(t) => cast(t, d).map(nd).map_err(|e| e.at(a.span("dtype"))),
        NdArray::Object(..) => Err(Error::new(
            ExceptionClass::ValueError,
            "setting an array element with a sequence: the rows differ in length",
        )
        .at(a.call)),
    }
}

#[cfg(test)]
mod promote_tests {
    use super::promote;
    use ragtag_engine::DType::*;

    /// np.result_type's table for pairs of NumPy's types (NumPy 2.3).
    #[test]
    fn promotion_follows_numpys_table() {
        for (a, b, want) in [
            (UInt8, Int8, Int16),
            (UInt16, Int8, Int32),
            (UInt32, Int16, Int64),
            (UInt64, Int64, Float64),
            (UInt8, Int32, Int32),
            (UInt8, UInt32, UInt32),
            (Int8, Float16, Float16),
            (Int16, Float16, Float32),
            (UInt32, Float32, Float64),
            (Int64, Float32, Float64),
            (Float16, Float64, Float64),
            (Bool, UInt8, UInt8),
            (Int32, String, String),
        ] {
            assert_eq!(promote(a, b), want, "{a} with {b}");
            assert_eq!(promote(b, a), want, "{b} with {a}");
        }
    }
}
