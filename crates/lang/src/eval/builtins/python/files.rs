//! `open()` and the file objects it returns, as CPython's `io` has them: text files
//! (`TextIOWrapper`: str, an encoding, universal newlines) and binary ones (`'rb'`, `'wb'`:
//! bytes), for reading, writing (`w`, `a`, `x`) or both (`+`). A file is an iterator of its
//! lines, has `read`, `readline`, `readlines`, `write`, `writelines`, `seek`, `tell`,
//! `flush` and `close`, and works in `with`.
//!
//! A file opened for reading is read whole when opened and read from memory after. A
//! write-only file is written through to the disk on each `write`, so nothing is lost
//! when it is never closed; a file open for reading and writing (`+`) keeps its contents
//! in memory and writes them back on each `write`.

use super::codecs::{self, Codec, Errors};

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

macro_rules! method {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("TextIOWrapper.", $name), $sig, $f)
            .doc($doc)
            .examples(&[$ex])
    };
}

/// `open` and the file methods.
pub static FILES: &[Builtin] = &[
    Builtin::function("open", "(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None)", open)
    .doc("A file object: text (`'r'`, `'w'`, `'a'`, `'x'`, with `'+'` to read and write) or binary (`'rb'`, `'wb'`, …: bytes). Iterate it for its lines; use it in `with` to close it.")
    .examples(&["with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nwith open('notes.txt') as f:\n    lines = [line.rstrip() for line in f]\nlines"]),
    method!("read", "(self, size=-1, /)", read, "The rest of the file, or `size` characters (bytes in binary mode).", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nopen('notes.txt').read()"),
    method!("readline", "(self, size=-1, /)", readline, "The next line with its newline; '' at the end.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nopen('notes.txt').readline()"),
    method!("readlines", "(self, hint=-1, /)", readlines, "The remaining lines.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nopen('notes.txt').readlines()"),
    method!("__iter__", "(self)", iter, "The file itself: an iterator of its lines.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\niter(f) is f"),
    method!("__next__", "(self)", next_line, "The next line; StopIteration at the end.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nnext(open('notes.txt'))"),
    method!("write", "(self, s, /)", super::file_write::write, "Writes `s` (str, or bytes in binary mode); the number of characters or bytes written.", "with open('notes.txt', 'w') as f:\n    n = f.write('one\\n')\nn"),
    method!("writelines", "(self, lines, /)", super::file_write::writelines, "Writes each string of `lines` (no newlines are added).", "with open('notes.txt', 'w') as f:\n    f.writelines(['a\\n', 'b\\n'])\nopen('notes.txt').read()"),
    method!("seek", "(self, offset, whence=0, /)", seek, "Moves to `offset` (from the start, the current position or the end, as `whence` is 0, 1 or 2); the new position.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.read()\nf.seek(0)\nf.readline()"),
    method!("tell", "(self, /)", tell, "The current position, in bytes from the start.", "with open('notes.txt', 'w') as f:\n    f.write('one\\ntwo\\n')\nf = open('notes.txt')\nf.readline()\nf.tell()"),
    method!("flush", "(self, /)", flush, "Nothing to do: every write is already on the disk.", "with open('notes.txt', 'w') as f:\n    f.write('one')\n    f.flush()"),
    method!("readable", "(self, /)", |_, a| Ok(Value::Bool(flag(a, "_read"))), "Whether the file was opened for reading.", "with open('notes.txt', 'w') as f:\n    r = f.readable()\nr"),
    method!("writable", "(self, /)", |_, a| Ok(Value::Bool(flag(a, "_write"))), "Whether the file was opened for writing.", "with open('notes.txt', 'w') as f:\n    w = f.writable()\nw"),
    method!("seekable", "(self, /)", |_, _| Ok(Value::Bool(true)), "True: files on the disk can seek.", "with open('notes.txt', 'w') as f:\n    s = f.seekable()\ns"),
    method!("close", "(self, /)", close, "Closes the file; reading or writing it after is a ValueError.", "with open('notes.txt', 'w') as f:\n    f.write('one')\nf.closed"),
    method!("__enter__", "(self)", enter, "The file itself.", "with open('notes.txt', 'w') as f:\n    same = f.__enter__() is f\nsame"),
    method!("__exit__", "(self, *args)", close, "Closes the file.", "with open('notes.txt', 'w') as f:\n    f.write('one')\nf.closed"),
];

/// CPython's OSError subclass and message for a failed file operation.
pub(super) fn os_error(e: &std::io::Error, path: &str, span: ragtag_syntax::ast::Span) -> Error {
    use std::io::ErrorKind as K;
    let class = match e.kind() {
        K::NotFound => ExceptionClass::FileNotFoundError,
        K::PermissionDenied => ExceptionClass::PermissionError,
        K::AlreadyExists => ExceptionClass::FileExistsError,
        K::IsADirectory => ExceptionClass::IsADirectoryError,
        _ => ExceptionClass::OSError,
    };
    let code = e.raw_os_error().unwrap_or(0);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    Error::new(class, format!("[Errno {code}] {text}: '{path}'")).at(span)
}

/// What a mode string asks for.
struct Mode {
    read: bool,
    write: bool,
    /// `w` or `w+`: the file is emptied when opened.
    truncate: bool,
    /// `a`: writes go to the end.
    append: bool,
    /// `x`: the file must not exist yet.
    exclusive: bool,
    binary: bool,
}

/// Reads a mode as CPython's `open` does, with its ValueErrors.
fn parse_mode(mode: &str) -> std::result::Result<Mode, String> {
    let mut seen = String::new();
    for c in mode.chars() {
        if !"rwaxbt+".contains(c) || seen.contains(c) {
            return Err(format!("invalid mode: '{mode}'"));
        }
        seen.push(c);
    }
    let has = |c: char| seen.contains(c);
    let kinds = ['r', 'w', 'a', 'x'].iter().filter(|c| has(**c)).count();
    if has('b') && has('t') {
        return Err("can't have text and binary mode at once".into());
    }
    if kinds != 1 {
        // CPython words the message for an empty mode differently.
        return Err(if mode.is_empty() {
            "Must have exactly one of create/read/write/append mode and at most one plus"
        } else {
            "must have exactly one of create/read/write/append mode"
        }
        .into());
    }
    let plus = has('+');
    Ok(Mode {
        read: has('r') || plus,
        write: !has('r') || plus,
        truncate: has('w'),
        append: has('a'),
        exclusive: has('x'),
        binary: has('b'),
    })
}

fn value_error(msg: impl Into<String>, span: ragtag_syntax::ast::Span) -> Error {
    Error::new(ExceptionClass::ValueError, msg.into()).at(span)
}

fn open(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = super::osmod::pathlib::path_arg(a, "file")?;
    let mode_text = a.opt_str("mode")?.unwrap_or_else(|| "r".into());
    let mode = parse_mode(&mode_text).map_err(|m| value_error(m, a.span("mode")))?;
    let encoding = a.opt_str("encoding")?;
    let errors = a.opt_str("errors")?;
    let newline = a.opt_str("newline")?;
    if mode.binary {
        for (name, given) in [
            ("encoding", &encoding),
            ("errors", &errors),
            ("newline", &newline),
        ] {
            if given.is_some() {
                return Err(value_error(
                    format!("binary mode doesn't take an {name} argument"),
                    a.span(name),
                ));
            }
        }
    }
    if let Some(n) = &newline {
        if !matches!(n.as_str(), "" | "\n" | "\r" | "\r\n") {
            return Err(value_error(
                format!("illegal newline value: {n}"),
                a.span("newline"),
            ));
        }
    }
    let codec = Codec::named(encoding.as_deref().unwrap_or("utf-8"))
        .map_err(|e| Error::from(e).at(a.span("encoding")))?;
    let handler = Errors::named(errors.as_deref().unwrap_or("strict"))
        .map_err(|e| Error::from(e).at(a.span("errors")))?;
    let span = a.span("file");
    let fail = |e: std::io::Error| os_error(&e, &path, span);
    std::fs::OpenOptions::new()
        .read(mode.read)
        .write(mode.write && !mode.append)
        .append(mode.append)
        .truncate(mode.truncate)
        .create(mode.truncate || mode.append)
        .create_new(mode.exclusive)
        .open(&path)
        .map_err(fail)?;
    let raw = if mode.read && !mode.truncate {
        std::fs::read(&path).map_err(fail)?
    } else {
        Vec::new()
    };
    let data = if mode.binary {
        Value::bytes(raw)
    } else {
        let text = codecs::decode(&raw, codec, handler).map_err(|e| Error::from(e).at(span))?;
        Value::str(match newline.as_deref() {
            None => universal_newlines(&text),
            _ => text,
        })
    };
    let class = match (mode.binary, mode.read, mode.write) {
        (false, ..) => "TextIOWrapper",
        (true, true, true) => "BufferedRandom",
        (true, true, false) => "BufferedReader",
        (true, false, _) => "BufferedWriter",
    };
    let f = Instance::new(file_class(class));
    let shown = if mode.binary {
        format!("<_io.{class} name='{path}'>")
    } else {
        let enc = encoding.clone().unwrap_or_else(|| "UTF-8".into());
        format!("<_io.TextIOWrapper name='{path}' mode='{mode_text}' encoding='{enc}'>")
    };
    f.set_shown(shown.clone(), shown);
    let end = match &data {
        Value::Str(s) => s.len(),
        Value::Bytes(b) => b.data.len(),
        _ => 0,
    };
    attr_set(&f.attrs, "name", Value::str(path));
    attr_set(&f.attrs, "mode", Value::str(mode_text));
    attr_set(&f.attrs, "closed", Value::Bool(false));
    if !mode.binary {
        let enc = encoding.unwrap_or_else(|| "UTF-8".into());
        attr_set(&f.attrs, "encoding", Value::str(enc));
        attr_set(
            &f.attrs,
            "_newline",
            newline.map_or(Value::None, Value::str),
        );
        attr_set(
            &f.attrs,
            "_errors",
            Value::str(errors.unwrap_or_else(|| "strict".into())),
        );
    }
    attr_set(&f.attrs, "_read", Value::Bool(mode.read));
    attr_set(&f.attrs, "_write", Value::Bool(mode.write));
    attr_set(&f.attrs, "_append", Value::Bool(mode.append));
    attr_set(&f.attrs, "_data", data);
    attr_set(
        &f.attrs,
        "_pos",
        Value::Int(if mode.append { end as i64 } else { 0 }),
    );
    Ok(Value::Instance(f))
}

/// `\r\n` and `\r` read as `\n`, as a text file opened with `newline=None` reads them.
fn universal_newlines(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// The class of `_io` named `name`, with the file methods.
pub(super) fn file_class(name: &str) -> std::sync::Arc<crate::value::class::Class> {
    let Value::Class(c) = builtin_type(name, "_io") else {
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
    c
}

/// A boolean attribute of the file (`_read`, `_write`, `_append`).
fn flag(a: &Args, name: &str) -> bool {
    match a.value("self") {
        Value::Instance(f) => matches!(attr_get(&f.attrs, name), Some(Value::Bool(true))),
        _ => false,
    }
}

/// The file, checked open (and readable or writable as `reading` says).
pub(super) fn file(a: &Args, reading: bool) -> Result<&Instance> {
    let Value::Instance(f) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "not a file").at(a.call));
    };
    if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
        // A file in memory (`io.StringIO`) says it without the full stop, as CPython's.
        let memory = attr_get(&f.attrs, "name").is_none();
        let msg = if memory {
            "I/O operation on closed file"
        } else {
            "I/O operation on closed file."
        };
        return Err(value_error(msg, a.call));
    }
    let allowed = flag(a, if reading { "_read" } else { "_write" });
    if !allowed {
        let what = if reading { "readable" } else { "writable" };
        return Err(Error::new(ExceptionClass::OSError, format!("not {what}"))
            .at(a.call)
            .with_hint(if reading {
                "open the file with mode 'r' (or add '+') to read it"
            } else {
                "open the file with mode 'w', 'a' or 'x' (or add '+') to write it"
            }));
    }
    Ok(f)
}

