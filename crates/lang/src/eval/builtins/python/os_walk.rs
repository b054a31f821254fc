//! `os.walk`, `glob` and `fnmatch`: directory trees and shell-style name patterns, as
//! CPython has them on a POSIX system. `os.walk` from the top down is lazy, so a caller
//! that prunes `dirnames` in place (`dirs[:] = …`) is not taken into what it removed;
//! names come in the system's order, as `os.scandir` gives them. Unreadable directories are
//! skipped, as CPython's `onerror=None` does.

use std::collections::VecDeque;

use super::super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_syntax::ast::Span;

use super::osmod::pathlib::path_arg as text;

/// `os.walk`, `glob` and `fnmatch`.
pub static WALK: &[Builtin] = &[
    Builtin::function("os.walk", "(top, topdown=True, onerror=None, followlinks=False)", walk)
        .doc("A generator of `(dirpath, dirnames, filenames)` for `top` and every directory under it; from the top down, removing names from `dirnames` keeps the walk out of them.")
        .examples(&["import os\nos.makedirs('tree/a', exist_ok=True)\n[d for d, dirs, files in os.walk('tree')]"]),
    Builtin::function("glob.glob", "(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False)", |it, a| glob(it, a).map(Value::list))
        .doc("The paths that match the shell pattern (`*`, `?`, `[...]`, and `**` for any depth when `recursive`); names starting with a dot only match a pattern that starts with one.")
        .examples(&["import glob\nwith open('g1.txt', 'w') as f:\n    n = f.write('x')\n'g1.txt' in glob.glob('g*.txt')"]),
    Builtin::function("glob.iglob", "(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False)", |it, a| {
        Ok(Value::Iter(PyIter::named("generator", "_iglob".into(), IterState::Seq(glob(it, a)?.into()))))
    })
        .doc("`glob.glob`'s paths as an iterator.")
        .examples(&["import glob\nlist(glob.iglob('no_such_dir_*/x'))"]),
    Builtin::function("glob.escape", "(pathname)", |_, a| Ok(Value::str(escape(&text(a, "pathname")?))))
        .doc("The path with `*`, `?` and `[` made literal.")
        .examples(&["import glob\nglob.escape('data[1]*.csv')"]),
    Builtin::function("glob.has_magic", "(s)", |_, a| Ok(Value::Bool(has_magic(&text(a, "s")?))))
        .doc("Whether the string holds a pattern character (`*`, `?` or `[`).")
        .examples(&["import glob\nglob.has_magic('*.csv'), glob.has_magic('a.csv')"]),
    Builtin::function("fnmatch.fnmatch", "(name, pat)", |_, a| Ok(Value::Bool(matches(&text(a, "pat")?, &text(a, "name")?))))
        .doc("Whether `name` matches the shell pattern `pat` (`*`, `?`, `[seq]`, `[!seq]`); case-sensitive on POSIX.")
        .examples(&["import fnmatch\nfnmatch.fnmatch('run_01.csv', 'run_*.csv')"]),
    Builtin::function("fnmatch.fnmatchcase", "(name, pat)", |_, a| Ok(Value::Bool(matches(&text(a, "pat")?, &text(a, "name")?))))
        .doc("Whether `name` matches `pat`, case-sensitively.")
        .examples(&["import fnmatch\nfnmatch.fnmatchcase('A.csv', '*.CSV')"]),
    Builtin::function("fnmatch.filter", "(names, pat)", |it, a| {
        let pat = text(a, "pat")?;
        let mut out = Vec::new();
        for n in it.iterate_value(a.value("names"), a.span("names"))? {
            if matches!(&n, Value::Str(s) if matches(&pat, s)) {
                out.push(n);
            }
        }
        Ok(Value::list(out))
    })
        .doc("The names that match the pattern.")
        .examples(&["import fnmatch\nfnmatch.filter(['a.csv', 'b.txt', 'c.csv'], '*.csv')"]),
];

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() || dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// A directory's entries in the system's order: (name, is a directory), a symbolic link
/// counted as what it points to; None when it cannot be read.
fn entries(dir: &str) -> Option<Vec<(String, bool)>> {
    let read = std::fs::read_dir(if dir.is_empty() { "." } else { dir }).ok()?;
    Some(
        read.filter_map(|e| e.ok())
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let is_dir = std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir());
                (name, is_dir)
            })
            .collect(),
    )
}

