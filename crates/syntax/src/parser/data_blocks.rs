//! Large data literals bypass the grammar. A pasted list of numbers and strings (say,
//! 100,000 rows of data) is recognised by a small scanner, hidden from pest behind marker bytes
//! and spaces of the same length (so every span stays a byte range of the
//! source), and converted straight to the AST by [`literal_block`], which also converts the
//! grammar's own `literal_block` tokens (smaller blocks), so both give the same tree.
//!
//! A hidden block of plain ints or floats, all at one depth, is read into
//! [`Columns`] by the same scan that finds it (the values and the row splits of each level,
//! as `tf.ragged.constant` lays them out), so its bytes are read once; any other block is
//! read into a tree by [`literal_block`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use ragtag_engine::columns::{Columns, ListLiteral, Values};
use ragtag_engine::literal::{Leaf, Nested};

use super::*;

/// Blocks shorter than this go through the grammar as usual: the bypass only pays off on
/// data, and small literals keep the grammar's exact error messages.
const MIN_BYTES: usize = 256;

/// The bytes that open and close a hidden block in the text pest sees; the grammar skips
/// from one to the other in a single search rather than a step per byte.
pub(super) const MARKER: u8 = 0x01;
const END_MARKER: u8 = 0x02;

/// A hidden block: where it ends, and its literal when the scan read it into columns.
pub(super) type Hidden = HashMap<usize, (usize, Option<Arc<ListLiteral>>)>;

/// Replaces every large literal block of `text` (outside strings, in operand position) by
/// the marker and spaces; returns where they were.
pub(super) fn hide(text: &mut String) -> Hidden {
    let mut found = HashMap::new();
    #[cfg(test)]
    if grammar_only() {
        return found;
    }
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
            let mut cols = ColumnScan::default();
            if block(b, &mut j, &mut open, &mut cols) {
                if j - i >= MIN_BYTES {
                    let lit = cols
                        .finish()
                        .map(|c| Arc::new(ListLiteral::from_columns(c)));
                    found.insert(i, (j, lit));
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
        for (&s, &(e, _)) in &found {
            bytes[s] = MARKER;
            bytes[s + 1..e - 1].fill(b' ');
            bytes[e - 1] = END_MARKER;
        }
        *text = String::from_utf8(bytes).expect("blocks are replaced whole, by ASCII");
    }
    found
}

fn skip_space(b: &[u8], i: &mut usize) {
    while *i < b.len() && matches!(b[*i], b' ' | b'\t' | 0x0C) {
        *i += 1;
    }
}

/// The end of a data block (the form [`hide`] looks for) starting at the `[` at `i`, which
/// sits inside `enclosing` other brackets; `None` when there is none. The enclosing brackets
/// count towards the nesting limit, so a block the pre-pass would refuse is not found.
pub(super) fn block_end(b: &[u8], i: usize, enclosing: usize) -> Option<usize> {
    let mut open = vec![0; enclosing];
    let mut end = i;
    block(b, &mut end, &mut open, &mut ColumnScan::default()).then_some(end)
}

/// A nested list of numbers and strings at `i`; on success `i` is just past its `]`. On
/// failure `open` holds the starts of the lists the scan was inside.
fn block(b: &[u8], i: &mut usize, open: &mut Vec<usize>, cols: &mut ColumnScan) -> bool {
    if open.len() >= MAX_NESTING {
        // Deeper than the grammar accepts (the pre-pass reports it); bounds the recursion.
        return false;
    }
    let level = open.len();
    cols.open(level);
    open.push(*i);
    *i += 1;
    skip_space(b, i);
    if b.get(*i) == Some(&b']') {
        *i += 1;
        open.pop();
        cols.close(level);
        return true;
    }
    loop {
        if !item(b, i, open, cols) {
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
                    cols.close(level);
                    return true;
                }
            }
            Some(b']') => {
                *i += 1;
                open.pop();
                cols.close(level);
                return true;
            }
            _ => return false,
        }
    }
}

