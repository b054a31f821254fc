//! Instances of classes that define `__hash__` as dict keys and set members. A dict or set
//! cannot call `__eq__` (it has no interpreter), so the evaluator does it beforehand: when
//! such an instance is made, hashed, or changed, its `__hash__` is called and the result
//! compared by `__eq__` with the live instances that hashed the same, and it takes the
//! number of the first equal one (a new number when none is). Its key is then the hash and
//! that number ([`Key::Hashed`]), so `d[P(1, 2)]` finds the key a different but equal
//! `P(1, 2)` was stored under, in every dict and set at once.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use super::{operators, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::class::Instance;
use crate::value::{Key, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, Span};

/// The instances of one equality number still alive (some may have died since), and the
/// length after the last sweep of the dead.
#[derive(Default)]
struct Members {
    live: VecDeque<Weak<Instance>>,
    swept: usize,
}

impl Members {
    /// One live member, dropping dead ones from the front.
    fn any(&mut self) -> Option<Arc<Instance>> {
        while let Some(w) = self.live.front() {
            if let Some(a) = w.upgrade() {
                return Some(a);
            }
            self.live.pop_front();
        }
        None
    }

    fn push(&mut self, i: &Arc<Instance>) {
        self.live.push_back(Arc::downgrade(i));
        if self.live.len() > 2 * self.swept.max(8) {
            self.live.retain(|w| w.strong_count() > 0);
            self.swept = self.live.len();
        }
    }
}

#[derive(Default)]
struct Registry {
    /// The equality numbers given to instances of each hash.
    by_hash: HashMap<i64, Vec<u64>>,
    members: HashMap<u64, Members>,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry::default());
}

static NEXT: AtomicU64 = AtomicU64::new(1);

/// The `__hash__` a user class gives its instances (`None`: it has none of its own, or
/// sets `__hash__ = None`).
fn user_hash_fn(i: &Instance) -> Option<Value> {
    // The program's classes, and `int | str` (hashed by its members).
    if !i.class.is_python() && i.class.module != "types" {
        return None;
    }
    match i.class.lookup("__hash__") {
        Some(Value::None) | None => None,
        Some(f) => Some(f),
    }
}

/// CPython's reduction of what `__hash__` returned: an int within 64 bits as it is (-1
/// becomes -2), a larger one hashed as an int; anything else a TypeError.
fn reduce(r: &Value, span: Span) -> Result<i64> {
    match r {
        Value::Int(-1) => Ok(-2),
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::BigInt(_) => Key::of(r)
            .map(|k| k.py_hash())
            .map_err(|e| Error::from(e).at(span)),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "__hash__ method should return an integer",
        )
        .at(span)),
    }
}