fn is_link(path: &str) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// One directory's triple, and its `dirnames` list (which the caller may change).
fn triple(dir: &str) -> Option<(Value, Value)> {
    let (dirs, files): (Vec<_>, Vec<_>) = entries(dir)?.into_iter().partition(|(_, d)| *d);
    let names =
        |v: Vec<(String, bool)>| Value::list(v.into_iter().map(|(n, _)| Value::str(n)).collect());
    let dirs = names(dirs);
    let t = Value::tuple(vec![Value::str(dir), dirs.clone(), names(files)]);
    Some((t, dirs))
}

fn walk(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let top = text(a, "top")?;
    let follow = a.value("followlinks").truthy().unwrap_or(false);
    let topdown = a
        .given("topdown")
        .is_none_or(|v| v.truthy().unwrap_or(true));
    let state = if topdown {
        IterState::Walk {
            stack: vec![top],
            last: None,
            follow,
        }
    } else {
        let mut out = VecDeque::new();
        bottom_up(it, &top, follow, &mut out, a.call)?;
        IterState::Seq(out)
    };
    Ok(Value::Iter(PyIter::named(
        "generator",
        "walk".into(),
        state,
    )))
}

fn bottom_up(
    it: &mut Interp<'_>,
    dir: &str,
    follow: bool,
    out: &mut VecDeque<Value>,
    span: Span,
) -> Result<()> {
    it.check_cancel()?;
    let Some((t, dirs)) = triple(dir) else {
        return Ok(());
    };
    for d in it.iterate_value(&dirs, span)? {
        if let Value::Str(name) = d {
            let path = join(dir, &name);
            if follow || !is_link(&path) {
                bottom_up(it, &path, follow, out, span)?;
            }
        }
    }
    out.push_back(t);
    Ok(())
}

/// The next triple of a top-down walk: first the directories the last one's `dirnames`
/// still names (in their order), then the next directory waiting.
pub(crate) fn step(
    it: &mut Interp<'_>,
    stack: &mut Vec<String>,
    last: &mut Option<(String, Value)>,
    follow: bool,
    span: Span,
) -> Result<Option<Value>> {
    if let Some((dir, dirs)) = last.take() {
        let names = it.iterate_value(&dirs, span)?;
        for d in names.iter().rev() {
            if let Value::Str(name) = d {
                let path = join(&dir, name);
                if follow || !is_link(&path) {
                    stack.push(path);
                }
            }
        }
    }
    while let Some(dir) = stack.pop() {
        if let Some((t, dirs)) = triple(&dir) {
            *last = Some((dir, dirs));
            return Ok(Some(t));
        }
    }
    Ok(None)
}

