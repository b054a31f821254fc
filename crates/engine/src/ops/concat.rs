//! Joining tensors: `tf.concat`, `tf.stack` and `tf.ragged.stack`, for dense and ragged
//! inputs with TensorFlow's rules. Dense inputs mixed with ragged ones become ragged
//! (uniform partitions); ragged results have ragged (non-uniform) partitions throughout,
//! as TensorFlow rebuilds them from row splits.

use super::{insertion_axis, positive_axis, shape_str};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, value_error};

/// `tf.concat(parts, axis)`: dense when every input is dense, ragged otherwise.
pub fn concat(parts: &[Array], axis: i64) -> Result<Array> {
    need_parts(parts, "tf.concat")?;
    match dense_parts(parts) {
        Some(ts) => concat_dense(&ts, axis).map(Array::Dense),
        None => join(parts, axis, false),
    }
}

/// `tf.stack(parts, axis)`: dense when every input is dense (they must have one shape),
/// otherwise the same as [`ragged_stack`].
pub fn stack(parts: &[Array], axis: i64) -> Result<Array> {
    need_parts(parts, "tf.stack")?;
    match dense_parts(parts) {
        Some(ts) => stack_dense(&ts, axis).map(Array::Dense),
        None => join(parts, axis, true),
    }
}

/// `tf.ragged.stack(parts, axis)`: stacks tensors whose shapes may differ into a ragged
/// result (a dense one only when stacking along the last axis of dense inputs).
pub fn ragged_stack(parts: &[Array], axis: i64) -> Result<Array> {
    need_parts(parts, "tf.ragged.stack")?;
    join(parts, axis, true)
}

/// ValueError unless there is something to join (`op` names the caller).
fn need_parts(parts: &[Array], op: &str) -> Result<()> {
    if parts.is_empty() {
        return Err(value_error!(
            "{op} needs at least one tensor, got an empty list"
        ));
    }
    Ok(())
}

fn dense_parts(parts: &[Array]) -> Option<Vec<&Tensor>> {
    parts
        .iter()
        .map(|p| match p {
            Array::Dense(t) => Some(t),
            Array::Ragged(_) => None,
        })
        .collect()
}

