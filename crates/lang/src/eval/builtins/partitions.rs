//! Splitting and slicing: `tf.dynamic_partition` (with its ragged dispatch),
//! `tf.ragged.stack_dynamic_partitions`, `tf.strided_slice` (every mask) and
//! `tf.edit_distance` on sparse sequences.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Ragged, RowPartition, Scalar, Tensor};

/// The partition builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.dynamic_partition", "(data, partitions, num_partitions, name=None)", dynamic_partition)
        .doc("Splits `data` into `num_partitions` tensors: element (or row) j goes to output `partitions[j]`, in order. `partitions`' shape must begin `data`'s. With a RaggedTensor `data` and a vector of partitions the rows are split into RaggedTensors; with ragged partitions of `data`'s row lengths the values are split.")
        .examples(&[
            "tf.dynamic_partition(tf.constant([10, 20, 30, 40]), [0, 1, 0, 2], 3)",
            "tf.dynamic_partition(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [1, 0, 1], 2)",
        ]),
    Builtin::function("tf.ragged.stack_dynamic_partitions", "(data, partitions, num_partitions, name=None)", stack_dynamic_partitions)
        .doc("A RaggedTensor whose row i holds the elements (or rows) of `data` whose partition is i, in order: tf.stack(tf.dynamic_partition(...)) with ragged rows.")
        .examples(&["tf.ragged.stack_dynamic_partitions(['a', 'b', 'c', 'd', 'e'], [3, 0, 2, 2, 3], 5)"]),
    Builtin::function(
        "tf.strided_slice",
        "(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, var=None, name=None)",
        strided_slice,
    )
    .doc("The slice `input_[begin:end:strides]` per axis, as Python slicing writes it: bit i of `begin_mask`/`end_mask` ignores begin[i]/end[i] (the whole range), of `ellipsis_mask` makes entry i a `...`, of `new_axis_mask` a new axis of size 1, of `shrink_axis_mask` an index that removes its axis.")
    .examples(&[
        "tf.strided_slice(tf.reshape(tf.range(24), [2, 3, 4]), [0, 1, 0], [2, 3, 4], [1, 1, 2])",
        "tf.strided_slice(tf.range(10), [8], [2], [-2])",
        "tf.strided_slice(tf.reshape(tf.range(24), [2, 3, 4]), [0, 1], [0, 2], [1, 1], ellipsis_mask=1, shrink_axis_mask=2)",
    ]),
    Builtin::function("tf.edit_distance", "(hypothesis, truth, normalize=True, name='edit_distance')", edit_distance)
        .doc("The Levenshtein distance between the sequences of two SparseTensors (each sequence runs along the last axis), divided by the truth sequence's length when `normalize` is True; a float32 tensor of the other axes' shape.")
        .examples(&["tf.edit_distance(tf.SparseTensor([[0, 0], [1, 0]], ['a', 'b'], [2, 1]), tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ['a', 'b', 'c'], [2, 2]))"]),
];

fn bad(a: &Args, m: String) -> Error {
    Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call)
}

/// The positions (in `p`'s row-major order) that go to each of the `n` partitions, in
/// order: one pass over the partition ids, each checked against `n`.
fn partition_rows(a: &Args, p: &Tensor, n: i64) -> Result<Vec<Vec<usize>>> {
    let mut rows = ragtag_engine::budget::filled("tf.dynamic_partition", Vec::new(), n as usize)
        .map_err(|e| Error::from(e).at(a.call))?;
    for (j, k) in partition_ids(a, p, n)?.into_iter().enumerate() {
        rows[k].push(j);
    }
    Ok(rows)
}

/// The tensor of `t`'s cells at `rows`, a cell being what lies under one position of `t`'s
/// first `lead` axes (all of them flattened into one): shape `[rows.len(), …t.shape[lead..]]`.
fn gather_cells(
    t: &Tensor,
    lead: usize,
    rows: &[usize],
) -> std::result::Result<Value, ragtag_engine::Exception> {
    let cell_shape = &t.shape()[lead..];
    let cell: usize = cell_shape.iter().product();
    let idx: Vec<usize> = rows
        .iter()
        .flat_map(|&j| j * cell..(j + 1) * cell)
        .collect();
    let mut shape = vec![rows.len()];
    shape.extend(cell_shape);
    Tensor::new(shape, t.data().gather(&idx)).map(Value::tensor)
}

