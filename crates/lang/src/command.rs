//! Meta-commands (`:help`, `:vars`, `:format json` …) and IPython's help queries (`x?`,
//! `x??`), shared by the REPL and the kernel.

use crate::diagnostic::Error;
use crate::eval::builtins::help::value_help;
use crate::eval::builtins::python::{help_text, lookup_help};
use crate::eval::Sink;
use crate::render::{describe, explain, html, table, Format};
use crate::session::Session;
use crate::value::Value;
use ragtag_engine::budget;
use ragtag_engine::exceptions::ExceptionClass;

pub mod cell;
pub mod cell_magic;
pub mod continuation;
pub mod help;
pub mod magic;
pub mod signature;
pub mod tutorial;
pub mod whos;

pub use help::is_help;

/// What a meta-command asks the front end to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Show this text.
    Text(String),
    /// Leave the REPL.
    Quit,
}

/// The meta-commands with one line each, for `:help` and completion.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        ":help [TOPIC] this page; a module (tf.strings, np), a builtin, ?WORD, errors",
    ),
    (
        ":vars",
        ":vars         your names with their kind, dtype and shape",
    ),
    (
        ":format",
        ":format F     how values are shown: table, tf, json, html or svg",
    ),
    (
        ":set",
        ":set K=V …    rows=N cols=N width=N unicode=on|off color=on|off memory=SIZE",
    ),
    (
        ":explain",
        ":explain EXPR how a value is stored (flat values, row partitions, offsets …)",
    ),
    (
        ":draw",
        ":draw EXPR    a picture of how a value is stored (draw(EXPR))",
    ),
    (
        ":tutorial",
        ":tutorial [N] the lessons; lesson N offers its inputs on the prompt",
    ),
    (":reset", ":reset        forget every name"),
    (":ast", ":ast EXPR     the parsed form of an expression"),
    (
        ":time",
        ":time CODE    run code and report how long it took (%time, %timeit too)",
    ),
    (
        ":load",
        ":load FILE    run a script in this session (what ran before an error stays)",
    ),
    (
        ":save",
        ":save FILE    write this session's inputs that succeeded as a script",
    ),
    (":quit", ":quit         leave (Ctrl-D also works)"),
];

/// True when `line` is a meta-command.
pub fn is_command(line: &str) -> bool {
    line.trim_start().starts_with(':')
}

/// IPython's help query: `x?` (help) or `x??` (help and how a value is stored), also
/// written `?x` / `??x`. Returns the expression and whether it asked for the detail.
pub fn help_query(code: &str) -> Option<(&str, bool)> {
    let t = code.trim();
    if t.starts_with([':', '%', '!', '#']) || t.contains('\n') {
        return None;
    }
    let (expr, detailed) = if let Some(e) = t.strip_suffix("??").or(t.strip_prefix("??")) {
        (e, true)
    } else {
        (t.strip_suffix('?').or(t.strip_prefix('?'))?, false)
    };
    let expr = expr.trim();
    (!expr.is_empty() && !expr.contains('?')).then_some((expr, detailed))
}

/// The help page of a help query's expression: a builtin's signature, meaning and examples;
/// for a value its kind, members and header line, then (with `detailed`) how it is stored.
pub fn help_page(
    session: &mut Session,
    expr: &str,
    detailed: bool,
    sink: &mut dyn Sink,
) -> Result<String, Error> {
    let v = session.evaluate(expr, sink)?;
    Ok(match &v {
        v @ (Value::Builtin(_) | Value::Method(_)) => help_text(v.as_builtin().expect("a builtin")),
        Value::Str(s) if !detailed => match lookup_help(s) {
            Some(b) => help_text(b),
            None => value_help(&v),
        },
        _ => {
            let mut text = value_help(&v);
            if let Some(storage) = storage(&v, &session.options) {
                // `x?` names the value's header; `x??` adds how it is stored.
                let shown = if detailed {
                    storage.as_str()
                } else {
                    storage.split_inclusive('\n').next().unwrap_or_default()
                };
                text.push('\n');
                text.push_str(shown);
            }
            text
        }
    })
}

/// A value's header and how it is stored (flat values, partitions, indices), as `:explain`
/// shows it; None for values without storage (numbers, strings, functions).
pub fn storage(v: &Value, options: &crate::render::Options) -> Option<String> {
    matches!(v, Value::Array(_) | Value::Sparse(_) | Value::Lod(_))
        .then(|| table::to_text(&explain::explain(v, options), options) + "\n")
}

fn usage(msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::ValueError, msg)
}

