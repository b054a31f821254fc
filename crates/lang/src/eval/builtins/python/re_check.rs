//! CPython's `re.error` for a pattern it refuses, found before the pattern reaches the
//! matching crate (whose own messages name its syntax, not Python's): unbalanced
//! parentheses, an unterminated character set, a bad escape, a repetition with nothing to
//! repeat or after another, a bad range, a group reference to no group or to an open one,
//! a bad or repeated group name, an unknown extension, global flags after the start.
//! Positions count characters from the start of the pattern, as CPython's do.

/// The first error CPython's parser reports for `pattern`, if any. `verbose` is the
/// `re.VERBOSE` flag (whitespace and `#` comments outside sets are ignored).
pub fn check(pattern: &str, verbose: bool) -> Result<(), String> {
    let chars: Vec<char> = pattern.chars().collect();
    // CPython's reader looks one character ahead, so a lone backslash that ends the pattern
    // is reported before an error in what comes just before it.
    let trailing = chars.iter().rev().take_while(|c| **c == '\\').count() % 2 == 1;
    let at_end = |e: String| match e
        .rsplit_once("at position ")
        .map(|(_, n)| n.parse::<usize>())
    {
        Some(Ok(p))
            if trailing
                && p + 2 + usize::from(e.starts_with("unknown extension")) >= chars.len() =>
        {
            format!(
                "bad escape (end of pattern) at position {}",
                chars.len() - 1
            )
        }
        _ => e,
    };
    Checker {
        chars: &chars,
        verbose,
        open: Vec::new(),
        groups: 0,
        names: Vec::new(),
        repeatable: false,
        repeated: false,
        flags_allowed: true,
    }
    .run()
    .map_err(at_end)
}

struct Checker<'a> {
    chars: &'a [char],
    verbose: bool,
    /// The open groups: where each starts and its number (None for one that captures
    /// nothing).
    open: Vec<(usize, Option<usize>)>,
    /// How many capturing groups have been opened.
    groups: usize,
    /// Each named group's name and number.
    names: Vec<(String, usize)>,
    /// Whether the last item can take a repetition.
    repeatable: bool,
    /// Whether the last item is a repetition (another right after it is an error).
    repeated: bool,
    /// Whether global flags (`(?i)`) may still come.
    flags_allowed: bool,
}

