//! `open()` and the text file objects it returns: `read`, `readline`, `readlines`,
//! `write`, `close`, iteration and use in `with`. Files are read whole when opened and
//! written through to the disk on each `write`.

use std::io::Write;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `open`.
pub static FILES: &[Builtin] = &[
    Builtin::function("open", "(file, mode='r', encoding=None, newline=None)", open)
    .doc("A text file object (modes `r`, `w`, `a`): `read()`, `readline()`, `readlines()`, `write(s)`, iteration over its lines, `close()`; usable in `with`.")
    .examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nopen('notes.txt').readlines()"]),
    Builtin::method("TextIOWrapper.read", "(self, size=-1)", read).doc("The rest of the file (or `size` characters).").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.read()"]),
    Builtin::method("TextIOWrapper.readline", "(self)", readline).doc("The next line, with its newline; '' at the end.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.readline()"]),
    Builtin::method("TextIOWrapper.readlines", "(self)", readlines).doc("The remaining lines.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.readlines()"]),
    Builtin::method("TextIOWrapper.__iter__", "(self)", readlines).doc("The remaining lines.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.readlines()"]),
    Builtin::method("TextIOWrapper.write", "(self, s)", write).doc("Writes `s`; the number of characters written.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.read()"]),
    Builtin::method("TextIOWrapper.close", "(self)", close).doc("Closes the file.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.close()\nf.closed"]),
    Builtin::method("TextIOWrapper.__enter__", "(self)", |_, a| Ok(a.value("self").clone())).doc("The file itself.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.__enter__() is f"]),
    Builtin::method("TextIOWrapper.__exit__", "(self, *args)", close).doc("Closes the file.").examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.close()\nf.closed"]),
];

fn os_error(e: &std::io::Error, path: &str, span: ragtag_syntax::ast::Span) -> Error {
    let class = match e.kind() {
        std::io::ErrorKind::NotFound => ExceptionClass::FileNotFoundError,
        _ => ExceptionClass::OSError,
    };
    let code = e.raw_os_error().unwrap_or(0);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    Error::new(class, format!("[Errno {code}] {text}: '{path}'")).at(span)
}

fn open(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = match a.value("file") {
        Value::Str(s) => s.to_string(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "expected str, bytes or os.PathLike object, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("file")))
        }
    };
    let mode = a.opt_str("mode")?.unwrap_or_else(|| "r".into());
    let kind = mode.replace('t', "");
    let span = a.span("file");
    let data = match kind.as_str() {
        "r" => std::fs::read_to_string(&path).map_err(|e| os_error(&e, &path, span))?,
        "w" => {
            std::fs::write(&path, "").map_err(|e| os_error(&e, &path, span))?;
            String::new()
        }
        "a" => {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| os_error(&e, &path, span))?;
            String::new()
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("invalid mode: '{mode}'"),
            )
            .at(a.span("mode"))
            .with_hint(
                "ragtag opens text files for reading ('r'), writing ('w') or appending ('a')",
            ))
        }
    };
    let Value::Class(c) = builtin_type("TextIOWrapper", "_io") else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "read").is_none() {
        for m in FILES
            .iter()
            .filter(|m| m.name.starts_with("TextIOWrapper."))
        {
            let m = crate::eval::builtins::registry().get(m.name).unwrap_or(m);
            attr_set(&c.attrs, m.short_name(), Value::Builtin(m));
        }
    }
    let f = Instance::new(c);
    f.set_shown(
        format!("<_io.TextIOWrapper name='{path}' mode='{mode}' encoding='UTF-8'>"),
        format!("<_io.TextIOWrapper name='{path}' mode='{mode}' encoding='UTF-8'>"),
    );
    attr_set(&f.attrs, "name", Value::str(path));
    attr_set(&f.attrs, "mode", Value::str(mode));
    attr_set(&f.attrs, "closed", Value::Bool(false));
    attr_set(&f.attrs, "_data", Value::str(data));
    attr_set(&f.attrs, "_pos", Value::Int(0));
    Ok(Value::Instance(f))
}

/// The file, checked open (and readable or writable as `reading` says).
fn file(a: &Args, reading: bool) -> Result<&Instance> {
    let Value::Instance(f) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "not a file").at(a.call));
    };
    if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
        return Err(
            Error::new(ExceptionClass::ValueError, "I/O operation on closed file.").at(a.call),
        );
    }
    let mode = match attr_get(&f.attrs, "mode") {
        Some(Value::Str(m)) => m.to_string(),
        _ => String::new(),
    };
    if reading != mode.contains('r') {
        let what = if reading { "readable" } else { "writable" };
        return Err(Error::new(ExceptionClass::OSError, format!("not {what}")).at(a.call));
    }
    Ok(f)
}

/// The unread text and where it starts.
fn rest(f: &Instance) -> (std::sync::Arc<String>, usize) {
    let data = match attr_get(&f.attrs, "_data") {
        Some(Value::Str(s)) => s,
        _ => std::sync::Arc::new(String::new()),
    };
    let pos = match attr_get(&f.attrs, "_pos") {
        Some(Value::Int(p)) => p as usize,
        _ => 0,
    };
    let pos = pos.min(data.len());
    (data, pos)
}

fn take(f: &Instance, n: usize) -> String {
    let (data, pos) = rest(f);
    let end = (pos + n).min(data.len());
    attr_set(&f.attrs, "_pos", Value::Int(end as i64));
    data[pos..end].to_string()
}

fn read(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let (data, pos) = rest(f);
    let n = match a.opt_int("size")? {
        Some(n) if n >= 0 => data[pos..]
            .char_indices()
            .nth(n as usize)
            .map_or(data.len() - pos, |(i, _)| i),
        _ => data.len() - pos,
    };
    Ok(Value::str(take(f, n)))
}

fn line_len(s: &str) -> usize {
    s.find('\n').map_or(s.len(), |i| i + 1)
}

fn readline(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let (data, pos) = rest(f);
    Ok(Value::str(take(f, line_len(&data[pos..]))))
}

fn readlines(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let mut out = Vec::new();
    loop {
        let (data, pos) = rest(f);
        if pos >= data.len() {
            break;
        }
        out.push(Value::str(take(f, line_len(&data[pos..]))));
    }
    Ok(Value::list(out))
}

fn write(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, false)?;
    let Value::Str(s) = a.value("s") else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "write() argument must be str, not {}",
                a.value("s").type_name()
            ),
        )
        .at(a.span("s")));
    };
    let path = match attr_get(&f.attrs, "name") {
        Some(Value::Str(p)) => p.to_string(),
        _ => String::new(),
    };
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .and_then(|mut h| h.write_all(s.as_bytes()))
        .map_err(|e| os_error(&e, &path, a.call))?;
    Ok(Value::Int(s.chars().count() as i64))
}

fn close(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Instance(f) = a.value("self") {
        attr_set(&f.attrs, "closed", Value::Bool(true));
    }
    Ok(Value::None)
}
