//! Elementwise string kernels: `length`, `upper`, `lower`, `strip`, `substr` and
//! `to_hash_bucket_fast`.

use super::{broadcast_all, int_values, map_values, same_shape, str_col};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::invalid_arg;
use crate::ragged::Array;
use crate::size::dense_shape_str;
use crate::strings::StringBuf;
use crate::{budget, size};

/// How string positions and lengths are counted (`unit=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharUnit {
    /// Bytes (`'BYTE'`).
    Byte,
    /// UTF-8 encoded characters (`'UTF8_CHAR'`).
    Utf8Char,
}

impl CharUnit {
    /// Parses TensorFlow's `unit` attribute.
    pub fn parse(s: &str) -> Result<CharUnit> {
        match s {
            "BYTE" => Ok(CharUnit::Byte),
            "UTF8_CHAR" => Ok(CharUnit::Utf8Char),
            other => Err(invalid_arg!(
                "unit must be 'BYTE' or 'UTF8_CHAR', not '{other}'"
            )),
        }
    }
}

/// True for the continuation bytes of a UTF-8 sequence.
#[inline]
fn is_trail_byte(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Number of UTF-8 characters (bytes that do not continue a sequence), as TensorFlow counts.
fn utf8_len(s: &[u8]) -> usize {
    s.iter().filter(|&&b| !is_trail_byte(b)).count()
}

/// `tf.strings.length`: the length of every string, in bytes or UTF-8 characters (int32).
pub fn length(a: &Array, unit: CharUnit) -> Result<Array> {
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.length")?;
        let lens: Vec<i32> = match unit {
            CharUnit::Byte => col.iter().map(|s| s.len() as i32).collect(),
            CharUnit::Utf8Char => col.iter().map(|s| utf8_len(s) as i32).collect(),
        };
        Ok(same_shape(t, Buffer::from(lens)))
    })
}

/// Which letters a case mapping touches (`encoding=`).
fn case_map(a: &Array, encoding: &str, upper: bool) -> Result<Array> {
    let op = if upper {
        "tf.strings.upper"
    } else {
        "tf.strings.lower"
    };
    let unicode = match encoding.to_ascii_lowercase().as_str() {
        "" => false,
        "utf-8" | "utf8" => true,
        other => {
            return Err(invalid_arg!(
                "{op}: encoding must be '' (ASCII only) or 'utf-8', not '{other}'"
            ))
        }
    };
    map_values(a, |t| {
        let col = str_col(t, op)?;
        let mut out = StringBuf::try_with_capacity(op, col.len(), col.bytes().len())?;
        for (i, s) in col.iter().enumerate() {
            if !unicode {
                out.push_with(|w| {
                    for &b in s {
                        w.byte(if upper {
                            b.to_ascii_uppercase()
                        } else {
                            b.to_ascii_lowercase()
                        });
                    }
                });
                continue;
            }
            let text = std::str::from_utf8(s).map_err(|e| {
                invalid_arg!(
                    "{op}: element {i} is not valid UTF-8 (at byte {})",
                    e.valid_up_to()
                )
            })?;
            out.push_with(|w| {
                let mut buf = [0u8; 4];
                for c in text.chars() {
                    if upper {
                        for u in c.to_uppercase() {
                            w.bytes(u.encode_utf8(&mut buf).as_bytes());
                        }
                    } else {
                        for l in c.to_lowercase() {
                            w.bytes(l.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                }
            });
        }
        Ok(same_shape(t, Buffer::Str(out)))
    })
}

/// `tf.strings.upper`: ASCII letters (all letters with `encoding='utf-8'`) in upper case.
pub fn upper(a: &Array, encoding: &str) -> Result<Array> {
    case_map(a, encoding, true)
}

/// `tf.strings.lower`: ASCII letters (all letters with `encoding='utf-8'`) in lower case.
pub fn lower(a: &Array, encoding: &str) -> Result<Array> {
    case_map(a, encoding, false)
}

/// `tf.strings.strip`: every string without leading and trailing ASCII whitespace.
pub fn strip(a: &Array) -> Result<Array> {
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.strip")?;
        let mut out =
            StringBuf::try_with_capacity("tf.strings.strip", col.len(), col.bytes().len())?;
        for s in col.iter() {
            out.push(s.trim_ascii());
        }
        Ok(same_shape(t, Buffer::Str(out)))
    })
}

/// `tf.strings.to_hash_bucket_fast`: FarmHash Fingerprint64 of each string's bytes modulo
/// `num_buckets` (int64) — the same buckets TensorFlow assigns.
pub fn to_hash_bucket_fast(a: &Array, num_buckets: i64) -> Result<Array> {
    if num_buckets < 1 {
        return Err(invalid_arg!(
            "num_buckets must be at least 1, but is {num_buckets}"
        ));
    }
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.to_hash_bucket_fast")?;
        let buckets: Vec<i64> = col
            .iter()
            .map(|s| (farmhash2::fingerprint64(s) % num_buckets as u64) as i64)
            .collect();
        Ok(same_shape(t, Buffer::from(buckets)))
    })
}

