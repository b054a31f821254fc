//! The last line of defence around evaluation: every input runs on a thread of its own with
//! one fixed stack size, a panic there becomes an `InternalError` report instead of ending
//! the process, and deep recursion — of user functions or of nested expressions — becomes a
//! `RecursionError` well before the stack runs out.
//!
//! The REPL, `ragtag run`, `-c`, `ragtag test` and the Jupyter kernel all evaluate through
//! [`Session`](crate::Session), which calls [`run`] here, so every front end has the same
//! stack and the same limits: a transcript that passes under `ragtag test` behaves the same
//! when a user types it.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use crate::engine::ErrorClass;

/// The stack of the evaluation thread. The memory is reserved, not touched, until an input
/// recurses that deep; a thread lives for one input, so what deep recursion touched is
/// returned right after.
pub const EVAL_STACK_BYTES: usize = 256 << 20;

/// How much of [`EVAL_STACK_BYTES`] evaluation may use before a RecursionError: the rest is
/// headroom for whatever one level of evaluation (rendering, an engine call, the error
/// report) needs below the deepest check.
pub const STACK_LIMIT_BYTES: usize = EVAL_STACK_BYTES - (32 << 20);

/// The name of evaluation threads (panic messages on them are reported, not printed).
const THREAD_NAME: &str = "ragtag-eval";

thread_local! {
    /// The address of a local at the bottom of this evaluation thread's stack; 0 on threads
    /// that are not evaluation threads.
    static STACK_BASE: Cell<usize> = const { Cell::new(0) };
    /// The message and place of the last panic on this thread.
    static LAST_PANIC: Cell<Option<String>> = const { Cell::new(None) };
}

/// What went wrong when an input could not be evaluated normally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    /// The panic's message and source location.
    pub message: String,
}

/// Runs `f` on a fresh evaluation thread with [`EVAL_STACK_BYTES`] of stack and returns its
/// result, or the panic it raised. Where no thread can be started (the system is out of
/// threads) `f` runs on the caller's thread, still guarded against panics.
pub fn run<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, Crash> {
    install_hook();
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .stack_size(EVAL_STACK_BYTES)
            .spawn_scoped(scope, || {
                let marker = 0u8;
                STACK_BASE.with(|b| b.set(std::ptr::addr_of!(marker) as usize));
                catch(f)
            });
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|payload| {
                Err(Crash {
                    message: payload_message(&*payload),
                })
            }),
            Err(_) => Err(Crash {
                message: "no thread could be started for the evaluation".into(),
            }),
        }
    })
}

/// Runs `f`, turning a panic into a [`Crash`] that carries its message and place. Use it
/// inside [`run`] to clean up after a panic while still on the evaluation thread.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Crash> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = LAST_PANIC
            .with(Cell::take)
            .unwrap_or_else(|| payload_message(&*payload));
        Crash { message }
    })
}

/// Fails with RecursionError when the current evaluation thread has used more than
/// [`STACK_LIMIT_BYTES`] of its stack. Recursive parts of evaluation (expressions,
/// statements, calls, conversions of nested values) call this at each level. On a thread
/// that is not an evaluation thread it never fails.
pub fn check_stack() -> Result<(), crate::engine::EngineError> {
    let base = STACK_BASE.with(Cell::get);
    if base == 0 {
        return Ok(());
    }
    let marker = 0u8;
    let here = std::ptr::addr_of!(marker) as usize;
    if base.saturating_sub(here) > STACK_LIMIT_BYTES {
        return Err(crate::engine::EngineError::new(
            ErrorClass::RecursionError,
            "maximum recursion depth exceeded",
        )
        .with_hint(
            "the input nests calls or expressions too deeply; Python's default limit is 1000 calls",
        ));
    }
    Ok(())
}

/// Whether the current evaluation thread is too deep to recurse further: recursive
/// drawing of a value (a list nested a million deep) stops here and shows `...` instead.
pub fn too_deep() -> bool {
    check_stack().is_err()
}

/// Drops `value` on an evaluation thread: a value nested a million deep takes more stack to
/// drop than an ordinary thread has.
pub fn drop_deep<T: Send>(value: T) {
    let _ = run(move || drop(value));
}

/// Replaces the panic hook once: a panic on an evaluation thread is recorded for its
/// report instead of printed; panics elsewhere go to the previous hook as before.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().map(str::to_owned);
            if matches!(name.as_deref(), Some(THREAD_NAME | "ragtag-parse")) {
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let msg = payload_message(info.payload());
                LAST_PANIC.with(|p| p.set(Some(format!("{msg}{place}"))));
            } else {
                previous(info);
            }
        }));
    });
}

fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_crash_with_its_place() {
        let r: Result<(), Crash> = run(|| panic!("boom {}", 7));
        let c = r.unwrap_err();
        assert!(c.message.starts_with("boom 7 at "), "{}", c.message);
        assert!(c.message.contains("guard.rs"), "{}", c.message);
        assert_eq!(run(|| 6 * 7), Ok(42));
    }

    fn nest(n: usize) -> Result<usize, crate::engine::EngineError> {
        check_stack()?;
        let pad = [n as u8; 512];
        Ok(nest(n + 1)? + usize::from(std::hint::black_box(pad)[0] == 0))
    }

    #[test]
    fn unbounded_recursion_is_a_recursion_error() {
        let e = run(|| nest(0)).unwrap().unwrap_err();
        assert_eq!(e.class, ErrorClass::RecursionError);
        // Off an evaluation thread the check never fails.
        assert!(check_stack().is_ok());
    }
}
