//! One name per conversion between the four encodings of nested data — dense, ragged,
//! sparse and LoD (`to_ragged`, `to_sparse`, `to_dense`, `to_lod`) — and `compare`, which
//! shows several values side by side. Where a conversion loses information or has no
//! meaning, the error says why.
//!
//! How they relate: a LoD tensor's offsets are the row_splits of a ragged tensor over its
//! data rows; a ragged tensor's values are the stored entries of its sparse form; a dense
//! tensor is a ragged tensor whose rows all have one length.

use std::sync::Arc;

use super::sparse::sparse_value;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::value_error;
use ragtag_engine::{Array, Exception, Lod, Ragged, RowPartition, Scalar, Sparse, Tensor};

/// Conversions and side-by-side display.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("to_ragged", "(x)", to_ragged)
        .doc("x as a ragged tensor. A dense tensor's rows all keep their length; a LoD tensor's levels become ragged dimensions over its data rows; a sparse tensor must be right-ragged (every row filled from position 0 with no holes), since a ragged row cannot hold a hole.")
        .examples(&[
            "to_ragged(fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6]]), [[1, 2]], fluid.CPUPlace()))",
            "to_ragged(tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=[1, 2, 3], dense_shape=[3, 3]))",
        ]),
    Builtin::function("to_sparse", "(x)", to_sparse)
        .doc("x as a sparse tensor. A dense tensor keeps only its non-zero elements; a ragged (or LoD) tensor keeps every value, zeros included, and its dense_shape is the bounding shape.")
        .examples(&["to_sparse(tf.ragged.constant([[1, 0], [], [3]]))", "to_sparse([[1, 0], [0, 2]])"]),
    Builtin::function("to_dense", "(x, default_value=None)", to_dense)
        .doc("x as a dense tensor: a ragged or LoD tensor's short rows are padded with `default_value` (zero, '' or False by default); a sparse tensor's unset elements become `default_value` (its indices must be in bounds and in row-major order).")
        .examples(&[
            "to_dense(tf.ragged.constant([[1, 2], [], [3]]), default_value=-1)",
            "to_dense(tf.SparseTensor(indices=[[0, 1]], values=[5], dense_shape=[2, 3]))",
        ]),
    Builtin::function("to_lod", "(x)", to_lod)
        .doc("x as a Paddle LoDTensor: each ragged dimension becomes a lod level (its row_splits are the offsets) and the flat values become the data. Dense and sparse tensors go through to_ragged first.")
        .examples(&["to_lod(tf.ragged.constant([[[1.0], [3.0]], [[2.0]]], ragged_rank=1)).lod()"]),
    Builtin::function("compare", "(*values, names=None)", compare)
        .doc("Prints several values side by side in one table, one line per outer row, each column headed by its name (`names`, or #1, #2 …) and kind, dtype and shape. A sparse tensor's rows show its unset elements in parentheses — implicit values — while a ragged row simply ends.")
        .examples(&[
            "compare(tf.ragged.constant([[1, 2], [3]]), tf.sparse.from_dense([[1, 2], [3, 0]]), names=['ragged', 'sparse'])",
        ]),
];

/// A value in one of the four encodings.
enum Form {
    Dense(Tensor),
    Ragged(Ragged),
    Sparse(Arc<Sparse>),
    Lod(Arc<Lod>),
}

fn form(a: &Args, name: &str) -> Result<Form> {
    Ok(match a.value(name) {
        Value::Sparse(s) => Form::Sparse(s.clone()),
        Value::Lod(l) => Form::Lod(l.clone()),
        _ => match &*a.array(name, None)? {
            Array::Dense(t) => Form::Dense(t.clone()),
            Array::Ragged(r) => Form::Ragged(r.clone()),
        },
    })
}

