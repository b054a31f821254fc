//! Types and specs as values: `tf.TensorShape`, `tf.DType`, `tf.type_spec_from_value`,
//! `RaggedTensor.get_shape`, `tf.SparseTensor.from_value`, and `tf.bitcast`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::{TypeSpec, Value};
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Scalar, Tensor};
use std::sync::Arc;

/// The type builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.TensorShape", "(dims)", tensor_shape)
        .doc("A shape: a list (or tuple) of sizes where None is an unknown size, or one size. `.rank`, `.as_list()` and `==` work as on a tensor's `.shape`; `isinstance(x.shape, tf.TensorShape)` is True. (A shape of unknown rank, TensorShape(None), is not supported.)")
        .examples(&["tf.TensorShape([2, None])", "tf.TensorShape([2, None]).rank"]),
    Builtin::function("tf.DType", "(type_enum)", dtype_class)
        .doc("The class of dtypes (`isinstance(tf.int32, tf.DType)` is True); called with TensorFlow's DataType number it gives that dtype (1 is tf.float32, 3 tf.int32, 9 tf.int64, 10 tf.bool, …).")
        .examples(&["tf.DType(3)", "isinstance(tf.float32, tf.DType)"]),
    Builtin::function("tf.type_spec_from_value", "(value)", type_spec_from_value)
        .doc("The type spec of a value: a TensorSpec for a tensor (or a Python value a tensor can be made of), a RaggedTensorSpec for a RaggedTensor, a SparseTensorSpec for a SparseTensor.")
        .examples(&[
            "tf.type_spec_from_value(tf.constant([1, 2]))",
            "tf.type_spec_from_value(tf.ragged.constant([[1, 2], [3]]))",
        ]),
    Builtin::method("tf.RaggedTensor.get_shape", "(self)", get_shape)
        .doc("The static shape, as `rt.shape`: None for the ragged dimensions.")
        .examples(&["tf.ragged.constant([[1, 2], [3]]).get_shape()"]),
    Builtin::function("tf.SparseTensor.from_value", "(sparse_tensor_value)", sparse_from_value)
        .doc("The SparseTensor itself (TensorFlow's conversion of SparseTensorValues); anything else is a TypeError.")
        .examples(&["tf.SparseTensor.from_value(tf.sparse.from_dense([[1, 0], [0, 2]]))"]),
    Builtin::function("tf.bitcast", "(input, type, name=None)", bitcast)
        .doc("The same bytes read as another dtype: to a narrower dtype the result gains a last axis (float32 to uint8: 4 bytes each); to a wider one the last axis, which must hold exactly the bytes of one element, goes away. A RaggedTensor bitcasts its flat values. Bytes are little-endian, as on x86 and ARM.")
        .examples(&[
            "tf.bitcast(tf.constant([1.0, 2.0]), tf.int32)",
            "tf.bitcast(tf.constant([1, 2], tf.int32), tf.uint8)",
            "tf.bitcast(tf.ragged.constant([[1.0], [2.0, 3.0]]), tf.int32)",
        ]),
];

fn tensor_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("dims");
    let dim = |x: &Value| -> Result<Option<usize>> {
        match x {
            Value::None => Ok(None),
            Value::Int(i) if *i >= 0 => Ok(Some(*i as usize)),
            Value::Int(i) => Err(Error::new(
                ExceptionClass::ValueError,
                format!("Dimension {i} must be >= 0"),
            )
            .at(a.span("dims"))),
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "Failed to convert {} to a shape: a shape is a single size or a list of sizes and None",
                    crate::render::tf_text::repr_of(other)
                ),
            )
            .at(a.span("dims"))),
        }
    };
    let dims = match v {
        Value::Shape(s) => (**s).clone(),
        Value::None => {
            return Err(Error::new(
                ExceptionClass::UnimplementedError,
                "ragtag has no TensorShape of unknown rank (TensorShape(None))",
            )
            .at(a.span("dims"))
            .with_hint(
                "give the sizes, with None for the unknown ones: tf.TensorShape([None, None])",
            ))
        }
        Value::List(_) | Value::Tuple(_) => crate::value::subscript_items(v)
            .iter()
            .map(dim)
            .collect::<Result<_>>()?,
        Value::Array(_) => a
            .ints("dims")?
            .into_iter()
            .map(|i| Some(i.max(0) as usize))
            .collect(),
        other => vec![dim(other)?],
    };
    Ok(Value::Shape(Arc::new(dims)))
}

