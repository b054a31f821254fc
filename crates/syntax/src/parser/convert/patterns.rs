//! `match` statements to the AST: the subject, the `case` clauses and their patterns, with
//! CPython's compile-time checks (an irrefutable pattern before other cases, a name bound
//! twice, alternatives binding different names, two starred names, repeated keys).

use super::stmt::stmt;
use super::*;
use crate::pattern::{MatchCase, Pattern};

fn error(message: impl Into<String>, span: Span) -> SyntaxError {
    SyntaxError::new(SyntaxErrorKind::MisplacedClause, message, span)
}

impl Converter<'_> {
    /// `match subject:` with its `case` clauses.
    pub(crate) fn match_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let mut it = pair.into_inner();
        let head = it.next().expect("the match line");
        let subject = self.testlist(children(head).next().expect("a subject"))?;
        let mut cases = Vec::new();
        for clause in it {
            cases.push(self.case_clause(clause)?);
        }
        // Only the last case may match everything (unless it has a guard).
        let last = cases.len().saturating_sub(1);
        for c in &cases[..last] {
            if c.guard.is_none() {
                if let Some(e) = unreachable_after(&c.pattern) {
                    return Err(e);
                }
            }
        }
        Ok(stmt(StmtKind::Match { subject, cases }, span))
    }

    fn case_clause(&self, pair: Pair<'_, Rule>) -> Result1<MatchCase> {
        let span = span_of(&pair);
        let mut pattern = None;
        let mut guard = None;
        let mut body = Vec::new();
        for p in children(pair) {
            match p.as_rule() {
                Rule::case_patterns => pattern = Some(self.case_patterns(p)?),
                Rule::case_guard => {
                    guard = Some(self.expr(children(p).next().expect("a guard"))?);
                }
                _ => body = self.suite(p)?,
            }
        }
        let pattern = pattern.expect("a pattern");
        let mut names = Vec::new();
        check_names(&pattern, &mut names)?;
        Ok(MatchCase {
            pattern,
            guard,
            body,
            span,
        })
    }

    /// The patterns of a comma-separated list, and whether it ends with a comma (which makes
    /// `(a,)` a sequence where `(a)` is a group).
    fn pattern_items(&self, pair: Pair<'_, Rule>) -> Result1<(Vec<Pattern>, bool)> {
        let mut items = Vec::new();
        let mut comma = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::trailing_comma => comma = true,
                _ => items.push(self.pattern_item(p)?),
            }
        }
        Ok((items, comma))
    }

    /// The top-level patterns: one pattern, or a sequence without brackets (`case a, b:`).
    fn case_patterns(&self, pair: Pair<'_, Rule>) -> Result1<Pattern> {
        let span = span_of(&pair);
        let (mut items, comma) = self.pattern_items(pair)?;
        if items.len() == 1 && !comma {
            let only = items.pop().expect("one pattern");
            if let Pattern::Star(_, s) = only {
                return Err(SyntaxError::new(
                    SyntaxErrorKind::StarredMisuse,
                    "invalid syntax",
                    s,
                ));
            }
            return Ok(only);
        }
        sequence(items, span)
    }

    fn pattern_item(&self, pair: Pair<'_, Rule>) -> Result1<Pattern> {
        match pair.as_rule() {
            Rule::pat_star => {
                let span = span_of(&pair);
                let name = pair.into_inner().next().expect("a name").as_str();
                Ok(Pattern::Star((name != "_").then(|| name.to_owned()), span))
            }
            _ => self.pattern(pair),
        }
    }

    /// `p | q … [as name]`.
    fn pattern(&self, pair: Pair<'_, Rule>) -> Result1<Pattern> {
        let _depth = self.enter(1, &pair)?;
        let span = span_of(&pair);
        let mut alts = Vec::new();
        let mut alias = None;
        for p in children(pair) {
            match p.as_rule() {
                Rule::name => alias = Some(p.as_str().to_owned()),
                _ => alts.push(self.closed_pattern(p)?),
            }
        }
        let mut p = if alts.len() == 1 {
            alts.pop().expect("one alternative")
        } else {
            // Every alternative but the last must be refutable.
            for a in &alts[..alts.len() - 1] {
                if let Some(e) = unreachable_after(a) {
                    return Err(e);
                }
            }
            let mut first = Vec::new();
            alts[0].bound_names(&mut first);
            first.sort();
            for a in &alts[1..] {
                let mut names = Vec::new();
                a.bound_names(&mut names);
                names.sort();
                if names != first {
                    return Err(error("alternative patterns bind different names", span));
                }
            }
            Pattern::Or(alts, span)
        };
        if let Some(name) = alias {
            if name == "_" {
                return Err(error("cannot use '_' as a target", span));
            }
            p = Pattern::As(Box::new(p), name, span);
        }
        Ok(p)
    }

    fn closed_pattern(&self, pair: Pair<'_, Rule>) -> Result1<Pattern> {
        let span = span_of(&pair);
        match pair.as_rule() {
            Rule::pat_literal => Ok(Pattern::Value(self.pattern_literal(pair)?)),
            Rule::pat_name => {
                let parts: Vec<_> = pair
                    .into_inner()
                    .next()
                    .expect("a name")
                    .into_inner()
                    .collect();
                if parts.len() == 1 {
                    let n = parts[0].as_str();
                    return Ok(if n == "_" {
                        Pattern::Wildcard(span)
                    } else {
                        Pattern::Capture(n.to_owned(), span)
                    });
                }
                Ok(Pattern::Value(dotted_expr(&parts)))
            }
            Rule::pat_class => {
                let mut it = pair.into_inner();
                let parts: Vec<_> = it.next().expect("a class").into_inner().collect();
                let cls = dotted_expr(&parts);
                let mut args = Vec::new();
                let mut kwargs: Vec<(String, Pattern)> = Vec::new();
                for a in it {
                    if a.as_rule() == Rule::pat_keyword {
                        let mut kv = a.into_inner();
                        let key = kv.next().expect("a keyword").as_str().to_owned();
                        if kwargs.iter().any(|(k, _)| *k == key) {
                            return Err(error(
                                format!("attribute name repeated in class pattern: {key}"),
                                span,
                            ));
                        }
                        kwargs.push((key, self.pattern(kv.next().expect("a pattern"))?));
                    } else if !kwargs.is_empty() {
                        return Err(error("positional patterns follow keyword patterns", span));
                    } else {
                        args.push(self.pattern(a)?);
                    }
                }
                Ok(Pattern::Class {
                    cls,
                    args,
                    kwargs,
                    span,
                })
            }
            Rule::pat_paren => {
                let (mut items, comma) = self.pattern_items(pair)?;
                if items.len() == 1 && !comma && !matches!(items[0], Pattern::Star(..)) {
                    return Ok(items.pop().expect("one pattern"));
                }
                sequence(items, span)
            }
            Rule::pat_bracket => {
                let items = pair
                    .into_inner()
                    .map(|p| self.pattern_item(p))
                    .collect::<Result1<Vec<_>>>()?;
                sequence(items, span)
            }
            _ => self.mapping_pattern(pair, span),
        }
    }

    fn mapping_pattern(&self, pair: Pair<'_, Rule>, span: Span) -> Result1<Pattern> {
        let mut items: Vec<(Expr, Pattern)> = Vec::new();
        let mut rest = None;
        let mut seen: Vec<ExprKind> = Vec::new();
        for item in pair.into_inner() {
            let mut parts = item.into_inner();
            let first = parts.next().expect("a key");
            if rest.is_some() {
                return Err(error("invalid syntax", span_of(&first)));
            }
            match first.as_rule() {
                Rule::name => {
                    let n = first.as_str();
                    if n == "_" {
                        return Err(error("invalid syntax", span_of(&first)));
                    }
                    rest = Some(n.to_owned());
                    continue;
                }
                Rule::pat_literal => {
                    let key = self.pattern_literal(first)?;
                    if seen.contains(&key.kind) {
                        let shown = match &key.kind {
                            ExprKind::Str(s) => format!("'{s}'"),
                            ExprKind::Int(i) => i.to_string(),
                            ExprKind::Bool(b) => if *b { "True" } else { "False" }.to_string(),
                            ExprKind::None => "None".to_string(),
                            _ => "…".to_string(),
                        };
                        return Err(error(
                            format!("mapping pattern checks duplicate key ({shown})"),
                            span,
                        ));
                    }
                    seen.push(key.kind.clone());
                    let value = self.pattern(parts.next().expect("a pattern"))?;
                    items.push((key, value));
                }
                _ => {
                    let fspan = span_of(&first);
                    let names: Vec<_> = first
                        .into_inner()
                        .next()
                        .expect("a name")
                        .into_inner()
                        .collect();
                    if names.len() < 2 {
                        return Err(error("invalid syntax", fspan));
                    }
                    let value = self.pattern(parts.next().expect("a pattern"))?;
                    items.push((dotted_expr(&names), value));
                }
            }
        }
        Ok(Pattern::Mapping { items, rest, span })
    }

    /// A literal pattern's value: a (signed) number, strings, `None`, `True`, `False`.
    fn pattern_literal(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let mut it = pair.into_inner();
        let first = it.next().expect("a literal");
        if first.as_rule() == Rule::op_neg {
            let n = self.atom(it.next().expect("a number"))?;
            return Ok(boxed(ExprKind::Unary(UnaryOp::Neg, Box::new(n)), span));
        }
        if first.as_rule() == Rule::strings {
            let e = self.atom(first)?;
            if matches!(e.kind, ExprKind::FString(_)) {
                return Err(error(
                    "patterns may only match literals and attribute lookups",
                    span,
                ));
            }
            return Ok(e);
        }
        self.atom(first)
    }
}

