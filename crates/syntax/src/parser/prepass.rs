//! The lexical pre-pass: comments blanked, bracketed newlines joined, brackets, strings and indentation checked.

use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

/// The source with comments blanked and bracketed newlines turned into spaces.
pub(super) struct Cleaned {
    /// Same length as the source, same bytes except blanked ones.
    pub(super) text: String,
    /// The first lexical or indentation problem, with the offset that orders it against the
    /// grammar's error; it is marked `incomplete` when it is about the end of the input.
    pub(super) error: Option<(usize, SyntaxError)>,
    /// Brackets, a triple-quoted string or a line continuation are still open at the end.
    pub(super) open: bool,
    /// The input ends with a line-continuation backslash.
    pub(super) continued: bool,
}

/// How deeply brackets may nest. Python allows 200; half that keeps the recursive
/// conversion (and the evaluator after it) well within a 2 MiB thread stack, even unoptimised.
/// `lambda`s and `else` branches nest the grammar's rules without brackets, so each one
/// still open on a line counts as a level too.
pub(super) const MAX_NESTING: usize = 100;

/// How many blocks may nest (CPython's limit too): each is a level of recursion for the
/// grammar, the conversion and the evaluator.
pub(super) const MAX_INDENT: usize = 100;

/// The pre-pass looks at the cancel flag every this many bytes (a few microseconds of work).
const CANCEL_STRIDE: usize = 1 << 14;

/// The caller asked to stop (the session's cancel flag was set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Interrupted;

/// The bytes of a run of numbers, spaces and commas, which the pre-pass skips in one loop.
static QUIET: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = true;
        c += 1;
    }
    t[b' ' as usize] = true;
    t[b'-' as usize] = true;
    t[b'.' as usize] = true;
    t[b',' as usize] = true;
    t
};

/// True for the bytes of an identifier (any non-ASCII byte may belong to one).
fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

