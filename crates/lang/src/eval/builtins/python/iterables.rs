//! Python builtins over iterables: `zip`, `enumerate`, `sum`, `min`, `max`, `sorted` and
//! `dict`.

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

pub(super) fn sum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut acc = a.get("start").cloned().unwrap_or(Value::Int(0));
    for v in items_of(a, "iterable")? {
        acc = crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Add, &acc, &v)
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(acc)
}

fn extreme(a: &Args, want_max: bool) -> Result<Value> {
    let items: Vec<Value> = if a.rest().len() == 1 {
        iterate(&a.rest()[0].0).map_err(|e| Error::from(e).at(a.rest()[0].1))?
    } else {
        a.rest().iter().map(|(v, _)| v.clone()).collect()
    };
    let mut best: Option<Value> = None;
    for v in items {
        best = Some(match best {
            None => v,
            Some(b) => {
                let op = if want_max {
                    ragtag_syntax::ast::BinOp::Gt
                } else {
                    ragtag_syntax::ast::BinOp::Lt
                };
                let better = crate::eval::operators::binary(op, &v, &b)
                    .and_then(|r| r.truthy())
                    .map_err(|e| Error::from(e).at(a.call))?;
                if better {
                    v
                } else {
                    b
                }
            }
        });
    }
    best.ok_or_else(|| {
        Error::new(ExceptionClass::ValueError, "arg is an empty sequence").at(a.call)
    })
}

pub(super) fn min(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, false)
}

pub(super) fn max(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, true)
}

pub(super) fn sorted(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut items = items_of(a, "iterable")?;
    let mut err = None;
    items.sort_by(|x, y| {
        match crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Lt, x, y)
            .and_then(|r| r.truthy())
        {
            Ok(true) => std::cmp::Ordering::Less,
            Ok(false) => match crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Lt, y, x)
                .and_then(|r| r.truthy())
            {
                Ok(true) => std::cmp::Ordering::Greater,
                _ => std::cmp::Ordering::Equal,
            },
            Err(e) => {
                err = Some(e);
                std::cmp::Ordering::Equal
            }
        }
    });
    if let Some(e) = err {
        return Err(a.err_at("iterable", e));
    }
    Ok(Value::list(items))
}

pub(super) fn dict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = crate::value::PyDict::new(Vec::new()).map_err(|e| a.err_at("pairs", e))?;
    for item in items_of(a, "pairs")? {
        let kv = iterate(&item).map_err(|e| a.err_at("pairs", e))?;
        if kv.len() != 2 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "dictionary update sequence element has the wrong length",
            )
            .at(a.span("pairs")));
        }
        out.insert(kv[0].clone(), kv[1].clone())
            .map_err(|e| a.err_at("pairs", e))?;
    }
    Ok(Value::Dict(out))
}
