//! The parser's errors: [`SyntaxError`] (what, where, which kind) and [`ParseError`]
//! (a syntax error or an interruption). The kinds and their examples are in [`kind`].

use std::fmt;

use super::ast::Span;

mod kind;

pub use kind::SyntaxErrorKind;

/// A syntax error: what is wrong, where, and whether more input could fix it.
#[derive(Debug, Clone, PartialEq)]
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

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Why [`parse_interruptible`](super::parse_interruptible) gave no program.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// The input does not parse.
    Syntax(SyntaxError),
    /// The cancel flag was set (Ctrl-C) before parsing finished.
    Interrupted,
}

impl From<SyntaxError> for ParseError {
    fn from(e: SyntaxError) -> Self {
        ParseError::Syntax(e)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Syntax(e) => e.fmt(f),
            ParseError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for ParseError {}

/// A syntax error is a `SyntaxError` with its span; an interruption a `KeyboardInterrupt`,
/// worded like the evaluator's.
impl From<ParseError> for crate::diagnostic::Error {
    fn from(e: ParseError) -> Self {
        match e {
            ParseError::Syntax(e) => e.into(),
            ParseError::Interrupted => crate::diagnostic::Error::new(
                crate::engine::ErrorClass::KeyboardInterrupt,
                "interrupted",
            )
            .with_hint("every name still holds the value it had before this input"),
        }
    }
}
