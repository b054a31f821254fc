//! Flat elementwise kernels: one pass over aligned buffers, no per-element allocation.

use crate::engine::buffer::Buffer;
use crate::engine::dtype::DType;
use crate::engine::error::Result;
use crate::engine::interrupt;
use crate::engine::strings::StringBuf;
use crate::invalid_arg;

use super::special;

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
            DType::Float64
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

fn dtype_mismatch(op: &str, want: &str, got: DType) -> crate::engine::EngineError {
    invalid_arg!("{op} needs {want} elements, but this tensor holds {got}")
}

/// Applies a unary op to every element. An interrupt stops it part-way.
pub fn unary(op: UnaryOp, b: &Buffer) -> Result<Buffer> {
    let out = unary_unchecked(op, b)?;
    interrupt::check()?;
    Ok(out)
}

fn unary_unchecked(op: UnaryOp, b: &Buffer) -> Result<Buffer> {
    let d = b.dtype();
    if op == UnaryOp::LogicalNot {
        return match b {
            Buffer::Bool(v) => Ok(Buffer::Bool(interrupt::map(v, |x| !x))),
            _ => Err(dtype_mismatch("~ (logical not)", "bool", d).with_hint(
                "in TensorFlow `~` is logical_not and only takes bool tensors; compare first, e.g. ~(x > 2)",
            )),
        };
    }
    if op == UnaryOp::Invert {
        return match b {
            Buffer::I32(v) => Ok(Buffer::I32(interrupt::map(v, |x| !x))),
            Buffer::I64(v) => Ok(Buffer::I64(interrupt::map(v, |x| !x))),
            _ => Err(dtype_mismatch("tf.bitwise.invert", "integer", d)),
        };
    }
    if op.float_only() && !d.is_float() {
        return Err(dtype_mismatch(
            &format!("tf.math.{}", op.tf_name().to_lowercase()),
            "float",
            d,
        )
        .with_hint("cast first: tf.cast(x, tf.float32)"));
    }
    macro_rules! int_op {
        ($v:expr, $t:ty) => {
            interrupt::map($v, |x: $t| match op {
                UnaryOp::Neg => x.wrapping_neg(),
                UnaryOp::Abs => x.wrapping_abs(),
                UnaryOp::Square => x.wrapping_mul(x),
                UnaryOp::Sign => x.signum(),
                _ => x,
            })
        };
    }
    if matches!(op, UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite) {
        let test = |x: f64| match op {
            UnaryOp::IsNan => x.is_nan(),
            UnaryOp::IsInf => x.is_infinite(),
            _ => x.is_finite(),
        };
        return Ok(Buffer::Bool(match b {
            Buffer::F32(v) => interrupt::map(v, |x| test(f64::from(x))),
            Buffer::F64(v) => interrupt::map(v, test),
            _ => unreachable!("float checked"),
        }));
    }
    Ok(match b {
        Buffer::I32(v) => Buffer::I32(int_op!(v, i32)),
        Buffer::I64(v) => Buffer::I64(int_op!(v, i64)),
        Buffer::F32(v) => Buffer::F32(interrupt::map(v, |x| float_unary(op, f64::from(x)) as f32)),
        Buffer::F64(v) => Buffer::F64(interrupt::map(v, |x| float_unary(op, x))),
        _ => {
            return Err(invalid_arg!(
                "{} is not defined for {} tensors",
                op.tf_name(),
                d
            ))
        }
    })
}

