//! `tf.pad` with a constant border, for the number and bool dtypes: the output written once,
//! in order, as runs of the constant and copies of the input's innermost rows (one `memcpy`
//! a row), instead of an index computed and gathered for every element.

use crate::budget;
use crate::buffer::{Buffer, Scalar};
use crate::error::Result;
use crate::interrupt::{self, Runs};
use crate::tensor::Tensor;

/// `t` (rank ≥ 1) padded to `out_shape` with `paddings[d].0` elements of `value` before
/// each dimension `d` (the caller checked the paddings and the output's size), or None
/// for a dtype this path does not take (strings).
pub(super) fn pad_constant(
    t: &Tensor,
    out_shape: &[usize],
    paddings: &[(i64, i64)],
    value: &Scalar,
) -> Result<Option<Tensor>> {
    let shape = t.shape();
    let n_out: usize = out_shape.iter().product();
    let data = crate::dispatch!(elements t.data(), T: v => {
        let Some(fill) = T::from_scalar(value) else {
            return Ok(None);
        };
        let v: &[T] = v;
        let block = Block { shape, out_shape, paddings, fill };
        if n_out >= interrupt::PARALLEL_MIN {
            budget::check("tf.pad", n_out as u128, std::mem::size_of::<T>())?;
            let out = interrupt::fill_runs(n_out, &|start, runs| block.write(start, v, runs));
            interrupt::check()?;
            Buffer::from(out)
        } else {
            let mut out: Vec<T> = budget::vec("tf.pad", n_out)?;
            block.emit(0, v, &mut out)?;
            Buffer::from(out)
        }
    }, _ => return Ok(None));
    Ok(Some(Tensor::from_parts(out_shape.to_vec(), data)))
}

/// The shapes and the border of one padding.
struct Block<'a, T> {
    shape: &'a [usize],
    out_shape: &'a [usize],
    paddings: &'a [(i64, i64)],
    fill: T,
}

impl<T: Copy + Default> Block<'_, T> {
    /// Writes the output from flat position `start` until `runs` is full: each innermost
    /// output row is the border, or the border around a copy of its input row.
    fn write(&self, start: usize, v: &[T], runs: &mut Runs<'_, T>) {
        let r = self.shape.len();
        let width = self.out_shape[r - 1];
        let (before, inner) = (self.paddings[r - 1].0 as usize, self.shape[r - 1]);
        let mut row = start / width;
        let mut col = start % width;
        while runs.remaining() > 0 {
            match self.input_row(row) {
                None => runs.repeat(self.fill, width - col),
                Some(i) => {
                    let src = &v[i * inner..(i + 1) * inner];
                    if col < before {
                        runs.repeat(self.fill, before - col);
                    }
                    let from = col.saturating_sub(before).min(inner);
                    runs.copy(&src[from..]);
                    runs.repeat(self.fill, width - col.max(before + inner));
                }
            }
            row += 1;
            col = 0;
        }
    }

    /// The input row that innermost output row `row` copies, or None in the border.
    fn input_row(&self, mut row: usize) -> Option<usize> {
        let r = self.shape.len();
        let (mut index, mut stride) = (0, 1);
        for d in (0..r - 1).rev() {
            let at = (row % self.out_shape[d]).checked_sub(self.paddings[d].0 as usize)?;
            if at >= self.shape[d] {
                return None;
            }
            index += at * stride;
            stride *= self.shape[d];
            row /= self.out_shape[d];
        }
        Some(index)
    }

    /// Appends the padded block of dimension `d` whose input elements are `v`.
    fn emit(&self, d: usize, v: &[T], out: &mut Vec<T>) -> Result<()> {
        let (before, after) = (self.paddings[d].0 as usize, self.paddings[d].1 as usize);
        let cell: usize = self.out_shape[d + 1..].iter().product();
        out.extend(std::iter::repeat_n(self.fill, before * cell));
        if d + 1 == self.shape.len() {
            out.extend_from_slice(v);
        } else {
            let step: usize = self.shape[d + 1..].iter().product();
            if d + 2 == self.shape.len() {
                interrupt::check()?;
            }
            for i in 0..self.shape[d] {
                self.emit(d + 1, &v[i * step..(i + 1) * step], out)?;
            }
        }
        out.extend(std::iter::repeat_n(self.fill, after * cell));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::{pad, PadMode};
    use super::*;

    #[test]
    fn constant_pads_match_the_gather() {
        let t = Tensor::new(vec![2, 3], Buffer::from(vec![1i64, 2, 3, 4, 5, 6])).unwrap();
        let p = pad(&t, &[(1, 0), (0, 2)], PadMode::Constant, &Scalar::I64(9)).unwrap();
        assert_eq!(p.shape(), &[3, 5]);
        assert_eq!(
            p.data(),
            &Buffer::from(vec![9i64, 9, 9, 9, 9, 1, 2, 3, 9, 9, 4, 5, 6, 9, 9])
        );
        // Rank 3, a zero-length dimension, and bools.
        let t = Tensor::new(vec![1, 2, 1], Buffer::from(vec![true, false])).unwrap();
        let p = pad(
            &t,
            &[(0, 1), (1, 0), (1, 1)],
            PadMode::Constant,
            &Scalar::Bool(false),
        )
        .unwrap();
        assert_eq!(p.shape(), &[2, 3, 3]);
        let Buffer::Bool(b) = p.data() else { panic!() };
        assert_eq!(b.iter().filter(|&&x| x).count(), 1);
        assert!(b[3 + 1]);
        let e = Tensor::new(vec![2, 0], Buffer::from(Vec::<f32>::new())).unwrap();
        let p = pad(&e, &[(1, 1), (1, 1)], PadMode::Constant, &Scalar::F32(0.5)).unwrap();
        assert_eq!(
            p.data(),
            &Buffer::from(std::iter::repeat_n(0.5f32, 8).collect::<Vec<_>>())
        );
    }

    #[test]
    fn large_pads_written_on_every_core_match_the_sequential_writer() {
        type Case<'a> = (&'a [usize], &'a [(i64, i64)]);
        let cases: [Case; 4] = [
            (&[300, 500], &[(2, 1), (3, 4)]),
            (&[7, 40, 600], &[(1, 2), (0, 3), (5, 0)]),
            (&[140_000], &[(3, 9)]),
            (&[70_000, 1], &[(0, 0), (1, 1)]),
        ];
        for (shape, paddings) in cases {
            let n: usize = shape.iter().product();
            let t = Tensor::new(
                shape.to_vec(),
                Buffer::from((0..n as i32).collect::<Vec<_>>()),
            )
            .unwrap();
            let out_shape: Vec<usize> = shape
                .iter()
                .zip(paddings)
                .map(|(&s, &(a, b))| s + (a + b) as usize)
                .collect();
            let Buffer::I32(v) = t.data() else { panic!() };
            let block = Block {
                shape,
                out_shape: &out_shape,
                paddings,
                fill: -1,
            };
            let mut want = Vec::new();
            block.emit(0, v, &mut want).unwrap();
            assert!(want.len() >= interrupt::PARALLEL_MIN, "{shape:?}");
            let got = pad_constant(&t, &out_shape, paddings, &Scalar::I32(-1))
                .unwrap()
                .unwrap();
            assert_eq!(got.data(), &Buffer::from(want), "{shape:?}");
        }
    }
}
