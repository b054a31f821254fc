//! The text codecs of `str.encode` and `bytes.decode`: UTF-8, ASCII and Latin-1, with the
//! `strict`, `replace` and `ignore` error handlers and CPython's messages.

use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass};

/// A codec by any of CPython's spellings of its name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Utf8,
    Ascii,
    Latin1,
}

impl Codec {
    /// The codec named `name` (`utf-8`, `UTF8`, `latin-1`, `iso-8859-1`, …), or CPython's
    /// LookupError.
    pub fn named(name: &str) -> Result<Codec, Exception> {
        let norm: String = name
            .trim()
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect();
        Ok(match norm.as_str() {
            "utf_8" | "utf8" | "u8" | "utf" | "cp65001" => Codec::Utf8,
            "ascii" | "us_ascii" | "646" => Codec::Ascii,
            "latin_1" | "latin1" | "latin" | "l1" | "iso_8859_1" | "iso8859_1" | "8859"
            | "cp819" | "iso_ir_100" => Codec::Latin1,
            _ => {
                return Err(Exception::new(
                    ExceptionClass::LookupError,
                    format!("unknown encoding: {name}"),
                ))
            }
        })
    }
    fn name(self) -> &'static str {
        match self {
            Codec::Utf8 => "utf-8",
            Codec::Ascii => "ascii",
            Codec::Latin1 => "latin-1",
        }
    }
}

/// An error handler.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Errors {
    Strict,
    Replace,
    Ignore,
}

impl Errors {
    /// The handler named `name`; CPython's LookupError for another.
    pub fn named(name: &str) -> Result<Errors, Exception> {
        Ok(match name {
            "strict" => Errors::Strict,
            "replace" => Errors::Replace,
            "ignore" => Errors::Ignore,
            _ => {
                return Err(Exception::new(
                    ExceptionClass::LookupError,
                    format!("unknown error handler name '{name}'"),
                ))
            }
        })
    }
}

/// `s.encode(codec, errors)`.
pub fn encode(s: &str, codec: Codec, errors: Errors) -> Result<Vec<u8>, Exception> {
    if codec == Codec::Utf8 {
        return Ok(s.as_bytes().to_vec());
    }
    let limit: u32 = if codec == Codec::Ascii { 128 } else { 256 };
    let mut out = ragtag_engine::budget::vec("encoding", s.len())?;
    for (i, c) in s.chars().enumerate() {
        if (c as u32) < limit {
            out.push(c as u32 as u8);
            continue;
        }
        match errors {
            Errors::Ignore => {}
            Errors::Replace => out.push(b'?'),
            Errors::Strict => {
                // CPython reports the run of unencodable characters that starts here.
                let run = s
                    .chars()
                    .skip(i)
                    .take_while(|&c| (c as u32) >= limit)
                    .count();
                return Err(unicode_error(
                    ExceptionClass::UnicodeEncodeError,
                    vec![
                        Value::str(codec.name()),
                        Value::str(s),
                        Value::Int(i as i64),
                        Value::Int((i + run) as i64),
                        Value::str(format!("ordinal not in range({limit})")),
                    ],
                ));
            }
        }
    }
    Ok(out)
}

/// A non-ASCII character as CPython's messages write it: `\xe9`, `\u65e5`, `\U0001f600`.
pub(super) fn ascii_escape(c: char) -> String {
    match c as u32 {
        n if n < 0x100 => format!("\\x{n:02x}"),
        n if n < 0x10000 => format!("\\u{n:04x}"),
        n => format!("\\U{n:08x}"),
    }
}

/// `b.decode(codec, errors)`.
pub fn decode(b: &[u8], codec: Codec, errors: Errors) -> Result<String, Exception> {
    match codec {
        Codec::Latin1 => Ok(b.iter().map(|&c| c as char).collect()),
        Codec::Ascii => {
            let mut out = String::new();
            for (i, &c) in b.iter().enumerate() {
                if c < 128 {
                    out.push(c as char);
                    continue;
                }
                match errors {
                    Errors::Ignore => {}
                    Errors::Replace => out.push('\u{FFFD}'),
                    Errors::Strict => {
                        return Err(unicode_error(
                            ExceptionClass::UnicodeDecodeError,
                            vec![
                                Value::str("ascii"),
                                Value::bytes(b),
                                Value::Int(i as i64),
                                Value::Int(i as i64 + 1),
                                Value::str("ordinal not in range(128)"),
                            ],
                        ))
                    }
                }
            }
            Ok(out)
        }
        Codec::Utf8 => decode_utf8(b, errors),
    }
}

/// The Unicode error of `class` with CPython's constructor arguments (encoding, object,
/// start, end, reason): its message is the one the constructor makes, and its attributes
/// (`e.object`, `e.start`, …) are those arguments.
fn unicode_error(class: ExceptionClass, args: Vec<Value>) -> Exception {
    let message = super::exception_attrs::construct(class, &args)
        .map(|(_, m)| m)
        .unwrap_or_default();
    super::exception_args::make(class, message, args)
}

fn decode_utf8(b: &[u8], errors: Errors) -> Result<String, Exception> {
    let mut out = String::new();
    let mut rest = b;
    let mut base = 0;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return Ok(out);
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                let bad = e.error_len().unwrap_or(rest.len() - good);
                if errors == Errors::Strict {
                    let pos = base + good;
                    let lead = rest[good];
                    let reason = if e.error_len().is_none() {
                        "unexpected end of data"
                    } else if bad == 1 && !(0xC2..=0xF4).contains(&lead) {
                        "invalid start byte"
                    } else {
                        "invalid continuation byte"
                    };
                    return Err(unicode_error(
                        ExceptionClass::UnicodeDecodeError,
                        vec![
                            Value::str("utf-8"),
                            Value::bytes(b),
                            Value::Int(pos as i64),
                            Value::Int((pos + bad) as i64),
                            Value::str(reason),
                        ],
                    ));
                }
                if errors == Errors::Replace {
                    out.push('\u{FFFD}');
                }
                base += good + bad;
                rest = &rest[good + bad..];
            }
        }
    }
}
