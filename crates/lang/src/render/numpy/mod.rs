//! NumPy's array printing (`str(a)` and `repr(a)`), which TensorFlow's text forms embed:
//! one format per array (integers padded to a common width, floats with the fewest digits
//! up to 8 and decimal points aligned, `' True'`), lines wrapped at 75 characters, and arrays
//! over 1,000 elements summarised to their first and last 3 items per axis — so printing a
//! ten-million-element tensor formats a few dozen numbers, never all of them.

use crate::value::{NdArray, Value};
use ragtag_engine::{Buffer, DType, Tensor};

use super::tf_text::{g6, py_bytes, py_exponent, py_float, py_float32, shortest};

/// NumPy's default `linewidth`: where lines wrap.
pub const LINEWIDTH: usize = 75;
/// NumPy's default `threshold`: arrays with more elements are summarised.
pub const THRESHOLD: usize = 1000;
/// NumPy's default `edgeitems`: items kept at each end of a summarised axis.
pub const EDGEITEMS: usize = 3;
/// NumPy's default `precision`: most fractional digits of a float.
pub const PRECISION: usize = 8;

/// `np.set_printoptions`' settings. The session keeps them (beside its random state) and
/// installs them on the thread that evaluates each input; the printer reads them here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintOptions {
    /// Most fractional digits of a float.
    pub precision: usize,
    /// Arrays with more elements are summarised.
    pub threshold: usize,
    /// Items kept at each end of a summarised axis.
    pub edgeitems: usize,
    /// Where lines wrap.
    pub linewidth: usize,
    /// Small floats print positionally (rounded to `precision`) instead of in scientific form.
    pub suppress: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: PRECISION,
            threshold: THRESHOLD,
            edgeitems: EDGEITEMS,
            linewidth: LINEWIDTH,
            suppress: false,
        }
    }
}

thread_local! {
    static OPTIONS: std::cell::Cell<PrintOptions> = std::cell::Cell::new(PrintOptions::default());
}

/// The print options in force on this thread.
pub fn options() -> PrintOptions {
    OPTIONS.with(|o| o.get())
}
/// Puts `o` in force on this thread.
pub fn set_options(o: PrintOptions) {
    OPTIONS.with(|c| c.set(o));
}
/// The session's `linewidth`.
pub fn linewidth() -> usize {
    options().linewidth
}
/// The session's `threshold`.
pub fn threshold() -> usize {
    options().threshold
}
/// The session's `edgeitems`.
pub fn edgeitems() -> usize {
    options().edgeitems
}

mod format;
#[cfg(test)]
mod tests;

use format::Fmt;

/// The positions shown along an axis of length `n`.
fn axis_positions(n: usize, summarize: bool) -> Vec<usize> {
    if summarize && n > 2 * edgeitems() {
        (0..edgeitems()).chain(n - edgeitems()..n).collect()
    } else {
        (0..n).collect()
    }
}

/// Flat indices of every element shown.
fn shown_elements(shape: &[usize], summarize: bool) -> Vec<usize> {
    let mut out = vec![0usize];
    for (axis, &n) in shape.iter().enumerate() {
        let stride: usize = shape[axis + 1..].iter().product();
        let pos = axis_positions(n, summarize);
        out = out
            .iter()
            .flat_map(|&base| pos.iter().map(move |&p| base + p * stride))
            .collect();
    }
    out
}

struct Printer<'a> {
    shape: &'a [usize],
    data: &'a Buffer,
    fmt: Fmt,
    sep: &'a str,
    summarize: bool,
}

/// NumPy's `_extendLine`: wrap before `word` if it would pass `width`.
fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
    let len = line.chars().count();
    let needs_wrap = len + word.chars().count() > width && len > prefix.chars().count();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = prefix.to_string();
    }
    line.push_str(word);
}

