//! Large data literals bypass the grammar. A pasted list of numbers and strings (say,
//! 100,000 rows of data) is recognised by a small scanner, hidden from pest behind marker bytes
//! and spaces of the same length (so every span stays a byte range of the
//! source), and converted straight to the AST. The tree is the one `literal_block` gives.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::*;

/// Blocks shorter than this go through the grammar as usual: the bypass only pays off on
/// data, and small literals keep the grammar's exact error messages.
const MIN_BYTES: usize = 256;

/// The bytes that open and close a hidden block in the text pest sees; the grammar skips
/// from one to the other in a single search rather than a step per byte.
pub(super) const MARKER: u8 = 0x01;
const END_MARKER: u8 = 0x02;

thread_local! {
    /// The source being converted and its hidden blocks (start → end).
    static HIDDEN: RefCell<Option<(String, HashMap<usize, usize>)>> = const { RefCell::new(None) };
}

/// Replaces every large literal block of `text` (outside strings, in operand position) by
/// the marker and spaces; returns where they were.
pub(super) fn hide(text: &mut String) -> HashMap<usize, usize> {
    let mut found = HashMap::new();
    if text.len() < MIN_BYTES {
        return found;
    }
    let b = text.as_bytes();
    let mut i = 0;
    let mut prev = b'(';
    // Brackets known not to open a data block. A scan that fails leaves the lists it was
    // inside on `open`; scanned again on their own, they would fail at the same byte, so
    // they are not: every byte is scanned a bounded number of times (linear time).
    let mut not_blocks = HashSet::new();
    let mut open = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i = skip_string(b, i).unwrap_or(b.len());
            prev = b'"';
            continue;
        }
        if c == b'[' && b"([,=:{+-*/%<>!&|^~\n;".contains(&prev) && !not_blocks.contains(&i) {
            let mut j = i;
            open.clear();
            if block(b, &mut j, &mut open) {
                if j - i >= MIN_BYTES {
                    found.insert(i, j);
                    i = j;
                    prev = b']';
                    continue;
                }
            } else {
                not_blocks.extend(open.drain(..));
            }
        }
        if !c.is_ascii_whitespace() || c == b'\n' {
            prev = c;
        }
        i += 1;
    }
    if !found.is_empty() {
        let mut bytes = std::mem::take(text).into_bytes();
        for (&s, &e) in &found {
            bytes[s] = MARKER;
            bytes[s + 1..e - 1].fill(b' ');
            bytes[e - 1] = END_MARKER;
        }
        *text = String::from_utf8(bytes).expect("blocks are replaced whole, by ASCII");
    }
    found
}

/// Runs `f` with the hidden blocks of `src` available to [`expand`].
pub(super) fn with_hidden<T>(src: &str, blocks: HashMap<usize, usize>, f: impl FnOnce() -> T) -> T {
    if blocks.is_empty() {
        return f();
    }
    HIDDEN.with(|h| *h.borrow_mut() = Some((src.to_string(), blocks)));
    let out = f();
    HIDDEN.with(|h| *h.borrow_mut() = None);
    out
}

/// The expression of the hidden block starting at `start`.
pub(super) fn expand(start: usize) -> Result1<Expr> {
    HIDDEN.with(|h| {
        let h = h.borrow();
        match h
            .as_ref()
            .and_then(|(src, blocks)| Some((src, *blocks.get(&start)?)))
        {
            Some((src, end)) => literal_block(&src[start..end], start),
            // The marker bytes were in the user's own text, not put there by `hide`.
            None => Err(SyntaxError::new(
                "invalid control character in the input",
                Span {
                    start,
                    end: start + 1,
                },
            )
            .hint("remove the control characters (U+0001, U+0002) from the code")),
        }
    })
}

fn skip_space(b: &[u8], i: &mut usize) {
    while *i < b.len() && matches!(b[*i], b' ' | b'\t' | 0x0C) {
        *i += 1;
    }
}

/// A nested list of numbers and strings at `i`; on success `i` is just past its `]`. On
/// failure `open` holds the starts of the lists the scan was inside.
fn block(b: &[u8], i: &mut usize, open: &mut Vec<usize>) -> bool {
    if open.len() >= MAX_NESTING {
        // Deeper than the grammar accepts (the pre-pass reports it); bounds the recursion.
        return false;
    }
    open.push(*i);
    *i += 1;
    skip_space(b, i);
    if b.get(*i) == Some(&b']') {
        *i += 1;
        open.pop();
        return true;
    }
    loop {
        if !item(b, i, open) {
            return false;
        }
        skip_space(b, i);
        match b.get(*i) {
            Some(b',') => {
                *i += 1;
                skip_space(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    open.pop();
                    return true;
                }
            }
            Some(b']') => {
                *i += 1;
                open.pop();
                return true;
            }
            _ => return false,
        }
    }
}

fn item(b: &[u8], i: &mut usize, open: &mut Vec<usize>) -> bool {
    match b.get(*i) {
        Some(b'[') => block(b, i, open),
        Some(b'-') => {
            *i += 1;
            number(b, i)
        }
        Some(c) if c.is_ascii_digit() || *c == b'.' => number(b, i),
        Some(b'\'' | b'"') => match skip_string(b, *i) {
            Some(j) => {
                *i = j;
                // Adjacent literals join in Python; leave those to the grammar.
                let mut k = j;
                skip_space(b, &mut k);
                !matches!(b.get(k), Some(b'\'' | b'"'))
            }
            None => false,
        },
        _ => false,
    }
}

/// A decimal int or float (`12`, `-3.5`, `1e-3`, `.5`); anything fancier uses the grammar.
fn number(b: &[u8], i: &mut usize) -> bool {
    let start = *i;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > s
    };
    let int_part = digits(i);
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        let frac = digits(i);
        if !int_part && !frac {
            return false;
        }
    } else if !int_part {
        return false;
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return false;
        }
    }
    // `012` is not a Python int, and a letter or `_` after the digits is something else.
    let leading_zero = b[start] == b'0'
        && *i > start + 1
        && b[start + 1].is_ascii_digit()
        && !b[start..*i].iter().any(|c| matches!(c, b'.' | b'e' | b'E'));
    !leading_zero && !matches!(b.get(*i), Some(c) if c.is_ascii_alphanumeric() || *c == b'_')
}

/// The end of the plain (unprefixed) string literal starting at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let q = b[i];
    let triple = b[i..].starts_with(&[q, q, q]);
    let mut j = i + if triple { 3 } else { 1 };
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == q && (!triple || b[j..].starts_with(&[q, q, q])) => {
                return Some(j + if triple { 3 } else { 1 })
            }
            b'\n' if !triple => return None,
            _ => j += 1,
        }
    }
    None
}
