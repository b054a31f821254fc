//! The last line of defence around evaluation: every input runs on an evaluation thread
//! with one fixed stack size, a panic there becomes an `InternalError` report instead of
//! ending the process, and deep recursion — of user functions or of nested expressions —
//! becomes a `RecursionError` well before the stack runs out.
//!
//! The REPL, `ragtag run`, `-c`, `ragtag test` and the Jupyter kernel all evaluate through
//! [`Session`](crate::Session), which calls [`run_owned`] here, so every front end has the
//! same stack and the same limits: a transcript that passes under `ragtag test` behaves the
//! same when a user types it.
//!
//! Starting a thread with a 256 MiB stack costs more than evaluating a small input, so
//! evaluation threads are kept alive between inputs in a small pool and handed work over a
//! channel. A thread that panicked, or whose stack went deep (its touched pages stay
//! resident), is retired after its input and the next input gets a fresh one.

use std::any::Any;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, Once};

use crate::ExceptionClass;

/// The stack of an evaluation thread. The memory is reserved, not touched, until an input
/// recurses that deep; a thread whose input went deeper than [`RETIRE_DEPTH_BYTES`] is not
/// reused, so what deep recursion touched is returned right after.
pub const EVAL_STACK_BYTES: usize = 256 << 20;

/// How much of [`EVAL_STACK_BYTES`] evaluation may use before a RecursionError: the rest is
/// headroom for whatever one level of evaluation (rendering, an engine call, the error
/// report) needs below the deepest check.
pub const STACK_LIMIT_BYTES: usize = EVAL_STACK_BYTES - (32 << 20);

/// A pooled thread whose input used more stack than this is retired: ordinary inputs use
/// well under a megabyte, and the pages a deep one touched are only given back when its
/// thread ends.
const RETIRE_DEPTH_BYTES: usize = 16 << 20;

/// Idle evaluation threads kept for the next inputs. One serves a session; a second covers
/// the nested uses (drawing a value for Jupyter, dropping a session) and two sessions on two
/// threads. Each costs only reserved address space while idle.
const MAX_IDLE: usize = 2;

/// The name of evaluation threads (panic messages on them are reported, not printed).
const THREAD_NAME: &str = "ragtag-eval";

thread_local! {
    /// The address of a local at the bottom of this evaluation thread's stack; 0 on threads
    /// that are not evaluation threads.
    static STACK_BASE: Cell<usize> = const { Cell::new(0) };
    /// The message and place of the last panic on this thread.
    static LAST_PANIC: Cell<Option<String>> = const { Cell::new(None) };
    /// Whether this evaluation thread went deeper than [`RETIRE_DEPTH_BYTES`] (or panicked)
    /// during its current input, so that it must not serve another.
    static RETIRE: Cell<bool> = const { Cell::new(false) };
}

/// What went wrong when an input could not be evaluated normally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    /// The panic's message and source location.
    pub message: String,
}

