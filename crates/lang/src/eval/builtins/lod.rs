//! Paddle's LoDTensor: `fluid.create_lod_tensor`, places, and the LoDTensor methods.
//!
//! Values are immutable, so Paddle's in-place setters (`t.set_lod(…)`) return the updated
//! tensor and the evaluator rebinds the receiver's name to it (see [`updates_receiver`]);
//! the call itself evaluates to None, as in Paddle.

use super::common::{list_str, nested_list_str};
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::literal::{self, Flavor, Nested};
use ragtag_engine::{Array, Buffer, Exception, ExceptionClass, Lod, Tensor};

/// LoD tensors.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("fluid.create_lod_tensor", "(data, recursive_seq_lens, place)", create_lod_tensor)
        .doc("A LoDTensor: the rows of `data` (a NumPy array) grouped into sequences. `recursive_seq_lens` lists, level by level, each sequence's length — counted in sequences of the next level, and in data rows at the last level; it is stored as offsets (`lod()`). A list of sequences (`[[1, 2, 3], [3, 4]]`) becomes one column of their elements, as Paddle does.")
        .examples(&[
            "fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace())",
            "fluid.create_lod_tensor([[1, 2, 3], [3, 4]], [[3, 2]], fluid.CPUPlace())",
        ]),
    Builtin::function("fluid.CPUPlace", "()", |_, _| Ok(Value::Opaque(crate::value::ThinStr::from("CPUPlace"))))
        .doc("The CPU device marker Paddle's tensor constructors take (ragtag computes on the CPU anyway).")
        .aliases(&["paddle.CPUPlace"])
        .examples(&["fluid.CPUPlace()"]),
    Builtin::function("fluid.CUDAPlace", "(device_id=0)", cuda_place)
        .doc("A GPU device marker, accepted so Paddle code runs; ragtag still computes on the CPU.")
        .aliases(&["paddle.CUDAPlace"])
        .examples(&["fluid.CUDAPlace(0)"]),
    Builtin::function("fluid.LoDTensor", "()", |_, _| empty())
        .doc("An empty LoDTensor; give it data with `t.set(array, place)` and sequences with `t.set_recursive_sequence_lengths(lens)`.")
        .aliases(&["fluid.core.LoDTensor"])
        .examples(&["t = fluid.LoDTensor(); t.set(np.array([[1], [2], [3]]), fluid.CPUPlace()); t.set_recursive_sequence_lengths([[1, 2]]); t.lod()"]),
    Builtin::method("fluid.LoDTensor.lod", "(self)", lod)
        .doc("The offsets of every level, outermost first: level k's offsets are where each sequence starts and ends (the same numbers as a ragged tensor's row_splits).")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.lod()")]),
    Builtin::method("fluid.LoDTensor.set_lod", "(self, lod)", set_lod)
        .doc("Replaces the offsets. Called on a name (`t.set_lod(…)`) it updates that name and returns None, as Paddle's in-place setter does; called any other way it returns the updated tensor. Offsets that do not fit the data are a ValueError.")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.set_lod([[0, 1, 5]]); x.lod()")]),
    Builtin::method("fluid.LoDTensor.recursive_sequence_lengths", "(self)", lengths)
        .doc("The length of every sequence, level by level (the lengths form of lod()).")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.recursive_sequence_lengths()")]),
    Builtin::method("fluid.LoDTensor.set_recursive_sequence_lengths", "(self, recursive_sequence_lengths)", set_lengths)
        .doc("Replaces the sequences, given as lengths. Like set_lod it updates the name it is called on and returns None; lengths that do not fit the data are a ValueError.")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.set_recursive_sequence_lengths([[1, 1, 3]]); x.lod()")]),
    Builtin::method("fluid.LoDTensor.has_valid_recursive_sequence_lengths", "(self)", has_valid)
        .doc("Whether the sequences fit the data. ragtag checks this whenever they change, so it is always True.")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.has_valid_recursive_sequence_lengths()")]),
    Builtin::method("fluid.LoDTensor.shape", "(self)", shape)
        .doc("The shape of the data block, as a Python list.")
        .examples(&[concat!("x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace()); ", "x.shape()")]),
    Builtin::method("fluid.LoDTensor.set", "(self, data, place)", set)
        .doc("Replaces the data block (a NumPy array). Like set_lod it updates the name it is called on and returns None; existing sequences must still fit.")
        .examples(&["t = fluid.LoDTensor(); t.set(np.array([[1.0], [2.0]]), fluid.CPUPlace()); t.shape()"]),
];

