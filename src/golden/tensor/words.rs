//! The first difference between an expected and an actual tensor, in tensor words: kind and
//! dtype, then ragged rank and the uniform dimensions, then the row partition, then the
//! values within the dtype's tolerance.

use super::super::directive::{default_rtol, Settings};
use super::super::matching::{close, is_integer, Tolerance};
use super::{displays, Kind, Shown};

/// The first difference between the tensors shown in `expected` and in `actual` (output
/// lines as written in a transcript), when both show the same number of tensors in the same
/// forms; `None` when they do not, or when the tensors agree.
pub fn first_difference(
    expected: &[String],
    actual: &[String],
    settings: &Settings,
) -> Option<String> {
    let (e, a) = (displays(expected), displays(actual));
    if e.is_empty() || e.len() != a.len() {
        return None;
    }
    for (k, ((ef, es), (af, at))) in e.iter().zip(&a).enumerate() {
        if ef != af {
            return None;
        }
        if let Some(d) = tensor_difference(es, at, settings) {
            return Some(if e.len() > 1 {
                format!("tensor {} of {}: {d}", k + 1, e.len())
            } else {
                d
            });
        }
    }
    None
}

fn expected_got(what: &str, e: impl std::fmt::Display, a: impl std::fmt::Display) -> String {
    format!("{what}: expected {e}, got {a}")
}

/// A shape for a report: `[2, None, 3]`.
fn shape_text(shape: &[Option<usize>]) -> String {
    let dims: Vec<String> = shape
        .iter()
        .map(|d| d.map_or("None".into(), |n| n.to_string()))
        .collect();
    format!("[{}]", dims.join(", "))
}

/// The first difference between two tensors read from displays of the same form.
fn tensor_difference(e: &Shown, a: &Shown, settings: &Settings) -> Option<String> {
    if e.kind != a.kind {
        return Some(expected_got("kind", e.kind.name(), a.kind.name()));
    }
    if let (Some(x), Some(y)) = (&e.dtype, &a.dtype) {
        if x != y {
            return Some(expected_got("dtype", x, y));
        }
    }
    if let (Some(x), Some(y)) = (e.ragged_rank, a.ragged_rank) {
        if x != y {
            return Some(expected_got("ragged_rank", x, y));
        }
    }
    if let (Some(x), Some(y)) = (&e.shape, &a.shape) {
        let what = if e.kind == Kind::Sparse {
            "dense_shape"
        } else {
            "shape"
        };
        if x.len() != y.len() {
            return Some(format!(
                "rank: expected {}, got {} ({what} {} vs {})",
                x.len(),
                y.len(),
                shape_text(x),
                shape_text(y)
            ));
        }
        for (d, (p, q)) in x.iter().zip(y).enumerate() {
            match (p, q) {
                (Some(p), Some(q)) if p != q => {
                    return Some(expected_got(&format!("dimension {d}"), p, q));
                }
                (Some(p), None) => {
                    return Some(format!("dimension {d}: expected uniform {p}, got ragged"));
                }
                (None, Some(q)) => {
                    return Some(format!("dimension {d}: expected ragged, got uniform {q}"));
                }
                _ => {}
            }
        }
    }
    if let Some(d) = partition_difference(e, a) {
        return Some(d);
    }
    value_difference(e, a, settings)
}

/// The first difference in the row partition: row lengths per ragged level, LoD offsets,
/// or a sparse tensor's indices.
fn partition_difference(e: &Shown, a: &Shown) -> Option<String> {
    if e.partial || a.partial {
        return None;
    }
    let innermost = e.levels.len();
    for (level, (x, y)) in e.levels.iter().zip(&a.levels).enumerate() {
        let level = level + 1;
        let thing = if level == innermost { "value" } else { "row" };
        if let Some(row) = x.iter().zip(y).position(|(p, q)| p != q) {
            let s = if x[row] == 1 { "" } else { "s" };
            return Some(format!(
                "row {row} of level {level}: expected {} {thing}{s}, got {}",
                x[row], y[row]
            ));
        }
        if x.len() != y.len() {
            return Some(format!(
                "level {level}: expected {} rows, got {}",
                x.len(),
                y.len()
            ));
        }
    }
    if e.levels.len() != a.levels.len() && !e.levels.is_empty() && !a.levels.is_empty() {
        return Some(expected_got(
            "ragged levels",
            e.levels.len(),
            a.levels.len(),
        ));
    }
    if let (Some(x), Some(y)) = (&e.lod, &a.lod) {
        for (level, (p, q)) in x.iter().zip(y).enumerate() {
            let lengths = |o: &[usize]| -> Vec<usize> {
                o.windows(2).map(|w| w[1].saturating_sub(w[0])).collect()
            };
            let (lp, lq) = (lengths(p), lengths(q));
            if let Some(s) = lp.iter().zip(&lq).position(|(m, n)| m != n) {
                return Some(format!(
                    "sequence {s} of LoD level {level}: expected {} rows, got {} (offsets {p:?} vs {q:?})",
                    lp[s], lq[s]
                ));
            }
            if p != q {
                return Some(format!(
                    "LoD level {level}: expected offsets {p:?}, got {q:?}"
                ));
            }
        }
        if x.len() != y.len() {
            return Some(expected_got("LoD levels", x.len(), y.len()));
        }
    }
    if let (Some(x), Some(y)) = (&e.indices, &a.indices) {
        if let Some(k) = x.iter().zip(y).position(|(p, q)| p != q) {
            return Some(format!(
                "index of stored value {k}: expected {}, got {}",
                x[k], y[k]
            ));
        }
        if x.len() != y.len() {
            return Some(expected_got("stored values", x.len(), y.len()));
        }
    }
    None
}

