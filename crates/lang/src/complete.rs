//! Tab completion for the REPL and the Jupyter kernel: user names, builtins by module path,
//! methods and attributes of the value before a `.`, keyword arguments inside a call,
//! meta-commands — all from the session and the builtin table — and file paths inside a
//! string literal ([`paths`]).

mod paths;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::command::COMMANDS;
use crate::eval::builtins::{attribute_names, class_of, module_attr, registry, root_names};
use crate::eval::builtins::{Builtin, Kind};
use crate::eval::root_module;
use crate::session::Session;
use crate::value::Value;
use ragtag_syntax::{KEYWORDS, UNSUPPORTED_KEYWORDS};

/// The completions of `line` at byte offset `cursor`: the offset where the replaced text
/// starts, and the candidates (each replaces `line[start..cursor]`), sorted. Functions and
/// methods end in `(`, keyword arguments in `=`. Offsets are in bytes (Jupyter counts
/// `cursor_pos` in characters: convert on the way in and out). Inside a string literal, the
/// candidates are file and directory names relative to the current directory.
pub fn complete(session: &Session, line: &str, cursor: usize) -> (usize, Vec<String>) {
    let base = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    complete_in(session, line, cursor, &base)
}

/// [`complete`] with file paths in strings completed relative to `base` rather than the
/// process's current directory.
pub fn complete_in(
    session: &Session,
    line: &str,
    cursor: usize,
    base: &Path,
) -> (usize, Vec<String>) {
    let cursor = floor_char_boundary(line, cursor.min(line.len()));
    let before = &line[..cursor];
    let scan = scan(before);
    if scan.in_string_or_comment {
        if let Some(start) = scan.string_start {
            if let Some((at, names)) = paths::complete_path(&before[start..], base) {
                return (start + at, names);
            }
        }
        return (cursor, Vec::new());
    }
    let trimmed = before.trim_start();
    if trimmed.starts_with(':') {
        return complete_command(before);
    }
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_name_char(c) || c == '.')
        .last()
        .map_or(cursor, |(i, _)| i);
    let word = &before[word_start..];
    // `rt[0].row_` or `f(x).a`: the receiver is an expression, not a name; nothing to offer.
    if word.starts_with('.') {
        return (cursor, Vec::new());
    }
    match word.rsplit_once('.') {
        Some((path, partial)) => {
            let start = cursor - partial.len();
            (start, sorted(attribute_candidates(session, path, partial)))
        }
        None => {
            let mut out = Vec::new();
            if let Some(open) = scan.open_paren {
                if let Some(b) = callee(session, &before[..open]) {
                    out.extend(keyword_candidates(b, word));
                }
            }
            let mut names = BTreeSet::new();
            names.extend(name_candidates(session, word));
            out.extend(
                names
                    .into_iter()
                    .filter(|n| !out.contains(n))
                    .collect::<Vec<_>>(),
            );
            (word_start, out)
        }
    }
}

fn is_name_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn sorted(set: BTreeSet<String>) -> Vec<String> {
    set.into_iter().collect()
}

/// What a cursor sits in, found by scanning the text before it.
struct Scan {
    in_string_or_comment: bool,
    /// Byte offset where the text of the unclosed string literal starts (after its quotes).
    string_start: Option<usize>,
    /// Byte offset of the innermost unclosed `(`, when the innermost open bracket is one.
    open_paren: Option<usize>,
}

