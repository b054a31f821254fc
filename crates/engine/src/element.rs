//! The element types of bool and numeric buffers as Rust types: [`Element`] (what every
//! buffer element is: its dtype, its buffer variant, its scalar, TensorFlow's casts) and
//! [`Number`] (the arithmetic kernels fold with), so that a kernel is written once, generic
//! over its element, and [`dispatch!`](crate::dispatch) runs the copy the compiler made for
//! a buffer's dtype.
//!
//! Adding a dtype is a variant of [`Buffer`], [`Scalar`] and [`DType`], an impl of these
//! two traits, and its entry in the list of its kind (bools, signed, unsigned, halves,
//! wide floats) in [`dispatch!`](crate::dispatch); the kernels written through them need no
//! edit.

use std::fmt::Debug;

use half::{bf16, f16};
use ndarray::linalg::general_mat_mul;
use ndarray::{ArrayView2, ArrayViewMut2};

use crate::buffer::{Buffer, Scalar};
use crate::dtype::DType;
use crate::shared::Shared;

/// An element type of a bool or numeric buffer: `bool`, the signed and unsigned ints of 8 to
/// 64 bits, [`f16`], [`bf16`], `f32` or `f64` (strings are their own case: bytes and offsets, see [`StringBuf`](crate::StringBuf)).
///
/// It knows its dtype, moves a run of elements into its [`Buffer`] variant and borrows it
/// back out, converts to and from a [`Scalar`], and casts as `tf.cast` does.
///
/// ```
/// use ragtag_engine::{Buffer, DType, Element, Scalar};
///
/// // A kernel written once, for every element type.
/// fn reversed<T: Element>(b: &Buffer) -> Option<Buffer> {
///     let v = T::of(b)?;
///     Some(Buffer::from(v.iter().rev().copied().collect::<Vec<T>>()))
/// }
/// let b = Buffer::from(vec![1.5f32, -2.0]);
/// assert_eq!(b.dtype(), f32::DTYPE);
/// assert_eq!(reversed::<f32>(&b), Some(Buffer::from(vec![-2.0f32, 1.5])));
/// assert_eq!(reversed::<i64>(&b), None, "not an int64 buffer");
/// assert_eq!(i32::from_scalar(&Scalar::I32(7)), Some(7));
/// // tf.cast: floats truncate toward zero, nonzero is True.
/// assert_eq!((-2.7f64.cast::<i32>(), 0.5f32.cast::<bool>()), (-2, true));
/// assert_eq!(DType::Int64, i64::DTYPE);
/// ```
pub trait Element: Copy + Default + PartialEq + PartialOrd + Debug + Send + Sync + 'static {
    /// The dtype of a buffer of these elements.
    const DTYPE: DType;
    /// The buffer holding `v`, no copy.
    fn buffer(v: Shared<Self>) -> Buffer;
    /// The elements of `b` when it holds this type.
    fn of(b: &Buffer) -> Option<&Shared<Self>>;
    /// The elements of `b`, to write or grow, when it holds this type.
    fn of_mut(b: &mut Buffer) -> Option<&mut Shared<Self>>;
    /// The element as a scalar.
    fn scalar(self) -> Scalar;
    /// The element a scalar of this dtype holds (None for another dtype).
    fn from_scalar(s: &Scalar) -> Option<Self>;
    /// As float64 (`True` is 1).
    fn to_f64(self) -> f64;
    /// As int64: floats truncate toward zero and saturate, as `tf.cast` does (NaN is 0).
    fn to_i64(self) -> i64;
    /// `tf.cast` from float64: floats round to the nearest, ints truncate toward zero as
    /// TensorFlow's compiled casts do (out of int32's range, or int64's for the 32- and 64-bit
    /// ints, is the minimum, then wraps to the narrower type), bool is `x != 0` (NaN is
    /// `True`).
    fn from_f64(x: f64) -> Self;
    /// `tf.cast` from int64: narrower ints wrap, floats round to the nearest, bool is
    /// `x != 0`.
    fn from_i64(x: i64) -> Self;
    /// `tf.cast` from uint64: as from int64 (ints wrap the same bits), but floats take the
    /// unsigned value.
    #[inline(always)]
    fn from_u64(x: u64) -> Self {
        Self::from_i64(x as i64)
    }
    /// `tf.cast` to `U`: through float64 from floats, through int64 from ints and bools,
    /// through uint64 from uint64 (each exact for the source, so the one rounding is the
    /// target's).
    #[inline(always)]
    fn cast<U: Element>(self) -> U {
        if Self::DTYPE.is_float() {
            U::from_f64(self.to_f64())
        } else if Self::DTYPE == DType::UInt64 {
            U::from_u64(self.to_i64() as u64)
        } else {
            U::from_i64(self.to_i64())
        }
    }
}

