//! Arrow arrays → engine tensors. A column arrives as one or more chunks (record batches,
//! row groups); each level is converted once for all chunks: a List / LargeList level's
//! offsets become the row_splits (rebased once per chunk, no per-row work unless the level
//! has nulls), a FixedSizeList level a uniform dimension, and the leaves one dense buffer
//! (numbers copied once, strings as bytes + offsets).
//!
//! Nulls are counted on the way down and never dropped silently: without `fill_null` the
//! conversion ends in a ValueError that counts them; with it, a null list becomes an empty
//! list and a null value the fill value.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ByteArrayType, Float16Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type,
    Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array as _, ArrayRef, OffsetSizeTrait};
use arrow_buffer::ArrowNativeType;
use arrow_buffer::{BooleanBufferBuilder, NullBuffer};
use arrow_schema::DataType;

use super::leaves;
use crate::diagnostic::{Error, Result};
use ragtag_engine::{budget, Array, DType, ExceptionClass, Ragged, RowPartition, Scalar, Tensor};

/// One chunk of a column: an Arrow array and the nulls its parents impose on it.
#[derive(Clone)]
pub struct Piece {
    /// The chunk.
    pub array: ArrayRef,
    /// Nulls from the structs above (a null struct row makes its fields null), one bit per
    /// element of `array`; they count as nulls of this level.
    pub extra: Option<NullBuffer>,
    /// The slots of null FixedSizeList rows above: filled like nulls, but already counted
    /// as null rows, so not counted again here.
    pub hidden: Option<NullBuffer>,
}

impl Piece {
    /// A chunk with no nulls from above.
    pub fn new(array: ArrayRef) -> Piece {
        Piece {
            array,
            extra: None,
            hidden: None,
        }
    }
    /// Every null of the chunk: its own and those from above (None when there are none).
    pub(super) fn nulls(&self) -> Option<NullBuffer> {
        let own = NullBuffer::union(self.array.logical_nulls().as_ref(), self.extra.as_ref());
        NullBuffer::union(own.as_ref(), self.hidden.as_ref()).filter(|n| n.null_count() > 0)
    }
    /// The nulls to count at this level: its own and the structs', outside hidden slots.
    pub(super) fn counted(&self) -> usize {
        let own = NullBuffer::union(self.array.logical_nulls().as_ref(), self.extra.as_ref());
        match (own, &self.hidden) {
            (None, _) => 0,
            (Some(own), None) => own.null_count(),
            (Some(own), Some(hidden)) => (&!own.inner() & hidden.inner()).count_set_bits(),
        }
    }
}

/// Converts the chunks of one column, counting its nulls.
pub struct Converter<'a> {
    /// The column's name as the user wrote it, for messages.
    pub(super) column: &'a str,
    /// The value that replaces nulls (`fill_null=`), if given.
    pub(super) fill: Option<&'a Scalar>,
    /// Null list entries seen (at any list level).
    pub(super) null_rows: usize,
    /// Null values seen (at the leaves).
    pub(super) null_values: usize,
}

/// Converts the chunks of the column `column` (all of Arrow type `dtype`) into one tensor.
pub fn column(
    column: &str,
    dtype: &DataType,
    pieces: Vec<Piece>,
    fill: Option<&Scalar>,
) -> Result<Array> {
    let mut c = Converter {
        column,
        fill,
        null_rows: 0,
        null_values: 0,
    };
    let out = c.convert(pieces, dtype)?;
    if c.fill.is_none() && (c.null_rows > 0 || c.null_values > 0) {
        return Err(c.null_error());
    }
    Ok(out)
}