impl Printer<'_> {
    fn recurse(&self, axis: usize, off: usize, hanging: &str, width: usize) -> String {
        let rank = self.shape.len();
        if axis == rank {
            return self.fmt.format(self.data, off);
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width.saturating_sub(1);
        let n = self.shape[axis];
        let stride: usize = self.shape[axis + 1..].iter().product();
        let summary = self.summarize && 2 * edgeitems() < n;
        let (leading, trailing) = if summary {
            (edgeitems(), edgeitems())
        } else {
            (0, n)
        };
        let mut s = String::new();
        if rank - axis == 1 {
            let elem_width = width.saturating_sub(self.sep.trim_end().len().max(1));
            let mut line = hanging.to_string();
            for i in 0..leading {
                let word = self.recurse(axis + 1, off + i * stride, &next_hanging, next_width);
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                line.push_str(self.sep);
            }
            if summary {
                extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push_str(self.sep);
            }
            for i in (2..=trailing).rev() {
                let word =
                    self.recurse(axis + 1, off + (n - i) * stride, &next_hanging, next_width);
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                line.push_str(self.sep);
            }
            let word = self.recurse(axis + 1, off + (n - 1) * stride, &next_hanging, next_width);
            extend_line(&mut s, &mut line, &word, elem_width, hanging);
            s.push_str(&line);
        } else {
            let line_sep = format!("{}{}", self.sep.trim_end(), "\n".repeat(rank - axis - 1));
            for i in 0..leading {
                s.push_str(hanging);
                s.push_str(&self.recurse(axis + 1, off + i * stride, &next_hanging, next_width));
                s.push_str(&line_sep);
            }
            if summary {
                s.push_str(hanging);
                s.push_str("...");
                s.push_str(&line_sep);
            }
            for i in (2..=trailing).rev() {
                s.push_str(hanging);
                s.push_str(&self.recurse(
                    axis + 1,
                    off + (n - i) * stride,
                    &next_hanging,
                    next_width,
                ));
                s.push_str(&line_sep);
            }
            s.push_str(hanging);
            s.push_str(&self.recurse(axis + 1, off + (n - 1) * stride, &next_hanging, next_width));
        }
        format!("[{}]", &s[hanging.len()..])
    }
}

/// TensorFlow's text of a RaggedTensor's value (`RaggedTensor.__repr__`): NumPy's
/// `array2string` with separator `, ` over the object array of rows, every element written
/// by Python's `str`, long rows wrapped at 75 columns (a wrapped row's last line padded to
/// its widest, as NumPy places multi-line elements), more than 1,000 items summarised.
pub fn ragged_value_text(a: &ragtag_engine::Array) -> String {
    match crate::value::convert::array_to_ndarray(a) {
        Ok(n) => nd_value_text(&n),
        Err(e) => format!("<{}>", e.message),
    }
}

/// TensorFlow's `_formatter` over a NumPy value: `array2string(x, separator=", ")` with
/// every element written by `str` (itself for arrays inside an object array).
fn nd_value_text(n: &NdArray) -> String {
    match n {
        NdArray::Dense(t) if t.size() != 0 => {
            let summarize = t.size() > threshold();
            let p = Printer {
                shape: t.shape(),
                data: t.data(),
                fmt: Fmt::Plain,
                sep: ", ",
                summarize,
            };
            p.recurse(0, 0, " ", linewidth())
        }
        // `repr(x.tolist())`: `[]`, or `[[], []]` for rows of no columns.
        NdArray::Dense(t) => match t.shape() {
            [n, 0, ..]
                if ragtag_engine::budget::check_bytes("printing", *n as u128 * 4).is_ok() =>
            {
                format!("[{}]", (0..*n).map(|_| "[]").collect::<Vec<_>>().join(", "))
            }
            _ => "[]".into(),
        },
        NdArray::Object(items, _) if items.is_empty() => "[]".into(),
        NdArray::Object(..) => {
            let word = |v: &Value| match v {
                Value::NdArray(x) => nd_value_text(x),
                other => crate::render::tf_text::str_of(other),
            };
            object_text(n, &word, ", ", " ", linewidth())
        }
    }
}

/// NumPy's `array2string` of an object array whose elements `word` writes: one axis filled
/// greedily (`format_words`), more axes as rows under one another.
fn object_text(
    n: &NdArray,
    word: &dyn Fn(&Value) -> String,
    sep: &str,
    hanging: &str,
    width: usize,
) -> String {
    let summarize = n.shape().iter().product::<usize>() > threshold();
    object_axis(n, word, sep, hanging, width, summarize)
}

