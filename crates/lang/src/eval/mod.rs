//! The evaluator: runs statements and expressions against a session's names and the
//! builtin table. This module holds the [`Interp`] state and top-level runs; statements,
//! expressions, names, attributes and calls each have their own submodule. The Python
//! exception classes programs raise and catch are the engine's
//! ([`ragtag_engine::exceptions`]), the one hierarchy every layer raises.

mod annotations;
pub mod args;
mod attributes;
pub mod builtins;
mod bytes_items;
mod calls;
pub mod catalogue;
mod class_order;
pub mod classes;
pub mod collection_items;
mod combinatorics;
mod construct;
pub mod convert;
mod descriptors;
mod dunder;
pub mod exec_code;
mod expressions;
pub mod generator;
mod generator_blocks;
pub mod items;
mod iteration;
pub mod iterators;
mod keys;
mod lazy;
mod matching;
mod named_items;
mod names;
mod numeric_protocol;
pub mod operators;
mod own_frame;
mod params;
mod protocols;
mod raising;
pub mod rng;
mod set_attrs;
mod spares;
mod statements;
mod subscript;
pub mod suggest;
mod supers;
mod unpack;
mod user_iter;
mod with_stmt;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::diagnostic::{Error, Result};
use crate::value::env::Names;
use crate::value::Value;
use ragtag_syntax::ast::*;
use statements::outside_loop;

pub use classes::wrapper as classes_wrapper;
pub use dunder::not_implemented as dunder_not_implemented;

/// Where evaluation sends what a program shows.
pub trait Sink: Send {
    /// A bare expression statement produced `value` at top level.
    fn display(&mut self, value: &Value);
    /// `print(…)` wrote `text` (including its line end).
    fn print(&mut self, text: &str);
    /// Whether a bare expression whose value is None is displayed (`{"kind": "none"}` in
    /// JSON); by default it shows nothing, as in Python's REPL.
    fn shows_none(&self) -> bool {
        false
    }
    /// How text this sink shows should be drawn (width, limits, Unicode, colour), for output
    /// rendered during evaluation such as `explain(x)`. Plain Unicode by default.
    fn render_options(&self) -> crate::render::Options {
        crate::render::Options::default()
    }
    /// A display that is not a value — `explain(x)`'s view of how a value is stored. The
    /// default prints it as a text table; a sink that can show rich output (the Jupyter
    /// kernel) overrides this to send HTML too.
    fn show(&mut self, display: &crate::render::grid::Display, opts: &crate::render::Options) {
        self.print(&format!(
            "{}\n",
            crate::render::table::to_text(display, opts)
        ));
    }
    /// A picture (`draw(x)`): its SVG document and `text`, the value's table, for where
    /// pictures cannot be shown. The default prints the text; the Jupyter kernel sends
    /// both, and `ragtag run --format svg` prints the SVG.
    fn picture(&mut self, svg: &str, text: &str) {
        let _ = svg;
        self.print(&format!("{text}\n{}\n", crate::render::svg::TEXT_NOTE));
    }
    /// A help page (`help(x)`): printed, unless the front end has a pager (Jupyter's).
    fn page(&mut self, text: &str) {
        self.print(text);
    }
    /// `print(…, file=sys.stderr)`: printed, unless the front end keeps a stderr stream.
    fn print_stderr(&mut self, text: &str) {
        self.print(text);
    }
    /// `display(x)`: shown now as a display of its own (not the cell's result).
    fn display_now(&mut self, value: &Value) {
        self.display(value);
    }
    /// `clear_output(wait)`: clears the cell's output where the front end has one.
    fn clear_output(&mut self, _wait: bool) {}
    /// A meta-command line in the middle of a cell changed how values are shown
    /// (`:format json`, `:set width=60`): a sink that renders values itself takes these
    /// for the rest of the cell.
    fn restyle(&mut self, _format: crate::render::Format, _options: &crate::render::Options) {}
    /// `input(prompt)`: shows `prompt` and reads one line, without its line end; `Ok(None)`
    /// when there is no line to read (an EOFError). By default there is no input: the
    /// prompt is printed and nothing is read (a transcript, a test). A terminal front end
    /// reads standard input ([`read_stdin_line`]); one that cannot ask for input raises an
    /// error saying so.
    fn input(&mut self, prompt: &str) -> Result<Option<String>> {
        self.print(prompt);
        Ok(None)
    }
    /// `%load FILE`: a front end with editable cells (the kernel) takes `text` as the
    /// cell's new contents, as IPython's `set_next_input` does, and returns true; any
    /// other returns false and the file runs.
    fn next_input(&mut self, _text: &str) -> bool {
        false
    }
}

