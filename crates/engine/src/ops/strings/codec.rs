//! `tf.io.encode_base64` / `decode_base64` (the web-safe alphabet, `-` and `_`, padding
//! optional on input), `tf.fingerprint` (FarmHash Fingerprint64, eight little-endian bytes a
//! row) and `tf.io.decode_raw` (each string's bytes as numbers).

use super::{map_values, same_shape, str_col};
use crate::budget;
use crate::strings::StringBuf;
use crate::{invalid_arg, Array, Buffer, DType, Result, Tensor};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Web-safe base64 of `b`, with `=` padding when `pad`.
pub fn base64_encode(b: &[u8], pad: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in b.chunks(3) {
        let n = chunk.len();
        let v = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= n {
                out.push(ALPHABET[((v >> (18 - 6 * k)) & 63) as usize]);
            } else if pad {
                out.push(b'=');
            }
        }
    }
    out
}

/// The bytes web-safe base64 text spells, with TensorFlow's errors.
pub fn base64_decode(text: &[u8]) -> Result<Vec<u8>> {
    let mut body = text;
    // Padding is optional, but only as much as completes the last group.
    let pads = body.iter().rev().take_while(|&&c| c == b'=').count();
    if pads > 0 {
        if !body.len().is_multiple_of(4) || pads > 2 {
            return Err(invalid_arg!("Invalid character found in base64."));
        }
        body = &body[..body.len() - pads];
    }
    if body.len() % 4 == 1 {
        return Err(invalid_arg!("Base64 string length cannot be 1 modulo 4."));
    }
    let mut out = Vec::new();
    for chunk in body.chunks(4) {
        let mut v: u32 = 0;
        for &c in chunk {
            let d = ALPHABET
                .iter()
                .position(|&a| a == c)
                .ok_or_else(|| invalid_arg!("Invalid character found in base64."))?;
            v = (v << 6) | d as u32;
        }
        v <<= 6 * (4 - chunk.len() as u32);
        for k in 0..chunk.len() - 1 {
            out.push((v >> (16 - 8 * k)) as u8);
        }
    }
    Ok(out)
}

/// Applies `f` to every string of a string tensor (dense or ragged).
fn map_strings(a: &Array, op: &str, f: impl Fn(&[u8]) -> Result<Vec<u8>>) -> Result<Array> {
    map_values(a, |t| {
        let col = str_col(t, op)?;
        let mut out = StringBuf::try_with_capacity(op, col.len(), col.bytes().len())?;
        for s in col.iter() {
            out.push(&f(s)?);
        }
        Ok(same_shape(t, Buffer::Str(out)))
    })
}

/// `tf.io.encode_base64`.
pub fn encode_base64(a: &Array, pad: bool) -> Result<Array> {
    map_strings(a, "tf.io.encode_base64", |s| Ok(base64_encode(s, pad)))
}

/// `tf.io.decode_base64`.
pub fn decode_base64(a: &Array) -> Result<Array> {
    map_strings(a, "tf.io.decode_base64", base64_decode)
}

/// `tf.fingerprint(data)`: for each row of `data` (its first dimension) the FarmHash
/// Fingerprint64 of the row, as eight little-endian uint8 bytes: a string row of one string
/// hashes the string and a numeric row hashes its elements' little-endian bytes (string rows of several strings,
/// which TensorFlow combines, are not supported yet).
pub fn fingerprint(t: &Tensor, method: &str) -> Result<Tensor> {
    if method != "farmhash64" {
        return Err(invalid_arg!("Unsupported fingerprint method: {method}"));
    }
    let Some(&n) = t.shape().first() else {
        return Err(invalid_arg!(
            "`data` should have at least one dimension: []"
        ));
    };
    let per_row: usize = t.shape()[1..].iter().product();
    let mut out = budget::vec::<u8>("tf.fingerprint", n.saturating_mul(8))?;
    match t.data() {
        Buffer::Str(s) => {
            // A row of several strings hashes the concatenation of their fingerprints'
            // little-endian bytes, as TensorFlow's FingerprintOp does.
            let mut row = budget::vec::<u8>("tf.fingerprint", per_row.saturating_mul(8))?;
            for r in 0..n {
                if per_row == 1 {
                    out.extend(farmhash2::fingerprint64(s.get(r)).to_le_bytes());
                    continue;
                }
                row.clear();
                for j in 0..per_row {
                    row.extend(farmhash2::fingerprint64(s.get(r * per_row + j)).to_le_bytes());
                }
                out.extend(farmhash2::fingerprint64(&row).to_le_bytes());
            }
        }
        data => {
            let raw = le_bytes(data)?;
            let width = raw.len().checked_div(n).unwrap_or(0);
            for r in 0..n {
                out.extend(
                    farmhash2::fingerprint64(&raw[r * width..(r + 1) * width]).to_le_bytes(),
                );
            }
        }
    }
    Ok(Tensor::from_parts(vec![n, 8], Buffer::from(out)))
}

