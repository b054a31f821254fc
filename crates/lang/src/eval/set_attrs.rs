//! Setting and deleting attributes (`obj.name = v`, `del obj.name`) on the user's
//! instances and classes and on functions: a class's `__setattr__` / `__delattr__`, a data
//! descriptor or property, `__slots__`, and a named tuple's read-only fields.

use super::classes::{arg, attr_error, is_wrapper};
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::class::{attr_del, attr_get, attr_set, AttrStore, Instance};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::{BinOp, Expr, ExprKind, Ident, Index, Span};
use std::sync::Arc;

/// CPython's AttributeError for setting or deleting (`what`) an attribute of a named tuple:
/// its fields are read-only, and its class's `__slots__ = ()` allows no other.
fn named_tuple_attr(i: &Instance, fields: &[String], name: &str, what: &str, span: Span) -> Error {
    if fields.iter().any(|f| f == name) {
        return attr_error(format!("can't {what} attribute"), span).with_hint(
            "a named tuple is immutable: `p._replace(field=value)` makes a changed copy",
        );
    }
    attr_error(
        format!("'{}' object has no attribute '{name}'", i.class.name),
        span,
    )
}

impl Interp<'_> {
    /// `obj.name = v` on an instance or a class; `false` for other values.
    pub(super) fn set_object_attr(
        &mut self,
        o: &Value,
        name: &str,
        v: Value,
        span: Span,
    ) -> Result<bool> {
        if let Value::Instance(i) = o {
            if i.class.plain_instances() && i.class.slot_names().is_none() {
                attr_set(&i.attrs, name, v);
                self.reprime(o, span);
                return Ok(true);
            }
        }
        if let Some(f) = super::protocols::hook(o, "__setattr__") {
            self.call_method(o, &f, vec![arg(Value::str(name), span), arg(v, span)], span)?;
            return Ok(true);
        }
        self.set_attr_raw(o, name, v, span)
    }

    /// `x.name op= e` done by [`Self::aug_own_attr`] when `x` is a variable and `e` a name
    /// or a literal (evaluating it first changes nothing); false when it was not.
    #[inline(never)]
    pub(super) fn aug_named_attr(&mut self, x: &Expr, name: &str, op: BinOp, e: &Expr) -> bool {
        let ExprKind::Name(x) = &x.kind else {
            return false;
        };
        super::named_items::inert(e)
            && self
                .eval(e)
                .is_ok_and(|operand| self.aug_own_attr(x, name, op, &operand))
    }

    /// `x.name op= operand` where the variable `x` holds an instance whose own attribute
    /// `name` and `operand` are numbers (`self.total += x`): the attribute is changed in
    /// place under one lock, without taking a reference to the instance. False when any of
    /// that does not hold, or the operator fails, leaving everything as it was for the
    /// general path (which raises the error).
    pub(super) fn aug_own_attr(&self, x: &Ident, name: &str, op: BinOp, operand: &Value) -> bool {
        if !matches!(operand, Value::Int(_) | Value::Float(_)) {
            return false;
        }
        let Some(Value::Instance(i)) = self.peek_ident(x) else {
            return false;
        };
        if matches!(name, "__class__" | "__dict__")
            || !i.class.plain_instances()
            || i.class.slot_names().is_some()
            || i.user_hash().is_some()
        {
            return false;
        }
        crate::value::class::attr_update(&i.attrs, name, |current| match (current, operand) {
            (Value::Int(a), Value::Int(b)) => super::operators::small_ints(op, *a, *b)
                .or_else(|| super::operators::binary(op, current, operand).ok()),
            (Value::Int(_) | Value::Float(_), _) => {
                super::operators::binary(op, current, operand).ok()
            }
            _ => None,
        })
    }

    /// `object.__setattr__`: sets the attribute without the class's `__setattr__`.
    pub(super) fn set_attr_raw(
        &mut self,
        o: &Value,
        name: &str,
        v: Value,
        span: Span,
    ) -> Result<bool> {
        match o {
            Value::Instance(i) if i.class.is_python() => {
                let found = i.class.lookup(name);
                if let Some(f) = &found {
                    if self.descriptor_set(f, o, &v, span)? {
                        return Ok(true);
                    }
                }
                if let Some(Value::Instance(p)) = found {
                    if is_wrapper(&p, "property") {
                        return match attr_get(&p.attrs, "fset") {
                            Some(Value::None) | None => Err(attr_error(
                                format!(
                                    "property '{name}' of '{}' object has no setter",
                                    i.class.name
                                ),
                                span,
                            )),
                            Some(f) => {
                                self.call_values(&f, vec![o.clone(), v], span)?;
                                Ok(true)
                            }
                        };
                    }
                }
                if let Some(fields) = crate::value::named::fields(i) {
                    return Err(named_tuple_attr(i, &fields, name, "set", span));
                }
                if let Some(slots) = i.class.slot_names() {
                    if !slots.iter().any(|s| s == name) {
                        return Err(attr_error(
                            format!("'{}' object has no attribute '{name}'", i.class.name),
                            span,
                        ));
                    }
                }
                attr_set(&i.attrs, name, v);
                self.reprime(o, span);
                Ok(true)
            }
            Value::Class(c) if c.is_python() => {
                attr_set(&c.attrs, name, v);
                Ok(true)
            }
            Value::Closure(c) => {
                attr_set(&c.attrs, name, v);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `del obj.name` on an instance or a class; `false` for other values.
    pub(super) fn del_object_attr(&mut self, o: &Value, name: &str, span: Span) -> Result<bool> {
        if let Some(f) = super::protocols::hook(o, "__delattr__") {
            self.call_method(o, &f, vec![arg(Value::str(name), span)], span)?;
            return Ok(true);
        }
        self.del_attr_raw(o, name, span)
    }

    /// `object.__delattr__`: removes the attribute without the class's `__delattr__`.
    pub(super) fn del_attr_raw(&mut self, o: &Value, name: &str, span: Span) -> Result<bool> {
        let (attrs, msg) = match o {
            Value::Instance(i) if i.class.is_python() => {
                let found = i.class.lookup(name);
                if let Some(f) = &found {
                    if self.descriptor_delete(f, o, span)? {
                        return Ok(true);
                    }
                }
                if let Some(Value::Instance(p)) = found {
                    if is_wrapper(&p, "property") {
                        return Err(attr_error(
                            format!(
                                "property '{name}' of '{}' object has no deleter",
                                i.class.name
                            ),
                            span,
                        ));
                    }
                }
                if let Some(fields) = crate::value::named::fields(i) {
                    return Err(named_tuple_attr(i, &fields, name, "delete", span));
                }
                (
                    &i.attrs as &dyn AttrStore,
                    format!("'{}' object has no attribute '{name}'", i.class.name),
                )
            }
            Value::Class(c) if c.is_python() => (
                &c.attrs as &dyn AttrStore,
                format!("type object '{}' has no attribute '{name}'", c.name),
            ),
            _ => return Ok(false),
        };
        if attr_del(attrs, name) {
            Ok(true)
        } else {
            Err(attr_error(msg, span))
        }
    }
}

/// A key of an instance's `__dict__` as the attribute name it is.
fn attr_name(key: &Value, span: Span) -> Result<&str> {
    match key {
        Value::Str(name) => Ok(name),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "ragtag keeps only str keys in __dict__, not {}",
                other.type_name()
            ),
        )
        .at(span)
        .with_hint("an attribute name is a str")),
    }
}

