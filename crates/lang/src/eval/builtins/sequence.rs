//! Paddle's sequence ops on LoD tensors, under Paddle 1.x's `fluid.layers.sequence_*` (and
//! `paddle.fluid.layers`) and Paddle 2.x's `paddle.static.nn.sequence_*`: pooling, first and
//! last step, softmax, concat, slice, expand, pad and unpad. The kernels are in
//! `ragtag_engine::lod_ops`; here are Paddle's Python-side checks (a TypeError for a value
//! that is not a Variable or has a dtype Paddle does not take) and the arguments.

use super::sequence_common::{check_dtype, lod_value, var, variable, FLOATS, INTS, NUMBERS};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::lod_ops::{self, PoolType};
use ragtag_engine::{DType, ExceptionClass};

/// A 2-sequence float32 LoDTensor, for the examples.
macro_rules! x5 {
    () => {
        "x = fluid.create_lod_tensor(np.array([[1.], [2.], [3.], [4.], [5.]], dtype='float32'), [[2, 3]], fluid.CPUPlace()); "
    };
}

/// The sequence ops that reduce, slice and reshape sequences.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("fluid.layers.sequence_pool", "(input, pool_type, is_test=False, pad_value=0.0)", pool)
        .doc("One row per sequence of the last LoD level: 'average', 'sum', 'sqrt' (sum / sqrt(length)), 'max', 'last' or 'first' of its rows; an empty sequence gives `pad_value`. A 2-level input keeps level 0 as the output's LoD; a 1-level input gives a LoDTensor without LoD. float32 or float64 data, at most 2 levels, and at least as many rows as sequences (Paddle checks this even when the extra sequences are empty).")
        .aliases(&["paddle.static.nn.sequence_pool"])
        .examples(&[
            concat!(x5!(), "fluid.layers.sequence_pool(x, 'sum')"),
            "x = fluid.create_lod_tensor(np.array([[1.], [3.], [2.], [4.], [6.], [5.], [1.]], dtype='float32'), [[2, 0, 3], [1, 2, 1, 0, 3]], fluid.CPUPlace()); paddle.static.nn.sequence_pool(x, 'max', pad_value=-1.0)",
        ]),
    Builtin::function("fluid.layers.sequence_first_step", "(input)", |_, a| step(a, PoolType::First, "sequence_first_step"))
        .doc("The first row of each sequence of the last level: sequence_pool(input, 'first').")
        .aliases(&["paddle.static.nn.sequence_first_step"])
        .examples(&[concat!(x5!(), "fluid.layers.sequence_first_step(x)")]),
    Builtin::function("fluid.layers.sequence_last_step", "(input)", |_, a| step(a, PoolType::Last, "sequence_last_step"))
        .doc("The last row of each sequence of the last level: sequence_pool(input, 'last').")
        .aliases(&["paddle.static.nn.sequence_last_step"])
        .examples(&[concat!(x5!(), "paddle.static.nn.sequence_last_step(x)")]),
    Builtin::function("fluid.layers.sequence_softmax", "(input, use_cudnn=False, name=None)", softmax)
        .doc("The softmax of each sequence of the last level, over data of one value per row (shape [N] or [N, 1]); the LoD is kept. As Paddle's kernel, it takes exp of the values as they are (no maximum subtracted), so values past exp's range give NaN.")
        .aliases(&["paddle.static.nn.sequence_softmax"])
        .examples(&[concat!(x5!(), "fluid.layers.sequence_softmax(x)")]),
    Builtin::function("fluid.layers.sequence_concat", "(input, name=None)", concat)
        .doc("Joins a list of 1-level LoDTensors sequence by sequence: output sequence i is sequence i of each input, in order, so the LoD adds the inputs' offsets. The inputs need the same number of sequences, one dtype (int64, float32 or float64) and rows of one size.")
        .aliases(&["paddle.static.nn.sequence_concat"])
        .examples(&[concat!(x5!(), "y = fluid.create_lod_tensor(np.array([[6.], [7.], [8.], [9.]], dtype='float32'), [[2, 2]], fluid.CPUPlace()); fluid.layers.sequence_concat([x, y])")]),
    Builtin::function("fluid.layers.sequence_slice", "(input, offset, length, name=None)", slice)
        .doc("Rows offset[i] .. offset[i] + length[i] of sequence i of a 1-level LoDTensor; `offset` and `length` are int64 LoDTensors of shape [sequences, 1] (make them with fluid.layers.assign; Paddle's wrapper lets int32 through, its kernel then fails). A slice past a sequence's end is an IndexError.")
        .aliases(&["paddle.static.nn.sequence_slice"])
        .examples(&[concat!(x5!(), "offset = fluid.layers.assign(np.array([[0], [1]])); length = fluid.layers.assign(np.array([[2], [1]])); fluid.layers.sequence_slice(x, offset, length)")]),
    Builtin::function("fluid.layers.sequence_expand", "(x, y, ref_level=-1, name=None)", expand)
        .doc("Repeats sequence i of `x` (row i, when `x` has no LoD) as many times as sequence i of level `ref_level` of `y` is long (-1: y's last level). `x` has at most one level and rank 2 or more; with a level, the output's LoD lists each copy as a sequence, without one the output has no LoD.")
        .aliases(&["paddle.static.nn.sequence_expand"])
        .examples(&["x = fluid.create_lod_tensor(np.array([[1.], [2.], [3.], [4.]], dtype='float32'), [[2, 2]], fluid.CPUPlace()); y = fluid.create_lod_tensor(np.zeros((8, 1), dtype='float32'), [[2, 2], [3, 3, 1, 1]], fluid.CPUPlace()); fluid.layers.sequence_expand(x, y, ref_level=0)"]),
    Builtin::function("fluid.layers.sequence_expand_as", "(x, y, name=None)", expand_as)
        .doc("Repeats row i of `x` as many times as sequence i of `y` (exactly one level) is long; the output takes y's LoD, and x's own LoD plays no part.")
        .aliases(&["paddle.static.nn.sequence_expand_as"])
        .examples(&["x = fluid.layers.assign(np.array([[1.], [2.], [3.]], dtype='float32')); y = fluid.create_lod_tensor(np.zeros((6, 1), dtype='float32'), [[2, 1, 3]], fluid.CPUPlace()); fluid.layers.sequence_expand_as(x, y)"]),
    Builtin::function("fluid.layers.sequence_pad", "(x, pad_value, maxlen=None, name=None)", pad)
        .doc("The sequences of level 0 as a padded batch, and their lengths: returns (Out, Length), Out of shape [sequences, maxlen, ...row shape] and Length int64. `pad_value` is a LoDTensor of one value or one row, with the data's dtype (fluid.layers.assign(np.array([0.], dtype='float32'))); `maxlen` None pads to the longest sequence, and a given maxlen must be at least that long (Paddle's docstring says \"greater than\", its kernel accepts equal).")
        .aliases(&["paddle.static.nn.sequence_pad"])
        .examples(&[concat!(x5!(), "pad_value = fluid.layers.assign(np.array([0.], dtype='float32')); fluid.layers.sequence_pad(x, pad_value, maxlen=4)")]),
    Builtin::function("fluid.layers.sequence_unpad", "(x, length, name=None)", unpad)
        .doc("The inverse of sequence_pad: the first length[i] steps of row i of a padded batch `x` ([batch, maxlen, ...]), as sequences of a 1-level LoDTensor. `length` is an int64 LoDTensor (sequence_pad's second output). A batch of rank 2 gives rows of one value.")
        .aliases(&["paddle.static.nn.sequence_unpad"])
        .examples(&["x = fluid.layers.assign(np.arange(6, dtype='float32').reshape(2, 3)); length = fluid.layers.assign(np.array([1, 3])); fluid.layers.sequence_unpad(x, length)"]),
];

