//! Joining strings: elementwise across tensors (`tf.strings.join`) and along axes
//! (`tf.strings.reduce_join`, dense and ragged).

use super::{broadcast_all, str_col};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::strings::StringBuf;
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, value_error};

/// The most bytes joining the strings of `col` in groups can take: every string once, and
/// at most one separator per string.
fn joined_bytes(col: &StringBuf, sep: &[u8]) -> Result<usize> {
    size::add(col.bytes().len(), size::mul(sep.len(), col.len())?)
}

/// The result buffer of joining the strings of `col` into `n` strings, reserved through the
/// budget with every byte the join holds while it runs: the strings it reads and the
/// separator as well as the result (the separator repeated between strings is where a
/// small input makes a huge result).
fn joined_buf(what: &str, col: &StringBuf, sep: &[u8], n: usize) -> Result<StringBuf> {
    let out = joined_bytes(col, sep)?;
    let held = col.bytes().len() as u128 + sep.len() as u128;
    budget::check_bytes(what, out as u128 + held)?;
    StringBuf::try_with_capacity(what, n, out)
}

/// Appends `parts` joined by `sep` as one string.
fn push_joined<'a>(out: &mut StringBuf, sep: &'a [u8], parts: impl Iterator<Item = &'a [u8]>) {
    out.push_parts(parts.enumerate().flat_map(|(k, p)| {
        let lead: &[u8] = if k == 0 { &[] } else { sep };
        [lead, p]
    }));
}

/// Appends the parts as TensorFlow's segment join (the kernel behind reducing a ragged
/// dimension) does: the separator goes before a part only once the text joined so far is not
/// empty, so leading empty strings leave no separator behind (`['', 'a', 'b']` → `"a b"`, while
/// `['a', '', 'b']` → `"a  b"`).
fn push_segment_joined<'a>(
    out: &mut StringBuf,
    sep: &'a [u8],
    parts: impl Iterator<Item = &'a [u8]>,
) {
    let mut started = false;
    out.push_parts(parts.flat_map(move |p| {
        let lead: &[u8] = if started { sep } else { &[] };
        started |= !p.is_empty();
        [lead, p]
    }));
}

/// `tf.strings.join`: the elementwise concatenation of several string tensors, with
/// `separator` between the pieces. Inputs broadcast (scalars stretch; ragged inputs line up
/// row by row).
pub fn join(inputs: &[&Array], separator: &[u8]) -> Result<Array> {
    if inputs.is_empty() {
        return Err(value_error!(
            "tf.strings.join needs at least one input tensor"
        ));
    }
    let cols = inputs
        .iter()
        .enumerate()
        .map(|(k, a)| str_col(a.flat_values(), &format!("tf.strings.join (input {k})")))
        .collect::<Result<Vec<_>>>()?;
    let b = broadcast_all(inputs)?;
    let n = b.len();
    // The exact size of the result (inputs repeat through broadcasting), reserved at once.
    let mut total = size::mul(size::mul(separator.len(), inputs.len() - 1)?, n)? as u128;
    for (c, p) in cols.iter().zip(&b.pos) {
        total += (0..n).map(|i| c.get(p.at(i)).len() as u128).sum::<u128>();
    }
    // What the join reads is held while it runs, as is the result.
    let held = cols.iter().map(|c| c.bytes().len() as u128).sum::<u128>() + separator.len() as u128;
    budget::check_bytes("tf.strings.join", total + held)?;
    let mut out = StringBuf::try_with_capacity("tf.strings.join", n, total as usize)?;
    for i in 0..n {
        // A look at the flag costs nothing beside a string copy.
        crate::interrupt::check()?;
        push_joined(
            &mut out,
            separator,
            cols.iter().zip(&b.pos).map(|(c, p)| c.get(p.at(i))),
        );
    }
    b.build(Buffer::Str(out))
}

/// `tf.strings.reduce_join`: joins the strings along `axes` (all of them when `None`) with
/// `separator`, in row-major order. Over a ragged dimension each row joins on its own; over
/// axis 0 of a ragged tensor the strings at the same position of every row join.
pub fn reduce_join(
    a: &Array,
    axes: Option<&[i64]>,
    keepdims: bool,
    separator: &[u8],
) -> Result<Array> {
    let col = str_col(a.flat_values(), "tf.strings.reduce_join")?;
    let rank = a.rank();
    let Some(axes) = axes else {
        let mut out = joined_buf("tf.strings.reduce_join", col, separator, 1)?;
        push_joined(&mut out, separator, col.iter());
        let shape = if keepdims {
            budget::filled("tf.strings.reduce_join", 1, rank)?
        } else {
            vec![]
        };
        return Ok(Array::Dense(Tensor::from_parts(shape, Buffer::Str(out))));
    };
    let norm = crate::ops::positive_axes(axes, rank, ExceptionClass::InvalidArgumentError)?;
    // Reduce the innermost axis first so the outer axis numbers stay valid.
    let mut cur = a.clone();
    for &ax in norm.iter().rev() {
        cur = join_axis(&cur, ax, separator)?;
    }
    if !keepdims {
        return Ok(cur);
    }
    match cur {
        Array::Dense(t) => {
            let mut shape = t.shape().to_vec();
            for &ax in &norm {
                shape.insert(ax, 1);
            }
            t.reshaped(shape).map(Array::Dense)
        }
        Array::Ragged(_) => Err(invalid_arg!(
            "keepdims=True is not supported when the result is still ragged"
        )),
    }
}