fn object_axis(
    n: &NdArray,
    word: &dyn Fn(&Value) -> String,
    sep: &str,
    hanging: &str,
    width: usize,
    summarize: bool,
) -> String {
    let (items, ndim) = match n {
        NdArray::Object(items, ndim) => (items, *ndim),
        NdArray::Dense(_) => return word(&Value::NdArray(std::sync::Arc::new(n.clone()))),
    };
    let count = items.len();
    let positions = axis_positions(count, summarize);
    let elided = |i: usize| summarize && count > 2 * edgeitems() && i == count - edgeitems();
    if ndim <= 1 {
        let mut words = Vec::new();
        for i in positions {
            if elided(i) {
                words.push("...".to_string());
            }
            words.push(word(&items[i]));
        }
        return format_words(&words, sep, hanging, width);
    }
    let next_hanging = format!("{hanging} ");
    let line_sep = format!("{}{}", sep.trim_end(), "\n".repeat(ndim - 1));
    let mut parts = Vec::new();
    for i in positions {
        if elided(i) {
            parts.push(format!("{hanging}..."));
        }
        let text = match &items[i] {
            Value::NdArray(row) => object_axis(
                row,
                word,
                sep,
                &next_hanging,
                width.saturating_sub(1),
                summarize,
            ),
            other => word(other),
        };
        parts.push(format!("{hanging}{text}"));
    }
    let s = parts.join(&line_sep);
    format!("[{}]", &s[hanging.len().min(s.len())..])
}

/// NumPy's `array2string` of a tensor of rank >= 1 with a non-zero size.
fn array2string(t: &Tensor, sep: &str, prefix: &str, width: usize) -> String {
    if t.size() == 0 {
        return "[]".into();
    }
    let summarize = t.size() > threshold();
    let shown = shown_elements(t.shape(), summarize);
    let p = Printer {
        shape: t.shape(),
        data: t.data(),
        fmt: Fmt::new(t.data(), &shown),
        sep,
        summarize,
    };
    let hanging = " ".repeat(1 + prefix.len());
    p.recurse(0, 0, &hanging, width)
}

/// A rank-0 element as NumPy's scalar `str` writes it (`2.5`, `True`, `b'the'`).
fn scalar_str(d: &Buffer) -> String {
    match d {
        Buffer::Bool(v) => if v[0] { "True" } else { "False" }.into(),
        Buffer::F16(v) => np_float16_str(shortest(v[0])),
        Buffer::BF16(v) => g6(v[0].to_f64()),
        Buffer::F32(v) => py_float32(v[0]),
        Buffer::F64(v) => py_float(v[0]),
        Buffer::Str(s) => py_bytes(s.get(0)),
        d => ragtag_engine::dispatch!(ints d, v => v[0].to_string(), _ => unreachable!()),
    }
}

/// NumPy's `str(np.float16(x))`, given the float64 of its shortest digits: positional from
/// 1e-4 up to 1e3, scientific beyond (`1e+03`, `6.55e+04`).
fn np_float16_str(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() || a == 0.0 || (1e-4..1e3).contains(&a) {
        return py_float(v);
    }
    py_exponent(&format!("{v:e}"))
}

/// NumPy's `str(a)`: `[3 1 4 1]`, `[[1 2]\n [3 4]]`, `[   0    1    2 ... 9997 9998 9999]`.
pub fn array_str(t: &Tensor) -> String {
    if t.rank() == 0 {
        return scalar_str(t.data());
    }
    array2string(t, " ", "", linewidth())
}

/// The `dtype=` NumPy's repr names, or `None` where the dtype is implied by the values
/// (int64, float64 and bool on a 64-bit machine). String tensors are object arrays of bytes.
fn repr_dtype(t: &Tensor) -> Option<&'static str> {
    match t.dtype() {
        DType::Int64 | DType::Float64 | DType::Bool if t.size() > 0 => None,
        DType::String => Some("object"),
        d => Some(d.name()),
    }
}

