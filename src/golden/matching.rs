//! Matching an input's output against its expected block: wildcards (`...` alone on a line,
//! `[..]` within one, a ` (re)` suffix, the placeholders `[TIME]` and `[PATH]`) and numbers
//! within a tolerance that follows the block's dtype.
//!
//! Matching *normalises* the actual output to the expected one, as snapbox does: every
//! actual line that a pattern (or a number within tolerance) matches is replaced by the
//! expected line, and the lines a `...` absorbs by the `...` itself. The result equals the
//! expected block exactly when everything matched; otherwise it is what blessing writes, so
//! only the lines that really differ are rewritten and the wildcards stay as they were.

use regex::Regex;

use super::directive::{default_rtol, Settings};
use super::parse::{is_wildcard_line, ESCAPE};

/// The suffix of a regex line.
const REGEX_SUFFIX: &str = " (re)";
/// Any text within a line.
const ANY_TEXT: &str = "[..]";
/// The named placeholders and what each stands for.
const PLACEHOLDERS: [(&str, &str); 2] = [
    // A duration as ragtag prints one: `0.019 ms`, `1.2 s`, `3 µs`.
    (
        "[TIME]",
        r"[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)? ?(?:ns|µs|us|ms|s|min)",
    ),
    // A file path without spaces.
    ("[PATH]", r"\S+"),
];

/// Above this many line pairs an output is matched line by line in order, without looking
/// for the best alignment (a block of a thousand lines on each side; the table of scores is
/// 4 MB, as the text diff's).
const MAX_ALIGN_CELLS: usize = 1_000_000;

/// True when `line`, written in an expected block, is a pattern rather than literal text.
pub fn is_pattern(line: &str) -> bool {
    is_wildcard_line(line)
        || line.ends_with(REGEX_SUFFIX)
        || line.contains(ANY_TEXT)
        || PLACEHOLDERS.iter().any(|(name, _)| line.contains(name))
}

/// Checks that a regex line compiles, so a bad pattern is reported with its line when the
/// transcript is read.
pub fn check_pattern(line: &str, settings: &Settings) -> Result<(), String> {
    match Pattern::new(line, &settings.placeholders) {
        Pattern::Bad(e) => Err(e),
        _ => Ok(()),
    }
}

/// One expected line, ready to match.
enum Pattern {
    /// `...`: any number of lines, none included.
    AnyLines,
    /// Matches a whole line.
    Regex(Regex),
    /// A ` (re)` line whose regex does not compile.
    Bad(String),
    /// Literal text, with numbers compared within a tolerance.
    Text,
}

impl Pattern {
    fn new(line: &str, own: &[(String, String)]) -> Pattern {
        if line.starts_with(ESCAPE) {
            return Pattern::Text;
        }
        if is_wildcard_line(line) {
            return Pattern::AnyLines;
        }
        let source = if let Some(re) = line.strip_suffix(REGEX_SUFFIX) {
            re.to_string()
        } else if is_pattern(line) || own.iter().any(|(name, _)| line.contains(name.as_str())) {
            let mut re = regex::escape(line);
            for (name, stands_for) in PLACEHOLDERS {
                re = re.replace(&regex::escape(name), stands_for);
            }
            for (name, stands_for) in own {
                re = re.replace(&regex::escape(name), &format!("(?:{stands_for})"));
            }
            re.replace(&regex::escape(ANY_TEXT), ".*?")
        } else {
            return Pattern::Text;
        };
        match Regex::new(&format!("^(?:{source})$")) {
            Ok(r) => Pattern::Regex(r),
            Err(e) => Pattern::Bad(format!("the regex of this ` (re)` line is invalid: {e}")),
        }
    }
}

/// The tolerance one expected line's numbers are compared with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Relative.
    pub rtol: f64,
    /// Absolute.
    pub atol: f64,
    /// The dtype it follows from, for reports.
    pub dtype: Option<&'static str>,
    /// Floats match at the decimals the expected one is written with.
    pub as_written: bool,
}

