//! Errors as the user sees them: a TensorFlow exception class, a message, the span of the
//! offending source, and a hint — rendered by miette.

use std::fmt;

use ragtag_engine::exceptions::{Exception, ExceptionClass};
use ragtag_syntax::ast::Span;
use ragtag_syntax::SyntaxError;

/// An error raised while running a cell, with where it happened. Boxed, so that with a
/// [`Value`](crate::value::Value) of two words a `Result<Value>` is two words too: every
/// expression node returns one, and at that size it comes back in registers rather than
/// through memory. Its fields are read and set through the box ([`ErrorInfo`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Error(Box<ErrorInfo>);

/// What an [`Error`] holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorInfo {
    /// The exception class.
    pub class: ExceptionClass,
    /// The message.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
    /// The offending source range, when known.
    pub span: Option<Span>,
    /// The labels drawn under the source, each on its own span (a failing operator labels
    /// both operands); with none, the span is marked `here`.
    pub labels: Vec<(Span, String)>,
    /// Which source (cell) the span is in; `None` means the current one.
    pub source: Option<u32>,
    /// What failed, as data, when the engine raised one of its typed errors (its code is
    /// the catalogue's).
    pub kind: Option<std::sync::Arc<ragtag_engine::EngineError>>,
    /// The user's exception class it was raised as (`class E(ValueError)`), numbered in
    /// [`user_class_name`]'s table; `class` is then its builtin base.
    pub raised_as: Option<std::num::NonZeroU32>,
}

/// Results of evaluation.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl std::ops::Deref for Error {
    type Target = ErrorInfo;
    fn deref(&self) -> &ErrorInfo {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorInfo {
        &mut self.0
    }
}

impl From<ErrorInfo> for Error {
    fn from(info: ErrorInfo) -> Self {
        Error(Box::new(info))
    }
}

impl Error {
    /// The error's fields, out of their box.
    pub fn into_info(self) -> ErrorInfo {
        *self.0
    }
}

impl Error {
    /// An error of `class` with `message` and no span yet.
    pub fn new(class: impl Into<ExceptionClass>, message: impl Into<String>) -> Self {
        Error::from(ErrorInfo {
            class: class.into(),
            message: message.into(),
            hint: None,
            span: None,
            labels: Vec::new(),
            source: None,
            kind: None,
            raised_as: None,
        })
    }

    /// Python's TypeError for a value used where an int is needed (an index, a count, a
    /// byte): `'float' object cannot be interpreted as an integer`.
    pub fn not_an_integer(type_name: &str) -> Self {
        Error::new(
            ExceptionClass::TypeError,
            format!("'{type_name}' object cannot be interpreted as an integer"),
        )
    }
    /// Sets the span if none is set yet (the innermost span wins).
    pub fn at(mut self, span: Span) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
    /// Sets the span and its label if none is set yet.
    pub fn at_labeled(mut self, span: Span, label: impl Into<String>) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
            self.labels.push((span, label.into()));
        }
        self
    }
    /// Adds a label on `span` (inside the error's span or near it).
    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> Self {
        self.labels.push((span, label.into()));
        self
    }
    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    /// Sets the source id if unset.
    pub fn in_source(mut self, source: usize) -> Self {
        if self.source.is_none() {
            self.source = u32::try_from(source).ok();
        }
        self
    }
    /// The exception value `except … as e` binds: class, message and hint, no span.
    pub fn to_exception(&self) -> Exception {
        Exception {
            class: self.class,
            message: self.message.clone(),
            hint: self.hint.clone(),
            kind: self.kind.clone(),
        }
    }
}

impl From<Exception> for Error {
    fn from(e: Exception) -> Self {
        Error::from(ErrorInfo {
            class: e.class,
            message: e.message,
            hint: e.hint,
            span: None,
            labels: Vec::new(),
            source: None,
            kind: e.kind,
            raised_as: None,
        })
    }
}

