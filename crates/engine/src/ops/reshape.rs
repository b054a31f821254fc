//! Adding, removing and reversing dimensions: `tf.expand_dims`, `tf.squeeze`, `tf.reverse`.

use super::index::{getitem, Key};
use super::{insertion_axis, positive_axis};
use crate::budget;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::invalid_arg;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;

/// `tf.expand_dims(a, axis)`: a dimension of size 1 at `axis` (`-1` appends one).
/// Outside a ragged tensor's flat values the new dimension is a uniform partition.
pub fn expand_dims(a: &Array, axis: i64) -> Result<Array> {
    match a {
        Array::Dense(t) => {
            let class = ExceptionClass::InvalidArgumentError;
            let k = insertion_axis(axis, t.rank(), class, "axis")?;
            let mut shape = t.shape().to_vec();
            shape.insert(k, 1);
            Ok(Array::Dense(t.clone().with_shape(shape)))
        }
        Array::Ragged(r) => {
            let k = insertion_axis(axis, r.rank(), ExceptionClass::ValueError, "axis")?;
            expand_ragged(r, k).map(Array::Ragged)
        }
    }
}

fn expand_ragged(r: &Ragged, axis: usize) -> Result<Ragged> {
    let n = r.nrows();
    match axis {
        0 => {
            let p = RowPartition::from_uniform_row_length(n as i64, n, Some(1))?;
            Ragged::from_partition(p, Array::Ragged(r.clone()))
        }
        1 => {
            let p = RowPartition::from_uniform_row_length(1, n, Some(n as i64))?;
            Ragged::from_partition(p, Array::Ragged(r.clone()))
        }
        _ => {
            let values = match r.values() {
                Array::Ragged(v) => Array::Ragged(expand_ragged(&v, axis - 1)?),
                Array::Dense(t) => expand_dims(&Array::Dense(t), axis as i64 - 1)?,
            };
            r.with_values(values)
        }
    }
}

/// `tf.squeeze(a, axis)`: removes dimensions of size 1 — all of them when `axes` is None
/// (dense only), else exactly those listed, each of which must have size 1 (for a ragged
/// dimension: every row must have length 1).
pub fn squeeze(a: &Array, axes: Option<&[i64]>) -> Result<Array> {
    match a {
        Array::Dense(t) => squeeze_dense(t, axes).map(Array::Dense),
        Array::Ragged(r) => {
            let Some(axes) = axes else {
                return Err(crate::value_error!(
                    "squeezing a ragged tensor needs an explicit axis"
                )
                .with_hint("name the dimensions to remove, e.g. tf.squeeze(rt, axis=[2])"));
            };
            squeeze_ragged(r, axes)
        }
    }
}

fn squeeze_dense(t: &Tensor, axes: Option<&[i64]>) -> Result<Tensor> {
    let shape = t.shape();
    let remove: Vec<usize> = match axes {
        None => (0..shape.len()).filter(|&d| shape[d] == 1).collect(),
        Some(axes) => {
            let mut v = budget::vec("a reshape", axes.len())?;
            for &ax in axes {
                let d = positive_axis(
                    ax,
                    shape.len(),
                    ExceptionClass::InvalidArgumentError,
                    "axis",
                )?;
                if shape[d] != 1 {
                    return Err(invalid_arg!(
                        "cannot squeeze dimension {d}: it has size {}, not 1",
                        shape[d]
                    ));
                }
                v.push(d);
            }
            v
        }
    };
    let new_shape: Vec<usize> = (0..shape.len())
        .filter(|d| !remove.contains(d))
        .map(|d| shape[d])
        .collect();
    Ok(t.clone().with_shape(new_shape))
}

fn squeeze_ragged(r: &Ragged, axes: &[i64]) -> Result<Array> {
    let rr = r.ragged_rank();
    let mut ragged_dims = Vec::new();
    let mut dense_dims = Vec::new();
    for &ax in axes {
        let d = positive_axis(ax, r.rank(), ExceptionClass::ValueError, "axis")?;
        if d > rr {
            dense_dims.push((d - rr) as i64);
        } else {
            ragged_dims.push(d);
        }
    }
    for (i, p) in r.partitions().iter().enumerate() {
        if ragged_dims.contains(&(i + 1)) && p.row_lengths().iter().any(|&l| l != 1) {
            return Err(invalid_arg!(
                "cannot squeeze dimension {}: not every row has length 1",
                i + 1
            ));
        }
    }
    if ragged_dims.contains(&0) && r.nrows() != 1 {
        return Err(invalid_arg!(
            "cannot squeeze dimension 0: it has size {}, not 1",
            r.nrows()
        ));
    }
    let mut flat = r.flat_values().clone();
    if !dense_dims.is_empty() {
        flat = squeeze_dense(&flat, Some(&dense_dims))?;
    }
    let mut remaining: Vec<RowPartition> = r
        .partitions()
        .iter()
        .enumerate()
        .filter(|(i, _)| !ragged_dims.contains(&(i + 1)))
        .map(|(_, p)| RowPartition::from_row_splits(p.row_splits().to_vec(), None))
        .collect::<Result<_>>()?;
    if !remaining.is_empty() && ragged_dims.contains(&0) {
        remaining.remove(0);
    }
    let all_ragged_gone = (0..=rr).all(|d| ragged_dims.contains(&d));
    if remaining.is_empty() {
        if all_ragged_gone {
            flat = squeeze_dense(&flat, Some(&[0]))?;
        }
        return Ok(Array::Dense(flat));
    }
    Ragged::new(remaining, flat).map(Array::Ragged)
}

