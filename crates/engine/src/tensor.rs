//! Dense tensors: a shape and a flat row-major buffer, or a strided view of another
//! tensor's buffer (see [`crate::strided`]), viewed through ndarray for math.

use std::fmt;
use std::sync::Arc;

use super::buffer::{Buffer, Scalar};
use super::dtype::DType;
use super::error::Result;
use crate::strided::{self, Layout, View};
use crate::{index_error, invalid_arg};

/// A dense tensor of any rank (rank 0 is a scalar).
#[derive(Clone)]
pub struct Tensor {
    shape: Vec<usize>,
    store: Store,
}

/// Where a tensor's elements are.
#[derive(Clone)]
enum Store {
    /// Row-major elements; shared, so that `rt.values`, a reshape or a row range copy none.
    Flat(Arc<Buffer>),
    /// A strided view of another buffer (a transpose, a strided slice, a broadcast),
    /// flattened on first read and shared by every clone.
    View(Arc<View>),
}

impl PartialEq for Tensor {
    fn eq(&self, other: &Tensor) -> bool {
        self.shape == other.shape && self.data() == other.data()
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("shape", &self.shape)
            .field("data", self.data())
            .finish()
    }
}

/// Number of elements in a shape.
pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Checks that `shape` holds exactly `n` values.
fn check_len(shape: &[usize], n: usize) -> Result<()> {
    let want = super::size::numel(shape)?;
    if want != n {
        return Err(invalid_arg!(
            "a tensor of shape {} needs {want} values, not {n}",
            super::size::dense_shape_str(shape)
        ));
    }
    Ok(())
}

