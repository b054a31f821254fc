//! A direct parser for the inputs typed most often: one short line holding one expression
//! statement or assignment, made of names, decimal numbers, operators, calls, attributes,
//! subscripts, parentheses and lists (`rt[:, :2]`, `x = tf.reduce_mean(rt, axis=1) + 1`).
//!
//! It builds the tree the grammar and the conversion would build, spans included, and
//! answers `None` for anything else: a keyword, a string, a comment, a second line, a
//! number written any other way, an error of any kind. The full parser then runs, so every
//! error and every rarer form keeps one implementation. pest descends through its rules for
//! each token and the conversion walks its pairs again; for a line like `digits + 3` that is
//! about 40,000 instructions, against about 2,000 here. `fast_tests.rs` checks that both
//! parsers give the same tree for every input this one accepts, over the project's programs,
//! the fuzz corpus and generated expressions.

use super::*;
use crate::KEYWORDS;
use tokens::{infix, number, plain};

#[cfg(test)]
mod tests;
mod tokens;

/// Inputs at least this long go to the full parser. A data block is hidden from the grammar
/// from 256 bytes (`data_blocks::MIN_BYTES`), and a short line is where parsing time is
/// seen: the rest of the work is small.
const MAX_LEN: usize = 240;

/// How deep the expressions may nest here; deeper ones go to the full parser, which bounds
/// them with its own limits and errors.
const MAX_DEPTH: usize = 48;

/// The program `src` denotes, when it is one simple line this parser reads; `None` sends it
/// to the full parser.
pub(super) fn program(src: &str) -> Option<Program> {
    #[cfg(test)]
    if data_blocks::grammar_only() {
        return None;
    }
    let b = src.as_bytes();
    if b.is_empty() || b.len() >= MAX_LEN || !plain(b) {
        return None;
    }
    let mut p = Fast {
        src,
        b,
        i: 0,
        prev_end: 0,
        depth: 0,
    };
    let stmt = p.expr_stmt()?;
    // Spaces and newlines may end the input; nothing else may.
    if b[p.i..].iter().any(|&c| c != b' ' && c != b'\n') {
        return None;
    }
    Some(Program { body: vec![stmt] })
}

/// The binding power of the prefix operators `-`, `+` and `~`.
const PREFIX: u8 = 100;

struct Fast<'a> {
    src: &'a str,
    b: &'a [u8],
    /// The next byte to read.
    i: usize,
    /// The end of the last token read (spans end there, not after the spaces behind it).
    prev_end: usize,
    depth: usize,
}

