//! How NumPy writes one element: one format per array, decided once from the elements
//! shown (integers padded to a common width, floats positional or scientific with the
//! fewest digits that round-trip, up to 8, decimal points aligned, `' True'`).

use ragtag_engine::Buffer;

use super::options;
use crate::render::tf_text::{g6, py_bytes, py_exponent, py_float, py_float32, shortest};

/// How every element of one array is written (decided once from the elements shown).
pub(super) enum Fmt {
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
pub(super) struct FloatFmt {
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
    let precision = options().precision;
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    if frac.len() <= precision {
        return (int.to_string(), frac.to_string());
    }
    let r = if is32 {
        format!("{:.*}", precision, v as f32)
    } else {
        format!("{v:.precision$}")
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
    let precision = options().precision;
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    if frac.len() <= precision {
        return (int.to_string(), frac.to_string(), e.parse().unwrap_or(0));
    }
    let r = if is32 {
        format!("{:.*e}", precision, v as f32)
    } else {
        format!("{v:.precision$e}")
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
        let suppress = options().suppress;
        let exp = max.is_finite() && (max >= 1e8 || (!suppress && (min < 1e-4 || max / min > 1e3)));
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
    pub(super) fn new(d: &Buffer, shown: &[usize]) -> Fmt {
        match d {
            Buffer::Bool(_) => Fmt::Bool,
            // ml_dtypes' bfloat16 arrays show each element's own `str`, unpadded.
            Buffer::BF16(_) => Fmt::Plain,
            Buffer::F16(v) => Fmt::Float(FloatFmt::new(
                &shown.iter().map(|&i| shortest(v[i])).collect::<Vec<_>>(),
                false,
            )),
            Buffer::F32(v) => Fmt::Float(FloatFmt::new(
                &shown.iter().map(|&i| v[i] as f64).collect::<Vec<_>>(),
                true,
            )),
            Buffer::F64(v) => Fmt::Float(FloatFmt::new(
                &shown.iter().map(|&i| v[i]).collect::<Vec<_>>(),
                false,
            )),
            Buffer::Str(_) => Fmt::Bytes,
            d => Fmt::Int {
                width: ragtag_engine::dispatch!(ints d, v => shown
                    .iter()
                    .map(|&i| v[i].to_string().len())
                    .max()
                    .unwrap_or(0), _ => 0),
            },
        }
    }

    pub(super) fn format(&self, d: &Buffer, i: usize) -> String {
        match (self, d) {
            (Fmt::Plain, Buffer::Bool(v)) => if v[i] { "True" } else { "False" }.into(),
            (Fmt::Plain, Buffer::BF16(v)) => g6(v[i].to_f64()),
            (Fmt::Plain, Buffer::F16(v)) => py_float(shortest(v[i])),
            (Fmt::Plain, Buffer::F32(v)) => np_float32_str(v[i]),
            (Fmt::Plain, Buffer::F64(v)) => py_float(v[i]),
            (Fmt::Bool, Buffer::Bool(v)) => if v[i] { " True" } else { "False" }.into(),
            (Fmt::Float(f), Buffer::F16(v)) => f.format(shortest(v[i])),
            (Fmt::Float(f), Buffer::F32(v)) => f.format(v[i] as f64),
            (Fmt::Float(f), Buffer::F64(v)) => f.format(v[i]),
            (_, Buffer::Str(s)) => py_bytes(s.get(i)),
            (Fmt::Plain, d) => {
                ragtag_engine::dispatch!(ints d, v => v[i].to_string(), _ => String::new())
            }
            (Fmt::Int { width }, d) => ragtag_engine::dispatch!(ints d,
                v => format!("{:>width$}", v[i]), _ => String::new()),
            _ => String::new(),
        }
    }
}

/// NumPy's `str` of a float32 scalar: positional from 1e-4 up to 1e6, scientific beyond
/// (`1e+10`, `1.2345679e+08`).
fn np_float32_str(f: f32) -> String {
    let a = f.abs();
    if !f.is_finite() || a == 0.0 || (1e-4..1e6).contains(&a) {
        return py_float32(f);
    }
    py_exponent(&format!("{f:e}"))
}
