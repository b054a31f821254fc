//! Iterators: Python's one-pass objects (`iter(xs)`, generators, `map`, `zip`, the
//! `itertools`), as data. Advancing one needs the interpreter (a `map` calls its function,
//! a generator runs its body), so the stepping lives in `eval::iterators`; here is only
//! what each kind remembers between two `next()`s.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::env::Env;
use super::Value;
use ragtag_engine::{Exception, ExceptionClass};
use ragtag_syntax::ast::{Comprehension, Expr};

/// An iterator object: its Python type name and its state.
#[derive(Debug)]
pub struct PyIter {
    /// The type name `type(it).__name__` gives (`generator`, `map`, `list_iterator`).
    pub kind: &'static str,
    /// The function a generator came from (`<genexpr>` for a generator expression).
    pub name: String,
    slot: Mutex<Slot>,
}

#[derive(Debug)]
enum Slot {
    Ready(Box<IterState>),
    /// Taken by a `next()` in progress: a generator whose body asks for its own next item.
    Running,
    Done,
}

/// What one kind of iterator remembers.
#[derive(Debug)]
#[allow(missing_docs)] // each variant's doc says what its fields hold
pub enum IterState {
    /// Items already known (a list's, a tuple's, a string's characters).
    Seq(VecDeque<Value>),
    /// A list's iterator: reads the list as it is at each step, as CPython's does.
    List {
        list: Arc<super::PyList>,
        pos: usize,
    },
    /// `range(start, stop, step)` counting lazily.
    Range { next: i64, stop: i64, step: i64 },
    /// `itertools.count(start, step)`.
    Count { next: Value, step: Value },
    /// `os.walk(top)` from the top down: the directories still to visit (the next last),
    /// and the last directory given with its `dirnames` list, which says (as the caller
    /// left it) where to go next; `follow`: into symbolic links to directories too.
    Walk {
        stack: Vec<String>,
        last: Option<(String, Value)>,
        follow: bool,
    },
    /// `itertools.repeat(value, times)`.
    Repeat { value: Value, left: Option<i64> },
    /// `itertools.cycle(xs)`: the items seen, then round again.
    Cycle {
        src: Option<Value>,
        saved: Vec<Value>,
        pos: usize,
    },
    /// `itertools.chain(*its)`; `more`: `chain.from_iterable`'s source of iterables.
    Chain {
        iters: VecDeque<Value>,
        more: Option<Value>,
    },
    /// `map(f, *its)`; `star`: `itertools.starmap(f, it)` (each item is the arguments).
    Map {
        func: Value,
        iters: Vec<Value>,
        star: bool,
    },
    /// `filter(f, it)`; `invert`: `itertools.filterfalse`.
    Filter {
        func: Value,
        iter: Value,
        invert: bool,
    },
    /// `zip(*its, strict=…)`.
    Zip { iters: Vec<Value>, strict: bool },
    /// `itertools.zip_longest(*its, fillvalue=…)`: `live` says which still give items.
    ZipLongest {
        iters: Vec<Value>,
        live: Vec<bool>,
        fill: Value,
    },
    /// `enumerate(it, start)`.
    Enumerate { iter: Value, n: i64 },
    /// `itertools.islice(it, start, stop, step)`: `pos` items consumed so far.
    Islice {
        iter: Value,
        next: i64,
        stop: Option<i64>,
        step: i64,
        pos: i64,
    },
    /// `itertools.takewhile(f, it)` / `dropwhile(f, it)`.
    While {
        func: Value,
        iter: Value,
        take: bool,
        done: bool,
    },
    /// `itertools.accumulate(it, func, initial=…)`.
    Accumulate {
        iter: Value,
        func: Option<Value>,
        acc: Option<Value>,
    },
    /// `itertools.pairwise(it)`.
    Pairwise { iter: Value, last: Option<Value> },
    /// `itertools.groupby(it, key)`: the first item of the next group, with its key.
    GroupBy {
        iter: Value,
        key: Option<Value>,
        pending: Option<(Value, Value)>,
    },
    /// `product`, `permutations`, `combinations` (with replacement): positions into `pool`.
    Combinatoric {
        pool: Vec<Value>,
        how: Combinatoric,
        idx: Vec<usize>,
        cycles: Vec<usize>,
        first: bool,
    },
    /// One of `itertools.tee`'s iterators: a shared buffer and its own position.
    Tee {
        shared: Arc<Mutex<TeeShared>>,
        pos: usize,
    },
    /// `iter(f, sentinel)`: calls `f()` until it returns `sentinel`.
    Call { func: Value, sentinel: Value },
    /// A generator expression: its element, clauses and scope, and one iterator per open
    /// `for` clause.
    GenExp {
        elt: Arc<Expr>,
        gens: Arc<Vec<Comprehension>>,
        env: Arc<Env>,
        iters: Vec<Value>,
    },
    /// A generator function's suspended body.
    Generator(GenBox),
    /// An instance of a user class with `__next__`: each item is a call of it, until it
    /// raises StopIteration.
    Object { obj: Value },
}

