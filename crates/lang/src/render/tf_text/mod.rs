//! TensorFlow's text forms: what `print(x)`, `str(x)` and `repr(x)` show, with NumPy's array
//! formatting inside `tf.Tensor(...)`.

use super::numpy::{self, edgeitems, threshold};
use crate::value::Value;
use ragtag_engine::{Array, Buffer, Sparse, Tensor};

pub mod collections;

/// A value's `str()`: what `print` shows. It lives with the other text forms, so the value
/// layer needs nothing from rendering.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&str_of(self))
    }
}

/// Rust's scientific notation (`1.5e3`, `1e-5`) as Python writes it: a signed exponent of
/// at least two digits (`1.5e+03`, `1e-05`).
pub fn py_exponent(s: &str) -> String {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{m}e{sign}{:02}", e.abs())
}

/// Python's `repr` of a float (`100.0`, `0.1`, `1e-05`, `nan`, `inf`).
pub fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = f.abs();
    let sci = shortest_sci(f);
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        // Scientific notation with a two-digit exponent, as Python writes it.
        return py_exponent(&sci);
    }
    // The same digits, positional.
    let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i64 = e.parse().unwrap_or(0);
    let (sign, m) = match m.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", m),
    };
    let digits: String = m.chars().filter(char::is_ascii_digit).collect();
    if e < 0 {
        // At most 3 zeros here (smaller numbers are written in scientific notation).
        let zeros: String = std::iter::repeat_n('0', (-e - 1) as usize).collect();
        return format!("{sign}0.{zeros}{digits}");
    }
    let int_len = e as usize + 1;
    if digits.len() <= int_len {
        // At most 15 zeros here (larger numbers are written in scientific notation).
        let zeros: String = std::iter::repeat_n('0', int_len - digits.len()).collect();
        format!("{sign}{digits}{zeros}.0")
    } else {
        format!("{sign}{}.{}", &digits[..int_len], &digits[int_len..])
    }
}

/// `f` in `d.ddde±x` form with the fewest digits that read back as `f` (Rust's choice of
/// length) and, of the decimals that long, the one nearest `f`: CPython's repr. Rust's own
/// digits can differ in the last place when two decimals are equally near (`1e15 + 0.3`
/// is `1000000000000000.2` in Python).
fn shortest_sci(f: f64) -> String {
    let s = format!("{f:e}");
    let mantissa = s.split_once('e').map_or(s.as_str(), |(m, _)| m);
    let n = mantissa.chars().filter(char::is_ascii_digit).count();
    let nearest = format!("{:.*e}", n.saturating_sub(1), f);
    if nearest.parse::<f64>() == Ok(f) {
        nearest
    } else {
        s
    }
}

/// The float64 that stands for a 16-bit float in text: the shortest decimal that reads back
/// as `x` at `x`'s own precision (0.1 for the float16 0.0999755859375), so that Python's
/// float repr of it writes those digits. NaN, infinities and zeros are themselves.
pub fn shortest<T: ragtag_engine::Element>(x: T) -> f64 {
    let v = x.to_f64();
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    for digits in 1..17 {
        let y: f64 = format!("{v:.*e}", digits - 1).parse().unwrap_or(v);
        if T::from_f64(y) == x {
            return y;
        }
    }
    v
}

/// A bfloat16 as ml_dtypes' `str` writes it, which TensorFlow's NumPy arrays show: C's `%g`,
/// six significant digits without trailing zeros, scientific below 1e-4 and from 1e6
/// (`0.100098`, `2.5`, `1000`, `9.99922e+09`).
pub fn g6(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{v:.5e}");
    let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let trim = |s: &str| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&e) {
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(m), e.abs());
    }
    trim(&format!("{v:.*}", (5 - e) as usize))
}

/// A float32 as NumPy's `str(np.float32(x))` writes it: float32's shortest round-trip
/// digits, positional between 1e-4 and 1e16, otherwise scientific (`1e-05`, `1.5e+20`).
pub fn py_float32(f: f32) -> String {
    if !f.is_finite() {
        return py_float(f as f64);
    }
    let a = f.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        let s = format!("{f}");
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    py_exponent(&format!("{f:e}"))
}

