//! The parser's errors: [`SyntaxError`] (what, where, which kind) and [`ParseError`]
//! (a syntax error or an interruption). The kinds, with their examples, are
//! [`SyntaxErrorKind`].

use super::ast::Span;

mod kind;

pub use kind::SyntaxErrorKind;

/// A syntax error: what is wrong, where, and whether more input could fix it. It displays
/// as its message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Which of the parser's errors this is (the message says it in words).
    pub kind: SyntaxErrorKind,
    /// A human-readable description, e.g. "expected an expression".
    pub message: String,
    /// Where the problem is (byte offsets into the source).
    pub span: Span,
    /// An optional suggestion.
    pub hint: Option<String>,
    /// True when the error is at the end of the input, so that more input could complete it.
    pub incomplete: bool,
}

impl SyntaxError {
    /// An error of `kind`, with no hint, that more input would not fix.
    pub(crate) fn new(kind: SyntaxErrorKind, message: impl Into<String>, span: Span) -> Self {
        SyntaxError {
            kind,
            message: message.into(),
            span,
            hint: None,
            incomplete: false,
        }
    }

    /// The same error with a suggestion.
    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same error, marked as one that more input could fix.
    pub(crate) fn incomplete(mut self) -> Self {
        self.incomplete = true;
        self
    }
}

/// Why [`parse_interruptible`](super::parse_interruptible) gave no program.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseError {
    /// The input does not parse.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The cancel flag was set (Ctrl-C) before parsing finished.
    #[error("interrupted")]
    Interrupted,
}
