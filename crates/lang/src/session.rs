//! A session: the names a user has defined, every source they typed (so diagnostics can
//! point into any earlier cell), the execution counter and display settings. The REPL, the
//! script runner, the golden-test runner and the Jupyter kernel are thin adapters over it.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::diagnostic::{self, Error, Style};
use crate::eval::{Interp, Sink};
use crate::render::{Format, Options};
use crate::value::env::Names;
use crate::value::Value;
use ragtag_engine::guard;

mod inputs;
mod parts;
mod relay;

use relay::{Event, Relay};

/// One session of ragtag: the names the user defined, the inputs run so far (numbered as
/// cells), and how values are displayed.
///
/// ```
/// use ragtag_lang::session::{Collect, Output};
///
/// let mut session = ragtag_lang::Session::new();
/// // Each input is one cell; what it shows goes to a sink (here, collected in order).
/// let mut sink = Collect::default();
/// session
///     .execute("x = tf.ragged.constant([[1, 2], [3]])\nx * 10", &mut sink)
///     .unwrap();
/// assert_eq!(session.execution_count(), 1);
/// let Output::Value(shown) = &sink.outputs[0] else { panic!("no value shown") };
/// // Rendered in the session's format (a table by default; `session.format` changes it).
/// assert!(session.render_value(shown).contains("30"));
/// assert_eq!(session.vars()[0].0, "x");
/// ```
pub struct Session {
    globals: Names,
    sources: Vec<(String, String)>,
    /// For each of `sources`, whether it failed.
    failed: Vec<bool>,
    counter: usize,
    /// How displayed values are shown.
    pub format: Format,
    /// Table limits and style.
    pub options: Options,
    /// This session's memory budget for one operation (`:set memory=`), overriding the
    /// process's (`--max-memory`, or half of physical memory).
    pub memory_limit: Option<u64>,
    cancel: Arc<AtomicBool>,
    /// The values the last input displayed, once its sink has drawn them. They are dropped
    /// on the next input's evaluation thread: a value nested a hundred thousand deep takes
    /// more stack to drop than the caller's thread has.
    shown: Vec<Value>,
    /// TensorFlow's and NumPy's random state (seeded from the operating system, or fixed by
    /// [`Session::reproducible_random`]).
    random: Arc<std::sync::Mutex<crate::eval::rng::RandomState>>,
    /// While a cell runs in parts (code between meta-command lines), each part and each
    /// command counts as the one cell begun by [`Session::begin_cell`].
    held: bool,
    /// Every cell as typed, with its number, for `%history`.
    inputs: Vec<(usize, String)>,
}

impl Drop for Session {
    fn drop(&mut self) {
        guard::drop_deep((
            std::mem::take(&mut self.globals),
            std::mem::take(&mut self.shown),
        ));
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A fresh session with no user names; `tf`, `np`, `ak`, builtins and modules are there.
    ///
    /// ```
    /// let mut session = ragtag_lang::Session::new();
    /// assert!(session.vars().is_empty());
    /// assert!(session.eval("tf.constant([1, 2])").is_ok());
    /// ```
    pub fn new() -> Self {
        Session {
            globals: Names::default(),
            sources: Vec::new(),
            failed: Vec::new(),
            counter: 0,
            format: Format::Table,
            options: Options::default(),
            memory_limit: None,
            cancel: Arc::new(AtomicBool::new(false)),
            shown: Vec::new(),
            held: false,
            inputs: Vec::new(),
            random: Arc::new(std::sync::Mutex::new(
                // RAGTAG_REPRODUCIBLE=1 starts every session from the transcripts' fixed seed,
                // for checks of a whole notebook or a newcomer's run.
                if std::env::var_os("RAGTAG_REPRODUCIBLE").is_some_and(|v| v == "1") {
                    crate::eval::rng::RandomState::new(crate::eval::rng::TRANSCRIPT_SEED)
                } else {
                    crate::eval::rng::RandomState::fresh()
                },
            )),
        }
    }

    /// Makes unseeded random draws repeat from run to run (what transcripts need): the
    /// random state starts from a fixed seed instead of the operating system's entropy.
    pub fn reproducible_random(&mut self) {
        self.random = Arc::new(std::sync::Mutex::new(crate::eval::rng::RandomState::new(
            crate::eval::rng::TRANSCRIPT_SEED,
        )));
    }

    /// The flag that interrupts a running evaluation when set (Ctrl-C, interrupt_request).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// How many inputs have been executed.
    pub fn execution_count(&self) -> usize {
        self.counter
    }

    /// The user's names and values, sorted by name.
    pub fn vars(&self) -> Vec<(&str, &Value)> {
        let mut v: Vec<_> = self.globals.iter().map(|(k, v)| (k.as_str(), v)).collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }

    /// The value of a user name.
    ///
    /// ```
    /// use ragtag_lang::value::Value;
    ///
    /// let mut session = ragtag_lang::Session::new();
    /// session.run("n = 2 + 3").unwrap();
    /// assert!(matches!(session.get("n"), Some(Value::Int(5))));
    /// assert!(session.get("m").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.globals.get(name)
    }

