//! Python dicts: one shared, mutable, insertion-ordered object per dict, keyed by Python's
//! equality (`1`, `1.0` and `True` are one key), with hashing for quick look-up.

use std::sync::Arc;

use indexmap::IndexMap;
use ragtag_engine::{type_error, Exception};
use spin::Mutex;

use super::Value;

/// A dict's entries in insertion order. Hashed with foldhash's fixed-seed state rather than
/// std's SipHash, as `value::env::Names` is: every `d[k]` and `d.get(k)` hashes its key, and
/// the order Python shows is the insertion order whatever the hasher.
type Map = IndexMap<Key, (Value, Value), foldhash::fast::FixedState>;

/// A Python dict.
pub struct PyDict {
    map: Mutex<Map>,
    kind: DictKind,
}

/// Which dict a `PyDict` is: a plain one, or one of `collections`' dict subclasses (each
/// still a dict to `isinstance`, `json.dumps`, `dict(…)` and `**`).
#[derive(Debug, Clone, Default)]
pub enum DictKind {
    /// A plain dict.
    #[default]
    Plain,
    /// `collections.Counter`: a missing key counts 0.
    Counter,
    /// `collections.defaultdict` with its `default_factory` (None: KeyError as a dict).
    Default(Value),
    /// `collections.OrderedDict`: `==` between two of them compares the order too.
    Ordered,
}

impl DictKind {
    /// The class name (`Counter`), `dict` for a plain dict.
    pub fn name(&self) -> &'static str {
        match self {
            DictKind::Plain => "dict",
            DictKind::Counter => "Counter",
            DictKind::Default(_) => "defaultdict",
            DictKind::Ordered => "OrderedDict",
        }
    }
}

/// A hashable value as a dict key, equal where Python's `==` says equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// `None`.
    None,
    /// An int, a bool, or a float with an integral value.
    Int(i64),
    /// Any other float, by its bits.
    Float(u64),
    /// A str.
    Str(Arc<String>),
    /// A tuple of hashable values.
    Tuple(Vec<Key>),
    /// Anything hashed by what it is (dtypes, classes, functions, modules), by its text.
    Named(&'static str, String),
    /// An int past 64 bits, or a float with such an integral value.
    Big(num_bigint::BigInt),
    /// A frozenset.
    Frozen(super::FrozenKey),
    /// A bytes value (NumPy's `bytes_` included).
    Bytes(Vec<u8>),
    /// A range, by its length, first item and step (see `PyRange::identity`).
    Range(i128, Option<i64>, Option<i64>),
    /// An instance whose class defines `__hash__`: the hash it gave and a number shared by
    /// the instances equal to it (the evaluator calls `__eq__` to give it).
    Hashed(i64, u64),
}

/// An int key (the most common, and every bool and integral float) is hashed as its value
/// alone, in line; the rest with a tag of their kind first, so that keys of different kinds
/// with the same payload spread apart. [`Probe`] hashes an int and a str as this does.
impl std::hash::Hash for Key {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Key::Int(i) => state.write_i64(*i),
            other => other.hash_rest(state),
        }
    }
}

/// The tag [`Key`]'s hash of a str starts with.
const STR_TAG: u8 = 3;

