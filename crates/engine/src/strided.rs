//! Strided views: a dense tensor whose elements are another tensor's, read through an
//! offset and a stride per dimension, as NumPy's and ndarray's views are.
//!
//! `tf.transpose`, a strided or reversed slice (`x[::2]`, `x[:, ::-1]`, `tf.reverse`) and
//! `tf.broadcast_to` make a view in constant time: no element is read or copied. The view
//! is flattened into row-major order the first time anything reads its elements
//! ([`crate::Tensor::data`]), once for every clone of it, through ndarray's strided copy;
//! a view of a view reads the first view's elements directly, so a chain of transposes
//! and slices copies at most once.

use std::sync::{Arc, Mutex, OnceLock};

use ndarray::{ArrayView, Axis, IxDyn, ShapeBuilder};

use crate::buffer::Buffer;
use crate::tensor::numel;
use crate::Element;

/// Elements of a base buffer read at `offset + Σ index[d] · strides[d]` (strides in
/// elements; negative for a reversed dimension, zero for a broadcast one).
pub(crate) struct View {
    /// The base, until the view is flattened: then the view lets go of it, so a transposed
    /// copy does not keep its source alive too.
    base: Mutex<Option<Arc<Buffer>>>,
    offset: usize,
    strides: Vec<isize>,
    /// The row-major elements, made on first read.
    flat: OnceLock<Buffer>,
}

/// A view's elements as a layout: the base buffer, the offset and the strides.
pub(crate) type Source = (Arc<Buffer>, usize, Vec<isize>);

/// Views of at most this many elements are flattened when they are made: copying them is
/// cheaper than remembering how.
const SMALL: usize = 1024;

/// Row-major strides of `shape`, in elements.
pub fn row_major(shape: &[usize]) -> Vec<isize> {
    let mut s: Vec<isize> = shape.iter().map(|_| 1).collect();
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1] as isize;
    }
    s
}

/// Whether the layout reads `numel(shape)` consecutive elements in row-major order
/// (dimensions of size 1 may have any stride).
fn is_row_major(shape: &[usize], strides: &[isize]) -> bool {
    if shape.contains(&0) {
        return true;
    }
    let mut want = 1isize;
    for (&n, &s) in shape.iter().zip(strides).rev() {
        if n == 1 {
            continue;
        }
        if s != want {
            return false;
        }
        want *= n as isize;
    }
    true
}

/// How a strided layout is stored: the caller has checked that every position it reads
/// lies inside `base`.
pub(crate) enum Layout {
    /// The elements `start..start + n` of the base, in order.
    Run(usize),
    /// Too small to keep as a view: the flattened elements.
    Copied(Buffer),
    /// A view, flattened when first read.
    Strided(View),
}

/// Chooses how to store the layout: a run of the base when it reads one in row-major order,
/// a copy when small, else a view.
pub(crate) fn layout(
    shape: &[usize],
    base: Arc<Buffer>,
    offset: usize,
    strides: Vec<isize>,
) -> Layout {
    if is_row_major(shape, &strides) {
        return Layout::Run(offset);
    }
    if numel(shape) <= SMALL {
        return Layout::Copied(flatten(&base, shape, offset, &strides));
    }
    Layout::Strided(View {
        base: Mutex::new(Some(base)),
        offset,
        strides,
        flat: OnceLock::new(),
    })
}

impl View {
    /// The base while the view is not flattened.
    fn base(&self) -> Option<Arc<Buffer>> {
        // A panic elsewhere cannot leave the Option half-written: take the value anyway.
        let guard = self.base.lock().unwrap_or_else(|e| e.into_inner());
        guard.clone()
    }
    /// Where the elements are: the base and this view's layout, or once flattened, the
    /// row-major elements.
    pub(crate) fn source(&self, shape: &[usize]) -> Source {
        match self.base() {
            Some(base) => (base, self.offset, self.strides.clone()),
            None => (Arc::new(self.flat(shape).clone()), 0, row_major(shape)),
        }
    }
    /// The row-major elements of this view of `shape`.
    pub(crate) fn flat(&self, shape: &[usize]) -> &Buffer {
        if let Some(flat) = self.flat.get() {
            return flat;
        }
        // Only a view whose elements are flattened has let go of its base.
        let Some(base) = self.base() else {
            return self
                .flat
                .get()
                .expect("a view without its base is flattened");
        };
        let flat = self
            .flat
            .get_or_init(|| flatten(&base, shape, self.offset, &self.strides));
        *self.base.lock().unwrap_or_else(|e| e.into_inner()) = None;
        flat
    }
    /// Takes the row-major elements.
    pub(crate) fn into_flat(self, shape: &[usize]) -> Buffer {
        match self.flat.into_inner() {
            Some(b) => b,
            None => {
                let base = self.base.into_inner().unwrap_or_else(|e| e.into_inner());
                let base = base.expect("a view without its base is flattened");
                flatten(&base, shape, self.offset, &self.strides)
            }
        }
    }
    /// The one element at `index` (row-major position), without flattening.
    pub(crate) fn get(&self, shape: &[usize], mut index: usize) -> crate::Scalar {
        let (base, offset, strides) = self.source(shape);
        let mut at = offset as isize;
        for (&n, &s) in shape.iter().zip(&strides).rev() {
            at += (index % n) as isize * s;
            index /= n;
        }
        base.get(at as usize)
    }
}