    /// Forgets every user name.
    pub fn reset(&mut self) {
        guard::drop_deep(std::mem::take(&mut self.globals));
    }

    /// The sources executed so far, as `(name, text)`.
    pub fn sources(&self) -> &[(String, String)] {
        &self.sources
    }

    /// Runs `src` as one input named `name` (e.g. `<cell 3>`). Displayed values and printed
    /// text go to `sink` as they happen. As in Python, the statements before a failing one
    /// keep their effects and the failing statement has none. The input runs under
    /// [`guard::run`]: a panic becomes an `InternalError` and leaves every name as it was
    /// before the input.
    pub fn execute_named(
        &mut self,
        src: &str,
        name: &str,
        sink: &mut dyn Sink,
    ) -> Result<(), Error> {
        self.counter += usize::from(!self.held);
        let id = self.sources.len();
        self.sources.push((name.to_string(), src.to_string()));
        self.failed.push(true);
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        let memory_limit = self.memory_limit;
        // The names travel to the evaluation thread and back; everything that may drop a
        // value the input made happens there, on a stack that can drop deeply nested values.
        let mut globals = std::mem::take(&mut self.globals);
        let text: Arc<str> = Arc::from(src);
        let (shows_none, options) = (sink.shows_none(), sink.render_options());
        let dead = std::mem::take(&mut self.shown);
        let mut shown = Vec::new();
        let random = self.random.clone();
        let outcome = guard::run_owned(
            move |events: &guard::Events<Event>| {
                drop(dead);
                crate::eval::rng::install(random);
                ragtag_engine::interrupt::watch(Some(cancel.clone()));
                ragtag_engine::budget::set_thread_limit(memory_limit);
                let snapshot = globals.clone();
                let mut relay = Relay {
                    events,
                    shows_none,
                    options,
                };
                let mut added = Vec::new();
                let run = guard::catch(|| {
                    let program =
                        ragtag_syntax::parse_interruptible(&text, &cancel).map_err(Error::from)?;
                    let mut interp = Interp::new(&mut globals, &mut relay, &cancel, id);
                    let run = interp.run(&program);
                    added = interp.take_sources();
                    run
                });
                if run.is_err() {
                    // A bug: the statement that hit it may have changed names half-way.
                    globals = snapshot;
                }
                (globals, added, run)
            },
            |event| shown.extend(event.deliver(sink)),
        );
        self.shown = shown;
        self.settle(id, src, outcome)
    }

    /// The end of every evaluation of input `id`: the names the evaluation thread handed
    /// back become the session's, a crash becomes an `InternalError`, and the input is
    /// marked as failed or not.
    fn settle<T>(&mut self, id: usize, src: &str, outcome: Outcome<T>) -> Result<T, Error> {
        let result = match outcome {
            Ok((globals, added, run)) => {
                self.globals = globals;
                self.keep_sources(added);
                run.unwrap_or_else(|crash| Err(internal_error(src, &crash)))
            }
            Err(crash) => Err(internal_error(src, &crash)),
        };
        self.failed[id] = result.is_err();
        result.map_err(|e| e.in_source(id))
    }

