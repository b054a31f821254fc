//! `eval`, `exec`, `compile` and `input`: code from a string (or bytes, or a code object) run in the
//! caller's scope or in the dicts given (see `eval::exec_code`). Each string is a source of
//! its own, named `<string>` (or `compile`'s file name): an error inside it is reported
//! against its own text.

use std::sync::{Arc, OnceLock};

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::exec_code::{CodeText, Mode, Scope};
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::{PyDict, Value};
use ragtag_engine::ExceptionClass;

/// `eval`, `exec`, `compile` and the code object's repr.
pub static EXEC: &[Builtin] = &[
    Builtin::function("eval", "(source, globals=None, locals=None, /)", eval)
        .doc("The value of the expression in `source` (a str, bytes or a code object), evaluated in the caller's scope, or with the names of the dict `globals` (and the mapping `locals`). Leading spaces and tabs are ignored; a statement is a SyntaxError.")
        .examples(&["x = 4\neval('x * 10 + 2')", "eval('a + b', {'a': 1}, {'b': 2})"]),
    Builtin::function("exec", "(source, globals=None, locals=None, /, *, closure=None)", exec)
        .doc("Runs the statements in `source` (a str, bytes or a code object) and returns None: in the caller's scope (at top level the names it binds stay defined; inside a function they go to a copy of its variables), or in the dict `globals` (and the mapping `locals`), which get the names it binds (and `__builtins__`).")
        .examples(&["exec('y = 6 * 7')\ny", "ns = {}\nexec('def sq(n):\\n    return n * n\\nz = sq(5)', ns)\nns['z']"]),
    Builtin::function("compile", "(source, filename, mode, flags=0, dont_inherit=False, optimize=-1)", compile)
        .doc("A code object for `source` (a str or bytes) to give to `eval` or `exec`: `mode` is 'exec' (statements), 'eval' (one expression) or 'single' (an interactive statement, whose expression value is printed). A syntax error is raised now; `filename` names the source in error reports.")
        .examples(&["c = compile('2 ** 10', 'calc', 'eval')\neval(c)", "c = compile('print(1 + 1)', 'f.py', 'exec')\nc.co_filename"]),
    Builtin::function("input", "(prompt='', /)", input)
        .doc("Writes `prompt` (without a newline) and returns the next line of standard input, without its line end; EOFError when there is none. `ragtag run`, `-c` and the REPL read standard input; a transcript has none (EOFError), and the Jupyter kernel cannot ask the notebook for a line (a RuntimeError says so).")
        .examples(&["try:\n    name = input('name? ')\nexcept EOFError:\n    name = 'nobody'\nname"]),
    Builtin::method("code.__repr__", "(self)", code_repr)
        .doc("`<code object <module> at 0x…, file \"name\", line 1>`.")
        .examples(&["repr(compile('1', 'f', 'eval')).startswith('<code object <module>')"]),
];

/// The class of code objects.
fn code_class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            let attrs = super::super::registry()
                .get("code.__repr__")
                .map(|b| ("__repr__".to_string(), Value::Builtin(b)))
                .into_iter()
                .collect();
            Class::new("code", "builtins", Vec::new(), attrs)
        })
        .clone()
}

/// Where a code object keeps its text, mode and source id (beside CPython's `co_filename`,
/// `co_name` and `co_firstlineno`).
const TEXT: &str = "_ragtag_text";
const MODE: &str = "_ragtag_mode";
const SOURCE: &str = "_ragtag_source";