/// The dtype named by the last `dtype=` annotation in `line`, if any.
fn dtype_in(line: &str) -> Option<&'static str> {
    const KNOWN: [&str; 5] = ["float16", "bfloat16", "float32", "float64", "complex64"];
    let at = line.rfind("dtype=")?;
    let rest = &line[at + "dtype=".len()..];
    let rest = rest.strip_prefix("tf.").unwrap_or(rest);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    KNOWN
        .into_iter()
        .find(|k| *k == word)
        .or(line.contains("dtype=").then_some("other"))
}

/// The tolerance of each expected line: the dtype of the last `dtype=` annotation at or
/// above it in the block, and the settings' overrides.
pub fn tolerances(expected: &[String], settings: &Settings) -> Vec<Tolerance> {
    let mut dtype = None;
    expected
        .iter()
        .map(|l| {
            if let Some(d) = dtype_in(l) {
                dtype = Some(d);
            }
            let known = dtype.filter(|d| *d != "other");
            Tolerance {
                rtol: settings.rtol.unwrap_or_else(|| default_rtol(known)),
                atol: settings.atol.unwrap_or(0.0),
                dtype: known,
                as_written: settings.as_written.unwrap_or(false),
            }
        })
        .collect()
}

/// A piece of a line: a number or the text between numbers.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    /// A number as written.
    Number(&'a str),
    /// Text, with every run of spaces or of horizontal box lines counted as one (a longer
    /// number widens its table column).
    Text(String),
}

/// Where a number starts at `i`, how long it is.
fn number_at(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.') {
        return None;
    }
    for word in ["nan", "-nan", "inf", "-inf"] {
        let end = i + word.len();
        if b[i..].starts_with(word.as_bytes())
            && b.get(end).is_none_or(|c| !c.is_ascii_alphanumeric())
        {
            return Some(word.len());
        }
    }
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let digits = |j: &mut usize| {
        let start = *j;
        while b.get(*j).is_some_and(u8::is_ascii_digit) {
            *j += 1;
        }
        *j - start
    };
    let mut n = digits(&mut j);
    if b.get(j) == Some(&b'.') {
        j += 1;
        n += digits(&mut j);
    }
    if n == 0 {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'-' | b'+')) {
            k += 1;
        }
        if digits(&mut k) > 0 {
            j = k;
        }
    }
    if b.get(j)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    Some(j - i)
}

fn tokens(line: &str) -> Vec<Token<'_>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(n) = number_at(b, i) {
            if !text.is_empty() {
                out.push(Token::Text(std::mem::take(&mut text)));
            }
            out.push(Token::Number(&line[i..i + n]));
            i += n;
            continue;
        }
        let c = line[i..].chars().next().expect("i is on a char boundary");
        let squeezed = c == ' ' || c == '─' || c == '═';
        if !(squeezed && text.ends_with(c)) {
            text.push(c);
        }
        i += c.len_utf8();
    }
    if !text.is_empty() {
        out.push(Token::Text(text));
    }
    out
}

/// True for a number written without a fraction or exponent.
pub fn is_integer(n: &str) -> bool {
    n.bytes().all(|c| c.is_ascii_digit() || c == b'-')
}

/// The decimals a float is written with (`2.83`: 2), when it has a fraction and no
/// exponent.
fn decimals(n: &str) -> Option<i32> {
    if n.contains(['e', 'E']) {
        return None;
    }
    let (_, fraction) = n.split_once('.')?;
    i32::try_from(fraction.len()).ok()
}

