//! The `.npy` header: the magic string, the version, and the Python dict literal that gives
//! the dtype (`descr`), the order and the shape — read from untrusted bytes without panics,
//! and written as NumPy writes it.

use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;

/// The first six bytes of every `.npy` file.
pub const MAGIC: &[u8] = b"\x93NUMPY";

/// NumPy pads the magic, version, length and dict to a multiple of 64 bytes so that the data
/// that follows is aligned for memory mapping (numpy/lib/format.py, ARRAY_ALIGN).
const ALIGN: usize = 64;

/// Python literals deeper than this are not headers NumPy writes; refusing them keeps the
/// parser's recursion bounded on hostile input.
const MAX_DEPTH: usize = 16;

/// A parsed header.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The dtype's type string (`<i8`, `|S5`, `<U3`).
    pub descr: String,
    /// True when the data is stored column-major.
    pub fortran_order: bool,
    /// The array's dimensions.
    pub shape: Vec<u64>,
}

/// A ValueError about the file `name`: the message says what is wrong with it.
pub fn corrupt(name: &str, what: impl std::fmt::Display) -> Error {
    Error::new(
        ExceptionClass::ValueError,
        format!("'{name}' is not a valid .npy file: {what}"),
    )
}

/// Reads the header at the start of `bytes`; returns it and the offset of the data.
pub fn read(bytes: &[u8], name: &str) -> Result<(Header, usize)> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(corrupt(name, "it does not start with NumPy's magic string"));
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (len, start) = match major {
        1 => (
            usize::from(u16::from_le_bytes([bytes[8], bytes[9]])),
            10usize,
        ),
        2 | 3 if bytes.len() >= 12 => {
            let n = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
            (usize::try_from(n).unwrap_or(usize::MAX), 12)
        }
        2 | 3 => return Err(corrupt(name, "the header is cut short")),
        _ => {
            return Err(corrupt(
                name,
                format!("format version {major}.{minor} is not one NumPy writes (1.0, 2.0, 3.0)"),
            ))
        }
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| corrupt(name, "the header is cut short"))?;
    let text = std::str::from_utf8(&bytes[start..end])
        .map_err(|_| corrupt(name, "the header is not text"))?;
    let header = parse_dict(text).map_err(|why| corrupt(name, why))?;
    Ok((header, end))
}

/// A Python literal as headers use them.
#[derive(Debug, Clone, PartialEq)]
enum Lit {
    Str(String),
    Int(u64),
    Bool(bool),
    Seq(Vec<Lit>),
    Dict(Vec<(Lit, Lit)>),
}

