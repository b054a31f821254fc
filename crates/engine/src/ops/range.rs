//! `tf.ragged.range`: one arithmetic sequence per row.

use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::invalid_arg;
use crate::partition::RowPartition;
use crate::ragged::Ragged;
use crate::tensor::Tensor;

/// `tf.ragged.range(starts, limits, deltas)`: row `i` holds `starts[i], starts[i] +
/// deltas[i], …` up to (not including) `limits[i]`. Each argument is a scalar (shared by
/// every row) or a vector; vectors must have one length. All three share one numeric dtype.
pub fn ragged_range(starts: &Tensor, limits: &Tensor, deltas: &Tensor) -> Result<Ragged> {
    let args = [("starts", starts), ("limits", limits), ("deltas", deltas)];
    let mut nrows: Option<usize> = None;
    for (name, t) in args {
        if t.rank() > 1 {
            return Err(invalid_arg!(
                "{name} must be a scalar or a vector, but has rank {}",
                t.rank()
            ));
        }
        if !t.dtype().is_numeric() {
            return Err(invalid_arg!("{name} must be numeric, not {}", t.dtype()));
        }
        if t.rank() == 1 {
            match nrows {
                Some(n) if n != t.size() => {
                    return Err(invalid_arg!(
                        "starts, limits and deltas must have the same length; {name} has {}, another has {n}",
                        t.size()
                    ))
                }
                _ => nrows = Some(t.size()),
            }
        }
    }
    let nrows = nrows.unwrap_or(1);
    let dtype = starts.dtype();
    let at = |t: &Tensor, i: usize| if t.rank() == 0 { 0 } else { i };
    if dtype.is_int() {
        let (s, l, d) = (ints(starts), ints(limits), ints(deltas));
        let mut lengths = budget::vec("tf.ragged.range", nrows)?;
        let mut total: u128 = 0;
        for i in 0..nrows {
            let (a, b, step) = (s[at(starts, i)], l[at(limits, i)], d[at(deltas, i)]);
            let n = int_range_size(a, b, step)?;
            total += n as u128;
            lengths.push(n as i64);
        }
        // Values are built in 64 bits, then cast: both live at once.
        budget::check("tf.ragged.range", total, 8 + dtype.item_bytes())?;
        let mut values = budget::vec("tf.ragged.range", total as usize)?;
        for (i, &n) in lengths.iter().enumerate() {
            let (a, step) = (s[at(starts, i)], d[at(deltas, i)]);
            values.extend((0..n).map(|k| a.wrapping_add(k.wrapping_mul(step))));
        }
        let data = Buffer::from_i64s(values, dtype);
        let p = RowPartition::from_row_lengths(&lengths, None)?;
        return Ragged::new(vec![p], Tensor::vector(data));
    }
    let (s, l, d) = (floats(starts), floats(limits), floats(deltas));
    let mut lengths = budget::vec("tf.ragged.range", nrows)?;
    let mut total: u128 = 0;
    for i in 0..nrows {
        let (a, b, step) = (s[at(starts, i)], l[at(limits, i)], d[at(deltas, i)]);
        if step == 0.0 {
            return Err(invalid_arg!("deltas must be nonzero (row {i} has delta 0)"));
        }
        let n = if (step > 0.0 && b < a) || (step < 0.0 && b > a) {
            0.0
        } else {
            ((b - a) / step).abs().ceil()
        };
        if !n.is_finite() {
            return Err(invalid_arg!(
                "row {i} of the range would be infinitely long"
            ));
        }
        total += n as u128;
        // Values are built in 64 bits, then cast: both live at once.
        budget::check("tf.ragged.range", total, 8 + dtype.item_bytes())?;
        lengths.push(n as i64);
    }
    let mut values = budget::vec("tf.ragged.range", total as usize)?;
    for (i, &n) in lengths.iter().enumerate() {
        let (a, step) = (s[at(starts, i)], d[at(deltas, i)]);
        values.extend((0..n).map(|k| a + k as f64 * step));
    }
    let data = Buffer::from_f64s(values, dtype);
    let p = RowPartition::from_row_lengths(&lengths, None)?;
    Ragged::new(vec![p], Tensor::vector(data))
}

fn ints(t: &Tensor) -> Vec<i64> {
    t.to_i64_vec().expect("integer tensor")
}

fn floats(t: &Tensor) -> Vec<f64> {
    t.data().to_f64_vec().expect("numeric tensor")
}

/// The number of elements of `range(start, limit, delta)` (TensorFlow's `RangeSize`).
fn int_range_size(start: i64, limit: i64, delta: i64) -> Result<u64> {
    if delta == 0 {
        return Err(invalid_arg!("deltas must be nonzero"));
    }
    if (delta > 0 && limit < start) || (delta < 0 && limit > start) {
        return Ok(0);
    }
    let span = (limit as i128 - start as i128).unsigned_abs();
    let step = (delta as i128).unsigned_abs();
    Ok(span.div_ceil(step) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    fn v32(v: Vec<i32>) -> Tensor {
        Tensor::vector(Buffer::I32(v.into()))
    }
    fn s32(v: i32) -> Tensor {
        Tensor::scalar(crate::Scalar::I32(v))
    }

    #[test]
    fn rows_of_ranges() {
        let r = ragged_range(&s32(0), &v32(vec![3, 5, 2]), &s32(1)).unwrap();
        assert_eq!(r.row_lengths(), &[3, 5, 2]);
        assert_eq!(
            r.flat_values().to_i64_vec().unwrap(),
            vec![0, 1, 2, 0, 1, 2, 3, 4, 0, 1]
        );
        let r = ragged_range(&v32(vec![0, 5, 8]), &v32(vec![3, 3, 12]), &s32(2)).unwrap();
        assert_eq!(r.row_lengths(), &[2, 0, 2]);
        let r = ragged_range(&s32(5), &s32(0), &s32(-2)).unwrap();
        assert_eq!(r.flat_values().to_i64_vec().unwrap(), vec![5, 3, 1]);
        let r = ragged_range(&s32(0), &v32(vec![]), &s32(1)).unwrap();
        assert_eq!(r.nrows(), 0);
    }

    #[test]
    fn float_ranges_and_errors() {
        let f = |v: f32| Tensor::scalar(crate::Scalar::F32(v));
        let r = ragged_range(&f(0.0), &f(1.0), &f(0.25)).unwrap();
        assert_eq!(r.row_lengths(), &[4]);
        assert_eq!(r.dtype(), DType::Float32);
        assert!(ragged_range(&s32(0), &s32(3), &s32(0))
            .unwrap_err()
            .message
            .contains("nonzero"));
        assert!(ragged_range(&v32(vec![1, 2]), &v32(vec![1]), &s32(1)).is_err());
        let m = Tensor::new(vec![1, 1], Buffer::from(vec![1i32])).unwrap();
        assert!(ragged_range(&m, &s32(1), &s32(1)).is_err());
        assert_eq!(
            ragged_range(&s32(0), &s32(i32::MAX), &s32(1))
                .unwrap_err()
                .class,
            crate::ExceptionClass::ResourceExhaustedError
        );
    }
}
