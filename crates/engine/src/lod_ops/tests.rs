//! Unit tests of the sequence ops on small inputs (Paddle's recorded answers are replayed
//! through the language in tests/paddle_cases.rs).

use super::*;
use crate::{Buffer, ExceptionClass};

fn column(values: &[f32]) -> Tensor {
    Tensor::new(vec![values.len(), 1], Buffer::from(values.to_vec())).unwrap()
}

fn lod(values: &[f32], lens: &[Vec<i64>]) -> Lod {
    Lod::from_lengths(column(values), lens).unwrap()
}

fn floats(l: &Lod) -> Vec<f64> {
    l.data().data().to_f64_vec().unwrap()
}

const DOC: [f32; 7] = [1., 3., 2., 4., 6., 5., 1.];

#[test]
fn pooling_reads_the_last_level_and_keeps_level_0() {
    let x = lod(&DOC, &[vec![2, 0, 3], vec![1, 2, 1, 0, 3]]);
    let out = sequence_pool(&x, PoolType::Sum, 0.0, false).unwrap();
    assert_eq!(floats(&out), vec![1., 5., 4., 0., 12.]);
    assert_eq!(out.lod(), &[vec![0, 2, 2, 5]]);
    let x = lod(&DOC, &[vec![2, 3, 2, 0]]);
    let max = sequence_pool(&x, PoolType::Max, -1.5, false).unwrap();
    assert_eq!(floats(&max), vec![3., 6., 5., -1.5]);
    let sqrt = sequence_pool(&x, PoolType::Sqrt, 0.0, false).unwrap();
    assert!((floats(&sqrt)[0] - 4.0 / 2f64.sqrt()).abs() < 1e-6);
    assert!(PoolType::parse("avg").is_err());
    assert_eq!(PoolType::parse("SUM").unwrap(), PoolType::Sum);
}

#[test]
fn pooling_needs_a_row_per_sequence() {
    let x = lod(&[1.], &[vec![1, 0, 0]]);
    let e = sequence_pool(&x, PoolType::Sum, 0.0, false).unwrap_err();
    assert_eq!(e.class, ExceptionClass::ValueError);
}

#[test]
fn softmax_does_not_subtract_the_maximum() {
    let x = lod(&[1000., 1001., 0.], &[vec![2, 1]]);
    let out = floats(&sequence_softmax(&x).unwrap());
    assert!(out[0].is_nan() && out[1].is_nan());
    assert_eq!(out[2], 1.0);
}

#[test]
fn concat_interleaves_sequences() {
    let a = lod(&[1., 2., 3., 4., 5.], &[vec![3, 2]]);
    let b = lod(&[6., 7., 8., 9.], &[vec![2, 2]]);
    let out = sequence_concat(&[&a, &b]).unwrap();
    assert_eq!(floats(&out), vec![1., 2., 3., 6., 7., 4., 5., 8., 9.]);
    assert_eq!(out.lod(), &[vec![0, 5, 9]]);
}

#[test]
fn expand_repeats_by_the_referred_level() {
    let x = lod(&[1., 2., 3., 4.], &[vec![2, 2]]);
    let y = lod(&[0.; 8], &[vec![2, 2], vec![3, 3, 1, 1]]);
    let out = sequence_expand(&x, &y, 0).unwrap();
    assert_eq!(floats(&out), vec![1., 2., 1., 2., 3., 4., 3., 4.]);
    assert_eq!(out.lod(), &[vec![0, 2, 4, 6, 8]]);
    let plain = Lod::new(column(&[1., 2., 3.]), vec![]).unwrap();
    let y = lod(&[0.; 5], &[vec![2, 0, 3]]);
    let out = sequence_expand(&plain, &y, -1).unwrap();
    assert_eq!(floats(&out), vec![1., 1., 3., 3., 3.]);
    assert!(out.lod().is_empty());
    let as_y = sequence_expand_as(&plain, &y).unwrap();
    assert_eq!(as_y.lod(), y.lod());
}

