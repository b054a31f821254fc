//! Completion and inspection for the kernel. Completion is the library's (the REPL's too),
//! with Jupyter's code-point cursor converted to bytes and back; inspection shows the help
//! of the builtin or the description of the name under the cursor.

use ragtag::eval::builtins::{class_of, python::lookup_help, registry, Builtin};
use ragtag::Session;

/// The byte offset of code point `cursor` in `code` (clamped to the end).
pub fn byte_offset(code: &str, cursor: usize) -> usize {
    code.char_indices()
        .nth(cursor)
        .map_or(code.len(), |(i, _)| i)
}

/// The code-point position of byte offset `byte` in `code`.
pub fn char_pos(code: &str, byte: usize) -> usize {
    code[..byte].chars().count()
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// The dotted name that ends at byte `end`, as its start byte.
fn token_start(code: &str, end: usize) -> usize {
    code[..end]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_name_char(c))
        .last()
        .map_or(end, |(i, _)| i)
}

/// The library completer ([`ragtag::complete::complete`], which the REPL calls too) on a
/// whole cell, in Jupyter's units: `cursor` counts code points into the cell (messaging
/// spec 5.2+), and so do the returned `cursor_start` and `cursor_end` of the range the
/// matches replace. A cursor past the end (a frontend's stale position) completes at the end.
pub fn complete(session: &Session, code: &str, cursor: usize) -> (Vec<String>, usize, usize) {
    let end = byte_offset(code, cursor);
    let (start, matches) = ragtag::complete::complete(session, code, end);
    (matches, char_pos(code, start), char_pos(code, end))
}

/// What the name under (or just before) `cursor` is: a builtin's help, or a user name's
/// kind, dtype and shape.
pub fn inspect(session: &Session, code: &str, cursor: usize) -> Option<String> {
    let at = byte_offset(code, cursor);
    // Extend over the rest of the word under the cursor, then back to its start.
    let end = at
        + code[at..]
            .char_indices()
            .find(|&(_, c)| !is_name_char(c))
            .map_or(code.len() - at, |(i, _)| i);
    let mut word = &code[token_start(code, end)..end];
    // `tf.ragged.constant(` with the cursor after the bracket inspects the callee.
    if word.is_empty() {
        let before = code[..at].trim_end_matches(|c: char| c == '(' || c.is_whitespace());
        word = &before[token_start(before, before.len())..];
    }
    let word = word.trim_matches('.');
    if word.is_empty() {
        return None;
    }
    if let Some(v) = session.get(word) {
        // The value's kind, then its header and how it is stored (as `:explain` shows).
        let mut text = format!("{word}: {}\n", ragtag::render::describe(v));
        if let Some(storage) = ragtag::command::storage(v, &session.options) {
            text.push('\n');
            text.push_str(&storage);
        }
        return Some(text);
    }
    let help = |b: &Builtin| ragtag::eval::builtins::python::help_text(b);
    if let Some(b) = lookup_help(word) {
        return Some(help(b));
    }
    // `digits.row_lengths`: a method of a user name's class.
    let (name, member) = word.rsplit_once('.')?;
    let class = class_of(session.get(name)?)?;
    registry().member(class, member).map(help)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtag::session::Collect;

    fn session() -> Session {
        let mut s = Session::new();
        s.execute(
            "digits = tf.ragged.constant([[3, 1], [2]])",
            &mut Collect::default(),
        )
        .unwrap();
        s
    }

    #[test]
    fn completes_in_code_points_through_the_library() {
        let s = session();
        let (m, start, end) = complete(&s, "x = tf.ragged.con", 17);
        assert_eq!(m, vec!["constant(".to_string()]);
        assert_eq!((start, end), (14, 17));
        // Each `é` is two bytes but one code point.
        let code = "é = 'é'\ndigits.row_len";
        let (m, start, end) = complete(&s, code, 22);
        assert_eq!(m, vec!["row_lengths(".to_string()]);
        assert_eq!((start, end), (15, 22));
        // A stale cursor past the end completes at the end.
        let (m, start, end) = complete(&s, "é dig", 99);
        assert_eq!((m, start, end), (vec!["digits".to_string()], 2, 5));
    }

    #[test]
    fn any_code_and_cursor_is_answered() {
        let s = session();
        let codes = [
            "",
            ".",
            "..",
            ":",
            ": x",
            "\n:",
            "é",
            "é.ü(",
            "digits.",
            "digits..row",
            "(((",
            "tf.",
            "x = [1,\n:fo",
            "\u{200b}dig",
            "日本語.テ",
            "a\r\nb",
            "🦀🦀.🦀",
            ")(.",
        ];
        for code in codes {
            let len = code.chars().count();
            for cursor in 0..=len + 3 {
                let (_, start, end) = complete(&s, code, cursor);
                assert!(
                    start <= end && end <= len,
                    "{code:?} at {cursor}: {start}..{end}"
                );
                let _ = inspect(&s, code, cursor);
            }
        }
    }

    #[test]
    fn inspects_builtins_and_names() {
        let s = session();
        let text = inspect(&s, "tf.ragged.constant", 5).unwrap();
        assert!(text.starts_with("tf.ragged.constant("), "{text}");
        let text = inspect(&s, "tf.ragged.constant(", 19).unwrap();
        assert!(text.starts_with("tf.ragged.constant("), "{text}");
        assert!(inspect(&s, "digits", 2).unwrap().contains("ragged int32"));
        assert!(inspect(&s, "nothing_here", 3).is_none());
    }
}