    /// Keeps the sources an input made while it ran (strings run by `exec`, `eval` and
    /// `compile`), numbered after it as the evaluation numbered them.
    fn keep_sources(&mut self, added: Vec<(String, String)>) {
        for source in added {
            self.sources.push(source);
            self.failed.push(false);
        }
    }

    /// Counts a meta-command as the next numbered input, so a notebook's prompt numbers and
    /// the `<cell N>` names in diagnostics stay in step.
    pub fn record_command(&mut self, line: &str) {
        self.counter += usize::from(!self.held);
        self.sources
            .push((format!("<cell {}>", self.counter), line.to_string()));
        self.failed.push(false);
    }

    /// Whether the input at `index` of [`Session::sources`] failed (raised an error).
    pub fn failed(&self, index: usize) -> bool {
        self.failed.get(index).copied().unwrap_or(false)
    }

    /// Runs `f` without numbering what it executes, for a frontend's `silent` request: the
    /// execution counter is restored afterwards, and the cells it ran are renamed `<silent>`
    /// so history leaves them out and the next numbered cell does not share their name.
    pub fn silently<R>(&mut self, f: impl FnOnce(&mut Session) -> R) -> R {
        let (counter, first) = (self.counter, self.sources.len());
        let typed = self.inputs.len();
        let result = f(self);
        self.counter = counter;
        self.inputs.truncate(typed);
        for (name, _) in self.sources.iter_mut().skip(first) {
            if name.starts_with("<cell ") {
                *name = "<silent>".to_string();
            }
        }
        result
    }

    /// Evaluates one expression as the next numbered cell and returns its value without
    /// displaying it (for commands such as `:explain EXPR`). Names are not changed.
    pub fn evaluate(&mut self, src: &str, sink: &mut dyn Sink) -> Result<Value, Error> {
        self.counter += usize::from(!self.held);
        let id = self.sources.len();
        let name = format!("<cell {}>", self.counter);
        self.sources.push((name, src.to_string()));
        self.cancel.store(false, Ordering::Relaxed);
        self.failed.push(true);
        let cancel = self.cancel.clone();
        let mut scratch = self.globals.clone();
        let memory_limit = self.memory_limit;
        let text: Arc<str> = Arc::from(src);
        let (shows_none, options) = (sink.shows_none(), sink.render_options());
        // Values shown so far wait, with this input's, for the next input's thread.
        let mut shown = std::mem::take(&mut self.shown);
        let random = self.random.clone();
        let outcome = guard::run_owned(
            move |events: &guard::Events<Event>| {
                crate::eval::rng::install(random);
                ragtag_engine::interrupt::watch(Some(cancel.clone()));
                ragtag_engine::budget::set_thread_limit(memory_limit);
                let program =
                    ragtag_syntax::parse_interruptible(&text, &cancel).map_err(Error::from)?;
                let expr = match program.body.as_slice() {
                    [stmt] => match &stmt.kind {
                        ragtag_syntax::ast::StmtKind::Expr(e) => e.clone(),
                        _ => {
                            return Err(Error::new(
                                ragtag_engine::exceptions::ExceptionClass::SyntaxError,
                                "expected an expression",
                            )
                            .at(stmt.span))
                        }
                    },
                    _ => {
                        return Err(Error::new(
                            ragtag_engine::exceptions::ExceptionClass::SyntaxError,
                            "expected one expression",
                        ))
                    }
                };
                let mut relay = Relay {
                    events,
                    shows_none,
                    options,
                };
                let mut interp = Interp::new(&mut scratch, &mut relay, &cancel, id);
                let value = interp.eval(&expr);
                Ok((interp.take_sources(), value))
            },
            |event| shown.extend(event.deliver(sink)),
        );
        self.shown = shown;
        let result = match outcome {
            Ok(Ok((added, value))) => {
                self.keep_sources(added);
                value
            }
            Ok(Err(e)) => Err(e),
            Err(crash) => Err(internal_error(src, &crash)),
        };
        self.failed[id] = result.is_err();
        result.map_err(|e| e.in_source(id))
    }