/// Each element's partition, checked against `n`.
fn partition_ids(a: &Args, p: &Tensor, n: i64) -> Result<Vec<usize>> {
    let v = p
        .data()
        .to_i64_vec()
        .filter(|_| p.dtype() == DType::Int32)
        .ok_or_else(|| {
            bad(
                a,
                format!("partitions must be an int32 tensor, not {}", p.dtype()),
            )
        })?;
    v.iter()
        .enumerate()
        .map(|(i, &x)| {
            if x < 0 || x >= n {
                Err(bad(a, format!("partitions[{i}] = {x} is not in [0, {n})")))
            } else {
                Ok(x as usize)
            }
        })
        .collect()
}

fn num_partitions(a: &Args) -> Result<i64> {
    let n = a.int("num_partitions")?;
    if n < 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("num_partitions must be at least 1, got {n}"),
        )
        .at(a.span("num_partitions")));
    }
    Ok(n)
}

fn dynamic_partition(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = num_partitions(a)?;
    let data = a.array("data", None)?;
    let parts = a.array("partitions", None)?;
    let err = |e: ragtag_engine::Exception| Error::from(e).at(a.call);
    let out: Vec<Value> = match (&*data, &*parts) {
        (Array::Dense(d), Array::Dense(p)) => {
            if d.rank() < p.rank() || d.shape()[..p.rank()] != *p.shape() {
                return Err(bad(a, format!(
                    "data.shape must start with partitions.shape, got data.shape = {:?}, partitions.shape = {:?}",
                    d.shape(),
                    p.shape()
                )));
            }
            partition_rows(a, p, n)?
                .iter()
                .map(|rows| gather_cells(d, p.rank(), rows))
                .collect::<std::result::Result<_, _>>()
                .map_err(err)?
        }
        (Array::Ragged(r), Array::Dense(p)) => {
            if p.rank() != 1 || p.size() != r.nrows() {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "Shapes ({}, None) and {:?} are incompatible: partitions must hold one partition per row",
                        r.nrows(),
                        p.shape()
                    ),
                )
                .at(a.span("partitions")));
            }
            partition_rows(a, p, n)?
                .iter()
                .map(|rows| Value::ragged(r.gather_rows(rows)))
                .collect()
        }
        (Array::Ragged(r), Array::Ragged(p)) => {
            let same = r.ragged_rank() == p.ragged_rank()
                && r.partitions()
                    .iter()
                    .zip(p.partitions())
                    .all(|(x, y)| x.row_splits() == y.row_splits());
            if !same {
                return Err(bad(
                    a,
                    "data and partitions must have the same row lengths".into(),
                ));
            }
            let (fv, fp) = (r.flat_values(), p.flat_values());
            if fv.rank() < fp.rank() || fv.shape()[..fp.rank()] != *fp.shape() {
                return Err(bad(
                    a,
                    "data's flat values must start with partitions' shape".into(),
                ));
            }
            partition_rows(a, fp, n)?
                .iter()
                .map(|rows| gather_cells(fv, fp.rank(), rows))
                .collect::<std::result::Result<_, _>>()
                .map_err(err)?
        }
        (Array::Dense(_), Array::Ragged(_)) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "partitions is ragged but data is not: they must have the same row lengths",
            )
            .at(a.span("partitions")))
        }
    };
    Ok(Value::list(out))
}

fn stack_dynamic_partitions(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = num_partitions(a)?;
    let data = a.array("data", None)?;
    let p = match &*a.array("partitions", None)? {
        Array::Dense(t) if t.rank() == 1 => t.clone(),
        _ => return Err(bad(a, "partitions must be a vector".into())),
    };
    if p.size() != data.nrows() || data.rank() == 0 {
        return Err(bad(
            a,
            format!(
                "partitions has {} entries but data has {} rows",
                p.size(),
                if data.rank() == 0 { 0 } else { data.nrows() }
            ),
        ));
    }
    let v = p.data().to_i64_vec().unwrap_or_default();
    if let Some(x) = v.iter().find(|&&x| x < 0 || x >= n) {
        return Err(bad(
            a,
            format!("partitions must be less than num_partitions and non-negative, got {x}"),
        ));
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&j| v[j]);
    let mut counts =
        ragtag_engine::budget::filled("tf.ragged.stack_dynamic_partitions", 0i64, n as usize)
            .map_err(|e| Error::from(e).at(a.call))?;
    for &x in &v {
        counts[x as usize] += 1;
    }
    let values = data.gather_rows(&order);
    let err = |e: ragtag_engine::Exception| Error::from(e).at(a.call);
    let part = RowPartition::from_row_lengths(&counts, None).map_err(err)?;
    Ragged::from_partition(part, values)
        .map(Value::ragged)
        .map_err(err)
}