impl<'a> Fast<'a> {
    fn skip_space(&mut self) {
        while self.b.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
    }

    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    /// Takes the byte `c` (after spaces) if it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip_space();
        if self.peek() == c {
            self.i += 1;
            self.prev_end = self.i;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// An expression statement or an assignment `t1 = t2 = value`.
    fn expr_stmt(&mut self) -> Option<Stmt> {
        let mut parts = vec![self.testlist()?];
        loop {
            self.skip_space();
            if self.peek() == b'=' && self.b.get(self.i + 1) != Some(&b'=') {
                self.i += 1;
                parts.push(self.testlist()?);
            } else {
                break;
            }
        }
        let span = Span::new(0, self.prev_end);
        let value = parts.pop()?;
        let kind = if parts.is_empty() {
            StmtKind::Expr(value)
        } else {
            let targets = parts
                .into_iter()
                .map(to_target)
                .collect::<Result<Vec<_>, _>>();
            StmtKind::Assign {
                targets: targets.ok()?,
                value,
            }
        };
        Some(Stmt { kind, span })
    }

    /// `a` or `a, b` (a tuple); a trailing comma makes a tuple too.
    fn testlist(&mut self) -> Option<Expr> {
        self.skip_space();
        let start = self.i;
        let (mut items, comma) = self.items(|c| matches!(c, b'=' | b'\n' | 0 | b')' | b']'))?;
        if items.len() == 1 && !comma {
            return items.pop();
        }
        Some(Expr {
            kind: ExprKind::Tuple(items),
            span: Span::new(start, self.prev_end),
        })
    }

    /// Comma-separated expressions up to a byte for which `end` holds (not taken), and
    /// whether a comma followed the last one.
    fn items(&mut self, end: impl Fn(u8) -> bool) -> Option<(Vec<Expr>, bool)> {
        let mut items = Vec::new();
        let mut comma = false;
        loop {
            self.skip_space();
            if end(self.peek()) && !items.is_empty() {
                return Some((items, comma));
            }
            items.push(self.expr(0)?);
            comma = self.eat(b',');
            if !comma {
                self.skip_space();
                return end(self.peek()).then_some((items, false));
            }
        }
    }

    /// An operator expression whose operators bind tighter than `power` (pest's Pratt
    /// algorithm: a left-associative operator parses its right side at its own power, `**`
    /// one below, a prefix operator one below its own). Returns the expression and whether it
    /// is a comparison (a second one would chain: `a < b < c`, left to the full parser).
    fn expr(&mut self, power: u8) -> Option<Expr> {
        self.enter()?;
        let (mut lhs, mut compared) = self.prefixed()?;
        loop {
            self.skip_space();
            let Some((op, len, p)) = infix(self.b, self.i) else {
                break;
            };
            if p <= power {
                break;
            }
            if op.is_comparison() && compared {
                return None;
            }
            self.i += len;
            let rhs = self.expr(if op == BinOp::Pow { p - 1 } else { p })?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
            compared = op.is_comparison();
        }
        self.depth -= 1;
        Some(lhs)
    }

    /// A prefix operator and its operand, or a primary.
    fn prefixed(&mut self) -> Option<(Expr, bool)> {
        self.skip_space();
        let start = self.i;
        let op = match self.peek() {
            b'-' => UnaryOp::Neg,
            b'+' => UnaryOp::Pos,
            b'~' => UnaryOp::Invert,
            _ => return Some((self.primary()?, false)),
        };
        self.i += 1;
        let rhs = self.expr(PREFIX - 1)?;
        let span = Span::new(start, rhs.span.end);
        Some((
            Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span,
            },
            false,
        ))
    }

    /// An atom followed by calls, attribute accesses and subscripts.
    fn primary(&mut self) -> Option<Expr> {
        let mut e = self.atom()?;
        loop {
            self.skip_space();
            let start = e.span.start;
            let kind = match self.peek() {
                b'(' => {
                    self.i += 1;
                    let args = self.call_args()?;
                    ExprKind::Call(Box::new(e), args)
                }
                b'.' => {
                    self.i += 1;
                    self.skip_space();
                    let (name, _) = self.name()?;
                    if KEYWORDS.contains(&name) {
                        return None;
                    }
                    ExprKind::Attr(Box::new(e), name.to_owned())
                }
                b'[' => {
                    self.i += 1;
                    let items = self.subscript()?;
                    ExprKind::Subscript(Box::new(e), items)
                }
                _ => return Some(e),
            };
            e = Expr {
                kind,
                span: Span::new(start, self.prev_end),
            };
        }
    }

    /// An identifier at the cursor, and where it starts.
    fn name(&mut self) -> Option<(&'a str, usize)> {
        let start = self.i;
        if !matches!(self.peek(), b'a'..=b'z' | b'A'..=b'Z' | b'_') {
            return None;
        }
        while matches!(self.peek(), b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_') {
            self.i += 1;
        }
        self.prev_end = self.i;
        Some((&self.src[start..self.i], start))
    }

