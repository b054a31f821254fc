//! Python's regular expression syntax read for the `regex` crate: the flags as inline
//! groups, `\Z` as `\z`, `{` that is not a repetition as a literal, `[` inside a class as
//! a literal, `{,n}` as `{0,n}`. What the crate cannot run (backreferences, look-ahead and
//! look-behind) is refused with a message naming it; the crate's own syntax errors are
//! passed on.

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
    static CACHE: RefCell<HashMap<(String, i64, Anchor), Arc<regex::Regex>>> =
        RefCell::new(HashMap::new());
}

/// The compiled form of `pattern` with `flags`, from a cache of the last few hundred.
pub fn compiled(pattern: &str, flags: i64, anchor: Anchor) -> Result<Arc<regex::Regex>, String> {
    let key = (pattern.to_string(), flags, anchor);
    if let Some(r) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(r);
    }
    let mut text = translate(pattern, flags)?;
    if anchor == Anchor::End {
        text = format!("(?:{text})\\z");
    }
    let re = regex::Regex::new(&text).map_err(|e| match e {
        regex::Error::Syntax(s) => s
            .lines()
            .rev()
            .find(|l| l.starts_with("error:"))
            .map_or(s.clone(), |l| l.trim_start_matches("error: ").to_string()),
        other => other.to_string(),
    })?;
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

/// Whether `chars[i..]` starts a repetition `{n}`, `{n,}`, `{n,m}` or `{,m}`; its end.
fn repetition(chars: &[char], i: usize) -> Option<usize> {
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
                match n {
                    'Z' if !in_class => out.push_str("\\z"),
                    '1'..='9' if !in_class => {
                        return Err(format!(
                        "backreferences (\\{n}) are not supported by ragtag's re, at position {i}"
                    ))
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
                let rest: String = chars[i + 2..].iter().take(3).collect();
                if rest.starts_with("P=") {
                    return Err(format!(
                        "backreferences ((?P=name)) are not supported by ragtag's re, at position {i}"
                    ));
                }
                if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                {
                    return Err(format!(
                        "look-ahead and look-behind assertions are not supported by ragtag's re, at position {i}"
                    ));
                }
                if rest.starts_with('#') {
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
