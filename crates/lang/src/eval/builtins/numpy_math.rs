//! NumPy's elementwise functions: the unary ufuncs (`np.abs`, `sqrt`, `exp`, `log`, …),
//! the binary ones (`np.maximum`, `equal`, `logical_and`, …), `np.clip`, `np.where`, and
//! the comparisons `np.isclose`, `allclose`, `array_equal` — with NumPy's dtype rules,
//! on the engine's unary, binary and select kernels.

use super::numpy::promote;
use super::numpy_args::{arg_tensor, cast, nd};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::numpy_kernel;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::kernels::{self, BinaryOp, UnaryOp};
use ragtag_engine::{Array, DType, ExceptionClass, Tensor};

/// How a unary ufunc treats its input's dtype.
#[derive(Clone, Copy)]
enum Out {
    /// The same dtype (`abs`, `floor`).
    Same,
    /// A float: ints and bools become the narrowest float that holds them (`sqrt`).
    Float,
    /// bool (`isnan`).
    Bool,
}

macro_rules! unary {
    ($($name:literal, $op:expr, $out:expr, $doc:literal, $ex:literal;)*) => {
        /// NumPy's unary ufuncs.
        pub static UNARY: &[Builtin] = &[
            $(
                Builtin::function($name, "(x)", |_, a| unary(a, $op, $out))
                    .doc($doc)
                    .examples(&[$ex]),
            )*
        ];
    };
}

unary! {
    "np.abs", UnaryOp::Abs, Out::Same, "The absolute value of each element.", "np.abs(np.array([-1.5, 2.0]))";
    "np.sqrt", UnaryOp::Sqrt, Out::Float, "The square root of each element (a float; NaN below zero).", "np.sqrt(np.array([1, 4, 9]))";
    "np.exp", UnaryOp::Exp, Out::Float, "e raised to each element.", "np.exp(np.array([0.0, 1.0]))";
    "np.log", UnaryOp::Log, Out::Float, "The natural logarithm of each element.", "np.log(np.array([1.0, np.e]))";
    "np.log1p", UnaryOp::Log1p, Out::Float, "log(1 + x) of each element, exact for small x.", "np.log1p(np.array([0.0, 1e-10]))";
    "np.sin", UnaryOp::Sin, Out::Float, "The sine of each element (radians).", "np.sin(np.array([0.0, np.pi / 2]))";
    "np.cos", UnaryOp::Cos, Out::Float, "The cosine of each element (radians).", "np.cos(np.array([0.0, np.pi]))";
    "np.tanh", UnaryOp::Tanh, Out::Float, "The hyperbolic tangent of each element.", "np.tanh(np.array([0.0, 1.0]))";
    "np.floor", UnaryOp::Floor, Out::Same, "The largest integer not above each element.", "np.floor(np.array([-1.5, 2.5]))";
    "np.ceil", UnaryOp::Ceil, Out::Same, "The smallest integer not below each element.", "np.ceil(np.array([-1.5, 2.5]))";
    "np.isnan", UnaryOp::IsNan, Out::Bool, "Whether each element is NaN.", "np.isnan(np.array([1.0, np.nan]))";
    "np.isinf", UnaryOp::IsInf, Out::Bool, "Whether each element is infinite.", "np.isinf(np.array([1.0, np.inf]))";
    "np.isfinite", UnaryOp::IsFinite, Out::Bool, "Whether each element is neither infinite nor NaN.", "np.isfinite(np.array([1.0, np.inf, np.nan]))";
    "np.logical_not", UnaryOp::LogicalNot, Out::Bool, "The truth of each element negated.", "np.logical_not(np.array([0, 1, 2]))";
}

macro_rules! binary {
    ($($name:literal, $op:expr, $logical:expr, $doc:literal, $ex:literal;)*) => {
        /// NumPy's binary ufuncs.
        pub static BINARY: &[Builtin] = &[
            $(
                Builtin::function($name, "(x1, x2)", |_, a| binary(a, $op, $logical))
                    .doc($doc)
                    .examples(&[$ex]),
            )*
        ];
    };
}

