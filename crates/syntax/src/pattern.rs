//! The patterns of `match` statements (PEP 634) and their `case` clauses.

use crate::ast::{Expr, Span, Stmt};

/// One `case pattern [if guard]: body` clause.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchCase {
    /// What the subject must look like.
    pub pattern: Pattern,
    /// The `if` condition, tested after the pattern matched (its names bound).
    pub guard: Option<Expr>,
    /// The statements run when the case is taken.
    pub body: Vec<Stmt>,
    /// Where the `case` line is.
    pub span: Span,
}

/// A pattern of a `case` clause.
#[derive(Debug, Clone, PartialEq)]
pub enum Pattern {
    /// `_`: matches anything, binds nothing.
    Wildcard(Span),
    /// `name`: matches anything and binds it.
    Capture(String, Span),
    /// A literal or a dotted name (`Color.RED`): matches a subject equal to it (`None`,
    /// `True` and `False` by identity).
    Value(Expr),
    /// `[p, *rest, q]` or `(p, q)`: a sequence (not a str, bytes or mapping) of as many
    /// items; at most one item is [`Pattern::Star`].
    Sequence(Vec<Pattern>, Span),
    /// `*name` (or `*_`, name `None`) in a sequence: the items left over, as a list.
    Star(Option<String>, Span),
    /// `{key: p, **rest}`: a mapping holding the keys, each value matching its pattern.
    Mapping {
        /// The keys (literals or dotted names) and their value patterns.
        items: Vec<(Expr, Pattern)>,
        /// `**rest`: the other items, as a dict.
        rest: Option<String>,
        /// Where the pattern is.
        span: Span,
    },
    /// `Cls(p, k=q)`: an instance of the class, positional patterns matched through
    /// `__match_args__` (or the subject itself for the builtin types), keywords through
    /// attributes.
    Class {
        /// The class (a name or dotted name).
        cls: Expr,
        /// The positional sub-patterns.
        args: Vec<Pattern>,
        /// The keyword sub-patterns.
        kwargs: Vec<(String, Pattern)>,
        /// Where the pattern is.
        span: Span,
    },
    /// `p | q`: the first alternative that matches.
    Or(Vec<Pattern>, Span),
    /// `p as name`: binds the subject when `p` matches.
    As(Box<Pattern>, String, Span),
}

impl Pattern {
    /// The source span of the pattern.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Wildcard(s)
            | Pattern::Capture(_, s)
            | Pattern::Sequence(_, s)
            | Pattern::Star(_, s)
            | Pattern::Mapping { span: s, .. }
            | Pattern::Class { span: s, .. }
            | Pattern::Or(_, s)
            | Pattern::As(_, _, s) => *s,
            Pattern::Value(e) => e.span,
        }
    }

    /// The names the pattern binds, in the order they appear.
    pub fn bound_names(&self, out: &mut Vec<String>) {
        match self {
            Pattern::Capture(n, _) => out.push(n.clone()),
            Pattern::Star(Some(n), _) => out.push(n.clone()),
            Pattern::Sequence(items, _) => items.iter().for_each(|p| p.bound_names(out)),
            Pattern::Mapping { items, rest, .. } => {
                items.iter().for_each(|(_, p)| p.bound_names(out));
                out.extend(rest.iter().cloned());
            }
            Pattern::Class { args, kwargs, .. } => {
                args.iter().for_each(|p| p.bound_names(out));
                kwargs.iter().for_each(|(_, p)| p.bound_names(out));
            }
            // The alternatives bind the same names (checked when converting).
            Pattern::Or(alts, _) => {
                if let Some(first) = alts.first() {
                    first.bound_names(out);
                }
            }
            Pattern::As(p, n, _) => {
                p.bound_names(out);
                out.push(n.clone());
            }
            Pattern::Wildcard(_) | Pattern::Value(_) | Pattern::Star(None, _) => {}
        }
    }

    /// True for a pattern that matches every subject (a capture or the wildcard, possibly
    /// grouped or behind `as`, or an or-pattern with such an alternative).
    pub fn irrefutable(&self) -> bool {
        match self {
            Pattern::Wildcard(_) | Pattern::Capture(..) => true,
            Pattern::As(p, ..) => p.irrefutable(),
            Pattern::Or(alts, _) => alts.iter().any(Pattern::irrefutable),
            _ => false,
        }
    }
}
