//! Changing a bytearray in place by position: `b[i] = 65`, `b[1:3] = b'xy'`, `del b[0]`,
//! `del b[::2]`, with CPython's errors.

use super::items::{position, Sub};
use crate::diagnostic::{Error, Result};
use crate::eval::operators::bytes::{byte_of, data};
use crate::value::{PyByteArray, Value};
use ragtag_engine::tensor::slice_positions;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

/// The bytes a value assigned to a slice stands for: bytes-like, or an iterable of ints.
fn bytes_of(v: &Value, span: Span) -> Result<Vec<u8>> {
    if let Some(d) = data(v) {
        return Ok(d);
    }
    if matches!(v, Value::Str(_)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "can assign only bytes, buffers, or iterables of ints in range(0, 256)",
        )
        .at(span));
    }
    let items = super::subscript::iterate(v).map_err(|_| {
        Error::new(
            ExceptionClass::TypeError,
            "can assign only bytes, buffers, or iterables of ints in range(0, 256)",
        )
        .at(span)
    })?;
    items
        .iter()
        .map(|x| byte_of(x).map_err(|e| Error::from(e).at(span)))
        .collect()
}

/// `b[sub] = v` for a bytearray.
pub fn set_item(obj: &Value, arr: &PyByteArray, sub: Sub, v: Value, span: Span) -> Result<()> {
    match sub {
        Sub::Key(k, at) => {
            let p = position(obj, &k, at, arr.len(), "assignment ")?;
            let byte = match &v {
                Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => {
                    byte_of(&v).map_err(|e| Error::from(e).at(span))?
                }
                other => return Err(Error::not_an_integer(other.type_name()).at(span)),
            };
            arr.with_mut(|d| d[p] = byte);
            Ok(())
        }
        Sub::Slice(a, b, c) => {
            let new = bytes_of(&v, span)?;
            let n = arr.len();
            let step = c.unwrap_or(1);
            let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
            if step == 1 {
                let start = match pos.first() {
                    Some(&p) => p,
                    None => match a {
                        None => 0,
                        Some(i) if i < 0 => (n as i64 + i).max(0) as usize,
                        Some(i) => (i as usize).min(n),
                    },
                };
                let end = start + pos.len();
                arr.with_mut(|d| {
                    d.splice(start..end, new);
                });
                return Ok(());
            }
            if pos.len() != new.len() {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "attempt to assign bytes of size {} to extended slice of size {}",
                        new.len(),
                        pos.len()
                    ),
                )
                .at(span));
            }
            arr.with_mut(|d| {
                for (p, x) in pos.into_iter().zip(new) {
                    d[p] = x;
                }
            });
            Ok(())
        }
    }
}

/// `del b[sub]` for a bytearray.
pub fn del_item(obj: &Value, arr: &PyByteArray, sub: Sub, span: Span) -> Result<()> {
    match sub {
        Sub::Key(k, at) => {
            let p = position(obj, &k, at, arr.len(), "assignment ")?;
            arr.with_mut(|d| {
                d.remove(p);
            });
            Ok(())
        }
        Sub::Slice(a, b, c) => {
            let n = arr.len();
            let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
            let mut drop = ragtag_engine::budget::vec::<bool>("del", n)
                .map_err(|e| Error::from(e).at(span))?;
            drop.extend((0..n).map(|_| false));
            for p in pos {
                drop[p] = true;
            }
            arr.with_mut(|d| {
                let mut k = 0;
                d.retain(|_| {
                    k += 1;
                    !drop[k - 1]
                });
            });
            Ok(())
        }
    }
}
