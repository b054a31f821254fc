//! NumPy's files: `np.load`, `np.save`, `np.savez` and `np.savez_compressed` for `.npy` and
//! `.npz`, with arrays as NumPy arrays and an archive as a dict of them.

use std::path::PathBuf;

use super::numpy::nd;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::formats::numpy::{self, Loaded};
use crate::value::{NdArray, Value};
use ragtag_engine::literal::{self, Flavor};
use ragtag_engine::{Array, ExceptionClass, Tensor};
use ragtag_syntax::ast::Span;

/// NumPy's file readers and writers.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.load", "(file)", load)
        .doc("The array in a .npy file, or a dict of the named arrays in a .npz archive. Dtypes bool, int8–int64, uint8–uint64 (uint64 only when every value fits in int64) and float16–float64 load as bool, int32/int64 and float32/float64 (narrow types widen without loss); str (`<U`) and bytes (`|S`) arrays load as string tensors. Fortran order and big-endian files read correctly; object (pickled) arrays are a ValueError.")
        .examples(&[
            "np.save('scores.npy', tf.constant([[1.5, 2.0], [3.25, 4.0]])); np.load('scores.npy')",
            "rt = tf.ragged.constant([[3, 1, 4], [], [1, 5]]); np.savez('rt.npz', values=rt.flat_values, row_splits=rt.row_splits); d = np.load('rt.npz'); tf.RaggedTensor.from_row_splits(d['values'], d['row_splits'])",
        ]),
    Builtin::function("np.save", "(file, arr)", save)
        .doc("Writes one dense array (a tensor, NumPy array or rectangular list) to a .npy file that NumPy reads; `.npy` is appended to a name without it. Strings are saved as NumPy str (`<U`), or bytes (`|S`) when they are not all UTF-8. A ragged tensor is a ValueError: save its values and row_splits with np.savez.")
        .examples(&["np.save('ids.npy', tf.constant([[1, 2, 3], [4, 5, 6]])); np.load('ids.npy').shape"]),
    Builtin::function("np.savez", "(file, *args, **kwds)", savez)
        .doc("Writes several dense arrays into one uncompressed .npz archive: keyword arrays under their names, positional ones as arr_0, arr_1, …; `.npz` is appended to a name without it. The usual way to save a ragged tensor is the pair `values=rt.flat_values, row_splits=rt.row_splits`.")
        .examples(&["np.savez('pair.npz', np.arange(3), labels=tf.constant(['a', 'b'])); list(np.load('pair.npz'))"]),
    Builtin::function("np.savez_compressed", "(file, *args, **kwds)", savez_compressed)
        .doc("np.savez with every array deflated.")
        .examples(&["np.savez_compressed('zeros.npz', z=np.zeros([100])); np.load('zeros.npz')['z'].shape"]),
];

fn path_arg(a: &Args, name: &str) -> Result<PathBuf> {
    match a.value(name) {
        Value::Str(s) => Ok(PathBuf::from(&**s)),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("expected a file path (a str), got a {}", other.type_name()),
        )
        .at(a.span(name))),
    }
}

/// NumPy adds the extension when the name lacks it.
fn with_extension(path: PathBuf, ext: &str) -> PathBuf {
    if path.to_string_lossy().ends_with(ext) {
        path
    } else {
        PathBuf::from(format!("{}{ext}", path.display()))
    }
}

fn load(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_arg(a, "file")?;
    let at = a.span("file");
    Ok(match numpy::load(&path).map_err(|e| e.at(at))? {
        Loaded::Array(t) => nd(t),
        Loaded::Archive(arrays) => Value::Dict(crate::value::PyDict::from_str_keys(
            arrays.into_iter().map(|(k, t)| (k, nd(t))),
        )),
    })
}

/// The ValueError for a ragged value, with the values + row_splits pair as the way out.
fn ragged_error(span: Span) -> Error {
    Error::new(
        ExceptionClass::ValueError,
        "a .npy array is rectangular: a ragged tensor cannot be saved as one",
    )
    .at(span)
    .with_hint("save the flat values and the row splits as a pair: np.savez('x.npz', values=rt.flat_values, row_splits=rt.row_splits), then tf.RaggedTensor.from_row_splits(d['values'], d['row_splits']) with d = np.load('x.npz') (nested ragged tensors: one row_splits per level, rt.nested_row_splits)")
}

/// A value to save as a dense array, as `np.asarray` would make it.
fn dense(v: &Value, span: Span) -> Result<Tensor> {
    match v {
        Value::NdArray(n) => match &**n {
            NdArray::Dense(t) => Ok(t.clone()),
            NdArray::Object(..) => Err(ragged_error(span)),
        },
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(ragged_error(span)),
        },
        Value::Sparse(_) | Value::Lod(_) => Err(Error::new(
            ExceptionClass::TypeError,
            format!("np.save takes a dense array, not a {}", v.type_name()),
        )
        .at(span)
        .with_hint("convert it first, e.g. tf.sparse.to_dense(st)")),
        _ => {
            let n = convert::to_nested(v).map_err(|e| Error::from(e).at(span))?;
            if literal::rect_shape(&n).is_none() {
                return Err(ragged_error(span));
            }
            literal::constant(&n, None, Flavor::NumPy).map_err(|e| Error::from(e).at(span))
        }
    }
}

fn save(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = with_extension(path_arg(a, "file")?, ".npy");
    let t = dense(a.value("arr"), a.span("arr"))?;
    numpy::write_npy(&path, &t).map_err(|e| e.at(a.call))?;
    Ok(Value::None)
}

fn savez_with(a: &Args, compressed: bool) -> Result<Value> {
    let path = with_extension(path_arg(a, "file")?, ".npz");
    let mut arrays: Vec<(String, Tensor)> = Vec::new();
    for (i, (v, span)) in a.rest().iter().enumerate() {
        arrays.push((format!("arr_{i}"), dense(v, *span)?));
    }
    for (key, v, span) in a.kwargs() {
        if arrays.iter().any(|(k, _)| k == key) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("Cannot use un-named variables and keyword {key}"),
            )
            .at(*span));
        }
        arrays.push((key.clone(), dense(v, *span)?));
    }
    numpy::write_npz(&path, &arrays, compressed).map_err(|e| e.at(a.call))?;
    Ok(Value::None)
}

fn savez(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    savez_with(a, false)
}

fn savez_compressed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    savez_with(a, true)
}
