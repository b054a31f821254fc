//! Dtypes as values: `tf.as_dtype`, and the properties of a dtype (`tf.uint8.max`,
//! `tf.float16.is_floating`), as TensorFlow's `tf.DType` has them.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{dispatch, DType, ExceptionClass};

/// `tf.as_dtype` and the `tf.DType` properties.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.as_dtype", "(type_value)", as_dtype)
        .doc("The dtype named by `type_value`: a dtype, or a name TensorFlow or NumPy spells ('uint8', 'float16', 'half', 'double', 'string'). An unknown name is a TypeError.")
        .aliases(&["tf.dtypes.as_dtype"])
        .examples(&["tf.as_dtype('uint8')", "tf.as_dtype(tf.float16)"]),
    Builtin::property("tf.DType.name", name)
        .doc("TensorFlow's name of the dtype, as a string.")
        .examples(&["tf.uint8.name"]),
    Builtin::property("tf.DType.is_bool", is_bool)
        .doc("True for tf.bool.")
        .examples(&["tf.bool.is_bool"]),
    Builtin::property("tf.DType.is_integer", is_integer)
        .doc("True for the signed and unsigned integer dtypes.")
        .examples(&["tf.uint16.is_integer"]),
    Builtin::property("tf.DType.is_unsigned", is_unsigned)
        .doc("True for uint8, uint16, uint32 and uint64 (and bool).")
        .examples(&["tf.uint16.is_unsigned", "tf.int16.is_unsigned"]),
    Builtin::property("tf.DType.is_floating", is_floating)
        .doc("True for float16, bfloat16, float32 and float64.")
        .examples(&["tf.bfloat16.is_floating"]),
    Builtin::property("tf.DType.size", size)
        .doc("The bytes one element takes (8 for a string, the size of its handle).")
        .examples(&["tf.float16.size"]),
    Builtin::property("tf.DType.min", min)
        .doc("The lowest value of a numeric dtype (the lowest finite one for floats); a TypeError for strings.")
        .examples(&["tf.int8.min", "tf.float16.min"]),
    Builtin::property("tf.DType.max", max)
        .doc("The largest value of a numeric dtype (the largest finite one for floats); a TypeError for strings. uint64's maximum, past Python ints of 64 bits here, is given as a float.")
        .examples(&["tf.uint8.max", "tf.bfloat16.max"]),
];

fn this(a: &Args) -> DType {
    match a.value("self") {
        Value::DType(d) => *d,
        _ => unreachable!("a tf.DType property's receiver is a dtype"),
    }
}

fn name(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(this(a).name()))
}

fn is_bool(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(this(a) == DType::Bool))
}

fn is_integer(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(this(a).is_int()))
}

fn is_unsigned(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a);
    Ok(Value::Bool(d.is_unsigned() || d == DType::Bool))
}

fn is_floating(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(this(a).is_float()))
}

fn size(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a);
    Ok(Value::Int(if d == DType::String {
        8
    } else {
        d.item_bytes() as i64
    }))
}

/// A limit of `d` as a Python value: ints as ints (uint64's maximum as a float), floats as
/// floats, bool as a bool.
fn limit(d: DType, lowest: bool) -> Result<Value> {
    dispatch!(numbers dtype d, T => {
        let x = if lowest { T::LOWEST } else { T::HIGHEST };
        Ok(if d.is_float() || (d == DType::UInt64 && !lowest) {
            Value::Float(x.to_f64())
        } else {
            Value::Int(x.to_i64())
        })
    },
    DType::Bool => Ok(Value::Bool(!lowest)),
    DType::String => Err(Error::new(
        ExceptionClass::TypeError,
        format!(
            "tf.string has no {}: it is not a numeric dtype",
            if lowest { "min" } else { "max" }
        ),
    )))
}

fn min(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    limit(this(a), true)
}

fn max(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    limit(this(a), false)
}

fn as_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("type_value") {
        Value::DType(d) => Ok(Value::DType(*d)),
        Value::NpType(t) => Ok(Value::DType(t.dtype)),
        Value::Str(s) => DType::parse(s).map(Value::DType).ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!("Cannot convert value '{s}' to a TensorFlow DType"),
            )
            .with_hint("name one of bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, string")
            .at(a.span("type_value"))
        }),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("Cannot convert {} to a TensorFlow DType", other.type_name()),
        )
        .at(a.span("type_value"))),
    }
}
