//! The leaves of a column: Arrow's primitive, boolean and string-view arrays copied into
//! one engine buffer of the same element type for all chunks, nulls counted and, with
//! `fill_null`, replaced.

use std::marker::PhantomData;

use arrow_array::cast::AsArray;
use arrow_array::types::{BinaryViewType, StringViewType};
use arrow_array::{Array as _, ArrowPrimitiveType};
use arrow_schema::DataType;

use super::to_engine::{Converter, Piece};
use crate::diagnostic::Result;
use ragtag_engine::{budget, Buffer, DType, Element, Scalar, StringBuf};

/// The conversion of primitive chunks of Arrow type `A` to engine elements `E`.
pub(super) struct Leaf<A, E>(PhantomData<(A, E)>);

impl<A: ArrowPrimitiveType, E: Element> Leaf<A, E> {
    /// Copies every chunk's values (mapped by `map`) into one vector.
    pub(super) fn run(
        c: &mut Converter<'_>,
        pieces: &[Piece],
        map: impl Fn(A::Native) -> E,
    ) -> Result<Buffer> {
        let fill = c.fill_for(E::DTYPE)?.as_ref().and_then(E::from_scalar);
        let n: usize = pieces.iter().map(|p| p.array.len()).sum();
        let mut out = budget::vec::<E>(&c.what(), n)?;
        for p in pieces {
            let values = p.array.as_primitive::<A>().values();
            match p.nulls() {
                None => {
                    // A million values at a time, looking at the interrupt flag between two.
                    for part in values.chunks(1 << 20) {
                        ragtag_engine::interrupt::check()?;
                        out.extend(part.iter().map(|&v| map(v)));
                    }
                }
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
        Ok(Buffer::from(out))
    }
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
    Ok(Buffer::from(out))
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
