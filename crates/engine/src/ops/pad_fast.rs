//! `tf.pad` with a constant border, for the number and bool dtypes: the output written once,
//! in order, as runs of the constant and copies of the input's innermost rows (one `memcpy`
//! a row), instead of an index computed and gathered for every element.

use crate::buffer::{Buffer, Scalar};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt};

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
        let mut out: Vec<T> = budget::vec("tf.pad", n_out)?;
        let block = Block { shape, out_shape, paddings, fill };
        block.emit(0, v, &mut out)?;
        Buffer::from(out)
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

impl<T: Copy> Block<'_, T> {
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
}
