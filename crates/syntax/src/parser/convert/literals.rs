//! Number and string literals to values: integers in any base, floats, strings and bytes
//! with their prefixes and escapes.

use super::*;

/// A float literal (`1.5`, `1_000.`, `.5e-3`); the grammar admits only readable ones.
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

/// An integer literal in any base (`42`, `0x_ff`, `0o17`, `0b1`), which must fit 64 bits.
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

/// An integer literal: `Int` when it fits 64 bits, else `BigInt` with its text.
pub(crate) fn int_or_big(text: &str, span: Span) -> Result1<ExprKind> {
    match int_literal(text, span) {
        Ok(i) => Ok(ExprKind::Int(i)),
        Err(_) => Ok(ExprKind::BigInt(text.replace('_', ""))),
    }
}

/// The value of one string literal (not an f-string): prefix, quotes and escapes resolved.
/// A bytes literal gives the text its bytes spell when they are UTF-8 (ragtag's data
/// blocks, which never hold bytes literals, read strings this way too).
pub(crate) fn string_literal(text: &str, span: Span) -> Result1<String> {
    let value = literal_bytes(text, span)?;
    String::from_utf8(value).map_err(|_| {
        SyntaxError::new(
            SyntaxErrorKind::NonUtf8Bytes,
            "bytes literal is not valid UTF-8",
            span,
        )
    })
}

/// Whether a string literal's prefix makes it a bytes literal (`b''`, `rb''`, `Br''`).
pub(crate) fn is_bytes_literal(text: &str) -> bool {
    let quote = text.find(['\'', '"']).unwrap_or(0);
    text[..quote].contains(['b', 'B'])
}

/// The bytes of one string or bytes literal: prefix, quotes and escapes resolved. A bytes
/// literal may only hold ASCII characters (CPython's SyntaxError otherwise).
pub(crate) fn literal_bytes(text: &str, span: Span) -> Result1<Vec<u8>> {
    let quote = text.find(['\'', '"']).unwrap_or(0);
    let prefix = text[..quote].to_ascii_lowercase();
    let rest = &text[quote..];
    let q = if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let body = rest[q..rest.len() - q].replace("\r\n", "\n");
    let bytes = prefix.contains('b');
    if bytes && !body.is_ascii() {
        return Err(SyntaxError::new(
            SyntaxErrorKind::NonUtf8Bytes,
            "bytes can only contain ASCII literal characters",
            span,
        )
        .hint("escape other bytes: `b'\\xc3\\xa9'` holds the UTF-8 bytes of `é`"));
    }
    if prefix.contains('r') {
        return Ok(body.into_bytes());
    }
    unescape(&body, bytes).map_err(|m| SyntaxError::new(SyntaxErrorKind::InvalidEscape, m, span))
}

/// Resolves backslash escapes the way Python does (unknown escapes are kept as written),
/// giving the UTF-8 bytes of the value. In a string, `\xNN`, `\uNNNN`, `\UNNNNNNNN` and
/// octal escapes name characters. In a bytes literal (`bytes`), `\xNN` and octal escapes
/// are one byte each (an octal value past `\377` keeps its low 8 bits, as in Python) and
/// `\u`, `\U` are not escapes.
pub(crate) fn unescape(body: &str, bytes: bool) -> Result<Vec<u8>, String> {
    #[allow(clippy::disallowed_methods)] // the size of an existing value: the literal's text
    let mut out = Vec::with_capacity(body.len());
    let push = |out: &mut Vec<u8>, c: char| {
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    };
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            push(&mut out, c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push(b'\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' => out.push(b'\\'),
            '\'' => out.push(b'\''),
            '"' => out.push(b'"'),
            'a' => out.push(0x07),
            'b' => out.push(0x08),
            'f' => out.push(0x0C),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(0x0B),
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
                match bytes {
                    true => out.push((value & 0xFF) as u8),
                    false => push(&mut out, char::from_u32(value).unwrap_or('\u{FFFD}')),
                }
            }
            'x' | 'u' | 'U' if e == 'x' || !bytes => {
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
                match (value, value.and_then(char::from_u32)) {
                    // Two hex digits: at most 0xFF, one byte.
                    (Some(v), _) if bytes => out.push((v & 0xFF) as u8),
                    (_, Some(ch)) => push(&mut out, ch),
                    _ => return Err(format!("invalid `\\{e}` escape in string literal")),
                }
            }
            other => {
                out.push(b'\\');
                push(&mut out, other);
            }
        }
    }
    Ok(out)
}
