//! Python's `itertools`: lazy iterators over other iterables (`count`, `chain`, `islice`,
//! `groupby`, …) and the combinatoric ones (`product`, `permutations`, `combinations`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::iterators::iter_arg;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::iterators::to_iter;
use crate::eval::Interp;
use crate::value::iter::{iter_value, Combinatoric, IterState, TeeShared};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The `itertools` module.
pub static ITERTOOLS: &[Builtin] = &[
    Builtin::function("itertools.count", "(start=0, step=1)", count)
        .doc("An endless iterator of `start`, `start + step`, `start + 2*step`, …")
        .examples(&["import itertools\nlist(zip(itertools.count(5), 'ab'))"]),
    Builtin::function("itertools.cycle", "(iterable)", cycle)
        .doc("An endless iterator repeating the items of `iterable`.")
        .examples(&["import itertools\nlist(itertools.islice(itertools.cycle('ab'), 5))"]),
    Builtin::function("itertools.repeat", "(object, times=None)", repeat)
        .doc("`object` again and again: `times` times, or endlessly.")
        .examples(&["import itertools\nlist(itertools.repeat(7, 3))"]),
    Builtin::function("itertools.chain", "(*iterables)", chain)
        .doc("The items of each iterable in turn.")
        .examples(&["import itertools\nlist(itertools.chain([1, 2], 'ab'))"]),
    Builtin::function("itertools.chain.from_iterable", "(iterable)", chain_from)
        .doc("The items of each iterable that `iterable` gives, in turn (read lazily).")
        .examples(&["import itertools\nlist(itertools.chain.from_iterable([[1], [2, 3]]))"]),
    Builtin::function("itertools.islice", "(iterable, *args)", islice)
        .doc("The items of `iterable` from `start` up to `stop` by `step`: `islice(it, stop)` or `islice(it, start, stop[, step])`.")
        .examples(&["import itertools\nlist(itertools.islice(itertools.count(), 2, 10, 3))"]),
    Builtin::function("itertools.product", "(*iterables, repeat=1)", product)
        .doc("Tuples of the cartesian product of the iterables (each `repeat` times), the last one varying fastest.")
        .examples(&["import itertools\nlist(itertools.product('ab', [0, 1]))"]),
    Builtin::function("itertools.permutations", "(iterable, r=None)", permutations)
        .doc("Tuples of every ordering of `r` items (all of them by default).")
        .examples(&["import itertools\nlist(itertools.permutations([1, 2, 3], 2))"]),
    Builtin::function("itertools.combinations", "(iterable, r)", combinations)
        .doc("Tuples of `r` items in their order in `iterable`, each choice once.")
        .examples(&["import itertools\nlist(itertools.combinations('abc', 2))"]),
    Builtin::function("itertools.combinations_with_replacement", "(iterable, r)", with_replacement)
        .doc("Like `combinations`, with an item allowed more than once.")
        .examples(&["import itertools\nlist(itertools.combinations_with_replacement('ab', 2))"]),
    Builtin::function("itertools.accumulate", "(iterable, func=None, initial=None)", accumulate)
        .doc("Running totals (or running `func(total, item)`), starting from `initial` when given.")
        .examples(&["import itertools\nlist(itertools.accumulate([1, 2, 3]))"]),
    Builtin::function("itertools.groupby", "(iterable, key=None)", groupby)
        .doc("Pairs `(key, group)` for each run of consecutive items with equal `key(item)`.")
        .examples(&["import itertools\n[(k, list(g)) for k, g in itertools.groupby('aabc')]"]),
    Builtin::function("itertools.zip_longest", "(*iterables, fillvalue=None)", zip_longest)
        .doc("Tuples of the i-th items, up to the longest iterable, `fillvalue` for the missing.")
        .examples(&["import itertools\nlist(itertools.zip_longest('ab', [1], fillvalue=0))"]),
    Builtin::function("itertools.starmap", "(function, iterable)", starmap)
        .doc("`function(*item)` for each item of `iterable`.")
        .examples(&["import itertools\nlist(itertools.starmap(pow, [(2, 3), (3, 2)]))"]),
    Builtin::function("itertools.takewhile", "(predicate, iterable)", takewhile)
        .doc("The items while `predicate(item)` is true.")
        .examples(&["import itertools\nlist(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1]))"]),
    Builtin::function("itertools.dropwhile", "(predicate, iterable)", dropwhile)
        .doc("The items from the first for which `predicate(item)` is false.")
        .examples(&["import itertools\nlist(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1]))"]),
    Builtin::function("itertools.filterfalse", "(function, iterable)", filterfalse)
        .doc("The items for which `function(item)` is false.")
        .examples(&["import itertools\nlist(itertools.filterfalse(lambda x: x % 2, range(5)))"]),
    Builtin::function("itertools.compress", "(data, selectors)", compress)
        .doc("An iterator of the items of `data` whose item in `selectors` is true, up to the shorter.")
        .examples(&["import itertools\nlist(itertools.compress('ABCDEF', [1, 0, 1, 0, 1, 1]))"]),
    Builtin::function("itertools.pairwise", "(iterable)", pairwise)
        .doc("Overlapping pairs of consecutive items.")
        .examples(&["import itertools\nlist(itertools.pairwise('abc'))"]),
    Builtin::function("itertools.tee", "(iterable, n=2)", tee)
        .doc("A tuple of `n` independent iterators over the items of one iterable.")
        .examples(&["import itertools\na, b = itertools.tee([1, 2])\nlist(a), list(b)"]),
];

