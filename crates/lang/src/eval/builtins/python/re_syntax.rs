//! Python's regular expression syntax read for the `fancy-regex` crate (which hands what
//! needs no backtracking to `regex`): the flags as inline groups, `\Z` as `\z`, `$` as
//! Python's (the end, or before a newline that ends the string), `{` that is not a
//! repetition as a literal, `[` inside a class as a literal, `{,n}` as `{0,n}`.
//! Backreferences, look-ahead, look-behind, atomic groups and possessive repetitions are
//! passed through; the crate's own syntax errors are passed on.

use std::collections::HashMap;
use std::sync::Arc;

use std::cell::RefCell;

/// `re`'s flags, as CPython numbers them.
pub const IGNORECASE: i64 = 2;
pub const LOCALE: i64 = 4;
pub const MULTILINE: i64 = 8;
pub const DOTALL: i64 = 16;
pub const UNICODE: i64 = 32;
pub const VERBOSE: i64 = 64;
pub const ASCII: i64 = 256;

/// How a compiled pattern is anchored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// Found anywhere (`search`; `match` checks where it starts).
    None,
    /// Must reach the end (`fullmatch`).
    End,
}

thread_local! {
    static CACHE: RefCell<HashMap<(String, i64, Anchor), Arc<Regex>>> =
        RefCell::new(HashMap::new());
}

/// A compiled pattern.
pub type Regex = fancy_regex::Regex;

/// How many backtracking steps one search may take before it fails with an error, where
/// CPython would run on for as long as the pattern's catastrophic backtracking lasts.
const BACKTRACK_LIMIT: usize = 10_000_000;

/// The compiled form of `pattern` with `flags`, from a cache of the last few hundred.
pub fn compiled(pattern: &str, flags: i64, anchor: Anchor) -> Result<Arc<Regex>, String> {
    let key = (pattern.to_string(), flags, anchor);
    if let Some(r) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(r);
    }
    super::re_check::check(pattern, (flags | leading_flags(pattern)) & VERBOSE != 0)?;
    let mut text = translate(pattern, flags)?;
    if anchor == Anchor::End {
        text = format!("(?:{text})\\z");
    }
    let re = fancy_regex::RegexBuilder::new(&text)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map_err(compile_message)?;
    let re = Arc::new(re);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 512 {
            c.clear();
        }
        c.insert(key, re.clone());
    });
    Ok(re)
}

/// The message of a pattern the crate refuses: the `regex` crate's own line when it is the
/// one that refused, else the crate's description.
fn compile_message(e: fancy_regex::Error) -> String {
    use fancy_regex::{CompileError as E, Error};
    if let Error::CompileError(c) = &e {
        if matches!(
            **c,
            E::LookBehindNotConst | E::VariableLookBehindRequiresFeature
        ) {
            return "look-behind requires fixed-width pattern".into();
        }
    }
    let text = e.to_string();
    text.lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .map_or(text.clone(), |l| {
            l.trim_start_matches("error: ").to_string()
        })
}