/// True for the methods that update their receiver in Paddle: the evaluator rebinds the
/// receiver's name to the tensor they return, and the call yields None.
pub fn updates_receiver(b: &Builtin) -> bool {
    matches!(
        b.name,
        "fluid.LoDTensor.set_lod"
            | "fluid.LoDTensor.set_recursive_sequence_lengths"
            | "fluid.LoDTensor.set"
            | "np.ndarray.fill"
            | "np.ndarray.sort"
    )
}

fn lod_arg(a: &Args) -> Result<Arc<Lod>> {
    match a.value("self") {
        Value::Lod(l) => Ok(l.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("expected a LoDTensor, got a {}", other.type_name()),
        )
        .at(a.span("self"))),
    }
}

fn lod_value(l: Lod) -> Value {
    Value::Lod(Arc::new(l))
}

/// Argument `name` as a list of int lists (`[[2, 3]]`, `[[0, 2, 5]]`).
fn nested_ints(a: &Args, name: &str) -> Result<Vec<Vec<i64>>> {
    let items = iterate(a.value(name)).map_err(|e| {
        Error::from(e)
            .at(a.span(name))
            .with_hint("give one list of ints per level, e.g. [[2, 3]]")
    })?;
    items
        .iter()
        .map(|v| {
            convert::to_ints(v).map_err(|e| {
                a.err_at(name, e)
                    .with_hint("give one list of ints per level, e.g. [[2, 3]] (a list of lists)")
            })
        })
        .collect()
}

fn check_place(a: &Args) -> Result<()> {
    match a.value("place") {
        Value::Opaque(p) if p.contains("Place") => Ok(()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "place must be a device such as fluid.CPUPlace(), not a {}",
                other.type_name()
            ),
        )
        .at(a.span("place"))),
    }
}

/// The data block of `data`: a NumPy array, a LoDTensor's data, or a list.
fn data_block(a: &Args, lens: &[Vec<i64>]) -> Result<Tensor> {
    match a.value("data") {
        Value::Lod(l) => Ok(l.data().clone()),
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(Error::new(
                ExceptionClass::TypeError,
                "data must be a NumPy array or a list, not a ragged tensor",
            )
            .at(a.span("data"))
            .with_hint(
                "to_lod(rt) turns a ragged tensor into a LoDTensor: its row_splits become the lod",
            )),
        },
        v @ (Value::List(_) | Value::Tuple(_)) => {
            list_block(v, lens).map_err(|e| a.err_at("data", e))
        }
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "data should be a NumPy array, a LoDTensor or a list, not a {}",
                other.type_name()
            ),
        )
        .at(a.span("data"))),
    }
}

