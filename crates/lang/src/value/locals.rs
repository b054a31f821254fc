//! A scope's variables as a short list of (name, value) pairs, searched in order.
//!
//! A function call's frame holds a few names (its parameters and the variables its body
//! binds), read and written on every step of its loops. Comparing a name with a handful of
//! short keys costs less than hashing it, and a new frame is one small vector rather than a
//! hash table to build and drop on every call. Past [`INDEXED`] names (a class body with many
//! methods, a long function) an index by name keeps lookups constant-time.

use std::collections::HashMap;
use std::sync::Arc;

use ragtag_syntax::ast::Ident;

use super::Value;

/// How many names a scope holds before it keeps an index of them.
const INDEXED: usize = 24;

/// Whether two names are equal. A short name (most variable and attribute names) is
/// compared in line with two overlapping word loads, where a call of the C library's
/// `memcmp` for each entry costs more than the comparison.
#[inline]
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The four bytes of `s` from `at`, as one word.
#[inline]
fn word4(s: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&s[at..at + 4]);
    u32::from_ne_bytes(w)
}

/// The eight bytes of `s` from `at`, as one word.
#[inline]
fn word8(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

/// A scope's variables, in the order they were first bound.
///
/// A reused frame ([`Locals::clear`]) keeps its names past `bound`, each with no value
/// held: the next call of the same function binds its parameters to the same shared names
/// ([`Locals::push_param`]) without taking a new reference to each.
#[derive(Debug, Default, Clone)]
pub struct Locals {
    entries: Vec<(Arc<str>, Value)>,
    /// How many of `entries` are bound; the rest are names kept from an earlier call.
    bound: usize,
    /// Each name's position in `entries`, once there are more than [`INDEXED`] of them.
    index: Option<HashMap<Arc<str>, usize, foldhash::fast::FixedState>>,
}

impl Locals {
    fn position(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.live().iter().position(|(k, _)| same_name(k, name)),
        }
    }

    fn live(&self) -> &[(Arc<str>, Value)] {
        &self.entries[..self.bound]
    }

    /// The place this node last found `name` at, when it is still there (see [`Ident`]).
    #[inline]
    fn hinted(&self, name: &Ident) -> Option<usize> {
        let hint = name.hint();
        match self.live().get(hint) {
            Some((k, _)) if same_name(k, name) => Some(hint),
            _ => None,
        }
    }

    /// The place of `name`, tried first where this node last found it.
    #[inline]
    fn position_from(&self, name: &Ident) -> Option<usize> {
        self.hinted(name).or_else(|| self.position(name))
    }

    /// The value bound to `name` when it is where this node last found it.
    #[inline]
    pub fn at_hint(&self, name: &Ident) -> Option<&Value> {
        self.hinted(name).map(|i| &self.entries[i].1)
    }

    /// [`Self::at_hint`], to change.
    #[inline]
    pub fn at_hint_mut(&mut self, name: &Ident) -> Option<&mut Value> {
        let i = self.hinted(name)?;
        Some(&mut self.entries[i].1)
    }

    /// The value bound to `name`, looked for first where this node last found it.
    #[inline]
    pub fn get_ident(&self, name: &Ident) -> Option<&Value> {
        let i = self.position_from(name)?;
        if i != name.hint() {
            name.remember(i);
        }
        Some(&self.entries[i].1)
    }

    /// Binds `name` to `value` as [`Locals::set`] does, looking for it first where this node
    /// last found it.
    #[inline]
    pub fn set_ident(&mut self, name: &Ident, value: Value) -> Option<Value> {
        match self.position_from(name) {
            Some(i) => {
                if i != name.hint() {
                    name.remember(i);
                }
                Some(std::mem::replace(&mut self.entries[i].1, value))
            }
            None => {
                name.remember(self.push_name(name, value));
                None
            }
        }
    }

    /// Binds `name`, which is not bound, to `value` and returns its place: in a reused frame
    /// where the last call bound the same name next, only the value is new.
    fn push_name(&mut self, name: &str, value: Value) -> usize {
        match self.entries.get_mut(self.bound) {
            Some(slot) if self.index.is_none() && same_name(&slot.0, name) => {
                slot.1 = value;
                self.bound += 1;
            }
            _ => self.push_unbound(name.into(), value),
        }
        self.bound - 1
    }

    /// The value bound to `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.position(name).map(|i| &self.entries[i].1)
    }

    /// The value bound to `name`, to replace in place.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.position(name).map(|i| &mut self.entries[i].1)
    }

    /// Whether `name` is bound.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Binds `name` to `value`, returning the value it replaces.
    pub fn insert(&mut self, name: Arc<str>, value: Value) -> Option<Value> {
        if let Some(i) = self.position(&name) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        self.push_unbound(name, value);
        None
    }

    /// Binds `name` to `value`, returning the value it replaces. Rebinding a bound name (a
    /// loop variable, an accumulator) replaces its value in place: no key is allocated.
    pub fn set(&mut self, name: &str, value: Value) -> Option<Value> {
        match self.get_mut(name) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => self.insert(name.into(), value),
        }
    }

    /// Appends a binding for a name not bound yet.
    fn push_unbound(&mut self, name: Arc<str>, value: Value) {
        self.entries.truncate(self.bound);
        if let Some(index) = &mut self.index {
            index.insert(name.clone(), self.entries.len());
        }
        self.entries.push((name, value));
        self.bound += 1;
        if self.index.is_none() && self.bound > INDEXED {
            self.reindex();
        }
    }

    /// Binds `name`, which is not bound yet (a parameter of a new frame), to `value`.
    pub fn push_param(&mut self, name: &Arc<str>, value: Value) {
        debug_assert!(!self.contains_key(name), "{name} is bound already");
        match self.entries.get_mut(self.bound) {
            // The same name as the last call's parameter here: only the value is new.
            Some(slot) if self.index.is_none() && Arc::ptr_eq(&slot.0, name) => {
                slot.1 = value;
                self.bound += 1;
            }
            _ => self.push_unbound(name.clone(), value),
        }
    }

    /// Unbinds `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let i = self.position(name)?;
        let (_, v) = self.entries.remove(i);
        self.bound -= 1;
        if self.index.is_some() {
            self.reindex();
        }
        Some(v)
    }

    fn reindex(&mut self) {
        self.index = Some(
            self.live()
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect(),
        );
    }

    /// Takes the value of the first variable bound (a method's receiver) out, leaving `None`
    /// in its place.
    pub fn take_first(&mut self) -> Option<Value> {
        let (_, v) = self.entries[..self.bound].first_mut()?;
        Some(std::mem::replace(v, Value::None))
    }

    /// Unbinds every name, keeping the names (not their values) for the next call of a
    /// reused frame.
    pub fn clear(&mut self) {
        if self.index.is_some() {
            self.entries.clear();
            self.index = None;
        } else {
            for (_, v) in &mut self.entries[..self.bound] {
                *v = Value::None;
            }
        }
        self.bound = 0;
    }

    /// Takes every binding out, in binding order.
    pub fn drain(&mut self) -> impl Iterator<Item = (Arc<str>, Value)> + '_ {
        self.index = None;
        self.entries.truncate(self.bound);
        self.bound = 0;
        self.entries.drain(..)
    }

    /// The bindings in the order their names were first bound.
    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Value)> {
        self.live().iter().map(|(k, v)| (k, v))
    }

    /// The names, in binding order.
    pub fn keys(&self) -> impl Iterator<Item = &Arc<str>> {
        self.live().iter().map(|(k, _)| k)
    }

    /// The values, in binding order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.live().iter().map(|(_, v)| v)
    }

    /// How many names are bound.
    pub fn len(&self) -> usize {
        self.bound
    }

    /// Whether no name is bound.
    pub fn is_empty(&self) -> bool {
        self.bound == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_equal_exactly_when_their_text_is() {
        let names = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "abc",
            "acc",
            "abd",
            "self",
            "selg",
            "total",
            "totbl",
            "counts",
            "xcounts",
            "abcdefgh",
            "abcdefgi",
            "bbcdefgh",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefghXjklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_name(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn binds_replaces_and_removes_in_order_below_and_above_the_index_size() {
        for n in [3usize, INDEXED + 5] {
            let mut l = Locals::default();
            for i in 0..n {
                assert!(l
                    .insert(format!("v{i}").into(), Value::Int(i as i64))
                    .is_none());
            }
            assert!(matches!(
                l.insert("v1".into(), Value::Int(-1)),
                Some(Value::Int(1))
            ));
            assert!(matches!(l.get("v1"), Some(Value::Int(-1))));
            assert!(matches!(l.remove("v0"), Some(Value::Int(0))));
            assert!(l.get("v0").is_none() && !l.contains_key("v0"));
            let last = format!("v{}", n - 1);
            assert!(matches!(l.get(&last), Some(Value::Int(k)) if *k == n as i64 - 1));
            assert_eq!(l.keys().next().map(|k| &**k), Some("v1"));
            assert_eq!(l.len(), n - 1);
            *l.get_mut("v2").unwrap() = Value::None;
            assert!(matches!(l.get("v2"), Some(Value::None)));
        }
    }

    #[test]
    fn a_cleared_frame_keeps_its_names_for_the_same_parameters_and_binds_others_afresh() {
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        let mut l = Locals::default();
        l.push_param(&a, Value::Int(1));
        l.push_param(&b, Value::Int(2));
        l.insert("c".into(), Value::Int(3));
        l.clear();
        assert!(l.is_empty() && l.get("a").is_none() && l.get("c").is_none());
        assert_eq!(l.keys().count(), 0);
        l.push_param(&a, Value::Int(10));
        assert!(Arc::ptr_eq(&l.entries[0].0, &a));
        // Another function's parameter where `b` was: bound under its own name.
        let x: Arc<str> = "x".into();
        l.push_param(&x, Value::Int(20));
        assert!(matches!(l.get("x"), Some(Value::Int(20))));
        assert!(l.get("b").is_none() && l.get("c").is_none());
        assert_eq!(l.len(), 2);
        let names: Vec<&str> = l.keys().map(|k| &**k).collect();
        assert_eq!(names, ["a", "x"]);
        assert_eq!(l.drain().count(), 2);
        assert!(l.is_empty());
    }
}