/// NumPy's `repr(a)`: `array([1, 2], dtype=int32)`, wrapping rows under `array(`.
pub fn array_repr(t: &Tensor) -> String {
    if t.rank() == 0 {
        // TensorFlow shows a 16-bit float scalar as the Python float it holds exactly
        // (`numpy=0.333251953125`), not in its own shortest digits.
        return match t.data() {
            Buffer::F16(v) => py_float(v[0].to_f64()),
            Buffer::BF16(v) => py_float(v[0].to_f64()),
            d => scalar_str(d),
        };
    }
    let dtype = repr_dtype(t);
    let suffix = if dtype.is_none() { ")" } else { "," };
    let body = if t.size() > 0 || t.shape() == [0] {
        array2string(t, ", ", "array(", linewidth() - suffix.len())
    } else {
        format!(
            "[], shape=({})",
            t.shape()
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let arr = format!("array({body}{suffix}");
    let Some(dtype) = dtype else {
        return arr;
    };
    let dtype_str = format!("dtype={dtype})");
    let last_line = arr.len() - arr.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_line + dtype_str.len() + 1 > linewidth() {
        format!("\n{}", " ".repeat("array(".len()))
    } else {
        " ".to_string()
    };
    format!("{arr}{spacer}{dtype_str}")
}

/// NumPy's `repr` of a scalar array element (`np.int32(3)`, `np.True_`, `b'a'`).
fn scalar_repr(t: &Tensor) -> String {
    let text = scalar_str(t.data());
    match t.dtype() {
        DType::Bool => format!("np.{text}_"),
        DType::String => text,
        d => format!("np.{}({text})", d.name()),
    }
}

/// NumPy's `repr` of an array value: `array([3, 4, 5], dtype=int32)`, `np.int32(3)`, or an
/// object array of row arrays.
pub fn nd_repr(n: &NdArray) -> String {
    match n {
        NdArray::Dense(t) if t.rank() == 0 => scalar_repr(t),
        NdArray::Dense(t) => array_repr(t),
        NdArray::Object(..) => {
            // array2string with prefix `array(` and suffix `,`, then the dtype.
            let hanging = " ".repeat("array(".len() + 1);
            let body = object_text(n, &item_repr, ", ", &hanging, linewidth() - 1);
            let arr = format!("array({body},");
            let dtype = "dtype=object)";
            let last_line = arr.len() - arr.rfind('\n').map_or(0, |i| i + 1);
            if last_line + dtype.len() + 1 > linewidth() {
                format!("{arr}\n{}{dtype}", " ".repeat("array(".len()))
            } else {
                format!("{arr} {dtype}")
            }
        }
    }
}

/// NumPy's `str` of an array value: `[3 4 5]`, `3`, `[array([1, 2], dtype=int32) …]`.
pub fn nd_str(n: &NdArray) -> String {
    match n {
        NdArray::Dense(t) => array_str(t),
        NdArray::Object(..) => object_text(n, &item_repr, " ", " ", linewidth()),
    }
}

/// NumPy's `_formatArray` for one axis of already formatted elements: `[a, b, …]` filled
/// greedily up to `width`, continuation lines under `hanging`; an element of several lines
/// is placed as `_extendLine_pretty` does (its last line padded to its widest).
pub fn format_words(words: &[String], sep: &str, hanging: &str, width: usize) -> String {
    let elem_width = width.saturating_sub(sep.trim_end().len().max(1));
    let mut s = String::new();
    let mut line = hanging.to_string();
    for (i, w) in words.iter().enumerate() {
        extend_line_pretty(&mut s, &mut line, w, elem_width, hanging);
        if i + 1 < words.len() {
            line.push_str(sep);
        }
    }
    s.push_str(&line);
    format!("[{}]", &s[hanging.len().min(s.len())..])
}

/// NumPy's `_extendLine_pretty`: multi-line words keep their shape.
fn extend_line_pretty(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
    let words: Vec<&str> = word.split('\n').collect();
    if words.len() == 1 {
        return extend_line(s, line, word, width, prefix);
    }
    let max_len = words.iter().map(|w| w.chars().count()).max().unwrap_or(0);
    let indent;
    if line.len() + max_len > width && line.len() > prefix.len() {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = format!("{prefix}{}", words[0]);
        indent = prefix.to_string();
    } else {
        indent = " ".repeat(line.chars().count());
        line.push_str(words[0]);
    }
    for w in &words[1..] {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = format!("{indent}{w}");
    }
    let last = words[words.len() - 1].chars().count();
    line.push_str(&" ".repeat(max_len - last));
}

fn item_repr(v: &Value) -> String {
    match v {
        Value::NdArray(n) => nd_repr(n),
        other => crate::render::tf_text::repr_of(other),
    }
}