    fn atom(&mut self) -> Option<Expr> {
        self.skip_space();
        let start = self.i;
        let kind = match self.peek() {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let (name, _) = self.name()?;
                match name {
                    "True" => ExprKind::Bool(true),
                    "False" => ExprKind::Bool(false),
                    "None" => ExprKind::None,
                    _ if KEYWORDS.contains(&name) => return None,
                    _ => ExprKind::Name(name.into()),
                }
            }
            b'0'..=b'9' => {
                let (kind, end) = number(self.b, self.i)?;
                self.i = end;
                self.prev_end = end;
                kind
            }
            b'.' if self.b[self.i..].starts_with(b"...")
                && self.b.get(self.i + 3) != Some(&b'.') =>
            {
                self.i += 3;
                self.prev_end = self.i;
                ExprKind::Ellipsis
            }
            b'(' => {
                self.i += 1;
                self.enter()?;
                self.skip_space();
                if self.eat(b')') {
                    self.depth -= 1;
                    return Some(Expr {
                        kind: ExprKind::Tuple(Vec::new()),
                        span: Span::new(start, self.prev_end),
                    });
                }
                let (mut items, comma) = self.items(|c| c == b')')?;
                if !self.eat(b')') {
                    return None;
                }
                self.depth -= 1;
                let span = Span::new(start, self.prev_end);
                if items.len() == 1 && !comma {
                    let mut inner = items.pop()?;
                    inner.span = span;
                    return Some(inner);
                }
                ExprKind::Tuple(items)
            }
            b'[' => {
                if let Some(end) = data_blocks::block_end(self.b, self.i, self.depth) {
                    let e = data_blocks::literal_block(&self.src[start..end], start).ok()?;
                    self.i = end;
                    self.prev_end = end;
                    return Some(e);
                }
                self.i += 1;
                self.enter()?;
                let items = if self.eat(b']') {
                    Vec::new()
                } else {
                    let (items, _) = self.items(|c| c == b']')?;
                    if !self.eat(b']') {
                        return None;
                    }
                    items
                };
                self.depth -= 1;
                ExprKind::List(items)
            }
            _ => return None,
        };
        Some(Expr {
            kind,
            span: Span::new(start, self.prev_end),
        })
    }

    /// The arguments of a call, after its `(`, through its `)`.
    fn call_args(&mut self) -> Option<Vec<Arg>> {
        self.enter()?;
        let mut args = Vec::new();
        // The keyword names so far (a short line has few).
        let mut keywords: Vec<String> = Vec::new();
        while !self.eat(b')') {
            self.skip_space();
            // `name=value` (not `name == value`).
            let save = self.i;
            let keyword = match self.name() {
                Some((name, _)) => {
                    self.skip_space();
                    let kw = self.peek() == b'=' && self.b.get(self.i + 1) != Some(&b'=');
                    if kw {
                        self.i += 1;
                        Some(name.to_owned())
                    } else {
                        self.i = save;
                        None
                    }
                }
                None => None,
            };
            match keyword {
                Some(name) => {
                    if KEYWORDS.contains(&name.as_str()) || keywords.contains(&name) {
                        return None;
                    }
                    let value = self.expr(0)?;
                    keywords.push(name.clone());
                    args.push(Arg {
                        name: Some(name),
                        value,
                        star: false,
                        double_star: false,
                    });
                }
                None => {
                    if !keywords.is_empty() {
                        return None;
                    }
                    let value = self.expr(0)?;
                    args.push(Arg {
                        name: None,
                        value,
                        star: false,
                        double_star: false,
                    });
                }
            }
            if !self.eat(b',') {
                if !self.eat(b')') {
                    return None;
                }
                break;
            }
        }
        self.depth -= 1;
        Some(args)
    }

    /// The index items of a subscript, after its `[`, through its `]`.
    fn subscript(&mut self) -> Option<Vec<Index>> {
        self.enter()?;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            items.push(self.index_item()?);
            if !self.eat(b',') {
                break;
            }
            self.skip_space();
            if self.peek() == b']' {
                break;
            }
        }
        if !self.eat(b']') {
            return None;
        }
        self.depth -= 1;
        Some(items)
    }

    /// `expr`, or a slice `start:stop:step` with each part optional.
    fn index_item(&mut self) -> Option<Index> {
        let start_at = self.i;
        let start = if self.peek() == b':' {
            None
        } else {
            Some(self.expr(0)?)
        };
        if !self.eat(b':') {
            return start.map(Index::Expr);
        }
        let part = |p: &mut Self| -> Option<Option<Expr>> {
            p.skip_space();
            match p.peek() {
                b':' | b',' | b']' => Some(None),
                _ => p.expr(0).map(Some),
            }
        };
        let stop = part(self)?;
        let step = if self.eat(b':') { part(self)? } else { None };
        Some(Index::Slice {
            start,
            stop,
            step,
            span: Span::new(start_at, self.prev_end),
        })
    }
}
