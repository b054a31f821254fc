//! Python sets and frozensets: one shared object per set (a set is mutable and aliased like a
//! list), keyed by the dict's [`Key`] (Python's equality), stored in CPython 3.11's own
//! table — open addressing by `hash & mask`, nine linear probes then perturbation, resizing
//! at 3/5 full to four times the items — so a set of ints iterates in CPython's order.
//! Strings hash differently from CPython (whose string hashes are random per process), and
//! None hashes to a constant rather than CPython's address: sets holding them iterate in an
//! order of their own.

use std::sync::Arc;

use ragtag_engine::{budget, Exception};
use spin::Mutex;

use super::{Key, Value};

/// `PySet_MINSIZE`: the slots of an empty table.
const MIN_SIZE: usize = 8;
/// `LINEAR_PROBES`: slots tried next to the first before perturbing.
const LINEAR_PROBES: usize = 9;
/// `PERTURB_SHIFT`.
const PERTURB_SHIFT: u32 = 5;

/// A Python set (or frozenset, which no method changes after it is made).
pub struct PySet {
    frozen: bool,
    table: Mutex<Table>,
}

/// One slot of the table.
#[derive(Clone)]
enum Slot {
    Empty,
    /// A removed item (CPython's `dummy`): probing goes past it.
    Dummy,
    Full(i64, Key, Value),
}

/// CPython's set table: the slots, the slots ever filled (`fill`, dummies included), the
/// items (`used`) and where `pop` looks first (`finger`).
#[derive(Clone)]
pub struct Table {
    slots: Vec<Slot>,
    fill: usize,
    used: usize,
    finger: usize,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            slots: empty_slots(MIN_SIZE),
            fill: 0,
            used: 0,
            finger: 0,
        }
    }
}

#[allow(clippy::disallowed_methods)] // a power of two at most four times the items, checked
fn empty_slots(n: usize) -> Vec<Slot> {
    vec![Slot::Empty; n]
}

/// CPython's probe sequence for one hash (`set_lookkey`'s walk): from slot `hash & mask`, the
/// next [`LINEAR_PROBES`] slots when they do not wrap past the end, then a jump to
/// `i * 5 + 1 + perturb` (with `perturb` shifted right by [`PERTURB_SHIFT`] each time), and so
/// on. It never ends: the table always has an empty slot, where the callers stop.
struct Probes {
    mask: usize,
    perturb: u64,
    /// The first slot of the current run of linear probes.
    run: usize,
    /// The next slot to give, and the last slot of the current run.
    next: usize,
    last: usize,
}

impl Probes {
    fn new(hash: i64, mask: usize) -> Probes {
        let run = (hash as u64 as usize) & mask;
        Probes {
            mask,
            perturb: hash as u64,
            run,
            next: run,
            last: Probes::run_end(run, mask),
        }
    }

    fn run_end(run: usize, mask: usize) -> usize {
        if run + LINEAR_PROBES <= mask {
            run + LINEAR_PROBES
        } else {
            run
        }
    }

    fn next_slot(&mut self) -> usize {
        if self.next > self.last {
            self.perturb >>= PERTURB_SHIFT;
            self.run = (self
                .run
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(self.perturb as usize))
                & self.mask;
            self.next = self.run;
            self.last = Probes::run_end(self.run, self.mask);
        }
        self.next += 1;
        self.next - 1
    }
}

impl Table {
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// CPython's `set_lookkey`: the slot holding `key`, or None.
    fn find(&self, hash: i64, key: &Key) -> Option<usize> {
        let mut probes = Probes::new(hash, self.mask());
        loop {
            let j = probes.next_slot();
            match &self.slots[j] {
                Slot::Empty => return None,
                Slot::Full(h, k, _) if *h == hash && k == key => return Some(j),
                _ => {}
            }
        }
    }

    /// CPython's `set_add_entry`: adds the item unless an equal one is there (which stays).
    fn add(&mut self, hash: i64, key: Key, value: Value) -> Result<(), Exception> {
        let mut probes = Probes::new(hash, self.mask());
        let free = loop {
            let j = probes.next_slot();
            match &self.slots[j] {
                Slot::Empty => break j,
                Slot::Full(h, k, _) if *h == hash && *k == key => return Ok(()),
                _ => {}
            }
        };
        self.slots[free] = Slot::Full(hash, key, value);
        self.fill += 1;
        self.used += 1;
        if self.fill * 5 < self.mask() * 3 {
            return Ok(());
        }
        self.resize(self.grown())
    }

