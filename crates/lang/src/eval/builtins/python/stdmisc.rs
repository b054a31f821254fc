//! Small standard modules: `time` (clocks, and a `sleep` the session's interrupt cuts
//! short), `string`'s constants and `capwords`, and `sys`'s `stdout.write`, `maxsize`,
//! `argv` and recursion limit.

use std::sync::LazyLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::str_of;
use crate::value::{PyList, Value};
use ragtag_engine::ExceptionClass;

/// `time`, and the methods of `sys.stdout` / `sys.stderr`.
pub static STDMISC: &[Builtin] = &[
    Builtin::function("time.time", "()", time_)
        .doc("Seconds since the Unix epoch, as a float.")
        .examples(&["import time\ntime.time() > 1e9"]),
    Builtin::function("time.perf_counter", "()", perf_counter)
        .doc("A monotonic clock of the highest resolution, in seconds (only differences mean anything).")
        .examples(&["import time\nt = time.perf_counter()\ntime.perf_counter() >= t"]),
    Builtin::function("time.monotonic", "()", perf_counter)
        .doc("A clock that never goes back, in seconds (only differences mean anything).")
        .examples(&["import time\nt = time.monotonic()\ntime.monotonic() >= t"]),
    Builtin::function("time.time_ns", "()", |_, _| {
        let t = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(Value::Int(i64::try_from(t).unwrap_or(i64::MAX)))
    })
    .doc("Nanoseconds since the Unix epoch, as an int.")
    .examples(&["import time
time.time_ns() > 10**18"]),
    Builtin::function("time.perf_counter_ns", "()", |_, _| {
        Ok(Value::Int(i64::try_from(START.elapsed().as_nanos()).unwrap_or(i64::MAX)))
    })
    .doc("time.perf_counter in nanoseconds, as an int.")
    .examples(&["import time
t = time.perf_counter_ns()
time.perf_counter_ns() >= t"]),
    Builtin::function("time.monotonic_ns", "()", |_, _| {
        Ok(Value::Int(i64::try_from(START.elapsed().as_nanos()).unwrap_or(i64::MAX)))
    })
    .doc("time.monotonic in nanoseconds, as an int.")
    .examples(&["import time
t = time.monotonic_ns()
time.monotonic_ns() >= t"]),
    Builtin::function("string.capwords", "(s, sep=None)", capwords)
        .doc("Each word capitalized (split on `sep`, or on runs of whitespace), joined by `sep` (a space by default).")
        .examples(&["import string
string.capwords('hello   big world')"]),
    Builtin::function("sys.getrecursionlimit", "()", |_, _| {
        Ok(Value::Int(crate::eval::recursion_limit() as i64))
    })
    .doc("How deep user function calls may nest before a RecursionError (Python's default, 1000, unless sys.setrecursionlimit changed it).")
    .examples(&["import sys
sys.getrecursionlimit()"]),
    Builtin::function("time.sleep", "(secs)", sleep)
        .doc("Waits `secs` seconds; an interrupt (Ctrl-C, the kernel's interrupt) ends the wait with KeyboardInterrupt.")
        .examples(&["import time\ntime.sleep(0.01)"]),
    Builtin::method("sys.stdout.write", "(self, s)", write)
        .doc("Writes the string `s` (no newline added) and returns its length.")
        .examples(&["import sys\nn = sys.stdout.write('hi\\n')"]),
    Builtin::method("sys.stdout.flush", "(self)", flush)
        .doc("Does nothing: output is written at once.")
        .examples(&["import sys\nsys.stdout.flush()"]),
];

/// The constants of `string` and `sys` (`None`: no such constant).
pub fn constant(path: &str) -> Option<Value> {
    let s = |t: &str| Some(Value::str(t));
    match path {
        "string.ascii_letters" => s("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        "string.ascii_lowercase" => s("abcdefghijklmnopqrstuvwxyz"),
        "string.ascii_uppercase" => s("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        "string.digits" => s("0123456789"),
        "string.hexdigits" => s("0123456789abcdefABCDEF"),
        "string.octdigits" => s("01234567"),
        "string.punctuation" => s("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
        "string.whitespace" => s(" \t\n\r\x0b\x0c"),
        "string.printable" => s("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\x0b\x0c"),
        "sys.maxsize" => Some(Value::Int(i64::MAX)),
        "sys.argv" => Some(Value::List(PyList::new(vec![Value::str("")], false))),
        _ => None,
    }
}

/// When the process started its clock (perf_counter's zero).
static START: LazyLock<Instant> = LazyLock::new(Instant::now);

fn time_(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    Ok(Value::Float(t))
}

fn capwords(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(s) = a.value("s") else {
        return Err(a.err_at(
            "s",
            Error::new(
                ExceptionClass::AttributeError,
                format!(
                    "'{}' object has no attribute 'split'",
                    a.value("s").type_name()
                ),
            ),
        ));
    };
    let cap = super::str_case::capitalized;
    let out: String = match a.get("sep") {
        None => s.split_whitespace().map(cap).collect::<Vec<_>>().join(" "),
        Some(Value::Str(sep)) if !sep.is_empty() => {
            s.split(sep.as_str()).map(cap).collect::<Vec<_>>().join(sep)
        }
        Some(Value::Str(_)) => {
            return Err(a.err_at(
                "sep",
                Error::new(ExceptionClass::ValueError, "empty separator"),
            ))
        }
        Some(other) => {
            return Err(a.err_at(
                "sep",
                Error::new(
                    ExceptionClass::TypeError,
                    format!("must be str or None, not {}", other.type_name()),
                ),
            ))
        }
    };
    Ok(Value::str(out))
}

fn perf_counter(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::Float(START.elapsed().as_secs_f64()))
}

fn sleep(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let secs = match a.value("secs") {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => *b as i64 as f64,
        other => return Err(a.err_at("secs", Error::not_an_integer(other.type_name()))),
    };
    if secs.is_nan() || secs < 0.0 {
        return Err(a.err_at(
            "secs",
            Error::new(
                ExceptionClass::ValueError,
                "sleep length must be non-negative",
            ),
        ));
    }
    let end = Instant::now() + Duration::from_secs_f64(secs.min(1e9));
    loop {
        it.check_cancel()?;
        let now = Instant::now();
        if now >= end {
            return Ok(Value::None);
        }
        std::thread::sleep((end - now).min(Duration::from_millis(20)));
    }
}

fn write(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(s) = a.value("s") else {
        return Err(a.err_at(
            "s",
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "write() argument must be str, not {}",
                    a.value("s").type_name()
                ),
            ),
        ));
    };
    let text = str_of(a.value("s"));
    if super::super::notebook::is_stderr(a.value("self")) {
        it.sink().print_stderr(&text);
    } else {
        it.print(&text);
    }
    Ok(Value::Int(s.chars().count() as i64))
}

fn flush(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::None)
}