fn count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let start = a.given("start").cloned().unwrap_or(Value::Int(0));
    let step = a.given("step").cloned().unwrap_or(Value::Int(1));
    for (name, v) in [("start", &start), ("step", &step)] {
        if !matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_)) {
            return Err(
                Error::new(ExceptionClass::TypeError, "a number is required").at(a.span(name)),
            );
        }
    }
    Ok(iter_value(
        "itertools.count",
        IterState::Count { next: start, step },
    ))
}

fn cycle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let src = iter_arg(a, "iterable")?;
    Ok(iter_value(
        "itertools.cycle",
        IterState::Cycle {
            src: Some(src),
            saved: Vec::new(),
            pos: 0,
        },
    ))
}

fn repeat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let left = a.opt_int("times")?.map(|n| n.max(0));
    Ok(iter_value(
        "itertools.repeat",
        IterState::Repeat {
            value: a.value("object").clone(),
            left,
        },
    ))
}

fn iters(a: &Args) -> Result<Vec<Value>> {
    a.rest()
        .iter()
        .map(|(v, s)| {
            to_iter(v).map_err(|_| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!("'{}' object is not iterable", v.type_name()),
                )
                .at(*s)
            })
        })
        .collect()
}

fn chain(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.chain",
        IterState::Chain {
            iters: iters(a)?.into(),
            more: None,
        },
    ))
}

fn chain_from(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.chain",
        IterState::Chain {
            iters: VecDeque::new(),
            more: Some(iter_arg(a, "iterable")?),
        },
    ))
}

/// One of islice's bounds: None or a non-negative int.
fn bound(v: &Value, span: ragtag_syntax::ast::Span, what: &str) -> Result<Option<i64>> {
    let bad = || {
        Error::new(
            ExceptionClass::ValueError,
            format!(
                "{what} argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."
            ),
        )
        .at(span)
    };
    match v {
        Value::None => Ok(None),
        Value::Int(i) if *i >= 0 => Ok(Some(*i)),
        Value::Bool(b) => Ok(Some(*b as i64)),
        _ => Err(bad()),
    }
}