fn scan(text: &str) -> Scan {
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut in_comment = false;
    let mut string: Option<(char, bool)> = None; // (quote, triple)
    let mut string_start = 0;
    let bytes = text.as_bytes();
    while let Some((i, c)) = chars.next() {
        if in_comment {
            if c == '\n' {
                in_comment = false;
            }
            continue;
        }
        if let Some((q, triple)) = string {
            if c == '\\' {
                chars.next();
            } else if c == q {
                if !triple {
                    string = None;
                } else if bytes.get(i + 1..i + 3) == Some(&[q as u8, q as u8][..]) {
                    chars.next();
                    chars.next();
                    string = None;
                }
            } else if c == '\n' && !triple {
                string = None;
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '\'' | '"' => {
                let triple = bytes.get(i + 1..i + 3) == Some(&[c as u8, c as u8][..]);
                if triple {
                    chars.next();
                    chars.next();
                }
                string = Some((c, triple));
                string_start = i + if triple { 3 } else { 1 };
            }
            '(' | '[' | '{' => stack.push((c, i)),
            ')' | ']' | '}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    Scan {
        in_string_or_comment: in_comment || string.is_some(),
        string_start: string.filter(|_| !in_comment).map(|_| string_start),
        open_paren: stack.last().filter(|(c, _)| *c == '(').map(|&(_, i)| i),
    }
}

/// Meta-command names, and builtin names after `:help`.
fn complete_command(before: &str) -> (usize, Vec<String>) {
    let offset = before.len() - before.trim_start().len();
    let text = before.trim_start();
    match text.split_once(char::is_whitespace) {
        None => {
            let out = COMMANDS
                .iter()
                .map(|(c, _)| *c)
                .filter(|c| c.starts_with(text))
                .map(String::from)
                .collect();
            (offset, out)
        }
        Some((":help" | ":h", arg)) => {
            let arg = arg.trim_start();
            let start = before.len() - arg.len();
            let set: BTreeSet<String> = registry()
                .all
                .iter()
                .flat_map(|b| std::iter::once(b.name).chain(b.aliases.iter().copied()))
                .filter(|p| p.starts_with(arg))
                .map(String::from)
                .collect();
            (start, sorted(set))
        }
        Some(_) => (before.len(), Vec::new()),
    }
}

/// The module a dotted path names, resolved as evaluation resolves it: a user name bound to
/// a module (`import numpy as xp`) or a root (`tensorflow` is `tf`), then each part through
/// [`module_attr`]. A path that starts elsewhere tries `tf.` in front, as name lookup does.
fn module_of(session: &Session, path: &str) -> Option<String> {
    let mut parts = path.split('.');
    let first = parts.next()?;
    let mut module = match session.get(first) {
        Some(Value::Module(m)) => m.to_string(),
        Some(_) => return None,
        // `ragged.constant` reaches `tf.ragged.constant`: is_module tries `tf.` in front.
        None => match root_module(first) {
            Some(root) => root.to_string(),
            None => return registry().is_module(path),
        },
    };
    for part in parts {
        match module_attr(&module, part)? {
            Value::Module(m) => module = m.to_string(),
            _ => return None,
        }
    }
    Some(module)
}

/// Completions after `path.`.
fn attribute_candidates(session: &Session, path: &str, partial: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // A user name holding a value: its class's methods and properties.
    if !path.contains('.') {
        if let Some(v) = session.get(path) {
            if let Some(class) = class_of(v) {
                let prefix = format!("{class}.");
                for b in &registry().all {
                    if b.kind == Kind::Function {
                        continue;
                    }
                    if let Some(member) = b.name.strip_prefix(&prefix) {
                        // Special methods only once `_` is typed.
                        let hidden = member.starts_with("__") && !partial.starts_with('_');
                        if member.starts_with(partial) && !member.contains('.') && !hidden {
                            out.insert(with_paren(member, b));
                        }
                    }
                }
            }
            if !matches!(v, Value::Module(_)) {
                return out;
            }
        }
    }
    let Some(module) = module_of(session, path) else {
        return out;
    };
    let prefix = format!("{module}.");
    for full in registry().function_paths() {
        let Some(rest) = full.strip_prefix(&prefix) else {
            continue;
        };
        if !rest.starts_with(partial) {
            continue;
        }
        match rest.split_once('.') {
            // A deeper module (`tf.ra` → `ragged`).
            Some((sub, _)) => out.insert(sub.to_string()),
            None => out.insert(format!("{rest}(")),
        };
    }
    out.extend(
        attribute_names(&module)
            .into_iter()
            .filter(|n| n.starts_with(partial))
            .map(String::from),
    );
    out
}

fn with_paren(name: &str, b: &Builtin) -> String {
    match b.kind {
        Kind::Property => name.to_string(),
        Kind::Function | Kind::Method => format!("{name}("),
    }
}

/// Completions of a bare name.
fn name_candidates(session: &Session, word: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if word.is_empty() {
        return out;
    }
    for (name, v) in session.vars() {
        if name.starts_with(word) {
            out.insert(match v {
                Value::Closure(_) | Value::Builtin(_) => format!("{name}("),
                _ => name.to_string(),
            });
        }
    }
    out.extend(
        root_names()
            .into_iter()
            .filter(|r| r.starts_with(word))
            .map(String::from),
    );
    out.extend(
        KEYWORDS
            .iter()
            .filter(|k| k.starts_with(word) && !UNSUPPORTED_KEYWORDS.contains(k))
            .map(|k| k.to_string()),
    );
    for b in &registry().all {
        if b.kind == Kind::Function && !b.name.contains('.') && b.name.starts_with(word) {
            out.insert(format!("{}(", b.name));
        }
    }
    out
}

/// The builtin called by the text just before an open `(`, if it is a name path.
fn callee(session: &Session, before_paren: &str) -> Option<&'static Builtin> {
    let text = before_paren.trim_end();
    let start = text
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_name_char(c) || c == '.')
        .last()
        .map(|(i, _)| i)?;
    let path = &text[start..];
    if path.is_empty() || path.starts_with('.') {
        return None;
    }
    let (first, rest) = path
        .split_once('.')
        .map_or((path, None), |(f, r)| (f, Some(r)));
    match (session.get(first), rest) {
        (Some(Value::Builtin(b)), None) => Some(*b),
        (Some(Value::Module(m)), Some(r)) => registry().resolve(&format!("{m}.{r}")),
        (Some(v), Some(r)) => registry().member(class_of(v)?, r),
        (Some(_), None) => None,
        (None, _) => {
            let canonical = match (root_module(first), rest) {
                (Some(root), Some(r)) => format!("{root}.{r}"),
                _ => path.to_string(),
            };
            registry().resolve(&canonical)
        }
    }
}

