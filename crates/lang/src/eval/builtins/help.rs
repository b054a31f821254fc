//! `help()` and the help texts: one builtin's signature, doc and examples, the index of
//! every builtin by module, and what `help(value)` says about a value's members. The
//! REPL's `:help` and the kernel's inspect read the same texts.

use super::{registry, Builtin, Kind};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;

/// `help(obj)`: prints the help of a builtin (or of a name), of a value, or the index.
pub(super) fn help(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let text = match a.get("obj") {
        None => help_index(),
        Some(v @ (Value::Builtin(_) | Value::Method(_))) => {
            help_text(v.as_builtin().expect("a builtin"))
        }
        Some(Value::Str(s)) => match lookup_help(s) {
            Some(b) => help_text(b),
            None => {
                return Err(Error::new(
                    ragtag_engine::exceptions::ExceptionClass::NameError,
                    format!("no builtin named '{s}'"),
                )
                .at(a.span("obj")))
            }
        },
        Some(v) => value_help(v),
    };
    it.sink().page(&text);
    Ok(Value::None)
}

/// What `help(value)` says about a value that is not a builtin: its kind and, for values
/// of a class, the methods and attributes it has.
pub fn value_help(v: &Value) -> String {
    let name = v.type_name();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    let mut out = format!("{article} {name} value; `help(name)` describes a builtin\n");
    if let Some(class) = super::class_of(v) {
        let prefix = format!("{class}.");
        let members: Vec<&str> = registry()
            .all
            .iter()
            // The special methods (`__add__` of the class standing for int as a base) are
            // not listed, as CPython's completion leaves them out.
            .filter(|b| b.kind != Kind::Function && b.name.starts_with(&prefix))
            .filter(|b| !b.short_name().starts_with("__"))
            .map(|b| b.short_name())
            .collect();
        if !members.is_empty() {
            out.push_str(&format!("{class} members: {}\n", members.join(", ")));
        }
    }
    out
}

/// Finds a builtin by any spelling (`constant`, `tf.ragged.constant`, `row_lengths`).
pub fn lookup_help(name: &str) -> Option<&'static Builtin> {
    let r = registry();
    r.get(name)
        .or_else(|| r.resolve(name))
        .or_else(|| r.all.iter().copied().find(|b| b.short_name() == name))
}

/// The help text of one builtin: signature, meaning, examples.
pub fn help_text(b: &Builtin) -> String {
    let mut out = format!("{}\n\n{}\n", b.signature(), b.doc);
    if !b.aliases.is_empty() {
        out.push_str(&format!("\nAlso: {}\n", b.aliases.join(", ")));
    }
    if !b.examples.is_empty() {
        out.push_str("\nExamples:\n");
        for e in b.examples {
            out.push_str(&format!("  >>> {e}\n"));
        }
    }
    out
}

/// The list of builtins grouped by module.
pub fn help_index() -> String {
    let mut groups: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for b in &registry().all {
        if b.kind != Kind::Function && !b.name.starts_with("tf.RaggedTensor") {
            continue;
        }
        let (module, name) = b.name.rsplit_once('.').unwrap_or(("python", b.name));
        groups.entry(module.to_string()).or_default().push(name);
    }
    let mut out = String::from("Builtins by module (help(name) for one):\n");
    for (m, names) in groups {
        out.push_str(&format!("  {m}: {}\n", names.join(", ")));
    }
    out
}
