//! Flat, typed element storage shared by dense, ragged, sparse and LoD tensors.

use half::{bf16, f16};

use super::budget;
use super::dtype::DType;
use super::element::Element;
use super::error::Result;
use super::shared::Shared;
use super::size;
use super::strings::StringBuf;

/// The elements of a tensor in row-major order, one contiguous buffer per dtype. Numbers and
/// bools are shared, copy-on-write vectors ([`Shared`]): cloning or slicing a buffer copies
/// nothing, and a buffer with one owner grows in place (a buffer under construction is one
/// made by [`Buffer::with_capacity`]). Generic code reaches the variants through
/// [`Element`] and [`dispatch!`](crate::dispatch).
#[derive(Debug, Clone, PartialEq)]
pub enum Buffer {
    /// `bool` elements.
    Bool(Shared<bool>),
    /// `int8` elements.
    I8(Shared<i8>),
    /// `int16` elements.
    I16(Shared<i16>),
    /// `int32` elements.
    I32(Shared<i32>),
    /// `int64` elements.
    I64(Shared<i64>),
    /// `uint8` elements.
    U8(Shared<u8>),
    /// `uint16` elements.
    U16(Shared<u16>),
    /// `uint32` elements.
    U32(Shared<u32>),
    /// `uint64` elements.
    U64(Shared<u64>),
    /// `float16` elements.
    F16(Shared<f16>),
    /// `bfloat16` elements.
    BF16(Shared<bf16>),
    /// `float32` elements.
    F32(Shared<f32>),
    /// `float64` elements.
    F64(Shared<f64>),
    /// `string` elements: one byte buffer plus offsets.
    Str(StringBuf),
}

/// One element, detached from its buffer.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// A `bool`.
    Bool(bool),
    /// An `int8`.
    I8(i8),
    /// An `int16`.
    I16(i16),
    /// An `int32`.
    I32(i32),
    /// An `int64`.
    I64(i64),
    /// A `uint8`.
    U8(u8),
    /// A `uint16`.
    U16(u16),
    /// A `uint32`.
    U32(u32),
    /// A `uint64`.
    U64(u64),
    /// A `float16`.
    F16(f16),
    /// A `bfloat16`.
    BF16(bf16),
    /// A `float32`.
    F32(f32),
    /// A `float64`.
    F64(f64),
    /// A `string`.
    Str(Vec<u8>),
}

impl Scalar {
    /// The scalar's dtype.
    pub fn dtype(&self) -> DType {
        crate::dispatch!(elements scalar self, T: _x => T::DTYPE, Scalar::Str(_) => DType::String)
    }
    /// The value as f64 (numbers and bools).
    pub fn as_f64(&self) -> Option<f64> {
        crate::dispatch!(elements scalar self, x => Some(x.to_f64()), Scalar::Str(_) => None)
    }
    /// The value as i64 (integers and bools only).
    pub fn as_i64(&self) -> Option<i64> {
        crate::dispatch!(elements scalar self, T: x => {
            (!T::DTYPE.is_float()).then(|| x.to_i64())
        }, Scalar::Str(_) => None)
    }
    /// The zero of a dtype (`False`, `0`, `0.0`, `''`): TensorFlow's default fill.
    pub fn default_of(dtype: DType) -> Scalar {
        crate::dispatch!(elements dtype dtype, T => T::default().scalar(),
            DType::String => Scalar::Str(Vec::new()))
    }
}

/// Operations every element column supports, numeric or string.
pub trait Column: Sized {
    /// Number of elements.
    fn col_len(&self) -> usize;
    /// An empty column with room for `n` elements.
    fn empty_like(&self, n: usize) -> Self;
    /// The elements at `indices`.
    fn gather(&self, indices: &[usize]) -> Self;
    /// Appends `other[start..end]`.
    fn extend_range(&mut self, other: &Self, start: usize, end: usize);
    /// Appends element `i` of `other`.
    fn push_from(&mut self, other: &Self, i: usize) {
        self.extend_range(other, i, i + 1)
    }
    /// The elements `start..end`.
    fn slice_range(&self, start: usize, end: usize) -> Self {
        let mut out = self.empty_like(end - start);
        out.extend_range(self, start, end);
        out
    }
    /// The concatenation of the given ranges of `self`.
    fn gather_ranges(&self, ranges: &[(usize, usize)]) -> Self {
        let n = ranges.iter().map(|(a, b)| b - a).sum();
        let mut out = self.empty_like(n);
        for &(a, b) in ranges {
            out.extend_range(self, a, b);
        }
        out
    }
}

