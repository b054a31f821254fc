//! ragtag: explore ragged, sparse and LoD tensors in a REPL, a Jupyter kernel or a script —
//! or from Rust, as this library.
//!
//! The pipeline: [`syntax`] parses source into a typed tree, [`eval`] runs it in a
//! [`session::Session`] against the [`engine`], and [`render`] shows each value as a table,
//! TensorFlow text, JSON or HTML. Each layer is a crate of its own (`ragtag-engine`,
//! `ragtag-syntax`, `ragtag-lang`), re-exported here under its module name; this crate adds
//! the golden-transcript runner and, in its binary, the REPL and the Jupyter kernel.
//!
//! # From Rust
//!
//! A [`Session`] holds names, like a notebook's kernel. [`Session::run`] runs statements and
//! returns what they displayed and printed; [`Session::eval`] evaluates one expression and
//! returns its [`value::Value`], which [`render`] shows as the annotated table, TensorFlow's
//! text or notebook HTML:
//!
//! ```
//! use ragtag::render::{self, Format, Options};
//!
//! let mut session = ragtag::Session::new();
//! session.run("rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])").unwrap();
//! let tail = session.eval("rt[:, -2:]").unwrap();
//!
//! // The values of the first and last rows, as ragtag's engine holds them.
//! let r = tail.as_ragged().unwrap();
//! assert_eq!(r.outer().row_splits(), &[0, 2, 2, 4]);
//!
//! // The same text `print(rt[:, -2:])` shows.
//! assert_eq!(
//!     render::render(&tail, Format::Tf, &Options::default()),
//!     "<tf.RaggedTensor [[2, 3], [], [4, 5]]>"
//! );
//! // The annotated table of the REPL, and the HTML fragment notebooks show.
//! let table = render::render(&tail, Format::Table, &Options::plain(80));
//! assert!(table.contains("ragged"));
//! let html = render::render(&tail, Format::Html, &Options::default());
//! assert!(html.starts_with("<div class=\"ragtag-display\""));
//! ```
//!
//! Errors are Python's and TensorFlow's exception classes, with a diagnostic that points
//! into the input:
//!
//! ```
//! use ragtag::diagnostic::Style;
//!
//! let mut session = ragtag::Session::new();
//! let e = session.eval("tf.ragged.constant([[1], [[2]]])").unwrap_err();
//! assert_eq!(e.class.name(), "ValueError");
//! let report = session.render_error(&e, Style::Plain, 80);
//! assert!(report.contains("ValueError"));
//! ```
//!
//! Tensors can also be built directly on the [`engine`]: a ragged tensor is flat values and
//! a row partition (here from row lengths), and [`value::Value`] wraps it for display:
//!
//! ```
//! use ragtag::engine::{Ragged, RowPartition, Tensor};
//! use ragtag::value::Value;
//!
//! let rows = RowPartition::from_row_lengths(&[3, 0, 2], None).unwrap();
//! let rt = Ragged::new(vec![rows], Tensor::from_i64(vec![1, 2, 3, 4, 5])).unwrap();
//! assert_eq!(rt.nrows(), 3);
//! let text = ragtag::render::render(
//!     &Value::ragged(rt),
//!     ragtag::render::Format::Tf,
//!     &ragtag::render::Options::default(),
//! );
//! assert_eq!(text, "<tf.RaggedTensor [[1, 2, 3], [], [4, 5]]>");
//! ```
//!
//! # In evcxr
//!
//! Every value and tensor type has evcxr's `evcxr_display` method ([`render::evcxr`]), so in
//! evcxr_jupyter a cell ending in a value shows ragtag's HTML table, and evcxr_repl prints
//! the plain-text table. The library builds without the REPL, the kernel and the command
//! line (`default-features = false`), which is all a notebook needs:
//!
//! ```text
//! :dep ragtag = { path = "/path/to/ragtag", default-features = false }
//! let mut s = ragtag::Session::new();
//! s.eval("tf.ragged.constant([[1, 2], [3]])")?
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The layers, each a crate of the workspace, under the paths users of this library know.
pub use ragtag_engine as engine;
pub use ragtag_engine::guard;
/// evcxr's display of the engine's tensor types: `use ragtag::EvcxrDisplay;` in evcxr.
pub use ragtag_lang::render::evcxr::EvcxrDisplay;
pub use ragtag_lang::{
    command, complete, diagnostic, eval, formats, render, session, value, Session,
};
pub use ragtag_syntax as syntax;

#[allow(clippy::disallowed_methods)] // transcript text: sizes follow the files read
pub mod golden;
