//! `tf.nn.embedding_lookup_sparse` and `tf.nn.safe_embedding_lookup_sparse`: each row of
//! sparse (or ragged) ids combines the embeddings it names, weighted or not, by 'sum',
//! 'mean' or 'sqrtn', in the dtype's arithmetic as TensorFlow's segment ops do it.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::ops::cast::cast_buffer;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// The sparse embedding lookups.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.nn.embedding_lookup_sparse", "(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None, allow_fast_lookup=False)", embedding_lookup_sparse)
        .doc("For each row of sp_ids (a 2-D SparseTensor or RaggedTensor of ids into params' rows), the embeddings of its ids combined: 'sum', 'mean' (the default; weighted mean with sp_weights) or 'sqrtn' (sum over the square root of the summed squared weights). sp_weights (same structure, or None for weight 1) scales each embedding; max_norm clips each embedding's L2 norm first. The result has one row per row up to the last row holding ids.")
        .examples(&[
            "params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\nids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 2, 1], [2, 2])\ntf.nn.embedding_lookup_sparse(params, ids, None, combiner='sum')",
            "params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\ntf.nn.embedding_lookup_sparse(params, tf.ragged.constant([[0, 2], [1]]), tf.ragged.constant([[1.0, 3.0], [2.0]]))",
        ]),
    Builtin::function("tf.nn.safe_embedding_lookup_sparse", "(embedding_weights, sparse_ids, sparse_weights=None, combiner='mean', default_id=None, max_norm=None, name=None, allow_fast_lookup=False)", safe_embedding_lookup_sparse)
        .doc("Like embedding_lookup_sparse, but ids below 0 (and, unless combiner='sum', weights of 0 or less) are dropped, and every row gets a result: a row left empty gives the embedding of default_id, or zeros without one. Sparse ids of rank above 2 give results shaped by their leading dimensions.")
        .examples(&["params = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nids = tf.SparseTensor([[0, 0], [2, 0]], [1, -1], [3, 1])\ntf.nn.safe_embedding_lookup_sparse(params, ids)"]),
];

fn fail(class: ExceptionClass, a: &Args, name: &str, msg: String) -> Error {
    Error::new(class, msg).at(a.span(name))
}

/// The parts of sparse or ragged ids (or weights): the row of each entry, its value, and
/// the rows in all and the leading shape (rank > 2 sparse ids flatten to rows).
struct Entries {
    rows: Vec<i64>,
    values: Tensor,
    nrows: usize,
    lead: Vec<i64>,
}

fn entries(a: &Args, name: &str, what: &str) -> Result<Entries> {
    match a.value(name) {
        Value::Sparse(s) => {
            let rank = s.rank();
            if rank < 2 {
                return Err(fail(
                    ExceptionClass::ValueError,
                    a,
                    name,
                    format!("{what} must have rank 2 or more, got {rank}"),
                ));
            }
            let shape = s.dense_shape();
            let lead = shape[..rank - 1].to_vec();
            let mut rows = Vec::new();
            for i in 0..s.nnz() {
                let idx = s.index(i);
                let mut r = 0i64;
                for (d, &x) in idx[..rank - 1].iter().enumerate() {
                    r = r * shape[d] + x;
                }
                rows.push(r);
            }
            let nrows = lead.iter().product::<i64>().max(0) as usize;
            Ok(Entries {
                rows,
                values: s.values().clone(),
                nrows,
                lead,
            })
        }
        Value::Array(arr) => match &**arr {
            Array::Ragged(r) if r.ragged_rank() == 1 && r.flat_values().rank() == 1 => {
                let p = r.outer();
                Ok(Entries {
                    rows: p.value_rowids().to_vec(),
                    values: r.flat_values().clone(),
                    nrows: p.nrows(),
                    lead: vec![p.nrows() as i64],
                })
            }
            _ => Err(fail(
                ExceptionClass::TypeError,
                a,
                name,
                format!(
                    "{what} must be SparseTensor, got {}",
                    type_of(a.value(name))
                ),
            )),
        },
        other => Err(fail(
            ExceptionClass::TypeError,
            a,
            name,
            format!("{what} must be SparseTensor, got {}", type_of(other)),
        )),
    }
}

fn type_of(v: &Value) -> String {
    format!("<class '{}'>", v.type_name())
}

fn ids_of(a: &Args, name: &str, t: &Tensor) -> Result<Vec<i64>> {
    t.data()
        .to_i64_vec()
        .filter(|_| t.dtype().is_int())
        .ok_or_else(|| {
            fail(
                ExceptionClass::TypeError,
                a,
                name,
                format!("ids must be integers, not {}", t.dtype()),
            )
        })
}

