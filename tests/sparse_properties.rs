//! Properties of the sparse engine: round trips between encodings and the invariants of
//! reorder, checked on random inputs.
#![allow(clippy::disallowed_methods)] // fixed-size test data

use proptest::prelude::*;
use ragtag::engine::{Buffer, Lod, Ragged, RowPartition, Scalar, Sparse, Tensor};

/// A random 2-D ragged tensor (every 2-D ragged tensor is right-ragged), empty rows included.
fn ragged_2d() -> impl Strategy<Value = Ragged> {
    prop::collection::vec(prop::collection::vec(-50i32..50, 0..6), 0..8).prop_map(|rows| {
        let lengths: Vec<i64> = rows.iter().map(|r| r.len() as i64).collect();
        let values: Vec<i32> = rows.into_iter().flatten().collect();
        let part = RowPartition::from_row_lengths(&lengths, Some(values.len())).unwrap();
        Ragged::new(vec![part], Tensor::vector(Buffer::I32(values.into()))).unwrap()
    })
}

/// A random dense int32 tensor of rank 1 to 3, with plenty of zeros.
fn dense() -> impl Strategy<Value = Tensor> {
    prop::collection::vec(0usize..4, 1..4).prop_flat_map(|shape| {
        let n: usize = shape.iter().product();
        prop::collection::vec(prop_oneof![Just(0i32), -9i32..9], n)
            .prop_map(move |v| Tensor::new(shape.clone(), Buffer::I32(v.into())).unwrap())
    })
}

/// A random sparse tensor with in-bounds indices in any order (repeats allowed).
fn unordered_sparse() -> impl Strategy<Value = Sparse> {
    (1i64..5, 1i64..5).prop_flat_map(|(rows, cols)| {
        prop::collection::vec((0..rows, 0..cols, -9i32..9), 0..12).prop_map(move |entries| {
            let indices = entries.iter().flat_map(|&(r, c, _)| [r, c]).collect();
            let values = entries.iter().map(|&(_, _, v)| v).collect();
            Sparse::new(
                indices,
                Tensor::vector(Buffer::I32(values)),
                vec![rows, cols],
            )
            .unwrap()
        })
    })
}

/// The (index, value) pairs of a sparse tensor, sorted, to compare as multisets.
fn entries(s: &Sparse) -> Vec<(Vec<i64>, i32)> {
    let Buffer::I32(v) = s.values().data() else {
        panic!("int32")
    };
    let mut e: Vec<_> = (0..s.nnz()).map(|i| (s.index(i).to_vec(), v[i])).collect();
    e.sort();
    e
}

proptest! {
    #[test]
    fn ragged_sparse_round_trip(rt in ragged_2d()) {
        let st = Sparse::from_ragged(&rt);
        prop_assert!(st.check_indices().is_ok());
        prop_assert_eq!(st.to_ragged().unwrap(), rt);
    }

    #[test]
    fn ragged_lod_round_trip(rt in ragged_2d()) {
        // Paddle has no level without sequences.
        prop_assume!(rt.nrows() > 0);
        let lod = Lod::from_ragged(&rt).unwrap();
        prop_assert!(lod.is_valid());
        prop_assert_eq!(lod.to_ragged().unwrap(), rt);
    }

    #[test]
    fn dense_sparse_round_trip(d in dense()) {
        let st = Sparse::from_dense(&d);
        prop_assert!(st.check_indices().is_ok());
        prop_assert_eq!(st.to_dense(&Scalar::I32(0), true).unwrap(), d);
    }

    #[test]
    fn reorder_sorts_and_is_idempotent(st in unordered_sparse()) {
        let once = st.reorder();
        prop_assert!(once.is_ordered());
        prop_assert_eq!(once.dense_shape(), st.dense_shape());
        prop_assert_eq!(entries(&once), entries(&st));
        prop_assert_eq!(once.reorder(), once.clone());
    }

    #[test]
    fn transposing_twice_is_reordering(st in unordered_sparse()) {
        let back = st.transpose(None).unwrap().transpose(None).unwrap();
        prop_assert_eq!(back, st.reorder());
    }

    #[test]
    fn reduce_sum_adds_each_rows_values(st in unordered_sparse()) {
        use ragtag::engine::sparse::{SparseOut, SparseReduce};
        let SparseOut::Dense(sums) = st.reduce(Some(&[1]), SparseReduce::Sum, false, false).unwrap() else {
            panic!("dense")
        };
        let mut expected = vec![0i32; st.dense_shape()[0] as usize];
        for (idx, v) in entries(&st) {
            expected[idx[0] as usize] += v;
        }
        prop_assert_eq!(sums.data(), &Buffer::I32(expected.into()));
    }
}