/// `tf.reverse(a, axes)`: reverses the listed dimensions; along a ragged dimension each
/// row is reversed in place.
pub fn reverse(a: &Array, axes: &[i64]) -> Result<Array> {
    let rank = a.rank();
    let dense = matches!(a, Array::Dense(_));
    let class = if dense {
        ExceptionClass::InvalidArgumentError
    } else {
        ExceptionClass::ValueError
    };
    let mut dims = budget::vec("a reshape", axes.len())?;
    for (i, &ax) in axes.iter().enumerate() {
        let d = positive_axis(ax, rank, class, &format!("axis[{i}] ="))?;
        if dense && dims.contains(&d) {
            return Err(invalid_arg!("axis {d} is listed more than once"));
        }
        dims.push(d);
    }
    let Some(&max) = dims.iter().max() else {
        return Ok(a.clone());
    };
    let mut keys = budget::filled("a reshape", Key::Slice(None, None, None), max + 1)?;
    for d in dims {
        keys[d] = Key::Slice(None, None, Some(-1));
    }
    getitem(a, &keys)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // small fixed sizes
mod tests {
    use super::*;
    use crate::buffer::Buffer;

    fn ragged(lengths: &[i64], values: Vec<i32>) -> Ragged {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        Ragged::new(vec![p], Tensor::vector(Buffer::I32(values.into()))).unwrap()
    }

    #[test]
    fn expand_dense_and_ragged() {
        let t = Array::Dense(Tensor::new(vec![2, 3], Buffer::I32(vec![0; 6].into())).unwrap());
        assert_eq!(
            expand_dims(&t, 0).unwrap().shape(),
            vec![Some(1), Some(2), Some(3)]
        );
        assert_eq!(
            expand_dims(&t, -1).unwrap().shape(),
            vec![Some(2), Some(3), Some(1)]
        );
        assert_eq!(
            expand_dims(&t, 3).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        let r = Array::Ragged(ragged(&[2, 1], vec![1, 2, 3]));
        let e0 = expand_dims(&r, 0).unwrap();
        assert_eq!(e0.shape(), vec![Some(1), Some(2), None]);
        let e1 = expand_dims(&r, 1).unwrap();
        assert_eq!(e1.shape(), vec![Some(2), Some(1), None]);
        let e2 = expand_dims(&r, -1).unwrap();
        assert_eq!(e2.shape(), vec![Some(2), None, Some(1)]);
        assert_eq!(e2.ragged_rank(), 1);
        assert_eq!(
            expand_dims(&r, 4).unwrap_err().class,
            ExceptionClass::ValueError
        );
        let empty = Array::Ragged(ragged(&[], vec![]));
        assert_eq!(
            expand_dims(&empty, 0).unwrap().shape(),
            vec![Some(1), Some(0), None]
        );
    }

    #[test]
    fn squeeze_dense_and_ragged() {
        let t = Array::Dense(Tensor::new(vec![1, 2, 1], Buffer::from(vec![1i32, 2])).unwrap());
        assert_eq!(squeeze(&t, None).unwrap().shape(), vec![Some(2)]);
        assert_eq!(
            squeeze(&t, Some(&[-1])).unwrap().shape(),
            vec![Some(1), Some(2)]
        );
        let e = squeeze(&t, Some(&[1])).unwrap_err();
        assert!(e.message.contains("size 2"), "{}", e.message);
        let r = Array::Ragged(ragged(&[1, 1, 1], vec![1, 2, 3]));
        let s = squeeze(&r, Some(&[1])).unwrap();
        assert_eq!(
            s,
            Array::Dense(Tensor::vector(Buffer::from(vec![1i32, 2, 3])))
        );
        let r2 = Array::Ragged(ragged(&[2, 1], vec![1, 2, 3]));
        assert_eq!(
            squeeze(&r2, Some(&[1])).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert_eq!(
            squeeze(&r2, None).unwrap_err().class,
            ExceptionClass::ValueError
        );
        let one = Array::Ragged(ragged(&[3], vec![1, 2, 3]));
        assert_eq!(
            squeeze(&one, Some(&[0])).unwrap(),
            Array::Dense(Tensor::vector(Buffer::from(vec![1i32, 2, 3])))
        );
    }

    #[test]
    fn reverse_dense_and_ragged() {
        let t = Array::Dense(Tensor::new(vec![2, 2], Buffer::from(vec![1i32, 2, 3, 4])).unwrap());
        let Array::Dense(out) = reverse(&t, &[1]).unwrap() else {
            panic!()
        };
        assert_eq!(out.data(), &Buffer::from(vec![2i32, 1, 4, 3]));
        let Array::Dense(out) = reverse(&t, &[0, -1]).unwrap() else {
            panic!()
        };
        assert_eq!(out.data(), &Buffer::from(vec![4i32, 3, 2, 1]));
        assert_eq!(
            reverse(&t, &[0, 0]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert_eq!(
            reverse(&t, &[2]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        let r = Array::Ragged(ragged(&[2, 1, 0, 3], vec![1, 2, 3, 4, 5, 6]));
        let Array::Ragged(out) = reverse(&r, &[1]).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[2, 1, 0, 3]);
        assert_eq!(
            out.flat_values().to_i64_vec().unwrap(),
            vec![2, 1, 3, 6, 5, 4]
        );
        let Array::Ragged(out) = reverse(&r, &[0]).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[3, 0, 1, 2]);
        assert_eq!(
            reverse(&r, &[2]).unwrap_err().class,
            ExceptionClass::ValueError
        );
        assert_eq!(reverse(&r, &[]).unwrap(), r);
    }
}
