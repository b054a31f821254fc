//! IPython's `%whos` (the namespace as a Variable / Type / Data/Info table) and
//! `%reset -f` (forget every name).

use super::Outcome;
use crate::diagnostic::Error;
use crate::render::tf_text::str_of;
use crate::session::Session;
use crate::value::{NdArray, Value};
use ragtag_engine::exceptions::ExceptionClass;

/// The name `type(v).__name__` gives (a dense tensor is TensorFlow's EagerTensor).
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Array(a) if matches!(**a, ragtag_engine::Array::Dense(_)) => "EagerTensor",
        _ => v.type_name(),
    }
}

/// The Data/Info column: `n=len` for a dict, list or tuple; an ndarray's shape, size,
/// dtype and bytes; else `str(v)` on one line, its middle cut when 50 characters or more.
fn info(v: &Value) -> String {
    match v {
        Value::Dict(d) => format!("n={}", d.len()),
        Value::List(l) => format!("n={}", l.len()),
        Value::Tuple(t) => format!("n={}", t.len()),
        Value::NdArray(a) if matches!(**a, NdArray::Dense(_)) => {
            let NdArray::Dense(t) = &**a else {
                unreachable!()
            };
            let shape: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
            let bytes = t.size() * t.dtype().item_bytes();
            let mut s = format!(
                "{}: {} elems, type `{}`, {} bytes",
                shape.join("x"),
                t.size(),
                t.dtype().name(),
                bytes
            );
            if bytes >= 100_000 {
                if bytes < 1_048_576 {
                    s.push_str(&format!(" ({} kb)", bytes as f64 / 1024.0));
                } else {
                    s.push_str(&format!(" ({} Mb)", bytes as f64 / 1_048_576.0));
                }
            }
            s
        }
        _ => {
            let s = str_of(v).replace('\n', "\\n");
            let chars: Vec<char> = s.chars().collect();
            if chars.len() < 50 {
                s
            } else {
                let head: String = chars[..25].iter().collect();
                let tail: String = chars[chars.len() - 25..].iter().collect();
                format!("{head}<...>{tail}")
            }
        }
    }
}

/// `%whos`: IPython's table, its columns three spaces wider than their widest entry.
pub fn whos(session: &Session) -> Outcome {
    let vars = session.vars();
    if vars.is_empty() {
        return Outcome::Text("Interactive namespace is empty.\n".into());
    }
    let (var_label, type_label, data_label) = ("Variable", "Type", "Data/Info");
    let vw = vars
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(var_label.len())
        + 3;
    let tw = vars
        .iter()
        .map(|(_, v)| type_name(v).len())
        .max()
        .unwrap_or(0)
        .max(type_label.len())
        + 3;
    let mut s = format!(
        "{var_label:<vw$}{type_label:<tw$} {data_label}\n{}\n",
        std::iter::repeat_n('-', vw + tw + data_label.len() + 1).collect::<String>()
    );
    for (name, v) in vars {
        s.push_str(&format!("{name:<vw$}{:<tw$} {}\n", type_name(v), info(v)));
    }
    Outcome::Text(s)
}

/// `%reset -f`: forgets every name, as IPython's hard reset. Without `-f` IPython asks
/// to confirm, which a kernel or a script cannot answer: that is an error saying so.
pub fn reset(session: &mut Session, args: &str) -> Result<Outcome, Error> {
    let flags: Vec<&str> = args.split_whitespace().collect();
    if !flags.contains(&"-f") {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "%reset asks to confirm; ragtag only forgets every name when told to",
        )
        .with_hint("`%reset -f` forgets every name without asking (:reset too)"));
    }
    if let Some(other) = flags.iter().find(|f| **f != "-f" && **f != "-s") {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("%reset: ragtag resets the whole namespace only, not '{other}'"),
        )
        .with_hint("`%reset -f` forgets every name"));
    }
    session.reset();
    Ok(Outcome::Text(String::new()))
}
