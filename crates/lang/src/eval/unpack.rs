//! Unpacking: `f(*xs, **kw)` at call sites, `[*a, *b]` and `{**d, 'k': v}` in displays,
//! and starred targets (`a, *rest = xs`). Reading and building dict values happens only in
//! [`dict_pairs`] and [`make_dict`].

use super::args::CallArg;
use super::{subscript, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::{PyDict, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::{Arg, Expr, ExprKind, Span, Target};

/// The `(key, value)` pairs of a dict in insertion order; `None` for any other value.
pub(crate) fn dict_pairs(v: &Value) -> Option<Vec<(Value, Value)>> {
    match v {
        Value::Dict(d) => Some(d.items()),
        // An instance of a class deriving from dict.
        Value::Instance(i) => dict_pairs(i.base()?),
        _ => None,
    }
}

/// A dict of `pairs` whose keys are strings (keyword arguments), in their order.
pub(crate) fn make_dict(pairs: Vec<(String, Value)>) -> Value {
    Value::Dict(crate::value::PyDict::from_str_keys(pairs))
}

/// The name a callee shows in argument errors (`f`, `print`).
fn callee_name(func: &Value) -> String {
    match func {
        Value::Closure(c) => c.name.clone(),
        Value::Builtin(b) => b.name.to_string(),
        Value::Method(m) => m.builtin.name.to_string(),
        other => other.type_name().to_string(),
    }
}

impl<'s> Interp<'s> {
    /// Evaluates a call's arguments, spreading `*iterable` into positional arguments and
    /// `**mapping` into keyword ones (a keyword given twice is CPython's TypeError).
    pub(super) fn call_args(&mut self, func: &Value, args: &[Arg]) -> Result<Vec<CallArg>> {
        let mut out: Vec<CallArg> = Vec::new();
        self.call_args_into(func, args, &mut out)?;
        Ok(out)
    }

    /// [`Self::call_args`] appending to `out` (which may already hold a method's receiver).
    pub(super) fn call_args_into(
        &mut self,
        func: &Value,
        args: &[Arg],
        out: &mut Vec<CallArg>,
    ) -> Result<()> {
        let repeated = |name: &str, span: Span| {
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "{}() got multiple values for keyword argument '{name}'",
                    callee_name(func)
                ),
            )
            .at(span)
        };
        for a in args {
            let v = self.eval(&a.value)?;
            let span = a.value.span;
            let v = match v {
                Value::Iter(_) if a.star => Value::list(self.collect(&v, span)?),
                Value::Instance(_) if a.star && super::user_iter::iterable(&v) => {
                    Value::list(self.iterate_value(&v, span)?)
                }
                v => v,
            };
            if a.star {
                let items = subscript::iterate(&v).map_err(|_| {
                    Error::new(
                        ExceptionClass::TypeError,
                        format!(
                            "{}() argument after * must be an iterable, not {}",
                            callee_name(func),
                            v.type_name()
                        ),
                    )
                    .at(span)
                })?;
                out.extend(items.into_iter().map(|value| CallArg {
                    name: None,
                    value,
                    span,
                }));
            } else if a.double_star {
                let Some(pairs) = dict_pairs(&v) else {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!(
                            "{}() argument after ** must be a mapping, not {}",
                            callee_name(func),
                            v.type_name()
                        ),
                    )
                    .at(span));
                };
                for (k, value) in pairs {
                    let Value::Str(name) = k else {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            "keywords must be strings",
                        )
                        .at(span));
                    };
                    if out.iter().any(|c| c.name.as_deref() == Some(name.as_str())) {
                        return Err(repeated(&name, span));
                    }
                    out.push(CallArg {
                        name: Some(name.to_string()),
                        value,
                        span,
                    });
                }
            } else {
                if let Some(name) = &a.name {
                    if out.iter().any(|c| c.name.as_ref() == Some(name)) {
                        return Err(repeated(name, span));
                    }
                }
                out.push(CallArg {
                    name: a.name.clone(),
                    value: v,
                    span,
                });
            }
        }
        Ok(())
    }

    /// The items of a list or tuple display, `*iterable` items spread in place.
    pub(super) fn display_items(&mut self, items: &[Expr]) -> Result<Vec<Value>> {
        // Room for one value per item written (a starred item grows it as it goes).
        #[allow(clippy::disallowed_methods)] // sized by the source text
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match &item.kind {
                ExprKind::Starred(inner) => {
                    let v = self.eval(inner)?;
                    let v = match v {
                        Value::Iter(_) => Value::list(self.collect(&v, inner.span)?),
                        Value::Instance(_) if super::user_iter::iterable(&v) => {
                            Value::list(self.iterate_value(&v, inner.span)?)
                        }
                        v => v,
                    };
                    let values = subscript::iterate(&v).map_err(|_| {
                        Error::new(
                            ExceptionClass::TypeError,
                            format!("Value after * must be an iterable, not {}", v.type_name()),
                        )
                        .at(item.span)
                    })?;
                    ragtag_engine::budget::grow("list display", &mut out, values.len())
                        .map_err(|e| Error::from(e).at(item.span))?;
                    out.extend(values);
                }
                _ => out.push(self.eval(item)?),
            }
        }
        Ok(out)
    }

    /// A dict display: `key: value` pairs and `**mapping` items, later keys overriding
    /// earlier ones in their first place.
    pub(super) fn dict_display(&mut self, items: &[(Option<Expr>, Expr)]) -> Result<Value> {
        let out = PyDict::new(Vec::new()).map_err(Error::from)?;
        for (k, v) in items {
            let Some(k) = k else {
                let m = self.eval(v)?;
                let Some(pairs) = dict_pairs(&m) else {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("'{}' object is not a mapping", m.type_name()),
                    )
                    .at(v.span));
                };
                for (key, value) in pairs {
                    out.insert(key, value)
                        .map_err(|e| Error::from(e).at(v.span))?;
                }
                continue;
            };
            let key = self.eval(k)?;
            self.prime_key(&key, k.span)?;
            let value = self.eval(v)?;
            out.insert(key, value)
                .map_err(|e| Error::from(e).at(k.span))?;
        }
        Ok(Value::Dict(out))
    }

    /// Binds the items of `v` to a tuple target with one starred item: the names before
    /// and after it take one item each, the starred one a list of the rest.
    pub(super) fn assign_starred(
        &mut self,
        targets: &[Target],
        star: usize,
        items: Vec<Value>,
        span: Span,
    ) -> Result<()> {
        let fixed = targets.len() - 1;
        if items.len() < fixed {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "not enough values to unpack (expected at least {fixed}, got {})",
                    items.len()
                ),
            )
            .at(span));
        }
        let after = targets.len() - star - 1;
        let mut items = items;
        let tail = items.split_off(items.len() - after);
        let middle = items.split_off(star);
        for (t, item) in targets[..star].iter().zip(items) {
            self.assign(t, item)?;
        }
        if let Target::Starred(inner, _) = &targets[star] {
            self.assign(inner, Value::list(middle))?;
        }
        for (t, item) in targets[star + 1..].iter().zip(tail) {
            self.assign(t, item)?;
        }
        Ok(())
    }
}
