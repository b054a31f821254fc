//! `tf.bitwise`: and, or, xor, invert and shifts of integer tensors, dense or ragged.

use super::tensor::{binary, unary};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::value::Value;
use ragtag_engine::ops::kernels::{BinaryOp, UnaryOp};
use ragtag_engine::ExceptionClass;

/// The bitwise builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.bitwise.bitwise_and", "(x, y)", |_, a| int_binary(a, BinaryOp::And))
        .doc("The bitwise and of two integer tensors, elementwise with broadcasting.")
        .examples(&["tf.bitwise.bitwise_and(tf.ragged.constant([[12, 5], [-8]]), 10)"]),
    Builtin::function("tf.bitwise.bitwise_or", "(x, y)", |_, a| int_binary(a, BinaryOp::Or))
        .doc("The bitwise or of two integer tensors, elementwise with broadcasting.")
        .examples(&["tf.bitwise.bitwise_or(tf.ragged.constant([[12, 5], [-8]]), 3)"]),
    Builtin::function("tf.bitwise.bitwise_xor", "(x, y)", |_, a| int_binary(a, BinaryOp::Xor))
        .doc("The bitwise exclusive or of two integer tensors, elementwise with broadcasting.")
        .examples(&["tf.bitwise.bitwise_xor(tf.ragged.constant([[12, 5], [-8]]), 6)"]),
    Builtin::function("tf.bitwise.left_shift", "(x, y)", |_, a| int_binary(a, BinaryOp::LeftShift))
        .doc("x shifted left by y bits, elementwise; shifts past the width (or negative) are clamped to [0, bits - 1], as TensorFlow's kernel does.")
        .examples(&["tf.bitwise.left_shift(tf.ragged.constant([[1, 3], [-8]]), 2)"]),
    Builtin::function("tf.bitwise.right_shift", "(x, y)", |_, a| int_binary(a, BinaryOp::RightShift))
        .doc("x shifted right by y bits (arithmetic: the sign is kept), elementwise; shifts are clamped to [0, bits - 1].")
        .examples(&["tf.bitwise.right_shift(tf.ragged.constant([[16, 5], [-8]]), 2)"]),
    Builtin::function("tf.bitwise.invert", "(x)", |_, a| unary(a, UnaryOp::Invert))
        .doc("Every bit flipped (~x for integers).")
        .examples(&["tf.bitwise.invert(tf.ragged.constant([[0, 5], [-8]]))"]),
];

fn int_binary(a: &Args, op: BinaryOp) -> Result<Value> {
    let x = a.array("x", None)?;
    if !x.dtype().is_int() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "tf.bitwise.{} needs integer tensors, not {}",
                a.builtin().short_name(),
                x.dtype()
            ),
        )
        .at(a.span("x")));
    }
    binary(a, op)
}
