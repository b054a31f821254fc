//! The product loop: each batch's matrices as 2-D ndarray views of the operands' flat
//! storage, multiplied a block of rows at a time into one output buffer allocated once,
//! across rayon's threads for large products, with a look at the interrupt flag between
//! steps.

use ndarray::{ArrayView2, ArrayViewMut2, Axis, Slice};
use rayon::prelude::*;

use crate::budget;
use crate::element::Number;
use crate::error::Result;
use crate::invalid_arg;
use crate::{interrupt, size};

/// Multiply-adds in one block of rows, at least: large enough that a block amortises the
/// packing matrixmultiply does per call (each block packs all of `b`: a 500 × 500 float32
/// product in blocks of 2^21 packed `b` 63 times, an eighth of its time; in blocks of 2^23,
/// 16 times), small enough that the blocks of a step share the cores evenly. A large matrix
/// is cut into one block per core instead (see [`block_rows`]).
const BLOCK_WORK: usize = 1 << 23;

/// Multiply-adds between two looks at the interrupt flag, at most (unless one block is
/// larger): a few milliseconds on two cores, and room for a 500 × 500 float32 product
/// (2^27 multiply-adds) to run as one step of one block per core.
const STEP_WORK: usize = 1 << 28;

/// At most this many blocks in one step, so a batch of millions of tiny matrices still
/// looks at the flag often and keeps the step's list of blocks small.
const STEP_BLOCKS: usize = 4096;

/// From this many multiply-adds a step runs on every core: below it a split and a join
/// (microseconds) cost more than they save.
const PARALLEL_WORK: usize = 1 << 18;

/// Rows in a block of a product of `rows` rows of `row_work` multiply-adds each: an even
/// share of the rows for each of `cores` cores (each block packs `b` once, so one block per
/// core packs it least), but no fewer than [`BLOCK_WORK`] multiply-adds (a small product
/// stays one block, on one core) and no more than a core's share of a step.
fn block_rows(rows: usize, row_work: usize, cores: usize) -> usize {
    let least = (BLOCK_WORK / row_work).max(1);
    let most = (STEP_WORK / cores.max(1) / row_work).max(1);
    rows.div_ceil(cores.max(1)).min(most).max(least)
}

/// One product of the batch: `rows` rows of `a` starting at element `a` of its storage
/// (the matrix's first element when `a` is transposed), times the matrix at element `b` of
/// `b`'s storage. Output rows follow one another in batch order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part {
    /// Offset of this part's `a` matrix in `a`'s storage.
    pub a: usize,
    /// Offset of this part's `b` matrix in `b`'s storage.
    pub b: usize,
    /// Rows of the product (of `a`, or of `aᵀ`).
    pub rows: usize,
}

/// A batch of products sharing the inner size `k` and the column count `n`.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// The inner (contracted) size.
    pub k: usize,
    /// Columns of the product.
    pub n: usize,
    /// `a` is stored as `[k, rows]` and read transposed.
    pub ta: bool,
    /// `b` is stored as `[n, k]` and read transposed.
    pub tb: bool,
    /// The products, in output order.
    pub parts: Vec<Part>,
}

/// A block of output rows: part `part`'s rows `r0..r1`, written into `out`.
struct Block<'o, T> {
    part: Part,
    r0: usize,
    r1: usize,
    out: &'o mut [T],
}

/// `slice` seen as a `rows × cols` matrix.
fn matrix<T>(slice: &[T], rows: usize, cols: usize) -> Result<ArrayView2<'_, T>> {
    ArrayView2::from_shape((rows, cols), slice)
        .map_err(|e| invalid_arg!("matmul: a {rows} × {cols} view: {e}"))
}

/// The whole batch of products: a buffer of `Σ rows × n` elements named `what` in a
/// memory error. Integer products wrap around.
pub(crate) fn run<T: Number>(a: &[T], b: &[T], plan: &Plan, what: &str) -> Result<Vec<T>> {
    let rows = size::sum(plan.parts.iter().map(|p| p.rows))?;
    let total = size::mul(rows, plan.n)?;
    let mut out = budget::filled(what, T::default(), total)?;
    if total == 0 || plan.k == 0 {
        return Ok(out);
    }
    let row_work = plan.k.saturating_mul(plan.n).max(1);
    let cores = rayon::current_num_threads();
    let mut rest: &mut [T] = &mut out;
    let mut step: Vec<Block<'_, T>> = Vec::new();
    let mut step_work = 0usize;
    for part in &plan.parts {
        let block_rows = block_rows(part.rows, row_work, cores);
        let mut r0 = 0;
        while r0 < part.rows {
            let r1 = part.rows.min(r0 + block_rows);
            let work = (r1 - r0).saturating_mul(row_work);
            // A step ends before the block that would take it past its work.
            if !step.is_empty()
                && (step_work.saturating_add(work) > STEP_WORK || step.len() >= STEP_BLOCKS)
            {
                run_step(a, b, plan, std::mem::take(&mut step), step_work)?;
                step_work = 0;
            }
            let (head, tail) = std::mem::take(&mut rest).split_at_mut((r1 - r0) * plan.n);
            rest = tail;
            step.push(Block {
                part: *part,
                r0,
                r1,
                out: head,
            });
            step_work = step_work.saturating_add(work);
            r0 = r1;
        }
    }
    run_step(a, b, plan, step, step_work)?;
    Ok(out)
}

