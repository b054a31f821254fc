//! A cell or script whose lines mix code with meta-commands (`:format json`), IPython's
//! magics (`%time x`) and shell commands (`!ls`), each on a line of its own: the code
//! between those lines runs as it would alone, and the cell counts as one input.

use super::{magic, Outcome};
use crate::diagnostic::Error;
use crate::eval::Sink;
use crate::session::Session;
use ragtag_syntax::{completeness, Completeness};

/// One piece of a cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Part<'a> {
    /// Code, preceded by one empty line for each line of the cell before it, so a
    /// diagnostic's line numbers are the cell's.
    Code(String),
    /// A meta-command, magic or shell line.
    Line(&'a str),
}

/// Whether `line` is a meta-command (`:`), magic (`%`) or shell command (`!`) line.
pub fn is_line_command(line: &str) -> bool {
    line.trim_start().starts_with([':', '%', '!'])
}

/// Splits a cell into code and command lines. A line is a command when it starts in the
/// first column with `:`, `%` or `!` and no bracket or string of the code before it is
/// open (`x[1\n:2]` is code).
pub fn split(src: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut code = String::new();
    // Lines of the cell before `code`'s first line.
    let mut before = 0;
    let mut has_code = false;
    for (i, line) in src.lines().enumerate() {
        if line.starts_with([':', '%', '!']) && !(has_code && inside_brackets(&code)) {
            if has_code {
                parts.push(Part::Code(std::mem::take(&mut code)));
            }
            parts.push(Part::Line(line));
            has_code = false;
            before = i + 1;
            continue;
        }
        if !has_code {
            // One byte per line of a cell already in memory.
            #[allow(clippy::disallowed_methods)]
            {
                code = "\n".repeat(before);
            }
            has_code = true;
        }
        code.push_str(line);
        code.push('\n');
    }
    if has_code && !code.trim().is_empty() {
        parts.push(Part::Code(code));
    }
    parts
}

/// Whether the code so far leaves a bracket or a string open (still incomplete once its
/// blocks are closed by blank lines).
fn inside_brackets(code: &str) -> bool {
    completeness(&format!("{code}\n\n")) == Completeness::Incomplete
}

/// Whether `src` is code alone (no command lines), which runs as one input as before.
pub(super) fn code_only(src: &str) -> bool {
    !src.lines().any(|l| l.starts_with([':', '%', '!']))
        && !src.trim_start().starts_with([':', '%', '!'])
}

/// Runs a cell (or a script, named `name`) whose lines may be commands: the code between
/// them runs in order, each command's text is printed, and the first error stops the rest
/// (what ran before it keeps its effects). A cell that is one command line returns that
/// command's outcome for the front end to show; `:quit` anywhere returns
/// [`Outcome::Quit`] at once.
pub fn run_cell(
    session: &mut Session,
    src: &str,
    name: Option<&str>,
    sink: &mut dyn Sink,
) -> Result<Outcome, Error> {
    session.record_input(src);
    if let Some((line, body)) = super::cell_magic::split_cell_magic(src) {
        let number = session.begin_cell();
        session.record_command(line);
        let result = super::cell_magic::run_cell_magic(session, line, body, number, sink);
        session.end_cell();
        return result;
    }
    if code_only(src) {
        match name {
            Some(name) => session.execute_named(src, name, sink)?,
            None => session.execute(src, sink)?,
        }
        return Ok(Outcome::Text(String::new()));
    }
    let number = session.begin_cell();
    let result = run_parts(session, src, name, number, sink);
    session.end_cell();
    result
}

pub(super) fn run_parts(
    session: &mut Session,
    src: &str,
    name: Option<&str>,
    number: usize,
    sink: &mut dyn Sink,
) -> Result<Outcome, Error> {
    let cell_name = format!("<cell {number}>");
    let name = name.unwrap_or(&cell_name);
    let parts = split(src.trim_start());
    let alone = parts.len() == 1;
    for part in parts {
        match part {
            Part::Code(code) => session.execute_named(&code, name, sink)?,
            Part::Line(line) => {
                session.record_command(line);
                let before = (session.format, session.options);
                let outcome = run_line(session, line, sink)?;
                if (session.format, session.options) != before {
                    sink.restyle(session.format, &session.options);
                }
                match outcome {
                    Outcome::Quit => return Ok(Outcome::Quit),
                    Outcome::Text(text) if alone => return Ok(Outcome::Text(text)),
                    Outcome::Text(text) => {
                        if !text.is_empty() {
                            sink.print(&text);
                        }
                    }
                }
            }
        }
    }
    Ok(Outcome::Text(String::new()))
}

