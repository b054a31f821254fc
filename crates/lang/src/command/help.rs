//! `:help`: a first page that fits one 80×24 screen (the meta-commands and where to go
//! next), one module's builtins (`:help tf.strings`, `:help np`), a search of the builtins'
//! names and docs (`:help ?word`), one builtin's page (`:help tf.ragged.constant`) and the
//! error classes (`:help errors`).

use super::COMMANDS;
use crate::diagnostic::Error;
use crate::eval::builtins::python::{help_text, lookup_help};
use crate::eval::builtins::{registry, Builtin, Kind};
use ragtag_engine::exceptions::ExceptionClass;

/// Whether `line` is a `:help` command (its text is prose the REPL re-wraps).
pub fn is_help(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some(":help" | ":h"))
}

/// The text of `:help REST`.
pub fn run(rest: &str) -> Result<String, Error> {
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok(overview());
    }
    if rest == "errors" {
        return Ok(crate::eval::catalogue::text());
    }
    if let Some(word) = rest.strip_prefix('?') {
        return Ok(search(word.trim()));
    }
    if let Some(page) = module(rest) {
        return Ok(page);
    }
    match lookup_help(rest) {
        Some(b) => Ok(help_text(b)),
        None => Err(Error::new(
            ExceptionClass::NameError,
            format!("no builtin or module named '{rest}'"),
        )
        .with_hint(format!(
            "`:help ?{rest}` searches the builtins' names and docs; `:help` lists the modules"
        ))),
    }
}

/// The module a builtin is listed under: its path without the last part (`python` for
/// Python's own names); None for methods and properties, which `help(value)` lists.
fn module_of(b: &Builtin) -> Option<&'static str> {
    if b.kind != Kind::Function && !b.name.starts_with("tf.RaggedTensor") {
        return None;
    }
    Some(b.name.rsplit_once('.').map_or("python", |(m, _)| m))
}

/// Every module with builtins, in order.
pub fn modules() -> Vec<&'static str> {
    let mut m: Vec<&str> = registry().all.iter().filter_map(|b| module_of(b)).collect();
    m.sort_unstable();
    m.dedup();
    m
}

/// The first sentence of a doc, for one-line listings.
fn summary(doc: &str) -> &str {
    let end = doc
        .match_indices(". ")
        .map(|(i, _)| i + 1)
        .next()
        .unwrap_or(doc.len());
    &doc[..end]
}

/// `  name   summary` lines, the names in one column.
fn listing(builtins: &[&Builtin], full: bool) -> String {
    let name = |b: &Builtin| if full { b.name } else { b.short_name() };
    let col = builtins
        .iter()
        .map(|b| name(b).len())
        .max()
        .unwrap_or(0)
        .min(28);
    let mut out = String::new();
    for b in builtins {
        out.push_str(&format!("  {:<col$}  {}\n", name(b), summary(b.doc)));
    }
    out
}

/// The first page: the meta-commands, then where to go next.
pub fn overview() -> String {
    let mut s = String::from("Commands (Tab completes them):\n");
    for (_, line) in COMMANDS {
        s.push_str(&format!("  {line}\n"));
    }
    s.push_str(&format!(
        "\nWhere next:\n  \
         :tutorial        {} lessons, one input at a time\n  \
         help(x)  x?  x?? one builtin or value (x?? adds how it is stored)\n  \
         :help tf.strings one module's builtins (:help tf, :help np, :help python …)\n  \
         :help ?WORD      search the builtins' names and docs\n",
        super::tutorial::LESSONS.len(),
    ));
    s
}

/// `:help MODULE`: the module's builtins with their first sentence, and its submodules.
pub fn module(name: &str) -> Option<String> {
    let name = name.trim_end_matches('.');
    let mods = modules();
    let subs: Vec<&str> = mods
        .iter()
        .copied()
        .filter(|m| m.len() > name.len() && m.starts_with(name) && m[name.len()..].starts_with('.'))
        .collect();
    let own: Vec<&Builtin> = registry()
        .all
        .iter()
        .copied()
        .filter(|b| module_of(b) == Some(name))
        .collect();
    if own.is_empty() && subs.is_empty() {
        return None;
    }
    let mut s = format!(
        "{name}: {} builtins (help({name}.NAME) or NAME? for one; :help ?WORD searches)\n",
        own.len()
    );
    if name == "python" {
        s = format!(
            "Python's builtins: {} (help(NAME) or NAME? for one; :help ?WORD searches)\n",
            own.len()
        );
    }
    s.push_str(&listing(&own, false));
    if !subs.is_empty() {
        s.push_str(&format!("\nSubmodules: {}\n", subs.join(", ")));
    }
    Some(s)
}

/// `:help ?WORD`: the builtins whose name or doc mentions `word` (names first).
pub fn search(word: &str) -> String {
    if word.is_empty() {
        return "usage: :help ?WORD searches the builtins' names and docs\n".into();
    }
    let w = word.to_lowercase();
    let all = &registry().all;
    let mut hits: Vec<&Builtin> = all
        .iter()
        .copied()
        .filter(|b| b.name.to_lowercase().contains(&w))
        .collect();
    hits.extend(
        all.iter()
            .copied()
            .filter(|b| !b.name.to_lowercase().contains(&w) && b.doc.to_lowercase().contains(&w)),
    );
    if hits.is_empty() {
        return format!("no builtin mentions '{word}'\n");
    }
    format!(
        "{} builtins mention '{word}':\n{}",
        hits.len(),
        listing(&hits, true)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_fits_a_screen_and_names_the_commands() {
        let page = overview();
        assert!(page.lines().count() <= 21, "{page}");
        for line in page.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        for (cmd, _) in COMMANDS {
            assert!(page.contains(cmd), "{cmd}");
        }
        assert!(page.contains(":help tf.strings") && page.contains(":help ?WORD"));
        assert!(page.contains("help(x)") && page.contains(":tutorial"));
    }

    #[test]
    fn modules_search_and_names() {
        let strings = run("tf.strings").unwrap();
        assert!(strings.starts_with("tf.strings: "), "{strings}");
        assert!(strings.contains("\n  length"), "{strings}");
        assert!(run("tf").unwrap().contains("Submodules: "));
        assert!(run("np").unwrap().starts_with("np: "));
        let found = run("?row_lengths").unwrap();
        assert!(found.contains("tf.RaggedTensor.row_lengths"), "{found}");
        assert!(run("?zzqqxx").unwrap().starts_with("no builtin mentions"));
        assert!(run("tf.ragged.constant")
            .unwrap()
            .starts_with("tf.ragged.constant("));
        assert!(run("nonsense_name").is_err());
        assert!(is_help(":help np") && is_help(":h") && !is_help(":hx"));
    }
}