/// Paddle reads a list as sequences — one nesting level per lod level — whose elements
/// become a column (`[[1, 2, 3], [3, 4]]` with `[[3, 2]]` is a [5, 1] block). A list whose
/// nesting does not have those lengths is read as rows instead, as `np.array` would.
fn list_block(v: &Value, lens: &[Vec<i64>]) -> Result<Tensor, Exception> {
    let n = convert::to_nested(v)?;
    let mut items: Vec<&Nested> = match &n {
        Nested::List(xs) => xs.iter().collect(),
        Nested::Leaf(_) => {
            return Err(ragtag_engine::value_error!(
                "data must be a list of sequences, not a single value"
            ))
        }
    };
    let mut got: Vec<Vec<i64>> = Vec::new();
    let mut nested_ok = !lens.is_empty();
    for _ in 0..lens.len() {
        let mut level = Vec::new();
        let mut next = Vec::new();
        for it in &items {
            match it {
                Nested::List(xs) => {
                    level.push(xs.len() as i64);
                    next.extend(xs.iter());
                }
                Nested::Leaf(_) => nested_ok = false,
            }
        }
        got.push(level);
        items = next;
    }
    if nested_ok && got == lens {
        let elems = Nested::List(items.into_iter().cloned().collect());
        let t = literal::constant(&elems, None, Flavor::NumPy)?;
        // Paddle gives the elements a trailing dimension of 1: a column of ids.
        let mut shape = t.shape().to_vec();
        shape.push(1);
        return t.reshaped(shape);
    }
    let rows = literal::constant(&n, None, Flavor::NumPy).ok();
    let rows_fit = |t: &Tensor| {
        t.rank() > 0
            && lens
                .last()
                .is_none_or(|l| l.iter().sum::<i64>() == t.shape()[0] as i64)
    };
    match rows {
        Some(t) if rows_fit(&t) => Ok(t),
        rows => {
            let as_seqs = if nested_ok {
                format!(
                    " read as sequences, its lengths are {}",
                    nested_list_str(&got)
                )
            } else {
                String::new()
            };
            let as_rows = match rows {
                Some(t) => format!("; read as rows, it has shape {}", list_str(t.shape())),
                None => String::new(),
            };
            Err(ragtag_engine::value_error!(
                "recursive_seq_lens {} do not match the data:{as_seqs}{as_rows}",
                nested_list_str(lens)
            )
            .with_hint(
                "a list of sequences must have exactly the lengths recursive_seq_lens lists",
            ))
        }
    }
}

fn create_lod_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lens = nested_ints(a, "recursive_seq_lens")?;
    check_place(a)?;
    let data = data_block(a, &lens)?;
    Lod::from_lengths(data, &lens)
        .map(lod_value)
        .map_err(|e| a.err_at("recursive_seq_lens", e))
}

fn cuda_place(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let id = a.opt_int("device_id")?.unwrap_or(0);
    Ok(Value::Opaque(crate::value::ThinStr::from(
        format!("CUDAPlace({id})").as_str(),
    )))
}

fn empty() -> Result<Value> {
    Ok(lod_value(Lod::new(
        Tensor::vector(Buffer::F32(Vec::new().into())),
        Vec::new(),
    )?))
}

fn lists(levels: &[Vec<i64>]) -> Value {
    Value::list(levels.iter().map(|l| Value::int_list(l)).collect())
}

fn lod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(lists(lod_arg(a)?.lod()))
}

fn set_lod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = lod_arg(a)?;
    let new = nested_ints(a, "lod")?;
    t.with_lod(new)
        .map(lod_value)
        .map_err(|e| a.err_at("lod", e))
}

fn lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(lists(&lod_arg(a)?.recursive_sequence_lengths()))
}

fn set_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = lod_arg(a)?;
    let lens = nested_ints(a, "recursive_sequence_lengths")?;
    t.with_lengths(&lens)
        .map(lod_value)
        .map_err(|e| a.err_at("recursive_sequence_lengths", e))
}

fn has_valid(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(lod_arg(a)?.is_valid()))
}

fn shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = lod_arg(a)?;
    Ok(Value::list(
        t.data()
            .shape()
            .iter()
            .map(|&d| Value::Int(d as i64))
            .collect(),
    ))
}

fn set(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = lod_arg(a)?;
    check_place(a)?;
    let data = match a.value("data") {
        Value::Lod(l) => l.data().clone(),
        _ => match &*a.array("data", None)? {
            Array::Dense(d) => d.clone(),
            Array::Ragged(_) => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "data must be a NumPy array, not a ragged tensor",
                )
                .at(a.span("data"))
                .with_hint("to_lod(rt) turns a ragged tensor into a LoDTensor"))
            }
        },
    };
    Lod::new(data, t.lod().to_vec())
        .map(lod_value)
        .map_err(|e| {
            a.err_at("data", e).with_hint(
                "the tensor's sequences no longer fit: set the data first, then its lengths",
            )
        })
}
