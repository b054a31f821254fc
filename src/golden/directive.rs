//! What a transcript says about how to compare it: `# ragtag:` directive comments (the
//! tolerance of a file or of one block) and the markers on an input line (`# raises
//! ValueError`, `# may vary`). Anything that looks like a directive but is not one is an
//! error, so a typo never turns into a silently ignored comment.

/// Starts a directive comment.
pub const DIRECTIVE: &str = "# ragtag:";

/// The comparison settings a `# ragtag:` directive gives; `None` leaves the default (or
/// what the file said) in force.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Relative tolerance of floating-point numbers; by default it follows the block's dtype
    /// ([`default_rtol`]).
    pub rtol: Option<f64>,
    /// Absolute tolerance of floating-point numbers; by default 0.
    pub atol: Option<f64>,
    /// `precision=written`: an expected float matches any actual one that rounds to it at
    /// the number of decimals it is written with (`2.83` matches 2.8284271).
    pub as_written: Option<bool>,
    /// Placeholders of the file's own, `[NAME]=REGEX`, besides `[TIME]` and `[PATH]`.
    pub placeholders: Vec<(String, String)>,
    /// `width=N`: tables, headers and diagnostics wrap at N columns instead of the runner's
    /// 100 (a README written for 80-column readers says `width=80`).
    pub width: Option<usize>,
}

impl Settings {
    /// These settings with `over`'s given ones taking precedence.
    pub fn merged(&self, over: Settings) -> Settings {
        let mut placeholders = self.placeholders.clone();
        placeholders.extend(over.placeholders);
        Settings {
            rtol: over.rtol.or(self.rtol),
            atol: over.atol.or(self.atol),
            as_written: over.as_written.or(self.as_written),
            placeholders,
            width: over.width.or(self.width),
        }
    }
}

/// The relative tolerance of a block whose values have this dtype (as ragtag prints it in a
/// `dtype=` annotation), when no directive sets one: a few units in the last place of the
/// type's precision, so a result that moves in its last bit still matches. Values without a
/// dtype (Python floats) are float64.
pub fn default_rtol(dtype: Option<&str>) -> f64 {
    match dtype {
        // 11 bits of mantissa: 2^-11 ≈ 4.9e-4.
        Some("float16" | "half") => 1e-3,
        // 8 bits of mantissa: 2^-8 ≈ 3.9e-3.
        Some("bfloat16") => 1e-2,
        // 24 bits of mantissa: 2^-24 ≈ 6e-8.
        Some("float32" | "complex64") => 1e-6,
        // 53 bits of mantissa: 2^-53 ≈ 1.1e-16.
        _ => 1e-12,
    }
}

/// Edit distance between two short words (Levenshtein), to tell a typo of `ragtag:` from
/// a comment that merely starts with some other word.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Reads a comment line: `Ok(Some(settings))` for a `# ragtag:` directive, `Ok(None)` for
/// an ordinary comment, and an error for a directive with an unknown or malformed setting,
/// or a near miss of the directive marker (`#ragtag:`, `# ragtg:`, `# Ragtag:`).
pub fn read_comment(line: &str) -> Result<Option<Settings>, String> {
    let line = line.trim_end();
    if let Some(rest) = line.strip_prefix(DIRECTIVE) {
        return read_settings(rest).map(Some);
    }
    let body = line.trim_start_matches('#').trim_start();
    let first = body.split_whitespace().next().unwrap_or("");
    if let Some(word) = first.strip_suffix(':') {
        if distance(&word.to_lowercase(), "ragtag") <= 2 {
            return Err(format!(
                "`{first}` looks like a directive: write `{DIRECTIVE} rtol=… atol=…` (one `#`, \
                 one space, `ragtag:` in lower case)"
            ));
        }
    }
    Ok(None)
}

/// What an unknown directive's error lists.
const KNOWN: &str = "the known ones are rtol=NUMBER, atol=NUMBER, precision=written|exact, \
                     width=COLUMNS and placeholders [NAME]=REGEX";

/// The narrowest and widest `width=` a transcript may ask for.
const WIDTHS: std::ops::RangeInclusive<usize> = 20..=1000;

/// A placeholder's name: `[NAME]` in capitals, digits and underscores.
fn is_placeholder_name(key: &str) -> bool {
    key.strip_prefix('[')
        .and_then(|k| k.strip_suffix(']'))
        .is_some_and(|k| {
            !k.is_empty()
                && k.bytes()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        })
}