pub(super) fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// Blanks comments and bracketed newlines; finds bracket, string and indentation problems.
/// Gives up when `cancel` is set. Linear in the length of `src`.
pub(super) fn clean(
    src: &str,
    check_indent: bool,
    cancel: &AtomicBool,
) -> Result<Cleaned, Interrupted> {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = b.to_vec();
    let mut stack: Vec<usize> = Vec::new();
    // `lambda`s and `else`s open at each bracket level (the first is outside brackets): the
    // body of one ends at the next `,` or `;` of its level, or when the level closes.
    let mut keywords: Vec<usize> = vec![0];
    let mut open_keywords = 0;
    // Lambda headers (`lambda a, b:`) open at each level: their commas end nothing.
    let mut headers: Vec<usize> = vec![0];
    let mut line_starts = vec![0];
    let mut error: Option<(usize, SyntaxError)> = None;
    let mut open = false;
    let mut continued = false;
    let mut next_check = 0;
    let mut i = 0;
    while i < n {
        if i >= next_check {
            if cancel.load(Ordering::Relaxed) {
                return Err(Interrupted);
            }
            next_check = i + CANCEL_STRIDE;
        }
        match b[i] {
            b'#' => {
                while i < n && b[i] != b'\n' && b[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            q @ (b'\'' | b'"') => match scan_string(b, i, q) {
                Ok(end) => {
                    i = end;
                    continue;
                }
                Err(true) => {
                    open = true;
                    let e = SyntaxError::new(
                        SyntaxErrorKind::UnterminatedTripleQuotedString,
                        "unterminated triple-quoted string literal",
                        Span::new(i, i + 3),
                    )
                    .incomplete();
                    error = Some((i, e));
                    break;
                }
                Err(false) => {
                    let e = SyntaxError::new(
                        SyntaxErrorKind::UnterminatedString,
                        "unterminated string literal",
                        Span::new(i, i + 1),
                    )
                    .hint("close the string on the same line, or use a triple-quoted string");
                    error = Some((i, e));
                    break;
                }
            },
            b'(' | b'[' | b'{' => {
                if stack.len() + open_keywords >= MAX_NESTING {
                    let (kind, message) = match stack.len() >= MAX_NESTING {
                        true => (SyntaxErrorKind::TooManyBrackets, "too many nested brackets"),
                        false => (
                            SyntaxErrorKind::NestedTooDeeply,
                            "expression nested too deeply",
                        ),
                    };
                    error = Some((i, SyntaxError::new(kind, message, Span::new(i, i + 1))));
                    break;
                }
                stack.push(i);
                keywords.push(0);
                headers.push(0);
            }
            // A run of numbers, spaces and commas (most of a data literal) changes nothing
            // but what a comma ends, once for the whole run.
            b'0'..=b'9' | b' ' | b'-' | b'.' | b',' if i == 0 || !is_ident_byte(b[i - 1]) => {
                let start = i;
                while i < n && QUIET[b[i] as usize] {
                    i += 1;
                }
                let headers_open = *headers.last().expect("the outermost level") > 0;
                if !headers_open && b[start..i].contains(&b',') {
                    let level = keywords.last_mut().expect("the outermost level");
                    open_keywords -= *level;
                    *level = 0;
                }
                continue;
            }
            b',' if *headers.last().expect("the outermost level") > 0 => {}
            b':' => {
                let open_headers = headers.last_mut().expect("the outermost level");
                *open_headers = open_headers.saturating_sub(1);
            }
            b',' | b';' => {
                let level = keywords.last_mut().expect("the outermost level");
                open_keywords -= *level;
                *level = 0;
                *headers.last_mut().expect("the outermost level") = 0;
            }
            c if is_ident_byte(c) && (i == 0 || !is_ident_byte(b[i - 1])) => {
                let start = i;
                while i < n && is_ident_byte(b[i]) {
                    i += 1;
                }
                if matches!(&b[start..i], b"lambda" | b"else") {
                    if stack.len() + open_keywords >= MAX_NESTING {
                        let e = SyntaxError::new(
                            SyntaxErrorKind::NestedTooDeeply,
                            "expression nested too deeply",
                            Span::new(start, start),
                        );
                        error = Some((start, e));
                        break;
                    }
                    open_keywords += 1;
                    *keywords.last_mut().expect("the outermost level") += 1;
                    if &b[start..i] == b"lambda" {
                        *headers.last_mut().expect("the outermost level") += 1;
                    }
                }
                continue;
            }
            c @ (b')' | b']' | b'}') => match stack.pop() {
                None => {
                    let e = SyntaxError::new(
                        SyntaxErrorKind::UnmatchedCloser,
                        format!("unexpected `{}`", c as char),
                        Span::new(i, i + 1),
                    )
                    .hint("there is no open bracket for it to close");
                    error = Some((i, e));
                    break;
                }
                Some(o) if closer(b[o]) != c => {
                    let e = SyntaxError::new(
                        SyntaxErrorKind::MismatchedCloser,
                        format!(
                            "expected `{}` to close `{}`, found `{}`",
                            closer(b[o]) as char,
                            b[o] as char,
                            c as char
                        ),
                        Span::new(i, i + 1),
                    )
                    .hint(format!(
                        "the `{}` is opened at {}",
                        b[o] as char,
                        line_col(src, o)
                    ));
                    error = Some((i, e));
                    break;
                }
                Some(_) => {
                    open_keywords -= keywords.pop().unwrap_or(0);
                    headers.pop();
                }
            },
            b'\n' | b'\r' => {
                if !stack.is_empty() {
                    out[i] = b' ';
                } else {
                    // A statement ends, and the bodies of its lambdas with it.
                    open_keywords = 0;
                    keywords[0] = 0;
                    headers[0] = 0;
                    if b[i] == b'\n' || b.get(i + 1) != Some(&b'\n') {
                        line_starts.push(i + 1);
                    }
                }
            }
            b'\\' => {
                let nl = newline_len(b, i + 1);
                if nl > 0 || i + 1 == n {
                    out[i..i + 1 + nl].fill(b' ');
                    i += 1 + nl;
                    // Only blanks up to the end? (Stops at the first other byte, which keeps
                    // many continuations linear.)
                    continued = b[i..].iter().all(|c| matches!(c, b' ' | b'\t'));
                    open |= continued;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if error.is_none() {
        if let Some(&o) = stack.last() {
            open = true;
            let e = SyntaxError::new(
                SyntaxErrorKind::UnclosedBracket,
                format!(
                    "expected `{}` to close `{}`",
                    closer(b[o]) as char,
                    b[o] as char
                ),
                Span::new(o, o + 1),
            )
            .incomplete();
            error = Some((n, e));
        }
    }
    // Only the bytes of whole comments and ASCII newlines were replaced by spaces.
    let text = String::from_utf8(out).unwrap_or_else(|_| src.to_owned());
    if check_indent {
        let limit = error.as_ref().map_or(n, |(at, _)| *at);
        if let Some((at, e)) = check_indentation(&text, &line_starts, limit) {
            if error.as_ref().is_none_or(|(other, _)| at < *other) {
                error = Some((at, e));
            }
        }
    }
    Ok(Cleaned {
        text,
        error,
        open,
        continued,
    })
}

/// The end of the string literal whose quote is at `i`, or `Err(triple)` when unterminated.
pub(super) fn scan_string(b: &[u8], i: usize, q: u8) -> Result<usize, bool> {
    let triple = b[i..].starts_with(&[q, q, q]);
    let mut j = i + if triple { 3 } else { 1 };
    while j < b.len() {
        match b[j] {
            b'\\' => {
                j += 1 + newline_len(b, j + 1).max(1);
                continue;
            }
            c if triple && c == q && b[j..].starts_with(&[q, q, q]) => return Ok(j + 3),
            c if !triple && c == q => return Ok(j + 1),
            b'\n' | b'\r' if !triple => return Err(false),
            _ => {}
        }
        j += 1;
    }
    Err(triple)
}

/// The length of the newline at `i` (0, 1 or 2 for `\r\n`).
pub(super) fn newline_len(b: &[u8], i: usize) -> usize {
    match (b.get(i), b.get(i + 1)) {
        (Some(b'\r'), Some(b'\n')) => 2,
        (Some(b'\n' | b'\r'), _) => 1,
        _ => 0,
    }
}

/// "line L, column C" (1-based) of a byte offset.
pub(super) fn line_col(src: &str, at: usize) -> String {
    let before = &src[..at.min(src.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {col}")
}

/// A span one character wide at `at` (empty at the end of the input or of a line).
pub(super) fn point(text: &str, at: usize) -> Span {
    match text.get(at..).and_then(|r| r.chars().next()) {
        Some(c) if c != '\n' && c != '\r' => Span::new(at, at + c.len_utf8()),
        _ => Span::new(at, at),
    }
}

/// Python's indentation rules, checked line by line on the cleaned text.
pub(super) fn check_indentation(
    text: &str,
    line_starts: &[usize],
    limit: usize,
) -> Option<(usize, SyntaxError)> {
    let mut stack: Vec<&str> = vec![""];
    // Offset just after the `:` of a block header still waiting for its body.
    let mut pending: Option<usize> = None;
    for (k, &s) in line_starts.iter().enumerate() {
        if s > limit || s >= text.len() {
            break;
        }
        let end = line_starts.get(k + 1).copied().unwrap_or(text.len());
        let line = &text[s..end];
        let body = line.trim_start_matches([' ', '\t', '\x0C']);
        let content = body.trim_end();
        if content.is_empty() {
            continue;
        }
        let indent = &line[..line.len() - body.len()];
        let first = s + indent.len();
        let top = stack.last().copied().unwrap_or("");
        if let Some(after_colon) = pending.take() {
            if indent.len() > top.len() && indent.starts_with(top) {
                if stack.len() > MAX_INDENT {
                    let e = SyntaxError::new(
                        SyntaxErrorKind::TooDeeplyIndented,
                        "too many levels of indentation",
                        point(text, first),
                    )
                    .hint("move the inner blocks into a function");
                    return Some((after_colon, e));
                }
                stack.push(indent);
            } else {
                let e = SyntaxError::new(
                    SyntaxErrorKind::ExpectedIndentedBlock,
                    "expected an indented block",
                    point(text, first),
                )
                .hint("indent the body of the block under its header");
                return Some((after_colon, e));
            }
        } else if indent != top {
            let problem = if indent.starts_with(top) {
                Some((SyntaxErrorKind::UnexpectedIndent, "unexpected indent"))
            } else if !top.starts_with(indent) {
                Some((
                    SyntaxErrorKind::InconsistentTabs,
                    "inconsistent use of tabs and spaces in indentation",
                ))
            } else {
                while stack.last().is_some_and(|t| t.len() > indent.len()) {
                    stack.pop();
                }
                (stack.last() != Some(&indent)).then_some((
                    SyntaxErrorKind::UnindentMismatch,
                    "unindent does not match any outer indentation level",
                ))
            };
            if let Some((kind, message)) = problem {
                return Some((s, SyntaxError::new(kind, message, point(text, first))));
            }
        }
        if is_block_header(content) {
            pending = Some(first + content.len());
        }
    }
    pending.map(|at| {
        let e = SyntaxError::new(
            SyntaxErrorKind::ExpectedIndentedBlock,
            "expected an indented block",
            point(text, text.len()),
        )
        .hint("indent the body of the block under its header")
        .incomplete();
        (at, e)
    })
}

/// A logical line that opens a block: a compound keyword first and `:` last.
pub(super) fn is_block_header(content: &str) -> bool {
    let word: String = content
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    content.ends_with(':')
        && matches!(
            word.as_str(),
            "if" | "elif"
                | "else"
                | "for"
                | "while"
                | "try"
                | "except"
                | "finally"
                | "def"
                | "with"
                | "class"
                | "match"
                | "case"
        )
}
