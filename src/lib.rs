//! ragtag: explore ragged, sparse and LoD tensors in a REPL, a Jupyter kernel or a script.
//!
//! The pipeline: [`syntax`] parses source into a typed tree, [`eval`] runs it in a
//! [`session::Session`] against the [`engine`], and [`render`] shows each value as a table,
//! TensorFlow text, JSON or HTML.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod command;
pub mod complete;
pub mod diagnostic;
pub mod engine;
pub mod eval;
pub mod formats;
#[allow(clippy::disallowed_methods)] // transcript text: sizes follow the files read
pub mod golden;
pub mod guard;
#[allow(clippy::disallowed_methods)] // display code: sizes follow what is shown
pub mod render;
pub mod session;
#[allow(clippy::disallowed_methods)] // parser: sizes follow the source text
pub mod syntax;
pub mod value;

pub use session::Session;