/// `1e-06` as Python writes a small float.
fn short(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let s = format!("{x:e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map_or(("+", e), |d| ("-", d));
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// The first value that differs beyond the tolerance of the dtype (or of the settings).
fn value_difference(e: &Shown, a: &Shown, settings: &Settings) -> Option<String> {
    let dtype = e.dtype.as_deref().or(a.dtype.as_deref());
    let known = dtype.filter(|d| d.starts_with("float") || d.starts_with("bfloat") || *d == "half");
    let tol = Tolerance {
        rtol: settings.rtol.unwrap_or_else(|| default_rtol(known)),
        atol: settings.atol.unwrap_or(0.0),
        dtype: None,
        as_written: settings.as_written.unwrap_or(false),
    };
    for (at, x) in &e.values {
        let Some((_, y)) = a.values.iter().find(|(b, _)| b == at) else {
            if e.partial || a.partial {
                continue;
            }
            return Some(format!("{at}: expected {x}, got nothing"));
        };
        if close(x, y, tol) {
            continue;
        }
        let numbers = x.parse::<f64>().is_ok() && y.parse::<f64>().is_ok();
        let why = if !numbers {
            String::new()
        } else if is_integer(x) && is_integer(y) {
            " (integers are exact)".to_string()
        } else {
            let mut w = format!(" ({}; rtol {}", dtype.unwrap_or("float64"), short(tol.rtol));
            if tol.atol != 0.0 {
                w.push_str(&format!(", atol {}", short(tol.atol)));
            }
            w.push(')');
            w
        };
        return Some(format!("{at}: expected {x}, got {y}{why}"));
    }
    if !(e.partial || a.partial) {
        if let Some((at, y)) = a
            .values
            .iter()
            .find(|(b, _)| !e.values.iter().any(|(c, _)| c == b))
        {
            return Some(format!("{at}: expected nothing, got {y}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    #[test]
    fn differences_in_tensor_words() {
        let s = Settings::default();
        let d = |e: &str, a: &str| first_difference(&lines(e), &lines(a), &s);
        assert_eq!(
            d(
                "<tf.RaggedTensor [[1, 2], [3]]>",
                "<tf.RaggedTensor [[1, 2], [3, 4]]>"
            )
            .as_deref(),
            Some("row 1 of level 1: expected 1 value, got 2")
        );
        assert_eq!(
            d(
                "tf.Tensor([0.5 2. ], shape=(2,), dtype=float32)",
                "tf.Tensor([0.6 2. ], shape=(2,), dtype=float32)"
            )
            .as_deref(),
            Some("[0]: expected 0.5, got 0.6 (float32; rtol 1e-06)")
        );
        assert_eq!(
            d(
                "tf.Tensor([1 2], shape=(2,), dtype=int32)",
                "tf.Tensor([1 2], shape=(2,), dtype=int64)"
            )
            .as_deref(),
            Some("dtype: expected int32, got int64")
        );
        // A last-bit change of a float32 is within its tolerance.
        assert_eq!(
            d(
                "tf.Tensor([0.5], shape=(1,), dtype=float32)",
                "tf.Tensor([0.50000006], shape=(1,), dtype=float32)"
            ),
            None
        );
        assert_eq!(short(1e-6), "1e-06");
        assert_eq!(short(0.001), "1e-03");
    }
}
