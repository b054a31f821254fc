//! ragtag's language: Python values around the engine's tensors, the interpreter and its
//! builtins, rendering (tables, TensorFlow text, JSON, HTML, SVG), file formats, and the
//! [`Session`] every front end drives.
//!
//! ```
//! let mut session = ragtag_lang::Session::new();
//! session.run("rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])").unwrap();
//! let lengths = session.eval("rt.row_lengths()").unwrap();
//! let text = ragtag_lang::render::render(
//!     &lengths,
//!     ragtag_lang::render::Format::Tf,
//!     &ragtag_lang::render::Options::default(),
//! );
//! assert_eq!(text, "<tf.Tensor: shape=(3,), dtype=int64, numpy=array([3, 0, 2])>");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod command;
pub mod complete;
pub mod diagnostic;
pub mod eval;
pub mod formats;
#[allow(clippy::disallowed_methods)] // display code: sizes follow what is shown
pub mod render;
pub mod session;
pub mod value;

pub use session::Session;
