//! What a Parquet file's page headers claim, read before the parquet crate decodes a page.
//!
//! The crate trusts a page header: it reserves the page's declared uncompressed size before
//! decompressing it (up to 2 GiB a page), and a dictionary decoder reserves its declared
//! entry count. A file whose headers lie would take memory past the session's budget before
//! anything failed. So the reader walks the page headers of every column chunk it is about
//! to decode (seeking over the page bodies), refuses what no honest file holds — a page
//! running past its chunk, a dictionary with more entries than its bytes can hold — and adds
//! up what the decode will hold, for the budget check before decoding.
//!
//! Page headers are Thrift structs in the compact protocol; only the sizes and counts are
//! kept, everything else (statistics included) is skipped.

use std::io::{Read, Seek, SeekFrom};

/// The most bytes a page header may take; longer ones (huge statistics) are refused.
const MAX_HEADER: usize = 16 << 20;

/// What the headers of one column chunk claim.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Claims {
    /// The bytes the crate reserves to hold the pages uncompressed.
    pub page_bytes: u128,
    /// The values (levels) the data pages hold.
    pub values: u128,
    /// The entries of the dictionary page.
    pub entries: u128,
}

impl Claims {
    /// The bytes decoding the chunk holds at once, at least: the pages uncompressed, a
    /// definition level (2 bytes) per value, and a dictionary's index (8 bytes per entry:
    /// an offset and a key).
    pub fn bytes(&self) -> u128 {
        self.page_bytes + 2 * self.values + 8 * self.entries
    }
}

/// What one page header says.
#[derive(Debug, Default, PartialEq)]
struct Header {
    kind: i64,
    uncompressed: i64,
    compressed: i64,
    /// The data page's (v1 or v2) value count, or the dictionary page's entry count.
    values: i64,
    /// The header's own length in bytes.
    len: usize,
}

/// Walks the pages of the column chunk at `start..start + len` of `file`. An error is a
/// sentence saying what is wrong with the chunk.
pub fn scan<F: Read + Seek>(file: &mut F, start: i64, len: i64) -> Result<Claims, String> {
    let (Ok(start), Ok(len)) = (u64::try_from(start), u64::try_from(len)) else {
        return Err(format!(
            "a column chunk starts at byte {start} and takes {len} bytes"
        ));
    };
    let file_len = file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    let end = start
        .checked_add(len)
        .filter(|&e| e <= file_len)
        .ok_or_else(|| {
            format!(
                "a column chunk of {len} bytes at byte {start} runs past the end of the file \
             ({file_len} bytes)"
            )
        })?;
    let mut claims = Claims::default();
    let mut pos = start;
    let mut buf = Vec::new();
    while pos < end {
        if ragtag_engine::interrupt::requested() {
            return Err("interrupted".to_string());
        }
        let header = read_header(file, pos, end, &mut buf)?;
        let (Ok(uncompressed), Ok(compressed)) = (
            u64::try_from(header.uncompressed),
            u64::try_from(header.compressed),
        ) else {
            return Err(format!(
                "a page at byte {pos} claims a negative size ({} compressed, {} uncompressed)",
                header.compressed, header.uncompressed
            ));
        };
        let body = pos + header.len as u64;
        if body.checked_add(compressed).is_none_or(|e| e > end) {
            return Err(format!(
                "a page at byte {pos} claims {compressed} bytes, past the end of its column chunk (byte {end})"
            ));
        }
        let values = u64::try_from(header.values)
            .map_err(|_| format!("a page at byte {pos} claims {} values", header.values))?;
        // A dictionary entry takes at least a bit of the page (a PLAIN boolean), so an honest
        // dictionary holds at most 8 entries a byte.
        if header.kind == DICTIONARY_PAGE && values > uncompressed.saturating_mul(8).max(8) {
            return Err(format!(
                "the dictionary page at byte {pos} claims {values} entries in {uncompressed} bytes"
            ));
        }
        claims.page_bytes += u128::from(uncompressed);
        if header.kind == DICTIONARY_PAGE {
            claims.entries += u128::from(values);
        } else {
            claims.values += u128::from(values);
        }
        pos = body + compressed;
    }
    Ok(claims)
}

/// A dictionary page's type number.
const DICTIONARY_PAGE: i64 = 2;

