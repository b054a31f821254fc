//! Syntax colouring of the input line: a small scanner sorts the text into token classes
//! (strings, numbers, keywords, module names, comments, meta-commands) and wraps each in an
//! ANSI colour. Only colour codes are added, so the line keeps its display width. Keywords
//! are Python's reserved words ([`KEYWORDS`], all of them: an unsupported one is still not a
//! name) and modules are the roots evaluation resolves ([`root_module`]).

use ragtag::eval::root_module;
use ragtag::syntax::KEYWORDS;

/// What a piece of the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Anything without a colour: names, operators, blanks.
    Plain,
    /// A string literal, quotes and prefix included.
    Str,
    /// A number literal.
    Number,
    /// A Python keyword (`lambda`, `for`, `True` …).
    Keyword,
    /// A module root (`tf`, `np` …) at the start of a path.
    Module,
    /// A `#` comment.
    Comment,
    /// A `:command` at the start of the input.
    Command,
}

fn colour(class: Class) -> Option<&'static str> {
    Some(match class {
        Class::Plain => return None,
        Class::Str => "\x1b[32m",
        Class::Number => "\x1b[36m",
        Class::Keyword => "\x1b[35m",
        Class::Module => "\x1b[34m",
        Class::Comment => "\x1b[90m",
        Class::Command => "\x1b[33m",
    })
}

/// Splits `line` into `(class, byte range)` pieces that cover it exactly, in order.
pub fn classify(line: &str) -> Vec<(Class, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    if line.trim_start().starts_with(':') {
        let start = line.len() - line.trim_start().len();
        let end = line[start..]
            .find(char::is_whitespace)
            .map_or(line.len(), |e| start + e);
        out.push((Class::Plain, 0..start));
        out.push((Class::Command, start..end));
        out.push((Class::Plain, end..line.len()));
        return out.into_iter().filter(|(_, r)| !r.is_empty()).collect();
    }
    let mut plain_start = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            push(
                &mut out,
                &mut plain_start,
                Class::Comment,
                i..line[i..].find('\n').map_or(b.len(), |e| i + e),
            );
            i = plain_start;
        } else if c == b'\'' || c == b'"' {
            let end = string_end(b, i);
            push(&mut out, &mut plain_start, Class::Str, i..end);
            i = end;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            // A digit right after a name character belongs to the name (`x1`).
            let in_name = i > 0 && (b[i - 1] == b'_' || b[i - 1].is_ascii_alphanumeric());
            let mut end = i + 1;
            while end < b.len() {
                let d = b[end];
                let exp_sign = (d == b'+' || d == b'-') && matches!(b[end - 1], b'e' | b'E');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp_sign {
                    end += 1;
                } else {
                    break;
                }
            }
            if !in_name {
                push(&mut out, &mut plain_start, Class::Number, i..end);
            }
            i = end;
        } else if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            let mut end = i;
            for (k, ch) in line[i..].char_indices() {
                if ch == '_' || ch.is_alphanumeric() {
                    end = i + k + ch.len_utf8();
                } else {
                    break;
                }
            }
            if end == i {
                // A non-name character outside ASCII (an operator-like symbol): skip it.
                i += line[i..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let word = &line[i..end];
            // String prefixes: r'…', b"…", rb'…'.
            if end < b.len()
                && (b[end] == b'\'' || b[end] == b'"')
                && word.len() <= 2
                && word.chars().all(|ch| "rRbBuUfF".contains(ch))
            {
                let s_end = string_end(b, end);
                push(&mut out, &mut plain_start, Class::Str, i..s_end);
                i = s_end;
                continue;
            }
            let after_dot = i > 0 && b[i - 1] == b'.';
            if !after_dot && KEYWORDS.contains(&word) {
                push(&mut out, &mut plain_start, Class::Keyword, i..end);
            } else if !after_dot && root_module(word).is_some() {
                push(&mut out, &mut plain_start, Class::Module, i..end);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    if plain_start < b.len() {
        out.push((Class::Plain, plain_start..b.len()));
    }
    out
}

/// Appends a coloured piece, preceded by the plain text since the last one.
fn push(
    out: &mut Vec<(Class, std::ops::Range<usize>)>,
    plain_start: &mut usize,
    class: Class,
    range: std::ops::Range<usize>,
) {
    if *plain_start < range.start {
        out.push((Class::Plain, *plain_start..range.start));
    }
    *plain_start = range.end;
    out.push((class, range));
}

/// Where the string literal opening at `start` ends (exclusive); the line end if unclosed.
fn string_end(b: &[u8], start: usize) -> usize {
    let q = b[start];
    let triple = b.get(start + 1) == Some(&q) && b.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == q => {
                if !triple {
                    return i + 1;
                }
                if b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) {
                    return i + 3;
                }
                i += 1;
            }
            b'\n' if !triple => return i,
            _ => i += 1,
        }
    }
    b.len()
}

