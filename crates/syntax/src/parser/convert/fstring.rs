//! f-strings: `f'…{expr=!r:spec}…'` split into text and replacement fields, each field's
//! expression parsed by the grammar like a parenthesised expression, with spans in the
//! source. CPython 3.11's rules: no backslash or `#` inside an expression, `{{`/`}}` for
//! braces, `!r`/`!s`/`!a`, `=` for the debug form, and fields nested in a format spec at
//! most one level deep.

use std::cell::Cell;

use super::*;
use crate::ast::{Arg, FField, FPart, Index};

thread_local! {
    /// The expression depth of the f-strings being converted around the current one (the
    /// grammar's own depth restarts inside a field): the whole tree stays within `MAX_DEPTH`.
    pub(super) static OUTER_DEPTH: Cell<usize> = const { Cell::new(0) };
}

impl Converter<'_> {
    /// Adjacent string literals, joined: a plain string, or an f-string when any is one.
    pub(crate) fn strings(&self, pair: Pair<'_, Rule>) -> Result1<ExprKind> {
        let mut parts: Vec<FPart> = Vec::new();
        let mut any_f = false;
        if let Some(b) = bytes_literals(&pair)? {
            return Ok(b);
        }
        for lit in pair.into_inner() {
            let text = lit.as_str();
            let span = span_of(&lit);
            let quote = text.find(['\'', '"']).unwrap_or(0);
            if text[..quote].contains(['f', 'F']) {
                any_f = true;
                self.fstring(text, quote, span.start, &mut parts)?;
            } else {
                push_text(&mut parts, string_literal(text, span)?);
            }
        }
        if !any_f {
            let mut s = String::new();
            for p in parts {
                if let FPart::Text(t) = p {
                    s.push_str(&t);
                }
            }
            return Ok(ExprKind::Str(s));
        }
        Ok(ExprKind::FString(parts))
    }

    /// The parts of one f-string literal `text` (prefix at 0, its quote at `quote`), which
    /// starts at byte `base` of the source.
    fn fstring(&self, text: &str, quote: usize, base: usize, out: &mut Vec<FPart>) -> Result1<()> {
        let raw = text[..quote].contains(['r', 'R']);
        let rest = &text[quote..];
        let q = if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
            3
        } else {
            1
        };
        let body = &text[quote + q..text.len() - q];
        let mut scan = Scan {
            body,
            base: base + quote + q,
            raw,
            i: 0,
        };
        scan.parts(self, out, false)?;
        Ok(())
    }
}

/// Adjacent literals that are all bytes literals, joined into one bytes value; None when
/// none is one, and CPython's SyntaxError when bytes and other literals are mixed.
fn bytes_literals(pair: &Pair<'_, Rule>) -> Result1<Option<ExprKind>> {
    let lits: Vec<_> = pair.clone().into_inner().collect();
    let n = lits.iter().filter(|l| is_bytes_literal(l.as_str())).count();
    if n == 0 {
        return Ok(None);
    }
    if n < lits.len() {
        return Err(SyntaxError::new(
            SyntaxErrorKind::NonUtf8Bytes,
            "cannot mix bytes and nonbytes literals",
            span_of(pair),
        ));
    }
    let mut out = Vec::new();
    for lit in &lits {
        out.extend(literal_bytes(lit.as_str(), span_of(lit))?);
    }
    Ok(Some(ExprKind::Bytes(out)))
}

/// Appends text, joining it to the text before.
fn push_text(parts: &mut Vec<FPart>, text: String) {
    if text.is_empty() {
        return;
    }
    if let Some(FPart::Text(t)) = parts.last_mut() {
        t.push_str(&text);
    } else {
        parts.push(FPart::Text(text));
    }
}

/// A scan through the body of one f-string literal.
struct Scan<'a> {
    body: &'a str,
    /// Where `body` starts in the source.
    base: usize,
    raw: bool,
    /// The next byte to read.
    i: usize,
}

