//! The terminal REPL: rustyline with completion, colouring and history hints, multi-line
//! input on `... ` lines by Python's continuation rules (`command::continuation`), persistent history,
//! Ctrl-C that interrupts a running evaluation, and meta-commands shared with the kernel.
//! Tables, help and error reports fit the terminal's width, read again before each input
//! so a resized window takes effect (`--width` or an exported `COLUMNS` pins it). Prose
//! (lessons, `:help`, help pages) is re-wrapped as paragraphs to that width, and help taller
//! than the window opens a pager (`$PAGER`, else a built-in one: space, arrows, `q`).
//!
//! `:tutorial N` opens a lesson: each explanation is printed and the input after it waits
//! on the prompt, run with Enter (or edited first); Ctrl-C there leaves the lesson.
//!
//! Keys: Tab completes (names, `tf.ragged.con` → `tf.ragged.constant(`, `rt.row_` → the
//! value's methods, keyword arguments inside a call, `:commands`); → accepts the dimmed hint
//! from history; Ctrl-C clears the line at the prompt and interrupts a running input (the
//! input fails with KeyboardInterrupt and every name keeps its value); Ctrl-D leaves.

mod helper;
mod highlight;
mod pager;
mod paste;
mod wrap;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;
use std::process::ExitCode;
use std::rc::Rc;

use ragtag::command::tutorial::Step;
use ragtag::command::{self, Outcome};
use ragtag::diagnostic::Style;
use ragtag::eval::Sink;
use ragtag::render::Format;
use ragtag::value::Value;
use ragtag::Session;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::HistoryHinter;

use helper::InputHelper;

struct TermSink {
    format: Format,
    options: ragtag::render::Options,
}

/// Where the width tables are laid out in comes from: fixed by `--width` or `COLUMNS`, or
/// the terminal's own, read before each input.
struct Width {
    fixed: Option<usize>,
    /// The width last taken from the terminal; a session whose width differs was set by
    /// `:set width=N`, which then stays.
    last: usize,
}

impl Width {
    /// Sets the session's width to the terminal's current one, unless it is pinned.
    fn refresh(
        &mut self,
        editor: &mut rustyline::Editor<InputHelper, rustyline::history::DefaultHistory>,
        session: &RefCell<Session>,
    ) {
        if self.fixed.is_some() {
            return;
        }
        let Some((cols, _)) = editor.dimensions() else {
            return;
        };
        let mut s = session.borrow_mut();
        if s.options.width == self.last {
            s.options.width = cols.max(20);
            self.last = s.options.width;
        }
    }
}

impl Sink for TermSink {
    fn display(&mut self, value: &Value) {
        println!(
            "{}",
            ragtag::render::render(value, self.format, &self.options)
        );
    }
    fn print(&mut self, text: &str) {
        print!("{text}");
        let _ = std::io::stdout().flush();
    }
    fn render_options(&self) -> ragtag::render::Options {
        self.options
    }
    fn restyle(&mut self, format: Format, options: &ragtag::render::Options) {
        (self.format, self.options) = (format, *options);
    }
    /// A help page, its prose re-wrapped to the terminal's width, a screen at a time when
    /// taller than the window.
    fn page(&mut self, text: &str) {
        let _ = std::io::stdout().flush();
        pager::show(&wrap::reflow(text, self.options.width));
    }
    fn print_stderr(&mut self, text: &str) {
        let _ = std::io::stdout().flush();
        eprint!("{text}");
    }
    fn input(&mut self, prompt: &str) -> Result<Option<String>, ragtag::diagnostic::Error> {
        ragtag::eval::read_stdin_line(prompt)
    }
}

fn history_path() -> Option<std::path::PathBuf> {
    let dir = dirs::data_dir()?.join("ragtag");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

/// Lets Ctrl-C interrupt a running evaluation: SIGINT sets the session's cancel flag, which
/// the evaluator polls. While a line is being read the terminal is in raw mode, so Ctrl-C
/// reaches rustyline as a key (clearing the line) and not as a signal; the flag is reset
/// when the next input starts, so a stray Ctrl-C between inputs cancels nothing.
fn install_interrupt(session: &Session) {
    if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGINT, session.cancel_flag())
    {
        eprintln!("ragtag: Ctrl-C will not interrupt evaluations: {e}");
    }
}

