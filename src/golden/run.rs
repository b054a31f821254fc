//! Replaying a transcript in a fresh session and rendering each input's output the way the
//! transcript records it: tables at a fixed width, no colour, diagnostics in plain miette.

use std::panic::{self, AssertUnwindSafe};

use super::parse::{normalize, Transcript};
use crate::command::{self, Outcome};
use crate::diagnostic::Style;
use crate::render::{Format, Options};
use crate::session::{Collect, Output};
use crate::Session;

/// The width transcripts are rendered at: tables and diagnostics wrap at 100 columns, so a
/// transcript reads the same on every machine and in a side-by-side diff.
pub const WIDTH: usize = 100;

/// What one input produced when replayed.
#[derive(Debug, Clone, PartialEq)]
pub struct Actual {
    /// The output lines, normalized as expected outputs are.
    pub lines: Vec<String>,
    /// The panic message, when evaluating the input panicked (always a failure).
    pub panic: Option<String>,
}

/// A session set up the way transcripts are rendered.
pub fn golden_session() -> Session {
    crate::engine::budget::set_limit(crate::engine::budget::TRANSCRIPT_LIMIT);
    let mut session = Session::new();
    session.format = Format::Table;
    session.options = Options {
        width: WIDTH,
        unicode: true,
        color: false,
        ..Options::default()
    };
    session
}

/// Runs one input (a cell or a `:` meta-command) and returns everything it showed, in order.
pub fn run_input(session: &mut Session, source: &str) -> String {
    let mut sink = Collect::default();
    let result = if command::is_command(source) {
        match command::run(session, source, &mut sink) {
            Ok(Outcome::Text(t)) => Ok(Some(t)),
            Ok(Outcome::Quit) => Ok(None),
            Err(e) => Err(e),
        }
    } else {
        session.execute(source, &mut sink).map(|()| None)
    };
    let mut text = String::new();
    for out in &sink.outputs {
        match out {
            Output::Value(v) => {
                text.push_str(&session.render_value(v));
                text.push('\n');
            }
            Output::Print(s) => text.push_str(s),
        }
    }
    let mut push_block = |block: &str| {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(block);
    };
    match result {
        Ok(Some(t)) => push_block(&t),
        Ok(None) => {}
        Err(e) => push_block(&session.render_error(&e, Style::Plain, WIDTH)),
    }
    text
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

/// The stack of the thread transcripts replay on. Test threads get 2 MiB, less than the
/// 8 MiB of a terminal's main thread, and a must-not-panic transcript nests expressions as
/// deeply as the parser allows; the memory is only reserved, not touched.
const STACK_BYTES: usize = 64 << 20;

/// Replays every entry of `transcript` in one fresh session, on a thread with a generous
/// stack. A panicking input is caught and recorded; replay goes on with the next input.
pub fn replay(transcript: &Transcript) -> Vec<Actual> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("ragtag-golden".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || replay_here(transcript))
            .map(|h| h.join())
    })
    .ok()
    .and_then(Result::ok)
    .unwrap_or_else(|| replay_here(transcript))
}

fn replay_here(transcript: &Transcript) -> Vec<Actual> {
    let mut session = golden_session();
    transcript
        .entries
        .iter()
        .map(|entry| {
            match panic::catch_unwind(AssertUnwindSafe(|| run_input(&mut session, &entry.source))) {
                Ok(text) => Actual {
                    lines: normalize(text.split('\n')),
                    panic: None,
                },
                Err(payload) => {
                    let msg = panic_message(&*payload);
                    Actual {
                        lines: vec![format!("PANIC: {msg}")],
                        panic: Some(msg),
                    }
                }
            }
        })
        .collect()
}
