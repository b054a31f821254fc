//! Annotated assignments to the AST: `x: int`, `x: int = 0`, `obj.a: T = v`, `d[k]: T`.

use super::stmt::to_target;
use super::*;

impl Converter<'_> {
    /// `target: annotation [= value]`, after the target's expression. The target is one name,
    /// attribute or subscript (CPython's messages otherwise).
    pub(crate) fn ann_assign(&self, target: Expr, pair: Pair<'_, Rule>) -> Result1<StmtKind> {
        let start = span_of(&pair).start;
        let mut it = pair.into_inner();
        let annotation = self.expr(it.nth(1).expect("an annotation"))?;
        let value = match it.next() {
            Some(p) if p.as_rule() == Rule::yield_expr => Some(self.yield_expr(p)?),
            Some(p) => Some(super::expr::not_starred(self.testlist(p)?)?),
            None => None,
        };
        let what = match &target.kind {
            ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Subscript(..) => None,
            ExprKind::Tuple(_) => Some("only single target (not tuple) can be annotated"),
            ExprKind::List(_) | ExprKind::Data(_) => {
                Some("only single target (not list) can be annotated")
            }
            _ => Some("illegal target for annotation"),
        };
        if let Some(msg) = what {
            return Err(SyntaxError::new(
                SyntaxErrorKind::CannotAssign,
                msg,
                target.span,
            ));
        }
        // `(x): int` is not simple: it is not recorded in `__annotations__`.
        let written = self.text.get(target.span.start..start).unwrap_or("");
        let simple = matches!(target.kind, ExprKind::Name(_)) && !written.starts_with('(');
        Ok(StmtKind::AnnAssign {
            target: to_target(target)?,
            annotation,
            value,
            simple,
        })
    }
}
