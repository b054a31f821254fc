//! Unit tests of `tf.gather`: dense and ragged params and indices, axes and batch dims.

use super::*;
use crate::buffer::Buffer;
use crate::exceptions::ExceptionClass;
use crate::partition::RowPartition;
use crate::ragged::Ragged;
use crate::tensor::Tensor;

fn ragged(lengths: &[i64], values: Vec<i32>) -> Array {
    let p = RowPartition::from_row_lengths(lengths, None).unwrap();
    Array::Ragged(Ragged::new(vec![p], Tensor::vector(Buffer::I32(values.into()))).unwrap())
}
fn ids(shape: &[usize], v: Vec<i64>) -> Array {
    Array::Dense(Tensor::new(shape.to_vec(), Buffer::I64(v.into())).unwrap())
}
fn dense(shape: &[usize], v: Vec<i32>) -> Array {
    Array::Dense(Tensor::new(shape.to_vec(), Buffer::I32(v.into())).unwrap())
}
fn values(a: &Array) -> Vec<i64> {
    a.flat_values().to_i64_vec().unwrap()
}

#[test]
fn dense_gather_axes_and_batch() {
    let p = dense(&[3, 2], vec![1, 2, 3, 4, 5, 6]);
    let out = gather(&p, &ids(&[2], vec![2, 0]), None, 0).unwrap();
    assert_eq!(out.shape(), vec![Some(2), Some(2)]);
    assert_eq!(values(&out), vec![5, 6, 1, 2]);
    let out = gather(&p, &ids(&[2, 2], vec![1, 0, 0, 1]), Some(1), 0).unwrap();
    assert_eq!(out.shape(), vec![Some(3), Some(2), Some(2)]);
    assert_eq!(&values(&out)[..4], &[2, 1, 1, 2]);
    let out = gather(&p, &ids(&[], vec![1]), Some(-1), 0).unwrap();
    assert_eq!(values(&out), vec![2, 4, 6]);
    let out = gather(&p, &ids(&[3], vec![1, 0, 1]), Some(1), 1).unwrap();
    assert_eq!(values(&out), vec![2, 3, 6]);
    let e = gather(&p, &ids(&[1], vec![3]), None, 0).unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    assert!(
        e.message.contains("indices[0] = 3 is not in [0, 3)"),
        "{}",
        e.message
    );
    assert!(gather(&p, &ids(&[1], vec![-1]), None, 0).is_err());
    assert_eq!(
        gather(&p, &ids(&[1], vec![0]), Some(2), 0)
            .unwrap_err()
            .class,
        ExceptionClass::InvalidArgumentError
    );
    let f = Array::Dense(Tensor::vector(Buffer::from(vec![0.0f32])));
    assert_eq!(
        gather(&p, &f, None, 0).unwrap_err().class,
        ExceptionClass::InvalidArgumentError
    );
    let empty = gather(&p, &ids(&[0], vec![]), None, 0).unwrap();
    assert_eq!(empty.shape(), vec![Some(0), Some(2)]);
}

#[test]
fn ragged_params_and_indices() {
    let rp = ragged(&[3, 1, 0, 1], vec![1, 2, 3, 4, 5]);
    let out = gather(&rp, &ids(&[5], vec![3, 1, 2, 1, 0]), None, 0).unwrap();
    let Array::Ragged(r) = &out else { panic!() };
    assert_eq!(r.row_lengths(), &[1, 1, 0, 1, 3]);
    assert_eq!(values(&out), vec![5, 4, 4, 1, 2, 3]);
    // Dense 2-D indices into ragged params: a uniform outer dimension.
    let out = gather(&rp, &ids(&[2, 2], vec![0, 1, 2, 3]), None, 0).unwrap();
    assert_eq!(out.shape(), vec![Some(2), Some(2), None]);
    // A scalar index picks one row.
    let out = gather(&rp, &ids(&[], vec![0]), None, 0).unwrap();
    assert_eq!(out, dense(&[3], vec![1, 2, 3]));
    // Ragged indices into dense params keep the indices' rows.
    let p = dense(&[5], vec![10, 11, 12, 13, 14]);
    let ri = Array::Ragged(
        Ragged::new(
            vec![RowPartition::from_row_lengths(&[3, 1, 0, 1], None).unwrap()],
            Tensor::vector(Buffer::from(vec![3i64, 1, 2, 1, 0])),
        )
        .unwrap(),
    );
    let out = gather(&p, &ri, None, 0).unwrap();
    assert_eq!(out.shape(), vec![Some(4), None]);
    assert_eq!(values(&out), vec![13, 11, 12, 11, 10]);
    // Ragged indices into ragged params nest.
    let out = gather(&rp, &ri, None, 0).unwrap();
    assert_eq!(out.shape(), vec![Some(4), None, None]);
    assert_eq!(values(&out), vec![5, 4, 4, 1, 2, 3]);
    assert!(gather(&rp, &ids(&[1], vec![4]), None, 0).is_err());
}

#[test]
fn ragged_axis_and_batch_gather() {
    let rp = ragged(&[3, 2], vec![1, 2, 3, 4, 5]);
    let out = gather(&rp, &ids(&[2], vec![1, 0]), Some(1), 0).unwrap();
    assert_eq!(out, dense(&[2, 2], vec![2, 1, 5, 4]));
    assert!(gather(&rp, &ids(&[1], vec![2]), Some(1), 0).is_err());
    // batch_dims=1: each row picks from its own row of params.
    let ri = Array::Ragged(
        Ragged::new(
            vec![RowPartition::from_row_lengths(&[1, 2], None).unwrap()],
            Tensor::vector(Buffer::from(vec![2i64, 1, 1])),
        )
        .unwrap(),
    );
    let out = gather(&rp, &ri, None, 1).unwrap();
    let Array::Ragged(r) = &out else { panic!() };
    assert_eq!(r.row_lengths(), &[1, 2]);
    assert_eq!(values(&out), vec![3, 5, 5]);
    assert_eq!(
        gather(&rp, &ri, None, 5).unwrap_err().class,
        ExceptionClass::ValueError
    );
}
