//! The methods only a bytearray has, which change it in place: `append`, `extend`, `pop`,
//! `insert`, `remove`, `clear`, `reverse`, and `copy`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::bytes::{byte_of, data};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The methods that change a bytearray in place.
pub static BYTEARRAY_METHODS: &[Builtin] = &[
    Builtin::method("bytearray.append", "(self, item)", append)
        .doc("Adds one byte (an int in 0..256) at the end.")
        .examples(&["b = bytearray(b'a')\nb.append(98)\nb"]),
    Builtin::method("bytearray.extend", "(self, iterable_of_ints)", extend)
        .doc("Adds the bytes of a bytes-like value or an iterable of ints at the end.")
        .examples(&["b = bytearray(b'a')\nb.extend(b'bc')\nb"]),
    Builtin::method("bytearray.pop", "(self, index=-1)", pop)
        .doc("Removes the byte at `index` (the last by default) and returns it as an int.")
        .examples(&["bytearray(b'ab').pop()"]),
    Builtin::method("bytearray.insert", "(self, index, item)", insert)
        .doc("Inserts one byte before position `index`.")
        .examples(&["b = bytearray(b'ac')\nb.insert(1, 98)\nb"]),
    Builtin::method("bytearray.remove", "(self, value)", remove)
        .doc("Removes the first byte equal to `value`; a ValueError when there is none.")
        .examples(&["b = bytearray(b'aba')\nb.remove(97)\nb"]),
    Builtin::method("bytearray.clear", "(self)", clear)
        .doc("Removes every byte.")
        .examples(&["b = bytearray(b'ab')\nb.clear()\nb"]),
    Builtin::method("bytearray.reverse", "(self)", reverse)
        .doc("Reverses the bytes in place.")
        .examples(&["b = bytearray(b'ab')\nb.reverse()\nb"]),
    Builtin::method("bytearray.copy", "(self)", copy)
        .doc("A new bytearray with the same bytes.")
        .examples(&["bytearray(b'ab').copy()"]),
];

/// Runs `f` on the receiver bytearray's bytes.
fn change<R>(a: &Args, f: impl FnOnce(&mut Vec<u8>) -> R) -> Option<R> {
    match a.value("self") {
        Value::ByteArray(b) => Some(b.with_mut(f)),
        _ => None,
    }
}

fn append(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let c = byte_of(a.value("item")).map_err(|e| a.err_at("item", e))?;
    change(a, |d| d.push(c));
    Ok(Value::None)
}

fn extend(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("iterable_of_ints");
    let more = match data(v) {
        Some(d) => d,
        None => {
            if matches!(v, Value::Str(_)) {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "expected iterable of integers; got: 'str'",
                )
                .at(a.span("iterable_of_ints")));
            }
            it.iterate_value(v, a.span("iterable_of_ints"))?
                .iter()
                .map(byte_of)
                .collect::<std::result::Result<_, _>>()
                .map_err(|e| a.err_at("iterable_of_ints", e))?
        }
    };
    change(a, |d| d.extend(more));
    Ok(Value::None)
}

fn pop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = a.opt_int("index")?.unwrap_or(-1);
    let r = change(a, |d| {
        if d.is_empty() {
            return Err("pop from empty bytearray");
        }
        let n = d.len() as i64;
        let p = if i < 0 { i + n } else { i };
        if p < 0 || p >= n {
            return Err("pop index out of range");
        }
        Ok(d.remove(p as usize))
    });
    match r {
        Some(Ok(c)) => Ok(Value::Int(i64::from(c))),
        Some(Err(m)) => Err(Error::new(ExceptionClass::IndexError, m).at(a.call)),
        None => Ok(Value::None),
    }
}

fn insert(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = a.int("index")?;
    let c = byte_of(a.value("item")).map_err(|e| a.err_at("item", e))?;
    change(a, |d| {
        let n = d.len() as i64;
        let p = if i < 0 { (i + n).max(0) } else { i.min(n) };
        d.insert(p as usize, c);
    });
    Ok(Value::None)
}

fn remove(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let c = byte_of(a.value("value")).map_err(|e| a.err_at("value", e))?;
    let ok = change(a, |d| match d.iter().position(|&x| x == c) {
        Some(p) => {
            d.remove(p);
            true
        }
        None => false,
    });
    if ok == Some(false) {
        return Err(
            Error::new(ExceptionClass::ValueError, "value not found in bytearray").at(a.call),
        );
    }
    Ok(Value::None)
}

fn clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    change(a, Vec::clear);
    Ok(Value::None)
}

fn reverse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    change(a, |d| d.reverse());
    Ok(Value::None)
}

fn copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::bytearray(data(a.value("self")).unwrap_or_default()))
}
