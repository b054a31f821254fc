//! `random.Random(seed)`: generators of their own with the module's methods and CPython's
//! streams. Each instance keeps its Mersenne Twister (and Box–Muller spare) here; a method
//! swaps it in as the module's generator, runs the module's function, and swaps it back.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::super::{registry, Builtin};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::{rng, Interp};
use crate::value::class::{Class, Instance};
use crate::value::Value;
use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::ExceptionClass;

type State = (Mt19937, Option<f64>);

thread_local! {
    static STATES: RefCell<HashMap<usize, State>> = RefCell::new(HashMap::new());
}

const EX: &str = "import random\nr = random.Random(42)\n";

/// `random.Random` and its methods.
pub static RANDOM_INSTANCES: &[Builtin] = &[
    Builtin::function("random.Random", "(x=None)", new)
        .doc("A generator of its own, seeded as `random.seed(x)`, with the module's methods.")
        .examples(&["import random\nr = random.Random(42)\nr.random()"]),
    Builtin::method("random.Random.seed", "(self, *args, **kwargs)", call)
        .doc("Restarts this generator, as `random.seed`.")
        .examples(&["import random\nr = random.Random(1)\nr.seed(42)\nr.random()"]),
    Builtin::method("random.Random.random", "(self, *args, **kwargs)", call)
        .doc("`random.random()` from this generator.")
        .examples(&[EX]),
    Builtin::method("random.Random.getrandbits", "(self, *args, **kwargs)", call)
        .doc("`random.getrandbits(k)` from this generator.")
        .examples(&["import random\nrandom.Random(42).getrandbits(70)"]),
    Builtin::method("random.Random.randrange", "(self, *args, **kwargs)", call)
        .doc("`random.randrange(…)` from this generator.")
        .examples(&["import random\nrandom.Random(42).randrange(10)"]),
    Builtin::method("random.Random.randint", "(self, *args, **kwargs)", call)
        .doc("`random.randint(a, b)` from this generator.")
        .examples(&["import random\nrandom.Random(42).randint(1, 6)"]),
    Builtin::method("random.Random.choice", "(self, *args, **kwargs)", call)
        .doc("`random.choice(seq)` from this generator.")
        .examples(&["import random\nrandom.Random(42).choice('abc')"]),
    Builtin::method("random.Random.choices", "(self, *args, **kwargs)", call)
        .doc("`random.choices(…)` from this generator.")
        .examples(&["import random\nrandom.Random(42).choices('abc', k=3)"]),
    Builtin::method("random.Random.shuffle", "(self, *args, **kwargs)", call)
        .doc("`random.shuffle(x)` from this generator.")
        .examples(&["import random\nxs = [1, 2, 3]\nrandom.Random(42).shuffle(xs)\nxs"]),
    Builtin::method("random.Random.sample", "(self, *args, **kwargs)", call)
        .doc("`random.sample(population, k)` from this generator.")
        .examples(&["import random\nrandom.Random(42).sample(range(10), 3)"]),
    Builtin::method("random.Random.uniform", "(self, *args, **kwargs)", call)
        .doc("`random.uniform(a, b)` from this generator.")
        .examples(&["import random\nrandom.Random(42).uniform(1, 2)"]),
    Builtin::method("random.Random.gauss", "(self, *args, **kwargs)", call)
        .doc("`random.gauss(mu, sigma)` from this generator.")
        .examples(&["import random\nrandom.Random(42).gauss(0, 1)"]),
    Builtin::method("random.Random.triangular", "(self, *args, **kwargs)", call)
        .doc("`random.triangular` from this generator.")
        .examples(&["import random\nrandom.Random(42).triangular(0, 10, 2)"]),
    Builtin::method(
        "random.Random.normalvariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.normalvariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).normalvariate(0, 1)"]),
    Builtin::method(
        "random.Random.lognormvariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.lognormvariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).lognormvariate(0, 0.5)"]),
    Builtin::method("random.Random.expovariate", "(self, *args, **kwargs)", call)
        .doc("`random.expovariate` from this generator.")
        .examples(&["import random\nrandom.Random(42).expovariate(2)"]),
    Builtin::method(
        "random.Random.vonmisesvariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.vonmisesvariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).vonmisesvariate(1, 4)"]),
    Builtin::method(
        "random.Random.gammavariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.gammavariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).gammavariate(2, 3)"]),
    Builtin::method("random.Random.betavariate", "(self, *args, **kwargs)", call)
        .doc("`random.betavariate` from this generator.")
        .examples(&["import random\nrandom.Random(42).betavariate(2, 5)"]),
    Builtin::method(
        "random.Random.paretovariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.paretovariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).paretovariate(3)"]),
    Builtin::method(
        "random.Random.weibullvariate",
        "(self, *args, **kwargs)",
        call,
    )
    .doc("`random.weibullvariate` from this generator.")
    .examples(&["import random\nrandom.Random(42).weibullvariate(1, 1.5)"]),
    Builtin::method("random.Random.randbytes", "(self, *args, **kwargs)", call)
        .doc("`random.randbytes` from this generator.")
        .examples(&["import random\nrandom.Random(42).randbytes(4)"]),
];

fn class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            let attrs = RANDOM_INSTANCES[1..]
                .iter()
                .filter_map(|b| {
                    let v = registry().get(b.name).map(Value::Builtin)?;
                    Some((b.short_name().to_string(), v))
                })
                .collect();
            // `random.Random` itself as a base: `isinstance(r, random.Random)`.
            let bases = registry().get("random.Random").map(Value::Builtin);
            Class::new("Random", "random", bases.into_iter().collect(), attrs)
        })
        .clone()
}

/// Runs `f` with the instance `id`'s generator as the module's.
fn swapped<R>(id: usize, f: impl FnOnce() -> R) -> R {
    let mine = STATES.with(|s| s.borrow_mut().remove(&id));
    let mine = mine.unwrap_or_else(|| (Mt19937::from_u32(0), None));
    let saved = rng::with(|s| {
        let saved = (s.python.clone(), s.python_gauss);
        s.python = mine.0;
        s.python_gauss = mine.1;
        saved
    });
    let r = f();
    let mine = rng::with(|s| {
        let mine = (s.python.clone(), s.python_gauss);
        s.python = saved.0;
        s.python_gauss = saved.1;
        mine
    });
    STATES.with(|s| s.borrow_mut().insert(id, mine));
    r
}

fn module_fn(name: &str) -> Result<Value> {
    registry()
        .get(&format!("random.{name}"))
        .map(Value::Builtin)
        .ok_or_else(|| Error::new(ExceptionClass::AttributeError, format!("no random.{name}")))
}

fn new(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = Instance::new(class());
    let id = Arc::as_ptr(&i) as usize;
    let seed = module_fn("seed")?;
    let arg = CallArg {
        name: None,
        value: a.value("x").clone(),
        span: a.span("x"),
    };
    swapped(id, || it.call(&seed, vec![arg], a.call))?;
    Ok(Value::Instance(i))
}

fn call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(i) = a.value("self") else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "a random.Random method needs an instance",
        )
        .at(a.call));
    };
    let id = Arc::as_ptr(i) as usize;
    let f = module_fn(a.builtin().short_name())?;
    let args = a.forwarded();
    swapped(id, || it.call(&f, args, a.call))
}
