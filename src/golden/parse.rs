//! Reading a transcript: which lines are inputs, which are expected output, which are
//! comments — keeping every line so that blessing can rewrite outputs and nothing else.

use std::ops::Range;

use super::directive::{self, Settings};
use super::matching;

/// The prompt of an input's first line.
pub const PROMPT: &str = ">>>";
/// The prompt of an input's continuation lines.
pub const CONTINUATION: &str = "...";
/// Starts a comment line (outside inputs).
pub const COMMENT: &str = "#";
/// Written before an output line that would otherwise read as a prompt, a comment or an
/// escaped line.
pub const ESCAPE: &str = "\\";

/// A parsed transcript: its lines exactly as read, and the entries found in them.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// Every line, without its line end.
    pub lines: Vec<String>,
    /// The inputs in order.
    pub entries: Vec<Entry>,
    /// The text ended with a line end.
    pub trailing_newline: bool,
    /// Lines end with `\r\n` (kept when blessing).
    pub crlf: bool,
    /// What `# ragtag:` directives before the first input set, for the whole file.
    pub settings: Settings,
}

/// One input and where its expected output sits.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The index (0-based) of the `>>> ` line.
    pub line: usize,
    /// The source: the `>>> ` line and its `... ` continuations, prompts removed, joined by `\n`.
    pub source: String,
    /// Line indices of the expected output block, trailing blank lines excluded; an empty
    /// range sits right after the input when there is no expected output.
    pub output: Range<usize>,
    /// `# raises ClassName` on the input's first line: the error class it must fail with.
    pub raises: Option<String>,
    /// `# may vary` on the input's first line: run, but its output is not compared.
    pub may_vary: bool,
    /// The file's settings with those of a directive right before this input.
    pub settings: Settings,
}

/// A line that is not part of any entry and not a comment or blank.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The rest of `line` after `prompt` and one optional space, when `line` starts with `prompt`.
fn after_prompt<'a>(line: &'a str, prompt: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(prompt)?;
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

/// A near miss of the prompt, which is an error rather than output.
const NEAR_PROMPT: &str = ">>";

/// True when an output line must be escaped to be read back as output (a line of output
/// that starts like a prompt, a comment, an escape, or a wildcard).
fn needs_escape(line: &str) -> bool {
    [NEAR_PROMPT, CONTINUATION, COMMENT, ESCAPE]
        .iter()
        .any(|p| line.starts_with(p))
        || matching::is_pattern(line)
}

/// True for the `...` wildcard line (any number of output lines), which is never a
/// continuation.
pub fn is_wildcard_line(line: &str) -> bool {
    line.trim_end() == CONTINUATION
}

/// An output line as written in a transcript.
pub fn escape(line: &str) -> String {
    if needs_escape(line) {
        format!("{ESCAPE}{line}")
    } else {
        line.to_string()
    }
}

/// An output line as read from a transcript (the inverse of [`escape`]).
pub fn unescape(line: &str) -> &str {
    line.strip_prefix(ESCAPE).unwrap_or(line)
}

/// Output lines as compared: trailing whitespace removed from each line (editors strip it),
/// trailing blank lines dropped (they separate entries).
pub fn normalize<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect();
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

#[derive(PartialEq)]
enum State {
    /// Before the first entry or after a comment: only comments, blank lines and inputs.
    Top,
    /// Reading an input's lines.
    Input,
    /// Reading an input's output.
    Output,
}

/// How a directive line starts (see [`directive::DIRECTIVE`]).
const DIRECTIVE_START: &str = directive::DIRECTIVE;

/// Parses the text of a transcript.
pub fn parse(text: &str) -> Result<Transcript, ParseError> {
    let crlf = text.contains("\r\n");
    let trailing_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<String> = if text.is_empty() {
        Vec::new()
    } else {
        body.split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
            .collect()
    };
    let mut entries: Vec<Entry> = Vec::new();
    let mut state = State::Top;
    let mut file_settings = Settings::default();
    // Set by a directive after the first input; applies to the next input only.
    let mut block_settings: Option<Settings> = None;
    let error = |i: usize, message: String| ParseError {
        line: i + 1,
        message,
    };
    for (i, line) in lines.iter().enumerate() {
        if let Some(src) = after_prompt(line, PROMPT) {
            let (source, marks) = directive::read_marks(src).map_err(|m| error(i, m))?;
            entries.push(Entry {
                line: i,
                source,
                output: i + 1..i + 1,
                raises: marks.raises,
                may_vary: marks.may_vary,
                settings: file_settings.merged(block_settings.take().unwrap_or_default()),
            });
            state = State::Input;
            continue;
        }
        if line.starts_with(NEAR_PROMPT) {
            return Err(error(
                i,
                format!(
                    "`{NEAR_PROMPT}` is not a prompt: write `{PROMPT} ` to start an input, or \
                     `{ESCAPE}{NEAR_PROMPT}` for output that starts with `{NEAR_PROMPT}`"
                ),
            ));
        }
        if state == State::Input && !is_wildcard_line(line) {
            if let Some(src) = after_prompt(line, CONTINUATION) {
                let e = entries.last_mut().expect("an input is open");
                e.source.push('\n');
                e.source.push_str(src);
                e.output = i + 1..i + 1;
                continue;
            }
        }
        if line.starts_with(COMMENT) {
            if let Some(settings) = directive::read_comment(line).map_err(|m| error(i, m))? {
                if entries.is_empty() {
                    file_settings = file_settings.merged(settings);
                } else if settings.width.is_some() {
                    return Err(error(
                        i,
                        "`width=` applies to a whole transcript: put it before the first \
                         input (`:set width=N` changes the width from one input on)"
                            .to_string(),
                    ));
                } else {
                    block_settings = Some(block_settings.unwrap_or_default().merged(settings));
                }
            }
            state = State::Top;
            continue;
        }
        match state {
            State::Top if line.trim().is_empty() => {}
            State::Top => {
                return Err(ParseError {
                    line: i + 1,
                    message: format!(
                        "expected an input (`{PROMPT} `), a comment (`{COMMENT}`) or a blank line, \
                         found output that belongs to no input"
                    ),
                })
            }
            State::Input | State::Output => {
                state = State::Output;
                let settings = &entries.last().expect("an input is open").settings;
                matching::check_pattern(line, settings).map_err(|m| error(i, m))?;
                if !line.trim().is_empty() {
                    entries.last_mut().expect("an input is open").output.end = i + 1;
                }
            }
        }
    }
    if block_settings.is_some() {
        let last = lines
            .iter()
            .rposition(|l| l.starts_with(DIRECTIVE_START))
            .unwrap_or(0);
        return Err(error(
            last,
            "a directive after the last input applies to nothing".into(),
        ));
    }
    Ok(Transcript {
        lines,
        entries,
        trailing_newline,
        crlf,
        settings: file_settings,
    })
}

