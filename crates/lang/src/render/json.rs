//! The JSON form: one object per displayed value — the machine interface that scripts,
//! golden tests and the conformance check read.

use serde_json::{json, Map, Value as J};

use crate::value::convert::array_to_nested;
use crate::value::Value;
use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::{Array, Buffer, Scalar, Tensor};

/// A float as JSON: NaN and infinities become strings.
pub fn float(f: f64) -> J {
    if f.is_nan() {
        J::from("nan")
    } else if f.is_infinite() {
        J::from(if f > 0.0 { "inf" } else { "-inf" })
    } else {
        serde_json::Number::from_f64(f).map_or(J::Null, J::Number)
    }
}

fn scalar(s: &Scalar) -> J {
    match s {
        Scalar::Bool(b) => J::from(*b),
        Scalar::Str(b) => J::from(String::from_utf8_lossy(b).into_owned()),
        s => ragtag_engine::dispatch!(ints scalar s, x => J::from(*x),
            s => float(s.as_f64().unwrap_or(f64::NAN))),
    }
}

fn nested(n: &Nested) -> J {
    match n {
        Nested::List(items) => J::Array(items.iter().map(nested).collect()),
        Nested::Leaf(Leaf::Typed(s)) => scalar(s),
        Nested::Leaf(Leaf::Bool(b)) => J::from(*b),
        Nested::Leaf(Leaf::Int(i)) => J::from(*i),
        Nested::Leaf(Leaf::Float(f)) => float(*f),
        Nested::Leaf(Leaf::Str(s)) => J::from(String::from_utf8_lossy(s).into_owned()),
    }
}

/// A dense tensor's elements as nested JSON arrays (a bare value for rank 0).
pub fn tensor_value(t: &Tensor) -> J {
    fn rec(d: &Buffer, shape: &[usize], off: usize) -> J {
        match shape.split_first() {
            None => scalar(&d.get(off)),
            Some((&n, rest)) => {
                let stride: usize = rest.iter().product();
                J::Array((0..n).map(|i| rec(d, rest, off + i * stride)).collect())
            }
        }
    }
    rec(t.data(), t.shape(), 0)
}

fn shape_json(dims: &[Option<usize>]) -> J {
    J::Array(dims.iter().map(|d| d.map_or(J::Null, J::from)).collect())
}

/// How deep JSON output nests Python containers before it writes `"..."` instead. Writing
/// and dropping a JSON tree recurses once per level on whichever thread draws the value (a
/// front end's main thread has a few megabytes of stack); CPython's `json.dumps` stops
/// with a RecursionError well before this depth.
const MAX_DEPTH: usize = 5_000;

