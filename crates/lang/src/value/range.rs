//! Python's `range`: a lazy arithmetic sequence of ints (`range(10**12)` costs nothing).

use ragtag_engine::{Exception, ExceptionClass};

/// `range(start, stop, step)`, with `step != 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PyRange {
    /// The first value.
    pub start: i64,
    /// The bound, never reached.
    pub stop: i64,
    /// The difference between neighbours (not zero).
    pub step: i64,
}

impl PyRange {
    /// The range of these bounds (`step` must not be zero).
    pub fn new(start: i64, stop: i64, step: i64) -> PyRange {
        PyRange { start, stop, step }
    }

    /// The number of items, exact past `i64` (`range(-2**63, 2**63 - 1)`).
    pub fn len(&self) -> i128 {
        let (start, stop, step) = (self.start as i128, self.stop as i128, self.step as i128);
        let span = if step > 0 { stop - start } else { start - stop };
        if span <= 0 {
            0
        } else {
            (span + step.abs() - 1) / step.abs()
        }
    }

    /// Whether it has no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `len(r)`: an OverflowError past `sys.maxsize`, as CPython.
    pub fn py_len(&self) -> Result<i64, Exception> {
        i64::try_from(self.len()).map_err(|_| {
            Exception::new(
                ExceptionClass::OverflowError,
                "Python int too large to convert to C ssize_t",
            )
        })
    }

    /// The `k`-th item, `0 <= k < len`.
    pub fn at(&self, k: i128) -> i64 {
        (self.start as i128 + k * self.step as i128) as i64
    }

    /// `r[i]` (negative from the end); an IndexError out of range.
    pub fn item(&self, i: i64) -> Result<i64, Exception> {
        let n = self.len();
        let k = if i < 0 { i as i128 + n } else { i as i128 };
        if k < 0 || k >= n {
            return Err(Exception::new(
                ExceptionClass::IndexError,
                "range object index out of range",
            ));
        }
        Ok(self.at(k))
    }

    /// `r[a:b:c]`, a range again.
    pub fn slice(
        &self,
        a: Option<i64>,
        b: Option<i64>,
        c: Option<i64>,
    ) -> Result<PyRange, Exception> {
        let (lo, hi, st) = slice_indices(a, b, c, self.len())?;
        let step = self.step as i128 * st;
        let start = self.start as i128 + lo * self.step as i128;
        let stop = self.start as i128 + hi * self.step as i128;
        let fit = |v: i128| i64::try_from(v).ok();
        match (fit(start), fit(stop), fit(step)) {
            (Some(start), Some(stop), Some(step)) => Ok(PyRange::new(start, stop, step)),
            _ => Err(Exception::new(
                ExceptionClass::OverflowError,
                "Python int too large to convert to C long",
            )),
        }
    }

    /// Whether the int `v` is an item (O(1)).
    pub fn contains_int(&self, v: i128) -> bool {
        let (start, stop, step) = (self.start as i128, self.stop as i128, self.step as i128);
        let inside = if step > 0 {
            start <= v && v < stop
        } else {
            stop < v && v <= start
        };
        inside && (v - start) % step == 0
    }

    /// The position of the int `v` (`None`: not an item).
    pub fn index_of(&self, v: i128) -> Option<i128> {
        self.contains_int(v)
            .then(|| (v - self.start as i128) / self.step as i128)
    }

    /// Python's `==`: the same sequence of items.
    pub fn same_items(&self, other: &PyRange) -> bool {
        let n = self.len();
        if n != other.len() {
            return false;
        }
        match n {
            0 => true,
            1 => self.start == other.start,
            _ => self.start == other.start && self.step == other.step,
        }
    }

    /// What decides equality, as `(len, start, step)` (`None`s where CPython's hash puts
    /// `None`: no start for an empty range, no step for one item).
    pub fn identity(&self) -> (i128, Option<i64>, Option<i64>) {
        match self.len() {
            0 => (0, None, None),
            1 => (1, Some(self.start), None),
            n => (n, Some(self.start), Some(self.step)),
        }
    }

    /// `repr(r)`: `range(0, 3)`, `range(0, 10, 2)`.
    pub fn repr(&self) -> String {
        if self.step == 1 {
            format!("range({}, {})", self.start, self.stop)
        } else {
            format!("range({}, {}, {})", self.start, self.stop, self.step)
        }
    }
}

/// Python's `slice(a, b, c).indices(n)`: the start, stop and step a slice of a sequence of
/// `n` items takes (a ValueError for a zero step).
pub fn slice_indices(
    a: Option<i64>,
    b: Option<i64>,
    c: Option<i64>,
    n: i128,
) -> Result<(i128, i128, i128), Exception> {
    let step = c.unwrap_or(1) as i128;
    if step == 0 {
        return Err(Exception::new(
            ExceptionClass::ValueError,
            "slice step cannot be zero",
        ));
    }
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let clamp = |v: Option<i64>, default: i128| match v {
        None => default,
        Some(v) => {
            let v = v as i128;
            if v < 0 {
                (v + n).max(lower)
            } else {
                v.min(upper)
            }
        }
    };
    let start = clamp(a, if step < 0 { upper } else { lower });
    let stop = clamp(b, if step < 0 { lower } else { upper });
    Ok((start, stop, step))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_items_and_slices() {
        assert_eq!(PyRange::new(0, 10, 3).len(), 4);
        assert_eq!(PyRange::new(10, 0, -3).len(), 4);
        assert_eq!(PyRange::new(5, 5, 1).len(), 0);
        assert_eq!(PyRange::new(0, 10, 3).item(-1).unwrap(), 9);
        assert!(PyRange::new(0, 10, 3).item(4).is_err());
        assert_eq!(
            PyRange::new(0, 10, 1)
                .slice(Some(2), None, Some(3))
                .unwrap(),
            PyRange::new(2, 10, 3)
        );
        assert_eq!(
            PyRange::new(0, 10, 1).slice(None, None, Some(-1)).unwrap(),
            PyRange::new(9, -1, -1)
        );
        assert!(PyRange::new(0, 10, 2).contains_int(8));
        assert!(!PyRange::new(0, 10, 2).contains_int(7));
        assert!(PyRange::new(0, 0, 1).same_items(&PyRange::new(2, 2, 1)));
        assert!(PyRange::new(i64::MIN, i64::MAX, 1).py_len().is_err());
    }
}
