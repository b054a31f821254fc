//! What notebooks and IPython give code besides the language: `display(x)` (a display of
//! its own, not the cell's result), `clear_output(wait=False)`, and `sys.stdout` /
//! `sys.stderr` for `print(…, file=…)`. Each goes to the front end through the sink, so the
//! Jupyter kernel sends display_data, clear_output and stderr stream messages while the
//! terminal prints.

use super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;

/// The notebook builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("display", "(*objs)", display)
        .doc(
            "Shows each value as a display of its own, in the cell's output where it is \
             called (IPython's `display`); a value's table, in the notebook its HTML table.",
        )
        .examples(&["display(tf.ragged.constant([[1, 2], [3]]), 'done')"]),
    Builtin::function("clear_output", "(wait=False)", clear_output)
        .doc(
            "Clears the cell's output so far (in a notebook; the terminal keeps its text). \
             With `wait=True` the output is cleared when the next output arrives.",
        )
        .examples(&["clear_output(wait=True)"]),
];

/// The text form of `sys.stdout` or `sys.stderr` (`name` is `stdout` or `stderr`).
pub fn stream(name: &str) -> Value {
    Value::Opaque(crate::value::ThinStr::from(format!("<sys.{name}>")))
}

/// Whether `file` (print's argument) is `sys.stderr`.
pub fn is_stderr(file: &Value) -> bool {
    matches!(file, Value::Opaque(o) if &**o == "<sys.stderr>")
}

fn display(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for (v, _) in a.rest() {
        it.sink().display_now(v);
    }
    Ok(Value::None)
}

fn clear_output(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let wait = a.flag("wait", false)?;
    it.sink().clear_output(wait);
    Ok(Value::None)
}