/// The settings of a directive's text after `# ragtag:`.
fn read_settings(text: &str) -> Result<Settings, String> {
    let mut s = Settings::default();
    if text.trim().is_empty() {
        return Err(format!(
            "`{DIRECTIVE}` with nothing after it: write `{DIRECTIVE} rtol=1e-6 atol=0`"
        ));
    }
    for word in text.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("unknown directive `{word}`: {KNOWN}"));
        };
        let number = || -> Result<f64, String> {
            match value.parse::<f64>() {
                Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
                _ => Err(format!(
                    "`{key}={value}`: a tolerance is a finite number at least 0"
                )),
            }
        };
        if is_placeholder_name(key) {
            if let Err(e) = regex::Regex::new(value) {
                return Err(format!("the regex of placeholder {key} is invalid: {e}"));
            }
            s.placeholders.push((key.to_string(), value.to_string()));
            continue;
        }
        match key {
            "rtol" => s.rtol = Some(number()?),
            "atol" => s.atol = Some(number()?),
            "precision" if value == "written" => s.as_written = Some(true),
            "precision" if value == "exact" => s.as_written = Some(false),
            "width" => match value.parse::<usize>() {
                Ok(w) if WIDTHS.contains(&w) => s.width = Some(w),
                _ => {
                    return Err(format!(
                        "`width={value}`: a width is a whole number of columns from {} to {}",
                        WIDTHS.start(),
                        WIDTHS.end()
                    ))
                }
            },
            "precision" => {
                return Err(format!(
                    "`precision={value}`: write precision=written (floats match at the \
                     decimals they are written with) or precision=exact"
                ))
            }
            _ => return Err(format!("unknown directive `{key}`: {KNOWN}")),
        }
    }
    Ok(s)
}

/// What the first line of an input says about its output, in a trailing comment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    /// `# raises ValueError`: the input is expected to fail with this error class.
    pub raises: Option<String>,
    /// `# may vary`: the input runs, but its output is not compared.
    pub may_vary: bool,
}

/// Splits the marker comment off an input's first line: the line without it (the marker is
/// not part of the code that runs, so an error report quotes the code alone) and the marks.
/// A `# raises` without a class name, or a near miss of a marker, is an error.
pub fn read_marks(first_line: &str) -> Result<(String, Marks), String> {
    let trimmed = first_line.trim_end();
    let Some(hash) = trimmed.rfind('#') else {
        return Ok((first_line.to_string(), Marks::default()));
    };
    let comment = trimmed[hash + 1..].trim();
    let code = trimmed[..hash].trim_end().to_string();
    let words: Vec<&str> = comment.split_whitespace().collect();
    match words.as_slice() {
        ["may", "vary"] => Ok((
            code,
            Marks {
                may_vary: true,
                ..Marks::default()
            },
        )),
        ["raises", class] if is_class_name(class) => Ok((
            code,
            Marks {
                raises: Some(class.rsplit('.').next().unwrap_or(class).to_string()),
                ..Marks::default()
            },
        )),
        ["raises", ..] | ["raise", ..] | ["Raises", ..] => Err(format!(
            "`# {comment}`: write `# raises ClassName`, e.g. `# raises ValueError`"
        )),
        ["may", ..] | ["may-vary"] | ["mayvary"] | ["May", "vary"] => {
            Err(format!("`# {comment}`: write `# may vary`"))
        }
        _ => Ok((first_line.to_string(), Marks::default())),
    }
}

/// An exception class as written after `raises`: a name, possibly with its module path
/// (`tf.errors.InvalidArgumentError`).
fn is_class_name(s: &str) -> bool {
    s.split('.').all(|part| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_and_near_misses() {
        assert_eq!(read_comment("# just a comment"), Ok(None));
        assert_eq!(read_comment("# ragtag's tables"), Ok(None));
        assert_eq!(
            read_comment("# ragtag: [ID]=id-[0-9]+")
                .unwrap()
                .unwrap()
                .placeholders,
            [("[ID]".to_string(), "id-[0-9]+".to_string())]
        );
        assert!(read_comment("# ragtag: [ID]=(").is_err());
        assert_eq!(
            read_comment("# ragtag: rtol=1e-3 atol=0"),
            Ok(Some(Settings {
                rtol: Some(1e-3),
                atol: Some(0.0),
                as_written: None,
                placeholders: Vec::new(),
                width: None,
            }))
        );
        assert_eq!(
            read_comment("# ragtag: width=80").unwrap().unwrap().width,
            Some(80)
        );
        for bad in [
            "# ragtag: width=8",
            "# ragtag: width=eighty",
            "#ragtag: rtol=1",
            "# ragtg: rtol=1",
            "# Ragtag: rtol=1",
            "# ragtag: rtl=1",
            "# ragtag: rtol=-1",
            "# ragtag: loose",
            "# ragtag:",
        ] {
            assert!(read_comment(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn markers_are_split_off() {
        assert_eq!(
            read_marks("x[5]  # raises IndexError").unwrap(),
            (
                "x[5]".to_string(),
                Marks {
                    raises: Some("IndexError".into()),
                    may_vary: false
                }
            )
        );
        assert_eq!(
            read_marks("tf.random.uniform([2]) # may vary").unwrap().1,
            Marks {
                raises: None,
                may_vary: true
            }
        );
        assert_eq!(
            read_marks("x  # raises tf.errors.InvalidArgumentError")
                .unwrap()
                .1
                .raises
                .as_deref(),
            Some("InvalidArgumentError")
        );
        assert_eq!(read_marks("x = 1  # a note").unwrap().0, "x = 1  # a note");
        assert!(read_marks("x # raises").is_err());
        assert!(read_marks("x # may vry").is_err());
    }
}
