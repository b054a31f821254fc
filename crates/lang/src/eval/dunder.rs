//! The special methods of user classes, called where Python calls them: operators,
//! `str`/`repr`/`print`, `len`, `in`, subscripts, calls and truth tests.

use std::collections::HashSet;
use std::sync::Arc;

use super::classes::bind;
use super::{operators, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::class::{attr_get, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

/// Python's `NotImplemented`.
pub fn not_implemented() -> Value {
    Value::Opaque(crate::value::ThinStr::from("NotImplemented"))
}

pub(crate) fn is_not_implemented(v: &Value) -> bool {
    matches!(v, Value::Opaque(o) if o.as_ref() == "NotImplemented")
}

/// The method and its reflected form for an operator.
fn op_names(op: BinOp) -> Option<(&'static str, &'static str)> {
    Some(match op {
        BinOp::Add => ("__add__", "__radd__"),
        BinOp::Sub => ("__sub__", "__rsub__"),
        BinOp::Mul => ("__mul__", "__rmul__"),
        BinOp::Div => ("__truediv__", "__rtruediv__"),
        BinOp::FloorDiv => ("__floordiv__", "__rfloordiv__"),
        BinOp::Mod => ("__mod__", "__rmod__"),
        BinOp::Pow => ("__pow__", "__rpow__"),
        BinOp::MatMul => ("__matmul__", "__rmatmul__"),
        BinOp::BitAnd => ("__and__", "__rand__"),
        BinOp::BitOr => ("__or__", "__ror__"),
        BinOp::BitXor => ("__xor__", "__rxor__"),
        BinOp::LShift => ("__lshift__", "__rlshift__"),
        BinOp::RShift => ("__rshift__", "__rrshift__"),
        BinOp::Eq => ("__eq__", "__eq__"),
        BinOp::Ne => ("__ne__", "__ne__"),
        BinOp::Lt => ("__lt__", "__gt__"),
        BinOp::Le => ("__le__", "__ge__"),
        BinOp::Gt => ("__gt__", "__lt__"),
        BinOp::Ge => ("__ge__", "__le__"),
        _ => return None,
    })
}

fn same_class(a: &Value, b: &Value) -> bool {
    matches!((a, b), (Value::Instance(x), Value::Instance(y)) if Arc::ptr_eq(&x.class, &y.class))
}

/// Whether `v` is an instance of a user class (whose special methods apply).
pub fn is_instance(v: &Value) -> bool {
    matches!(v, Value::Instance(_))
}

impl<'s> Interp<'s> {
    /// `obj.name(args…)` when `obj` is an instance whose class defines `name`.
    pub(super) fn dunder(
        &mut self,
        obj: &Value,
        name: &str,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Option<Value>> {
        let Value::Instance(i) = obj else {
            return Ok(None);
        };
        let Some(f) = i.class.lookup(name) else {
            return Ok(None);
        };
        let f = bind(f, Some(obj), &Value::Class(i.class.clone()));
        self.call_values(&f, args, span).map(Some)
    }

    /// A binary operator with an instance on either side.
    pub(super) fn instance_binary(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<Value> {
        match op {
            BinOp::Is => return Ok(Value::Bool(operators::identical(a, b))),
            BinOp::IsNot => return Ok(Value::Bool(!operators::identical(a, b))),
            BinOp::In => return self.contains(b, a, span).map(Value::Bool),
            BinOp::NotIn => return self.contains(b, a, span).map(|x| Value::Bool(!x)),
            _ => {}
        }
        let Some((name, reflected)) = op_names(op) else {
            return Err(unsupported(op, a, b, span));
        };
        if let Some(r) = self.dunder(a, name, vec![b.clone()], span)? {
            if !is_not_implemented(&r) {
                return Ok(r);
            }
        }
        if op.is_comparison() || !same_class(a, b) {
            if let Some(r) = self.dunder(b, reflected, vec![a.clone()], span)? {
                if !is_not_implemented(&r) {
                    return Ok(r);
                }
            }
        }
        match op {
            BinOp::Eq => Ok(Value::Bool(operators::identical(a, b))),
            BinOp::Ne => match self.dunder(a, "__eq__", vec![b.clone()], span)? {
                Some(r) if !is_not_implemented(&r) => Ok(Value::Bool(!self.truth(&r, span)?)),
                _ => Ok(Value::Bool(!operators::identical(a, b))),
            },
            // `'%s' % obj`: the instance formatted with its `__str__` or `__repr__`.
            BinOp::Mod if matches!(a, Value::Str(_)) => {
                self.prepare_shown(b, span)?;
                operators::binary(op, a, b).map_err(|e| Error::from(e).at(span))
            }
            // A builtin value on the left that knows nothing of the instance.
            _ if !is_instance(a) && !is_instance(b) => {
                operators::binary(op, a, b).map_err(|e| Error::from(e).at(span))
            }
            // `[0] * n` with an object that has `__index__`.
            BinOp::Mul if is_sequence(a) || is_sequence(b) => {
                let (seq, n) = if is_sequence(a) { (a, b) } else { (b, a) };
                let n = match self.try_index(n, span)? {
                    Some(n) => n,
                    None => return Err(sequence_times(seq, n, span)),
                };
                operators::binary(op, seq, &n).map_err(|e| Error::from(e).at(span))
            }
            // `typing.List[int] | None`, `(int | str) | float`: unions of types.
            BinOp::BitOr => match super::builtins::python::union_type::type_union(a, b) {
                Some(u) => {
                    self.prime_quietly(&u, span);
                    Ok(u)
                }
                None => Err(unsupported(op, a, b, span)),
            },
            _ => Err(unsupported(op, a, b, span)),
        }
    }

    /// `x op= y` with an instance on either side: `__iop__` first, then the operator.
    pub(super) fn instance_aug(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<Value> {
        if let Some((name, _)) = op_names(op) {
            let in_place = format!("__i{}", &name[2..]);
            if let Some(r) = self.dunder(a, &in_place, vec![b.clone()], span)? {
                if !is_not_implemented(&r) {
                    return Ok(r);
                }
            }
        }
        self.instance_binary(op, a, b, span)
    }

    /// `-x`, `+x`, `~x` on an instance.
    pub(super) fn instance_unary(&mut self, op: UnaryOp, v: &Value, span: Span) -> Result<Value> {
        let name = match op {
            UnaryOp::Neg => "__neg__",
            UnaryOp::Pos => "__pos__",
            UnaryOp::Invert => "__invert__",
        };
        match self.dunder(v, name, Vec::new(), span)? {
            Some(r) => Ok(r),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "bad operand type for unary {}: '{}'",
                    op.symbol(),
                    v.type_name()
                ),
            )
            .at(span)),
        }
    }

    /// `item in container` with an instance as the container: `__contains__`, else its
    /// items compared with `==`.
    fn contains(&mut self, container: &Value, item: &Value, span: Span) -> Result<bool> {
        if !is_instance(container) {
            return self.contains_items(container, item, span);
        }
        if let Some(r) = self.dunder(container, "__contains__", vec![item.clone()], span)? {
            return self.truth(&r, span);
        }
        let has_iter = matches!(container, Value::Instance(i)
            if i.class.lookup("__iter__").is_some() || i.class.lookup("__getitem__").is_some());
        if !has_iter {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "argument of type '{}' is not iterable",
                    container.type_name()
                ),
            )
            .at(span));
        }
        for x in self.iterate_value(container, span)? {
            if operators::identical(&x, item) {
                return Ok(true);
            }
            let eq = if is_instance(&x) || is_instance(item) {
                self.instance_binary(BinOp::Eq, &x, item, span)?
            } else {
                operators::binary(BinOp::Eq, &x, item).map_err(|e| Error::from(e).at(span))?
            };
            if self.truth(&eq, span)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Python truthiness, with an instance's `__bool__` or `__len__`.
    #[inline]
    pub fn truth(&mut self, v: &Value, span: Span) -> Result<bool> {
        // A comparison's bool or a counter's int, without the general checks.
        match v {
            Value::Bool(b) => return Ok(*b),
            Value::Int(i) => return Ok(*i != 0),
            _ => {}
        }
        self.truth_general(v, span)
    }

    /// [`Self::truth`] of anything but a bool or an int.
    #[inline(never)]
    fn truth_general(&mut self, v: &Value, span: Span) -> Result<bool> {
        if is_instance(v) {
            if let Some(r) = self.dunder(v, "__bool__", Vec::new(), span)? {
                return match r {
                    Value::Bool(b) => Ok(b),
                    other => Err(Error::new(
                        ExceptionClass::TypeError,
                        format!(
                            "__bool__ should return bool, returned {}",
                            other.type_name()
                        ),
                    )
                    .at(span)),
                };
            }
            if matches!(v, Value::Instance(i) if i.class.lookup("__len__").is_some()) {
                return Ok(self.len_of(v, span)? != 0);
            }
            return Ok(true);
        }
        v.truthy().map_err(|e| Error::from(e).at(span))
    }

    /// `len(obj)` of an instance: its `__len__`.
    pub fn len_of(&mut self, v: &Value, span: Span) -> Result<i64> {
        match self.dunder(v, "__len__", Vec::new(), span)? {
            Some(Value::Int(n)) if n >= 0 => Ok(n),
            Some(Value::Bool(b)) => Ok(b as i64),
            Some(Value::Int(_)) => {
                Err(Error::new(ExceptionClass::ValueError, "__len__() should return >= 0").at(span))
            }
            Some(other) => Err(Error::not_an_integer(other.type_name()).at(span)),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!("object of type '{}' has no len()", v.type_name()),
            )
            .at(span)),
        }
    }

    /// `obj[key]` on an instance: its `__getitem__`.
    pub(super) fn instance_getitem(
        &mut self,
        obj: &Value,
        index: &[Index],
        span: Span,
    ) -> Result<Value> {
        let key = self.index_key(index, span)?;
        self.dunder(obj, "__getitem__", vec![key], span)?
            .ok_or_else(|| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!("'{}' object is not subscriptable", obj.type_name()),
                )
                .at(span)
            })
    }

    /// `obj[key] = v` on an instance: its `__setitem__`.
    pub(super) fn instance_setitem(
        &mut self,
        obj: &Value,
        index: &[Index],
        v: Value,
        span: Span,
    ) -> Result<()> {
        let key = self.index_key(index, span)?;
        match self.dunder(obj, "__setitem__", vec![key, v], span)? {
            Some(_) => Ok(()),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object does not support item assignment",
                    obj.type_name()
                ),
            )
            .at(span)),
        }
    }

    /// `del obj[key]` on an instance: its `__delitem__`.
    pub(super) fn instance_delitem(
        &mut self,
        obj: &Value,
        index: &[Index],
        span: Span,
    ) -> Result<()> {
        let key = self.index_key(index, span)?;
        match self.dunder(obj, "__delitem__", vec![key], span)? {
            Some(_) => Ok(()),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object does not support item deletion",
                    obj.type_name()
                ),
            )
            .at(span)),
        }
    }

    /// The key a subscript passes to `__getitem__`: one value, or a tuple of several.
    pub(super) fn index_key(&mut self, index: &[Index], span: Span) -> Result<Value> {
        let mut keys = Vec::new();
        for i in index {
            match i {
                Index::Expr(e) => keys.push(self.eval(e)?),
                Index::Slice {
                    start, stop, step, ..
                } => {
                    let mut part = |e: &Option<ragtag_syntax::ast::Expr>| match e {
                        Some(e) => self.eval(e),
                        None => Ok(Value::None),
                    };
                    let s = crate::value::slice::PySlice {
                        start: part(start)?,
                        stop: part(stop)?,
                        step: part(step)?,
                    };
                    keys.push(Value::Slice(std::sync::Arc::new(s)));
                }
            }
        }
        Ok(match keys.len() {
            1 => keys.pop().unwrap_or(Value::None),
            _ => {
                let _ = span;
                Value::tuple(keys)
            }
        })
    }

    /// `obj(args…)` on an instance: its `__call__`.
    pub(super) fn call_instance(
        &mut self,
        obj: &Value,
        args: Vec<super::args::CallArg>,
        span: Span,
    ) -> Result<Value> {
        let Value::Instance(i) = obj else {
            unreachable!("called with an instance")
        };
        match i.class.lookup("__call__") {
            Some(f) => {
                let f = bind(f, Some(obj), &Value::Class(i.class.clone()));
                self.call(&f, args, span)
            }
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not callable", obj.type_name()),
            )
            .at(span)),
        }
    }

    /// Computes the `repr` and `str` of every instance inside `v` (running `__repr__` and
    /// `__str__`), so that the renderers show them.
    pub fn prepare_shown(&mut self, v: &Value, span: Span) -> Result<()> {
        let mut seen = HashSet::new();
        self.prepare_inner(v, span, &mut seen)
    }

    fn prepare_inner(&mut self, v: &Value, span: Span, seen: &mut HashSet<usize>) -> Result<()> {
        match v {
            Value::Instance(i) if i.class.is_python() => {
                if !seen.insert(Arc::as_ptr(i) as usize) {
                    return Ok(());
                }
                self.prepare_instance(i, span, seen)
            }
            Value::List(l) if l.has_items() => {
                if !seen.insert(Arc::as_ptr(l) as usize) {
                    return Ok(());
                }
                for x in l.items() {
                    self.prepare_inner(&x, span, seen)?;
                }
                Ok(())
            }
            Value::Tuple(t) => {
                for x in t.iter() {
                    self.prepare_inner(x, span, seen)?;
                }
                Ok(())
            }
            Value::Dict(d) => {
                if !seen.insert(Arc::as_ptr(d) as usize) {
                    return Ok(());
                }
                for (k, x) in d.items().iter() {
                    self.prepare_inner(k, span, seen)?;
                    self.prepare_inner(x, span, seen)?;
                }
                Ok(())
            }
            // A set of instances (of a class with `__hash__`, or deriving from int or str).
            Value::Set(s) if !s.is_empty() => {
                for x in s.items() {
                    self.prepare_inner(&x, span, seen)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn prepare_instance(
        &mut self,
        i: &Arc<Instance>,
        span: Span,
        seen: &mut HashSet<usize>,
    ) -> Result<()> {
        let v = Value::Instance(i.clone());
        let text = |name: &str, r: Value| match r {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name} returned non-string (type {})", other.type_name()),
            )
            .at(span)),
        };
        let exception = i.class.exception_base().is_some();
        let args = match attr_get(&i.attrs, "args") {
            Some(Value::Tuple(t)) if exception => Some(t),
            _ => None,
        };
        if let Some(args) = &args {
            for a in args.iter() {
                self.prepare_inner(a, span, seen)?;
            }
        }
        let repr = match self.dunder(&v, "__repr__", Vec::new(), span)? {
            Some(r) => text("__repr__", r)?,
            None => match &args {
                Some(a) if a.len() == 1 => {
                    format!(
                        "{}({})",
                        i.class.name,
                        crate::render::tf_text::repr_of(&a[0])
                    )
                }
                Some(a) => format!(
                    "{}{}",
                    i.class.name,
                    crate::render::tf_text::repr_of(&Value::Tuple(a.clone()))
                ),
                None => i.default_repr(),
            },
        };
        let str = match self.dunder(&v, "__str__", Vec::new(), span)? {
            Some(r) => text("__str__", r)?,
            None => match &args {
                Some(a) if a.is_empty() => String::new(),
                Some(a) if a.len() == 1 => crate::render::tf_text::str_of(&a[0]),
                Some(a) => crate::render::tf_text::repr_of(&Value::Tuple(a.clone())),
                None => repr.clone(),
            },
        };
        i.set_shown(repr, str);
        Ok(())
    }

    /// `a + b` with an instance on either side (for `sum`).
    pub fn add_values(&mut self, a: &Value, b: &Value, span: Span) -> Result<Value> {
        self.instance_binary(BinOp::Add, a, b, span)
    }

    /// `a < b` for sorting, with instances' `__lt__`.
    pub fn less_than(&mut self, a: &Value, b: &Value, span: Span) -> Result<bool> {
        if is_instance(a) || is_instance(b) {
            let r = self.instance_binary(BinOp::Lt, a, b, span)?;
            return self.truth(&r, span);
        }
        match operators::binary(BinOp::Lt, a, b).and_then(|r| r.truthy()) {
            Ok(t) => Ok(t),
            // Lists or tuples of instances compare item by item with their methods.
            Err(_) if super::protocols::orders_instances(a, b) => {
                let r = self.sequence_order(BinOp::Lt, a, b, span)?;
                self.truth(&r, span)
            }
            Err(e) => Err(Error::from(e).at(span)),
        }
    }
}

fn unsupported(op: BinOp, a: &Value, b: &Value, span: Span) -> Error {
    let msg = if op.is_comparison() {
        format!(
            "'{}' not supported between instances of '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        )
    } else {
        format!(
            "unsupported operand type(s) for {}: '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        )
    };
    Error::new(ExceptionClass::TypeError, msg).at(span)
}

/// A sequence that `*` repeats.
fn is_sequence(v: &Value) -> bool {
    matches!(
        v,
        Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Bytes(_) | Value::ByteArray(_)
    )
}

/// CPython's error for `seq * x` when `x` is not an integer.
fn sequence_times(seq: &Value, n: &Value, span: Span) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "can't multiply sequence by non-int of type '{}'",
            n.type_name()
        ),
    )
    .at(span)
    .with_hint(format!("repeat a {} by an int", seq.type_name()))
}
