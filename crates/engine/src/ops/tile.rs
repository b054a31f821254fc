//! `tf.tile`: repeating a tensor along each dimension. Along a ragged dimension each row's
//! own values repeat, so row `r` of length `n` becomes a row of length `n * multiples[d]`.

use super::check_size;
use crate::budget;
use crate::error::Result;
use crate::invalid_arg;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;

/// `tf.tile(a, multiples)`: one multiple per dimension of `a`.
pub fn tile(a: &Array, multiples: &[i64]) -> Result<Array> {
    if multiples.len() != a.rank() {
        return Err(invalid_arg!(
            "multiples has {} entries, but the input has rank {}: tf.tile needs one multiple per dimension",
            multiples.len(),
            a.rank()
        ));
    }
    if let Some(i) = multiples.iter().position(|&m| m < 0) {
        return Err(invalid_arg!(
            "multiples[{i}] is {}, but multiples must be non-negative",
            multiples[i]
        ));
    }
    let m: Vec<usize> = multiples.iter().map(|&m| m as usize).collect();
    match a {
        Array::Dense(t) => tile_dense(t, &m).map(Array::Dense),
        Array::Ragged(r) => tile_ragged(r, &m).map(Array::Ragged),
    }
}

/// Tiles a dense tensor, one dimension at a time from the innermost.
pub fn tile_dense(t: &Tensor, multiples: &[usize]) -> Result<Tensor> {
    let total = t
        .shape()
        .iter()
        .zip(multiples)
        .map(|(&d, &m)| d as u128 * m as u128)
        .product();
    let out_shape: Vec<usize> = t
        .shape()
        .iter()
        .zip(multiples)
        .map(|(&d, &m)| usize::try_from(d as u128 * m as u128).unwrap_or(usize::MAX))
        .collect();
    crate::size::numel(&out_shape)?;
    budget::check("tf.tile", total, t.dtype().item_bytes())?;
    if t.dtype() == crate::DType::String {
        let copies: u128 = multiples.iter().map(|&m| m as u128).product();
        budget::check_bytes(
            "tf.tile",
            copies.saturating_mul(t.data().str_bytes() as u128),
        )?;
    }
    let mut shape = t.shape().to_vec();
    let mut data = t.data().clone();
    for d in (0..shape.len()).rev() {
        let m = multiples[d];
        if m == 1 {
            continue;
        }
        // Each block of dimensions d.. is repeated m times in place.
        let outer: usize = shape[..d].iter().product();
        let block: usize = shape[d..].iter().product();
        let mut ranges = budget::vec("tf.tile", crate::size::mul(outer, m)?)?;
        for o in 0..outer {
            ranges.extend(std::iter::repeat_n((o * block, (o + 1) * block), m));
        }
        data = data.gather_ranges(&ranges);
        shape[d] *= m;
    }
    Ok(Tensor::from_parts(shape, data))
}

