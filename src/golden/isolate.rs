//! One process per transcript: `ragtag test` replays each transcript in a child process of
//! its own binary (`ragtag test --one FILE`), so an input that takes the process down (stack
//! overflow, failed allocation, abort) or never finishes fails its own transcript, and the
//! run goes on with the next one.
//!
//! # Protocol
//!
//! The child writes one JSON object per line on standard output ([`Message`]): `parsed` with
//! the number of inputs, then for each input `start` *before* running it and `done` with
//! its output after. The parent therefore knows which input was running when the child died
//! or stopped answering, and it reads nothing else from the child but its exit status and
//! the tail of its standard error (the Rust runtime's last words, e.g. "has overflowed its
//! stack").
//!
//! # Timeout
//!
//! Each input gets `timeout` of wall-clock time. The child's watchdog then sets the session's
//! cancel flag: a cooperative input (a loop, a builtin that checks for Ctrl-C) stops with
//! `KeyboardInterrupt`, the session goes on, and the input is reported as timed out. If no
//! `done` arrives within a grace period more ([`grace`]), the parent kills the child. Both
//! fail the transcript; neither is ever blessed.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::run::{golden_session, on_big_stack, run_entry, set_width, Actual, Fault};
use super::{parse, Transcript};

/// How long an input may run when `--timeout` is not given: far beyond any transcript's
/// input (the slowest take a fraction of a second in a debug build), short enough that a
/// hung input does not stall a test run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Test hook, read by the child runner only: an input whose source is exactly this
/// variable's value calls `std::process::abort` instead of running, so the tests can make a
/// child die without relying on a bug that the session's guard may fix.
pub const ABORT_ON_VAR: &str = "RAGTAG_TEST_ABORT_ON";

/// Test hook, read by the child runner only: an input whose source is exactly this
/// variable's value sleeps forever without looking at the cancel flag, so the tests can
/// exercise the kill after the grace period.
pub const HANG_ON_VAR: &str = "RAGTAG_TEST_HANG_ON";

/// Test hook, read by the child runner only: an input whose source is exactly this
/// variable's value first sleeps for [`SLEEP_FOR`], so the tests can time parallel runs
/// without depending on how busy the machine's cores are.
pub const SLEEP_ON_VAR: &str = "RAGTAG_TEST_SLEEP_ON";

/// How long [`SLEEP_ON_VAR`]'s input sleeps.
pub const SLEEP_FOR: Duration = Duration::from_millis(400);

/// How many of the child's last standard-error lines a report quotes.
const STDERR_LINES: usize = 8;

/// How much of the child's standard error is kept while it runs (a runaway child may write
/// a lot; only the end matters).
const STDERR_KEEP: usize = 64 << 10;

/// One line the child writes on standard output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Message {
    /// The transcript parsed into this many inputs.
    Parsed {
        /// How many.
        inputs: usize,
    },
    /// Input `input` (counted from 0) starts.
    Start {
        /// Which.
        input: usize,
    },
    /// Input `input` finished.
    Done {
        /// Which.
        input: usize,
        /// What it produced.
        actual: Actual,
    },
    /// The transcript could not be read or parsed.
    Error {
        /// Why.
        message: String,
    },
}

/// How long after the timeout the parent waits for an interrupted input before killing the
/// child: as long as the timeout itself, and at least 3 s, so an input that does stop when
/// interrupted has time to unwind and report on a loaded machine.
pub fn grace(timeout: Duration) -> Duration {
    timeout.max(Duration::from_secs(3))
}

fn send(out: &mut (dyn Write + Send), msg: &Message) -> std::io::Result<()> {
    let line = serde_json::to_string(msg).map_err(std::io::Error::other)?;
    writeln!(out, "{line}")?;
    out.flush()
}

