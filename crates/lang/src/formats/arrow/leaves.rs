//! The leaves of a column: Arrow's primitive, boolean and string-view arrays copied into
//! one engine buffer for all chunks (narrow integers widened to int32, uint32 to int64,
//! float16 to float32), nulls counted and, with `fill_null`, replaced.

use std::marker::PhantomData;

use arrow_array::cast::AsArray;
use arrow_array::types::{BinaryViewType, StringViewType, UInt64Type};
use arrow_array::{Array as _, ArrowPrimitiveType};
use arrow_schema::DataType;

use super::to_engine::{Converter, Piece};
use crate::diagnostic::{Error, Result};
use ragtag_engine::{budget, Buffer, DType, ExceptionClass, Scalar, Shared, StringBuf};

/// An engine element type a primitive Arrow column converts to.
pub(super) trait Element: Copy {
    const DTYPE: DType;
    fn of(s: &Scalar) -> Option<Self>;
    fn buffer(v: Vec<Self>) -> Buffer;
}

macro_rules! element {
    ($t:ty, $dtype:ident, $variant:ident) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            fn of(s: &Scalar) -> Option<Self> {
                match s {
                    Scalar::$variant(v) => Some(*v),
                    _ => None,
                }
            }
            fn buffer(v: Vec<Self>) -> Buffer {
                Buffer::$variant(Shared::from(v))
            }
        }
    };
}
element!(i32, Int32, I32);
element!(i64, Int64, I64);
element!(f32, Float32, F32);
element!(f64, Float64, F64);

/// The conversion of primitive chunks of Arrow type `A` to engine elements `E`.
pub(super) struct Leaf<A, E>(PhantomData<(A, E)>);

impl<A: ArrowPrimitiveType, E: Element> Leaf<A, E> {
    /// Copies every chunk's values (mapped by `map`) into one vector.
    pub(super) fn run(
        c: &mut Converter<'_>,
        pieces: &[Piece],
        map: impl Fn(A::Native) -> E,
    ) -> Result<Buffer> {
        let fill = c.fill_for(E::DTYPE)?.as_ref().and_then(E::of);
        let n: usize = pieces.iter().map(|p| p.array.len()).sum();
        let mut out = budget::vec::<E>(&c.what(), n)?;
        for p in pieces {
            let values = p.array.as_primitive::<A>().values();
            match p.nulls() {
                None => out.extend(values.iter().map(|&v| map(v))),
                Some(nulls) => {
                    c.null_values += p.counted();
                    match fill {
                        Some(f) => {
                            out.extend(values.iter().zip(nulls.iter()).map(|(&v, valid)| {
                                if valid {
                                    map(v)
                                } else {
                                    f
                                }
                            }))
                        }
                        // Counted; the read ends in the null error, but the shapes still
                        // agree so that every null of the column is counted first.
                        None => out.extend(values.iter().map(|&v| map(v))),
                    }
                }
            }
        }
        Ok(E::buffer(out))
    }
}

/// uint64 chunks as int64, when every value fits.
pub(super) fn uint64(c: &mut Converter<'_>, pieces: &[Piece]) -> Result<Buffer> {
    for p in pieces {
        let arr = p.array.as_primitive::<UInt64Type>();
        let nulls = p.nulls();
        let too_big =
            arr.values().iter().enumerate().find(|&(i, &v)| {
                v > i64::MAX as u64 && nulls.as_ref().is_none_or(|n| n.is_valid(i))
            });
        if let Some((_, v)) = too_big {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "column '{}' of Arrow type uint64 holds {v}, past the largest int64; \
                     ragtag's integers are int32 and int64",
                    c.column
                ),
            )
            .with_hint("cast the column to float64 or int64 before writing it"));
        }
    }
    Leaf::<UInt64Type, i64>::run(c, pieces, |v| v as i64)
}

/// Boolean chunks (bit-packed in Arrow) as bools.
pub(super) fn booleans(c: &mut Converter<'_>, pieces: &[Piece]) -> Result<Buffer> {
    let fill = match c.fill_for(DType::Bool)? {
        Some(Scalar::Bool(b)) => Some(b),
        _ => None,
    };
    let n: usize = pieces.iter().map(|p| p.array.len()).sum();
    let mut out = budget::vec::<bool>(&c.what(), n)?;
    for p in pieces {
        let values = p.array.as_boolean().values();
        match p.nulls() {
            None => out.extend(values.iter()),
            Some(nulls) => {
                c.null_values += p.counted();
                let f = fill.unwrap_or(false);
                out.extend(
                    values
                        .iter()
                        .zip(nulls.iter())
                        .map(|(v, valid)| if valid { v } else { f }),
                );
            }
        }
    }
    Ok(Buffer::Bool(Shared::from(out)))
}

/// Utf8View / BinaryView chunks (what Polars writes in IPC) as one string buffer.
pub(super) fn views(c: &mut Converter<'_>, pieces: &[Piece], dtype: &DataType) -> Result<Buffer> {
    let fill = match c.fill_for(DType::String)? {
        Some(Scalar::Str(s)) => s,
        _ => Vec::new(),
    };
    let n: usize = pieces.iter().map(|p| p.array.len()).sum();
    let mut total = 0usize;
    for p in pieces {
        total += view_lengths(p, dtype).sum::<usize>();
    }
    let mut out = StringBuf::try_with_capacity(&c.what(), n, total)?;
    for p in pieces {
        let nulls = p.nulls();
        c.null_values += p.counted();
        for i in 0..p.array.len() {
            if nulls.as_ref().is_some_and(|nb| nb.is_null(i)) {
                out.push(&fill);
            } else if *dtype == DataType::Utf8View {
                out.push(p.array.as_byte_view::<StringViewType>().value(i).as_bytes());
            } else {
                out.push(p.array.as_byte_view::<BinaryViewType>().value(i));
            }
        }
    }
    Ok(Buffer::Str(out))
}

/// The byte length of each string of a view chunk.
fn view_lengths<'a>(p: &'a Piece, dtype: &DataType) -> Box<dyn Iterator<Item = usize> + 'a> {
    if *dtype == DataType::Utf8View {
        let a = p.array.as_byte_view::<StringViewType>();
        Box::new(a.views().iter().map(|v| *v as u32 as usize))
    } else {
        let a = p.array.as_byte_view::<BinaryViewType>();
        Box::new(a.views().iter().map(|v| *v as u32 as usize))
    }
}