/// The arithmetic of TensorFlow's kernels on an [`Element`]: integers wrap on overflow,
/// floats let a NaN win max and min, and `bool` is the semiring of `or` and `and` (a sum is
/// `any`, a product `all`, a matrix product NumPy's boolean one).
///
/// ```
/// use ragtag_engine::Number;
///
/// fn total<T: Number>(v: &[T]) -> T {
///     v.iter().fold(T::ZERO, |s, &x| s.plus(x))
/// }
/// assert_eq!(total(&[i32::MAX, 1]), i32::MIN, "wraps");
/// assert_eq!(total(&[false, true]), true, "any");
/// assert!(1.0f64.max_of(f64::NAN).is_nan(), "a NaN wins");
/// ```
pub trait Number: Element {
    /// The start of a sum (`False` for bool).
    const ZERO: Self;
    /// The start of a product (`True` for bool).
    const ONE: Self;
    /// The lowest finite value (`False` for bool).
    const LOWEST: Self;
    /// The largest finite value (`True` for bool).
    const HIGHEST: Self;
    /// `self + x` (wrapping for ints, `or` for bool).
    fn plus(self, x: Self) -> Self;
    /// `self * x` (wrapping for ints, `and` for bool).
    fn times(self, x: Self) -> Self;
    /// The larger of `self` (an accumulator) and `x`; a NaN `x` wins (`or` for bool).
    fn max_of(self, x: Self) -> Self;
    /// The smaller of `self` (an accumulator) and `x`; a NaN `x` wins (`and` for bool).
    fn min_of(self, x: Self) -> Self;
    /// True for a NaN.
    fn is_nan(self) -> bool;
    /// Writes the matrix product `a · b` into `c` (which starts zeroed). The default is the
    /// row-times-row loop in this type's arithmetic; floats use matrixmultiply's kernel.
    fn gemm(a: ArrayView2<'_, Self>, b: ArrayView2<'_, Self>, mut c: ArrayViewMut2<'_, Self>) {
        for (mut crow, arow) in c.rows_mut().into_iter().zip(a.rows()) {
            for (&x, brow) in arow.iter().zip(b.rows()) {
                if x == Self::ZERO {
                    continue;
                }
                for (z, &y) in crow.iter_mut().zip(brow.iter()) {
                    *z = z.plus(x.times(y));
                }
            }
        }
    }
}

