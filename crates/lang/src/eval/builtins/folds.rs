//! Builtins that call a user function along the rows of nested tensors — `tf.scan`,
//! `tf.foldl`, `tf.foldr`, `tf.vectorized_map` — and the ones that call it on tensors as
//! a Python function would be: `tf.py_function` and `tf.numpy_function`.

use super::control_flow::is_callable;
use super::nest::{leaves_to_tensors, same_structure};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::concat;
use ragtag_engine::{Array, DType, Exception, ExceptionClass, Scalar, Tensor};

/// The folding and function-wrapping builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function(
        "tf.scan",
        "(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True, reverse=False, name=None)",
        scan,
    )
    .doc("Calls `a = fn(a, x)` for each row `x` of `elems` in turn (from the last with `reverse=True`) and stacks every `a`. `a` starts as `initializer`, or as the first row (which is then the first result). `elems` and `initializer` may be tuples, lists or dicts of tensors; `fn` must return the structure and dtypes of `a`.")
    .examples(&[
        "tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4]))",
        "tf.scan(lambda a, x: a * x, tf.constant([1, 2, 3, 4]), initializer=tf.constant(10), reverse=True)",
    ]),
    Builtin::function(
        "tf.foldl",
        "(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None)",
        foldl,
    )
    .doc("Calls `a = fn(a, x)` for each row `x` of `elems` from the first, and returns the last `a`. `a` starts as `initializer`, or as the first row. `elems` may be a tuple, list or dict of tensors.")
    .examples(&[
        "tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3, 4]))",
        "tf.foldl(lambda a, x: a + x[0] * x[1], (tf.constant([1, 2, 3]), tf.constant([4, 5, 6])), initializer=0)",
    ]),
    Builtin::function(
        "tf.foldr",
        "(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None)",
        foldr,
    )
    .doc("Calls `a = fn(a, x)` for each row `x` of `elems` from the last, and returns the last `a`. `a` starts as `initializer`, or as the last row.")
    .examples(&["tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3, 4]))"]),
    Builtin::function(
        "tf.vectorized_map",
        "(fn, elems, fallback_to_while_loop=True, warn=True)",
        vectorized_map,
    )
    .doc("Calls `fn` on each row of `elems` (a tensor, or a tuple, list or dict of tensors with the same number of rows) and stacks the results, which may be nested too. ragtag runs the rows one by one; the answers are TensorFlow's vectorized ones.")
    .examples(&[
        "tf.vectorized_map(lambda x: x * 2, tf.constant([[1, 2], [3, 4]]))",
        "tf.vectorized_map(lambda row: tf.reduce_sum(row[0] * row[1]), (tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]])))",
    ]),
    Builtin::function("tf.py_function", "(func=None, inp=None, Tout=None, name=None)", py_function)
        .doc("Calls `func(*inp)` with each input made a tensor, and makes its result a tensor of dtype `Tout` (a list of dtypes gives a list of tensors; a tf.RaggedTensorSpec a ragged tensor). A result tensor of another dtype is an InvalidArgumentError, as is a ValueError or TypeError raised by `func`.")
        .examples(&[
            "tf.py_function(lambda x, y: x * y, [tf.constant(2.0), 3.0], Tout=tf.float32)",
            "tf.py_function(lambda x: (x, x + 1), [5], Tout=[tf.int32, tf.int32])",
        ]),
    Builtin::function("tf.numpy_function", "(func=None, inp=None, Tout=None, stateful=True, name=None)", numpy_function)
        .doc("Calls `func(*inp)` with each input made a NumPy array (Python ints as int64, floats as float64), and makes its result a tensor, keeping the dtype NumPy gave it. A list of dtypes as `Tout` gives a list of tensors.")
        .examples(&[
            "tf.numpy_function(lambda x: x * 2, [tf.constant([1, 2])], tf.int32)",
            "tf.numpy_function(lambda x, y: x + y, [1, 2], tf.int64)",
        ]),
];

/// The leaves of a nest of lists, tuples and dicts, in order.
fn flatten(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            for x in crate::value::subscript_items(v) {
                flatten(&x, out);
            }
        }
        Value::Dict(d) => {
            for x in d.values() {
                flatten(&x, out);
            }
        }
        other => out.push(other.clone()),
    }
}