impl Transcript {
    /// The expected output of `entry`, unescaped and normalized.
    pub fn expected(&self, entry: &Entry) -> Vec<String> {
        normalize(self.lines[entry.output.clone()].iter().map(|l| unescape(l)))
    }

    /// The expected output of `entry` as written (escapes and wildcards kept), normalized.
    pub fn expected_raw(&self, entry: &Entry) -> Vec<String> {
        normalize(self.lines[entry.output.clone()].iter().map(String::as_str))
    }

    /// The transcript's lines with the output blocks of some entries replaced:
    /// `outputs[k]` is `Some(lines)` to replace entry k's block (lines as written: escaped,
    /// see [`escape`]), `None` to keep it byte for byte.
    pub fn with_outputs(&self, outputs: &[Option<Vec<String>>]) -> Vec<String> {
        let mut out = Vec::new();
        let mut next = 0;
        for (entry, new) in self.entries.iter().zip(outputs) {
            let Some(new) = new else { continue };
            out.extend(self.lines[next..entry.output.start].iter().cloned());
            out.extend(new.iter().cloned());
            next = entry.output.end;
        }
        out.extend(self.lines[next..].iter().cloned());
        out
    }

    /// Joins lines back into text with this transcript's line ends.
    pub fn join(&self, lines: &[String]) -> String {
        let eol = if self.crlf { "\r\n" } else { "\n" };
        let mut s = lines.join(eol);
        if self.trailing_newline && !lines.is_empty() {
            s.push_str(eol);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# A comment.
>>> x = 1
>>> [x,
... 2]
table line 1
\\# escaped

table line 3

# Between entries.

>>> print('a')
a
>>>
";

    #[test]
    fn entries_outputs_and_comments() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.entries.len(), 4);
        assert_eq!(t.entries[0].source, "x = 1");
        assert_eq!(t.entries[0].output, 2..2);
        assert_eq!(t.entries[1].source, "[x,\n2]");
        // Blank lines inside an output are kept; trailing ones are not part of the block.
        assert_eq!(t.entries[1].output, 4..8);
        assert_eq!(
            t.expected(&t.entries[1]),
            ["table line 1", "# escaped", "", "table line 3"]
        );
        assert_eq!(t.entries[2].source, "print('a')");
        assert_eq!(t.expected(&t.entries[2]), ["a"]);
        assert_eq!(t.entries[3].source, "");
        assert_eq!(t.join(&t.lines), SAMPLE);
    }

    #[test]
    fn stray_output_is_an_error() {
        let e = parse("# c\nstray\n>>> 1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse(">>> 1\n1\n# c\nstray\n").unwrap_err();
        assert_eq!(e.line, 4);
    }

    #[test]
    fn replacing_outputs_keeps_everything_else() {
        let t = parse(SAMPLE).unwrap();
        let same = t.with_outputs(&[None, None, None, None]);
        assert_eq!(t.join(&same), SAMPLE);
        let new = t.with_outputs(&[
            Some(vec!["1".into()]),
            None,
            Some(vec!["b".into(), escape("#x")]),
            None,
        ]);
        let text = t.join(&new);
        assert!(
            text.starts_with("# A comment.\n>>> x = 1\n1\n>>> [x,\n"),
            "{text}"
        );
        assert!(text.contains(">>> print('a')\nb\n\\#x\n>>>\n"), "{text}");
    }

    #[test]
    fn crlf_and_missing_final_newline_survive() {
        let src = ">>> 1\r\n1\r\n>>> 2\r\n2";
        let t = parse(src).unwrap();
        assert_eq!(t.expected(&t.entries[1]), ["2"]);
        assert_eq!(t.join(&t.lines), src);
    }

    #[test]
    fn escape_round_trips() {
        for l in [">>> x", "... y", "# z", "\\w", "plain", ""] {
            assert_eq!(unescape(&escape(l)), l);
            assert!(
                parse(&format!(">>> 1\n{}\n", escape(l)))
                    .unwrap()
                    .entries
                    .len()
                    == 1
            );
        }
    }
}