/// One axis of a strided slice after the masks: the source indices it keeps, and whether
/// the axis stays in the result.
struct Axis {
    picks: Vec<usize>,
    keep: bool,
}

fn strided_slice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = match &*a.array("input_", None)? {
        Array::Dense(t) => t.clone(),
        Array::Ragged(_) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "TypeError: object of type 'RaggedTensor' has no len()",
            )
            .at(a.span("input_"))
            .with_hint("slice a RaggedTensor with rt[...] instead"))
        }
    };
    let begin = a.ints("begin")?;
    let end = a.ints("end")?;
    let strides = match a.get("strides") {
        None | Some(Value::None) => begin.iter().map(|_| 1).collect(),
        Some(_) => a.ints("strides")?,
    };
    if begin.len() != end.len() || begin.len() != strides.len() {
        return Err(bad(a, format!(
            "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [{}], [{}], and [{}] instead.",
            begin.len(),
            end.len(),
            strides.len()
        )));
    }
    let mask = |n: &str| -> Result<i64> { a.get(n).map_or(Ok(0), |_| a.int(n)) };
    let (bm, em, elm, nm, sm) = (
        mask("begin_mask")?,
        mask("end_mask")?,
        mask("ellipsis_mask")?,
        mask("new_axis_mask")?,
        mask("shrink_axis_mask")?,
    );
    if elm.count_ones() > 1 {
        return Err(bad(a, "Multiple ellipses in slice spec not allowed".into()));
    }
    let bit = |m: i64, i: usize| i < 63 && (m >> i) & 1 == 1;
    let n = begin.len();
    let rank = t.rank();
    // Without an ellipsis the unnamed trailing axes are kept whole, as after one.
    let (n, ell_at) = match (0..n).find(|&i| bit(elm, i)) {
        Some(i) => (n, i),
        None => (n + 1, n),
    };
    let consumed = (0..n)
        .filter(|&i| i != ell_at && !(i < begin.len() && bit(nm, i)))
        .count();
    if consumed > rank {
        return Err(bad(
            a,
            format!("Index out of range using input dim {rank}; input has only {rank} dims"),
        ));
    }
    let shape = t.shape();
    let mut axes: Vec<Axis> = Vec::new();
    let mut out_shape: Vec<usize> = Vec::new();
    let mut dim = 0usize;
    for i in 0..n {
        if i == ell_at {
            for _ in 0..rank - consumed {
                axes.push(Axis {
                    picks: (0..shape[dim]).collect(),
                    keep: true,
                });
                out_shape.push(shape[dim]);
                dim += 1;
            }
            continue;
        }
        if bit(nm, i) {
            out_shape.push(1);
            continue;
        }
        let d = shape[dim] as i64;
        let s = strides[i];
        if s == 0 {
            return Err(bad(a, format!("strides[{i}] must be non-zero")));
        }
        if bit(sm, i) {
            let x = if begin[i] < 0 { begin[i] + d } else { begin[i] };
            if x < 0 || x >= d {
                return Err(bad(
                    a,
                    format!("slice index {} of dimension {dim} out of bounds.", begin[i]),
                ));
            }
            axes.push(Axis {
                picks: vec![x as usize],
                keep: false,
            });
            dim += 1;
            continue;
        }
        let (lo, hi) = if s > 0 { (0, d) } else { (-1, d - 1) };
        let clamp = |x: i64| {
            let x = if x < 0 { x + d } else { x };
            x.clamp(lo, hi)
        };
        let b = if bit(bm, i) {
            if s > 0 {
                0
            } else {
                d - 1
            }
        } else {
            clamp(begin[i])
        };
        let e = if bit(em, i) {
            if s > 0 {
                d
            } else {
                -1
            }
        } else {
            clamp(end[i])
        };
        let mut picks = Vec::new();
        let mut x = b;
        while (s > 0 && x < e) || (s < 0 && x > e) {
            picks.push(x as usize);
            x += s;
        }
        out_shape.push(picks.len());
        axes.push(Axis { picks, keep: true });
        dim += 1;
    }
    let _ = axes.iter().filter(|x| x.keep).count();
    // Row-major walk over the chosen indices of every axis.
    let strides_in: Vec<usize> = (0..rank).map(|k| shape[k + 1..].iter().product()).collect();
    let total: usize = axes.iter().map(|x| x.picks.len()).product();
    let mut idx = Vec::new();
    ragtag_engine::budget::grow("tf.strided_slice", &mut idx, total)
        .map_err(|e| Error::from(e).at(a.call))?;
    for k in 0..total {
        let mut rem = k;
        let mut off = 0;
        for (ax, x) in axes.iter().enumerate().rev() {
            let m = x.picks.len();
            off += x.picks[rem % m] * strides_in[ax];
            rem /= m;
        }
        idx.push(off);
    }
    Tensor::new(out_shape, t.data().gather(&idx))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// The sequences of a sparse tensor, by the position of all but the last index.