/// `structure` with its leaves replaced, in order, by `leaves`.
fn pack(
    structure: &Value,
    leaves: &mut impl Iterator<Item = Value>,
) -> std::result::Result<Value, Exception> {
    Ok(match structure {
        Value::List(l) => Value::list(
            l.items()
                .iter()
                .map(|x| pack(x, leaves))
                .collect::<std::result::Result<_, _>>()?,
        ),
        Value::Tuple(t) => Value::tuple(
            t.iter()
                .map(|x| pack(x, leaves))
                .collect::<std::result::Result<_, _>>()?,
        ),
        Value::Dict(d) => {
            let mut pairs = Vec::new();
            for (k, x) in d.items() {
                pairs.push((k, pack(&x, leaves)?));
            }
            Value::Dict(crate::value::PyDict::new(pairs)?)
        }
        _ => leaves.next().unwrap_or(Value::None),
    })
}

/// The rows to fold over: `elems`' structure, its leaves as tensors and their row count.
struct Elems {
    structure: Value,
    leaves: Vec<Array>,
    n: usize,
}

impl Elems {
    fn read(a: &Args, ragged_class: ExceptionClass) -> Result<Elems> {
        let structure = a.value("elems").clone();
        let mut raw = Vec::new();
        flatten(&structure, &mut raw);
        let mut leaves = Vec::new();
        for v in &raw {
            let arr = convert::to_array(v, None).map_err(|e| a.err_at("elems", e))?;
            if matches!(*arr, Array::Ragged(_)) {
                return Err(Error::new(
                    ragged_class,
                    "elems must be dense tensors: a RaggedTensor has no static number of rows to iterate over",
                )
                .at(a.span("elems"))
                .with_hint("use tf.map_fn for ragged tensors"));
            }
            if arr.rank() == 0 {
                return Err(Error::new(
                    ExceptionClass::IndexError,
                    "tuple index out of range: every tensor in elems needs a first dimension to iterate over, and this one is a scalar",
                )
                .at(a.span("elems"))
                .with_hint("a Python list of numbers is a structure of scalars: pass tf.constant([...]) to iterate over its items"));
            }
            leaves.push((*arr).clone());
        }
        if leaves.is_empty() {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "elems must hold at least one tensor",
            )
            .at(a.span("elems")));
        }
        let n = leaves[0].nrows();
        if let Some(l) = leaves.iter().find(|l| l.nrows() != n) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Cannot unstack {} tensors into a TensorArray of static size {n}",
                    l.nrows()
                ),
            )
            .at(a.span("elems"))
            .with_hint("every tensor in elems needs the same number of rows"));
        }
        Ok(Elems {
            structure,
            leaves,
            n,
        })
    }

    /// Row `i` of every leaf, in `elems`' structure.
    fn row(&self, i: usize) -> std::result::Result<Value, Exception> {
        let rows = self
            .leaves
            .iter()
            .map(|l| l.row(i as i64).map(Value::from_array))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        pack(&self.structure, &mut rows.into_iter())
    }
}

fn check_fn(a: &Args) -> Result<Value> {
    let f = a.value("fn").clone();
    if !is_callable(&f) {
        return Err(Error::new(ExceptionClass::TypeError, "fn must be callable.").at(a.span("fn")));
    }
    Ok(f)
}

fn empty_without_initializer(a: &Args) -> Error {
    // TensorFlow reads row 0 of an empty TensorArray.
    Error::new(
        ExceptionClass::OutOfRangeError,
        "Tried to read from index 0 but array size is: 0",
    )
    .at(a.span("elems"))
    .with_hint("give an initializer to fold over an empty tensor")
}

/// A leaf of `fn`'s result as the dense tensor a TensorArray of `dtype` (and, after the
/// first write, `shape`) takes.
fn ta_write(
    v: &Value,
    dtype: DType,
    shape: Option<&[usize]>,
) -> std::result::Result<Tensor, Exception> {
    let arr = convert::to_array(v, Some(dtype))?;
    let Array::Dense(t) = &*arr else {
        return Err(ragtag_engine::value_error!(
            "fn returned a RaggedTensor, which a scan cannot stack"
        ));
    };
    if t.dtype() != dtype {
        return Err(ragtag_engine::invalid_arg!(
            "TensorArray dtype is {dtype} but Op is trying to write dtype {}",
            t.dtype()
        )
        .with_hint("fn must return the accumulator's dtype: cast with tf.cast"));
    }
    if let Some(s) = shape {
        if s != t.shape() {
            return Err(ragtag_engine::value_error!(
                "Incompatible shape for value ({:?}), expected ({:?})",
                t.shape(),
                s
            ));
        }
    }
    Ok(t.clone())
}

