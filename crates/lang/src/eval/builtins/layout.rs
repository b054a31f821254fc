//! Rearranging tensors: `tf.transpose`, `tf.split`, `tf.unstack`, `tf.roll`, `tf.pad`,
//! `tf.sequence_mask`, and the running sums and products `tf.math.cumsum` / `cumprod`
//! (cumsum also per row of a RaggedTensor, as TensorFlow's ragged dispatch does).

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::layout::{self, PadMode};
use ragtag_engine::ops::scan::{self, Scan};
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Ragged, Tensor};

/// Layout builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.transpose", "(a, perm=None, conjugate=False, name='transpose')", transpose)
        .doc("Permutes the dimensions: dimension i of the result is dimension perm[i] of `a` (default: reversed). `conjugate` has no effect on real tensors.")
        .examples(&["tf.transpose(tf.constant([[1, 2, 3], [4, 5, 6]]))", "tf.transpose(tf.reshape(tf.range(6), [1, 2, 3]), perm=[0, 2, 1])"]),
    Builtin::function("tf.split", "(value, num_or_size_splits, axis=0, num=None, name='split')", split)
        .doc("Cuts `value` along `axis` into a list of tensors: `num_or_size_splits` equal pieces, or pieces of the listed sizes (one of them may be -1 for the rest, except on a RaggedTensor). A RaggedTensor splits along its rows (axis 0) or a uniform inner dimension, not a ragged one.")
        .examples(&["tf.split(tf.constant([[1, 2, 3, 4], [5, 6, 7, 8]]), 2, axis=1)", "tf.split(tf.ragged.constant([[1, 2], [3], [], [4]]), [1, 3])"]),
    Builtin::function("tf.unstack", "(value, num=None, axis=0, name='unstack')", unstack)
        .doc("The slices of `value` along `axis`, as a list of tensors of one rank less.")
        .examples(&["tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1)"]),
    Builtin::function("tf.roll", "(input, shift, axis, name=None)", roll)
        .doc("Moves every element `shift` places along `axis`, wrapping around (lists of shifts and axes shift several dimensions; shifts of one axis add up).")
        .examples(&["tf.roll(tf.constant([0, 1, 2, 3, 4]), shift=2, axis=0)", "tf.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), shift=[1, -1], axis=[0, 1])"]),
    Builtin::function("tf.pad", "(tensor, paddings, mode='CONSTANT', constant_values=0, name=None)", pad)
        .doc("Adds paddings[d][0] elements before and paddings[d][1] after each dimension d: copies of `constant_values`, or the tensor's mirror image (`REFLECT` leaves the edge out, `SYMMETRIC` repeats it; any case).")
        .examples(&["tf.pad(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 2]])", "tf.pad(tf.constant([1, 2, 3]), [[2, 2]], mode='reflect')"]),
    Builtin::function("tf.sequence_mask", "(lengths, maxlen=None, dtype=tf.bool, name=None)", sequence_mask)
        .doc("A mask of shape lengths.shape + [maxlen] that is true in the first lengths[i] places of row i; maxlen defaults to the largest length.")
        .examples(&["tf.sequence_mask([1, 3, 2], 5)", "tf.sequence_mask(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]).row_lengths())"]),
    Builtin::function("tf.math.cumsum", "(x, axis=0, exclusive=False, reverse=False, name=None)", |_, a| cumulative(a, false))
        .doc("The running sum along `axis` (`exclusive`: each leaves out its own element; `reverse`: from the end). On a RaggedTensor along its last ragged axis each row sums on its own; along an outer axis the rows are padded with zeros first, as TensorFlow does.")
        .examples(&["tf.math.cumsum(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), axis=1)", "tf.math.cumsum([1, 2, 3], exclusive=True, reverse=True)"]),
    Builtin::function("tf.math.cumprod", "(x, axis=0, exclusive=False, reverse=False, name=None)", |_, a| cumulative(a, true))
        .doc("The running product along `axis` (`exclusive`: each leaves out its own element; `reverse`: from the end).")
        .examples(&["tf.math.cumprod([1, 2, 3, 4])", "tf.math.cumprod([[1, 2], [3, 4]], axis=1, exclusive=True)"]),
];

