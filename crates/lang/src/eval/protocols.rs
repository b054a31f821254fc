//! The protocols of user classes beyond operators: the method resolution order (C3),
//! `__setattr__`/`__delattr__` hooks, `__format__`, `__hash__`, and `==`/`in` over
//! containers that hold instances (whose `__eq__` decides), and a function's own attributes.

use std::sync::Arc;

use super::builtins::python::builtin_bases as bases;
use super::{operators, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::class::Class;
use crate::value::{Key, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, Span};

/// `C.__mro__`: the method resolution order, ending with `object` as CPython's does.
pub(super) fn full_mro(c: &Arc<Class>) -> Vec<Value> {
    let mut out = c.mro();
    let object = super::builtins::python::objects::object_type();
    if !out.iter().any(|v| operators::identical(v, &object)) {
        out.push(object);
    }
    out
}

/// A builtin exception class's `__mro__`: it, its bases up to BaseException, and `object`.
pub(crate) fn error_class_mro(k: ExceptionClass) -> Vec<Value> {
    let mut out: Vec<Value> = std::iter::successors(Some(k), |k| k.parent())
        .map(Value::ErrorClass)
        .collect();
    out.push(super::builtins::python::objects::object_type());
    out
}

/// `C.mro`, bound to the class.
pub(super) fn mro_method(c: &Arc<Class>) -> Value {
    match super::builtins::registry().get("type.mro") {
        Some(b) => Value::method(Value::Class(c.clone()), b),
        None => Value::None,
    }
}

/// CPython's TypeError for bases named twice or in no consistent order.
pub(super) fn check_bases(bases: &[Value], span: Span) -> Result<()> {
    let name = |v: &Value| match v {
        Value::Class(c) => c.name.to_string(),
        Value::ErrorClass(k) => k.name().to_string(),
        other => other.type_name().to_string(),
    };
    let fail = |m: String| Err(Error::new(ExceptionClass::TypeError, m).at(span));
    for (i, b) in bases.iter().enumerate() {
        if bases[..i].iter().any(|a| operators::identical(a, b)) {
            return fail(format!("duplicate base class {}", name(b)));
        }
    }
    // Two builtin types (`dict` and `list`, or one and an exception) as bases.
    let layouts: Vec<&str> = bases
        .iter()
        .filter_map(|b| match b {
            Value::Class(c) if c.module == "builtins" => Some(bases::layout(c.name)),
            Value::Class(c) => c
                .builtin_base()
                .map(bases::layout)
                .or_else(|| c.exception_base().map(|_| "exception")),
            Value::ErrorClass(_) => Some("exception"),
            _ => None,
        })
        .collect();
    if layouts.iter().any(|l| *l != layouts[0]) {
        return fail("multiple bases have instance lay-out conflict".into());
    }
    if crate::value::class::c3(bases).is_none() {
        let names: Vec<String> = bases.iter().map(name).collect();
        return fail(format!(
            "Cannot create a consistent method resolution\norder (MRO) for bases {}",
            names.join(", ")
        ));
    }
    Ok(())
}

/// The method `name` a user class defines for its instance `o`, if it does.
pub(super) fn hook(o: &Value, name: &str) -> Option<Value> {
    match o {
        Value::Instance(i) if i.class.is_python() => i.class.lookup(name),
        _ => None,
    }
}

/// Whether `v` holds an instance of a user class (itself, or inside lists, tuples and
/// dicts), so that `==` and `in` must ask its `__eq__`.
pub(super) fn holds_instance(v: &Value) -> bool {
    holds(v, &mut std::collections::HashSet::new())
}

/// `holds_instance`, each container looked into once (a list may hold itself).
fn holds(v: &Value, seen: &mut std::collections::HashSet<usize>) -> bool {
    if ragtag_engine::guard::too_deep() {
        return false;
    }
    match v {
        Value::Instance(_) => true,
        Value::List(l) if l.cached_literal().is_none() => {
            seen.insert(Arc::as_ptr(l) as usize) && l.items().iter().any(|x| holds(x, seen))
        }
        Value::Tuple(t) => seen.insert(Arc::as_ptr(t) as usize) && t.iter().any(|x| holds(x, seen)),
        Value::Dict(d) => {
            seen.insert(Arc::as_ptr(d) as usize) && d.items().iter().any(|(_, x)| holds(x, seen))
        }
        _ => false,
    }
}

/// Whether `a` and `b` are both lists or both tuples, one of them holding an instance: an
/// ordering of them asks the instances.
pub(super) fn orders_instances(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_))
    ) && (holds_instance(a) || holds_instance(b))
}

impl<'s> Interp<'s> {
    /// `a < b` (any ordering) for lists or tuples holding instances, as CPython compares
    /// sequences: the first items that differ by `==` (their `__eq__` asked) decide with the
    /// operator (their `__lt__`, …), else the lengths.
    pub(super) fn sequence_order(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<Value> {
        let (xs, ys) = (
            crate::value::subscript_items(a),
            crate::value::subscript_items(b),
        );
        for (x, y) in xs.iter().zip(&ys) {
            if !self.eq_values(x, y, span)? {
                return self.order_any(op, x, y, span);
            }
        }
        let (n, m) = (Value::Int(xs.len() as i64), Value::Int(ys.len() as i64));
        operators::binary(op, &n, &m).map_err(|e| Error::from(e).at(span))
    }

    /// Whether an ordering of `a` and `b` asks an instance's methods.
    pub fn may_order(&self, a: &Value, b: &Value) -> bool {
        matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) || orders_instances(a, b)
    }