/// The params table (a tensor, or a list holding one) as a float tensor of rank 1 or more.
fn params_of(a: &Args, name: &str, dtype: Option<DType>) -> Result<Tensor> {
    let v = match a.value(name) {
        Value::List(l) if l.items().len() == 1 => l.items()[0].clone(),
        Value::List(_) | Value::Tuple(_) => {
            return Err(fail(
                ExceptionClass::ValueError,
                a,
                name,
                "ragtag looks up embeddings in one params tensor, not a list of partitions".into(),
            ))
        }
        v => v.clone(),
    };
    let arr = convert::to_array(&v, dtype).map_err(|e| a.err_at(name, e))?;
    match &*arr {
        Array::Dense(t) if t.rank() >= 1 => Ok(t.clone()),
        _ => Err(fail(
            ExceptionClass::ValueError,
            a,
            name,
            "params must be a dense tensor of rank 1 or more".into(),
        )),
    }
}

fn combiner_of(a: &Args, default: &str) -> Result<String> {
    let c = match a.get("combiner") {
        None | Some(Value::None) => default.to_string(),
        Some(_) => a.opt_str("combiner")?.unwrap_or_default(),
    };
    if !matches!(c.as_str(), "mean" | "sqrtn" | "sum") {
        return Err(fail(
            ExceptionClass::ValueError,
            a,
            "combiner",
            format!("combiner must be one of 'mean', 'sqrtn' or 'sum', got {c}"),
        ));
    }
    Ok(c)
}

fn max_norm_of(a: &Args) -> Result<Option<f64>> {
    match a.get("max_norm") {
        None | Some(Value::None) => Ok(None),
        Some(v) => convert::to_f64(v)
            .map(Some)
            .map_err(|e| a.err_at("max_norm", e)),
    }
}

/// One lookup: `rows[i]` is entry i's output row, `ids[i]` its params row.
struct Lookup<'a> {
    params: &'a Tensor,
    rows: &'a [i64],
    ids: &'a [i64],
    weights: Option<&'a [f64]>,
    combiner: &'a str,
    max_norm: Option<f64>,
    nrows: usize,
}

/// `n` copies of `v`, within the memory budget.
fn filled<T: Clone>(v: T, n: usize) -> std::result::Result<Vec<T>, String> {
    ragtag_engine::budget::filled("tf.nn.embedding_lookup_sparse", v, n).map_err(|e| e.message)
}

/// The combined embeddings in f64 values rounded as `f32` when `single`.
fn combine(l: &Lookup<'_>, single: bool) -> std::result::Result<Vec<f64>, String> {
    let r = |x: f64| if single { x as f32 as f64 } else { x };
    let vocab = l.params.shape()[0];
    let dim: usize = l.params.shape()[1..].iter().product();
    let table = cast_buffer(l.params.data(), DType::Float64)
        .map_err(|e| e.to_string())?
        .to_f64_vec()
        .unwrap_or_default();
    let mut out = filled(0.0f64, l.nrows * dim)?;
    let mut wsum = filled(0.0f64, l.nrows)?;
    let mut count = filled(0usize, l.nrows)?;
    let mut emb = filled(0.0f64, dim)?;
    for (i, (&row, &id)) in l.rows.iter().zip(l.ids).enumerate() {
        if id < 0 || id as usize >= vocab {
            return Err(format!("indices[{i}] = {id} is not in [0, {vocab})"));
        }
        let src = &table[id as usize * dim..(id as usize + 1) * dim];
        emb.copy_from_slice(src);
        if let Some(m) = l.max_norm {
            let m = r(m);
            let l2 = emb.iter().fold(0.0, |s, &x| r(s + r(x * x)));
            let norm = if l2 > 0.0 { r(l2.sqrt()) } else { l2 };
            for x in emb.iter_mut() {
                *x = r(r(*x * m) / norm.max(m));
            }
        }
        let w = l.weights.map(|w| r(w[i]));
        let row = row as usize;
        for (o, &x) in out[row * dim..(row + 1) * dim].iter_mut().zip(&emb) {
            let x = w.map_or(x, |w| r(x * w));
            *o = if count[row] == 0 { x } else { r(*o + x) };
        }
        if let Some(w) = w {
            let w = if l.combiner == "sqrtn" { r(w * w) } else { w };
            wsum[row] = if count[row] == 0 { w } else { r(wsum[row] + w) };
        }
        count[row] += 1;
    }
    if l.combiner != "sum" {
        for (row, chunk) in out.chunks_mut(dim.max(1)).enumerate().take(l.nrows) {
            let div = match (l.weights, l.combiner) {
                (Some(_), "mean") => wsum[row],
                (Some(_), _) => r(wsum[row].sqrt()),
                (None, "mean") => count[row] as f64,
                (None, _) => r((count[row] as f64).sqrt()),
            };
            for x in chunk.iter_mut() {
                *x = if div == 0.0 { 0.0 } else { r(*x / div) };
            }
        }
    }
    Ok(out)
}