fn dtype_class(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = match a.value("type_enum") {
        Value::Int(n) => *n,
        Value::DType(d) => return Ok(Value::DType(*d)),
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "invalid literal for int() with base 10: {}",
                    crate::render::tf_text::repr_of(other)
                ),
            )
            .at(a.span("type_enum"))
            .with_hint("tf.DType takes TensorFlow's DataType number, e.g. tf.DType(3) is tf.int32; for a name use tf.dtypes.as_dtype('int32')"))
        }
    };
    // tensorflow/core/framework/types.proto's DataType numbers.
    let d = match n {
        1 => DType::Float32,
        2 => DType::Float64,
        3 => DType::Int32,
        4 => DType::UInt8,
        5 => DType::Int16,
        6 => DType::Int8,
        7 => DType::String,
        9 => DType::Int64,
        10 => DType::Bool,
        14 => DType::BFloat16,
        17 => DType::UInt16,
        19 => DType::Float16,
        22 => DType::UInt32,
        23 => DType::UInt64,
        _ => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{n} does not correspond to a valid tensorflow::DataType"),
            )
            .at(a.span("type_enum")))
        }
    };
    Ok(Value::DType(d))
}

fn type_spec_from_value(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("value");
    match v {
        Value::None => {
            return Ok(Value::Opaque(crate::value::ThinStr::from(
                "NoneTensorSpec()",
            )))
        }
        Value::Sparse(s) => {
            let dims: Vec<String> = s.dense_shape().iter().map(|d| d.to_string()).collect();
            return Ok(Value::Opaque(crate::value::ThinStr::from(format!(
                "SparseTensorSpec(TensorShape([{}]), tf.{})",
                dims.join(", "),
                s.values().dtype().name()
            ))));
        }
        _ => {}
    }
    let arr = convert::to_array(v, None).map_err(|e| a.err_at("value", e))?;
    Ok(Value::Spec(Arc::new(match &*arr {
        Array::Ragged(r) => TypeSpec {
            ragged: true,
            shape: Some(r.shape()),
            dtype: r.dtype(),
            ragged_rank: r.ragged_rank(),
            row_splits_dtype: r.outer().splits_dtype(),
        },
        Array::Dense(t) => TypeSpec {
            ragged: false,
            shape: Some(t.shape().iter().map(|&d| Some(d)).collect()),
            dtype: t.dtype(),
            ragged_rank: 0,
            row_splits_dtype: DType::Int64,
        },
    })))
}

fn get_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Shape(Arc::new(a.array("self", None)?.shape())))
}

fn sparse_from_value(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("sparse_tensor_value") {
        v @ Value::Sparse(_) => Ok(v.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "Argument sparse_tensor_value={} is neither a SparseTensor nor SparseTensorValue.",
                crate::render::tf_text::str_of(other)
            ),
        )
        .at(a.span("sparse_tensor_value"))
        .with_hint("make one with tf.sparse.from_dense(x)")),
    }
}