/// A float truncated toward zero to int32 as x86's `cvttsd2si` does, which TensorFlow's
/// CPU casts compile to: out of range and NaN give int32's minimum.
#[inline(always)]
fn truncate_i32(x: f64) -> i32 {
    if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// [`truncate_i32`] for int64: out of range and NaN give int64's minimum.
#[inline(always)]
fn truncate_i64(x: f64) -> i64 {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// A float truncated to uint64 as the compiled cast does: the upper half of the range
/// directly, the rest through int64 (so -1.0 is 2^64 - 1, and out of range and NaN 2^63).
#[inline(always)]
fn truncate_u64(x: f64) -> u64 {
    if (9_223_372_036_854_775_808.0..18_446_744_073_709_551_616.0).contains(&x) {
        x as u64
    } else {
        truncate_i64(x) as u64
    }
}

/// The [`Element`] impl of `$t`: its variants, and the five conversions TensorFlow's casts
/// go through, each a function of one argument.
macro_rules! element {
    ($t:ty, $variant:ident, $dtype:ident,
        to_f64: $to_f64:expr, to_i64: $to_i64:expr,
        from_f64: $from_f64:expr, from_i64: $from_i64:expr, from_u64: $from_u64:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            #[inline]
            fn buffer(v: Shared<Self>) -> Buffer {
                Buffer::$variant(v)
            }
            #[inline]
            fn of(b: &Buffer) -> Option<&Shared<Self>> {
                match b {
                    Buffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            #[inline]
            fn of_mut(b: &mut Buffer) -> Option<&mut Shared<Self>> {
                match b {
                    Buffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            #[inline]
            fn scalar(self) -> Scalar {
                Scalar::$variant(self)
            }
            #[inline]
            fn from_scalar(s: &Scalar) -> Option<Self> {
                match s {
                    Scalar::$variant(x) => Some(*x),
                    _ => None,
                }
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                ($to_f64)(self)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                ($to_i64)(self)
            }
            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                ($from_f64)(x)
            }
            #[inline(always)]
            fn from_i64(x: i64) -> Self {
                ($from_i64)(x)
            }
            #[inline(always)]
            fn from_u64(x: u64) -> Self {
                ($from_u64)(x)
            }
        }
    };
}

/// The [`Element`] impl of an int or a wide float: ints wrap (`as`), floats round to the
/// nearest (`as`), and a float becomes an int through `$from_f64` (an int32 or int64
/// truncation, then a wrap to the narrower type).
macro_rules! numeric_element {
    ($t:ty, $variant:ident, $dtype:ident, $from_f64:expr) => {
        element!($t, $variant, $dtype,
            to_f64: |x: $t| x as f64, to_i64: |x: $t| x as i64,
            from_f64: $from_f64, from_i64: |x: i64| x as $t, from_u64: |x: u64| x as $t);
    };
}
numeric_element!(i8, I8, Int8, |x| truncate_i32(x) as i8);
numeric_element!(i16, I16, Int16, |x| truncate_i32(x) as i16);
numeric_element!(i32, I32, Int32, truncate_i32);
numeric_element!(i64, I64, Int64, truncate_i64);
numeric_element!(u8, U8, UInt8, |x| truncate_i32(x) as u8);
numeric_element!(u16, U16, UInt16, |x| truncate_i32(x) as u16);
numeric_element!(u32, U32, UInt32, |x| truncate_i64(x) as u32);
numeric_element!(u64, U64, UInt64, truncate_u64);
numeric_element!(f32, F32, Float32, |x: f64| x as f32);
numeric_element!(f64, F64, Float64, |x: f64| x);

/// The [`Element`] impl of a 16-bit float ([`f16`], [`bf16`]): casts go through float64,
/// which holds every value exactly, so the one rounding is to the 16-bit type (from an int
/// beyond 2^53 there are two, and the second cannot change the result: it is past the
/// largest 16-bit float or a multiple of its spacing).
macro_rules! half_element {
    ($t:ty, $variant:ident, $dtype:ident) => {
        element!($t, $variant, $dtype,
            to_f64: <$t>::to_f64, to_i64: |x: $t| x.to_f64() as i64,
            from_f64: <$t>::from_f64, from_i64: |x: i64| <$t>::from_f64(x as f64),
            from_u64: |x: u64| <$t>::from_f64(x as f64));
    };
}
half_element!(f16, F16, Float16);
half_element!(bf16, BF16, BFloat16);

// `True` is 1; nonzero is `True`, and a NaN (which is not 0) too, as in TensorFlow.
element!(bool, Bool, Bool,
    to_f64: |x: bool| f64::from(u8::from(x)), to_i64: i64::from,
    from_f64: |x: f64| x != 0.0, from_i64: |x: i64| x != 0, from_u64: |x: u64| x != 0);

/// The [`Number`] impl of an integer type: wrapping arithmetic, no NaN.
macro_rules! int_number {
    ($t:ty) => {
        impl Number for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn plus(self, x: Self) -> Self {
                self.wrapping_add(x)
            }
            #[inline(always)]
            fn times(self, x: Self) -> Self {
                self.wrapping_mul(x)
            }
            #[inline(always)]
            fn max_of(self, x: Self) -> Self {
                self.max(x)
            }
            #[inline(always)]
            fn min_of(self, x: Self) -> Self {
                self.min(x)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                false
            }
        }
    };
}
int_number!(i8);
int_number!(i16);
int_number!(i32);
int_number!(i64);
int_number!(u8);
int_number!(u16);
int_number!(u32);
int_number!(u64);

/// `x` when `take` (it is past the accumulator `acc`, or a NaN), else `acc`: a float max or
/// min in which a NaN wins.
#[inline(always)]
fn nan_wins<T>(acc: T, x: T, take: bool) -> T {
    if take {
        x
    } else {
        acc
    }
}

/// The [`Number`] impl of a float type: IEEE arithmetic, a NaN wins max and min, and
/// products through matrixmultiply's blocked, vectorised kernel.
macro_rules! float_number {
    ($t:ty) => {
        impl Number for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn plus(self, x: Self) -> Self {
                self + x
            }
            #[inline(always)]
            fn times(self, x: Self) -> Self {
                self * x
            }
            #[inline(always)]
            fn max_of(self, x: Self) -> Self {
                nan_wins(self, x, x > self || x.is_nan())
            }
            #[inline(always)]
            fn min_of(self, x: Self) -> Self {
                nan_wins(self, x, x < self || x.is_nan())
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn gemm(
                a: ArrayView2<'_, Self>,
                b: ArrayView2<'_, Self>,
                mut c: ArrayViewMut2<'_, Self>,
            ) {
                // matrixmultiply's blocked, vectorised kernel, on any strides.
                general_mat_mul(1.0, &a, &b, 0.0, &mut c);
            }
        }
    };
}
float_number!(f32);
float_number!(f64);

/// The [`Number`] impl of a 16-bit float: each operation in float32, rounded back, as
/// TensorFlow's CPU kernels compute half and bfloat16; a NaN wins max and min.
macro_rules! half_number {
    ($t:ty) => {
        impl Number for $t {
            const ZERO: Self = <$t>::ZERO;
            const ONE: Self = <$t>::ONE;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn plus(self, x: Self) -> Self {
                <$t>::from_f32(self.to_f32() + x.to_f32())
            }
            #[inline(always)]
            fn times(self, x: Self) -> Self {
                <$t>::from_f32(self.to_f32() * x.to_f32())
            }
            #[inline(always)]
            fn max_of(self, x: Self) -> Self {
                nan_wins(self, x, x > self || x.is_nan())
            }
            #[inline(always)]
            fn min_of(self, x: Self) -> Self {
                nan_wins(self, x, x < self || x.is_nan())
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            /// In float32, each product rounded once at the end, as TensorFlow's CPU
            /// kernels multiply 16-bit matrices.
            fn gemm(
                a: ArrayView2<'_, Self>,
                b: ArrayView2<'_, Self>,
                mut c: ArrayViewMut2<'_, Self>,
            ) {
                let (a, b) = (a.mapv(|x| x.to_f32()), b.mapv(|x| x.to_f32()));
                let mut wide = ndarray::Array2::<f32>::zeros(c.dim());
                general_mat_mul(1.0, &a, &b, 0.0, &mut wide);
                c.zip_mut_with(&wide, |z, &v| *z = <$t>::from_f32(v));
            }
        }
    };
}
half_number!(f16);
half_number!(bf16);

impl Number for bool {
    const ZERO: Self = false;
    const ONE: Self = true;
    const LOWEST: Self = false;
    const HIGHEST: Self = true;
    #[inline(always)]
    fn plus(self, x: Self) -> Self {
        self || x
    }
    #[inline(always)]
    fn times(self, x: Self) -> Self {
        self && x
    }
    #[inline(always)]
    fn max_of(self, x: Self) -> Self {
        self || x
    }
    #[inline(always)]
    fn min_of(self, x: Self) -> Self {
        self && x
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In range, every cast agrees with `as` between the concrete types (the casts go through
    /// int64, uint64 or float64).
    #[test]
    fn casts_in_range_are_direct_casts() {
        for x in [0.0, -0.0, 0.5, -2.7, 1e9, -1e9] {
            assert_eq!(x.cast::<i64>(), x as i64);
            assert_eq!(x.cast::<i32>(), x as i32);
            assert_eq!((x as f32).cast::<i64>(), x as f32 as i64);
            assert_eq!(x.cast::<bool>(), x != 0.0);
        }
        for x in [0.1, 3e38, 1e39, f64::INFINITY, f64::NAN] {
            assert_eq!(x.cast::<f32>().to_bits(), (x as f32).to_bits());
        }
        assert!(f64::NAN.cast::<bool>());
        for x in [0i64, 1, -1, i64::from(i32::MAX) + 1, i64::MIN, i64::MAX] {
            assert_eq!(x.cast::<i32>(), x as i32);
            assert_eq!(x.cast::<u8>(), x as u8);
            assert_eq!(x.cast::<f32>().to_bits(), (x as f32).to_bits());
            assert_eq!(x.cast::<f64>().to_bits(), (x as f64).to_bits());
            assert_eq!(
                (x as i32).cast::<f32>().to_bits(),
                (x as i32 as f32).to_bits()
            );
        }
        assert_eq!((true.cast::<f32>(), false.cast::<i64>()), (1.0, 0));
        assert_eq!(u64::MAX.cast::<f32>(), 1.844_674_4e19, "unsigned, not -1");
        assert_eq!(u64::MAX.cast::<i64>(), -1);
        assert_eq!(f16::from_f64(65504.0).cast::<i32>(), 65504);
        assert_eq!(70000i32.cast::<f16>(), f16::INFINITY);
    }

    /// Out of range, floats truncate to ints as TensorFlow 2.21 on x86-64 answers
    /// (tf.cast(tf.constant([300.0, -1.0, 1e10, nan]), …)).
    #[test]
    fn floats_out_of_range_truncate_as_tensorflow() {
        let xs = [300.0f32, -1.0, 1e10, -1e10, f32::NAN];
        let to = |f: fn(f32) -> i64| xs.iter().map(|&x| f(x)).collect::<Vec<_>>();
        assert_eq!(to(|x| i64::from(x.cast::<u8>())), [44, 255, 0, 0, 0]);
        assert_eq!(to(|x| i64::from(x.cast::<i8>())), [44, -1, 0, 0, 0]);
        assert_eq!(to(|x| i64::from(x.cast::<u16>())), [300, 65535, 0, 0, 0]);
        assert_eq!(
            to(|x| i64::from(x.cast::<u32>())),
            [300, 4_294_967_295, 1_410_065_408, 2_884_901_888, 0]
        );
        let min = i64::from(i32::MIN);
        assert_eq!(to(|x| i64::from(x.cast::<i32>())), [300, -1, min, min, min]);
        let big = [1e20, -1e20, f64::NAN, -1.0];
        let m = i64::MIN;
        assert_eq!(big.map(|x| x.cast::<i64>()), [m, m, m, -1]);
        assert_eq!(
            big.map(|x| x.cast::<u64>()),
            [1 << 63, 1 << 63, 1 << 63, u64::MAX]
        );
    }

    #[test]
    fn bool_is_the_or_and_semiring() {
        assert!(false.plus(true) && !true.times(false));
        assert!(true.max_of(false) && !true.min_of(false));
        assert_eq!((bool::ZERO, bool::ONE), (false, true));
    }

    #[test]
    fn dispatch_runs_each_types_copy() {
        let b = Buffer::from(vec![1i64, 2]);
        let name =
            crate::dispatch!(elements &b, T: _v => T::DTYPE.name(), Buffer::Str(_) => "string");
        assert_eq!(name, "int64");
        let d = crate::dispatch!(numbers dtype DType::Float32, T => T::DTYPE, _ => DType::Bool);
        assert_eq!(d, DType::Float32);
        let same = crate::dispatch!(elements pair (&b, &b), (x, y) => x == y, _ => false);
        assert!(same);
        let s = crate::dispatch!(elements scalar &Scalar::F64(2.5), x => x.to_i64(), _ => -1);
        assert_eq!(s, 2);
    }
}
