//! ragtag's tensor engine: dense, ragged, sparse and LoD tensors on flat buffers, with
//! TensorFlow's semantics, a memory budget, interrupts and the evaluation guard.
//!
//! Nothing here knows about syntax or display; the language crate calls in, values come out.
//! The engine is a Rust library of its own: build a ragged tensor from flat values and a row
//! partition, and run TensorFlow's operations on it.
//!
//! ```
//! use ragtag_engine::{Ragged, RowPartition, Tensor};
//!
//! // [[1, 2, 3], [], [4, 5]]: five values cut into rows of lengths 3, 0 and 2.
//! let rows = RowPartition::from_row_lengths(&[3, 0, 2], None).unwrap();
//! let rt = Ragged::new(vec![rows], Tensor::from_i64(vec![1, 2, 3, 4, 5])).unwrap();
//! assert_eq!(rt.nrows(), 3);
//! assert_eq!(rt.outer().row_splits(), &[0, 3, 3, 5]);
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod budget;
pub mod buffer;
pub mod columns;
pub mod dispatch;
pub mod dtype;
pub mod element;
pub mod error;
mod exception_text;
pub mod exceptions;
pub mod guard;
pub mod interrupt;
pub mod literal;
pub mod lod;
pub mod lod_ops;
pub mod ops;
pub mod partition;
pub mod ragged;
pub mod random;
pub mod shared;
pub mod size;
pub mod sparse;
pub mod strided;
pub mod strings;
pub mod tensor;

pub use buffer::{Buffer, Column, Scalar};
pub use dtype::DType;
pub use element::{Element, Number};
pub use error::{EngineError, Result};
pub use exceptions::{Exception, ExceptionClass};
/// The 16-bit float element types, `tf.float16` and `tf.bfloat16`.
pub use half::{bf16, f16};
pub use lod::Lod;
pub use partition::RowPartition;
pub use ragged::{Array, Dim, Ragged};
pub use shared::Shared;
pub use sparse::Sparse;
pub use strings::StringBuf;
pub use tensor::Tensor;
