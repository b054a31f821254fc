//! `bytes()`, `bytearray()`, `bytes.fromhex`, `str.encode`, `bytes.decode`,
//! `int.from_bytes` and `int.to_bytes`, as CPython 3.11 has them.

use super::codecs::{decode as decode_with, encode as encode_with, Codec, Errors};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::bigint::{norm, to_big};
use crate::eval::operators::bytes::{byte_of, data};
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::{BigInt, Value};
use ragtag_engine::{Exception, ExceptionClass};

/// The constructors and codecs of bytes.
pub static BYTES: &[Builtin] = &[
    Builtin::function("bytes", "(source=b'', encoding=None, errors=None)", bytes_)
        .doc(
            "An immutable sequence of bytes: `bytes(3)` is three zero bytes, `bytes([104, 105])` \
             the bytes of those ints (each in 0..256), `bytes('é', 'utf-8')` the encoded text.",
        )
        .examples(&["bytes([104, 105])", "bytes(3)", "bytes('é', 'utf-8')"]),
    Builtin::function(
        "bytearray",
        "(source=b'', encoding=None, errors=None)",
        bytearray,
    )
    .doc(
        "A mutable sequence of bytes, made as `bytes()` makes one; changed in place by item \
             and slice assignment, `append`, `extend`, `pop`, `+=`, and shared by every name \
             holding it.",
    )
    .examples(&["b = bytearray(b'ab')\nb.append(99)\nb"]),
    Builtin::function("bytes.fromhex", "(string)", fromhex)
        .doc("The bytes two hexadecimal digits each spell (spaces between bytes are skipped).")
        .examples(&["bytes.fromhex('de ad be ef')"]),
    Builtin::function("bytearray.fromhex", "(string)", bytearray_fromhex)
        .doc("The bytearray of the bytes two hexadecimal digits each spell.")
        .examples(&["bytearray.fromhex('0a0b')"]),
    Builtin::method(
        "str.encode",
        "(self, encoding='utf-8', errors='strict')",
        encode,
    )
    .doc(
        "The text as bytes in `encoding` (`utf-8`, `ascii`, `latin-1`); `errors` is \
             `strict` (a UnicodeEncodeError), `replace` (`?`) or `ignore`.",
    )
    .examples(&["'héllo'.encode()", "'héllo'.encode('ascii', 'replace')"]),
    Builtin::method(
        "bytes.decode",
        "(self, encoding='utf-8', errors='strict')",
        decode,
    )
    .doc(
        "The bytes as text in `encoding` (`utf-8`, `ascii`, `latin-1`); `errors` is \
             `strict` (a UnicodeDecodeError), `replace` (U+FFFD) or `ignore`.",
    )
    .examples(&[
        "b'h\\xc3\\xa9'.decode()",
        "b'a\\xff'.decode('utf-8', 'replace')",
    ])
    .aliases(&["bytearray.decode", "bytes_.decode"]),
    Builtin::function(
        "int.from_bytes",
        "(bytes, byteorder='big', *, signed=False)",
        from_bytes,
    )
    .doc(
        "The int the bytes spell, most significant first (`byteorder='big'`) or last \
             (`'little'`); `signed=True` reads two's complement.",
    )
    .examples(&[
        "int.from_bytes(b'\\x01\\x00', 'big')",
        "int.from_bytes(b'\\xff', 'little', signed=True)",
    ]),
    Builtin::method(
        "int.to_bytes",
        "(self, length=1, byteorder='big', *, signed=False)",
        to_bytes,
    )
    .doc(
        "The int as `length` bytes in `byteorder` (`big` or `little`); an OverflowError \
             when it does not fit (or is negative without `signed=True`).",
    )
    .examples(&[
        "(1024).to_bytes(2, 'big')",
        "(-1).to_bytes(2, 'little', signed=True)",
    ]),
];

/// The codec and error handler arguments of an encode or decode.
fn codec_args(a: &Args) -> Result<(Codec, Errors)> {
    let enc = a.opt_str("encoding")?.unwrap_or_else(|| "utf-8".into());
    let err = a.opt_str("errors")?.unwrap_or_else(|| "strict".into());
    let codec = Codec::named(&enc).map_err(|e| a.err_at("encoding", e))?;
    let errors = Errors::named(&err).map_err(|e| a.err_at("errors", e))?;
    Ok((codec, errors))
}

