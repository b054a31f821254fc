//! IPython's cell magics — `%%time` and `%%timeit` as a cell's first line, the rest of the
//! cell their code — and the magics over a session's inputs: `%history` and `%load FILE`,
//! with IPython's options and output.

use super::cell::{code_only, run_parts};
use super::magic::{os_error, timed, timeit_options, timeit_report, usage};
use super::Outcome;
use crate::diagnostic::Error;
use crate::eval::Sink;
use crate::session::Session;
use ragtag_engine::exceptions::ExceptionClass;

/// The cell magics ragtag knows, for the hint on an unknown one.
const CELL_MAGICS: &[&str] = &["%%time", "%%timeit"];

/// How many inputs `%history -l` shows without a count (IPython's default).
const TAIL: usize = 10;

/// A cell whose first line is a cell magic (`%%time`): that line and the rest of the cell.
pub fn split_cell_magic(src: &str) -> Option<(&str, &str)> {
    let src = src.trim_start_matches(['\n', '\r']);
    if !src.starts_with("%%") {
        return None;
    }
    Some(src.split_once('\n').unwrap_or((src, "")))
}

/// Runs a cell whose first line is the cell magic `line` over `body` (the cell's other
/// lines), as the cell numbered `number`.
pub fn run_cell_magic(
    session: &mut Session,
    line: &str,
    body: &str,
    number: usize,
    sink: &mut dyn Sink,
) -> Result<Outcome, Error> {
    let line = line.trim();
    let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let cell_name = format!("<cell {number}>");
    // The body's first line is the cell's second: one empty line before it keeps a
    // diagnostic's line numbers the cell's.
    let code = format!("\n{body}");
    match name {
        "%%time" => timed(sink, |held| {
            if code_only(body) {
                session.execute_named(&code, &cell_name, held)
            } else {
                run_parts(session, body, None, number, held).map(|_| ())
            }
        }),
        "%%timeit" => {
            // Options, then setup code run once and not timed, as IPython's line is.
            let (number, repeat, setup) = timeit_options(rest, "%%timeit")?;
            if body.trim().is_empty() {
                return Err(usage("usage: %%timeit [-n LOOPS] [-r RUNS] [SETUP] and the code to time on the lines below"));
            }
            if !setup.is_empty() {
                session.time_loops(setup, Some(1), 1, sink)?;
            }
            let (loops, runs) = session.time_loops(&code, number, repeat, sink)?;
            Ok(Outcome::Text(timeit_report(loops, &runs, repeat)))
        }
        other => {
            let known = CELL_MAGICS.join(", ");
            let hint = match crate::eval::suggest::closest(other, CELL_MAGICS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`? ragtag knows {known}"),
                None => format!("ragtag's cell magics are {known}"),
            };
            Err(Error::new(
                ExceptionClass::NameError,
                format!("unknown cell magic '{other}'"),
            )
            .with_hint(hint))
        }
    }
}

/// `%history [-n] [-p] [-l [N]] [RANGE]`: this session's inputs as IPython prints them —
/// each whole cell, tabs as four spaces; `-n` numbers them (`   3: x = 1`, a cell of several
/// lines starting on the next line), `-p` adds `>>> ` and `... ` prompts, `-l N` shows the
/// last N before this one (10 without N), RANGE (`4`, `2-5`) the cells with those numbers.
/// Without `-l` or a range, every input, this one last.
pub fn history(session: &Session, rest: &str) -> Result<Outcome, Error> {
    let (mut numbers, mut prompts, mut limit, mut range) = (false, false, None, None);
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "-n" => numbers = true,
            "-p" => prompts = true,
            "-l" => {
                let n = match words.peek().and_then(|w| w.parse::<usize>().ok()) {
                    Some(n) => {
                        words.next();
                        n
                    }
                    None => TAIL,
                };
                limit = Some(n);
            }
            w if w.starts_with(|c: char| c.is_ascii_digit()) => range = Some(parse_range(w)?),
            other => {
                return Err(usage(format!(
                    "%history: unknown option '{other}'; ragtag knows -n, -p, -l [N] and a range (4, 2-5)"
                )))
            }
        }
    }
    let inputs = session.inputs();
    let chosen: Vec<&(usize, String)> = match (limit, range) {
        (Some(n), _) => {
            // IPython's get_tail leaves out the input that asks.
            let before = &inputs[..inputs.len().saturating_sub(1)];
            before[before.len().saturating_sub(n)..].iter().collect()
        }
        (None, Some((a, b))) => inputs.iter().filter(|(k, _)| (a..=b).contains(k)).collect(),
        (None, None) => inputs.iter().collect(),
    };
    let mut out = String::new();
    for (n, src) in chosen {
        let text = src.replace('\t', "    ");
        let mut text = text.trim_end().to_string();
        let multiline = text.contains('\n');
        if numbers {
            out.push_str(&format!("{n:>4}:{}", if multiline { '\n' } else { ' ' }));
        }
        if prompts {
            out.push_str(">>> ");
            if multiline {
                text = text.lines().collect::<Vec<_>>().join("\n... ") + "\n...";
            }
        }
        out.push_str(&text);
        out.push('\n');
    }
    Ok(Outcome::Text(out))
}

/// `4` or `2-5` (both ends included, as IPython's ranges are).
fn parse_range(word: &str) -> Result<(usize, usize), Error> {
    let bad = || {
        usage(format!(
            "%history: '{word}' is not a range of inputs (4, or 2-5)"
        ))
    };
    let (a, b) = word.split_once('-').unwrap_or((word, word));
    let a: usize = a.parse().map_err(|_| bad())?;
    let b: usize = b.parse().map_err(|_| bad())?;
    Ok((a, b))
}

/// `%load FILE`: the file's code, headed `# %load FILE` as IPython writes it. Where cells
/// can be edited (the kernel) it replaces the cell, to run when the user runs it again, as
/// in IPython; elsewhere (the REPL, `ragtag run`) it is echoed and run at once, its
/// diagnostics pointing into the file.
pub fn load(session: &mut Session, rest: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    let path = rest.trim();
    if path.is_empty() {
        return Err(usage("usage: %load FILE"));
    }
    let bytes = crate::formats::fs::read(std::path::Path::new(path))?;
    let code = String::from_utf8(bytes)
        .map_err(|e| os_error(path, &std::io::Error::other(format!("not UTF-8 text: {e}"))))?;
    let mut text = format!("# %load {path}\n{code}");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    if sink.next_input(&text) {
        return Ok(Outcome::Text(String::new()));
    }
    sink.print(&text);
    let number = session.execution_count();
    run_parts(session, &code, Some(path), number, sink)?;
    Ok(Outcome::Text(String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::cell::run_cell;
    use crate::session::{Collect, Output};

    fn run(s: &mut Session, src: &str) -> (Result<Outcome, Error>, Vec<Output>) {
        let mut sink = Collect::default();
        let r = run_cell(s, src, None, &mut sink);
        (r, sink.outputs)
    }

    fn text(r: Result<Outcome, Error>) -> String {
        match r.unwrap() {
            Outcome::Text(t) => t,
            Outcome::Quit => panic!("quit"),
        }
    }

    #[test]
    fn history_prints_whole_cells_as_ipython_does() {
        let mut s = Session::new();
        run(&mut s, "x = 1").0.unwrap();
        run(&mut s, "for i in range(2):\n\tpass").0.unwrap();
        assert_eq!(
            text(run(&mut s, "%history -n").0),
            "   1: x = 1\n   2:\nfor i in range(2):\n    pass\n   3: %history -n\n"
        );
        assert_eq!(
            text(run(&mut s, "%history -l 2").0),
            "for i in range(2):\n    pass\n%history -n\n"
        );
        assert_eq!(
            text(run(&mut s, "%history -p 1-2").0),
            ">>> x = 1\n>>> for i in range(2):\n...     pass\n...\n"
        );
        assert!(run(&mut s, "%history -x").0.is_err());
        // A silent request is not an input.
        s.silently(|s| run(s, "y = 2").0.unwrap());
        // A failed input is history too, as in IPython.
        assert_eq!(text(run(&mut s, "%history -l 1").0), "%history -x\n");
    }

    #[test]
    fn cell_time_reports_then_shows_the_last_value() {
        let mut s = Session::new();
        let (r, out) = run(&mut s, "%%time\nx = 40\nx + 2");
        r.unwrap();
        let [Output::Print(report), Output::Value(v)] = out.as_slice() else {
            panic!("{out:?}")
        };
        assert!(report.starts_with("CPU times: user "), "{report}");
        assert!(report.lines().nth(1).unwrap().starts_with("Wall time: "));
        assert_eq!(s.render_value(v), "42");
        assert_eq!(s.execution_count(), 1);
        // An error points at the cell's own line.
        let e = run(&mut s, "%%time\ny = 1\nz = nope").0.unwrap_err();
        assert_eq!(s.error_location(&e).unwrap().1, 3);
        let e = run(&mut s, "%%tim\n1").0.unwrap_err();
        assert!(
            e.hint.as_deref().unwrap_or("").contains("`%%time`"),
            "{e:?}"
        );
        let e = run(&mut s, "x = 1\n%%time\n1").0.unwrap_err();
        assert!(e.message.contains("first line of a cell"), "{}", e.message);
    }

    #[test]
    fn cell_timeit_runs_setup_once_and_times_the_body() {
        let mut s = Session::new();
        let t = text(run(&mut s, "%%timeit -n 4 -r 3 n = [0]\nn.append(1)").0);
        assert!(
            t.contains(" ± ")
                && t.ends_with(" per loop (mean ± std. dev. of 3 runs, 4 loops each)\n"),
            "{t}"
        );
        // The setup ran once, the body 4 × 3 times.
        let (_, out) = run(&mut s, "len(n)");
        let [Output::Value(v)] = out.as_slice() else {
            panic!("{out:?}")
        };
        assert_eq!(s.render_value(v), "13");
        assert!(run(&mut s, "%%timeit -n 2\n").0.is_err());
        assert!(run(&mut s, "%%timeit -n 0\n1").0.is_err());
    }

    #[test]
    fn load_echoes_and_runs_a_file() {
        let dir = std::env::temp_dir().join(format!("ragtag-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f.rtg");
        std::fs::write(&file, "a = 2\nprint(a * 21)").unwrap();
        let mut s = Session::new();
        let (r, out) = run(&mut s, &format!("%load {}", file.display()));
        r.unwrap();
        let printed: String = out
            .iter()
            .filter_map(|o| match o {
                Output::Print(t) => Some(t.as_str()),
                Output::Value(_) => None,
            })
            .collect();
        assert_eq!(
            printed,
            format!("# %load {}\na = 2\nprint(a * 21)\n42\n", file.display())
        );
        assert!(s.get("a").is_some());
        let e = run(&mut s, "%load /no/such/file.rtg").0.unwrap_err();
        assert_eq!(e.class, ExceptionClass::FileNotFoundError);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