/// The elements of a numeric buffer as little-endian bytes (what TensorFlow hashes).
fn le_bytes(data: &Buffer) -> Result<Vec<u8>> {
    fn flat<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
        v.iter().flat_map(|&x| f(x)).collect()
    }
    Ok(match data {
        Buffer::Bool(v) => v.iter().map(|&b| b as u8).collect(),
        Buffer::I8(v) => flat(v, i8::to_le_bytes),
        Buffer::I16(v) => flat(v, i16::to_le_bytes),
        Buffer::I32(v) => flat(v, i32::to_le_bytes),
        Buffer::I64(v) => flat(v, i64::to_le_bytes),
        Buffer::U8(v) => v.to_vec(),
        Buffer::U16(v) => flat(v, u16::to_le_bytes),
        Buffer::U32(v) => flat(v, u32::to_le_bytes),
        Buffer::U64(v) => flat(v, u64::to_le_bytes),
        Buffer::F32(v) => flat(v, f32::to_le_bytes),
        Buffer::F64(v) => flat(v, f64::to_le_bytes),
        other => {
            return Err(invalid_arg!(
                "tf.fingerprint does not take {} tensors in ragtag",
                other.dtype()
            ))
        }
    })
}

/// `tf.io.decode_raw(input_bytes, out_type, little_endian, fixed_length)`: each string's
/// bytes read as elements of `out_type`, one more dimension than the input.
pub fn decode_raw(
    t: &Tensor,
    out_type: DType,
    little_endian: bool,
    fixed_length: Option<usize>,
) -> Result<Tensor> {
    let col = str_col(t, "tf.io.decode_raw")?;
    let width = match out_type {
        DType::UInt8 | DType::Int8 | DType::Bool => 1,
        DType::Int16 | DType::UInt16 => 2,
        DType::Int32 | DType::Float32 => 4,
        DType::Int64 | DType::Float64 => 8,
        other => {
            return Err(invalid_arg!(
                "Value for attr 'out_type' of {other} is not in the list of allowed values: half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, complex128, bool, bfloat16"
            ))
        }
    };
    let c_name = match out_type {
        DType::Float32 => "float".to_string(),
        DType::Float64 => "double".to_string(),
        other => other.name().to_string(),
    };
    let len = match fixed_length {
        Some(f) => {
            if f % width != 0 {
                return Err(invalid_arg!(
                    "fixed_length ({f}) must be a multiple of the size of out_type ({width})"
                ));
            }
            f
        }
        None => {
            let first = if col.is_empty() { 0 } else { col.get(0).len() };
            if first % width != 0 {
                return Err(invalid_arg!(
                    "Input to DecodeRaw has length {first} that is not a multiple of {width}, the size of {c_name}"
                ));
            }
            for i in 1..col.len() {
                if col.get(i).len() != first {
                    return Err(invalid_arg!(
                        "DecodeRaw requires input strings to all be the same size, but element {i} has size {} != {first}",
                        col.get(i).len()
                    ));
                }
            }
            first
        }
    };
    let mut bytes = budget::vec::<u8>("tf.io.decode_raw", col.len().saturating_mul(len))?;
    for s in col.iter() {
        let mut row = s[..s.len().min(len)].to_vec();
        // At most `fixed_length` bytes, counted in `bytes` against the budget above.
        #[allow(clippy::disallowed_methods)]
        row.resize(len, 0);
        if !little_endian {
            for el in row.chunks_mut(width) {
                el.reverse();
            }
        }
        bytes.extend(row);
    }
    let count = len / width;
    let mut shape = t.shape().to_vec();
    shape.push(count);
    let le = |c: &[u8], k: usize| {
        let mut b = [0u8; 8];
        b[..k].copy_from_slice(c);
        b
    };
    let chunks = bytes.chunks(width);
    let data = match out_type {
        DType::UInt8 => Buffer::from(bytes.clone()),
        DType::Int8 => Buffer::from(chunks.map(|c| c[0] as i8).collect::<Vec<_>>()),
        DType::Bool => Buffer::from(chunks.map(|c| c[0] != 0).collect::<Vec<_>>()),
        DType::Int16 => Buffer::from(
            chunks
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        ),
        DType::UInt16 => Buffer::from(
            chunks
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        ),
        DType::Int32 => Buffer::from(
            chunks
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect::<Vec<_>>(),
        ),
        DType::Float32 => Buffer::from(
            chunks
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect::<Vec<_>>(),
        ),
        DType::Int64 => Buffer::from(
            chunks
                .map(|c| i64::from_le_bytes(le(c, 8)))
                .collect::<Vec<_>>(),
        ),
        _ => Buffer::from(
            chunks
                .map(|c| f64::from_le_bytes(le(c, 8)))
                .collect::<Vec<_>>(),
        ),
    };
    Ok(Tensor::from_parts(shape, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_with_tensorflows_alphabet() {
        assert_eq!(base64_encode(b"hello", false), b"aGVsbG8");
        assert_eq!(base64_encode(b"hello", true), b"aGVsbG8=");
        assert_eq!(base64_encode(b"a?>", false), b"YT8-");
        assert_eq!(base64_decode(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode(b"YT8-").unwrap(), b"a?>");
        assert!(base64_decode(b"a").is_err());
        assert!(base64_decode(b"YT8+").is_err());
        assert!(base64_decode(b"aGVsbG8==").is_err());
    }

    #[test]
    fn fingerprints_match_tensorflow() {
        let t = Tensor::from_parts(
            vec![2],
            Buffer::Str(StringBuf::from_strs(["hello", "world"])),
        );
        let f = fingerprint(&t, "farmhash64").unwrap();
        let Buffer::U8(b) = f.data() else { panic!() };
        assert_eq!(&b[..8], &[232, 12, 56, 49, 169, 229, 139, 180]);
        assert_eq!(&b[8..], &[110, 180, 184, 94, 67, 84, 26, 228]);
    }
}
