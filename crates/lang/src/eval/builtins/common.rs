//! What the builtin families share: the table macros of elementwise functions, the readers
//! of optional arguments that recur (`axis=`, `keepdims=`), axis normalisation, and the
//! `shape`/`dtype`/`ndim` properties every tensor class has.

use std::sync::Arc;

use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// A table of `name(x)` builtins that apply a `UnaryOp` elementwise (dense, ragged and, for
/// the ops TensorFlow dispatches, sparse). Each gets an example on
/// `tf.ragged.constant(<input>)`: the entry's `[input]`, else the table's `default`.
macro_rules! unary_table {
    (default $default:literal; $($name:literal => $op:ident $([$input:literal])?, $doc:literal;)*) => {
        &[$(
            $crate::eval::builtins::Builtin::function($name, "(x)", |_, a| {
                $crate::eval::builtins::tensor::unary(
                    a,
                    ragtag_engine::ops::kernels::UnaryOp::$op,
                )
            })
            .doc($doc)
            .examples(&[concat!(
                $name,
                "(tf.ragged.constant(",
                unary_table!(@input $default $($input)?),
                "))"
            )]),
        )*]
    };
    (@input $default:literal) => { $default };
    (@input $default:literal $input:literal) => { $input };
}

/// A table of `name(x, y)` builtins that apply a `BinaryOp` elementwise with broadcasting,
/// each with the example `name(<args>)`.
macro_rules! binary_table {
    (example $args:literal; $($name:literal => $op:ident, $doc:literal;)*) => {
        &[$(
            $crate::eval::builtins::Builtin::function($name, "(x, y)", |_, a| {
                $crate::eval::builtins::tensor::binary(
                    a,
                    ragtag_engine::ops::kernels::BinaryOp::$op,
                )
            })
            .doc($doc)
            .examples(&[concat!($name, "(", $args, ")")]),
        )*]
    };
}

pub(super) use {binary_table, unary_table};

/// Argument `name` as a list of ints, if given (`axis=`, `perm=`, `new_shape=` …).
pub(super) fn opt_ints(a: &Args, name: &str) -> Result<Option<Vec<i64>>> {
    a.get(name).map(|_| a.ints(name)).transpose()
}

/// The `axis=` (None for every axis) and `keepdims=` (False) of a reduction.
pub(super) fn reduction_axes(a: &Args) -> Result<(Option<Vec<i64>>, bool)> {
    Ok((opt_ints(a, "axis")?, a.flag("keepdims", false)?))
}

/// `axis` (argument `name`) as an axis of a tensor of rank `rank`, negative ones counting
/// from the end, through the engine's `positive_axis`: out of range, a `class` error on the
/// argument.
pub(super) fn axis_arg(
    a: &Args,
    name: &str,
    axis: i64,
    rank: usize,
    class: ExceptionClass,
) -> Result<usize> {
    ragtag_engine::ops::positive_axis(axis, rank, class, name).map_err(|e| a.err_at(name, e))
}

/// A list as Python prints it in messages: `[2, 3]` (items by their `Display`).
pub(super) fn list_str<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// A list of lists of ints as Python prints it: `[[1, 2], [3]]`.
pub(super) fn nested_list_str(lists: &[Vec<i64>]) -> String {
    list_str(lists.iter().map(list_str))
}

/// The `shape` property of a dense or ragged tensor (ragged dimensions are None).
pub(super) fn shape_prop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Shape(Arc::new(a.array("self", None)?.shape())))
}

/// The `dtype` property of a dense or ragged tensor.
pub(super) fn dtype_prop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::DType(a.array("self", None)?.dtype()))
}

/// The `ndim` property (the rank) of a dense or ragged tensor.
pub(super) fn ndim_prop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(a.array("self", None)?.rank() as i64))
}

#[cfg(test)]
#[path = "common_tests.rs"]
mod tests;