/// Reads the page header at `pos` (not past `end`), reading more of the file into `buf`
/// while the header is longer than what was read.
fn read_header<F: Read + Seek>(
    file: &mut F,
    pos: u64,
    end: u64,
    buf: &mut Vec<u8>,
) -> Result<Header, String> {
    let mut want = 256usize;
    loop {
        let avail = usize::try_from(end - pos).unwrap_or(usize::MAX);
        let n = want.min(avail);
        buf.clear();
        file.seek(SeekFrom::Start(pos)).map_err(|e| e.to_string())?;
        file.by_ref()
            .take(n as u64)
            .read_to_end(buf)
            .map_err(|e| e.to_string())?;
        let mut r = Compact { data: buf, pos: 0 };
        match r.page_header() {
            Ok(mut h) => {
                h.len = r.pos;
                return Ok(h);
            }
            Err(Short) if n < avail && want < MAX_HEADER => want *= 16,
            Err(Short) => {
                return Err(format!(
                    "the page header at byte {pos} is cut off or longer than {MAX_HEADER} bytes"
                ))
            }
        }
    }
}

/// The header ran past the bytes read (or is malformed in a way that reads as that).
#[derive(Debug)]
struct Short;

/// A reader of Thrift's compact protocol over bytes.
struct Compact<'a> {
    data: &'a [u8],
    pos: usize,
}

/// Thrift compact type numbers.
const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;

/// How deep skipped values may nest (a hostile header cannot recurse without bound).
const MAX_DEPTH: usize = 64;