/// `name=` for each parameter of `b` that starts with `word` (never `self` or `*args`).
fn keyword_candidates(b: &'static Builtin, word: &str) -> Vec<String> {
    b.params()
        .iter()
        .filter(|p| !p.variadic && p.name != "self" && p.name.starts_with(word))
        .map(|p| format!("{}=", p.name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Collect;

    fn session() -> Session {
        let mut s = Session::new();
        let src =
            "rt = tf.ragged.constant([[1, 2], [3]])\nt = tf.constant([1, 2])\nrow_count = 3\n\
                   import numpy as xp\ndef my_fn(a, b):\n    return a";
        s.execute(src, &mut Collect::default()).unwrap();
        s
    }

    #[track_caller]
    fn check(line: &str, expect_start: usize, expect: &[&str]) {
        let (start, got) = complete(&session(), line, line.len());
        assert_eq!(start, expect_start, "{line}: {got:?}");
        assert_eq!(got, expect, "{line}");
    }

    #[track_caller]
    fn contains(line: &str, want: &[&str]) {
        let (_, got) = complete(&session(), line, line.len());
        for w in want {
            assert!(got.iter().any(|g| g == w), "{line}: {w} not in {got:?}");
        }
    }

    #[test]
    fn module_paths() {
        check("tf.ragged.con", 10, &["constant("]);
        check("x = tf.ragged.con", 14, &["constant("]);
        contains("tf.ra", &["ragged", "range(", "random"]);
        contains(
            "tf.",
            &[
                "constant(",
                "ragged",
                "RaggedTensor",
                "int32",
                "newaxis",
                "reduce_sum(",
            ],
        );
        contains(
            "tf.RaggedTensor.from_",
            &["from_row_splits(", "from_value_rowids("],
        );
        contains("tf.math.squ", &["square("]);
        contains("tensorflow.ragged.c", &["constant("]);
        contains("xp.arr", &["array("]);
        contains("ragged.con", &["constant("]);
        contains("tf.errors.Inv", &["InvalidArgumentError"]);
        check("tf.nosuchmodule.", 16, &[]);
        // Every root evaluation knows, and the namespaces without builtins of their own.
        for root in ["tf", "np", "fluid", "paddle", "math"] {
            contains(&root[..1], &[root]);
        }
        contains("paddle.", &["fluid", "CPUPlace("]);
        contains("paddle.fluid.", &["LoDTensor(", "create_lod_tensor("]);
        contains("math.", &["pi", "e", "inf", "nan"]);
        contains("np.", &["str_", "bool_", "pi", "newaxis"]);
        contains("tf.dtypes.", &["string", "int64"]);
        contains("tf.", &["errors", "string", "bool"]);
    }

    #[test]
    fn members_of_a_value() {
        check(
            "rt.row_",
            3,
            &["row_lengths(", "row_limits(", "row_splits", "row_starts("],
        );
        contains("rt.", &["values", "to_tensor(", "nrows(", "shape"]);
        contains("t.", &["shape", "dtype"]);
        check("rt.zzz", 3, &[]);
        check("rt[0].row_", 10, &[]);
    }

    #[test]
    fn names() {
        contains("r", &["rt", "row_count", "range(", "repr(", "return"]);
        contains("my", &["my_fn("]);
        contains("pri", &["print("]);
        contains("t", &["t", "tf", "tuple(", "try"]);
        contains("T", &["True"]);
        contains("wh", &["while"]);
        contains("de", &["def", "del"]);
        contains("br", &["break"]);
        contains("con", &["continue"]);
        contains("wit", &["with"]);
        // Keywords ragtag does not run are not offered.
        contains("yiel", &["yield"]);
        check("asyn", 0, &[]);
        check("", 0, &[]);
    }

    #[test]
    fn keyword_arguments_come_first() {
        let line = "tf.ragged.constant([[1]], d";
        let (start, got) = complete(&session(), line, line.len());
        assert_eq!(start, line.len() - 1);
        assert_eq!(got.first().map(String::as_str), Some("dtype="), "{got:?}");
        contains("tf.ragged.constant([[1]], ragged_", &["ragged_rank="]);
        contains("tf.reduce_sum(rt, ax", &["axis="]);
        contains("rt.to_tensor(def", &["default_value="]);
        contains("tf.reduce_sum(rt, k", &["keepdims="]);
        // Inside brackets nested in the call, no keywords.
        let (_, got) = complete(&session(), "tf.reduce_sum([ax", 17);
        assert!(!got.contains(&"axis=".to_string()), "{got:?}");
    }

    #[test]
    fn meta_commands() {
        check(":he", 0, &[":help"]);
        check("  :v", 2, &[":vars"]);
        contains(":help tf.ragged.c", &["tf.ragged.constant"]);
        check(":format t", 9, &[]);
    }

    #[test]
    fn nothing_inside_strings_or_comments() {
        check("x = 'tf.rag", 11, &[]);
        check("x = 1  # tf.rag", 15, &[]);
        contains("x = 'a' + tf.rag", &["ragged"]);
        contains("'''a''' + tf.rag", &["ragged"]);
    }

    #[test]
    fn cursor_in_the_middle() {
        let line = "tf.ragged.con + 1";
        let (start, got) = complete(&session(), line, 13);
        assert_eq!((start, got), (10, vec!["constant(".to_string()]));
        // A cursor inside a multi-byte character is moved back to its start.
        let (_, got) = complete(&session(), "é", 1);
        assert!(got.is_empty());
    }
}