/// Tiles a ragged tensor: the outer rows repeat as a whole, each ragged row repeats its own
/// children, and the flat values' dense dimensions tile densely.
fn tile_ragged(r: &Ragged, multiples: &[usize]) -> Result<Ragged> {
    // The elements of the current level, as indices into that level of the input.
    let mut current: Vec<usize> =
        budget::vec("tf.tile", crate::size::mul(r.nrows(), multiples[0])?)?;
    for _ in 0..multiples[0] {
        current.extend(0..r.nrows());
    }
    let mut partitions = budget::vec("tf.tile", r.ragged_rank())?;
    for (level, p) in r.partitions().iter().enumerate() {
        let m = multiples[level + 1];
        let mut lengths = budget::vec("tf.tile", current.len())?;
        let mut total: u128 = 0;
        for &i in &current {
            let (a, b) = p.row_range(i);
            let n = (b - a) as u128 * m as u128;
            total += n;
            check_size(total, "tf.tile")?;
            lengths.push(n as i64);
        }
        let mut next = budget::vec("tf.tile", total as usize)?;
        for &i in &current {
            let (a, b) = p.row_range(i);
            for _ in 0..m {
                next.extend(a..b);
            }
        }
        partitions.push(RowPartition::from_row_lengths(&lengths, None)?);
        current = next;
    }
    let rows = r.flat_values().gather_rows(&current);
    let mut inner = vec![1];
    inner.extend_from_slice(&multiples[r.ragged_rank() + 1..]);
    let flat = tile_dense(&rows, &inner)?;
    Ragged::new(partitions, flat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::Buffer;
    use crate::ExceptionClass;

    fn ragged(lengths: &[i64], values: Vec<i32>) -> Array {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        Array::Ragged(Ragged::new(vec![p], Tensor::vector(Buffer::I32(values.into()))).unwrap())
    }

    #[test]
    fn dense_tile() {
        let t = Array::Dense(Tensor::new(vec![2, 2], Buffer::from(vec![1i32, 2, 3, 4])).unwrap());
        let Array::Dense(out) = tile(&t, &[2, 3]).unwrap() else {
            panic!()
        };
        assert_eq!(out.shape(), &[4, 6]);
        assert_eq!(&out.to_i64_vec().unwrap()[..6], &[1, 2, 1, 2, 1, 2]);
        assert_eq!(&out.to_i64_vec().unwrap()[12..18], &[1, 2, 1, 2, 1, 2]);
        let Array::Dense(out) = tile(&t, &[0, 1]).unwrap() else {
            panic!()
        };
        assert_eq!(out.shape(), &[0, 2]);
        assert_eq!(
            tile(&t, &[1]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert!(tile(&t, &[1, -1])
            .unwrap_err()
            .message
            .contains("non-negative"));
        let s = Array::Dense(Tensor::scalar(crate::Scalar::I32(7)));
        assert_eq!(tile(&s, &[]).unwrap(), s);
    }

    #[test]
    fn ragged_tile_rows() {
        let digits = ragged(&[4, 0, 3, 1, 0], vec![3, 1, 4, 1, 5, 9, 2, 6]);
        let Array::Ragged(out) = tile(&digits, &[1, 2]).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[8, 0, 6, 2, 0]);
        assert_eq!(
            out.flat_values().to_i64_vec().unwrap(),
            vec![3, 1, 4, 1, 3, 1, 4, 1, 5, 9, 2, 5, 9, 2, 6, 6]
        );
        let Array::Ragged(out) = tile(&ragged(&[2, 1], vec![1, 2, 3]), &[3, 2]).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[4, 2, 4, 2, 4, 2]);
        assert_eq!(out.shape(), vec![Some(6), None]);
    }

    #[test]
    fn ragged_tile_nested_and_inner() {
        // [[[1], [2, 3]], [[4]]] tiled [1, 2, 2]
        let inner = RowPartition::from_row_lengths(&[1, 2, 1], None).unwrap();
        let outer = RowPartition::from_row_lengths(&[2, 1], None).unwrap();
        let r = Array::Ragged(
            Ragged::new(
                vec![outer, inner],
                Tensor::vector(Buffer::from(vec![1i32, 2, 3, 4])),
            )
            .unwrap(),
        );
        let Array::Ragged(out) = tile(&r, &[1, 2, 2]).unwrap() else {
            panic!()
        };
        assert_eq!(out.partitions()[0].row_lengths(), &[4, 2]);
        assert_eq!(out.partitions()[1].row_lengths(), &[2, 4, 2, 4, 2, 2]);
        assert_eq!(
            out.flat_values().to_i64_vec().unwrap(),
            vec![1, 1, 2, 3, 2, 3, 1, 1, 2, 3, 2, 3, 4, 4, 4, 4]
        );
        // Uniform inner dimension of the flat values tiles densely.
        let fv = Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let p = RowPartition::from_row_lengths(&[2, 1], None).unwrap();
        let r = Array::Ragged(Ragged::new(vec![p], fv).unwrap());
        let Array::Ragged(out) = tile(&r, &[1, 1, 2]).unwrap() else {
            panic!()
        };
        assert_eq!(out.flat_values().shape(), &[3, 4]);
        assert_eq!(&out.flat_values().to_i64_vec().unwrap()[..4], &[1, 2, 1, 2]);
        // Empty rows stay empty.
        let Array::Ragged(out) = tile(&ragged(&[0, 0], vec![]), &[2, 5]).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[0, 0, 0, 0]);
    }
}
