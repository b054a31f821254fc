//! User classes, their instances and bound methods, and the type objects `type(x)` gives for
//! values that have no class of their own in ragtag (`NoneType`, `EagerTensor`, …).

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::Value;

pub use super::mro::c3;
use super::mro::same;

/// The builtin types a class statement may derive from.
pub const BUILTIN_BASES: &[&str] = &[
    "dict",
    "list",
    "collections.Counter",
    "collections.defaultdict",
    "collections.OrderedDict",
    "tuple",
    "str",
    "int",
    "float",
];

pub use super::type_names::{builtin_type, intern, type_repr};

/// Attributes by name, in the order they were first set (as a `__dict__` keeps them).
pub type Attrs = Vec<(String, Value)>;

/// The lock around attributes. Only one thread runs Python code at a time, so it is never
/// contended; a spin lock takes and releases it with one atomic instruction where a
/// futex-based mutex takes two, and an attribute is read or set under it on every `obj.x`.
pub type AttrCell = spin::Mutex<Attrs>;

/// A class: one a `class` statement made, or a builtin type object.
pub struct Class {
    /// `__name__`.
    pub name: &'static str,
    /// `__module__`: `__main__` for the user's classes.
    pub module: &'static str,
    /// The base classes as written (user classes, exception classes, `object`).
    pub bases: Vec<Value>,
    /// The class's own attributes: methods, class variables.
    pub attrs: ClassAttrs,
    /// The method resolution order after this class (C3), computed on first use.
    linear: OnceLock<Vec<Value>>,
    /// [`Class::slot_names`], computed on first use: as in CPython, a class's `__slots__`
    /// take effect when it is made (by the time an instance sets an attribute), and
    /// changing the attribute later changes nothing.
    slots: OnceLock<Option<Vec<String>>>,
    /// [`Class::plain_instances`] as last found (bit 0) and the [`CLASS_EPOCH`] it was
    /// found at (the other bits).
    plain: AtomicU64,
    /// [`Class::is_python`].
    python: bool,
}

/// An instance of a user class: its class and its own attributes.
pub struct Instance {
    /// The class it was made from.
    pub class: Arc<Class>,
    /// Its own attributes (`self.x = …`).
    pub attrs: InstanceAttrs,
    /// Its `repr` and `str` as last computed by the evaluator (which can run the class's
    /// `__repr__` and `__str__`), for the renderers, which cannot.
    pub shown: Mutex<Option<(String, String)>>,
    /// What its class's `__hash__` last returned (reduced) and the number of the class of
    /// instances equal to it by `__eq__` (see `eval::keys`), set by the evaluator; `None`
    /// until then.
    hash: Mutex<Option<(i64, u64)>>,
    /// Whether `hash` was ever set: read on every attribute store (which re-asks the hash of
    /// an instance that has one), without taking the lock for the many that never do.
    hashed: AtomicBool,
    /// The builtin value an instance of a class deriving from `dict` or `list` holds its
    /// items in (set when it is made; the class's inherited methods act on it).
    base: OnceLock<Value>,
}

/// A function bound to a receiver: `obj.method`, or `Class.classmethod`.
pub struct Bound {
    /// The instance (or class) passed as the first argument.
    pub receiver: Value,
    /// The function.
    pub func: Value,
}

/// Where attributes are kept: an instance's or a function's own (a `Mutex<Attrs>`), or a
/// class's ([`ClassAttrs`]).
pub trait AttrStore {
    /// The attributes.
    fn cell(&self) -> &AttrCell;
    /// Whether [`AttrStore::changed`] is wanted (an instance's changes are not watched).
    fn watched(&self) -> bool {
        false
    }
    /// Called after `name` changed from `old` (`None`: unset) to a value, which is `new`
    /// when it is an object (an instance).
    fn changed(&self, _name: &str, _old: Option<&Value>, _new: Option<&Value>) {}
}