impl Converter<'_> {
    /// The "what" of budget messages.
    pub(super) fn what(&self) -> String {
        format!("reading column '{}'", self.column)
    }

    fn null_error(&self) -> Error {
        let plural =
            |n: usize, what: &str| format!("{n} null {what}{}", if n == 1 { "" } else { "s" });
        let counts = match (self.null_rows, self.null_values) {
            (0, v) => plural(v, "value"),
            (r, 0) => plural(r, "row"),
            (r, v) => format!("{} and {}", plural(r, "row"), plural(v, "value")),
        };
        Error::new(
            ExceptionClass::ValueError,
            format!(
                "column '{}' has {counts}; ragtag's tensors have no null",
                self.column
            ),
        )
        .with_hint(
            "pass fill_null=VALUE to read a null value as VALUE and a null row as an empty \
             row (e.g. fill_null=0, or fill_null='' for strings)",
        )
    }

    /// Converts the chunks of one level.
    pub(super) fn convert(&mut self, pieces: Vec<Piece>, dtype: &DataType) -> Result<Array> {
        ragtag_engine::guard::check_stack().map_err(Error::from)?;
        match dtype {
            DataType::List(f) => self.list::<i32>(pieces, f.data_type(), DType::Int32),
            DataType::LargeList(f) => self.list::<i64>(pieces, f.data_type(), DType::Int64),
            DataType::FixedSizeList(f, k) => self.fixed(pieces, f.data_type(), *k),
            DataType::Dictionary(_, values) => {
                let pieces = pieces
                    .into_iter()
                    .map(|p| decode_dictionary(&p, self.column))
                    .collect::<Result<Vec<_>>>()?;
                self.convert(pieces, values)
            }
            _ => self.leaf(pieces, dtype).map(Array::Dense),
        }
    }

    /// A List / LargeList level: its offsets become one row partition.
    fn list<O: OffsetSizeTrait>(
        &mut self,
        pieces: Vec<Piece>,
        child_type: &DataType,
        splits_dtype: DType,
    ) -> Result<Array> {
        let n: usize = pieces.iter().map(|p| p.array.len()).sum();
        let mut splits = budget::vec::<i64>(&self.what(), n + 1)?;
        splits.push(0);
        let mut children = Vec::new();
        for p in &pieces {
            let list = p.array.as_list::<O>();
            let offsets = list.value_offsets();
            let base = offsets[0].as_usize();
            let shift = splits[splits.len() - 1];
            match p.nulls() {
                None => {
                    // The whole level in one pass: offsets rebased to this chunk's start and
                    // shifted past the chunks before it.
                    let (b, s) = (base as i64, shift);
                    splits.extend(offsets[1..].iter().map(|o| o.as_usize() as i64 - b + s));
                    let end = offsets[offsets.len() - 1].as_usize();
                    children.push(Piece::new(list.values().slice(base, end - base)));
                }
                Some(nulls) => {
                    self.null_rows += p.counted();
                    self.skip_null_rows(&nulls, offsets, list.values(), &mut splits, &mut children);
                }
            }
        }
        let child = self.convert(children, child_type)?;
        let part = RowPartition::from_valid_splits(splits).with_splits_dtype(splits_dtype);
        Ok(Array::Ragged(
            Ragged::from_partition(part, child).map_err(Error::from)?,
        ))
    }

    /// The rows of a list chunk with nulls: a null row becomes an empty row, and the values
    /// under it (Arrow allows some) are left out of the child chunks.
    fn skip_null_rows<O: OffsetSizeTrait>(
        &self,
        nulls: &NullBuffer,
        offsets: &[O],
        values: &ArrayRef,
        splits: &mut Vec<i64>,
        children: &mut Vec<Piece>,
    ) {
        let mut acc = splits[splits.len() - 1];
        // The run of valid rows' values being gathered, as a range of `values`.
        let mut run: Option<(usize, usize)> = None;
        for i in 0..offsets.len() - 1 {
            let (a, b) = (offsets[i].as_usize(), offsets[i + 1].as_usize());
            if nulls.is_valid(i) {
                acc += (b - a) as i64;
                run = match run {
                    Some((start, end)) if end == a => Some((start, b)),
                    Some((start, end)) => {
                        children.push(Piece::new(values.slice(start, end - start)));
                        Some((a, b))
                    }
                    None => Some((a, b)),
                };
            }
            splits.push(acc);
        }
        if let Some((start, end)) = run {
            children.push(Piece::new(values.slice(start, end - start)));
        }
    }

    /// A FixedSizeList level: a uniform dimension (dense when everything below is dense).
    fn fixed(&mut self, pieces: Vec<Piece>, child_type: &DataType, k: i32) -> Result<Array> {
        let k = usize::try_from(k).unwrap_or(0);
        let n: usize = pieces.iter().map(|p| p.array.len()).sum();
        let mut children = Vec::new();
        for p in &pieces {
            let list = p.array.as_fixed_size_list();
            // A sliced FixedSizeList's values are sliced with it: row 0 starts at 0.
            let start = list.value_offset_at(0);
            let values = list.values().slice(start, list.len() * k);
            let hidden = match p.nulls() {
                None => None,
                Some(nulls) => {
                    self.null_rows += p.counted();
                    // A null row keeps its k slots; its values count as nulls (filled).
                    let mut bits = BooleanBufferBuilder::new(list.len() * k);
                    for i in 0..list.len() {
                        bits.append_n(k, nulls.is_valid(i));
                    }
                    Some(NullBuffer::new(bits.finish()))
                }
            };
            children.push(Piece {
                array: values,
                extra: None,
                hidden,
            });
        }
        let child = self.convert(children, child_type)?;
        match child {
            Array::Dense(t) => {
                let mut shape = vec![n, k];
                shape.extend_from_slice(&t.shape()[1..]);
                Ok(Array::Dense(t.reshaped(shape).map_err(Error::from)?))
            }
            Array::Ragged(r) => {
                let nvals = r.nrows();
                let part = RowPartition::from_uniform_row_length(k as i64, nvals, Some(n as i64))
                    .map_err(Error::from)?;
                Ok(Array::Ragged(
                    Ragged::from_partition(part, Array::Ragged(r)).map_err(Error::from)?,
                ))
            }
        }
    }

    /// The leaves: primitive columns and strings as one dense vector.
    fn leaf(&mut self, pieces: Vec<Piece>, dtype: &DataType) -> Result<Tensor> {
        use leaves::Leaf;
        let buffer = match dtype {
            DataType::Boolean => leaves::booleans(self, &pieces)?,
            DataType::Int8 => Leaf::<Int8Type, i8>::run(self, &pieces, |v| v)?,
            DataType::Int16 => Leaf::<Int16Type, i16>::run(self, &pieces, |v| v)?,
            DataType::Int32 => Leaf::<Int32Type, i32>::run(self, &pieces, |v| v)?,
            DataType::Int64 => Leaf::<Int64Type, i64>::run(self, &pieces, |v| v)?,
            DataType::UInt8 => Leaf::<UInt8Type, u8>::run(self, &pieces, |v| v)?,
            DataType::UInt16 => Leaf::<UInt16Type, u16>::run(self, &pieces, |v| v)?,
            DataType::UInt32 => Leaf::<UInt32Type, u32>::run(self, &pieces, |v| v)?,
            DataType::UInt64 => Leaf::<UInt64Type, u64>::run(self, &pieces, |v| v)?,
            DataType::Float16 => {
                Leaf::<Float16Type, ragtag_engine::f16>::run(self, &pieces, |v| v)?
            }
            DataType::Float32 => Leaf::<Float32Type, f32>::run(self, &pieces, |v| v)?,
            DataType::Float64 => Leaf::<Float64Type, f64>::run(self, &pieces, |v| v)?,
            DataType::Utf8 => self.bytes::<arrow_array::types::Utf8Type>(&pieces)?,
            DataType::LargeUtf8 => self.bytes::<arrow_array::types::LargeUtf8Type>(&pieces)?,
            DataType::Binary => self.bytes::<arrow_array::types::BinaryType>(&pieces)?,
            DataType::LargeBinary => self.bytes::<arrow_array::types::LargeBinaryType>(&pieces)?,
            DataType::Utf8View | DataType::BinaryView => leaves::views(self, &pieces, dtype)?,
            DataType::Struct(fields) => {
                let names: Vec<String> = fields
                    .iter()
                    .map(|f| format!("'{}.{}'", self.column, f.name()))
                    .collect();
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "column '{}' is a struct; a tensor holds one of its fields",
                        self.column
                    ),
                )
                .with_hint(format!(
                    "pick a field by its dotted path: {}",
                    names.join(", ")
                )));
            }
            other => return Err(unsupported(self.column, other)),
        };
        Ok(Tensor::vector(buffer))
    }

    /// Utf8 / LargeUtf8 / Binary / LargeBinary chunks: the bytes of every chunk copied once
    /// into one string buffer, no allocation per string.
    fn bytes<T: ByteArrayType>(&mut self, pieces: &[Piece]) -> Result<ragtag_engine::Buffer> {
        let fill = self.fill_for(DType::String)?;
        let n: usize = pieces.iter().map(|p| p.array.len()).sum();
        let mut total = 0usize;
        for p in pieces {
            let offsets = p.array.as_bytes::<T>().value_offsets();
            total += offsets[offsets.len() - 1].as_usize() - offsets[0].as_usize();
        }
        let mut out = ragtag_engine::StringBuf::try_with_capacity(&self.what(), n, total)?;
        for p in pieces {
            let arr = p.array.as_bytes::<T>();
            let (offsets, data) = (arr.value_offsets(), arr.value_data());
            let nulls = p.nulls();
            self.null_values += p.counted();
            for i in 0..arr.len() {
                match (&nulls, &fill) {
                    (Some(nb), Some(Scalar::Str(f))) if nb.is_null(i) => out.push(f),
                    _ => out.push(&data[offsets[i].as_usize()..offsets[i + 1].as_usize()]),
                }
            }
        }
        Ok(ragtag_engine::Buffer::Str(out))
    }

    /// The fill value as a scalar of `dtype`: a TypeError when it does not fit.
    pub(super) fn fill_for(&self, dtype: DType) -> Result<Option<Scalar>> {
        let Some(fill) = self.fill else {
            return Ok(None);
        };
        let out = match (dtype, fill) {
            (DType::Bool, Scalar::Bool(b)) => Some(Scalar::Bool(*b)),
            (DType::String, Scalar::Str(s)) => Some(Scalar::Str(s.clone())),
            // An int fill fits an int column when it survives the round trip.
            (d, Scalar::I64(v)) if d.is_int() => {
                ragtag_engine::dispatch!(ints dtype d, T => {
                    let x = <T as ragtag_engine::Element>::from_i64(*v);
                    let back = <T as ragtag_engine::Element>::to_i64(x);
                    (back == *v && (*v >= 0 || !d.is_unsigned())).then(|| x.scalar())
                }, _ => None)
            }
            (d, Scalar::I64(_) | Scalar::F64(_)) if d.is_float() => {
                ragtag_engine::dispatch!(floats dtype d, T => {
                    fill.as_f64().map(|x| T::from_f64(x).scalar())
                }, _ => None)
            }
            _ => None,
        };
        match out {
            Some(s) => Ok(Some(s)),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "fill_null={} does not fit column '{}' of {dtype} values",
                    scalar_repr(fill),
                    self.column
                ),
            )
            .with_hint(format!("pass a fill value of dtype {dtype}"))),
        }
    }
}

