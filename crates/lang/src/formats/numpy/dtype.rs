//! NumPy's type strings (`<i8`, `>f4`, `|S5`, `<U3`) mapped onto ragtag's dtypes: elements
//! decoded from either byte order into engine buffers, and engine buffers encoded back.
//!
//! Every NumPy bool, int, uint and float type of 1 to 8 bytes reads as the dtype of its own
//! name, and writes back as the same type string; bfloat16 has no NumPy type string, and the
//! other NumPy types (complex, datetime, …) are a TypeError naming the NumPy dtype.

use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, f16, Buffer, DType, StringBuf, Tensor};

use super::header::corrupt;

/// The element kinds ragtag reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `b1`.
    Bool,
    /// `i1`, `i2`, `i4`, `i8`.
    Int,
    /// `u1`, `u2`, `u4`, `u8`.
    Uint,
    /// `f2`, `f4`, `f8`.
    Float,
    /// `U<n>`: n UTF-32 code points, NUL-padded.
    Unicode,
    /// `S<n>`: n bytes, NUL-padded.
    Bytes,
}

/// A parsed type string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NpType {
    /// What the elements are.
    pub kind: Kind,
    /// The size field: bytes for numbers and `S`, code points for `U`.
    pub size: usize,
    /// True for big-endian data.
    pub big: bool,
}

impl NpType {
    /// Bytes per element (None when that overflows).
    pub fn item_bytes(&self) -> Option<usize> {
        match self.kind {
            Kind::Unicode => self.size.checked_mul(4),
            _ => Some(self.size),
        }
    }
}

/// NumPy's name for a type string ragtag cannot hold, for the TypeError.
fn numpy_name(code: char, size: &str) -> String {
    match (code, size) {
        ('f', "12" | "16") => "longdouble".into(),
        ('c', "8") => "complex64".into(),
        ('c', "16") => "complex128".into(),
        ('c', _) => "clongdouble".into(),
        ('M', _) => "datetime64".into(),
        ('m', _) => "timedelta64".into(),
        ('V', _) => "void".into(),
        ('i', n) => format!("int{}", n.parse::<usize>().unwrap_or(0) * 8),
        ('u', n) => format!("uint{}", n.parse::<usize>().unwrap_or(0) * 8),
        ('f', n) => format!("float{}", n.parse::<usize>().unwrap_or(0) * 8),
        (c, n) => format!("'{c}{n}'"),
    }
}

/// Parses a `.npy` header's `descr` for the file `name`.
pub fn parse(descr: &str, name: &str) -> Result<NpType> {
    let mut chars = descr.chars().peekable();
    let big = match chars.peek() {
        Some('>') => true,
        Some('=') => cfg!(target_endian = "big"),
        _ => false,
    };
    if matches!(chars.peek(), Some('<' | '>' | '|' | '=')) {
        chars.next();
    }
    let code = chars.next().unwrap_or(' ');
    let rest: String = chars.collect();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if code == 'O' {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("'{name}' holds an object array, which NumPy stores as a pickle"),
        )
        .with_hint("ragtag does not unpickle (allow_pickle is not supported): save numbers or strings, e.g. np.save(path, arr.astype(str)), or ragged rows as values + row_splits with np.savez"));
    }
    let size: usize = digits.parse().map_err(|_| {
        corrupt(
            name,
            format!("its dtype '{descr}' is not a NumPy type string"),
        )
    })?;
    let unsupported = || {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "'{name}' holds {} values (dtype '{descr}'), which ragtag has no dtype for",
                numpy_name(code, &digits)
            ),
        )
        .with_hint("ragtag reads bool, int8–int64, uint8–uint64, float16–float64 and str/bytes arrays: convert with arr.astype(...) in NumPy before saving")
    };
    let kind = match (code, size, rest.len() == digits.len()) {
        ('b', 1, true) => Kind::Bool,
        ('i', 1 | 2 | 4 | 8, true) => Kind::Int,
        ('u', 1 | 2 | 4 | 8, true) => Kind::Uint,
        ('f', 2 | 4 | 8, true) => Kind::Float,
        ('U', _, true) => Kind::Unicode,
        ('S' | 'a', _, true) => Kind::Bytes,
        _ => return Err(unsupported()),
    };
    Ok(NpType { kind, size, big })
}

/// The first `N` bytes of `c` in little-endian order.
fn le<const N: usize>(c: &[u8], big: bool) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&c[..N]);
    if big {
        a.reverse();
    }
    a
}

