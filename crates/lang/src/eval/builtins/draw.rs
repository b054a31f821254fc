//! `draw(x)`: a picture of how a value is laid out, in the manner of the TensorFlow guide's
//! figures — shown in a notebook as SVG, printed by `ragtag run --format svg`, or written to
//! a file.

use super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::{svg, table};
use crate::value::Value;

/// The drawing builtins.
pub static BUILTINS: &[Builtin] = &[Builtin::function(
    "draw",
    "(x, *more, file=None, encodings=False)",
    draw,
)
.doc(
    "Draws a picture of how a value is laid out: a ragged tensor's rows as boxes over its \
         flat values with the row_splits as markers (empty rows visible, uniform dimensions \
         marked), a sparse tensor's dense grid with stored cells filled and implicit ones \
         hollow beside its indices, a LoD tensor's levels as brackets over its data rows with \
         lengths and offsets, a string tensor's byte buffer with its offsets and multi-byte \
         characters; a large value gets a summary (head and tail rows and a histogram of row \
         lengths). Several values are drawn side by side: `draw(ragged, sparse)`. In a \
         notebook the picture is shown (with the table as its text form); elsewhere the \
         table is printed, `ragtag run --format svg` prints the SVG, and a str after the \
         values (or `file=`) names an .svg file to write instead (and says so: `wrote x.svg (12 KB)`). With `encodings=True` a \
         ragged tensor also shows the five encodings of each row partition (row_splits, \
         row_lengths, value_rowids, row_starts, row_limits) aligned under what they describe. \
         Returns None.",
)
.examples(&[
    "draw(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]]))",
    "draw(tf.ragged.constant([[1, 2], [3]]), tf.sparse.from_dense([[1, 2], [3, 0]]))",
    "draw(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]]), encodings=True)",
])];

fn draw(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut values: Vec<&Value> = std::iter::once(a.value("x"))
        .chain(a.rest().iter().map(|(v, _)| v))
        .collect();
    let mut file = a.opt_str("file")?;
    // `draw(x, 'picture.svg')`: a trailing str after the values is the file to write.
    if file.is_none() && values.len() > 1 {
        if let Some(Value::Str(path)) = values.last() {
            file = Some(path.to_string());
            values.pop();
        }
    }
    let picture = svg::draw_with(&values, a.flag("encodings", false)?);
    match file {
        Some(path) => {
            crate::formats::fs::replace(std::path::Path::new(&path), picture.as_bytes())
                .map_err(|e| e.at(a.span("file")))?;
            // Say what was written, so a script's or a cell's output shows where it went.
            it.print(&format!("wrote {path} ({})\n", file_size(picture.len())));
        }
        None => {
            let opts = it.render_options();
            let text: Vec<String> = values.iter().map(|v| table::render(v, &opts)).collect();
            it.picture(&picture, &text.join("\n"));
        }
    }
    Ok(Value::None)
}

/// A file's size as people read it: `640 bytes`, `12 KB`, `3.4 MB` (units of 1024 bytes).
fn file_size(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if b < KB * KB {
        format!("{:.0} KB", b / KB)
    } else {
        format!("{:.1} MB", b / (KB * KB))
    }
}