/// A fill value as Python would show it.
fn scalar_repr(s: &Scalar) -> String {
    match s {
        Scalar::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        Scalar::Str(b) => format!("'{}'", String::from_utf8_lossy(b)),
        s => ragtag_engine::dispatch!(ints scalar s, x => x.to_string(),
            s => format!("{:?}", s.as_f64().unwrap_or(f64::NAN))),
    }
}

/// The TypeError for an Arrow type ragtag's tensors cannot hold.
pub(super) fn unsupported(column: &str, dtype: &DataType) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "column '{column}' has Arrow type {dtype}, which ragtag cannot hold: its tensors \
             hold bool, int, uint, float and string values, in lists and fixed-size lists \
             nested to any depth"
        ),
    )
    .with_hint(
        "cast the column to one of those types before writing it (e.g. with pyarrow: \
         table.cast(...))",
    )
}

/// A dictionary-encoded chunk as its plain values (one gather of the dictionary).
fn decode_dictionary(p: &Piece, column: &str) -> Result<Piece> {
    let dict = p.array.as_any_dictionary();
    let array =
        arrow_select::take::take(dict.values().as_ref(), dict.keys(), None).map_err(|e| {
            Error::new(
                ExceptionClass::ValueError,
                format!("column '{column}': {e}"),
            )
        })?;
    Ok(Piece {
        array: Arc::clone(&array),
        ..p.clone()
    })
}
