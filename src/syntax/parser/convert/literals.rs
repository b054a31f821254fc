//! Number and string literals to values: integers in any base, floats, strings and bytes
//! with their prefixes and escapes.

use super::*;

/// Adjacent string literals, joined.
pub(crate) fn strings(pair: Pair<'_, Rule>) -> Result1<ExprKind> {
    let mut s = String::new();
    for lit in pair.into_inner() {
        s.push_str(&string_literal(lit.as_str(), span_of(&lit))?);
    }
    Ok(ExprKind::Str(s))
}

pub(crate) fn float_literal(text: &str, span: Span) -> Result1<ExprKind> {
    let digits = text.replace('_', "");
    let value = digits.parse().map_err(|_| {
        SyntaxError::new(
            SyntaxErrorKind::InvalidNumber,
            "invalid float literal",
            span,
        )
    })?;
    Ok(ExprKind::Float(value))
}

pub(crate) fn int_literal(text: &str, span: Span) -> Result1<i64> {
    let digits = text.replace('_', "");
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = match lower.get(..2) {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits.as_str()),
    };
    i64::from_str_radix(body, radix).map_err(|_| {
        SyntaxError::new(
            SyntaxErrorKind::InvalidNumber,
            "integer literal is too large",
            span,
        )
        .hint(format!(
            "integers must lie between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    })
}

/// The value of one string literal: prefix, quotes and escapes resolved.
pub(crate) fn string_literal(text: &str, span: Span) -> Result1<String> {
    let quote = text.find(['\'', '"']).unwrap_or(0);
    let prefix = text[..quote].to_ascii_lowercase();
    if prefix.contains('f') {
        return Err(SyntaxError::new(
            SyntaxErrorKind::FString,
            "f-strings are not supported",
            span,
        )
        .hint("use \"…{}…\".format(value) instead"));
    }
    let rest = &text[quote..];
    let q = if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let body = rest[q..rest.len() - q].replace("\r\n", "\n");
    if prefix.contains('r') {
        return Ok(body);
    }
    unescape(&body).map_err(|m| SyntaxError::new(SyntaxErrorKind::InvalidEscape, m, span))
}

/// Resolves backslash escapes the way Python does (unknown escapes are kept as written).
pub(crate) fn unescape(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0C'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0B'),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(value).unwrap_or('\u{FFFD}'));
            }
            'x' | 'u' | 'U' => {
                let len = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = (0..len)
                    .filter_map(|_| chars.next_if(|d| d.is_ascii_hexdigit()))
                    .collect();
                let value = if hex.len() == len {
                    u32::from_str_radix(&hex, 16).ok()
                } else {
                    None
                };
                match value.and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => return Err(format!("invalid `\\{e}` escape in string literal")),
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}
