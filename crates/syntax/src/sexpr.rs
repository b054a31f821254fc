//! S-expression rendering of the AST, for snapshot tests and the REPL's `:ast` command.
//!
//! Expressions: `(+ a b)`, `(- x)`, `(not x)`, `(and a b)`, `(not-in a b)`, `(is-not a b)`,
//! `(call f 1 (kw axis 0) (star xs))`, `(. obj name)`, `(subscript x 0 (slice 1 _ 2))`,
//! `(list 1 2)`, `(tuple 1 2)`, `(dict (k v) …)`, `(lambda (x (= y 2)) body)`,
//! `(if cond then else)`, `(listcomp elt (for x xs) (if c) (for y ys))`, `(dictcomp k v (for …))`,
//! `(genexp elt (for …))`, `(set 1 2)`, `(setcomp elt (for …))`,
//! `(f "x=" (field x (conv r) (spec ">" (field w))))` for f-strings; literals print as written
//! (`"s"`, `1`, `2.5`, `True`, `None`, `...`).
//!
//! Statements: `(= t1 t2 value)`, `(+= x value)`, `(import m)` / `(import m as a)`, `(pass)`, `(return x)`,
//! `(raise x)`, `(def f (params…) stmt…)` (`(def f ((: a int) (= (: b str) "x")) (-> bool) …)`
//! with annotations), `(: x int)` / `(: x int 0)` for annotated assignments, `(if cond (body…) (else…))`,
//! `(for target iter stmt…)`, `(try (body…) (except (classes…) name stmt…) (finally stmt…))`.

use ragtag_engine::literal::{Leaf, Nested};

use super::ast::{
    Arg, BinOp, Comprehension, Expr, ExprKind, FPart, Index, LogicOp, Param, ParamKind, Program,
    Stmt, StmtKind, Target,
};

/// A scanned data block, printed as the list display it was written as.
fn nested(n: &Nested) -> String {
    let negative = |v: String| match v.strip_prefix('-') {
        Some(abs) => format!("(- {abs})"),
        None => v,
    };
    match n {
        Nested::List(items) => form("list", items.iter().map(nested)),
        Nested::Leaf(Leaf::Int(i)) => negative(i.to_string()),
        Nested::Leaf(Leaf::Float(f)) => negative(format!("{f:?}")),
        Nested::Leaf(Leaf::Str(b)) => format!("{:?}", String::from_utf8_lossy(b)),
        Nested::Leaf(Leaf::Bool(b)) => if *b { "True" } else { "False" }.into(),
        Nested::Leaf(Leaf::Typed(s)) => format!("{s:?}"),
    }
}

/// One line per top-level statement.
pub fn program_to_sexpr(program: &Program) -> String {
    program.body.iter().map(stmt).collect::<Vec<_>>().join("\n")
}

