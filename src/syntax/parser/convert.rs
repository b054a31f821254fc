//! Pest pairs to the typed AST: statements, targets, and expressions through the Pratt parser.

use std::collections::HashSet;

use super::*;

pub(super) type Result1<T> = Result<T, SyntaxError>;

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
    )
}

/// The children of a pair, without keyword tokens.
pub(super) fn children<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| !is_keyword(p.as_rule()))
}

pub(super) fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

/// One logical line: a compound statement or `;`-separated simple ones.
pub(super) fn statement(pair: Pair<'_, Rule>) -> Result1<Vec<Stmt>> {
    let mut out = Vec::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::if_stmt => out.push(if_stmt(p)?),
            Rule::for_stmt => out.push(for_stmt(p)?),
            Rule::while_stmt => out.push(while_stmt(p)?),
            Rule::try_stmt => out.push(try_stmt(p)?),
            Rule::def_stmt => out.push(def_stmt(p, None)?),
            Rule::decorated => out.push(decorated(p)?),
            _ => small_stmt(p, &mut out)?,
        }
    }
    Ok(out)
}

/// A block (nested statements) or an inline body (simple statements).
pub(super) fn suite(pair: Pair<'_, Rule>) -> Result1<Vec<Stmt>> {
    let mut out = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() == Rule::statement {
            out.extend(statement(p)?);
        } else {
            small_stmt(p, &mut out)?;
        }
    }
    Ok(out)
}

pub(super) fn small_stmt(pair: Pair<'_, Rule>, out: &mut Vec<Stmt>) -> Result1<()> {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::pass_stmt => StmtKind::Pass,
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::del_stmt => {
            let list = testlist(children(pair).next().expect("the grammar requires targets"))?;
            let items = match list {
                Expr {
                    kind: ExprKind::Tuple(items),
                    ..
                } => items,
                other => vec![other],
            };
            for e in &items {
                if !matches!(e.kind, ExprKind::Name(_) | ExprKind::Subscript(..)) {
                    return Err(SyntaxError::new("cannot delete this expression", e.span)
                        .hint("`del` takes names or subscripts (`del x`, `del items[0]`)"));
                }
            }
            StmtKind::Del(items)
        }
        Rule::return_stmt => StmtKind::Return(children(pair).next().map(testlist).transpose()?),
        Rule::raise_stmt => {
            let mut it = children(pair).map(expr);
            let value = it.next().transpose()?;
            it.next().transpose()?; // `from cause`
            StmtKind::Raise(value)
        }
        Rule::assert_stmt => {
            let mut it = children(pair).map(expr);
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
        Rule::expr_stmt => expr_stmt(pair)?,
        other => unreachable!("not a statement: {other:?}"),
    };
    out.push(stmt(kind, span));
    Ok(())
}

pub(super) fn dotted_name(pair: Pair<'_, Rule>) -> String {
    pair.into_inner()
        .map(|p| p.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

/// An expression statement or a (chained / unpacking) assignment.
pub(super) fn expr_stmt(pair: Pair<'_, Rule>) -> Result1<StmtKind> {
    let mut parts = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() == Rule::aug_assign {
            let op = p.as_str();
            let bare = &op[..op.len() - 1];
            return Err(SyntaxError::new(
                format!("augmented assignment (`{op}`) is not supported"),
                span_of(&p),
            )
            .hint(format!("write `x = x {bare} …` instead")));
        }
        parts.push(testlist(p)?);
    }
    let value = parts
        .pop()
        .ok_or_else(|| SyntaxError::new("expected an expression", Span::default()))?;
    if parts.is_empty() {
        return Ok(StmtKind::Expr(value));
    }
    let targets = parts
        .into_iter()
        .map(to_target)
        .collect::<Result1<Vec<_>>>()?;
    Ok(StmtKind::Assign { targets, value })
}

/// Reinterprets an expression left of `=` as an assignment target.
pub(super) fn to_target(e: Expr) -> Result1<Target> {
    let what = match e.kind {
        ExprKind::Name(n) => return Ok(Target::Name(n, e.span)),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            let items = items
                .into_iter()
                .map(to_target)
                .collect::<Result1<Vec<_>>>()?;
            return Ok(Target::Tuple(items, e.span));
        }
        ExprKind::Subscript(..) => "a subscript",
        ExprKind::Attr(..) => "an attribute",
        ExprKind::Call(..) => "a function call",
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Ellipsis => "a literal",
        ExprKind::Lambda(..) => "a lambda",
        ExprKind::Binary(op, ..) if op.is_comparison() => "a comparison",
        _ => "an expression",
    };
    Err(SyntaxError::new(format!("cannot assign to {what}"), e.span)
        .hint("only names and tuples or lists of names can be assigned to"))
}

