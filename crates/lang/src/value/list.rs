//! Python lists: one shared, mutable object per list, so every name and container holding it
//! sees `append`, `l[i] = v` and `del l[i]` (Python's aliasing). A list display of literals
//! (`[[1, 2], [3]]`, a data block) keeps the parser's typed literal until an item is taken out
//! or changed, so a large literal that only ever becomes a tensor is never turned into
//! millions of Python values.

use std::cell::RefCell;
use std::sync::Arc;

use ragtag_engine::columns::ListLiteral;
use ragtag_engine::literal::{Leaf, Nested};
use spin::Mutex;

use super::Value;

/// A Python list.
pub struct PyList {
    state: Mutex<State>,
    /// Made by a list display (or kept one by an operation on displays): shown at the prompt
    /// as the table of the tensor it would become.
    display: bool,
}

/// At least one of the two is set; when both are, `literal` is the items as a literal.
struct State {
    items: Option<Vec<Value>>,
    literal: Option<Arc<ListLiteral>>,
}

impl PyList {
    /// A list of these items.
    pub fn new(items: Vec<Value>, display: bool) -> Arc<PyList> {
        Arc::new(PyList {
            state: Mutex::new(State {
                items: Some(items),
                literal: None,
            }),
            display,
        })
    }

    /// The list a display of literals makes.
    pub fn from_literal(literal: Arc<ListLiteral>) -> Arc<PyList> {
        Arc::new(PyList {
            state: Mutex::new(State {
                items: None,
                literal: Some(literal),
            }),
            display: true,
        })
    }

    /// Whether the list came from a list display (shown as a table when it makes a tensor).
    pub fn is_display(&self) -> bool {
        self.display
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        let st = self.state.lock();
        match (&st.items, &st.literal) {
            (Some(items), _) => items.len(),
            (None, Some(lit)) => match lit.tree() {
                Nested::List(v) => v.len(),
                Nested::Leaf(_) => 0,
            },
            (None, None) => 0,
        }
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of the items (the values themselves are shared, as Python's are).
    pub fn items(&self) -> Vec<Value> {
        let mut st = self.state.lock();
        materialize(&mut st).clone()
    }

    /// The item at a position already checked against `len`, or None past the end.
    pub fn get(&self, i: usize) -> Option<Value> {
        let mut st = self.state.lock();
        materialize(&mut st).get(i).cloned()
    }

    /// Runs `f` on the items to change them. `f` must not evaluate user code or lock another
    /// list: it runs under this list's lock.
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut Vec<Value>) -> R) -> R {
        let mut st = self.state.lock();
        materialize(&mut st);
        st.literal = None;
        f(st.items.as_mut().expect("materialized"))
    }

    /// Replaces every item.
    pub fn set_items(&self, items: Vec<Value>) {
        let mut st = self.state.lock();
        st.items = Some(items);
        st.literal = None;
    }

    /// The list as a literal, when every item is a number, bool, string or a list that is one
    /// too (what a tensor can be made of); None otherwise, and for a list that holds itself.
    pub fn literal(&self) -> Option<Arc<ListLiteral>> {
        let items = {
            let st = self.state.lock();
            if let Some(lit) = &st.literal {
                return Some(lit.clone());
            }
            st.items.clone()?
        };
        let _entered = Entered::enter_id(self as *const PyList as *const () as usize)?;
        let mut nested = Vec::new();
        let mut flat = true;
        for v in &items {
            nested.push(match v {
                Value::List(l) => {
                    flat = false;
                    l.literal()?.tree().clone()
                }
                other => scalar_nested(other)?,
            });
        }
        let lit = Arc::new(ListLiteral::from(Nested::List(nested)));
        if flat {
            // Items that are scalars cannot change behind this list's back: keep it.
            let mut st = self.state.lock();
            if st
                .items
                .as_ref()
                .is_some_and(|now| now.len() == items.len())
            {
                st.literal = Some(lit.clone());
            }
        }
        Some(lit)
    }

    /// Whether the items exist as values (else only the literal does).
    pub fn has_items(&self) -> bool {
        self.state.lock().items.is_some()
    }

    /// The literal already known for the list, without working one out.
    pub fn cached_literal(&self) -> Option<Arc<ListLiteral>> {
        self.state.lock().literal.clone()
    }
}

impl std::fmt::Debug for PyList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[list]")
    }
}

/// The items, made from the literal on first use. Nested displays become lists of their own,
/// which may then change, so the literal is only kept for a flat list.
fn materialize(st: &mut State) -> &mut Vec<Value> {
    if st.items.is_none() {
        let (items, flat) = match st.literal.as_ref().map(|l| l.tree()) {
            Some(Nested::List(children)) => (
                children.iter().map(super::literal_item).collect::<Vec<_>>(),
                children.iter().all(|c| matches!(c, Nested::Leaf(_))),
            ),
            _ => (Vec::new(), true),
        };
        if !flat {
            st.literal = None;
        }
        st.items = Some(items);
    }
    st.items.as_mut().expect("set above")
}

/// A scalar item as a literal leaf.
fn scalar_nested(v: &Value) -> Option<Nested> {
    Some(Nested::Leaf(match v {
        Value::Bool(b) => Leaf::Bool(*b),
        Value::Int(i) => Leaf::Int(*i),
        Value::Float(f) => Leaf::Float(*f),
        Value::Str(s) => Leaf::Str(s.as_bytes().to_vec()),
        Value::Bytes(b) => Leaf::Str(b.data.clone()),
        _ => return None,
    }))
}

thread_local! {
    /// The containers being walked on this thread (by `repr`, a literal or a comparison), so
    /// one that holds itself is met as `[...]` rather than walked forever.
    /// A set, so that a walk a hundred thousand lists deep checks each in constant time.
    static ACTIVE: RefCell<std::collections::HashSet<usize>> =
        RefCell::new(std::collections::HashSet::new());
}

/// A container being walked; dropping it ends the walk. Python's `Py_ReprEnter`.
pub struct Entered(Option<usize>);

impl Entered {
    /// Marks a list, dict or tuple as being walked, or None when it already is (it holds
    /// itself). Other values are never walked into themselves.
    pub fn enter(v: &Value) -> Option<Entered> {
        match v {
            Value::List(l) => Entered::enter_id(Arc::as_ptr(l) as *const () as usize),
            Value::Dict(d) => Entered::enter_id(Arc::as_ptr(d) as *const () as usize),
            Value::Tuple(t) => Entered::enter_id(Arc::as_ptr(t) as *const () as usize),
            _ => Some(Entered(None)),
        }
    }

    fn enter_id(id: usize) -> Option<Entered> {
        ACTIVE.with(|a| {
            // Ids are unique while their containers are walked: insert fails on a revisit.
            let fresh = a.borrow_mut().insert(id);
            fresh.then(|| Entered(Some(id)))
        })
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let Some(id) = self.0 else { return };
        ACTIVE.with(|a| {
            a.borrow_mut().remove(&id);
        });
    }
}