    /// The size CPython asks for when a table fills.
    fn grown(&self) -> usize {
        if self.used > 50000 {
            self.used * 2
        } else {
            self.used * 4
        }
    }

    /// CPython's `set_table_resize`: the smallest power of two above `min_used` slots, the
    /// items put back in the order of the old slots.
    fn resize(&mut self, min_used: usize) -> Result<(), Exception> {
        let mut size = MIN_SIZE;
        while size <= min_used {
            size <<= 1;
        }
        budget::check("set", size as u128, std::mem::size_of::<Slot>())?;
        let old = std::mem::replace(&mut self.slots, empty_slots(size));
        for slot in old {
            if let Slot::Full(h, k, v) = slot {
                self.insert_clean(h, k, v);
            }
        }
        self.fill = self.used;
        Ok(())
    }

    /// CPython's `set_insert_clean`: puts an item known to be absent in the first empty slot
    /// of its probe sequence.
    fn insert_clean(&mut self, hash: i64, key: Key, value: Value) {
        let mut probes = Probes::new(hash, self.mask());
        loop {
            let j = probes.next_slot();
            if matches!(self.slots[j], Slot::Empty) {
                self.slots[j] = Slot::Full(hash, key, value);
                return;
            }
        }
    }

    /// CPython's `set_discard_entry`: the removed item, if it was there.
    fn discard(&mut self, hash: i64, key: &Key) -> Option<Value> {
        let j = self.find(hash, key)?;
        let Slot::Full(_, _, v) = std::mem::replace(&mut self.slots[j], Slot::Dummy) else {
            return None;
        };
        self.used -= 1;
        Some(v)
    }

    /// CPython's `set_merge`: adds every item of `other`, copying its slots outright when
    /// this table is empty.
    fn merge(&mut self, other: &Table) -> Result<(), Exception> {
        if other.used == 0 {
            return Ok(());
        }
        if (self.fill + other.used) * 5 >= self.mask() * 3 {
            self.resize((self.used + other.used) * 2)?;
        }
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            self.slots.clone_from(&other.slots);
            self.fill = other.fill;
            self.used = other.used;
            return Ok(());
        }
        if self.fill == 0 {
            self.fill = other.used;
            self.used = other.used;
            for (h, k, v) in other.entries() {
                self.insert_clean(h, k.clone(), v.clone());
            }
            return Ok(());
        }
        for (h, k, v) in other.entries() {
            self.add(h, k.clone(), v.clone())?;
        }
        Ok(())
    }

    /// The items in slot order (the order a set iterates in).
    fn entries(&self) -> impl Iterator<Item = (i64, &Key, &Value)> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Full(h, k, v) => Some((*h, k, v)),
            _ => None,
        })
    }

    /// After removing many items, CPython resizes when over a quarter of the slots are
    /// dummies (`set_difference_update_internal`).
    fn shrink_dummies(&mut self) -> Result<(), Exception> {
        if self.fill - self.used <= self.mask() / 4 {
            return Ok(());
        }
        self.resize(self.grown())
    }
}

/// A value and its key and hash, ready for the table.
fn keyed(v: &Value) -> Result<(i64, Key), Exception> {
    let key = Key::of(v)?;
    Ok((key.py_hash(), key))
}

/// A value's key for looking up (`x in s`, `s.discard(x)`): a set stands for the frozenset
/// of its items, as in CPython.
fn lookup_key(v: &Value) -> Result<(i64, Key), Exception> {
    match v {
        Value::Set(s) if !s.frozen => keyed(&Value::Set(s.frozen_copy())),
        _ => keyed(v),
    }
}

impl PySet {
    /// An empty set (or frozenset).
    pub fn empty(frozen: bool) -> Arc<PySet> {
        Arc::new(PySet {
            frozen,
            table: Mutex::new(Table::default()),
        })
    }

