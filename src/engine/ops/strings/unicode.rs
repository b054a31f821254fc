//! Unicode ops: `tf.strings.unicode_decode` (and `_with_offsets`), `unicode_split` and
//! `unicode_encode`. Decoding reads UTF-8 and, like TensorFlow's ICU converter, treats each
//! maximal ill-formed subsequence as one error.

use super::{nest_rows, str_col};
use crate::engine::budget;
use crate::engine::buffer::Buffer;
use crate::engine::error::Result;
use crate::engine::interrupt;
use crate::engine::ragged::{Array, Ragged};
use crate::engine::strings::StringBuf;
use crate::engine::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// A text encoding TensorFlow's unicode ops name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `'UTF-8'`
    Utf8,
    /// `'UTF-16-BE'`
    Utf16Be,
    /// `'UTF-32-BE'`
    Utf32Be,
}

impl Encoding {
    /// The encoding called `name` (InvalidArgumentError for others).
    pub fn parse(name: &str) -> Result<Encoding> {
        match name.to_ascii_uppercase().as_str() {
            "UTF-8" | "UTF8" => Ok(Encoding::Utf8),
            "UTF-16-BE" | "UTF-16BE" => Ok(Encoding::Utf16Be),
            "UTF-32-BE" | "UTF-32BE" => Ok(Encoding::Utf32Be),
            _ => Err(invalid_arg!(
                "unknown or unsupported encoding {name:?}: ragtag knows 'UTF-8', 'UTF-16-BE' and 'UTF-32-BE'"
            )),
        }
    }
}

/// What to do with ill-formed input or invalid code points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    /// Stop with an InvalidArgumentError.
    Strict,
    /// Use the replacement character.
    Replace,
    /// Skip it.
    Ignore,
}

impl OnError {
    /// `'strict'`, `'replace'` or `'ignore'` (InvalidArgumentError for others).
    pub fn parse(name: &str) -> Result<OnError> {
        match name {
            "strict" => Ok(OnError::Strict),
            "replace" => Ok(OnError::Replace),
            "ignore" => Ok(OnError::Ignore),
            _ => Err(invalid_arg!(
                "errors must be 'strict', 'replace' or 'ignore', not {name:?}"
            )),
        }
    }
}

/// How to decode.
#[derive(Debug, Clone, Copy)]
pub struct DecodeSpec {
    /// The input encoding (only UTF-8 decodes).
    pub encoding: Encoding,
    /// Ill-formed input handling.
    pub errors: OnError,
    /// The code point that replaces an error.
    pub replacement: i32,
    /// Also replace C0 control characters (U+0000 to U+001F).
    pub replace_control: bool,
}

/// Decodes one string, calling `emit(code point, byte offset, byte length)` per character.
fn decode_one(s: &[u8], spec: &DecodeSpec, mut emit: impl FnMut(i32, usize, usize)) -> Result<()> {
    let mut at = 0;
    for chunk in s.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            let mut cp = c as i32;
            if spec.replace_control && cp < 0x20 {
                cp = spec.replacement;
            }
            emit(cp, at + i, c.len_utf8());
        }
        at += chunk.valid().len();
        let bad = chunk.invalid();
        if !bad.is_empty() {
            match spec.errors {
                OnError::Strict => {
                    return Err(invalid_arg!(
                        "invalid UTF-8 at byte {at} of {:?}",
                        String::from_utf8_lossy(s)
                    )
                    .with_hint("errors='replace' (the default) or errors='ignore' accepts it"))
                }
                OnError::Replace => emit(spec.replacement, at, bad.len()),
                OnError::Ignore => {}
            }
            at += bad.len();
        }
    }
    Ok(())
}

fn check_decodable(spec: &DecodeSpec) -> Result<()> {
    if spec.encoding != Encoding::Utf8 {
        return Err(invalid_arg!(
            "ragtag decodes UTF-8 only, not {:?}",
            spec.encoding
        ));
    }
    Ok(())
}

/// A scalar's result stays a vector; anything else gets one more ragged dimension.
fn shaped(a: &Array, lengths: &[i64], values: Tensor) -> Result<Array> {
    if matches!(a, Array::Dense(t) if t.rank() == 0) {
        return Ok(Array::Dense(values));
    }
    nest_rows(a, lengths, values)
}