/// One element's little-endian bytes.
fn bytes_of(s: &Scalar, out: &mut Vec<u8>) {
    match s {
        Scalar::I8(x) => out.extend(x.to_le_bytes()),
        Scalar::U8(x) => out.extend(x.to_le_bytes()),
        Scalar::I16(x) => out.extend(x.to_le_bytes()),
        Scalar::U16(x) => out.extend(x.to_le_bytes()),
        Scalar::F16(x) => out.extend(x.to_bits().to_le_bytes()),
        Scalar::BF16(x) => out.extend(x.to_bits().to_le_bytes()),
        Scalar::I32(x) => out.extend(x.to_le_bytes()),
        Scalar::U32(x) => out.extend(x.to_le_bytes()),
        Scalar::F32(x) => out.extend(x.to_le_bytes()),
        Scalar::I64(x) => out.extend(x.to_le_bytes()),
        Scalar::U64(x) => out.extend(x.to_le_bytes()),
        Scalar::F64(x) => out.extend(x.to_le_bytes()),
        Scalar::Bool(_) | Scalar::Str(_) => {}
    }
}

/// An element of `dtype` from its little-endian bytes.
fn scalar_of(dtype: DType, b: &[u8]) -> Scalar {
    let a2 = || [b[0], b[1]];
    let a4 = || [b[0], b[1], b[2], b[3]];
    let a8 = || [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]];
    match dtype {
        DType::Int8 => Scalar::I8(i8::from_le_bytes([b[0]])),
        DType::UInt8 => Scalar::U8(b[0]),
        DType::Int16 => Scalar::I16(i16::from_le_bytes(a2())),
        DType::UInt16 => Scalar::U16(u16::from_le_bytes(a2())),
        DType::Float16 => Scalar::F16(ragtag_engine::f16::from_bits(u16::from_le_bytes(a2()))),
        DType::BFloat16 => Scalar::BF16(ragtag_engine::bf16::from_bits(u16::from_le_bytes(a2()))),
        DType::Int32 => Scalar::I32(i32::from_le_bytes(a4())),
        DType::UInt32 => Scalar::U32(u32::from_le_bytes(a4())),
        DType::Float32 => Scalar::F32(f32::from_le_bytes(a4())),
        DType::Int64 => Scalar::I64(i64::from_le_bytes(a8())),
        DType::UInt64 => Scalar::U64(u64::from_le_bytes(a8())),
        _ => Scalar::F64(f64::from_le_bytes(a8())),
    }
}

fn bitcast_tensor(t: &Tensor, to: DType) -> std::result::Result<Tensor, Exception> {
    for d in [t.dtype(), to] {
        if matches!(d, DType::Bool | DType::String) {
            return Err(ragtag_engine::invalid_arg!(
                "Value for attr 'T' of {d} is not in the list of allowed values: bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16"
            ));
        }
    }
    let (from_size, to_size) = (t.dtype().item_bytes(), to.item_bytes());
    let mut shape = t.shape().to_vec();
    if from_size > to_size {
        shape.push(from_size / to_size);
    } else if from_size < to_size {
        if shape.last() != Some(&(to_size / from_size)) {
            return Err(ragtag_engine::invalid_arg!(
                "Cannot bitcast from {from_size} to {to_size}: the last dimension must be {}",
                to_size / from_size
            ));
        }
        shape.pop();
    }
    let mut bytes = ragtag_engine::budget::vec::<u8>("tf.bitcast", t.size() * from_size)?;
    for i in 0..t.size() {
        bytes_of(&t.data().get(i), &mut bytes);
    }
    let n = bytes.len() / to_size;
    let mut out = Buffer::with_capacity("tf.bitcast", to, n, 0)?;
    for c in bytes.chunks(to_size) {
        out.push(&scalar_of(to, c));
    }
    Tensor::new(shape, out)
}

fn bitcast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let to = a.dtype("type")?.ok_or_else(|| {
        Error::new(ExceptionClass::TypeError, "bitcast needs a dtype as `type`").at(a.span("type"))
    })?;
    let arr = a.array("input", None)?;
    let err = |e: Exception| Error::from(e).at(a.call);
    match &*arr {
        Array::Dense(t) => bitcast_tensor(t, to).map(Value::tensor).map_err(err),
        Array::Ragged(r) => {
            let fv = bitcast_tensor(r.flat_values(), to).map_err(err)?;
            r.with_flat_values(fv).map(Value::ragged).map_err(err)
        }
    }
}
