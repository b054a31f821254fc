//! Builtins about display: `explain(x)`, the teaching view of how a value is stored.

use super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::explain;
use crate::value::Value;

/// The display builtins.
pub static BUILTINS: &[Builtin] = &[Builtin::function("explain", "(x)", explain_)
    .doc(
        "Shows how a value is stored rather than what it holds: a ragged tensor's flat values \
         and, for each ragged dimension, its five row-partition encodings side by side \
         (row_splits, row_lengths, value_rowids, row_starts, row_limits); a sparse tensor's \
         indices, values and dense_shape; a LoD tensor's offsets beside its lengths; and a \
         string tensor's single byte buffer with its offsets. Prints the explanation (in a \
         notebook, as an HTML table) and returns None. `:explain EXPR` does the same as a command.",
    )
    .examples(&[
        "explain(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]]))",
        "explain(tf.constant(['So', 'long']))",
    ])];

fn explain_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = explain::explain(a.value("x"), &it.render_options());
    it.show(&d);
    Ok(Value::None)
}
