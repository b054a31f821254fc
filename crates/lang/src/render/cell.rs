//! The text of one element in a table cell: floats with NumPy's precision rule, strings
//! bare unless quoting is needed to see them, inner lists capped so one cell stays small.

use super::grid::Cell;
use super::tf_text::{py_float, py_float32, py_str, shortest};
use super::Options;
use ragtag_engine::{Buffer, Tensor};

/// Shown past a ragged row's end (Unicode).
pub const ABSENT_UNICODE: &str = "·";
/// Shown past a ragged row's end (ASCII).
pub const ABSENT_ASCII: &str = ".";
/// Stands for elided rows or columns (Unicode).
pub const ELLIPSIS_UNICODE: &str = "…";
/// Stands for elided rows or columns (ASCII).
pub const ELLIPSIS_ASCII: &str = "...";

/// Most fractional digits a float shows, as NumPy's default `precision=8` (`maxprec`):
/// enough to tell float32 values apart, short enough to keep columns narrow.
pub const FLOAT_DIGITS: usize = 8;

/// Most elements written inside one cell holding an inner list; the rest become `…` so a
/// cell never costs more than a few dozen characters to build, however big the list.
pub const INNER_ITEMS: usize = 6;

/// Most characters of a string shown in a cell; one long sentence should not squeeze every
/// other column out of the terminal.
pub const CELL_CHARS: usize = 40;

/// A float with at most [`FLOAT_DIGITS`] fractional digits, otherwise its shortest form
/// (`2.25`, `5.33333333`, `6.0`, `1e-05`, `nan`, `-inf`).
pub fn float_text(v: f64, is32: bool) -> String {
    let shortest = if is32 {
        py_float32(v as f32)
    } else {
        py_float(v)
    };
    if !v.is_finite() || shortest.contains('e') {
        return shortest;
    }
    match shortest.split_once('.') {
        Some((_, frac)) if frac.len() > FLOAT_DIGITS => {
            let r = if is32 {
                format!("{:.*}", FLOAT_DIGITS, v as f32)
            } else {
                format!("{v:.FLOAT_DIGITS$}")
            };
            let t = r.trim_end_matches('0');
            if t.ends_with('.') {
                format!("{t}0")
            } else {
                t.to_string()
            }
        }
        _ => shortest,
    }
}

/// True when a string must be quoted to be seen for what it is: empty, padded with spaces,
/// holding control characters, or spelled like one of the table's own markers.
pub fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.trim() != s
        || s.chars().any(char::is_control)
        || [
            ABSENT_UNICODE,
            ABSENT_ASCII,
            ELLIPSIS_UNICODE,
            ELLIPSIS_ASCII,
        ]
        .contains(&s)
        || (s.starts_with('(') && s.ends_with(')'))
        || (s.starts_with('\'') || s.starts_with('"'))
}

/// The ellipsis of the style: `…`, or `...` in ASCII.
pub fn ellipsis(opts: &Options) -> &'static str {
    if opts.unicode {
        ELLIPSIS_UNICODE
    } else {
        ELLIPSIS_ASCII
    }
}

/// Cuts text to at most [`CELL_CHARS`] characters, ending in an ellipsis when cut.
pub fn cap(s: String, opts: &Options) -> String {
    if s.chars().count() <= CELL_CHARS {
        return s;
    }
    let mut out: String = s.chars().take(CELL_CHARS - 1).collect();
    out.push_str(ellipsis(opts));
    out
}

/// The text of element `i` of a buffer, as a table shows it.
pub fn element_text(d: &Buffer, i: usize, opts: &Options) -> String {
    match d {
        Buffer::Bool(v) => if v[i] { "True" } else { "False" }.into(),
        Buffer::F16(v) => float_text(shortest(v[i]), false),
        Buffer::BF16(v) => float_text(shortest(v[i]), false),
        Buffer::F32(v) => float_text(v[i] as f64, true),
        Buffer::F64(v) => float_text(v[i], false),
        Buffer::Str(s) => {
            let t = s.get_str(i);
            cap(
                if needs_quotes(&t) {
                    py_str(&t)
                } else {
                    t.into_owned()
                },
                opts,
            )
        }
        d => ragtag_engine::dispatch!(ints d, v => v[i].to_string(), _ => unreachable!()),
    }
}

