//! Statements to the AST: simple and compound statements, blocks, and the targets of
//! assignments and `for` loops (`def` is in `defs.rs`).

use super::*;

/// A statement node.
pub(crate) fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

/// `a.b.c` as written, without the spaces pest allows around the dots.
pub(crate) fn dotted_name(pair: Pair<'_, Rule>) -> String {
    pair.into_inner()
        .map(|p| p.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

// ------------------------------------------------------------------------------------------
// Targets.

/// Reinterprets an expression left of `=` as an assignment target.
pub(crate) fn to_target(e: Expr) -> Result1<Target> {
    let what = match e.kind {
        ExprKind::Name(n) => return Ok(Target::Name(n, e.span)),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            let items = items
                .into_iter()
                .map(|item| match item.kind {
                    ExprKind::Starred(inner) => {
                        Ok(Target::Starred(Box::new(to_target(*inner)?), item.span))
                    }
                    _ => to_target(item),
                })
                .collect::<Result1<Vec<_>>>()?;
            return checked_tuple(items, e.span);
        }
        ExprKind::Starred(_) => {
            return Err(SyntaxError::new(
                SyntaxErrorKind::StarredMisuse,
                "starred assignment target must be in a list or tuple",
                e.span,
            ))
        }
        ExprKind::Subscript(obj, index) => return Ok(Target::Subscript(obj, index, e.span)),
        ExprKind::Attr(obj, name) => return Ok(Target::Attr(obj, name, e.span)),
        ExprKind::Call(..) => "a function call",
        ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bytes(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Ellipsis => "a literal",
        ExprKind::Lambda(..) => "a lambda",
        ExprKind::Binary(op, ..) if op.is_comparison() => "a comparison",
        ExprKind::Compare(..) => "a comparison",
        _ => "an expression",
    };
    Err(SyntaxError::new(
        SyntaxErrorKind::CannotAssign,
        format!("cannot assign to {what}"),
        e.span,
    )
    .hint("names, subscripts (`x[i]`), attributes (`x.a`) and tuples or lists of them can be assigned to"))
}

/// A tuple target, refused when more than one of its items is starred.
fn checked_tuple(items: Vec<Target>, span: Span) -> Result1<Target> {
    let mut starred = items.iter().filter(|t| matches!(t, Target::Starred(..)));
    if let Some(second) = starred.nth(1) {
        return Err(SyntaxError::new(
            SyntaxErrorKind::StarredMisuse,
            "multiple starred expressions in assignment",
            second.span(),
        ));
    }
    Ok(Target::Tuple(items, span))
}

/// `target op= value`: the target is one name, subscript or attribute.
fn aug_assign(target: Expr, op: &Pair<'_, Rule>, value: Expr) -> Result1<StmtKind> {
    let written = op.as_str();
    let symbol = &written[..written.len() - 1];
    let op = match symbol {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "//" => BinOp::FloorDiv,
        "%" => BinOp::Mod,
        "**" => BinOp::Pow,
        "@" => BinOp::MatMul,
        "&" => BinOp::BitAnd,
        "|" => BinOp::BitOr,
        "^" => BinOp::BitXor,
        "<<" => BinOp::LShift,
        _ => BinOp::RShift,
    };
    let what = match target.kind {
        ExprKind::Name(_) | ExprKind::Subscript(..) | ExprKind::Attr(..) => {
            return Ok(StmtKind::AugAssign {
                target: to_target(target)?,
                op,
                value,
            })
        }
        ExprKind::Tuple(_) => "tuple",
        ExprKind::List(_) | ExprKind::Data(_) => "list",
        ExprKind::Dict(_) => "dict literal",
        ExprKind::Set(_) => "set display",
        ExprKind::SetComp { .. } => "set comprehension",
        ExprKind::Call(..) => "function call",
        ExprKind::Lambda(..) => "lambda",
        ExprKind::IfElse { .. } => "conditional expression",
        ExprKind::ListComp { .. } => "list comprehension",
        ExprKind::DictComp { .. } => "dict comprehension",
        ExprKind::GenExp { .. } => "generator expression",
        ExprKind::FString(_) => "f-string expression",
        ExprKind::Binary(o, ..) if o.is_comparison() => "comparison",
        ExprKind::Compare(..) => "comparison",
        ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bytes(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Ellipsis => "literal",
        _ => "expression",
    };
    // CPython's message.
    Err(SyntaxError::new(
        SyntaxErrorKind::CannotAssign,
        format!("'{what}' is an illegal expression for augmented assignment"),
        target.span,
    ))
}

/// `a`, `a, b`, `(a, (b, c))`, `[a, b]`.
pub(crate) fn target_list(pair: Pair<'_, Rule>) -> Result1<Target> {
    let span = span_of(&pair);
    let (mut items, comma) = target_items(pair)?;
    if items.len() == 1 && !comma {
        let one = items.pop().expect("one target");
        if let Target::Starred(_, at) = one {
            return Err(SyntaxError::new(
                SyntaxErrorKind::StarredMisuse,
                "starred assignment target must be in a list or tuple",
                at,
            ));
        }
        return Ok(one);
    }
    checked_tuple(items, span)
}

pub(crate) fn target_items(pair: Pair<'_, Rule>) -> Result1<(Vec<Target>, bool)> {
    let mut items = Vec::new();
    let mut comma = false;
    for p in pair.into_inner() {
        let span = span_of(&p);
        match p.as_rule() {
            Rule::name => items.push(Target::Name(p.as_str().into(), span)),
            Rule::trailing_comma => comma = true,
            Rule::target_paren => {
                items.push(match p.into_inner().next() {
                    None => Target::Tuple(Vec::new(), span),
                    Some(list) => match target_list(list)? {
                        Target::Name(n, _) => Target::Name(n, span),
                        Target::Tuple(t, _) => Target::Tuple(t, span),
                        Target::Starred(t, _) => Target::Starred(t, span),
                        other => other,
                    },
                });
            }
            Rule::target_star => {
                let (mut inner, _) = target_items(p)?;
                let one = inner.pop().expect("a target after `*`");
                items.push(Target::Starred(Box::new(one), span));
            }
            _ => {
                let inner = match p.into_inner().next() {
                    None => Vec::new(),
                    Some(list) => target_items(list)?.0,
                };
                items.push(checked_tuple(inner, span)?);
            }
        }
    }
    Ok((items, comma))
}

impl Converter<'_> {
    /// One logical line: a compound statement or `;`-separated simple ones.
    pub(crate) fn statement(&self, pair: Pair<'_, Rule>) -> Result1<Vec<Stmt>> {
        let mut out = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::if_stmt => out.push(self.if_stmt(p)?),
                Rule::for_stmt => out.push(self.for_stmt(p)?),
                Rule::while_stmt => out.push(self.while_stmt(p)?),
                Rule::try_stmt => out.push(self.try_stmt(p)?),
                Rule::def_stmt => out.push(self.def_stmt(p, None)?),
                Rule::decorated => out.push(self.decorated(p)?),
                Rule::class_stmt => out.push(self.class_stmt(p)?),
                Rule::with_stmt => out.push(self.with_stmt(p)?),
                Rule::match_stmt => out.push(self.match_stmt(p)?),
                _ => self.small_stmt(p, &mut out)?,
            }
        }
        Ok(out)
    }

    /// A block (nested statements) or an inline body (simple statements).
    pub(crate) fn suite(&self, pair: Pair<'_, Rule>) -> Result1<Vec<Stmt>> {
        let mut out = Vec::new();
        for p in pair.into_inner() {
            if p.as_rule() == Rule::statement {
                out.extend(self.statement(p)?);
            } else {
                self.small_stmt(p, &mut out)?;
            }
        }
        Ok(out)
    }

    pub(crate) fn small_stmt(&self, pair: Pair<'_, Rule>, out: &mut Vec<Stmt>) -> Result1<()> {
        let span = span_of(&pair);
        let kind = match pair.as_rule() {
            Rule::pass_stmt => StmtKind::Pass,
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::del_stmt => {
                let list =
                    self.testlist(children(pair).next().expect("the grammar requires targets"))?;
                let items = match list {
                    Expr {
                        kind: ExprKind::Tuple(items),
                        ..
                    } => items,
                    other => vec![other],
                };
                for e in &items {
                    if !matches!(
                        e.kind,
                        ExprKind::Name(_) | ExprKind::Subscript(..) | ExprKind::Attr(..)
                    ) {
                        return Err(SyntaxError::new(
                            SyntaxErrorKind::CannotDelete,
                            "cannot delete this expression",
                            e.span,
                        )
                        .hint("`del` takes names or subscripts (`del x`, `del items[0]`)"));
                    }
                }
                StmtKind::Del(items)
            }
            Rule::return_stmt => StmtKind::Return(
                children(pair)
                    .next()
                    .map(|p| self.testlist(p))
                    .transpose()?,
            ),
            Rule::raise_stmt => {
                let mut it = children(pair).map(|p| self.expr(p));
                let value = it.next().transpose()?;
                let cause = it.next().transpose()?;
                StmtKind::Raise(value, cause)
            }
            Rule::assert_stmt => {
                let mut it = children(pair).map(|p| self.expr(p));
                let test = it.next().transpose()?.expect("the grammar requires a test");
                let msg = it.next().transpose()?;
                StmtKind::Assert { test, msg }
            }
            Rule::import_stmt => {
                for item in children(pair) {
                    let mut it = children(item);
                    let module = it.next().map(dotted_name).unwrap_or_default();
                    let alias = it.next().map(|n| n.as_str().to_owned());
                    out.push(stmt(StmtKind::Import { module, alias }, span));
                }
                return Ok(());
            }
            Rule::from_import => {
                let mut it = children(pair);
                let base = it.next().map(dotted_name).unwrap_or_default();
                let mut it = it.peekable();
                if it.peek().is_some_and(|p| p.as_rule() == Rule::import_all) {
                    out.push(stmt(StmtKind::ImportAll { module: base }, span));
                    return Ok(());
                }
                for item in it {
                    let mut names = children(item);
                    let name = names.next().map_or("", |n| n.as_str());
                    // `from a import b` binds `b`.
                    let alias = Some(names.next().map_or(name, |n| n.as_str()).to_owned());
                    out.push(stmt(
                        StmtKind::Import {
                            module: format!("{base}.{name}"),
                            alias,
                        },
                        span,
                    ));
                }
                return Ok(());
            }
            Rule::global_stmt => {
                StmtKind::Global(children(pair).map(|n| n.as_str().to_owned()).collect())
            }
            Rule::nonlocal_stmt => {
                StmtKind::Nonlocal(children(pair).map(|n| n.as_str().to_owned()).collect())
            }
            Rule::expr_stmt => self.expr_stmt(pair)?,
            Rule::yield_stmt => {
                let inner = children(pair).next().expect("the grammar requires a yield");
                StmtKind::Expr(self.yield_expr(inner)?)
            }
            other => unreachable!("not a statement: {other:?}"),
        };
        out.push(stmt(kind, span));
        Ok(())
    }

    /// An expression statement or a (chained / unpacking) assignment.
    pub(crate) fn expr_stmt(&self, pair: Pair<'_, Rule>) -> Result1<StmtKind> {
        let mut parts = Vec::new();
        let mut pairs = pair.into_inner();
        while let Some(p) = pairs.next() {
            if p.as_rule() == Rule::aug_assign {
                let target = parts.pop().expect("a target before the operator");
                let next = pairs.next().expect("a value after the operator");
                let value = if next.as_rule() == Rule::yield_expr {
                    self.yield_expr(next)?
                } else {
                    self.testlist(next)?
                };
                return aug_assign(target, &p, value);
            }
            if p.as_rule() == Rule::ann_assign {
                let target = parts.pop().expect("a target before the annotation");
                return self.ann_assign(target, p);
            }
            if p.as_rule() == Rule::yield_expr {
                parts.push(self.yield_expr(p)?);
                continue;
            }
            parts.push(self.testlist_or_starred(p)?);
        }
        let value = parts.pop().ok_or_else(|| {
            SyntaxError::new(
                SyntaxErrorKind::ExpectedToken,
                "expected an expression",
                Span::default(),
            )
        })?;
        let value = super::expr::not_starred(value)?;
        if parts.is_empty() {
            return Ok(StmtKind::Expr(value));
        }
        let targets = parts
            .into_iter()
            .map(to_target)
            .collect::<Result1<Vec<_>>>()?;
        Ok(StmtKind::Assign { targets, value })
    }

    /// `yield value`, a bare `yield` or `yield from iterable`.
    pub(crate) fn yield_expr(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_yield);
        let kind = match it.next() {
            None => ExprKind::Yield(None),
            Some(p) if p.as_rule() == Rule::kw_from => {
                let e = self.expr(it.next().expect("the grammar requires an iterable"))?;
                ExprKind::YieldFrom(Box::new(e))
            }
            Some(p) => ExprKind::Yield(Some(Box::new(self.testlist(p)?))),
        };
        Ok(Expr { kind, span })
    }

    pub(crate) fn if_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let end = span_of(&pair).end;
        let mut clauses = Vec::new();
        let mut orelse = Vec::new();
        for clause in pair.into_inner() {
            let start = clause.as_span().start();
            let is_else = clause.as_rule() == Rule::else_clause;
            let mut it = children(clause);
            if is_else {
                orelse = it
                    .next()
                    .map(|p| self.suite(p))
                    .transpose()?
                    .unwrap_or_default();
            } else {
                let cond = self.expr(it.next().expect("condition"))?;
                let body = self.suite(it.next().expect("body"))?;
                clauses.push((start, cond, body));
            }
        }
        // Fold `elif`s from the last one up: each becomes the `orelse` of the one before.
        let mut clauses = clauses.into_iter().rev().peekable();
        loop {
            let (start, cond, body) = clauses.next().expect("an if clause");
            let s = stmt(StmtKind::If { cond, body, orelse }, Span::new(start, end));
            if clauses.peek().is_none() {
                return Ok(s);
            }
            orelse = vec![s];
        }
    }

    pub(crate) fn for_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let mut clauses = pair.into_inner();
        let mut it = children(clauses.next().expect("the for clause"));
        let target = target_list(it.next().expect("target"))?;
        let iter = self.testlist(it.next().expect("iterable"))?;
        let body = self.suite(it.next().expect("body"))?;
        let orelse = self.else_suite(clauses.next())?;
        let kind = StmtKind::For {
            target,
            iter,
            body,
            orelse,
        };
        Ok(stmt(kind, span))
    }

    pub(crate) fn while_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let mut clauses = pair.into_inner();
        let mut it = children(clauses.next().expect("the while clause"));
        let cond = self.expr(it.next().expect("condition"))?;
        let body = self.suite(it.next().expect("body"))?;
        let orelse = self.else_suite(clauses.next())?;
        Ok(stmt(StmtKind::While { cond, body, orelse }, span))
    }

    /// The statements of an `else:` clause, if there is one.
    fn else_suite(&self, clause: Option<Pair<'_, Rule>>) -> Result1<Vec<Stmt>> {
        match clause {
            Some(c) => self.suite(children(c).next().expect("the else body")),
            None => Ok(Vec::new()),
        }
    }

    pub(crate) fn try_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let (mut body, mut handlers, mut finally) = (Vec::new(), Vec::new(), Vec::new());
        let mut orelse = Vec::new();
        for clause in pair.into_inner() {
            match clause.as_rule() {
                Rule::try_clause => body = self.suite(children(clause).next().expect("body"))?,
                Rule::else_clause => orelse = self.else_suite(Some(clause))?,
                Rule::finally_clause => {
                    finally = self.suite(children(clause).next().expect("body"))?
                }
                _ => handlers.push(self.handler(clause)?),
            }
        }
        Ok(stmt(
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            },
            span,
        ))
    }

    /// `except [classes] [as name]: body`; its span is the header up to the `:`.
    pub(crate) fn handler(&self, clause: Pair<'_, Rule>) -> Result1<Handler> {
        let start = clause.as_span().start();
        let text = clause.as_str();
        let (mut classes, mut name, mut body) = (Vec::new(), None, Vec::new());
        let mut header_end = start + text.len();
        for p in children(clause) {
            match p.as_rule() {
                Rule::expr => {
                    let e = self.expr(p)?;
                    classes = match e.kind {
                        ExprKind::Tuple(items) => items,
                        _ => vec![e],
                    };
                }
                Rule::name => name = Some(p.as_str().to_owned()),
                _ => {
                    header_end = p.as_span().start();
                    body = self.suite(p)?;
                }
            }
        }
        let header = text[..header_end - start].trim_end();
        Ok(Handler {
            classes,
            name,
            body,
            span: Span::new(start, start + header.len()),
        })
    }
}