fn parse_dict(text: &str) -> std::result::Result<Header, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    let lit = p.value(0)?;
    p.skip_ws();
    if p.at != p.s.len() {
        return Err("the header has text after its dict".into());
    }
    let Lit::Dict(entries) = lit else {
        return Err("the header is not a dict".into());
    };
    let get = |key: &str| {
        entries
            .iter()
            .find(|(k, _)| matches!(k, Lit::Str(s) if s == key))
            .map(|(_, v)| v)
            .ok_or_else(|| format!("the header has no '{key}'"))
    };
    let descr = match get("descr")? {
        Lit::Str(s) => s.clone(),
        Lit::Seq(_) => {
            return Err("structured arrays (a dtype with fields) are not supported".into())
        }
        _ => return Err("'descr' is not a string".into()),
    };
    let fortran_order = match get("fortran_order")? {
        Lit::Bool(b) => *b,
        _ => return Err("'fortran_order' is not True or False".into()),
    };
    let shape = match get("shape")? {
        Lit::Seq(dims) => dims
            .iter()
            .map(|d| match d {
                Lit::Int(n) => Ok(*n),
                _ => Err("the shape holds something other than an int".to_string()),
            })
            .collect::<std::result::Result<Vec<u64>, String>>()?,
        _ => return Err("'shape' is not a tuple".into()),
    };
    Ok(Header {
        descr,
        fortran_order,
        shape,
    })
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }
    fn value(&mut self, depth: usize) -> std::result::Result<Lit, String> {
        if depth > MAX_DEPTH {
            return Err("the header nests too deeply".into());
        }
        match self.peek() {
            Some(b'{') => {
                self.at += 1;
                let mut entries = Vec::new();
                loop {
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        return Ok(Lit::Dict(entries));
                    }
                    let key = self.value(depth + 1)?;
                    if self.peek() != Some(b':') {
                        return Err("a key in the header has no ':'".into());
                    }
                    self.at += 1;
                    let value = self.value(depth + 1)?;
                    entries.push((key, value));
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {}
                        _ => return Err("the header's dict is not closed".into()),
                    }
                }
            }
            Some(open @ (b'(' | b'[')) => {
                let close = if open == b'(' { b')' } else { b']' };
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    if self.peek() == Some(close) {
                        self.at += 1;
                        return Ok(Lit::Seq(items));
                    }
                    items.push(self.value(depth + 1)?);
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(c) if c == close => {}
                        _ => return Err("a tuple in the header is not closed".into()),
                    }
                }
            }
            Some(q @ (b'\'' | b'"')) => {
                self.at += 1;
                let start = self.at;
                while self.s.get(self.at).is_some_and(|&c| c != q) {
                    self.at += 1;
                }
                if self.at >= self.s.len() {
                    return Err("a string in the header is not closed".into());
                }
                let text = String::from_utf8_lossy(&self.s[start..self.at]).into_owned();
                self.at += 1;
                Ok(Lit::Str(text))
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.at;
                while self.s.get(self.at).is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                // A trailing L is how Python 2 wrote longs in old files.
                let digits = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
                if self.s.get(self.at) == Some(&b'L') {
                    self.at += 1;
                }
                digits
                    .parse()
                    .map(Lit::Int)
                    .map_err(|_| format!("the dimension {digits} is too large"))
            }
            Some(_) => {
                for (word, lit) in [("True", Lit::Bool(true)), ("False", Lit::Bool(false))] {
                    if self.s[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(lit);
                    }
                }
                Err("the header holds something that is not a Python literal".into())
            }
            None => Err("the header ends early".into()),
        }
    }
}

/// The header bytes for an array of this dtype string, order and shape, padded so that the
/// data starts on a 64-byte boundary (version 1.0 unless the header is too long for it).
pub fn write(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}");
    let (version, prefix) = if dict.len() + 11 < usize::from(u16::MAX) {
        (1u8, 10)
    } else {
        (2u8, 12)
    };
    // The dict, spaces, then a newline, so that prefix + header is a multiple of ALIGN.
    let total = (prefix + dict.len() + 1).div_ceil(ALIGN) * ALIGN;
    let header_len = total - prefix;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header_len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header_len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', total - 1 - out.len()));
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_header_reads_back_and_aligns_the_data() {
        for shape in [vec![], vec![3], vec![2, 3, 4]] {
            let bytes = write("<i8", &shape);
            assert_eq!(bytes.len() % ALIGN, 0);
            let (h, at) = read(&bytes, "x.npy").unwrap();
            assert_eq!(at, bytes.len());
            assert_eq!(h.descr, "<i8");
            assert!(!h.fortran_order);
            assert_eq!(h.shape, shape.iter().map(|&d| d as u64).collect::<Vec<_>>());
        }
    }

    #[test]
    fn numpy_s_own_header_text_parses() {
        let h =
            parse_dict("{'descr': '>f4', 'fortran_order': True, 'shape': (2L, 3), }   \n").unwrap();
        assert_eq!(h.descr, ">f4");
        assert!(h.fortran_order);
        assert_eq!(h.shape, vec![2, 3]);
    }

    #[test]
    fn broken_headers_are_errors() {
        let deep: String = std::iter::repeat_n('(', 100).collect();
        for text in [
            "",
            "{",
            "{'descr': '<i8'}",
            "{'descr': '<i8', 'fortran_order': 1, 'shape': ()}",
            "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': ()}",
            "{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
            &deep,
        ] {
            assert!(parse_dict(text).is_err(), "{text}");
        }
    }
}