pub(super) fn if_stmt(pair: Pair<'_, Rule>) -> Result1<Stmt> {
    let end = span_of(&pair).end;
    let mut clauses = Vec::new();
    let mut orelse = Vec::new();
    for clause in pair.into_inner() {
        let start = clause.as_span().start();
        let is_else = clause.as_rule() == Rule::else_clause;
        let mut it = children(clause);
        if is_else {
            orelse = it.next().map(suite).transpose()?.unwrap_or_default();
        } else {
            let cond = expr(it.next().expect("condition"))?;
            let body = suite(it.next().expect("body"))?;
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

pub(super) fn for_stmt(pair: Pair<'_, Rule>) -> Result1<Stmt> {
    let span = span_of(&pair);
    let mut it = children(pair);
    let target = target_list(it.next().expect("target"))?;
    let iter = testlist(it.next().expect("iterable"))?;
    let body = suite(it.next().expect("body"))?;
    Ok(stmt(StmtKind::For { target, iter, body }, span))
}

pub(super) fn while_stmt(pair: Pair<'_, Rule>) -> Result1<Stmt> {
    let span = span_of(&pair);
    let mut it = children(pair);
    let cond = expr(it.next().expect("condition"))?;
    let body = suite(it.next().expect("body"))?;
    Ok(stmt(StmtKind::While { cond, body }, span))
}

pub(super) fn try_stmt(pair: Pair<'_, Rule>) -> Result1<Stmt> {
    let span = span_of(&pair);
    let (mut body, mut handlers, mut finally) = (Vec::new(), Vec::new(), Vec::new());
    for clause in pair.into_inner() {
        match clause.as_rule() {
            Rule::try_clause => body = suite(children(clause).next().expect("body"))?,
            Rule::finally_clause => finally = suite(children(clause).next().expect("body"))?,
            _ => handlers.push(handler(clause)?),
        }
    }
    Ok(stmt(
        StmtKind::Try {
            body,
            handlers,
            finally,
        },
        span,
    ))
}

/// `except [classes] [as name]: body`; its span is the header up to the `:`.
pub(super) fn handler(clause: Pair<'_, Rule>) -> Result1<Handler> {
    let start = clause.as_span().start();
    let text = clause.as_str();
    let (mut classes, mut name, mut body) = (Vec::new(), None, Vec::new());
    let mut header_end = start + text.len();
    for p in children(clause) {
        match p.as_rule() {
            Rule::expr => {
                let e = expr(p)?;
                classes = match e.kind {
                    ExprKind::Tuple(items) => items,
                    _ => vec![e],
                };
            }
            Rule::name => name = Some(p.as_str().to_owned()),
            _ => {
                header_end = p.as_span().start();
                body = suite(p)?;
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

pub(super) fn def_stmt(pair: Pair<'_, Rule>, start: Option<usize>) -> Result1<Stmt> {
    let mut span = span_of(&pair);
    if let Some(start) = start {
        span.start = start;
    }
    let mut it = children(pair);
    let name = it.next().expect("name").as_str().to_owned();
    let mut params = Vec::new();
    let mut body = Vec::new();
    for p in it {
        match p.as_rule() {
            Rule::params => params = param_list(p)?,
            _ => body = suite(p)?,
        }
    }
    Ok(stmt(StmtKind::Def { name, params, body }, span))
}

/// Decorators are parsed (so errors in them are reported) and then dropped.
pub(super) fn decorated(pair: Pair<'_, Rule>) -> Result1<Stmt> {
    let start = pair.as_span().start();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::decorator => {
                expr(p.into_inner().next().expect("decorator expression"))?;
            }
            _ => return def_stmt(p, Some(start)),
        }
    }
    unreachable!("a decorated definition ends with `def`")
}

pub(super) fn param_list(pair: Pair<'_, Rule>) -> Result1<Vec<Param>> {
    let mut params: Vec<Param> = Vec::new();
    // Names seen so far, and whether one had a default: a long list stays linear.
    let mut names = HashSet::new();
    let mut defaults = false;
    for p in pair.into_inner() {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let name = it.next().expect("parameter name").as_str().to_owned();
        let default = it.next().map(expr).transpose()?;
        if !names.insert(name.clone()) {
            return Err(SyntaxError::new(
                format!("duplicate parameter `{name}`"),
                span,
            ));
        }
        defaults |= default.is_some();
        if default.is_none() && defaults {
            return Err(SyntaxError::new(
                "a parameter without a default follows one with a default",
                span,
            ));
        }
        params.push(Param { name, default });
    }
    Ok(params)
}

// ------------------------------------------------------------------------------------------
// Targets.

/// `a`, `a, b`, `(a, (b, c))`, `[a, b]`.
pub(super) fn target_list(pair: Pair<'_, Rule>) -> Result1<Target> {
    let span = span_of(&pair);
    let (mut items, comma) = target_items(pair)?;
    if items.len() == 1 && !comma {
        return Ok(items.pop().expect("one target"));
    }
    Ok(Target::Tuple(items, span))
}

pub(super) fn target_items(pair: Pair<'_, Rule>) -> Result1<(Vec<Target>, bool)> {
    let mut items = Vec::new();
    let mut comma = false;
    for p in pair.into_inner() {
        let span = span_of(&p);
        match p.as_rule() {
            Rule::name => items.push(Target::Name(p.as_str().to_owned(), span)),
            Rule::trailing_comma => comma = true,
            Rule::target_paren => {
                items.push(match p.into_inner().next() {
                    None => Target::Tuple(Vec::new(), span),
                    Some(list) => match target_list(list)? {
                        Target::Name(n, _) => Target::Name(n, span),
                        Target::Tuple(t, _) => Target::Tuple(t, span),
                    },
                });
            }
            _ => {
                let inner = match p.into_inner().next() {
                    None => Vec::new(),
                    Some(list) => target_items(list)?.0,
                };
                items.push(Target::Tuple(inner, span));
            }
        }
    }
    Ok((items, comma))
}

// ------------------------------------------------------------------------------------------
// Expressions.

/// Operator precedence, lowest first (Python's).
pub(super) static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Assoc::{Left, Right};
    use Rule as R;
    PrattParser::new()
        .op(Op::infix(R::op_or, Left))
        .op(Op::infix(R::op_and, Left))
        .op(Op::prefix(R::op_not))
        .op(Op::infix(R::op_eq, Left)
            | Op::infix(R::op_ne, Left)
            | Op::infix(R::op_lt, Left)
            | Op::infix(R::op_le, Left)
            | Op::infix(R::op_gt, Left)
            | Op::infix(R::op_ge, Left)
            | Op::infix(R::op_in, Left)
            | Op::infix(R::op_not_in, Left)
            | Op::infix(R::op_is, Left)
            | Op::infix(R::op_is_not, Left))
        .op(Op::infix(R::op_bitor, Left))
        .op(Op::infix(R::op_bitxor, Left))
        .op(Op::infix(R::op_bitand, Left))
        .op(Op::infix(R::op_add, Left) | Op::infix(R::op_sub, Left))
        .op(Op::infix(R::op_mul, Left)
            | Op::infix(R::op_div, Left)
            | Op::infix(R::op_floordiv, Left)
            | Op::infix(R::op_mod, Left)
            | Op::infix(R::op_matmul, Left))
        .op(Op::prefix(R::op_neg) | Op::prefix(R::op_pos) | Op::prefix(R::op_invert))
        .op(Op::infix(R::op_pow, Right))
});

pub(super) fn binop(rule: Rule) -> Option<BinOp> {
    use Rule as R;
    Some(match rule {
        R::op_add => BinOp::Add,
        R::op_sub => BinOp::Sub,
        R::op_mul => BinOp::Mul,
        R::op_div => BinOp::Div,
        R::op_floordiv => BinOp::FloorDiv,
        R::op_mod => BinOp::Mod,
        R::op_pow => BinOp::Pow,
        R::op_matmul => BinOp::MatMul,
        R::op_bitand => BinOp::BitAnd,
        R::op_bitor => BinOp::BitOr,
        R::op_bitxor => BinOp::BitXor,
        R::op_eq => BinOp::Eq,
        R::op_ne => BinOp::Ne,
        R::op_lt => BinOp::Lt,
        R::op_le => BinOp::Le,
        R::op_gt => BinOp::Gt,
        R::op_ge => BinOp::Ge,
        R::op_in => BinOp::In,
        R::op_not_in => BinOp::NotIn,
        R::op_is => BinOp::Is,
        R::op_is_not => BinOp::IsNot,
        _ => return None,
    })
}

/// A Pratt operand: the expression, the right operand of a trailing comparison (to chain
/// `a < b < c`), and whether it is an unparenthesised `not …`.
pub(super) struct Operand {
    pub(super) expr: Expr,
    pub(super) cmp_tail: Option<Expr>,
    pub(super) bare_not: bool,
}

impl Operand {
    fn plain(expr: Expr) -> Self {
        Operand {
            expr,
            cmp_tail: None,
            bare_not: false,
        }
    }
}

pub(super) fn boxed(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

/// `not x` cannot be an operand of a tighter operator without parentheses (as in Python).
pub(super) fn reject_bare_not(operand: &Operand) -> Result1<()> {
    if operand.bare_not {
        let s = operand.expr.span;
        return Err(SyntaxError::new(
            "expected an expression, found `not`",
            Span::new(s.start, s.start + 3),
        )
        .hint("put `not …` in parentheses"));
    }
    Ok(())
}

pub(super) fn or_test(pair: Pair<'_, Rule>) -> Result1<Expr> {
    let mut inner = pair.clone().into_inner();
    if let (Some(only), None) = (inner.next(), inner.next()) {
        // A lone operand: skip the Pratt machinery (keeps deep nesting cheap on the stack).
        return primary(only);
    }
    check_chain(&pair)?;
    // Each operator (prefix or infix) can add a level to the tree.
    let operators = pair
        .clone()
        .into_inner()
        .filter(|p| p.as_rule() != Rule::primary)
        .count();
    let _depth = DepthGuard::enter(operators, &pair)?;
    pratt(pair)
}

/// Resolves operator precedence and builds the operator nodes.
pub(super) fn pratt(pair: Pair<'_, Rule>) -> Result1<Expr> {
    PRATT
        .map_primary(|p| primary(p).map(Operand::plain))
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = Span::new(op.as_span().start(), rhs.expr.span.end);
            if op.as_rule() == Rule::op_not {
                let e = boxed(ExprKind::Not(Box::new(rhs.expr)), span);
                return Ok(Operand {
                    expr: e,
                    cmp_tail: None,
                    bare_not: true,
                });
            }
            reject_bare_not(&rhs)?;
            let uop = match op.as_rule() {
                Rule::op_neg => UnaryOp::Neg,
                Rule::op_pos => UnaryOp::Pos,
                _ => UnaryOp::Invert,
            };
            Ok(Operand::plain(boxed(
                ExprKind::Unary(uop, Box::new(rhs.expr)),
                span,
            )))
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            let span = lhs.expr.span.to(rhs.expr.span);
            let logic = match op.as_rule() {
                Rule::op_and => Some(LogicOp::And),
                Rule::op_or => Some(LogicOp::Or),
                _ => None,
            };
            if let Some(l) = logic {
                let e = ExprKind::Logic(l, Box::new(lhs.expr), Box::new(rhs.expr));
                return Ok(Operand::plain(boxed(e, span)));
            }
            reject_bare_not(&lhs)?;
            reject_bare_not(&rhs)?;
            let bop = binop(op.as_rule()).expect("an infix operator");
            let is_cmp = bop.is_comparison()
                || matches!(bop, BinOp::In | BinOp::NotIn | BinOp::Is | BinOp::IsNot);
            if !is_cmp {
                let e = ExprKind::Binary(bop, Box::new(lhs.expr), Box::new(rhs.expr));
                return Ok(Operand::plain(boxed(e, span)));
            }
            let tail = rhs.expr.clone();
            let e = match lhs.cmp_tail {
                // `a < b < c` is `a < b and b < c`.
                Some(prev) => {
                    let link_span = prev.span.to(rhs.expr.span);
                    let link = boxed(
                        ExprKind::Binary(bop, Box::new(prev), Box::new(rhs.expr)),
                        link_span,
                    );
                    ExprKind::Logic(LogicOp::And, Box::new(lhs.expr), Box::new(link))
                }
                None => ExprKind::Binary(bop, Box::new(lhs.expr), Box::new(rhs.expr)),
            };
            Ok(Operand {
                expr: boxed(e, span),
                cmp_tail: Some(tail),
                bare_not: false,
            })
        })
        .parse(pair.into_inner())
        .map(|o| o.expr)
}

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

thread_local! {
    /// The depth (in [`MAX_DEPTH`]'s units) of the expression being converted on this thread.
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Adds to this thread's expression depth while alive; fails past [`MAX_DEPTH`].
pub(super) struct DepthGuard(usize);

impl DepthGuard {
    fn enter(levels: usize, pair: &Pair<'_, Rule>) -> Result1<DepthGuard> {
        let depth = DEPTH.with(|d| d.get());
        if depth + levels > MAX_DEPTH {
            let start = pair.as_span().start();
            return Err(SyntaxError::new(
                "expression nested too deeply",
                Span::new(start, start),
            ));
        }
        DEPTH.with(|d| d.set(depth + levels));
        Ok(DepthGuard(levels))
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(self.0)));
    }
}

/// Fails when a chain of operators or trailers is too long to convert safely.
pub(super) fn check_chain(pair: &Pair<'_, Rule>) -> Result1<()> {
    if pair.clone().into_inner().count() > 2 * MAX_CHAIN + 1 {
        let span = span_of(pair);
        return Err(SyntaxError::new(
            "expression too long: split it into several statements",
            span,
        ));
    }
    Ok(())
}

/// Python's `test`: a lambda, or an operator expression with an optional `if … else …`.
pub(super) fn expr(pair: Pair<'_, Rule>) -> Result1<Expr> {
    let _depth = DepthGuard::enter(1, &pair)?;
    let span = span_of(&pair);
    let mut it = children(pair);
    let first = it.next().expect("an expression");
    if first.as_rule() == Rule::lambda_expr {
        return lambda(first);
    }
    let then = or_test(first)?;
    match (it.next(), it.next()) {
        (Some(cond), Some(orelse)) => {
            let cond = Box::new(or_test(cond)?);
            let orelse = Box::new(expr(orelse)?);
            Ok(boxed(
                ExprKind::IfElse {
                    cond,
                    then: Box::new(then),
                    orelse,
                },
                span,
            ))
        }
        _ => Ok(then),
    }
}

pub(super) fn lambda(pair: Pair<'_, Rule>) -> Result1<Expr> {
    let span = span_of(&pair);
    let mut params = Vec::new();
    let mut body = None;
    for p in children(pair) {
        match p.as_rule() {
            Rule::params => params = param_list(p)?,
            _ => body = Some(expr(p)?),
        }
    }
    Ok(boxed(
        ExprKind::Lambda(params, Box::new(body.expect("lambda body"))),
        span,
    ))
}

/// `a` or `a, b` (a tuple); a trailing comma makes a tuple too.
pub(super) fn testlist(pair: Pair<'_, Rule>) -> Result1<Expr> {
    let span = span_of(&pair);
    let (mut items, comma) = expr_items(pair)?;
    if items.len() == 1 && !comma {
        return Ok(items.pop().expect("one expression"));
    }
    Ok(boxed(ExprKind::Tuple(items), span))
}

/// The expressions among a pair's children, and whether a trailing comma was seen.
pub(super) fn expr_items(pair: Pair<'_, Rule>) -> Result1<(Vec<Expr>, bool)> {
    let mut items = Vec::new();
    let mut comma = false;
    for p in pair.into_inner() {
        if p.as_rule() == Rule::trailing_comma {
            comma = true;
        } else {
            items.push(expr(p)?);
        }
    }
    Ok((items, comma))
}

/// An atom followed by calls, attribute accesses and subscripts.
pub(super) fn primary(pair: Pair<'_, Rule>) -> Result1<Expr> {
    check_chain(&pair)?;
    let mut it = pair.clone().into_inner();
    let first = it.next().expect("an atom");
    match it.peek() {
        None => atom(first),
        Some(_) => {
            // Each trailer adds a level to the tree.
            let _depth = DepthGuard::enter(it.len(), &pair)?;
            trailers(atom(first)?, it)
        }
    }
}

/// Applies calls, attribute accesses and subscripts to `e`, left to right.
pub(super) fn trailers(mut e: Expr, it: Pairs<'_>) -> Result1<Expr> {
    for t in it {
        let span = Span::new(e.span.start, span_of(&t).end);
        let kind = match t.as_rule() {
            Rule::call => ExprKind::Call(Box::new(e), call_args(t)?),
            Rule::attribute => {
                let name = t
                    .into_inner()
                    .next()
                    .expect("attribute name")
                    .as_str()
                    .to_owned();
                ExprKind::Attr(Box::new(e), name)
            }
            _ => {
                let items = t
                    .into_inner()
                    .map(index_item)
                    .collect::<Result1<Vec<_>>>()?;
                ExprKind::Subscript(Box::new(e), items)
            }
        };
        e = boxed(kind, span);
    }
    Ok(e)
}

pub(super) fn call_args(pair: Pair<'_, Rule>) -> Result1<Vec<Arg>> {
    let mut args: Vec<Arg> = Vec::new();
    // Keyword names seen so far: one lookup per argument keeps a long call linear.
    let mut keywords = HashSet::new();
    for p in pair.into_inner() {
        let span = span_of(&p);
        let arg = match p.as_rule() {
            Rule::star_arg => {
                let value = expr(p.into_inner().next().expect("starred value"))?;
                Arg {
                    name: None,
                    value,
                    star: true,
                }
            }
            Rule::kwarg => {
                let mut it = p.into_inner();
                let name = it.next().expect("keyword").as_str().to_owned();
                if !keywords.insert(name.clone()) {
                    return Err(SyntaxError::new(
                        format!("keyword argument repeated: `{name}`"),
                        span,
                    ));
                }
                Arg {
                    name: Some(name),
                    value: expr(it.next().expect("keyword value"))?,
                    star: false,
                }
            }
            _ => {
                if !keywords.is_empty() {
                    return Err(SyntaxError::new(
                        "positional argument follows keyword argument",
                        span,
                    ));
                }
                Arg {
                    name: None,
                    value: expr(p)?,
                    star: false,
                }
            }
        };
        args.push(arg);
    }
    Ok(args)
}

/// One part of a subscript: an expression or a slice `start:stop:step`.
pub(super) fn index_item(pair: Pair<'_, Rule>) -> Result1<Index> {
    let span = span_of(&pair);
    let (mut start, mut stop, mut step) = (None, None, None);
    let mut slice = false;
    for p in pair.into_inner() {
        if p.as_rule() == Rule::expr {
            start = Some(expr(p)?);
            continue;
        }
        slice = true;
        for part in p.into_inner() {
            let value = part.as_rule();
            let e = part.into_inner().next().map(expr).transpose()?;
            if value == Rule::slice_stop {
                stop = e;
            } else {
                step = e;
            }
        }
    }
    match (slice, start) {
        (false, Some(e)) => Ok(Index::Expr(e)),
        (_, start) => Ok(Index::Slice {
            start,
            stop,
            step,
            span,
        }),
    }
}

pub(super) fn atom(pair: Pair<'_, Rule>) -> Result1<Expr> {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::paren => return paren(pair, span),
        Rule::literal_block => return literal_block(pair.as_str(), span.start),
        Rule::literal_ref => return super::literals::expand(span.start),
        Rule::list_display => list_display(pair)?,
        Rule::dict_display => dict_display(pair)?,
        Rule::strings => strings(pair)?,
        Rule::ellipsis => ExprKind::Ellipsis,
        Rule::float => float_literal(pair.as_str(), span)?,
        Rule::int => ExprKind::Int(int_literal(pair.as_str(), span)?),
        Rule::const_true => ExprKind::Bool(true),
        Rule::const_false => ExprKind::Bool(false),
        Rule::const_none => ExprKind::None,
        _ => ExprKind::Name(pair.as_str().to_owned()),
    };
    Ok(boxed(kind, span))
}

