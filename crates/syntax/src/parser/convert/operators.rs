//! Operator expressions to the AST: precedence by one Pratt parser, unary and binary
//! operators, chained comparisons (`a < b < c`) and the rule that a bare `not` needs
//! parentheses as an operand.

use super::*;

/// Operator precedence, lowest first (Python's).
pub(crate) static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
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
        .op(Op::infix(R::op_lshift, Left) | Op::infix(R::op_rshift, Left))
        .op(Op::infix(R::op_add, Left) | Op::infix(R::op_sub, Left))
        .op(Op::infix(R::op_mul, Left)
            | Op::infix(R::op_div, Left)
            | Op::infix(R::op_floordiv, Left)
            | Op::infix(R::op_mod, Left)
            | Op::infix(R::op_matmul, Left))
        .op(Op::prefix(R::op_neg) | Op::prefix(R::op_pos) | Op::prefix(R::op_invert))
        .op(Op::infix(R::op_pow, Right))
});

pub(crate) fn binop(rule: Rule) -> Option<BinOp> {
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
        R::op_lshift => BinOp::LShift,
        R::op_rshift => BinOp::RShift,
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

/// A Pratt operand: the expression, whether it is an unparenthesised comparison (another
/// comparison after it chains: `a < b < c`), and whether it is an unparenthesised `not …`.
pub(crate) struct Operand {
    pub(crate) expr: Expr,
    pub(crate) compared: bool,
    pub(crate) bare_not: bool,
}

impl Operand {
    fn plain(expr: Expr) -> Self {
        Operand {
            expr,
            compared: false,
            bare_not: false,
        }
    }
}

/// `not x` cannot be an operand of a tighter operator without parentheses (as in Python).
pub(crate) fn reject_bare_not(operand: &Operand) -> Result1<()> {
    if operand.bare_not {
        let s = operand.expr.span;
        return Err(SyntaxError::new(
            SyntaxErrorKind::BareNot,
            "expected an expression, found `not`",
            Span::new(s.start, s.start + 3),
        )
        .hint("put `not …` in parentheses"));
    }
    Ok(())
}

impl Converter<'_> {
    pub(crate) fn or_test(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let mut inner = pair.clone().into_inner();
        if let (Some(only), None) = (inner.next(), inner.next()) {
            // A lone operand: skip the Pratt machinery (keeps deep nesting cheap on the stack).
            return self.primary(only);
        }
        check_chain(&pair)?;
        // Each operator (prefix or infix) can add a level to the tree.
        let operators = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() != Rule::primary)
            .count();
        let _depth = self.enter(operators, &pair)?;
        self.pratt(pair)
    }

    /// Resolves operator precedence and builds the operator nodes.
    pub(crate) fn pratt(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        PRATT
            .map_primary(|p| self.primary(p).map(Operand::plain))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = Span::new(op.as_span().start(), rhs.expr.span.end);
                if op.as_rule() == Rule::op_not {
                    let e = boxed(ExprKind::Not(Box::new(rhs.expr)), span);
                    return Ok(Operand {
                        expr: e,
                        compared: false,
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
                let e = match (lhs.compared, lhs.expr.kind) {
                    // `a < b < c`: one chain, `b` evaluated once.
                    (true, ExprKind::Binary(op0, a, b)) => {
                        ExprKind::Compare(a, vec![(op0, *b), (bop, rhs.expr)])
                    }
                    (true, ExprKind::Compare(a, mut links)) => {
                        links.push((bop, rhs.expr));
                        ExprKind::Compare(a, links)
                    }
                    (_, kind) => ExprKind::Binary(
                        bop,
                        Box::new(Expr {
                            kind,
                            span: lhs.expr.span,
                        }),
                        Box::new(rhs.expr),
                    ),
                };
                Ok(Operand {
                    expr: boxed(e, span),
                    compared: true,
                    bare_not: false,
                })
            })
            .parse(pair.into_inner())
            .map(|o| o.expr)
    }
}
