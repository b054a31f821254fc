//! A copy of a value as it is now, for showing it: lists and dicts are shared and mutable,
//! so a value displayed while a program runs is copied before later statements change it.

use std::collections::HashMap;
use std::sync::Arc;

use super::{PyDict, PyList, Value};

/// A deep copy of the lists, dicts and tuples in `v` (a container that holds itself is
/// copied as one that holds its copy); every other value is shared.
pub fn snapshot(v: &Value) -> Value {
    copy(v, &mut HashMap::new())
}

fn copy(v: &Value, memo: &mut HashMap<usize, Value>) -> Value {
    if ragtag_engine::guard::too_deep() {
        return v.clone();
    }
    match v {
        Value::List(l) => {
            let id = Arc::as_ptr(l) as *const () as usize;
            if let Some(done) = memo.get(&id) {
                return done.clone();
            }
            if !l.has_items() {
                // A display not yet taken apart: its literal never changes.
                if let Some(lit) = l.cached_literal() {
                    return Value::List(PyList::from_literal(lit));
                }
            }
            let new = PyList::new(Vec::new(), l.is_display());
            memo.insert(id, Value::List(new.clone()));
            let items = l.items().iter().map(|x| copy(x, memo)).collect();
            new.set_items(items);
            Value::List(new)
        }
        Value::Dict(d) => {
            let id = Arc::as_ptr(d) as *const () as usize;
            if let Some(done) = memo.get(&id) {
                return done.clone();
            }
            // A Counter's copy is a Counter (and shows as one).
            let new = PyDict::of_kind(d.kind().clone());
            memo.insert(id, Value::Dict(new.clone()));
            for (k, x) in d.items() {
                // Keys were hashable when they went in, and copies hash alike.
                let _ = new.insert(k, copy(&x, memo));
            }
            Value::Dict(new)
        }
        Value::Tuple(items)
            if items
                .iter()
                .any(|x| matches!(x, Value::List(_) | Value::Dict(_) | Value::Tuple(_))) =>
        {
            Value::tuple(items.iter().map(|x| copy(x, memo)).collect())
        }
        Value::Deque(d) => Value::Deque(Arc::new(super::deque::PyDeque::new(
            d.items().iter().map(|x| copy(x, memo)).collect(),
            d.maxlen,
        ))),
        other => other.clone(),
    }
}
