//! Checked arithmetic for every size, shape, index, step and count that follows from user
//! input: no wrapping, no overflow panic. Shapes follow TensorFlow (an element count must
//! fit in int64); slices follow Python (any i64 start, stop and step, clamped to the length).

use super::error::Result;
use crate::{invalid_arg, value_error};

/// The largest element count TensorFlow allows (`2**63 - 1`).
pub const MAX_ELEMENTS: u64 = i64::MAX as u64;

/// The number of elements of `shape`, multiplied left to right as TensorFlow's
/// `TensorShapeUtils::MakeShape` does (a zero dimension makes every later product zero, so
/// `[0, 10**18, 10**18]` is an empty shape), or InvalidArgumentError when a partial product
/// passes `2**63 - 1` (`[10**18, 10**18, 0]`).
pub fn numel(shape: &[usize]) -> Result<usize> {
    let mut n: u64 = 1;
    for &d in shape {
        n = (n as u128 * d as u128)
            .try_into()
            .ok()
            .filter(|&p: &u64| p <= MAX_ELEMENTS)
            .ok_or_else(|| {
                crate::Exception::from(crate::EngineError::TooManyElements {
                    shape: shape.to_vec(),
                })
            })?;
    }
    usize::try_from(n).map_err(|_| {
        invalid_arg!(
            "Shape {} has more elements than this machine can address",
            shape_text(shape)
        )
    })
}

/// `[2,3]`, as TensorFlow prints a shape in this message (without spaces).
fn shape_text(shape: &[usize]) -> String {
    bracketed(shape.iter(), ",")
}

/// A shape as TensorFlow prints it in messages: `[2, 3]`, with `None` for ragged dimensions.
pub fn shape_str(shape: &[Option<usize>]) -> String {
    bracketed(
        shape
            .iter()
            .map(|d| d.map_or_else(|| "None".to_string(), |d| d.to_string())),
        ", ",
    )
}

/// A dense shape in messages, `[2, 3]`; any list of numbers (a sparse tensor's `dense_shape`,
/// an index tuple, offsets) prints the same way.
pub fn dense_shape_str<T: std::fmt::Display>(shape: &[T]) -> String {
    bracketed(shape.iter(), ", ")
}

/// `items` between brackets, `sep` between them.
fn bracketed<T: std::fmt::Display>(items: impl Iterator<Item = T>, sep: &str) -> String {
    use std::fmt::Write;
    let mut out = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "{item}");
    }
    out.push(']');
    out
}

/// A dimension from a user's int: InvalidArgumentError when negative (`what` names it).
pub fn dim(what: &str, d: i64) -> Result<usize> {
    usize::try_from(d).map_err(|_| invalid_arg!("{what} must be non-negative, got {d}"))
}

/// Dimensions from a user's ints (see [`dim`]), with the shape's element count checked.
pub fn dims(what: &str, ds: &[i64]) -> Result<Vec<usize>> {
    let out = ds
        .iter()
        .map(|&d| dim(what, d))
        .collect::<Result<Vec<_>>>()?;
    numel(&out)?;
    Ok(out)
}

/// A count from a user's int (`nrows`, `num_segments`, a repeat count): ValueError when
/// negative.
pub fn count(what: &str, n: i64) -> Result<usize> {
    usize::try_from(n).map_err(|_| value_error!("{what} must be non-negative, got {n}"))
}

/// `a + b`, or InvalidArgumentError naming the overflow.
pub fn add(a: usize, b: usize) -> Result<usize> {
    a.checked_add(b)
        .ok_or_else(|| invalid_arg!("size {a} + {b} overflows"))
}

/// `a * b`, or InvalidArgumentError naming the overflow.
pub fn mul(a: usize, b: usize) -> Result<usize> {
    a.checked_mul(b)
        .ok_or_else(|| invalid_arg!("size {a} * {b} overflows"))
}

/// The sum of `items`, checked.
pub fn sum(items: impl IntoIterator<Item = usize>) -> Result<usize> {
    items.into_iter().try_fold(0usize, add)
}

/// A normalised Python slice: the first index, the step, and how many items it selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceRange {
    /// The first index selected (meaningless when `len == 0`).
    pub start: usize,
    /// The step, never 0.
    pub step: i64,
    /// The number of items selected.
    pub len: usize,
}