/// Copies the elements of a strided layout into a row-major buffer.
fn flatten(base: &Buffer, shape: &[usize], offset: usize, strides: &[isize]) -> Buffer {
    let n = numel(shape);
    if n == 0 {
        return base.slice(0, 0);
    }
    crate::dispatch!(elements base, v => Buffer::from(copy(v, shape, offset, strides)),
        Buffer::Str(s) => Buffer::Str(s.gather(&positions(shape, offset, strides))))
}

/// The strided elements of `base` in row-major order, copied by ndarray: a view with
/// non-negative strides over the lowest addressed element, its reversed dimensions inverted
/// and its broadcast ones (stride 0) stretched.
fn copy<T: Element>(base: &[T], shape: &[usize], offset: usize, strides: &[isize]) -> Vec<T> {
    let mut low = offset as isize;
    let mut dims = Vec::new();
    let mut steps = Vec::new();
    let mut inverted = Vec::new();
    for (d, (&n, &s)) in shape.iter().zip(strides).enumerate() {
        if s < 0 && n > 1 {
            low += (n as isize - 1) * s;
            inverted.push(d);
        }
        let stretched = s == 0 && n > 1;
        dims.push(if stretched { 1 } else { n });
        steps.push(s.unsigned_abs());
    }
    let mut view =
        ArrayView::from_shape(IxDyn(&dims).strides(IxDyn(&steps)), &base[low as usize..])
            .expect("a strided view lies inside its base");
    for d in inverted {
        view.invert_axis(Axis(d));
    }
    let view = view
        .broadcast(IxDyn(shape))
        .expect("stretched dimensions have size 1");
    let mut out = ndarray::Array::from_elem(IxDyn(shape), base[0]);
    out.assign(&view);
    let (v, _) = out.into_raw_vec_and_offset();
    v
}

/// The base positions a strided layout reads, in row-major order (for strings, which are
/// gathered by position).
fn positions(shape: &[usize], offset: usize, strides: &[isize]) -> Vec<usize> {
    let n = numel(shape);
    let mut out = Vec::new();
    let mut c: Vec<usize> = shape.iter().map(|_| 0).collect();
    let mut at = offset as isize;
    for _ in 0..n {
        out.push(at as usize);
        for d in (0..shape.len()).rev() {
            c[d] += 1;
            at += strides[d];
            if c[d] < shape[d] {
                break;
            }
            at -= strides[d] * shape[d] as isize;
            c[d] = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_layouts_are_runs() {
        assert!(is_row_major(&[2, 3], &[3, 1]));
        assert!(is_row_major(&[2, 1, 3], &[3, 99, 1]));
        assert!(!is_row_major(&[2, 3], &[1, 2]));
        assert!(is_row_major(&[0, 3], &[1, 2]));
    }

    #[test]
    fn copies_follow_negative_and_zero_strides() {
        let base: Vec<i64> = (0..6).collect();
        // The transpose of [[0, 1, 2], [3, 4, 5]].
        assert_eq!(copy(&base, &[3, 2], 0, &[1, 3]), vec![0, 3, 1, 4, 2, 5]);
        // Both dimensions reversed.
        assert_eq!(copy(&base, &[2, 3], 5, &[-3, -1]), vec![5, 4, 3, 2, 1, 0]);
        // A row broadcast to two rows.
        assert_eq!(copy(&base, &[2, 3], 3, &[0, 1]), vec![3, 4, 5, 3, 4, 5]);
        assert_eq!(positions(&[2, 3], 5, &[-3, -1]), vec![5, 4, 3, 2, 1, 0]);
        assert_eq!(positions(&[3, 2], 0, &[1, 3]), vec![0, 3, 1, 4, 2, 5]);
    }
}
