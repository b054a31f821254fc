//! `os` and `os.path` as CPython has them on a POSIX system, the parts used around data
//! files: paths built and taken apart as strings (`join`, `split`, `splitext`, `normpath`,
//! `abspath`, `relpath` — `posixpath`'s rules), questions about files (`exists`, `isfile`,
//! `isdir`, `getsize`), directories (`getcwd`, `listdir`, `mkdir`, `makedirs`), removing
//! and renaming files, and the environment (`environ`, `getenv`). Failures are CPython's
//! OSError subclasses with their errno.

pub mod pathlib;

use super::files::os_error;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::{ThinStr, Value};
use ragtag_engine::ExceptionClass;

macro_rules! path_fn {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("os.path.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import os\n", $ex)])
    };
}

macro_rules! os_fn {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("os.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import os\n", $ex)])
    };
}

/// The functions of `os` and `os.path`.
pub static OS: &[Builtin] = &[
    path_fn!("join", "(a, *p)", join, "Joins path parts with `/`; an absolute part starts the path again.", "os.path.join('data', 'runs', 'a.csv')"),
    path_fn!("split", "(p)", |_, a| {
        let (head, tail) = split(&text(a, "p")?);
        Ok(Value::tuple(vec![Value::str(head), Value::str(tail)]))
    }, "The pair (directory, last part).", "os.path.split('data/runs/a.csv')"),
    path_fn!("basename", "(p)", |_, a| Ok(Value::str(split(&text(a, "p")?).1)), "The last part of the path.", "os.path.basename('data/runs/a.csv')"),
    path_fn!("dirname", "(p)", |_, a| Ok(Value::str(split(&text(a, "p")?).0)), "The path without its last part.", "os.path.dirname('data/runs/a.csv')"),
    path_fn!("splitext", "(p)", |_, a| {
        let (root, ext) = splitext(&text(a, "p")?);
        Ok(Value::tuple(vec![Value::str(root), Value::str(ext)]))
    }, "The pair (root, extension), the extension from the last dot of the last part.", "os.path.splitext('runs/a.tar.gz')"),
    path_fn!("isabs", "(s)", |_, a| Ok(Value::Bool(text(a, "s")?.starts_with('/'))), "Whether the path starts at the root.", "os.path.isabs('/tmp'), os.path.isabs('data')"),
    path_fn!("normpath", "(path)", |_, a| Ok(Value::str(normpath(&text(a, "path")?))), "The path with `.`, `..` and repeated slashes resolved as text.", "os.path.normpath('data//runs/../a.csv')"),
    path_fn!("abspath", "(path)", |_, a| Ok(Value::str(abspath(&text(a, "path")?))), "The absolute, normalized path.", "os.path.abspath('.') == os.getcwd()"),
    path_fn!("relpath", "(path, start=None)", relpath, "The path relative to `start` (the current directory by default).", "os.path.relpath('/data/runs/a.csv', '/data')"),
    path_fn!("expanduser", "(path)", |_, a| Ok(Value::str(expanduser(&text(a, "path")?))), "A leading `~` replaced by the home directory.", "os.path.expanduser('~/data') != '~/data'"),
    path_fn!("exists", "(path)", |_, a| Ok(Value::Bool(meta(a).is_some())), "Whether something exists at the path.", "os.path.exists('.')"),
    path_fn!("isfile", "(path)", |_, a| Ok(Value::Bool(meta(a).is_some_and(|m| m.is_file()))), "Whether the path is a regular file.", "os.path.isfile('.')"),
    path_fn!("isdir", "(s)", |_, a| Ok(Value::Bool(std::fs::metadata(text(a, "s")?).is_ok_and(|m| m.is_dir()))), "Whether the path is a directory.", "os.path.isdir('.')"),
    path_fn!("getsize", "(filename)", |_, a| {
        let p = text(a, "filename")?;
        let m = std::fs::metadata(&p).map_err(|e| os_error(&e, &p, a.span("filename")))?;
        Ok(Value::Int(i64::try_from(m.len()).unwrap_or(i64::MAX)))
    }, "The size of the file in bytes.", "with open('notes.txt', 'w') as f:\n    n = f.write('abc')\nos.path.getsize('notes.txt')"),
    os_fn!("getcwd", "()", |_, _| Ok(Value::str(cwd())), "The current working directory.", "os.getcwd() != ''"),
    os_fn!("listdir", "(path='.')", listdir, "The names in the directory, in the order the system gives them.", "'notes.txt' in os.listdir('.') or True"),
    os_fn!("mkdir", "(path, mode=511)", |_, a| {
        let p = text(a, "path")?;
        std::fs::create_dir(&p).map_err(|e| os_error(&e, &p, a.span("path")))?;
        Ok(Value::None)
    }, "Makes one directory (its parent must exist).", "os.makedirs('out', exist_ok=True)\nos.path.isdir('out')"),
    os_fn!("makedirs", "(name, mode=511, exist_ok=False)", makedirs, "Makes the directory and any missing parents; an existing one is a FileExistsError unless `exist_ok`.", "os.makedirs('out/a/b', exist_ok=True)\nos.path.isdir('out/a/b')"),
    os_fn!("remove", "(path)", remove, "Deletes the file.", "with open('tmp.txt', 'w') as f:\n    n = f.write('x')\nos.remove('tmp.txt')\nos.path.exists('tmp.txt')"),
    os_fn!("unlink", "(path)", remove, "Deletes the file (the same as `os.remove`).", "with open('tmp.txt', 'w') as f:\n    n = f.write('x')\nos.unlink('tmp.txt')\nos.path.exists('tmp.txt')"),
    os_fn!("rmdir", "(path)", |_, a| {
        let p = text(a, "path")?;
        std::fs::remove_dir(&p).map_err(|e| os_error(&e, &p, a.span("path")))?;
        Ok(Value::None)
    }, "Deletes the empty directory.", "os.makedirs('empty_dir', exist_ok=True)\nos.rmdir('empty_dir')\nos.path.exists('empty_dir')"),
    os_fn!("rename", "(src, dst)", rename, "Renames (moves) `src` to `dst`.", "with open('a.txt', 'w') as f:\n    n = f.write('x')\nos.rename('a.txt', 'b.txt')\nos.path.exists('b.txt')"),
    os_fn!("replace", "(src, dst)", rename, "Renames `src` to `dst`, replacing `dst` if it exists.", "with open('a.txt', 'w') as f:\n    n = f.write('x')\nos.replace('a.txt', 'b.txt')\nos.path.exists('b.txt')"),
    os_fn!("getpid", "()", |_, _| Ok(Value::Int(i64::from(std::process::id()))), "The process id of the running ragtag.", "os.getpid() > 0"),
    os_fn!("getenv", "(key, default=None)", |_, a| {
        let k = text(a, "key")?;
        Ok(std::env::var(&k).map_or_else(|_| a.value("default").clone(), Value::str))
    }, "The environment variable, or `default` when it is not set.", "os.getenv('RAGTAG_SURELY_UNSET', 'none')"),
];

