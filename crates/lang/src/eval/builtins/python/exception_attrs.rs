//! What builtin exceptions carry beyond `args`, as CPython's: an OSError's `errno`,
//! `strerror`, `filename` and `filename2` (and the subclass its errno names when `OSError`
//! itself is called), a Unicode error's `encoding`, `object`, `start`, `end` and `reason`, the
//! `name` of a NameError, AttributeError or ImportError, a StopIteration's `value`; and the
//! messages those constructors make (`str(OSError(2, 'x', 'f'))` is `[Errno 2] x: 'f'`).
//!
//! The arguments an exception was made with are remembered by class and message
//! (`exception_args`); one ragtag raised itself has only its message, which these read back
//! (`[Errno 2] No such file or directory: 'data.csv'`).

use super::exception_args::{args_of, remembered};
use crate::render::tf_text::{repr_of, str_of};
use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass as C};

/// The class and message of `class(*args)` when CPython's constructor gives them a form of
/// their own: OSError's `(errno, strerror[, filename[, winerror[, filename2]]])` and the
/// Unicode errors' positional forms; `None` for the plain ones.
pub fn construct(class: C, args: &[Value]) -> Option<(C, String)> {
    if C::OSError.catches(class) && (2..=5).contains(&args.len()) {
        let class = match (class, &args[0]) {
            (C::OSError, Value::Int(n)) => errno_class(*n).unwrap_or(class),
            _ => class,
        };
        let mut message = format!("[Errno {}] {}", str_of(&args[0]), str_of(&args[1]));
        if let Some(f) = args.get(2).filter(|v| !matches!(v, Value::None)) {
            message += &format!(": {}", repr_of(f));
            if let Some(f2) = args.get(4).filter(|v| !matches!(v, Value::None)) {
                message += &format!(" -> {}", repr_of(f2));
            }
        }
        return Some((class, message));
    }
    let span = |start: i64, end: i64| format!("in position {start}-{}", end - 1);
    let message = match (class, args) {
        (
            C::UnicodeDecodeError,
            [Value::Str(enc), obj @ (Value::Bytes(_) | Value::ByteArray(_)), Value::Int(start), Value::Int(end), Value::Str(reason)],
        ) => {
            let data = match obj {
                Value::Bytes(b) => b.data.clone(),
                Value::ByteArray(b) => b.bytes(),
                _ => Vec::new(),
            };
            match usize::try_from(*start).ok().and_then(|s| data.get(s)) {
                Some(b) if *end == start + 1 => {
                    format!(
                        "'{enc}' codec can't decode byte 0x{b:02x} in position {start}: {reason}"
                    )
                }
                _ => format!(
                    "'{enc}' codec can't decode bytes {}: {reason}",
                    span(*start, *end)
                ),
            }
        }
        (
            C::UnicodeEncodeError,
            [Value::Str(enc), Value::Str(obj), Value::Int(start), Value::Int(end), Value::Str(reason)],
        ) => match char_at(obj, *start) {
            Some(c) if *end == start + 1 => format!(
                "'{enc}' codec can't encode character '{}' in position {start}: {reason}",
                super::codecs::ascii_escape(c)
            ),
            _ => format!(
                "'{enc}' codec can't encode characters {}: {reason}",
                span(*start, *end)
            ),
        },
        (
            C::UnicodeTranslateError,
            [Value::Str(obj), Value::Int(start), Value::Int(end), Value::Str(reason)],
        ) => match char_at(obj, *start) {
            Some(c) if *end == start + 1 => format!(
                "can't translate character '{}' in position {start}: {reason}",
                super::codecs::ascii_escape(c)
            ),
            _ => format!(
                "can't translate characters {}: {reason}",
                span(*start, *end)
            ),
        },
        _ => return None,
    };
    Some((class, message))
}

