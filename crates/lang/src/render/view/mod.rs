//! Values to the intermediate form: each kind of value gets the layout that shows its
//! structure best (see the submodules), under the row and column limits of [`Options`].

mod dense;
mod lod;
mod nest;
mod ragged;
mod sparse;

pub use dense::{matrix_grid, slices, vector_grid};
pub use lod::header as lod_header;
pub use nest::{Nest, Node};
pub use sparse::{default_text as sparse_default, header as sparse_header};

use super::grid::{Block, Display, Header};
use super::tf_text::repr_of;
use super::Options;
use crate::value::Value;
use ragtag_engine::Array;

/// The table view of any value.
pub fn view(v: &Value, opts: &Options) -> Display {
    match v {
        Value::Array(a) => array(a, opts),
        Value::List(_) if v.is_literal_display() => list_view(v, opts),
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) if t.rank() > 0 => {
                let mut d = dense::view(t, opts);
                for b in &mut d.blocks {
                    if let Block::Header(h) = b {
                        h.kind = "ndarray".into();
                        if t.dtype() == ragtag_engine::DType::String {
                            for f in &mut h.fields {
                                if f.0 == "dtype" {
                                    f.1 = "object".into();
                                }
                            }
                        }
                        break;
                    }
                }
                d
            }
            _ => Display::text(repr_of(v)),
        },
        Value::Sparse(s) => sparse::view(s, opts),
        Value::Lod(l) => lod::view(l, opts),
        Value::Tuple(_) | Value::List(_)
            if crate::value::subscript_items(v)
                .iter()
                .any(Value::is_tensor_like) =>
        {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                return Display::text(repr_of(v));
            };
            let items = crate::value::subscript_items(v);
            let mut d = Display::new();
            for (i, x) in items.iter().enumerate() {
                d.push(Block::Title(format!("[{i}]")));
                d.extend(view(x, opts));
            }
            d
        }
        Value::Dict(dict) if dict.values().iter().any(Value::is_tensor_like) => {
            let Some(_entered) = crate::value::Entered::enter(v) else {
                return Display::text(repr_of(v));
            };
            // Framed as the dict it is, each key as Python writes it over its value's
            // table; the tables keep the full width (an indent would take columns away).
            let items = dict.items();
            let mut d = Display::new();
            d.push(Block::Text("{".into()));
            for (k, x) in items.iter() {
                d.push(Block::Title(format!("{}:", repr_of(k))));
                d.extend(view(x, opts));
            }
            d.push(Block::Text("}".into()));
            d
        }
        Value::Str(s) if s.len() > LONG_STR_BYTES => long_str(s),
        other => Display::text(repr_of(other)),
    }
}

/// A list display of numbers or strings: the table of the tensor it would become, labelled
/// as a list; its Python form when it makes no tensor (`['a', 1]`).
fn list_view(v: &Value, opts: &Options) -> Display {
    match crate::value::convert::to_array(v, None) {
        Ok(a) => {
            let mut d = array(&a, opts);
            for b in &mut d.blocks {
                if let Block::Header(h) = b {
                    h.kind = format!("list → {}", h.kind);
                    break;
                }
            }
            d
        }
        Err(_) => Display::text(repr_of(v)),
    }
}

/// The view of a dense or ragged tensor.
pub fn array(a: &Array, opts: &Options) -> Display {
    match a {
        Array::Dense(t) => dense::view(t, opts),
        Array::Ragged(r) => ragged::view(r, opts),
    }
}

/// The header of a dense or ragged tensor (kind, dtype, shape with row-length ranges,
/// ragged_rank, number of values).
pub fn array_header(a: &Array) -> Header {
    match a {
        Array::Dense(t) => dense::header(t),
        Array::Ragged(r) => ragged::header(r),
    }
}

/// `1,234,567`: counts are easier to read with thousands separators.
pub fn count_text(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A label for axis `k` of a nested row path: `i`, `j`, `k`, `l`, then `i4`, `i5` ….
pub fn axis_name(k: usize) -> String {
    match k {
        0 => "i".into(),
        1 => "j".into(),
        2 => "k".into(),
        3 => "l".into(),
        _ => format!("i{k}"),
    }
}

/// Strings longer than this many bytes are shown as their head and tail, as big tensors are.
const LONG_STR_BYTES: usize = 1 << 16;

/// How many characters of a long string's head and of its tail are shown.
const LONG_STR_SHOWN: usize = 1000;

/// A long string: the repr of its head, `…`, the repr of its tail, and its length. Only what
/// is shown is copied, so a gigabyte string displays instantly.
fn long_str(s: &str) -> Display {
    let (head, tail) = head_and_tail(s);
    Display::text(format!(
        "{head} … {tail}\n({} characters; the middle is not shown, print(x) writes it all)",
        s.chars().count()
    ))
}

/// The repr of `s`, or for a string over [`LONG_STR_BYTES`] the repr of its head, `…`, the
/// repr of its tail and its length, on one line (a scalar string tensor's header).
pub fn str_value_text(s: &str) -> String {
    if s.len() <= LONG_STR_BYTES {
        return crate::render::tf_text::py_str(s);
    }
    let (head, tail) = head_and_tail(s);
    format!(
        "{head} … {tail}  ({} characters; the middle is not shown)",
        s.chars().count()
    )
}

/// The reprs of the first and the last [`LONG_STR_SHOWN`] characters of `s`.
fn head_and_tail(s: &str) -> (String, String) {
    let head_end = s
        .char_indices()
        .nth(LONG_STR_SHOWN)
        .map_or(s.len(), |(i, _)| i);
    let tail_start = s
        .char_indices()
        .rev()
        .nth(LONG_STR_SHOWN - 1)
        .map_or(0, |(i, _)| i)
        .max(head_end);
    (
        crate::render::tf_text::py_str(&s[..head_end]),
        crate::render::tf_text::py_str(&s[tail_start..]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_separators() {
        assert_eq!(count_text(7), "7");
        assert_eq!(count_text(1000), "1,000");
        assert_eq!(count_text(10_000_000), "10,000,000");
    }
}
