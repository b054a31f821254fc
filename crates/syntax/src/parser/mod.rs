//! Source text to [`Program`]: a lexical pre-pass, the pest grammar in `grammar/ragtag.pest`
//! (operator precedence by a Pratt parser), and a conversion of pest's pairs into the AST.
//! A short line of the commonest forms is read directly (`fast`), into the same tree.
//!
//! The pre-pass (`clean`) copies the source byte for byte, blanking comments and turning
//! newlines inside brackets and after a line-continuation backslash into spaces, so the
//! grammar only sees logical lines while every span stays a byte range of the original
//! text. It also finds unbalanced brackets, unterminated strings and bad indentation, which
//! get clearer messages than the grammar's. Pest's `Pair`s never leave this module.
//!
//! Parsing is linear in the input and bounded in depth: the pre-pass rejects more than
//! [`MAX_NESTING`](prepass::MAX_NESTING) levels of brackets, lambdas and `else` branches and
//! more than [`MAX_INDENT`](prepass::MAX_INDENT) nested blocks, and the grammar only runs on
//! the text before the pre-pass's first error; the conversion bounds each expression tree
//! (see `convert::MAX_DEPTH`). `examples/parse_limits.rs` times adversarial inputs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use super::ast::{
    Arg, BinOp, Comprehension, Expr, ExprKind, Handler, Index, LogicOp, Param, ParamKind, Program,
    Span, Stmt, StmtKind, Target, UnaryOp,
};

mod grammar {
    use pest_derive::Parser;

    /// The pest parser generated from the grammar file.
    #[derive(Parser)]
    #[grammar = "../../../grammar/ragtag.pest"]
    pub(super) struct RagtagParser;
}

use grammar::{RagtagParser, Rule};

#[cfg(test)]
mod annotation_tests;
#[cfg(test)]
mod block_tests;
#[cfg(test)]
mod class_with_tests;
mod convert;
mod data_blocks;
#[cfg(test)]
mod error_tests;
mod errors;
mod fast;
#[cfg(test)]
mod function_tests;
#[cfg(test)]
mod match_tests;
mod prepass;
#[cfg(test)]
mod tests;

use super::error::{ParseError, SyntaxError, SyntaxErrorKind};
use convert::*;
use errors::*;
use prepass::*;

/// Whether a REPL entry is ready to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completeness {
    /// It parses and no block is left open: run it.
    Complete,
    /// More lines could make it valid: show a continuation prompt.
    Incomplete,
    /// It can never be valid: report the error.
    Invalid,
}

impl From<Interrupted> for ParseError {
    fn from(_: Interrupted) -> Self {
        ParseError::Interrupted
    }
}

/// Parses a whole input (a script, a REPL entry or a notebook cell).
pub fn parse(src: &str) -> Result<Program, SyntaxError> {
    match parse_program(src, &AtomicBool::new(false)).0 {
        Ok(program) => Ok(program),
        Err(ParseError::Syntax(e)) => Err(e),
        Err(ParseError::Interrupted) => unreachable!("nothing sets this cancel flag"),
    }
}

/// Parses a whole input like [`parse`], but gives up with [`ParseError::Interrupted`] once
/// `cancel` is set (a session's Ctrl-C flag). Parsing takes time linear in the input (well
/// under a second for a megabyte); the flag is checked every few kilobytes of the pre-pass,
/// before and after the grammar runs, and between statements.
pub fn parse_interruptible(src: &str, cancel: &AtomicBool) -> Result<Program, ParseError> {
    parse_program(src, cancel).0
}

/// Parses a program; also tells whether the input ends in a line continuation (`\`).
fn parse_program(src: &str, cancel: &AtomicBool) -> (Result<Program, ParseError>, bool) {
    match fast::program(src) {
        Some(program) => (Ok(program), false),
        None => full_program(src, cancel),
    }
}

/// [`parse_program`] by the pre-pass, the grammar and the conversion, for any input.
fn full_program(src: &str, cancel: &AtomicBool) -> (Result<Program, ParseError>, bool) {
    on_parse_stack(|| match clean(src, true, cancel) {
        Ok(cleaned) => (convert_program(src, &cleaned, cancel), cleaned.continued),
        Err(Interrupted) => (Err(ParseError::Interrupted), false),
    })
}

/// The stack the grammar and the conversion run on. Both recurse once per level of
/// nesting; the limits (brackets, lambdas, blocks, operator chains) bound the depth, and an
/// unoptimised build at the deepest input they allow needs a few megabytes, more than a
/// small worker thread may have. Only the pages actually used are ever touched.
const PARSE_STACK: usize = 64 << 20;

/// Runs `f` on a thread with a [`PARSE_STACK`]-sized stack (or on this one, if no thread
/// can be started), so that parsing never depends on the caller's stack. A panic in `f`
/// resumes on the caller's thread. An evaluation thread with that much stack to spare
/// parses in place: starting a thread costs more than parsing a line.
fn on_parse_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if ragtag_engine::guard::stack_room().is_some_and(|room| room >= PARSE_STACK) {
        return f();
    }
    let mut slot = Some(f);
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("ragtag-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || slot.take().map(|f| f()))
            .ok()
            .map(|thread| thread.join())
    });
    match outcome {
        Some(Ok(Some(value))) => value,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        _ => (slot.take().expect("`f` has not run"))(),
    }
}

