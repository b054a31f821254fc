//! Binding a call's arguments to a user function's parameters as CPython does: positional
//! ones in order, the extra into `*args`, keywords by name, the unknown ones into
//! `**kwargs`, then the defaults, with CPython's TypeErrors for every mismatch.

use super::args::CallArg;
use super::unpack::make_dict;
use crate::diagnostic::{Error, Result};
use crate::value::env::Locals;
use crate::value::{Closure, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::{ParamKind, Span};

/// The local names a call of `c` starts with: each parameter with its value, bound in
/// `frame` (empty; a finished call's, reused for its room).
pub(super) fn bind(
    c: &Closure,
    args: Vec<CallArg>,
    span: Span,
    mut frame: Locals,
) -> Result<Locals> {
    let params = &c.params;
    // The call most code makes, `f(a, b)` to `def f(a, b)`: each value goes to its
    // parameter in order, with nothing to check and no slots to fill.
    if args.len() == params.len()
        && args.iter().all(|a| a.name.is_none())
        && params
            .iter()
            .all(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
    {
        for (name, a) in c.bindings.params.iter().zip(args) {
            frame.push_param(name, a.value);
        }
        return Ok(frame);
    }
    let type_error = |msg: String| Error::new(ExceptionClass::TypeError, msg).at(span);
    let positional = params
        .iter()
        .take_while(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
        .count();
    let varargs = params.iter().position(|p| p.kind == ParamKind::VarArgs);
    let varkw = params.iter().position(|p| p.kind == ParamKind::VarKeywords);
    #[allow(clippy::disallowed_methods)] // one slot per parameter, sized by the source text
    let mut slots: Vec<Option<Value>> = vec![None; params.len()];
    let mut extra = Vec::new();
    let mut extra_kw: Vec<(String, Value)> = Vec::new();
    let mut given_positional = 0;
    let mut given_kwonly = 0;
    let mut posonly_as_kw: Vec<String> = Vec::new();
    for a in args {
        match a.name {
            None => {
                if given_positional < positional {
                    slots[given_positional] = Some(a.value);
                } else {
                    extra.push(a.value);
                }
                given_positional += 1;
            }
            Some(name) => {
                let found = params.iter().position(|p| {
                    p.name == name && matches!(p.kind, ParamKind::Normal | ParamKind::KeywordOnly)
                });
                match found {
                    Some(i) => {
                        if slots[i].is_some() {
                            return Err(type_error(format!(
                                "{}() got multiple values for argument '{name}'",
                                c.name
                            )));
                        }
                        if params[i].kind == ParamKind::KeywordOnly {
                            given_kwonly += 1;
                        }
                        slots[i] = Some(a.value);
                    }
                    None if varkw.is_some() => extra_kw.push((name.to_string(), a.value)),
                    None if params
                        .iter()
                        .any(|p| p.name == name && p.kind == ParamKind::PositionalOnly) =>
                    {
                        posonly_as_kw.push(name)
                    }
                    None => {
                        return Err(type_error(format!(
                            "{}() got an unexpected keyword argument '{name}'",
                            c.name
                        )))
                    }
                }
            }
        }
    }
    if !posonly_as_kw.is_empty() {
        return Err(type_error(format!(
            "{}() got some positional-only arguments passed as keyword arguments: '{}'",
            c.name,
            posonly_as_kw.join(", ")
        )));
    }
    if given_positional > positional && varargs.is_none() {
        let required = params[..positional]
            .iter()
            .enumerate()
            .filter(|(i, _)| c.defaults[*i].is_none())
            .count();
        let takes = if required == positional {
            format!("{positional} positional argument{}", plural(positional))
        } else {
            format!("from {required} to {positional} positional arguments")
        };
        let given = if given_kwonly > 0 {
            format!(
                "{given_positional} positional argument{} (and {given_kwonly} keyword-only argument{}) were",
                plural(given_positional),
                plural(given_kwonly)
            )
        } else if given_positional == 1 {
            "1 was".to_string()
        } else {
            format!("{given_positional} were")
        };
        return Err(type_error(format!(
            "{}() takes {takes} but {given} given",
            c.name
        )));
    }
    let mut missing = Vec::new();
    let mut missing_kwonly = Vec::new();
    for ((i, p), name) in params.iter().enumerate().zip(&c.bindings.params) {
        let v = match p.kind {
            ParamKind::VarArgs => Some(Value::tuple(std::mem::take(&mut extra))),
            ParamKind::VarKeywords => Some(make_dict(std::mem::take(&mut extra_kw))),
            _ => slots[i].take().or_else(|| c.defaults[i].clone()),
        };
        match v {
            Some(v) => frame.push_param(name, v),
            None if p.kind == ParamKind::KeywordOnly => missing_kwonly.push(p.name.as_str()),
            None => missing.push(p.name.as_str()),
        }
    }
    for (names, what) in [(missing, "positional"), (missing_kwonly, "keyword-only")] {
        if !names.is_empty() {
            return Err(type_error(format!(
                "{}() missing {} required {what} argument{}: {}",
                c.name,
                names.len(),
                plural(names.len()),
                name_list(&names)
            )));
        }
    }
    Ok(frame)
}

/// `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`: CPython's list of missing names.
fn name_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
        [] => String::new(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
