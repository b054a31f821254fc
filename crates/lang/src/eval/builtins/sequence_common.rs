//! What Paddle's sequence-op builtins share: reading a Variable (in ragtag, a LoDTensor
//! value), Paddle's Python-side type and dtype checks (TypeErrors, as
//! `check_variable_and_dtype` raises them), and NumPy data for `assign`.

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::value::{NdArray, Value};
use ragtag_engine::literal::{self, Flavor};
use ragtag_engine::{Array, DType, ExceptionClass, Lod, Tensor};

/// The hint for a value that is not a Variable.
pub(super) const MAKE_VARIABLE: &str = "Paddle's sequence ops take Variables, which in ragtag are LoDTensors: fluid.create_lod_tensor(data, [[lengths…]], fluid.CPUPlace()) makes one with sequences, fluid.layers.assign(np.array(...)) one without";

/// Argument `name` as a Variable (a LoDTensor); a TypeError names what it is instead.
pub(super) fn var(a: &Args, name: &str, op: &str) -> Result<Arc<Lod>> {
    variable(a.value(name), name, op).map_err(|e| e.at(a.span(name)))
}

/// `v` as a Variable, or a TypeError for the argument `name` of `op`.
pub(super) fn variable(v: &Value, name: &str, op: &str) -> Result<Arc<Lod>> {
    match v {
        Value::Lod(l) => Ok(l.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "The type of '{name}' in {op} must be a Variable (a LoDTensor), not {}",
                other.type_name()
            ),
        )
        .with_hint(MAKE_VARIABLE)),
    }
}

/// Paddle's dtype check: a TypeError unless `t`'s dtype is one of `allowed`.
pub(super) fn check_dtype(
    a: &Args,
    name: &str,
    t: &Tensor,
    allowed: &[DType],
    op: &str,
) -> Result<()> {
    if allowed.contains(&t.dtype()) {
        return Ok(());
    }
    let names: Vec<&str> = allowed.iter().map(|d| d.name()).collect();
    Err(Error::new(
        ExceptionClass::TypeError,
        format!(
            "The data type of '{name}' in {op} must be one of {}, but it is {}",
            names.join(", "),
            t.dtype().name()
        ),
    )
    .at(a.span(name)))
}

/// float32 and float64: what pooling and softmax take.
pub(super) const FLOATS: &[DType] = &[DType::Float32, DType::Float64];
/// The dtypes most sequence ops take.
pub(super) const NUMBERS: &[DType] = &[DType::Float32, DType::Float64, DType::Int32, DType::Int64];
/// Ids, offsets and lengths.
pub(super) const INTS: &[DType] = &[DType::Int32, DType::Int64];

/// A LoDTensor value.
pub(super) fn lod_value(l: Lod) -> Value {
    Value::Lod(Arc::new(l))
}

/// A tensor as a LoDTensor without LoD (what Paddle fetches for a plain tensor).
pub(super) fn plain(t: Tensor) -> Result<Value> {
    Ok(lod_value(Lod::new(t, Vec::new())?))
}

/// The data `paddle.assign` takes from NumPy: an array, or a list read as `np.array` reads
/// it (Python ints int64, floats float64).
pub(super) fn numpy_data(v: &Value) -> Result<Tensor> {
    match v {
        Value::NdArray(n) => match &**n {
            NdArray::Dense(t) => Ok(t.clone()),
            NdArray::Object(..) => Err(Error::new(
                ExceptionClass::TypeError,
                "assign takes a NumPy array of numbers or bools, not of objects",
            )),
        },
        Value::Array(a) => match &**a {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(Error::new(
                ExceptionClass::TypeError,
                "assign takes a NumPy array, not a ragged tensor",
            )
            .with_hint("to_lod(rt) turns a ragged tensor into a LoDTensor")),
        },
        Value::List(_) | Value::Tuple(_) => {
            let n = convert::to_nested(v)?;
            Ok(literal::constant(&n, None, Flavor::NumPy)?)
        }
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "assign takes a NumPy array, a list or a LoDTensor, not {}",
                other.type_name()
            ),
        )),
    }
}
