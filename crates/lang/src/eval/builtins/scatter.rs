//! Writing rows at indices: `tf.scatter_nd`, `tf.tensor_scatter_nd_update` (and `_add`,
//! `_sub`, `_min`, `_max`), `tf.dynamic_stitch` and `tf.unravel_index`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Scalar, Tensor};

/// The scatter builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.scatter_nd", "(indices, updates, shape, name=None)", scatter_nd)
        .doc("A tensor of `shape`, zero except where `updates` are added in: each index of `indices` (its last axis holds a position in the first dimensions of `shape`) names the element or slice that the matching row of `updates` goes to. Repeated indices add up.")
        .examples(&[
            "tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8])",
            "tf.scatter_nd([[0], [2]], [[5, 5], [6, 6]], [4, 2])",
        ]),
    Builtin::function("tf.tensor_scatter_nd_update", "(tensor, indices, updates, name=None)", scatter_update)
        .doc("A copy of `tensor` with the elements or slices `indices` names replaced by `updates` (as tf.scatter_nd lays them out). An index out of range is an InvalidArgumentError.")
        .examples(&["tf.tensor_scatter_nd_update(tf.constant([1, 2, 3, 4]), [[1], [3]], [9, 10])"]),
    Builtin::function("tf.tensor_scatter_nd_add", "(tensor, indices, updates, name=None)", scatter_add)
        .doc("A copy of `tensor` with `updates` added at the elements or slices `indices` names (repeated indices add up).")
        .examples(&["tf.tensor_scatter_nd_add(tf.constant([1, 2, 3, 4]), [[1], [1]], [9, 10])"]),
    Builtin::function("tf.tensor_scatter_nd_sub", "(tensor, indices, updates, name=None)", scatter_sub)
        .doc("A copy of `tensor` with `updates` subtracted at the elements or slices `indices` names.")
        .examples(&["tf.tensor_scatter_nd_sub(tf.constant([1.0, 2.0]), [[0]], [0.5])"]),
    Builtin::function("tf.tensor_scatter_nd_min", "(tensor, indices, updates, name=None)", scatter_min)
        .doc("A copy of `tensor` where each element `indices` names becomes the minimum of itself and its updates.")
        .examples(&["tf.tensor_scatter_nd_min(tf.constant([1, 2, 3]), [[0], [2]], [0, 5])"]),
    Builtin::function("tf.tensor_scatter_nd_max", "(tensor, indices, updates, name=None)", scatter_max)
        .doc("A copy of `tensor` where each element `indices` names becomes the maximum of itself and its updates.")
        .examples(&["tf.tensor_scatter_nd_max(tf.constant([1, 2, 3]), [[0], [2]], [0, 5])"]),
    Builtin::function("tf.dynamic_stitch", "(indices, data, name=None)", dynamic_stitch)
        .doc("Interleaves the rows of the tensors in `data` into one tensor: row `indices[i][j]` of the result is `data[i][j]` (a later index wins over an earlier one). Rows no index names are zeros.")
        .examples(&["tf.dynamic_stitch([[0, 2], [1, 3]], [[1, 2], [3, 4]])"]),
    Builtin::function("tf.unravel_index", "(indices, dims, name=None)", unravel_index)
        .doc("The coordinates of flat positions `indices` in an array of shape `dims`: a vector for one index, a [len(dims), n] matrix for a vector of them. `indices` and `dims` need the same integer dtype.")
        .examples(&["tf.unravel_index([1, 5, 2], [3, 4])", "tf.unravel_index(5, [3, 4])"]),
];

fn dense_arg(a: &Args, name: &str, hint: Option<DType>) -> Result<Tensor> {
    match &*a.array(name, hint)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::ValueError,
            "TypeError: object of type 'RaggedTensor' has no len()",
        )
        .at(a.span(name))
        .with_hint("this operation takes dense tensors: convert with rt.to_tensor()")),
    }
}

/// How a scatter combines an update with what is there.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Update,
    Add,
    Sub,
    Min,
    Max,
}