/// Argument `name` as a dense tensor; a RaggedTensor or SparseTensor is TensorFlow's
/// ValueError (its ops without their dispatch cannot convert one).
pub(super) fn dense_arg(a: &Args, name: &str, hint: Option<DType>) -> Result<Tensor> {
    if let Value::Sparse(_) = a.value(name) {
        // TensorFlow cannot convert a SparseTensor to a Tensor either: a ValueError.
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "{} does not take a SparseTensor: TensorFlow cannot convert it to a Tensor",
                a.builtin().name
            ),
        )
        .at(a.span(name))
        .with_hint("densify it first: tf.sparse.to_dense(st)"));
    }
    match &*a.array(name, hint)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "{} does not take a RaggedTensor: TensorFlow cannot convert it to a Tensor",
                a.builtin().name
            ),
        )
        .at(a.span(name))
        .with_hint("convert it first: rt.to_tensor(), or work on rt.flat_values")),
    }
}

/// An index vector as a tensor of an integer `dtype`.
pub(super) fn index_tensor(shape: Vec<usize>, v: Vec<i64>, dtype: DType) -> Tensor {
    Tensor::from_parts(shape, Buffer::from_i64s(v, dtype))
}

fn transpose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "a", None)?;
    let perm = match a.get("perm") {
        Some(_) => a.ints("perm")?,
        None => (0..t.rank() as i64).rev().collect(),
    };
    layout::transpose(&t, &perm)
        .map(Value::tensor)
        .map_err(|e| a.err_at("perm", e))
}

/// The sizes `num_or_size_splits` asks for along a dimension of length `n`.
fn split_sizes(a: &Args, n: usize, ragged: bool) -> Result<Vec<usize>> {
    let spec = a.value("num_or_size_splits");
    let at = |e: ragtag_engine::Exception| a.err_at("num_or_size_splits", e);
    let scalar = match spec {
        Value::Int(k) => Some(*k),
        Value::Array(t) if t.rank() == 0 => Some(a.int("num_or_size_splits")?),
        _ => None,
    };
    if let Some(k) = scalar {
        if k <= 0 || !n.is_multiple_of(k as usize) {
            return Err(at(ragtag_engine::invalid_arg!(
                "Number of ways to split should evenly divide the split dimension, but got split_dim (size = {n}) and num_split {k}"
            )));
        }
        let k = k as usize;
        return Ok((0..k).map(|_| n / k).collect());
    }
    let sizes = a.ints("num_or_size_splits")?;
    if ragged && sizes.iter().any(|&s| s < 0) {
        return Err(at(ragtag_engine::invalid_arg!(
            "`num_or_size_splits` must be non-negative: a RaggedTensor's split sizes cannot use -1"
        )));
    }
    let unknown: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] == -1).collect();
    if unknown.len() > 1 {
        return Err(at(ragtag_engine::invalid_arg!(
            "Determined shape must either match input shape along split_dim exactly if fully specified, or be less than the size of the input along split_dim if not fully specified.  Got: there can only be one -1 in the input."
        )));
    }
    let known: i128 = sizes.iter().filter(|&&s| s != -1).map(|&s| s as i128).sum();
    if sizes.iter().any(|&s| s < -1)
        || (unknown.is_empty() && known != n as i128)
        || (!unknown.is_empty() && known > n as i128)
    {
        return Err(at(ragtag_engine::invalid_arg!(
            "Determined shape must either match input shape along split_dim exactly if fully specified, or be less than the size of the input along split_dim if not fully specified.  Got: {known}"
        )));
    }
    Ok(sizes
        .iter()
        .map(|&s| {
            if s == -1 {
                (n as i128 - known) as usize
            } else {
                s as usize
            }
        })
        .collect())
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("value", None)?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    match &*x {
        Array::Dense(t) => {
            let k = super::common::axis_arg(
                a,
                "axis",
                axis,
                t.rank(),
                ExceptionClass::InvalidArgumentError,
            )?;
            let sizes = split_sizes(a, t.shape()[k], false)?;
            let parts = layout::split(t, k, &sizes).map_err(|e| a.err_at("value", e))?;
            Ok(Value::list(parts.into_iter().map(Value::tensor).collect()))
        }
        Array::Ragged(r) => {
            let k = super::common::axis_arg(a, "axis", axis, r.rank(), ExceptionClass::ValueError)?;
            if k == 0 {
                let sizes = split_sizes(a, r.nrows(), true)?;
                let mut off = 0;
                let mut out = Vec::new();
                for s in sizes {
                    out.push(Value::ragged(r.slice_rows(off, off + s)));
                    off += s;
                }
                return Ok(Value::list(out));
            }
            if k <= r.ragged_rank() {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("Cannot split a ragged dimension. Got `value` with ragged_rank {} and `axis` {axis}.", r.ragged_rank()),
                )
                .at(a.span("axis")));
            }
            let fv = r.flat_values();
            let inner = k - r.ragged_rank();
            let sizes = split_sizes(a, fv.shape()[inner], true)?;
            let parts = layout::split(fv, inner, &sizes).map_err(|e| a.err_at("value", e))?;
            parts
                .into_iter()
                .map(|p| r.with_flat_values(p).map(Value::ragged))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::list)
                .map_err(|e| a.err_at("value", e))
        }
    }
}

