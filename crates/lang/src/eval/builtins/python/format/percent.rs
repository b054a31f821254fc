//! Python's `%`-formatting: `%[(key)][flags][width][.precision]type`, with a tuple, a single
//! value or a mapping on the right.

use super::*;
use crate::render::tf_text::{repr_of, str_of};
use crate::value::Value;
use ragtag_engine::{budget, type_error, value_error, Exception, ExceptionClass};

/// Python's `fmt % arg`.
pub fn percent_format(fmt: &str, arg: &Value) -> Result<Value, Exception> {
    let chars: Vec<char> = fmt.chars().collect();
    formatted(&chars, arg, false).map(Value::str)
}

/// Python's `fmt % arg` for bytes (`bytearray` when `array`): the format's bytes read as
/// Latin-1 characters, `%s`/`%b` taking bytes-like values, `%r`/`%a` their ASCII repr, `%c`
/// an int below 256 or one byte; every byte of the result comes from a character below 256.
pub fn percent_format_bytes(fmt: &[u8], arg: &Value, array: bool) -> Result<Value, Exception> {
    let chars: Vec<char> = fmt.iter().map(|&b| char::from(b)).collect();
    let text = formatted(&chars, arg, true)?;
    let out: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
    Ok(if array {
        Value::bytearray(out)
    } else {
        Value::bytes(out)
    })
}

