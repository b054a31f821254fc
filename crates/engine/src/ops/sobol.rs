//! `tf.math.sobol_sample`: points of the Sobol sequence with Joe and Kuo's direction numbers
//! (new-joe-kuo-6.21201), in Gray-code order from the second point, as TensorFlow's
//! SobolSample kernel gives them.
//!
//! The table holds the first [`MAX_DIM`] dimensions' 31 direction numbers (as 32-bit binary
//! fractions, read back from TensorFlow 2.21 itself); larger `dim` is an UnimplementedError.
//! TensorFlow scales the integer points by `1 / (1 << digits)` computed in int32, so when
//! `skip + num_results + 1` needs 31 bits the scale is negative and so are the points; ragtag
//! gives the same numbers.

use std::sync::LazyLock;

use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::invalid_arg;
use crate::tensor::Tensor;

/// The dimensions ragtag has direction numbers for.
pub const MAX_DIM: usize = 64;
/// TensorFlow's bound on dimensions (the Joe–Kuo table's size).
const TF_MAX_DIM: i64 = 21201;

static DIRECTIONS: LazyLock<Vec<[u32; 31]>> = LazyLock::new(|| {
    include_str!("sobol_directions.txt")
        .lines()
        .map(|l| {
            let mut row = [0u32; 31];
            for (slot, w) in row.iter_mut().zip(l.split(' ')) {
                *slot = u32::from_str_radix(w, 16).unwrap_or(0);
            }
            row
        })
        .collect()
});

/// `num_results` points of `dim` coordinates after skipping `skip`, as float32 (or float64
/// when `double`).
pub fn sobol_sample(dim: i64, num_results: i64, skip: i64, double: bool) -> Result<Tensor> {
    if dim < 1 {
        return Err(invalid_arg!("dim must be positive"));
    }
    if dim > TF_MAX_DIM {
        return Err(invalid_arg!("dim must be at most {TF_MAX_DIM}"));
    }
    if num_results < 1 {
        return Err(invalid_arg!("num_results must be positive"));
    }
    if skip < 0 {
        return Err(invalid_arg!("skip must be non-negative"));
    }
    if num_results + skip >= i32::MAX as i64 {
        return Err(invalid_arg!(
            "num_results+skip must be less than {}",
            i32::MAX
        ));
    }
    let dim = dim as usize;
    if dim > MAX_DIM {
        return Err(Exception::new(
            ExceptionClass::UnimplementedError,
            format!("ragtag's Sobol table holds the first {MAX_DIM} dimensions, not {dim}"),
        ));
    }
    let n = num_results as usize;
    crate::budget::check("tf.math.sobol_sample", (n * dim) as u128, 8)?;
    let end = (skip + num_results + 1) as u64;
    let digits = 64 - end.leading_zeros();
    let mut scale = 1.0 / (1u64 << digits) as f64;
    if digits == 31 {
        scale = -scale;
    }
    let table = &*DIRECTIONS;
    let mut out = crate::budget::vec::<f64>("tf.math.sobol_sample", n * dim)?;
    for i in 0..n as u64 {
        let k = i + skip as u64 + 1;
        let gray = k ^ (k >> 1);
        for row in table.iter().take(dim) {
            let mut acc = 0u32;
            let mut g = gray;
            let mut bit = 0;
            while g != 0 {
                if g & 1 == 1 {
                    acc ^= row[bit];
                }
                g >>= 1;
                bit += 1;
            }
            out.push((acc >> (32 - digits)) as f64 * scale);
        }
    }
    let data = if double {
        Buffer::from(out)
    } else {
        Buffer::from(out.into_iter().map(|x| x as f32).collect::<Vec<f32>>())
    };
    Ok(Tensor::from_parts(vec![n, dim], data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_points() {
        let t = sobol_sample(2, 3, 0, true).unwrap();
        assert_eq!(
            t.data().to_f64_vec().unwrap(),
            vec![0.5, 0.5, 0.75, 0.25, 0.25, 0.75]
        );
    }
}