/// Fails when `cancel` is set.
fn check_cancel(cancel: &AtomicBool) -> Result<(), Interrupted> {
    match cancel.load(Ordering::Relaxed) {
        true => Err(Interrupted),
        false => Ok(()),
    }
}

/// The text the grammar runs on: the cleaned text up to the pre-pass's error, if any. The
/// grammar only has to find an earlier error than that one, and the text before it nests
/// no deeper than the pre-pass allows, which bounds the grammar's recursion.
fn grammar_text(cleaned: &Cleaned) -> &str {
    let text = cleaned.text.as_str();
    let mut end = cleaned.error.as_ref().map_or(text.len(), |(at, _)| *at);
    end = end.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn convert_program(
    src: &str,
    cleaned: &Cleaned,
    cancel: &AtomicBool,
) -> Result<Program, ParseError> {
    let mut text = grammar_text(cleaned).to_owned();
    let hidden = data_blocks::hide(&mut text);
    check_cancel(cancel)?;
    // Blocks are expanded from the text they were found in: comments already blanked (byte
    // for byte, so spans still point into `src`).
    let converter = Converter::new(grammar_text(cleaned), hidden);
    let pairs = run(Rule::program, &text, cleaned);
    check_cancel(cancel)?;
    let mut pairs = settle(src, cleaned, pairs)?;
    let mut body = Vec::new();
    for pair in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
        if pair.as_rule() == Rule::statement {
            check_cancel(cancel)?;
            body.extend(converter.statement(pair)?);
        }
    }
    let program = Program { body };
    crate::scope::check(&program)?;
    Ok(program)
}

/// Parses a single expression (a bare `a, b` is a tuple); surrounding blank space is allowed.
pub fn parse_expr(src: &str) -> Result<Expr, SyntaxError> {
    on_parse_stack(|| parse_expr_here(src))
}

fn parse_expr_here(src: &str) -> Result<Expr, SyntaxError> {
    let cleaned = match clean(src, false, &AtomicBool::new(false)) {
        Ok(cleaned) => cleaned,
        Err(Interrupted) => unreachable!("nothing sets this cancel flag"),
    };
    let pairs = run(Rule::expression, grammar_text(&cleaned), &cleaned);
    let mut pairs = settle(src, &cleaned, pairs)?;
    let line = pairs
        .next()
        .into_iter()
        .flat_map(|p| p.into_inner())
        .find(|p| p.as_rule() == Rule::expr_line)
        .and_then(|p| p.into_inner().next());
    match line {
        Some(list) => Converter::new(grammar_text(&cleaned), HashMap::new()).testlist(list),
        None => Err(SyntaxError::new(
            SyntaxErrorKind::ExpectedToken,
            "expected an expression",
            Span::new(0, 0),
        )),
    }
}

/// Runs the grammar. On failure it runs again with pest's tracking of the literal tokens
/// it expected switched on (a process-wide flag that halves parsing speed), for the message,
/// unless the failure is no earlier than the pre-pass's error, which is reported instead.
#[allow(clippy::result_large_err)] // pest's own error, turned into a SyntaxError at once
fn run<'i>(
    rule: Rule,
    text: &'i str,
    cleaned: &Cleaned,
) -> Result<Pairs<'i>, pest::error::Error<Rule>> {
    RagtagParser::parse(rule, text).or_else(|e| {
        let at = match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
        if cleaned.error.as_ref().is_some_and(|(pre, _)| at >= *pre) {
            return Err(e);
        }
        pest::set_error_detail(true);
        let detailed = RagtagParser::parse(rule, text);
        pest::set_error_detail(false);
        detailed
    })
}

/// Tells a REPL whether `src` is complete, needs more lines, or is invalid.
///
/// * `Complete`: it parses, and it does not end with a compound statement (`def`, `if`,
///   `for`, `try`) that is still waiting for the blank line that closes it.
/// * `Incomplete`: brackets or a triple-quoted string are open, a line ends with a
///   backslash, a block header has no body yet, the last compound statement is not yet
///   followed by a blank line, or the parse error is at the very end of the input (unless
///   the input already ends with a blank line, which closes everything but brackets).
/// * `Invalid`: anything else. A single-quoted string left open at the end of a line
///   (`'abc`) is invalid, as in Python: it cannot continue on the next line.
pub fn completeness(src: &str) -> Completeness {
    match parse_program(src, &AtomicBool::new(false)) {
        (Ok(_), true) => Completeness::Incomplete,
        (Ok(program), false) => {
            let compound = program.body.last().is_some_and(|s| {
                matches!(
                    s.kind,
                    StmtKind::Def { .. }
                        | StmtKind::If { .. }
                        | StmtKind::For { .. }
                        | StmtKind::While { .. }
                        | StmtKind::Try { .. }
                        | StmtKind::Match { .. }
                )
            });
            if compound && !ends_with_blank_line(src) {
                Completeness::Incomplete
            } else {
                Completeness::Complete
            }
        }
        (Err(ParseError::Syntax(e)), _) if e.incomplete => Completeness::Incomplete,
        (Err(_), _) => Completeness::Invalid,
    }
}

/// True when the text after the last non-blank character holds at least two newlines.
fn ends_with_blank_line(src: &str) -> bool {
    let content = src.trim_end_matches([' ', '\t', '\x0C', '\r', '\n']);
    src[content.len()..].matches('\n').count() >= 2
}