    /// A set of these items, added in order (a TypeError for an unhashable one).
    pub fn from_items(items: Vec<Value>, frozen: bool) -> Result<Arc<PySet>, Exception> {
        let set = PySet::empty(frozen);
        {
            let mut t = set.table.lock();
            for v in items {
                let (h, k) = keyed(&v)?;
                t.add(h, k, v)?;
            }
        }
        Ok(set)
    }

    /// The set a display of three or more int and str literals makes. CPython compiles it
    /// to a frozenset constant (built from the items, then rebuilt twice, from its own
    /// iteration order, when the compiler merges constants) that an empty set is updated
    /// with: each rebuild can reorder colliding items, so the same steps give its order.
    pub fn from_constants(items: Vec<Value>) -> Result<Arc<PySet>, Exception> {
        let folded = PySet::from_items(items, true)?;
        let key = PySet::from_items(folded.items(), true)?;
        let merged = PySet::from_items(key.items(), true)?;
        merged.copy_as(false)
    }

    /// A set made from a table.
    fn of_table(table: Table, frozen: bool) -> Arc<PySet> {
        Arc::new(PySet {
            frozen,
            table: Mutex::new(table),
        })
    }

    /// Whether this is a frozenset.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.table.lock().used
    }

    /// Whether the set has no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items in iteration order.
    pub fn items(&self) -> Vec<Value> {
        self.table
            .lock()
            .entries()
            .map(|(_, _, v)| v.clone())
            .collect()
    }

    /// The hashes of the items, in iteration order.
    pub fn hashes(&self) -> Vec<i64> {
        self.table.lock().entries().map(|(h, _, _)| h).collect()
    }

    /// `x in s`.
    pub fn contains(&self, v: &Value) -> Result<bool, Exception> {
        let (h, k) = lookup_key(v)?;
        Ok(self.table.lock().find(h, &k).is_some())
    }

    /// Whether an item with this key and hash is in the set.
    fn has(&self, h: i64, k: &Key) -> bool {
        self.table.lock().find(h, k).is_some()
    }

    /// `s.add(x)`.
    pub fn add(&self, v: Value) -> Result<(), Exception> {
        let (h, k) = keyed(&v)?;
        self.table.lock().add(h, k, v)
    }

    /// `s.discard(x)`: the removed item, or None when it was absent.
    pub fn discard(&self, v: &Value) -> Result<Option<Value>, Exception> {
        let (h, k) = lookup_key(v)?;
        Ok(self.table.lock().discard(h, &k))
    }

    /// `s.pop()`: an arbitrary item (CPython's: the first full slot from the finger).
    pub fn pop(&self) -> Option<Value> {
        let mut t = self.table.lock();
        if t.used == 0 {
            return None;
        }
        let n = t.slots.len();
        let mut j = t.finger & t.mask();
        while !matches!(t.slots[j], Slot::Full(..)) {
            j = (j + 1) % n;
        }
        let Slot::Full(_, _, v) = std::mem::replace(&mut t.slots[j], Slot::Dummy) else {
            return None;
        };
        t.used -= 1;
        t.finger = j + 1;
        Some(v)
    }

    /// `s.clear()`.
    pub fn clear(&self) {
        *self.table.lock() = Table::default();
    }

    /// A copy (CPython's `make_new_set` from a set: a merge into an empty table).
    pub fn copy_as(&self, frozen: bool) -> Result<Arc<PySet>, Exception> {
        let src = self.table.lock().clone();
        let mut t = Table::default();
        t.merge(&src)?;
        Ok(PySet::of_table(t, frozen))
    }

    /// The frozenset of the same items.
    pub fn frozen_copy(&self) -> Arc<PySet> {
        let t = self.table.lock().clone();
        PySet::of_table(t, true)
    }

    /// CPython's `set_update_internal`: adds the items of a set (merged table to table), of
    /// a dict (after one resize for them all) or of any iterable's items.
    pub fn update(
        &self,
        other: &Value,
        items: impl FnOnce() -> Result<Vec<Value>, Exception>,
    ) -> Result<(), Exception> {
        match other {
            Value::Set(o) => {
                if std::ptr::eq(self, &**o) {
                    return Ok(());
                }
                let src = o.table.lock().clone();
                self.table.lock().merge(&src)
            }
            Value::Dict(d) => {
                let keys = d.keys();
                let mut t = self.table.lock();
                if (t.fill + keys.len()) * 5 >= t.mask() * 3 {
                    let want = (t.used + keys.len()) * 2;
                    t.resize(want)?;
                }
                for v in keys {
                    let (h, k) = keyed(&v)?;
                    t.add(h, k, v)?;
                }
                Ok(())
            }
            _ => {
                let items = items()?;
                let mut t = self.table.lock();
                for v in items {
                    let (h, k) = keyed(&v)?;
                    t.add(h, k, v)?;
                }
                Ok(())
            }
        }
    }

    /// CPython's `set_intersection` with another set: the smaller one is walked, each item
    /// looked up in the larger.
    pub fn intersection(self: &Arc<PySet>, other: &Arc<PySet>) -> Result<Arc<PySet>, Exception> {
        let (small, large) = if other.len() > self.len() {
            (self, other)
        } else {
            (other, self)
        };
        let walked = small.table.lock().clone();
        let mut out = Table::default();
        for (h, k, v) in walked.entries() {
            if large.has(h, k) {
                out.add(h, k.clone(), v.clone())?;
            }
        }
        Ok(PySet::of_table(out, self.frozen))
    }

    /// CPython's `set_difference` with another set.
    pub fn difference(self: &Arc<PySet>, other: &Arc<PySet>) -> Result<Arc<PySet>, Exception> {
        if (self.len() >> 2) > other.len() {
            let out = self.copy_as(self.frozen)?;
            out.difference_update(other)?;
            return Ok(out);
        }
        let walked = self.table.lock().clone();
        let mut out = Table::default();
        for (h, k, v) in walked.entries() {
            if !other.has(h, k) {
                out.add(h, k.clone(), v.clone())?;
            }
        }
        Ok(PySet::of_table(out, self.frozen))
    }

    /// CPython's `set_difference_update_internal` with a set.
    pub fn difference_update(&self, other: &Arc<PySet>) -> Result<(), Exception> {
        if std::ptr::eq(self, &**other) {
            self.clear();
            return Ok(());
        }
        let src = other.table.lock().clone();
        let mut t = self.table.lock();
        for (h, k, _) in src.entries() {
            t.discard(h, k);
        }
        t.shrink_dummies()
    }

    /// CPython's `set_symmetric_difference_update` with a set.
    pub fn symmetric_difference_update(&self, other: &Arc<PySet>) -> Result<(), Exception> {
        if std::ptr::eq(self, &**other) {
            self.clear();
            return Ok(());
        }
        let src = other.table.lock().clone();
        let mut t = self.table.lock();
        for (h, k, v) in src.entries() {
            if t.discard(h, k).is_none() {
                t.add(h, k.clone(), v.clone())?;
            }
        }
        Ok(())
    }

    /// Replaces the items with those of `other` (CPython's `set_swap_bodies`, for the
    /// `_update` methods that build a new table).
    pub fn take_table(&self, other: &PySet) {
        let t = other.table.lock().clone();
        *self.table.lock() = t;
    }

    /// Whether every item is in `other`.
    pub fn is_subset(&self, other: &PySet) -> bool {
        if self.len() > other.len() {
            return false;
        }
        let mine = self.table.lock().clone();
        let ok = mine.entries().all(|(h, k, _)| other.has(h, k));
        ok
    }
}

impl std::fmt::Debug for PySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.frozen { "{frozenset}" } else { "{set}" })
    }
}

/// A frozenset as a dict key or set item: its CPython hash, equal to another with the same
/// items.
#[derive(Debug, Clone)]
pub struct FrozenKey {
    /// CPython's frozenset hash.
    pub hash: i64,
    /// The frozenset.
    pub set: Arc<PySet>,
}

impl FrozenKey {
    /// The key of a frozenset.
    pub fn new(set: Arc<PySet>) -> FrozenKey {
        let hash = super::pyhash::hash_frozenset(set.hashes().into_iter());
        FrozenKey { hash, set }
    }
}

impl PartialEq for FrozenKey {
    fn eq(&self, other: &FrozenKey) -> bool {
        Arc::ptr_eq(&self.set, &other.set)
            || (self.hash == other.hash
                && self.set.len() == other.set.len()
                && self.set.is_subset(&other.set))
    }
}

impl Eq for FrozenKey {}

impl std::hash::Hash for FrozenKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
    }
}
