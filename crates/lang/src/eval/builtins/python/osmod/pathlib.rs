//! `pathlib.Path` as CPython 3.11 has it on a POSIX system (`PosixPath`): a path parsed
//! as CPython's does (repeated slashes and `.` parts dropped), joined with `/`, taken
//! apart (`name`, `stem`, `suffix`, `suffixes`, `parent`, `parents`, `parts`, `anchor`),
//! changed (`with_name`, `with_stem`, `with_suffix`, `relative_to`), compared by its
//! parts, and used on the file system (`exists`, `is_file`, `is_dir`, `mkdir`, `iterdir`,
//! `glob`, `rglob`, `read_text`, `write_text`, `read_bytes`, `write_bytes`, `open`,
//! `unlink`, `rmdir`, `rename`, `touch`, `resolve`). A path is accepted wherever `open`,
//! `os`, `os.path`, `glob` and `csv` take a file name. One class stands for `Path`,
//! `PosixPath`, `PurePath` and `PurePosixPath`.

use std::sync::{Arc, OnceLock};

use super::super::files::os_error;
use super::super::functools::class_members;
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::{registry, Builtin};
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;

macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("pathlib.PosixPath.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("from pathlib import Path\n", $ex)])
    };
}

/// The methods of `pathlib.Path`.
pub static PATHLIB: &[Builtin] = &[
    m!("__init__", "(self, *args)", init, "The path of the parts joined (an absolute part starts again), parsed as CPython parses it.", "Path('data', 'runs//a.csv')"),
    m!("__getattr__", "(self, name)", part_attr, "`name`, `stem`, `suffix`, `suffixes`, `parent`, `parents`, `parts`, `anchor`, `root` and `drive`.", "p = Path('data/runs/a.tar.gz')\np.name, p.stem, p.suffix, p.suffixes, p.parent"),
    m!("__str__", "(self)", |_, a| Ok(Value::str(me(a)?)), "The path as a string.", "str(Path('a') / 'b')"),
    m!("__fspath__", "(self)", |_, a| Ok(Value::str(me(a)?)), "The path as a string, for `os.fspath`.", "Path('a').__fspath__()"),
    m!("as_posix", "(self)", |_, a| Ok(Value::str(me(a)?)), "The path with forward slashes.", "Path('a/b').as_posix()"),
    m!("__repr__", "(self)", |_, a| Ok(Value::str(format!("PosixPath({})", crate::render::tf_text::py_str(&me(a)?)))), "`PosixPath('…')`.", "Path('a/b')"),
    m!("__truediv__", "(self, key)", |_, a| joined(a, false), "The path with `key` joined on.", "Path('data') / 'a.csv'"),
    m!("__rtruediv__", "(self, key)", |_, a| joined(a, true), "`key` with this path joined on.", "'data' / Path('a.csv')"),
    m!("joinpath", "(self, *pathsegments)", |_, a| {
        let mut parts = vec![Value::str(me(a)?)];
        parts.extend(a.rest().iter().map(|(v, _)| v.clone()));
        new_path(&texts(&parts, a)?)
    }, "The path with each segment joined on.", "Path('a').joinpath('b', 'c')"),
    m!("__eq__", "(self, other)", |_, a| Ok(match other(a) {
        Some(o) => Value::Bool(o == me(a)?),
        None => crate::eval::dunder_not_implemented(),
    }), "Whether the other path is the same path.", "Path('a//b') == Path('a/b')"),
    m!("__hash__", "(self)", |_, a| Ok(Value::Int(crate::value::pyhash::hash_str(&me(a)?))), "The hash of the path's string.", "hash(Path('a')) == hash(Path('a'))"),
    m!("__lt__", "(self, other)", |_, a| compare(a, std::cmp::Ordering::is_lt), "Ordered by parts.", "Path('a/b') < Path('a-b')"),
    m!("__le__", "(self, other)", |_, a| compare(a, std::cmp::Ordering::is_le), "Ordered by parts.", "Path('a') <= Path('a')"),
    m!("__gt__", "(self, other)", |_, a| compare(a, std::cmp::Ordering::is_gt), "Ordered by parts.", "Path('b') > Path('a')"),
    m!("__ge__", "(self, other)", |_, a| compare(a, std::cmp::Ordering::is_ge), "Ordered by parts.", "Path('b') >= Path('a')"),
    m!("is_absolute", "(self)", |_, a| Ok(Value::Bool(me(a)?.starts_with('/'))), "Whether the path starts at the root.", "Path('/tmp').is_absolute()"),
    m!("with_name", "(self, name)", |_, a| with_name(a, |_| path_arg(a, "name")), "The path with its last part replaced.", "Path('a/b.txt').with_name('c.csv')"),
    m!("with_stem", "(self, stem)", |_, a| with_name(a, |name| Ok(path_arg(a, "stem")? + &suffix(name))), "The path with its last part's stem replaced.", "Path('a/b.txt').with_stem('c')"),
    m!("with_suffix", "(self, suffix)", with_suffix, "The path with its suffix replaced (or added, or removed with '').", "Path('a/b.txt').with_suffix('.csv')"),
    m!("relative_to", "(self, *other)", relative_to, "The path relative to `other`; a ValueError when it is not under it.", "Path('/data/runs/a.csv').relative_to('/data')"),
    m!("is_relative_to", "(self, *other)", |it, a| Ok(Value::Bool(relative_to(it, a).is_ok())), "Whether the path is under `other`.", "Path('/data/a').is_relative_to('/data')"),
    m!("exists", "(self)", |_, a| Ok(Value::Bool(std::fs::metadata(me(a)?).is_ok())), "Whether something exists at the path.", "Path('.').exists()"),
    m!("is_file", "(self)", |_, a| Ok(Value::Bool(std::fs::metadata(me(a)?).is_ok_and(|m| m.is_file()))), "Whether the path is a regular file.", "Path('.').is_file()"),
    m!("is_dir", "(self)", |_, a| Ok(Value::Bool(std::fs::metadata(me(a)?).is_ok_and(|m| m.is_dir()))), "Whether the path is a directory.", "Path('.').is_dir()"),
    m!("is_symlink", "(self)", |_, a| Ok(Value::Bool(std::fs::symlink_metadata(me(a)?).is_ok_and(|m| m.file_type().is_symlink()))), "Whether the path is a symbolic link.", "Path('.').is_symlink()"),
    m!("mkdir", "(self, mode=511, parents=False, exist_ok=False)", mkdir, "Makes the directory (and missing parents with `parents=True`); an existing one is a FileExistsError unless `exist_ok`.", "Path('out/p').mkdir(parents=True, exist_ok=True)\nPath('out/p').is_dir()"),
    m!("rmdir", "(self)", |_, a| fs(a, |p| std::fs::remove_dir(p)), "Deletes the empty directory.", "Path('empty_d').mkdir(exist_ok=True)\nPath('empty_d').rmdir()"),
    m!("unlink", "(self, missing_ok=False)", |_, a| {
        let p = me(a)?;
        match std::fs::remove_file(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && a.value("missing_ok").truthy().unwrap_or(false) => Ok(Value::None),
            r => r.map(|_| Value::None).map_err(|e| os_error(&e, &p, a.call)),
        }
    }, "Deletes the file (a missing one is FileNotFoundError unless `missing_ok`).", "Path('gone.txt').unlink(missing_ok=True)"),
    m!("touch", "(self, mode=438, exist_ok=True)", |_, a| {
        let p = me(a)?;
        let exists = std::fs::metadata(&p).is_ok();
        if exists && !a.given("exist_ok").is_none_or(|v| v.truthy().unwrap_or(true)) {
            return Err(os_error(&std::io::Error::from_raw_os_error(17), &p, a.call));
        }
        std::fs::OpenOptions::new().create(true).append(true).open(&p).map_err(|e| os_error(&e, &p, a.call))?;
        Ok(Value::None)
    }, "Makes the file if it does not exist.", "Path('t.txt').touch()\nPath('t.txt').exists()"),
    m!("rename", "(self, target)", rename, "Renames the file; the new path.", "Path('r1.txt').touch()\nPath('r1.txt').rename('r2.txt')"),
    m!("replace", "(self, target)", rename, "Renames the file, replacing the target; the new path.", "Path('r3.txt').touch()\nPath('r3.txt').replace('r4.txt')"),
    m!("read_text", "(self, encoding=None, errors=None)", |it, a| via_open(it, a, "r", None, &["encoding", "errors"]), "The file's text.", "Path('n.txt').write_text('hi')\nPath('n.txt').read_text()"),
    m!("read_bytes", "(self)", |it, a| via_open(it, a, "rb", None, &[]), "The file's bytes.", "Path('n.bin').write_bytes(b'\\x00\\x01')\nPath('n.bin').read_bytes()"),
    m!("write_text", "(self, data, encoding=None, errors=None, newline=None)", |it, a| via_open(it, a, "w", Some("data"), &["encoding", "errors", "newline"]), "Writes the text (replacing the file); the number of characters.", "Path('n.txt').write_text('hi')"),
    m!("write_bytes", "(self, data)", |it, a| via_open(it, a, "wb", Some("data"), &[]), "Writes the bytes (replacing the file); their number.", "Path('n.bin').write_bytes(b'ab')"),
    m!("open", "(self, mode='r', buffering=-1, encoding=None, errors=None, newline=None)", open, "The file opened, as `open(path, …)`.", "Path('n.txt').write_text('x')\nwith Path('n.txt').open() as f:\n    t = f.read()\nt"),
    m!("iterdir", "(self)", iterdir, "The paths in the directory, in the order the system gives them.", "Path('it_d').mkdir(exist_ok=True)\nlist(Path('it_d').iterdir())"),
    m!("glob", "(self, pattern)", |it, a| glob(it, a, false), "The paths under this one that match the pattern (`**` for any depth); names starting with a dot match too.", "Path('g_d').mkdir(exist_ok=True)\nPath('g_d/a.csv').touch()\nlist(Path('g_d').glob('*.csv'))"),
    m!("rglob", "(self, pattern)", |it, a| glob(it, a, true), "`glob('**/' + pattern)`: matches at any depth.", "Path('g_d/sub').mkdir(parents=True, exist_ok=True)\nPath('g_d/sub/b.csv').touch()\nsorted(Path('g_d').rglob('*.csv'))"),
    m!("resolve", "(self, strict=False)", |_, a| {
        let p = me(a)?;
        let abs = std::fs::canonicalize(&p).map(|c| c.to_string_lossy().into_owned()).unwrap_or_else(|_| absolute(&p));
        new_path(&[abs])
    }, "The absolute path with symbolic links and `..` resolved.", "Path('.').resolve().is_absolute()"),
    m!("absolute", "(self)", |_, a| new_path(&[absolute(&me(a)?)]), "The path made absolute from the current directory (nothing resolved).", "Path('x').absolute().is_absolute()"),
    m!("expanduser", "(self)", |_, a| {
        let p = me(a)?;
        let home = std::env::var("HOME").unwrap_or_default();
        new_path(&[match p.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{home}{rest}"),
            _ => p,
        }])
    }, "A leading `~` replaced by the home directory.", "Path('~/x').expanduser().is_absolute()"),
    Builtin::function("pathlib.PosixPath.cwd", "()", |_, _| {
        new_path(&[std::env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default()])
    })
    .doc("The current directory.")
    .examples(&["from pathlib import Path\nPath.cwd().is_absolute()"]),
    Builtin::function("pathlib.PosixPath.home", "()", |_, _| new_path(&[std::env::var("HOME").unwrap_or_default()]))
        .doc("The home directory.")
        .examples(&["from pathlib import Path\nPath.home().is_absolute()"]),
];