/// Runs `f` on a fresh evaluation thread with [`EVAL_STACK_BYTES`] of stack and returns its
/// result, or the panic it raised. `f` may borrow from the caller, so the thread is scoped
/// to this call; owned work should use [`run_owned`], which reuses threads.
pub fn run<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, Crash> {
    install_hook();
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .stack_size(EVAL_STACK_BYTES)
            .spawn_scoped(scope, || {
                mark_stack_base();
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

/// Runs `f` on an evaluation thread from the pool and returns its result, or the panic it
/// raised. Events `f` sends through the [`Events`] it is given (displayed values, printed
/// text) are handed to `on_event` on the caller's thread as they arrive, so a sink that
/// lives on the caller's thread sees them in order while the input still runs. Where no
/// thread can be started (the system is out of threads) `f` runs on the caller's thread,
/// still guarded against panics.
pub fn run_owned<E, R>(
    f: impl FnOnce(&Events<E>) -> R + Send + 'static,
    mut on_event: impl FnMut(E),
) -> Result<R, Crash>
where
    E: Send + 'static,
    R: Send + 'static,
{
    install_hook();
    let (tx, rx) = mpsc::channel::<Message<E>>();
    let job: Job = Box::new(move || {
        let events = Events(tx);
        let result: Result<Box<dyn Any + Send>, Crash> =
            catch(|| Box::new(f(&events)) as Box<dyn Any + Send>);
        let healthy = result.is_ok() && !RETIRE.with(Cell::get);
        // The caller waits for this message; if it is gone there is nobody to tell.
        let _ = events.0.send(Message::End(result, healthy));
        healthy
    });
    let result = match take_worker() {
        Some(worker) => match worker.send(job) {
            Ok(()) => {
                let (result, healthy) = collect(&rx, &mut on_event);
                if healthy {
                    give_back(worker);
                }
                result
            }
            Err(mpsc::SendError(job)) => {
                job();
                collect(&rx, &mut on_event).0
            }
        },
        // No evaluation thread: run here, guarded against panics.
        None => {
            job();
            collect(&rx, &mut on_event).0
        }
    };
    result.map(|any| {
        *any.downcast::<R>()
            .unwrap_or_else(|_| unreachable!("the job returns an R"))
    })
}

/// The sending end an evaluation hands its events to (see [`run_owned`]).
pub struct Events<E>(Sender<Message<E>>);

impl<E> Events<E> {
    /// Hands `event` to the caller's thread.
    pub fn send(&self, event: E) {
        // The caller waits for the end message, so it is still listening.
        let _ = self.0.send(Message::Event(event));
    }
}

/// What an evaluation thread tells the thread waiting for it.
enum Message<E> {
    /// Something to hand to the caller's `on_event` now.
    Event(E),
    /// The result and whether the thread may serve another input.
    End(Result<Box<dyn Any + Send>, Crash>, bool),
}

/// Work for an evaluation thread; it returns whether the thread may serve another input.
type Job = Box<dyn FnOnce() -> bool + Send>;

/// An idle evaluation thread, waiting for a job on its channel.
struct Worker(Sender<Job>);

impl Worker {
    fn send(&self, job: Job) -> Result<(), mpsc::SendError<Job>> {
        self.0.send(job)
    }
}

/// Evaluation threads waiting for work.
static IDLE: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

/// An idle evaluation thread, or a new one; None when no thread can be started.
fn take_worker() -> Option<Worker> {
    let idle = IDLE.lock().ok().and_then(|mut idle| idle.pop());
    idle.or_else(spawn_worker)
}

/// Returns a healthy thread to the pool (or lets it end, when the pool is full).
fn give_back(worker: Worker) {
    if let Ok(mut idle) = IDLE.lock() {
        if idle.len() < MAX_IDLE {
            idle.push(worker);
        }
    }
}

fn spawn_worker() -> Option<Worker> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name(THREAD_NAME.into())
        .stack_size(EVAL_STACK_BYTES)
        .spawn(move || serve(rx))
        .ok()?;
    Some(Worker(tx))
}

/// An evaluation thread's loop: one job after another until one leaves the thread unfit
/// for more (or its pool entry is dropped).
fn serve(jobs: Receiver<Job>) {
    mark_stack_base();
    while let Some(job) = receive(&jobs) {
        RETIRE.with(|r| r.set(false));
        let healthy = job();
        // What one input set for this thread must not leak into the next.
        crate::interrupt::watch(None);
        crate::budget::set_thread_limit(None);
        if !healthy {
            return;
        }
    }
}

/// How long a thread polls a channel before it sleeps on it. Waking a sleeping thread takes
/// the kernel several microseconds (tens on a virtual machine), more than a small input
/// takes to evaluate; inputs a user types come seconds apart, so the polling costs nothing
/// noticeable, while a script's or a notebook's inputs arrive within it. The poll yields
/// the core between looks: on a busy machine the thread it waits for may need that very core
/// (spinning instead cost a whole poll per input when two cores were shared by many jobs).
const POLL: std::time::Duration = std::time::Duration::from_micros(50);

/// The next message of `rx`: polled for [`POLL`], then waited for; None once every sender
/// is gone.
fn receive<T>(rx: &Receiver<T>) -> Option<T> {
    let start = std::time::Instant::now();
    loop {
        match rx.try_recv() {
            Ok(message) => return Some(message),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) if start.elapsed() < POLL => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Empty) => return rx.recv().ok(),
        }
    }
}

/// Forwards events to `on_event` until the end message; a thread that ended without one
/// (it cannot, short of an abort) is reported as a crash.
fn collect<E>(
    rx: &Receiver<Message<E>>,
    on_event: &mut impl FnMut(E),
) -> (Result<Box<dyn Any + Send>, Crash>, bool) {
    loop {
        match receive(rx) {
            Some(Message::Event(e)) => on_event(e),
            Some(Message::End(result, healthy)) => return (result, healthy),
            None => {
                return (
                    Err(Crash {
                        message: "the evaluation thread ended without a result".into(),
                    }),
                    false,
                )
            }
        }
    }
}

/// Records the bottom of this thread's stack: from here on it is an evaluation thread.
fn mark_stack_base() {
    let marker = 0u8;
    STACK_BASE.with(|b| b.set(std::ptr::addr_of!(marker) as usize));
}

/// The stack this evaluation thread has left before [`check_stack`] fails; None off an
/// evaluation thread. Parsing runs in place when this leaves room for it.
pub fn stack_room() -> Option<usize> {
    let base = STACK_BASE.with(Cell::get);
    if base == 0 {
        return None;
    }
    let marker = 0u8;
    let here = std::ptr::addr_of!(marker) as usize;
    Some(STACK_LIMIT_BYTES.saturating_sub(base.saturating_sub(here)))
}

/// Runs `f`, turning a panic into a [`Crash`] that carries its message and place. Use it
/// inside [`run`] to clean up after a panic while still on the evaluation thread.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Crash> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        RETIRE.with(|r| r.set(true));
        let message = LAST_PANIC
            .with(Cell::take)
            .unwrap_or_else(|| payload_message(&*payload));
        Crash { message }
    })
}

