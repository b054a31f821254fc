//! Python's `str.format`: `{}`, `{0}`, `{name}`, `{0[key]}` and `{0.attr}` fields with
//! conversions and specs (nested fields in a spec are numbered after the field).

use super::*;
use crate::render::tf_text::repr_of;
use crate::value::Value;
use ragtag_engine::{type_error, value_error, Exception, ExceptionClass};

/// Looks up `.name` on a value for a `{0.name}` field. A name beginning with `:` (never an
/// attribute's) asks instead for an instance formatted by its class's `__format__` with
/// the rest as the spec: a str, or `None` when its class has no `__format__`.
pub type AttrLookup<'a> = dyn FnMut(&Value, &str) -> Result<Value, Exception> + 'a;

/// Python's `fmt.format(*args, **kwargs)`.
pub fn str_format(
    fmt: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    attr: &mut AttrLookup<'_>,
) -> Result<String, Exception> {
    let mut auto = Numbering::default();
    render(fmt, args, Kw::Pairs(kwargs), attr, &mut auto, 2)
}

/// Python's `fmt.format_map(mapping)`: each named field is looked up when it is met, by
/// `attr(&None, "[name")` (the caller subscripts its mapping); a positional field is
/// CPython's ValueError.
pub fn str_format_map(fmt: &str, attr: &mut AttrLookup<'_>) -> Result<String, Exception> {
    let mut auto = Numbering::default();
    render(fmt, &[], Kw::Mapping, attr, &mut auto, 2)
}

/// Where a named field's value comes from: `format`'s keyword arguments, or
/// `format_map`'s mapping (through the attribute look-up).
#[derive(Clone, Copy)]
enum Kw<'a> {
    Pairs(&'a [(String, Value)]),
    Mapping,
}

/// Whether fields were numbered automatically (`{}`) or by hand (`{0}`); Python refuses a
/// mix.
#[derive(Default)]
struct Numbering {
    next: usize,
    manual: bool,
    automatic: bool,
}

