//! What an evaluation thread sends the session's caller: each output, in order, relayed
//! to the caller's sink while the input still runs (and `input()`'s line sent back).

use crate::diagnostic::Error;
use crate::eval::Sink;
use crate::render::Options;
use crate::value::Value;
use ragtag_engine::guard;

/// What evaluation hands to the caller's sink, across threads.
pub(super) enum Event {
    Display(Value),
    Print(String),
    Show(crate::render::grid::Display, Options),
    Picture(String, String),
    Page(String),
    Stderr(String),
    DisplayNow(Value),
    ClearOutput(bool),
    /// `input(prompt)`: the line read goes back to the evaluation thread.
    Input(
        String,
        std::sync::mpsc::Sender<Result<Option<String>, Error>>,
    ),
}

impl Event {
    /// Hands the event to `sink`; a displayed value comes back, to be dropped later on an
    /// evaluation thread.
    pub(super) fn deliver(self, sink: &mut dyn Sink) -> Option<Value> {
        match self {
            Event::Display(v) => {
                sink.display(&v);
                return Some(v);
            }
            Event::DisplayNow(v) => {
                sink.display_now(&v);
                return Some(v);
            }
            Event::Print(text) => sink.print(&text),
            Event::Show(display, opts) => sink.show(&display, &opts),
            Event::Picture(svg, text) => sink.picture(&svg, &text),
            Event::Page(text) => sink.page(&text),
            Event::Stderr(text) => sink.print_stderr(&text),
            Event::ClearOutput(wait) => sink.clear_output(wait),
            Event::Input(prompt, reply) => {
                // The evaluation thread waits for the answer; if it is gone, nobody asks.
                let _ = reply.send(sink.input(&prompt));
            }
        }
        None
    }
}

/// The sink evaluation writes to on its own thread: it relays each output, in order, to
/// the session's caller, whose sink shows it while the input is still running.
pub(super) struct Relay<'a> {
    pub(super) events: &'a guard::Events<Event>,
    /// The caller's sink's answers, asked once before the input runs.
    pub(super) shows_none: bool,
    pub(super) options: Options,
}

impl Sink for Relay<'_> {
    fn display(&mut self, value: &Value) {
        // Shown as it is now: later statements may change a list or dict it holds.
        self.events
            .send(Event::Display(crate::value::snapshot(value)));
    }
    fn print(&mut self, text: &str) {
        self.events.send(Event::Print(text.to_string()));
    }
    fn shows_none(&self) -> bool {
        self.shows_none
    }
    fn render_options(&self) -> Options {
        self.options
    }
    fn show(&mut self, display: &crate::render::grid::Display, opts: &Options) {
        self.events.send(Event::Show(display.clone(), *opts));
    }
    // Every other output is relayed too, so each front end still decides how to show it
    // (a pager, a picture, the stderr stream).
    fn picture(&mut self, svg: &str, text: &str) {
        self.events
            .send(Event::Picture(svg.to_string(), text.to_string()));
    }
    fn page(&mut self, text: &str) {
        self.events.send(Event::Page(text.to_string()));
    }
    fn print_stderr(&mut self, text: &str) {
        self.events.send(Event::Stderr(text.to_string()));
    }
    fn display_now(&mut self, value: &Value) {
        self.events
            .send(Event::DisplayNow(crate::value::snapshot(value)));
    }
    fn clear_output(&mut self, wait: bool) {
        self.events.send(Event::ClearOutput(wait));
    }
    // The caller's sink reads the line on the caller's thread (the terminal is there).
    fn input(&mut self, prompt: &str) -> Result<Option<String>, Error> {
        let (reply, answer) = std::sync::mpsc::channel();
        self.events.send(Event::Input(prompt.to_string(), reply));
        answer.recv().unwrap_or(Ok(None))
    }
}