    /// Runs `src` as the next numbered cell (`<cell N>`).
    pub fn execute(&mut self, src: &str, sink: &mut dyn Sink) -> Result<(), Error> {
        let name = format!("<cell {}>", self.counter + usize::from(!self.held));
        self.execute_named(src, &name, sink)
    }

    /// Runs `src` (statements, as a notebook cell) as the next numbered cell and returns
    /// what it displayed and printed, in order. Names it assigns stay defined for later
    /// inputs; on an error, the statements before the failing one keep their effects.
    ///
    /// ```
    /// use ragtag_lang::session::Output;
    ///
    /// let mut session = ragtag_lang::Session::new();
    /// let outputs = session
    ///     .run("rt = tf.ragged.constant([[1, 2], [3]])\nprint(rt.nrows())\nrt.row_lengths()")
    ///     .unwrap();
    /// assert!(matches!(&outputs[0], Output::Print(text) if text == "tf.Tensor(2, shape=(), dtype=int64)\n"));
    /// assert!(matches!(&outputs[1], Output::Value(v) if v.as_dense().is_some()));
    /// assert!(session.get("rt").is_some());
    /// ```
    pub fn run(&mut self, src: &str) -> Result<Vec<Output>, Error> {
        let mut sink = Collect::default();
        self.execute(src, &mut sink)?;
        Ok(sink.outputs)
    }

    /// Evaluates one expression against the session's names and returns its value, for a
    /// program (or an evcxr notebook) that uses ragtag as a library. The input is numbered
    /// like a cell, so an error's diagnostic can point into it; names are not changed. What
    /// the expression prints on the way is written to standard output, as Python's `eval`
    /// would (displayed values as their tables).
    ///
    /// ```
    /// let mut session = ragtag_lang::Session::new();
    /// session.run("x = tf.ragged.constant([[1, 2, 3], [], [4]])").unwrap();
    /// let lengths = session.eval("x.row_lengths()").unwrap();
    /// let t = lengths.as_dense().unwrap();
    /// assert_eq!(t.to_i64_vec(), Some(vec![3, 0, 1]));
    ///
    /// let e = session.eval("x[5]").unwrap_err();
    /// assert_eq!(e.class.name(), "IndexError");
    /// ```
    pub fn eval(&mut self, src: &str) -> Result<Value, Error> {
        let mut sink = Collect::default();
        let value = self.evaluate(src, &mut sink);
        let mut out = std::io::stdout().lock();
        for output in &sink.outputs {
            let text = match output {
                Output::Print(text) => text.clone(),
                Output::Value(v) => format!("{}\n", self.render_value(v)),
            };
            // Nobody is left to tell when standard output is closed.
            let _ = out.write_all(text.as_bytes());
        }
        let _ = out.flush();
        value
    }

    /// Renders an error with miette against the source it points into.
    pub fn render_error(&self, e: &Error, style: Style, width: usize) -> String {
        let (name, text) = e
            .source
            .and_then(|i| self.sources.get(i as usize))
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .unwrap_or(("<input>", ""));
        diagnostic::render(e, name, text, style, width)
    }

    /// Where an error points: its source's name and the 1-based line and column where its
    /// span starts. The column counts bytes, as Python's `col_offset` and the report's
    /// `name:line:column` header do. None when the error has no span.
    pub fn error_location(&self, e: &Error) -> Option<(String, usize, usize)> {
        let span = e.span?;
        let (name, text) = self.sources.get(e.source? as usize)?;
        let before = text.get(..span.start)?;
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").len() + 1;
        Some((name.clone(), line, column))
    }