impl<T: Copy + Default + Send + Sync> Column for Shared<T> {
    fn col_len(&self) -> usize {
        self.len()
    }
    fn empty_like(&self, _n: usize) -> Self {
        // Grows as it is filled; the callers check result sizes against the budget.
        Shared::new()
    }
    fn gather(&self, indices: &[usize]) -> Self {
        // The run as a slice once, not once an element.
        let src: &[T] = self;
        indices.iter().map(|&i| src[i]).collect()
    }
    fn extend_range(&mut self, other: &Self, start: usize, end: usize) {
        let src = &other[start..end];
        self.grow(|v| super::interrupt::extend_copy(v, src));
    }
    fn slice_range(&self, start: usize, end: usize) -> Self {
        self.slice(start, end)
    }
    fn gather_ranges(&self, ranges: &[(usize, usize)]) -> Self {
        // The callers checked the result's size against the budget.
        let n = ranges.iter().map(|(a, b)| b - a).sum();
        if n >= super::interrupt::PARALLEL_MIN {
            return gather_ranges_parallel(self, ranges, n).into();
        }
        #[allow(clippy::disallowed_methods)] // the size of parts of an existing value
        let mut out = Vec::with_capacity(n);
        let src: &[T] = self;
        for &(a, b) in ranges {
            let part = &src[a..b];
            // A few values are copied faster one by one than through a call to memcpy
            // (a ragged slice such as rt[:, :2] copies one or two values per row).
            if part.len() <= 4 {
                for &v in part {
                    out.push(v);
                }
            } else {
                out.extend_from_slice(part);
            }
        }
        out.into()
    }
}

/// [`Column::gather_ranges`] of many values on every core: the ranges are cut into groups
/// of about [`CHUNK`](super::interrupt::CHUNK) values, each group copied into its own part
/// of the output. The output starts zeroed (fresh pages already are), since each part must
/// exist before a thread writes it.
fn gather_ranges_parallel<T: Copy + Default + Send + Sync>(
    src: &[T],
    ranges: &[(usize, usize)],
    n: usize,
) -> Vec<T> {
    use rayon::prelude::*;
    #[allow(clippy::disallowed_methods)] // the size of parts of an existing value
    let mut out = vec![T::default(); n];
    let mut tasks = Vec::new();
    let mut rest = out.as_mut_slice();
    let mut i = 0;
    while i < ranges.len() {
        let start = i;
        let mut len = 0;
        while i < ranges.len() && len < super::interrupt::CHUNK {
            len += ranges[i].1 - ranges[i].0;
            i += 1;
        }
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(len);
        tasks.push((part, &ranges[start..i]));
        rest = tail;
    }
    tasks.into_par_iter().for_each(|(part, group)| {
        let mut k = 0;
        for &(a, b) in group {
            let (from, to) = (&src[a..b], &mut part[k..k + (b - a)]);
            // A few values are copied faster one by one than through a call to memcpy.
            if from.len() <= 4 {
                for (t, &f) in to.iter_mut().zip(from) {
                    *t = f;
                }
            } else {
                to.copy_from_slice(from);
            }
            k += b - a;
        }
    });
    out
}

impl Column for StringBuf {
    fn col_len(&self) -> usize {
        self.len()
    }
    fn empty_like(&self, _n: usize) -> Self {
        StringBuf::new()
    }
    fn gather(&self, indices: &[usize]) -> Self {
        StringBuf::gather(self, indices)
    }
    fn extend_range(&mut self, other: &Self, start: usize, end: usize) {
        StringBuf::extend_range(self, other, start, end)
    }
    fn slice_range(&self, start: usize, end: usize) -> Self {
        self.slice(start, end)
    }
}