/// The methods of [`Sink`] other than `display` and `shows_none`, each passed on to the sink
/// in field `$inner`: for a sink that changes only what is displayed (`%time`'s, which holds
/// values back, and the one of code run from a string, which shows none).
macro_rules! forward_sink {
    ($inner:ident) => {
        fn print(&mut self, text: &str) {
            self.$inner.print(text);
        }
        fn render_options(&self) -> crate::render::Options {
            self.$inner.render_options()
        }
        fn show(&mut self, display: &crate::render::grid::Display, opts: &crate::render::Options) {
            self.$inner.show(display, opts);
        }
        fn picture(&mut self, svg: &str, text: &str) {
            self.$inner.picture(svg, text);
        }
        fn page(&mut self, text: &str) {
            self.$inner.page(text);
        }
        fn print_stderr(&mut self, text: &str) {
            self.$inner.print_stderr(text);
        }
        fn display_now(&mut self, value: &crate::value::Value) {
            self.$inner.display_now(value);
        }
        fn clear_output(&mut self, wait: bool) {
            self.$inner.clear_output(wait);
        }
        fn restyle(&mut self, format: crate::render::Format, options: &crate::render::Options) {
            self.$inner.restyle(format, options);
        }
        fn input(&mut self, prompt: &str) -> crate::diagnostic::Result<Option<String>> {
            self.$inner.input(prompt)
        }
        fn next_input(&mut self, text: &str) -> bool {
            self.$inner.next_input(text)
        }
    };
}
pub(crate) use forward_sink;

/// Writes `prompt` to standard output and reads one line from standard input, without its
/// line end (`None` at the end of input): `input()` for a terminal front end.
pub fn read_stdin_line(prompt: &str) -> Result<Option<String>> {
    use std::io::{BufRead, Write};
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(prompt.as_bytes());
    let _ = out.flush();
    drop(out);
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) => Ok(None),
        Ok(_) => {
            if line.ends_with('\n') {
                line.pop();
                if line.ends_with('\r') {
                    line.pop();
                }
            }
            Ok(Some(line))
        }
        Err(e) => Err(Error::new(
            ragtag_engine::ExceptionClass::OSError,
            format!("cannot read standard input: {e}"),
        )),
    }
}

/// How a statement finished.
enum Flow {
    Normal,
    Return(Value),
    Break,
    Continue,
}

/// Deepest nesting of user function calls before a RecursionError: Python's default
/// recursion limit. Nested expressions are bounded separately by the evaluation stack
/// ([`ragtag_engine::guard::check_stack`]).
pub const MAX_DEPTH: usize = 1000;

/// The recursion limit `sys.setrecursionlimit` set (one for the process, as CPython's).
static RECURSION_LIMIT: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(MAX_DEPTH);

/// How deep user function calls may nest now: [`MAX_DEPTH`] unless
/// `sys.setrecursionlimit` changed it (deeper recursion still stops at the evaluation
/// stack's own limit, [`ragtag_engine::guard::check_stack`]).
pub fn recursion_limit() -> usize {
    RECURSION_LIMIT.load(std::sync::atomic::Ordering::Relaxed)
}

/// `sys.setrecursionlimit`.
pub fn set_recursion_limit(n: usize) {
    RECURSION_LIMIT.store(n, std::sync::atomic::Ordering::Relaxed);
}

/// The last object raised (an instance of a user's exception class, or a builtin exception
/// raised as an object), with the builtin class and message of the error that carries it.
pub(super) type Raised = Option<(Value, ragtag_engine::ExceptionClass, String)>;

/// One evaluation in progress: the session's globals plus a stack of local frames.
pub struct Interp<'s> {
    globals: &'s mut Names,
    frames: Vec<std::sync::Arc<crate::value::env::Env>>,
    sink: &'s mut dyn Sink,
    cancel: &'s AtomicBool,
    /// The id of the source being run (for closures created in it).
    pub source: usize,
    /// How many blocks (loop, `if`, `try` and function bodies) enclose the running statement.
    block_depth: usize,
    /// The qualified name of the class whose body is running (methods are named `A.f`).
    qualname: Option<String>,
    /// The last object raised (see [`Raised`]).
    raised: Raised,
    /// The exceptions whose `except` handlers are running, innermost last, each with the
    /// object it was raised from: what a bare `raise` raises again.
    handling: Vec<(Error, Raised)>,
    /// Environments of finished calls that nothing else held, emptied, for the next calls
    /// to reuse (at most [`spares::SPARE_ENVS`]), with what each call ran (see `spares`).
    spares: Vec<spares::Spare>,
    /// The method keys the spare frames let go of, whose room the next ones reuse.
    #[allow(clippy::vec_box)] // the boxes are what is reused: a spare frame keeps one
    spare_keys: Vec<Box<spares::MethodKey>>,
    /// Emptied variables of finished calls, whose room the next calls bind their
    /// parameters in (at most [`spares::SPARE_ENVS`]).
    /// Boxed, so that a call moves them as one word.
    #[allow(clippy::vec_box)] // the boxes are what is reused: a call's frame holds one
    spare_vars: Vec<Box<crate::value::env::Locals>>,
    /// The innermost frames' variables while the interpreter holds them (see `own_frame`).
    own: own_frame::OwnFrames,
    /// The sources this evaluation made (the strings `exec`, `eval` and `compile` ran), as
    /// `(name, text)`: source ids `first_added`, `first_added + 1`, … The session keeps
    /// them after the input's own source, so that a report can show them.
    added: Vec<(String, String)>,
    first_added: usize,
}