impl<'s> Interp<'s> {
    /// Calls the `__hash__` of an instance whose class defines one and gives it its
    /// equality number; the reduced hash (`None` for any other value).
    pub(super) fn prime_key(&mut self, v: &Value, span: Span) -> Result<Option<i64>> {
        let Value::Instance(i) = v else {
            if let Value::Tuple(items) = v {
                for x in items.iter() {
                    if matches!(x, Value::Instance(_) | Value::Tuple(_)) {
                        self.prime_key(x, span)?;
                    }
                }
            }
            return Ok(None);
        };
        let Some(f) = user_hash_fn(i) else {
            return Ok(None);
        };
        let r = self.call_method(v, &f, Vec::new(), span)?;
        let h = reduce(&r, span)?;
        if matches!(i.user_hash(), Some((old, _)) if old == h) {
            return Ok(Some(h));
        }
        let ids = REGISTRY.with(|r| r.borrow().by_hash.get(&h).cloned().unwrap_or_default());
        for id in ids {
            let Some(other) = REGISTRY.with(|r| r.borrow_mut().members.get_mut(&id)?.any()) else {
                REGISTRY.with(|r| {
                    let mut r = r.borrow_mut();
                    r.members.remove(&id);
                    if let Some(ids) = r.by_hash.get_mut(&h) {
                        ids.retain(|x| *x != id);
                    }
                });
                continue;
            };
            if Arc::ptr_eq(&other, i) {
                continue;
            }
            let eq = self.instance_binary(BinOp::Eq, &Value::Instance(other), v, span)?;
            if self.truth(&eq, span)? {
                i.set_user_hash(h, id);
                REGISTRY.with(|r| {
                    if let Some(m) = r.borrow_mut().members.get_mut(&id) {
                        m.push(i);
                    }
                });
                return Ok(Some(h));
            }
        }
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        i.set_user_hash(h, id);
        REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            r.by_hash.entry(h).or_default().push(id);
            r.members.entry(id).or_default().push(i);
        });
        Ok(Some(h))
    }

    /// `prime_key` where an error is not the caller's to raise (an instance just made or
    /// changed, whose `__hash__` may not work yet): the error is dropped and the instance
    /// is primed again when it is hashed.
    pub(super) fn prime_quietly(&mut self, v: &Value, span: Span) {
        if matches!(v, Value::Instance(i) if user_hash_fn(i).is_some()) {
            let _ = self.prime_key(v, span);
        }
    }

    /// `prime_quietly` after an attribute of an instance changed: only an instance already
    /// hashed is hashed again.
    pub(super) fn reprime(&mut self, v: &Value, span: Span) {
        if matches!(v, Value::Instance(i) if i.user_hash().is_some()) {
            self.prime_quietly(v, span);
        }
    }

    /// `item in container` where the item is an instance: primed first, so that a dict or
    /// set finds an equal key.
    pub(super) fn contains_primed(
        &mut self,
        container: &Value,
        item: &Value,
        span: Span,
    ) -> Result<bool> {
        self.prime_key(item, span)?;
        operators::binary(BinOp::In, item, container)
            .and_then(|r| r.truthy())
            .map_err(|e| Error::from(e).at(span))
    }

    /// Where `v` first is among `items` by `==` (an instance's `__eq__` asked).
    pub(crate) fn position_eq(
        &mut self,
        items: &[Value],
        v: &Value,
        span: Span,
    ) -> Result<Option<usize>> {
        let asks = super::protocols::holds_instance(v);
        for (n, x) in items.iter().enumerate() {
            let eq = if asks || matches!(x, Value::Instance(_)) {
                self.eq_values(x, v, span)?
            } else {
                operators::identical(x, v) || operators::python_eq(x, v)
            };
            if eq {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// How many of `items` are `==` to `v` (an instance's `__eq__` asked).
    pub(crate) fn count_eq(&mut self, items: &[Value], v: &Value, span: Span) -> Result<usize> {
        let mut n = 0;
        for (i, _) in items.iter().enumerate() {
            if self.position_eq(&items[i..=i], v, span)?.is_some() {
                n += 1;
            }
        }
        Ok(n)
    }

    /// Primes the instances among a dict's or set's method's arguments (so a key equal to
    /// one stored is found); other builtins' arguments are left alone.
    pub(super) fn prime_builtin_args(
        &mut self,
        name: &str,
        args: &[super::args::CallArg],
        span: Span,
    ) -> Result<()> {
        let keyed = [
            "dict.",
            "set.",
            "frozenset.",
            "Counter.",
            "defaultdict.",
            "OrderedDict.",
        ];
        if !keyed.iter().any(|p| name.starts_with(p)) {
            return Ok(());
        }
        for a in args {
            if matches!(a.value, Value::Instance(_) | Value::Tuple(_)) {
                self.prime_key(&a.value, span)?;
            }
        }
        Ok(())
    }
}

/// A dict, set or dict view being iterated by `for`, with its length at the start: it
/// changing size is CPython's RuntimeError.
pub(super) struct Sized {
    value: Value,
    len: usize,
}

impl Sized {
    /// The watch for `v`, when it is a dict, a set or a dict view.
    pub(super) fn of(v: &Value) -> Option<Sized> {
        let len = Self::len(v)?;
        Some(Sized {
            value: v.clone(),
            len,
        })
    }

    fn len(v: &Value) -> Option<usize> {
        match v {
            Value::Dict(d) => Some(d.len()),
            Value::Set(s) => Some(s.len()),
            Value::View(x) => Some(x.len()),
            _ => None,
        }
    }

    /// The RuntimeError when the size changed.
    pub(super) fn check(&self, span: Span) -> Result<()> {
        if Self::len(&self.value) == Some(self.len) {
            return Ok(());
        }
        let what = match self.value {
            Value::Set(_) => "Set",
            _ => "dictionary",
        };
        Err(Error::new(
            ExceptionClass::RuntimeError,
            format!("{what} changed size during iteration"),
        )
        .at(span))
    }
}