    /// An ordering of two values either of which may be or hold an instance.
    pub fn order_any(&mut self, op: BinOp, a: &Value, b: &Value, span: Span) -> Result<Value> {
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            return self.instance_binary(op, a, b, span);
        }
        match operators::binary(op, a, b) {
            Ok(v) => Ok(v),
            Err(_) if orders_instances(a, b) => self.sequence_order(op, a, b, span),
            Err(e) => Err(Error::from(e).at(span)),
        }
    }

    /// `a == b` where either may hold instances: their `__eq__` decides, item by item.
    pub(super) fn eq_values(&mut self, a: &Value, b: &Value, span: Span) -> Result<bool> {
        if operators::identical(a, b) {
            return Ok(true);
        }
        if ragtag_engine::guard::too_deep() {
            return Ok(false);
        }
        match (a, b) {
            (Value::Instance(_), _) | (_, Value::Instance(_)) => {
                let r = self.instance_binary(BinOp::Eq, a, b, span)?;
                self.truth(&r, span)
            }
            (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_)) => {
                let (xs, ys) = (
                    crate::value::subscript_items(a),
                    crate::value::subscript_items(b),
                );
                if xs.len() != ys.len() {
                    return Ok(false);
                }
                for (x, y) in xs.iter().zip(&ys) {
                    if !self.eq_values(x, y, span)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Value::Dict(x), Value::Dict(y)) => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (k, v) in x.items() {
                    match y.get(&k) {
                        Ok(Some(w)) if self.eq_values(&v, &w, span)? => {}
                        _ => return Ok(false),
                    }
                }
                Ok(true)
            }
            _ => Ok(operators::python_eq(a, b)),
        }
    }

    /// `==`, `!=`, `in` and `not in` between builtin values that hold instances.
    pub(super) fn container_binary(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<Value> {
        Ok(Value::Bool(match op {
            BinOp::Eq => self.eq_values(a, b, span)?,
            BinOp::Ne => !self.eq_values(a, b, span)?,
            BinOp::In => self.contains_items(b, a, span)?,
            _ => !self.contains_items(b, a, span)?,
        }))
    }

    /// `item in container` for a builtin container: a list's or tuple's items compared
    /// with `==` (an instance's `__eq__` included).
    pub(super) fn contains_items(
        &mut self,
        container: &Value,
        item: &Value,
        span: Span,
    ) -> Result<bool> {
        // `Tag('a') in 'cat'`: an instance of a class deriving from str is its str here.
        if let (Value::Str(_), Value::Instance(i)) = (container, item) {
            if let Some(s @ Value::Str(_)) = i.base() {
                return self.contains_primed(container, &s.clone(), span);
            }
        }
        if matches!(container, Value::List(_) | Value::Tuple(_)) {
            for x in crate::value::subscript_items(container) {
                if self.eq_values(&x, item, span)? {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        self.contains_primed(container, item, span)
    }

    /// `format(v, spec)` of an instance whose class defines `__format__` (`None`: any
    /// other value, formatted as usual).
    pub(super) fn format_instance(
        &mut self,
        v: &Value,
        spec: &str,
        span: Span,
    ) -> Result<Option<String>> {
        let Some(f) = hook(v, "__format__") else {
            return Ok(None);
        };
        let r = self.call_method(
            v,
            &f,
            vec![super::classes::arg(Value::str(spec), span)],
            span,
        )?;
        match r {
            Value::Str(s) => Ok(Some(s.to_string())),
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!("__format__ must return a str, not {}", other.type_name()),
            )
            .at(span)),
        }
    }

    /// `hash(v)`: an instance's `__hash__` (reduced as CPython reduces it), else the
    /// value's own hash; a TypeError for what is unhashable.
    pub fn hash_value(&mut self, v: &Value, span: Span) -> Result<i64> {
        if let Some(h) = self.prime_key(v, span)? {
            return Ok(h);
        }
        Key::of(v)
            .map(|k| k.py_hash())
            .map_err(|e| Error::from(e).at(span))
    }
}

/// The names a function keeps in its own slots rather than its `__dict__`.
pub(super) const FUNCTION_SLOTS: [&str; 4] = ["__name__", "__qualname__", "__doc__", "__module__"];

/// A function's own attribute, `__doc__` (its body's first string), `__module__` or
/// `__dict__`; `None` for the names every value answers (`__name__`, `__class__` …).
pub(super) fn function_attr(c: &crate::value::Closure, name: &str) -> Result<Option<Value>> {
    if let Some(v) = crate::value::class::attr_get(&c.attrs, name) {
        return Ok(Some(v));
    }
    Ok(Some(match name {
        "__doc__" => match &c.body {
            crate::value::ClosureBody::Block(stmts) => match stmts.first().map(|s| &s.kind) {
                Some(ragtag_syntax::ast::StmtKind::Expr(e)) => match &e.kind {
                    ragtag_syntax::ast::ExprKind::Str(s) => Value::str(s),
                    _ => Value::None,
                },
                _ => Value::None,
            },
            crate::value::ClosureBody::Expr(_) => Value::None,
        },
        "__module__" => Value::str("__main__"),
        "__dict__" => {
            let items = crate::value::class::attr_items(&c.attrs)
                .into_iter()
                .filter(|(k, _)| !FUNCTION_SLOTS.contains(&k.as_str()))
                .map(|(k, v)| (Value::str(k), v))
                .collect();
            Value::dict(items).map_err(Error::from)?
        }
        _ => return Ok(None),
    }))
}
