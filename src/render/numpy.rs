//! NumPy's array printing (`str(a)` and `repr(a)`), which TensorFlow's text forms embed:
//! one format per array (integers padded to a common width, floats with the fewest digits
//! up to 8 and decimal points aligned, `' True'`), lines wrapped at 75 characters, and arrays
//! over 1,000 elements summarised to their first and last 3 items per axis — so printing a
//! ten-million-element tensor formats a few dozen numbers, never all of them.

use crate::engine::{Buffer, DType, Tensor};
use crate::value::{NdArray, Value};

use super::tf_text::{py_bytes, py_float, py_float32};

/// NumPy's default `linewidth`: where lines wrap.
pub const LINEWIDTH: usize = 75;
/// NumPy's default `threshold`: arrays with more elements are summarised.
pub const THRESHOLD: usize = 1000;
/// NumPy's default `edgeitems`: items kept at each end of a summarised axis.
pub const EDGEITEMS: usize = 3;
/// NumPy's default `precision`: most fractional digits of a float.
pub const PRECISION: usize = 8;

/// How every element of one array is written (decided once from the elements shown).
enum Fmt {
    /// Python's `str` of each element, unpadded (a `formatter` set for all types, as
    /// TensorFlow sets one to print ragged tensors).
    Plain,
    Bool,
    Int {
        width: usize,
    },
    Float(FloatFmt),
    Bytes,
}

/// NumPy's `FloatingFormat` in `maxprec` mode.
struct FloatFmt {
    is32: bool,
    exp: bool,
    /// Fractional digits of every mantissa (scientific mode).
    precision: usize,
    pad_left: usize,
    pad_right: usize,
    /// Digits of every exponent (scientific mode).
    exp_size: usize,
}

/// Shortest digits of `v` (as float32 when `is32`) in positional form, at most
/// [`PRECISION`] fractional digits (rounded), trailing zeros trimmed: `("-0", "4479212")`.
fn positional(v: f64, is32: bool) -> (String, String) {
    let s = if is32 {
        format!("{}", v as f32)
    } else {
        format!("{v}")
    };
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    if frac.len() <= PRECISION {
        return (int.to_string(), frac.to_string());
    }
    let r = if is32 {
        format!("{:.*}", PRECISION, v as f32)
    } else {
        format!("{v:.PRECISION$}")
    };
    let (i, f) = r.split_once('.').unwrap_or((&r, ""));
    (i.to_string(), f.trim_end_matches('0').to_string())
}

/// Shortest digits of `v` in scientific form, at most [`PRECISION`] fractional digits:
/// `("1", "5", -5)` for 1.5e-05.
fn scientific(v: f64, is32: bool) -> (String, String, i32) {
    let s = if is32 {
        format!("{:e}", v as f32)
    } else {
        format!("{v:e}")
    };
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    if frac.len() <= PRECISION {
        return (int.to_string(), frac.to_string(), e.parse().unwrap_or(0));
    }
    let r = if is32 {
        format!("{:.*e}", PRECISION, v as f32)
    } else {
        format!("{v:.PRECISION$e}")
    };
    let (m, e) = r.split_once('e').unwrap_or((&r, "0"));
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    (
        int.to_string(),
        frac.trim_end_matches('0').to_string(),
        e.parse().unwrap_or(0),
    )
}

impl FloatFmt {
    fn new(vals: &[f64], is32: bool) -> FloatFmt {
        let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
        let nonzero = finite.iter().map(|v| v.abs()).filter(|&v| v != 0.0);
        let (mut max, mut min) = (f64::NEG_INFINITY, f64::INFINITY);
        for v in nonzero {
            max = max.max(v);
            min = min.min(v);
        }
        let exp = max.is_finite() && (max >= 1e8 || min < 1e-4 || max / min > 1e3);
        let mut f = FloatFmt {
            is32,
            exp,
            precision: 0,
            pad_left: 0,
            pad_right: 0,
            exp_size: 0,
        };
        if !finite.is_empty() {
            if exp {
                let parts: Vec<_> = finite.iter().map(|&v| scientific(v, is32)).collect();
                f.precision = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
                f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
                f.exp_size = parts
                    .iter()
                    .map(|p| p.2.unsigned_abs().to_string().len().max(2))
                    .max()
                    .unwrap_or(2);
                f.pad_right = f.exp_size + 2 + f.precision;
            } else {
                let parts: Vec<_> = finite.iter().map(|&v| positional(v, is32)).collect();
                f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
                f.pad_right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
            }
        }
        if finite.len() != vals.len() {
            let neginf = vals.iter().any(|v| v.is_infinite() && *v < 0.0);
            let offset = f.pad_right + 1;
            let inflen = 3 + usize::from(neginf);
            f.pad_left = f
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max(inflen.saturating_sub(offset));
        }
        f
    }

