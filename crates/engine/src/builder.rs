//! `Builder`: a buffer under construction, one growable vector per dtype, for outputs built
//! by extension (concat, a literal's leaves, sparse fills); [`Builder::finish`] hands the
//! vector to a shared [`Buffer`] without copying it.

use super::buffer::{Buffer, Scalar};
use super::dtype::DType;
use super::error::Result;
use super::strings::StringBuf;
use super::{budget, interrupt, Column};

/// A buffer being filled: elements are appended in order, then [`Builder::finish`] shares them.
#[derive(Debug)]
pub enum Builder {
    /// `bool` elements.
    Bool(Vec<bool>),
    /// `int32` elements.
    I32(Vec<i32>),
    /// `int64` elements.
    I64(Vec<i64>),
    /// `float32` elements.
    F32(Vec<f32>),
    /// `float64` elements.
    F64(Vec<f64>),
    /// `string` elements.
    Str(StringBuf),
}

impl Builder {
    /// An empty builder with room for `n` elements (and `str_bytes` bytes of strings), within
    /// the memory budget.
    pub fn with_capacity(what: &str, dtype: DType, n: usize, str_bytes: usize) -> Result<Builder> {
        Ok(match dtype {
            DType::Bool => Builder::Bool(budget::vec(what, n)?),
            DType::Int32 => Builder::I32(budget::vec(what, n)?),
            DType::Int64 => Builder::I64(budget::vec(what, n)?),
            DType::Float32 => Builder::F32(budget::vec(what, n)?),
            DType::Float64 => Builder::F64(budget::vec(what, n)?),
            DType::String => Builder::Str(StringBuf::try_with_capacity(what, n, str_bytes)?),
        })
    }
    /// Appends `other[start..end]`; both must have the same dtype.
    pub fn extend_range(&mut self, other: &Buffer, start: usize, end: usize) {
        match (self, other) {
            (Builder::Bool(a), Buffer::Bool(b)) => interrupt::extend_copy(a, &b[start..end]),
            (Builder::I32(a), Buffer::I32(b)) => interrupt::extend_copy(a, &b[start..end]),
            (Builder::I64(a), Buffer::I64(b)) => interrupt::extend_copy(a, &b[start..end]),
            (Builder::F32(a), Buffer::F32(b)) => interrupt::extend_copy(a, &b[start..end]),
            (Builder::F64(a), Buffer::F64(b)) => interrupt::extend_copy(a, &b[start..end]),
            (Builder::Str(a), Buffer::Str(b)) => a.extend_range(b, start, end),
            (a, b) => panic!("extend_range: dtype {} vs {}", a.dtype(), b.dtype()),
        }
    }
    /// Appends one scalar of the same dtype.
    pub fn push(&mut self, s: &Scalar) {
        match (self, s) {
            (Builder::Bool(a), Scalar::Bool(b)) => a.push(*b),
            (Builder::I32(a), Scalar::I32(b)) => a.push(*b),
            (Builder::I64(a), Scalar::I64(b)) => a.push(*b),
            (Builder::F32(a), Scalar::F32(b)) => a.push(*b),
            (Builder::F64(a), Scalar::F64(b)) => a.push(*b),
            (Builder::Str(a), Scalar::Str(b)) => a.push(b),
            (a, b) => panic!("push: dtype {} vs {}", a.dtype(), b.dtype()),
        }
    }
    /// The dtype being built.
    pub fn dtype(&self) -> DType {
        match self {
            Builder::Bool(_) => DType::Bool,
            Builder::I32(_) => DType::Int32,
            Builder::I64(_) => DType::Int64,
            Builder::F32(_) => DType::Float32,
            Builder::F64(_) => DType::Float64,
            Builder::Str(_) => DType::String,
        }
    }
    /// Number of elements so far.
    pub fn len(&self) -> usize {
        match self {
            Builder::Bool(v) => v.len(),
            Builder::I32(v) => v.len(),
            Builder::I64(v) => v.len(),
            Builder::F32(v) => v.len(),
            Builder::F64(v) => v.len(),
            Builder::Str(v) => v.col_len(),
        }
    }
    /// True when nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The finished buffer (the vector becomes the shared storage, no copy).
    pub fn finish(self) -> Buffer {
        match self {
            Builder::Bool(v) => Buffer::Bool(v.into()),
            Builder::I32(v) => Buffer::I32(v.into()),
            Builder::I64(v) => Buffer::I64(v.into()),
            Builder::F32(v) => Buffer::F32(v.into()),
            Builder::F64(v) => Buffer::F64(v.into()),
            Builder::Str(v) => Buffer::Str(v),
        }
    }
}
