//! `Shared<T>`: the engine's numeric and bool storage, a shared, copy-on-write ndarray
//! vector that reads as a slice.
//!
//! Cloning shares the allocation, and so does [`Shared::slice`] (a row range, `values`, an
//! outer slice): none of them copies an element. Writing through [`DerefMut`] or growing
//! with [`Shared::push`] copies only when another owner still reads the allocation.

use std::fmt;
use std::ops::{Deref, DerefMut};

use ndarray::{ArcArray1, Array1, ArrayView1, Axis, Slice};

/// A shared, copy-on-write run of `T`, always in standard (contiguous, stride 1) layout.
#[derive(Clone)]
pub struct Shared<T>(ArcArray1<T>);

impl<T: Clone> Shared<T> {
    /// An empty run.
    pub fn new() -> Self {
        Shared(Array1::from_vec(Vec::new()).into_shared())
    }
    /// The elements `start..end`, sharing this allocation (no copy).
    pub fn slice(&self, start: usize, end: usize) -> Self {
        let mut a = self.0.clone();
        a.slice_axis_inplace(Axis(0), Slice::from(start..end));
        Shared(a)
    }
    /// The elements as an ndarray view.
    pub fn view(&self) -> ArrayView1<'_, T> {
        self.0.view()
    }
    /// The elements as a vector: no copy when this is the only owner of the whole
    /// allocation.
    pub fn into_vec(self) -> Vec<T> {
        let len = self.0.len();
        let (mut v, offset) = self.0.into_owned().into_raw_vec_and_offset();
        let start = offset.unwrap_or(0);
        if start != 0 || v.len() != len {
            v.truncate(start + len);
            v.drain(..start);
        }
        v
    }
    /// Runs `f` on the elements as a vector (copying them first only when shared), for
    /// growing in place.
    fn with_vec(&mut self, f: impl FnOnce(&mut Vec<T>)) {
        let mut v = std::mem::take(self).into_vec();
        f(&mut v);
        *self = Shared::from(v);
    }
    /// Appends one element.
    pub fn push(&mut self, x: T) {
        self.with_vec(|v| v.push(x));
    }
    /// Appends a run of elements.
    pub fn extend_from_slice(&mut self, xs: &[T]) {
        self.with_vec(|v| v.extend_from_slice(xs));
    }
}

impl<T: Clone> Default for Shared<T> {
    fn default() -> Self {
        Shared::new()
    }
}

impl<T> Deref for Shared<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.0
            .as_slice()
            .expect("a Shared array is always in standard layout")
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.0
            .as_slice_mut()
            .expect("a Shared array is always in standard layout")
    }
}

impl<T: Clone> From<Vec<T>> for Shared<T> {
    fn from(v: Vec<T>) -> Self {
        Shared(Array1::from_vec(v).into_shared())
    }
}

impl<T: Clone> FromIterator<T> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Shared::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}