/// What `obj` is in `obj[k] = v` or `del obj[k]` (see [`Interp::item_owner`]).
pub(super) enum ItemOwner {
    /// `x.__dict__` of an instance with a `__dict__`: its key is `x`'s attribute.
    Attrs(Arc<Instance>),
    /// Any other container, evaluated.
    Value(Value),
}

impl Interp<'_> {
    /// The container of a subscript target. `x.__dict__[name] = v` (the idiom of
    /// descriptors and of `__setattr__` hooks) sets `x`'s attribute `name` without its
    /// class's hooks, as in CPython: ragtag's `__dict__` is a copy, so the item is set on
    /// the instance itself.
    /// A class's `__dict__` is read-only (CPython's mappingproxy): `deleting` says which
    /// change its TypeError names.
    pub(super) fn item_owner(&mut self, obj: &Expr, deleting: bool) -> Result<ItemOwner> {
        if let ExprKind::Attr(inner, name) = &obj.kind {
            if name == "__dict__" {
                let x = self.eval(inner)?;
                if let Value::Class(c) = &x {
                    let what = if deleting { "deletion" } else { "assignment" };
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("'mappingproxy' object does not support item {what}"),
                    )
                    .at(obj.span)
                    .with_hint(format!(
                        "a class's __dict__ is read-only: `setattr({}, name, value)` sets a class attribute",
                        c.name
                    )));
                }
                if let Value::Instance(i) = &x {
                    if i.class.is_python() && i.class.slot_names().is_none() {
                        return Ok(ItemOwner::Attrs(i.clone()));
                    }
                }
                return self
                    .get_attr(x, name, obj.span, inner.span)
                    .map(ItemOwner::Value);
            }
        }
        self.eval(obj).map(ItemOwner::Value)
    }

    /// `x.__dict__[k] = v` (`v` is `Some`) or `del x.__dict__[k]` on the instance `i`.
    pub(super) fn dict_item(
        &mut self,
        i: &Arc<Instance>,
        index: &[Index],
        v: Option<Value>,
        span: Span,
    ) -> Result<()> {
        let key = match index {
            [Index::Expr(e)] => self.eval(e)?,
            _ => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "an instance's __dict__ takes one key",
                )
                .at(span))
            }
        };
        let name = attr_name(&key, span)?;
        match v {
            Some(v) => attr_set(&i.attrs, name, v),
            None if attr_del(&i.attrs, name) => {}
            None => {
                return Err(Error::new(
                    ExceptionClass::KeyError,
                    crate::render::tf_text::repr_of(&key),
                )
                .at(span))
            }
        }
        let this = Value::Instance(i.clone());
        self.reprime(&this, span);
        Ok(())
    }
}

impl Interp<'_> {
    /// `x.__dict__.update(…)` on the instance `i`: `updated` is a new dict the call's
    /// arguments updated, whose pairs become `i`'s attributes.
    pub(super) fn dict_update(
        &mut self,
        i: &Arc<Instance>,
        updated: &Value,
        span: Span,
    ) -> Result<Value> {
        let Value::Dict(d) = updated else {
            return Ok(Value::None);
        };
        for (k, v) in d.items() {
            attr_set(&i.attrs, attr_name(&k, span)?, v);
        }
        self.reprime(&Value::Instance(i.clone()), span);
        Ok(Value::None)
    }
}
