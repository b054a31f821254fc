//! Dict views: `d.keys()`, `d.values()` and `d.items()`, live windows on a dict (they read
//! the dict each time, so they show later changes).

use std::sync::Arc;

use super::{PyDict, PySet, Value};
use ragtag_engine::Exception;

/// Which view of a dict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// `d.keys()`.
    Keys,
    /// `d.values()`.
    Values,
    /// `d.items()`: `(key, value)` tuples.
    Items,
}

/// A view of a dict.
#[derive(Debug)]
pub struct DictView {
    /// The dict it shows.
    pub dict: Arc<PyDict>,
    /// What of the dict it shows.
    pub kind: ViewKind,
}

impl DictView {
    /// The class name (`dict_keys`).
    pub fn name(&self) -> &'static str {
        match self.kind {
            ViewKind::Keys => "dict_keys",
            ViewKind::Values => "dict_values",
            ViewKind::Items => "dict_items",
        }
    }

    /// The items, in the dict's order now.
    pub fn items(&self) -> Vec<Value> {
        match self.kind {
            ViewKind::Keys => self.dict.keys(),
            ViewKind::Values => self.dict.values(),
            ViewKind::Items => self
                .dict
                .items()
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect(),
        }
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.dict.len()
    }

    /// Whether the dict is empty.
    pub fn is_empty(&self) -> bool {
        self.dict.is_empty()
    }

    /// Whether the view is set-like (keys and items are; values are not).
    pub fn set_like(&self) -> bool {
        self.kind != ViewKind::Values
    }

    /// A set of the items (for the set operators of keys and items).
    pub fn to_set(&self) -> Result<Arc<PySet>, Exception> {
        PySet::from_items(self.items(), false)
    }
}