fn join_axis(a: &Array, axis: usize, sep: &[u8]) -> Result<Array> {
    match a {
        Array::Dense(t) => join_dense_axis(t, axis, sep).map(Array::Dense),
        Array::Ragged(rt) => {
            let outer = rt.outer();
            match axis {
                0 => {
                    let mut seg = budget::vec("tf.strings.reduce_join", outer.nvals())?;
                    for r in 0..outer.nrows() {
                        let (s, e) = outer.row_range(r);
                        seg.extend(0..e - s);
                    }
                    segment_join(&rt.values(), &seg, outer.max_row_length(), sep)
                }
                1 => {
                    let seg: Vec<usize> =
                        outer.value_rowids().iter().map(|&r| r as usize).collect();
                    segment_join(&rt.values(), &seg, outer.nrows(), sep)
                }
                _ => {
                    let values = join_axis(&rt.values(), axis - 1, sep)?;
                    rt.with_values(values).map(Array::Ragged)
                }
            }
        }
    }
}

/// Joins one axis of a dense tensor, viewed as `[outer, n, inner]`.
fn join_dense_axis(t: &Tensor, axis: usize, sep: &[u8]) -> Result<Tensor> {
    let col = str_col(t, "tf.strings.reduce_join")?;
    let shape = t.shape();
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out = joined_buf("tf.strings.reduce_join", col, sep, outer * inner)?;
    for o in 0..outer {
        for j in 0..inner {
            crate::interrupt::check()?;
            let base = o * n * inner + j;
            push_joined(&mut out, sep, (0..n).map(|k| col.get(base + k * inner)));
        }
    }
    let mut out_shape = shape[..axis].to_vec();
    out_shape.extend_from_slice(&shape[axis + 1..]);
    Ok(Tensor::from_parts(out_shape, Buffer::Str(out)))
}

/// Joins the rows of `data` that share a segment id (in row order); ragged rows join
/// position by position, so a result row is as long as the longest row of its segment.
fn segment_join(data: &Array, seg: &[usize], nseg: usize, sep: &[u8]) -> Result<Array> {
    match data {
        Array::Dense(t) => segment_join_dense(t, seg, nseg, sep).map(Array::Dense),
        Array::Ragged(rt) => {
            let outer = rt.outer();
            let mut out_len = budget::filled("tf.strings.reduce_join", 0i64, nseg)?;
            for (r, &s) in seg.iter().enumerate() {
                let (a, b) = outer.row_range(r);
                out_len[s] = out_len[s].max((b - a) as i64);
            }
            let part = RowPartition::from_row_lengths(&out_len, None)?;
            let splits = part.row_splits();
            let mut child = budget::vec("tf.strings.reduce_join", outer.nvals())?;
            for (r, &s) in seg.iter().enumerate() {
                let (a, b) = outer.row_range(r);
                child.extend((0..b - a).map(|j| splits[s] as usize + j));
            }
            let values = segment_join(&rt.values(), &child, part.nvals(), sep)?;
            Ragged::from_partition(part, values).map(Array::Ragged)
        }
    }
}

/// The dense core: rows of `t` (shape `[n, inner…]`) join into `nseg` output rows.
fn segment_join_dense(t: &Tensor, seg: &[usize], nseg: usize, sep: &[u8]) -> Result<Tensor> {
    let col = str_col(t, "tf.strings.reduce_join")?;
    let inner = t.row_size();
    // Group the rows by segment, keeping their order (a counting sort).
    let mut starts = budget::filled("tf.strings.reduce_join", 0usize, size::add(nseg, 1)?)?;
    for &s in seg {
        starts[s + 1] += 1;
    }
    for s in 0..nseg {
        starts[s + 1] += starts[s];
    }
    let mut fill = starts.clone();
    let mut rows = budget::filled("tf.strings.reduce_join", 0usize, seg.len())?;
    for (r, &s) in seg.iter().enumerate() {
        rows[fill[s]] = r;
        fill[s] += 1;
    }
    let mut out = joined_buf("tf.strings.reduce_join", col, sep, size::mul(nseg, inner)?)?;
    for s in 0..nseg {
        let members = &rows[starts[s]..starts[s + 1]];
        for j in 0..inner {
            crate::interrupt::check()?;
            push_segment_joined(
                &mut out,
                sep,
                members.iter().map(|&r| col.get(r * inner + j)),
            );
        }
    }
    let mut shape = t.shape().to_vec();
    if shape.is_empty() {
        shape.push(1);
    }
    shape[0] = nseg;
    Ok(Tensor::from_parts(shape, Buffer::Str(out)))
}
