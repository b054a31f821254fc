//! `class` and `with` statements to the AST.

use super::stmt::{stmt, target_items};
use super::*;

impl Converter<'_> {
    /// `class Name(bases…): body`.
    pub(crate) fn class_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let mut it = children(pair);
        let name = it.next().expect("name").as_str().to_owned();
        let mut bases = Vec::new();
        let mut body = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::class_bases => bases = self.call_args(p)?,
                _ => body = self.suite(p)?,
            }
        }
        crate::mangle::class_body(&name, &mut body);
        Ok(stmt(StmtKind::Class { name, bases, body }, span))
    }

    /// `with a as x, b: body`.
    pub(crate) fn with_stmt(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let span = span_of(&pair);
        let mut items = Vec::new();
        let mut body = Vec::new();
        for p in children(pair) {
            match p.as_rule() {
                Rule::with_item => {
                    let mut parts = children(p);
                    let e = self.expr(parts.next().expect("a context manager"))?;
                    let target = match parts.next() {
                        Some(t) => {
                            let (mut one, _) = target_items(t)?;
                            Some(one.pop().expect("a target after `as`"))
                        }
                        None => None,
                    };
                    items.push((e, target));
                }
                _ => body = self.suite(p)?,
            }
        }
        Ok(stmt(StmtKind::With { items, body }, span))
    }
}
