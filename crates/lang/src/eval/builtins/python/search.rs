//! `find`, `rfind`, `index` and `rindex`, written once for str, bytes and bytearray: each
//! type says where `sub` is in the window its arguments name (`Search::locate`) and what
//! `index` raises when it is not there.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// A type the four searches work on.
pub(super) trait Search {
    /// The ValueError message of `index` and `rindex` when `sub` is not there.
    const MISSING: &'static str;
    /// The position of `sub` (the first occurrence, or the last when `last`) in the window
    /// of `self` between `start` and `end`, in the type's units; `None` when it is not there.
    fn locate(a: &Args, last: bool) -> Result<Option<usize>>;
}

fn position(p: usize) -> Value {
    Value::Int(p as i64)
}

fn missing<S: Search>(a: &Args) -> Error {
    Error::new(ExceptionClass::ValueError, S::MISSING).at(a.call)
}

/// `find`: the first position, or -1.
pub(super) fn find<S: Search>(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(S::locate(a, false)?.map_or(Value::Int(-1), position))
}

/// `rfind`: the last position, or -1.
pub(super) fn rfind<S: Search>(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(S::locate(a, true)?.map_or(Value::Int(-1), position))
}

/// `index`: the first position, or a ValueError.
pub(super) fn index<S: Search>(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    S::locate(a, false)?
        .map(position)
        .ok_or_else(|| missing::<S>(a))
}

/// `rindex`: the last position, or a ValueError.
pub(super) fn rindex<S: Search>(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    S::locate(a, true)?
        .map(position)
        .ok_or_else(|| missing::<S>(a))
}