impl Key {
    /// [`Key`]'s hash of every kind but an int.
    #[inline(never)]
    fn hash_rest<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        let tag: u8 = match self {
            Key::None => 0,
            Key::Int(_) => 1,
            Key::Float(_) => 2,
            Key::Str(_) => STR_TAG,
            Key::Tuple(_) => 4,
            Key::Named(..) => 5,
            Key::Big(_) => 6,
            Key::Frozen(_) => 7,
            Key::Bytes(_) => 8,
            Key::Range(..) => 9,
            Key::Hashed(..) => 10,
        };
        state.write_u8(tag);
        match self {
            Key::None => {}
            Key::Int(i) | Key::Hashed(i, _) => i.hash(state),
            Key::Float(bits) => bits.hash(state),
            Key::Str(s) => s.as_str().hash(state),
            Key::Tuple(items) => items.hash(state),
            Key::Named(kind, text) => (kind, text).hash(state),
            Key::Big(n) => n.hash(state),
            Key::Frozen(f) => f.hash(state),
            Key::Bytes(b) => b.hash(state),
            Key::Range(n, start, step) => (n, start, step).hash(state),
        }
    }

    /// The key of a value, or Python's TypeError for an unhashable one.
    pub fn of(v: &Value) -> Result<Key, Exception> {
        Ok(match v {
            Value::None => Key::None,
            Value::Bool(b) => Key::Int(*b as i64),
            Value::Int(i) => Key::Int(*i),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    Key::Int(*f as i64)
                } else if f.fract() == 0.0 && f.is_finite() {
                    // Past 9.2e18 (every float there is integral): the int it equals.
                    let n: Option<num_bigint::BigInt> = num_traits::FromPrimitive::from_f64(*f);
                    match n {
                        Some(n) => match i64::try_from(&n) {
                            Ok(i) => Key::Int(i),
                            Err(_) => Key::Big(n),
                        },
                        None => Key::Float(f.to_bits()),
                    }
                } else if *f == 0.0 {
                    Key::Int(0)
                } else {
                    Key::Float(f.to_bits())
                }
            }
            Value::Str(s) => Key::Str(s.clone()),
            Value::Tuple(items) => Key::Tuple(items.iter().map(Key::of).collect::<Result<_, _>>()?),
            Value::DType(d) => Key::Named("dtype", d.name().to_string()),
            Value::NpType(t) if t.scalar => Key::Named("numpy type", t.dtype.name().to_string()),
            Value::NpType(t) => Key::Named("numpy dtype", t.dtype.name().to_string()),
            Value::ErrorClass(c) => Key::Named("class", c.name().to_string()),
            Value::Module(m) => Key::Named("module", m.to_string()),
            Value::Builtin(b) => Key::Named("builtin", format!("{:p}", *b)),
            Value::Closure(c) => Key::Named("function", format!("{:p}", Arc::as_ptr(c))),
            Value::Exception(x) => Key::Named("exception", format!("{:p}", Arc::as_ptr(x))),
            // Instances and classes of the user's hash by identity (a `__hash__` of their
            // own is not called).
            Value::Class(c) => Key::Named("class", format!("{:p}", Arc::as_ptr(c))),
            // A named tuple is the key of the tuple of its items, as CPython hashes it.
            Value::Instance(i) if super::named::fields(i).is_some() => Key::Tuple(
                super::named::items(i)
                    .unwrap_or_default()
                    .iter()
                    .map(Key::of)
                    .collect::<Result<_, _>>()?,
            ),
            // An instance of a class deriving from tuple, str, int or float is the key of
            // its value, unless a class sets `__hash__` (to None, or a function of its own).
            Value::Instance(i)
                if matches!(
                    i.base(),
                    Some(
                        Value::Tuple(_)
                            | Value::Str(_)
                            | Value::Int(_)
                            | Value::Float(_)
                            | Value::BigInt(_)
                    )
                ) && i.user_hash().is_none()
                    && i.class.lookup("__hash__").is_none() =>
            {
                Key::of(i.base().unwrap_or(&Value::None))?
            }
            // A class that defines `__eq__` without `__hash__` (or sets `__hash__ = None`)
            // makes its instances unhashable, as CPython does.
            Value::Instance(i)
                if i.class.is_python()
                    && match i.class.lookup("__hash__") {
                        Some(h) => matches!(h, Value::None),
                        None => i.class.lookup("__eq__").is_some(),
                    } =>
            {
                return Err(type_error!("unhashable type: '{}'", i.class.name));
            }
            Value::Instance(i) => match i.user_hash() {
                Some((h, id)) => Key::Hashed(h, id),
                None => Key::Named("object", format!("{:p}", Arc::as_ptr(i))),
            },
            Value::BigInt(n) => Key::Big((**n).clone()),
            Value::Set(s) if s.is_frozen() => Key::Frozen(super::FrozenKey::new(s.clone())),
            Value::Bytes(b) => Key::Bytes(b.data.clone()),
            Value::Range(r) => {
                let (n, start, step) = r.identity();
                Key::Range(n, start, step)
            }
            Value::Array(_) => {
                return Err(type_error!(
                    "Tensor is unhashable. Instead, use tensor.ref() as the key."
                ))
            }
            other => return Err(type_error!("unhashable type: '{}'", other.type_name())),
        })
    }
}

/// An int's or a str's key looked up as it is, without making a [`Key`] (for a str, a new
/// reference to it: an atomic count up and down on every look-up). Hashed and compared as
/// the key it stands for.
enum Probe<'a> {
    Int(i64),
    Str(&'a str),
}

impl Probe<'_> {
    /// The probe for `v`, when it is an int, a bool or a str.
    #[inline]
    fn of(v: &Value) -> Option<Probe<'_>> {
        match v {
            Value::Int(i) => Some(Probe::Int(*i)),
            Value::Bool(b) => Some(Probe::Int(i64::from(*b))),
            Value::Str(s) => Some(Probe::Str(s.as_str())),
            _ => None,
        }
    }
}

impl std::hash::Hash for Probe<'_> {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Probe::Int(i) => state.write_i64(*i),
            Probe::Str(s) => {
                state.write_u8(STR_TAG);
                s.hash(state);
            }
        }
    }
}

impl indexmap::Equivalent<Key> for Probe<'_> {
    #[inline]
    fn equivalent(&self, key: &Key) -> bool {
        match (self, key) {
            (Probe::Int(a), Key::Int(b)) => a == b,
            (Probe::Str(a), Key::Str(b)) => *a == b.as_str(),
            _ => false,
        }
    }
}