/// `()`, `(a,)`, `(a, b)`: tuples; `(a)` is `a` (its span widened to the parentheses).
pub(super) fn paren(pair: Pair<'_, Rule>, span: Span) -> Result1<Expr> {
    let (mut items, comma) = expr_items(pair)?;
    if items.len() == 1 && !comma {
        let mut inner = items.pop().expect("one expression");
        inner.span = span;
        return Ok(inner);
    }
    Ok(boxed(ExprKind::Tuple(items), span))
}

pub(super) fn dict_display(pair: Pair<'_, Rule>) -> Result1<ExprKind> {
    let mut entries = Vec::new();
    for item in pair.into_inner() {
        let mut kv = item.into_inner();
        let k = expr(kv.next().expect("key"))?;
        let v = expr(kv.next().expect("value"))?;
        entries.push((k, v));
    }
    Ok(ExprKind::Dict(entries))
}

/// Adjacent string literals, joined.
pub(super) fn strings(pair: Pair<'_, Rule>) -> Result1<ExprKind> {
    let mut s = String::new();
    for lit in pair.into_inner() {
        s.push_str(&string_literal(lit.as_str(), span_of(&lit))?);
    }
    Ok(ExprKind::Str(s))
}

pub(super) fn float_literal(text: &str, span: Span) -> Result1<ExprKind> {
    let digits = text.replace('_', "");
    let value = digits
        .parse()
        .map_err(|_| SyntaxError::new("invalid float literal", span))?;
    Ok(ExprKind::Float(value))
}

