//! A pasted block shown as Python's REPL shows one: the line editor draws a pasted input's
//! later lines flush left, with no prompt, so once the input is accepted it is drawn again
//! with `... ` before each line after the first, as if typed line by line.

use std::io::Write;

use unicode_width::UnicodeWidthStr;

/// The continuation prompt, as the REPL's own.
const MORE: &str = "... ";

/// How many terminal rows `input` took as the line editor drew it after `prompt` in a
/// terminal `cols` wide: each of its lines (the first after the prompt, the others from the
/// first column) as many rows as it wraps to.
pub fn rows_drawn(prompt: &str, input: &str, cols: usize) -> usize {
    let cols = cols.max(1);
    input
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            let w = line.width() + if i == 0 { prompt.width() } else { 0 };
            w.div_ceil(cols).max(1)
        })
        .sum()
}

/// `input` with its prompts: `prompt` before the first line, `... ` before each other,
/// lines highlighted by `paint`.
pub fn with_prompts(prompt: &str, input: &str, paint: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    for (i, line) in input.split('\n').enumerate() {
        out.push_str(if i == 0 { prompt } else { MORE });
        out.push_str(&paint(line));
        out.push('\n');
    }
    out
}

/// Draws an accepted multi-line input again over the rows the editor drew it on (the
/// cursor is on the row after them), with its prompts.
pub fn redraw(prompt: &str, input: &str, cols: usize, paint: &dyn Fn(&str) -> String) {
    let rows = rows_drawn(prompt, input, cols);
    let mut out = std::io::stdout().lock();
    // Up to the first row, back to its first column, and clear to the end of the screen.
    let _ = write!(
        out,
        "\x1b[{rows}A\r\x1b[J{}",
        with_prompts(prompt, input, paint)
    );
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(c: char, n: usize) -> String {
        std::iter::repeat_n(c, n).collect()
    }

    #[test]
    fn a_pasted_block_gets_continuation_prompts() {
        let block = "for i in range(3):\n    print(i)\n";
        assert_eq!(
            with_prompts(">>> ", block, &|l| l.to_string()),
            ">>> for i in range(3):\n...     print(i)\n... \n"
        );
        assert_eq!(rows_drawn(">>> ", block, 80), 3);
        // A line wider than the terminal takes two rows; the prompt counts on the first.
        assert_eq!(rows_drawn(">>> ", &text('x', 77), 80), 2);
        assert_eq!(rows_drawn(">>> ", &format!("a\n{}", text('y', 80)), 80), 2);
        assert_eq!(rows_drawn(">>> ", &format!("a\n{}", text('y', 81)), 80), 3);
    }
}