/// The text of `chars % arg`; `bytes` follows the rules of bytes formatting.
fn formatted(chars: &[char], arg: &Value, bytes: bool) -> Result<String, Exception> {
    let latin1 = |b: &[u8]| -> String { b.iter().map(|&b| char::from(b)).collect() };
    let (args, mapping): (Vec<Value>, Option<&Value>) = match arg {
        Value::Tuple(items) => (items.to_vec(), None),
        Value::Dict(_) => (vec![arg.clone()], Some(arg)),
        other => (vec![other.clone()], None),
    };
    let mut next = 0;
    let mut take = |what: &str| -> Result<Value, Exception> {
        let _ = what;
        let v = args
            .get(next)
            .cloned()
            .ok_or_else(|| type_error!("not enough arguments for format string"))?;
        next += 1;
        Ok(v)
    };
    let mut out = String::new();
    let mut used_mapping = false;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut key_value = None;
        if chars.get(i) == Some(&'(') {
            let mut level = 1;
            let mut j = i + 1;
            while j < chars.len() && level > 0 {
                match chars[j] {
                    '(' => level += 1,
                    ')' => level -= 1,
                    _ => {}
                }
                j += 1;
            }
            if level > 0 {
                return Err(value_error!("incomplete format key"));
            }
            let key: String = chars[i + 1..j - 1].iter().collect();
            let Some(Value::Dict(entries)) = mapping else {
                return Err(type_error!("format requires a mapping"));
            };
            used_mapping = true;
            let k = if bytes {
                Value::bytes(key.chars().map(|c| c as u32 as u8).collect::<Vec<u8>>())
            } else {
                Value::str(&key)
            };
            key_value = Some(
                entries
                    .get(&k)?
                    .ok_or_else(|| Exception::new(ExceptionClass::KeyError, repr_of(&k)))?,
            );
            i = j;
        }
        let mut spec = Spec::default();
        let (mut left, mut zero) = (false, false);
        while let Some(&c) = chars.get(i) {
            match c {
                '-' => left = true,
                '0' => zero = true,
                '+' => spec.sign = Some('+'),
                ' ' if spec.sign != Some('+') => spec.sign = Some(' '),
                ' ' => {}
                '#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'*') {
            let w = crate::value::convert::to_int(&take("width")?)
                .map_err(|_| type_error!("* wants int"))?;
            if w < 0 {
                left = true;
            }
            spec.width = w.unsigned_abs() as usize;
            i += 1;
        } else {
            spec.width = digits_at(chars, &mut i)?.unwrap_or(0);
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            if chars.get(i) == Some(&'*') {
                let p = crate::value::convert::to_int(&take("precision")?)
                    .map_err(|_| type_error!("* wants int"))?;
                spec.precision = Some(p.max(0) as usize);
                i += 1;
            } else {
                spec.precision = Some(digits_at(chars, &mut i)?.unwrap_or(0));
            }
        }
        // Length modifiers (`%ld`) are accepted and ignored, as in Python.
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&ty) = chars.get(i) else {
            return Err(value_error!("incomplete format"));
        };
        i += 1;
        if ty == '%' {
            out.push('%');
            continue;
        }
        let v = match key_value.take() {
            Some(v) => v,
            None => take("value")?,
        };
        let numeric = matches!(
            ty,
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G'
        );
        // An instance of a class deriving from int or float is formatted as its value.
        let v = match &v {
            Value::Instance(i) if numeric || ty == 'c' => match i.base() {
                Some(b @ (Value::Int(_) | Value::Float(_) | Value::BigInt(_))) => b.clone(),
                _ => v,
            },
            _ => v,
        };
        spec.align = Some(if left {
            '<'
        } else if zero && numeric {
            '='
        } else {
            '>'
        });
        if zero && numeric && !left {
            spec.fill = Some('0');
        }
        let text = match ty {
            's' | 'b' if bytes => {
                let Some(b) = v.as_bytes() else {
                    return Err(type_error!(
                        "%b requires a bytes-like object, or an object that implements \
                         __bytes__, not '{}'",
                        v.type_name()
                    ));
                };
                let s = latin1(&b);
                let s: String = match spec.precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                };
                pad(s, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'r' | 'a' if bytes => {
                let s = ascii_of(&v);
                let s: String = match spec.precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                };
                pad(s, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'c' if bytes => {
                let c = match &v {
                    Value::Int(n) => u8::try_from(*n).map(char::from).map_err(|_| {
                        Exception::new(ExceptionClass::OverflowError, "%c arg not in range(256)")
                    })?,
                    other => match other.as_bytes() {
                        Some(b) if b.len() == 1 => char::from(b[0]),
                        _ => {
                            return Err(type_error!(
                                "%c requires an integer in range(256) or a single byte"
                            ))
                        }
                    },
                };
                pad(c.to_string(), ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            's' | 'r' | 'a' => {
                let s = match ty {
                    's' => str_of(&v),
                    'r' => repr_of(&v),
                    _ => ascii_of(&v),
                };
                let s: String = match spec.precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                };
                pad(s, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'c' => {
                let c = match &v {
                    Value::Str(s) if s.chars().count() == 1 => s.to_string(),
                    Value::Int(n) => u32::try_from(*n)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| {
                            Exception::new(
                                ExceptionClass::OverflowError,
                                "%c arg not in range(0x110000)",
                            )
                        })?
                        .to_string(),
                    _ => return Err(type_error!("%c requires int or char")),
                };
                pad(c, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                let n = match &v {
                    Value::Int(n) => *n,
                    Value::Bool(b) => i64::from(*b),
                    // Only the sign is read from `n` below: the digits come from the big int.
                    Value::BigInt(b) => -i64::from(b.sign() == num_bigint::Sign::Minus),
                    Value::Float(f) if matches!(ty, 'd' | 'i' | 'u') => {
                        if !f.is_finite() {
                            return Err(Exception::new(
                                ExceptionClass::OverflowError,
                                "cannot convert float infinity to integer",
                            ));
                        }
                        f.trunc() as i64
                    }
                    other if matches!(ty, 'd' | 'i' | 'u') => {
                        return Err(type_error!(
                            "%{ty} format: a real number is required, not {}",
                            other.type_name()
                        ))
                    }
                    other => {
                        return Err(type_error!(
                            "%{ty} format: an integer is required, not {}",
                            other.type_name()
                        ))
                    }
                };
                let abs = n.unsigned_abs();
                let (mut digits, prefix) = match ty {
                    'o' => (format!("{abs:o}"), "0o"),
                    'x' => (format!("{abs:x}"), "0x"),
                    'X' => (format!("{abs:X}"), "0X"),
                    _ => (abs.to_string(), ""),
                };
                if let Value::BigInt(b) = &v {
                    let radix = match ty {
                        'o' => 8,
                        'x' | 'X' => 16,
                        _ => 10,
                    };
                    digits = b.magnitude().to_str_radix(radix);
                    if ty == 'X' {
                        digits = digits.to_uppercase();
                    }
                }
                // A precision is the least number of digits.
                if let Some(p) = spec.precision {
                    if p > digits.len() {
                        budget::check_bytes("format", p as u128)?;
                        digits = budget::repeat_str("format", "0", p - digits.len())? + &digits;
                    }
                }
                let prefix = if spec.alt { prefix } else { "" };
                let int_spec = Spec {
                    precision: None,
                    ty: Some('d'),
                    ..spec.clone()
                };
                layout(n < 0, prefix, &digits, "", &int_spec, 3)?
            }
            _ if numeric => {
                let f = match &v {
                    Value::Float(f) => *f,
                    Value::Int(n) => *n as f64,
                    Value::Bool(b) => f64::from(u8::from(*b)),
                    other => {
                        return Err(type_error!(
                            "must be real number, not {}",
                            other.type_name()
                        ))
                    }
                };
                let fspec = Spec {
                    ty: Some(ty),
                    precision: Some(spec.precision.unwrap_or(6)),
                    ..spec.clone()
                };
                format_float(f, &fspec)?
            }
            other => {
                return Err(value_error!(
                    "unsupported format character '{other}' (0x{:x}) at index {}",
                    other as u32,
                    i - 1
                ))
            }
        };
        let _ = start;
        // A field that starts the text is moved in, not copied.
        if out.is_empty() {
            out = text;
        } else {
            out.push_str(&text);
        }
    }
    if next < args.len() && !(mapping.is_some() || used_mapping) {
        return Err(type_error!(
            "not all arguments converted during {} formatting",
            if bytes { "bytes" } else { "string" }
        ));
    }
    Ok(out)
}