fn islice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let iter = iter_arg(a, "iterable")?;
    let rest = a.rest();
    let (start, stop, step) = match rest {
        [(stop, s)] => (None, bound(stop, *s, "Stop")?, None),
        [(start, s1), (stop, s2)] => (
            bound(start, *s1, "Indices")?,
            bound(stop, *s2, "Stop")?,
            None,
        ),
        [(start, s1), (stop, s2), (step, s3)] => {
            let st = match step {
                Value::None => None,
                Value::Int(i) if *i > 0 => Some(*i),
                _ => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "Step for islice() must be a positive integer or None.",
                    )
                    .at(*s3))
                }
            };
            (bound(start, *s1, "Indices")?, bound(stop, *s2, "Stop")?, st)
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "islice expected at most 4 arguments, got {}",
                    rest.len() + 1
                ),
            )
            .at(a.call))
        }
    };
    let start = start.unwrap_or(0);
    Ok(iter_value(
        "itertools.islice",
        IterState::Islice {
            iter,
            next: start,
            stop,
            step: step.unwrap_or(1),
            pos: 0,
        },
    ))
}

/// The items of every argument, for the combinatoric iterators (which read them whole).
fn pools(it: &mut Interp<'_>, a: &Args) -> Result<Vec<Vec<Value>>> {
    a.rest()
        .iter()
        .map(|(v, s)| {
            let i = to_iter(v).map_err(|e| Error::from(e).at(*s))?;
            it.collect(&i, *s)
        })
        .collect()
}

fn combinatoric(pool: Vec<Value>, how: Combinatoric, idx: Vec<usize>, cycles: Vec<usize>) -> Value {
    let kind = match how {
        Combinatoric::Product => "itertools.product",
        Combinatoric::Permutations(_) => "itertools.permutations",
        Combinatoric::Combinations(_) => "itertools.combinations",
        Combinatoric::WithReplacement(_) => "itertools.combinations_with_replacement",
    };
    iter_value(
        kind,
        IterState::Combinatoric {
            pool,
            how,
            idx,
            cycles,
            first: true,
        },
    )
}

fn product(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let repeat = a.opt_int("repeat")?.unwrap_or(1);
    if repeat < 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "repeat argument cannot be negative",
        )
        .at(a.span("repeat")));
    }
    let pools = pools(it, a)?;
    let mut pool = Vec::new();
    let mut sizes = Vec::new();
    for _ in 0..repeat {
        for p in &pools {
            ragtag_engine::budget::grow("product", &mut pool, p.len())
                .map_err(|e| a.err_at("repeat", e))?;
            pool.extend(p.iter().cloned());
            sizes.push(p.len());
        }
    }
    let idx: Vec<usize> = sizes.iter().map(|_| 0).collect();
    Ok(combinatoric(pool, Combinatoric::Product, idx, sizes))
}

fn r_arg(a: &Args) -> Result<Option<usize>> {
    match a.opt_int("r")? {
        Some(r) if r < 0 => {
            Err(Error::new(ExceptionClass::ValueError, "r must be non-negative").at(a.span("r")))
        }
        r => Ok(r.map(|r| r as usize)),
    }
}

fn pool_of(it: &mut Interp<'_>, a: &Args) -> Result<Vec<Value>> {
    let i = iter_arg(a, "iterable")?;
    it.collect(&i, a.span("iterable"))
}

fn permutations(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pool = pool_of(it, a)?;
    let n = pool.len();
    let r = r_arg(a)?.unwrap_or(n);
    let idx: Vec<usize> = (0..n).collect();
    let cycles: Vec<usize> = (0..r.min(n)).map(|i| n - i).collect();
    Ok(combinatoric(
        pool,
        Combinatoric::Permutations(r),
        idx,
        cycles,
    ))
}

fn combinations(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pool = pool_of(it, a)?;
    let r = r_arg(a)?.unwrap_or(0);
    let idx: Vec<usize> = (0..r).collect();
    Ok(combinatoric(
        pool,
        Combinatoric::Combinations(r),
        idx,
        Vec::new(),
    ))
}