/// The class of paths.
pub fn class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            Class::python(
                "PosixPath",
                "pathlib",
                Vec::new(),
                class_members(PATHLIB, "pathlib.PosixPath."),
            )
        })
        .clone()
}

/// The module's names that are not functions: the path classes.
pub fn constant(path: &str) -> Option<Value> {
    match path.strip_prefix("pathlib.")? {
        "Path" | "PosixPath" | "PurePath" | "PurePosixPath" => Some(Value::Class(class())),
        _ => None,
    }
}

/// The names [`constant`] answers.
pub const CONSTANTS: &[&str] = &["Path", "PosixPath", "PurePath", "PurePosixPath"];

/// The string of a path value: a str, or a `pathlib` path (what `os.fspath` gives).
pub fn fspath(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.to_string()),
        Value::Instance(i) if i.class.module == "pathlib" => match attr_get(&i.attrs, "_str") {
            Some(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// CPython's TypeError for `v` where a path was wanted.
fn not_a_path(v: &Value, span: ragtag_syntax::ast::Span) -> Error {
    Error::new(
        C::TypeError,
        format!(
            "expected str, bytes or os.PathLike object, not {}",
            v.type_name()
        ),
    )
    .at(span)
}

/// The path in parameter `name` (a str or a `pathlib` path), or CPython's TypeError there.
pub fn path_arg(a: &Args, name: &str) -> Result<String> {
    fspath(a.value(name)).ok_or_else(|| not_a_path(a.value(name), a.span(name)))
}

fn me(a: &Args) -> Result<String> {
    path_arg(a, "self")
}

fn other(a: &Args) -> Option<String> {
    match a.value("other") {
        Value::Instance(_) => fspath(a.value("other")),
        _ => None,
    }
}

fn texts(vs: &[Value], a: &Args) -> Result<Vec<String>> {
    vs.iter()
        .map(|v| fspath(v).ok_or_else(|| not_a_path(v, a.call)))
        .collect()
}

/// CPython's parse of joined path segments: an absolute segment starts again, empty and
/// `.` parts go, and exactly two leading slashes stay as the root.
pub fn parse(segments: &[String]) -> String {
    let mut root = "";
    let mut parts: Vec<&str> = Vec::new();
    for s in segments {
        if s.starts_with('/') {
            parts.clear();
            root = if s.starts_with("//") && !s.starts_with("///") {
                "//"
            } else {
                "/"
            };
        }
        parts.extend(s.split('/').filter(|p| !p.is_empty() && *p != "."));
    }
    let joined = format!("{root}{}", parts.join("/"));
    if joined.is_empty() {
        ".".into()
    } else {
        joined
    }
}

fn new_path(segments: &[String]) -> Result<Value> {
    let p = Instance::new(class());
    attr_set(&p.attrs, "_str", Value::str(parse(segments)));
    Ok(Value::Instance(p))
}

fn init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(p) = a.value("self") else {
        return Ok(Value::None);
    };
    let _ = it;
    let args: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    attr_set(&p.attrs, "_str", Value::str(parse(&texts(&args, a)?)));
    Ok(Value::None)
}

/// The root (`/`, `//` or none) and the other parts.
fn split(p: &str) -> (&str, Vec<&str>) {
    let root = if p.starts_with("//") && !p.starts_with("///") {
        "//"
    } else if p.starts_with('/') {
        "/"
    } else {
        ""
    };
    let parts = p[root.len()..]
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    (root, parts)
}

fn suffix(name: &str) -> String {
    match name.rfind('.') {
        Some(i) if i > 0 && i + 1 < name.len() => name[i..].to_string(),
        _ => String::new(),
    }
}

fn parent_of(p: &str) -> String {
    let (root, parts) = split(p);
    match parts.split_last() {
        Some((_, rest)) => parse(&[format!("{root}{}", rest.join("/"))]),
        None => p.to_string(),
    }
}

fn part_attr(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = me(a)?;
    let (root, parts) = split(&p);
    let name = parts.last().copied().unwrap_or("");
    let attr = match a.value("name") {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    };
    Ok(match attr.as_str() {
        "name" => Value::str(name),
        "suffix" => Value::str(suffix(name)),
        "stem" => {
            let s = suffix(name);
            Value::str(&name[..name.len() - s.len()])
        }
        "suffixes" => {
            let items = if name.ends_with('.') {
                Vec::new()
            } else {
                name.trim_start_matches('.')
                    .split('.')
                    .skip(1)
                    .map(|s| Value::str(format!(".{s}")))
                    .collect()
            };
            Value::list(items)
        }
        "parent" => new_path(&[parent_of(&p)])?,
        "parents" => {
            let mut out = Vec::new();
            let mut cur = p.clone();
            loop {
                let up = parent_of(&cur);
                if up == cur {
                    break;
                }
                out.push(new_path(std::slice::from_ref(&up))?);
                cur = up;
            }
            Value::tuple(out)
        }
        "parts" => {
            let mut out: Vec<Value> = Vec::new();
            if !root.is_empty() {
                out.push(Value::str(root));
            }
            out.extend(parts.iter().map(|s| Value::str(*s)));
            Value::tuple(out)
        }
        "anchor" | "root" => Value::str(root),
        "drive" => Value::str(""),
        _ => {
            return Err(Error::new(
                C::AttributeError,
                format!("'PosixPath' object has no attribute '{attr}'"),
            )
            .at(a.call))
        }
    })
}

fn joined(a: &Args, reflected: bool) -> Result<Value> {
    let Some(key) = fspath(a.value("key")) else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    let p = me(a)?;
    if reflected {
        new_path(&[key, p])
    } else {
        new_path(&[p, key])
    }
}

fn compare(a: &Args, test: fn(std::cmp::Ordering) -> bool) -> Result<Value> {
    let Some(o) = other(a) else {
        return Ok(crate::eval::dunder_not_implemented());
    };
    let p = me(a)?;
    let key = |s: &str| {
        let (root, parts) = split(s);
        let mut v = vec![root.to_string()];
        v.extend(parts.iter().map(|x| x.to_string()));
        v
    };
    Ok(Value::Bool(test(key(&p).cmp(&key(&o)))))
}

fn with_name(a: &Args, name: impl Fn(&str) -> Result<String>) -> Result<Value> {
    let p = me(a)?;
    let (_, parts) = split(&p);
    let Some(old) = parts.last() else {
        return Err(Error::new(
            C::ValueError,
            format!(
                "PosixPath({}) has an empty name",
                crate::render::tf_text::py_str(&p)
            ),
        )
        .at(a.call));
    };
    let new = name(old)?;
    if new.is_empty() || new.contains('/') || new == "." {
        return Err(Error::new(
            C::ValueError,
            format!("Invalid name {}", crate::render::tf_text::py_str(&new)),
        )
        .at(a.call));
    }
    new_path(&[parent_of(&p), new])
}

fn with_suffix(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = path_arg(a, "suffix")?;
    if s.contains('/') || (!s.is_empty() && (!s.starts_with('.') || s == ".")) {
        return Err(Error::new(
            C::ValueError,
            format!("Invalid suffix {}", crate::render::tf_text::py_str(&s)),
        )
        .at(a.span("suffix")));
    }
    with_name(a, |name| {
        let old = suffix(name);
        Ok(format!("{}{s}", &name[..name.len() - old.len()]))
    })
}

fn relative_to(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = me(a)?;
    let _ = it;
    let others: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    let base = parse(&texts(&others, a)?);
    let (r1, p1) = split(&p);
    let (r2, p2) = split(&base);
    let under = r1 == r2 && p1.len() >= p2.len() && p1[..p2.len()] == p2[..];
    if !under || (base == "." && !r1.is_empty()) {
        return Err(Error::new(
            C::ValueError,
            format!(
                "{} is not in the subpath of {} OR one path is relative and the other is absolute.",
                crate::render::tf_text::py_str(&p),
                crate::render::tf_text::py_str(&base)
            ),
        )
        .at(a.call));
    }
    let rest: Vec<&str> = if base == "." {
        p1
    } else {
        p1[p2.len()..].to_vec()
    };
    new_path(&[rest.join("/")])
}

fn fs(a: &Args, f: impl Fn(&str) -> std::io::Result<()>) -> Result<Value> {
    let p = me(a)?;
    f(&p).map_err(|e| os_error(&e, &p, a.call))?;
    Ok(Value::None)
}

fn mkdir(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = me(a)?;
    let flag = |n: &str| a.value(n).truthy().unwrap_or(false);
    if std::fs::metadata(&p).is_ok() {
        if flag("exist_ok") && std::path::Path::new(&p).is_dir() {
            return Ok(Value::None);
        }
        return Err(os_error(&std::io::Error::from_raw_os_error(17), &p, a.call));
    }
    let made = if flag("parents") {
        std::fs::create_dir_all(&p)
    } else {
        std::fs::create_dir(&p)
    };
    made.map_err(|e| os_error(&e, &p, a.call))?;
    Ok(Value::None)
}

fn rename(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = me(a)?;
    let to = path_arg(a, "target")?;
    std::fs::rename(&p, &to).map_err(|e| os_error(&e, &p, a.call))?;
    new_path(&[to])
}

fn absolute(p: &str) -> String {
    if p.starts_with('/') {
        return p.to_string();
    }
    let cwd = std::env::current_dir()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse(&[cwd, p.to_string()])
}

/// The builtin `open` called with this path, `mode` when given, and the call's keywords
/// among `keys` that are given (and not None).
fn call_open(it: &mut Interp<'_>, a: &Args, mode: Option<&str>, keys: &[&str]) -> Result<Value> {
    let arg = |name: &str, value: Value| CallArg {
        name: Some(name.to_string()).filter(|n| !n.is_empty()),
        value,
        span: a.call,
    };
    let mut args = vec![arg("", Value::str(me(a)?))];
    args.extend(mode.map(|m| arg("mode", Value::str(m))));
    for k in keys {
        if let Some(v) = a.given(k).filter(|v| !matches!(v, Value::None)) {
            args.push(arg(k, v.clone()));
        }
    }
    let open = registry()
        .get("open")
        .map(Value::Builtin)
        .ok_or_else(|| Error::new(C::NameError, "open"))?;
    it.call(&open, args, a.call)
}

/// Opens the path with `mode`, reads it whole or writes parameter `data` to it, and
/// closes it.
fn via_open(
    it: &mut Interp<'_>,
    a: &Args,
    mode: &str,
    data: Option<&str>,
    keys: &[&str],
) -> Result<Value> {
    let f = call_open(it, a, Some(mode), keys)?;
    let method = if data.is_some() { "write" } else { "read" };
    let m = it.get_attr(f.clone(), method, a.call, a.call)?;
    let call_args = data.map_or_else(Vec::new, |d| {
        vec![CallArg {
            name: None,
            value: a.value(d).clone(),
            span: a.call,
        }]
    });
    let out = it.call(&m, call_args, a.call)?;
    let close = it.get_attr(f, "close", a.call, a.call)?;
    it.call(&close, Vec::new(), a.call)?;
    Ok(out)
}

fn open(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    call_open(
        it,
        a,
        None,
        &["mode", "buffering", "encoding", "errors", "newline"],
    )
}

fn iterdir(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = me(a)?;
    let read = std::fs::read_dir(&p).map_err(|e| os_error(&e, &p, a.call))?;
    let mut out = std::collections::VecDeque::new();
    for e in read.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        out.push_back(new_path(&[p.clone(), name])?);
    }
    Ok(Value::Iter(PyIter::named(
        "generator",
        "iterdir".into(),
        IterState::Seq(out),
    )))
}

fn glob(it: &mut Interp<'_>, a: &Args, any_depth: bool) -> Result<Value> {
    let p = me(a)?;
    let pattern = path_arg(a, "pattern")?;
    if pattern.is_empty() {
        return Err(Error::new(
            C::ValueError,
            format!(
                "Unacceptable pattern: {}",
                crate::render::tf_text::py_str(&pattern)
            ),
        )
        .at(a.call));
    }
    let pattern = if any_depth {
        format!("**/{pattern}")
    } else {
        pattern
    };
    let found = super::super::os_walk::glob_paths(it, &pattern, Some(&p), true, true, true)?;
    let mut out = std::collections::VecDeque::new();
    for rel in found {
        out.push_back(new_path(&[p.clone(), rel])?);
    }
    Ok(Value::Iter(PyIter::named(
        "generator",
        "select_from".into(),
        IterState::Seq(out),
    )))
}