/// The bytes `bytes(source, encoding, errors)` makes; `kind` names the type in messages.
fn construct(it: &mut Interp<'_>, a: &Args, kind: &str) -> Result<Vec<u8>> {
    let source = a.given("source");
    let has_enc = a.get("encoding").is_some() || a.get("errors").is_some();
    let err = |class, msg: String| Error::new(class, msg).at(a.span("source"));
    match source {
        None => Ok(Vec::new()),
        Some(Value::Str(s)) => {
            if a.get("encoding").is_none() {
                return Err(err(
                    ExceptionClass::TypeError,
                    "string argument without an encoding".into(),
                ));
            }
            let (codec, errors) = codec_args(a)?;
            encode_with(s, codec, errors).map_err(|e| a.err_at("source", e))
        }
        Some(_) if has_enc => Err(err(
            ExceptionClass::TypeError,
            "encoding without a string argument".into(),
        )),
        Some(v @ (Value::Bytes(_) | Value::ByteArray(_))) => Ok(data(v).unwrap_or_default()),
        Some(v @ (Value::Int(_) | Value::Bool(_))) => {
            let n = match v {
                Value::Int(n) => *n,
                _ => matches!(v, Value::Bool(true)) as i64,
            };
            let n = usize::try_from(n)
                .map_err(|_| err(ExceptionClass::ValueError, "negative count".into()))?;
            let mut out = Vec::new();
            ragtag_engine::budget::extend_filled(kind, &mut out, 0, n)
                .map_err(|e| a.err_at("source", e))?;
            Ok(out)
        }
        Some(v @ (Value::None | Value::Float(_))) => Err(err(
            ExceptionClass::TypeError,
            format!("cannot convert '{}' object to {kind}", v.type_name()),
        )),
        Some(v) => {
            if !matches!(v, Value::Iter(_) | Value::Instance(_)) && iterate(v).is_err() {
                return Err(err(
                    ExceptionClass::TypeError,
                    format!("cannot convert '{}' object to {kind}", v.type_name()),
                ));
            }
            let items = it.iterate_value(v, a.span("source")).map_err(|_| {
                err(
                    ExceptionClass::TypeError,
                    format!("cannot convert '{}' object to {kind}", v.type_name()),
                )
            })?;
            items
                .iter()
                .map(|x| {
                    byte_of(x).map_err(|e| {
                        let e = if e.class == ExceptionClass::ValueError && kind == "bytes" {
                            Exception::new(e.class, "bytes must be in range(0, 256)")
                        } else {
                            e
                        };
                        a.err_at("source", e)
                    })
                })
                .collect()
        }
    }
}

fn bytes_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::bytes(construct(it, a, "bytes")?))
}

fn bytearray(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::bytearray(construct(it, a, "bytearray")?))
}

fn fromhex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    hex_bytes(a).map(Value::bytes)
}

fn bytearray_fromhex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    hex_bytes(a).map(Value::bytearray)
}

fn hex_bytes(a: &Args) -> Result<Vec<u8>> {
    let Value::Str(s) = a.value("string") else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "fromhex() argument must be str, not {}",
                a.value("string").type_name()
            ),
        )
        .at(a.span("string")));
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let bad = |i: usize| {
        Error::new(
            ExceptionClass::ValueError,
            format!("non-hexadecimal number found in fromhex() arg at position {i}"),
        )
        .at(a.span("string"))
    };
    while i < chars.len() {
        if chars[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let hi = chars[i].to_digit(16).ok_or_else(|| bad(i))?;
        let lo = chars
            .get(i + 1)
            .and_then(|c| c.to_digit(16))
            .ok_or_else(|| bad(i + 1))?;
        out.push((hi * 16 + lo) as u8);
        i += 2;
    }
    Ok(out)
}

fn encode(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(s) = a.value("self") else {
        return Ok(Value::None);
    };
    let (codec, errors) = codec_args(a)?;
    Ok(Value::bytes(
        encode_with(s, codec, errors).map_err(|e| Error::from(e).at(a.call))?,
    ))
}

fn decode(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let b = data(a.value("self")).unwrap_or_default();
    let (codec, errors) = codec_args(a)?;
    Ok(Value::str(
        decode_with(&b, codec, errors).map_err(|e| Error::from(e).at(a.call))?,
    ))
}

/// Whether `byteorder` is 'little' (else 'big'); CPython's ValueError for another.
fn little(a: &Args) -> Result<bool> {
    match a.opt_str("byteorder")?.as_deref() {
        None | Some("big") => Ok(false),
        Some("little") => Ok(true),
        Some(_) => Err(Error::new(
            ExceptionClass::ValueError,
            "byteorder must be either 'little' or 'big'",
        )
        .at(a.span("byteorder"))),
    }
}

fn from_bytes(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("bytes");
    let mut b = match data(v) {
        Some(b) => b,
        None => match v {
            Value::Str(_) => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "cannot convert 'str' object to bytes",
                )
                .at(a.span("bytes")))
            }
            other => it
                .iterate_value(other, a.span("bytes"))?
                .iter()
                .map(byte_of)
                .collect::<std::result::Result<_, _>>()
                .map_err(|e| a.err_at("bytes", e))?,
        },
    };
    if little(a)? {
        b.reverse();
    }
    let n = if a.flag("signed", false)? {
        BigInt::from_signed_bytes_be(&b)
    } else {
        BigInt::from_bytes_be(num_bigint::Sign::Plus, &b)
    };
    Ok(norm(n))
}

fn to_bytes(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = to_big(a.value("self")).unwrap_or_default();
    let length = a.opt_int("length")?.unwrap_or(1);
    let length = usize::try_from(length).map_err(|_| {
        Error::new(
            ExceptionClass::ValueError,
            "length argument must be non-negative",
        )
        .at(a.span("length"))
    })?;
    let signed = a.flag("signed", false)?;
    let little = little(a)?;
    let overflow = |m: &str| Error::new(ExceptionClass::OverflowError, m.to_string()).at(a.call);
    if !signed && n.sign() == num_bigint::Sign::Minus {
        return Err(overflow("can't convert negative int to unsigned"));
    }
    let mut b = if signed {
        n.to_signed_bytes_be()
    } else {
        n.to_bytes_be().1
    };
    // Zero is one byte in num-bigint and none in CPython's count.
    if n == BigInt::from(0) {
        b.clear();
    }
    if b.len() > length {
        return Err(overflow("int too big to convert"));
    }
    let fill = if signed && n.sign() == num_bigint::Sign::Minus {
        0xFF
    } else {
        0
    };
    let mut out = Vec::new();
    ragtag_engine::budget::extend_filled("int.to_bytes", &mut out, fill, length - b.len())
        .map_err(|e| Error::from(e).at(a.call))?;
    out.extend(b);
    if little {
        out.reverse();
    }
    Ok(Value::bytes(out))
}