fn pool(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_pool";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), FLOATS, op)?;
    let name = match a.value("pool_type") {
        Value::Str(s) => s.to_string(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "pool_type must be a str such as 'sum', not {}",
                    other.type_name()
                ),
            )
            .at(a.span("pool_type")))
        }
    };
    let pool = PoolType::parse(&name).map_err(|e| a.err_at("pool_type", e))?;
    let pad_value = match a.get("pad_value") {
        Some(v) => convert::to_f64(v).map_err(|e| a.err_at("pad_value", e))?,
        None => 0.0,
    };
    let is_test = a.flag("is_test", false)?;
    let out =
        lod_ops::sequence_pool(&x, pool, pad_value, is_test).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn step(a: &Args, pool: PoolType, op: &str) -> Result<Value> {
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), FLOATS, op)?;
    let out = lod_ops::sequence_pool(&x, pool, 0.0, false).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn softmax(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_softmax";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), FLOATS, op)?;
    let out = lod_ops::sequence_softmax(&x).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn concat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_concat";
    let items = match a.value("input") {
        Value::List(_) => iterate(a.value("input")).map_err(|e| a.err_at("input", e))?,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "The type of 'input' in {op} must be a list of LoDTensors, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("input"))
            .with_hint("put the tensors in a list: sequence_concat([x, y])"))
        }
    };
    let mut xs = Vec::new();
    for (i, v) in items.iter().enumerate() {
        let name = format!("input[{i}]");
        let x = variable(v, &name, op).map_err(|e| e.at(a.span("input")))?;
        if ![DType::Int64, DType::Float32, DType::Float64].contains(&x.data().dtype()) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "The data type of '{name}' in {op} must be one of int64, float32, float64, but it is {}",
                    x.data().dtype().name()
                ),
            )
            .at(a.span("input")));
        }
        xs.push(x);
    }
    let refs: Vec<&ragtag_engine::Lod> = xs.iter().map(|x| &**x).collect();
    let out = lod_ops::sequence_concat(&refs).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn slice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_slice";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), NUMBERS, op)?;
    let offset = var(a, "offset", op)?;
    check_dtype(a, "offset", offset.data(), INTS, op)?;
    let length = var(a, "length", op)?;
    check_dtype(a, "length", length.data(), INTS, op)?;
    let out = lod_ops::sequence_slice(&x, offset.data(), length.data())
        .map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn expand(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_expand";
    let x = var(a, "x", op)?;
    check_dtype(a, "x", x.data(), NUMBERS, op)?;
    let y = var(a, "y", op)?;
    let ref_level = a.opt_int("ref_level")?.unwrap_or(-1);
    let out = lod_ops::sequence_expand(&x, &y, ref_level).map_err(|e| a.err_at("y", e))?;
    Ok(lod_value(out))
}