/// Where each update row goes: the flat offsets of the target slices, and a slice's size.
fn targets(
    indices: &Tensor,
    shape: &[usize],
    updates: &Tensor,
    op_name: &str,
) -> std::result::Result<(Vec<usize>, usize), Exception> {
    if !matches!(indices.dtype(), DType::Int32 | DType::Int64) {
        return Err(ragtag_engine::type_error!(
            "indices must be int32 or int64, not {}",
            indices.dtype()
        ));
    }
    let depth = *indices.shape().last().unwrap_or(&0);
    if indices.rank() == 0 || depth > shape.len() {
        return Err(ragtag_engine::invalid_arg!(
            "indices' last dimension ({depth}) must be at most the rank of the output ({}) in {op_name}",
            shape.len()
        ));
    }
    let lead = &indices.shape()[..indices.rank() - 1];
    let mut want: Vec<usize> = lead.to_vec();
    want.extend(&shape[depth..]);
    if updates.shape() != want.as_slice() {
        return Err(ragtag_engine::invalid_arg!(
            "updates must have shape indices.shape[:-1] + shape[indices.shape[-1]:] = {want:?}, got {:?} in {op_name}",
            updates.shape()
        ));
    }
    let slice: usize = shape[depth..].iter().product();
    let idx = indices.data().to_i64_vec().unwrap_or_default();
    let n: usize = lead.iter().product();
    let mut out = ragtag_engine::budget::vec::<usize>(op_name, n)?;
    for i in 0..n {
        let pos = &idx[i * depth..(i + 1) * depth];
        let mut off = 0usize;
        for (k, &p) in pos.iter().enumerate() {
            if p < 0 || p as usize >= shape[k] {
                return Err(ragtag_engine::invalid_arg!(
                    "indices[{i}] = {pos:?} does not index into shape {shape:?}"
                ));
            }
            off = off * shape[k] + p as usize;
        }
        out.push(off * slice);
    }
    Ok((out, slice))
}

/// Applies the updates to `base` (flat elements of `dtype`).
fn apply(
    base: &Tensor,
    updates: &Tensor,
    offsets: &[usize],
    slice: usize,
    op: Op,
) -> std::result::Result<Tensor, Exception> {
    let dtype = base.dtype();
    if op != Op::Update && matches!(dtype, DType::Bool | DType::String) {
        return Err(Exception::new(
            ExceptionClass::NotFoundError,
            format!("Could not find device for node: TensorScatter{op:?} of {dtype} tensors"),
        )
        .with_hint("only tensor_scatter_nd_update works on bool and string tensors"));
    }
    let buf = if op == Op::Update || matches!(dtype, DType::Bool | DType::String) {
        let mut items: Vec<Scalar> = (0..base.size()).map(|i| base.data().get(i)).collect();
        for (r, &off) in offsets.iter().enumerate() {
            for j in 0..slice {
                let u = updates.data().get(r * slice + j);
                items[off + j] = if op == Op::Update || dtype == DType::String {
                    u
                } else {
                    // bool scatter_nd: adding is `or`.
                    Scalar::Bool(
                        matches!(items[off + j], Scalar::Bool(true))
                            || matches!(u, Scalar::Bool(true)),
                    )
                };
            }
        }
        let mut b = Buffer::with_capacity("scatter", dtype, items.len(), 0)?;
        for s in &items {
            b.push(s);
        }
        b
    } else if dtype.is_float() {
        let mut v = base.data().to_f64_vec().unwrap_or_default();
        let u = updates.data().to_f64_vec().unwrap_or_default();
        for (r, &off) in offsets.iter().enumerate() {
            for j in 0..slice {
                let (x, y) = (v[off + j], u[r * slice + j]);
                v[off + j] = match op {
                    Op::Add => x + y,
                    Op::Sub => x - y,
                    Op::Min => x.min(y),
                    Op::Max => x.max(y),
                    Op::Update => y,
                };
            }
        }
        Buffer::from_f64s(v, dtype)
    } else {
        let mut v = base.data().to_i64_vec().unwrap_or_default();
        let u = updates.data().to_i64_vec().unwrap_or_default();
        for (r, &off) in offsets.iter().enumerate() {
            for j in 0..slice {
                let (x, y) = (v[off + j], u[r * slice + j]);
                v[off + j] = match op {
                    Op::Add => x.wrapping_add(y),
                    Op::Sub => x.wrapping_sub(y),
                    Op::Min => x.min(y),
                    Op::Max => x.max(y),
                    Op::Update => y,
                };
            }
        }
        Buffer::from_i64s(v, dtype)
    };
    Tensor::new(base.shape().to_vec(), buf)
}