/// Runs one meta-command.
pub fn run(session: &mut Session, line: &str, sink: &mut dyn Sink) -> Result<Outcome, Error> {
    let line = line.trim();
    let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    Ok(match cmd {
        ":help" | ":h" => Outcome::Text(help::run(rest)?),
        ":vars" => {
            let vars = session.vars();
            if vars.is_empty() {
                Outcome::Text("no names defined yet\n".into())
            } else {
                let mut s = String::new();
                for (name, v) in vars {
                    s.push_str(&format!("{name:<16} {}\n", describe(v)));
                }
                Outcome::Text(s)
            }
        }
        ":format" => {
            let f = Format::parse(rest)
                .ok_or_else(|| usage("usage: :format table|tf|json|html|svg"))?;
            session.format = f;
            Outcome::Text(String::new())
        }
        ":set" => {
            if rest.is_empty() {
                let o = &session.options;
                let on = |b: bool| if b { "on" } else { "off" };
                return Ok(Outcome::Text(format!(
                    "rows={} cols={} width={} unicode={} color={} memory={}\n",
                    o.max_rows,
                    o.max_cols,
                    o.width,
                    on(o.unicode),
                    on(o.color),
                    budget::human(u128::from(
                        session.memory_limit.unwrap_or_else(budget::limit)
                    ))
                    .replace(' ', "")
                )));
            }
            for kv in rest.split_whitespace() {
                let (k, v) = kv.split_once('=').ok_or_else(|| {
                    usage(
                        "usage: :set rows=N cols=N width=N unicode=on|off color=on|off memory=SIZE",
                    )
                })?;
                if k == "memory" {
                    session.memory_limit = Some(budget::parse_size(v).map_err(usage)?);
                } else {
                    session.options.set(k, v).map_err(usage)?;
                }
            }
            Outcome::Text(String::new())
        }
        ":explain" => {
            if rest.is_empty() {
                return Err(usage("usage: :explain EXPR"));
            }
            let v = session.evaluate(rest, sink)?;
            let d = explain::explain(&v, &session.options);
            Outcome::Text(match session.format {
                Format::Html => html::display_html(&d) + "\n",
                _ => table::to_text(&d, &session.options) + "\n",
            })
        }
        ":draw" => {
            if rest.is_empty() {
                return Err(usage("usage: :draw EXPR"));
            }
            session.execute(&format!("draw({rest})"), sink)?;
            Outcome::Text(String::new())
        }
        ":tutorial" | ":tut" => {
            if rest.is_empty() {
                Outcome::Text(tutorial::list())
            } else {
                // The REPL opens a lesson step by step ([`tutorial::open`]); elsewhere (a
                // notebook, a transcript) it is printed.
                Outcome::Text(tutorial::text(&tutorial::open(line)?))
            }
        }
        ":reset" => {
            session.reset();
            Outcome::Text("every name forgotten\n".into())
        }
        ":ast" => {
            let e = ragtag_syntax::parse(rest).map_err(Error::from)?;
            Outcome::Text(format!("{}\n", ragtag_syntax::program_to_sexpr(&e)))
        }
        ":time" => {
            let start = std::time::Instant::now();
            session.execute(rest, sink)?;
            Outcome::Text(format!(
                "took {:.3} ms\n",
                start.elapsed().as_secs_f64() * 1e3
            ))
        }
        ":load" => {
            let text = std::fs::read_to_string(rest).map_err(|e| {
                Error::new(
                    ExceptionClass::RuntimeError,
                    format!("cannot read {rest}: {e}"),
                )
            })?;
            session.execute_named(&text, rest, sink)?;
            Outcome::Text(String::new())
        }
        ":save" => {
            let mut text = String::new();
            for (i, (name, src)) in session.sources().iter().enumerate() {
                // The code a command ran (`:time x`) was kept as its own input.
                if name.starts_with("<cell") && !cell::is_line_command(src) && !session.failed(i) {
                    text.push_str(src.trim_start_matches('\n').trim_end());
                    text.push('\n');
                }
            }
            crate::formats::fs::replace(std::path::Path::new(rest), text.as_bytes())?;
            Outcome::Text(format!("saved to {rest}\n"))
        }
        ":quit" | ":q" | ":exit" => Outcome::Quit,
        other => {
            let names = COMMANDS.iter().map(|(c, _)| *c);
            let mut e = Error::new(
                ExceptionClass::NameError,
                format!("unknown command '{other}'"),
            );
            if let Some(s) = crate::eval::suggest::closest(other, names) {
                e = e.with_hint(format!("did you mean `{s}`? (:help lists them)"));
            }
            return Err(e);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_queries_are_ipythons() {
        assert_eq!(help_query("rt?"), Some(("rt", false)));
        assert_eq!(
            help_query("  rt.row_lengths ?? "),
            Some(("rt.row_lengths", true))
        );
        assert_eq!(
            help_query("?tf.ragged.constant"),
            Some(("tf.ragged.constant", false))
        );
        for not in [
            "?", "??", "x???", "a ? b?", ":help?", "1 + 2", "# why?", "f(1)\nx?",
        ] {
            assert_eq!(help_query(not), None, "{not:?}");
        }
    }

    #[test]
    fn help_pages_name_builtins_and_values() {
        let mut s = Session::new();
        let mut sink = crate::session::Collect::default();
        s.execute("rt = tf.ragged.constant([[1, 2], [3]])", &mut sink)
            .unwrap();
        let page = help_page(&mut s, "tf.ragged.constant", false, &mut sink).unwrap();
        assert!(page.starts_with("tf.ragged.constant("), "{page}");
        let short = help_page(&mut s, "rt", false, &mut sink).unwrap();
        assert!(short.contains("RaggedTensor  dtype=int32"), "{short}");
        assert!(!short.contains("row_splits "), "{short}");
        let long = help_page(&mut s, "rt", true, &mut sink).unwrap();
        assert!(long.contains("row_splits "), "{long}");
        assert!(help_page(&mut s, "undefined_name", false, &mut sink).is_err());
    }
}