#[test]
fn pad_and_unpad_round_trip() {
    let x = lod(&[1., 2., 3., 4., 5.], &[vec![2, 3]]);
    let pad = Tensor::new(vec![1], Buffer::from(vec![0f32])).unwrap();
    let (out, len) = sequence_pad(&x, &pad, Some(4)).unwrap();
    assert_eq!(out.data().shape(), &[2, 4, 1]);
    assert_eq!(floats(&out), vec![1., 2., 0., 0., 3., 4., 5., 0.]);
    assert_eq!(len.data().to_i64_vec().unwrap(), vec![2, 3]);
    assert!(sequence_pad(&x, &pad, Some(2)).is_err());
    let back = sequence_unpad(out.data(), len.data()).unwrap();
    assert_eq!(back, x);
}

#[test]
fn slice_reverse_reshape_enumerate() {
    let x = lod(&[1., 2., 3., 4., 5.], &[vec![3, 2]]);
    let col = |v: Vec<i64>| Tensor::new(vec![v.len(), 1], Buffer::from(v)).unwrap();
    let s = sequence_slice(&x, &col(vec![0, 1]), &col(vec![2, 1])).unwrap();
    assert_eq!(floats(&s), vec![1., 2., 5.]);
    let e = sequence_slice(&x, &col(vec![2, 1]), &col(vec![2, 1])).unwrap_err();
    assert_eq!(e.class, ExceptionClass::IndexError);
    assert_eq!(
        floats(&sequence_reverse(&x).unwrap()),
        vec![3., 2., 1., 5., 4.]
    );
    let pairs = lod(&[1., 2., 3., 4.], &[vec![2, 2]]);
    let r = sequence_reshape(&pairs, 2).unwrap();
    assert_eq!(
        (r.data().shape(), r.lod()),
        (&[2, 2][..], &[vec![0, 1, 2]][..])
    );
    assert!(sequence_reshape(&pairs, 3).is_err());
    let ids = Lod::from_lengths(col(vec![1, 2, 3, 4, 5]), &[vec![3, 2]]).unwrap();
    let en = sequence_enumerate(&ids, 2, 0).unwrap();
    assert_eq!(
        en.data().to_i64_vec().unwrap(),
        vec![1, 2, 2, 3, 3, 0, 4, 5, 5, 0]
    );
}

#[test]
fn scatter_mask_and_reset() {
    let x = Tensor::new(vec![2, 3], Buffer::from(vec![0f32, 0., 0., 0., 0., 0.])).unwrap();
    let col = |v: Vec<i64>| Tensor::new(vec![v.len(), 1], Buffer::from(v)).unwrap();
    let index = Lod::from_lengths(col(vec![0, 2, 2]), &[vec![1, 2]]).unwrap();
    let updates = lod(&[1., 2., 3.], &[vec![1, 2]]);
    let out = sequence_scatter(&x, &index, &updates).unwrap();
    assert_eq!(
        out.data().to_f64_vec().unwrap(),
        vec![1., 0., 0., 0., 0., 5.]
    );
    let bad = Lod::from_lengths(col(vec![0, 3, 2]), &[vec![1, 2]]).unwrap();
    assert_eq!(
        sequence_scatter(&x, &bad, &updates).unwrap_err().class,
        ExceptionClass::IndexError
    );
    let m = sequence_mask(
        &Tensor::from_i64(vec![3, 1, 0]),
        Some(4),
        crate::DType::Int64,
    )
    .unwrap();
    assert_eq!(m.shape(), &[3, 4]);
    assert_eq!(
        m.to_i64_vec().unwrap(),
        vec![1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    );
    let x = lod(&[1., 2., 3., 4., 5., 6.], &[vec![2, 3, 1]]);
    let e = lod_reset(&x, LodSource::Offsets(&[4, 2])).unwrap_err();
    assert!(e.hint.unwrap().contains("[0, 4, 6]"));
    let r = lod_reset(&x, LodSource::Offsets(&[0, 4, 6])).unwrap();
    assert_eq!(r.lod(), &[vec![0, 4, 6]]);
    let a = lod_append(&x, LodSource::Offsets(&[0, 1, 2, 3, 4, 5, 6])).unwrap();
    assert_eq!(a.lod().len(), 2);
    assert!(lod_append(&x, LodSource::Offsets(&[0, 2, 6])).is_err());
}