fn with_replacement(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pool = pool_of(it, a)?;
    let r = r_arg(a)?.unwrap_or(0);
    let idx: Vec<usize> = (0..r).map(|_| 0).collect();
    Ok(combinatoric(
        pool,
        Combinatoric::WithReplacement(r),
        idx,
        Vec::new(),
    ))
}

fn accumulate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut iter = iter_arg(a, "iterable")?;
    if let Some(init) = a.get("initial") {
        let first = iter_value(
            "list_iterator",
            IterState::Seq(VecDeque::from([init.clone()])),
        );
        iter = iter_value(
            "itertools.chain",
            IterState::Chain {
                iters: VecDeque::from([first, iter]),
                more: None,
            },
        );
    }
    Ok(iter_value(
        "itertools.accumulate",
        IterState::Accumulate {
            iter,
            func: a.get("func").cloned(),
            acc: None,
        },
    ))
}

fn groupby(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.groupby",
        IterState::GroupBy {
            iter: iter_arg(a, "iterable")?,
            key: a.get("key").cloned(),
            pending: None,
        },
    ))
}

fn zip_longest(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let iters = iters(a)?;
    let live = iters.iter().map(|_| true).collect();
    Ok(iter_value(
        "itertools.zip_longest",
        IterState::ZipLongest {
            iters,
            live,
            fill: a.value("fillvalue").clone(),
        },
    ))
}

fn starmap(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.starmap",
        IterState::Map {
            func: a.value("function").clone(),
            iters: vec![iter_arg(a, "iterable")?],
            star: true,
        },
    ))
}

fn while_(a: &Args, take: bool) -> Result<Value> {
    Ok(iter_value(
        if take {
            "itertools.takewhile"
        } else {
            "itertools.dropwhile"
        },
        IterState::While {
            func: a.value("predicate").clone(),
            iter: iter_arg(a, "iterable")?,
            take,
            done: false,
        },
    ))
}

fn takewhile(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    while_(a, true)
}

fn dropwhile(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    while_(a, false)
}

fn filterfalse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.filterfalse",
        IterState::Filter {
            func: a.value("function").clone(),
            iter: iter_arg(a, "iterable")?,
            invert: true,
        },
    ))
}

fn compress(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // map(itemgetter(0), filter(itemgetter(1), zip(data, selectors))), each step lazy.
    let getter = |i: i64| {
        Value::method(
            Value::tuple(vec![Value::Int(i)]),
            super::functools::registered("operator.itemgetter.__call__"),
        )
    };
    let pairs = iter_value(
        "zip",
        IterState::Zip {
            iters: vec![iter_arg(a, "data")?, iter_arg(a, "selectors")?],
            strict: false,
        },
    );
    let kept = IterState::Filter {
        func: getter(1),
        iter: pairs,
        invert: false,
    };
    Ok(iter_value(
        "itertools.compress",
        IterState::Map {
            func: getter(0),
            iters: vec![iter_value("filter", kept)],
            star: false,
        },
    ))
}

fn pairwise(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "itertools.pairwise",
        IterState::Pairwise {
            iter: iter_arg(a, "iterable")?,
            last: None,
        },
    ))
}

fn tee(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = a.opt_int("n")?.unwrap_or(2);
    if n < 0 {
        return Err(Error::new(ExceptionClass::ValueError, "n must be >= 0").at(a.span("n")));
    }
    let shared = Arc::new(Mutex::new(TeeShared {
        iter: iter_arg(a, "iterable")?,
        buffer: VecDeque::new(),
        base: 0,
    }));
    let its = (0..n.min(1 << 16))
        .map(|_| {
            iter_value(
                "itertools._tee",
                IterState::Tee {
                    shared: shared.clone(),
                    pos: 0,
                },
            )
        })
        .collect();
    Ok(Value::tuple(its))
}