/// A dense tensor as a ragged one whose rows all have the same length.
pub fn dense_rows(t: &Tensor, target: &str) -> Result<Ragged, Exception> {
    let shape = t.shape();
    if shape.len() < 2 {
        return Err(value_error!(
            "a rank-{} tensor cannot become {target}: that needs rows of values, so rank 2 or more",
            shape.len()
        )
        .with_hint("wrap it in a list to make it one row, e.g. [x]"));
    }
    let (n, m) = (shape[0], shape[1]);
    let part = RowPartition::from_row_lengths(
        &ragtag_engine::budget::filled("a ragged tensor", m as i64, n)?,
        Some(n * m),
    )?;
    let mut inner = vec![n * m];
    inner.extend_from_slice(&shape[2..]);
    Ragged::new(vec![part], t.reshaped(inner)?)
}

fn ragged_of(f: &Form, target: &str) -> Result<Ragged, Exception> {
    match f {
        Form::Dense(t) => dense_rows(t, target),
        Form::Ragged(r) => Ok(r.clone()),
        Form::Sparse(s) => s.to_ragged(),
        Form::Lod(l) => l.to_ragged(),
    }
}

fn to_ragged(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = form(a, "x")?;
    Ok(Value::ragged(
        ragged_of(&f, "a ragged tensor").map_err(|e| a.err_at("x", e))?,
    ))
}

fn to_sparse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match form(a, "x")? {
        Form::Dense(t) => sparse_value(Sparse::from_dense(&t)),
        Form::Ragged(r) => sparse_value(Sparse::from_ragged(&r)),
        Form::Sparse(s) => Value::Sparse(s),
        Form::Lod(l) => sparse_value(Sparse::from_ragged(
            &l.to_ragged().map_err(|e| a.err_at("x", e))?,
        )),
    })
}

fn to_dense(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = form(a, "x")?;
    let default = |dtype| match a.get("default_value") {
        None => Ok(Scalar::default_of(dtype)),
        Some(v) => crate::eval::convert::to_scalar(v, Some(dtype))
            .map_err(|e| a.err_at("default_value", e)),
    };
    let t = match &f {
        Form::Dense(t) => t.clone(),
        Form::Sparse(s) => s
            .to_dense(&default(s.dtype())?, true)
            .map_err(|e| a.err_at("x", e))?,
        Form::Lod(l) if l.lod().is_empty() => l.data().clone(),
        _ => {
            let r = ragged_of(&f, "a dense tensor").map_err(|e| a.err_at("x", e))?;
            r.to_tensor(&default(r.dtype())?, None)
                .map_err(|e| a.err_at("x", e))?
        }
    };
    Ok(Value::tensor(t))
}

fn to_lod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = form(a, "x")?;
    if let Form::Lod(l) = f {
        return Ok(Value::Lod(l));
    }
    let r = ragged_of(&f, "a LoDTensor (whose levels group rows)").map_err(|e| a.err_at("x", e))?;
    Ok(Value::Lod(Arc::new(
        Lod::from_ragged(&r).map_err(|e| a.err_at("x", e))?,
    )))
}

fn compare(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values: Vec<&Value> = a.rest().iter().map(|(v, _)| v).collect();
    let names: Vec<String> = match a.get("names") {
        None => (1..=values.len()).map(|i| format!("#{i}")).collect(),
        Some(v) => {
            let items = crate::eval::subscript::iterate(v).map_err(|e| a.err_at("names", e))?;
            if items.len() != values.len() {
                return Err(Error::new(
                    ragtag_engine::ExceptionClass::ValueError,
                    format!(
                        "names has {} entries, but {} values were given",
                        items.len(),
                        values.len()
                    ),
                )
                .at(a.span("names")));
            }
            items
                .iter()
                .map(|v| match crate::eval::convert::unwrap_scalar(v.clone()) {
                    Value::Str(s) => s.to_string(),
                    Value::Bytes(b) => String::from_utf8_lossy(&b.data).into_owned(),
                    other => crate::render::tf_text::str_of(&other),
                })
                .collect()
        }
    };
    let items: Vec<(String, &Value)> = names.into_iter().zip(values).collect();
    let text = crate::render::compare::compare(&items, &crate::render::Options::default());
    it.print(&format!("{text}\n"));
    Ok(Value::None)
}
