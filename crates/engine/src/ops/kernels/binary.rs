//! Binary elementwise kernels: arithmetic, comparison and logical ops over two buffers of
//! one dtype, either side of full length or a single repeated element.

use super::{dtype_mismatch, BinaryOp};
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::Result;
use crate::interrupt;
use crate::invalid_arg;
use crate::ops::cast::cast_buffer;
use crate::shared::Shared;
use crate::strings::StringBuf;

/// `f(x, y)`, or 0 where the guarded operand is 0: `x` when `X` (TensorFlow's `xdivy`,
/// `xlogy`, `xlog1py`), `y` otherwise (`divide_no_nan`, `multiply_no_nan`). `X` is a
/// constant, so each kernel's loop tests one operand only.
#[inline(always)]
fn zero_where<const X: bool, T: Copy + PartialEq + Default>(
    f: impl Fn(T, T) -> T,
) -> impl Fn(T, T) -> T {
    move |p, q| {
        let guard = if X { p } else { q };
        if guard == T::default() {
            T::default()
        } else {
            f(p, q)
        }
    }
}

/// `f` over aligned slices, each of `n` elements or a single repeated one. Generic over the
/// closure so that every operator compiles to its own tight (vectorisable) loop, run a chunk
/// at a time so an interrupt stops it; [`binary`] checks for the interrupt on its way out.
#[inline(always)]
fn apply<T: Copy + Sync, U: Copy + Default + Send + Sync>(
    x: &[T],
    y: &[T],
    n: usize,
    f: impl Fn(T, T) -> U + Sync,
) -> Shared<U> {
    let f = &f;
    // The repeated element is moved into the closure, so the loop reads it from a register
    // rather than through a reference it must reload after every store.
    let out = match (x.len() == n, y.len() == n) {
        (true, true) => interrupt::zip_map(x, y, f),
        (false, true) => {
            let p = x[0];
            interrupt::map(y, move |q| f(p, q))
        }
        (true, false) => {
            let q = y[0];
            interrupt::map(x, move |p| f(p, q))
        }
        (false, false) => interrupt::map_range(n, |_| f(x[0], y[0])),
    };
    out.into()
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
        return Err(crate::EngineError::OperandDTypes {
            op: op.tf_name().to_string(),
            left: da,
            right: db,
        }
        .into());
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
            Buffer::from(match op {
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
        ($x:expr, $y:expr, $t:ty) => {{
            if op.is_comparison() {
                return Ok(cmp!($x, $y));
            }
            if op == BinaryOp::Div {
                return Ok(Buffer::from(apply($x, $y, n, |p: $t, q: $t| {
                    p as f64 / q as f64
                })));
            }
            if op == BinaryOp::DivNoNan {
                // Integers divide as float64, as tf.math.divide does.
                return Ok(Buffer::from(apply($x, $y, n, |p: $t, q: $t| {
                    if q == 0 {
                        0.0
                    } else {
                        p as f64 / q as f64
                    }
                })));
            }
            // A variable, not a literal: the comparisons below are also compiled for the
            // unsigned types, where `x < 0` is a lint.
            let zero: $t = 0;
            if matches!(
                op,
                BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::TruncateDiv | BinaryOp::TruncateMod
            ) && (0..n).any(|i| $y[ib(i)] == zero)
            {
                return Err(invalid_arg!("Integer division by zero in {}", op.tf_name()));
            }
            if op == BinaryOp::Pow && (0..n).any(|i| $y[ib(i)] < zero) {
                return Err(
                    invalid_arg!("Integers to negative integer powers are not allowed")
                        .with_hint("use a float tensor: tf.cast(x, tf.float32) ** y"),
                );
            }
            Buffer::from(match op {
                BinaryOp::Add => apply($x, $y, n, |p: $t, q: $t| p.wrapping_add(q)),
                BinaryOp::Sub => apply($x, $y, n, |p: $t, q: $t| p.wrapping_sub(q)),
                BinaryOp::Mul => apply($x, $y, n, |p: $t, q: $t| p.wrapping_mul(q)),
                BinaryOp::FloorDiv => apply($x, $y, n, |p: $t, q: $t| {
                    let d = p.wrapping_div(q);
                    if (p.wrapping_rem(q) != zero) && ((p < zero) != (q < zero)) {
                        d - 1
                    } else {
                        d
                    }
                }),
                // Python's floor modulo; `MIN % -1` wraps to 0, as TensorFlow gives.
                BinaryOp::Mod => apply($x, $y, n, |p: $t, q: $t| {
                    let r = p.wrapping_rem(q);
                    if r != zero && ((r < zero) != (q < zero)) {
                        r.wrapping_add(q)
                    } else {
                        r
                    }
                }),
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
        ($x:expr, $y:expr, $t:ty) => {{
            if op.is_comparison() {
                return Ok(cmp!($x, $y));
            }
            Buffer::from(match op {
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
                BinaryOp::Xdivy => apply($x, $y, n, zero_where::<true, _>(|p: $t, q: $t| p / q)),
                BinaryOp::Xlogy => {
                    apply($x, $y, n, zero_where::<true, _>(|p: $t, q: $t| p * q.ln()))
                }
                BinaryOp::Xlog1py => apply(
                    $x,
                    $y,
                    n,
                    zero_where::<true, _>(|p: $t, q: $t| p * q.ln_1p()),
                ),
                BinaryOp::DivNoNan => {
                    apply($x, $y, n, zero_where::<false, _>(|p: $t, q: $t| p / q))
                }
                BinaryOp::MulNoNan => {
                    apply($x, $y, n, zero_where::<false, _>(|p: $t, q: $t| p * q))
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
    // The kernels read the operands as slices, taken once.
    // The 8- and 16-bit ints and uint32 compute in int64 and wrap back, so that the integer
    // kernels are compiled for three types, not eight. The results agree: sums, products,
    // powers and bit operations wrap modulo 2^bits either way, quotients and remainders of
    // values that fit cannot overflow int64, and shift counts are clamped to the narrow
    // width first.
    if da.is_int() && !matches!(da, DType::Int32 | DType::Int64 | DType::UInt64) {
        let wa = cast_buffer(a, DType::Int64)?;
        let mut wb = cast_buffer(b, DType::Int64)?;
        if matches!(op, BinaryOp::LeftShift | BinaryOp::RightShift) {
            let bits = 8 * da.item_bytes() as i64;
            if let Buffer::I64(v) = &wb {
                wb = Buffer::from(interrupt::map(v, |q| q.clamp(0, bits - 1)));
            }
        }
        let out = binary(op, &wa, &wb, n)?;
        return match out.dtype() {
            DType::Int64 => cast_buffer(&out, da),
            // tf.math.truediv of 8- and 16-bit ints is float32 (and float64's quotient
            // rounds to the float32 one: 53 bits are more than 2 × 24 + 2).
            DType::Float64 if op == BinaryOp::Div && da.item_bytes() <= 2 => {
                cast_buffer(&out, DType::Float32)
            }
            _ => Ok(out),
        };
    }
    if da.is_int() {
        // The kernels read the operands as slices, taken once.
        return Ok(match (a, b) {
            (Buffer::I32(x), Buffer::I32(y)) => ints!(&x[..], &y[..], i32),
            (Buffer::I64(x), Buffer::I64(y)) => ints!(&x[..], &y[..], i64),
            (Buffer::U64(x), Buffer::U64(y)) => ints!(&x[..], &y[..], u64),
            _ => unreachable!("dtypes checked above"),
        });
    }
    if matches!(da, DType::Float16 | DType::BFloat16) {
        if op.is_comparison() {
            return crate::dispatch!(floats pair (a, b), T: (x, y) => {
                let (x, y): (&[T], &[T]) = (x, y);
                Ok(cmp!(x, y))
            }, _ => unreachable!("dtypes checked above"));
        }
        // Each operation in float32, rounded back once, as TensorFlow's CPU kernels
        // compute the 16-bit floats.
        let wide = |b: &Buffer| cast_buffer(b, DType::Float32);
        let out = binary(op, &wide(a)?, &wide(b)?, n)?;
        return cast_buffer(&out, da);
    }
    if da.is_float() {
        return crate::dispatch!(wide_floats pair (a, b), T: (x, y) => {
            let (x, y): (&[T], &[T]) = (x, y);
            Ok(floats!(x, y, T))
        }, _ => unreachable!("dtypes checked above"));
    }
    Ok(match (a, b) {
        (Buffer::Bool(x), Buffer::Bool(y)) => Buffer::from(match op {
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
                let each = crate::size::add(longest(x), longest(y))?;
                crate::budget::check_bytes("string concatenation", each as u128 * n as u128)?;
                let mut out = StringBuf::try_with_capacity("string concatenation", n, 0)?;
                for i in 0..n {
                    out.push_parts([x.get(ia(i)), y.get(ib(i))]);
                }
                Buffer::Str(out)
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let eq = op == BinaryOp::Eq;
                let same: Vec<bool> = (0..n)
                    .map(|i| (x.get(ia(i)) == y.get(ib(i))) == eq)
                    .collect();
                Buffer::from(same)
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
