//! `tf.sparse.sparse_dense_matmul(sp, b)` without densifying `sp`: each stored value adds its
//! multiple of a row of `b` into its output row, in the order of the indices (as
//! TensorFlow's kernel accumulates), and groups of output rows run on every core (row-major
//! indices put each row's values together).

use rayon::prelude::*;

use crate::buffer::Buffer;
use crate::element::Number;
use crate::error::Result;
use crate::sparse::Sparse;
use crate::tensor::Tensor;
use crate::{budget, interrupt};

/// Output elements handled between two looks at the interrupt flag.
const STEP: usize = 1 << 22;

/// From this many stored values a step splits its rows across the cores.
const PARALLEL: usize = 1 << 15;

/// The first stored value (of `nnz`, indices `[nnz, 2]`) whose row is `row` or later.
fn first_of_row(indices: &[i64], nnz: usize, row: usize) -> usize {
    let (mut lo, mut hi) = (0, nnz);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if (indices[2 * mid] as usize) < row {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Whether the `[nnz, 2]` indices lie inside `rows × cols`, in row-major order and distinct
/// (what `Sparse::check_indices` checks, in one pass over pairs): on every core from
/// [`PARALLEL`] pairs, each block of pairs compared with the pair before it too (a pass
/// over ten million pairs on one core took a fifth of the product's time).
fn ordered_in_bounds(indices: &[i64], rows: i64, cols: i64) -> bool {
    let block = |start: usize, pairs: &[i64]| {
        let mut prev = match start {
            0 => (-1i64, -1i64),
            k => (indices[2 * k - 2], indices[2 * k - 1]),
        };
        for ix in pairs.chunks_exact(2) {
            let at = (ix[0], ix[1]);
            if !(0..rows).contains(&at.0) || !(0..cols).contains(&at.1) || at <= prev {
                return false;
            }
            prev = at;
        }
        true
    };
    if indices.len() < 2 * PARALLEL {
        return block(0, indices);
    }
    indices
        .par_chunks(2 * PARALLEL)
        .enumerate()
        .all(|(k, pairs)| block(k * PARALLEL, pairs))
}

/// Adds the stored values `from..to` (whose rows start at `row0`) into `out`.
fn rows_into<T: Number>(
    out: &mut [T],
    row0: usize,
    indices: &[i64],
    values: &[T],
    b: &[T],
    n: usize,
    (from, to): (usize, usize),
) {
    for (ix, &v) in indices[2 * from..2 * to]
        .chunks_exact(2)
        .zip(&values[from..to])
    {
        let r = ix[0] as usize - row0;
        let c = ix[1] as usize;
        let dst = &mut out[r * n..(r + 1) * n];
        for (d, &x) in dst.iter_mut().zip(&b[c * n..(c + 1) * n]) {
            *d = d.plus(v.times(x));
        }
    }
}

/// `sp × b` for a matrix `sp` whose indices are in bounds, in row-major order and distinct
/// and a matrix `b` of its numeric dtype with as many rows as `sp` has columns; None for
/// anything else (the caller's general path gives its answer or error).
pub fn sparse_dense_matmul(sp: &Sparse, b: &Tensor) -> Result<Option<Tensor>> {
    let shape = sp.dense_shape();
    if sp.rank() != 2 || b.rank() != 2 || sp.dtype() != b.dtype() || !b.dtype().is_numeric() {
        return Ok(None);
    }
    if shape[1] < 0 || shape[1] as u64 != b.shape()[0] as u64 {
        return Ok(None);
    }
    if !ordered_in_bounds(sp.indices(), shape[0], shape[1]) {
        return Ok(None);
    }
    let m = shape[0].max(0) as usize;
    let n = b.shape()[1];
    let out_shape = vec![m, n];
    let total = budget::check_shape(
        "tf.sparse.sparse_dense_matmul",
        &out_shape,
        b.dtype().item_bytes(),
    )?;
    let indices = sp.indices();
    let nnz = sp.nnz();
    let data = crate::dispatch!(numbers pair (sp.values().data(), b.data()), T: (vals, bv) => {
        let (vals, bv): (&[T], &[T]) = (vals, bv);
        let mut out: Vec<T> = budget::filled("tf.sparse.sparse_dense_matmul", T::default(), total)?;
        if n > 0 && m > 0 {
            let step_rows = (STEP / n).max(1);
            for (s, step) in out.chunks_mut(step_rows * n).enumerate() {
                interrupt::check()?;
                let row0 = s * step_rows;
                let rows = step.len() / n;
                let span = (first_of_row(indices, nnz, row0), first_of_row(indices, nnz, row0 + rows));
                if span.1 - span.0 < PARALLEL {
                    rows_into(step, row0, indices, vals, bv, n, span);
                    continue;
                }
                // Tasks of rows with about PARALLEL stored values each.
                let task_rows = (rows * PARALLEL / (span.1 - span.0)).max(1);
                step.par_chunks_mut(task_rows * n).enumerate().for_each(|(t, part)| {
                    let r0 = row0 + t * task_rows;
                    let r1 = r0 + part.len() / n;
                    let span = (first_of_row(indices, nnz, r0), first_of_row(indices, nnz, r1));
                    rows_into(part, r0, indices, vals, bv, n, span);
                });
            }
        }
        Buffer::from(out)
    }, _ => return Ok(None));
    Ok(Some(Tensor::from_parts(out_shape, data)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_checks_on_every_core_see_each_block_boundary() {
        let n = 3 * PARALLEL + 5;
        let mut ix: Vec<i64> = (0..n as i64).flat_map(|i| [i / 4, i % 4]).collect();
        assert!(ordered_in_bounds(&ix, n as i64 / 4 + 1, 4));
        assert!(
            !ordered_in_bounds(&ix, n as i64 / 4, 4),
            "a row out of bounds"
        );
        assert!(
            !ordered_in_bounds(&ix, n as i64, 3),
            "a column out of bounds"
        );
        // The first pair of the second block repeats the pair before it.
        ix[2 * PARALLEL] = ix[2 * PARALLEL - 2];
        ix[2 * PARALLEL + 1] = ix[2 * PARALLEL - 1];
        assert!(!ordered_in_bounds(&ix, n as i64, 4));
        assert!(ordered_in_bounds(&[0, 1, 0, 2, 1, 0], 2, 3));
        assert!(!ordered_in_bounds(&[0, 2, 0, 1], 2, 3), "out of order");
    }

    #[test]
    fn products_of_rows() {
        // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] × [[1, 2], [3, 4], [5, 6]].
        let sp = Sparse::new(
            vec![0, 0, 0, 2, 2, 1],
            Tensor::vector(Buffer::from(vec![1i32, 2, 3])),
            vec![3, 3],
        )
        .unwrap();
        let b = Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let out = sparse_dense_matmul(&sp, &b).unwrap().unwrap();
        assert_eq!(out.shape(), &[3, 2]);
        assert_eq!(out.data(), &Buffer::from(vec![11i32, 14, 0, 0, 9, 12]));
        // Unordered indices, a dtype mismatch and a shape mismatch go to the general path.
        let unordered = Sparse::new(
            vec![2, 1, 0, 0],
            Tensor::vector(Buffer::from(vec![1i32, 2])),
            vec![3, 3],
        )
        .unwrap();
        assert!(sparse_dense_matmul(&unordered, &b).unwrap().is_none());
        let bf = Tensor::new(vec![3, 1], Buffer::from(vec![1f32, 2., 3.])).unwrap();
        assert!(sparse_dense_matmul(&sp, &bf).unwrap().is_none());
        assert!(sparse_dense_matmul(&sp, &b.rows(0, 2)).unwrap().is_none());
        // Many rows across the cores: the same as one pass.
        let rows = 3 * PARALLEL;
        let idx: Vec<i64> = (0..rows as i64).flat_map(|r| [r, r % 3]).collect();
        let vals: Vec<f32> = (0..rows).map(|r| r as f32).collect();
        let sp = Sparse::new(
            idx,
            Tensor::vector(Buffer::from(vals)),
            vec![rows as i64, 3],
        )
        .unwrap();
        let b = Tensor::new(vec![3, 1], Buffer::from(vec![1f32, 2., 3.])).unwrap();
        let out = sparse_dense_matmul(&sp, &b).unwrap().unwrap();
        let want: Vec<f32> = (0..rows).map(|r| r as f32 * (r % 3 + 1) as f32).collect();
        assert_eq!(out.data(), &Buffer::from(want));
    }
}
