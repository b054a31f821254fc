//! The content fields of each request the kernel reads — their kinds and the defaults the
//! messaging spec (5.3) and ipykernel give a field left out — and the check that fills them in.

use serde_json::{Map, Value};

use super::{kind, kind_of_field};

/// What kind of value a content field holds.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    /// A non-negative integer (a cursor position, a detail level).
    Count,
    /// An integer that fits an i32 (history numbers may be negative).
    Int,
    /// An object whose values are strings (user_expressions).
    StrMap,
}

/// A content field's default when it is missing or null.
enum Fallback {
    /// The request makes no sense without it.
    Required,
    /// Left out (the typed request has an optional field).
    Absent,
    To(Value),
    /// `store_history`: true unless the request is silent.
    NotSilent,
    /// `cursor_pos`: the end of `code`, as jupyter_client's `complete` and `inspect` assume.
    EndOfCode,
}

/// The content fields of each request the kernel reads, with their kinds and defaults, after
/// the messaging spec (5.3) and what ipykernel assumes when a field is left out.
fn schema(msg_type: &str, content: &Map<String, Value>) -> Vec<(&'static str, Kind, Fallback)> {
    use Fallback::*;
    use Kind::*;
    match msg_type {
        "execute_request" => vec![
            ("code", Str, Required),
            ("silent", Bool, To(Value::from(false))),
            ("store_history", Bool, NotSilent),
            ("user_expressions", StrMap, To(Value::Object(Map::new()))),
            ("allow_stdin", Bool, To(Value::from(false))),
            ("stop_on_error", Bool, To(Value::from(true))),
        ],
        "complete_request" => vec![("code", Str, Required), ("cursor_pos", Count, EndOfCode)],
        "inspect_request" => vec![
            ("code", Str, Required),
            ("cursor_pos", Count, EndOfCode),
            ("detail_level", Count, To(Value::from(0))),
        ],
        "is_complete_request" => vec![("code", Str, Required)],
        "history_request" => {
            let mut fields = vec![
                ("hist_access_type", Str, Required),
                ("output", Bool, To(Value::from(false))),
                ("raw", Bool, To(Value::from(true))),
            ];
            // Only the fields of the access type asked for: the others may hold anything.
            match content.get("hist_access_type").and_then(Value::as_str) {
                Some("range") => fields.extend([
                    ("session", Int, Absent),
                    // IPython's `get_range` starts at the first cell and runs to the end
                    // (a stop of 0 here).
                    ("start", Int, To(Value::from(1))),
                    ("stop", Int, To(Value::from(0))),
                ]),
                // IPython's `get_tail` returns the last 10 cells by default.
                Some("tail") => fields.push(("n", Int, To(Value::from(10)))),
                Some("search") => fields.extend([
                    ("pattern", Str, To(Value::from("*"))),
                    ("unique", Bool, To(Value::from(false))),
                    // No limit.
                    ("n", Int, To(Value::from(i32::MAX))),
                ]),
                _ => {}
            }
            fields
        }
        "shutdown_request" => vec![("restart", Bool, To(Value::from(false)))],
        "comm_info_request" => vec![("target_name", Str, Absent)],
        _ => Vec::new(),
    }
}

/// Checks the content of a `msg_type` message against [`schema`] and fills in defaults.
pub(super) fn complete_content(
    msg_type: &str,
    content: &mut Map<String, Value>,
) -> Result<(), String> {
    for (field, kind, default) in schema(msg_type, content) {
        let given = content.get(field).filter(|v| !v.is_null());
        let Some(value) = given else {
            let value = match default {
                Fallback::Required => {
                    return Err(format!("{msg_type} content has no `{field}`"));
                }
                Fallback::Absent => {
                    content.remove(field);
                    continue;
                }
                Fallback::To(v) => v,
                Fallback::NotSilent => {
                    let silent = content.get("silent").and_then(Value::as_bool);
                    Value::Bool(!silent.unwrap_or(false))
                }
                Fallback::EndOfCode => {
                    let code = content.get("code").and_then(Value::as_str).unwrap_or("");
                    Value::from(code.chars().count())
                }
            };
            content.insert(field.into(), value);
            continue;
        };
        let fits = match kind {
            Kind::Str => value.is_string(),
            Kind::Bool => value.is_boolean(),
            Kind::Count => value.as_u64().is_some_and(|n| usize::try_from(n).is_ok()),
            Kind::Int => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            Kind::StrMap => value
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_string)),
        };
        if !fits {
            let wanted = match kind {
                Kind::Str => "a string",
                Kind::Bool => "a boolean",
                Kind::Count => "a non-negative integer",
                Kind::Int => "an integer between -2147483648 and 2147483647",
                Kind::StrMap => "an object of strings",
            };
            return Err(format!(
                "{msg_type} content `{field}` must be {wanted}, not {}",
                kind_of_field(value)
            ));
        }
    }
    if msg_type == "history_request" {
        let access = content.get("hist_access_type").and_then(Value::as_str);
        if !matches!(access, Some("range" | "tail" | "search")) {
            return Err(format!(
                "history_request content `hist_access_type` must be \"range\", \"tail\" or \
                 \"search\", not {}",
                content
                    .get("hist_access_type")
                    .map_or("nothing".into(), |v| {
                        v.as_str().map_or_else(|| kind(v), |s| format!("{s:?}"))
                    })
            ));
        }
    }
    Ok(())
}