/// `tf.strings.unicode_decode`: the code points (int32) of every string, and their byte
/// offsets (int64) when `with_offsets`.
pub fn decode(a: &Array, spec: &DecodeSpec, with_offsets: bool) -> Result<(Array, Option<Array>)> {
    check_decodable(spec)?;
    let col = str_col(a.flat_values(), "tf.strings.unicode_decode")?;
    // At most one code point per byte.
    let mut cps = budget::vec("tf.strings.unicode_decode", col.bytes().len())?;
    let mut offs = budget::vec(
        "tf.strings.unicode_decode",
        if with_offsets { col.bytes().len() } else { 0 },
    )?;
    let mut lengths = budget::vec("tf.strings.unicode_decode", col.len())?;
    for (k, s) in col.iter().enumerate() {
        if k % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let before = cps.len();
        decode_one(s, spec, |cp, off, _| {
            cps.push(cp);
            if with_offsets {
                offs.push(off as i64);
            }
        })?;
        lengths.push((cps.len() - before) as i64);
    }
    let values = shaped(a, &lengths, Tensor::vector(Buffer::I32(cps)))?;
    let offsets = if with_offsets {
        Some(shaped(a, &lengths, Tensor::vector(Buffer::I64(offs)))?)
    } else {
        None
    };
    Ok((values, offsets))
}

/// `tf.strings.unicode_split`: every string as a row of its characters (each encoded in the
/// input encoding), and the characters' byte offsets when `with_offsets`.
pub fn split_chars(
    a: &Array,
    spec: &DecodeSpec,
    with_offsets: bool,
) -> Result<(Array, Option<Array>)> {
    check_decodable(spec)?;
    let col = str_col(a.flat_values(), "tf.strings.unicode_split")?;
    let replacement = encode_utf8(spec.replacement).unwrap_or_default();
    let n = col.bytes().len();
    let mut chars = StringBuf::try_with_capacity(
        "tf.strings.unicode_split",
        n,
        n.saturating_mul(replacement.len().max(1)),
    )?;
    let mut offs = budget::vec("tf.strings.unicode_split", if with_offsets { n } else { 0 })?;
    let mut lengths = budget::vec("tf.strings.unicode_split", col.len())?;
    for (k, s) in col.iter().enumerate() {
        if k % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let before = chars.len();
        decode_one(s, spec, |cp, off, len| {
            if cp == spec.replacement && std::str::from_utf8(&s[off..off + len]).is_err() {
                chars.push(&replacement);
            } else {
                chars.push(&s[off..off + len]);
            }
            if with_offsets {
                offs.push(off as i64);
            }
        })?;
        lengths.push((chars.len() - before) as i64);
    }
    let values = shaped(a, &lengths, Tensor::vector(Buffer::Str(chars)))?;
    let offsets = if with_offsets {
        Some(shaped(a, &lengths, Tensor::vector(Buffer::I64(offs)))?)
    } else {
        None
    };
    Ok((values, offsets))
}

fn valid_cp(cp: i64) -> Option<char> {
    u32::try_from(cp).ok().and_then(char::from_u32)
}

fn encode_utf8(cp: i32) -> Option<Vec<u8>> {
    valid_cp(cp as i64).map(|c| c.to_string().into_bytes())
}