/// The spans of the first match of `re` in `s` at or after byte `pos` (each group's byte
/// span, None for a group that took no part); an error when the search backtracked past
/// [`BACKTRACK_LIMIT`].
pub fn captures_at(re: &Regex, s: &str, pos: usize) -> Result<Option<Spans>, String> {
    match re.captures_from_pos(s, pos) {
        Ok(found) => Ok(found.map(|c| c.iter().map(|g| g.map(|m| (m.start(), m.end()))).collect())),
        Err(fancy_regex::Error::RuntimeError(_)) => Err(format!(
            "the pattern backtracked more than {BACKTRACK_LIMIT} steps on this string (CPython \
             would run on until it ends); a pattern without nested repetitions of the same \
             text avoids it"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// One match: each group's byte span, None for a group that took no part.
pub type Spans = Vec<Option<(usize, usize)>>;

/// The flags set by inline groups at the start of `pattern` (`(?m)`, `(?si)`), where
/// Python allows global flags.
fn leading_flags(pattern: &str) -> i64 {
    let mut flags = 0;
    let mut rest = pattern;
    while let Some(body) = rest.strip_prefix("(?") {
        let Some(end) = body.find(')') else { break };
        let letters = &body[..end];
        if letters.is_empty() || !letters.chars().all(|c| "aiLmsux".contains(c)) {
            break;
        }
        for c in letters.chars() {
            flags |= match c {
                'i' => IGNORECASE,
                'm' => MULTILINE,
                's' => DOTALL,
                'x' => VERBOSE,
                'a' => ASCII,
                'L' => LOCALE,
                _ => UNICODE,
            };
        }
        rest = &body[end + 1..];
    }
    flags
}

/// Whether `chars[i..]` starts a repetition `{n}`, `{n,}`, `{n,m}` or `{,m}`; its end.
pub(super) fn repetition(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let digits = |j: &mut usize| {
        let s = *j;
        while chars.get(*j).is_some_and(char::is_ascii_digit) {
            *j += 1;
        }
        *j > s
    };
    let lo = digits(&mut j);
    if chars.get(j) == Some(&',') {
        j += 1;
        let hi = digits(&mut j);
        if !lo && !hi {
            return None;
        }
    } else if !lo {
        return None;
    }
    (chars.get(j) == Some(&'}')).then_some(j)
}

/// An octal escape at `chars[i]` (a backslash): `\0` with up to two more octal digits,
/// three octal digits, or in a set any one to three; its code and where it ends. Other
/// digits after a backslash outside a set are a group reference.
pub(super) fn octal(chars: &[char], i: usize, in_class: bool) -> Option<(u32, usize)> {
    let is_octal = |j: usize| chars.get(j).is_some_and(|c| ('0'..='7').contains(c));
    let first = *chars.get(i + 1)?;
    let len = if first == '0' || in_class {
        if !is_octal(i + 1) {
            return None;
        }
        1 + usize::from(is_octal(i + 2)) + usize::from(is_octal(i + 2) && is_octal(i + 3))
    } else if first <= '3' && is_octal(i + 1) && is_octal(i + 2) && is_octal(i + 3) {
        3
    } else {
        return None;
    };
    let digits: String = chars[i + 1..i + 1 + len].iter().collect();
    Some((u32::from_str_radix(&digits, 8).ok()?, i + 1 + len))
}

/// `pattern` in the crate's syntax, with `flags` as an inline group.
pub fn translate(pattern: &str, flags: i64) -> Result<String, String> {
    let mut out = String::new();
    let mut inline = String::new();
    if flags & IGNORECASE != 0 {
        inline.push('i');
    }
    if flags & MULTILINE != 0 {
        inline.push('m');
    }
    if flags & DOTALL != 0 {
        inline.push('s');
    }
    if flags & VERBOSE != 0 {
        inline.push('x');
    }
    if !inline.is_empty() {
        out.push_str(&format!("(?{inline})"));
    }
    let multiline = (flags | leading_flags(pattern)) & MULTILINE != 0;
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&n) = chars.get(i + 1) else {
                    return Err(format!("bad escape (end of pattern) at position {i}"));
                };
                if let Some((code, end)) = octal(&chars, i, in_class) {
                    out.push_str(&format!("\\x{{{code:x}}}"));
                    i = end;
                    continue;
                }
                match n {
                    'Z' if !in_class => out.push_str("\\z"),
                    // Any other character escaped is itself (the crate reads `\\<` as a word
                    // boundary).
                    n if !n.is_ascii_alphanumeric() => {
                        out.push_str(&format!("\\x{{{:x}}}", u32::from(n)));
                    }
                    _ => {
                        out.push('\\');
                        out.push(n);
                    }
                }
                i += 2;
                continue;
            }
            '[' if in_class => out.push_str("\\["),
            '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            '[' => {
                in_class = true;
                out.push('[');
                // A `]` or `^]` right after the opening bracket is a literal.
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                if chars.get(i + 2) == Some(&'#') {
                    // A comment group: skipped.
                    while i < chars.len() && chars[i] != ')' {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                out.push('(');
            }
            '{' if !in_class => match repetition(&chars, i) {
                Some(end) => {
                    let body: String = chars[i + 1..end].iter().collect();
                    if body.starts_with(',') {
                        out.push_str(&format!("{{0{body}}}"));
                    } else {
                        out.push('{');
                        out.push_str(&body);
                        out.push('}');
                    }
                    i = end + 1;
                    continue;
                }
                None => out.push_str("\\{"),
            },
            '}' if !in_class => out.push_str("\\}"),
            // Python's `$` also matches before a newline that ends the string.
            '$' if !in_class && !multiline => out.push_str("(?=\\n?\\z)"),
            _ => out.push(c),
        }
        i += 1;
    }
    Ok(out)
}

/// `re.escape`: the characters special in a pattern (CPython 3.7's set) get a backslash.
pub fn escape(s: &str) -> String {
    const SPECIAL: &str = "()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c";
    let mut out = String::new();
    for c in s.chars() {
        if SPECIAL.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