thread_local! {
    /// How many calls of [`to_json`] and [`plain`] are under way on this thread.
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` one level deeper, or returns `"..."` past [`MAX_DEPTH`] or when the stack
/// runs short.
fn level(f: impl FnOnce() -> J) -> J {
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH || ragtag_engine::guard::too_deep() {
        return J::from("...");
    }
    DEPTH.with(|d| d.set(depth + 1));
    let out = f();
    DEPTH.with(|d| d.set(depth));
    out
}

/// The JSON object of a value, as DESIGN.md specifies.
pub fn to_json(v: &Value) -> J {
    level(|| value_json(v))
}

fn value_json(v: &Value) -> J {
    match v {
        // An instance of a class deriving from dict or list shows as its items.
        Value::Instance(i) if i.base().is_some() => value_json(i.base().unwrap_or(&Value::None)),
        Value::None => json!({"kind": "none"}),
        Value::Bool(b) => json!({"kind": "bool", "value": b}),
        Value::Int(i) => json!({"kind": "int", "value": i}),
        // A JSON number of any size, read back as a JSON reader reads it.
        Value::BigInt(n) => {
            json!({"kind": "int", "value": serde_json::from_str::<J>(&n.to_string()).unwrap_or(J::Null)})
        }
        Value::Float(f) => json!({"kind": "float", "value": float(*f)}),
        Value::Str(s) => json!({"kind": "str", "value": &**s}),
        Value::List(_) => json!({"kind": "list", "value": plain(v)}),
        Value::Tuple(items) => {
            json!({"kind": "tuple", "value": J::Array(items.iter().map(to_json).collect())})
        }
        Value::Dict(d) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                return J::from("{...}");
            };
            let mut m = Map::new();
            for (k, val) in d.items().iter() {
                m.insert(crate::render::tf_text::str_of(k), to_json(val));
            }
            json!({"kind": "dict", "value": m})
        }
        Value::Array(a) => array_json(a),
        // A NumPy float64 scalar is a Python float (np.float64 subclasses float), and a
        // NumPy bool scalar shows as a bool, as the recorded answers write them.
        Value::NdArray(n)
            if n.shape().is_empty() && matches!(n.dtype_name(), "float64" | "bool") =>
        {
            match nd_value(n) {
                J::Bool(b) => json!({"kind": "bool", "value": b}),
                v => json!({"kind": "float", "value": v}),
            }
        }
        Value::NdArray(n) => json!({
            "kind": "ndarray",
            "dtype": n.dtype_name(),
            "shape": n.shape(),
            "value": nd_value(n),
        }),
        Value::Sparse(s) => json!({
            "kind": "sparse",
            "dtype": s.dtype().name(),
            "indices": tensor_value(&s.indices_tensor()),
            "values": tensor_value(s.values()),
            "dense_shape": s.dense_shape(),
        }),
        Value::Lod(l) => json!({
            "kind": "lod",
            "dtype": l.data().dtype().name(),
            "shape": l.data().shape(),
            "lod": l.lod(),
            "value": tensor_value(l.data()),
        }),
        Value::Shape(dims) => json!({"kind": "shape", "value": shape_json(dims)}),
        Value::DType(d) => json!({"kind": "dtype", "value": d.name()}),
        Value::NpType(t) => json!({"kind": "dtype", "value": t.name()}),
        Value::Exception(e) => {
            json!({"kind": "exception", "error": e.class.name(), "message": e.message})
        }
        other => {
            json!({"kind": "object", "type": other.type_name(), "value": crate::render::tf_text::repr_of(other)})
        }
    }
}

fn array_json(a: &Array) -> J {
    match a {
        Array::Dense(t) => json!({
            "kind": "tensor",
            "dtype": t.dtype().name(),
            "shape": t.shape(),
            "value": tensor_value(t),
        }),
        Array::Ragged(r) => json!({
            "kind": "ragged",
            "dtype": r.dtype().name(),
            "shape": shape_json(&r.shape()),
            "ragged_rank": r.ragged_rank(),
            "value": nested(&array_to_nested(a)),
        }),
    }
}

/// The elements of a NumPy array as nested JSON arrays (a scalar for rank 0).
fn nd_value(n: &crate::value::NdArray) -> J {
    match n {
        crate::value::NdArray::Dense(t) => tensor_value(t),
        crate::value::NdArray::Object(items, _) => J::Array(items.iter().map(plain).collect()),
    }
}

/// A Python value inside a list: plain JSON (numbers, strings, nested arrays).
pub fn plain(v: &Value) -> J {
    level(|| plain_json(v))
}

fn plain_json(v: &Value) -> J {
    match v {
        Value::None => J::Null,
        Value::Bool(b) => J::from(*b),
        Value::Int(i) => J::from(*i),
        Value::BigInt(n) => serde_json::from_str::<J>(&n.to_string()).unwrap_or(J::Null),
        Value::Float(f) => float(*f),
        Value::Str(s) => J::from(s.as_str()),
        Value::List(l) => match l.cached_literal() {
            Some(lit) if !l.has_items() => nested(&lit),
            _ => {
                let Some(_entered) = crate::value::Entered::enter(v) else {
                    return J::from("[...]");
                };
                J::Array(l.items().iter().map(plain).collect())
            }
        },
        Value::Tuple(items) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                return J::from("(...)");
            };
            J::Array(items.iter().map(plain).collect())
        }
        Value::NdArray(n) => nd_value(n),
        Value::Array(a) => match &**a {
            Array::Dense(t) => tensor_value(t),
            Array::Ragged(_) => nested(&array_to_nested(a)),
        },
        other => to_json(other),
    }
}

/// The error object of an uncaught error.
pub fn error_json(class: &str, message: &str) -> J {
    json!({"kind": "error", "error": class, "message": message})
}

/// The error object of an uncaught error with where it happened: the source's name and the
/// 1-based line and column its span starts at (what `ragtag run --format json` writes).
pub fn error_json_at(class: &str, message: &str, at: Option<(&str, usize, usize)>) -> J {
    let mut j = error_json(class, message);
    if let (Some((source, line, column)), Some(obj)) = (at, j.as_object_mut()) {
        obj.insert("source".into(), J::from(source));
        obj.insert("line".into(), J::from(line));
        obj.insert("column".into(), J::from(column));
    }
    j
}

/// What `print` wrote.
pub fn print_json(text: &str) -> J {
    json!({"kind": "print", "text": text})
}