fn check_dtypes<'a>(dtypes: impl Iterator<Item = crate::DType> + 'a) -> Result<()> {
    let mut first = None;
    for (i, d) in dtypes.enumerate() {
        match first {
            None => first = Some(d),
            Some(f) if f != d => {
                return Err(invalid_arg!(
                    "input {i} has dtype {d}, but input 0 has dtype {f}: all inputs must have one dtype"
                )
                .with_hint("convert one side first, e.g. with tf.cast(x, tf.float32)"))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Concatenates dense tensors along `axis`; every other dimension must agree.
pub fn concat_dense(parts: &[&Tensor], axis: i64) -> Result<Tensor> {
    concat_dense_offset(parts, axis, 0)
}

/// [`concat_dense`] for tensors that are the flat values of ragged inputs: messages count
/// dimensions from `dim_offset` so that they name the user's dimensions.
fn concat_dense_offset(parts: &[&Tensor], axis: i64, dim_offset: usize) -> Result<Tensor> {
    let first = parts[0];
    let rank = first.rank();
    if rank == 0 {
        return Err(invalid_arg!("cannot concatenate scalars (rank 0 tensors)")
            .with_hint("use tf.stack to join scalars into a vector"));
    }
    let axis = positive_axis(axis, rank, ExceptionClass::InvalidArgumentError, "axis")?;
    check_dtypes(parts.iter().map(|p| p.dtype()))?;
    for (i, p) in parts.iter().enumerate().skip(1) {
        if p.rank() != rank {
            return Err(invalid_arg!(
                "input {i} has rank {}, but input 0 has rank {}: tensors joined by concat must have the same rank",
                p.rank() + dim_offset,
                rank + dim_offset
            ));
        }
        for d in (0..rank).filter(|&d| d != axis) {
            if p.shape()[d] != first.shape()[d] {
                return Err(invalid_arg!(
                    "dimension {} of input {i} has size {}, but it has size {} in input 0 \
                     (only the concatenation axis {} may differ)",
                    d + dim_offset,
                    p.shape()[d],
                    first.shape()[d],
                    axis + dim_offset
                ));
            }
        }
    }
    let mut shape = first.shape().to_vec();
    shape[axis] = size::sum(parts.iter().map(|p| p.shape()[axis]))?;
    size::numel(&shape)?;
    let outer: usize = first.shape()[..axis].iter().product();
    let inner: usize = first.shape()[axis + 1..].iter().product();
    let blocks: Vec<usize> = parts.iter().map(|p| p.shape()[axis] * inner).collect();
    let data = interleave("tf.concat", parts, outer, &blocks)?;
    Ok(Tensor::from_parts(shape, data))
}

/// For each of `outer` rounds, appends the next `blocks[i]` elements of each part in turn.
fn interleave(what: &str, parts: &[&Tensor], outer: usize, blocks: &[usize]) -> Result<Buffer> {
    let total = size::sum(parts.iter().map(|p| p.size()))?;
    let bytes = size::sum(parts.iter().map(|p| p.data().str_bytes()))?;
    let sources: Vec<&Buffer> = parts.iter().map(|p| p.data()).collect();
    let dtype = parts[0].dtype();
    let (out, ()) = Buffer::from_runs(what, dtype, &sources, (total, bytes), |copy| {
        if parts.len() == 1 || outer == 1 {
            for (k, p) in parts.iter().enumerate() {
                copy(k, 0, p.size());
            }
            return;
        }
        for o in 0..outer {
            for (k, &b) in blocks.iter().enumerate() {
                copy(k, o * b, (o + 1) * b);
            }
        }
    })?;
    Ok(out)
}

/// Stacks dense tensors of one shape along a new dimension `axis`.
pub fn stack_dense(parts: &[&Tensor], axis: i64) -> Result<Tensor> {
    let first = parts[0];
    let rank = first.rank();
    let axis = insertion_axis(axis, rank, ExceptionClass::ValueError, "axis")?;
    check_dtypes(parts.iter().map(|p| p.dtype()))?;
    for (i, p) in parts.iter().enumerate().skip(1) {
        if p.shape() != first.shape() {
            return Err(invalid_arg!(
                "input {i} has shape {}, but input 0 has shape {}: tf.stack needs tensors of one shape",
                super::dense_shape_str(p.shape()),
                super::dense_shape_str(first.shape())
            )
            .with_hint("to stack rows of different lengths, use tf.ragged.stack"));
        }
    }
    let mut shape = first.shape().to_vec();
    shape.insert(axis, parts.len());
    size::numel(&shape)?;
    let outer: usize = first.shape()[..axis].iter().product();
    let inner: usize = first.shape()[axis..].iter().product();
    let blocks = budget::filled("tf.stack", inner, parts.len())?;
    Ok(Tensor::from_parts(
        shape,
        interleave("tf.stack", parts, outer, &blocks)?,
    ))
}

/// TensorFlow's `_ragged_stack_concat_helper`.
fn join(parts: &[Array], axis: i64, stack: bool) -> Result<Array> {
    if parts.len() == 1 && !stack {
        return Ok(parts[0].clone());
    }
    let ndims = parts[0].rank();
    for (i, p) in parts.iter().enumerate().skip(1) {
        if p.rank() != ndims {
            return Err(value_error!(
                "input {i} has rank {} (shape {}), but input 0 has rank {ndims} (shape {}): \
                 all inputs must have the same rank",
                p.rank(),
                shape_str(&p.shape()),
                shape_str(&parts[0].shape())
            ));
        }
    }
    let out_ndims = ndims + stack as usize;
    let axis = if stack {
        insertion_axis(axis, ndims, ExceptionClass::ValueError, "axis")?
    } else {
        positive_axis(axis, ndims, ExceptionClass::ValueError, "axis")?
    };
    check_dtypes(parts.iter().map(|p| p.dtype()))?;
    let dense = dense_parts(parts);
    if stack && ndims == 1 && axis == 0 {
        // Vectors of any lengths become the rows of a 2-D ragged tensor.
        let ts = dense.expect("rank-1 tensors are dense");
        let lengths: Vec<i64> = ts.iter().map(|t| t.size() as i64).collect();
        let values = concat_dense(&ts, 0)?;
        let part = RowPartition::from_row_lengths(&lengths, None)?;
        return Ragged::new(vec![part], values).map(Array::Ragged);
    }
    if let Some(ts) = &dense {
        if axis + 1 == out_ndims || axis + 1 == ndims {
            return if stack {
                stack_dense(ts, axis as i64).map(Array::Dense)
            } else {
                concat_dense(ts, axis as i64).map(Array::Dense)
            };
        }
    }
    let mut rts = Vec::new();
    for p in parts {
        rts.push(match p {
            Array::Ragged(r) => r.clone(),
            Array::Dense(t) => Ragged::from_tensor_uniform(t, 1)?,
        });
    }
    let rr = rts
        .iter()
        .map(|r| r.ragged_rank())
        .max()
        .unwrap_or(1)
        .max(1);
    let rts = rts
        .into_iter()
        .map(|r| r.with_ragged_rank(rr))
        .collect::<Result<Vec<_>>>()?;
    match axis {
        0 => join_axis0(&rts, stack).map(Array::Ragged),
        1 => join_axis1(&rts, stack).map(Array::Ragged),
        _ => {
            let splits = rts[0].outer().row_splits();
            for (i, r) in rts.iter().enumerate().skip(1) {
                if r.outer().row_splits() != splits {
                    return Err(invalid_arg!(
                        "input {i} and input 0 have different row lengths in dimension 1, \
                         so they cannot be joined along axis {axis}"
                    )
                    .with_hint(
                        "along an axis past a ragged dimension, every row must match in length",
                    ));
                }
            }
            let values: Vec<Array> = rts.iter().map(|r| r.values()).collect();
            let inner = join(&values, axis as i64 - 1, stack)?;
            let part = RowPartition::from_row_splits(splits.to_vec(), None)?;
            Ragged::from_partition(part, inner).map(Array::Ragged)
        }
    }
}

/// Joins ragged tensors of one ragged rank along their rows: partitions and flat values are
/// concatenated, with each input's splits shifted past the values before it.
fn join_axis0(rts: &[Ragged], stack: bool) -> Result<Ragged> {
    let rr = rts[0].ragged_rank();
    let fvs: Vec<&Tensor> = rts.iter().map(|r| r.flat_values()).collect();
    let flat = concat_dense_offset(&fvs, 0, rr)?;
    let mut partitions = Vec::new();
    if stack {
        let lengths: Vec<i64> = rts.iter().map(|r| r.nrows() as i64).collect();
        partitions.push(RowPartition::from_row_lengths(&lengths, None)?);
    }
    for level in 0..rr {
        let n = size::sum(rts.iter().map(|r| r.partitions()[level].nrows()))?;
        let mut splits = budget::vec("tf.concat", size::add(n, 1)?)?;
        splits.push(0i64);
        let mut base = 0i64;
        for r in rts {
            let s = r.partitions()[level].row_splits();
            splits.extend(s[1..].iter().map(|&x| x + base));
            base += s[s.len() - 1];
        }
        // Each input's splits are valid, so their shifted run is too.
        partitions.push(RowPartition::from_valid_splits(splits));
    }
    Ragged::new(partitions, flat)
}

/// Joins row by row: row `r` of the result holds row `r` of every input (concatenated, or
/// as separate sub-rows when stacking).
fn join_axis1(rts: &[Ragged], stack: bool) -> Result<Ragged> {
    let n = rts[0].nrows();
    for (i, r) in rts.iter().enumerate().skip(1) {
        if r.nrows() != n {
            return Err(invalid_arg!(
                "input {i} has {} rows, but input 0 has {n}: joining along axis 1 pairs rows up, \
                 so every input needs the same number of rows",
                r.nrows()
            ));
        }
    }
    if !stack {
        if let Some(joined) = concat_rows(rts)? {
            return Ok(joined);
        }
    }
    let all = join_axis0(rts, false)?;
    let k = rts.len();
    // Input i's row r sits at row i * n + r of `all`; visit them row-major by r.
    let order: Vec<usize> = (0..n)
        .flat_map(|r| (0..k).map(move |i| i * n + r))
        .collect();
    if stack {
        let rows = all.gather_rows(&order);
        let lengths = budget::filled("tf.stack", k as i64, n)?;
        let part = RowPartition::from_row_lengths(&lengths, None)?;
        return Ragged::from_partition(part, Array::Ragged(rows));
    }
    let outer = all.outer();
    let ranges: Vec<(usize, usize)> = order.iter().map(|&row| outer.row_range(row)).collect();
    let lengths: Vec<i64> = (0..n)
        .map(|r| {
            ranges[r * k..(r + 1) * k]
                .iter()
                .map(|(a, b)| (b - a) as i64)
                .sum()
        })
        .collect();
    let values = all.values().gather_ranges(&ranges);
    let part = RowPartition::from_row_lengths(&lengths, None)?;
    Ragged::from_partition(part, values)
}

/// `tf.concat(parts, axis=1)` of ragged matrices (one ragged dimension over flat values of
/// one dtype and inner shape) in one pass over their row splits: each output row is written
/// once, straight from the inputs. None when the inputs need the general path (which also
/// gives the errors).
fn concat_rows(rts: &[Ragged]) -> Result<Option<Ragged>> {
    let first = rts[0].flat_values();
    let fits = |r: &Ragged| {
        let fv = r.flat_values();
        r.ragged_rank() == 1 && fv.dtype() == first.dtype() && fv.shape()[1..] == first.shape()[1..]
    };
    if !rts.iter().all(fits) {
        return Ok(None);
    }
    let n = rts[0].nrows();
    let inner = first.row_size();
    let total = size::sum(rts.iter().map(|r| r.flat_values().size()))?;
    let bytes = size::sum(rts.iter().map(|r| r.flat_values().data().str_bytes()))?;
    let mut splits = budget::vec("tf.concat", size::add(n, 1)?)?;
    splits.push(0i64);
    let sources: Vec<&Buffer> = rts.iter().map(|r| r.flat_values().data()).collect();
    let (values, end) = Buffer::from_runs(
        "tf.concat",
        first.dtype(),
        &sources,
        (total, bytes),
        |copy| {
            let mut end = 0i64;
            for row in 0..n {
                for (k, r) in rts.iter().enumerate() {
                    let (a, b) = r.outer().row_range(row);
                    copy(k, a * inner, b * inner);
                    end += (b - a) as i64;
                }
                splits.push(end);
            }
            end
        },
    )?;
    let mut shape = first.shape().to_vec();
    shape[0] = end as usize;
    let flat = Tensor::from_parts(shape, values);
    Ragged::new(vec![RowPartition::from_valid_splits(splits)], flat).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal::{ragged_constant, Leaf, Nested};

    fn rt(rows: &[&[i64]]) -> Array {
        let n = Nested::List(
            rows.iter()
                .map(|r| Nested::List(r.iter().map(|&v| Nested::Leaf(Leaf::Int(v))).collect()))
                .collect(),
        );
        ragged_constant(&n, None, Some(1), None).unwrap()
    }

    fn dense(shape: &[usize], v: &[i32]) -> Array {
        Array::Dense(Tensor::new(shape.to_vec(), Buffer::I32(v.to_vec().into())).unwrap())
    }

    fn rows(a: &Array) -> Vec<Vec<i32>> {
        let Array::Ragged(r) = a else {
            panic!("not ragged: {a:?}")
        };
        let Buffer::I32(v) = r.flat_values().data() else {
            panic!()
        };
        r.outer()
            .row_splits()
            .windows(2)
            .map(|w| v[w[0] as usize..w[1] as usize].to_vec())
            .collect()
    }

    #[test]
    fn dense_concat_axes() {
        let a = dense(&[2, 2], &[1, 2, 3, 4]);
        let b = dense(&[2, 1], &[5, 6]);
        let Array::Dense(t) = concat(&[a.clone(), b.clone()], 1).unwrap() else {
            panic!()
        };
        assert_eq!(t.shape(), &[2, 3]);
        assert_eq!(t.data(), &Buffer::from(vec![1i32, 2, 5, 3, 4, 6]));
        let Array::Dense(t) = concat(&[a.clone(), b.clone()], -1).unwrap() else {
            panic!()
        };
        assert_eq!(t.shape(), &[2, 3]);
        let e = concat(&[a.clone(), b], 0).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        assert!(
            e.message.contains("dimension 1 of input 1"),
            "{}",
            e.message
        );
        let e = concat(&[a.clone(), dense(&[2], &[1, 2])], 0).unwrap_err();
        assert!(e.message.contains("rank"), "{}", e.message);
        let e = concat(&[a, dense(&[], &[1])], 5).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        let e = concat(&[dense(&[], &[1]), dense(&[], &[2])], 0).unwrap_err();
        assert!(e.message.contains("scalars"));
    }

    #[test]
    fn dense_concat_empty_tensors() {
        let a = dense(&[0, 2], &[]);
        let b = dense(&[1, 2], &[7, 8]);
        let Array::Dense(t) = concat(&[a.clone(), b], 0).unwrap() else {
            panic!()
        };
        assert_eq!(t.shape(), &[1, 2]);
        let Array::Dense(t) = concat(&[a.clone(), a], 1).unwrap() else {
            panic!()
        };
        assert_eq!(t.shape(), &[0, 4]);
    }

    #[test]
    fn ragged_concat_axis0_with_dense() {
        let digits = rt(&[&[3, 1, 4, 1], &[], &[5, 9, 2], &[6], &[]]);
        let out = concat(&[digits, dense(&[1, 2], &[5, 3])], 0).unwrap();
        assert_eq!(
            rows(&out),
            vec![
                vec![3, 1, 4, 1],
                vec![],
                vec![5, 9, 2],
                vec![6],
                vec![],
                vec![5, 3]
            ]
        );
        assert_eq!(out.shape(), vec![Some(6), None]);
    }

    #[test]
    fn ragged_concat_axis1() {
        let x = rt(&[&[1], &[2, 3, 4], &[5, 6]]);
        let y = rt(&[&[7, 8], &[9], &[]]);
        let out = concat(&[x.clone(), y.clone()], 1).unwrap();
        assert_eq!(
            rows(&out),
            vec![vec![1, 7, 8], vec![2, 3, 4, 9], vec![5, 6]]
        );
        let out = concat(&[x.clone(), y.clone()], -1).unwrap();
        assert_eq!(
            rows(&out),
            vec![vec![1, 7, 8], vec![2, 3, 4, 9], vec![5, 6]]
        );
        let e = concat(&[x, rt(&[&[1]])], 1).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        assert!(e.message.contains("rows"), "{}", e.message);
    }

    #[test]
    fn ragged_concat_deeper_axis_and_errors() {
        // [2, None, 2] ragged tensors joined along their last (dense) axis.
        let fv = Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let p = RowPartition::from_row_lengths(&[2, 1], None).unwrap();
        let a = Array::Ragged(Ragged::new(vec![p], fv).unwrap());
        let out = concat(&[a.clone(), a.clone()], 2).unwrap();
        assert_eq!(out.shape(), vec![Some(2), None, Some(4)]);
        assert_eq!(
            out.flat_values().data(),
            &Buffer::from(vec![1i32, 2, 1, 2, 3, 4, 3, 4, 5, 6, 5, 6])
        );
        let other = rt(&[&[1, 2], &[3]]);
        let e = concat(&[a.clone(), other], 0).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ValueError);
        let e = concat(&[a.clone(), a], 3).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ValueError);
    }

    #[test]
    fn stacks() {
        let x = rt(&[&[1, 2], &[3]]);
        let y = rt(&[&[4], &[]]);
        let out = stack(&[x.clone(), y.clone()], 0).unwrap();
        assert_eq!(out.rank(), 3);
        assert_eq!(out.ragged_rank(), 2);
        assert_eq!(out.nrows(), 2);
        let out = stack(&[x, y], 1).unwrap();
        assert_eq!(out.shape(), vec![Some(2), None, None]);
        let out = ragged_stack(&[dense(&[2], &[1, 2]), dense(&[1], &[3])], 0).unwrap();
        assert_eq!(rows(&out), vec![vec![1, 2], vec![3]]);
        let e = stack(&[dense(&[2], &[1, 2]), dense(&[1], &[3])], 0).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        let Array::Dense(t) = stack(&[dense(&[2], &[1, 2]), dense(&[2], &[3, 4])], 1).unwrap()
        else {
            panic!()
        };
        assert_eq!(t.shape(), &[2, 2]);
        assert_eq!(t.data(), &Buffer::from(vec![1i32, 3, 2, 4]));
        let out = ragged_stack(&[dense(&[1, 2], &[1, 2]), dense(&[1, 2], &[3, 4])], 0).unwrap();
        assert_eq!(out.shape(), vec![Some(2), None, None]);
        assert!(stack(&[], 0).is_err());
    }
}
