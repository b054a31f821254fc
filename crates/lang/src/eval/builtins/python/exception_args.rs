//! `e.args` of a builtin exception: the arguments it was made with (`KeyError('k').args ==
//! ('k',)`), remembered by class and message (`value::exception_args`); one ragtag raised
//! itself has its message as its one argument (a KeyError's key read back from its repr, an
//! OSError's errno and strerror from its `[Errno N] …` form).

use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass};

pub use crate::value::exception_args::{remember, remembered};

/// `e.args`.
pub fn args_of(e: &Exception) -> Value {
    if let Some(args) = remembered(e) {
        return Value::tuple(crate::value::exception_args::visible_args(e.class, &args).to_vec());
    }
    if e.message.is_empty() {
        return Value::tuple(Vec::new());
    }
    if e.class == ExceptionClass::KeyError {
        return Value::tuple(vec![key_of(&e.message)]);
    }
    // An OSError ragtag raised (`[Errno 2] No such file or directory: 'f'`): its errno and
    // strerror, as CPython's.
    if ExceptionClass::OSError.catches(e.class) {
        let field = |name| super::exception_attrs::attr(e, name).unwrap_or(Value::None);
        if let (errno @ Value::Int(_), strerror) = (field("errno"), field("strerror")) {
            return Value::tuple(vec![errno, strerror]);
        }
    }
    Value::tuple(vec![Value::str(&e.message)])
}

/// A KeyError's key from its repr, for the simple keys (a str, an int) ragtag raises with.
fn key_of(repr: &str) -> Value {
    let quoted = |q: char| {
        repr.len() >= 2
            && repr.starts_with(q)
            && repr.ends_with(q)
            && !repr[1..repr.len() - 1].contains(['\\', q])
    };
    if quoted('\'') || quoted('"') {
        return Value::str(&repr[1..repr.len() - 1]);
    }
    if let Ok(i) = repr.parse::<i64>() {
        return Value::Int(i);
    }
    Value::str(repr)
}

/// The exception `class(*args)` makes, its arguments remembered; a SystemExit also carries
/// its exit status in its hint (see [`exit_status`]), which any thread can read.
pub fn make(class: ExceptionClass, message: String, args: Vec<Value>) -> Exception {
    let hint = (class == ExceptionClass::SystemExit).then(|| exit_hint(args.as_slice()));
    remember(class, &message, args);
    let mut e = Exception::new(class, message);
    e.hint = hint;
    e
}

/// What ends a SystemExit's hint: the exit status `ragtag run` ends with.
const EXIT_STATUS: &str = "`ragtag run` ends with exit status ";

/// A SystemExit's hint for its arguments: CPython's exit status of `code` (None: 0, an
/// int: itself modulo 256, anything else: 1 after printing it).
pub fn exit_hint(args: &[Value]) -> String {
    let status = match args {
        [] | [Value::None] => 0,
        [Value::Int(i)] => i & 0xff,
        [Value::Bool(b)] => *b as i64,
        [Value::BigInt(b)] => (&**b & num_bigint::BigInt::from(0xff))
            .try_into()
            .unwrap_or(1),
        _ => 1,
    };
    let printed = if status == 1 && !matches!(args, [Value::Int(_) | Value::Bool(_)]) {
        "; the code is printed to stderr"
    } else {
        ""
    };
    format!("a session goes on; {EXIT_STATUS}{status}{printed}")
}

/// The exit status of an uncaught SystemExit with `message` and `hint`, and the text to
/// print to stderr first (a code that is not an int or None); `None` for other errors.
pub fn exit_status(
    class: ExceptionClass,
    message: &str,
    hint: Option<&str>,
) -> Option<(u8, Option<String>)> {
    if class != ExceptionClass::SystemExit {
        return None;
    }
    let Some(hint) = hint else {
        // `raise SystemExit`: the class itself, code None.
        return Some((0, None));
    };
    let rest = hint.split_once(EXIT_STATUS)?.1;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let status = digits.parse::<u8>().unwrap_or(1);
    let printed = rest.contains("printed").then(|| message.to_string());
    Some((status, printed))
}

/// How a script ends on an uncaught SystemExit `e`, as CPython's: its exit status, after
/// printing to stderr a code that is not an int or None (no report); 1 for other errors.
pub fn exited(e: &crate::diagnostic::Error) -> u8 {
    let Some((status, printed)) = exit_status(e.class, &e.message, e.hint.as_deref()) else {
        return 1;
    };
    if let Some(text) = printed {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        eprintln!("{text}");
    }
    status
}

/// `e.code` of a SystemExit: None, its one argument, or the tuple of them.
fn exit_code(e: &Exception) -> Value {
    match args_of(e) {
        Value::Tuple(t) if t.is_empty() => Value::None,
        Value::Tuple(t) if t.len() == 1 => t[0].clone(),
        other => other,
    }
}

/// `e.msg`, `e.pos`, `e.lineno`, `e.colno` and `e.doc`-less parts of a `json.JSONDecodeError`
/// (a ValueError whose message is `MSG: line L column C (char P)`), and a SystemExit's
/// `e.code`; None for other errors.
pub fn json_error_attr(e: &Exception, name: &str) -> Option<Value> {
    if e.class == ExceptionClass::SystemExit && name == "code" {
        return Some(exit_code(e));
    }
    if e.class != ExceptionClass::ValueError {
        return None;
    }
    let (msg, rest) = e.message.rsplit_once(": line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let (col, rest) = rest.split_once(" (char ")?;
    let pos = rest.strip_suffix(')')?;
    let int = |s: &str| s.parse::<i64>().ok().map(Value::Int);
    match name {
        "msg" => Some(Value::str(msg)),
        "lineno" => int(line),
        "colno" => int(col),
        "pos" => int(pos),
        _ => None,
    }
}
