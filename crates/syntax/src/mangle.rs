//! Private name mangling, as CPython's compiler does it: inside a class body, a name
//! `__spam` (two leading underscores, not two trailing) becomes `_Class__spam` wherever it
//! is an identifier — a variable, an attribute (`self.__spam`), a parameter, a keyword
//! argument, a `def`, a `class`, a `global` — in the class's methods, lambdas,
//! comprehensions and nested functions too. A nested class mangles its own body with its
//! own name first; the names it produced no longer start with `__`.

use crate::ast::*;
use crate::ident::Ident;

/// Mangles the identifiers of `body`, the body of class `class`.
pub fn class_body(class: &str, body: &mut [Stmt]) {
    let stripped = class.trim_start_matches('_');
    if stripped.is_empty() {
        return;
    }
    let m = Mangler { class: stripped };
    m.stmts(body);
}

struct Mangler<'a> {
    class: &'a str,
}

/// Whether `name` is private to its class.
fn private(name: &str) -> bool {
    name.starts_with("__") && !name.ends_with("__") && !name.contains('.')
}

impl Mangler<'_> {
    fn name(&self, name: &mut String) {
        if private(name) {
            *name = format!("_{}{}", self.class, name);
        }
    }

    fn ident(&self, name: &mut Ident) {
        if private(name.as_str()) {
            *name = Ident::new(format!("_{}{}", self.class, name.as_str()));
        }
    }

    fn stmts(&self, body: &mut [Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Assign { targets, value } => {
                targets.iter_mut().for_each(|t| self.target(t));
                self.expr(value);
            }
            StmtKind::Import { .. }
            | StmtKind::ImportAll { .. }
            | StmtKind::Pass
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return(None) => {}
            StmtKind::Del(es) => es.iter_mut().for_each(|e| self.expr(e)),
            StmtKind::While { cond, body, orelse } | StmtKind::If { cond, body, orelse } => {
                self.expr(cond);
                self.stmts(body);
                self.stmts(orelse);
            }
            StmtKind::Def {
                name,
                params,
                body,
                returns,
            } => {
                self.name(name);
                self.params(params);
                self.stmts(body);
                if let Some(r) = returns {
                    self.expr(r);
                }
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            } => {
                self.stmts(body);
                for h in handlers {
                    h.classes.iter_mut().for_each(|e| self.expr(e));
                    if let Some(n) = &mut h.name {
                        self.name(n);
                    }
                    self.stmts(&mut h.body);
                }
                self.stmts(orelse);
                self.stmts(finally);
            }
            StmtKind::Raise(e, cause) => {
                e.iter_mut()
                    .chain(cause.iter_mut())
                    .for_each(|e| self.expr(e));
            }
            StmtKind::Assert { test, msg } => {
                self.expr(test);
                if let Some(m) = msg {
                    self.expr(m);
                }
            }
            StmtKind::AugAssign { target, value, .. } => {
                self.target(target);
                self.expr(value);
            }
            StmtKind::Global(names) | StmtKind::Nonlocal(names) => {
                names.iter_mut().for_each(|n| self.name(n));
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => {
                self.target(target);
                self.expr(iter);
                self.stmts(body);
                self.stmts(orelse);
            }
            // The nested class's body was mangled with its own name already.
            StmtKind::Class { name, bases, .. } => {
                self.name(name);
                self.args(bases);
            }
            StmtKind::With { items, body } => {
                for (e, t) in items {
                    self.expr(e);
                    if let Some(t) = t {
                        self.target(t);
                    }
                }
                self.stmts(body);
            }
            StmtKind::Decorated { decorators, def } => {
                decorators.iter_mut().for_each(|e| self.expr(e));
                self.stmt(def);
            }
            StmtKind::Match { subject, cases } => {
                self.expr(subject);
                for c in cases {
                    if let Some(g) = &mut c.guard {
                        self.expr(g);
                    }
                    self.stmts(&mut c.body);
                }
            }
            StmtKind::AnnAssign {
                target,
                annotation,
                value,
                ..
            } => {
                self.target(target);
                self.expr(annotation);
                if let Some(v) = value {
                    self.expr(v);
                }
            }
        }
    }

    fn target(&self, t: &mut Target) {
        match t {
            Target::Name(n, _) => self.ident(n),
            Target::Tuple(ts, _) => ts.iter_mut().for_each(|t| self.target(t)),
            Target::Subscript(e, index, _) => {
                self.expr(e);
                self.indexes(index);
            }
            Target::Attr(e, name, _) => {
                self.expr(e);
                self.name(name);
            }
            Target::Starred(t, _) => self.target(t),
        }
    }

    fn params(&self, params: &mut [Param]) {
        for p in params {
            self.name(&mut p.name);
            if let Some(d) = &mut p.default {
                self.expr(d);
            }
            if let Some(a) = &mut p.annotation {
                self.expr(a);
            }
        }
    }

    fn args(&self, args: &mut [Arg]) {
        for a in args {
            if let Some(n) = &mut a.name {
                self.name(n);
            }
            self.expr(&mut a.value);
        }
    }

    fn indexes(&self, index: &mut [Index]) {
        for i in index {
            match i {
                Index::Expr(e) => self.expr(e),
                Index::Slice {
                    start, stop, step, ..
                } => {
                    for e in [start, stop, step].into_iter().flatten() {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn comps(&self, generators: &mut [Comprehension]) {
        for g in generators {
            self.target(&mut g.target);
            self.expr(&mut g.iter);
            g.conds.iter_mut().for_each(|e| self.expr(e));
        }
    }

    fn fparts(&self, parts: &mut [FPart]) {
        for p in parts {
            if let FPart::Field(f) = p {
                self.expr(&mut f.expr);
                self.fparts(&mut f.spec);
            }
        }
    }

    fn expr(&self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Ellipsis
            | ExprKind::Data(_)
            | ExprKind::BigInt(_)
            | ExprKind::Bytes(_) => {}
            ExprKind::FString(parts) => self.fparts(parts),
            ExprKind::Name(n) => self.ident(n),
            ExprKind::List(es) | ExprKind::Tuple(es) | ExprKind::Set(es) => {
                es.iter_mut().for_each(|e| self.expr(e));
            }
            ExprKind::Dict(items) => {
                for (k, v) in items {
                    if let Some(k) = k {
                        self.expr(k);
                    }
                    self.expr(v);
                }
            }
            ExprKind::Starred(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Not(x)
            | ExprKind::YieldFrom(x)
            | ExprKind::Yield(Some(x)) => self.expr(x),
            ExprKind::Yield(None) => {}
            ExprKind::Attr(x, name) => {
                self.expr(x);
                self.name(name);
            }
            ExprKind::Call(f, args) => {
                self.expr(f);
                self.args(args);
            }
            ExprKind::Subscript(x, index) => {
                self.expr(x);
                self.indexes(index);
            }
            ExprKind::Binary(_, a, b) | ExprKind::Logic(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Compare(first, rest) => {
                self.expr(first);
                rest.iter_mut().for_each(|(_, e)| self.expr(e));
            }
            ExprKind::Walrus(n, v) => {
                self.ident(n);
                self.expr(v);
            }
            ExprKind::Lambda(params, body) => {
                self.params(params);
                self.expr(body);
            }
            ExprKind::IfElse { cond, then, orelse } => {
                self.expr(cond);
                self.expr(then);
                self.expr(orelse);
            }
            ExprKind::ListComp { elt, generators }
            | ExprKind::GenExp { elt, generators }
            | ExprKind::SetComp { elt, generators } => {
                self.expr(elt);
                self.comps(generators);
            }
            ExprKind::DictComp {
                key,
                value,
                generators,
            } => {
                self.expr(key);
                self.expr(value);
                self.comps(generators);
            }
        }
    }
}