impl SliceRange {
    /// The `k`-th index selected (`k < len`).
    pub fn index(&self, k: usize) -> usize {
        // start + k*step lies in [0, n) for every k < len, so i128 arithmetic is exact.
        (self.start as i128 + k as i128 * self.step as i128) as usize
    }
    /// The indices selected, in order.
    pub fn indices(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        (0..self.len).map(move |k| self.index(k))
    }
}

/// Python's `slice(start, stop, step).indices(n)` and the item count, for any i64 bounds and
/// step (including `i64::MIN`): ValueError for a zero step, never an overflow.
pub fn slice(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    n: usize,
) -> Result<SliceRange> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(value_error!("slice step cannot be zero"));
    }
    let n = n as i128;
    let clamp = |v: Option<i64>, default: i128, lo: i128, hi: i128| -> i128 {
        match v {
            None => default,
            Some(v) => {
                let v = v as i128;
                let v = if v < 0 { v + n } else { v };
                v.clamp(lo, hi)
            }
        }
    };
    let (s, e) = if step > 0 {
        (clamp(start, 0, 0, n), clamp(stop, n, 0, n))
    } else {
        (clamp(start, n - 1, -1, n - 1), clamp(stop, -1, -1, n - 1))
    };
    let st = step as i128;
    let len = if step > 0 {
        if e > s {
            (e - s + st - 1) / st
        } else {
            0
        }
    } else if s > e {
        (s - e + (-st) - 1) / (-st)
    } else {
        0
    };
    Ok(SliceRange {
        start: if len == 0 { 0 } else { s as usize },
        step,
        len: len as usize,
    })
}

/// A Python index into a sequence of `n` items (negative counts from the end), or None when
/// out of range; never overflows.
pub fn index(i: i64, n: usize) -> Option<usize> {
    let k = if i < 0 {
        i as i128 + n as i128
    } else {
        i as i128
    };
    (0..n as i128).contains(&k).then_some(k as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numel_follows_tensorflow() {
        assert_eq!(numel(&[]).unwrap(), 1);
        assert_eq!(numel(&[2, 3]).unwrap(), 6);
        assert_eq!(numel(&[0, 1 << 62, 1 << 62]).unwrap(), 0);
        let e = numel(&[1_000_000_000_000_000_000, 1_000_000_000_000_000_000, 0]).unwrap_err();
        assert_eq!(e.class, crate::ExceptionClass::InvalidArgumentError);
        assert!(e.message.contains("2**63 - 1"), "{}", e.message);
        assert!(numel(&[usize::MAX]).is_err());
        assert!(dims("shape", &[-1]).is_err());
        assert!(count("nrows", -1).is_err());
        assert!(mul(usize::MAX, 2).is_err());
        assert!(add(usize::MAX, 1).is_err());
        assert_eq!(sum([1, 2, 3]).unwrap(), 6);
    }

    fn py(start: Option<i64>, stop: Option<i64>, step: Option<i64>, n: usize) -> Vec<usize> {
        slice(start, stop, step, n).unwrap().indices().collect()
    }

    #[test]
    fn slices_match_python() {
        assert_eq!(py(None, None, None, 3), [0, 1, 2]);
        assert_eq!(py(None, None, Some(-1), 3), [2, 1, 0]);
        assert_eq!(py(Some(1), None, Some(i64::MAX), 3), [1]);
        assert_eq!(py(None, None, Some(i64::MIN), 3), [2]);
        assert_eq!(py(Some(i64::MAX), Some(i64::MIN), Some(-1), 3), [2, 1, 0]);
        assert_eq!(py(Some(i64::MIN), Some(i64::MAX), None, 3), [0, 1, 2]);
        assert_eq!(py(Some(-2), None, None, 3), [1, 2]);
        assert_eq!(py(Some(5), Some(1), None, 3), Vec::<usize>::new());
        assert_eq!(py(None, None, Some(2), 0), Vec::<usize>::new());
        assert_eq!(py(Some(0), Some(3), Some(2), 3), [0, 2]);
        assert!(slice(None, None, Some(0), 3).is_err());
        assert_eq!(index(-1, 3), Some(2));
        assert_eq!(index(i64::MIN, 3), None);
        assert_eq!(index(3, 3), None);
    }
}