fn sequences(
    s: &ragtag_engine::Sparse,
) -> std::collections::BTreeMap<Vec<i64>, Vec<(i64, Scalar)>> {
    let r = s.dense_shape().len();
    let mut out: std::collections::BTreeMap<Vec<i64>, Vec<(i64, Scalar)>> = Default::default();
    for (j, ix) in s.indices().chunks(r.max(1)).enumerate() {
        out.entry(ix[..r - 1].to_vec())
            .or_default()
            .push((ix[r - 1], s.values().data().get(j)));
    }
    for v in out.values_mut() {
        v.sort_by_key(|x| x.0);
    }
    out
}

fn levenshtein(x: &[Scalar], y: &[Scalar]) -> usize {
    let mut prev: Vec<usize> = (0..=y.len()).collect();
    for (i, p) in x.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, q) in y.iter().enumerate() {
            let sub = prev[j] + usize::from(p != q);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[y.len()]
}

fn edit_distance(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sp = |name: &str, what: &str| -> Result<std::sync::Arc<ragtag_engine::Sparse>> {
        match a.value(name) {
            Value::Sparse(s) => Ok(s.clone()),
            _ => Err(Error::new(
                ExceptionClass::TypeError,
                format!("{what} must be a SparseTensor."),
            )
            .at(a.span(name))
            .with_hint("make one with tf.sparse.from_dense(x)")),
        }
    };
    let (h, t) = (sp("hypothesis", "Hypothesis")?, sp("truth", "Truth")?);
    let normalize = a.flag("normalize", true)?;
    if h.values().dtype() != t.values().dtype() {
        return Err(bad(a, format!(
            "cannot compute EditDistance as input #4(zero-based) was expected to be a {} tensor but is a {} tensor",
            h.values().dtype(),
            t.values().dtype()
        )));
    }
    let (rh, rt) = (h.dense_shape().len(), t.dense_shape().len());
    if rh != rt || rh < 2 {
        return Err(bad(
            a,
            format!("hypothesis and truth must have the same rank (at least 2), got {rh} and {rt}"),
        ));
    }
    let shape: Vec<usize> = (0..rh - 1)
        .map(|k| h.dense_shape()[k].max(t.dense_shape()[k]).max(0) as usize)
        .collect();
    let (hs, ts) = (sequences(&h), sequences(&t));
    let total: usize = shape.iter().product();
    let mut out = Vec::new();
    ragtag_engine::budget::grow("tf.edit_distance", &mut out, total)
        .map_err(|e| Error::from(e).at(a.call))?;
    for k in 0..total {
        let mut rem = k;
        let mut pos: Vec<i64> = shape.iter().map(|_| 0).collect();
        for d in (0..shape.len()).rev() {
            pos[d] = (rem % shape[d]) as i64;
            rem /= shape[d];
        }
        let empty = Vec::new();
        let x: Vec<Scalar> = hs
            .get(&pos)
            .unwrap_or(&empty)
            .iter()
            .map(|p| p.1.clone())
            .collect();
        let y: Vec<Scalar> = ts
            .get(&pos)
            .unwrap_or(&empty)
            .iter()
            .map(|p| p.1.clone())
            .collect();
        let dist = levenshtein(&x, &y) as f64;
        // An empty truth normalizes to inf, or to 0 when the hypothesis is empty too.
        out.push(match (normalize, y.is_empty()) {
            (false, _) => dist,
            (true, false) => dist / y.len() as f64,
            (true, true) if dist == 0.0 => 0.0,
            (true, true) => f64::INFINITY,
        });
    }
    Tensor::new(shape, Buffer::from_f64s(out, DType::Float32))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}
