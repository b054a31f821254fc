//! Python builtins over iterables: `zip`, `enumerate`, `sum` and `dict`.

use super::items_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

pub(super) fn zip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lists: Vec<Vec<Value>> = a
        .rest()
        .iter()
        .map(|(v, s)| iterate(v).map_err(|e| Error::from(e).at(*s)))
        .collect::<Result<_>>()?;
    let n = lists.iter().map(|l| l.len()).min().unwrap_or(0);
    if a.flag("strict", false)? {
        if let Some(k) = lists.iter().position(|l| l.len() != lists[0].len()) {
            let shorter = if lists[k].len() < lists[0].len() {
                "shorter"
            } else {
                "longer"
            };
            // CPython names the first argument whose length differs from the first's.
            let msg = if k == 1 {
                format!("zip() argument 2 is {shorter} than argument 1")
            } else {
                format!("zip() argument {} is {shorter} than arguments 1-{k}", k + 1)
            };
            return Err(Error::new(ExceptionClass::ValueError, msg).at(a.call));
        }
    }
    Ok(Value::list(
        (0..n)
            .map(|i| Value::tuple(lists.iter().map(|l| l[i].clone()).collect()))
            .collect(),
    ))
}

pub(super) fn enumerate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let start = a.opt_int("start")?.unwrap_or(0);
    Ok(Value::list(
        items_of(a, "iterable")?
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::tuple(vec![Value::Int(start + i as i64), v]))
            .collect(),
    ))
}

pub(super) fn sum(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut acc = a.get("start").cloned().unwrap_or(Value::Int(0));
    for v in super::items_in(it, a, "iterable")? {
        if matches!(acc, Value::Instance(_)) || matches!(v, Value::Instance(_)) {
            acc = it.add_values(&acc, &v, a.span("iterable"))?;
            continue;
        }
        acc = crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Add, &acc, &v)
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(acc)
}

pub(super) fn dict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = crate::value::PyDict::new(Vec::new()).map_err(|e| a.err_at("pairs", e))?;
    if let Some(source) = a.get("pairs") {
        let pairs = super::containers::pairs_of(source).map_err(|e| e.at(a.span("pairs")))?;
        for (k, v) in pairs {
            out.insert(k, v).map_err(|e| a.err_at("pairs", e))?;
        }
    }
    for (k, v, at) in a.kwargs() {
        out.insert(Value::str(k), v.clone())
            .map_err(|e| Error::from(e).at(*at))?;
    }
    Ok(Value::Dict(out))
}
