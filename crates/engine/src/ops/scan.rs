//! Running sums and products along an axis: `tf.math.cumsum` and `tf.math.cumprod`, dense
//! and per row of a ragged dimension. Each step rounds to the element type, as TensorFlow's
//! kernel does (float16 sums drift as TensorFlow's do; integers wrap).

use crate::buffer::Buffer;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt, invalid_arg};

/// What a scan does at each step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// A product instead of a sum.
    pub prod: bool,
    /// Each output leaves out its own element.
    pub exclusive: bool,
    /// From the end of the axis towards its start.
    pub reverse: bool,
}

impl Scan {
    fn op(self) -> &'static str {
        if self.prod {
            "Cumprod"
        } else {
            "Cumsum"
        }
    }
}

/// The scan of `t` along `axis`.
pub fn scan(t: &Tensor, axis: usize, how: Scan) -> Result<Tensor> {
    let shape = t.shape();
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let n = shape[axis];
    let runs = (0..outer).map(|o| (o * n * inner, n));
    let data = scan_runs(t.data(), runs, inner, how)?;
    Ok(Tensor::from_parts(shape.to_vec(), data))
}

/// The scan of the rows of `t` (along axis 0) within each of the row ranges `splits` gives:
/// a running sum per ragged row.
pub fn scan_rows(t: &Tensor, splits: &[i64], how: Scan) -> Result<Tensor> {
    let inner = t.row_size();
    let runs = splits
        .windows(2)
        .map(|w| (w[0] as usize * inner, (w[1] - w[0]) as usize));
    let data = scan_runs(t.data(), runs, inner, how)?;
    Ok(Tensor::from_parts(t.shape().to_vec(), data))
}

/// Scans the runs `(start, len)` of `b`, each a block of `len` steps of `inner` lanes.
fn scan_runs(
    b: &Buffer,
    runs: impl Iterator<Item = (usize, usize)>,
    inner: usize,
    how: Scan,
) -> Result<Buffer> {
    let d = b.dtype();
    crate::dispatch!(numbers b, T: v => {
        let mut out: Vec<T> = budget::filled(how.op(), T::ZERO, v.len())?;
        let start = if how.prod { T::ONE } else { T::ZERO };
        let mut acc: Vec<T> = budget::filled(how.op(), start, inner)?;
        for (base, len) in runs {
            interrupt::check()?;
            acc.iter_mut().for_each(|a| *a = start);
            for s in 0..len {
                let step = if how.reverse { len - 1 - s } else { s };
                let at = base + step * inner;
                for (i, a) in acc.iter_mut().enumerate() {
                    let x = v[at + i];
                    if how.exclusive {
                        out[at + i] = *a;
                    }
                    *a = if how.prod { a.times(x) } else { a.plus(x) };
                    if !how.exclusive {
                        out[at + i] = *a;
                    }
                }
            }
        }
        Ok(Buffer::from(out))
    }, _ => Err(invalid_arg!(
        "Value for attr 'T' of {d} is not in the list of allowed values for {}: the number types",
        how.op()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_run_forward_backward_and_exclusive() {
        let t = Tensor::vector(Buffer::from(vec![1i32, 2, 3]));
        let s = |prod, exclusive, reverse| {
            scan(
                &t,
                0,
                Scan {
                    prod,
                    exclusive,
                    reverse,
                },
            )
            .unwrap()
            .to_i64_vec()
            .unwrap()
        };
        assert_eq!(s(false, false, false), vec![1, 3, 6]);
        assert_eq!(s(false, true, true), vec![5, 3, 0]);
        assert_eq!(s(true, true, false), vec![1, 1, 2]);
    }
}
