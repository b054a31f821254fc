//! `functools.lru_cache` and `functools.cache`: a function whose results are kept by
//! argument, with CPython's `cache_info()` counts, `cache_clear()` and least-recently-used
//! eviction past `maxsize`.

use std::sync::{Arc, OnceLock};

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::{registry, Builtin};
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::{PyDict, Value};
use ragtag_engine::ExceptionClass;

/// The cache decorators and the methods of a cached function.
pub static LRU: &[Builtin] = &[
    Builtin::function("functools.lru_cache", "(maxsize=128, typed=False)", lru_cache)
        .doc(
            "A decorator keeping the results of a function by its arguments, the `maxsize` \
             most recently used (`None`: all); `f.cache_info()` counts hits and misses.",
        )
        .examples(&["import functools\n@functools.lru_cache(maxsize=2)\ndef sq(n):\n    return n * n\nsq(3) + sq(3)\nsq.cache_info()"]),
    Builtin::function("functools.cache", "(user_function)", cache)
        .doc("`lru_cache(maxsize=None)`: every result kept.")
        .examples(&["import functools\n@functools.cache\ndef sq(n):\n    return n * n\nsq(4)"]),
    Builtin::method("functools._lru_cache_wrapper.__call__", "(self, *args, **kwargs)", call)
        .doc("Calls a cached function: the kept result for these arguments, else the function's.")
        .examples(&["import functools\nfunctools.cache(abs)(-2)"]),
    Builtin::method("functools._lru_cache_wrapper.cache_info", "(self)", cache_info)
        .doc("`CacheInfo(hits, misses, maxsize, currsize)` of a cached function.")
        .examples(&["import functools\nf = functools.cache(abs)\nf(-1)\nf.cache_info()"]),
    Builtin::method("functools._lru_cache_wrapper.cache_clear", "(self)", cache_clear)
        .doc("Forgets every kept result and resets the counts.")
        .examples(&["import functools\nf = functools.cache(abs)\nf(-1)\nf.cache_clear()\nf.cache_info()"]),
    Builtin::method("functools._lru_cache_wrapper.__lru_decorate__", "(self, user_function)", decorate)
        .doc("What `lru_cache(maxsize=…)` returns applies to the function it decorates.")
        .examples(&["import functools\nfunctools.lru_cache(maxsize=1)(abs)(-3)"]),
];

fn class(name: &'static str, methods: &[&str]) -> Arc<Class> {
    let attrs = methods
        .iter()
        .filter_map(|m| {
            let path = format!("functools._lru_cache_wrapper.{m}");
            registry()
                .get(&path)
                .map(|b| (m.to_string(), Value::Builtin(b)))
        })
        .collect();
    Class::new(name, "functools", Vec::new(), attrs)
}

/// The class of cached functions.
fn wrapper_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            class(
                "_lru_cache_wrapper",
                &["__call__", "cache_info", "cache_clear"],
            )
        })
        .clone()
}

/// The class of what `lru_cache(maxsize=…)` returns before it is given the function.
fn decorator_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            let c = class("_lru_cache_decorator", &[]);
            if let Some(b) = registry().get("functools._lru_cache_wrapper.__lru_decorate__") {
                attr_set(&c.attrs, "__call__", Value::Builtin(b));
            }
            c
        })
        .clone()
}

fn wrap(func: Value, maxsize: Value) -> Result<Value> {
    let i = Instance::new(wrapper_class());
    let name = match &func {
        Value::Closure(c) => c.name.rsplit('.').next().unwrap_or(&c.name).to_string(),
        Value::Builtin(b) => b.short_name().to_string(),
        _ => "function".into(),
    };
    attr_set(&i.attrs, "__wrapped__", func);
    attr_set(&i.attrs, "__name__", Value::str(name));
    attr_set(&i.attrs, "maxsize", maxsize);
    clear(&i)?;
    let shown = format!(
        "<functools._lru_cache_wrapper object at {:#x}>",
        Arc::as_ptr(&i) as usize
    );
    i.set_shown(shown.clone(), shown);
    Ok(Value::Instance(i))
}

fn clear(i: &Instance) -> Result<()> {
    attr_set(&i.attrs, "_cache", Value::Dict(PyDict::new(Vec::new())?));
    attr_set(&i.attrs, "_hits", Value::Int(0));
    attr_set(&i.attrs, "_misses", Value::Int(0));
    Ok(())
}

fn maxsize_of(v: &Value, a: &Args) -> Result<Value> {
    match v {
        Value::None => Ok(Value::None),
        Value::Int(n) => Ok(Value::Int((*n).max(0))),
        Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "Expected first argument to be an integer, a callable, or None",
        )
        .at(a.span("maxsize"))),
    }
}

