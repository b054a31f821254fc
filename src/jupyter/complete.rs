//! Completion and inspection for the kernel: builtin paths, namespaces, the user's names, the
//! methods of a name's class and meta-commands — all from the one builtin table.

use std::collections::BTreeSet;

use ragtag::command::COMMANDS;
use ragtag::eval::builtins::{class_of, python::lookup_help, registry, Builtin};
use ragtag::Session;

/// Python keywords the language accepts, offered like names.
const KEYWORDS: &[&str] = &[
    "and", "assert", "def", "else", "elif", "except", "False", "for", "if", "import", "in", "is",
    "lambda", "None", "not", "or", "pass", "raise", "return", "True", "try",
];

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

/// Completions of the word before `cursor` (a code-point offset): the matches, and the
/// code-point range they replace.
pub fn complete(session: &Session, code: &str, cursor: usize) -> (Vec<String>, usize, usize) {
    let end = byte_offset(code, cursor);
    // A cursor past the end (a frontend's stale position) completes at the end.
    let cursor = char_pos(code, end);
    let line_start = code[..end].rfind('\n').map_or(0, |i| i + 1);
    let line = &code[line_start..end];
    // A meta-command at the start of a line.
    if line.starts_with(':') && !line.contains(char::is_whitespace) {
        let matches = COMMANDS
            .iter()
            .map(|(c, _)| c.to_string())
            .filter(|c| c.starts_with(line))
            .collect();
        return (matches, char_pos(code, line_start), cursor);
    }
    let start = token_start(code, end);
    let word = &code[start..end];
    let mut found = BTreeSet::new();
    let reg = registry();
    for path in reg.function_paths().chain(reg.modules()) {
        if path.starts_with(word) {
            found.insert(path.to_string());
        }
        // `ragged.constant` reaches `tf.ragged.constant`.
        if let Some(rest) = path.strip_prefix("tf.") {
            if !word.is_empty() && rest.starts_with(word) && !word.starts_with("tf.") {
                found.insert(rest.to_string());
            }
        }
    }
    for (name, value) in session.vars() {
        if name.starts_with(word) {
            found.insert(name.to_string());
        }
        // `digits.row_` completes the methods of the name's class.
        if let (Some(member), Some(class)) = (
            word.strip_prefix(name).and_then(|r| r.strip_prefix('.')),
            class_of(value),
        ) {
            let prefix = format!("{class}.");
            for b in &reg.all {
                if let Some(m) = b.name.strip_prefix(&prefix) {
                    if m.starts_with(member) && !m.contains('.') {
                        found.insert(format!("{name}.{m}"));
                    }
                }
            }
        }
    }
    if !word.contains('.') {
        for k in KEYWORDS {
            if k.starts_with(word) && !word.is_empty() {
                found.insert(k.to_string());
            }
        }
    }
    // Whole paths sort after shorter ones so `tf.` offers its namespaces first.
    let mut matches: Vec<String> = found.into_iter().filter(|m| m != word).collect();
    matches.sort_by(|a, b| (a.matches('.').count(), a).cmp(&(b.matches('.').count(), b)));
    (matches, char_pos(code, start), cursor)
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
        return Some(format!("{word}: {}\n", ragtag::render::describe(v)));
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
    fn completes_paths_names_and_methods() {
        let s = session();
        let (m, start, end) = complete(&s, "x = tf.ragged.con", 17);
        assert!(m.contains(&"tf.ragged.constant".to_string()), "{m:?}");
        assert_eq!((start, end), (4, 17));
        let (m, _, _) = complete(&s, "dig", 3);
        assert_eq!(m, vec!["digits".to_string()]);
        let (m, _, _) = complete(&s, "digits.row_l", 12);
        assert!(m.contains(&"digits.row_lengths".to_string()), "{m:?}");
        let (m, start, _) = complete(&s, ":fo", 3);
        assert_eq!((m, start), (vec![":format".to_string()], 0));
    }

    #[test]
    fn cursor_positions_are_code_points() {
        let s = session();
        let code = "é = dig";
        let (m, start, end) = complete(&s, code, 7);
        assert_eq!(m, vec!["digits".to_string()]);
        assert_eq!((start, end), (4, 7));
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