/// A syntax error keeps the class Python gives its kind (`IndentationError`, `TabError`
/// or `SyntaxError`).
impl From<SyntaxError> for Error {
    fn from(e: SyntaxError) -> Self {
        Error::from(ErrorInfo {
            class: ExceptionClass::from_name(e.kind.class_name())
                .unwrap_or(ExceptionClass::SyntaxError),
            message: e.message,
            hint: e.hint,
            span: Some(e.span),
            labels: Vec::new(),
            source: None,
            kind: None,
            raised_as: None,
        })
    }
}

/// A syntax error is a `SyntaxError` with its span; an interruption a `KeyboardInterrupt`,
/// worded like the evaluator's.
impl From<ragtag_syntax::ParseError> for Error {
    fn from(e: ragtag_syntax::ParseError) -> Self {
        match e {
            ragtag_syntax::ParseError::Syntax(e) => e.into(),
            ragtag_syntax::ParseError::Interrupted => Error::new(
                ragtag_engine::ExceptionClass::KeyboardInterrupt,
                "interrupted",
            )
            .with_hint("every name still holds the value it had before this input"),
        }
    }
}

/// `ValueError: message`, or the class alone when the message is empty (`raise ValueError`),
/// as Python's traceback ends.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let class = self.class_name();
        if self.message.is_empty() {
            write!(f, "{class}")
        } else {
            write!(f, "{class}: {}", self.message)
        }
    }
}

/// The names of the user's exception classes errors were raised as (see
/// [`Error::raised_as`]), each once.
static USER_CLASSES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

/// The name numbered `n` in the table of user exception classes.
fn user_class_name(n: std::num::NonZeroU32) -> Option<&'static str> {
    let names = USER_CLASSES.lock().unwrap_or_else(|e| e.into_inner());
    names.get(n.get() as usize - 1).copied()
}

impl Error {
    /// Marks the error as raised as the user's exception class `name` (a name interned
    /// for the run, as class names are).
    pub fn raised_as(mut self, name: &'static str) -> Self {
        let mut names = USER_CLASSES.lock().unwrap_or_else(|e| e.into_inner());
        let n = match names.iter().position(|k| *k == name) {
            Some(p) => p + 1,
            None => {
                names.push(name);
                names.len()
            }
        };
        self.raised_as = u32::try_from(n).ok().and_then(std::num::NonZeroU32::new);
        self
    }
    /// The class name a report shows: the user's class it was raised as, else `class`.
    pub fn class_name(&self) -> &'static str {
        self.raised_as
            .and_then(user_class_name)
            .unwrap_or_else(|| self.class.name())
    }
}

impl std::error::Error for Error {}

/// The miette form of an [`Error`], with its source attached.
#[derive(Debug)]
struct Report {
    error: Error,
    source: Shown,
}

/// The source text a report shows, possibly cut down by [`excerpt`]. Where a long line was
/// cut, the report's header still names the error's true column.
#[derive(Debug)]
struct Shown {
    name: String,
    text: String,
    /// The byte offset of the error's span in `text`, and its true 0-based column when that
    /// differs from where it stands in `text`.
    primary: Option<(usize, usize)>,
}

