//! String storage: every string of a tensor in one byte buffer plus an offsets array,
//! as TensorFlow stores string tensors — never one heap allocation per element.

use super::budget;
use super::error::Result;
use super::size;

/// A column of byte strings: element `i` is `bytes[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StringBuf {
    bytes: Vec<u8>,
    /// `len() + 1` entries, starting at 0, never decreasing.
    offsets: Vec<usize>,
}

impl StringBuf {
    /// An empty column.
    pub fn new() -> Self {
        StringBuf {
            bytes: Vec::new(),
            offsets: vec![0],
        }
    }
    /// An empty column with room for `n` strings of `bytes` bytes in all, within the memory
    /// budget (the bytes and the offsets are counted together).
    pub fn try_with_capacity(what: &str, n: usize, bytes: usize) -> Result<Self> {
        let slots = size::add(n, 1)?;
        let offset_bytes = slots as u128 * std::mem::size_of::<usize>() as u128;
        budget::check_bytes(what, offset_bytes + bytes as u128)?;
        let mut offsets = budget::vec(what, slots)?;
        offsets.push(0);
        Ok(StringBuf {
            bytes: budget::vec(what, bytes)?,
            offsets,
        })
    }
    /// Builds a column from string slices.
    pub fn from_strs<'a>(items: impl IntoIterator<Item = &'a str>) -> Self {
        let mut s = StringBuf::new();
        for item in items {
            s.push(item.as_bytes());
        }
        s
    }
    /// `n` copies of one string, within the memory budget (counting every copy's bytes).
    pub fn try_repeat(what: &str, item: &[u8], n: usize) -> Result<Self> {
        let offsets = (n as u128 + 1) * std::mem::size_of::<usize>() as u128;
        budget::check_bytes(what, item.len() as u128 * n as u128 + offsets)?;
        let mut s = StringBuf::try_with_capacity(what, n, size::mul(item.len(), n)?)?;
        for _ in 0..n {
            s.push(item);
        }
        Ok(s)
    }
    /// Appends one string.
    pub fn push(&mut self, item: &[u8]) {
        self.bytes.extend_from_slice(item);
        self.offsets.push(self.bytes.len());
    }
    /// Appends one string built from parts, without an intermediate allocation.
    pub fn push_parts<'a>(&mut self, parts: impl IntoIterator<Item = &'a [u8]>) {
        for p in parts {
            self.bytes.extend_from_slice(p);
        }
        self.offsets.push(self.bytes.len());
    }
    /// Appends one string written in place by `f`, straight into the shared byte buffer
    /// (for transforms such as case mapping or number formatting: no scratch allocation).
    pub fn push_with<R>(&mut self, f: impl FnOnce(&mut StrWriter<'_>) -> R) -> R {
        let r = f(&mut StrWriter(&mut self.bytes));
        self.offsets.push(self.bytes.len());
        r
    }
    /// Number of strings.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    /// True when there are no strings.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The bytes of element `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.offsets[i]..self.offsets[i + 1]]
    }
    /// Element `i` as text (invalid UTF-8 replaced).
    pub fn get_str(&self, i: usize) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.get(i))
    }
    /// Iterates over the elements' bytes.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.offsets.windows(2).map(|w| &self.bytes[w[0]..w[1]])
    }
    /// The shared byte buffer.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The offsets (`len() + 1` entries).
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }
    /// The elements at `indices`, in order (the caller checks the size of the result
    /// against the budget, see [`crate::ops::gather`]).
    pub fn gather(&self, indices: &[usize]) -> Self {
        let mut out = StringBuf::new();
        for &i in indices {
            out.push(self.get(i));
        }
        out
    }
    /// The contiguous elements `start..end` (one copy of the bytes, offsets rebased).
    pub fn slice(&self, start: usize, end: usize) -> Self {
        let base = self.offsets[start];
        StringBuf {
            bytes: self.bytes[base..self.offsets[end]].to_vec(),
            offsets: self.offsets[start..=end].iter().map(|o| o - base).collect(),
        }
    }
    /// Appends the elements `start..end` of `other`.
    pub fn extend_range(&mut self, other: &StringBuf, start: usize, end: usize) {
        let base = other.offsets[start];
        let shift = self.bytes.len();
        self.bytes
            .extend_from_slice(&other.bytes[base..other.offsets[end]]);
        self.offsets.extend(
            other.offsets[start + 1..=end]
                .iter()
                .map(|o| o - base + shift),
        );
    }
}

/// Appends the bytes of the element being built by [`StringBuf::push_with`]; it can only
/// append, so the offsets stay valid.
pub struct StrWriter<'a>(&'a mut Vec<u8>);

impl StrWriter<'_> {
    /// Appends bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    /// Appends one byte.
    pub fn byte(&mut self, b: u8) {
        self.0.push(b);
    }
    /// Appends `n` copies of a byte (padding); the caller has checked the element's
    /// longest size against the budget.
    pub fn repeat(&mut self, b: u8, n: usize) {
        self.0.extend(std::iter::repeat_n(b, n));
    }
}

impl std::fmt::Write for StrWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}
