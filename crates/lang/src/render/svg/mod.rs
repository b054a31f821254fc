//! Pictures of values as SVG, in the manner of the TensorFlow guide's figures, drawn for
//! the value at hand: a ragged tensor's rows as boxes over its flat values with the
//! row_splits as markers, a sparse tensor's dense grid with stored and implicit cells, a
//! LoD tensor's levels as brackets over its data rows, a string tensor's byte buffer with
//! its offsets, and a summary (head, tail, histogram of row lengths) for large values.
//!
//! Text is real `<text>` (selectable, no embedded font), colours are CSS variables with a
//! dark variant, and a picture wider than a notebook is scaled down by its viewBox.

mod canvas;
mod encodings;
mod grid;
mod kinds;
mod levels;
mod strings;
mod summary;

pub use canvas::{Canvas, MAX_WIDTH};

use super::grid::Header;
use crate::value::Value;
use ragtag_engine::{Array, Buffer};

/// The most slots (values plus empty rows) drawn one by one: past it a value gets its
/// summary picture. Sixty-four 30 px cells still read when scaled to 800 px.
pub const MAX_SLOTS: usize = 64;

/// The line under a picture's table where the picture itself cannot be shown.
pub const TEXT_NOTE: &str = "(a picture: shown in a notebook; draw(x, 'x.svg') writes it)";

/// Space between two pictures drawn side by side.
const GAP: i64 = 32;

/// Deepest nesting of tuples drawn as pictures side by side; deeper items are shown as
/// text, so a tuple nested thousands deep cannot exhaust the stack.
const MAX_NESTING: usize = 4;

/// The SVG picture of one value.
pub fn to_svg(v: &Value) -> String {
    draw(&[v])
}

/// The SVG picture of several values side by side (`draw(a, b)`), each under its title;
/// a row that would be wider than a notebook goes on below.
pub fn draw(values: &[&Value]) -> String {
    draw_with(values, false)
}

/// Like [`draw`]; with `encodings`, each ragged tensor drawn cell by cell also shows the
/// five encodings of each row partition aligned under what they describe.
pub fn draw_with(values: &[&Value], encodings: bool) -> String {
    let mut c = Canvas::new();
    // Pictures go side by side while the row fits a notebook's width, and start a new row
    // below when the next would not: a wide row would be scaled down, its labels with it.
    let (mut x, mut y, mut row_h) = (0, 0, 0);
    let mut label = String::new();
    for (k, v) in values.iter().enumerate() {
        let p = panel(v, encodings, 0);
        if x > 0 && x + p.w + 8 > canvas::MAX_WIDTH {
            (x, y, row_h) = (0, y + row_h + GAP, 0);
        }
        c.place(&p, x, y);
        x += p.w + GAP;
        row_h = row_h.max(p.h);
        if k > 0 {
            label.push_str(" beside ");
        }
        label.push_str(&super::describe(v));
    }
    c.finish(&label)
}

/// One value's picture, drawn at the origin.
fn panel(v: &Value, encodings: bool, depth: usize) -> Canvas {
    let mut c = Canvas::new();
    match v {
        Value::Array(a) => array(&mut c, a, encodings),
        Value::List(_) => match crate::value::convert::to_array(v, None) {
            Ok(a) => array(&mut c, &a, encodings),
            Err(_) => other(&mut c, v),
        },
        Value::Sparse(s) => grid::sparse(&mut c, s),
        Value::Lod(l) => {
            title(&mut c, &header_text(&super::view::lod_header(l)));
            kinds::lod(&mut c, 24, l);
        }
        Value::Str(s) => {
            let buf = ragtag_engine::StringBuf::from_strs([s.as_str()]);
            title(&mut c, &format!("a Python str: {} UTF-8 bytes", s.len()));
            strings::buffer(&mut c, 24, &buf);
        }
        Value::Tuple(items) if depth < MAX_NESTING => {
            let mut x = 0;
            for item in items.iter() {
                let p = panel(item, encodings, depth + 1);
                c.place(&p, x, 0);
                x += p.w + GAP;
            }
        }
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => grid::dense(&mut c, 0, t),
            crate::value::NdArray::Object(..) => other(&mut c, v),
        },
        _ => other(&mut c, v),
    }
    c
}

fn array(c: &mut Canvas, a: &Array, encodings: bool) {
    title(c, &header_text(&super::view::array_header(a)));
    match a {
        Array::Ragged(r) => kinds::ragged(c, 24, r, encodings),
        Array::Dense(t) => match t.data() {
            Buffer::Str(s) if t.rank() <= 1 => strings::buffer(c, 24, s),
            _ => grid::dense(c, 24, t),
        },
    }
}

/// A value that is not a tensor: its text form under its type.
fn other(c: &mut Canvas, v: &Value) {
    title(c, &format!("a {} value (not a tensor)", v.type_name()));
    let text = canvas::clip(&super::tf_text::repr_of(v), 100);
    c.text(0, 40, &text, canvas::Anchor::Start, "");
}

/// A picture's title line.
fn title(c: &mut Canvas, text: &str) {
    c.text(0, 13, text, canvas::Anchor::Start, "title");
}

/// A table header as one line: `RaggedTensor dtype=int32 shape=[3, None]`.
fn header_text(h: &Header) -> String {
    let mut s = h.kind.clone();
    for (k, v) in &h.fields {
        s.push_str(&format!("  {k}={v}"));
    }
    s
}
