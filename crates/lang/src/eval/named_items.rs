//! Items and methods of a list or dict that a variable holds, reached in place: `xs[i]`,
//! `counts[k] = v`, `counts.get(k, 0)`, `xs.append(x)`, where the key or each argument is a
//! name or a literal.
//!
//! The general path evaluates the container first, which takes a reference to it (an atomic
//! count up, and down again when the statement ends): in a loop that costs more than the
//! store itself. Here the key and arguments are evaluated first — reading a name or a
//! literal has no effect, so the order cannot be seen — and the container is then looked
//! at where the variable holds it. Anything else (a container of another kind, a key that
//! is an instance, a defaultdict's missing key, a failing name) goes the general way, which
//! evaluates everything again in Python's order and raises Python's errors.

use super::items::{self, Sub};
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::{DictKind, Value};
use ragtag_syntax::ast::{Arg, Expr, ExprKind, Ident, Index, Span};

/// Whether evaluating `e` neither runs code nor changes anything: a name or a literal.
pub(super) fn inert(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Name(_)
            | ExprKind::Int(_)
            | ExprKind::Str(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::None
    )
}

/// A key the containers here take as they are: no hashing or indexing that could run code.
fn plain_key(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Str(_) | Value::Bool(_))
}

/// The variable `obj` names and the one expression `index` holds, when both are plain.
fn named_key<'e>(obj: &'e Expr, index: &'e [Index]) -> Option<(&'e Ident, &'e Expr)> {
    match (&obj.kind, index) {
        (ExprKind::Name(n), [Index::Expr(k)]) if inert(k) => Some((n, k)),
        _ => None,
    }
}

impl Interp<'_> {
    /// `x[k]` in place (see the module docs); `None` when the general path must answer.
    #[inline(never)]
    pub(super) fn named_item(
        &mut self,
        obj: &Expr,
        index: &[Index],
        span: Span,
    ) -> Option<Result<Value>> {
        let (x, k) = named_key(obj, index)?;
        let key = self.eval(k).ok().filter(plain_key)?;
        match self.peek_ident(x)? {
            o @ (Value::List(_) | Value::Tuple(_)) => {
                Some(items::get_item(o, &Sub::Key(key, k.span), span))
            }
            o @ Value::Dict(d) if matches!(d.kind(), DictKind::Plain | DictKind::Ordered) => {
                Some(items::get_item(o, &Sub::Key(key, k.span), span))
            }
            _ => None,
        }
    }

    /// `x[k] = v` in place (see the module docs); `Err(v)` hands the value back when the
    /// general path must store it.
    #[inline(never)]
    pub(super) fn store_named_item(
        &mut self,
        obj: &Expr,
        index: &[Index],
        v: Value,
        span: Span,
    ) -> std::result::Result<Result<()>, Value> {
        let Some((x, k)) = named_key(obj, index) else {
            return Err(v);
        };
        let key = match self.eval(k) {
            Ok(key) if plain_key(&key) => key,
            _ => return Err(v),
        };
        match self.peek_ident(x) {
            Some(o @ (Value::List(_) | Value::Dict(_))) => {
                Ok(items::set_item(o, Sub::Key(key, k.span), v, span))
            }
            _ => Err(v),
        }
    }

    /// `x.append(a)` on a list or `x.get(k)`, `x.get(k, default)` on a dict, in place (see
    /// the module docs); `None` when the general path must answer.
    #[inline(never)]
    pub(super) fn named_container_method(
        &mut self,
        obj: &Expr,
        name: &str,
        args: &[Arg],
    ) -> Option<Result<Value>> {
        let ExprKind::Name(x) = &obj.kind else {
            return None;
        };
        let wanted = match name {
            "append" => 1..=1,
            "get" => 1..=2,
            _ => return None,
        };
        if !wanted.contains(&args.len())
            || args
                .iter()
                .any(|a| a.star || a.double_star || a.name.is_some() || !inert(&a.value))
        {
            return None;
        }
        let first = self.eval(&args[0].value).ok()?;
        let second = match args.get(1) {
            Some(a) => self.eval(&a.value).ok()?,
            None => Value::None,
        };
        // Iterators, instances and NumPy arrays take the general path, which primes or
        // converts them as the method needs.
        let general =
            |v: &Value| matches!(v, Value::Iter(_) | Value::Instance(_) | Value::NdArray(_));
        if general(&first) || general(&second) {
            return None;
        }
        if let Err(e) = self.check_cancel() {
            return Some(Err(e));
        }
        match (self.peek_ident(x)?, name) {
            (Value::List(l), "append") => {
                l.with_mut(|items| items.push(first));
                Some(Ok(Value::None))
            }
            (Value::Dict(d), "get") => Some(
                d.get(&first)
                    .map(|found| found.unwrap_or(second))
                    .map_err(|e| Error::from(e).at(args[0].value.span)),
            ),
            _ => None,
        }
    }
}