impl PyDict {
    /// A dict of these pairs; a later pair with an equal key replaces the value and keeps the
    /// first key, as Python's `{…}` does.
    pub fn new(pairs: Vec<(Value, Value)>) -> Result<Arc<PyDict>, Exception> {
        let mut map = Map::with_capacity_and_hasher(pairs.len(), Default::default());
        for (k, v) in pairs {
            insert(&mut map, Key::of(&k)?, k, v);
        }
        Ok(Arc::new(PyDict {
            map: Mutex::new(map),
            kind: DictKind::Plain,
        }))
    }

    /// An empty dict of this kind (`Counter()`, `defaultdict(list)`).
    pub fn of_kind(kind: DictKind) -> Arc<PyDict> {
        Arc::new(PyDict {
            map: Mutex::new(Map::default()),
            kind,
        })
    }

    /// Which dict this is.
    pub fn kind(&self) -> &DictKind {
        &self.kind
    }

    /// A dict whose keys are strings (which always hash).
    pub fn from_str_keys(pairs: impl IntoIterator<Item = (String, Value)>) -> Arc<PyDict> {
        let mut map = Map::default();
        for (k, v) in pairs {
            let k = Arc::new(k);
            insert(&mut map, Key::Str(k.clone()), Value::Str(k), v);
        }
        Arc::new(PyDict {
            map: Mutex::new(map),
            kind: DictKind::Plain,
        })
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.map.lock().len()
    }

    /// Whether the dict has no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value under `k`, if any.
    pub fn get(&self, k: &Value) -> Result<Option<Value>, Exception> {
        if let Some(p) = Probe::of(k) {
            return Ok(self.map.lock().get(&p).map(|(_, v)| v.clone()));
        }
        let key = Key::of(k)?;
        Ok(self.map.lock().get(&key).map(|(_, v)| v.clone()))
    }

    /// Whether `k` is a key.
    pub fn contains(&self, k: &Value) -> Result<bool, Exception> {
        if let Some(p) = Probe::of(k) {
            return Ok(self.map.lock().contains_key(&p));
        }
        let key = Key::of(k)?;
        Ok(self.map.lock().contains_key(&key))
    }

    /// Sets `d[k] = v`.
    pub fn insert(&self, k: Value, v: Value) -> Result<(), Exception> {
        if let Some(p) = Probe::of(&k) {
            let mut map = self.map.lock();
            if let Some(slot) = map.get_mut(&p) {
                // The old value is dropped after the lock is released.
                let old = std::mem::replace(&mut slot.1, v);
                drop(map);
                drop(old);
                return Ok(());
            }
        }
        let key = Key::of(&k)?;
        insert(&mut self.map.lock(), key, k, v);
        Ok(())
    }

    /// Removes `k`, keeping the order of the rest; its value, or None when absent.
    pub fn remove(&self, k: &Value) -> Result<Option<Value>, Exception> {
        let key = Key::of(k)?;
        Ok(self.map.lock().shift_remove(&key).map(|(_, v)| v))
    }

    /// Removes and returns the last pair.
    pub fn pop_last(&self) -> Option<(Value, Value)> {
        self.map.lock().pop().map(|(_, kv)| kv)
    }

    /// Removes every pair.
    pub fn clear(&self) {
        self.map.lock().clear();
    }

    /// The pairs in insertion order.
    pub fn items(&self) -> Vec<(Value, Value)> {
        self.map.lock().values().cloned().collect()
    }

    /// The keys in insertion order.
    pub fn keys(&self) -> Vec<Value> {
        self.map.lock().values().map(|(k, _)| k.clone()).collect()
    }

    /// The values in insertion order.
    pub fn values(&self) -> Vec<Value> {
        self.map.lock().values().map(|(_, v)| v.clone()).collect()
    }

    /// A new dict with the same pairs (and the same kind: a Counter's copy is a Counter).
    pub fn copy(&self) -> Arc<PyDict> {
        Arc::new(PyDict {
            map: Mutex::new(self.map.lock().clone()),
            kind: self.kind.clone(),
        })
    }

    /// Moves `k` to the end (or, with `last` false, to the front); false when absent.
    pub fn move_to_end(&self, k: &Value, last: bool) -> Result<bool, Exception> {
        let key = Key::of(k)?;
        let mut map = self.map.lock();
        let Some(i) = map.get_index_of(&key) else {
            return Ok(false);
        };
        let to = if last { map.len() - 1 } else { 0 };
        map.move_index(i, to);
        Ok(true)
    }

    /// Removes and returns the first pair.
    pub fn pop_first(&self) -> Option<(Value, Value)> {
        self.map.lock().shift_remove_index(0).map(|(_, kv)| kv)
    }
}

fn insert(map: &mut Map, key: Key, k: Value, v: Value) {
    match map.get_mut(&key) {
        Some(slot) => slot.1 = v,
        None => {
            map.insert(key, (k, v));
        }
    }
}

impl std::fmt::Debug for PyDict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("{dict}")
    }
}