impl Checker<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.chars.get(i).copied()
    }

    fn run(mut self) -> Result<(), String> {
        let mut i = 0;
        while i < self.chars.len() {
            let c = self.chars[i];
            if self.verbose && c.is_whitespace() {
                i += 1;
                continue;
            }
            if self.verbose && c == '#' {
                while i < self.chars.len() && self.chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            let global_flags = c == '(' && self.global_flags_end(i).is_some();
            if !global_flags {
                self.flags_allowed = false;
            }
            i = match c {
                '(' => self.group(i)?,
                ')' => {
                    if self.open.pop().is_none() {
                        return Err(format!("unbalanced parenthesis at position {i}"));
                    }
                    self.item(true);
                    i + 1
                }
                '|' => {
                    self.item(false);
                    i + 1
                }
                '^' | '$' => {
                    self.item(false);
                    i + 1
                }
                '[' => {
                    let end = self.set(i)?;
                    self.item(true);
                    end
                }
                '\\' => self.escape(i)?,
                '*' | '+' | '?' => self.repeat(i, i + 1)?,
                '{' => match super::re_syntax::repetition(self.chars, i) {
                    Some(end) => {
                        self.bounds(i, end)?;
                        self.repeat(i, end + 1)?
                    }
                    None => {
                        self.item(true);
                        i + 1
                    }
                },
                _ => {
                    self.item(true);
                    i + 1
                }
            };
        }
        match self.open.last() {
            Some((at, _)) => Err(format!(
                "missing ), unterminated subpattern at position {at}"
            )),
            None => Ok(()),
        }
    }

    fn item(&mut self, repeatable: bool) {
        self.repeatable = repeatable;
        self.repeated = false;
    }

    /// A repetition at `i` whose text ends before `end`; the position after it and its
    /// `?` (lazy) or `+` (possessive) modifier.
    fn repeat(&mut self, i: usize, end: usize) -> Result<usize, String> {
        if self.repeated {
            return Err(format!("multiple repeat at position {i}"));
        }
        if !self.repeatable {
            return Err(format!("nothing to repeat at position {i}"));
        }
        self.repeatable = false;
        self.repeated = true;
        Ok(match self.at(end) {
            Some('?' | '+') => end + 1,
            _ => end,
        })
    }

    /// `{m,n}` from `i` to the `}` at `end`: CPython's error when `m` exceeds `n`.
    fn bounds(&self, i: usize, end: usize) -> Result<(), String> {
        let body: String = self.chars[i + 1..end].iter().collect();
        if let Some((lo, hi)) = body.split_once(',') {
            if let (Ok(lo), Ok(hi)) = (lo.parse::<u64>(), hi.parse::<u64>()) {
                if lo > hi {
                    return Err(format!(
                        "min repeat greater than max repeat at position {}",
                        i + 1
                    ));
                }
            }
        }
        Ok(())
    }

    /// Where global flags `(?imsx)` starting at `i` end, when the group is one.
    fn global_flags_end(&self, i: usize) -> Option<usize> {
        if self.at(i + 1) != Some('?') {
            return None;
        }
        let mut j = i + 2;
        while self.at(j).is_some_and(|c| "aiLmsux".contains(c)) {
            j += 1;
        }
        (j > i + 2 && self.at(j) == Some(')')).then_some(j + 1)
    }

    /// A group opening at `i`; the position after what was read.
    fn group(&mut self, i: usize) -> Result<usize, String> {
        if self.at(i + 1) != Some('?') {
            self.groups += 1;
            self.open.push((i, Some(self.groups)));
            self.item(false);
            return Ok(i + 1);
        }
        let Some(kind) = self.at(i + 2) else {
            return Err(format!("unexpected end of pattern at position {}", i + 2));
        };
        if let Some(end) = self.global_flags_end(i) {
            if !self.flags_allowed {
                return Err(format!(
                    "global flags not at the start of the expression at position {i}"
                ));
            }
            self.item(false);
            return Ok(end);
        }
        let open = |me: &mut Self, number: Option<usize>, after: usize| {
            me.open.push((i, number));
            me.item(false);
            Ok(after)
        };
        match kind {
            ':' | '>' | '=' | '!' => open(self, None, i + 3),
            '<' if matches!(self.at(i + 3), Some('=' | '!')) => open(self, None, i + 4),
            '#' => {
                let mut j = i + 3;
                while self.at(j).is_some_and(|c| c != ')') {
                    j += 1;
                }
                if j >= self.chars.len() {
                    return Err(format!("missing ), unterminated comment at position {i}"));
                }
                Ok(j + 1)
            }
            'P' if self.at(i + 3) == Some('<') => {
                let (name, after) = self.name(i + 4, '>')?;
                if let Some((_, was)) = self.names.iter().find(|(n, _)| *n == name) {
                    return Err(format!(
                        "redefinition of group name '{name}' as group {}; was group {was} at position {}",
                        self.groups + 1,
                        i + 4
                    ));
                }
                self.groups += 1;
                self.names.push((name, self.groups));
                open(self, Some(self.groups), after)
            }
            'P' if self.at(i + 3) == Some('=') => {
                let (name, after) = self.name(i + 4, ')')?;
                match self.names.iter().find(|(n, _)| *n == name) {
                    None => Err(format!("unknown group name '{name}' at position {}", i + 4)),
                    Some((_, g)) if self.is_open(*g) => Err(format!(
                        "cannot refer to an open group at position {}",
                        i + 4
                    )),
                    Some(_) => {
                        self.item(true);
                        Ok(after)
                    }
                }
            }
            '(' => {
                let (id, after) = self.name(i + 3, ')')?;
                match id.parse::<usize>() {
                    Ok(g) if g == 0 || g > self.groups => {
                        Err(format!("invalid group reference {g} at position {}", i + 3))
                    }
                    Ok(_) => open(self, None, after),
                    Err(_) if self.names.iter().any(|(n, _)| *n == id) => open(self, None, after),
                    Err(_) => Err(format!("unknown group name '{id}' at position {}", i + 3)),
                }
            }
            c if "aiLmsux-".contains(c) => {
                // Scoped flags `(?i:…)`.
                let mut j = i + 2;
                while self.at(j).is_some_and(|c| "aiLmsux-".contains(c)) {
                    j += 1;
                }
                match self.at(j) {
                    Some(':') => open(self, None, j + 1),
                    Some(_) => Err(format!("unknown flag at position {j}")),
                    None => Err(format!("missing -, : or ) at position {j}")),
                }
            }
            c => {
                let shown: String = if c == 'P' || c == '<' {
                    self.chars[i + 1..(i + 4).min(self.chars.len())]
                        .iter()
                        .collect()
                } else {
                    ['?', c].iter().collect()
                };
                Err(format!("unknown extension {shown} at position {}", i + 1))
            }
        }
    }

    fn is_open(&self, group: usize) -> bool {
        self.open.iter().any(|(_, g)| *g == Some(group))
    }

    /// A group name or id from `from` to the `close` character; the name and the position
    /// after `close`.
    fn name(&self, from: usize, close: char) -> Result<(String, usize), String> {
        let mut j = from;
        while self.at(j).is_some_and(|c| c != close) {
            j += 1;
        }
        if j >= self.chars.len() {
            return Err(format!(
                "missing {close}, unterminated name at position {from}"
            ));
        }
        let name: String = self.chars[from..j].iter().collect();
        if name.is_empty() {
            return Err(format!("missing group name at position {from}"));
        }
        let ident = name
            .chars()
            .next()
            .is_some_and(|c| c == '_' || c.is_alphabetic())
            && name.chars().all(|c| c == '_' || c.is_alphanumeric());
        if !ident && (close == ')' && self.at(from.wrapping_sub(1)) == Some('(')) {
            // A conditional's id may be a group number.
            if name.chars().all(|c| c.is_ascii_digit()) {
                return Ok((name, j + 1));
            }
        }
        if !ident {
            return Err(format!(
                "bad character in group name '{name}' at position {from}"
            ));
        }
        Ok((name, j + 1))
    }

    /// An escape at `i` outside a set; the position after it.
    fn escape(&mut self, i: usize) -> Result<usize, String> {
        let Some(n) = self.at(i + 1) else {
            return Err(format!("bad escape (end of pattern) at position {i}"));
        };
        if let Some((_, end)) = super::re_syntax::octal(self.chars, i, false) {
            self.item(true);
            return Ok(end);
        }
        match n {
            '1'..='9' => {
                let mut j = i + 1;
                let mut digits = String::new();
                while digits.len() < 2 && self.at(j).is_some_and(|c| c.is_ascii_digit()) {
                    digits.push(self.chars[j]);
                    j += 1;
                }
                let g: usize = digits.parse().unwrap_or(0);
                if g > self.groups {
                    return Err(format!("invalid group reference {g} at position {}", i + 1));
                }
                if self.is_open(g) {
                    return Err(format!("cannot refer to an open group at position {i}"));
                }
                self.item(true);
                Ok(j)
            }
            'A' | 'b' | 'B' | 'Z' => {
                self.item(false);
                Ok(i + 2)
            }
            _ => {
                let end = self.plain_escape(i, false)?;
                self.item(true);
                Ok(end)
            }
        }
    }

    /// An escape at `i` that stands for characters (in a set when `in_set`); the position
    /// after it.
    fn plain_escape(&self, i: usize, in_set: bool) -> Result<usize, String> {
        let Some(n) = self.at(i + 1) else {
            return Err(format!("bad escape (end of pattern) at position {i}"));
        };
        if let Some((_, end)) = super::re_syntax::octal(self.chars, i, in_set) {
            return Ok(end);
        }
        let hex = |len: usize| -> Result<usize, String> {
            let digits = (0..len)
                .take_while(|k| self.at(i + 2 + k).is_some_and(|c| c.is_ascii_hexdigit()))
                .count();
            if digits < len {
                let text: String = self.chars[i..i + 2 + digits].iter().collect();
                return Err(format!("incomplete escape {text} at position {i}"));
            }
            Ok(i + 2 + len)
        };
        match n {
            'x' => hex(2),
            'u' => hex(4),
            'U' => hex(8),
            'a' | 'f' | 'n' | 'r' | 't' | 'v' | 'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'N' | '0' => {
                Ok(i + 2)
            }
            'b' if in_set => Ok(i + 2),
            c if c.is_ascii_alphanumeric() => Err(format!("bad escape \\{c} at position {i}")),
            _ => Ok(i + 2),
        }
    }

    /// A set `[…]` opening at `i`; the position after its `]`.
    fn set(&self, i: usize) -> Result<usize, String> {
        let mut j = i + 1;
        if self.at(j) == Some('^') {
            j += 1;
        }
        let mut first = true;
        loop {
            let Some(c) = self.at(j) else {
                return Err(format!("unterminated character set at position {i}"));
            };
            if c == ']' && !first {
                return Ok(j + 1);
            }
            first = false;
            let start = j;
            let single = if c == '\\' {
                let end = self.plain_escape(j, true)?;
                let single = self.escaped_char(j, end);
                j = end;
                single
            } else {
                j += 1;
                Some(c)
            };
            if self.at(j) == Some('-') && self.at(j + 1).is_some_and(|c| c != ']') {
                let hi_start = j + 1;
                let (hi, after) = if self.at(hi_start) == Some('\\') {
                    let end = self.plain_escape(hi_start, true)?;
                    (self.escaped_char(hi_start, end), end)
                } else {
                    (self.at(hi_start), hi_start + 1)
                };
                let range: String = self.chars[start..after].iter().collect();
                match (single, hi) {
                    (Some(lo), Some(hi)) if lo <= hi => {}
                    _ => return Err(format!("bad character range {range} at position {start}")),
                }
                j = after;
            }
        }
    }

    /// The one character an escape from `i` to `end` stands for, None for a class such as
    /// `\d`.
    fn escaped_char(&self, i: usize, end: usize) -> Option<char> {
        let n = self.at(i + 1)?;
        let code = |from: usize| {
            let s: String = self.chars[from..end].iter().collect();
            u32::from_str_radix(&s, 16).ok().and_then(char::from_u32)
        };
        if let Some((code, _)) = super::re_syntax::octal(self.chars, i, true) {
            return char::from_u32(code);
        }
        match n {
            'x' | 'u' | 'U' => code(i + 2),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'f' => Some('\x0c'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\x0b'),
            c if c.is_ascii_alphanumeric() => None,
            c => Some(c),
        }
    }
}