/// The child's watchdog: which input runs since when, and whether it was interrupted.
struct Watch {
    state: Mutex<WatchState>,
    wake: Condvar,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
struct WatchState {
    running: Option<Instant>,
    fired: bool,
    finished: bool,
}

impl Watch {
    fn new(cancel: Arc<AtomicBool>) -> Self {
        Watch {
            state: Mutex::new(WatchState::default()),
            wake: Condvar::new(),
            cancel,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin(&self) {
        let mut s = self.lock();
        s.running = Some(Instant::now());
        s.fired = false;
        self.wake.notify_all();
    }

    /// Ends the current input; true when the watchdog interrupted it.
    fn end(&self) -> bool {
        let mut s = self.lock();
        s.running = None;
        s.fired
    }

    fn finish(&self) {
        self.lock().finished = true;
        self.wake.notify_all();
    }

    /// Sets the cancel flag when an input has run for `limit`, until [`Watch::finish`].
    /// The flag is set under the lock, so it never lands on the next input: that input's
    /// [`begin`](Watch::begin) waits for the lock, and the session clears the flag when an
    /// input starts.
    fn guard(&self, limit: Duration) {
        let mut s = self.lock();
        while !s.finished {
            let wait = match s.running {
                Some(start) if !s.fired => match limit.checked_sub(start.elapsed()) {
                    Some(left) if !left.is_zero() => left,
                    _ => {
                        self.cancel.store(true, Ordering::Relaxed);
                        s.fired = true;
                        continue;
                    }
                },
                _ => Duration::from_secs(3600),
            };
            s = self
                .wake
                .wait_timeout(s, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// The test hooks' values, read once ([`ABORT_ON_VAR`], [`HANG_ON_VAR`],
/// [`SLEEP_ON_VAR`]).
struct Hooks {
    abort_on: Option<String>,
    hang_on: Option<String>,
    sleep_on: Option<String>,
}

impl Hooks {
    fn from_env() -> Self {
        Hooks {
            abort_on: std::env::var(ABORT_ON_VAR).ok(),
            hang_on: std::env::var(HANG_ON_VAR).ok(),
            sleep_on: std::env::var(SLEEP_ON_VAR).ok(),
        }
    }

    fn apply(&self, source: &str) {
        if self.abort_on.as_deref() == Some(source) {
            std::process::abort();
        }
        if self.sleep_on.as_deref() == Some(source) {
            std::thread::sleep(SLEEP_FOR);
        }
        if self.hang_on.as_deref() == Some(source) {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
}

/// The child's side (`ragtag test --one FILE`): replays the transcript at `path` in one
/// fresh session and writes [`Message`]s to `out`. Each input may run for `timeout` before
/// it is interrupted (`None`: no limit). Errors are only those of writing to `out`.
pub fn run_child(
    path: &Path,
    timeout: Option<Duration>,
    out: &mut (dyn Write + Send),
) -> std::io::Result<()> {
    let text = match super::read_transcript(path) {
        Ok(t) => t,
        Err(e) => {
            let message = format!("cannot read: {e}");
            return send(out, &Message::Error { message });
        }
    };
    let t = match parse(&text) {
        Ok(t) => t,
        Err(e) => {
            let message = e.to_string();
            return send(out, &Message::Error { message });
        }
    };
    send(
        out,
        &Message::Parsed {
            inputs: t.entries.len(),
        },
    )?;
    let hooks = Hooks::from_env();
    on_big_stack(|| {
        let mut session = golden_session();
        set_width(&mut session, t.settings.width);
        let watch = Watch::new(session.cancel_flag());
        std::thread::scope(|scope| {
            if let Some(limit) = timeout {
                let watch = &watch;
                scope.spawn(move || watch.guard(limit));
            }
            let result = (|| {
                for (input, entry) in t.entries.iter().enumerate() {
                    watch.begin();
                    send(out, &Message::Start { input })?;
                    hooks.apply(&entry.source);
                    let mut actual = run_entry(&mut session, &entry.source);
                    if let (true, Some(limit)) = (watch.end(), timeout) {
                        actual.fault.get_or_insert(Fault::TimedOut {
                            seconds: limit.as_secs_f64(),
                        });
                    }
                    send(out, &Message::Done { input, actual })?;
                }
                Ok(())
            })();
            watch.finish();
            result
        })
    })
}

/// Collects the end of the child's standard error on a thread of its own.
fn drain_stderr(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * STDERR_KEEP {
                kept.drain(..kept.len() - STDERR_KEEP);
            }
        }
        let text = String::from_utf8_lossy(&kept).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n")
    })
}

/// How a process ended, as a report says it: `signal SIGSEGV`, `exit status 101`.
pub fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("signal {}", signal_name(sig));
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

/// The name of a signal whose number POSIX systems share (and SIGBUS, which they do not).
#[cfg(unix)]
fn signal_name(n: i32) -> String {
    let name = match n {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        #[cfg(any(target_os = "linux", target_os = "android"))]
        7 => "SIGBUS",
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        10 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return n.to_string(),
    };
    name.to_string()
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// The parent's side: runs the child on `path` and gathers what each input produced.
/// `actual[k]` is `None` for an input that never ran; an input that took the child down or
/// was killed has its expected output and a fault. `Err` is a failure outside any input.
pub(super) fn replay_in_child(
    exe: &Path,
    path: &Path,
    t: &Transcript,
    timeout: Option<Duration>,
) -> Result<Vec<Option<Actual>>, String> {
    // The child runs in the transcript's folder, so the relative paths it names (`:load
    // data.py`, `np.load('x.npy')`) resolve there wherever `ragtag test` was started.
    let path = std::path::absolute(path)
        .map_err(|e| format!("cannot find the absolute path of the transcript: {e}"))?;
    let mut child = Command::new(exe);
    if let Some(dir) = path.parent() {
        child.current_dir(dir);
    }
    if let Some(bytes) = super::run::memory_limit() {
        child.arg("--max-memory").arg(bytes.to_string());
    }
    let mut child = child
        .arg("test")
        .arg("--one")
        .arg(&path)
        .arg("--timeout")
        .arg(timeout.map_or(0.0, |d| d.as_secs_f64()).to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stderr = drain_stderr(child.stderr.take().expect("stderr is piped"));
    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            // Anything that is not a message (nothing should be) is ignored.
            if let Ok(msg) = serde_json::from_str::<Message>(&line) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        }
    });

    let n = t.entries.len();
    let expected = |k: usize, fault: Fault| Actual {
        lines: t.expected(&t.entries[k]),
        fault: Some(fault),
        error: None,
    };
    let patience = timeout.map(|d| d + grace(d));
    let mut actual: Vec<Option<Actual>> = vec![None; n];
    let mut running: Option<(usize, Instant)> = None;
    let mut last = Instant::now();
    let mut refused: Option<String> = None;
    loop {
        let msg = match patience {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(p) => {
                let since = running.map_or(last, |(_, s)| s);
                rx.recv_timeout(p.saturating_sub(since.elapsed()))
            }
        };
        match msg {
            Ok(Message::Parsed { inputs }) if inputs != n => {
                kill(&mut child);
                return Err(format!(
                    "the file changed while it was replayed ({n} inputs, then {inputs})"
                ));
            }
            Ok(Message::Parsed { .. }) => last = Instant::now(),
            Ok(Message::Start { input }) if input < n => running = Some((input, Instant::now())),
            Ok(Message::Done { input, actual: a }) if input < n => {
                actual[input] = Some(a);
                running = None;
                last = Instant::now();
            }
            Ok(Message::Start { .. } | Message::Done { .. }) => {}
            Ok(Message::Error { message }) => refused = Some(message),
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut child);
                let limit = timeout.unwrap_or_default();
                return match running {
                    Some((k, started)) => {
                        actual[k] = Some(expected(
                            k,
                            Fault::Killed {
                                seconds: limit.as_secs_f64(),
                                after: started.elapsed().as_secs_f64(),
                            },
                        ));
                        Ok(actual)
                    }
                    None => Err(format!(
                        "the process replaying it made no progress for {} s and was killed",
                        patience.unwrap_or_default().as_secs_f64()
                    )),
                };
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("cannot wait for the process replaying it: {e}"))?;
    let stderr = stderr.join().unwrap_or_default();
    if let Some(message) = refused {
        return Err(message);
    }
    if !status.success() {
        let how = describe_exit(status);
        return match running {
            Some((k, _)) => {
                actual[k] = Some(expected(k, Fault::Aborted { how, stderr }));
                Ok(actual)
            }
            None => {
                let mut e = format!("the process replaying it ended with {how}");
                for l in stderr.lines() {
                    e.push_str(&format!("\n    | {l}"));
                }
                Err(e)
            }
        };
    }
    match actual.iter().position(Option::is_none) {
        Some(k) => Err(format!(
            "the process replaying it stopped before input {} (line {})",
            k + 1,
            t.entries[k].line + 1
        )),
        None => Ok(actual),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_one_line_each() {
        let msgs = [
            Message::Parsed { inputs: 2 },
            Message::Start { input: 0 },
            Message::Done {
                input: 0,
                actual: Actual {
                    lines: vec!["a\nb".into(), "".into()],
                    fault: Some(Fault::TimedOut { seconds: 1.5 }),
                    error: None,
                },
            },
            Message::Error {
                message: "line 2: x".into(),
            },
        ];
        for m in msgs {
            let line = serde_json::to_string(&m).unwrap();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Message>(&line).unwrap(), m);
        }
    }

    #[test]
    fn the_child_reports_each_input_before_and_after() {
        let dir = std::env::temp_dir().join(format!("ragtag-isolate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.rtt");
        std::fs::write(&path, ">>> x = 1\n>>> x + 1\n2\n").unwrap();
        let mut out: Vec<u8> = Vec::new();
        run_child(&path, Some(Duration::from_secs(30)), &mut out).unwrap();
        let msgs: Vec<Message> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(msgs.len(), 5, "{msgs:?}");
        assert_eq!(msgs[0], Message::Parsed { inputs: 2 });
        assert_eq!(msgs[1], Message::Start { input: 0 });
        assert_eq!(msgs[3], Message::Start { input: 1 });
        assert!(
            matches!(&msgs[4], Message::Done { input: 1, actual } if actual.lines == ["2"] && actual.fault.is_none()),
            "{msgs:?}"
        );
        let mut out: Vec<u8> = Vec::new();
        run_child(&dir.join("missing.rtt"), None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(r#"{"event":"error","message":"cannot read"#),
            "{text}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_watchdog_interrupts_a_long_input_and_the_session_goes_on() {
        let dir = std::env::temp_dir().join(format!("ragtag-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.rtt");
        let text = ">>> x = 5\n>>> for i in range(10**5):\n...     for j in range(10**5):\n\
                    ...         for k in range(10**5): pass\n>>> x\n5\n";
        std::fs::write(&path, text).unwrap();
        let mut out: Vec<u8> = Vec::new();
        let started = Instant::now();
        run_child(&path, Some(Duration::from_millis(300)), &mut out).unwrap();
        assert!(started.elapsed() < Duration::from_secs(60));
        let done: Vec<Actual> = String::from_utf8(out)
            .unwrap()
            .lines()
            .filter_map(|l| match serde_json::from_str(l).unwrap() {
                Message::Done { actual, .. } => Some(actual),
                _ => None,
            })
            .collect();
        assert_eq!(done.len(), 3);
        assert_eq!(done[1].fault, Some(Fault::TimedOut { seconds: 0.3 }));
        assert!(
            done[1]
                .lines
                .iter()
                .any(|l| l.contains("KeyboardInterrupt")),
            "{:?}",
            done[1].lines
        );
        assert_eq!(
            done[2],
            Actual {
                lines: vec!["5".into()],
                fault: None,
                error: None,
            }
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
