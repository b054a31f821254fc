//! Items of `collections`' containers: a Counter's missing count (0), a defaultdict's
//! missing key (its `default_factory()`, stored), and a deque's items by index.

use std::sync::Arc;

use super::items::Sub;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::deque::PyDeque;
use crate::value::{DictKind, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

impl<'s> Interp<'s> {
    /// `d[k]` for a Counter or defaultdict whose key is missing; None when the usual
    /// look-up answers (the key is there, or the dict has no default).
    pub(super) fn dict_missing(
        &mut self,
        obj: &Value,
        sub: &Sub,
        span: Span,
    ) -> Result<Option<Value>> {
        let (Value::Dict(d), Sub::Key(k, at)) = (obj, sub) else {
            return Ok(None);
        };
        let factory = match d.kind() {
            DictKind::Plain | DictKind::Ordered => return Ok(None),
            DictKind::Default(Value::None) => return Ok(None),
            DictKind::Counter => None,
            DictKind::Default(f) => Some(f.clone()),
        };
        if d.contains(k).map_err(|e| Error::from(e).at(*at))? {
            return Ok(None);
        }
        let Some(f) = factory else {
            return Ok(Some(Value::Int(0)));
        };
        let v = self.call(&f, Vec::new(), span)?;
        d.insert(k.clone(), v.clone())
            .map_err(|e| Error::from(e).at(*at))?;
        Ok(Some(v))
    }
}

/// The position of index `k` in a deque of `n` items.
fn deque_position(k: &Value, n: usize, at: Span) -> Result<usize> {
    let i = match k {
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "sequence index must be integer, not '{}'",
                    other.type_name()
                ),
            )
            .at(at))
        }
    };
    let p = if i < 0 { i + n as i64 } else { i };
    if p < 0 || p >= n as i64 {
        return Err(Error::new(ExceptionClass::IndexError, "deque index out of range").at(at));
    }
    Ok(p as usize)
}

fn no_slices(span: Span) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        "sequence index must be integer, not 'slice'",
    )
    .at(span)
}

/// `d[i]`.
pub fn deque_get(d: &Arc<PyDeque>, sub: &Sub, span: Span) -> Result<Value> {
    let Sub::Key(k, at) = sub else {
        return Err(no_slices(span));
    };
    let p = deque_position(k, d.len(), *at)?;
    Ok(d.with_mut(|q| q[p].clone()))
}

/// `d[i] = v`.
pub fn deque_set(d: &Arc<PyDeque>, sub: Sub, v: Value, span: Span) -> Result<()> {
    let Sub::Key(k, at) = sub else {
        return Err(no_slices(span));
    };
    let p = deque_position(&k, d.len(), at)?;
    d.with_mut(|q| q[p] = v);
    Ok(())
}

/// `del d[i]`.
pub fn deque_del(d: &Arc<PyDeque>, sub: Sub, span: Span) -> Result<()> {
    let Sub::Key(k, at) = sub else {
        return Err(no_slices(span));
    };
    let p = deque_position(&k, d.len(), at)?;
    d.with_mut(|q| q.remove(p));
    Ok(())
}