fn unstack(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "value", None)?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    let rank = t.rank() as i64;
    if axis < -rank.max(1) || axis >= rank.max(1) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "Argument `axis` = {axis} not in range [{}, {})",
                -rank, rank
            ),
        )
        .at(a.span("axis")));
    }
    if rank == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "Input shape axis 0 must equal the number of values to unstack: a scalar has no axis 0",
        )
        .at(a.span("value")));
    }
    let k = if axis < 0 { axis + rank } else { axis } as usize;
    let n = t.shape()[k];
    if let Some(num) = a.opt_int("num")? {
        if num != n as i64 {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "Input shape axis {k} must equal {num}, got shape {}",
                    ragtag_engine::ops::dense_shape_str(t.shape())
                ),
            )
            .at(a.span("num")));
        }
    }
    if k == 0 {
        // Rows along the first axis share the tensor's storage.
        return (0..n as i64)
            .map(|i| t.row(i).map(Value::tensor))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::list)
            .map_err(|e| a.err_at("value", e));
    }
    let sizes: Vec<usize> = (0..n).map(|_| 1).collect();
    let parts = layout::split(&t, k, &sizes).map_err(|e| a.err_at("value", e))?;
    let mut shape = t.shape().to_vec();
    shape.remove(k);
    parts
        .into_iter()
        .map(|p| p.reshaped(shape.clone()).map(Value::tensor))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::list)
        .map_err(|e| a.err_at("value", e))
}

fn roll(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "input", None)?;
    let shift = a.ints("shift")?;
    let axis = a.ints("axis")?;
    layout::roll(&t, &shift, &axis)
        .map(Value::tensor)
        .map_err(|e| a.err_at("shift", e))
}

fn pad(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "tensor", None)?;
    let p = dense_arg(a, "paddings", Some(DType::Int32))?;
    if !p.dtype().is_int() || p.rank() != 2 || p.shape()[1] != 2 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "paddings must be a matrix with 2 columns of integers: {}",
                ragtag_engine::ops::dense_shape_str(p.shape())
            ),
        )
        .at(a.span("paddings")));
    }
    let v = p.to_i64_vec().unwrap_or_default();
    let pairs: Vec<(i64, i64)> = v.chunks(2).map(|c| (c[0], c[1])).collect();
    let mode = match a.value("mode") {
        Value::Str(s) => PadMode::parse(s).map_err(|e| a.err_at("mode", e))?,
        Value::None => PadMode::Constant,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("mode must be a str, not {}", other.type_name()),
            )
            .at(a.span("mode")))
        }
    };
    let c = match a.get("constant_values") {
        Some(_) => dense_arg(a, "constant_values", Some(t.dtype()))?,
        None => Tensor::scalar(
            ragtag_engine::ops::cast::cast_scalar(&ragtag_engine::Scalar::I64(0), t.dtype())
                .or_else(|_| {
                    Ok::<_, ragtag_engine::Exception>(ragtag_engine::Scalar::Str(Vec::new()))
                })
                .map_err(|e| a.err_at("tensor", e))?,
        ),
    };
    let value = match c.scalar_value() {
        Some(v) if c.rank() == 0 && c.dtype() == t.dtype() => v,
        _ if c.dtype() != t.dtype() => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "constant_values must have the tensor's dtype {}, not {}",
                    t.dtype(),
                    c.dtype()
                ),
            )
            .at(a.span("constant_values")))
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                "constant_values must be a scalar",
            )
            .at(a.span("constant_values")))
        }
    };
    layout::pad(&t, &pairs, mode, &value)
        .map(Value::tensor)
        .map_err(|e| a.err_at("paddings", e))
}

