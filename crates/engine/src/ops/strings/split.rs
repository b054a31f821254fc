//! `tf.strings.split`: every string becomes a row of tokens, so the result has one more
//! (ragged) dimension than the input.

use super::{nest_rows, str_col};
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::ragged::Array;
use crate::size::shape_str;
use crate::strings::StringBuf;
use crate::tensor::Tensor;

/// C's `isspace` in the "C" locale, which TensorFlow's whitespace splitting uses.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Splits one string as Python's `str.split` (and TensorFlow's StringSplitV2) does, calling
/// `emit` for each token. With no separator, runs of whitespace separate and leading or
/// trailing whitespace yields no empty tokens. `maxsplit < 0` means no limit.
fn split_one<'a>(s: &'a [u8], sep: Option<&[u8]>, maxsplit: i64, mut emit: impl FnMut(&'a [u8])) {
    if maxsplit == 0 {
        emit(s);
        return;
    }
    let mut splits = 0;
    match sep {
        None => {
            let mut i = 0;
            while i < s.len() && is_space(s[i]) {
                i += 1;
            }
            while i < s.len() {
                let start = i;
                while i < s.len() && !is_space(s[i]) {
                    i += 1;
                }
                emit(&s[start..i]);
                while i < s.len() && is_space(s[i]) {
                    i += 1;
                }
                splits += 1;
                if maxsplit > 0 && splits == maxsplit {
                    // Like TensorFlow, the remainder is a token even when it is empty.
                    emit(&s[i..]);
                    return;
                }
            }
        }
        Some(sep) => {
            let mut rest = s;
            while let Some(at) = find(rest, sep) {
                emit(&rest[..at]);
                rest = &rest[at + sep.len()..];
                splits += 1;
                if maxsplit > 0 && splits == maxsplit {
                    break;
                }
            }
            emit(rest);
        }
    }
}

/// The first occurrence of a non-empty `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    let first = needle[0];
    (0..=hay.len() - needle.len()).find(|&i| hay[i] == first && &hay[i..i + needle.len()] == needle)
}

/// `tf.strings.split(input, sep=None, maxsplit=-1)`: a scalar becomes a vector of tokens; a
/// tensor of shape `[d0, …, dn]` (or a ragged tensor) becomes a ragged tensor with one more
/// ragged dimension. `sep` of `None` or `''` splits on whitespace runs.
pub fn split(a: &Array, sep: Option<&[u8]>, maxsplit: i64) -> Result<Array> {
    let sep = sep.filter(|s| !s.is_empty());
    let t = a.flat_values();
    let col = str_col(t, "tf.strings.split")?;
    let mut tokens = StringBuf::try_with_capacity(
        "tf.strings.split",
        col.len().saturating_mul(2),
        col.bytes().len(),
    )?;
    let mut lengths = budget::vec("tf.strings.split", col.len())?;
    for s in col.iter() {
        let before = tokens.len();
        split_one(s, sep, maxsplit, |tok| tokens.push(tok));
        lengths.push((tokens.len() - before) as i64);
    }
    let values = Tensor::vector(Buffer::Str(tokens));
    if matches!(a, Array::Dense(t) if t.rank() == 0) {
        return Ok(Array::Dense(values));
    }
    nest_rows(a, &lengths, values)
}

/// `tf.strings.bytes_split(input)`: every string becomes a row of its bytes (one-byte
/// strings); a scalar gives a vector, anything else one more ragged dimension.
pub fn bytes_split(a: &Array) -> Result<Array> {
    let t = a.flat_values();
    let col = str_col(t, "tf.strings.bytes_split")?;
    let n = col.bytes().len();
    let mut tokens = StringBuf::try_with_capacity("tf.strings.bytes_split", n, n)?;
    let mut lengths = budget::vec("tf.strings.bytes_split", col.len())?;
    for (k, s) in col.iter().enumerate() {
        if k % crate::interrupt::CHUNK == 0 {
            crate::interrupt::check()?;
        }
        for i in 0..s.len() {
            tokens.push(&s[i..i + 1]);
        }
        lengths.push(s.len() as i64);
    }
    let values = Tensor::vector(Buffer::Str(tokens));
    if matches!(a, Array::Dense(t) if t.rank() == 0) {
        return Ok(Array::Dense(values));
    }
    nest_rows(a, &lengths, values)
}

/// TensorFlow 1's `tf.compat.v1.string_split(source, delimiter, skip_empty)` on a vector:
/// every byte of `delimiters` separates tokens (an empty `delimiters` splits into single
/// bytes), and with `skip_empty` empty tokens are dropped. Each string becomes a row.
pub fn split_on_bytes(a: &Array, delimiters: &[u8], skip_empty: bool) -> Result<Array> {
    let t = match a {
        Array::Dense(t) if t.rank() == 1 => t,
        _ => {
            return Err(crate::invalid_arg!(
                "input must be a vector of strings, but has shape {}",
                shape_str(&a.shape())
            )
            .with_hint("flatten it first, or use tf.strings.split, which takes any shape"))
        }
    };
    let col = str_col(t, "tf.compat.v1.string_split")?;
    let n = col.bytes().len();
    let mut tokens =
        StringBuf::try_with_capacity("tf.compat.v1.string_split", n.saturating_add(col.len()), n)?;
    let mut lengths = budget::vec("tf.compat.v1.string_split", col.len())?;
    for (k, s) in col.iter().enumerate() {
        if k % crate::interrupt::CHUNK == 0 {
            crate::interrupt::check()?;
        }
        let before = tokens.len();
        if delimiters.is_empty() {
            for i in 0..s.len() {
                tokens.push(&s[i..i + 1]);
            }
        } else {
            for tok in s.split(|b| delimiters.contains(b)) {
                if !(skip_empty && tok.is_empty()) {
                    tokens.push(tok);
                }
            }
        }
        lengths.push((tokens.len() - before) as i64);
    }
    nest_rows(a, &lengths, Tensor::vector(Buffer::Str(tokens)))
}