/// `a.b.c` as an attribute chain.
fn dotted_expr(parts: &[Pair<'_, Rule>]) -> Expr {
    let mut e = boxed(ExprKind::Name(parts[0].as_str().into()), span_of(&parts[0]));
    for p in &parts[1..] {
        let span = Span::new(e.span.start, span_of(p).end);
        e = boxed(ExprKind::Attr(Box::new(e), p.as_str().to_owned()), span);
    }
    e
}

/// A sequence pattern, refused with two starred names.
fn sequence(items: Vec<Pattern>, span: Span) -> Result1<Pattern> {
    if items
        .iter()
        .filter(|p| matches!(p, Pattern::Star(..)))
        .count()
        > 1
    {
        return Err(error("multiple starred names in sequence pattern", span));
    }
    Ok(Pattern::Sequence(items, span))
}

/// CPython's error for an irrefutable pattern with cases (or alternatives) after it.
fn unreachable_after(p: &Pattern) -> Option<SyntaxError> {
    match p {
        Pattern::Wildcard(s) => Some(error("wildcard makes remaining patterns unreachable", *s)),
        Pattern::Capture(n, s) => Some(error(
            format!("name capture '{n}' makes remaining patterns unreachable"),
            *s,
        )),
        Pattern::As(inner, ..) => unreachable_after(inner),
        Pattern::Or(alts, _) => alts.iter().find_map(unreachable_after),
        _ => None,
    }
}

/// Refuses a name bound twice in one pattern (the alternatives of `|` are checked apart).
fn check_names(p: &Pattern, seen: &mut Vec<String>) -> Result1<()> {
    let add = |n: &String, s: Span, seen: &mut Vec<String>| {
        if seen.contains(n) {
            return Err(error(
                format!("multiple assignments to name '{n}' in pattern"),
                s,
            ));
        }
        seen.push(n.clone());
        Ok(())
    };
    match p {
        Pattern::Capture(n, s) | Pattern::Star(Some(n), s) => add(n, *s, seen),
        Pattern::Sequence(items, _) => items.iter().try_for_each(|i| check_names(i, seen)),
        Pattern::Mapping { items, rest, span } => {
            items.iter().try_for_each(|(_, i)| check_names(i, seen))?;
            match rest {
                Some(n) => add(n, *span, seen),
                None => Ok(()),
            }
        }
        Pattern::Class { args, kwargs, .. } => {
            args.iter().try_for_each(|i| check_names(i, seen))?;
            kwargs.iter().try_for_each(|(_, i)| check_names(i, seen))
        }
        Pattern::Or(alts, _) => {
            let before = seen.clone();
            let mut after = before.clone();
            for a in alts {
                let mut mine = before.clone();
                check_names(a, &mut mine)?;
                after = mine;
            }
            *seen = after;
            Ok(())
        }
        Pattern::As(inner, n, s) => {
            check_names(inner, seen)?;
            add(n, *s, seen)
        }
        Pattern::Wildcard(_) | Pattern::Value(_) | Pattern::Star(None, _) => Ok(()),
    }
}