/// The contents held in memory: the text or the bytes.
pub(super) enum Data {
    Text(std::sync::Arc<String>),
    Bytes(std::sync::Arc<crate::value::PyBytes>),
}

impl Data {
    pub(super) fn len(&self) -> usize {
        match self {
            Data::Text(s) => s.len(),
            Data::Bytes(b) => b.data.len(),
        }
    }
    /// The piece `from..to` as the file's kind of value.
    fn slice(&self, from: usize, to: usize) -> Value {
        match self {
            Data::Text(s) => Value::str(&s[from..to]),
            Data::Bytes(b) => Value::bytes(b.data[from..to].to_vec()),
        }
    }
    /// The end of the line starting at `from`, at most `limit` characters (bytes) long.
    fn line_end(&self, from: usize, limit: Option<usize>) -> usize {
        let (newline, cap) = match self {
            Data::Text(s) => (
                s[from..].find('\n').map(|i| from + i + 1),
                limit.map(|n| char_end(s, from, n)),
            ),
            Data::Bytes(b) => (
                b.data[from..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map(|i| from + i + 1),
                limit.map(|n| (from + n).min(b.data.len())),
            ),
        };
        let end = newline.unwrap_or(self.len());
        cap.map_or(end, |c| end.min(c))
    }
}

/// The byte offset `n` characters after `from` in `s` (its end when fewer are left).
pub(super) fn char_end(s: &str, from: usize, n: usize) -> usize {
    s[from..]
        .char_indices()
        .nth(n)
        .map_or(s.len(), |(i, _)| from + i)
}

/// The contents and the position (clamped to them).
pub(super) fn contents(f: &Instance) -> (Data, usize) {
    let data = match attr_get(&f.attrs, "_data") {
        Some(Value::Bytes(b)) => Data::Bytes(b),
        Some(Value::Str(s)) => Data::Text(s),
        _ => Data::Text(std::sync::Arc::new(String::new())),
    };
    let pos = match attr_get(&f.attrs, "_pos") {
        Some(Value::Int(p)) => usize::try_from(p).unwrap_or(0),
        _ => 0,
    };
    let pos = pos.min(data.len());
    (data, pos)
}

/// [`contents`] for reading: a position inside a character (a `seek` to a byte offset in
/// the middle of one) is the UnicodeDecodeError CPython's decoder raises there.
fn readable(f: &Instance, span: ragtag_syntax::ast::Span) -> Result<(Data, usize)> {
    let (data, pos) = contents(f);
    if let Data::Text(s) = &data {
        if !s.is_char_boundary(pos) {
            let byte = s.as_bytes()[pos];
            return Err(Error::new(
                ExceptionClass::UnicodeDecodeError,
                format!("'utf-8' codec can't decode byte 0x{byte:02x} in position 0: invalid start byte"),
            )
            .at(span));
        }
    }
    Ok((data, pos))
}

pub(super) fn set_pos(f: &Instance, pos: usize) {
    attr_set(&f.attrs, "_pos", Value::Int(pos as i64));
}

/// A size argument: None for all (-1 or None).
fn size_arg(a: &Args, name: &str) -> Result<Option<usize>> {
    Ok(match a.get(name) {
        None | Some(Value::None) => None,
        Some(_) => a.opt_int(name)?.and_then(|n| usize::try_from(n).ok()),
    })
}

fn read(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let (data, pos) = readable(f, a.call)?;
    let end = match (size_arg(a, "size")?, &data) {
        (None, _) => data.len(),
        (Some(n), Data::Text(s)) => char_end(s, pos, n),
        (Some(n), Data::Bytes(_)) => (pos + n).min(data.len()),
    };
    set_pos(f, end);
    Ok(data.slice(pos, end))
}

fn readline(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let (data, pos) = readable(f, a.call)?;
    let end = data.line_end(pos, size_arg(a, "size")?);
    set_pos(f, end);
    Ok(data.slice(pos, end))
}

fn readlines(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let hint = size_arg(a, "hint")?.filter(|h| *h > 0);
    let (data, mut pos) = readable(f, a.call)?;
    let start = pos;
    let mut out = Vec::new();
    while pos < data.len() {
        let end = data.line_end(pos, None);
        out.push(data.slice(pos, end));
        pos = end;
        if hint.is_some_and(|h| pos - start >= h) {
            break;
        }
    }
    set_pos(f, pos);
    Ok(Value::list(out))
}

fn enter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Instance(f) = a.value("self") {
        if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
            return Err(value_error("I/O operation on closed file.", a.call));
        }
    }
    Ok(a.value("self").clone())
}

