//! The tensor engine: dense, ragged, sparse and LoD tensors on flat buffers.
//!
//! Nothing here knows about syntax or display; the evaluator calls in, values come out.

pub mod budget;
pub mod buffer;
pub mod builder;
pub mod columns;
pub mod dtype;
pub mod error;
pub mod interrupt;
pub mod literal;
pub mod lod;
pub mod ops;
pub mod partition;
pub mod ragged;
pub mod random;
pub mod shared;
pub mod size;
pub mod sparse;
pub mod strings;
pub mod tensor;

pub use buffer::{Buffer, Column, Scalar};
pub use builder::Builder;
pub use dtype::DType;
pub use error::{EngineError, ErrorClass, Result};
pub use lod::Lod;
pub use partition::RowPartition;
pub use ragged::{Array, Dim, Ragged};
pub use shared::Shared;
pub use sparse::Sparse;
pub use strings::StringBuf;
pub use tensor::Tensor;
