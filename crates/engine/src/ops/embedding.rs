//! `tf.nn.embedding_lookup`: rows of a (possibly sharded) embedding table, gathered with
//! `tf.gather` semantics, optionally clipped to a maximum L2 norm.

use super::gather::gather;
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::ragged::Array;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{invalid_arg, type_error, value_error};

/// How `tf.nn.embedding_lookup` spreads ids over several parameter shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partition {
    /// Id `i` lives in shard `i % n` at row `i / n`.
    Mod,
    /// Ids are split into contiguous runs, one per shard.
    Div,
}

/// `tf.nn.embedding_lookup(params, ids, partition_strategy, max_norm)`: the rows of the
/// (possibly sharded) table at `ids`. Ragged ids give a ragged result whose embedding
/// dimensions are uniform inner dimensions.
pub fn embedding_lookup(
    shards: &[Tensor],
    ids: &Array,
    strategy: Partition,
    max_norm: Option<f64>,
) -> Result<Array> {
    let Some(first) = shards.first() else {
        return Err(value_error!(
            "embedding_lookup needs at least one parameter tensor"
        ));
    };
    if let Some(i) = shards.iter().position(|s| s.rank() == 0) {
        return Err(value_error!(
            "params[{i}] is a scalar, but embedding tables must have rank at least 1"
        ));
    }
    for (i, s) in shards.iter().enumerate().skip(1) {
        if s.dtype() != first.dtype() || s.shape()[1..] != first.shape()[1..] {
            return Err(invalid_arg!(
                "params[{i}] has dtype {} and shape {}, but params[0] has dtype {} and shape {}",
                s.dtype(),
                dense_shape_str(s.shape()),
                first.dtype(),
                dense_shape_str(first.shape())
            ));
        }
    }
    let table = if shards.len() == 1 {
        first.clone()
    } else {
        combine_shards(shards, strategy)?
    };
    let out = gather(&Array::Dense(table), ids, Some(0), 0)?;
    match max_norm {
        None => Ok(out),
        Some(m) => {
            let per: usize = first.shape()[1..].iter().product();
            match out {
                Array::Dense(t) => clip_norms(&t, m, per).map(Array::Dense),
                Array::Ragged(r) => {
                    let fv = clip_norms(r.flat_values(), m, per)?;
                    r.with_flat_values(fv).map(Array::Ragged)
                }
            }
        }
    }
}

fn combine_shards(shards: &[Tensor], strategy: Partition) -> Result<Tensor> {
    let refs: Vec<&Tensor> = shards.iter().collect();
    let all = super::concat::concat_dense(&refs, 0)?;
    if strategy == Partition::Div {
        return Ok(all);
    }
    let n = shards.len();
    let total = all.shape()[0];
    let mut offsets = budget::vec("an embedding lookup", n)?;
    let mut acc = 0;
    for s in shards {
        offsets.push(acc);
        acc += s.shape()[0];
    }
    let mut order = budget::vec("an embedding lookup", total)?;
    for id in 0..total {
        let (shard, row) = (id % n, id / n);
        if row >= shards[shard].shape()[0] {
            return Err(invalid_arg!(
                "with partition_strategy 'mod', id {id} belongs to params[{shard}] row {row}, \
                 but params[{shard}] has only {} rows",
                shards[shard].shape()[0]
            ));
        }
        order.push(offsets[shard] + row);
    }
    Ok(all.gather_rows(&order))
}

/// Scales each embedding (each run of `per` elements of `t`) whose L2 norm exceeds
/// `max_norm` down to that norm.
fn clip_norms(t: &Tensor, max_norm: f64, per: usize) -> Result<Tensor> {
    if !t.dtype().is_float() {
        return Err(type_error!(
            "max_norm needs float embeddings, not {}",
            t.dtype()
        ));
    }
    let mut v = t.data().to_f64_vec().expect("float data");
    for chunk in v.chunks_mut(per.max(1)) {
        let norm = chunk.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > max_norm {
            let s = max_norm / norm;
            chunk.iter_mut().for_each(|x| *x *= s);
        }
    }
    Ok(Tensor::from_parts(
        t.shape().to_vec(),
        Buffer::from_f64s(v, t.dtype()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::RowPartition;
    use crate::ragged::Ragged;

    fn ids(shape: &[usize], v: Vec<i64>) -> Array {
        Array::Dense(Tensor::new(shape.to_vec(), Buffer::I64(v.into())).unwrap())
    }
    fn values(a: &Array) -> Vec<i64> {
        a.flat_values().to_i64_vec().unwrap()
    }

    #[test]
    fn embedding_lookup_ragged_ids() {
        let table = Tensor::new(
            vec![3, 2],
            Buffer::from(vec![0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0]),
        )
        .unwrap();
        let ri = Array::Ragged(
            Ragged::new(
                vec![RowPartition::from_row_lengths(&[2, 0, 1], None).unwrap()],
                Tensor::vector(Buffer::from(vec![2i64, 0, 1])),
            )
            .unwrap(),
        );
        let out =
            embedding_lookup(std::slice::from_ref(&table), &ri, Partition::Mod, None).unwrap();
        assert_eq!(out.shape(), vec![Some(3), None, Some(2)]);
        assert_eq!(out.ragged_rank(), 1);
        let clipped =
            embedding_lookup(std::slice::from_ref(&table), &ri, Partition::Mod, Some(1.0)).unwrap();
        let v = clipped.flat_values().data().to_f64_vec().unwrap();
        assert!((v[0] * v[0] + v[1] * v[1] - 1.0).abs() < 1e-6);
        // Two shards, "mod": ids 0, 2 in shard 0 and id 1 in shard 1.
        let s0 = Tensor::new(vec![2, 1], Buffer::from(vec![0i32, 2])).unwrap();
        let s1 = Tensor::new(vec![1, 1], Buffer::from(vec![1i32])).unwrap();
        let out = embedding_lookup(
            &[s0.clone(), s1.clone()],
            &ids(&[3], vec![0, 1, 2]),
            Partition::Mod,
            None,
        )
        .unwrap();
        assert_eq!(values(&out), vec![0, 1, 2]);
        let out =
            embedding_lookup(&[s0, s1], &ids(&[3], vec![0, 1, 2]), Partition::Div, None).unwrap();
        assert_eq!(values(&out), vec![0, 2, 1]);
    }
}
