//! `tf.print`: TensorFlow's text for tensors (the C++ `SummarizeValue` of print v2, with
//! `summarize` elements at each end of every dimension), ragged tensors (as
//! `tf.strings.format` writes them) and the Python structures around them (pprint's text).

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::Value;
use ragtag_engine::{Array, ExceptionClass, Scalar, Tensor};

/// `tf.print`.
pub static BUILTINS: &[Builtin] = &[Builtin::function(
    "tf.print",
    "(*inputs, output_stream=None, summarize=3, sep=' ', end='\\n', name=None, **kwargs)",
    tf_print,
)
.doc("Prints its inputs as TensorFlow does: a tensor as `[1 2 3]` (at most `summarize` items at each end of each dimension, `...` between; -1 prints all), a RaggedTensor as `[[1, 2], [3]]`, Python values and structures as Python writes them, joined by `sep` and ended by `end`. ragtag prints to standard output; `output_stream=sys.stderr` sends the text to standard error.")
.examples(&[
    "tf.print(tf.constant([[1, 2], [3, 4]]))",
    "tf.print('x =', tf.range(10), 'and', tf.ragged.constant([[1.5], [2.0, 3.0]]), sep=' ')",
])];

fn tf_print(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let summarize = match a.get("summarize") {
        None | Some(Value::None) => 3,
        Some(_) => a.int("summarize")?,
    };
    if let Some((k, _, span)) = a.kwargs().first() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Unrecognized keyword arguments for tf.print: {k}"),
        )
        .at(*span));
    }
    let sep = a.opt_str("sep")?.unwrap_or_else(|| " ".into());
    let end = a.opt_str("end")?.unwrap_or_else(|| "\n".into());
    let to_stderr = match a.get("output_stream") {
        None | Some(Value::None) => false,
        Some(f) if super::notebook::is_stderr(f) => true,
        Some(Value::Opaque(o)) if &**o == "<sys.stdout>" => false,
        Some(other) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Unsupported output stream, logging level, or file.{}. Supported streams are sys.stdout, sys.stderr",
                    crate::render::tf_text::str_of(other)
                ),
            )
            .at(a.span("output_stream")))
        }
    };
    let inputs: Vec<&Value> = a.rest().iter().map(|(v, _)| v).collect();
    let text = match inputs.as_slice() {
        // One scalar string tensor prints as its bytes.
        [Value::Array(arr)] if arr.rank() == 0 && arr.dtype() == ragtag_engine::DType::String => {
            match arr.flat_values().scalar_value() {
                Some(Scalar::Str(b)) => String::from_utf8_lossy(&b).into_owned(),
                _ => String::new(),
            }
        }
        _ => {
            let mut parts = Vec::new();
            for v in &inputs {
                parts.push(match v {
                    Value::Str(s) => s.to_string(),
                    other => format_value(other, summarize).map_err(|e| a.err_at("inputs", e))?,
                });
            }
            parts.join(&sep)
        }
    };
    let text = format!("{text}{end}");
    if to_stderr {
        it.sink().print_stderr(&text);
    } else {
        it.print(&text);
    }
    Ok(Value::None)
}

/// Where a tensor's text goes in tf.print's template: two characters, as long as
/// TensorFlow's `{}` placeholder, which pprint's line widths count.
const PLACEHOLDER: &str = "\u{E000}\u{E001}";

/// pprint's line width.
const WIDTH: usize = 80;