/// A cell for element `i` of a buffer.
pub fn element_cell(d: &Buffer, i: usize, opts: &Options) -> Cell {
    let c = Cell::value(element_text(d, i, opts));
    if matches!(d, Buffer::Str(_) | Buffer::Bool(_)) {
        c
    } else {
        c.numeric()
    }
}

/// Inside a nested cell strings are always quoted, so the list's structure stays readable.
fn inner_text(d: &Buffer, i: usize, opts: &Options) -> String {
    match d {
        Buffer::Str(s) => cap(py_str(&s.get_str(i)), opts),
        _ => element_text(d, i, opts),
    }
}

/// The block of `shape` (row-major) starting at element `off` of `d`, as a nested list
/// (`[[1, 2], [3, 4]]`) writing at most [`INNER_ITEMS`] items per level.
pub fn block_text(d: &Buffer, shape: &[usize], off: usize, opts: &Options) -> String {
    fn rec(d: &Buffer, shape: &[usize], off: usize, opts: &Options, out: &mut String) {
        let Some((&n, rest)) = shape.split_first() else {
            out.push_str(&inner_text(d, off, opts));
            return;
        };
        let stride: usize = rest.iter().product();
        out.push('[');
        for (k, i) in super::grid::head_tail(n, INNER_ITEMS)
            .into_iter()
            .enumerate()
        {
            if k > 0 {
                out.push_str(", ");
            }
            match i {
                Some(i) => rec(d, rest, off + i * stride, opts, out),
                None => out.push_str(ellipsis(opts)),
            }
        }
        out.push(']');
    }
    let mut out = String::new();
    rec(d, shape, off, opts, &mut out);
    out
}

/// A cell for row `r` of `t` (a scalar when `t` is a vector, else a nested list).
pub fn row_cell(t: &Tensor, r: usize, opts: &Options) -> Cell {
    if t.rank() <= 1 {
        return element_cell(t.data(), r, opts);
    }
    Cell::value(block_text(
        t.data(),
        &t.shape()[1..],
        r * t.row_size(),
        opts,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtag_engine::strings::StringBuf;

    #[test]
    fn floats_follow_numpy_precision() {
        assert_eq!(float_text(2.25, false), "2.25");
        assert_eq!(float_text(16.0 / 3.0, false), "5.33333333");
        assert_eq!(float_text(6.0, false), "6.0");
        assert_eq!(float_text(0.1, true), "0.1");
        assert_eq!(float_text(-0.14285272, true), "-0.14285272");
        assert_eq!(float_text(1e-5, false), "1e-05");
        assert_eq!(float_text(f64::NAN, false), "nan");
        assert_eq!(float_text(f64::NEG_INFINITY, true), "-inf");
        assert_eq!(float_text(0.999999999, false), "1.0");
    }

    #[test]
    fn strings_are_quoted_only_when_needed() {
        let s = StringBuf::from_strs(["So", "", " pad", "it's", "·", "ü", "a\nb"]);
        let b = Buffer::Str(s);
        let o = Options::default();
        let texts: Vec<_> = (0..7).map(|i| element_text(&b, i, &o)).collect();
        assert_eq!(
            texts,
            vec!["So", "''", "' pad'", "it's", "'·'", "ü", "'a\\nb'"]
        );
    }

    #[test]
    fn inner_blocks_are_capped() {
        let d = Buffer::I32((0..20).collect());
        let o = Options::default();
        assert_eq!(block_text(&d, &[2, 2], 0, &o), "[[0, 1], [2, 3]]");
        assert_eq!(block_text(&d, &[20], 0, &o), "[0, 1, 2, …, 17, 18, 19]");
    }
}