impl Tensor {
    /// A tensor from a shape and matching data.
    ///
    /// ```
    /// use ragtag_engine::{Buffer, Tensor};
    ///
    /// let t = Tensor::new(vec![2, 3], Buffer::from(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])).unwrap();
    /// assert_eq!((t.shape(), t.dtype().name()), (&[2, 3][..], "float32"));
    /// assert!(Tensor::new(vec![2, 2], Buffer::from(vec![1i64, 2, 3])).is_err());
    /// ```
    pub fn new(shape: Vec<usize>, data: Buffer) -> Result<Tensor> {
        check_len(&shape, data.len())?;
        Ok(Tensor::from_parts(shape, data))
    }
    /// A tensor from parts the caller built to agree (the product of `shape` is the number
    /// of elements of `data`), without checking them again; [`Tensor::new`] checks.
    pub fn from_parts(shape: Vec<usize>, data: Buffer) -> Tensor {
        debug_assert_eq!(numel(&shape), data.len(), "shape {shape:?}");
        Tensor {
            shape,
            store: Store::Flat(Arc::new(data)),
        }
    }
    /// The tensor of `shape` whose element at index `i` is `base[offset + Σ i[d] · strides[d]]`
    /// (strides in elements, negative to reverse a dimension, zero to repeat one): a view
    /// that copies nothing until its elements are read, a run of `base` when the layout is
    /// row-major. The caller has checked that every position read lies inside `base` and,
    /// for a view larger than its base, the memory budget.
    pub(crate) fn strided(
        shape: Vec<usize>,
        base: Arc<Buffer>,
        offset: usize,
        strides: Vec<isize>,
    ) -> Tensor {
        let n = numel(&shape);
        if n == 0 {
            let empty = base.slice(0, 0);
            return Tensor::from_parts(shape, empty);
        }
        let store = match strided::layout(&shape, base.clone(), offset, strides) {
            Layout::Run(start) if start == 0 && n == base.len() => Store::Flat(base),
            Layout::Run(start) => Store::Flat(Arc::new(base.slice(start, start + n))),
            Layout::Copied(flat) => Store::Flat(Arc::new(flat)),
            Layout::Strided(view) => Store::View(Arc::new(view)),
        };
        Tensor { shape, store }
    }
    /// Where the elements are, as a strided layout: the buffer, the offset of the first
    /// element and the stride of each dimension (row-major ones for a flat tensor).
    pub(crate) fn layout(&self) -> (Arc<Buffer>, usize, Vec<isize>) {
        match &self.store {
            Store::Flat(b) => (b.clone(), 0, strided::row_major(&self.shape)),
            Store::View(v) => v.source(&self.shape),
        }
    }
    /// Whether the elements are a strided view not yet copied into row-major order.
    pub fn is_view(&self) -> bool {
        matches!(self.store, Store::View(_))
    }
    /// A rank-0 tensor.
    pub fn scalar(s: Scalar) -> Tensor {
        Tensor::from_parts(vec![], Buffer::filled(&s, 1))
    }
    /// A rank-1 tensor from a buffer.
    pub fn vector(data: Buffer) -> Tensor {
        Tensor::from_parts(vec![data.len()], data)
    }
    /// A rank-1 int64 tensor.
    pub fn from_i64(v: Vec<i64>) -> Tensor {
        Tensor::vector(Buffer::from(v))
    }
    /// A tensor of `shape` filled with `value`: the element count is checked for overflow
    /// (InvalidArgumentError) and the bytes (a string's real length for each copy) against
    /// the memory budget (ResourceExhaustedError naming `what`).
    pub fn filled(what: &str, shape: Vec<usize>, value: &Scalar) -> Result<Tensor> {
        let n = super::size::numel(&shape)?;
        Ok(Tensor::from_parts(
            shape,
            Buffer::try_filled(what, value, n)?,
        ))
    }
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// The rank (number of dimensions).
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    /// The element type.
    pub fn dtype(&self) -> DType {
        match &self.store {
            Store::Flat(b) => b.dtype(),
            Store::View(v) => v.source(&self.shape).0.dtype(),
        }
    }
    /// The flat row-major elements (a view's are copied into row-major order on the first
    /// call, once for all its clones).
    pub fn data(&self) -> &Buffer {
        match &self.store {
            Store::Flat(b) => b,
            Store::View(v) => v.flat(&self.shape),
        }
    }
    /// The flat elements, shared: the buffer itself, no copy, once a view is flattened.
    fn shared_data(&self) -> Arc<Buffer> {
        match &self.store {
            Store::Flat(b) => b.clone(),
            Store::View(v) => Arc::new(v.flat(&self.shape).clone()),
        }
    }
    /// Takes the flat elements.
    pub fn into_data(self) -> Buffer {
        match self.store {
            Store::Flat(b) => Arc::try_unwrap(b).unwrap_or_else(|shared| (*shared).clone()),
            Store::View(v) => match Arc::try_unwrap(v) {
                Ok(v) => v.into_flat(&self.shape),
                Err(shared) => shared.flat(&self.shape).clone(),
            },
        }
    }
    /// Number of elements.
    pub fn size(&self) -> usize {
        numel(&self.shape)
    }
    /// Number of elements in one slice along axis 0 (1 for a vector).
    pub fn row_size(&self) -> usize {
        numel(self.shape.get(1..).unwrap_or(&[]))
    }
    /// The single element of a scalar (or of a one-element tensor).
    pub fn scalar_value(&self) -> Option<Scalar> {
        (self.size() == 1).then(|| match &self.store {
            Store::Flat(b) => b.get(0),
            Store::View(v) => v.get(&self.shape, 0),
        })
    }
    /// Same data, new shape with the same number of elements. A view stays a view when
    /// only dimensions of size 1 come or go (`expand_dims`, `squeeze`).
    pub fn reshaped(&self, shape: Vec<usize>) -> Result<Tensor> {
        check_len(&shape, self.size())?;
        Ok(self.clone().with_shape(shape))
    }
    /// Same data, new shape (caller guarantees the size).
    pub(crate) fn with_shape(self, shape: Vec<usize>) -> Tensor {
        debug_assert_eq!(numel(&shape), self.size());
        if self.is_view() {
            let (base, offset, old) = self.layout();
            let kept: Vec<usize> = (0..self.shape.len())
                .filter(|&d| self.shape[d] != 1)
                .collect();
            let wanted: Vec<usize> = shape.iter().copied().filter(|&n| n != 1).collect();
            if kept.len() == wanted.len()
                && kept.iter().zip(&wanted).all(|(&d, &n)| self.shape[d] == n)
            {
                let mut from = kept.iter();
                let strides = shape
                    .iter()
                    .map(|&n| {
                        if n == 1 {
                            0
                        } else {
                            old[*from.next().expect("same count")]
                        }
                    })
                    .collect();
                return Tensor::strided(shape, base, offset, strides);
            }
        }
        Tensor {
            shape,
            store: Store::Flat(self.shared_data()),
        }
    }
    /// Row `i` along axis 0 (Python indexing, negative from the end).
    pub fn row(&self, i: i64) -> Result<Tensor> {
        let Some(&n) = self.shape.first() else {
            return Err(invalid_arg!("cannot index a scalar tensor"));
        };
        let k = normalize_index(i, n)
            .ok_or_else(|| index_error!("index {i} is out of bounds for axis 0 with size {n}"))?;
        let (base, offset, strides) = self.layout();
        let at = offset as isize + k as isize * strides[0];
        Ok(Tensor::strided(
            self.shape[1..].to_vec(),
            base,
            at as usize,
            strides[1..].to_vec(),
        ))
    }
    /// Rows `start..end` along axis 0.
    pub fn rows(&self, start: usize, end: usize) -> Tensor {
        let mut shape = self.shape.clone();
        shape[0] = end - start;
        let (base, offset, strides) = self.layout();
        let at = if end > start {
            offset as isize + start as isize * strides[0]
        } else {
            offset as isize
        };
        Tensor::strided(shape, base, at as usize, strides)
    }
    /// The rows at `indices` along axis 0.
    pub fn gather_rows(&self, indices: &[usize]) -> Tensor {
        let rs = self.row_size();
        let mut shape = self.shape.clone();
        shape[0] = indices.len();
        let data = if rs == 1 {
            self.data().gather(indices)
        } else {
            let ranges: Vec<_> = indices.iter().map(|&i| (i * rs, (i + 1) * rs)).collect();
            self.data().gather_ranges(&ranges)
        };
        Tensor::from_parts(shape, data)
    }
    /// The elements as i64 (integer or bool tensors).
    pub fn to_i64_vec(&self) -> Option<Vec<i64>> {
        self.data().to_i64_vec()
    }
}

