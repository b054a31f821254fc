//! `collections.deque`: a double-ended queue, shared and mutable, with an optional
//! `maxlen` past which adding at one end drops items from the other.

use std::collections::VecDeque;

use spin::Mutex;

use super::Value;

/// A Python deque.
pub struct PyDeque {
    items: Mutex<VecDeque<Value>>,
    /// The most items it keeps (`None`: unbounded).
    pub maxlen: Option<usize>,
}

impl PyDeque {
    /// A deque of these items, keeping the last `maxlen` of them.
    pub fn new(items: Vec<Value>, maxlen: Option<usize>) -> PyDeque {
        let d = PyDeque {
            items: Mutex::new(VecDeque::new()),
            maxlen,
        };
        d.extend(items, false);
        d
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.lock().len()
    }

    /// Whether it holds no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of the items, front first.
    pub fn items(&self) -> Vec<Value> {
        self.items.lock().iter().cloned().collect()
    }

    /// Runs `f` on the items.
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut VecDeque<Value>) -> R) -> R {
        f(&mut self.items.lock())
    }

    /// Adds at the right end (or the left), dropping from the other end past `maxlen`.
    pub fn push(&self, v: Value, left: bool) {
        let mut q = self.items.lock();
        if self.maxlen == Some(0) {
            return;
        }
        if left {
            q.push_front(v);
        } else {
            q.push_back(v);
        }
        if let Some(m) = self.maxlen {
            while q.len() > m {
                if left {
                    q.pop_back();
                } else {
                    q.pop_front();
                }
            }
        }
    }

    /// Adds each item in turn at one end.
    pub fn extend(&self, items: Vec<Value>, left: bool) {
        for v in items {
            self.push(v, left);
        }
    }

    /// Removes from the right end (or the left).
    pub fn pop(&self, left: bool) -> Option<Value> {
        let mut q = self.items.lock();
        if left {
            q.pop_front()
        } else {
            q.pop_back()
        }
    }

    /// Rotates `n` steps to the right (negative: to the left).
    pub fn rotate(&self, n: i64) {
        let mut q = self.items.lock();
        let len = q.len() as i64;
        if len == 0 {
            return;
        }
        let k = n.rem_euclid(len) as usize;
        q.rotate_right(k);
    }
}

impl std::fmt::Debug for PyDeque {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("{deque}")
    }
}
