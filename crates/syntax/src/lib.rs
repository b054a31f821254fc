//! ragtag's syntax: the AST with spans, the pest-based parser (`grammar/ragtag.pest`, the
//! project's top level) and an S-expression printer. List literals are read straight into the
//! engine's literal columns, which is the one thing this crate takes from the engine.
//!
//! ```
//! let program = ragtag_syntax::parse("rt[:, -2:]").unwrap();
//! assert_eq!(ragtag_syntax::program_to_sexpr(&program), "(subscript rt (slice _ _ _) (slice (- 2) _ _))");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![allow(clippy::disallowed_methods)] // parser: sizes follow the source text

// `Index::Slice` holds three optional expressions; boxing them is not worth the churn.
#[allow(clippy::large_enum_variant)]
pub mod ast;
mod error;
pub mod ident;
mod mangle;
mod parser;
pub mod pattern;
pub mod scope;
mod sexpr;
pub mod yields;

pub use error::{ParseError, SyntaxError, SyntaxErrorKind};
pub use parser::{completeness, parse, parse_expr, parse_interruptible, Completeness};
/// Python's reserved words: none of them is a name. The parser, the completer and the
/// highlighter all read this list.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The keywords of Python statements ragtag does not have: a SyntaxError names them.
pub const UNSUPPORTED_KEYWORDS: &[&str] = &["async", "await"];

pub use sexpr::{expr_to_sexpr, program_to_sexpr};