impl Scan<'_> {
    fn error(&self, message: &str, at: usize) -> SyntaxError {
        let at = self.base + at.min(self.body.len());
        SyntaxError::new(SyntaxErrorKind::FString, message, Span::new(at, at + 1))
    }

    fn peek(&self) -> Option<u8> {
        self.body.as_bytes().get(self.i).copied()
    }

    /// Text and fields up to the end (or, in a format spec, up to its closing `}`).
    fn parts(&mut self, c: &Converter<'_>, out: &mut Vec<FPart>, in_spec: bool) -> Result1<()> {
        let b = self.body.as_bytes();
        let mut text_start = self.i;
        let mut text = String::new();
        let flush = |scan: &Self, text: &mut String, from: usize, to: usize| -> Result1<()> {
            let chunk = &scan.body[from..to];
            if scan.raw {
                text.push_str(chunk);
            } else {
                let bytes = unescape(chunk, false).map_err(|m| {
                    SyntaxError::new(
                        SyntaxErrorKind::InvalidEscape,
                        m,
                        Span::new(scan.base + from, scan.base + to),
                    )
                })?;
                text.push_str(&String::from_utf8_lossy(&bytes));
            }
            Ok(())
        };
        while self.i < b.len() {
            match b[self.i] {
                b'{' if !in_spec && b.get(self.i + 1) == Some(&b'{') => {
                    flush(self, &mut text, text_start, self.i + 1)?;
                    self.i += 2;
                    text_start = self.i;
                }
                b'}' if !in_spec && b.get(self.i + 1) == Some(&b'}') => {
                    flush(self, &mut text, text_start, self.i + 1)?;
                    self.i += 2;
                    text_start = self.i;
                }
                b'}' if in_spec => break,
                b'}' => return Err(self.error("f-string: single '}' is not allowed", self.i)),
                b'{' => {
                    flush(self, &mut text, text_start, self.i)?;
                    push_text(out, std::mem::take(&mut text));
                    self.i += 1;
                    let field = self.field(c, in_spec)?;
                    out.push(FPart::Field(Box::new(field)));
                    text_start = self.i;
                }
                // A backslash escapes the next character (never a brace of a field).
                b'\\' if !self.raw => self.i += 2,
                _ => self.i += 1,
            }
        }
        self.i = self.i.min(b.len());
        flush(self, &mut text, text_start, self.i)?;
        push_text(out, text);
        Ok(())
    }

    /// One field, after its `{`; leaves `i` after its `}`.
    fn field(&mut self, c: &Converter<'_>, nested: bool) -> Result1<FField> {
        let b = self.body.as_bytes();
        let start = self.i;
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        let mut end = None;
        let mut debug_eq = None;
        while self.i < b.len() {
            let ch = b[self.i];
            if ch == b'\\' {
                return Err(self.error(
                    "f-string expression part cannot include a backslash",
                    self.i,
                ));
            }
            if let Some(q) = quote {
                if ch == q {
                    quote = None;
                }
                self.i += 1;
                continue;
            }
            match ch {
                b'\'' | b'"' => quote = Some(ch),
                b'#' => {
                    return Err(self.error("f-string expression part cannot include '#'", self.i))
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth > 0 => depth -= 1,
                b'}' | b':' if depth == 0 => {
                    end = Some(self.i);
                    break;
                }
                b'!' if depth == 0 && b.get(self.i + 1) != Some(&b'=') => {
                    end = Some(self.i);
                    break;
                }
                b'=' if depth == 0 => {
                    let prev = if self.i > start { b[self.i - 1] } else { b' ' };
                    let next = b.get(self.i + 1).copied();
                    if next == Some(b'=') {
                        self.i += 2;
                        continue;
                    }
                    if !matches!(prev, b'=' | b'!' | b'<' | b'>') {
                        debug_eq = Some(self.i);
                        end = Some(self.i);
                        break;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        let Some(expr_end) = end else {
            return Err(self.error("f-string: expecting '}'", self.i));
        };
        let source = &self.body[start..expr_end];
        if source.trim().is_empty() {
            return Err(self.error("f-string: empty expression not allowed", expr_end));
        }
        let expr = self.expression(c, source, start)?;
        let mut debug = None;
        if debug_eq.is_some() {
            self.i += 1;
            while matches!(self.peek(), Some(b' ' | b'\t')) {
                self.i += 1;
            }
            debug = Some(self.body[start..self.i].to_string());
        }
        let mut conversion = None;
        if self.peek() == Some(b'!') {
            let conv = self.body[self.i + 1..].chars().next();
            match conv {
                Some(k @ ('r' | 's' | 'a')) => conversion = Some(k),
                None => return Err(self.error("f-string: expecting '}'", self.i + 1)),
                Some(_) => {
                    return Err(self.error(
                        "f-string: invalid conversion character: expected 's', 'r', or 'a'",
                        self.i + 1,
                    ))
                }
            }
            self.i += 2;
            if !matches!(self.peek(), Some(b':' | b'}')) {
                return Err(self.error("f-string: expecting '}'", self.i));
            }
        }
        let mut spec = Vec::new();
        if self.peek() == Some(b':') {
            if nested {
                // A field inside a spec may have a spec, but no fields in it.
                let spec_start = self.i + 1;
                let close = self.body[spec_start..].find('}');
                if self.body[spec_start..spec_start + close.unwrap_or(0)].contains('{') {
                    return Err(self.error("f-string: expressions nested too deeply", spec_start));
                }
            }
            self.i += 1;
            self.parts(c, &mut spec, true)?;
        }
        if self.peek() != Some(b'}') {
            return Err(self.error("f-string: expecting '}'", self.i));
        }
        self.i += 1;
        Ok(FField {
            expr,
            debug,
            conversion,
            spec,
        })
    }

    /// The field's expression `source` (at `at` in the body), parsed as `(source)`.
    fn expression(&self, c: &Converter<'_>, source: &str, at: usize) -> Result1<Expr> {
        let wrapped = format!("({source})");
        // `(` stands where the field's `{` is.
        let by = self.base + at - 1;
        let outer = OUTER_DEPTH.with(Cell::get);
        let here = outer + c.depth.get() + 1;
        if here > MAX_DEPTH {
            return Err(self.error("f-string: expressions nested too deeply", at));
        }
        OUTER_DEPTH.with(|d| d.set(here));
        let parsed = parse_expr_here(&wrapped);
        OUTER_DEPTH.with(|d| d.set(outer));
        match parsed {
            Ok(mut e) => {
                shift(&mut e, by);
                Ok(e)
            }
            Err(mut err) => {
                // The closing parenthesis is ours: the user wrote the field's end there.
                if err.span.start + 1 == wrapped.len() {
                    err.message = err
                        .message
                        .replace("found `)`", "found the end of the field");
                }
                err.span = Span::new(err.span.start + by, err.span.end + by);
                Err(err)
            }
        }
    }
}

/// Moves every span of `e` by `by` bytes.
fn shift(e: &mut Expr, by: usize) {
    let sh = |s: &mut Span| *s = Span::new(s.start + by, s.end + by);
    sh(&mut e.span);
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Ellipsis
        | ExprKind::Data(_)
        | ExprKind::BigInt(_)
        | ExprKind::Bytes(_)
        | ExprKind::Name(_) => {}
        ExprKind::FString(parts) => shift_parts(parts, by),
        ExprKind::List(items) | ExprKind::Tuple(items) | ExprKind::Set(items) => {
            items.iter_mut().for_each(|i| shift(i, by))
        }
        ExprKind::Dict(entries) => entries.iter_mut().for_each(|(k, v)| {
            if let Some(k) = k {
                shift(k, by);
            }
            shift(v, by);
        }),
        ExprKind::Attr(x, _) | ExprKind::Unary(_, x) | ExprKind::Not(x) | ExprKind::Starred(x) => {
            shift(x, by)
        }
        ExprKind::Call(f, args) => {
            shift(f, by);
            args.iter_mut()
                .for_each(|a: &mut Arg| shift(&mut a.value, by));
        }
        ExprKind::Subscript(x, items) => {
            shift(x, by);
            for i in items {
                match i {
                    Index::Expr(e) => shift(e, by),
                    Index::Slice {
                        start,
                        stop,
                        step,
                        span,
                    } => {
                        sh(span);
                        for p in [start, stop, step].into_iter().flatten() {
                            shift(p, by);
                        }
                    }
                }
            }
        }
        ExprKind::Binary(_, a, b) | ExprKind::Logic(_, a, b) => {
            shift(a, by);
            shift(b, by);
        }
        ExprKind::Walrus(_, value) => shift(value, by),
        ExprKind::Compare(first, links) => {
            shift(first, by);
            links.iter_mut().for_each(|(_, e)| shift(e, by));
        }
        ExprKind::Lambda(params, body) => {
            params
                .iter_mut()
                .filter_map(|p| p.default.as_mut())
                .for_each(|d| shift(d, by));
            shift(body, by);
        }
        ExprKind::IfElse { cond, then, orelse } => {
            shift(cond, by);
            shift(then, by);
            shift(orelse, by);
        }
        ExprKind::ListComp { elt, generators }
        | ExprKind::GenExp { elt, generators }
        | ExprKind::SetComp { elt, generators } => {
            shift(elt, by);
            shift_generators(generators, by);
        }
        ExprKind::DictComp {
            key,
            value,
            generators,
        } => {
            shift(key, by);
            shift(value, by);
            shift_generators(generators, by);
        }
        ExprKind::Yield(value) => {
            if let Some(v) = value {
                shift(v, by);
            }
        }
        ExprKind::YieldFrom(v) => shift(v, by),
    }
}

fn shift_generators(generators: &mut [crate::ast::Comprehension], by: usize) {
    for g in generators {
        shift_target(&mut g.target, by);
        shift(&mut g.iter, by);
        g.conds.iter_mut().for_each(|c| shift(c, by));
    }
}

fn shift_parts(parts: &mut [FPart], by: usize) {
    for p in parts {
        if let FPart::Field(f) = p {
            shift(&mut f.expr, by);
            shift_parts(&mut f.spec, by);
        }
    }
}

fn shift_target(t: &mut Target, by: usize) {
    match t {
        Target::Name(_, s) => *s = Span::new(s.start + by, s.end + by),
        Target::Tuple(items, s) => {
            *s = Span::new(s.start + by, s.end + by);
            items.iter_mut().for_each(|i| shift_target(i, by));
        }
        Target::Subscript(..) | Target::Attr(..) => {
            if let Some(mut e) = t.as_expr() {
                shift(&mut e, by);
                *t = match (e.kind, e.span) {
                    (ExprKind::Subscript(x, index), s) => Target::Subscript(x, index, s),
                    (ExprKind::Attr(x, name), s) => Target::Attr(x, name, s),
                    _ => return,
                };
            }
        }
        Target::Starred(t, s) => {
            *s = Span::new(s.start + by, s.end + by);
            shift_target(t, by);
        }
    }
}