/// The text, name, mode and source id of a code object.
fn code_parts(i: &Instance) -> Option<(String, String, Mode, Option<usize>)> {
    let s = |name: &str| match attr_get(&i.attrs, name) {
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    let source = match attr_get(&i.attrs, SOURCE) {
        Some(Value::Int(n)) => usize::try_from(n).ok(),
        _ => None,
    };
    Some((s(TEXT)?, s("co_filename")?, Mode::named(&s(MODE)?)?, source))
}

/// The text of a str or bytes source.
fn text_of(v: &Value) -> Option<Result<String>> {
    match v {
        Value::Str(s) => Some(Ok(s.to_string())),
        Value::Bytes(b) => Some(String::from_utf8(b.data.clone()).map_err(|e| {
            Error::new(
                ExceptionClass::SyntaxError,
                format!("source code is not valid UTF-8: {e}"),
            )
        })),
        _ => None,
    }
}

/// The scope `globals` and `locals` name (`fname` is `eval` or `exec`, for messages).
fn scope(it: &Interp<'_>, a: &Args, fname: &str) -> Result<Scope> {
    let locals = match a.get("locals") {
        None => None,
        Some(Value::Dict(d)) => Some(d.clone()),
        Some(v) => {
            let message = if fname == "eval" {
                "locals must be a mapping".to_string()
            } else {
                format!("locals must be a mapping or None, not {}", v.type_name())
            };
            return Err(Error::new(ExceptionClass::TypeError, message).at(a.span("locals")));
        }
    };
    let globals = match a.get("globals") {
        Some(Value::Dict(d)) => d.clone(),
        Some(v) => {
            // A sequence passes CPython's mapping check, which eval makes first.
            let sequence = matches!(
                v,
                Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Bytes(_)
            );
            let message = match (fname, sequence) {
                ("eval", true) => {
                    "globals must be a real dict; try eval(expr, {}, mapping)".to_string()
                }
                ("eval", false) => "globals must be a dict".to_string(),
                _ => format!("exec() globals must be a dict, not {}", v.type_name()),
            };
            return Err(Error::new(ExceptionClass::TypeError, message).at(a.span("globals")));
        }
        None => match locals {
            None => return Ok(Scope::Caller),
            // Locals without globals: the caller's globals, as they are now.
            Some(l) => {
                let names = it.global_names();
                let g = PyDict::from_str_keys(names);
                return Ok(Scope::Dicts(g, Some(l)));
            }
        },
    };
    let locals = locals.filter(|l| !Arc::ptr_eq(l, &globals));
    Ok(Scope::Dicts(globals, locals))
}

/// `eval` and `exec`: the source's text and how to run it.
fn run(it: &mut Interp<'_>, a: &Args, fname: &str) -> Result<Value> {
    let source = a.value("source");
    let (text, name, mode, known) = match source {
        Value::Instance(i) if Arc::ptr_eq(&i.class, &code_class()) => code_parts(i)
            .ok_or_else(|| Error::new(ExceptionClass::TypeError, "a broken code object"))?,
        v => match text_of(v) {
            Some(text) => {
                let text = text.map_err(|e| e.at(a.span("source")))?;
                if fname == "eval" {
                    // CPython strips an expression's leading spaces and tabs.
                    let text = text.trim_start_matches([' ', '\t']).to_string();
                    (text, "<string>".to_string(), Mode::Eval, None)
                } else {
                    (text, "<string>".to_string(), Mode::Exec, None)
                }
            }
            None => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("{fname}() arg 1 must be a string, bytes or code object"),
                )
                .at(a.span("source")))
            }
        },
    };
    let scope = scope(it, a, fname)?;
    let code = CodeText {
        text: &text,
        name: &name,
        mode,
        source: known,
    };
    let value = it.run_code(&code, scope)?;
    Ok(if fname == "exec" { Value::None } else { value })
}

fn eval(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    run(it, a, "eval")
}

fn exec(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if a.get("closure").is_some() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "cannot use a closure with this code object",
        )
        .at(a.span("closure")));
    }
    run(it, a, "exec")
}

fn compile(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let text = match text_of(a.value("source")) {
        Some(t) => t.map_err(|e| e.at(a.span("source")))?,
        None => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "compile() arg 1 must be a string, bytes or AST object",
            )
            .at(a.span("source")))
        }
    };
    let filename = match a.value("filename") {
        Value::Str(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(&b.data).into_owned(),
        v => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "compile() argument 'filename' must be str, bytes or os.PathLike, not {}",
                    v.type_name()
                ),
            )
            .at(a.span("filename")))
        }
    };
    let mode = match a.value("mode") {
        Value::Str(s) => Mode::named(s),
        v => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "compile() argument 'mode' must be str, not {}",
                    v.type_name()
                ),
            )
            .at(a.span("mode")))
        }
    };
    let Some(mode) = mode else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "compile() mode must be 'exec', 'eval' or 'single'",
        )
        .at(a.span("mode")));
    };
    let text = if mode == Mode::Eval {
        text.trim_start_matches([' ', '\t']).to_string()
    } else {
        text
    };
    let (id, _) = it.compile_source(&text, &filename, mode, None)?;
    let code = Instance::new(code_class());
    attr_set(&code.attrs, "co_filename", Value::str(filename));
    attr_set(&code.attrs, "co_name", Value::str("<module>"));
    attr_set(&code.attrs, "co_firstlineno", Value::Int(1));
    attr_set(&code.attrs, TEXT, Value::str(text));
    attr_set(&code.attrs, MODE, Value::str(mode.name()));
    attr_set(&code.attrs, SOURCE, Value::Int(id as i64));
    // Shown as computed now: the renderers run no `__repr__` of a builtin type's instance.
    let shown = repr_text(&code);
    code.set_shown(shown.clone(), shown);
    Ok(Value::Instance(code))
}

fn code_repr(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("self") {
        Value::Instance(i) => Ok(Value::str(repr_text(i))),
        _ => Ok(Value::str("<code object>")),
    }
}

/// `<code object <module> at 0x…, file "name", line 1>`.
fn repr_text(code: &Arc<Instance>) -> String {
    let file = match attr_get(&code.attrs, "co_filename") {
        Some(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    };
    format!(
        "<code object <module> at {:#x}, file \"{file}\", line 1>",
        Arc::as_ptr(code) as usize
    )
}

fn input(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let prompt = match a.given("prompt") {
        Some(v) => crate::render::tf_text::str_of(v),
        None => String::new(),
    };
    match it.sink().input(&prompt).map_err(|e| e.at(a.call))? {
        Some(line) => Ok(Value::str(line)),
        None => Err(Error::new(ExceptionClass::EOFError, "EOF when reading a line").at(a.call)),
    }
}