/// One float element through `op`, computed in float64.
fn float_unary(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::Neg => -x,
        UnaryOp::Abs => x.abs(),
        UnaryOp::Square => x * x,
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Exp => x.exp(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        UnaryOp::Round | UnaryOp::Rint => x.round_ties_even(),
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sigmoid => 1.0 / (1.0 + (-x).exp()),
        UnaryOp::Reciprocal => 1.0 / x,
        UnaryOp::ReciprocalNoNan => {
            if x == 0.0 {
                0.0
            } else {
                1.0 / x
            }
        }
        UnaryOp::Acos => x.acos(),
        UnaryOp::Acosh => x.acosh(),
        UnaryOp::Asin => x.asin(),
        UnaryOp::Asinh => x.asinh(),
        UnaryOp::Atan => x.atan(),
        UnaryOp::Atanh => x.atanh(),
        UnaryOp::Cosh => x.cosh(),
        UnaryOp::Sinh => x.sinh(),
        UnaryOp::Tan => x.tan(),
        UnaryOp::Log1p => x.ln_1p(),
        UnaryOp::Expm1 => x.exp_m1(),
        UnaryOp::Rsqrt => 1.0 / x.sqrt(),
        UnaryOp::Erf => special::erf(x),
        UnaryOp::Erfc => special::erfc(x),
        UnaryOp::Erfinv => special::erfinv(x),
        UnaryOp::Ndtri => std::f64::consts::SQRT_2 * special::erfinv(2.0 * x - 1.0),
        UnaryOp::Lgamma => special::lgamma(x),
        UnaryOp::Digamma => special::digamma(x),
        UnaryOp::Softplus => {
            if x > 0.0 {
                x + (-x).exp().ln_1p()
            } else {
                x.exp().ln_1p()
            }
        }
        UnaryOp::Softsign => x / (1.0 + x.abs()),
        UnaryOp::LogSigmoid => {
            // -softplus(-x), stable on both sides.
            if x < 0.0 {
                x - x.exp().ln_1p()
            } else {
                -(-x).exp().ln_1p()
            }
        }
        UnaryOp::LogicalNot
        | UnaryOp::IsNan
        | UnaryOp::IsInf
        | UnaryOp::IsFinite
        | UnaryOp::Invert => x,
    }
}

/// Python's floor modulo for integers.
fn int_floor_mod<T>(a: T, b: T) -> T
where
    T: Copy
        + PartialOrd
        + Default
        + From<i8>
        + std::ops::Rem<Output = T>
        + std::ops::Add<Output = T>,
{
    let zero = T::default();
    // `MIN % -1` overflows in Rust although the answer is 0 (as TensorFlow gives).
    if b == T::from(-1) {
        return zero;
    }
    let r = a % b;
    if r != zero && ((r < zero) != (b < zero)) {
        r + b
    } else {
        r
    }
}

/// `f` over aligned slices, each of `n` elements or a single repeated one. Generic over the
/// closure so that every operator compiles to its own tight (vectorisable) loop, run a chunk
/// at a time so an interrupt stops it; [`binary`] checks for the interrupt on its way out.
#[inline(always)]
fn apply<T: Copy, U>(x: &[T], y: &[T], n: usize, f: impl Fn(T, T) -> U) -> Vec<U> {
    match (x.len() == n, y.len() == n) {
        (true, true) => interrupt::zip_map(x, y, f),
        (false, true) => {
            let p = x[0];
            interrupt::map(y, |q| f(p, q))
        }
        (true, false) => {
            let q = y[0];
            interrupt::map(x, |p| f(p, q))
        }
        (false, false) => interrupt::map_range(n, |_| f(x[0], y[0])),
    }
}

/// Applies a binary op elementwise to two buffers of the same dtype. Each side either has
/// `n` elements or exactly one (which is repeated). An interrupt stops it part-way.
pub fn binary(op: BinaryOp, a: &Buffer, b: &Buffer, n: usize) -> Result<Buffer> {
    let out = binary_unchecked(op, a, b, n)?;
    // The kernels stop early when interrupted; their partial output is dropped here.
    interrupt::check()?;
    Ok(out)
}

