//! IPython's line magics people type by habit — `%time`, `%timeit`, `%who`, `%pwd`, `%cd`
//! — with IPython's output, and `!cmd`, a shell command whose output is shown.

use std::io::Read;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Outcome;
use crate::diagnostic::Error;
use crate::eval::Sink;
use crate::session::Session;
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;

/// The magics this module knows, for the hint on an unknown one.
const MAGICS: &[&str] = &[
    "%time", "%timeit", "%who", "%pwd", "%cd", "%whos", "%reset", "%history", "%load",
];

/// IPython's `%timeit` default: seven runs.
const RUNS: usize = 7;

/// How often a shell command's watcher looks for an interrupt: quick enough to feel
/// instant, rare enough to cost nothing.
const POLL: Duration = Duration::from_millis(20);

pub(super) fn usage(msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::ValueError, msg)
}

/// Runs one `%magic` line.
pub fn run(session: &mut Session, line: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    let line = line.trim();
    let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match name {
        "%time" => time(session, rest, sink),
        "%timeit" => timeit(session, rest, sink),
        "%who" => {
            let vars = session.vars();
            Ok(Outcome::Text(if vars.is_empty() {
                "Interactive namespace is empty.\n".into()
            } else {
                // IPython's layout: each name, a tab and a space.
                let mut s: String = vars.iter().map(|(n, _)| format!("{n}\t ")).collect();
                s.push('\n');
                s
            }))
        }
        "%whos" => Ok(super::whos::whos(session)),
        "%reset" => super::whos::reset(session, rest),
        "%history" | "%hist" => super::cell_magic::history(session, rest),
        "%load" => super::cell_magic::load(session, rest, sink),
        cell if cell.starts_with("%%") => Err(usage(format!(
            "{cell} is a cell magic: it must be the first line of a cell"
        ))),
        "%pwd" => {
            let dir = std::env::current_dir().map_err(|e| os_error("%pwd", &e))?;
            sink.display(&Value::str(dir.display().to_string()));
            Ok(Outcome::Text(String::new()))
        }
        "%cd" => {
            let target = if rest.is_empty() {
                std::env::var("HOME").unwrap_or_else(|_| "/".into())
            } else {
                rest.to_string()
            };
            std::env::set_current_dir(&target).map_err(|e| os_error(&target, &e))?;
            let dir = std::env::current_dir().map_err(|e| os_error("%cd", &e))?;
            Ok(Outcome::Text(format!("{}\n", dir.display())))
        }
        other => {
            let mut e = Error::new(
                ExceptionClass::NameError,
                format!("unknown magic '{other}'"),
            );
            let hint = match crate::eval::suggest::closest(other, MAGICS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`? ragtag knows {}", MAGICS.join(", ")),
                None => format!(
                    "ragtag knows {} and `!cmd`; :help lists its own commands",
                    MAGICS.join(", ")
                ),
            };
            e = e.with_hint(hint);
            Err(e)
        }
    }
}

pub(super) fn os_error(what: &str, e: &std::io::Error) -> Error {
    Error::new(ExceptionClass::OSError, format!("{what}: {e}"))
}

/// The process's CPU seconds so far: user and system. The total is the kernel's precise
/// process clock; the system share comes from `/proc/self/stat` (in clock ticks), so a
/// short run is all user time, as it nearly always is.
fn cpu_times() -> (f64, f64) {
    let total = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let total = total.tv_sec as f64 + total.tv_nsec as f64 * 1e-9;
    let sys = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            // The fields after the command name (which may hold spaces) in parentheses;
            // stime is the 15th field of the line, the 13th after the name.
            let after = stat.rsplit_once(')')?.1;
            let ticks: f64 = after.split_whitespace().nth(12)?.parse().ok()?;
            // USER_HZ, which Linux fixes at 100 for this file.
            Some(ticks / 100.0)
        })
        .unwrap_or(0.0);
    let sys = sys.min(total);
    (total - sys, sys)
}

/// IPython's `_format_time`: three significant digits in s, ms, µs or ns; over a minute,
/// days, hours, minutes and seconds.
pub fn format_time(secs: f64) -> String {
    if secs >= 60.0 {
        let mut parts = Vec::new();
        let mut left = secs;
        for (suffix, length) in [("d", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0)] {
            let value = (left / length).floor();
            if value > 0.0 {
                left %= length;
                parts.push(format!("{value}{suffix}"));
            }
            if left < 1.0 {
                break;
            }
        }
        return parts.join(" ");
    }
    let order = if secs > 0.0 {
        (-(secs.log10().floor() as i64).div_euclid(3)).clamp(0, 3) as usize
    } else {
        3
    };
    let units = ["s", "ms", "µs", "ns"];
    let scaled = secs * [1.0, 1e3, 1e6, 1e9][order];
    format!("{} {}", general3(scaled), units[order])
}

/// Python's `%.3g` for a number under a thousand: three significant digits, trailing zeros
/// dropped.
fn general3(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let digits = x.abs().log10().floor() as i64 + 1;
    let decimals = (3 - digits).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A sink that holds displayed values back, so `%time`'s report comes before the value as
/// in IPython; everything else goes straight through.
struct Held<'a> {
    inner: &'a mut dyn Sink,
    values: Vec<Value>,
}

impl Sink for Held<'_> {
    fn display(&mut self, value: &Value) {
        self.values.push(value.clone());
    }
    fn shows_none(&self) -> bool {
        self.inner.shows_none()
    }
    crate::eval::forward_sink!(inner);
}

/// `%time CODE`: runs the code once, prints IPython's CPU and wall times, then shows the
/// value.
fn time(session: &mut Session, code: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    if code.is_empty() {
        return Err(usage("usage: %time CODE (or :time CODE)"));
    }
    timed(sink, |held| session.execute(code, held))
}

/// Runs `run`, then prints IPython's CPU and wall times and shows what it displayed (held
/// back, so the report comes first as in IPython). `%time` and `%%time`.
pub(super) fn timed(
    sink: &mut dyn Sink,
    run: impl FnOnce(&mut dyn Sink) -> Result<(), Error>,
) -> Result<Outcome, Error> {
    let mut held = Held {
        inner: sink,
        values: Vec::new(),
    };
    let (user0, sys0) = cpu_times();
    let start = Instant::now();
    run(&mut held)?;
    let wall = start.elapsed().as_secs_f64();
    let (user1, sys1) = cpu_times();
    let (user, sys) = ((user1 - user0).max(0.0), (sys1 - sys0).max(0.0));
    let Held { inner, values } = held;
    inner.print(&format!(
        "CPU times: user {}, sys: {}, total: {}\nWall time: {}\n",
        format_time(user),
        format_time(sys),
        format_time(user + sys),
        format_time(wall)
    ));
    for v in &values {
        inner.display(v);
    }
    Ok(Outcome::Text(String::new()))
}

/// `%timeit [-n N] [-r R] CODE`: IPython's mean ± standard deviation per loop.
fn timeit(session: &mut Session, rest: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    let (number, repeat, code) = timeit_options(rest, "%timeit")?;
    if code.is_empty() {
        return Err(usage("usage: %timeit [-n LOOPS] [-r RUNS] CODE"));
    }
    let (loops, runs) = session.time_loops(code, number, repeat, sink)?;
    Ok(Outcome::Text(timeit_report(loops, &runs, repeat)))
}

/// `-n LOOPS` and `-r RUNS` at the start of `rest` (IPython's defaults: an automatic loop
/// count and seven runs), and what follows them.
pub(super) fn timeit_options<'a>(
    rest: &'a str,
    magic: &str,
) -> Result<(Option<usize>, usize, &'a str), Error> {
    let (mut number, mut repeat) = (None, RUNS);
    let mut code = rest.trim();
    while let Some((flag @ ("-n" | "-r"), after)) = code.split_once(char::is_whitespace) {
        let after = after.trim_start();
        let (n, after) = after.split_once(char::is_whitespace).unwrap_or((after, ""));
        let n: usize =
            n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                usage(format!("{magic} {flag} takes a positive count, not '{n}'"))
            })?;
        if flag == "-n" {
            number = Some(n);
        } else {
            repeat = n;
        }
        code = after.trim_start();
    }
    Ok((number, repeat, code))
}

/// IPython's `%timeit` line: `1.2 ms ± 3.4 µs per loop (mean ± std. dev. of 7 runs, 100
/// loops each)`.
pub(super) fn timeit_report(loops: usize, runs: &[f64], repeat: usize) -> String {
    let per: Vec<f64> = runs.iter().map(|t| t / loops as f64).collect();
    let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
    let std =
        (per.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / per.len().max(1) as f64).sqrt();
    format!(
        "{} ± {} per loop (mean ± std. dev. of {repeat} run{}, {} loop{} each)\n",
        format_time(mean),
        format_time(std),
        if repeat == 1 { "" } else { "s" },
        thousands(loops),
        if loops == 1 { "" } else { "s" },
    )
}

/// `1000000` as Python's `{:,}` writes it: `1,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `!cmd`: runs the command with `sh -c`, its output shown as it comes (standard error
/// after it) and a non-zero exit status reported. An interrupt kills the command and
/// everything it started.
pub fn shell(session: &mut Session, cmd: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let cmd = cmd.trim();
    if cmd.is_empty() {
        return Err(usage("usage: !COMMAND (a shell command)"));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own, so an interrupt can stop whatever the command started.
        .process_group(0)
        .spawn()
        .map_err(|e| os_error("cannot run sh", &e))?;
    let (Some(mut out), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(os_error("sh", &std::io::Error::other("no pipes")));
    };
    let cancel = session.cancel_flag();
    cancel.store(false, Ordering::Relaxed);
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.read_to_end(&mut text);
        text
    });
    let watcher = std::thread::spawn(move || loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Some(status)),
            Ok(None) => {}
            Err(e) => return Err(e),
        }
        if cancel.load(Ordering::Relaxed) {
            if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            return child.wait().map(|_| None);
        }
        std::thread::sleep(POLL);
    });
    let mut buf = [0u8; 8192];
    let mut pending = Vec::new();
    loop {
        match out.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                pending.extend_from_slice(&buf[..n]);
                // Whole characters only: a UTF-8 sequence may be cut between reads.
                let cut = match std::str::from_utf8(&pending) {
                    Ok(_) => pending.len(),
                    Err(e) if e.error_len().is_none() => e.valid_up_to(),
                    Err(_) => pending.len(),
                };
                let rest = pending.split_off(cut);
                sink.print(&String::from_utf8_lossy(&pending));
                pending = rest;
            }
        }
    }
    if !pending.is_empty() {
        sink.print(&String::from_utf8_lossy(&pending));
    }
    let errors = errors.join().unwrap_or_default();
    if !errors.is_empty() {
        sink.print_stderr(&String::from_utf8_lossy(&errors));
    }
    match watcher.join() {
        Ok(Ok(Some(status))) if status.success() => Ok(Outcome::Text(String::new())),
        Ok(Ok(Some(status))) => {
            let how = match status.code() {
                Some(code) => format!("exit status {code}"),
                None => "killed by a signal".to_string(),
            };
            sink.print_stderr(&format!("!{cmd}: {how}\n"));
            Ok(Outcome::Text(String::new()))
        }
        Ok(Ok(None)) => Err(Error::new(
            ExceptionClass::KeyboardInterrupt,
            format!("!{cmd} was interrupted"),
        )),
        Ok(Err(e)) => Err(os_error("sh", &e)),
        Err(_) => Err(os_error("sh", &std::io::Error::other("the watcher failed"))),
    }
}