fn scan(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = check_fn(a)?;
    let elems = Elems::read(a, ExceptionClass::ValueError)?;
    let n = elems.n;
    let reverse = a.flag("reverse", false)?;
    let order: Vec<usize> = if reverse {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    let init = a.get("initializer").filter(|v| !matches!(v, Value::None));
    let err = |e: Exception| a.err_at("fn", e);
    let (mut acc, start) = match init {
        Some(v) => (
            leaves_to_tensors(v).map_err(|e| a.err_at("initializer", e))?,
            0,
        ),
        None if n == 0 => return Err(empty_without_initializer(a)),
        None => (elems.row(order[0]).map_err(err)?, 1),
    };
    let structure = acc.clone();
    let mut first = Vec::new();
    flatten(&acc, &mut first);
    let dtypes: Vec<DType> = first
        .iter()
        .map(|v| convert::to_array(v, None).map(|x| x.dtype()))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| a.err_at("initializer", e))?;
    #[allow(clippy::disallowed_methods)] // one entry a leaf of the accumulator (an existing value)
    let mut shapes: Vec<Option<Vec<usize>>> = vec![None; dtypes.len()];
    // Results by position (reverse scans fill from the end).
    let mut results: Vec<Vec<Option<Tensor>>> = Vec::new();
    for _ in &dtypes {
        results.push(
            ragtag_engine::budget::filled("tf.scan", None, n)
                .map_err(|e| Error::from(e).at(a.call))?,
        );
    }
    if start == 1 {
        for (k, v) in first.iter().enumerate() {
            let t = ta_write(v, dtypes[k], None).map_err(err)?;
            shapes[k] = Some(t.shape().to_vec());
            results[k][order[0]] = Some(t);
        }
    }
    for &i in &order[start..] {
        interp.check_cancel()?;
        let x = elems.row(i).map_err(err)?;
        let out = interp.call_values(&f, vec![acc, x], a.call)?;
        same_structure(&structure, &out).map_err(err)?;
        let mut leaves = Vec::new();
        flatten(&out, &mut leaves);
        let mut converted = Vec::new();
        for (k, v) in leaves.iter().enumerate() {
            let t = ta_write(v, dtypes[k], shapes[k].as_deref()).map_err(err)?;
            shapes[k] = Some(t.shape().to_vec());
            converted.push(Value::tensor(t.clone()));
            results[k][i] = Some(t);
        }
        acc = pack(&structure, &mut converted.into_iter()).map_err(err)?;
    }
    let mut stacked = Vec::new();
    for (k, col) in results.into_iter().enumerate() {
        let ts: Vec<Tensor> = col.into_iter().flatten().collect();
        if ts.is_empty() {
            let mut shape = vec![0];
            if let Some(v) = first.get(k) {
                shape.extend(
                    convert::to_array(v, None)
                        .map_err(err)?
                        .flat_values()
                        .shape(),
                );
            }
            stacked.push(Value::tensor(
                Tensor::new(shape, ragtag_engine::Buffer::empty(dtypes[k])).map_err(err)?,
            ));
        } else {
            let refs: Vec<&Tensor> = ts.iter().collect();
            stacked.push(Value::tensor(concat::stack_dense(&refs, 0).map_err(err)?));
        }
    }
    pack(&structure, &mut stacked.into_iter()).map_err(err)
}