impl Buffer {
    /// The buffer's dtype.
    pub fn dtype(&self) -> DType {
        crate::dispatch!(elements self, T: _v => T::DTYPE, Buffer::Str(_) => DType::String)
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        crate::dispatch!(elements self, v => v.len(), Buffer::Str(s) => s.len())
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// An empty buffer of `dtype`.
    pub fn empty(dtype: DType) -> Buffer {
        Buffer::filled(&Scalar::default_of(dtype), 0)
    }
    /// `n` copies of `value`, for a small `n` known in advance (a scalar, a fill value);
    /// a size that follows from arguments goes through [`Buffer::try_filled`].
    pub fn filled(value: &Scalar, n: usize) -> Buffer {
        debug_assert!(
            n <= 1 << 16,
            "Buffer::filled is for small sizes; use try_filled"
        );
        Buffer::try_filled("a tensor", value, n).expect("a small buffer fits the budget")
    }
    /// `n` copies of `value`, within the memory budget (strings count their real bytes).
    pub fn try_filled(what: &str, value: &Scalar, n: usize) -> Result<Buffer> {
        crate::dispatch!(elements scalar value, x => Ok(Buffer::from(budget::filled(what, *x, n)?)),
            Scalar::Str(v) => Ok(Buffer::Str(StringBuf::try_repeat(what, v, n)?)))
    }
    /// Element `i`.
    pub fn get(&self, i: usize) -> Scalar {
        crate::dispatch!(elements self, v => v[i].scalar(),
            Buffer::Str(s) => Scalar::Str(s.get(i).to_vec()))
    }
    /// The elements at `indices`.
    pub fn gather(&self, indices: &[usize]) -> Buffer {
        crate::dispatch!(map self, v => v.gather(indices))
    }
    /// The elements `start..end`.
    pub fn slice(&self, start: usize, end: usize) -> Buffer {
        crate::dispatch!(map self, v => v.slice_range(start, end))
    }
    /// The concatenation of the given ranges.
    pub fn gather_ranges(&self, ranges: &[(usize, usize)]) -> Buffer {
        crate::dispatch!(map self, v => v.gather_ranges(ranges))
    }
    /// Appends `other[start..end]`; both must have the same dtype. A buffer with one owner
    /// (one made by [`Buffer::with_capacity`]) grows in place.
    pub fn extend_range(&mut self, other: &Buffer, start: usize, end: usize) {
        crate::dispatch!(elements pair (self, other), (a, b) => a.extend_range(b, start, end),
            (Buffer::Str(a), Buffer::Str(b)) => a.extend_range(b, start, end),
            (a, b) => panic!("extend_range: dtype {} vs {}", a.dtype(), b.dtype()))
    }
    /// Concatenates buffers of one dtype (`dtype` is used when `parts` is empty), within
    /// the memory budget.
    pub fn concat(dtype: DType, parts: &[&Buffer]) -> Result<Buffer> {
        let n = size::sum(parts.iter().map(|p| p.len()))?;
        let bytes = size::sum(parts.iter().map(|p| p.str_bytes()))?;
        let (out, ()) = Buffer::from_runs("concat", dtype, parts, (n, bytes), |copy| {
            for (k, p) in parts.iter().enumerate() {
                copy(k, 0, p.len());
            }
        })?;
        Ok(out)
    }
    /// A new buffer of `dtype` made of runs of `sources` (buffers of that dtype) in the
    /// order `walk` gives them: `walk` calls `copy(source, start, end)` for each run, and
    /// its result comes back beside the buffer. Room for `n` elements and `str_bytes` bytes
    /// of strings is reserved within the memory budget. The dtype is looked at once, so
    /// each run costs one copy into a plain vector: the loop of concatenations.
    pub fn from_runs<R>(
        what: &str,
        dtype: DType,
        sources: &[&Buffer],
        (n, str_bytes): (usize, usize),
        walk: impl FnOnce(&mut dyn FnMut(usize, usize, usize)) -> R,
    ) -> Result<(Buffer, R)> {
        fn runs<T: Element, R>(
            what: &str,
            sources: &[&Buffer],
            n: usize,
            walk: impl FnOnce(&mut dyn FnMut(usize, usize, usize)) -> R,
        ) -> Result<(Buffer, R)> {
            let srcs: Vec<&[T]> = sources
                .iter()
                .map(|b| &T::of(b).expect("from_runs: sources of one dtype")[..])
                .collect();
            let mut out = budget::vec::<T>(what, n)?;
            let r = walk(&mut |k, a, b| super::interrupt::extend_copy(&mut out, &srcs[k][a..b]));
            Ok((Buffer::from(out), r))
        }
        crate::dispatch!(elements dtype dtype, T => runs::<T, R>(what, sources, n, walk),
        DType::String => {
            let srcs: Vec<&StringBuf> = sources
                .iter()
                .map(|b| match b {
                    Buffer::Str(s) => s,
                    _ => panic!("from_runs: sources of one dtype"),
                })
                .collect();
            let mut out = StringBuf::try_with_capacity(what, n, str_bytes)?;
            let r = walk(&mut |k, a, b| out.extend_range(srcs[k], a, b));
            Ok((Buffer::Str(out), r))
        })
    }
    /// An empty buffer with room for `n` elements (and `str_bytes` bytes of strings), within
    /// the memory budget: a buffer under construction, which [`Buffer::push`] and
    /// [`Buffer::extend_range`] grow in place while it has one owner.
    pub fn with_capacity(what: &str, dtype: DType, n: usize, str_bytes: usize) -> Result<Buffer> {
        crate::dispatch!(elements dtype dtype, T => Ok(Buffer::from(budget::vec::<T>(what, n)?)),
            DType::String => Ok(Buffer::Str(StringBuf::try_with_capacity(what, n, str_bytes)?)))
    }
    /// The bytes of string data (0 for other dtypes).
    pub fn str_bytes(&self) -> usize {
        match self {
            Buffer::Str(s) => s.bytes().len(),
            _ => 0,
        }
    }
    /// The bytes this buffer occupies: elements times their size, plus string data and
    /// offsets.
    pub fn byte_size(&self) -> usize {
        match self {
            Buffer::Str(s) => s.bytes().len() + std::mem::size_of_val(s.offsets()),
            b => b.len() * b.dtype().item_bytes(),
        }
    }
    /// Appends one scalar of the same dtype.
    pub fn push(&mut self, s: &Scalar) {
        fn push<T: Element>(v: &mut Shared<T>, s: &Scalar) -> bool {
            T::from_scalar(s).map(|x| v.push(x)).is_some()
        }
        let pushed = crate::dispatch!(elements &mut *self, v => push(v, s),
        Buffer::Str(a) => match s {
            Scalar::Str(b) => {
                a.push(b);
                true
            }
            _ => false,
        });
        assert!(pushed, "push: dtype {} vs {}", self.dtype(), s.dtype());
    }
    /// Int64 values cast to bool or numeric `dtype` (`tf.cast`: narrower ints wrap); the
    /// vector is reused in place when the element sizes agree.
    pub fn from_i64s(v: Vec<i64>, dtype: DType) -> Buffer {
        crate::dispatch!(elements dtype dtype, T => {
            Buffer::from(v.into_iter().map(T::from_i64).collect::<Vec<T>>())
        }, DType::String => panic!("from_i64s: a string dtype"))
    }
    /// Float64 values cast to bool or numeric `dtype` (`tf.cast`: ints truncate toward
    /// zero); the vector is reused in place when the element sizes agree.
    pub fn from_f64s(v: Vec<f64>, dtype: DType) -> Buffer {
        crate::dispatch!(elements dtype dtype, T => {
            Buffer::from(v.into_iter().map(T::from_f64).collect::<Vec<T>>())
        }, DType::String => panic!("from_f64s: a string dtype"))
    }
    /// The elements as i64, when the dtype is an integer or bool.
    pub fn to_i64_vec(&self) -> Option<Vec<i64>> {
        crate::dispatch!(elements self, T: v => {
            (!T::DTYPE.is_float()).then(|| v.iter().map(|x| x.to_i64()).collect())
        }, Buffer::Str(_) => None)
    }
    /// The elements as f64, when numeric or bool.
    pub fn to_f64_vec(&self) -> Option<Vec<f64>> {
        crate::dispatch!(elements self, v => Some(v.iter().map(|x| x.to_f64()).collect()),
            Buffer::Str(_) => None)
    }
}

impl<T: Element> From<Shared<T>> for Buffer {
    fn from(v: Shared<T>) -> Buffer {
        T::buffer(v)
    }
}

impl<T: Element> From<Vec<T>> for Buffer {
    /// The vector becomes the buffer's storage, no copy.
    fn from(v: Vec<T>) -> Buffer {
        T::buffer(v.into())
    }
}

impl From<StringBuf> for Buffer {
    fn from(s: StringBuf) -> Buffer {
        Buffer::Str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_ranges_gather_the_same_on_every_core() {
        #[allow(clippy::disallowed_methods)] // a constant test size
        let src: Vec<i64> = (0..1_000_000).collect();
        // Lengths 0..=6, some past memcpy's threshold, and enough values to go parallel.
        let mut ranges = Vec::new();
        let mut a = 0;
        for i in 0..100_000usize {
            let len = (i * 5 + i / 3) % 7;
            if a + len > src.len() {
                break;
            }
            ranges.push((a, a + len));
            a += len / 2 + 1;
        }
        let want: Vec<i64> = ranges
            .iter()
            .flat_map(|&(a, b)| src[a..b].to_vec())
            .collect();
        assert!(want.len() >= crate::interrupt::PARALLEL_MIN);
        let got = Shared::from(src).gather_ranges(&ranges);
        assert_eq!(got.to_vec(), want);
    }
}
