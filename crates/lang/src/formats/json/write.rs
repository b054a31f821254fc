//! Tensors written as JSON: nested arrays of numbers, bools and strings, streamed to the
//! file. Floats are written with the fewest digits that read back to the same float32 or
//! float64; NaN and infinities (which JSON has no spelling for) and bytes that are not
//! UTF-8 are ValueErrors naming the file.

use std::io::Write;
use std::path::Path;

use crate::diagnostic::{Error, Result};
use crate::formats::fs;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{Array, Buffer, Ragged};

struct Emitter<'a, W: Write> {
    w: W,
    path: &'a Path,
}

impl<W: Write> Emitter<'_, W> {
    fn raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.w
            .write_all(bytes)
            .map_err(|e| fs::io_error(&e, self.path))
    }

    fn float(&mut self, v: f64, text: String) -> Result<()> {
        if !v.is_finite() {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "writing '{}': {v} is not a JSON number",
                    self.path.display()
                ),
            )
            .with_hint("JSON has no NaN or infinity: replace them first, e.g. tf.where(tf.math.is_finite(x), x, 0.0)"));
        }
        self.raw(text.as_bytes())
    }

    fn scalar(&mut self, buf: &Buffer, i: usize) -> Result<()> {
        match buf {
            Buffer::Bool(v) => self.raw(if v[i] { b"true" } else { b"false" }),
            // 16-bit floats as their exact float64 value, which reads back as the same one.
            Buffer::F16(v) => self.float(v[i].to_f64(), format!("{:?}", v[i].to_f64())),
            Buffer::BF16(v) => self.float(v[i].to_f64(), format!("{:?}", v[i].to_f64())),
            // Debug gives the shortest digits that round-trip, always with a `.` or an
            // exponent, so the value reads back as a float.
            Buffer::F32(v) => self.float(f64::from(v[i]), format!("{:?}", v[i])),
            Buffer::F64(v) => self.float(v[i], format!("{:?}", v[i])),
            Buffer::Str(s) => {
                let text = std::str::from_utf8(s.get(i)).map_err(|_| {
                    Error::new(
                        ExceptionClass::ValueError,
                        format!(
                            "writing '{}': the string {:?} is not UTF-8 text, which JSON strings must be",
                            self.path.display(),
                            String::from_utf8_lossy(s.get(i))
                        ),
                    )
                    .with_hint("decode or drop binary strings first (tf.strings.unicode_transcode, or tf.io.encode_base64)")
                })?;
                let quoted = serde_json::to_string(text).unwrap_or_default();
                self.raw(quoted.as_bytes())
            }
            d => ragtag_engine::dispatch!(ints d, v => self.raw(v[i].to_string().as_bytes()),
                _ => unreachable!("every other dtype has its arm")),
        }
    }

    /// The dense block of `shape` starting at element `offset` of `buf`.
    fn dense(&mut self, buf: &Buffer, shape: &[usize], offset: usize) -> Result<()> {
        let Some((&n, rest)) = shape.split_first() else {
            return self.scalar(buf, offset);
        };
        let stride: usize = rest.iter().product();
        self.raw(b"[")?;
        for i in 0..n {
            if i > 0 {
                self.raw(b", ")?;
            }
            self.dense(buf, rest, offset + i * stride)?;
        }
        self.raw(b"]")
    }

    /// Item `i` at partition level `level` of a ragged tensor.
    fn item(&mut self, r: &Ragged, level: usize, i: usize) -> Result<()> {
        match r.partitions().get(level) {
            Some(p) => {
                let (start, end) = p.row_range(i);
                self.raw(b"[")?;
                for j in start..end {
                    if j > start {
                        self.raw(b", ")?;
                    }
                    self.item(r, level + 1, j)?;
                }
                self.raw(b"]")
            }
            None => {
                let flat = r.flat_values();
                let inner = &flat.shape()[1..];
                self.dense(flat.data(), inner, i * flat.row_size())
            }
        }
    }

    /// Row `i` of a tensor of rank at least 1.
    fn row(&mut self, a: &Array, i: usize) -> Result<()> {
        match a {
            Array::Dense(t) => self.dense(t.data(), &t.shape()[1..], i * t.row_size()),
            Array::Ragged(r) => self.item(r, 0, i),
        }
    }

    fn array(&mut self, a: &Array) -> Result<()> {
        match a {
            Array::Dense(t) => self.dense(t.data(), t.shape(), 0),
            Array::Ragged(r) => {
                self.raw(b"[")?;
                for i in 0..r.nrows() {
                    if i > 0 {
                        self.raw(b", ")?;
                    }
                    self.item(r, 0, i)?;
                }
                self.raw(b"]")
            }
        }
    }

    fn finish(mut self) -> Result<()> {
        self.w.flush().map_err(|e| fs::io_error(&e, self.path))
    }
}

/// `ragtag.write_json(x, path)`: the whole value as one JSON document (nested arrays).
pub fn write_json(path: &Path, a: &Array) -> Result<()> {
    fs::replace_with(path, |w| {
        let mut out = Emitter { w, path };
        out.array(a)?;
        out.raw(b"\n")?;
        out.finish()
    })
}

/// `ragtag.write_jsonl(x, path, field=)`: one row per line, bare or as `{"field": row}`.
pub fn write_jsonl(path: &Path, a: &Array, field: Option<&str>) -> Result<()> {
    if a.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "write_jsonl writes one row per line, but a scalar has no rows",
        )
        .with_hint("write a scalar with ragtag.write_json"));
    }
    let prefix = field.map(|f| format!("{{{}: ", serde_json::to_string(f).unwrap_or_default()));
    fs::replace_with(path, |w| {
        let mut out = Emitter { w, path };
        for i in 0..a.nrows() {
            if let Some(p) = &prefix {
                out.raw(p.as_bytes())?;
            }
            out.row(a, i)?;
            out.raw(if prefix.is_some() { b"}\n" } else { b"\n" })?;
        }
        out.finish()
    })
}

/// A dense tensor as JSON text, for tests.
#[cfg(test)]
pub fn dense_text(t: &ragtag_engine::Tensor) -> String {
    let mut out = Emitter {
        w: Vec::new(),
        path: Path::new("test"),
    };
    out.dense(t.data(), t.shape(), 0).unwrap();
    String::from_utf8(out.w).unwrap()
}
