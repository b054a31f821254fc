//! Where `yield` is: whether a function body is a generator's, and whether a statement
//! holds a `yield` the generator must stop at (nested `def`s and lambdas are their own).

use crate::ast::*;

/// True when `body` (a `def`'s) holds a `yield` outside nested functions: calling it makes
/// a generator.
pub fn is_generator(body: &[Stmt]) -> bool {
    body.iter().any(stmt_has_yield)
}

/// True when the statement holds a `yield` outside nested functions.
pub fn stmt_has_yield(s: &Stmt) -> bool {
    let block = |b: &[Stmt]| b.iter().any(stmt_has_yield);
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Assign { value: e, .. } => expr_has_yield(e),
        StmtKind::AugAssign { value, .. } => expr_has_yield(value),
        StmtKind::AnnAssign { value, .. } => value.as_ref().is_some_and(expr_has_yield),
        StmtKind::Return(e) => e.as_ref().is_some_and(expr_has_yield),
        StmtKind::Raise(e, c) => e.iter().chain(c).any(expr_has_yield),
        StmtKind::Del(items) => items.iter().any(expr_has_yield),
        StmtKind::While { cond, body, orelse } => {
            expr_has_yield(cond) || block(body) || block(orelse)
        }
        StmtKind::For {
            iter, body, orelse, ..
        } => expr_has_yield(iter) || block(body) || block(orelse),
        StmtKind::If { cond, body, orelse } => expr_has_yield(cond) || block(body) || block(orelse),
        StmtKind::Try {
            body,
            handlers,
            orelse,
            finally,
        } => {
            block(body)
                || handlers.iter().any(|h| block(&h.body))
                || block(orelse)
                || block(finally)
        }
        StmtKind::Assert { test, msg } => {
            expr_has_yield(test) || msg.as_ref().is_some_and(expr_has_yield)
        }
        StmtKind::Match { subject, cases } => {
            expr_has_yield(subject)
                || cases
                    .iter()
                    .any(|c| block(&c.body) || c.guard.as_ref().is_some_and(expr_has_yield))
        }
        StmtKind::Def { .. }
        | StmtKind::Import { .. }
        | StmtKind::ImportAll { .. }
        | StmtKind::Pass
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Global(_)
        | StmtKind::Nonlocal(_) => false,
        #[allow(unreachable_patterns)] // statements added later hold no `yield` yet
        _ => false,
    }
}

/// True when the expression holds a `yield` outside nested lambdas.
pub fn expr_has_yield(e: &Expr) -> bool {
    let any = |items: &[Expr]| items.iter().any(expr_has_yield);
    let index = |i: &Index| match i {
        Index::Expr(e) => expr_has_yield(e),
        Index::Slice {
            start, stop, step, ..
        } => [start, stop, step]
            .into_iter()
            .any(|p| p.as_ref().is_some_and(expr_has_yield)),
    };
    let comps = |gens: &[Comprehension]| gens.first().is_some_and(|g| expr_has_yield(&g.iter));
    match &e.kind {
        ExprKind::Yield(_) | ExprKind::YieldFrom(_) => true,
        ExprKind::List(items) | ExprKind::Tuple(items) => any(items),
        ExprKind::Dict(items) => items
            .iter()
            .any(|(k, v)| k.as_ref().is_some_and(expr_has_yield) || expr_has_yield(v)),
        ExprKind::Starred(x) | ExprKind::Unary(_, x) | ExprKind::Not(x) => expr_has_yield(x),
        ExprKind::Attr(x, _) => expr_has_yield(x),
        ExprKind::Call(f, args) => {
            expr_has_yield(f) || args.iter().any(|a| expr_has_yield(&a.value))
        }
        ExprKind::Subscript(x, idx) => expr_has_yield(x) || idx.iter().any(index),
        ExprKind::Binary(_, a, b) | ExprKind::Logic(_, a, b) => {
            expr_has_yield(a) || expr_has_yield(b)
        }
        ExprKind::Walrus(_, value) => expr_has_yield(value),
        ExprKind::Compare(first, links) => {
            expr_has_yield(first) || links.iter().any(|(_, e)| expr_has_yield(e))
        }
        ExprKind::IfElse { cond, then, orelse } => {
            expr_has_yield(cond) || expr_has_yield(then) || expr_has_yield(orelse)
        }
        // Only a comprehension's first iterable runs in the enclosing function.
        ExprKind::ListComp { generators, .. }
        | ExprKind::GenExp { generators, .. }
        | ExprKind::DictComp { generators, .. } => comps(generators),
        _ => false,
    }
}