/// The S-expression of one expression.
pub fn expr_to_sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Float(f) => format!("{f:?}"),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::FString(parts) => form("f", parts.iter().map(fpart)),
        ExprKind::Bool(true) => "True".into(),
        ExprKind::Bool(false) => "False".into(),
        ExprKind::None => "None".into(),
        ExprKind::Ellipsis => "...".into(),
        ExprKind::Name(n) => n.to_string(),
        ExprKind::List(items) => form("list", items.iter().map(expr_to_sexpr)),
        ExprKind::Data(n) => nested(n),
        ExprKind::Tuple(items) => form("tuple", items.iter().map(expr_to_sexpr)),
        ExprKind::Dict(entries) => form(
            "dict",
            entries.iter().map(|(k, v)| match k {
                Some(k) => format!("({} {})", expr_to_sexpr(k), expr_to_sexpr(v)),
                None => format!("(** {})", expr_to_sexpr(v)),
            }),
        ),
        ExprKind::Starred(x) => format!("(* {})", expr_to_sexpr(x)),
        ExprKind::Attr(obj, name) => format!("(. {} {name})", expr_to_sexpr(obj)),
        ExprKind::Call(f, args) => form(
            "call",
            std::iter::once(expr_to_sexpr(f)).chain(args.iter().map(arg)),
        ),
        ExprKind::Subscript(x, items) => form(
            "subscript",
            std::iter::once(expr_to_sexpr(x)).chain(items.iter().map(index)),
        ),
        ExprKind::Unary(op, x) => format!("({} {})", op.symbol(), expr_to_sexpr(x)),
        ExprKind::Binary(op, a, b) => {
            format!("({} {} {})", binop(*op), expr_to_sexpr(a), expr_to_sexpr(b))
        }
        ExprKind::Logic(op, a, b) => {
            let name = match op {
                LogicOp::And => "and",
                LogicOp::Or => "or",
            };
            format!("({name} {} {})", expr_to_sexpr(a), expr_to_sexpr(b))
        }
        ExprKind::Walrus(name, value) => format!("(:= {} {})", name.as_str(), expr_to_sexpr(value)),
        // Written as the `and` of its links: `(and (< a b) (< b c))`.
        ExprKind::Compare(first, links) => {
            let mut prev = expr_to_sexpr(first);
            let mut out = String::new();
            for (op, e) in links {
                let cur = expr_to_sexpr(e);
                let link = format!("({} {prev} {cur})", binop(*op));
                out = if out.is_empty() {
                    link
                } else {
                    format!("(and {out} {link})")
                };
                prev = cur;
            }
            out
        }
        ExprKind::Not(x) => format!("(not {})", expr_to_sexpr(x)),
        ExprKind::Lambda(params, body) => {
            format!("(lambda {} {})", param_list(params), expr_to_sexpr(body))
        }
        ExprKind::IfElse { cond, then, orelse } => {
            format!(
                "(if {} {} {})",
                expr_to_sexpr(cond),
                expr_to_sexpr(then),
                expr_to_sexpr(orelse)
            )
        }
        ExprKind::ListComp { elt, generators } => {
            let mut parts = vec![expr_to_sexpr(elt)];
            clauses(generators, &mut parts);
            form("listcomp", parts.into_iter())
        }
        ExprKind::GenExp { elt, generators } => {
            let mut parts = vec![expr_to_sexpr(elt)];
            clauses(generators, &mut parts);
            form("genexp", parts.into_iter())
        }
        ExprKind::DictComp {
            key,
            value,
            generators,
        } => {
            let mut parts = vec![expr_to_sexpr(key), expr_to_sexpr(value)];
            clauses(generators, &mut parts);
            form("dictcomp", parts.into_iter())
        }
        ExprKind::Set(items) => form("set", items.iter().map(expr_to_sexpr)),
        ExprKind::SetComp { elt, generators } => {
            let mut parts = vec![expr_to_sexpr(elt)];
            clauses(generators, &mut parts);
            form("setcomp", parts.into_iter())
        }
        ExprKind::BigInt(text) => text.clone(),
        ExprKind::Yield(None) => "(yield)".into(),
        ExprKind::Yield(Some(v)) => form("yield", std::iter::once(expr_to_sexpr(v))),
        ExprKind::YieldFrom(v) => form("yield-from", std::iter::once(expr_to_sexpr(v))),
        ExprKind::Bytes(b) => format!("b{:?}", String::from_utf8_lossy(b)),
    }
}

/// `(for x xs) (if c) (for y ys) …`
fn clauses(generators: &[Comprehension], parts: &mut Vec<String>) {
    for g in generators {
        parts.push(format!(
            "(for {} {})",
            target(&g.target),
            expr_to_sexpr(&g.iter)
        ));
        parts.extend(g.conds.iter().map(|c| format!("(if {})", expr_to_sexpr(c))));
    }
}

/// `(head a b …)`, or `(head)` with no parts.
fn form(head: &str, parts: impl Iterator<Item = String>) -> String {
    let mut out = format!("({head}");
    for p in parts {
        out.push(' ');
        out.push_str(&p);
    }
    out.push(')');
    out
}

/// Operator names; the two-word ones are hyphenated so every form has one head.
fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::NotIn => "not-in",
        BinOp::IsNot => "is-not",
        other => other.symbol(),
    }
}

/// `"text"`, or `(field expr (debug "x=") (conv r) (spec …))` with the parts it has.
fn fpart(p: &FPart) -> String {
    match p {
        FPart::Text(t) => format!("{t:?}"),
        FPart::Field(f) => {
            let mut parts = vec![expr_to_sexpr(&f.expr)];
            if let Some(d) = &f.debug {
                parts.push(format!("(debug {d:?})"));
            }
            if let Some(c) = f.conversion {
                parts.push(format!("(conv {c})"));
            }
            if !f.spec.is_empty() {
                parts.push(form("spec", f.spec.iter().map(fpart)));
            }
            form("field", parts.into_iter())
        }
    }
}