/// How many of the latest sources an evaluation made [`Interp::add_source`] looks through
/// for the same text.
const RECENT_SOURCES: usize = 16;

/// The names every session starts with besides builtins: module roots and exception classes.
pub fn root_module(name: &str) -> Option<&'static str> {
    Some(match name {
        "tf" | "tensorflow" => "tf",
        "np" | "numpy" => "np",
        "fluid" => "fluid",
        "paddle" => "paddle",
        "math" => "math",
        "sys" => "sys",
        "ak" | "awkward" => "ak",
        "ragtag" => "ragtag",
        _ => return None,
    })
}

impl<'s> Interp<'s> {
    /// An evaluator over `globals`, sending output to `sink`.
    pub fn new(
        globals: &'s mut Names,
        sink: &'s mut dyn Sink,
        cancel: &'s AtomicBool,
        source: usize,
    ) -> Self {
        Interp {
            globals,
            frames: Vec::new(),
            sink,
            cancel,
            source,
            block_depth: 0,
            qualname: None,
            raised: None,
            handling: Vec::new(),
            spares: Vec::new(),
            spare_keys: Vec::new(),
            spare_vars: Vec::new(),
            own: Default::default(),
            added: Vec::new(),
            first_added: source + 1,
        }
    }

    /// Continues the numbering of sources made by an earlier evaluation of the same input
    /// (`sources` is what [`Self::take_sources`] gave back), for an input run many times.
    pub fn with_sources(mut self, sources: Vec<(String, String)>) -> Self {
        self.added = sources;
        self
    }

    /// The sources this evaluation made, in the order of their ids (the first is the
    /// input's id plus one), for the session to keep.
    pub fn take_sources(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.added)
    }

    /// Registers a source made while running (a string given to `exec`) and returns its id.
    /// The same string run again soon after (`exec` in a loop) keeps its first id, so that
    /// a loop does not keep a copy of its text for every pass.
    pub fn add_source(&mut self, name: &str, text: &str) -> usize {
        let recent = self.added.len().saturating_sub(RECENT_SOURCES);
        if let Some(i) = (recent..self.added.len())
            .rev()
            .find(|&i| self.added[i].0 == name && self.added[i].1 == text)
        {
            return self.first_added + i;
        }
        self.added.push((name.to_string(), text.to_string()));
        self.first_added + self.added.len() - 1
    }

    /// Fails with KeyboardInterrupt when the user asked to stop.
    pub fn check_cancel(&self) -> Result<()> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Error::from(ragtag_engine::interrupt::interrupted()));
        }
        Ok(())
    }

    /// Sends `print` output to the sink.
    pub fn print(&mut self, text: &str) {
        self.sink.print(text);
    }

    /// The sink output goes to (pages, stderr, displays, clearing).
    pub fn sink(&mut self) -> &mut dyn Sink {
        &mut *self.sink
    }

    /// The display options of the sink output goes to.
    pub fn render_options(&self) -> crate::render::Options {
        self.sink.render_options()
    }

    /// Sends a display that is not a value (an explanation) to the sink.
    pub fn show(&mut self, display: &crate::render::grid::Display) {
        let opts = self.sink.render_options();
        self.sink.show(display, &opts);
    }

    /// Sends a picture (`draw(x)`) and its text form to the sink.
    pub fn picture(&mut self, svg: &str, text: &str) {
        self.sink.picture(svg, text);
    }

    /// Runs a whole program at top level, as Python does: what ran before an error keeps
    /// its effects, including the part of the failing statement that ran (a loop's earlier
    /// passes, an item already appended), since values are shared and mutable.
    pub fn run(&mut self, program: &Program) -> Result<()> {
        for stmt in &program.body {
            self.check_cancel()?;
            match self.exec(stmt).map_err(|e| self.uncaught(e))? {
                Flow::Break | Flow::Continue => return Err(outside_loop(stmt.span)),
                Flow::Normal | Flow::Return(_) => {}
            }
        }
        Ok(())
    }

    /// Binds a global name.
    fn set_global(&mut self, name: &str, v: Value) {
        // Rebinding replaces the value in place: a top-level loop rebinds its variable on
        // every pass, and a new key would allocate each time.
        match self.globals.get_mut(name) {
            Some(slot) => *slot = v,
            None => {
                self.globals.insert(name.to_string(), v);
            }
        }
    }
}
