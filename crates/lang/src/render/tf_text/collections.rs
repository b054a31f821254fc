//! How `collections`' containers show: `Counter({'a': 2})` (most common first),
//! `defaultdict(<class 'list'>, {…})`, `OrderedDict([('a', 1)])` and `deque([1], maxlen=2)`.

use crate::value::deque::PyDeque;
use crate::value::{DictKind, PyDict, Value};

/// The pairs of a Counter, most common first (ties in insertion order); as inserted when
/// some count is not a number.
pub fn most_common(d: &PyDict) -> Vec<(Value, Value)> {
    let mut pairs = d.items();
    let num = |v: &Value| match v {
        Value::Int(i) => Some(*i as f64),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Float(f) => Some(*f),
        _ => None,
    };
    if pairs.iter().all(|(_, v)| num(v).is_some()) {
        pairs.sort_by(|a, b| {
            let (x, y) = (num(&a.1).unwrap_or(0.0), num(&b.1).unwrap_or(0.0));
            y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    pairs
}

/// Writes a dict of one of `collections`' kinds.
pub(super) fn write_dict(d: &PyDict, out: &mut String, repr: fn(&Value, &mut String)) {
    let body = |pairs: &[(Value, Value)], out: &mut String| {
        out.push('{');
        for (i, (k, v)) in pairs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            repr(k, out);
            out.push_str(": ");
            repr(v, out);
        }
        out.push('}');
    };
    match d.kind() {
        DictKind::Plain => body(&d.items(), out),
        DictKind::Counter if d.is_empty() => out.push_str("Counter()"),
        DictKind::Counter => {
            out.push_str("Counter(");
            body(&most_common(d), out);
            out.push(')');
        }
        DictKind::Default(f) => {
            out.push_str("defaultdict(");
            repr(f, out);
            out.push_str(", ");
            body(&d.items(), out);
            out.push(')');
        }
        DictKind::Ordered if d.is_empty() => out.push_str("OrderedDict()"),
        DictKind::Ordered => {
            out.push_str("OrderedDict([");
            for (i, (k, v)) in d.items().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('(');
                repr(k, out);
                out.push_str(", ");
                repr(v, out);
                out.push(')');
            }
            out.push_str("])");
        }
    }
}

/// Writes a deque: `deque([1, 2])`, `deque([1, 2], maxlen=3)`.
pub(super) fn write_deque(d: &PyDeque, out: &mut String, repr: fn(&Value, &mut String)) {
    out.push_str("deque([");
    for (i, v) in d.items().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        repr(v, out);
    }
    out.push(']');
    if let Some(m) = d.maxlen {
        out.push_str(&format!(", maxlen={m}"));
    }
    out.push(')');
}
