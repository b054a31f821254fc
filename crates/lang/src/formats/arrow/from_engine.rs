//! Engine tensors → Arrow arrays, in the types pyarrow reads back to the same tensor:
//! a ragged dimension with int64 row_splits is a LargeList, one with int32 row_splits a
//! List (32-bit offsets, pyarrow's `pa.list_`), a uniform dimension (dense tensors' inner
//! dimensions, a ragged tensor's uniform partitions) a FixedSizeList, numbers and bools
//! primitive arrays, strings Utf8 (Binary when not valid UTF-8; the Large variants past
//! 2 GiB of bytes).

use std::sync::Arc;

use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, FixedSizeListArray, Float16Array, Float32Array,
    Float64Array, Int16Array, Int32Array, Int64Array, Int8Array, LargeBinaryArray,
    LargeStringArray, OffsetSizeTrait, StringArray, UInt16Array, UInt32Array, UInt64Array,
    UInt8Array,
};
use arrow_buffer::{Buffer as ArrowBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::Field;

use crate::diagnostic::{Error, Result};
use ragtag_engine::{
    budget, Array, Buffer, DType, ExceptionClass, RowPartition, StringBuf, Tensor,
};

/// The bytes written, for budget messages.
const WHAT: &str = "writing a column";

/// A dense or ragged tensor as one Arrow array (one element per outer row).
pub fn array(a: &Array) -> Result<ArrayRef> {
    match a {
        Array::Dense(t) => dense(t),
        Array::Ragged(r) => {
            let mut out = dense(r.flat_values())?;
            for p in r.partitions().iter().rev() {
                out = partition(p, out)?;
            }
            Ok(out)
        }
    }
}

/// A dense tensor: its flat values, wrapped in a FixedSizeList per inner dimension.
fn dense(t: &Tensor) -> Result<ArrayRef> {
    if t.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "a scalar cannot be a column: a column needs rows",
        )
        .with_hint("wrap it in a list to make one row, e.g. [x]"));
    }
    let mut out = leaf(t.data())?;
    let shape = t.shape();
    for (level, &k) in shape[1..].iter().enumerate().rev() {
        // The rows this level has: the product of the dimensions above it.
        let rows: usize = shape[..=level].iter().product();
        out = fixed(out, k, rows)?;
    }
    Ok(out)
}

/// One row partition around `child`: a FixedSizeList when uniform, else a (Large)List.
fn partition(p: &RowPartition, child: ArrayRef) -> Result<ArrayRef> {
    if let Some(k) = p.uniform_row_length() {
        return fixed(child, usize::try_from(k).unwrap_or(0), p.nrows());
    }
    let splits = p.row_splits();
    let fits_i32 = splits.last().is_none_or(|&l| l <= i32::MAX as i64);
    if p.splits_dtype() == DType::Int32 && fits_i32 {
        let mut offsets = budget::vec::<i32>(WHAT, splits.len())?;
        offsets.extend(splits.iter().map(|&s| s as i32));
        list::<i32>(offsets, child).map(|l| Arc::new(l) as ArrayRef)
    } else {
        let mut offsets = budget::vec::<i64>(WHAT, splits.len())?;
        offsets.extend_from_slice(splits);
        list::<i64>(offsets, child).map(|l| Arc::new(l) as ArrayRef)
    }
}

fn list<O: OffsetSizeTrait>(
    offsets: Vec<O>,
    child: ArrayRef,
) -> Result<arrow_array::GenericListArray<O>> {
    let field = Arc::new(Field::new_list_field(child.data_type().clone(), true));
    arrow_array::GenericListArray::<O>::try_new(
        field,
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        child,
        None,
    )
    .map_err(arrow_failed)
}

/// `rows` rows of `k` values of `child` each.
fn fixed(child: ArrayRef, k: usize, rows: usize) -> Result<ArrayRef> {
    let field = Arc::new(Field::new_list_field(child.data_type().clone(), true));
    let size = i32::try_from(k).map_err(|_| {
        Error::new(
            ExceptionClass::ValueError,
            format!("a dimension of {k} is past Arrow's largest fixed-size list (2**31 - 1)"),
        )
    })?;
    FixedSizeListArray::try_new_with_length(field, size, child, None, rows)
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(arrow_failed)
}

