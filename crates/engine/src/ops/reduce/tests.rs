//! Unit tests of the reductions: the one-pass paths against the segment reduction.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use super::flat::reduce_flat;
use super::segments::segment_reduce_dense;
use super::ReduceOp;
use crate::buffer::Buffer;
use crate::tensor::Tensor;

const OPS: [ReduceOp; 7] = [
    ReduceOp::Sum,
    ReduceOp::Prod,
    ReduceOp::Max,
    ReduceOp::Min,
    ReduceOp::Mean,
    ReduceOp::Variance,
    ReduceOp::Std,
];

/// The one-pass reduction of everything gives what the segment reduction gives with one
/// segment, for every dtype, op and ragged/dense mean rule, including empty and
/// overflowing inputs.
#[test]
fn reducing_everything_matches_one_segment() {
    let buffers = [
        Buffer::from(vec![i32::MAX, 7, -3, i32::MAX, 2]),
        Buffer::from(vec![i64::MAX, 5, -9, 4]),
        Buffer::from(vec![1.5f32, -0.25, f32::NAN, 3.0]),
        Buffer::from(vec![0.1f64, 0.2, 0.3, -7.5, 1e300]),
        Buffer::from(Vec::<i32>::new()),
        Buffer::from(Vec::<f64>::new()),
    ];
    for data in buffers {
        let n = data.len();
        let t = Tensor::from_parts(vec![n], data.clone());
        for op in OPS {
            for int_mean_float in [false, true] {
                if int_mean_float && n == 0 && matches!(op, ReduceOp::Max | ReduceOp::Min) {
                    // An empty ragged row's max is the lowest finite value; reducing
                    // everything (the flat values, dense) gives -inf.
                    continue;
                }
                let flat = reduce_flat(&data, op, int_mean_float);
                let seg = segment_reduce_dense(&t, &vec![0; n], 1, op, int_mean_float);
                match (flat, seg) {
                    (Ok(f), Ok(s)) => assert_eq!(
                        format!("{f:?}"),
                        format!("{:?}", s.data()),
                        "{op:?} of {data:?} (ragged mean: {int_mean_float})"
                    ),
                    (Err(_), Err(_)) => {}
                    (f, s) => panic!("{op:?} of {data:?}: {f:?} against {s:?}"),
                }
            }
        }
    }
    for (op, want) in [(ReduceOp::Any, true), (ReduceOp::All, false)] {
        let got = reduce_flat(&Buffer::from(vec![false, true]), op, false).unwrap();
        assert_eq!(
            format!("{got:?}"),
            format!("{:?}", Buffer::Bool(vec![want].into()))
        );
    }
}
