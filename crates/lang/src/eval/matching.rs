//! `match` statements (PEP 634): the first `case` whose pattern matches the subject (and
//! whose guard holds) runs. Names a pattern captures are bound when it has matched, before
//! its guard is tested.

use std::sync::Arc;

use super::{operators, Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::{PyDict, PyList, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;
use ragtag_syntax::pattern::{MatchCase, Pattern};

/// The builtin types whose one positional sub-pattern matches the subject itself.
const SELF_MATCHING: [&str; 11] = [
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

impl<'s> Interp<'s> {
    /// Runs the first case that matches `subject`.
    pub(super) fn exec_match(&mut self, subject: &Expr, cases: &[MatchCase]) -> Result<Flow> {
        let v = self.eval(subject)?;
        for case in cases {
            let mut binds = Vec::new();
            if !self.match_pattern(&case.pattern, &v, &mut binds)? {
                continue;
            }
            for (name, value) in binds {
                self.set(&name, value);
            }
            if let Some(g) = &case.guard {
                let t = self.eval(g)?;
                if !self.truth(&t, g.span)? {
                    continue;
                }
            }
            return self.exec_block(&case.body);
        }
        Ok(Flow::Normal)
    }

    /// Whether `v` matches `p`, adding the names it captures to `binds`.
    fn match_pattern(
        &mut self,
        p: &Pattern,
        v: &Value,
        binds: &mut Vec<(String, Value)>,
    ) -> Result<bool> {
        ragtag_engine::guard::check_stack().map_err(|e| Error::from(e).at(p.span()))?;
        match p {
            Pattern::Wildcard(_) => Ok(true),
            Pattern::Capture(n, _) => {
                binds.push((n.clone(), v.clone()));
                Ok(true)
            }
            Pattern::Value(e) => {
                let want = self.eval(e)?;
                if matches!(e.kind, ExprKind::None | ExprKind::Bool(_)) {
                    return Ok(operators::identical(v, &want));
                }
                self.values_equal(v, &want, e.span)
            }
            Pattern::As(inner, n, _) => {
                if !self.match_pattern(inner, v, binds)? {
                    return Ok(false);
                }
                binds.push((n.clone(), v.clone()));
                Ok(true)
            }
            Pattern::Or(alts, _) => {
                for a in alts {
                    let mut mine = Vec::new();
                    if self.match_pattern(a, v, &mut mine)? {
                        binds.extend(mine);
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Pattern::Sequence(items, _) => self.match_sequence(items, v, binds),
            Pattern::Star(..) => Ok(true),
            Pattern::Mapping { items, rest, .. } => self.match_mapping(items, rest, v, binds),
            Pattern::Class {
                cls,
                args,
                kwargs,
                span,
            } => self.match_class(cls, args, kwargs, *span, v, binds),
        }
    }

    /// Python's `a == b`, through a user class's `__eq__`.
    pub(super) fn values_equal(&mut self, a: &Value, b: &Value, span: Span) -> Result<bool> {
        let r = if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            self.instance_binary(BinOp::Eq, a, b, span)?
        } else {
            operators::binary(BinOp::Eq, a, b).map_err(|e| Error::from(e).at(span))?
        };
        self.truth(&r, span)
    }

    fn match_sequence(
        &mut self,
        items: &[Pattern],
        v: &Value,
        binds: &mut Vec<(String, Value)>,
    ) -> Result<bool> {
        let values: Vec<Value> = match v {
            Value::List(l) => l.items(),
            Value::Tuple(t) => t.to_vec(),
            _ => match self.sequence_items(v)? {
                Some(items) => items,
                None => return Ok(false),
            },
        };
        let star = items.iter().position(|p| matches!(p, Pattern::Star(..)));
        match star {
            None => {
                if values.len() != items.len() {
                    return Ok(false);
                }
                for (p, x) in items.iter().zip(&values) {
                    if !self.match_pattern(p, x, binds)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(s) => {
                let after = items.len() - s - 1;
                if values.len() < items.len() - 1 {
                    return Ok(false);
                }
                for (p, x) in items[..s].iter().zip(&values) {
                    if !self.match_pattern(p, x, binds)? {
                        return Ok(false);
                    }
                }
                let tail = values.len() - after;
                for (p, x) in items[s + 1..].iter().zip(&values[tail..]) {
                    if !self.match_pattern(p, x, binds)? {
                        return Ok(false);
                    }
                }
                if let Pattern::Star(Some(n), _) = &items[s] {
                    let rest = values[s..tail].to_vec();
                    binds.push((n.clone(), Value::List(PyList::new(rest, false))));
                }
                Ok(true)
            }
        }
    }

    fn match_mapping(
        &mut self,
        items: &[(Expr, Pattern)],
        rest: &Option<String>,
        v: &Value,
        binds: &mut Vec<(String, Value)>,
    ) -> Result<bool> {
        let Some(d) = self.mapping_of(v) else {
            return Ok(false);
        };
        let mut keys = Vec::new();
        for (k, p) in items {
            let key = self.eval(k)?;
            let found = d.get(&key).map_err(|e| Error::from(e).at(k.span))?;
            let Some(x) = found else {
                return Ok(false);
            };
            if !self.match_pattern(p, &x, binds)? {
                return Ok(false);
            }
            keys.push(key);
        }
        if let Some(n) = rest {
            let left = d.copy();
            for k in &keys {
                left.remove(k).map_err(Error::from)?;
            }
            binds.push((n.clone(), Value::Dict(left)));
        }
        Ok(true)
    }

    fn match_class(
        &mut self,
        cls: &Expr,
        args: &[Pattern],
        kwargs: &[(String, Pattern)],
        span: Span,
        v: &Value,
        binds: &mut Vec<(String, Value)>,
    ) -> Result<bool> {
        let c = self.eval(cls)?;
        if !matches!(
            c,
            Value::Class(_) | Value::Builtin(_) | Value::ErrorClass(_)
        ) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "called match pattern must be a type",
            )
            .at(cls.span));
        }
        let isinstance = super::builtins::registry()
            .get("isinstance")
            .expect("isinstance is a builtin");
        let yes = self.call_values(
            &Value::Builtin(isinstance),
            vec![v.clone(), c.clone()],
            span,
        )?;
        if !matches!(yes, Value::Bool(true)) {
            return Ok(false);
        }
        let shown = match &c {
            Value::Builtin(b) => b.short_name().to_string(),
            Value::Class(k) => k.name.to_string(),
            Value::ErrorClass(k) => k.name().to_string(),
            _ => String::new(),
        };
        let mut attrs: Vec<(String, &Pattern)> = Vec::new();
        if !args.is_empty() {
            if let Value::Builtin(b) = &c {
                if SELF_MATCHING.contains(&b.short_name()) {
                    if args.len() > 1 {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "{shown}() accepts 1 positional sub-pattern ({} given)",
                                args.len()
                            ),
                        )
                        .at(span));
                    }
                    if !self.match_pattern(&args[0], v, binds)? {
                        return Ok(false);
                    }
                    return self.match_keywords(kwargs, v, binds, span);
                }
            }
            let names = self.match_args(&c, &shown, span)?;
            if args.len() > names.len() {
                let s = if names.len() == 1 { "" } else { "s" };
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "{shown}() accepts {} positional sub-pattern{s} ({} given)",
                        names.len(),
                        args.len()
                    ),
                )
                .at(span));
            }
            for (n, p) in names.into_iter().zip(args) {
                if kwargs.iter().any(|(k, _)| *k == n) {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("{shown}() got multiple sub-patterns for attribute '{n}'"),
                    )
                    .at(span));
                }
                attrs.push((n, p));
            }
        }
        for (n, p) in attrs {
            let Some(x) = self.attr_or_none(v, &n, span)? else {
                return Ok(false);
            };
            if !self.match_pattern(p, &x, binds)? {
                return Ok(false);
            }
        }
        self.match_keywords(kwargs, v, binds, span)
    }

    fn match_keywords(
        &mut self,
        kwargs: &[(String, Pattern)],
        v: &Value,
        binds: &mut Vec<(String, Value)>,
        span: Span,
    ) -> Result<bool> {
        for (n, p) in kwargs {
            let Some(x) = self.attr_or_none(v, n, span)? else {
                return Ok(false);
            };
            if !self.match_pattern(p, &x, binds)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `v.name`, or `None` when it has no such attribute.
    fn attr_or_none(&mut self, v: &Value, name: &str, span: Span) -> Result<Option<Value>> {
        match self.attribute(v.clone(), name, span) {
            Ok(x) => Ok(Some(x)),
            Err(e) if e.class == ExceptionClass::AttributeError => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The class's `__match_args__` (none: no positional sub-patterns).
    fn match_args(&mut self, c: &Value, shown: &str, span: Span) -> Result<Vec<String>> {
        let Some(m) = self.attr_or_none(c, "__match_args__", span)? else {
            return Ok(Vec::new());
        };
        let Value::Tuple(items) = &m else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "{shown}.__match_args__ must be a tuple (got {})",
                    m.type_name()
                ),
            )
            .at(span));
        };
        items
            .iter()
            .map(|x| match x {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "__match_args__ elements must be strings (got {})",
                        other.type_name()
                    ),
                )
                .at(span)),
            })
            .collect()
    }

    /// The items of a value a sequence pattern reads other than a list or tuple (none: it
    /// is no sequence; str, bytes and mappings never are).
    fn sequence_items(&mut self, v: &Value) -> Result<Option<Vec<Value>>> {
        // An instance of a class deriving from list or tuple.
        Ok(match v {
            Value::Instance(i) => match i.base() {
                Some(Value::List(l)) => Some(l.items()),
                Some(Value::Tuple(t)) => Some(t.to_vec()),
                _ => None,
            },
            _ => None,
        })
    }

    /// The dict a mapping pattern reads, if `v` is a mapping.
    fn mapping_of(&mut self, v: &Value) -> Option<Arc<PyDict>> {
        match v {
            Value::Dict(d) => Some(d.clone()),
            // An instance of a class deriving from dict.
            Value::Instance(i) => match i.base() {
                Some(Value::Dict(d)) => Some(d.clone()),
                _ => None,
            },
            _ => None,
        }
    }
}