    fn format(&self, v: f64) -> String {
        let width = self.pad_left + self.pad_right + 1;
        if !v.is_finite() {
            let s = if v.is_nan() {
                "nan"
            } else if v > 0.0 {
                "inf"
            } else {
                "-inf"
            };
            return format!("{s:>width$}");
        }
        if self.exp {
            let (int, frac, e) = scientific(v, self.is32);
            let sign = if e < 0 { '-' } else { '+' };
            format!(
                "{int:>pl$}.{frac:0<p$}e{sign}{:0>es$}",
                e.unsigned_abs(),
                pl = self.pad_left,
                p = self.precision,
                es = self.exp_size
            )
        } else {
            let (int, frac) = positional(v, self.is32);
            format!(
                "{int:>pl$}.{frac:<pr$}",
                pl = self.pad_left,
                pr = self.pad_right
            )
        }
    }
}

impl Fmt {
    /// The format NumPy picks for an array from the elements it will show.
    fn new(d: &Buffer, shown: &[usize]) -> Fmt {
        match d {
            Buffer::Bool(_) => Fmt::Bool,
            Buffer::I32(v) => Fmt::Int {
                width: shown
                    .iter()
                    .map(|&i| v[i].to_string().len())
                    .max()
                    .unwrap_or(0),
            },
            Buffer::I64(v) => Fmt::Int {
                width: shown
                    .iter()
                    .map(|&i| v[i].to_string().len())
                    .max()
                    .unwrap_or(0),
            },
            Buffer::F32(v) => Fmt::Float(FloatFmt::new(
                &shown.iter().map(|&i| v[i] as f64).collect::<Vec<_>>(),
                true,
            )),
            Buffer::F64(v) => Fmt::Float(FloatFmt::new(
                &shown.iter().map(|&i| v[i]).collect::<Vec<_>>(),
                false,
            )),
            Buffer::Str(_) => Fmt::Bytes,
        }
    }

    fn format(&self, d: &Buffer, i: usize) -> String {
        match (self, d) {
            (Fmt::Plain, Buffer::Bool(v)) => if v[i] { "True" } else { "False" }.into(),
            (Fmt::Plain, Buffer::I32(v)) => v[i].to_string(),
            (Fmt::Plain, Buffer::I64(v)) => v[i].to_string(),
            (Fmt::Plain, Buffer::F32(v)) => np_float32_str(v[i]),
            (Fmt::Plain, Buffer::F64(v)) => py_float(v[i]),
            (Fmt::Bool, Buffer::Bool(v)) => if v[i] { " True" } else { "False" }.into(),
            (Fmt::Int { width }, Buffer::I32(v)) => format!("{:>width$}", v[i]),
            (Fmt::Int { width }, Buffer::I64(v)) => format!("{:>width$}", v[i]),
            (Fmt::Float(f), Buffer::F32(v)) => f.format(v[i] as f64),
            (Fmt::Float(f), Buffer::F64(v)) => f.format(v[i]),
            (_, Buffer::Str(s)) => py_bytes(s.get(i)),
            _ => String::new(),
        }
    }
}

