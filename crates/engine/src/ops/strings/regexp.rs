//! `tf.strings.regex_replace` and `tf.strings.regex_full_match`. TensorFlow uses RE2;
//! the `regex` crate follows RE2's syntax and leftmost-first semantics, and RE2's
//! rewrite strings (`\1`, `\\`) are expanded here.

use regex::bytes::{Captures, Regex, RegexBuilder};

use super::{map_values, same_shape, str_col};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::interrupt;
use crate::invalid_arg;
use crate::ragged::Array;
use crate::strings::StringBuf;
use crate::{budget, budget::check_bytes};

/// The ASCII class RE2 gives a Perl escape (`\w`, `\d`, `\s` and their negations), as
/// class contents: RE2's Perl classes are ASCII-only, the `regex` crate's are Unicode.
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    match c {
        'w' => Some(("0-9A-Za-z_", false)),
        'W' => Some(("0-9A-Za-z_", true)),
        'd' => Some(("0-9", false)),
        'D' => Some(("0-9", true)),
        's' => Some(("\\t\\n\\f\\r ", false)),
        'S' => Some(("\\t\\n\\f\\r ", true)),
        _ => None,
    }
}

/// Rewrites an RE2 pattern for the `regex` crate: `\w`, `\d`, `\s` (and negations) become
/// their ASCII classes and `\b`, `\B` ASCII word boundaries, as in RE2; everything else is
/// kept as written.
fn re2_to_regex(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match (perl_class(e), depth > 0, e) {
                    // A class of its own; inside a class it nests, which keeps the union.
                    (Some((set, neg)), _, _) => {
                        out.push_str(if neg { "[^" } else { "[" });
                        out.push_str(set);
                        out.push(']');
                    }
                    (None, false, 'b' | 'B') => {
                        out.push_str("(?-u:\\");
                        out.push(e);
                        out.push(')');
                    }
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '[' => {
                out.push('[');
                if depth > 0 && chars.peek() == Some(&':') {
                    // A POSIX class such as [:alpha:]: copied up to its closing ":]".
                    let mut prev = '[';
                    for d in chars.by_ref() {
                        out.push(d);
                        if prev == ':' && d == ']' {
                            break;
                        }
                        prev = d;
                    }
                    continue;
                }
                depth += 1;
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                // A ']' first in a class is a literal.
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            ']' if depth > 0 => {
                depth -= 1;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Compiles `pattern` (InvalidArgumentError when it is not a valid regular expression).
fn compile(pattern: &str) -> Result<Regex> {
    RegexBuilder::new(&re2_to_regex(pattern))
        .size_limit(1 << 24)
        .build()
        .map_err(|e| {
            invalid_arg!(
                "invalid pattern '{}': {}",
                pattern.escape_default(),
                e.to_string().lines().last().unwrap_or("syntax error")
            )
        })
}

/// One piece of an RE2 rewrite string.
enum Piece<'a> {
    Text(&'a [u8]),
    Group(usize),
}

/// Parses an RE2 rewrite: `\0` … `\9` are groups, `\\` is a backslash. `None` when it is
/// malformed (a backslash before anything else), which RE2 refuses.
fn parse_rewrite(rewrite: &[u8]) -> Option<Vec<Piece<'_>>> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < rewrite.len() {
        if rewrite[i] == b'\\' {
            out.push(Piece::Text(&rewrite[start..i]));
            match rewrite.get(i + 1) {
                Some(&d) if d.is_ascii_digit() => out.push(Piece::Group((d - b'0') as usize)),
                Some(b'\\') => out.push(Piece::Text(b"\\")),
                _ => return None,
            }
            i += 2;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push(Piece::Text(&rewrite[start..]));
    Some(out)
}

fn expand(pieces: &[Piece<'_>], caps: &Captures<'_>, out: &mut Vec<u8>) {
    for p in pieces {
        match p {
            Piece::Text(t) => out.extend_from_slice(t),
            Piece::Group(g) => {
                if let Some(m) = caps.get(*g) {
                    out.extend_from_slice(m.as_bytes());
                }
            }
        }
    }
}

/// `tf.strings.regex_replace(input, pattern, rewrite, replace_global)`: every match (or the
/// first) replaced by `rewrite`, in which `\1` is a group and `\0` the whole match. As in
/// RE2, a rewrite that names a group the pattern lacks, or is malformed, changes nothing.
pub fn regex_replace(a: &Array, pattern: &str, rewrite: &[u8], global: bool) -> Result<Array> {
    let re = compile(pattern)?;
    let pieces = parse_rewrite(rewrite).filter(|p| {
        p.iter().all(|x| match x {
            Piece::Group(g) => *g < re.captures_len(),
            Piece::Text(_) => true,
        })
    });
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.regex_replace")?;
        let mut out =
            StringBuf::try_with_capacity("tf.strings.regex_replace", col.len(), col.bytes().len())?;
        let mut buf: Vec<u8> = Vec::new();
        let mut total: u128 = 0;
        for (k, s) in col.iter().enumerate() {
            if k % 1024 == 0 {
                interrupt::check()?;
            }
            let Some(pieces) = &pieces else {
                out.push(s);
                continue;
            };
            buf.clear();
            let mut last = 0;
            for caps in re.captures_iter(s) {
                let m = caps.get(0).expect("group 0 always matches");
                buf.extend_from_slice(&s[last..m.start()]);
                expand(pieces, &caps, &mut buf);
                last = m.end();
                if buf.len() > (1 << 20) {
                    check_bytes("tf.strings.regex_replace", total + buf.len() as u128)?;
                }
                if !global {
                    break;
                }
            }
            buf.extend_from_slice(&s[last..]);
            total += buf.len() as u128;
            check_bytes("tf.strings.regex_replace", total)?;
            out.push(&buf);
        }
        Ok(same_shape(t, Buffer::Str(out)))
    })
}

/// `tf.strings.regex_full_match(input, pattern)`: whether each whole string matches.
pub fn regex_full_match(a: &Array, pattern: &str) -> Result<Array> {
    compile(pattern)?;
    let re = compile(&format!(r"\A(?:{pattern})\z"))?;
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.regex_full_match")?;
        let mut out = budget::vec("tf.strings.regex_full_match", col.len())?;
        for (k, s) in col.iter().enumerate() {
            if k % 1024 == 0 {
                interrupt::check()?;
            }
            out.push(re.is_match(s));
        }
        Ok(same_shape(t, Buffer::from(out)))
    })
}