fn render(
    fmt: &str,
    args: &[Value],
    kwargs: Kw<'_>,
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
    depth: usize,
) -> Result<String, Exception> {
    let mut out = String::new();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' if chars.get(i + 1) == Some(&'{') => {
                out.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                out.push('}');
                i += 2;
            }
            '}' => return Err(value_error!("Single '}}' encountered in format string")),
            '{' => {
                // The field runs to its matching `}` (specs may hold nested fields).
                let mut level = 1;
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '{' => level += 1,
                        '}' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    let message = if level > 1 {
                        "unmatched '{' in format spec"
                    } else {
                        "expected '}' before end of string"
                    };
                    return Err(Exception::new(ExceptionClass::ValueError, message));
                }
                if depth == 0 {
                    return Err(value_error!("Max string recursion exceeded"));
                }
                let field: String = chars[i + 1..j].iter().collect();
                let piece = replace_field(&field, args, kwargs, attr, auto, depth)?;
                // A field that starts the text is moved in, not copied: a field a
                // gigabyte wide is not written twice.
                if out.is_empty() {
                    out = piece;
                } else {
                    out.push_str(&piece);
                }
                i = j + 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn replace_field(
    field: &str,
    args: &[Value],
    kwargs: Kw<'_>,
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
    depth: usize,
) -> Result<String, Exception> {
    // field_name [! conversion] [: spec]; the name ends at the first `!` or `:` outside `[]`.
    let mut name_end = field.len();
    let mut in_index = false;
    for (k, ch) in field.char_indices() {
        match ch {
            '[' => in_index = true,
            ']' => in_index = false,
            '!' | ':' if !in_index => {
                name_end = k;
                break;
            }
            _ => {}
        }
    }
    let name = &field[..name_end];
    let mut rest = &field[name_end..];
    let mut conversion = None;
    if let Some(r) = rest.strip_prefix('!') {
        let mut cs = r.chars();
        let c = cs.next();
        match c {
            Some(k @ ('r' | 's' | 'a')) => conversion = Some(k),
            Some(':') | None => {
                return Err(value_error!(
                    "end of string while looking for conversion specifier"
                ))
            }
            Some(k) => return Err(value_error!("Unknown conversion specifier {k}")),
        }
        rest = cs.as_str();
        if !rest.is_empty() && !rest.starts_with(':') {
            return Err(value_error!("expected ':' after conversion specifier"));
        }
    }
    // The field's value first, then the fields nested in its spec (numbered after it).
    let value = lookup(name, args, kwargs, attr, auto)?;
    let spec = rest.strip_prefix(':').unwrap_or("");
    let spec = if spec.contains('{') {
        render(spec, args, kwargs, attr, auto, depth - 1)?
    } else {
        spec.to_string()
    };
    let value = convert(&value, conversion);
    if let Value::Instance(_) = value {
        if let Value::Str(s) = attr(&value, &format!(":{spec}"))? {
            return Ok(s.to_string());
        }
    }
    format_value(&value, &spec)
}

/// The value a field name names: `0`, `name`, `` (the next), then `.attr` and `[key]`.
fn lookup(
    name: &str,
    args: &[Value],
    kwargs: Kw<'_>,
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
) -> Result<Value, Exception> {
    let first_end = name.find(['.', '[']).unwrap_or(name.len());
    let first = &name[..first_end];
    let positional = first.is_empty() || first.bytes().all(|b| b.is_ascii_digit());
    let mut value = if positional && matches!(kwargs, Kw::Mapping) {
        return Err(value_error!("Format string contains positional fields"));
    } else if positional {
        let index = if first.is_empty() {
            if auto.manual {
                return Err(value_error!(
                    "cannot switch from manual field specification to automatic field numbering"
                ));
            }
            auto.automatic = true;
            auto.next += 1;
            auto.next - 1
        } else {
            if auto.automatic {
                return Err(value_error!(
                    "cannot switch from automatic field numbering to manual field specification"
                ));
            }
            auto.manual = true;
            first
                .parse()
                .map_err(|_| value_error!("Too many decimal digits in format string"))?
        };
        args.get(index).cloned().ok_or_else(|| {
            Exception::new(
                ExceptionClass::IndexError,
                format!("Replacement index {index} out of range for positional args tuple"),
            )
        })?
    } else {
        match kwargs {
            Kw::Pairs(kwargs) => kwargs
                .iter()
                .find(|(k, _)| k == first)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| Exception::new(ExceptionClass::KeyError, format!("'{first}'")))?,
            Kw::Mapping => attr(&Value::None, &format!("[{first}"))?,
        }
    };
    let mut rest = &name[first_end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return Err(value_error!("Empty attribute in format string"));
            }
            value = attr(&value, &r[..end])?;
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r
                .find(']')
                .ok_or_else(|| value_error!("Missing ']' in format string"))?;
            let key = &r[..end];
            if key.is_empty() {
                return Err(value_error!("Empty attribute in format string"));
            }
            value = item(&value, key)?;
            rest = &r[end + 1..];
            if !rest.is_empty() && !rest.starts_with(['.', '[']) {
                return Err(value_error!(
                    "Only '.' or '[' may follow ']' in format field specifier"
                ));
            }
        } else {
            return Err(value_error!(
                "Only '.' or '[' may follow ']' in format field specifier"
            ));
        }
    }
    Ok(value)
}

/// `value[key]` in a field name: an int key when it is all digits, a str key otherwise.
fn item(value: &Value, key: &str) -> Result<Value, Exception> {
    let as_int: Option<i64> = key
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| key.parse().ok())
        .flatten();
    let key_value = match as_int {
        Some(i) => Value::Int(i),
        None => Value::str(key),
    };
    match value {
        Value::Dict(d) => d
            .get(&key_value)?
            .ok_or_else(|| Exception::new(ExceptionClass::KeyError, repr_of(&key_value))),
        Value::List(_) | Value::Tuple(_) | Value::Str(_) => {
            let Some(i) = as_int else {
                return Err(type_error!(
                    "{} indices must be integers or slices, not str",
                    value.type_name()
                ));
            };
            let items: Vec<Value> = match value {
                Value::Str(s) => s.chars().map(|c| Value::str(c.to_string())).collect(),
                other => crate::eval::operators::as_items(other)?,
            };
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i).cloned())
                .ok_or_else(|| {
                    Exception::new(
                        ExceptionClass::IndexError,
                        format!("{} index out of range", value.type_name()),
                    )
                })
        }
        other => Err(type_error!(
            "'{}' object is not subscriptable",
            other.type_name()
        )),
    }
}