fn tensor_scatter(a: &Args, op: Op) -> Result<Value> {
    let base = dense_arg(a, "tensor", None)?;
    let indices = dense_arg(a, "indices", None)?;
    let updates = dense_arg(a, "updates", Some(base.dtype()))?;
    if updates.dtype() != base.dtype() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "updates must have tensor's dtype {}, not {}",
                base.dtype(),
                updates.dtype()
            ),
        )
        .at(a.span("updates")));
    }
    let name = a.builtin().short_name();
    let (offsets, slice) =
        targets(&indices, base.shape(), &updates, name).map_err(|e| Error::from(e).at(a.call))?;
    apply(&base, &updates, &offsets, slice, op)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn scatter_update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    tensor_scatter(a, Op::Update)
}
fn scatter_add(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    tensor_scatter(a, Op::Add)
}
fn scatter_sub(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    tensor_scatter(a, Op::Sub)
}
fn scatter_min(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    tensor_scatter(a, Op::Min)
}
fn scatter_max(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    tensor_scatter(a, Op::Max)
}

fn scatter_nd(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let indices = dense_arg(a, "indices", None)?;
    let updates = dense_arg(a, "updates", None)?;
    let shape: Vec<usize> = crate::value::convert::to_ints(a.value("shape"))
        .map_err(|e| a.err_at("shape", e))?
        .into_iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                Error::new(
                    ExceptionClass::InvalidArgumentError,
                    format!("shape must not hold negative sizes, got {d}"),
                )
                .at(a.span("shape"))
            })
        })
        .collect::<Result<_>>()?;
    let zero = Scalar::default_of(updates.dtype());
    let base = Tensor::filled("tf.scatter_nd", shape.clone(), &zero)
        .map_err(|e| Error::from(e).at(a.call))?;
    let (offsets, slice) =
        targets(&indices, &shape, &updates, "ScatterNd").map_err(|e| Error::from(e).at(a.call))?;
    let op = if updates.dtype() == DType::String {
        Op::Update
    } else {
        Op::Add
    };
    apply_scatter_nd(&base, &updates, &offsets, slice, op)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// scatter_nd adds into zeros (bools combine with `or`, strings: the last update wins).
fn apply_scatter_nd(
    base: &Tensor,
    updates: &Tensor,
    offsets: &[usize],
    slice: usize,
    op: Op,
) -> std::result::Result<Tensor, Exception> {
    if updates.dtype() == DType::Bool {
        // `apply` refuses Add on bools (TensorFlow's tensor_scatter_nd_add has no bool
        // kernel), but ScatterNd's bool kernel ors the updates.
        #[allow(clippy::disallowed_methods)] // the size of the output, already allocated
        let mut items: Vec<bool> = vec![false; base.size()];
        for (r, &off) in offsets.iter().enumerate() {
            for j in 0..slice {
                items[off + j] |= matches!(updates.data().get(r * slice + j), Scalar::Bool(true));
            }
        }
        let mut b = Buffer::with_capacity("tf.scatter_nd", DType::Bool, items.len(), 0)?;
        for x in items {
            b.push(&Scalar::Bool(x));
        }
        return Tensor::new(base.shape().to_vec(), b);
    }
    apply(base, updates, offsets, slice, op)
}