/// A `literal_block` token: nested lists of numbers and strings, scanned directly (the
/// grammar has already checked its form). Gives the same tree as `list_display` would.
pub(super) fn literal_block(text: &str, base: usize) -> Result1<Expr> {
    let mut scan = LiteralScan {
        b: text.as_bytes(),
        text,
        base,
        i: 0,
    };
    scan.list()
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
    fn list(&mut self) -> Result1<Expr> {
        let start = self.i;
        self.i += 1; // '['
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.b.get(self.i) {
                None | Some(b']') => break,
                Some(b'[') => items.push(self.list()?),
                Some(b'-') => {
                    let minus = self.i;
                    self.i += 1;
                    let operand = self.number()?;
                    items.push(boxed(
                        ExprKind::Unary(UnaryOp::Neg, Box::new(operand)),
                        self.span(minus),
                    ));
                }
                Some(c) if c.is_ascii_digit() || *c == b'.' => items.push(self.number()?),
                Some(_) => items.push(self.string()?),
            }
        }
        self.i += 1; // ']'
        Ok(boxed(ExprKind::List(items), self.span(start)))
    }
    fn number(&mut self) -> Result1<Expr> {
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
        Ok(boxed(kind, span))
    }
    fn string(&mut self) -> Result1<Expr> {
        let start = self.i;
        let unterminated =
            |s: &Self| SyntaxError::new("unterminated string literal", s.span(start));
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
        Ok(boxed(ExprKind::Str(value), span))
    }
}