binary! {
    "np.maximum", BinaryOp::Maximum, false, "The larger of each pair of elements (broadcast together).", "np.maximum(np.array([1, 5, 3]), 2)";
    "np.minimum", BinaryOp::Minimum, false, "The smaller of each pair of elements (broadcast together).", "np.minimum(np.array([1, 5, 3]), 2)";
    "np.equal", BinaryOp::Eq, false, "Whether each pair of elements is equal (`x1 == x2`).", "np.equal(np.array([1, 2]), np.array([1, 3]))";
    "np.not_equal", BinaryOp::Ne, false, "Whether each pair of elements differs (`x1 != x2`).", "np.not_equal(np.array([1, 2]), 2)";
    "np.logical_and", BinaryOp::And, true, "The truth of both elements of each pair.", "np.logical_and(np.array([1, 0, 2]), np.array([True, True, False]))";
    "np.logical_or", BinaryOp::Or, true, "The truth of either element of each pair.", "np.logical_or(np.array([1, 0, 0]), np.array([0, 0, 3]))";
}

/// `np.round`, `np.clip`, `np.where`, `np.isclose`, `np.allclose`, `np.array_equal`.
pub static MISC: &[Builtin] = &[
    Builtin::function("np.round", "(a, decimals=0)", round)
        .doc("Each element rounded to `decimals` places, halves to even; ints stay ints.")
        .examples(&["np.round(np.array([0.5, 1.5, 2.675]), 2)"]),
    Builtin::method("np.ndarray.round", "(self, decimals=0)", round)
        .doc("The elements rounded to `decimals` places, halves to even.")
        .examples(&["np.array([0.5, 1.5, 2.5]).round()"]),
    Builtin::function("np.clip", "(a, a_min=None, a_max=None)", clip)
        .doc("Each element limited to [a_min, a_max] (either bound may be None).")
        .examples(&["np.clip(np.arange(6), 1, 4)"]),
    Builtin::method("np.ndarray.clip", "(self, min=None, max=None)", clip)
        .doc("The elements limited to [min, max].")
        .examples(&["np.arange(6).clip(1, 4)"]),
    Builtin::function("np.where", "(condition, x=None, y=None)", where_)
        .doc("`x` where the condition holds and `y` elsewhere (broadcast together); with the condition alone, `np.nonzero(condition)`.")
        .examples(&["np.where(np.array([True, False, True]), 1, -1)", "np.where(np.array([0, 3, 0, 4]))"]),
    Builtin::function("np.isclose", "(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", isclose)
        .doc("Whether each pair of elements is equal within `atol + rtol * abs(b)`.")
        .examples(&["np.isclose(np.array([1.0, 2.0]), np.array([1.000001, 2.1]))"]),
    Builtin::function("np.allclose", "(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", allclose)
        .doc("Whether every pair of elements is equal within `atol + rtol * abs(b)` (a Python bool).")
        .examples(&["np.allclose(np.array([1.0, 2.0]), [1.0, 2.0000001])"]),
    Builtin::function("np.array_equal", "(a1, a2, equal_nan=False)", array_equal)
        .doc("Whether two arrays have the same shape and elements (a Python bool).")
        .examples(&["np.array_equal(np.array([1, 2]), [1, 2])"]),
];

fn unary(a: &Args, op: UnaryOp, out: Out) -> Result<Value> {
    let t = arg_tensor(a, "x")?;
    if t.dtype() == DType::String {
        let name = a.builtin().short_name();
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("ufunc '{name}' not supported for the input types (strings)"),
        )
        .at(a.span("x")));
    }
    let t = match out {
        Out::Float if !t.dtype().is_float() => cast(&t, promote(t.dtype(), DType::Float16))?,
        Out::Bool if op == UnaryOp::LogicalNot => cast(&t, DType::Bool)?,
        Out::Same if t.dtype() == DType::Bool && op == UnaryOp::Abs => return Ok(nd(t)),
        _ => t,
    };
    if matches!(op, UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite) && !t.dtype().is_float() {
        let fill = op == UnaryOp::IsFinite;
        let data = ragtag_engine::Buffer::filled(&ragtag_engine::Scalar::Bool(fill), t.size());
        return Ok(nd(Tensor::from_parts(t.shape().to_vec(), data)));
    }
    let data = kernels::unary(op, t.data()).map_err(|e| a.err_at("x", e))?;
    Ok(nd(Tensor::from_parts(t.shape().to_vec(), data)))
}