/// The subclass `OSError(errno, …)` makes for a Linux errno, as CPython's table.
fn errno_class(errno: i64) -> Option<C> {
    Some(match errno {
        11 | 114 | 115 => C::BlockingIOError,
        10 => C::ChildProcessError,
        32 | 108 => C::BrokenPipeError,
        103 => C::ConnectionAbortedError,
        111 => C::ConnectionRefusedError,
        104 => C::ConnectionResetError,
        17 => C::FileExistsError,
        2 => C::FileNotFoundError,
        21 => C::IsADirectoryError,
        20 => C::NotADirectoryError,
        4 => C::InterruptedError,
        1 | 13 => C::PermissionError,
        3 => C::ProcessLookupError,
        110 => C::TimeoutError,
        _ => return None,
    })
}

fn char_at(s: &str, i: i64) -> Option<char> {
    s.chars().nth(usize::try_from(i).ok()?)
}

/// The attribute `name` of the builtin exception `e`, when its class has it; `None` when it
/// does not (the caller then reports an AttributeError).
pub fn attr(e: &Exception, name: &str) -> Option<Value> {
    let given = remembered(e);
    let arg = |i: usize| {
        given
            .as_ref()
            .and_then(|a| a.get(i).cloned())
            .unwrap_or(Value::None)
    };
    match name {
        "__dict__" => return Value::dict(Vec::new()).ok(),
        "errno" | "strerror" | "filename" | "filename2" if C::OSError.catches(e.class) => {
            return Some(match &given {
                Some(args) => os_field(args, name),
                None => os_field_of_message(&e.message, name),
            });
        }
        "value" if e.class == C::StopIteration => {
            return Some(match args_of(e) {
                Value::Tuple(t) => t.first().cloned().unwrap_or(Value::None),
                _ => Value::None,
            });
        }
        _ => {}
    }
    if C::UnicodeError.catches(e.class) && e.class != C::UnicodeError {
        let translate = e.class == C::UnicodeTranslateError;
        let at = match name {
            "encoding" if translate => return Some(Value::None),
            "encoding" => 0,
            "object" => 1,
            "start" => 2,
            "end" => 3,
            "reason" => 4,
            _ => return None,
        };
        return Some(arg(if translate { at - 1 } else { at }));
    }
    let quoted = |before: &str, after: &str| -> Value {
        let found = e
            .message
            .strip_prefix(before)
            .and_then(|rest| rest.strip_suffix(after));
        match found {
            Some(n) if given.is_none() => Value::str(n),
            _ => Value::None,
        }
    };
    match (e.class, name) {
        (C::NameError | C::UnboundLocalError, "name") => {
            let n = e.message.split('\'').nth(1).filter(|_| {
                given.is_none()
                    && (e.message.starts_with("name '")
                        || e.message.starts_with("cannot access local variable '"))
            });
            Some(n.map_or(Value::None, Value::str))
        }
        (C::AttributeError, "name") => {
            let n = e
                .message
                .rsplit_once(" has no attribute '")
                .and_then(|(_, rest)| rest.strip_suffix('\''))
                .filter(|_| given.is_none());
            Some(n.map_or(Value::None, Value::str))
        }
        (C::ImportError | C::ModuleNotFoundError, "name") => Some(quoted("No module named '", "'")),
        (C::ImportError | C::ModuleNotFoundError, "msg") => Some(match &given {
            Some(args) => args.first().cloned().unwrap_or(Value::None),
            None => Value::str(&e.message),
        }),
        (C::ImportError | C::ModuleNotFoundError, "path") => Some(Value::None),
        _ => None,
    }
}

/// An OSError's field from the arguments it was made with.
fn os_field(args: &[Value], name: &str) -> Value {
    if !(2..=5).contains(&args.len()) {
        return Value::None;
    }
    let named = args.get(2).is_some_and(|v| !matches!(v, Value::None));
    let at = match name {
        "errno" => 0,
        "strerror" => 1,
        "filename" if named => 2,
        "filename2" if named => 4,
        _ => return Value::None,
    };
    args.get(at).cloned().unwrap_or(Value::None)
}

/// An OSError's field read back from the message ragtag raised it with.
fn os_field_of_message(message: &str, name: &str) -> Value {
    let Some((errno, strerror, file)) = crate::value::exception_args::errno_parts(message) else {
        return Value::None;
    };
    match name {
        "errno" => Value::Int(errno),
        "strerror" => Value::str(strerror),
        "filename" => file.map_or(Value::None, Value::str),
        _ => Value::None,
    }
}