fn expand_as(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_expand_as";
    let x = var(a, "x", op)?;
    check_dtype(a, "x", x.data(), NUMBERS, op)?;
    let y = var(a, "y", op)?;
    let out = lod_ops::sequence_expand_as(&x, &y).map_err(|e| a.err_at("y", e))?;
    Ok(lod_value(out))
}

fn pad(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_pad";
    let x = var(a, "x", op)?;
    check_dtype(a, "x", x.data(), NUMBERS, op)?;
    let pad_value = var(a, "pad_value", op)?;
    check_dtype(a, "pad_value", pad_value.data(), NUMBERS, op)?;
    let maxlen = a.opt_int("maxlen")?;
    let (out, length) =
        lod_ops::sequence_pad(&x, pad_value.data(), maxlen).map_err(|e| a.err_at("x", e))?;
    Ok(Value::tuple(vec![lod_value(out), lod_value(length)]))
}

fn unpad(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_unpad";
    let x = var(a, "x", op)?;
    check_dtype(a, "x", x.data(), NUMBERS, op)?;
    let length = var(a, "length", op)?;
    check_dtype(a, "length", length.data(), &[DType::Int64], op)?;
    let out = lod_ops::sequence_unpad(x.data(), length.data()).map_err(|e| a.err_at("x", e))?;
    Ok(lod_value(out))
}