fn lru_cache(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Some(m) = a.given("maxsize") else {
        // `@lru_cache()`: the default size.
        let d = Instance::new(decorator_class());
        attr_set(&d.attrs, "maxsize", Value::Int(128));
        return Ok(Value::Instance(d));
    };
    // `@lru_cache` without parentheses receives the function itself.
    if matches!(m, Value::Closure(_) | Value::Builtin(_) | Value::Bound(_)) {
        return wrap(m.clone(), Value::Int(128));
    }
    let maxsize = maxsize_of(m, a)?;
    let d = Instance::new(decorator_class());
    attr_set(&d.attrs, "maxsize", maxsize);
    Ok(Value::Instance(d))
}

fn cache(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    wrap(a.value("user_function").clone(), Value::None)
}

fn decorate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let maxsize = match a.value("self") {
        Value::Instance(d) => attr_get(&d.attrs, "maxsize").unwrap_or(Value::Int(128)),
        _ => Value::Int(128),
    };
    wrap(a.value("user_function").clone(), maxsize)
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        _ => Err(Error::new(ExceptionClass::TypeError, "not a cached function").at(a.call)),
    }
}

fn count(i: &Instance, name: &str) -> i64 {
    match attr_get(&i.attrs, name) {
        Some(Value::Int(n)) => n,
        _ => 0,
    }
}

fn call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let func = attr_get(&i.attrs, "__wrapped__").unwrap_or(Value::None);
    let Some(Value::Dict(cache)) = attr_get(&i.attrs, "_cache") else {
        return Ok(Value::None);
    };
    // The key: the positional arguments, then a marker and the keyword pairs.
    let mut key: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    if !a.kwargs().is_empty() {
        key.push(Value::str("\u{0}kwd_mark"));
        for (k, v, _) in a.kwargs() {
            key.push(Value::str(k));
            key.push(v.clone());
        }
    }
    let key = if key.len() == 1 && matches!(key[0], Value::Int(_) | Value::Str(_)) {
        key.pop().unwrap_or(Value::None)
    } else {
        Value::tuple(key)
    };
    if let Some(v) = cache.get(&key).map_err(|e| Error::from(e).at(a.call))? {
        attr_set(&i.attrs, "_hits", Value::Int(count(&i, "_hits") + 1));
        // The most recently used goes last.
        cache.remove(&key).map_err(|e| Error::from(e).at(a.call))?;
        cache
            .insert(key, v.clone())
            .map_err(|e| Error::from(e).at(a.call))?;
        return Ok(v);
    }
    attr_set(&i.attrs, "_misses", Value::Int(count(&i, "_misses") + 1));
    let args = a.forwarded();
    let result = it.call(&func, args, a.call)?;
    let maxsize = attr_get(&i.attrs, "maxsize").unwrap_or(Value::None);
    match maxsize {
        Value::Int(0) => {}
        Value::Int(m) => {
            cache
                .insert(key, result.clone())
                .map_err(|e| Error::from(e).at(a.call))?;
            while cache.len() as i64 > m {
                let Some(first) = cache.keys().into_iter().next() else {
                    break;
                };
                cache
                    .remove(&first)
                    .map_err(|e| Error::from(e).at(a.call))?;
            }
        }
        _ => cache
            .insert(key, result.clone())
            .map_err(|e| Error::from(e).at(a.call))?,
    }
    Ok(result)
}

fn cache_info(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let currsize = match attr_get(&i.attrs, "_cache") {
        Some(Value::Dict(d)) => d.len() as i64,
        _ => 0,
    };
    let maxsize = attr_get(&i.attrs, "maxsize").unwrap_or(Value::None);
    let fields = [
        ("hits", Value::Int(count(&i, "_hits"))),
        ("misses", Value::Int(count(&i, "_misses"))),
        ("maxsize", maxsize),
        ("currsize", Value::Int(currsize)),
    ];
    static INFO: OnceLock<Arc<Class>> = OnceLock::new();
    let info = Instance::new(
        INFO.get_or_init(|| Class::new("CacheInfo", "functools", Vec::new(), Vec::new()))
            .clone(),
    );
    let text: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", crate::render::tf_text::repr_of(v)))
        .collect();
    let text = format!("CacheInfo({})", text.join(", "));
    for (k, v) in fields {
        attr_set(&info.attrs, k, v);
    }
    info.set_shown(text.clone(), text);
    Ok(Value::Instance(info))
}

fn cache_clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    clear(&i)?;
    Ok(Value::None)
}
