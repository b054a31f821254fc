//! Arrow → engine on arrays built by hand: sliced chunks (offsets that do not start at 0),
//! several chunks joined, null rows that still cover values, and engine → Arrow → engine.

use std::sync::Arc;

use arrow_array::{Array as _, ArrayRef, FixedSizeListArray, Int64Array, ListArray, StringArray};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};

use super::from_engine;
use super::to_engine::{column, Piece};
use ragtag_engine::{Array, Buffer, DType, Scalar};

fn ints(v: &[i64]) -> ArrayRef {
    Arc::new(Int64Array::from(v.to_vec()))
}

fn list(offsets: &[i32], values: ArrayRef, nulls: Option<Vec<bool>>) -> ArrayRef {
    let field = Arc::new(Field::new_list_field(values.data_type().clone(), true));
    Arc::new(
        ListArray::try_new(
            field,
            OffsetBuffer::new(ScalarBuffer::from(offsets.to_vec())),
            values,
            nulls.map(NullBuffer::from),
        )
        .unwrap(),
    )
}

fn splits_and_values(a: &Array) -> (Vec<i64>, Vec<i64>) {
    let Array::Ragged(r) = a else {
        panic!("not ragged: {a:?}")
    };
    (
        r.outer().row_splits().to_vec(),
        r.flat_values().to_i64_vec().unwrap(),
    )
}

#[test]
fn a_sliced_list_chunk_is_rebased_once() {
    let whole = list(&[0, 2, 3, 3, 6], ints(&[1, 2, 3, 4, 5, 6]), None);
    let sliced = whole.slice(1, 3);
    let dtype = sliced.data_type().clone();
    let a = column("t", &dtype, vec![Piece::new(sliced)], None).unwrap();
    assert_eq!(splits_and_values(&a), (vec![0, 1, 1, 4], vec![3, 4, 5, 6]));
    let Array::Ragged(r) = &a else { unreachable!() };
    assert_eq!(r.row_splits_dtype(), DType::Int32);
}

#[test]
fn chunks_join_into_one_partition() {
    let first = list(&[0, 2], ints(&[1, 2]), None);
    let second = list(&[0, 1, 1, 4], ints(&[9, 3, 4, 5, 6]), None).slice(1, 2);
    let dtype = first.data_type().clone();
    let pieces = vec![Piece::new(first), Piece::new(second)];
    let a = column("t", &dtype, pieces, None).unwrap();
    assert_eq!(
        splits_and_values(&a),
        (vec![0, 2, 2, 5], vec![1, 2, 3, 4, 5])
    );
}

#[test]
fn a_null_row_over_values_becomes_an_empty_row_without_them() {
    // Row 1 is null but its offsets still cover [3, 4]: they must not show up.
    let a = list(
        &[0, 2, 4, 5],
        ints(&[1, 2, 3, 4, 5]),
        Some(vec![true, false, true]),
    );
    let dtype = a.data_type().clone();
    let err = column("t", &dtype, vec![Piece::new(a.clone())], None).unwrap_err();
    assert_eq!(
        err.message,
        "column 't' has 1 null row; ragtag's tensors have no null"
    );
    let fill = Scalar::I64(0);
    let got = column("t", &dtype, vec![Piece::new(a)], Some(&fill)).unwrap();
    assert_eq!(splits_and_values(&got), (vec![0, 2, 2, 3], vec![1, 2, 5]));
}

#[test]
fn a_sliced_fixed_size_list_is_a_uniform_dimension() {
    let field = Arc::new(Field::new_list_field(DataType::Int64, true));
    let fixed: ArrayRef =
        Arc::new(FixedSizeListArray::try_new(field, 2, ints(&[1, 2, 3, 4, 5, 6]), None).unwrap());
    let sliced = fixed.slice(1, 2);
    let dtype = sliced.data_type().clone();
    let Array::Dense(t) = column("xy", &dtype, vec![Piece::new(sliced)], None).unwrap() else {
        panic!("not dense")
    };
    assert_eq!(t.shape(), [2, 2]);
    assert_eq!(t.to_i64_vec().unwrap(), [3, 4, 5, 6]);
}

#[test]
fn sliced_strings_keep_their_bytes() {
    let s: ArrayRef = Arc::new(StringArray::from(vec!["ab", "", "cde", "f"]));
    let sliced = s.slice(1, 3);
    let a = column("w", &DataType::Utf8, vec![Piece::new(sliced)], None).unwrap();
    let Array::Dense(t) = a else { panic!() };
    let Buffer::Str(b) = t.data() else { panic!() };
    assert_eq!(b.iter().collect::<Vec<_>>(), [&b""[..], b"cde", b"f"]);
}

#[test]
fn engine_to_arrow_and_back_keeps_shape_and_splits_width() {
    let values = ragtag_engine::Tensor::from_i64(vec![1, 2, 3]);
    let part = ragtag_engine::RowPartition::from_row_splits(vec![0, 1, 1, 3], None)
        .unwrap()
        .with_splits_dtype(DType::Int32);
    let r = ragtag_engine::Ragged::new(vec![part], values).unwrap();
    let arrow = from_engine::array(&Array::Ragged(r.clone())).unwrap();
    assert_eq!(arrow.data_type().to_string(), "List(Int64)");
    let dtype = arrow.data_type().clone();
    let back = column("r", &dtype, vec![Piece::new(arrow)], None).unwrap();
    assert_eq!(back, Array::Ragged(r));
}

#[test]
fn a_reader_crash_is_reported_without_the_library_s_source_place() {
    let crash = ragtag_engine::guard::Crash {
        message: "attempt to subtract with overflow at /home/u/.cargo/registry/src/parquet-55/src/file/metadata.rs:812"
            .into(),
    };
    let e = super::reader_failed(std::path::Path::new("bad.parquet"), "Parquet", &crash);
    assert_eq!(e.class, ragtag_engine::ExceptionClass::ValueError);
    assert_eq!(
        e.message,
        "'bad.parquet' is not a valid Parquet file: its metadata is inconsistent (the Parquet \
         reader stopped on: attempt to subtract with overflow)"
    );
}