/// Resolves a Python index (negative counts from the end) against a length; never
/// overflows (see [`super::size::index`]).
pub fn normalize_index(i: i64, n: usize) -> Option<usize> {
    super::size::index(i, n)
}

/// Resolves a Python slice against a length, returning the selected positions.
/// Like Python, out-of-range bounds clamp and a zero step is an error; any i64 bound or
/// step is fine (see [`super::size::slice`]).
pub fn slice_positions(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    n: usize,
) -> Result<Vec<usize>> {
    let r = super::size::slice(start, stop, step, n)?;
    // At most `n` positions: the size of something that already exists.
    let mut out = super::budget::vec("a slice", r.len)?;
    out.extend(r.indices());
    Ok(out)
}

/// For a contiguous step-1 slice, the clamped `(start, end)` range.
pub fn slice_range(start: Option<i64>, stop: Option<i64>, n: usize) -> (usize, usize) {
    // Step 1 needs no wide arithmetic: this runs once per row of a ragged slice.
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    let at = |v: i64| {
        if v < 0 {
            v.saturating_add(n).max(0)
        } else {
            v.min(n)
        }
    };
    let s = start.map_or(0, at);
    let e = stop.map_or(n, at);
    if e > s {
        (s as usize, e as usize)
    } else {
        (0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::slice_range;

    #[test]
    fn slice_range_is_the_general_slice_with_step_one() {
        let bounds = [
            None,
            Some(i64::MIN),
            Some(-9),
            Some(-3),
            Some(-1),
            Some(0),
            Some(2),
        ]
        .into_iter()
        .chain([Some(5), Some(9), Some(i64::MAX)]);
        let bounds: Vec<Option<i64>> = bounds.collect();
        for n in 0..7 {
            for &s in &bounds {
                for &e in &bounds {
                    let r = crate::size::slice(s, e, Some(1), n).unwrap();
                    let want = if r.len > 0 {
                        (r.start, r.start + r.len)
                    } else {
                        (0, 0)
                    };
                    assert_eq!(slice_range(s, e, n), want, "{s:?}:{e:?} of {n}");
                }
            }
        }
    }
}
