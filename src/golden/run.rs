//! Replaying a transcript in a fresh session and rendering each input's output the way the
//! transcript records it: tables at a fixed width, no colour, diagnostics in plain miette.

use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Actual {
    /// The output lines, normalized as expected outputs are.
    pub lines: Vec<String>,
    /// What went wrong beyond a wrong output, when something did (always a failure).
    pub fault: Option<Fault>,
    /// The class of the error the input failed with, when it failed.
    #[serde(default)]
    pub error: Option<String>,
}

/// Something that fails a transcript whatever its expected output says, and keeps it from
/// being blessed: ragtag itself went wrong, or the input never finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// Evaluating the input panicked (caught by the runner).
    Panic {
        /// The panic message.
        message: String,
    },
    /// The input failed with `InternalError`: a panic the session caught and reported.
    Internal {
        /// The error's message.
        message: String,
    },
    /// The input ran longer than the timeout and stopped when interrupted.
    TimedOut {
        /// The timeout, in seconds.
        seconds: f64,
    },
    /// The input ran longer than the timeout, ignored the interrupt and was killed.
    Killed {
        /// The timeout, in seconds.
        seconds: f64,
        /// How long the input had run when it was killed, in seconds.
        after: f64,
    },
    /// The process running the transcript died during the input (stack overflow, failed
    /// allocation, abort).
    Aborted {
        /// How it ended, e.g. `signal SIGABRT`.
        how: String,
        /// The last lines it wrote to standard error.
        stderr: String,
    },
    /// The input failed with an error, but its line is not marked `# raises ClassName`, so
    /// the error cannot be blessed as if it were a value.
    Unmarked {
        /// The error's class.
        class: String,
    },
    /// The input is marked `# raises ClassName` but failed with another class, or not at
    /// all.
    WrongRaise {
        /// The class its marker names.
        expected: String,
        /// The class it failed with, if it failed.
        got: Option<String>,
    },
}

impl std::fmt::Display for Fault {
    /// What happened, to follow `input 3 (line 17) `.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Panic { message } => write!(f, "panicked: {message}"),
            Fault::Internal { message } => write!(f, "raised InternalError: {message}"),
            Fault::TimedOut { seconds } => {
                write!(f, "did not finish within {seconds} s (interrupted)")
            }
            Fault::Killed { seconds, after } => write!(
                f,
                "did not finish within {seconds} s and ignored the interrupt; killed after {after:.1} s"
            ),
            Fault::Aborted { how, .. } => write!(f, "aborted the process: {how}"),
            Fault::Unmarked { class } => write!(
                f,
                "raised {class}, but its line is not marked `# raises {class}` (add the marker \
                 if the error is expected)"
            ),
            Fault::WrongRaise { expected, got } => match got {
                Some(got) => write!(f, "is marked `# raises {expected}` but raised {got}"),
                None => write!(f, "is marked `# raises {expected}` but raised nothing"),
            },
        }
    }
}

/// The memory limit `--max-memory` gave `ragtag test`; 0 when none was given.
static MEMORY_LIMIT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Makes transcripts replay under `bytes` (`ragtag test --max-memory`) instead of the fixed
/// [`crate::engine::budget::TRANSCRIPT_LIMIT`].
pub fn set_memory_limit(bytes: u64) {
    MEMORY_LIMIT.store(bytes.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// The limit `--max-memory` set for transcripts, if one was given.
pub fn memory_limit() -> Option<u64> {
    match MEMORY_LIMIT.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        bytes => Some(bytes),
    }
}

/// A session set up the way transcripts are rendered.
pub fn golden_session() -> Session {
    let mut session = Session::new();
    session.reproducible_random();
    // The same limit on every machine, so ResourceExhaustedError messages read the same,
    // unless the run asked for its own.
    session.memory_limit = Some(memory_limit().unwrap_or(crate::engine::budget::TRANSCRIPT_LIMIT));
    session.format = Format::Table;
    session.options = Options {
        width: WIDTH,
        unicode: true,
        color: false,
        ..Options::default()
    };
    session
}

/// Makes the session render at the width a file's `# ragtag: width=N` directive asked for
/// (a `:set width=` input changes it from there on), or at [`WIDTH`].
pub fn set_width(session: &mut Session, width: Option<usize>) {
    session.options.width = width.unwrap_or(WIDTH);
}

/// Runs one input (a cell or a `:` meta-command) and returns everything it showed, in order.
pub fn run_input(session: &mut Session, source: &str) -> String {
    run_input_noting(session, source, &mut None)
}

/// What an input's error was: its class, and its message when it is an `InternalError`.
#[derive(Default)]
struct Noted {
    class: Option<String>,
    internal: Option<String>,
}

/// [`run_input`], noting the error's class and the message of an `InternalError`. The class
/// is matched by name so this reads the same whether or not the session defines it.
fn run_input_noting(session: &mut Session, source: &str, noted: &mut Option<Noted>) -> String {
    let mut sink = Collect::default();
    // A cell as a notebook runs it: code, `:` commands, `%` magics and `!` lines in order.
    let result = match command::cell::run_cell(session, source, None, &mut sink) {
        Ok(Outcome::Text(t)) if !t.is_empty() => Ok(Some(t)),
        Ok(_) => Ok(None),
        Err(e) => Err(e),
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
        Err(e) => {
            let noted = noted.get_or_insert_with(Noted::default);
            noted.class = Some(e.class_name().to_string());
            if e.class.name() == "InternalError" {
                noted.internal = Some(e.message.clone());
            }
            push_block(&session.render_error(&e, Style::Plain, session.options.width))
        }
    }
    text
}

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
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
/// deeply as the parser allows; the memory is only reserved, not touched. (Once the session
/// evaluates every input on a thread of its own, this is a second line of defence.)
const STACK_BYTES: usize = 64 << 20;

/// Runs `f` on a thread with a [`STACK_BYTES`] stack (on this thread if none can be made).
pub(crate) fn on_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let mut f = Some(f);
    let slot = &mut f;
    let joined = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("ragtag-golden".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || slot.take().map(|f| f()))
            .ok()
            .map(|h| h.join())
    });
    match joined {
        Some(Ok(Some(r))) => r,
        Some(Err(payload)) => panic::resume_unwind(payload),
        Some(Ok(None)) | None => (f.take().expect("not run when the thread failed to start"))(),
    }
}

/// Runs one input and records what it showed; a panic, or an error of class
/// `InternalError` (a panic the session caught), is recorded as a [`Fault`].
pub fn run_entry(session: &mut Session, source: &str) -> Actual {
    let mut noted = None;
    match panic::catch_unwind(AssertUnwindSafe(|| {
        run_input_noting(session, source, &mut noted)
    })) {
        Ok(text) => {
            let noted = noted.unwrap_or_default();
            Actual {
                lines: normalize(text.split('\n')),
                fault: noted.internal.map(|message| Fault::Internal { message }),
                error: noted.class,
            }
        }
        Err(payload) => {
            let message = panic_message(&*payload);
            Actual {
                lines: vec![format!("PANIC: {message}")],
                fault: Some(Fault::Panic { message }),
                error: None,
            }
        }
    }
}

/// Replays every entry of `transcript` in one fresh session, on a thread with a generous
/// stack. A panicking input is caught and recorded; replay goes on with the next input.
pub fn replay(transcript: &Transcript) -> Vec<Actual> {
    on_big_stack(|| {
        let mut session = golden_session();
        set_width(&mut session, transcript.settings.width);
        transcript
            .entries
            .iter()
            .map(|entry| run_entry(&mut session, &entry.source))
            .collect()
    })
}
