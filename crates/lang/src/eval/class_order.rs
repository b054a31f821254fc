//! The order of a class body's names: CPython's class namespace is a dict that keeps the
//! order in which the body bound its names, and `vars(C)`, `C.__dict__` and dataclasses'
//! fields follow it. The body's frame is a hash map (fast to run), so the class is made
//! with its attributes in the order the body's statements first bind them.

use std::collections::HashMap;

use crate::value::Value;
use ragtag_syntax::ast::*;

/// Orders a class body's attributes as CPython's namespace would: `__annotations__` first
/// (CPython makes it before the body runs), then the names in the order the body first binds
/// them, then any others (bound by other means) by name.
pub(super) fn order_attrs(body: &[Stmt], attrs: &mut [(String, Value)]) {
    let mut first: HashMap<String, usize> = HashMap::new();
    first.insert("__annotations__".into(), 0);
    collect(body, &mut first);
    attrs.sort_by(|a, b| {
        let ra = first.get(&a.0).copied().unwrap_or(usize::MAX);
        let rb = first.get(&b.0).copied().unwrap_or(usize::MAX);
        ra.cmp(&rb).then_with(|| a.0.cmp(&b.0))
    });
}

fn note(name: &str, first: &mut HashMap<String, usize>) {
    let next = first.len();
    first.entry(name.to_string()).or_insert(next);
}

fn target(t: &Target, first: &mut HashMap<String, usize>) {
    match t {
        Target::Name(n, _) => note(n, first),
        Target::Tuple(items, _) => items.iter().for_each(|t| target(t, first)),
        Target::Starred(t, _) => target(t, first),
        Target::Subscript(..) | Target::Attr(..) => {}
    }
}

fn collect(body: &[Stmt], first: &mut HashMap<String, usize>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { targets, .. } => targets.iter().for_each(|t| target(t, first)),
            StmtKind::AugAssign { target: t, .. } => target(t, first),
            // A bare `x: int` binds nothing.
            StmtKind::AnnAssign {
                target: t,
                value: Some(_),
                ..
            } => target(t, first),
            StmtKind::Def { name, .. } | StmtKind::Class { name, .. } => note(name, first),
            StmtKind::Decorated { def, .. } => collect(std::slice::from_ref(def), first),
            StmtKind::Import { module, alias } => {
                let bound = alias
                    .clone()
                    .unwrap_or_else(|| module.split('.').next().unwrap_or(module).to_string());
                note(&bound, first);
            }
            StmtKind::For {
                target: t,
                body,
                orelse,
                ..
            } => {
                target(t, first);
                collect(body, first);
                collect(orelse, first);
            }
            StmtKind::While { body, orelse, .. } => {
                collect(body, first);
                collect(orelse, first);
            }
            StmtKind::If { body, orelse, .. } => {
                collect(body, first);
                collect(orelse, first);
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            } => {
                collect(body, first);
                collect(orelse, first);
                for h in handlers {
                    collect(&h.body, first);
                }
                collect(finally, first);
            }
            StmtKind::With { items, body } => {
                items
                    .iter()
                    .flat_map(|i| &i.1)
                    .for_each(|t| target(t, first));
                collect(body, first);
            }
            StmtKind::Match { cases, .. } => {
                for c in cases {
                    collect(&c.body, first);
                }
            }
            _ => {}
        }
    }
}
