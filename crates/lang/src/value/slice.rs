//! Python's `slice` objects: what `x[a:b:c]` passes to a user class's `__getitem__`, and
//! what `slice(a, b, c)` makes.

use super::Value;

/// `slice(start, stop, step)`: any values (ints or `None` for sequences).
#[derive(Debug, Clone)]
pub struct PySlice {
    /// The start (`None`: from the beginning).
    pub start: Value,
    /// The stop (`None`: to the end).
    pub stop: Value,
    /// The step (`None`: 1).
    pub step: Value,
}

impl PySlice {
    /// The three parts in order.
    pub fn parts(&self) -> [&Value; 3] {
        [&self.start, &self.stop, &self.step]
    }
}