/// Whether `s` holds a pattern character.
fn has_magic(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '*' | '?' | '[' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether `name` matches the shell pattern `pat` (fnmatch's rules, case-sensitive).
pub(super) fn matches(pat: &str, name: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Backtracking over the last `*`: linear for patterns without nested choices.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() {
            match p[i] {
                '*' => {
                    star = Some((i, j));
                    i += 1;
                    continue;
                }
                '?' => {
                    i += 1;
                    j += 1;
                    continue;
                }
                '[' => {
                    if let Some((hit, end)) = class(&p, i, n[j]) {
                        if hit {
                            i = end;
                            j += 1;
                            continue;
                        }
                    } else if n[j] == '[' {
                        i += 1;
                        j += 1;
                        continue;
                    }
                }
                c if c == n[j] => {
                    i += 1;
                    j += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((si, sj)) => {
                i = si + 1;
                j = sj + 1;
                star = Some((si, sj + 1));
            }
            None => return false,
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// A `[...]` set at `p[i]` tried on `c`: whether it matches and where the set ends; None
/// when the `[` opens no set (it is then a literal).
fn class(p: &[char], i: usize, c: char) -> Option<(bool, usize)> {
    let mut j = i + 1;
    let negate = matches!(p.get(j), Some('!'));
    if negate {
        j += 1;
    }
    let start = j;
    let mut hit = false;
    while j < p.len() && (p[j] != ']' || j == start) {
        if p.get(j + 1) == Some(&'-') && p.get(j + 2).is_some_and(|e| *e != ']') {
            if p[j] <= c && c <= p[j + 2] {
                hit = true;
            }
            j += 3;
        } else {
            if p[j] == c {
                hit = true;
            }
            j += 1;
        }
    }
    (j < p.len()).then_some((hit != negate, j + 1))
}

/// `glob.glob`'s paths.
fn glob(it: &mut Interp<'_>, a: &Args) -> Result<Vec<Value>> {
    let pattern = text(a, "pathname")?;
    let recursive = a.value("recursive").truthy().unwrap_or(false);
    let hidden = a.value("include_hidden").truthy().unwrap_or(false);
    let root = super::osmod::pathlib::fspath(a.value("root_dir"));
    let found = glob_paths(it, &pattern, root.as_deref(), recursive, hidden, false)?;
    Ok(found.into_iter().map(Value::str).collect())
}

/// The paths matching `pattern`, relative to `root` when given (and the pattern is not
/// absolute); `**` is any depth when `recursive`, and then names only directories when
/// `dirs_only` ends the pattern with it (pathlib's rule); names starting with a dot match
/// a wildcard only when `hidden`.
pub(super) fn glob_paths(
    it: &mut Interp<'_>,
    pattern: &str,
    root: Option<&str>,
    recursive: bool,
    hidden: bool,
    dirs_only: bool,
) -> Result<Vec<String>> {
    let absolute = pattern.starts_with('/');
    let parts: Vec<&str> = pattern.split('/').collect();
    // Paths so far, each with the directory it names on disk.
    let start = if absolute {
        "/".to_string()
    } else {
        String::new()
    };
    let mut found: Vec<String> = vec![start];
    let parts: Vec<&str> = if absolute { parts[1..].to_vec() } else { parts };
    let on_disk = |p: &str| match root {
        Some(r) if !absolute => join(r, p),
        _ => p.to_string(),
    };
    for (k, part) in parts.iter().enumerate() {
        it.check_cancel()?;
        let last = k + 1 == parts.len();
        let mut next = Vec::new();
        for base in &found {
            if part.is_empty() {
                // A trailing slash: only directories.
                if last && std::path::Path::new(&on_disk(base)).is_dir() {
                    next.push(join(base, ""));
                }
                continue;
            }
            if recursive && *part == "**" {
                let own = match (last && !dirs_only, base.is_empty()) {
                    (true, _) => join(base, ""),
                    // pathlib's `**` gives the directory it starts from too.
                    (false, true) if dirs_only => ".".to_string(),
                    (false, _) => base.clone(),
                };
                let mut all = vec![own];
                descend(it, base, &on_disk, hidden, last && !dirs_only, &mut all)?;
                next.extend(all);
                continue;
            }
            if !has_magic(part) {
                let path = join(base, part);
                let exists = std::fs::symlink_metadata(on_disk(&path)).is_ok();
                if exists && (last || std::path::Path::new(&on_disk(&path)).is_dir()) {
                    next.push(path);
                }
                continue;
            }
            let dir = on_disk(base);
            for (name, is_dir) in
                entries(if dir.is_empty() { "." } else { &dir }).unwrap_or_default()
            {
                if name.starts_with('.') && !part.starts_with('.') && !hidden {
                    continue;
                }
                if (last || is_dir) && matches(part, &name) {
                    next.push(join(base, &name));
                }
            }
        }
        found = next;
    }
    Ok(found.into_iter().filter(|p| !p.is_empty()).collect())
}

/// Every path under `base` for `**`: directories, and files too when `**` ends the pattern.
fn descend(
    it: &mut Interp<'_>,
    base: &str,
    on_disk: &dyn Fn(&str) -> String,
    hidden: bool,
    files: bool,
    out: &mut Vec<String>,
) -> Result<()> {
    it.check_cancel()?;
    let dir = on_disk(base);
    for (name, is_dir) in entries(if dir.is_empty() { "." } else { &dir }).unwrap_or_default() {
        if name.starts_with('.') && !hidden {
            continue;
        }
        let path = join(base, &name);
        if is_dir {
            let link = is_link(&on_disk(&path));
            out.push(path.clone());
            if !link {
                descend(it, &path, on_disk, hidden, files, out)?;
            }
        } else if files {
            out.push(path);
        }
    }
    Ok(())
}