/// The names of `os` and `os.path` that are not functions.
pub fn constant(path: &str) -> Option<Value> {
    let s = |t: &str| Some(Value::str(t));
    match path {
        "os.path" => Some(Value::Module(ThinStr::from("os.path"))),
        "os.sep" | "os.path.sep" => s("/"),
        "os.linesep" => s("\n"),
        "os.name" => s("posix"),
        "os.curdir" | "os.path.curdir" => s("."),
        "os.pardir" | "os.path.pardir" => s(".."),
        "os.environ" => {
            let pairs = std::env::vars()
                .map(|(k, v)| (Value::str(k), Value::str(v)))
                .collect();
            Value::dict(pairs).ok()
        }
        _ => None,
    }
}

/// A path argument (a str or a `pathlib` path), or CPython's TypeError.
use pathlib::path_arg as text;

fn meta(a: &Args) -> Option<std::fs::Metadata> {
    std::fs::metadata(text(a, "path").ok()?).ok()
}

fn cwd() -> String {
    std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `posixpath.join`.
fn join_parts(parts: &[String]) -> String {
    let mut path = String::new();
    for (i, b) in parts.iter().enumerate() {
        if i == 0 || b.starts_with('/') {
            path = b.clone();
        } else if path.is_empty() || path.ends_with('/') {
            path.push_str(b);
        } else {
            path.push('/');
            path.push_str(b);
        }
    }
    path
}

fn join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut parts = vec![text(a, "a")?];
    for (v, span) in a.rest() {
        match v {
            Value::Str(s) => parts.push(s.to_string()),
            other => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "join() argument must be str, bytes, or os.PathLike object, not '{}'",
                        other.type_name()
                    ),
                )
                .at(*span))
            }
        }
    }
    Ok(Value::str(join_parts(&parts)))
}

