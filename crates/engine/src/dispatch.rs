//! [`dispatch!`](crate::dispatch): the one list of element types, and the match that runs a
//! kernel's body once for each of them.

/// Runs a body once for each element type a buffer, a scalar or a dtype can hold, each copy
/// compiled for its own type: the one place that lists the element types.
///
/// The first word names the set of element types: `elements` (bool and the numbers),
/// `numbers` (ints and floats), `ints` (`signed` and `unsigned`), `floats` (the 16-bit
/// halves and the `wide_floats`, float32 and float64, whose Rust types have the math
/// library's methods). Arms for what the set leaves out
/// (strings, the other dtypes) follow the body as ordinary match arms. The body sees the
/// methods of [`Element`] and [`Number`] without importing them.
///
/// - `dispatch!(SET buffer, T: v => body, other arms…)`: `v` binds the `Shared<T>` of a
///   [`Buffer`] (or a reference to it, as the match binds), `T` the element type (`T:` may
///   be left out).
/// - `dispatch!(SET pair (a, b), T: (x, y) => body, other arms…)`: two buffers of one
///   variant at once.
/// - `dispatch!(SET scalar s, T: x => body, other arms…)`: the value of a [`Scalar`].
/// - `dispatch!(SET dtype d, T => body, other arms…)`: `T` is the element type of a
///   [`DType`].
/// - `dispatch!(map buffer, v => body)`: the same variant rebuilt from `body`, for every
///   variant strings included (`v` is a `Shared<T>` or a `StringBuf`; see
///   [`Column`](crate::Column)).
///
/// ```
/// use ragtag_engine::{dispatch, Buffer, DType, Element, Number, StringBuf};
///
/// fn sum<T: Number>(v: &[T]) -> T {
///     v.iter().fold(T::ZERO, |s, &x| s.plus(x))
/// }
/// fn total(b: &Buffer) -> Option<f64> {
///     dispatch!(numbers b, v => Some(sum(v).to_f64()), _ => None)
/// }
/// assert_eq!(total(&Buffer::from(vec![1i32, 2, 3])), Some(6.0));
/// assert_eq!(total(&Buffer::Str(StringBuf::from_strs(["a"]))), None);
///
/// let width = |d: DType| dispatch!(elements dtype d, T => std::mem::size_of::<T>(), DType::String => 0);
/// assert_eq!((width(DType::Float32), width(DType::String)), (4, 0));
/// ```
#[macro_export]
macro_rules! dispatch {
    // The sets, as lists of kinds.
    (elements $($rest:tt)*) => {
        $crate::dispatch!(@add [] [bools signed unsigned halves wide_floats] $($rest)*)
    };
    (numbers $($rest:tt)*) => {
        $crate::dispatch!(@add [] [signed unsigned halves wide_floats] $($rest)*)
    };
    (ints $($rest:tt)*) => { $crate::dispatch!(@add [] [signed unsigned] $($rest)*) };
    (signed $($rest:tt)*) => { $crate::dispatch!(@add [] [signed] $($rest)*) };
    (unsigned $($rest:tt)*) => { $crate::dispatch!(@add [] [unsigned] $($rest)*) };
    (floats $($rest:tt)*) => { $crate::dispatch!(@add [] [halves wide_floats] $($rest)*) };
    (wide_floats $($rest:tt)*) => { $crate::dispatch!(@add [] [wide_floats] $($rest)*) };
    // The members of each kind, `(buffer and scalar variant, type, dtype variant)`: the one
    // list of element types. A new dtype is one entry here.
    (@add [$($m:tt)*] [bools $($k:ident)*] $($rest:tt)*) => {
        $crate::dispatch!(@add [$($m)* (Bool, bool, Bool)] [$($k)*] $($rest)*)
    };
    (@add [$($m:tt)*] [signed $($k:ident)*] $($rest:tt)*) => {
        $crate::dispatch!(@add [$($m)*
            (I8, i8, Int8) (I16, i16, Int16) (I32, i32, Int32) (I64, i64, Int64)
        ] [$($k)*] $($rest)*)
    };
    (@add [$($m:tt)*] [unsigned $($k:ident)*] $($rest:tt)*) => {
        $crate::dispatch!(@add [$($m)*
            (U8, u8, UInt8) (U16, u16, UInt16) (U32, u32, UInt32) (U64, u64, UInt64)
        ] [$($k)*] $($rest)*)
    };
    (@add [$($m:tt)*] [halves $($k:ident)*] $($rest:tt)*) => {
        $crate::dispatch!(@add [$($m)*
            (F16, $crate::f16, Float16) (BF16, $crate::bf16, BFloat16)
        ] [$($k)*] $($rest)*)
    };
    (@add [$($m:tt)*] [wide_floats $($k:ident)*] $($rest:tt)*) => {
        $crate::dispatch!(@add [$($m)* (F32, f32, Float32) (F64, f64, Float64)] [$($k)*] $($rest)*)
    };
    (@add $members:tt [] $($rest:tt)*) => { $crate::dispatch!(@in $members $($rest)*) };
    (map $buf:expr, $v:ident => $body:expr) => {
        $crate::dispatch!(elements $buf, $v => $crate::Buffer::from($body),
            $crate::Buffer::Str($v) => $crate::Buffer::Str($body))
    };

    // The forms, over the set's members.
    (@in [$(($var:ident, $t:ty, $dt:ident))*]
        dtype $d:expr, $T:ident => $body:expr, $($other:tt)*) => {
        match $d {
            $($crate::DType::$dt => $crate::dispatch!(@arm $T = $t, $body),)*
            $($other)*
        }
    };
    (@in [$(($var:ident, $t:ty, $dt:ident))*]
        scalar $s:expr, $T:ident : $x:pat => $body:expr, $($other:tt)*) => {
        match $s {
            $($crate::Scalar::$var($x) => $crate::dispatch!(@arm $T = $t, $body),)*
            $($other)*
        }
    };
    (@in [$(($var:ident, $t:ty, $dt:ident))*]
        pair ($a:expr, $b:expr), $T:ident : ($x:pat, $y:pat) => $body:expr, $($other:tt)*) => {
        match ($a, $b) {
            $(($crate::Buffer::$var($x), $crate::Buffer::$var($y)) => {
                $crate::dispatch!(@arm $T = $t, $body)
            })*
            $($other)*
        }
    };
    (@in [$(($var:ident, $t:ty, $dt:ident))*]
        $buf:expr, $T:ident : $v:pat => $body:expr, $($other:tt)*) => {
        match $buf {
            $($crate::Buffer::$var($v) => $crate::dispatch!(@arm $T = $t, $body),)*
            $($other)*
        }
    };
    // Without `T:`, the element type goes unnamed.
    (@in $set:tt scalar $s:expr, $x:pat => $body:expr, $($other:tt)*) => {
        $crate::dispatch!(@in $set scalar $s, _T: $x => $body, $($other)*)
    };
    (@in $set:tt pair ($a:expr, $b:expr), ($x:pat, $y:pat) => $body:expr, $($other:tt)*) => {
        $crate::dispatch!(@in $set pair ($a, $b), _T: ($x, $y) => $body, $($other)*)
    };
    (@in $set:tt $buf:expr, $v:pat => $body:expr, $($other:tt)*) => {
        $crate::dispatch!(@in $set $buf, _T: $v => $body, $($other)*)
    };
    // One member's copy of the body: `T` names its type, and the traits' methods are in scope.
    (@arm $T:ident = $t:ty, $body:expr) => {{
        #[allow(dead_code)]
        type $T = $t;
        #[allow(unused_imports)]
        use $crate::element::{Element as _, Number as _};
        $body
    }};
}