/// Which combinatoric iterator, with its `r` (the repeat count for `product`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Combinatoric {
    /// `product(*pools, repeat)`: `sizes` are the lengths of each pool (repeated).
    Product,
    /// `permutations(pool, r)`.
    Permutations(usize),
    /// `combinations(pool, r)`.
    Combinations(usize),
    /// `combinations_with_replacement(pool, r)`.
    WithReplacement(usize),
}

/// The items `tee`'s iterators share: those not yet read by all of them.
#[derive(Debug)]
pub struct TeeShared {
    /// The source iterator.
    pub iter: Value,
    /// Items read from the source, from position `base` on.
    pub buffer: VecDeque<Value>,
    /// The position of the buffer's first item.
    pub base: usize,
}

/// A generator function's suspended body: the evaluator's own state (see
/// `eval::generator`), held here without this layer knowing its shape.
pub struct GenBox(pub Box<dyn std::any::Any + Send>);

impl std::fmt::Debug for GenBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GenBox")
    }
}

impl PyIter {
    /// A new iterator of `kind` in `state`.
    pub fn new(kind: &'static str, state: IterState) -> Arc<PyIter> {
        Self::named(kind, String::new(), state)
    }

    /// A new iterator with a function name (a generator's).
    pub fn named(kind: &'static str, name: String, state: IterState) -> Arc<PyIter> {
        Arc::new(PyIter {
            kind,
            name,
            slot: Mutex::new(Slot::Ready(Box::new(state))),
        })
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the state out to advance it (`None`: exhausted); a ValueError when a `next()`
    /// of this iterator is already running (a generator resuming itself).
    pub fn take(&self) -> Result<Option<Box<IterState>>, Exception> {
        let mut slot = self.slot();
        match std::mem::replace(&mut *slot, Slot::Running) {
            Slot::Ready(s) => Ok(Some(s)),
            Slot::Done => {
                *slot = Slot::Done;
                Ok(None)
            }
            Slot::Running => Err(Exception::new(
                ExceptionClass::ValueError,
                format!("{} already executing", self.kind),
            )),
        }
    }

    /// Puts the state back after a step.
    pub fn put(&self, state: Box<IterState>) {
        *self.slot() = Slot::Ready(state);
    }

    /// Marks the iterator exhausted.
    pub fn finish(&self) {
        *self.slot() = Slot::Done;
    }

    /// The type name (`chain` for `itertools.chain`).
    pub fn type_name(&self) -> &'static str {
        self.kind.rsplit('.').next().unwrap_or(self.kind)
    }

    /// Python's repr: `<generator object f at 0x…>`, `count(3)`, `<map object at 0x…>`.
    pub fn repr(&self, r: impl Fn(&Value) -> String) -> String {
        let at = self as *const PyIter as usize;
        if let Slot::Ready(state) = &*self.slot() {
            match &**state {
                IterState::Count { next, step } => {
                    return match step {
                        Value::Int(1) => format!("count({})", r(next)),
                        s => format!("count({}, {})", r(next), r(s)),
                    };
                }
                IterState::Repeat { value, left } => {
                    let v = r(value);
                    return match left {
                        Some(n) => format!("repeat({v}, {n})"),
                        None => format!("repeat({v})"),
                    };
                }
                _ => {}
            }
        }
        if self.is_generator() {
            format!("<generator object {} at 0x{at:x}>", self.name)
        } else {
            format!("<{} object at 0x{at:x}>", self.kind)
        }
    }

    /// Whether it is a generator (it has `send`, `throw` and `close`).
    pub fn is_generator(&self) -> bool {
        self.kind == "generator"
    }
}

/// `it` as a value.
pub fn iter_value(kind: &'static str, state: IterState) -> Value {
    Value::Iter(PyIter::new(kind, state))
}