/// `line` with ANSI colours around each token class.
pub fn highlight(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 32);
    for (class, range) in classify(line) {
        let text = &line[range.start.min(line.len())..range.end.min(line.len())];
        match colour(class) {
            Some(c) => {
                out.push_str(c);
                out.push_str(text);
                out.push_str("\x1b[0m");
            }
            None => out.push_str(text),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(line: &str) -> Vec<(Class, &str)> {
        classify(line)
            .into_iter()
            .filter(|(c, _)| *c != Class::Plain)
            .map(|(c, r)| (c, &line[r]))
            .collect()
    }

    #[test]
    fn token_classes() {
        use Class::{Command, Comment, Keyword, Module, Number, Str};
        let cases: &[(&str, &[(Class, &str)])] = &[
            (
                "x = tf.constant([1, 2.5e-3], dtype='int32')  # note",
                &[
                    (Module, "tf"),
                    (Number, "1"),
                    (Number, "2.5e-3"),
                    (Str, "'int32'"),
                    (Comment, "# note"),
                ],
            ),
            (
                "lambda x1: x1 if True else b'no'",
                &[
                    (Keyword, "lambda"),
                    (Keyword, "if"),
                    (Keyword, "True"),
                    (Keyword, "else"),
                    (Str, "b'no'"),
                ],
            ),
            // Every reserved word, supported or not, and every root spelling.
            (
                "while numpy: del x; yield",
                &[
                    (Keyword, "while"),
                    (Module, "numpy"),
                    (Keyword, "del"),
                    (Keyword, "yield"),
                ],
            ),
            (":help tf.ragged", &[(Command, ":help")]),
            ("rt.tf.in", &[]),
            ("'unclosed", &[(Str, "'unclosed")]),
            ("'a\\'b' + 日本", &[(Str, "'a\\'b'")]),
        ];
        for (line, want) in cases {
            assert_eq!(classes(line), *want, "{line:?}");
        }
    }

    #[test]
    fn pieces_cover_the_line_and_colours_keep_the_text() {
        for line in [
            "x = [1, 'a', \"b\"] # c",
            ":vars",
            "",
            "  :help x",
            "é + 1",
            "\"\"\"a\nb\"\"\" x",
        ] {
            let pieces = classify(line);
            let mut pos = 0;
            for (_, r) in &pieces {
                assert_eq!(r.start, pos, "{line:?}: {pieces:?}");
                pos = r.end;
            }
            assert_eq!(pos, line.len(), "{line:?}");
            let plain: String = highlight(line)
                .replace("\x1b[0m", "")
                .split('\x1b')
                .enumerate()
                .map(|(k, s)| {
                    if k == 0 {
                        s.to_string()
                    } else {
                        s.split_once('m')
                            .map_or(String::new(), |(_, t)| t.to_string())
                    }
                })
                .collect();
            assert_eq!(plain, line);
        }
    }
}