fn run(a: &Args, l: &Lookup<'_>, lead: &[i64]) -> Result<Value> {
    let dtype = l.params.dtype();
    if !dtype.is_float() {
        return Err(fail(
            ExceptionClass::TypeError,
            a,
            "params",
            format!("params must be floats, not {}", dtype.name()),
        ));
    }
    let single = dtype != DType::Float64;
    let dim: usize = l.params.shape()[1..].iter().product();
    ragtag_engine::budget::check("tf.nn.embedding_lookup_sparse", (l.nrows * dim) as u128, 8)
        .map_err(|e| a.err_at("params", e))?;
    let out = combine(l, single)
        .map_err(|m| fail(ExceptionClass::InvalidArgumentError, a, "params", m))?;
    let mut shape: Vec<usize> = lead.iter().map(|&d| d.max(0) as usize).collect();
    shape.extend_from_slice(&l.params.shape()[1..]);
    let buf = cast_buffer(&Buffer::from(out), dtype).map_err(|e| a.err_at("params", e))?;
    Ok(Value::tensor(Tensor::from_parts(shape, buf)))
}

fn weights_of(a: &Args, name: &str, ids: &Entries) -> Result<Option<Vec<f64>>> {
    match a.get(name) {
        None | Some(Value::None) => Ok(None),
        Some(_) => {
            let w = entries(a, name, name)?;
            if w.values.size() != ids.values.size() {
                return Err(fail(
                    ExceptionClass::ValueError,
                    a,
                    name,
                    format!(
                        "Shapes ({},) and ({},) are incompatible",
                        ids.values.size(),
                        w.values.size()
                    ),
                ));
            }
            let v = cast_buffer(w.values.data(), DType::Float64).map_err(|e| a.err_at(name, e))?;
            Ok(v.to_f64_vec())
        }
    }
}

fn embedding_lookup_sparse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let combiner = combiner_of(a, "mean")?;
    let params = params_of(a, "params", None)?;
    let sp = entries(a, "sp_ids", "sp_ids")?;
    let ids = ids_of(a, "sp_ids", &sp.values)?;
    let weights = weights_of(a, "sp_weights", &sp)?;
    let nrows = sp.rows.last().map_or(0, |&r| r as usize + 1);
    let l = Lookup {
        params: &params,
        rows: &sp.rows,
        ids: &ids,
        weights: weights.as_deref(),
        combiner: &combiner,
        max_norm: max_norm_of(a)?,
        nrows,
    };
    run(a, &l, &[nrows as i64])
}

fn safe_embedding_lookup_sparse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let combiner = combiner_of(a, "mean")?;
    let params = params_of(a, "embedding_weights", None)?;
    let sp = entries(a, "sparse_ids", "sparse_ids")?;
    let ids = ids_of(a, "sparse_ids", &sp.values)?;
    let weights = weights_of(a, "sparse_weights", &sp)?;
    let default_id = a.opt_int("default_id")?;
    // Prune ids below zero, and weights of zero or less unless summing.
    let (mut rows, mut keep_ids, mut keep_w) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..ids.len() {
        let w = weights.as_ref().map(|w| w[i]);
        if ids[i] < 0 || (combiner != "sum" && w.is_some_and(|w| w <= 0.0)) {
            continue;
        }
        rows.push(sp.rows[i]);
        keep_ids.push(ids[i]);
        keep_w.push(w.unwrap_or(1.0));
    }
    // Fill empty rows with default_id (or 0) and weight 1, keeping rows in order.
    let mut has =
        ragtag_engine::budget::filled("tf.nn.safe_embedding_lookup_sparse", false, sp.nrows)
            .map_err(|e| a.err_at("sparse_ids", e))?;
    for &r in &rows {
        if let Some(h) = has.get_mut(r as usize) {
            *h = true;
        }
    }
    let mut order: Vec<(i64, usize)> = rows.iter().copied().zip(0..).collect();
    let empty: Vec<usize> = (0..sp.nrows).filter(|&r| !has[r]).collect();
    for &r in &empty {
        order.push((r as i64, usize::MAX));
    }
    order.sort();
    let (mut f_rows, mut f_ids, mut f_w) = (Vec::new(), Vec::new(), Vec::new());
    for (r, i) in order {
        f_rows.push(r);
        if i == usize::MAX {
            f_ids.push(default_id.unwrap_or(0));
            f_w.push(1.0);
        } else {
            f_ids.push(keep_ids[i]);
            f_w.push(keep_w[i]);
        }
    }
    let l = Lookup {
        params: &params,
        rows: &f_rows,
        ids: &f_ids,
        weights: weights.as_ref().map(|_| f_w.as_slice()),
        combiner: &combiner,
        max_norm: max_norm_of(a)?,
        nrows: sp.nrows,
    };
    let v = run(a, &l, &sp.lead)?;
    if default_id.is_some() || empty.is_empty() {
        return Ok(v);
    }
    // Rows that were empty give zeros.
    let Value::Array(arr) = &v else { return Ok(v) };
    let Array::Dense(t) = &**arr else {
        return Ok(v);
    };
    let dim: usize = params.shape()[1..].iter().product();
    let mut vals = cast_buffer(t.data(), DType::Float64)
        .map_err(Error::from)?
        .to_f64_vec()
        .unwrap_or_default();
    for &r in &empty {
        for x in &mut vals[r * dim..(r + 1) * dim] {
            *x = 0.0;
        }
    }
    let buf = cast_buffer(&Buffer::from(vals), t.dtype()).map_err(Error::from)?;
    Ok(Value::tensor(Tensor::from_parts(t.shape().to_vec(), buf)))
}