    /// Renders a displayed value in the session's format.
    ///
    /// ```
    /// use ragtag_lang::render::Format;
    ///
    /// let mut session = ragtag_lang::Session::new();
    /// let v = session.eval("tf.ragged.constant([[1], [2, 3]])").unwrap();
    /// session.format = Format::Tf;
    /// assert_eq!(session.render_value(&v), "<tf.RaggedTensor [[1], [2, 3]]>");
    /// ```
    pub fn render_value(&self, v: &Value) -> String {
        crate::render::render(v, self.format, &self.options)
    }
}

/// The report of an input that crashed the evaluator: a bug in ragtag, said as such, with
/// the input quoted so it can be reported.
/// What an evaluation thread hands back: the names it ends with and its result, or the
/// panic that ended it (caught inside the evaluation, or the thread's own).
type Outcome<T> = Result<(Names, Sources, Result<Result<T, Error>, guard::Crash>), guard::Crash>;

/// Sources as `(name, text)`.
type Sources = Vec<(String, String)>;

fn internal_error(src: &str, crash: &guard::Crash) -> Error {
    let first = src.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut quoted: String = first
        .chars()
        .take(80)
        .flat_map(char::escape_debug)
        .collect();
    if first.chars().count() > 80 || src.trim().lines().count() > 1 {
        quoted.push_str(" …");
    }
    Error::new(
        ragtag_engine::exceptions::ExceptionClass::InternalError,
        format!("ragtag failed on `{quoted}`: {}", crash.message),
    )
    .with_hint(
        "this is a bug in ragtag, not in your input; the session and its names are as they \
         were before this input. Please report it with the input quoted above",
    )
}

/// A sink that collects outputs in order (used by tests, the golden runner and the kernel).
#[derive(Debug, Default)]
pub struct Collect {
    /// What was produced, in order.
    pub outputs: Vec<Output>,
    /// Whether a bare expression whose value is None shows it (JSON does; the REPL and
    /// the table and TF text forms show nothing, as Python's REPL does).
    pub show_none: bool,
}

/// One thing an input produced.
#[derive(Debug, Clone)]
pub enum Output {
    /// A displayed value.
    Value(Value),
    /// Text written by `print`.
    Print(String),
}

impl Sink for Collect {
    fn shows_none(&self) -> bool {
        self.show_none
    }
    fn display(&mut self, value: &Value) {
        self.outputs.push(Output::Value(value.clone()));
    }
    fn print(&mut self, text: &str) {
        match self.outputs.last_mut() {
            Some(Output::Print(s)) => s.push_str(text),
            _ => self.outputs.push(Output::Print(text.to_string())),
        }
    }
}

/// Runs `src` in a fresh session and returns what it displayed, as DESIGN's JSON objects,
/// followed by an error object if it stopped on an uncaught error (what `ragtag run
/// --format json` prints, without `print` output).
pub fn json_outputs(src: &str) -> Vec<serde_json::Value> {
    json_stream(src, false)
}

/// Like [`json_outputs`], with what `print` wrote in its place among the values (consecutive
/// prints joined), as `ragtag run --format json` prints it.
pub fn json_transcript(src: &str) -> Vec<serde_json::Value> {
    json_stream(src, true)
}

fn json_stream(src: &str, prints: bool) -> Vec<serde_json::Value> {
    let mut session = Session::new();
    let mut sink = Collect {
        show_none: prints,
        ..Collect::default()
    };
    let result = session.execute_named(src, "<program>", &mut sink);
    let mut out: Vec<serde_json::Value> = sink
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Value(v) => Some(crate::render::json::to_json(v)),
            Output::Print(text) => prints.then(|| crate::render::json::print_json(text)),
        })
        .collect();
    if let Err(e) = result {
        // The class's own name, as `type(e).__name__` gives it (a traceback names its module).
        let class = e.class_name().rsplit('.').next().unwrap_or_default();
        out.push(crate::render::json::error_json(class, &e.message));
    }
    out
}