/// `[a, b]` or `[elt for target in iter if cond …]`.
pub(super) fn list_display(pair: Pair<'_, Rule>) -> Result1<ExprKind> {
    let mut items = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() != Rule::comp_for {
            items.push(expr(p)?);
            continue;
        }
        let mut it = children(p);
        let target = target_list(it.next().expect("comprehension target"))?;
        let iter = Box::new(or_test(it.next().expect("comprehension iterable"))?);
        let conds = it
            .map(|c| or_test(children(c).next().expect("condition")))
            .collect::<Result1<Vec<_>>>()?;
        let elt = Box::new(items.pop().expect("comprehension element"));
        return Ok(ExprKind::ListComp {
            elt,
            target,
            iter,
            conds,
        });
    }
    Ok(ExprKind::List(items))
}

pub(super) fn int_literal(text: &str, span: Span) -> Result1<i64> {
    let digits = text.replace('_', "");
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = match lower.get(..2) {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits.as_str()),
    };
    i64::from_str_radix(body, radix).map_err(|_| {
        SyntaxError::new("integer literal is too large", span).hint(format!(
            "integers must lie between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    })
}

/// The value of one string literal: prefix, quotes and escapes resolved.
pub(super) fn string_literal(text: &str, span: Span) -> Result1<String> {
    let quote = text.find(['\'', '"']).unwrap_or(0);
    let prefix = text[..quote].to_ascii_lowercase();
    if prefix.contains('f') {
        return Err(SyntaxError::new("f-strings are not supported", span)
            .hint("use \"…{}…\".format(value) instead"));
    }
    let rest = &text[quote..];
    let q = if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let body = rest[q..rest.len() - q].replace("\r\n", "\n");
    if prefix.contains('r') {
        return Ok(body);
    }
    unescape(&body).map_err(|m| SyntaxError::new(m, span))
}

/// Resolves backslash escapes the way Python does (unknown escapes are kept as written).
pub(super) fn unescape(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0C'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0B'),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(value).unwrap_or('\u{FFFD}'));
            }
            'x' | 'u' | 'U' => {
                let len = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = (0..len)
                    .filter_map(|_| chars.next_if(|d| d.is_ascii_hexdigit()))
                    .collect();
                let value = if hex.len() == len {
                    u32::from_str_radix(&hex, 16).ok()
                } else {
                    None
                };
                match value.and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => return Err(format!("invalid `\\{e}` escape in string literal")),
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}