impl miette::SourceCode for Shown {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        let column = match self.primary {
            // The header reads the primary span with no context lines.
            Some((offset, column)) if offset == span.offset() && before == 0 && after == 0 => {
                column
            }
            _ => inner.column(),
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error
            .hint
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.error
            .span
            .map(|_| &self.source as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.error.span?;
        let text = &self.source.text;
        let len = text.len();
        let trimmed = text.trim_end();
        // Where a span is drawn, and whether it was moved to the last character: miette draws
        // nothing for an empty span at the very end of the source (where an incomplete
        // input's error sits).
        let place = move |span: Span| {
            let start = span.start.min(len);
            if start == len && len > 0 {
                let last = trimmed.chars().next_back().map_or(0, char::len_utf8);
                let start = trimmed.len() - last;
                return (start, trimmed.len() - start, true);
            }
            (start, span.end.clamp(start, len) - start, false)
        };
        if self.error.labels.is_empty() {
            let (start, len, at_end) = place(span);
            let label = if at_end {
                "input ends after this"
            } else {
                "here"
            };
            return Some(Box::new(std::iter::once(miette::LabeledSpan::new(
                Some(label.to_string()),
                start,
                len,
            ))));
        }
        Some(Box::new(self.error.labels.iter().map(
            move |(span, text)| {
                let (start, len, _) = place(*span);
                miette::LabeledSpan::new(Some(text.clone()), start, len)
            },
        )))
    }
}

/// How to draw diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Unicode box drawing and colours (terminals).
    Fancy,
    /// Unicode, no colours (golden tests, Jupyter tracebacks).
    Plain,
}

/// Renders `error` against the text of its source (`name` as in `<cell 3>`). Lines longer
/// than [`LONG_LINE`] bytes are shown as a window around the error (a typo inside a pasted
/// one-line literal of a megabyte reads like one in a short line); the header still names
/// the true line and column.
pub fn render(error: &Error, name: &str, text: &str, style: Style, width: usize) -> String {
    let mut error = error.clone();
    let mut source = Shown {
        name: name.to_string(),
        text: String::new(),
        primary: None,
    };
    if let Some(span) = error.span {
        let cut = excerpt(text, span.start, span.end);
        error.span = Some(Span {
            start: cut.start,
            end: cut.end,
        });
        source.primary = cut.column.map(|c| (cut.start, c - 1));
        if cut.text != text && !error.labels.is_empty() {
            // The labels' spans point into the uncut text: draw their words under the span.
            let texts: Vec<&str> = error.labels.iter().map(|(_, l)| l.as_str()).collect();
            let joined = texts.join(" vs ");
            error.labels = vec![(
                Span {
                    start: cut.start,
                    end: cut.end,
                },
                joined,
            )];
        }
        source.text = cut.text;
    }
    let report = Report {
        error: error.clone(),
        source,
    };
    let theme = match style {
        Style::Fancy => miette::GraphicalTheme::unicode(),
        Style::Plain => miette::GraphicalTheme::unicode_nocolor(),
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{error}\n");
    }
    out
}

/// Lines longer than this many bytes are cut down to a window in error reports.
pub const LONG_LINE: usize = 240;

/// How many characters of a long line an excerpt keeps on each side of the error.
const CONTEXT_CHARS: usize = 60;

/// How many characters of a long span an excerpt keeps.
const SPAN_CHARS: usize = 80;

/// A source cut down for an error report: every line keeps its number, long lines are cut
/// to a window, and the span is moved into the cut text.
#[derive(Debug, PartialEq)]
struct Excerpt {
    text: String,
    start: usize,
    end: usize,
    /// The span's true column (1-based, in characters) when its line was cut.
    column: Option<usize>,
}