fn binary_unchecked(op: BinaryOp, a: &Buffer, b: &Buffer, n: usize) -> Result<Buffer> {
    let (da, db) = (a.dtype(), b.dtype());
    if da != db {
        return Err(invalid_arg!(
            "{} needs both operands of one dtype, but got {} and {}",
            op.tf_name(),
            da,
            db
        )
        .with_hint("convert one side with tf.cast(x, tf.<dtype>)"));
    }
    if op.float_only() && !da.is_float() {
        return Err(dtype_mismatch(
            &format!("tf.math.{}", op.tf_name().to_lowercase()),
            "float",
            da,
        )
        .with_hint("cast first: tf.cast(x, tf.float32)"));
    }
    if op.int_only() && !da.is_int() {
        return Err(dtype_mismatch(op.tf_name(), "integer", da));
    }
    let sa = usize::from(a.len() != 1 || n == 1);
    let sb = usize::from(b.len() != 1 || n == 1);
    let ia = move |i: usize| i * sa;
    let ib = move |i: usize| i * sb;

    macro_rules! cmp {
        ($x:expr, $y:expr) => {{
            Buffer::Bool(match op {
                BinaryOp::Eq => apply($x, $y, n, |p, q| p == q),
                BinaryOp::Ne => apply($x, $y, n, |p, q| p != q),
                BinaryOp::Lt => apply($x, $y, n, |p, q| p < q),
                BinaryOp::Le => apply($x, $y, n, |p, q| p <= q),
                BinaryOp::Gt => apply($x, $y, n, |p, q| p > q),
                _ => apply($x, $y, n, |p, q| p >= q),
            })
        }};
    }
    macro_rules! ints {
        ($x:expr, $y:expr, $t:ty, $variant:ident) => {{
            if op.is_comparison() {
                return Ok(cmp!($x, $y));
            }
            if op == BinaryOp::Div {
                return Ok(Buffer::F64(apply($x, $y, n, |p: $t, q: $t| {
                    p as f64 / q as f64
                })));
            }
            if op == BinaryOp::DivNoNan {
                // Integers divide as float64, as tf.math.divide does.
                return Ok(Buffer::F64(apply($x, $y, n, |p: $t, q: $t| {
                    if q == 0 {
                        0.0
                    } else {
                        p as f64 / q as f64
                    }
                })));
            }
            if matches!(
                op,
                BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::TruncateDiv | BinaryOp::TruncateMod
            ) && (0..n).any(|i| $y[ib(i)] == 0)
            {
                return Err(invalid_arg!("Integer division by zero in {}", op.tf_name()));
            }
            if op == BinaryOp::Pow && (0..n).any(|i| $y[ib(i)] < 0) {
                return Err(
                    invalid_arg!("Integers to negative integer powers are not allowed")
                        .with_hint("use a float tensor: tf.cast(x, tf.float32) ** y"),
                );
            }
            Buffer::$variant(match op {
                BinaryOp::Add => apply($x, $y, n, |p: $t, q: $t| p.wrapping_add(q)),
                BinaryOp::Sub => apply($x, $y, n, |p: $t, q: $t| p.wrapping_sub(q)),
                BinaryOp::Mul => apply($x, $y, n, |p: $t, q: $t| p.wrapping_mul(q)),
                BinaryOp::FloorDiv => apply($x, $y, n, |p: $t, q: $t| {
                    let d = p.wrapping_div(q);
                    if (p.wrapping_rem(q) != 0) && ((p < 0) != (q < 0)) {
                        d - 1
                    } else {
                        d
                    }
                }),
                BinaryOp::Mod => apply($x, $y, n, |p: $t, q: $t| int_floor_mod(p, q)),
                BinaryOp::Pow => apply($x, $y, n, |p: $t, q: $t| p.wrapping_pow(q as u32)),
                BinaryOp::Maximum => apply($x, $y, n, |p: $t, q: $t| p.max(q)),
                BinaryOp::Minimum => apply($x, $y, n, |p: $t, q: $t| p.min(q)),
                BinaryOp::And => apply($x, $y, n, |p: $t, q: $t| p & q),
                BinaryOp::Or => apply($x, $y, n, |p: $t, q: $t| p | q),
                BinaryOp::Xor => apply($x, $y, n, |p: $t, q: $t| p ^ q),
                BinaryOp::TruncateDiv => apply($x, $y, n, |p: $t, q: $t| p.wrapping_div(q)),
                BinaryOp::TruncateMod => apply($x, $y, n, |p: $t, q: $t| p.wrapping_rem(q)),
                BinaryOp::SquaredDifference => apply($x, $y, n, |p: $t, q: $t| {
                    let d = p.wrapping_sub(q);
                    d.wrapping_mul(d)
                }),
                BinaryOp::LeftShift => apply($x, $y, n, |p: $t, q: $t| {
                    p.wrapping_shl(q.clamp(0, <$t>::BITS as $t - 1) as u32)
                }),
                BinaryOp::RightShift => apply($x, $y, n, |p: $t, q: $t| {
                    p >> q.clamp(0, <$t>::BITS as $t - 1)
                }),
                _ => unreachable!(),
            })
        }};
    }
    macro_rules! floats {
        ($x:expr, $y:expr, $t:ty, $variant:ident) => {{
            if op.is_comparison() {
                return Ok(cmp!($x, $y));
            }
            Buffer::$variant(match op {
                BinaryOp::Add => apply($x, $y, n, |p: $t, q: $t| p + q),
                BinaryOp::Sub => apply($x, $y, n, |p: $t, q: $t| p - q),
                BinaryOp::Mul => apply($x, $y, n, |p: $t, q: $t| p * q),
                BinaryOp::Div => apply($x, $y, n, |p: $t, q: $t| p / q),
                BinaryOp::FloorDiv => apply($x, $y, n, |p: $t, q: $t| (p / q).floor()),
                BinaryOp::Mod => apply($x, $y, n, |p: $t, q: $t| {
                    let r = p % q;
                    if r != 0.0 && ((r < 0.0) != (q < 0.0)) {
                        r + q
                    } else {
                        r
                    }
                }),
                BinaryOp::Pow => apply($x, $y, n, |p: $t, q: $t| p.powf(q)),
                BinaryOp::Maximum => apply(
                    $x,
                    $y,
                    n,
                    |p: $t, q: $t| if p.is_nan() || p > q { p } else { q },
                ),
                BinaryOp::Minimum => apply(
                    $x,
                    $y,
                    n,
                    |p: $t, q: $t| if p.is_nan() || p < q { p } else { q },
                ),
                BinaryOp::Atan2 => apply($x, $y, n, |p: $t, q: $t| p.atan2(q)),
                BinaryOp::TruncateDiv => apply($x, $y, n, |p: $t, q: $t| (p / q).trunc()),
                BinaryOp::TruncateMod => apply($x, $y, n, |p: $t, q: $t| p % q),
                BinaryOp::SquaredDifference => apply($x, $y, n, |p: $t, q: $t| (p - q) * (p - q)),
                BinaryOp::Xdivy => {
                    apply($x, $y, n, |p: $t, q: $t| if p == 0.0 { 0.0 } else { p / q })
                }
                BinaryOp::Xlogy => apply(
                    $x,
                    $y,
                    n,
                    |p: $t, q: $t| {
                        if p == 0.0 {
                            0.0
                        } else {
                            p * q.ln()
                        }
                    },
                ),
                BinaryOp::Xlog1py => apply(
                    $x,
                    $y,
                    n,
                    |p: $t, q: $t| {
                        if p == 0.0 {
                            0.0
                        } else {
                            p * q.ln_1p()
                        }
                    },
                ),
                BinaryOp::DivNoNan => {
                    apply($x, $y, n, |p: $t, q: $t| if q == 0.0 { 0.0 } else { p / q })
                }
                BinaryOp::MulNoNan => {
                    apply($x, $y, n, |p: $t, q: $t| if q == 0.0 { 0.0 } else { p * q })
                }
                _ => {
                    return Err(invalid_arg!(
                        "{} is only defined for bool (and integer) tensors, not {}",
                        op.tf_name(),
                        da
                    ))
                }
            })
        }};
    }
    Ok(match (a, b) {
        (Buffer::I32(x), Buffer::I32(y)) => ints!(x, y, i32, I32),
        (Buffer::I64(x), Buffer::I64(y)) => ints!(x, y, i64, I64),
        (Buffer::F32(x), Buffer::F32(y)) => floats!(x, y, f32, F32),
        (Buffer::F64(x), Buffer::F64(y)) => floats!(x, y, f64, F64),
        (Buffer::Bool(x), Buffer::Bool(y)) => Buffer::Bool(match op {
            BinaryOp::And => apply(x, y, n, |p, q| p & q),
            BinaryOp::Or => apply(x, y, n, |p, q| p | q),
            BinaryOp::Xor => apply(x, y, n, |p, q| p ^ q),
            BinaryOp::Eq => apply(x, y, n, |p, q| p == q),
            BinaryOp::Ne => apply(x, y, n, |p, q| p != q),
            _ => {
                return Err(
                    invalid_arg!("{} is not defined for bool tensors", op.tf_name())
                        .with_hint("cast first: tf.cast(x, tf.int32)"),
                )
            }
        }),
        (Buffer::Str(x), Buffer::Str(y)) => match op {
            BinaryOp::Add => {
                let longest = |c: &StringBuf| c.iter().map(<[u8]>::len).max().unwrap_or(0);
                let each = crate::engine::size::add(longest(x), longest(y))?;
                crate::engine::budget::check_bytes(
                    "string concatenation",
                    each as u128 * n as u128,
                )?;
                let mut out = StringBuf::try_with_capacity("string concatenation", n, 0)?;
                for i in 0..n {
                    out.push_parts([x.get(ia(i)), y.get(ib(i))]);
                }
                Buffer::Str(out)
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let eq = op == BinaryOp::Eq;
                Buffer::Bool(
                    (0..n)
                        .map(|i| (x.get(ia(i)) == y.get(ib(i))) == eq)
                        .collect(),
                )
            }
            _ => {
                return Err(invalid_arg!(
                    "{} is not defined for string tensors",
                    op.tf_name()
                ))
            }
        },
        _ => unreachable!("dtypes checked above"),
    })
}