/// The positions shown along an axis of length `n`.
fn axis_positions(n: usize, summarize: bool) -> Vec<usize> {
    if summarize && n > 2 * EDGEITEMS {
        (0..EDGEITEMS).chain(n - EDGEITEMS..n).collect()
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
        let summary = self.summarize && 2 * EDGEITEMS < n;
        let (leading, trailing) = if summary {
            (EDGEITEMS, EDGEITEMS)
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

/// NumPy's `str` of a float32 scalar: positional from 1e-4 up to 1e6, scientific beyond
/// (`1e+10`, `1.2345679e+08`).
fn np_float32_str(f: f32) -> String {
    let a = f.abs();
    if !f.is_finite() || a == 0.0 || (1e-4..1e6).contains(&a) {
        return py_float32(f);
    }
    let s = format!("{f:e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{m}e{sign}{:02}", e.abs())
}

/// TensorFlow's text of a RaggedTensor's value (`RaggedTensor.__repr__`): NumPy's
/// `array2string` with separator `, ` over the object array of rows, every element written
/// by Python's `str`, long rows wrapped at 75 columns (a wrapped row's last line padded to
/// its widest, as NumPy places multi-line elements), more than 1,000 items summarised.
pub fn ragged_value_text(a: &crate::engine::Array) -> String {
    match crate::eval::convert::array_to_ndarray(a) {
        Ok(n) => nd_value_text(&n),
        Err(e) => format!("<{}>", e.message),
    }
}

/// TensorFlow's `_formatter` over a NumPy value: `array2string(x, separator=", ")` with
/// every element written by `str` (itself for arrays inside an object array).
fn nd_value_text(n: &NdArray) -> String {
    match n {
        NdArray::Dense(t) if t.size() != 0 => {
            let summarize = t.size() > THRESHOLD;
            let p = Printer {
                shape: t.shape(),
                data: t.data(),
                fmt: Fmt::Plain,
                sep: ", ",
                summarize,
            };
            p.recurse(0, 0, " ", LINEWIDTH)
        }
        // `repr(x.tolist())`: `[]`, or `[[], []]` for rows of no columns.
        NdArray::Dense(t) => match t.shape() {
            [n, 0, ..]
                if crate::engine::budget::check_bytes("printing", *n as u128 * 4).is_ok() =>
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
            object_text(n, &word, ", ", " ", LINEWIDTH)
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
    let summarize = n.shape().iter().product::<usize>() > THRESHOLD;
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
    let elided = |i: usize| summarize && count > 2 * EDGEITEMS && i == count - EDGEITEMS;
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
    let summarize = t.size() > THRESHOLD;
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
        Buffer::I32(v) => v[0].to_string(),
        Buffer::I64(v) => v[0].to_string(),
        Buffer::F32(v) => py_float32(v[0]),
        Buffer::F64(v) => py_float(v[0]),
        Buffer::Str(s) => py_bytes(s.get(0)),
    }
}

/// NumPy's `str(a)`: `[3 1 4 1]`, `[[1 2]\n [3 4]]`, `[   0    1    2 ... 9997 9998 9999]`.
pub fn array_str(t: &Tensor) -> String {
    if t.rank() == 0 {
        return scalar_str(t.data());
    }
    array2string(t, " ", "", LINEWIDTH)
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
        return scalar_str(t.data());
    }
    let dtype = repr_dtype(t);
    let suffix = if dtype.is_none() { ")" } else { "," };
    let body = if t.size() > 0 || t.shape() == [0] {
        array2string(t, ", ", "array(", LINEWIDTH - suffix.len())
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
    let spacer = if last_line + dtype_str.len() + 1 > LINEWIDTH {
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
            let body = object_text(n, &item_repr, ", ", &hanging, LINEWIDTH - 1);
            let arr = format!("array({body},");
            let dtype = "dtype=object)";
            let last_line = arr.len() - arr.rfind('\n').map_or(0, |i| i + 1);
            if last_line + dtype.len() + 1 > LINEWIDTH {
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
        NdArray::Object(..) => object_text(n, &item_repr, " ", " ", LINEWIDTH),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::StringBuf;

    fn f64s(shape: &[usize], v: &[f64]) -> Tensor {
        Tensor::new(shape.to_vec(), Buffer::F64(v.to_vec())).unwrap()
    }
    fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
        Tensor::new(shape.to_vec(), Buffer::F32(v.to_vec())).unwrap()
    }

    #[test]
    fn floats_align_on_the_point_and_pad_nan() {
        let t = f64s(&[5], &[2.25, f64::NAN, 16.0 / 3.0, 6.0, f64::NAN]);
        assert_eq!(
            array_str(&t),
            "[2.25              nan 5.33333333 6.                nan]"
        );
    }

    #[test]
    fn float32_uses_its_own_shortest_digits() {
        let t = f32s(
            &[3, 4],
            &[
                -0.14285272,
                0.02908629,
                -0.16327512,
                -0.14529026,
                -0.4479212,
                -0.35615516,
                0.17110227,
                0.2522229,
                -0.1987868,
                -0.13152348,
                -0.0325102,
                0.02125177,
            ],
        );
        assert_eq!(
            array_str(&t),
            "[[-0.14285272  0.02908629 -0.16327512 -0.14529026]\n \
             [-0.4479212  -0.35615516  0.17110227  0.2522229 ]\n \
             [-0.1987868  -0.13152348 -0.0325102   0.02125177]]"
        );
    }

    #[test]
    fn scientific_when_magnitudes_differ_widely() {
        assert_eq!(array_str(&f64s(&[2], &[1e-5, 1.0])), "[1.e-05 1.e+00]");
        assert_eq!(array_str(&f64s(&[2], &[1.5e-5, 1.0])), "[1.5e-05 1.0e+00]");
        assert_eq!(array_str(&f64s(&[2], &[1.0, 2000.0])), "[1.e+00 2.e+03]");
        assert_eq!(array_str(&f64s(&[2], &[1e8, 1.0])), "[1.e+08 1.e+00]");
        assert_eq!(
            array_str(&f64s(&[3], &[1.0, f64::NAN, 1e-7])),
            "[1.e+00    nan 1.e-07]"
        );
    }

    #[test]
    fn non_finite_only() {
        assert_eq!(
            array_str(&f64s(&[3], &[f64::NAN, f64::NEG_INFINITY, f64::INFINITY])),
            "[ nan -inf  inf]"
        );
    }

    #[test]
    fn bools_pad_true() {
        let t = Tensor::new(vec![3], Buffer::Bool(vec![true, true, false])).unwrap();
        assert_eq!(array_str(&t), "[ True  True False]");
        assert_eq!(array_repr(&t), "array([ True,  True, False])");
    }

    #[test]
    fn long_vectors_wrap_at_75() {
        let t = Tensor::new(vec![30], Buffer::I64((0..30).map(|i| i * 1000).collect())).unwrap();
        let s = array_str(&t);
        assert!(s.lines().all(|l| l.len() <= 75), "{s}");
        assert_eq!(
            s,
            "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000\n \
             12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000\n \
             24000 25000 26000 27000 28000 29000]"
        );
    }

    #[test]
    fn big_arrays_are_summarised() {
        let t = Tensor::new(vec![10_000], Buffer::I32((0..10_000).collect())).unwrap();
        assert_eq!(array_str(&t), "[   0    1    2 ... 9997 9998 9999]");
        let m = Tensor::new(vec![100, 100], Buffer::I32((0..10_000).collect())).unwrap();
        assert_eq!(
            array_str(&m),
            "[[   0    1    2 ...   97   98   99]\n [ 100  101  102 ...  197  198  199]\n \
             [ 200  201  202 ...  297  298  299]\n ...\n [9700 9701 9702 ... 9797 9798 9799]\n \
             [9800 9801 9802 ... 9897 9898 9899]\n [9900 9901 9902 ... 9997 9998 9999]]"
        );
    }

    #[test]
    fn reprs_name_the_dtype_unless_implied() {
        let t = Tensor::new(vec![2, 2], Buffer::I32(vec![1, 2, 3, 4])).unwrap();
        assert_eq!(
            array_repr(&t),
            "array([[1, 2],\n       [3, 4]], dtype=int32)"
        );
        let t = Tensor::new(vec![2], Buffer::I64(vec![1, 2])).unwrap();
        assert_eq!(array_repr(&t), "array([1, 2])");
        let t = Tensor::new(vec![0], Buffer::I64(vec![])).unwrap();
        assert_eq!(array_repr(&t), "array([], dtype=int64)");
        let t = Tensor::new(vec![2, 0], Buffer::I32(vec![])).unwrap();
        assert_eq!(array_repr(&t), "array([], shape=(2, 0), dtype=int32)");
        assert_eq!(array_str(&t), "[]");
    }

    #[test]
    fn string_arrays_are_object_arrays_of_bytes() {
        let words = [
            "I",
            "like",
            "ragged",
            "tensors.",
            "Oh",
            "yeah?",
            "What",
            "can",
            "you",
            "use",
            "them",
            "for?",
            "Processing",
            "variable",
            "length",
            "data!",
            "I",
            "like",
            "cheese.",
            "Do",
            "you?",
            "Yes.",
            "I",
            "do.",
        ];
        let t = Tensor::vector(Buffer::Str(StringBuf::from_strs(words)));
        assert_eq!(
            array_repr(&t),
            "array([b'I', b'like', b'ragged', b'tensors.', b'Oh', b'yeah?', b'What',\n       \
             b'can', b'you', b'use', b'them', b'for?', b'Processing',\n       \
             b'variable', b'length', b'data!', b'I', b'like', b'cheese.', b'Do',\n       \
             b'you?', b'Yes.', b'I', b'do.'], dtype=object)"
        );
    }
}
