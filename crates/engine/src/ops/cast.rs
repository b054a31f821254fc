//! `tf.cast`: converting elements between dtypes.

use crate::buffer::{Buffer, Scalar};
use crate::dtype::DType;
use crate::error::Result;
use crate::interrupt;
use crate::strings::StringBuf;
use crate::type_error;

/// Converts a scalar to `dtype` (numbers and bools between each other; strings only to strings).
pub fn cast_scalar(s: &Scalar, dtype: DType) -> Result<Scalar> {
    let b = Buffer::filled(s, 1);
    Ok(cast_buffer(&b, dtype)?.get(0))
}

/// Converts every element to `dtype`, as `tf.cast` does (floats truncate toward zero when
/// cast to ints; nonzero is `True`). An interrupt stops it part-way.
pub fn cast_buffer(b: &Buffer, dtype: DType) -> Result<Buffer> {
    let out = cast_unchecked(b, dtype)?;
    interrupt::check()?;
    Ok(out)
}

fn cast_unchecked(b: &Buffer, dtype: DType) -> Result<Buffer> {
    if b.dtype() == dtype {
        return Ok(b.clone());
    }
    macro_rules! from_num {
        ($v:expr) => {
            match dtype {
                DType::Bool => Buffer::Bool(interrupt::map(&$v, |x| x as f64 != 0.0).into()),
                DType::Int32 => Buffer::I32(interrupt::map(&$v, |x| x as i32).into()),
                DType::Int64 => Buffer::I64(interrupt::map(&$v, |x| x as i64).into()),
                DType::Float32 => Buffer::F32(interrupt::map(&$v, |x| x as f32).into()),
                DType::Float64 => Buffer::F64(interrupt::map(&$v, |x| x as f64).into()),
                DType::String => {
                    return Err(type_error!(
                        "Cannot cast {} to string: use tf.strings.as_string",
                        b.dtype()
                    ))
                }
            }
        };
    }
    Ok(match b {
        Buffer::Bool(v) => {
            let ints: Vec<i64> = interrupt::map(v, i64::from);
            from_num!(ints)
        }
        Buffer::I32(v) => from_num!(v),
        Buffer::I64(v) => from_num!(v),
        Buffer::F32(v) => from_num!(v),
        Buffer::F64(v) => from_num!(v),
        Buffer::Str(_) => {
            return Err(type_error!(
                "Cannot cast string to {dtype}: use tf.strings.to_number"
            ))
        }
    })
}

/// Formats numbers as strings (`tf.strings.as_string`).
pub fn as_string(b: &Buffer) -> Result<StringBuf> {
    let mut out = StringBuf::try_with_capacity("tf.strings.as_string", b.len(), 0)?;
    for i in 0..b.len() {
        if i % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let text = match b.get(i) {
            Scalar::Bool(v) => {
                if v {
                    "true".into()
                } else {
                    "false".into()
                }
            }
            Scalar::I32(v) => v.to_string(),
            Scalar::I64(v) => v.to_string(),
            Scalar::F32(v) => format!("{v:.6}"),
            Scalar::F64(v) => format!("{v:.6}"),
            Scalar::Str(s) => String::from_utf8_lossy(&s).into_owned(),
        };
        out.push(text.as_bytes());
    }
    Ok(out)
}
