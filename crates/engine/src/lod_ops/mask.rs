//! Paddle's `sequence_mask`: lengths to a mask of `dtype` (int64 by default).

use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::Result;
use crate::ops::cast::cast_buffer;
use crate::tensor::Tensor;
use crate::{budget, type_error, value_error};

/// `sequence_mask(x, maxlen, dtype)`: for lengths `x` of any shape, `out[..., j] = j < x[...]`
/// as `dtype`, with `maxlen` positions (None or negative: the largest length, or 0 when there
/// are no lengths; Paddle refuses a `maxlen` of 0). Lengths may be floats (compared as they
/// are) or negative (an empty row); a length past `maxlen` fills its row.
pub fn sequence_mask(x: &Tensor, maxlen: Option<i64>, dtype: DType) -> Result<Tensor> {
    if maxlen == Some(0) {
        return Err(value_error!(
            "maxlen is 0: a mask needs at least one position (leave maxlen out for the largest length)"
        ));
    }
    let lens = x.data().to_f64_vec().ok_or_else(|| {
        type_error!(
            "sequence_mask takes lengths as numbers, not {}",
            x.dtype().name()
        )
    })?;
    let maxlen = match maxlen {
        Some(m) if m >= 0 => m as usize,
        // Paddle's kernel casts the largest length to an int.
        _ => lens
            .iter()
            .copied()
            .fold(None, |m: Option<f64>, l| Some(m.map_or(l, |m| m.max(l))))
            .map_or(0, |m| m.max(0.0) as usize),
    };
    let mut shape = x.shape().to_vec();
    shape.push(maxlen);
    let n = budget::check_shape("sequence_mask's output", &shape, dtype.item_bytes())?;
    let mut out = budget::vec("sequence_mask's output", n)?;
    for &l in &lens {
        out.extend((0..maxlen).map(|j| (j as f64) < l));
    }
    Ok(Tensor::from_parts(
        shape,
        cast_buffer(&Buffer::from(out), dtype)?,
    ))
}
