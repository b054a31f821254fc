//! Unicode ops: `tf.strings.unicode_decode` (and `_with_offsets`), `unicode_split` and
//! `unicode_encode`. Decoding reads UTF-8 and, like TensorFlow's ICU converter, treats each
//! maximal ill-formed subsequence as one error.

use super::{nest_rows, str_col};
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::interrupt;
use crate::ragged::{Array, Ragged};
use crate::strings::StringBuf;
use crate::tensor::Tensor;
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
    /// `'US-ASCII'` (decoding only)
    Ascii,
    /// `'ISO-8859-1'` (decoding only)
    Latin1,
}

impl Encoding {
    /// The encoding called `name` (InvalidArgumentError for others).
    pub fn parse(name: &str) -> Result<Encoding> {
        match name.to_ascii_uppercase().as_str() {
            "UTF-8" | "UTF8" => Ok(Encoding::Utf8),
            "UTF-16-BE" | "UTF-16BE" => Ok(Encoding::Utf16Be),
            "UTF-32-BE" | "UTF-32BE" => Ok(Encoding::Utf32Be),
            "US-ASCII" | "ASCII" => Ok(Encoding::Ascii),
            "ISO-8859-1" | "LATIN1" | "LATIN-1" => Ok(Encoding::Latin1),
            _ => Err(invalid_arg!(
                "unknown or unsupported encoding '{}': ragtag knows 'UTF-8', 'UTF-16-BE', 'UTF-32-BE', and for decoding 'US-ASCII' and 'ISO-8859-1'",
                name.escape_default()
            )),
        }
    }
    /// The encoding for output (`unicode_encode` and `unicode_transcode` write only the
    /// Unicode encodings).
    pub fn parse_output(name: &str) -> Result<Encoding> {
        match Encoding::parse(name)? {
            e @ (Encoding::Utf8 | Encoding::Utf16Be | Encoding::Utf32Be) => Ok(e),
            _ => Err(invalid_arg!(
                "output encoding must be 'UTF-8', 'UTF-16-BE' or 'UTF-32-BE', not '{}'",
                name.escape_default()
            )),
        }
    }
    /// The name TensorFlow gives the encoding (`'UTF-8'` …), as messages show it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf16Be => "UTF-16-BE",
            Encoding::Utf32Be => "UTF-32-BE",
            Encoding::Ascii => "US-ASCII",
            Encoding::Latin1 => "ISO-8859-1",
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
                "errors must be 'strict', 'replace' or 'ignore', not '{}'",
                name.escape_default()
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

/// One decoded unit of a string: a character, or an ill-formed sequence (`cp` is None).
struct Unit {
    cp: Option<u32>,
    len: usize,
}

/// The units of `s` in `enc`, in order.
fn units(s: &[u8], enc: Encoding, mut f: impl FnMut(Unit)) {
    match enc {
        Encoding::Utf8 => {
            for chunk in s.utf8_chunks() {
                for c in chunk.valid().chars() {
                    f(Unit {
                        cp: Some(c as u32),
                        len: c.len_utf8(),
                    });
                }
                if !chunk.invalid().is_empty() {
                    f(Unit {
                        cp: None,
                        len: chunk.invalid().len(),
                    });
                }
            }
        }
        Encoding::Latin1 => s.iter().for_each(|&b| {
            f(Unit {
                cp: Some(b as u32),
                len: 1,
            })
        }),
        Encoding::Ascii => s.iter().for_each(|&b| {
            f(Unit {
                cp: (b < 0x80).then_some(b as u32),
                len: 1,
            })
        }),
        Encoding::Utf16Be => {
            let mut i = 0;
            while i < s.len() {
                if i + 1 >= s.len() {
                    f(Unit {
                        cp: None,
                        len: s.len() - i,
                    });
                    break;
                }
                let u = u16::from_be_bytes([s[i], s[i + 1]]) as u32;
                let low = (i + 3 < s.len())
                    .then(|| u16::from_be_bytes([s[i + 2], s[i + 3]]) as u32)
                    .filter(|l| (0xDC00..0xE000).contains(l));
                match (u, low) {
                    (0xD800..=0xDBFF, Some(l)) => {
                        f(Unit {
                            cp: Some(0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00)),
                            len: 4,
                        });
                        i += 4;
                    }
                    (0xD800..=0xDFFF, _) => {
                        f(Unit { cp: None, len: 2 });
                        i += 2;
                    }
                    _ => {
                        f(Unit {
                            cp: Some(u),
                            len: 2,
                        });
                        i += 2;
                    }
                }
            }
        }
        Encoding::Utf32Be => {
            for c in s.chunks(4) {
                let cp = (c.len() == 4)
                    .then(|| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                    .filter(|&v| char::from_u32(v).is_some());
                f(Unit { cp, len: c.len() });
            }
        }
    }
}

/// Decodes one string, calling `emit(code point, byte offset, byte length, ill-formed)`
/// per character.
fn decode_one(
    s: &[u8],
    spec: &DecodeSpec,
    mut emit: impl FnMut(i32, usize, usize, bool),
) -> Result<()> {
    let mut at = 0;
    let mut bad_at = None;
    units(s, spec.encoding, |u| {
        match u.cp {
            Some(cp) => {
                let cp = if spec.replace_control && cp < 0x20 {
                    spec.replacement
                } else {
                    cp as i32
                };
                emit(cp, at, u.len, false);
            }
            None => match spec.errors {
                OnError::Strict => {
                    bad_at.get_or_insert(at);
                }
                OnError::Replace => emit(spec.replacement, at, u.len, true),
                OnError::Ignore => {}
            },
        }
        at += u.len;
    });
    match bad_at {
        Some(at) => Err(invalid_arg!(
            "invalid {} input at byte {at} of b'{}'",
            spec.encoding.name(),
            s.escape_ascii()
        )
        .with_hint("errors='replace' (the default) or errors='ignore' accepts it")),
        None => Ok(()),
    }
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
    let col = str_col(a.flat_values(), "tf.strings.unicode_decode")?;
    // At most one code point per byte.
    let mut cps = budget::vec::<i32>("tf.strings.unicode_decode", col.bytes().len())?;
    let mut offs = budget::vec::<i64>(
        "tf.strings.unicode_decode",
        if with_offsets { col.bytes().len() } else { 0 },
    )?;
    let mut lengths = budget::vec("tf.strings.unicode_decode", col.len())?;
    for (k, s) in col.iter().enumerate() {
        if k % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let before = cps.len();
        decode_one(s, spec, |cp, off, _, _| {
            cps.push(cp);
            if with_offsets {
                offs.push(off as i64);
            }
        })?;
        lengths.push((cps.len() - before) as i64);
    }
    with_offsets_of(a, &lengths, Buffer::from(cps), offs, with_offsets)
}

/// `tf.strings.unicode_split`: every string as a row of its characters (each encoded in the
/// input encoding), and the characters' byte offsets when `with_offsets`.
pub fn split_chars(
    a: &Array,
    spec: &DecodeSpec,
    with_offsets: bool,
) -> Result<(Array, Option<Array>)> {
    let col = str_col(a.flat_values(), "tf.strings.unicode_split")?;
    let mut replacement = Vec::new();
    if let Some(c) = valid_cp(spec.replacement as i64) {
        put(c, output_of(spec.encoding), &mut replacement);
    }
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
        decode_one(s, spec, |_, off, len, bad| {
            if bad {
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
    with_offsets_of(a, &lengths, Buffer::Str(chars), offs, with_offsets)
}

/// The decoded `values` as rows of `lengths` under `a`'s shape, and their byte offsets
/// shaped the same way when `with_offsets`.
fn with_offsets_of(
    a: &Array,
    lengths: &[i64],
    values: Buffer,
    offs: Vec<i64>,
    with_offsets: bool,
) -> Result<(Array, Option<Array>)> {
    let values = shaped(a, lengths, Tensor::vector(values))?;
    let offsets = if with_offsets {
        Some(shaped(a, lengths, Tensor::vector(Buffer::from(offs)))?)
    } else {
        None
    };
    Ok((values, offsets))
}

fn valid_cp(cp: i64) -> Option<char> {
    u32::try_from(cp).ok().and_then(char::from_u32)
}

/// How `unicode_split` writes a replacement character for input in `enc`.
fn output_of(enc: Encoding) -> Encoding {
    match enc {
        Encoding::Utf16Be => Encoding::Utf16Be,
        Encoding::Utf32Be => Encoding::Utf32Be,
        _ => Encoding::Utf8,
    }
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
        // Not output encodings (parse_output refuses them); Latin-1 and ASCII write the
        // characters they hold and `?` for the rest.
        Encoding::Latin1 | Encoding::Ascii => {
            let limit = if enc == Encoding::Ascii { 0x80 } else { 0x100 };
            out.push(if (c as u32) < limit {
                c as u32 as u8
            } else {
                b'?'
            });
        }
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
            decode_one(s, spec, |cp, _, _, _| {
                if let Some(c) = valid_cp(cp as i64) {
                    put(c, out, &mut buf);
                }
            })?;
            res.push(&buf);
        }
        Ok(super::same_shape(t, Buffer::Str(res)))
    })
}