fn fold(interp: &mut Interp<'_>, a: &Args, reverse: bool) -> Result<Value> {
    let f = check_fn(a)?;
    let elems = Elems::read(a, ExceptionClass::ValueError)?;
    let n = elems.n;
    let order: Vec<usize> = if reverse {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    let err = |e: Exception| a.err_at("fn", e);
    let (mut acc, start) = match a.get("initializer").filter(|v| !matches!(v, Value::None)) {
        Some(v) => (v.clone(), 0),
        None if n == 0 => return Err(empty_without_initializer(a)),
        None => (elems.row(order[0]).map_err(err)?, 1),
    };
    for &i in &order[start..] {
        interp.check_cancel()?;
        let x = elems.row(i).map_err(err)?;
        acc = interp.call_values(&f, vec![acc, x], a.call)?;
    }
    leaves_to_tensors(&acc).map_err(err)
}

fn foldl(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    fold(interp, a, false)
}

fn foldr(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    fold(interp, a, true)
}

/// A result leaf as a dense tensor.
fn dense_leaf(v: &Value) -> std::result::Result<Tensor, Exception> {
    match &*convert::to_array(v, None)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(ragtag_engine::invalid_arg!(
            "fn returned a RaggedTensor, which vectorized_map cannot stack"
        )
        .with_hint("use tf.map_fn for ragged results")),
    }
}

fn vectorized_map(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = check_fn(a)?;
    let elems = Elems::read(a, ExceptionClass::InvalidArgumentError)?;
    let err = |e: Exception| a.err_at("fn", e);
    if elems.n == 0 {
        // One call on a row of zeros gives the results' shapes; none of its values is kept.
        let zeros = elems
            .leaves
            .iter()
            .map(|l| {
                let shape = l.flat_values().shape()[1..].to_vec();
                Tensor::filled("tf.vectorized_map", shape, &Scalar::default_of(l.dtype()))
                    .map(Value::tensor)
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(err)?;
        let row = pack(&elems.structure, &mut zeros.into_iter()).map_err(err)?;
        let out = interp.call_values(&f, vec![row], a.call)?;
        let mut leaves = Vec::new();
        flatten(&out, &mut leaves);
        let mut empties = Vec::new();
        for v in &leaves {
            let t = dense_leaf(v).map_err(err)?;
            let mut shape = vec![0];
            shape.extend(t.shape());
            empties.push(Value::tensor(
                Tensor::new(shape, ragtag_engine::Buffer::empty(t.dtype())).map_err(err)?,
            ));
        }
        return pack(&out, &mut empties.into_iter()).map_err(err);
    }
    let mut structure = None;
    let mut cols: Vec<Vec<Tensor>> = Vec::new();
    for i in 0..elems.n {
        interp.check_cancel()?;
        let row = elems.row(i).map_err(err)?;
        let out = interp.call_values(&f, vec![row], a.call)?;
        match &structure {
            None => structure = Some(out.clone()),
            Some(s) => same_structure(s, &out).map_err(err)?,
        }
        let mut leaves = Vec::new();
        flatten(&out, &mut leaves);
        if cols.is_empty() {
            cols = leaves.iter().map(|_| Vec::new()).collect();
        }
        for (k, v) in leaves.iter().enumerate() {
            cols[k].push(dense_leaf(v).map_err(err)?);
        }
    }
    let mut stacked = Vec::new();
    for col in &cols {
        let refs: Vec<&Tensor> = col.iter().collect();
        let t = concat::stack_dense(&refs, 0).map_err(|e| {
            a.err_at(
                "fn",
                ragtag_engine::invalid_arg!("fn's results cannot be stacked: {}", e.message),
            )
        })?;
        stacked.push(Value::tensor(t));
    }
    let structure = structure.unwrap_or(Value::None);
    pack(&structure, &mut stacked.into_iter()).map_err(err)
}

/// `func` and its inputs, checked.
fn func_and_inputs(a: &Args) -> Result<(Value, Vec<Value>)> {
    let f = a.value("func").clone();
    if !is_callable(&f) {
        return Err(
            Error::new(ExceptionClass::TypeError, "func must be callable.").at(a.span("func")),
        );
    }
    let inp = match a.get("inp") {
        None | Some(Value::None) => Vec::new(),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => crate::value::subscript_items(v),
        Some(other) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not iterable", other.type_name()),
            )
            .at(a.span("inp"))
            .with_hint("pass the inputs as a list: inp=[x]"))
        }
    };
    Ok((f, inp))
}

/// An error raised inside the wrapped function, as the op reports it: TensorFlow's
/// EagerPyFunc turns ValueError and TypeError into InvalidArgumentError, keeps its own op
/// errors (and interrupts), and reports any other Python exception as UnknownError.
fn func_error(mut e: Error) -> Error {
    e.class = match e.class {
        ExceptionClass::ValueError | ExceptionClass::TypeError => {
            ExceptionClass::InvalidArgumentError
        }
        c if c.is_tf() || c == ExceptionClass::KeyboardInterrupt => c,
        _ => ExceptionClass::UnknownError,
    };
    e
}

