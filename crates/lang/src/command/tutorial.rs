//! `:tutorial`: the lessons of examples/ (built into the binary, so an installed `ragtag`
//! has them too), listed by number and opened as steps. A lesson is a golden transcript:
//! `#` lines explain, `>>> ` and `... ` lines are inputs, the rest are the answers ragtag
//! gave when the lesson was written. Opening one splits it into steps, each the explanation
//! before an input and the input itself; the REPL offers each input on the prompt, ready to
//! run with Enter (or edit first), and the kernel prints the whole lesson.

/// One lesson: its path under examples/ and its text.
pub struct Lesson {
    /// Where it is under examples/.
    pub path: &'static str,
    /// The transcript.
    pub text: &'static str,
}

impl Lesson {
    /// The first line of the lesson without its `# `.
    pub fn title(&self) -> &'static str {
        self.text
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches('#')
            .trim()
    }
}

macro_rules! lesson {
    ($path:literal) => {
        Lesson {
            path: $path,
            text: include_str!(concat!("../../../../examples/", $path)),
        }
    };
}

/// The lessons in the order a newcomer reads them.
pub static LESSONS: &[Lesson] = &[
    lesson!("ragged/01_constructing.rtt"),
    lesson!("ragged/02_indexing.rtt"),
    lesson!("ragged/03_operators.rtt"),
    lesson!("ragged/04_reductions.rtt"),
    lesson!("ragged/05_row_partitions.rtt"),
    lesson!("ragged/06_broadcasting.rtt"),
    lesson!("ragged_vs_sparse.rtt"),
    lesson!("lod_tensors.rtt"),
    lesson!("sequence_ops.rtt"),
    lesson!("same_data.rtt"),
    lesson!("string_storage.rtt"),
    lesson!("guide/ragged_guide.rtt"),
    lesson!("parquet_tokens.rtt"),
];

/// One step of an open lesson: the explanation to show, then the input to offer (empty for
/// the closing words after the last input).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The `#` lines before the input, without their `# `.
    pub explanation: String,
    /// The input, its lines joined by newlines.
    pub input: String,
}

/// The numbered list `:tutorial` prints.
pub fn list() -> String {
    let mut s = String::from(
        "Lessons (`:tutorial N` opens one; in the REPL each input waits on the prompt, \
         Enter runs it):\n",
    );
    for (i, l) in LESSONS.iter().enumerate() {
        s.push_str(&format!("  {:>2}  {}  ({})\n", i + 1, l.title(), l.path));
    }
    s
}

/// The lesson `arg` names: its number in [`list`], or a part of its path.
pub fn find(arg: &str) -> Option<&'static Lesson> {
    if let Ok(n) = arg.parse::<usize>() {
        return n.checked_sub(1).and_then(|i| LESSONS.get(i));
    }
    let mut hits = LESSONS.iter().filter(|l| l.path.contains(arg));
    match (hits.next(), hits.next()) {
        (Some(l), None) => Some(l),
        _ => None,
    }
}

/// The steps of the lesson `:tutorial ARG` names, or an error that lists the lessons.
pub fn open(line: &str) -> Result<Vec<Step>, crate::diagnostic::Error> {
    let arg = line
        .trim()
        .split_once(char::is_whitespace)
        .map_or("", |(_, a)| a.trim());
    let lesson = find(arg).ok_or_else(|| {
        crate::diagnostic::Error::new(
            ragtag_engine::exceptions::ExceptionClass::ValueError,
            format!("no lesson '{arg}': give its number or a part of its name"),
        )
        .with_hint(format!(
            "the lessons are numbered 1 to {}; `:tutorial` lists them",
            LESSONS.len()
        ))
    })?;
    Ok(steps(lesson.text))
}

/// Whether `line` asks to open a lesson (`:tutorial N`, not the bare list).
pub fn opens_lesson(line: &str) -> bool {
    let mut words = line.split_whitespace();
    matches!(words.next(), Some(":tutorial" | ":tut")) && words.next().is_some()
}

/// A lesson as steps: the explanation lines before each input (the `# ` taken off), the
/// input with its `... ` lines; recorded answers are left out, ragtag gives them again.
pub fn steps(text: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut explanation = String::new();
    let mut input: Option<String> = None;
    for line in text.lines() {
        if let Some(cont) = line.strip_prefix("... ").or((line == "...").then_some("")) {
            if let Some(i) = input.as_mut() {
                i.push('\n');
                i.push_str(cont);
                continue;
            }
        }
        if let Some(code) = line.strip_prefix(">>> ") {
            if let Some(i) = input.take() {
                steps.push(Step {
                    explanation: std::mem::take(&mut explanation),
                    input: i,
                });
            }
            input = Some(code.to_string());
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(i) = input.take() {
                steps.push(Step {
                    explanation: std::mem::take(&mut explanation),
                    input: i,
                });
            }
            explanation.push_str(comment.strip_prefix(' ').unwrap_or(comment));
            explanation.push('\n');
            continue;
        }
        // Anything else is a recorded answer, which ends its input.
        if let Some(i) = input.take() {
            steps.push(Step {
                explanation: std::mem::take(&mut explanation),
                input: i,
            });
        }
    }
    if let Some(i) = input.take() {
        steps.push(Step {
            explanation: std::mem::take(&mut explanation),
            input: i,
        });
    }
    if !explanation.trim().is_empty() {
        steps.push(Step {
            explanation,
            input: String::new(),
        });
    }
    steps
}

/// A lesson's steps as the kernel prints them: explanations and inputs, no answers.
pub fn text(steps: &[Step]) -> String {
    let mut s = String::new();
    for step in steps {
        s.push_str(&step.explanation);
        for (i, line) in step.input.lines().enumerate() {
            s.push_str(if i == 0 { ">>> " } else { "... " });
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_has_a_title_and_inputs() {
        for l in LESSONS {
            assert!(!l.title().is_empty(), "{}", l.path);
            assert!(
                steps(l.text).iter().any(|s| !s.input.is_empty()),
                "{}",
                l.path
            );
        }
        assert!(list().contains("Lesson 1: constructing ragged tensors"));
    }

    #[test]
    fn every_lesson_in_examples_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
        let mut found = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rtt") {
                    let rel = p
                        .strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    found.push(rel);
                }
            }
        }
        for f in found {
            assert!(LESSONS.iter().any(|l| l.path == f), "{f} is not in LESSONS");
        }
    }

    #[test]
    fn steps_pair_explanations_with_inputs_and_drop_answers() {
        let text = "# Title\n#\n# first\n>>> x = [1,\n... 2]\n>>> x\n[1, 2]\n# last words\n";
        assert_eq!(
            steps(text),
            vec![
                Step {
                    explanation: "Title\n\nfirst\n".into(),
                    input: "x = [1,\n2]".into()
                },
                Step {
                    explanation: String::new(),
                    input: "x".into()
                },
                Step {
                    explanation: "last words\n".into(),
                    input: String::new()
                },
            ]
        );
        assert_eq!(find("2").map(|l| l.path), Some("ragged/02_indexing.rtt"));
        assert_eq!(find("lod").map(|l| l.path), Some("lod_tensors.rtt"));
        assert!(find("0").is_none() && find("99").is_none() && find("ragged/0").is_none());
    }
}