/// Two numbers as printed are equal within `tol`: integers exactly, NaN equals NaN,
/// infinities by sign, others when `|a - b| <= atol + rtol * max(|a|, |b|)` or, with
/// precision as written, when `b` rounds to the expected `a` at `a`'s decimals.
pub(crate) fn close(a: &str, b: &str, tol: Tolerance) -> bool {
    if a == b {
        return true;
    }
    if is_integer(a) || is_integer(b) {
        return false;
    }
    let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>()) else {
        return false;
    };
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x.is_infinite() || y.is_infinite() {
        return x == y;
    }
    let within = (x - y).abs() <= tol.atol + tol.rtol * x.abs().max(y.abs());
    // Half a unit in the last written place, and a hair more for the binary error of the
    // decimal numbers themselves.
    let rounds = tol.as_written
        && decimals(a).is_some_and(|d| (x - y).abs() <= 0.5 * 10f64.powi(-d) * (1.0 + 1e-9));
    within || rounds
}

/// The first pair of numbers in two lines of the same shape that are not equal within the
/// tolerance (`None` when the lines differ in their text, or match).
pub fn first_number_difference<'a>(
    expected: &'a str,
    actual: &'a str,
    tol: Tolerance,
) -> Option<(&'a str, &'a str)> {
    let (e, a) = (tokens(expected), tokens(actual));
    if e.len() != a.len() {
        return None;
    }
    let mut first = None;
    for (x, y) in e.iter().zip(&a) {
        match (x, y) {
            (Token::Number(x), Token::Number(y)) => {
                if first.is_none() && !close(x, y, tol) {
                    first = Some((*x, *y));
                }
            }
            (x, y) if x == y => {}
            _ => return None,
        }
    }
    first
}

