//! Flat elementwise kernels: one pass over aligned buffers, no per-element allocation.
//! This module names the operations (their TensorFlow names and dtype rules); `unary` and
//! `binary` hold the loops.

mod binary;
mod unary;

pub use binary::binary;
pub use unary::unary;

use crate::dtype::DType;
use crate::invalid_arg;

/// Binary elementwise operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+` (`tf.add`; concatenates strings)
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (true division: ints give float64)
    Div,
    /// `//` (floor division)
    FloorDiv,
    /// `%` (floor modulo, the sign of the divisor)
    Mod,
    /// `**`
    Pow,
    /// `tf.maximum`
    Maximum,
    /// `tf.minimum`
    Minimum,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&` (logical and for bool, bitwise for ints)
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `tf.math.atan2`
    Atan2,
    /// `tf.truncatediv` (rounds toward zero)
    TruncateDiv,
    /// `tf.truncatemod` (the sign of the dividend)
    TruncateMod,
    /// `tf.math.squared_difference`
    SquaredDifference,
    /// `tf.math.xdivy` (0 where x is 0)
    Xdivy,
    /// `tf.math.xlogy` (0 where x is 0)
    Xlogy,
    /// `tf.math.xlog1py` (0 where x is 0)
    Xlog1py,
    /// `tf.math.divide_no_nan` (0 where y is 0)
    DivNoNan,
    /// `tf.math.multiply_no_nan` (0 where y is 0)
    MulNoNan,
    /// `tf.bitwise.left_shift`
    LeftShift,
    /// `tf.bitwise.right_shift` (arithmetic)
    RightShift,
}

impl BinaryOp {
    /// TensorFlow's op name, used in messages.
    pub fn tf_name(self) -> &'static str {
        match self {
            BinaryOp::Add => "AddV2",
            BinaryOp::Sub => "Sub",
            BinaryOp::Mul => "Mul",
            BinaryOp::Div => "RealDiv",
            BinaryOp::FloorDiv => "FloorDiv",
            BinaryOp::Mod => "FloorMod",
            BinaryOp::Pow => "Pow",
            BinaryOp::Maximum => "Maximum",
            BinaryOp::Minimum => "Minimum",
            BinaryOp::Eq => "Equal",
            BinaryOp::Ne => "NotEqual",
            BinaryOp::Lt => "Less",
            BinaryOp::Le => "LessEqual",
            BinaryOp::Gt => "Greater",
            BinaryOp::Ge => "GreaterEqual",
            BinaryOp::And => "LogicalAnd",
            BinaryOp::Or => "LogicalOr",
            BinaryOp::Xor => "LogicalXor",
            BinaryOp::Atan2 => "Atan2",
            BinaryOp::TruncateDiv => "TruncateDiv",
            BinaryOp::TruncateMod => "TruncateMod",
            BinaryOp::SquaredDifference => "SquaredDifference",
            BinaryOp::Xdivy => "Xdivy",
            BinaryOp::Xlogy => "Xlogy",
            BinaryOp::Xlog1py => "Xlog1py",
            BinaryOp::DivNoNan => "DivNoNan",
            BinaryOp::MulNoNan => "MulNoNan",
            BinaryOp::LeftShift => "LeftShift",
            BinaryOp::RightShift => "RightShift",
        }
    }
    /// True for the ops TensorFlow defines for floats only.
    pub fn float_only(self) -> bool {
        matches!(
            self,
            BinaryOp::Atan2
                | BinaryOp::Xdivy
                | BinaryOp::Xlogy
                | BinaryOp::Xlog1py
                | BinaryOp::MulNoNan
        )
    }
    /// True for the ops TensorFlow defines for integers only.
    pub fn int_only(self) -> bool {
        matches!(self, BinaryOp::LeftShift | BinaryOp::RightShift)
    }
    /// True when the result is bool whatever the inputs.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
    /// The dtype of the result for inputs of `dtype`.
    pub fn result_dtype(self, dtype: DType) -> DType {
        if self.is_comparison() {
            DType::Bool
        } else if matches!(self, BinaryOp::Div | BinaryOp::DivNoNan) && dtype.is_int() {
            // tf.math.truediv's table: ints of 8 and 16 bits divide as float32.
            if self == BinaryOp::Div && dtype.item_bytes() <= 2 {
                DType::Float32
            } else {
                DType::Float64
            }
        } else {
            dtype
        }
    }
}

/// Unary elementwise operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `abs(x)`
    Abs,
    /// `~x` for bool (`tf.logical_not`)
    LogicalNot,
    /// `tf.math.square`
    Square,
    /// `tf.math.sqrt`
    Sqrt,
    /// `tf.math.exp`
    Exp,
    /// `tf.math.log`
    Log,
    /// `tf.math.sign`
    Sign,
    /// `tf.math.floor`
    Floor,
    /// `tf.math.ceil`
    Ceil,
    /// `tf.math.round` (half to even)
    Round,
    /// `tf.math.sin`
    Sin,
    /// `tf.math.cos`
    Cos,
    /// `tf.math.tanh`
    Tanh,
    /// `tf.math.sigmoid`
    Sigmoid,
    /// `tf.math.reciprocal`
    Reciprocal,
    /// `tf.math.is_nan`
    IsNan,
    /// `tf.math.is_inf`
    IsInf,
    /// `tf.math.is_finite`
    IsFinite,
    /// `tf.math.acos`
    Acos,
    /// `tf.math.acosh`
    Acosh,
    /// `tf.math.asin`
    Asin,
    /// `tf.math.asinh`
    Asinh,
    /// `tf.math.atan`
    Atan,
    /// `tf.math.atanh`
    Atanh,
    /// `tf.math.cosh`
    Cosh,
    /// `tf.math.sinh`
    Sinh,
    /// `tf.math.tan`
    Tan,
    /// `tf.math.log1p`
    Log1p,
    /// `tf.math.expm1`
    Expm1,
    /// `tf.math.rsqrt`
    Rsqrt,
    /// `tf.math.erf`
    Erf,
    /// `tf.math.erfc`
    Erfc,
    /// `tf.math.erfinv`
    Erfinv,
    /// `tf.math.ndtri`
    Ndtri,
    /// `tf.math.lgamma`
    Lgamma,
    /// `tf.math.digamma`
    Digamma,
    /// `tf.math.softplus`
    Softplus,
    /// `tf.math.softsign`
    Softsign,
    /// `tf.math.log_sigmoid`
    LogSigmoid,
    /// `tf.math.rint` (half to even)
    Rint,
    /// `tf.math.reciprocal_no_nan` (0 for 0)
    ReciprocalNoNan,
    /// `tf.bitwise.invert`
    Invert,
}

impl UnaryOp {
    /// TensorFlow's op name.
    pub fn tf_name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "Neg",
            UnaryOp::Abs => "Abs",
            UnaryOp::LogicalNot => "LogicalNot",
            UnaryOp::Square => "Square",
            UnaryOp::Sqrt => "Sqrt",
            UnaryOp::Exp => "Exp",
            UnaryOp::Log => "Log",
            UnaryOp::Sign => "Sign",
            UnaryOp::Floor => "Floor",
            UnaryOp::Ceil => "Ceil",
            UnaryOp::Round => "Round",
            UnaryOp::Sin => "Sin",
            UnaryOp::Cos => "Cos",
            UnaryOp::Tanh => "Tanh",
            UnaryOp::Sigmoid => "Sigmoid",
            UnaryOp::Reciprocal => "Reciprocal",
            UnaryOp::IsNan => "IsNan",
            UnaryOp::IsInf => "IsInf",
            UnaryOp::IsFinite => "IsFinite",
            UnaryOp::Acos => "Acos",
            UnaryOp::Acosh => "Acosh",
            UnaryOp::Asin => "Asin",
            UnaryOp::Asinh => "Asinh",
            UnaryOp::Atan => "Atan",
            UnaryOp::Atanh => "Atanh",
            UnaryOp::Cosh => "Cosh",
            UnaryOp::Sinh => "Sinh",
            UnaryOp::Tan => "Tan",
            UnaryOp::Log1p => "Log1p",
            UnaryOp::Expm1 => "Expm1",
            UnaryOp::Rsqrt => "Rsqrt",
            UnaryOp::Erf => "Erf",
            UnaryOp::Erfc => "Erfc",
            UnaryOp::Erfinv => "Erfinv",
            UnaryOp::Ndtri => "Ndtri",
            UnaryOp::Lgamma => "Lgamma",
            UnaryOp::Digamma => "Digamma",
            UnaryOp::Softplus => "Softplus",
            UnaryOp::Softsign => "Softsign",
            UnaryOp::LogSigmoid => "LogSigmoid",
            UnaryOp::Rint => "Rint",
            UnaryOp::ReciprocalNoNan => "ReciprocalNoNan",
            UnaryOp::Invert => "Invert",
        }
    }
    /// True for the ops TensorFlow defines for floats only.
    pub fn float_only(self) -> bool {
        !matches!(
            self,
            UnaryOp::Neg
                | UnaryOp::Abs
                | UnaryOp::LogicalNot
                | UnaryOp::Square
                | UnaryOp::Sign
                | UnaryOp::Round
                | UnaryOp::Invert
        )
    }
}

/// The error for an op given elements of a dtype it does not take.
pub(super) fn dtype_mismatch(op: &str, want: &str, got: DType) -> crate::Exception {
    invalid_arg!("{op} needs {want} elements, but this tensor holds {got}")
}
