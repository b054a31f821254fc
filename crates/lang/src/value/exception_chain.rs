//! What an exception object carries beside its arguments: `__cause__` (`raise … from`),
//! `__context__` (the exception being handled when it was raised), `__suppress_context__`
//! and, for builtin exceptions, `__notes__` (`add_note`). They are kept by the object's
//! identity, for builtin exceptions and the user's exception instances alike, and dropped
//! with the object.

use std::cell::RefCell;
use std::sync::{Arc, Weak};

use super::class::Instance;
use super::Value;
use ragtag_engine::Exception;

/// Which object an entry belongs to, held weakly.
enum Key {
    Builtin(Weak<Exception>),
    User(Weak<Instance>),
}

impl Key {
    fn of(v: &Value) -> Option<Key> {
        match v {
            Value::Exception(e) => Some(Key::Builtin(Arc::downgrade(e))),
            Value::Instance(i) => Some(Key::User(Arc::downgrade(i))),
            _ => None,
        }
    }
    fn is(&self, v: &Value) -> bool {
        match (self, v) {
            (Key::Builtin(w), Value::Exception(e)) => std::ptr::eq(w.as_ptr(), Arc::as_ptr(e)),
            (Key::User(w), Value::Instance(i)) => std::ptr::eq(w.as_ptr(), Arc::as_ptr(i)),
            _ => false,
        }
    }
    fn alive(&self) -> bool {
        match self {
            Key::Builtin(w) => w.strong_count() > 0,
            Key::User(w) => w.strong_count() > 0,
        }
    }
}

/// The chaining fields of one exception object.
#[derive(Clone, Default)]
pub struct Chain {
    /// `__cause__`: what `raise … from cause` named (None when not set).
    pub cause: Option<Value>,
    /// `__context__`: the exception being handled when this one was raised.
    pub context: Option<Value>,
    /// `__suppress_context__`: set by `raise … from`.
    pub suppress: bool,
    /// `__notes__` of a builtin exception (a user instance keeps them as an attribute).
    pub notes: Option<Value>,
}

thread_local! {
    static CHAINS: RefCell<Vec<(Key, Chain)>> = const { RefCell::new(Vec::new()) };
}

/// The chaining fields of `v` (all unset for an object that has none).
pub fn chain_of(v: &Value) -> Chain {
    CHAINS.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| k.is(v))
            .map(|(_, ch)| ch.clone())
            .unwrap_or_default()
    })
}

/// Changes the chaining fields of `v`; nothing for a value that is not an exception object.
pub fn update_chain(v: &Value, change: impl FnOnce(&mut Chain)) {
    let Some(key) = Key::of(v) else { return };
    CHAINS.with(|c| {
        let mut c = c.borrow_mut();
        if let Some((_, ch)) = c.iter_mut().find(|(k, _)| k.is(v)) {
            change(ch);
            return;
        }
        // Entries of objects gone are dropped before the table grows.
        if c.len() >= 64 && c.len().is_power_of_two() {
            c.retain(|(k, _)| k.alive());
        }
        let mut ch = Chain::default();
        change(&mut ch);
        c.push((key, ch));
    });
}

/// The chaining attribute `name` of the exception object `v`: `__cause__`, `__context__`,
/// `__suppress_context__`, `__traceback__` (ragtag keeps no tracebacks: None) and a builtin
/// exception's `__notes__` once a note was added. None for other names.
pub fn chain_attr(v: &Value, name: &str) -> Option<Value> {
    let ch = || chain_of(v);
    Some(match name {
        "__cause__" => ch().cause.unwrap_or(Value::None),
        "__context__" => ch().context.unwrap_or(Value::None),
        "__suppress_context__" => Value::Bool(ch().suppress),
        "__traceback__" => Value::None,
        "__notes__" if matches!(v, Value::Exception(_)) => ch().notes?,
        _ => return None,
    })
}
