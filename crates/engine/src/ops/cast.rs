//! `tf.cast`: converting elements between dtypes.

use crate::buffer::{Buffer, Scalar};
use crate::dtype::DType;
use crate::element::Element;
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
    let from = b.dtype();
    if from == dtype {
        return Ok(b.clone());
    }
    if from == DType::String {
        return Err(type_error!(
            "Cannot cast string to {dtype}: use tf.strings.to_number"
        ));
    }
    if dtype == DType::String {
        return Err(type_error!(
            "Cannot cast {from} to string: use tf.strings.as_string"
        ));
    }
    // Through the one wide type the source reads into exactly (float64, uint64 or int64),
    // as Element::cast does, so that each dtype has one loop into the wide type and one out
    // of each, instead of a loop for every pair of dtypes.
    if from.is_float() {
        let wide = match b {
            Buffer::F64(v) => std::borrow::Cow::Borrowed(&v[..]),
            _ => crate::dispatch!(floats b, v => interrupt::map(v, |x| x.to_f64()).into(),
                _ => unreachable!("a float buffer")),
        };
        if dtype == DType::Float64 {
            // The wide values are the answer (the source was not float64: it is a copy).
            return Ok(Buffer::from(wide.into_owned()));
        }
        return Ok(crate::dispatch!(elements dtype dtype,
            T => Buffer::from(interrupt::map(&wide, T::from_f64)),
            DType::String => unreachable!("checked above")));
    }
    if let Buffer::U64(v) = b {
        return Ok(crate::dispatch!(elements dtype dtype,
            T => Buffer::from(interrupt::map(v, T::from_u64)),
            DType::String => unreachable!("checked above")));
    }
    let wide = match b {
        Buffer::I64(v) => std::borrow::Cow::Borrowed(&v[..]),
        _ => crate::dispatch!(elements b, v => interrupt::map(v, |x| x.to_i64()).into(),
            Buffer::Str(_) => unreachable!("checked above")),
    };
    if dtype == DType::Int64 {
        return Ok(Buffer::from(wide.into_owned()));
    }
    Ok(crate::dispatch!(elements dtype dtype,
        T => Buffer::from(interrupt::map(&wide, T::from_i64)),
        DType::String => unreachable!("checked above")))
}

/// Formats numbers as strings (`tf.strings.as_string`).
pub fn as_string(b: &Buffer) -> Result<StringBuf> {
    /// Each element as TensorFlow writes it: `true`/`false`, an integer, six decimals.
    fn format<T: Element>(v: &[T], out: &mut StringBuf) -> Result<()> {
        for (i, &x) in v.iter().enumerate() {
            if i % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            let text = if T::DTYPE == DType::Bool {
                (x.to_i64() != 0).to_string()
            } else if T::DTYPE.is_float() {
                format!("{:.6}", x.to_f64())
            } else {
                x.to_i64().to_string()
            };
            out.push(text.as_bytes());
        }
        Ok(())
    }
    let mut out = StringBuf::try_with_capacity("tf.strings.as_string", b.len(), 0)?;
    crate::dispatch!(elements b, v => format(v, &mut out)?, Buffer::Str(s) => {
        for i in 0..s.len() {
            if i % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            out.push(String::from_utf8_lossy(s.get(i)).as_bytes());
        }
    });
    Ok(out)
}