fn item(b: &[u8], i: &mut usize, open: &mut Vec<usize>, cols: &mut ColumnScan) -> bool {
    let level = open.len() - 1;
    match b.get(*i) {
        Some(b'[') => block(b, i, open, cols),
        Some(b'-') => {
            *i += 1;
            if let Some((v, end)) = short_int(b, *i) {
                *i = end;
                cols.int(level, -v);
                return true;
            }
            let start = *i;
            number(b, i) && {
                cols.scalar(level, &b[start..*i], true);
                true
            }
        }
        Some(c) if c.is_ascii_digit() || *c == b'.' => {
            // The common case, a short plain int ended by a separator, in one step.
            if let Some((v, end)) = short_int(b, *i) {
                *i = end;
                cols.int(level, v);
                return true;
            }
            let start = *i;
            number(b, i) && {
                cols.scalar(level, &b[start..*i], false);
                true
            }
        }
        Some(b'\'' | b'"') => match skip_string(b, *i) {
            Some(j) => {
                cols.failed = true;
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
    // An int past 64 bits is a Python int the grammar reads (a big int), not a column value.
    let is_int = !b[start..*i].iter().any(|c| matches!(c, b'.' | b'e' | b'E'));
    let too_big =
        is_int && std::str::from_utf8(&b[start..*i]).map_or(true, |t| t.parse::<i64>().is_err());
    !leading_zero
        && !too_big
        && !matches!(b.get(*i), Some(c) if c.is_ascii_alphanumeric() || *c == b'_')
}

/// The columns of the block being scanned, while it is a regular block of numbers: every
/// scalar an int, or every scalar a float, all inside lists of one level (the outermost
/// list is level 0), as [`LiteralScan`] would read them.
#[derive(Default)]
struct ColumnScan {
    /// How many lists enclose each scalar, from the first scalar on.
    depth: Option<usize>,
    /// The deepest level of list seen.
    deepest: usize,
    /// The row splits of each level of lists below the outermost.
    splits: Vec<Vec<i64>>,
    values: Option<Nums>,
    /// The block is not regular (or holds strings): it is read into a tree instead.
    failed: bool,
}

impl ColumnScan {
    fn open(&mut self, level: usize) {
        self.failed |= self.depth.is_some_and(|d| level >= d);
        self.deepest = self.deepest.max(level);
    }
    fn close(&mut self, level: usize) {
        if self.failed || level == 0 {
            return;
        }
        // The items of this list end where the next level (or the values) has got to.
        let end = match (self.depth, &self.values) {
            (Some(d), Some(v)) if level + 1 == d => v.len(),
            _ => self.splits.get(level).map_or(0, |s| s.len() - 1),
        };
        while self.splits.len() < level {
            self.splits.push(vec![0]);
        }
        self.splits[level - 1].push(end as i64);
    }
    /// A plain int inside a list at `level`.
    fn int(&mut self, level: usize, v: i64) {
        if let (Some(d), Some(Nums::I32(xs)), false) = (self.depth, &mut self.values, self.failed) {
            if d == level + 1 {
                if let Ok(x) = i32::try_from(v) {
                    xs.push(x);
                    return;
                }
            }
        }
        self.push(level, Some(Ok(v)));
    }
    /// The number `t` (its `-` already read when `neg`) inside a list at `level`.
    fn scalar(&mut self, level: usize, t: &[u8], neg: bool) {
        self.push(level, number_value(t, neg));
    }
    /// A number inside a list at `level` (`Ok` an int, `Err` a float; None one beyond
    /// int64).
    fn push(&mut self, level: usize, value: Option<std::result::Result<i64, f64>>) {
        if self.failed {
            return;
        }
        match self.depth {
            None if self.deepest <= level => self.depth = Some(level + 1),
            Some(d) if d == level + 1 => {}
            _ => {
                self.failed = true;
                return;
            }
        }
        let ok = match value {
            Some(Ok(v)) => match self.values.get_or_insert(Nums::I32(Vec::new())) {
                Nums::I32(xs) => match i32::try_from(v) {
                    Ok(x) => {
                        xs.push(x);
                        true
                    }
                    Err(_) => {
                        let mut wide: Vec<i64> = xs.iter().map(|&x| i64::from(x)).collect();
                        wide.push(v);
                        self.values = Some(Nums::I64(wide));
                        true
                    }
                },
                Nums::I64(xs) => {
                    xs.push(v);
                    true
                }
                Nums::F64(_) => false,
            },
            Some(Err(v)) => match self.values.get_or_insert(Nums::F64(Vec::new())) {
                Nums::F64(xs) => {
                    xs.push(v);
                    true
                }
                _ => false,
            },
            None => false,
        };
        self.failed |= !ok;
    }
    fn finish(self) -> Option<Columns> {
        if self.failed || self.depth? != self.splits.len() + 1 {
            return None;
        }
        let values = match self.values? {
            Nums::I32(v) => Values::I32(v.into()),
            Nums::I64(v) => Values::I64(v.into()),
            Nums::F64(v) => Values::F64(v.into()),
        };
        Columns::new(self.splits, values)
    }
}

/// The scalars of a block being scanned: int32 while every int fits.
enum Nums {
    I32(Vec<i32>),
    I64(Vec<i64>),
    F64(Vec<f64>),
}

impl Nums {
    fn len(&self) -> usize {
        match self {
            Nums::I32(v) => v.len(),
            Nums::I64(v) => v.len(),
            Nums::F64(v) => v.len(),
        }
    }
}

/// A plain int of at most 9 digits at `i` (no leading zero) followed by a separator, as
/// `number` accepts it: its value and end.
fn short_int(b: &[u8], i: usize) -> Option<(i64, usize)> {
    let mut v: i64 = 0;
    let mut j = i;
    while j < b.len() && j - i < 10 && b[j].is_ascii_digit() {
        v = v * 10 + i64::from(b[j] - b'0');
        j += 1;
    }
    let short = j > i && j - i < 10 && (b[i] != b'0' || j == i + 1);
    (short && matches!(b.get(j), Some(b',' | b']' | b' ' | b'\t' | 0x0C))).then_some((v, j))
}

/// The value of a number `number` accepted, as [`LiteralScan`] reads it: `Ok` for an int,
/// `Err` for a float; None for an int beyond int64 (the tree's reading reports it).
fn number_value(t: &[u8], neg: bool) -> Option<std::result::Result<i64, f64>> {
    if t.iter().all(u8::is_ascii_digit) {
        let mut v: i64 = 0;
        for &c in t {
            v = v.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
        }
        return Some(Ok(if neg { v.wrapping_neg() } else { v }));
    }
    let v: f64 = std::str::from_utf8(t).ok()?.parse().ok()?;
    Some(Err(if neg { -v } else { v }))
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

/// A `literal_block` token: nested lists of numbers and strings, scanned directly (the
/// grammar has already checked its form) into the literal they denote, as one
/// [`ExprKind::Data`] node. Gives the value `list_display` would give for the same text, and
/// the same errors at the same places.
pub(super) fn literal_block(text: &str, base: usize) -> Result1<Expr> {
    let mut scan = LiteralScan {
        b: text.as_bytes(),
        text,
        base,
        i: 0,
    };
    let nested = scan.list()?;
    Ok(boxed(
        ExprKind::Data(Arc::new(ListLiteral::from(nested))),
        Span::new(base, base + scan.i),
    ))
}

#[cfg(test)]
thread_local! {
    /// Set by tests comparing the two paths: data blocks then go through the grammar's
    /// `list_display`, one AST node per element, as before this scanner existed.
    pub(super) static GRAMMAR_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
pub(super) fn grammar_only() -> bool {
    GRAMMAR_ONLY.with(std::cell::Cell::get)
}

struct LiteralScan<'a> {
    b: &'a [u8],
    text: &'a str,
    base: usize,
    i: usize,
}

impl LiteralScan<'_> {
    fn skip_space(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | 0x0C | b',') {
            self.i += 1;
        }
    }
    fn span(&self, start: usize) -> Span {
        Span::new(self.base + start, self.base + self.i)
    }
    fn list(&mut self) -> Result1<Nested> {
        self.i += 1; // '['
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.b.get(self.i) {
                None | Some(b']') => break,
                Some(b'[') => items.push(self.list()?),
                Some(b'-') => {
                    self.i += 1;
                    items.push(Nested::Leaf(match self.number()? {
                        Leaf::Int(v) => Leaf::Int(v.wrapping_neg()),
                        Leaf::Float(v) => Leaf::Float(-v),
                        other => other,
                    }));
                }
                Some(c) if c.is_ascii_digit() || *c == b'.' => {
                    items.push(Nested::Leaf(self.number()?))
                }
                Some(_) => items.push(Nested::Leaf(self.string()?)),
            }
        }
        self.i += 1; // ']'
        Ok(Nested::List(items))
    }
    /// A plain decimal int (the common case in data), read as it is scanned; None (and
    /// nothing consumed) for anything else.
    fn plain_int(&mut self) -> Option<i64> {
        let b = self.b;
        let start = self.i;
        let mut j = start;
        let mut v: i64 = 0;
        while let Some(&c) = b.get(j) {
            if !c.is_ascii_digit() {
                break;
            }
            v = v.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
            j += 1;
        }
        let ends =
            !matches!(b.get(j), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'));
        let leading_zero = b[start] == b'0' && j > start + 1;
        if j == start || !ends || leading_zero {
            return None;
        }
        self.i = j;
        Some(v)
    }
    fn number(&mut self) -> Result1<Leaf> {
        if let Some(v) = self.plain_int() {
            return Ok(Leaf::Int(v));
        }
        let start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            let exp_sign = matches!(c, b'+' | b'-')
                && matches!(self.b[self.i - 1], b'e' | b'E')
                && !self.text[start..self.i].starts_with("0x")
                && !self.text[start..self.i].starts_with("0X");
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || exp_sign {
                self.i += 1;
            } else {
                break;
            }
        }
        let t = &self.text[start..self.i];
        let span = self.span(start);
        let hex = t.len() > 1 && matches!(&t[..2], "0x" | "0X");
        let kind = if !hex && t.contains(['.', 'e', 'E']) {
            match t.parse::<f64>() {
                Ok(v) if !t.contains('_') => ExprKind::Float(v),
                _ => float_literal(t, span)?,
            }
        } else {
            match t.parse::<i64>() {
                Ok(v) if !t.starts_with('0') || t == "0" => ExprKind::Int(v),
                _ => ExprKind::Int(int_literal(t, span)?),
            }
        };
        match kind {
            ExprKind::Int(v) => Ok(Leaf::Int(v)),
            ExprKind::Float(v) => Ok(Leaf::Float(v)),
            _ => Err(SyntaxError::new(
                SyntaxErrorKind::InvalidNumber,
                "invalid number literal",
                span,
            )),
        }
    }
    fn string(&mut self) -> Result1<Leaf> {
        let start = self.i;
        let unterminated = |s: &Self| {
            SyntaxError::new(
                SyntaxErrorKind::UnterminatedString,
                "unterminated string literal",
                s.span(start),
            )
        };
        // An optional prefix, then a quoted body (single or triple quotes).
        while self.b.get(self.i).is_some_and(u8::is_ascii_alphabetic) {
            self.i += 1;
        }
        let Some(&q) = self.b.get(self.i) else {
            return Err(unterminated(self));
        };
        let triple = self.b[self.i..].starts_with(&[q, q, q]);
        self.i += if triple { 3 } else { 1 };
        loop {
            match self.b.get(self.i) {
                None => {
                    self.i = self.b.len();
                    return Err(unterminated(self));
                }
                Some(b'\\') => self.i += 2,
                Some(&c) if c == q && (!triple || self.b[self.i..].starts_with(&[q, q, q])) => {
                    self.i += if triple { 3 } else { 1 };
                    break;
                }
                Some(_) => self.i += 1,
            }
        }
        self.i = self.i.min(self.b.len());
        let span = self.span(start);
        let value = string_literal(&self.text[start..self.i], span)?;
        Ok(Leaf::Str(value.into_bytes()))
    }
}