fn arg(a: &Arg) -> String {
    let value = expr_to_sexpr(&a.value);
    match (&a.name, a.star, a.double_star) {
        (Some(name), _, _) => format!("(kw {name} {value})"),
        (None, true, _) => format!("(star {value})"),
        (None, false, true) => format!("(star-star {value})"),
        (None, false, false) => value,
    }
}

fn index(i: &Index) -> String {
    match i {
        Index::Expr(e) => expr_to_sexpr(e),
        Index::Slice {
            start, stop, step, ..
        } => {
            let part = |p: &Option<Expr>| p.as_ref().map_or_else(|| "_".to_owned(), expr_to_sexpr);
            format!("(slice {} {} {})", part(start), part(stop), part(step))
        }
    }
}

fn param_list(params: &[Param]) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut star = false;
    for (i, p) in params.iter().enumerate() {
        // A bare `*` before the first keyword-only parameter when no `*args` precedes it.
        if p.kind == ParamKind::KeywordOnly && !star {
            items.push("*".into());
        }
        star |= matches!(p.kind, ParamKind::VarArgs | ParamKind::KeywordOnly);
        let name = match p.kind {
            ParamKind::VarArgs => format!("*{}", p.name),
            ParamKind::VarKeywords => format!("**{}", p.name),
            _ => p.name.clone(),
        };
        let name = match &p.annotation {
            Some(a) => format!("(: {name} {})", expr_to_sexpr(a)),
            None => name,
        };
        items.push(match &p.default {
            Some(d) => format!("(= {name} {})", expr_to_sexpr(d)),
            None => name,
        });
        // `/` after the last positional-only parameter.
        if p.kind == ParamKind::PositionalOnly
            && params
                .get(i + 1)
                .is_none_or(|n| n.kind != ParamKind::PositionalOnly)
        {
            items.push("/".into());
        }
    }
    format!("({})", items.join(" "))
}

fn target(t: &Target) -> String {
    match t {
        Target::Name(n, _) => n.to_string(),
        Target::Tuple(items, _) => form("tuple", items.iter().map(target)),
        Target::Subscript(..) | Target::Attr(..) => {
            t.as_expr().map(|e| expr_to_sexpr(&e)).unwrap_or_default()
        }
        Target::Starred(t, _) => format!("(* {})", target(t)),
    }
}

/// `(s1 s2 …)`: a statement list.
fn block(body: &[Stmt]) -> String {
    format!("({})", body.iter().map(stmt).collect::<Vec<_>>().join(" "))
}