/// `n` elements of `size` bytes each, converted by `f`, into a budgeted vector.
fn collect<T>(
    what: &str,
    data: &[u8],
    n: usize,
    size: usize,
    f: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>> {
    let mut out = budget::vec(what, n)?;
    out.extend(data.chunks_exact(size).take(n).map(f));
    Ok(out)
}

/// Decodes `n` elements of type `ty` from `data` (which holds at least their bytes).
pub fn decode(ty: NpType, data: &[u8], n: usize, name: &str) -> Result<Buffer> {
    let what = format!("reading '{name}'");
    let what = what.as_str();
    let big = ty.big;
    if n > 0 && ty.size == 0 {
        // `S0`/`U0`: every element is the empty string.
        return Ok(Buffer::Str(StringBuf::try_repeat(what, b"", n)?));
    }
    let size = ty.item_bytes().unwrap_or(usize::MAX).max(1);
    // A number type: its little- or big-endian bytes, one element each.
    macro_rules! read {
        ($t:ty) => {
            Buffer::from(if big {
                collect(what, data, n, std::mem::size_of::<$t>(), |c| {
                    <$t>::from_be_bytes(c.try_into().expect("chunks of the element's size"))
                })?
            } else {
                // Without a test per element, the loop compiles to a plain copy.
                collect(what, data, n, std::mem::size_of::<$t>(), |c| {
                    <$t>::from_le_bytes(c.try_into().expect("chunks of the element's size"))
                })?
            })
        };
    }
    Ok(match (ty.kind, ty.size) {
        (Kind::Bool, _) => Buffer::Bool(collect(what, data, n, 1, |c| c[0] != 0)?.into()),
        (Kind::Int, 1) => read!(i8),
        (Kind::Int, 2) => read!(i16),
        (Kind::Int, 4) => read!(i32),
        (Kind::Int, _) => read!(i64),
        (Kind::Uint, 1) => read!(u8),
        (Kind::Uint, 2) => read!(u16),
        (Kind::Uint, 4) => read!(u32),
        (Kind::Uint, _) => read!(u64),
        (Kind::Float, 2) => read!(f16),
        (Kind::Float, 4) => read!(f32),
        (Kind::Float, _) => read!(f64),
        (Kind::Bytes, _) => {
            let mut out = StringBuf::try_with_capacity(what, n, n.saturating_mul(size))?;
            for c in data.chunks_exact(size).take(n) {
                let end = c.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
                out.push(&c[..end]);
            }
            Buffer::Str(out)
        }
        (Kind::Unicode, _) => {
            let mut out = StringBuf::try_with_capacity(what, n, n.saturating_mul(size))?;
            let mut text = String::new();
            for c in data.chunks_exact(size).take(n) {
                text.clear();
                let points = c.chunks_exact(4).map(|p| u32::from_le_bytes(le(p, big)));
                let len = points.clone().rposition(|p| p != 0).map_or(0, |i| i + 1);
                for p in points.take(len) {
                    let ch = char::from_u32(p).ok_or_else(|| {
                        Error::new(
                            ExceptionClass::ValueError,
                            format!("'{name}' holds the code point {p:#x}, which is not a Unicode character"),
                        )
                    })?;
                    text.push(ch);
                }
                out.push(text.as_bytes());
            }
            Buffer::Str(out)
        }
    })
}

/// Reorders a column-major (Fortran) buffer of `shape` into row-major order.
pub fn from_fortran(buf: Buffer, shape: &[usize], name: &str) -> Result<Buffer> {
    if shape.len() < 2 || buf.len() < 2 {
        return Ok(buf);
    }
    // Column-major strides: the first axis moves fastest.
    let mut strides = budget::vec(&format!("reading '{name}'"), shape.len())?;
    let mut step = 1usize;
    for &d in shape {
        strides.push(step);
        step = step.saturating_mul(d);
    }
    let mut indices = budget::vec(&format!("reading '{name}'"), buf.len())?;
    let mut index = budget::filled(&format!("reading '{name}'"), 0usize, shape.len())?;
    let mut at = 0usize;
    for _ in 0..buf.len() {
        indices.push(at);
        // Advance the row-major odometer, last axis first.
        for axis in (0..shape.len()).rev() {
            index[axis] += 1;
            at += strides[axis];
            if index[axis] < shape[axis] {
                break;
            }
            at -= strides[axis] * shape[axis];
            index[axis] = 0;
        }
    }
    Ok(buf.gather(&indices))
}

/// NumPy's type string for a tensor and its elements' bytes (little-endian, as NumPy writes
/// on the machines ragtag runs on). Strings are `<U` (NumPy's str) when every one is UTF-8
/// text, else `|S` bytes; each is padded with NULs to the longest.
pub fn encode(t: &Tensor, what: &str) -> Result<(String, Vec<u8>)> {
    let n = t.size();
    let (descr, item) = match t.data() {
        Buffer::Bool(_) => ("|b1".to_string(), 1),
        Buffer::BF16(_) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "bfloat16 has no NumPy type string, so a .npy file cannot hold it",
            )
            .with_hint("cast first: tf.cast(x, tf.float32) keeps every bfloat16 value exactly"))
        }
        Buffer::Str(s) => {
            let texts: Option<Vec<&str>> = s.iter().map(|b| std::str::from_utf8(b).ok()).collect();
            match texts {
                Some(texts) => {
                    let width = texts
                        .iter()
                        .map(|t| t.chars().count())
                        .max()
                        .unwrap_or(0)
                        .max(1);
                    (format!("<U{width}"), width.saturating_mul(4))
                }
                None => {
                    let width = s.iter().map(<[u8]>::len).max().unwrap_or(0).max(1);
                    (format!("|S{width}"), width)
                }
            }
        }
        d => (number_descr(d), d.dtype().item_bytes()),
    };
    budget::check(what, n as u128, item)?;
    let mut out = budget::vec(what, n.saturating_mul(item))?;
    match t.data() {
        Buffer::Bool(v) => out.extend(v.iter().map(|&b| u8::from(b))),
        Buffer::Str(_) => {}
        d => ragtag_engine::dispatch!(numbers d, v => {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()))
        }, _ => {}),
    }
    if let Buffer::Str(s) = t.data() {
        if descr.starts_with("<U") {
            let width = item / 4;
            for b in s.iter() {
                let text = std::str::from_utf8(b).unwrap_or("");
                let mut count = 0;
                for ch in text.chars() {
                    out.extend_from_slice(&u32::from(ch).to_le_bytes());
                    count += 1;
                }
                out.extend(std::iter::repeat_n(0u8, (width - count) * 4));
            }
        } else {
            for b in s.iter() {
                out.extend_from_slice(b);
                out.extend(std::iter::repeat_n(0u8, item - b.len()));
            }
        }
    }
    Ok((descr, out))
}