/// Runs the REPL until `:quit` or Ctrl-D. `options` are the command line's table settings;
/// `fixed_width` is the width `--width` or `COLUMNS` pins (else the terminal's is used).
pub fn run(options: ragtag::render::Options, fixed_width: Option<usize>) -> ExitCode {
    let color = options.color;
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .max_history_size(10_000)
        .and_then(|c| c.history_ignore_dups(true))
        .map(|c| c.build())
        .unwrap_or_default();
    let mut editor =
        match rustyline::Editor::<InputHelper, rustyline::history::DefaultHistory>::with_config(
            config,
        ) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("ragtag: cannot start the line editor: {e}");
                return ExitCode::FAILURE;
            }
        };
    let session = Rc::new(RefCell::new(Session::new()));
    editor.set_helper(Some(InputHelper {
        session: session.clone(),
        color,
        hinter: HistoryHinter::new(),
        hints: true,
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    {
        let mut s = session.borrow_mut();
        s.options = options;
        install_interrupt(&s);
    }
    let mut width = Width {
        fixed: fixed_width,
        last: options.width,
    };
    width.refresh(&mut editor, &session);
    println!(
        "ragtag {} — :help for help, :tutorial for lessons, Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    // The lines of an input still waiting for its end (shown with `... ` prompts).
    let mut pending = String::new();
    // The steps of an open lesson (`:tutorial N`) still to come.
    let mut lesson: VecDeque<Step> = VecDeque::new();
    loop {
        // An open lesson shows its next explanation and offers its input on the prompt:
        // Enter runs it, or edit it first; an emptied line skips it.
        let mut offered = String::new();
        if pending.is_empty() {
            if let Some(step) = lesson.pop_front() {
                let w = session.borrow().options.width;
                print!("{}", wrap::reflow(&step.explanation, w));
                if step.input.is_empty() {
                    println!("(the end of the lesson; :tutorial lists the others)");
                    continue;
                }
                offered = step.input;
            }
        }
        let prompt = if pending.is_empty() { ">>> " } else { "... " };
        if let Some(h) = editor.helper_mut() {
            h.hints = offered.is_empty();
        }
        let read = if offered.is_empty() {
            editor.readline(prompt)
        } else {
            editor.readline_with_initial(prompt, (&offered, ""))
        };
        match read {
            Ok(line) => {
                if pending.is_empty() && line.trim().is_empty() {
                    continue;
                }
                // A pasted block: the editor drew its later lines without prompts.
                if line.contains('\n') {
                    if let Some((cols, _)) = editor.dimensions() {
                        let paint = |l: &str| -> String {
                            match editor.helper() {
                                Some(h) if color => h.highlight(l, 0).into_owned(),
                                _ => l.to_string(),
                            }
                        };
                        paste::redraw(prompt, &line, cols, &paint);
                    }
                }
                if !pending.is_empty() {
                    pending.push('\n');
                }
                pending.push_str(&line);
                // A cell magic (`%%time`) takes the lines after it up to an empty one, as
                // IPython's terminal does.
                let cell_magic = pending.starts_with("%%");
                if (cell_magic && !line.trim().is_empty() && !line.ends_with('\n'))
                    || (!cell_magic
                        && !command::cell::is_line_command(&pending)
                        && command::continuation::continues(&pending))
                {
                    continue;
                }
                let line = std::mem::take(&mut pending);
                // History is written as each input is accepted, so a closed terminal or a
                // killed process keeps every line typed so far.
                let _ = editor.add_history_entry(line.as_str());
                if let Some(h) = &history {
                    let _ = editor.append_history(h);
                }
                width.refresh(&mut editor, &session);
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handle_line(&session, &line, color, &mut lesson)
                }));
                match outcome {
                    Ok(true) => {}
                    Ok(false) => break,
                    // Evaluation has its own guard in the session; this one catches a bug in
                    // the REPL's own code (drawing an error report, say) so the session lives.
                    Err(_) => eprintln!(
                        "ragtag: internal error while handling this input (a bug in ragtag); \
                         the session and its names are intact"
                    ),
                }
            }
            // Ctrl-C on a `... ` line drops the whole input, as Python's REPL does.
            Err(ReadlineError::Interrupted) => {
                if !pending.is_empty() {
                    pending.clear();
                    println!("KeyboardInterrupt");
                }
                if !offered.is_empty() {
                    lesson.clear();
                    println!("left the lesson (:tutorial lists them all)");
                }
            }
            Err(ReadlineError::Eof) if !pending.is_empty() => {
                pending.clear();
                println!();
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("ragtag: {e}");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Runs one accepted input (a meta-command or code) and prints what it produced. Returns
/// false when the input asks the REPL to quit.
fn handle_line(
    session: &RefCell<Session>,
    line: &str,
    color: bool,
    lesson: &mut VecDeque<Step>,
) -> bool {
    let mut session = session.borrow_mut();
    let options = session.options;
    let mut sink = TermSink {
        format: session.format,
        options,
    };
    let result = if command::tutorial::opens_lesson(line) {
        command::tutorial::open(line).map(|steps| *lesson = steps.into())
    } else if let Some((expr, detailed)) = command::help_query(line) {
        command::help_page(&mut session, expr, detailed, &mut sink).map(|page| sink.page(&page))
    } else {
        // Code, with any meta-command, magic or shell lines run where they stand.
        match command::cell::run_cell(&mut session, line, None, &mut sink) {
            Ok(Outcome::Quit) => return false,
            // `:help`'s text is prose and listings; other commands print tables as they are.
            Ok(Outcome::Text(t)) if command::is_help(line) => {
                pager::show(&wrap::reflow(&t, options.width));
                Ok(())
            }
            Ok(Outcome::Text(t)) => {
                print!("{}", wrap::wrap(&t, options.width));
                Ok(())
            }
            Err(e) => Err(e),
        }
    };
    let _ = std::io::stdout().flush();
    if let Err(e) = result {
        // The terminal echoed `^C` where the output stood: the report starts on a line of
        // its own, as IPython's does.
        if e.class == ragtag::engine::exceptions::ExceptionClass::KeyboardInterrupt {
            println!();
        }
        let style = if color { Style::Fancy } else { Style::Plain };
        eprint!("{}", session.render_error(&e, style, session.options.width));
    }
    true
}
