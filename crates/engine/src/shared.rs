//! `Shared<T>`: the engine's numeric and bool storage, a shared, copy-on-write run of a
//! vector that reads as a slice.
//!
//! Cloning shares the allocation, and so does [`Shared::slice`] (a row range, `values`, an
//! outer slice): none of them copies an element. Writing through [`DerefMut`] or growing
//! with [`Shared::push`] copies only when another owner still reads the allocation; a run
//! with one owner grows in place, into the room its vector reserved, so a buffer under
//! construction is a buffer like any other (`Buffer::with_capacity`, then `push` and
//! `extend_range`).

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use ndarray::ArrayView1;

/// A shared, copy-on-write run of `T`: elements `start..start + len` of a shared vector.
#[derive(Clone)]
pub struct Shared<T> {
    data: Arc<Vec<T>>,
    start: usize,
    len: usize,
}

impl<T: Clone> Shared<T> {
    /// An empty run.
    pub fn new() -> Self {
        Shared::from(Vec::new())
    }
    /// The elements `start..end`, sharing this allocation (no copy).
    pub fn slice(&self, start: usize, end: usize) -> Self {
        assert!(
            start <= end && end <= self.len,
            "slice {start}..{end} of a run of {}",
            self.len
        );
        Shared {
            data: self.data.clone(),
            start: self.start + start,
            len: end - start,
        }
    }
    /// The elements as an ndarray view.
    pub fn view(&self) -> ArrayView1<'_, T> {
        ArrayView1::from(&**self)
    }
    /// The elements as a vector: no copy when this is the only owner of the allocation.
    pub fn into_vec(self) -> Vec<T> {
        let (start, len) = (self.start, self.len);
        match Arc::try_unwrap(self.data) {
            Ok(mut v) => {
                v.truncate(start + len);
                v.drain(..start);
                v
            }
            Err(shared) => shared[start..start + len].to_vec(),
        }
    }
    /// Runs `f` on the elements as a vector it may grow: the vector itself when this is its
    /// only owner (elements past the run are dropped first), else a copy of the run. The
    /// run then covers the whole grown vector past `start`.
    pub fn grow(&mut self, f: impl FnOnce(&mut Vec<T>)) {
        let start = self.own();
        let v = Arc::get_mut(&mut self.data).expect("owned after Shared::own");
        v.truncate(start + self.len);
        f(v);
        self.len = v.len() - start;
    }
    /// Appends one element.
    pub fn push(&mut self, x: T) {
        self.grow(|v| v.push(x));
    }
    /// Appends a run of elements.
    pub fn extend_from_slice(&mut self, xs: &[T]) {
        self.grow(|v| v.extend_from_slice(xs));
    }
    /// Makes this the only owner of its allocation, copying the run when another owner
    /// shares it; returns where the run starts in the vector.
    fn own(&mut self) -> usize {
        // No Weak is ever made of the vector, so one strong count means one owner: a load,
        // where Arc::get_mut would pay for an atomic exchange too.
        if Arc::strong_count(&self.data) != 1 {
            *self = Shared::from(self.to_vec());
        }
        self.start
    }
}

impl<T: Clone> Default for Shared<T> {
    fn default() -> Self {
        Shared::new()
    }
}

impl<T> Deref for Shared<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.data[self.start..self.start + self.len]
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        let start = self.own();
        let len = self.len;
        &mut Arc::get_mut(&mut self.data).expect("owned after Shared::own")[start..start + len]
    }
}

impl<T> From<Vec<T>> for Shared<T> {
    fn from(v: Vec<T>) -> Self {
        Shared {
            len: v.len(),
            start: 0,
            data: Arc::new(v),
        }
    }
}

impl<T> FromIterator<T> for Shared<T> {
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

#[cfg(test)]
mod tests {
    use super::Shared;

    #[test]
    fn a_sole_owner_grows_in_place_and_a_shared_run_is_copied_first() {
        #[allow(clippy::disallowed_methods)] // a constant test size
        let mut a = Shared::from(Vec::with_capacity(8));
        a.extend_from_slice(&[1, 2, 3]);
        let at = a.as_ptr();
        a.push(4);
        assert_eq!((&*a, a.as_ptr()), (&[1, 2, 3, 4][..], at), "grown in place");
        let b = a.slice(1, 3);
        a.push(5);
        assert_ne!(a.as_ptr(), at, "copied: b still reads the allocation");
        assert_eq!((&*a, &*b), (&[1, 2, 3, 4, 5][..], &[2, 3][..]));
        let mut c = b.clone();
        c[0] = 9;
        assert_eq!((&*b, &*c), (&[2, 3][..], &[9, 3][..]));
        drop(a);
        let mut d = b.slice(1, 2);
        drop(b);
        drop(c);
        d.push(7);
        assert_eq!(&*d, &[3, 7]);
        assert_eq!(d.into_vec(), vec![3, 7]);
    }
}
