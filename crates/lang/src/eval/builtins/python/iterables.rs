//! Python builtins over iterables: `dict`.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;

pub(super) fn dict(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = crate::value::PyDict::new(Vec::new()).map_err(|e| a.err_at("pairs", e))?;
    if let Some(source) = a.get("pairs") {
        // An instance is read as a mapping (its `keys()` and items) or as pairs.
        let pairs = match source {
            Value::Instance(_) => super::user_collections::pairs(it, source, a.span("pairs"))?,
            _ => super::containers::pairs_of(source).map_err(|e| e.at(a.span("pairs")))?,
        };
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