fn iter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    file(a, true)?;
    Ok(a.value("self").clone())
}

fn next_line(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, true)?;
    let (data, pos) = readable(f, a.call)?;
    if pos >= data.len() {
        return Err(Error::new(ExceptionClass::StopIteration, "").at(a.call));
    }
    let end = data.line_end(pos, None);
    set_pos(f, end);
    Ok(data.slice(pos, end))
}

fn seek(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(f) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "not a file").at(a.call));
    };
    if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
        return Err(value_error("I/O operation on closed file.", a.call));
    }
    let offset = a.opt_int("offset")?.unwrap_or(0);
    let whence = a.opt_int("whence")?.unwrap_or(0);
    let (data, pos) = contents(f);
    let text = matches!(data, Data::Text(_));
    if text && whence != 0 && offset != 0 {
        let what = if whence == 1 { "cur" } else { "end" };
        return Err(Error::new(
            ExceptionClass::OSError,
            format!("can't do nonzero {what}-relative seeks"),
        )
        .at(a.span("offset")));
    }
    let base = match whence {
        0 => 0,
        1 => pos as i64,
        2 => data.len() as i64,
        w => {
            return Err(value_error(
                format!("invalid whence ({w}, should be 0, 1 or 2)"),
                a.span("whence"),
            ))
        }
    };
    let to = base + offset;
    if to < 0 {
        return Err(value_error(
            format!("negative seek position {to}"),
            a.span("offset"),
        ));
    }
    set_pos(f, to as usize);
    Ok(Value::Int(to))
}

fn tell(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(f) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "not a file").at(a.call));
    };
    if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
        return Err(value_error("I/O operation on closed file.", a.call));
    }
    if !matches!(attr_get(&f.attrs, "_read"), Some(Value::Bool(true))) {
        let path = match attr_get(&f.attrs, "name") {
            Some(Value::Str(p)) => p.to_string(),
            _ => String::new(),
        };
        let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        return Ok(Value::Int(len as i64));
    }
    Ok(Value::Int(contents(f).1 as i64))
}

fn flush(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Instance(f) = a.value("self") {
        if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
            return Err(value_error("I/O operation on closed file.", a.call));
        }
    }
    Ok(Value::None)
}

fn close(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Instance(f) = a.value("self") {
        attr_set(&f.attrs, "closed", Value::Bool(true));
    }
    Ok(Value::None)
}