/// One expected line matches one actual line (their tokens computed once per line).
fn line_matches(
    pattern: &Pattern,
    (expected, e): (&str, &[Token<'_>]),
    (actual, a): (&str, &[Token<'_>]),
    tol: Tolerance,
) -> bool {
    if expected == actual {
        return true;
    }
    match pattern {
        Pattern::AnyLines => false,
        Pattern::Regex(r) => r.is_match(actual),
        Pattern::Bad(_) => false,
        Pattern::Text => {
            e.len() == a.len()
                && e.iter().zip(a).all(|(x, y)| match (x, y) {
                    (Token::Number(x), Token::Number(y)) => close(x, y, tol),
                    (x, y) => x == y,
                })
        }
    }
}

/// The actual output normalised to the expected block (both as written in a transcript:
/// escaped): equal to `expected` when everything matches, else the expected lines where
/// they match and the actual ones where they do not.
pub fn normalize(expected: &[String], actual: &[String], settings: &Settings) -> Vec<String> {
    if expected == actual {
        return expected.to_vec();
    }
    let patterns: Vec<Pattern> = expected
        .iter()
        .map(|l| Pattern::new(l, &settings.placeholders))
        .collect();
    let tols = tolerances(expected, settings);
    let (n, m) = (expected.len(), actual.len());
    if (n + 1).saturating_mul(m + 1) > MAX_ALIGN_CELLS {
        // Too large to align: line by line, in order.
        let same = n == m
            && !patterns.iter().any(|p| matches!(p, Pattern::AnyLines))
            && (0..n).all(|i| {
                let (e, a) = (tokens(&expected[i]), tokens(&actual[i]));
                line_matches(&patterns[i], (&expected[i], &e), (&actual[i], &a), tols[i])
            });
        return if same {
            expected.to_vec()
        } else {
            actual.to_vec()
        };
    }
    let etok: Vec<Vec<Token>> = expected.iter().map(|l| tokens(l)).collect();
    let atok: Vec<Vec<Token>> = actual.iter().map(|l| tokens(l)).collect();
    let matches = |i: usize, j: usize| {
        line_matches(
            &patterns[i],
            (&expected[i], &etok[i]),
            (&actual[j], &atok[j]),
            tols[i],
        )
    };
    // score[i][j]: the best alignment of expected[i..] with actual[j..]; a line matched by
    // a pattern scores 2, a line absorbed by `...` 1, so real matches win over absorption.
    let w = m + 1;
    #[allow(clippy::disallowed_methods)] // bounded by MAX_ALIGN_CELLS above
    let mut score = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            let skip_expected = score[(i + 1) * w + j];
            score[i * w + j] = if matches!(patterns[i], Pattern::AnyLines) {
                let absorb = if j < m { score[i * w + j + 1] + 1 } else { 0 };
                skip_expected.max(absorb)
            } else {
                let skip_actual = if j < m { score[i * w + j + 1] } else { 0 };
                let pair = if j < m && matches(i, j) {
                    score[(i + 1) * w + j + 1] + 2
                } else {
                    0
                };
                skip_expected.max(skip_actual).max(pair)
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut any_written = false;
    while i < n || j < m {
        if i == n {
            out.push(actual[j].clone());
            j += 1;
            continue;
        }
        let here = score[i * w + j];
        if matches!(patterns[i], Pattern::AnyLines) {
            if !any_written {
                out.push(expected[i].clone());
                any_written = true;
            }
            if j < m && here == score[i * w + j + 1] + 1 {
                j += 1;
            } else {
                i += 1;
                any_written = false;
            }
            continue;
        }
        if j < m && matches(i, j) && here == score[(i + 1) * w + j + 1] + 2 {
            out.push(expected[i].clone());
            i += 1;
            j += 1;
        } else if here == score[(i + 1) * w + j] {
            // An expected line with nothing to match: it goes.
            i += 1;
        } else {
            out.push(actual[j].clone());
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    fn norm(e: &str, a: &str) -> String {
        normalize(&lines(e), &lines(a), &Settings::default()).join("\n")
    }

    #[test]
    fn wildcards_match_and_survive() {
        let e = "start\n...\nend [..] here\ntook [TIME]\nid-[0-9]+ (re)";
        let a = "start\nx\ny\nend of it here\ntook 0.019 ms\nid-42";
        assert_eq!(norm(e, a), e);
        // A real change is the only line rewritten.
        let a2 = "start\nx\nend of it here\ntook 3 ms\nid-x";
        assert_eq!(norm(e, a2), "start\n...\nend [..] here\ntook [TIME]\nid-x");
        // `...` may stand for no lines.
        assert_eq!(norm("a\n...\nb", "a\nb"), "a\n...\nb");
    }

    #[test]
    fn numbers_within_the_dtype_tolerance() {
        let e = "Tensor  dtype=float32  shape=[2]\n│ 0.5 │ 1.0 │";
        assert_eq!(
            norm(e, "Tensor  dtype=float32  shape=[2]\n│ 0.50000006 │ 1.0 │"),
            e
        );
        let strict = Settings {
            rtol: Some(0.0),
            ..Settings::default()
        };
        let a = lines("Tensor  dtype=float32  shape=[2]\n│ 0.50000006 │ 1.0 │");
        assert_eq!(normalize(&lines(e), &a, &strict), a);
        assert_eq!(
            norm("0.3000000000000001", "0.30000000000000004"),
            "0.3000000000000001"
        );
        assert_eq!(norm("[nan, 1]", "[nan, 1]"), "[nan, 1]");
        assert_eq!(norm("x = 3", "x = 4"), "x = 4");
        assert_eq!(norm("int32", "int64"), "int64");
        let written = Settings {
            as_written: Some(true),
            ..Settings::default()
        };
        let e = lines("2.83 and 0.5");
        for (a, same) in [("2.8284271 and 0.5", true), ("2.8249 and 0.5", false)] {
            assert_eq!(normalize(&e, &lines(a), &written) == e, same, "{a}");
        }
        assert_eq!(norm("2.83", "2.8284271"), "2.8284271");
    }

    #[test]
    fn tokens_keep_names_whole() {
        assert_eq!(
            tokens("dtype=float32 -1.5e-3"),
            [
                Token::Text("dtype=float32 ".into()),
                Token::Number("-1.5e-3")
            ]
        );
        let tol = Tolerance {
            rtol: 1e-6,
            atol: 0.0,
            dtype: Some("float32"),
            as_written: false,
        };
        assert_eq!(
            first_number_difference("[2][1] 0.5", "[2][1] 0.6", tol),
            Some(("0.5", "0.6"))
        );
    }
}