/// A value inside tf.print's template: `pprint.pformat` of the structure with each tensor
/// replaced by TensorFlow's text for it.
fn format_value(
    v: &Value,
    summarize: i64,
) -> std::result::Result<String, ragtag_engine::Exception> {
    let mut tensors = Vec::new();
    let template = pformat(v, 0, 0, summarize, &mut tensors)?;
    let mut out = String::new();
    let mut rest = template.as_str();
    let mut texts = tensors.into_iter();
    while let Some(i) = rest.find(PLACEHOLDER) {
        out.push_str(&rest[..i]);
        out.push_str(&texts.next().unwrap_or_default());
        rest = &rest[i + PLACEHOLDER.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A dict's items in pprint's order (sorted by key).
fn sorted_items(d: &crate::value::PyDict) -> Vec<(Value, Value)> {
    let mut items = d.items();
    if items.iter().all(|(k, _)| matches!(k, Value::Str(_))) {
        items.sort_by(|x, y| match (&x.0, &y.0) {
            (Value::Str(p), Value::Str(q)) => p.cmp(q),
            _ => std::cmp::Ordering::Equal,
        });
    } else if items
        .iter()
        .all(|(k, _)| matches!(k, Value::Int(_) | Value::Float(_) | Value::Bool(_)))
    {
        items.sort_by(|x, y| {
            let f = |v: &Value| crate::value::convert::to_f64(v).unwrap_or(0.0);
            f(&x.0).total_cmp(&f(&y.0))
        });
    }
    items
}

/// The one-line repr of `v` with placeholders for tensors (pprint's `_repr`); the tensors'
/// texts are pushed to `tensors` only when `collect` is set.
fn one_line(
    v: &Value,
    summarize: i64,
    tensors: &mut Vec<String>,
    collect: bool,
) -> std::result::Result<String, ragtag_engine::Exception> {
    let push = |t: String, tensors: &mut Vec<String>| {
        if collect {
            tensors.push(t);
        }
    };
    Ok(match v {
        Value::Array(arr) => {
            push(
                match &**arr {
                    Array::Dense(t) => summarize_tensor(t, summarize),
                    Array::Ragged(_) => ragged_to_string(arr, summarize)?,
                },
                tensors,
            );
            PLACEHOLDER.to_string()
        }
        Value::Sparse(s) => {
            push(summarize_tensor(&s.indices_tensor(), summarize), tensors);
            push(summarize_tensor(s.values(), summarize), tensors);
            push(
                summarize_tensor(&Tensor::from_i64(s.dense_shape().to_vec()), summarize),
                tensors,
            );
            format!(
                "'SparseTensor(indices={PLACEHOLDER}, values={PLACEHOLDER}, shape={PLACEHOLDER})'"
            )
        }
        Value::List(l) => {
            let items = l
                .items()
                .iter()
                .map(|x| one_line(x, summarize, tensors, collect))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            format!("[{}]", items.join(", "))
        }
        Value::Tuple(t) => {
            let items = t
                .iter()
                .map(|x| one_line(x, summarize, tensors, collect))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            if items.len() == 1 {
                format!("({},)", items[0])
            } else {
                format!("({})", items.join(", "))
            }
        }
        Value::Dict(d) => {
            let mut parts = Vec::new();
            for (k, x) in sorted_items(d) {
                parts.push(format!(
                    "{}: {}",
                    repr_of(&k),
                    one_line(&x, summarize, tensors, collect)?
                ));
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::NdArray(n) => crate::render::numpy::nd_repr(n),
        other => repr_of(other),
    })
}

/// pprint's `_format`: the one-line repr when it fits in the width left, else lists,
/// tuples and dicts with one item a line.
fn pformat(
    v: &Value,
    indent: usize,
    allowance: usize,
    summarize: i64,
    tensors: &mut Vec<String>,
) -> std::result::Result<String, ragtag_engine::Exception> {
    let rep = one_line(v, summarize, &mut Vec::new(), false)?;
    let fits = rep.chars().count() <= WIDTH.saturating_sub(indent + allowance);
    let items_of = |v: &Value| crate::value::subscript_items(v);
    match v {
        Value::List(_) | Value::Tuple(_) if !fits && !items_of(v).is_empty() => {
            let items = items_of(v);
            let (open, close) = match v {
                Value::List(_) => ("[", "]"),
                _ if items.len() == 1 => ("(", ",)"),
                _ => ("(", ")"),
            };
            let inner = indent + 1;
            let sep = format!(",\n{:inner$}", "");
            let mut parts = Vec::new();
            let n = items.len();
            for (i, x) in items.iter().enumerate() {
                let allow = if i + 1 == n {
                    allowance + close.len()
                } else {
                    1
                };
                parts.push(pformat(x, inner, allow, summarize, tensors)?);
            }
            Ok(format!("{open}{}{close}", parts.join(&sep)))
        }
        Value::Dict(d) if !fits && !d.is_empty() => {
            let items = sorted_items(d);
            let inner = indent + 1;
            let sep = format!(",\n{:inner$}", "");
            let mut parts = Vec::new();
            let n = items.len();
            for (i, (k, x)) in items.iter().enumerate() {
                let key = repr_of(k);
                let allow = if i + 1 == n { allowance + 1 } else { 1 };
                let body = pformat(
                    x,
                    inner + key.chars().count() + 2,
                    allow,
                    summarize,
                    tensors,
                )?;
                parts.push(format!("{key}: {body}"));
            }
            Ok(format!("{{{}}}", parts.join(&sep)))
        }
        _ => one_line(v, summarize, tensors, true),
    }
}

/// C's `%.{prec}g`.
fn fmt_g(v: f64, prec: usize) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{v:.*e}", prec.saturating_sub(1));
    let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let trim = |s: &str| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if e < -4 || e >= prec as i32 {
        let sign = if e < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(m), e.abs())
    } else {
        trim(&format!("{v:.*}", (prec as i32 - 1 - e).max(0) as usize))
    }
}

/// TensorFlow's `strings::StrCat` of a float32: 6 significant digits when they read back
/// as the value, else 9.
fn float32_text(f: f32) -> String {
    let short = fmt_g(f as f64, 6);
    if short.parse::<f32>().ok() == Some(f) {
        short
    } else {
        fmt_g(f as f64, 9)
    }
}

/// The same for a float64: 15 significant digits, else 17.
fn float64_text(f: f64) -> String {
    let short = fmt_g(f, 15);
    if short.parse::<f64>().ok() == Some(f) {
        short
    } else {
        fmt_g(f, 17)
    }
}

/// C escaping of a string's bytes, leaving UTF-8 bytes as they are (absl's
/// `Utf8SafeCEscape`).
fn c_escape(b: &[u8]) -> String {
    let mut out = Vec::new();
    for &c in b {
        match c {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\'' => out.extend_from_slice(b"\\'"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            c if c < 0x20 || c == 0x7f => out.extend_from_slice(format!("\\{c:03o}").as_bytes()),
            c => out.push(c),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One element as print v2 writes it.
fn element(s: &Scalar) -> String {
    match s {
        Scalar::Bool(b) => (if *b { "1" } else { "0" }).into(),
        Scalar::F32(f) => float32_text(*f),
        Scalar::F16(f) => float32_text(f.to_f32()),
        Scalar::BF16(f) => float32_text(f.to_f32()),
        Scalar::F64(f) => float64_text(*f),
        Scalar::Str(b) => format!("\"{}\"", c_escape(b)),
        other => other.as_i64().map_or_else(
            || other.as_f64().map_or_else(String::new, |f| f.to_string()),
            |i| match other {
                Scalar::U64(u) => u.to_string(),
                _ => i.to_string(),
            },
        ),
    }
}

/// `Tensor::SummarizeValue(summarize, print_v2=true)`.
pub(super) fn summarize_tensor(t: &Tensor, summarize: i64) -> String {
    let n = t.size();
    let limit = if summarize < 0 {
        n
    } else {
        (summarize as usize).min(n)
    };
    if t.rank() == 0 {
        return if limit > 0 {
            element(&t.data().get(0))
        } else {
            String::new()
        };
    }
    let mut out = String::new();
    one_dim(t, 0, limit, 0, &mut out);
    out
}

fn dim_spacing(dim: usize, ndims: usize, out: &mut String) {
    if dim == ndims - 1 {
        out.push(' ');
        return;
    }
    for _ in 0..ndims - dim - 1 {
        out.push('\n');
    }
    for _ in 0..=dim {
        out.push(' ');
    }
}

/// `PrintOneDimV2`: dimension `dim` of the block starting at flat index `start`.
fn one_dim(t: &Tensor, dim: usize, ends: usize, start: usize, out: &mut String) {
    let shape = t.shape();
    let ndims = shape.len();
    if dim == ndims {
        out.push_str(&element(&t.data().get(start)));
        return;
    }
    out.push('[');
    let count = shape[dim];
    let start_of_end = ends.max(count.saturating_sub(ends));
    let per: usize = shape[dim + 1..].iter().product();
    for i in 0..ends.min(count) {
        if i > 0 {
            dim_spacing(dim, ndims, out);
        }
        one_dim(t, dim + 1, ends, start + per * i, out);
    }
    if count > 2 * ends {
        dim_spacing(dim, ndims, out);
        out.push_str("...");
    }
    for i in start_of_end..count {
        dim_spacing(dim, ndims, out);
        one_dim(t, dim + 1, ends, start + per * i, out);
    }
    out.push(']');
}

/// `tf.strings.as_string` of one element (what a RaggedTensor's text is made of).
fn as_string(s: &Scalar) -> String {
    match s {
        Scalar::Bool(b) => (if *b { "true" } else { "false" }).into(),
        Scalar::F32(_) | Scalar::F64(_) | Scalar::F16(_) | Scalar::BF16(_) => {
            let f = s.as_f64().unwrap_or(f64::NAN);
            if f.is_nan() {
                "nan".into()
            } else if f.is_infinite() {
                (if f > 0.0 { "inf" } else { "-inf" }).into()
            } else {
                format!("{f:.6}")
            }
        }
        Scalar::Str(b) => {
            let mut e = String::new();
            for c in String::from_utf8_lossy(b).chars() {
                if c == '\'' || c == '\\' {
                    e.push('\\');
                }
                e.push(c);
            }
            format!("'{e}'")
        }
        other => element(other),
    }
}

/// `ragged_tensor_to_string`: nested `[a, b]` lists, keeping `summarize` items at each end
/// of every dimension.
pub(super) fn ragged_to_string(
    arr: &Array,
    summarize: i64,
) -> std::result::Result<String, ragtag_engine::Exception> {
    if summarize == 0 || summarize < -1 {
        return Err(ragtag_engine::value_error!(
            "Expected summarize to be -1 or a positive int, got {summarize}"
        ));
    }
    fn go(arr: &Array, summarize: i64) -> std::result::Result<String, ragtag_engine::Exception> {
        let n = arr.nrows();
        let mut pieces = Vec::new();
        let keep = |i: usize| {
            summarize == -1
                || n <= 2 * summarize as usize
                || i < summarize as usize
                || i >= n - summarize as usize
        };
        for i in 0..n {
            if !keep(i) {
                if i == summarize as usize {
                    pieces.push("...".to_string());
                }
                continue;
            }
            let row = arr.row(i as i64)?;
            pieces.push(if row.rank() == 0 {
                as_string(&row.flat_values().data().get(0))
            } else {
                go(&row, summarize)?
            });
        }
        Ok(format!("[{}]", pieces.join(", ")))
    }
    go(arr, summarize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_tensorflow_writes_them() {
        assert_eq!(float32_text(1.5), "1.5");
        assert_eq!(float32_text(2.0), "2");
        assert_eq!(float32_text(1e10), "1e+10");
        assert_eq!(float32_text(1.0 / 3.0), "0.333333343");
        assert_eq!(float32_text(123456789.0), "123456792");
        assert_eq!(float32_text(3e-5), "3e-05");
        assert_eq!(float64_text(1.0 / 3.0), "0.33333333333333331");
        assert_eq!(fmt_g(0.1, 6), "0.1");
    }
}