/// The `Tout` dtypes (and whether a list was given).
fn touts(a: &Args) -> Result<(Vec<Value>, bool)> {
    match a.get("Tout") {
        None | Some(Value::None) => Err(Error::new(
            ExceptionClass::TypeError,
            "Missing required argument: 'Tout'",
        )
        .at(a.call)
        .with_hint("say the result's dtype, e.g. Tout=tf.float32")),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => {
            Ok((crate::value::subscript_items(v), true))
        }
        Some(v) => Ok((vec![v.clone()], false)),
    }
}

/// A result as a tensor of the dtype `tout` names (py_function's conversion).
fn to_tout(v: &Value, tout: &Value) -> std::result::Result<Value, Exception> {
    let dtype = match tout {
        Value::Spec(s) => s.dtype,
        other => convert::to_dtype(other)?,
    };
    let arr = match v {
        Value::Array(arr) => arr.clone(),
        other => convert::to_array(other, Some(dtype))?,
    };
    if arr.dtype() != dtype {
        return Err(ragtag_engine::invalid_arg!(
            "Tensor conversion requested dtype {dtype} for Tensor with dtype {}",
            arr.dtype()
        )
        .with_hint("cast the result in func, or give the dtype it has as Tout"));
    }
    Ok(Value::from_array((*arr).clone()))
}

fn py_function(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (f, inp) = func_and_inputs(a)?;
    let (touts, listed) = touts(a)?;
    let args = inp
        .iter()
        .map(|v| match v {
            Value::Array(_) | Value::Sparse(_) => Ok(v.clone()),
            other => convert::to_array(other, None).map(|x| Value::from_array((*x).clone())),
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| a.err_at("inp", e))?;
    let out = interp.call_values(&f, args, a.call).map_err(func_error)?;
    finish(a, &out, &touts, listed, to_tout)
}

/// Pairs the function's results with `Tout` and converts each.
fn finish(
    a: &Args,
    out: &Value,
    touts: &[Value],
    listed: bool,
    conv: fn(&Value, &Value) -> std::result::Result<Value, Exception>,
) -> Result<Value> {
    let err = |e: Exception| a.err_at("func", e);
    if !listed {
        return conv(out, &touts[0]).map_err(err);
    }
    let outs = match out {
        Value::List(_) | Value::Tuple(_) => crate::value::subscript_items(out),
        Value::None => Vec::new(),
        other => vec![other.clone()],
    };
    if outs.len() < touts.len() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "func returned {} values, but Tout has {}",
                outs.len(),
                touts.len()
            ),
        )
        .at(a.span("func")));
    }
    let vals = outs
        .iter()
        .zip(touts)
        .map(|(v, t)| conv(v, t))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(err)?;
    Ok(Value::list(vals))
}

/// A numpy_function result as a tensor: NumPy's dtype is kept (Python ints are int64,
/// floats float64).
fn numpy_result(v: &Value, _tout: &Value) -> std::result::Result<Value, Exception> {
    let arr = match v {
        Value::Int(_) => convert::to_array(v, Some(DType::Int64))?,
        Value::Float(_) => convert::to_array(v, Some(DType::Float64))?,
        other => convert::to_array(other, None)?,
    };
    Ok(Value::from_array((*arr).clone()))
}

fn numpy_function(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (f, inp) = func_and_inputs(a)?;
    let (touts, listed) = touts(a)?;
    let args = inp
        .iter()
        .map(|v| {
            let arr = match v {
                Value::Int(_) => convert::to_array(v, Some(DType::Int64))?,
                Value::Float(_) => convert::to_array(v, Some(DType::Float64))?,
                Value::NdArray(_) => return Ok(v.clone()),
                other => convert::to_array(other, None)?,
            };
            crate::value::convert::array_to_ndarray(&arr)
                .map(|n| Value::NdArray(std::sync::Arc::new(n)))
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| a.err_at("inp", e))?;
    // Eager numpy_function calls `func` directly: its exceptions reach the caller as raised.
    let out = interp.call_values(&f, args, a.call)?;
    finish(a, &out, &touts, listed, numpy_result)
}