impl Compact<'_> {
    fn byte(&mut self) -> Result<u8, Short> {
        let b = *self.data.get(self.pos).ok_or(Short)?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, Short> {
        let mut out = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            out |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(out);
            }
        }
        Err(Short)
    }

    fn zigzag(&mut self) -> Result<i64, Short> {
        let n = self.varint()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }

    fn skip_bytes(&mut self, n: u64) -> Result<(), Short> {
        let n = usize::try_from(n).map_err(|_| Short)?;
        self.pos = self
            .pos
            .checked_add(n)
            .filter(|&p| p <= self.data.len())
            .ok_or(Short)?;
        Ok(())
    }

    /// Reads a struct's fields, handing each (id, type) to `field`, which reads or skips it.
    fn fields(
        &mut self,
        mut field: impl FnMut(&mut Self, i16, u8) -> Result<(), Short>,
    ) -> Result<(), Short> {
        let mut last: i16 = 0;
        loop {
            let head = self.byte()?;
            if head == 0 {
                return Ok(());
            }
            let (delta, kind) = (head >> 4, head & 0x0f);
            let id = if delta == 0 {
                i16::try_from(self.zigzag()?).map_err(|_| Short)?
            } else {
                last.checked_add(i16::from(delta)).ok_or(Short)?
            };
            last = id;
            field(self, id, kind)?;
        }
    }

    /// An integer field, whatever its width.
    fn int(&mut self, kind: u8) -> Result<i64, Short> {
        match kind {
            BYTE => Ok(i64::from(self.byte()? as i8)),
            I16 | I32 | I64 => self.zigzag(),
            _ => Err(Short),
        }
    }

    fn skip(&mut self, kind: u8, depth: usize) -> Result<(), Short> {
        if depth > MAX_DEPTH {
            return Err(Short);
        }
        match kind {
            BOOL_TRUE | BOOL_FALSE => Ok(()),
            BYTE => self.byte().map(drop),
            I16 | I32 | I64 => self.varint().map(drop),
            DOUBLE => self.skip_bytes(8),
            BINARY => {
                let n = self.varint()?;
                self.skip_bytes(n)
            }
            LIST | SET => {
                let head = self.byte()?;
                let elem = head & 0x0f;
                let n = match head >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                for _ in 0..n {
                    // In a collection a bool takes a byte.
                    if matches!(elem, BOOL_TRUE | BOOL_FALSE) {
                        self.byte()?;
                    } else {
                        self.skip(elem, depth + 1)?;
                    }
                }
                Ok(())
            }
            MAP => {
                let n = self.varint()?;
                if n == 0 {
                    return Ok(());
                }
                let types = self.byte()?;
                for _ in 0..n {
                    for t in [types >> 4, types & 0x0f] {
                        if matches!(t, BOOL_TRUE | BOOL_FALSE) {
                            self.byte()?;
                        } else {
                            self.skip(t, depth + 1)?;
                        }
                    }
                }
                Ok(())
            }
            STRUCT => self.fields(|r, _, k| r.skip(k, depth + 1)),
            _ => Err(Short),
        }
    }

    /// The value count (field 1) of a data page header (v1 or v2) or dictionary page header.
    fn count(&mut self) -> Result<i64, Short> {
        let mut values = 0;
        self.fields(|r, id, kind| match (id, kind) {
            (1, I16 | I32 | I64 | BYTE) => {
                values = r.int(kind)?;
                Ok(())
            }
            _ => r.skip(kind, 1),
        })?;
        Ok(values)
    }

    fn page_header(&mut self) -> Result<Header, Short> {
        let mut h = Header::default();
        self.fields(|r, id, kind| {
            match (id, kind) {
                (1, I16 | I32 | I64 | BYTE) => h.kind = r.int(kind)?,
                (2, I16 | I32 | I64 | BYTE) => h.uncompressed = r.int(kind)?,
                (3, I16 | I32 | I64 | BYTE) => h.compressed = r.int(kind)?,
                (5 | 7 | 8, STRUCT) => h.values = r.count()?,
                _ => r.skip(kind, 0)?,
            }
            Ok(())
        })?;
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page header as the compact protocol writes it: type, sizes, then the page's own
    /// header (field `sub`) holding a value count, with a statistics struct to skip.
    fn header(kind: u8, uncompressed: u64, compressed: u64, sub: u8, values: u64) -> Vec<u8> {
        fn zz(n: u64) -> Vec<u8> {
            let mut n = n << 1;
            let mut out = Vec::new();
            loop {
                let b = (n & 0x7f) as u8;
                n >>= 7;
                if n == 0 {
                    out.push(b);
                    return out;
                }
                out.push(b | 0x80);
            }
        }
        let mut h = vec![0x15];
        h.extend(zz(u64::from(kind)));
        h.push(0x15);
        h.extend(zz(uncompressed));
        h.push(0x15);
        h.extend(zz(compressed));
        h.push(((sub - 3) << 4) | STRUCT);
        h.push(0x15);
        h.extend(zz(values));
        // Field 5 of the page's header: a statistics struct with a binary max.
        h.extend([0x4c, 0x18, 3, b'a', b'b', b'c', 0]);
        h.extend([0, 0]);
        h
    }

    #[test]
    fn sizes_and_counts_are_read_and_statistics_skipped() {
        let mut file = header(0, 40, 4, 5, 10);
        file.extend([0u8; 4]);
        let mut dict = header(2, 16, 2, 7, 3);
        dict.extend([0u8; 2]);
        let start = file.len() as i64;
        file.extend(&dict);
        let mut c = std::io::Cursor::new(file.clone());
        assert_eq!(
            scan(&mut c, 0, file.len() as i64),
            Ok(Claims {
                page_bytes: 56,
                values: 10,
                entries: 3
            })
        );
        assert_eq!(
            scan(&mut c, start, dict.len() as i64).unwrap().page_bytes,
            16
        );
    }

    #[test]
    fn lies_are_refused() {
        let dict = header(2, 4, 0, 7, 1 << 31);
        let n = dict.len() as i64;
        let e = scan(&mut std::io::Cursor::new(dict), 0, n).unwrap_err();
        assert!(e.contains("claims 2147483648 entries in 4 bytes"), "{e}");
        let bytes = header(0, 4, 1000, 5, 1);
        let n = bytes.len() as i64;
        let e = scan(&mut std::io::Cursor::new(bytes), 0, n).unwrap_err();
        assert!(e.contains("past the end of its column chunk"), "{e}");
        let e = scan(&mut std::io::Cursor::new([0u8; 8]), -5, 3).unwrap_err();
        assert!(e.contains("starts at byte -5"), "{e}");
        let e = scan(&mut std::io::Cursor::new([0u8; 8]), 4, 100).unwrap_err();
        assert!(e.contains("past the end of the file"), "{e}");
        // A header cut off by its chunk's end.
        let e = scan(&mut std::io::Cursor::new(vec![0x15, 0x80]), 0, 2).unwrap_err();
        assert!(e.contains("cut off"), "{e}");
    }
}