impl AttrStore for AttrCell {
    fn cell(&self) -> &AttrCell {
        self
    }
}

/// The class attributes that change how its instances' attributes are set: the hooks, the
/// mark of a named tuple (whose fields are read-only), and what makes a class's instances
/// data descriptors.
macro_rules! HOOKS {
    () => {
        "__setattr__" | "__delattr__" | "__namedtuple__" | "__set__" | "__delete__"
    };
}

/// Counts changes to any class's attributes: a class's cached [`Class::plain_instances`]
/// holds while this stays what it was when the answer was found.
static CLASS_EPOCH: AtomicU64 = AtomicU64::new(1);

/// Counts the classes made and the changes to any class's attributes that could change
/// which function reading an attribute finds: one set where there was none, or a function
/// set over or removed. A method found on a class holds while this stays what it was.
static METHOD_EPOCH: AtomicU64 = AtomicU64::new(1);

/// [`METHOD_EPOCH`] now.
pub fn method_epoch() -> u64 {
    METHOD_EPOCH.load(Ordering::Acquire)
}

/// A class's attributes. Changing them (`A.x = …`, a decorator adding methods) makes every
/// class's cached facts about its attributes stale.
pub struct ClassAttrs(AttrCell);

impl AttrStore for ClassAttrs {
    fn cell(&self) -> &AttrCell {
        &self.0
    }

    fn watched(&self) -> bool {
        true
    }

