//! What the compiler cannot check about the layers. The crates of the workspace are the
//! layers — `ragtag-engine` ← `ragtag-syntax` ← `ragtag-lang` ← `ragtag` (the front ends and
//! the binary) — so an import against that direction does not compile. Inside
//! `ragtag-lang` the modules are ordered too, and that order is read from the source text
//! here: every `crate::module` path outside comments is checked against the table below.
//! No module grows past 600 lines, and the README's architecture table names every layer.
//!
//! Inside `ragtag-lang`, from the bottom up: `value` (what a name holds; literal conversion)
//! → `render` (tables, text, JSON, HTML) → `diagnostic`, `eval` and `formats` (the
//! interpreter, its builtins, files) → `session` → `complete` and `command`.

use std::path::{Path, PathBuf};

/// The layers from the bottom up; two names in one entry are one layer. A module may name
/// its own layer and the ones before it, never one after it.
const LAYERS: &[&[&str]] = &[
    &["value"],
    &["render"],
    &["diagnostic", "eval", "formats"],
    &["session"],
    &["complete", "command"],
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|names| names.contains(&layer))
}

/// Whether a module under `layer` may name `target` (`crate::target`). Names that are no
/// layer (the crate's macros, `crate::Session`) are always allowed.
fn may_name(layer: &str, target: &str) -> bool {
    match (rank(layer), rank(target)) {
        (Some(from), Some(to)) => to <= from,
        _ => true,
    }
}

/// The only names of eval that the value layer may use: the types of the functions and
/// exception classes a value can hold. The value layer calls none of eval's code.
const VALUE_MAY_NAME: &[&str] = &["crate::eval::builtins::Builtin", "crate::eval::exceptions"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The language crate's sources, whose modules are ordered by [`LAYERS`].
fn lang_src() -> PathBuf {
    root().join("crates/lang/src")
}

/// The layer a file of the language crate belongs to: its first path component, without
/// `.rs`.
fn layer_of(path: &Path) -> String {
    let rel = path.strip_prefix(lang_src()).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a line: without a `//` comment (doc comments included).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Every `crate::name…` path in `text`, with its line number.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let next = lines.get(n + 1).map_or("", |l| l.trim());
        if line.trim() == "#[cfg(test)]" && next.starts_with("mod ") && next.ends_with('{') {
            break; // an inline test module comes last and may drive a whole session
        }
        let code = code(line);
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            out.push((n + 1, tail[..end].to_string()));
            rest = &tail[7..];
        }
        // `use crate::{a, b}`: each name in the braces is a path too.
        if let Some(i) = code.find("crate::{") {
            let inner = &code[i + 8..];
            for name in inner.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !name.is_empty() && name.chars().next().unwrap().is_lowercase() {
                    out.push((n + 1, format!("crate::{name}")));
                }
            }
        }
    }
    out
}

#[test]
fn the_language_modules_depend_in_one_direction() {
    let mut files = Vec::new();
    rust_files(&lang_src(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        if is_test_file(file) {
            continue; // tests drive a whole session whatever layer they check
        }
        let layer = layer_of(file);
        let text = std::fs::read_to_string(file).unwrap();
        for (line, path) in crate_paths(&text) {
            let target = path["crate::".len()..].split("::").next().unwrap_or("");
            let carried = layer == "value" && VALUE_MAY_NAME.iter().any(|p| path.starts_with(p));
            if may_name(&layer, target) || carried {
                continue;
            }
            wrong.push(format!(
                "{}:{line}: {layer} names {path}",
                file.strip_prefix(root()).unwrap().display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the pipeline's direction:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_the_forms_of_a_path() {
    let text = "use crate::{engine::Array, render};\n// crate::eval in a comment\n#[cfg(test)]\nmod tests;\nlet x = crate::eval::convert::to_array(v); // crate::session\n#[cfg(test)]\nmod tests {\n    use crate::session::Session;\n}\n";
    let paths: Vec<String> = crate_paths(text).into_iter().map(|(_, p)| p).collect();
    assert!(paths.contains(&"crate::render".to_string()), "{paths:?}");
    assert!(paths.contains(&"crate::engine".to_string()), "{paths:?}");
    assert!(
        paths.contains(&"crate::eval::convert::to_array".to_string()),
        "{paths:?}"
    );
    assert!(!paths.iter().any(|p| p.contains("session")), "{paths:?}");
    assert!(!may_name("render", "eval"));
    assert!(!may_name("value", "render"));
    assert!(may_name("eval", "diagnostic") && may_name("diagnostic", "eval"));
    assert!(may_name("command", "session") && !may_name("session", "complete"));
}

/// Test modules may be long: a file named `tests.rs` or `*_tests.rs`.
fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name == "tests.rs" || name.ends_with("_tests.rs")
}

#[test]
fn no_module_is_over_600_lines() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "crates/engine/src",
        "crates/syntax/src",
        "crates/lang/src",
        "examples",
        "benches",
        "fuzz/fuzz_targets",
    ] {
        let dir = root().join(dir);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let mut long: Vec<String> = files
        .iter()
        .filter(|f| !is_test_file(f))
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 600).then(|| {
                format!(
                    "{} has {n} lines",
                    f.strip_prefix(root()).unwrap().display()
                )
            })
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "split these by concern:\n{}",
        long.join("\n")
    );
}

/// The README's architecture table names every crate of the workspace, every top-level
/// module of the language crate and every front end, and only those, so the description
/// cannot drift from the tree.
#[test]
fn the_readme_describes_every_layer() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Architecture")
        .nth(1)
        .expect("README has an Architecture section");
    let mut described = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let first = row.split('|').nth(1).unwrap();
        described.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find_map(|l| l.strip_prefix("members = "))
        .expect("a workspace members line");
    let mut layers: Vec<String> = members
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|dir| {
            let toml = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
            let name = toml
                .lines()
                .find_map(|l| l.strip_prefix("name = "))
                .unwrap();
            name.trim_matches('"').to_string()
        })
        .collect();
    // The root package, this one.
    layers.push(env!("CARGO_PKG_NAME").to_string());
    let modules = |file: &str, prefix: &str| -> Vec<String> {
        std::fs::read_to_string(root().join(file))
            .unwrap()
            .lines()
            .filter_map(|l| l.trim().strip_prefix(prefix))
            .map(|m| m.trim_end_matches(';').to_string())
            .collect()
    };
    layers.extend(modules("crates/lang/src/lib.rs", "pub mod "));
    layers.extend(modules("src/lib.rs", "pub mod "));
    // The binary's own front ends (src/main.rs declares them).
    layers.extend(modules("src/main.rs", "mod "));
    let mut a = described.clone();
    let mut b = layers.clone();
    a.sort();
    b.sort();
    assert_eq!(
        a, b,
        "README's architecture table vs the crates and their modules"
    );
    // Every layer the direction test knows is a module the table describes.
    for layer in LAYERS.iter().flat_map(|names| names.iter()) {
        assert!(described.iter().any(|d| d == layer), "{layer}");
    }
}
