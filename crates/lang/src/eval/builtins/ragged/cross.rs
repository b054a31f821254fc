//! Feature crosses: `tf.ragged.cross` and `tf.ragged.cross_hashed` over 2-D ragged,
//! dense and sparse inputs.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{budget, Array, ExceptionClass, RowPartition};

/// The inputs of a cross: each one's flat values and row splits (2-D ragged, dense or
/// sparse tensors).
fn cross_inputs(a: &Args) -> Result<Vec<(ragtag_engine::Buffer, Vec<i64>)>> {
    let items =
        crate::eval::subscript::iterate(a.value("inputs")).map_err(|e| a.err_at("inputs", e))?;
    let err = |e| a.err_at("inputs", e);
    let rank_error = |k: usize, r: usize| {
        Error::new(
            ExceptionClass::ValueError,
            format!("inputs[{k}] must have rank 2, not {r}"),
        )
        .at(a.span("inputs"))
    };
    let mut inputs = Vec::new();
    for (k, v) in items.iter().enumerate() {
        let input = match v {
            Value::Sparse(s) => {
                let shape = s.dense_shape();
                if shape.len() != 2 {
                    return Err(rank_error(k, shape.len()));
                }
                let nrows = shape[0].max(0) as usize;
                let mut lengths = budget::filled("tf.ragged.cross", 0i64, nrows).map_err(err)?;
                for i in 0..s.nnz() {
                    let row = s.index(i)[0];
                    if let Some(l) = usize::try_from(row).ok().and_then(|r| lengths.get_mut(r)) {
                        *l += 1;
                    }
                }
                let part = RowPartition::from_row_lengths(&lengths, None).map_err(err)?;
                (s.values().data().clone(), part.row_splits().to_vec())
            }
            other => {
                let arr = convert::to_array(other, None).map_err(err)?;
                match &*arr {
                    Array::Ragged(r) if r.rank() == 2 => (
                        r.flat_values().data().clone(),
                        r.outer().row_splits().to_vec(),
                    ),
                    Array::Dense(t) if t.rank() == 2 => {
                        let (n, m) = (t.shape()[0], t.shape()[1]);
                        (t.data().clone(), (0..=n).map(|i| (i * m) as i64).collect())
                    }
                    other => return Err(rank_error(k, other.rank())),
                }
            }
        };
        inputs.push(input);
    }
    Ok(inputs)
}

pub(crate) fn ragged_cross(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use ragtag_engine::ops::cross::{cross, cross_strings, CrossInput};
    let err = |e| a.err_at("inputs", e);
    let inputs = cross_inputs(a)?
        .into_iter()
        .map(|(b, splits)| {
            Ok(CrossInput {
                values: cross_strings(&b).map_err(err)?,
                splits,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    cross(&inputs).map(Value::ragged).map_err(err)
}

pub(crate) fn ragged_cross_hashed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use ragtag_engine::ops::cross::{cross_hashed, feature_hashes};
    let err = |e| a.err_at("inputs", e);
    let inputs = cross_inputs(a)?
        .into_iter()
        .map(|(b, splits)| Ok((feature_hashes(&b).map_err(err)?, splits)))
        .collect::<Result<Vec<_>>>()?;
    let buckets = a.opt_int("num_buckets")?.unwrap_or(0);
    if buckets < 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("num_buckets must be non-negative, not {buckets}"),
        )
        .at(a.span("num_buckets")));
    }
    let key = a.opt_int("hash_key")?.unwrap_or(0x00DE_CAFC_AFFE) as u64;
    cross_hashed(&inputs, buckets as u64, key)
        .map(Value::ragged)
        .map_err(err)
}