/// `posixpath.split`: the head keeps a root of slashes, and loses trailing ones otherwise.
fn split(p: &str) -> (String, String) {
    let i = p.rfind('/').map_or(0, |i| i + 1);
    let (head, tail) = p.split_at(i);
    let head = if !head.is_empty() && head.chars().any(|c| c != '/') {
        head.trim_end_matches('/')
    } else {
        head
    };
    (head.to_string(), tail.to_string())
}

/// `posixpath.splitext`: leading dots of the last part do not start an extension.
fn splitext(p: &str) -> (String, String) {
    let sep = p.rfind('/').map_or(0, |i| i + 1);
    if let Some(dot) = p.rfind('.').filter(|d| *d >= sep) {
        if p[sep..dot].chars().any(|c| c != '.') {
            return (p[..dot].to_string(), p[dot..].to_string());
        }
    }
    (p.to_string(), String::new())
}

/// `posixpath.normpath`.
fn normpath(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let initial = if path.starts_with("//") && !path.starts_with("///") {
        2
    } else {
        usize::from(path.starts_with('/'))
    };
    let mut comps: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        if comp.is_empty() || comp == "." {
            continue;
        }
        if comp != ".." || (initial == 0 && comps.is_empty()) || comps.last() == Some(&"..") {
            comps.push(comp);
        } else if !comps.is_empty() {
            comps.pop();
        }
    }
    let root = if initial == 2 {
        "//"
    } else if initial == 1 {
        "/"
    } else {
        ""
    };
    let out = format!("{root}{}", comps.join("/"));
    if out.is_empty() {
        ".".into()
    } else {
        out
    }
}

fn abspath(p: &str) -> String {
    if p.starts_with('/') {
        normpath(p)
    } else {
        normpath(&join_parts(&[cwd(), p.to_string()]))
    }
}

fn expanduser(p: &str) -> String {
    let Some(rest) = p.strip_prefix('~') else {
        return p.to_string();
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return p.to_string();
    }
    match std::env::var("HOME") {
        Ok(home) => {
            let home = home.trim_end_matches('/');
            let home = if home.is_empty() { "/" } else { home };
            format!("{home}{rest}")
        }
        Err(_) => p.to_string(),
    }
}

fn relpath(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = text(a, "path")?;
    if path.is_empty() {
        return Err(Error::new(ExceptionClass::ValueError, "no path specified").at(a.span("path")));
    }
    let start = match a.value("start") {
        Value::None => ".".to_string(),
        _ => text(a, "start")?,
    };
    let parts = |p: &str| -> Vec<String> {
        abspath(p)
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (from, to) = (parts(&start), parts(&path));
    let common = from.iter().zip(&to).take_while(|(x, y)| x == y).count();
    let rel: Vec<String> = std::iter::repeat_n("..".to_string(), from.len() - common)
        .chain(to[common..].iter().cloned())
        .collect();
    Ok(Value::str(if rel.is_empty() {
        ".".to_string()
    } else {
        join_parts(&rel)
    }))
}

fn listdir(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = text(a, "path")?;
    let entries = std::fs::read_dir(&p).map_err(|e| os_error(&e, &p, a.span("path")))?;
    let mut names = Vec::new();
    for e in entries {
        let e = e.map_err(|e| os_error(&e, &p, a.span("path")))?;
        names.push(Value::str(e.file_name().to_string_lossy().into_owned()));
    }
    Ok(Value::list(names))
}

fn makedirs(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = text(a, "name")?;
    let exist_ok = a.value("exist_ok").truthy().unwrap_or(false);
    if std::path::Path::new(&p).is_dir() && !exist_ok {
        let e = std::io::Error::from_raw_os_error(17);
        return Err(os_error(&e, &p, a.span("name")));
    }
    std::fs::create_dir_all(&p).map_err(|e| os_error(&e, &p, a.span("name")))?;
    Ok(Value::None)
}

fn remove(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = text(a, "path")?;
    std::fs::remove_file(&p).map_err(|e| os_error(&e, &p, a.span("path")))?;
    Ok(Value::None)
}

fn rename(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (src, dst) = (text(a, "src")?, text(a, "dst")?);
    std::fs::rename(&src, &dst).map_err(|e| {
        let err = os_error(&e, &src, a.span("src"));
        // CPython names both paths: `[Errno 2] No such file or directory: 'a' -> 'b'`.
        let message = format!("{} -> '{dst}'", err.message);
        Error::new(err.class, message).at(a.span("src"))
    })?;
    Ok(Value::None)
}