fn dynamic_stitch(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let list = |name: &str| -> Result<Vec<Tensor>> {
        let v = a.value(name);
        let items = crate::value::subscript_items(v);
        items
            .iter()
            .map(|x| {
                match &*crate::eval::convert::to_array(x, None).map_err(|e| a.err_at(name, e))? {
                    Array::Dense(t) => Ok(t.clone()),
                    Array::Ragged(_) => Err(Error::new(
                        ExceptionClass::ValueError,
                        "dynamic_stitch takes dense tensors",
                    )
                    .at(a.span(name))),
                }
            })
            .collect()
    };
    if !matches!(a.value("indices"), Value::List(_) | Value::Tuple(_))
        || !matches!(a.value("data"), Value::List(_) | Value::Tuple(_))
    {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "indices and data must be lists of tensors",
        )
        .at(a.call));
    }
    let indices = list("indices")?;
    let data = list("data")?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if indices.len() != data.len() || indices.is_empty() {
        return Err(bad(format!(
            "indices and data must have the same number of tensors (and at least one), got {} and {}",
            indices.len(),
            data.len()
        )));
    }
    let dtype = data[0].dtype();
    let mut row_shape: Option<Vec<usize>> = None;
    let mut n = 0usize;
    for (i, (ix, d)) in indices.iter().zip(&data).enumerate() {
        if !matches!(ix.dtype(), DType::Int32 | DType::Int64) {
            return Err(bad(format!(
                "indices[{i}] must be int32, not {}",
                ix.dtype()
            )));
        }
        if d.dtype() != dtype {
            return Err(bad(format!(
                "data[{i}] has dtype {} but data[0] has {dtype}",
                d.dtype()
            )));
        }
        if d.rank() < ix.rank() || d.shape()[..ix.rank()] != *ix.shape() {
            return Err(bad(format!(
                "data[{i}].shape = {:?} does not start with indices[{i}].shape = {:?}",
                d.shape(),
                ix.shape()
            )));
        }
        let rs = d.shape()[ix.rank()..].to_vec();
        match &row_shape {
            None => row_shape = Some(rs),
            Some(r) if *r != rs => {
                return Err(bad(format!(
                    "data[{i}]'s rows have shape {rs:?}, but data[0]'s have {r:?}"
                )))
            }
            _ => {}
        }
        for &k in &ix.data().to_i64_vec().unwrap_or_default() {
            if k < 0 {
                return Err(bad(format!("indices[{i}] holds a negative index {k}")));
            }
            n = n.max(k as usize + 1);
        }
    }
    let row_shape = row_shape.unwrap_or_default();
    let row: usize = row_shape.iter().product();
    let mut src: Vec<Option<(usize, usize)>> =
        ragtag_engine::budget::filled("tf.dynamic_stitch", None, n)
            .map_err(|e| Error::from(e).at(a.call))?;
    for (i, ix) in indices.iter().enumerate() {
        for (j, &k) in ix
            .data()
            .to_i64_vec()
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            src[k as usize] = Some((i, j));
        }
    }
    let zero = Scalar::default_of(dtype);
    let mut b = Buffer::with_capacity("tf.dynamic_stitch", dtype, n * row, 0)
        .map_err(|e| Error::from(e).at(a.call))?;
    for s in &src {
        for e in 0..row {
            match s {
                Some((i, j)) => b.push(&data[*i].data().get(j * row + e)),
                None => b.push(&zero),
            }
        }
    }
    let mut shape = vec![n];
    shape.extend(row_shape);
    Tensor::new(shape, b)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn unravel_index(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let idx = dense_arg(a, "indices", None)?;
    let dims = dense_arg(a, "dims", Some(idx.dtype()))?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if !matches!(idx.dtype(), DType::Int32 | DType::Int64) {
        return Err(bad(format!(
            "indices must be int32 or int64, not {}",
            idx.dtype()
        )));
    }
    if dims.dtype() != idx.dtype() {
        return Err(bad(format!(
            "cannot compute UnravelIndex as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
            idx.dtype(),
            dims.dtype()
        )));
    }
    if idx.rank() > 1 || dims.rank() != 1 {
        return Err(bad(
            "indices must be a scalar or a vector, and dims a vector".into(),
        ));
    }
    let d = dims.data().to_i64_vec().unwrap_or_default();
    if d.iter().any(|&x| x <= 0) {
        return Err(bad("dims must hold positive sizes".into()));
    }
    let total: i64 = d.iter().product();
    let v = idx.data().to_i64_vec().unwrap_or_default();
    let nd = d.len();
    let mut coords = ragtag_engine::budget::filled("tf.unravel_index", 0i64, nd * v.len())
        .map_err(|e| Error::from(e).at(a.call))?;
    for (j, &x) in v.iter().enumerate() {
        if x < 0 || x >= total {
            return Err(bad("index is out of bound as with dims".into()));
        }
        let mut rem = x;
        for k in (0..nd).rev() {
            coords[k * v.len() + j] = rem % d[k];
            rem /= d[k];
        }
    }
    let shape = if idx.rank() == 0 {
        vec![nd]
    } else {
        vec![nd, v.len()]
    };
    Tensor::new(shape, Buffer::from_i64s(coords, idx.dtype()))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}
