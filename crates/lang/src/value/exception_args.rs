//! The arguments a builtin exception was made with (`KeyError('k').args == ('k',)`). An
//! exception value holds only its class and message, so the arguments of the exceptions the
//! program makes are remembered by class and message (the last few hundred), which a raised
//! and caught exception keeps; one ragtag raised itself has only its message.

use std::cell::RefCell;
use std::collections::HashMap;

use super::Value;
use ragtag_engine::{Exception, ExceptionClass};

const KEEP: usize = 512;

thread_local! {
    static ARGS: RefCell<HashMap<(String, String), Vec<Value>>> = RefCell::new(HashMap::new());
}

/// Remembers the arguments an exception of `class` with `message` was made with.
pub fn remember(class: ExceptionClass, message: &str, args: Vec<Value>) {
    ARGS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEEP {
            m.clear();
        }
        m.insert((class.name().to_string(), message.to_string()), args);
    });
}

/// The arguments `e` was made with, when the program made it (not ragtag).
pub fn remembered(e: &Exception) -> Option<Vec<Value>> {
    ARGS.with(|m| {
        m.borrow()
            .get(&(e.class.name().to_string(), e.message.clone()))
            .cloned()
    })
}

/// The errno, strerror and filename of an OSError's message as ragtag raises it:
/// `[Errno 2] No such file or directory: 'data.csv'`.
pub fn errno_parts(message: &str) -> Option<(i64, &str, Option<&str>)> {
    let (errno, text) = message.strip_prefix("[Errno ")?.split_once("] ")?;
    let errno = errno.parse().ok()?;
    Some(match text.split_once(": '") {
        Some((s, f)) if f.ends_with('\'') => (errno, s, Some(&f[..f.len() - 1])),
        _ => (errno, text, None),
    })
}

/// The arguments of `e.args` among those an exception of `class` was made with: all of
/// them, but only `(errno, strerror)` for an OSError made with a filename, as CPython's.
pub fn visible_args(class: ExceptionClass, args: &[Value]) -> &[Value] {
    let named = args.get(2).is_some_and(|v| !matches!(v, Value::None));
    if ExceptionClass::OSError.catches(class) && (3..=5).contains(&args.len()) && named {
        &args[..2]
    } else {
        args
    }
}