/// Appends one character in `enc`.
fn put(c: char, enc: Encoding, out: &mut Vec<u8>) {
    match enc {
        Encoding::Utf8 => {
            let mut b = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
        Encoding::Utf16Be => {
            let mut u = [0; 2];
            for unit in c.encode_utf16(&mut u) {
                out.extend_from_slice(&unit.to_be_bytes());
            }
        }
        Encoding::Utf32Be => out.extend_from_slice(&(c as u32).to_be_bytes()),
    }
}

/// Encodes the rows `splits` cuts `cps` into, one string each.
fn encode_rows(
    cps: &[i64],
    splits: impl Iterator<Item = (usize, usize)>,
    nrows: usize,
    enc: Encoding,
    errors: OnError,
    replacement: i64,
) -> Result<StringBuf> {
    let repl = valid_cp(replacement).ok_or_else(|| {
        invalid_arg!("replacement_char {replacement} is not a valid Unicode code point")
    })?;
    // Four bytes per code point at most.
    let mut out = StringBuf::try_with_capacity(
        "tf.strings.unicode_encode",
        nrows,
        cps.len().saturating_mul(4),
    )?;
    let mut scratch: Vec<u8> = Vec::new();
    for (k, (a, b)) in splits.enumerate() {
        if k % 1024 == 0 {
            interrupt::check()?;
        }
        scratch.clear();
        for &cp in &cps[a..b] {
            match (valid_cp(cp), errors) {
                (Some(c), _) => put(c, enc, &mut scratch),
                (None, OnError::Replace) => put(repl, enc, &mut scratch),
                (None, OnError::Ignore) => {}
                (None, OnError::Strict) => {
                    return Err(invalid_arg!("{cp} is not a valid Unicode code point")
                        .with_hint("errors='replace' (the default) or errors='ignore' accepts it"))
                }
            }
        }
        out.push(&scratch);
    }
    Ok(out)
}

/// `tf.strings.unicode_encode`: the innermost rows of an integer tensor of code points
/// become strings, so the result has one dimension less.
pub fn encode(a: &Array, enc: Encoding, errors: OnError, replacement: i64) -> Result<Array> {
    let t = a.flat_values();
    let cps = t
        .data()
        .to_i64_vec()
        .filter(|_| t.dtype().is_int())
        .ok_or_else(|| {
            invalid_arg!(
                "tf.strings.unicode_encode needs integer code points, not {}",
                t.dtype()
            )
        })?;
    // Encodes a dense block whose last dimension holds the characters.
    let dense = |t: &Tensor| -> Result<Tensor> {
        let (&len, outer) = t.shape().split_last().ok_or_else(|| {
            value_error!("tf.strings.unicode_encode needs rank 1 or more, but got a scalar")
        })?;
        let nrows: usize = outer.iter().product();
        let s = encode_rows(
            &cps,
            (0..nrows).map(|r| (r * len, (r + 1) * len)),
            nrows,
            enc,
            errors,
            replacement,
        )?;
        Tensor::new(outer.to_vec(), Buffer::Str(s))
    };
    match a {
        Array::Dense(t) => dense(t).map(Array::Dense),
        Array::Ragged(r) if t.rank() > 1 => r.with_flat_values(dense(t)?).map(Array::Ragged),
        Array::Ragged(r) => {
            let parts = r.partitions();
            let last = parts.len() - 1;
            let splits = parts[last].row_splits();
            let nrows = splits.len() - 1;
            let s = encode_rows(
                &cps,
                (0..nrows).map(|i| (splits[i] as usize, splits[i + 1] as usize)),
                nrows,
                enc,
                errors,
                replacement,
            )?;
            let values = Tensor::vector(Buffer::Str(s));
            if last == 0 {
                Ok(Array::Dense(values))
            } else {
                Ragged::new(parts[..last].to_vec(), values).map(Array::Ragged)
            }
        }
    }
}

/// `tf.strings.unicode_transcode`: every string decoded (as `unicode_decode` does, with its
/// error handling) and encoded again in `out`. The shape is unchanged.
pub fn transcode(a: &Array, spec: &DecodeSpec, out: Encoding) -> Result<Array> {
    check_decodable(spec)?;
    super::map_values(a, |t| {
        let col = str_col(t, "tf.strings.unicode_transcode")?;
        // Four output bytes per input byte at most (UTF-32), or per replacement.
        let mut res = StringBuf::try_with_capacity(
            "tf.strings.unicode_transcode",
            col.len(),
            col.bytes().len().saturating_mul(4),
        )?;
        let mut buf: Vec<u8> = Vec::new();
        for (k, s) in col.iter().enumerate() {
            if k % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            buf.clear();
            decode_one(s, spec, |cp, _, _| {
                if let Some(c) = valid_cp(cp as i64) {
                    put(c, out, &mut buf);
                }
            })?;
            res.push(&buf);
        }
        Ok(super::same_shape(t, Buffer::Str(res)))
    })
}