fn binary(a: &Args, op: BinaryOp, logical: bool) -> Result<Value> {
    let (x, y) = (a.value("x1"), a.value("x2"));
    if logical {
        let bx = nd(cast(&arg_tensor(a, "x1")?, DType::Bool)?);
        let by = nd(cast(&arg_tensor(a, "x2")?, DType::Bool)?);
        return numpy_kernel(op, &bx, &by, false).map_err(|e| Error::from(e).at(a.call));
    }
    let x = as_operand(x);
    let y = as_operand(y);
    numpy_kernel(op, &x, &y, false).map_err(|e| Error::from(e).at(a.call))
}

/// A dense tensor argument as a NumPy array (NumPy converts it so); anything else as is.
fn as_operand(v: &Value) -> Value {
    match v {
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => nd(t.clone()),
            _ => v.clone(),
        },
        _ => v.clone(),
    }
}

fn round(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = if a.builtin().name.starts_with("np.ndarray") {
        "self"
    } else {
        "a"
    };
    let t = arg_tensor(a, name)?;
    let decimals = a.opt_int("decimals")?.unwrap_or(0);
    if !t.dtype().is_float() {
        // NumPy rounds ints to negative decimals only; the rest stay as they are.
        return Ok(nd(t));
    }
    let scale = 10f64.powi(decimals.clamp(-300, 300) as i32);
    let run = |k: BinaryOp, x: &Value, y: &Value| numpy_kernel(k, x, y, false);
    let go = || -> std::result::Result<Value, ragtag_engine::Exception> {
        if decimals == 0 {
            let data = kernels::unary(UnaryOp::Round, t.data())?;
            return Ok(nd(Tensor::from_parts(t.shape().to_vec(), data)));
        }
        let scaled = run(BinaryOp::Mul, &nd(t.clone()), &Value::Float(scale))?;
        let Value::NdArray(n) = &scaled else {
            unreachable!("numpy_kernel gives an array")
        };
        let s = super::numpy_args::tensor_of(&Value::NdArray(n.clone()))?;
        let r = nd(Tensor::from_parts(
            s.shape().to_vec(),
            kernels::unary(UnaryOp::Round, s.data())?,
        ));
        run(BinaryOp::Div, &r, &Value::Float(scale))
    };
    go().map_err(|e| Error::from(e).at(a.call))
}

fn clip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let method = a.builtin().name.starts_with("np.ndarray");
    let (x, lo, hi) = if method {
        ("self", "min", "max")
    } else {
        ("a", "a_min", "a_max")
    };
    let mut v = nd(arg_tensor(a, x)?);
    if let Some(l) = a.get(lo) {
        v = numpy_kernel(BinaryOp::Maximum, &v, &as_operand(l), false)
            .map_err(|e| Error::from(e).at(a.call))?;
    }
    if let Some(h) = a.get(hi) {
        v = numpy_kernel(BinaryOp::Minimum, &v, &as_operand(h), false)
            .map_err(|e| Error::from(e).at(a.call))?;
    }
    Ok(v)
}

fn where_(i: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let c = arg_tensor(a, "condition")?;
    match (a.get("x"), a.get("y")) {
        (None, None) => super::numpy_shape::nonzero_of(&c).map_err(|e| e.at(a.call)),
        (Some(x), Some(y)) => {
            let _ = i;
            let (tx, wx) = crate::eval::operators::numpy_operand(&as_operand(x))
                .map_err(|e| a.err_at("x", e))?;
            let (ty, wy) = crate::eval::operators::numpy_operand(&as_operand(y))
                .map_err(|e| a.err_at("y", e))?;
            let d = match (wx, wy) {
                (true, false) => weak_with(ty.dtype(), tx.dtype()),
                (false, true) => weak_with(tx.dtype(), ty.dtype()),
                _ => promote(tx.dtype(), ty.dtype()),
            };
            let c = Array::Dense(cast(&c, DType::Bool)?);
            let tx = Array::Dense(cast(&tx, d)?);
            let ty = Array::Dense(cast(&ty, d)?);
            match ragtag_engine::ops::mask::where_select(&c, &tx, &ty) {
                Ok(Array::Dense(t)) => Ok(nd(t)),
                Ok(Array::Ragged(_)) => unreachable!("dense in, dense out"),
                Err(mut e) => {
                    if e.class == ExceptionClass::InvalidArgumentError {
                        e.class = ExceptionClass::ValueError;
                    }
                    Err(Error::from(e).at(a.call))
                }
            }
        }
        _ => Err(Error::new(
            ExceptionClass::ValueError,
            "either both or neither of x and y should be given",
        )
        .at(a.call)),
    }
}