/// Runs one command line: `:command`, `%magic` or `!shell`.
pub fn run_line(session: &mut Session, line: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    let line = line.trim();
    if line.starts_with('%') {
        magic::run(session, line, sink)
    } else if let Some(cmd) = line.strip_prefix('!') {
        magic::shell(session, cmd, sink)
    } else {
        super::run(session, line, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_a_cell() {
        let parts = split("rt = 1\n:format json\nrt\n%time rt + 1\n!echo hi");
        assert_eq!(
            parts,
            vec![
                Part::Code("rt = 1\n".into()),
                Part::Line(":format json"),
                Part::Code("\n\nrt\n".into()),
                Part::Line("%time rt + 1"),
                Part::Line("!echo hi"),
            ]
        );
    }

    #[test]
    fn open_brackets_and_strings_keep_their_lines() {
        assert_eq!(split("x[1\n:2]"), vec![Part::Code("x[1\n:2]\n".into())]);
        assert_eq!(
            split("s = '''\n:not a command\n'''"),
            vec![Part::Code("s = '''\n:not a command\n'''\n".into())]
        );
        assert_eq!(split("(a\n!= b)").len(), 1);
    }

    use crate::render::Format;
    use crate::session::{Collect, Output};

    fn run(session: &mut Session, src: &str) -> (Result<Outcome, Error>, Vec<Output>) {
        let mut sink = Collect::default();
        let result = run_cell(session, src, None, &mut sink);
        (result, sink.outputs)
    }

    fn printed(outputs: &[Output]) -> String {
        outputs
            .iter()
            .filter_map(|o| match o {
                Output::Print(t) => Some(t.as_str()),
                Output::Value(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_command_between_code_lines_runs_there_and_the_cell_counts_once() {
        let mut s = Session::new();
        let (r, out) = run(
            &mut s,
            "rt = tf.ragged.constant([[1, 2], [3]])\n:format json\nrt",
        );
        assert_eq!(r.unwrap(), Outcome::Text(String::new()));
        assert_eq!(s.format, Format::Json);
        assert!(matches!(out.as_slice(), [Output::Value(_)]), "{out:?}");
        assert_eq!(s.execution_count(), 1);
        run(&mut s, ":time y = 2").0.unwrap();
        assert_eq!(s.execution_count(), 2);
        assert!(s.get("y").is_some());
    }

    #[test]
    fn an_error_stops_the_cell_and_points_at_the_cells_line() {
        let mut s = Session::new();
        let (r, out) = run(&mut s, "x = 1\n:vars\ny = nope\nprint('never')");
        let e = r.unwrap_err();
        assert_eq!(e.class.name(), "NameError");
        let (name, line, _) = s.error_location(&e).unwrap();
        assert_eq!((name.as_str(), line), ("<cell 1>", 3));
        assert_eq!(printed(&out), "x                int\n");
    }

    #[test]
    fn time_reports_like_ipython_then_shows_the_value() {
        let mut s = Session::new();
        let (r, out) = run(&mut s, "%time 40 + 2");
        r.unwrap();
        let [Output::Print(report), Output::Value(v)] = out.as_slice() else {
            panic!("{out:?}")
        };
        let lines: Vec<&str> = report.lines().collect();
        assert!(lines[0].starts_with("CPU times: user "), "{report}");
        assert!(lines[0].contains(", sys: ") && lines[0].contains(", total: "));
        assert!(lines[1].starts_with("Wall time: "), "{report}");
        assert_eq!(s.render_value(v), "42");
    }

    #[test]
    fn timeit_reports_mean_and_deviation_per_loop() {
        let mut s = Session::new();
        let (r, out) = run(&mut s, "%timeit -n 3 -r 2 x = tf.range(10)");
        let Outcome::Text(text) = r.unwrap() else {
            panic!()
        };
        assert!(out.is_empty(), "{out:?}");
        assert!(
            text.contains(" ± ")
                && text.ends_with(" per loop (mean ± std. dev. of 2 runs, 3 loops each)\n"),
            "{text}"
        );
        assert!(s.get("x").is_some());
        assert!(run(&mut s, "%timeit -n 0 1").0.is_err());
        assert!(run(&mut s, "%timeit 1 +").0.is_err());
    }

    #[test]
    fn who_pwd_and_unknown_magics() {
        let mut s = Session::new();
        assert_eq!(
            run(&mut s, "%who").0.unwrap(),
            Outcome::Text("Interactive namespace is empty.\n".into())
        );
        let (r, _) = run(&mut s, "b = 1\na = 2\n%who");
        r.unwrap();
        let (_, out) = run(&mut s, "a = 2\n%who\n%pwd");
        assert_eq!(printed(&out), "a\t b\t \n");
        let Some(Output::Value(dir)) = out.last() else {
            panic!("{out:?}")
        };
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(s.render_value(dir), format!("'{}'", cwd.display()));
        let e = run(&mut s, "%tim 1").0.unwrap_err();
        assert!(e.message.contains("unknown magic '%tim'"), "{}", e.message);
    }

    #[test]
    fn shell_lines_show_output_and_a_failing_status() {
        let mut s = Session::new();
        let (r, out) = run(&mut s, "x = 1\n!echo hi\n!echo oops >&2; exit 3\nprint(x)");
        r.unwrap();
        assert_eq!(
            printed(&out),
            "hi\noops\n!echo oops >&2; exit 3: exit status 3\n1\n"
        );
    }

    #[test]
    fn format_time_is_ipythons() {
        use super::magic::format_time;
        assert_eq!(format_time(0.0292), "29.2 ms");
        assert_eq!(format_time(1.0), "1 s");
        assert_eq!(format_time(5e-10), "0.5 ns");
        assert_eq!(format_time(0.000_123_45), "123 µs");
        assert_eq!(format_time(65.2), "1min 5s");
        assert_eq!(format_time(0.0), "0 ns");
    }
}