fn sequence_mask(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use ragtag_engine::ops::sequence_mask as kernel;
    let lengths = dense_arg(a, "lengths", None)?;
    let longest = Some(lengths.data())
        .filter(|_| lengths.dtype().is_numeric())
        .and_then(kernel::longest);
    let Some(longest) = longest else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("lengths must be numbers, not {}", lengths.dtype()),
        )
        .at(a.span("lengths")));
    };
    let given = a.opt_int("maxlen")?;
    // Without maxlen, the longest length (at least 0), a count of places: ceil of a float.
    let maxlen = given.unwrap_or(longest as i64);
    if maxlen < 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("Requires start <= limit when delta > 0: 0/{maxlen}"),
        )
        .at(a.span("maxlen")));
    }
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Bool);
    let m = maxlen as usize;
    let mut shape = lengths.shape().to_vec();
    shape.push(m);
    ragtag_engine::budget::check_shape("tf.sequence_mask", &shape, 1)
        .map_err(|e| a.err_at("maxlen", e))?;
    // With an int maxlen, TensorFlow casts the lengths to its dtype first (a float length
    // truncated); without one, places and lengths compare as the lengths' type.
    let out =
        kernel::rows(lengths.data(), m, given.is_some()).map_err(|e| a.err_at("maxlen", e))?;
    let mask = Tensor::from_parts(shape, Buffer::from(out));
    let mask = if dtype == DType::Bool {
        mask
    } else {
        let data = ragtag_engine::ops::cast::cast_buffer(mask.data(), dtype)
            .map_err(|e| a.err_at("dtype", e))?;
        Tensor::from_parts(mask.shape().to_vec(), data)
    };
    Ok(Value::tensor(mask))
}

fn cumulative(a: &Args, prod: bool) -> Result<Value> {
    let x = a.array("x", None)?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    let how = Scan {
        prod,
        exclusive: a.flag("exclusive", false)?,
        reverse: a.flag("reverse", false)?,
    };
    let op = if prod { "Cumprod" } else { "Cumsum" };
    let bad_axis = |rank: usize| {
        Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "{op}: Expected scan axis in the range [{}, {rank}), but got {axis}",
                -(rank as i64)
            ),
        )
        .at(a.span("axis"))
    };
    match &*x {
        Array::Dense(t) => {
            let k = ragtag_engine::size::index(axis, t.rank()).ok_or_else(|| bad_axis(t.rank()))?;
            scan::scan(t, k, how)
                .map(Value::tensor)
                .map_err(|e| a.err_at("x", e))
        }
        Array::Ragged(r) if !prod => {
            let k = ragtag_engine::size::index(axis, r.rank()).ok_or_else(|| {
                Error::new(
                    ExceptionClass::ValueError,
                    format!("axis={axis} out of bounds: expected {} <= axis < {}", -(r.rank() as i64), r.rank()),
                )
                .at(a.span("axis"))
            })?;
            ragged_cumsum(r, k, how)
                .map(Value::ragged)
                .map_err(|e| a.err_at("x", e))
        }
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::ValueError,
            "tf.math.cumprod does not take a RaggedTensor: TensorFlow cannot convert it to a Tensor",
        )
        .at(a.span("x"))),
    }
}

/// TensorFlow's `ragged_cumsum`: along the last ragged axis row by row, along a uniform
/// inner axis on the flat values, and along an outer axis on the zero-padded dense tensor,
/// cut back to the rows' lengths.
fn ragged_cumsum(r: &Ragged, axis: usize, how: Scan) -> ragtag_engine::Result<Ragged> {
    let rr = r.ragged_rank();
    let fv = r.flat_values();
    if axis == rr {
        let last = &r.partitions()[rr - 1];
        return r.with_flat_values(scan::scan_rows(fv, last.row_splits(), how)?);
    }
    if axis > rr {
        return r.with_flat_values(scan::scan(fv, axis - rr, how)?);
    }
    // Where each flat value lands in the padded tensor: pad an iota of the flat rows.
    let nvals = fv.shape()[0];
    let iota = Tensor::from_parts(
        vec![nvals],
        Buffer::from((0..nvals as i64).collect::<Vec<_>>()),
    );
    let where_ = Ragged::new(r.partitions().to_vec(), iota)?
        .to_tensor(&ragtag_engine::Scalar::I64(-1), None)?;
    let zero = ragtag_engine::ops::cast::cast_scalar(&ragtag_engine::Scalar::I64(0), fv.dtype())?;
    let dense = r.to_tensor(&zero, None)?;
    let summed = scan::scan(&dense, axis, how)?;
    let inner = fv.row_size();
    let slots = where_.to_i64_vec().unwrap_or_default();
    let mut ranges: Vec<(usize, usize)> = (0..nvals).map(|_| (0, 0)).collect();
    for (p, &j) in slots.iter().enumerate() {
        if j >= 0 {
            ranges[j as usize] = (p * inner, (p + 1) * inner);
        }
    }
    let values = Tensor::from_parts(fv.shape().to_vec(), summed.data().gather_ranges(&ranges));
    r.with_flat_values(values)
}