fn stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Expr(e) => expr_to_sexpr(e),
        StmtKind::Assign { targets, value } => form(
            "=",
            targets
                .iter()
                .map(target)
                .chain(std::iter::once(expr_to_sexpr(value))),
        ),
        StmtKind::Import {
            module,
            alias: Some(a),
        } => format!("(import {module} as {a})"),
        StmtKind::Import {
            module,
            alias: None,
        } => format!("(import {module})"),
        StmtKind::ImportAll { module } => format!("(import {module}.*)"),
        StmtKind::Pass => "(pass)".into(),
        StmtKind::Break => "(break)".into(),
        StmtKind::Continue => "(continue)".into(),
        StmtKind::Del(items) => form("del", items.iter().map(expr_to_sexpr)),
        StmtKind::While { cond, body, orelse } => {
            let head = format!("while {}", expr_to_sexpr(cond));
            with_else(form(&head, body.iter().map(stmt)), orelse)
        }
        StmtKind::Global(names) => form("global", names.iter().cloned()),
        StmtKind::Nonlocal(names) => form("nonlocal", names.iter().cloned()),
        StmtKind::Return(value) => form("return", value.iter().map(expr_to_sexpr)),
        StmtKind::Raise(value, cause) => form(
            "raise",
            value.iter().map(expr_to_sexpr).chain(
                cause
                    .iter()
                    .map(|c| form("from", std::iter::once(expr_to_sexpr(c)))),
            ),
        ),
        StmtKind::Assert { test, msg } => form(
            "assert",
            std::iter::once(expr_to_sexpr(test)).chain(msg.iter().map(expr_to_sexpr)),
        ),
        StmtKind::Def {
            name,
            params,
            body,
            returns,
        } => {
            let mut head = format!("def {name} {}", param_list(params));
            if let Some(r) = returns {
                head = format!("{head} (-> {})", expr_to_sexpr(r));
            }
            form(&head, body.iter().map(stmt))
        }
        StmtKind::AnnAssign {
            target: t,
            annotation,
            value,
            simple,
        } => {
            let t = if *simple || !matches!(t, Target::Name(..)) {
                target(t)
            } else {
                format!("(paren {})", target(t))
            };
            let head = format!(": {t} {}", expr_to_sexpr(annotation));
            form(&head, value.iter().map(expr_to_sexpr))
        }
        StmtKind::If { cond, body, orelse } => {
            let mut parts = vec![expr_to_sexpr(cond), block(body)];
            if !orelse.is_empty() {
                parts.push(block(orelse));
            }
            form("if", parts.into_iter())
        }
        StmtKind::AugAssign {
            target, op, value, ..
        } => format!(
            "({}= {} {})",
            op.symbol(),
            self::target(target),
            expr_to_sexpr(value)
        ),
        StmtKind::For {
            target: t,
            iter,
            body,
            orelse,
        } => {
            let head = format!("for {} {}", target(t), expr_to_sexpr(iter));
            with_else(form(&head, body.iter().map(stmt)), orelse)
        }
        StmtKind::Try {
            body,
            handlers,
            orelse,
            finally,
        } => {
            let mut parts = vec![block(body)];
            for h in handlers {
                let classes = form("", h.classes.iter().map(expr_to_sexpr)).replacen("( ", "(", 1);
                let head = format!("except {classes} {}", h.name.as_deref().unwrap_or("_"));
                parts.push(form(&head, h.body.iter().map(stmt)));
            }
            if !orelse.is_empty() {
                parts.push(form("else", orelse.iter().map(stmt)));
            }
            if !finally.is_empty() {
                parts.push(form("finally", finally.iter().map(stmt)));
            }
            form("try", parts.into_iter())
        }
        StmtKind::Class { name, bases, body } => {
            let bases =
                form("", bases.iter().map(|a| expr_to_sexpr(&a.value))).replacen("( ", "(", 1);
            form(&format!("class {name} {bases}"), body.iter().map(stmt))
        }
        StmtKind::With { items, body } => {
            let items = items.iter().map(|(e, t)| match t {
                Some(t) => format!("(as {} {})", expr_to_sexpr(e), target(t)),
                None => expr_to_sexpr(e),
            });
            let head = format!("with {}", form("", items).replacen("( ", "(", 1));
            form(&head, body.iter().map(stmt))
        }
        StmtKind::Decorated { decorators, def } => form(
            "decorated",
            decorators
                .iter()
                .map(expr_to_sexpr)
                .chain(std::iter::once(stmt(def))),
        ),
        StmtKind::Match { subject, cases } => form(
            "match",
            std::iter::once(expr_to_sexpr(subject)).chain(cases.iter().map(|c| {
                let guard = c
                    .guard
                    .iter()
                    .map(|g| form("if", std::iter::once(expr_to_sexpr(g))));
                form(
                    "case",
                    std::iter::once(pattern(&c.pattern))
                        .chain(guard)
                        .chain(std::iter::once(block(&c.body))),
                )
            })),
        ),
    }
}

fn pattern(p: &crate::pattern::Pattern) -> String {
    use crate::pattern::Pattern as P;
    match p {
        P::Wildcard(_) => "_".into(),
        P::Capture(n, _) => n.clone(),
        P::Value(e) => form("value", std::iter::once(expr_to_sexpr(e))),
        P::Sequence(items, _) => form("seq", items.iter().map(pattern)),
        P::Star(n, _) => format!("(* {})", n.as_deref().unwrap_or("_")),
        P::Mapping { items, rest, .. } => form(
            "map",
            items
                .iter()
                .map(|(k, v)| format!("({} {})", expr_to_sexpr(k), pattern(v)))
                .chain(rest.iter().map(|r| format!("(** {r})"))),
        ),
        P::Class {
            cls, args, kwargs, ..
        } => form(
            "class",
            std::iter::once(expr_to_sexpr(cls))
                .chain(args.iter().map(pattern))
                .chain(
                    kwargs
                        .iter()
                        .map(|(k, v)| format!("(= {k} {})", pattern(v))),
                ),
        ),
        P::Or(alts, _) => form("|", alts.iter().map(pattern)),
        P::As(inner, n, _) => format!("(as {} {n})", pattern(inner)),
    }
}

/// A loop's form with its `else:` block, when it has one: `(for … (else …))`.
fn with_else(loop_form: String, orelse: &[Stmt]) -> String {
    if orelse.is_empty() {
        return loop_form;
    }
    let inner = loop_form.strip_suffix(')').unwrap_or(&loop_form);
    format!("{inner} {})", form("else", orelse.iter().map(stmt)))
}