/// Runs one step's blocks (on every core when the step is large), after a look at the
/// interrupt flag.
fn run_step<T: Number>(
    a: &[T],
    b: &[T],
    plan: &Plan,
    step: Vec<Block<'_, T>>,
    work: usize,
) -> Result<()> {
    interrupt::check()?;
    if step.len() > 1 && work >= PARALLEL_WORK {
        step.into_par_iter()
            .try_for_each(|blk| block(a, b, plan, blk))
    } else {
        step.into_iter().try_for_each(|blk| block(a, b, plan, blk))
    }
}

/// Multiplies one block of rows.
fn block<T: Number>(a: &[T], b: &[T], plan: &Plan, blk: Block<'_, T>) -> Result<()> {
    let Plan { k, n, ta, tb, .. } = *plan;
    let Part { a: ao, b: bo, rows } = blk.part;
    let a_mat = a
        .get(ao..ao + rows * k)
        .ok_or_else(|| invalid_arg!("matmul: a's storage is shorter than its shape"))?;
    let b_mat = b
        .get(bo..bo + k * n)
        .ok_or_else(|| invalid_arg!("matmul: b's storage is shorter than its shape"))?;
    let av = if ta {
        matrix(a_mat, k, rows)?.reversed_axes()
    } else {
        matrix(a_mat, rows, k)?
    };
    let av = av.slice_axis(Axis(0), Slice::from(blk.r0..blk.r1));
    let bv = if tb {
        matrix(b_mat, n, k)?.reversed_axes()
    } else {
        matrix(b_mat, k, n)?
    };
    let cv = ArrayViewMut2::from_shape((blk.r1 - blk.r0, n), blk.out)
        .map_err(|e| invalid_arg!("matmul: the output view: {e}"))?;
    T::gemm(av, bv, cv);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;
    use crate::exceptions::ExceptionClass;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    fn plan(rows: usize, k: usize, n: usize, batches: usize) -> Plan {
        Plan {
            k,
            n,
            ta: false,
            tb: false,
            parts: (0..batches)
                .map(|i| Part {
                    a: i * rows * k,
                    b: i * k * n,
                    rows,
                })
                .collect(),
        }
    }

    #[test]
    fn every_step_looks_at_the_interrupt_flag() {
        let flag = Arc::new(AtomicBool::new(true));
        interrupt::watch(Some(flag.clone()));
        let mut out = [0.0f32; 4];
        let blk = Block {
            part: Part {
                a: 0,
                b: 0,
                rows: 2,
            },
            r0: 0,
            r1: 2,
            out: &mut out,
        };
        let r = run_step(&[1.0; 4], &[1.0; 4], &plan(2, 2, 2, 1), vec![blk], 8);
        assert_eq!(r.unwrap_err().class, ExceptionClass::KeyboardInterrupt);
        assert_eq!(out, [0.0; 4], "no block ran");
        flag.store(false, Ordering::Relaxed);
        interrupt::watch(None);
    }

    #[test]
    fn blocks_cover_every_row_of_every_part() {
        // Rows long enough that each block holds one row: many blocks, many steps.
        let (rows, k, n) = (5, 1 << 11, 1 << 10);
        let a = vec![1i32; 2 * rows * k];
        let b = vec![1i32; 2 * k * n];
        let out = run(&a, &b, &plan(rows, k, n, 2), "test").unwrap();
        assert_eq!(out.len(), 2 * rows * n);
        assert!(out.iter().all(|&v| v == k as i32));
    }

    #[test]
    fn large_products_split_into_a_block_per_core() {
        // 500 × 500 · 500 × 500: a block per core, all in one step.
        assert_eq!(block_rows(500, 500 * 500, 2), 250);
        assert_eq!(block_rows(500, 500 * 500, 1), 500);
        // Small products stay one block; a product too large for one step is cut so
        // that each core's block fits its share of a step.
        assert_eq!(block_rows(100, 100 * 100, 2), 838);
        assert_eq!(block_rows(4000, 4000 * 4000, 2), 8);
        assert_eq!(block_rows(3, 1 << 30, 2), 1);
        // Odd sizes, a transposed operand: every row right.
        let (m, k, n) = (301, 257, 263);
        let a: Vec<f64> = (0..m * k).map(|i| (i % 7) as f64 - 3.0).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i % 5) as f64 - 2.0).collect();
        let mut p = plan(m, k, n, 1);
        let out = run(&a, &b, &p, "test").unwrap();
        let at = |i: usize, j: usize| (0..k).map(|x| a[i * k + x] * b[x * n + j]).sum::<f64>();
        for (i, j) in [(0, 0), (150, 262), (151, 7), (300, 100)] {
            assert_eq!(out[i * n + j], at(i, j), "[{i}][{j}]");
        }
        // `a` stored as its transpose [k, m].
        let a_t: Vec<f64> = (0..k * m).map(|x| a[(x % m) * k + x / m]).collect();
        p.ta = true;
        assert_eq!(run(&a_t, &b, &p, "test").unwrap(), out);
    }

    #[test]
    fn short_storage_is_an_error_not_a_panic() {
        let r = run(&[1.0f64; 3], &[1.0; 4], &plan(2, 2, 2, 1), "test");
        assert_eq!(r.unwrap_err().class, ExceptionClass::InvalidArgumentError);
    }

    #[test]
    fn bool_products_are_any_of_ands() {
        let a = [true, false, false, false];
        let b = [true, true, false, true];
        let out = run(&a, &b, &plan(2, 2, 2, 1), "test").unwrap();
        assert_eq!(out, vec![true, true, false, false]);
    }
}