/// `tf.strings.substr`: `len` units of each string starting at `pos`. `pos` and `len`
/// broadcast with the input; a negative `pos` counts from the end, and a `pos` outside
/// `-n..=n` (n = the string's length) is an error. Lengths past the end are clipped.
pub fn substr(input: &Array, pos: &Array, len: &Array, unit: CharUnit) -> Result<Array> {
    if let (Array::Dense(p), Array::Dense(l)) = (pos, len) {
        if p.shape() != l.shape() {
            return Err(invalid_arg!(
                "pos and len must have the same shape, but pos has shape {} and len {}",
                dense_shape_str(p.shape()),
                dense_shape_str(l.shape())
            ));
        }
    }
    let col = str_col(input.flat_values(), "tf.strings.substr")?;
    let pos_v = int_values(pos.flat_values(), "pos")?;
    let len_v = int_values(len.flat_values(), "len")?;
    if pos_v.is_empty() || len_v.is_empty() {
        return Err(invalid_arg!("pos and len must not be empty"));
    }
    let b = broadcast_all(&[input, pos, len])?;
    let n = b.len();
    let longest = col.iter().map(<[u8]>::len).max().unwrap_or(0);
    budget::check_bytes("tf.strings.substr", size::mul(longest, n)? as u128)?;
    let mut out = StringBuf::try_with_capacity("tf.strings.substr", n, 0)?;
    for i in 0..n {
        let s = col.get(b.pos[0].at(i));
        let (p, l) = (pos_v[b.pos[1].at(i)], len_v[b.pos[2].at(i)]);
        let range = match unit {
            CharUnit::Byte => byte_range(s, p, l),
            CharUnit::Utf8Char => utf8_range(s, p, l),
        };
        let Some((start, end)) = range else {
            let size = match unit {
                CharUnit::Byte => s.len(),
                CharUnit::Utf8Char => utf8_len(s),
            };
            let what = if unit == CharUnit::Byte {
                "bytes"
            } else {
                "characters"
            };
            return Err(invalid_arg!(
                "substr: pos {p} is out of range for the string b'{}' ({size} {what}) at flat index {i}",
                s.escape_ascii()
            )
            .with_hint(format!("pos must lie in -{size}..={size} for this string")));
        };
        out.push(&s[start..end]);
    }
    b.build(Buffer::Str(out))
}

/// The byte range of `substr(s, pos, len)` in bytes; a negative `len` reaches the end,
/// as TensorFlow's unsigned length does.
fn byte_range(s: &[u8], pos: i64, len: i64) -> Option<(usize, usize)> {
    let n = s.len() as i64;
    let start = if pos < 0 { pos + n } else { pos };
    if !(0..=n).contains(&start) {
        return None;
    }
    let end = if len < 0 {
        n
    } else {
        start.saturating_add(len).min(n)
    };
    Some((start as usize, end as usize))
}

/// Moves `at` forward `count` characters; true when all of them existed.
fn forward_chars(s: &[u8], count: i64, at: &mut usize) -> bool {
    let mut moved = 0;
    while moved < count && *at < s.len() {
        *at += 1;
        while *at < s.len() && is_trail_byte(s[*at]) {
            *at += 1;
        }
        moved += 1;
    }
    moved == count
}

/// Moves `at` back `count` characters; true when all of them existed.
fn back_chars(s: &[u8], count: i64, at: &mut usize) -> bool {
    let mut moved = 0;
    while moved < count && *at > 0 {
        *at -= 1;
        while *at > 0 && is_trail_byte(s[*at]) {
            *at -= 1;
        }
        moved += 1;
    }
    moved == count
}

/// The byte range of `substr(s, pos, len)` counted in UTF-8 characters, following
/// TensorFlow's kernel step by step (including its treatment of negative lengths).
fn utf8_range(s: &[u8], pos: i64, len: i64) -> Option<(usize, usize)> {
    if pos >= 0 {
        let mut start = 0;
        if !forward_chars(s, pos, &mut start) {
            return None;
        }
        let mut end = start;
        forward_chars(s, len, &mut end);
        return Some((start, end));
    }
    // Find the end first (skipping the characters after the substring), then the start.
    let skip = (-pos).saturating_sub(len).max(0);
    let mut end = s.len();
    if !back_chars(s, skip, &mut end) {
        return None;
    }
    let mut start = end;
    if !back_chars(s, -pos - skip, &mut start) {
        return None;
    }
    Some((start, end))
}