/// Python's `repr` of bytes: `b'abc'`, or `b"it's"` when it holds a single quote.
pub fn py_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            c if c as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(c as char),
            c => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr` of a str.
pub fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            // What CPython's str.isprintable refuses: control characters, and the
            // separators but the ASCII space.
            c if c.is_control() || matches!(c, '\u{a0}' | '\u{ad}') => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if matches!(c, '\u{1680}' | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}' | '\u{205f}'..='\u{2064}' | '\u{3000}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// One element as a Python list shows it (`3`, `2.5`, `True`, `b'So'`).
fn element_py(d: &Buffer, i: usize) -> String {
    match d {
        Buffer::Bool(v) => if v[i] { "True" } else { "False" }.into(),
        Buffer::F16(v) => py_float(shortest(v[i])),
        Buffer::BF16(v) => g6(v[i].to_f64()),
        Buffer::F32(v) => py_float32(v[i]),
        Buffer::F64(v) => py_float(v[i]),
        Buffer::Str(s) => py_bytes(s.get(i)),
        d => ragtag_engine::dispatch!(ints d, v => v[i].to_string(), _ => unreachable!()),
    }
}

/// Writes `n` items as a Python list, eliding the middle (`...`) when `summarize` is set and
/// there are more than twice NumPy's edge items.
fn list_py(n: usize, summarize: bool, out: &mut String, item: &mut dyn FnMut(usize, &mut String)) {
    out.push('[');
    let cut = summarize && n > 2 * edgeitems();
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push_str(", ");
        }
    };
    for i in 0..n {
        if cut && i == edgeitems() {
            sep(out);
            out.push_str("...");
        }
        if cut && (edgeitems()..n - edgeitems()).contains(&i) {
            continue;
        }
        sep(out);
        item(i, out);
    }
    out.push(']');
}

/// The dense block of `shape` at element `off` as nested Python lists.
fn block_py(d: &Buffer, shape: &[usize], off: usize, summarize: bool, out: &mut String) {
    match shape.split_first() {
        None => out.push_str(&element_py(d, off)),
        Some((&n, rest)) => {
            let stride: usize = rest.iter().product();
            list_py(n, summarize, out, &mut |i, out| {
                block_py(d, rest, off + i * stride, summarize, out)
            });
        }
    }
}

/// `<tf.RaggedTensor [[3, 1], [], [5, 9]]>`: TensorFlow's one-line form. Tensors of more
/// than NumPy's threshold of values show the first and last rows of each list around `...`,
/// as TensorFlow's NumPy-based printing does, so a million rows print in microseconds.
pub fn ragged_text(a: &Array) -> String {
    let mut s = String::from("<tf.RaggedTensor ");
    match a {
        Array::Ragged(_) => s.push_str(&numpy::ragged_value_text(a)),
        Array::Dense(t) => block_py(t.data(), t.shape(), 0, t.size() > threshold(), &mut s),
    }
    s.push('>');
    s
}

fn shape_tuple(shape: &[usize]) -> String {
    match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// NumPy's `str(array)`: `[3 1 4 1]`, `[[1 2]\n [3 4]]`.
pub fn numpy_str(t: &Tensor) -> String {
    numpy::array_str(t)
}

/// `tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)`; a multi-line array starts on its own line.
pub fn tensor_str(t: &Tensor) -> String {
    let body = numpy::array_str(t);
    let sep = if body.contains('\n') { "\n" } else { "" };
    format!(
        "tf.Tensor({sep}{body}, shape={}, dtype={})",
        shape_tuple(t.shape()),
        t.dtype()
    )
}

/// `<tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 3, 6], dtype=int32)>`.
pub fn tensor_repr(t: &Tensor) -> String {
    let body = numpy::array_repr(t);
    let sep = if body.contains('\n') { "\n" } else { "" };
    format!(
        "<tf.Tensor: shape={}, dtype={}, numpy={sep}{body}>",
        shape_tuple(t.shape()),
        t.dtype()
    )
}

/// `SparseTensor(indices=tf.Tensor(…), values=tf.Tensor(…), dense_shape=tf.Tensor(…))`.
pub fn sparse_str(s: &Sparse) -> String {
    format!(
        "SparseTensor(indices={}, values={}, dense_shape={})",
        tensor_str(&s.indices_tensor()),
        tensor_str(s.values()),
        tensor_str(&Tensor::from_i64(s.dense_shape().to_vec()))
    )
}

fn shape_dims(dims: &[Option<usize>]) -> String {
    dims.iter()
        .map(|d| d.map_or("None".to_string(), |d| d.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Python's `format(x, '')`, what `"{}".format(x)` inserts: a dense tensor formats as its
/// NumPy array (`[[1 3]\n [0 0]]`, as `EagerTensor.__format__` does), anything else as `str`.
pub fn format_of(v: &Value) -> String {
    match v {
        Value::Array(a) => match &**a {
            Array::Dense(t) => numpy::array_str(t),
            Array::Ragged(_) => str_of(v),
        },
        _ => str_of(v),
    }
}

/// Python's `str(x)`: what `print` shows.
pub fn str_of(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Array(a) => match &**a {
            Array::Dense(t) => tensor_str(t),
            Array::Ragged(_) => ragged_text(a),
        },
        Value::Shape(dims) => {
            if dims.len() == 1 {
                format!("({},)", shape_dims(dims))
            } else {
                format!("({})", shape_dims(dims))
            }
        }
        Value::Exception(e) => e.message.clone(),
        Value::Instance(i) => i.shown().map_or_else(|| i.default_repr(), |s| s.1),
        Value::Sparse(s) => sparse_str(s),
        Value::NdArray(n) => super::numpy::nd_str(n),
        Value::Bytes(b) => py_bytes(&b.data),
        Value::NpType(t) => t.str(),
        _ => repr_of(v),
    }
}

/// Python's `repr(x)`: what a bare expression shows in TensorFlow's own REPL.
pub fn repr_of(v: &Value) -> String {
    let mut out = String::new();
    write_repr(v, &mut out);
    out
}

/// Appends `repr(v)` to `out`: containers write their items into the one string, so a list
/// nested a hundred thousand deep is written in one pass rather than copied at every level.
fn write_repr(v: &Value, out: &mut String) {
    if ragtag_engine::guard::too_deep() {
        // Nested deeper than the evaluation stack allows (Python raises RecursionError).
        out.push_str("...");
        return;
    }
    let items = |open: &str, items: &[Value], close: &str, out: &mut String| {
        out.push_str(open);
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(item, out);
        }
        out.push_str(close);
    };
    match v {
        Value::List(l) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                out.push_str("[...]");
                return;
            };
            match l.cached_literal() {
                // A display not yet taken apart prints from its literal.
                Some(lit) if !l.has_items() => {
                    write_repr(&crate::value::nested_to_value(&lit), out)
                }
                _ => items("[", &l.items(), "]", out),
            }
        }
        Value::Tuple(t) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                out.push_str("(...)");
                return;
            };
            if t.len() == 1 {
                items("(", t, ",)", out);
            } else {
                items("(", t, ")", out);
            }
        }
        Value::Dict(d) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                out.push_str("{...}");
                return;
            };
            if !matches!(d.kind(), crate::value::DictKind::Plain) {
                return collections::write_dict(d, out, write_repr);
            }
            out.push('{');
            for (i, (k, item)) in d.items().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(k, out);
                out.push_str(": ");
                write_repr(item, out);
            }
            out.push('}');
        }
        Value::View(x) => {
            out.push_str(x.name());
            out.push('(');
            write_repr(&Value::list(x.items()), out);
            out.push(')');
        }
        Value::Deque(d) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                out.push_str("[...]");
                return;
            };
            collections::write_deque(d, out, write_repr)
        }
        Value::Set(s) => {
            let frozen = s.is_frozen();
            let elems = s.items();
            match (frozen, elems.is_empty()) {
                (false, true) => out.push_str("set()"),
                (true, true) => out.push_str("frozenset()"),
                _ => {
                    let (open, close) = if frozen {
                        ("frozenset({", "})")
                    } else {
                        ("{", "}")
                    };
                    items(open, &elems, close, out);
                }
            }
        }
        other => out.push_str(&repr_leaf(other)),
    }
}

/// `repr` of a value that holds no Python containers.
fn repr_leaf(v: &Value) -> String {
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Int(i) => i.to_string(),
        Value::BigInt(n) => n.to_string(),
        Value::Float(f) => py_float(*f),
        Value::Str(s) => py_str(s),
        Value::NdArray(n) => super::numpy::nd_repr(n),
        Value::Array(a) => match &**a {
            Array::Dense(t) => tensor_repr(t),
            Array::Ragged(_) => ragged_text(a),
        },
        Value::Sparse(s) => sparse_str(s),
        Value::Lod(l) => format!(
            "LoDTensor(lod=[{}], data={})",
            l.lod()
                .iter()
                .map(|level| ragtag_engine::size::dense_shape_str(level))
                .collect::<Vec<_>>()
                .join(", "),
            numpy_str(l.data())
        ),
        Value::Shape(dims) => format!("TensorShape([{}])", shape_dims(dims)),
        Value::DType(d) => format!("tf.{}", d.name()),
        Value::NpType(t) => t.repr(),
        Value::Builtin(b) => match crate::value::class::type_repr(b.name) {
            Some(r) => r,
            None => format!("<built-in function {}>", b.name),
        },
        Value::Module(m) if m.as_ref() == "tf.RaggedTensor" => {
            "<class 'tensorflow.python.ops.ragged.ragged_tensor.RaggedTensor'>".into()
        }
        Value::Class(c) => c.repr(),
        Value::Instance(i) => i.shown().map_or_else(|| i.default_repr(), |s| s.0),
        Value::Bound(b) => match &b.func {
            Value::Closure(c) => format!("<bound method {} of {}>", c.name, repr_of(&b.receiver)),
            other => repr_of(other),
        },
        Value::Method(m) => format!("<bound method {}>", m.builtin.name),
        Value::Closure(c) => format!("<function {}>", c.name),
        Value::Module(m) => format!("<module '{m}'>"),
        Value::ErrorClass(c) if c.is_tf() => format!(
            "<class 'tensorflow.python.framework.errors_impl.{}'>",
            c.name()
        ),
        Value::ErrorClass(c) => format!("<class '{}'>", c.name()),
        Value::Exception(e) => exception_repr(e),
        Value::Opaque(o) => o.to_string(),
        Value::Iter(i) => i.repr(repr_of),
        Value::Spec(s) => {
            let shape = match &s.shape {
                Some(dims) => format!("[{}]", shape_dims(dims)),
                None => "None".into(),
            };
            if s.ragged {
                format!(
                    "RaggedTensorSpec(TensorShape({shape}), tf.{}, {}, tf.{})",
                    s.dtype.name(),
                    s.ragged_rank,
                    s.row_splits_dtype.name()
                )
            } else {
                let dims = match &s.shape {
                    Some(dims) if dims.len() == 1 => format!("({},)", shape_dims(dims)),
                    Some(dims) => format!("({})", shape_dims(dims)),
                    None => "None".into(),
                };
                format!(
                    "TensorSpec(shape={dims}, dtype=tf.{}, name=None)",
                    s.dtype.name()
                )
            }
        }
        Value::List(_)
        | Value::Tuple(_)
        | Value::Dict(_)
        | Value::Set(_)
        | Value::Deque(_)
        | Value::View(_) => repr_of(v),
        Value::Bytes(b) if b.numpy => format!("np.bytes_({})", py_bytes(&b.data)),
        Value::Bytes(b) => py_bytes(&b.data),
        // CPython's bytearray repr escapes a single quote even inside double quotes.
        Value::ByteArray(b) => {
            let r = py_bytes(&b.bytes());
            let r = if r.starts_with("b\"") {
                r.replace('\'', "\\'")
            } else {
                r
            };
            format!("bytearray({r})")
        }
        Value::Range(r) => r.repr(),
        Value::Slice(s) => {
            let [a, b, c] = s.parts().map(repr_of);
            format!("slice({a}, {b}, {c})")
        }
    }
}

/// Every `print` of TensorFlow's ragged tensor guide that ragtag can run, with the output the
/// guide shows (TensorFlow's own); the rest are checked on values built directly.
#[cfg(test)]
mod tests;

/// An exception's repr: its class and the arguments it was made with (`OSError(2, 'x')`);
/// for one ragtag raised, those its message stands for.
fn exception_repr(e: &ragtag_engine::Exception) -> String {
    let name = e.class.name();
    if let Some(args) = crate::value::exception_args::remembered(e) {
        let shown = crate::value::exception_args::visible_args(e.class, &args);
        let items: Vec<String> = shown.iter().map(repr_of).collect();
        return format!("{name}({})", items.join(", "));
    }
    if let Some((errno, strerror, _)) = crate::value::exception_args::errno_parts(&e.message) {
        return format!("{name}({errno}, {})", py_str(strerror));
    }
    match e.class.name() {
        _ if e.message.is_empty() => format!("{name}()"),
        // A KeyError's message is already the repr of its key: `KeyError('a')`.
        "KeyError" => format!("KeyError({})", e.message),
        _ => format!("{name}({})", py_str(&e.message)),
    }
}
