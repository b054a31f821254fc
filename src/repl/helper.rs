//! The line editor's helper: completion from the session (the library's
//! [`ragtag::complete`]), colouring and hints from history.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use ragtag::Session;
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::highlight::highlight;

/// Shares the session with the loop that runs inputs (never borrowed while reading a line).
pub struct InputHelper {
    pub session: Rc<RefCell<Session>>,
    pub color: bool,
    pub hinter: HistoryHinter,
    /// False while a lesson's input is offered, whose line history would hint over.
    pub hints: bool,
}

impl Completer for InputHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let Ok(session) = self.session.try_borrow() else {
            return Ok((pos, Vec::new()));
        };
        let (start, candidates) = ragtag::complete::complete(&session, line, pos);
        Ok((
            start,
            candidates
                .into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Hinter for InputHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        if !self.hints {
            return None;
        }
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for InputHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if self.color {
            Cow::Owned(highlight(line))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            // Dim, so a hint never reads as typed text.
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, kind: CmdKind) -> bool {
        // Any edit can change a token's class (closing a quote recolours the rest).
        self.color && kind != CmdKind::MoveCursor
    }
}

/// Enter always accepts the line: the REPL itself decides, by Python's rules, whether the
/// input goes on to a `... ` line (`ragtag::command::continuation::continues`).
impl Validator for InputHelper {}

impl Helper for InputHelper {}
