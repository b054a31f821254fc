//! Pest pairs to the typed AST. A [`Converter`] walks the pairs of one parse: it holds the
//! text the grammar ran on, the data blocks hidden from the grammar and the depth of the
//! expression being converted. Statements are in `stmt`, operators in `operators`, the
//! other expressions in `expr`, and number and string literals in `literals`.

use std::cell::Cell;

use super::*;

mod annotations;
mod class_with;
mod defs;
mod expr;
mod fstring;
mod literals;
mod operators;
mod patterns;
mod sets;
mod stmt;

pub(super) use literals::unescape;
pub(super) use literals::{
    float_literal, int_literal, int_or_big, is_bytes_literal, literal_bytes, string_literal,
};
pub(super) use operators::binop;
use stmt::target_list;
pub(super) use stmt::to_target;

pub(super) type Result1<T> = Result<T, SyntaxError>;

/// How deep the tree of one expression may grow, counted along the path from its root:
/// one level per nested expression (brackets, lambdas, conditionals, arguments) plus one per
/// operator of an operator chain and per trailer of a postfix chain. The tree is at most
/// this deep, so everything that walks it recursively (the rest of the conversion, the
/// S-expression printer, the evaluator, even dropping it) stays within a 2 MiB thread stack
/// in a debug build. It fits the longest chain (of prefix operators: twice [`MAX_CHAIN`])
/// inside the bracket limit of the pre-pass.
pub(super) const MAX_DEPTH: usize = 2 * MAX_CHAIN + MAX_NESTING;
/// The most operators in one operator chain, or trailers after one atom. The evaluator
/// recurses once per operator; 200 levels stay well inside a thread's stack even in a debug
/// build (a thousand overflowed 8 MiB), and no hand-written expression comes close.
pub(super) const MAX_CHAIN: usize = 200;

/// The state of one conversion from pest pairs to the AST.
pub(super) struct Converter<'src> {
    /// The text the grammar ran on, before the data blocks were hidden (comments blanked,
    /// byte for byte, so offsets are the source's): hidden blocks are read back from it.
    text: &'src str,
    /// The data blocks hidden from the grammar (start → end offsets in `text`, and the
    /// literal when the scan that found the block read it into columns).
    hidden: data_blocks::Hidden,
    /// The depth (in [`MAX_DEPTH`]'s units) of the expression being converted.
    depth: Cell<usize>,
}

impl<'src> Converter<'src> {
    /// A converter for pairs parsed from `text` with the data blocks `hidden` (see
    /// `data_blocks::hide`) replaced by markers.
    pub(super) fn new(text: &'src str, hidden: data_blocks::Hidden) -> Self {
        Converter {
            text,
            hidden,
            depth: Cell::new(0),
        }
    }

    /// Adds `levels` to the expression depth while the guard lives; fails past
    /// [`MAX_DEPTH`], pointing at the start of `pair`.
    fn enter(&self, levels: usize, pair: &Pair<'_, Rule>) -> Result1<DepthGuard<'_>> {
        let depth = self.depth.get() + fstring::OUTER_DEPTH.with(Cell::get);
        if depth + levels > MAX_DEPTH {
            let start = pair.as_span().start();
            return Err(SyntaxError::new(
                SyntaxErrorKind::NestedTooDeeply,
                "expression nested too deeply",
                Span::new(start, start),
            ));
        }
        self.depth.set(self.depth.get() + levels);
        Ok(DepthGuard {
            depth: &self.depth,
            levels,
        })
    }

    /// The expression of the hidden data block starting at `start`.
    fn expand(&self, start: usize) -> Result1<Expr> {
        match self.hidden.get(&start) {
            Some((end, Some(lit))) => {
                Ok(boxed(ExprKind::Data(lit.clone()), Span::new(start, *end)))
            }
            Some(&(end, None)) => data_blocks::literal_block(&self.text[start..end], start),
            // The marker bytes were in the user's own text, not put there by `hide`.
            None => Err(SyntaxError::new(
                SyntaxErrorKind::ControlCharacter,
                "invalid control character in the input",
                Span::new(start, start + 1),
            )
            .hint("remove the control characters (U+0001, U+0002) from the code")),
        }
    }
}

/// Keeps `levels` added to a converter's expression depth until dropped.
struct DepthGuard<'c> {
    depth: &'c Cell<usize>,
    levels: usize,
}

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get().saturating_sub(self.levels));
    }
}

/// Fails when a chain of operators or trailers is too long to convert safely.
fn check_chain(pair: &Pair<'_, Rule>) -> Result1<()> {
    if pair.clone().into_inner().count() > 2 * MAX_CHAIN + 1 {
        let span = span_of(pair);
        return Err(SyntaxError::new(
            SyntaxErrorKind::ExpressionTooLong,
            "expression too long: split it into several statements",
            span,
        ));
    }
    Ok(())
}

/// The span of a pair, without the trailing blanks pest may have skipped.
pub(super) fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let start = pair.as_span().start();
    let trimmed = pair
        .as_str()
        .trim_end_matches([' ', '\t', '\x0C', '\n', '\r']);
    Span::new(start, start + trimmed.len())
}

pub(super) fn is_keyword(rule: Rule) -> bool {
    use Rule as R;
    matches!(
        rule,
        R::kw_as
            | R::kw_def
            | R::kw_elif
            | R::kw_else
            | R::kw_except
            | R::kw_finally
            | R::kw_for
            | R::kw_from
            | R::kw_if
            | R::kw_import
            | R::kw_in
            | R::kw_lambda
            | R::kw_pass
            | R::kw_raise
            | R::kw_assert
            | R::kw_return
            | R::kw_try
            | R::kw_while
            | R::kw_del
            | R::kw_break
            | R::kw_continue
            | R::kw_global
            | R::kw_nonlocal
            | R::kw_class
            | R::kw_with
            | R::kw_yield
            | R::kw_match
            | R::kw_case
    )
}

/// The children of a pair, without keyword tokens.
pub(super) fn children<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| !is_keyword(p.as_rule()))
}

/// An expression node.
pub(super) fn boxed(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}