/// Fails with RecursionError when the current evaluation thread has used more than
/// [`STACK_LIMIT_BYTES`] of its stack. Recursive parts of evaluation (expressions,
/// statements, calls, conversions of nested values) call this at each level. On any other
/// thread (a front end drawing a displayed value) it fails when less than
/// [`OTHER_THREAD_RESERVE_BYTES`] of that thread's own stack is left.
///
/// Inlined: the evaluator calls it once per expression node, and as an out-of-line call
/// across crates its result came back through memory on every node.
#[inline]
pub fn check_stack() -> Result<(), crate::Exception> {
    let base = STACK_BASE.with(Cell::get);
    if base == 0 {
        return check_other_thread();
    }
    let marker = 0u8;
    let here = std::ptr::addr_of!(marker) as usize;
    let used = base.saturating_sub(here);
    if used > RETIRE_DEPTH_BYTES {
        return deep_stack(used);
    }
    Ok(())
}

/// [`check_stack`] on a thread that is not an evaluation thread.
#[cold]
#[inline(never)]
fn check_other_thread() -> Result<(), crate::Exception> {
    match stacker::remaining_stack() {
        Some(room) if room < OTHER_THREAD_RESERVE_BYTES => Err(recursion_error()),
        _ => Ok(()),
    }
}

/// [`check_stack`] past [`RETIRE_DEPTH_BYTES`]: the thread is retired once the evaluation
/// ends, and past [`STACK_LIMIT_BYTES`] the evaluation fails.
#[cold]
#[inline(never)]
fn deep_stack(used: usize) -> Result<(), crate::Exception> {
    RETIRE.with(|r| r.set(true));
    if used > STACK_LIMIT_BYTES {
        return Err(recursion_error());
    }
    Ok(())
}

/// The stack a thread that is not an evaluation thread keeps free: recursion there (drawing
/// a value nested a hundred thousand deep on the main thread) stops while this much is left.
pub const OTHER_THREAD_RESERVE_BYTES: usize = 1 << 20;

fn recursion_error() -> crate::Exception {
    crate::Exception::new(
        ExceptionClass::RecursionError,
        "maximum recursion depth exceeded",
    )
    .with_hint(
        "the input nests calls or expressions too deeply; Python's default limit is 1000 calls",
    )
}

/// Whether the current evaluation thread is too deep to recurse further: recursive
/// drawing of a value (a list nested a million deep) stops here and shows `...` instead.
pub fn too_deep() -> bool {
    check_stack().is_err()
}

/// Drops `value` on an evaluation thread: a value nested a million deep takes more stack to
/// drop than an ordinary thread has.
pub fn drop_deep<T: Send + 'static>(value: T) {
    let _ = run_owned(move |_: &Events<()>| drop(value), |()| {});
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
                // A thread that panicked may hold broken thread-local state: retire it.
                RETIRE.with(|r| r.set(true));
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

    fn nest(n: usize) -> Result<usize, crate::Exception> {
        check_stack()?;
        let pad = [n as u8; 512];
        Ok(nest(n + 1)? + usize::from(std::hint::black_box(pad)[0] == 0))
    }

    #[test]
    fn unbounded_recursion_is_a_recursion_error() {
        let e = run(|| nest(0)).unwrap().unwrap_err();
        assert_eq!(e.class, ExceptionClass::RecursionError);
        // Off an evaluation thread the check never fails.
        assert!(check_stack().is_ok());
    }

    fn thread_of(f: impl FnOnce() + Send + 'static) -> std::thread::ThreadId {
        run_owned(
            move |_: &Events<()>| {
                f();
                std::thread::current().id()
            },
            |()| {},
        )
        .unwrap()
    }

    #[test]
    fn a_thread_that_panicked_or_went_deep_serves_no_other_input() {
        let panicked = run_owned(
            |_: &Events<()>| {
                let _ = catch(|| panic!("inside"));
                std::thread::current().id()
            },
            |()| {},
        )
        .unwrap();
        let deep = thread_of(|| {
            let _ = nest(0);
        });
        for _ in 0..4 {
            let next = thread_of(|| {});
            assert_ne!(next, panicked);
            assert_ne!(next, deep);
        }
        assert_ne!(thread_of(|| {}), std::thread::current().id());
    }

    #[test]
    fn events_reach_the_caller_in_order_while_the_input_runs() {
        let mut seen = Vec::new();
        let r = run_owned(
            |events: &Events<u32>| {
                for i in 0..5 {
                    events.send(i);
                }
                check_stack().is_ok() && stack_room().is_some()
            },
            |e| seen.push(e),
        );
        assert_eq!(r, Ok(true));
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        let crash = run_owned(|_: &Events<()>| -> u8 { panic!("boom") }, |()| {});
        assert!(crash.unwrap_err().message.starts_with("boom at "));
    }
}