    fn changed(&self, name: &str, old: Option<&Value>, new: Option<&Value>) {
        if matches!(old, None | Some(Value::Closure(_))) {
            METHOD_EPOCH.fetch_add(1, Ordering::AcqRel);
        }
        // Only what `plain_instances` looks at: a class counter (`A.n += 1`) changes nothing.
        let object = |v: Option<&Value>| v.is_some_and(data_descriptor);
        if matches!(name, HOOKS!()) || object(old) || object(new) {
            CLASS_EPOCH.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// An instance's own attributes, with a summary of the names ever set on it: a method call
/// asks whether the instance has an attribute of the method's name (which would be called
/// instead), and the answer is almost always no.
#[derive(Default)]
pub struct InstanceAttrs {
    cell: AttrCell,
    /// One bit per [`name_bit`] of each name ever set (a removed name keeps its bit).
    names: AtomicU64,
}

impl InstanceAttrs {
    /// False when no attribute `name` was ever set here (true may be a false alarm).
    pub fn may_have(&self, name: &str) -> bool {
        self.names.load(Ordering::Acquire) & name_bit(name) != 0
    }
}

impl AttrStore for InstanceAttrs {
    fn cell(&self) -> &AttrCell {
        &self.cell
    }

    fn changed(&self, name: &str, old: Option<&Value>, _new: Option<&Value>) {
        if old.is_none() {
            self.names.fetch_or(name_bit(name), Ordering::AcqRel);
        }
    }
}

/// The bit of [`InstanceAttrs::names`] that stands for `name`.
fn name_bit(name: &str) -> u64 {
    let b = name.as_bytes();
    let mix = b.len() as u64 * 7
        + b.first().map_or(0, |&c| u64::from(c))
        + b.last().map_or(0, |&c| u64::from(c) * 3)
        + b.get(b.len() / 2).map_or(0, |&c| u64::from(c) * 5);
    1 << (mix % 64)
}

/// Whether `v`, found on a class, takes over reading and setting the attribute of that name
/// on its instances: a property, or an object whose class defines `__set__` or `__delete__`.
fn data_descriptor(v: &Value) -> bool {
    let Value::Instance(d) = v else {
        return false;
    };
    if d.class.module == "builtins" {
        return d.class.name == "property";
    }
    d.class.lookup("__set__").is_some() || d.class.lookup("__delete__").is_some()
}

fn lock(m: &AttrCell) -> spin::MutexGuard<'_, Attrs> {
    m.lock()
}

/// Looks `name` up in attributes.
pub fn attr_get(m: &(impl AttrStore + ?Sized), name: &str) -> Option<Value> {
    lock(m.cell())
        .iter()
        .find(|(k, _)| crate::value::locals::same_name(k, name))
        .map(|(_, v)| v.clone())
}

/// Sets `name` in attributes.
pub fn attr_set(m: &(impl AttrStore + ?Sized), name: &str, v: Value) {
    // `changed` is told of an object stored (the rest cannot be descriptors) after the lock
    // is released: it may look into this very object's class.
    let object = (m.watched() && matches!(v, Value::Instance(_))).then(|| v.clone());
    let mut attrs = lock(m.cell());
    let old = match attrs
        .iter_mut()
        .find(|(k, _)| crate::value::locals::same_name(k, name))
    {
        Some(slot) => Some(std::mem::replace(&mut slot.1, v)),
        None => {
            attrs.push((name.to_string(), v));
            None
        }
    };
    drop(attrs);
    m.changed(name, old.as_ref(), object.as_ref());
    // The old value is dropped after the lock is released (it may be the last reference to
    // something holding this very object).
    drop(old);
}

/// Replaces the value of `name` in attributes by what `f` makes of it, when it is there and
/// `f` makes something; false otherwise. `f` runs under the lock: it must not reach any
/// object's attributes.
pub fn attr_update(
    m: &(impl AttrStore + ?Sized),
    name: &str,
    f: impl FnOnce(&Value) -> Option<Value>,
) -> bool {
    let mut attrs = lock(m.cell());
    let Some(slot) = attrs
        .iter_mut()
        .find(|(k, _)| crate::value::locals::same_name(k, name))
    else {
        return false;
    };
    let Some(new) = f(&slot.1) else {
        return false;
    };
    let old = std::mem::replace(&mut slot.1, new);
    drop(attrs);
    drop(old);
    true
}

/// Removes `name` from attributes; false when it was not there.
pub fn attr_del(m: &(impl AttrStore + ?Sized), name: &str) -> bool {
    let mut attrs = lock(m.cell());
    let Some(at) = attrs
        .iter()
        .position(|(k, _)| crate::value::locals::same_name(k, name))
    else {
        return false;
    };
    let (_, old) = attrs.remove(at);
    drop(attrs);
    m.changed(name, Some(&old), None);
    true
}

/// A copy of the attributes.
pub fn attr_items(m: &impl AttrStore) -> Attrs {
    lock(m.cell()).clone()
}

impl Class {
    /// A new class.
    pub fn new(name: &str, module: &str, bases: Vec<Value>, attrs: Attrs) -> Arc<Class> {
        Self::made(name, module, bases, attrs, module == "__main__")
    }

    /// A class of a standard module that CPython writes in Python (`collections.UserDict`,
    /// `string.Template`): shown with its own module, and treated as the user's classes
    /// are (see [`Class::is_python`]).
    pub fn python(name: &str, module: &str, bases: Vec<Value>, attrs: Attrs) -> Arc<Class> {
        Self::made(name, module, bases, attrs, true)
    }

    fn made(name: &str, module: &str, bases: Vec<Value>, attrs: Attrs, python: bool) -> Arc<Class> {
        // A new class may be where a freed one was.
        METHOD_EPOCH.fetch_add(1, Ordering::AcqRel);
        Arc::new(Class {
            name: intern(name),
            module: intern(module),
            bases,
            attrs: ClassAttrs(AttrCell::new(attrs)),
            linear: OnceLock::new(),
            slots: OnceLock::new(),
            plain: AtomicU64::new(0),
            python,
        })
    }

    /// Whether the class is one written in Python: the user's (module `__main__`), or one
    /// made by [`Class::python`]. Its instances go through the class protocol — dunder
    /// methods, `__new__` and `__init__`, descriptors, attribute setting — where a builtin
    /// type's instances (a `re.Match`, a file) have ragtag's own behaviour.
    pub fn is_python(&self) -> bool {
        self.python
    }

    /// The classes searched for an attribute, this one first: Python's method resolution
    /// order (the C3 linearization of the bases).
    pub fn mro(self: &Arc<Class>) -> Vec<Value> {
        let mut out = vec![Value::Class(self.clone())];
        out.extend(self.after().iter().cloned());
        out
    }

    /// The method resolution order after this class.
    fn after(&self) -> &[Value] {
        self.linear.get_or_init(|| {
            c3(&self.bases).unwrap_or_else(|| {
                // An inconsistent order is refused when the class is made; this is only
                // for builtin types made directly.
                self.bases.clone()
            })
        })
    }

    /// An attribute found in this class or a base class.
    pub fn lookup(self: &Arc<Class>, name: &str) -> Option<Value> {
        attr_get(&self.attrs, name).or_else(|| {
            self.after().iter().find_map(|c| match c {
                Value::Class(c) => attr_get(&c.attrs, name),
                _ => None,
            })
        })
    }

    /// Whether reading and setting its instances' attributes is plain: every class in its
    /// MRO is a user class (no builtin or exception base, not a named tuple) with no
    /// `__setattr__` or `__delattr__` and no data descriptor (a property, an object whose
    /// class defines `__set__` or `__delete__`), so an instance's own attribute is the
    /// answer to reading it and setting one stores it. Kept until a class's attributes change
    /// in a way that could change the answer.
    pub fn plain_instances(self: &Arc<Class>) -> bool {
        let epoch = CLASS_EPOCH.load(Ordering::SeqCst);
        let known = self.plain.load(Ordering::Relaxed);
        if known >> 1 == epoch {
            return known & 1 == 1;
        }
        let own = |k: &Class| {
            if !k.is_python() {
                return false;
            }
            // The objects are looked at after the lock is released: one may be an instance
            // of this very class.
            let mut objects = Vec::new();
            for (n, v) in lock(k.attrs.cell()).iter() {
                if matches!(n.as_str(), HOOKS!()) {
                    return false;
                }
                if let Value::Instance(_) = v {
                    objects.push(v.clone());
                }
            }
            !objects.iter().any(data_descriptor)
        };
        let plain = own(self)
            && self
                .after()
                .iter()
                .all(|c| matches!(c, Value::Class(k) if own(k)));
        self.plain
            .store(epoch << 1 | u64::from(plain), Ordering::Relaxed);
        plain
    }

    /// The builtin type (`dict`, `list`) this class derives from, if any: the name of the
    /// hidden class standing for it in the MRO.
    pub fn builtin_base(&self) -> Option<&'static str> {
        self.after().iter().find_map(|c| match c {
            Value::Class(k) if k.module == "builtins" && BUILTIN_BASES.contains(&k.name) => {
                Some(k.name)
            }
            _ => None,
        })
    }

    /// The builtin exception class this class derives from, if any.
    pub fn exception_base(self: &Arc<Class>) -> Option<ragtag_engine::ExceptionClass> {
        self.after().iter().find_map(|c| match c {
            Value::ErrorClass(k) => Some(*k),
            _ => None,
        })
    }

    /// Whether `other` is this class or one of its bases.
    pub fn is_subclass_of(self: &Arc<Class>, other: &Value) -> bool {
        self.mro().iter().any(|c| match (c, other) {
            (Value::Class(x), Value::Class(y)) => Arc::ptr_eq(x, y),
            (Value::ErrorClass(x), Value::ErrorClass(y)) => y.catches(*x),
            // The class standing for `dict` in the MRO is the builtin `dict`.
            (Value::Class(x), Value::Builtin(b)) if x.module == "builtins" => x.name == b.name,
            (a, b) => same(a, b),
        }) || matches!(other, Value::Builtin(b) if b.name == "object")
    }

    /// The names a class's own `__slots__` declares (a str, or a tuple or list of strs);
    /// `None` when it declares none.
    fn own_slots(&self) -> Option<Vec<String>> {
        let names = |items: &[Value]| {
            items
                .iter()
                .filter_map(|x| match x {
                    Value::Str(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect()
        };
        Some(match attr_get(&self.attrs, "__slots__")? {
            Value::Str(s) => vec![s.to_string()],
            Value::Tuple(t) => names(&t),
            Value::List(l) => names(&l.items()),
            _ => Vec::new(),
        })
    }

    /// The attributes instances may have when each of the user's classes in the MRO
    /// declares `__slots__` (`None`: instances have a `__dict__` and take any name).
    pub fn slot_names(self: &Arc<Class>) -> Option<&[String]> {
        self.slots.get_or_init(|| self.find_slot_names()).as_deref()
    }

    fn find_slot_names(self: &Arc<Class>) -> Option<Vec<String>> {
        let mut out = Vec::new();
        for k in self.mro() {
            match k {
                Value::Class(k) if k.is_python() => out.extend(k.own_slots()?),
                // `Generic` and `Protocol` add no `__dict__`.
                Value::Class(k) if k.module == "typing" => {}
                _ => return None,
            }
        }
        Some(out)
    }

    /// Every name some class in the MRO declares in `__slots__` (kept out of `__dict__`).
    pub fn declared_slots(self: &Arc<Class>) -> Vec<String> {
        self.mro()
            .iter()
            .filter_map(|k| match k {
                Value::Class(k) => k.own_slots(),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// `<class '__main__.A'>`.
    pub fn repr(&self) -> String {
        if self.module == "builtins" {
            format!("<class '{}'>", self.name)
        } else {
            format!("<class '{}.{}'>", self.module, self.name)
        }
    }
}

impl Instance {
    /// A new instance of `class` with no attributes.
    pub fn new(class: Arc<Class>) -> Arc<Instance> {
        Arc::new(Instance {
            class,
            attrs: InstanceAttrs::default(),
            shown: Mutex::new(None),
            hash: Mutex::new(None),
            hashed: AtomicBool::new(false),
            base: OnceLock::new(),
        })
    }

    /// The builtin value holding its items, for an instance of a class deriving from a
    /// builtin type (`class D(dict)`).
    pub fn base(&self) -> Option<&Value> {
        self.base.get()
    }

    /// Sets the builtin value holding its items (once, when the instance is made).
    pub fn set_base(&self, v: Value) {
        let _ = self.base.set(v);
    }

    /// The hash its `__hash__` last gave and its equality number, if the evaluator has
    /// asked.
    pub fn user_hash(&self) -> Option<(i64, u64)> {
        if !self.hashed.load(Ordering::Acquire) {
            return None;
        }
        *self.hash.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records the hash its `__hash__` gave.
    pub fn set_user_hash(&self, h: i64, id: u64) {
        *self.hash.lock().unwrap_or_else(|e| e.into_inner()) = Some((h, id));
        self.hashed.store(true, Ordering::Release);
    }

    /// The `repr` and `str` last computed, if any.
    pub fn shown(&self) -> Option<(String, String)> {
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Records the `repr` and `str` the evaluator computed.
    pub fn set_shown(&self, repr: String, str: String) {
        *self.shown.lock().unwrap_or_else(|e| e.into_inner()) = Some((repr, str));
    }

    /// The default `repr`: `<__main__.A object at 0x…>`.
    pub fn default_repr(self: &Arc<Instance>) -> String {
        format!(
            "<{}.{} object at {:#x}>",
            self.class.module,
            self.class.name,
            Arc::as_ptr(self) as usize
        )
    }
}

impl fmt::Debug for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.repr())
    }
}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}.{} object>", self.class.module, self.class.name)
    }
}

impl fmt::Debug for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<bound method of {:?}>", self.receiver)
    }
}