/// Cuts `text` down around the byte range `start..end` (clamped to the text and to
/// character boundaries).
fn excerpt(text: &str, start: usize, end: usize) -> Excerpt {
    let start = floor_boundary(text, start.min(text.len()));
    let end = ceil_boundary(text, end.clamp(start, text.len()));
    let mut out = Excerpt {
        text: String::with_capacity(text.len().min(1 << 16)),
        start: 0,
        end: 0,
        column: None,
    };
    let (mut new_start, mut new_end) = (None, None);
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body_end = line_start + body.len();
        let has_start = new_start.is_none() && start <= body_end;
        let has_end = new_end.is_none() && end <= body_end;
        if body.len() <= LONG_LINE {
            if has_start {
                new_start = Some(out.text.len() + (start - line_start));
            }
            if has_end {
                new_end = Some(out.text.len() + (end - line_start));
            }
            out.text.push_str(line);
        } else {
            // The part of the line to keep: around the span's start, or its end, or the head.
            let focus = if has_start {
                start
            } else if has_end {
                end
            } else {
                line_start
            };
            let focus_end = if has_start && end <= body_end {
                advance_chars(text, start, SPAN_CHARS).min(end)
            } else {
                focus
            };
            let from = if focus == line_start {
                line_start
            } else {
                back_chars(text, focus, CONTEXT_CHARS).max(line_start)
            };
            let to = advance_chars(text, focus_end, CONTEXT_CHARS).min(body_end);
            if from > line_start {
                out.text.push('…');
            }
            let base = out.text.len();
            out.text.push_str(&text[from..to]);
            if has_start {
                new_start = Some(base + (start - from));
                out.column = Some(text[line_start..start].chars().count() + 1);
            }
            if has_end {
                let kept_end = if has_start { focus_end } else { to };
                new_end = Some(base + (end.clamp(from, kept_end) - from));
            }
            if to < body_end {
                out.text.push('…');
            }
            out.text.push_str(&line[body.len()..]);
        }
        line_start = line_end;
    }
    out.start = new_start.unwrap_or(out.text.len());
    out.end = new_end.unwrap_or(out.text.len()).max(out.start);
    out
}

/// The byte offset `n` characters after `at` (or the end of the text).
fn advance_chars(text: &str, at: usize, n: usize) -> usize {
    text[at..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| at + i)
}

/// The byte offset `n` characters before `at` (or 0).
fn back_chars(text: &str, at: usize, n: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .nth(n.saturating_sub(1))
        .map_or(0, |(i, _)| i)
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    #[test]
    fn short_sources_are_unchanged() {
        let e = excerpt("x = 1\ny = q\n", 10, 11);
        assert_eq!(e.text, "x = 1\ny = q\n");
        assert_eq!((e.start, e.end, e.column), (10, 11, None));
    }

    #[test]
    fn a_long_line_becomes_a_window_around_the_span() {
        let src = format!("a = 1\n1+{}q\nb = 2", " ".repeat(100_000));
        let at = src.find('q').unwrap();
        let e = excerpt(&src, at, at + 1);
        assert!(e.text.len() < 200, "{}", e.text.len());
        assert_eq!(&e.text[e.start..e.end], "q");
        assert_eq!(e.column, Some(100_003));
        assert!(e.text.starts_with("a = 1\n…"), "{:?}", e.text);
        assert!(e.text.ends_with("q\nb = 2"), "{:?}", e.text);
    }

    #[test]
    fn long_lines_around_the_error_are_cut_to_their_head() {
        let long = "é".repeat(10_000);
        let src = format!("{long}\nzz\n{long}");
        let e = excerpt(&src, src.find("zz").unwrap(), src.find("zz").unwrap() + 2);
        assert_eq!(&e.text[e.start..e.end], "zz");
        assert_eq!(e.text.lines().count(), 3);
        assert!(e.text.len() < 1000);
    }

    #[test]
    fn a_long_span_is_shortened_and_spans_past_the_end_are_clamped() {
        let src = "[".repeat(5000);
        let e = excerpt(&src, 0, 5000);
        assert!(e.end - e.start <= SPAN_CHARS, "{}", e.end - e.start);
        let e = excerpt("abc", 7, 99);
        assert_eq!((e.start, e.end), (3, 3));
        // Spans inside a multi-byte character widen to its boundaries.
        let e = excerpt("é", 1, 1);
        assert_eq!((e.start, e.end), (0, 2));
    }

    #[test]
    fn an_error_at_a_far_column_renders() {
        let src = format!("1+{}q", " ".repeat(65_536));
        let at = src.len() - 1;
        let err = Error::new(ExceptionClass::NameError, "name 'q' is not defined").at(Span {
            start: at,
            end: at + 1,
        });
        let text = render(&err, "<cell 1>", &src, Style::Plain, 100);
        assert!(text.contains("[<cell 1>:1:65539]"), "{text}");
        assert!(text.len() < 2000, "{text}");
    }
}