/// A flat buffer as a primitive, boolean or string array (one copy).
fn leaf(b: &Buffer) -> Result<ArrayRef> {
    Ok(match b {
        Buffer::Bool(v) => Arc::new(BooleanArray::from_iter(v.iter().map(|&x| Some(x)))),
        Buffer::I8(v) => Arc::new(Int8Array::new(copy(v)?.into(), None)),
        Buffer::I16(v) => Arc::new(Int16Array::new(copy(v)?.into(), None)),
        Buffer::I32(v) => Arc::new(Int32Array::new(copy(v)?.into(), None)),
        Buffer::I64(v) => Arc::new(Int64Array::new(copy(v)?.into(), None)),
        Buffer::U8(v) => Arc::new(UInt8Array::new(copy(v)?.into(), None)),
        Buffer::U16(v) => Arc::new(UInt16Array::new(copy(v)?.into(), None)),
        Buffer::U32(v) => Arc::new(UInt32Array::new(copy(v)?.into(), None)),
        Buffer::U64(v) => Arc::new(UInt64Array::new(copy(v)?.into(), None)),
        Buffer::F16(v) => Arc::new(Float16Array::new(copy(v)?.into(), None)),
        Buffer::BF16(_) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "Arrow and Parquet have no bfloat16 type, so a column cannot hold bfloat16 values",
            )
            .with_hint("cast first: tf.cast(x, tf.float32) keeps every bfloat16 value exactly"))
        }
        Buffer::F32(v) => Arc::new(Float32Array::new(copy(v)?.into(), None)),
        Buffer::F64(v) => Arc::new(Float64Array::new(copy(v)?.into(), None)),
        Buffer::Str(s) => strings(s)?,
    })
}

fn copy<T: Copy>(v: &[T]) -> Result<Vec<T>> {
    let mut out = budget::vec::<T>(WHAT, v.len())?;
    out.extend_from_slice(v);
    Ok(out)
}

/// Strings as Utf8 when every element is valid UTF-8, else Binary; 64-bit offsets past
/// 2 GiB of bytes.
fn strings(s: &StringBuf) -> Result<ArrayRef> {
    let bytes = s.bytes();
    let utf8 = std::str::from_utf8(bytes).is_ok_and(|text| {
        // Valid as a whole, and no element boundary splits a character.
        s.offsets().iter().all(|&o| text.is_char_boundary(o))
    });
    let data = ArrowBuffer::from_vec(copy(bytes)?);
    let large = bytes.len() > i32::MAX as usize;
    let err = |e| arrow_failed(e);
    Ok(if large {
        let offsets = offsets::<i64>(s)?;
        if utf8 {
            Arc::new(LargeStringArray::try_new(offsets, data, None).map_err(err)?)
        } else {
            Arc::new(LargeBinaryArray::try_new(offsets, data, None).map_err(err)?)
        }
    } else {
        let offsets = offsets::<i32>(s)?;
        if utf8 {
            Arc::new(StringArray::try_new(offsets, data, None).map_err(err)?)
        } else {
            Arc::new(BinaryArray::try_new(offsets, data, None).map_err(err)?)
        }
    })
}

fn offsets<O: OffsetSizeTrait>(s: &StringBuf) -> Result<OffsetBuffer<O>> {
    let mut out = budget::vec::<O>(WHAT, s.offsets().len())?;
    // The caller chose O wide enough for the last offset.
    out.extend(s.offsets().iter().map(|&o| O::usize_as(o)));
    Ok(OffsetBuffer::new(ScalarBuffer::from(out)))
}

/// An Arrow error while building arrays ragtag made itself: the arrays disagree, which is
/// ragtag's fault, reported rather than unwrapped.
fn arrow_failed(e: arrow_schema::ArrowError) -> Error {
    Error::new(
        ExceptionClass::ValueError,
        format!("could not build the Arrow column: {e}"),
    )
}
