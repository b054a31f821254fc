//! Python's continuation rules, for the terminal REPL and the kernel's is_complete: an input
//! goes on to a `... ` line
//! only while a bracket or a triple-quoted string is open, a line ends with a backslash,
//! a block header (`if x:`) waits for its body, or a block waits for the blank line that
//! closes it. Anything else runs at once, so `1 +` then Enter is a SyntaxError straight
//! away instead of a silent wait.

use ragtag_syntax::{completeness, Completeness};

/// True when `src` (the lines typed so far, joined by newlines, with no final newline)
/// needs another line before it can run.
pub fn continues(src: &str) -> bool {
    if completeness(&format!("{src}\n")) != Completeness::Incomplete {
        return false;
    }
    let last = src.rsplit('\n').next().unwrap_or("");
    let code = strip_comment(last).trim_end();
    if code.ends_with('\\') || code.ends_with(':') {
        return true;
    }
    if last.trim().is_empty() {
        // A blank line closes every block, so only an open bracket or string is left.
        return true;
    }
    // A blank line after the input closes its blocks but no bracket: what is still
    // incomplete then waits for a bracket or a string; what is complete was a block
    // waiting for its blank line; what is invalid ends too early (`1 +`) and runs now to
    // report it.
    match completeness(&format!("{src}\n\n")) {
        Completeness::Incomplete | Completeness::Complete => true,
        Completeness::Invalid => false,
    }
}

/// The line without a `#` comment (a `#` inside a quoted string is kept).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '#' => return &line[..i],
            None if c == '\'' || c == '"' => quote = Some(c),
            None => {}
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_brackets_backslashes_and_headers_continue() {
        assert!(continues("y = [1,"));
        assert!(continues("f(1,\n  2"));
        assert!(continues("x = 1 + \\"));
        assert!(continues("if True:"));
        assert!(continues("def f(x):  # doubles"));
        assert!(continues("for i in range(3):\n    print(i)"));
        assert!(continues("s = '''abc"));
    }

    #[test]
    fn a_dangling_operator_runs_at_once() {
        assert!(!continues("1 +"));
        assert!(!continues("x = 2 *"));
        assert!(!continues("if True:\n    y = 1 +"));
    }

    #[test]
    fn complete_inputs_and_blank_lines_end_the_input() {
        assert!(!continues("1 + 2"));
        assert!(!continues("s = 'a#:'"));
        assert!(!continues("for i in range(3):\n    print(i)\n"));
        assert!(!continues("print('x:')  # a comment:"));
        assert!(!continues("1 ++ )"));
    }
}