/// NumPy 2's dtype for an array of `strong` dtype beside a Python scalar of `weak` dtype.
fn weak_with(strong: DType, weak: DType) -> DType {
    let rank = |d: DType| match d {
        DType::Bool => 0,
        _ if d.is_int() => 1,
        _ => 2,
    };
    if rank(weak) <= rank(strong) {
        strong
    } else {
        weak
    }
}

/// `abs(a - b) <= atol + rtol * abs(b)`, elementwise, with NaNs equal when `equal_nan`.
fn close(a: &Args) -> Result<Tensor> {
    let x = cast(&arg_tensor(a, "a")?, DType::Float64)?;
    let y = cast(&arg_tensor(a, "b")?, DType::Float64)?;
    let rtol = a
        .get("rtol")
        .map_or(Ok(1e-5), crate::eval::convert::to_f64)?;
    let atol = a
        .get("atol")
        .map_or(Ok(1e-8), crate::eval::convert::to_f64)?;
    let equal_nan = a.flag("equal_nan", false)?;
    let k = |op: BinaryOp, p: &Value, q: &Value| numpy_kernel(op, p, q, false);
    let go = || -> std::result::Result<Tensor, ragtag_engine::Exception> {
        let (vx, vy) = (nd(x.clone()), nd(y.clone()));
        let diff = k(BinaryOp::Sub, &vx, &vy)?;
        let ad = nd(abs_of(&super::numpy_args::tensor_of(&diff)?)?);
        let ab = nd(abs_of(&y)?);
        let bound = k(BinaryOp::Mul, &ab, &Value::Float(rtol))?;
        let bound = k(BinaryOp::Add, &bound, &Value::Float(atol))?;
        let ok = k(BinaryOp::Le, &ad, &bound)?;
        // Equal infinities are close; NaNs only with equal_nan.
        let same = k(BinaryOp::Eq, &vx, &vy)?;
        let mut out = k(BinaryOp::Or, &ok, &same)?;
        if equal_nan {
            let nx = nd(isnan(&x)?);
            let ny = nd(isnan(&y)?);
            let both = k(BinaryOp::And, &nx, &ny)?;
            out = k(BinaryOp::Or, &out, &both)?;
        }
        super::numpy_args::tensor_of(&out)
    };
    go().map_err(|e| {
        let mut e = e;
        if e.class == ExceptionClass::InvalidArgumentError {
            e.class = ExceptionClass::ValueError;
        }
        Error::from(e).at(a.call)
    })
}

fn abs_of(t: &Tensor) -> std::result::Result<Tensor, ragtag_engine::Exception> {
    Ok(Tensor::from_parts(
        t.shape().to_vec(),
        kernels::unary(UnaryOp::Abs, t.data())?,
    ))
}

fn isnan(t: &Tensor) -> std::result::Result<Tensor, ragtag_engine::Exception> {
    Ok(Tensor::from_parts(
        t.shape().to_vec(),
        kernels::unary(UnaryOp::IsNan, t.data())?,
    ))
}

fn isclose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    close(a).map(nd)
}

fn allclose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = close(a)?;
    all_true(&t)
}

fn array_equal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (arg_tensor(a, "a1")?, arg_tensor(a, "a2")?);
    if x.shape() != y.shape() {
        return Ok(Value::Bool(false));
    }
    let eq = numpy_kernel(BinaryOp::Eq, &nd(x.clone()), &nd(y.clone()), false)
        .map_err(|e| Error::from(e).at(a.call))?;
    let mut t = super::numpy_args::tensor_of(&eq)?;
    if a.flag("equal_nan", false)? && x.dtype().is_float() && y.dtype().is_float() {
        let both = numpy_kernel(BinaryOp::And, &nd(isnan(&x)?), &nd(isnan(&y)?), false)?;
        let or = numpy_kernel(BinaryOp::Or, &nd(t), &both, false)?;
        t = super::numpy_args::tensor_of(&or)?;
    }
    all_true(&t)
}

/// Whether every element of `t` is true (nonzero); an empty array's are.
fn all_true(t: &Tensor) -> Result<Value> {
    let v = cast(t, DType::Int64)?;
    Ok(Value::Bool(
        v.data()
            .to_i64_vec()
            .is_some_and(|v| v.iter().all(|&x| x != 0)),
    ))
}