/// NumPy's little-endian type string for a buffer of numbers (`<i8`, `|u1`, `<f4`).
pub fn number_descr(d: &Buffer) -> String {
    let item = d.dtype().item_bytes();
    let order = if item == 1 { '|' } else { '<' };
    let code = if d.dtype().is_signed_int() {
        'i'
    } else if d.dtype().is_unsigned() {
        'u'
    } else {
        'f'
    };
    format!("{order}{code}{item}")
}

/// The engine dtype a NumPy type reads as.
pub fn engine_dtype(ty: NpType) -> DType {
    match (ty.kind, ty.size) {
        (Kind::Bool, _) => DType::Bool,
        (Kind::Int, 1) => DType::Int8,
        (Kind::Int, 2) => DType::Int16,
        (Kind::Int, 4) => DType::Int32,
        (Kind::Int, _) => DType::Int64,
        (Kind::Uint, 1) => DType::UInt8,
        (Kind::Uint, 2) => DType::UInt16,
        (Kind::Uint, 4) => DType::UInt32,
        (Kind::Uint, _) => DType::UInt64,
        (Kind::Float, 2) => DType::Float16,
        (Kind::Float, 4) => DType::Float32,
        (Kind::Float, _) => DType::Float64,
        (Kind::Unicode | Kind::Bytes, _) => DType::String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_type_reads_as_its_own_dtype_and_writes_back() {
        for descr in [
            "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8",
        ] {
            let ty = parse(descr, "x.npy").unwrap();
            let bytes: Vec<u8> = (0..ty.size as u8 * 2).collect();
            let buf = decode(ty, &bytes, 2, "x.npy").unwrap();
            assert_eq!(buf.dtype(), engine_dtype(ty), "{descr}");
            let t = Tensor::new(vec![2], buf).unwrap();
            let (written, data) = encode(&t, "writing").unwrap();
            assert_eq!((written.as_str(), data), (descr, bytes), "{descr}");
        }
        // Half precision decodes exactly: 1.0, -2.0 and the largest finite float16.
        let ty = parse(">f2", "x.npy").unwrap();
        let buf = decode(ty, &[0x3c, 0x00, 0xc0, 0x00, 0x7b, 0xff], 3, "x.npy").unwrap();
        assert_eq!(
            buf,
            Buffer::from(vec![f16::ONE, f16::from_f32(-2.0), f16::MAX])
        );
    }

    #[test]
    fn type_strings_parse_or_name_the_numpy_dtype() {
        let t = parse(">i2", "x.npy").unwrap();
        assert_eq!((t.kind, t.size, t.big), (Kind::Int, 2, true));
        assert_eq!(parse("<U7", "x.npy").unwrap().item_bytes(), Some(28));
        let err = parse("<c16", "x.npy").unwrap_err();
        assert_eq!(err.class, ExceptionClass::TypeError);
        assert!(err.message.contains("complex128"), "{}", err.message);
        let err = parse("<M8[ns]", "x.npy").unwrap_err();
        assert!(err.message.contains("datetime64"), "{}", err.message);
        assert_eq!(
            parse("|O", "x.npy").unwrap_err().class,
            ExceptionClass::ValueError
        );
    }

    #[test]
    fn fortran_order_reorders_to_rows() {
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        let buf = Buffer::I64(vec![1i64, 4, 2, 5, 3, 6].into());
        let rows = from_fortran(buf, &[2, 3], "x.npy").unwrap();
        assert_eq!(rows, Buffer::I64(vec![1i64, 2, 3, 4, 5, 6].into()));
    }
}
