//! More of NumPy: the `bytes_` and `object_` types (usable as dtypes), and the ndarray
//! methods `fill` and `sort` (in place: the receiver's name is rebound, see
//! [`super::updates_receiver`]) and `tobytes`.

use super::numpy_args::{nd, norm_axis, self_tensor};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::ops::order::sort_positions;
use ragtag_engine::{Buffer, ExceptionClass, Tensor};

/// The added NumPy builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.bytes_", "(value=b'')", bytes_)
        .doc("NumPy's bytes scalar type: `np.bytes_(b'ab')` is a bytes value, and as a dtype (`np.array(x, dtype=np.bytes_)`, `.astype(np.bytes_)`) it gives an array of byte strings (ragtag keeps them as an object array of bytes).")
        .examples(&["np.bytes_(b'abc')", "np.array(['a', 'bc']).astype(np.bytes_)"]),
    Builtin::function("np.object_", "(value=None)", object_)
        .doc("NumPy's object type: `np.object_(x)` is x itself, and as a dtype it gives an object array (ragtag's object arrays hold byte strings).")
        .examples(&["np.array([b'a', b'bc'], dtype=np.object_)"]),
    Builtin::method("np.ndarray.fill", "(self, value)", fill)
        .doc("Sets every element to `value` (converted to the array's dtype), in place; returns None.")
        .examples(&["a = np.zeros(3)\na.fill(7)\na"]),
    Builtin::method("np.ndarray.sort", "(self, axis=-1, kind=None, order=None)", sort)
        .doc("Sorts the array in place along `axis` (the last by default; `kind` is accepted and ignored, since every kind gives the same values); returns None.")
        .examples(&["a = np.array([[3, 1, 2], [9, 7, 8]])\na.sort()\na", "a = np.array([[3, 1], [0, 5]])\na.sort(axis=0)\na"]),
    Builtin::method("np.ndarray.tobytes", "(self, order='C')", tobytes)
        .doc("The array's elements as one bytes value: C (row-major) order, each element in its dtype's little-endian bytes (bools as one byte).")
        .examples(&["np.array([1, 2], dtype=np.int16).tobytes()", "np.array([1.0], dtype=np.float32).tobytes()"]),
    Builtin::function("np.set_printoptions", "(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None, infstr=None, formatter=None, sign=None, floatmode=None, legacy=None, override_repr=None)", set_printoptions)
        .doc("Sets how NumPy arrays (and TensorFlow tensors, which print through NumPy) are written for the rest of the session: precision (most fractional digits, 8), threshold (arrays with more elements are summarised, 1000), edgeitems (items kept at each end when summarised, 3), linewidth (75) and suppress (no scientific notation for small numbers). Arguments left None keep their value; ragtag does not take nanstr, infstr, formatter, sign, floatmode, legacy or override_repr.")
        .examples(&["np.set_printoptions(precision=3)\nnp.array([1 / 3, 2 / 3])", "np.set_printoptions(threshold=5, edgeitems=2)\nnp.arange(10)"]),
    Builtin::function("np.get_printoptions", "()", get_printoptions)
        .doc("The current print options as a dict, with NumPy's keys.")
        .examples(&["np.get_printoptions()['precision']"]),
];

fn set_printoptions(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for name in [
        "nanstr",
        "infstr",
        "formatter",
        "sign",
        "floatmode",
        "legacy",
        "override_repr",
    ] {
        if a.get(name).is_some_and(|v| !matches!(v, Value::None)) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("np.set_printoptions({name}=...) is not supported by ragtag"),
            )
            .at(a.span(name)));
        }
    }
    let size = |name: &str| -> Result<Option<usize>> {
        match a.get(name) {
            None | Some(Value::None) => Ok(None),
            Some(Value::Float(f)) if name == "threshold" && f.is_nan() => Err(Error::new(
                ExceptionClass::ValueError,
                "threshold must be non-NAN, try sys.maxsize for untruncated representation",
            )
            .at(a.span(name))),
            Some(_) => {
                let n = a.int(name)?;
                if name == "threshold" {
                    // A negative threshold summarises every array, as 0 does.
                    return Ok(Some(n.max(0) as usize));
                }
                usize::try_from(n).map(Some).map_err(|_| {
                    Error::new(ExceptionClass::ValueError, format!("{name} must be >= 0"))
                        .at(a.span(name))
                })
            }
        }
    };
    let (precision, threshold, edgeitems, linewidth) = (
        size("precision")?,
        size("threshold")?,
        size("edgeitems")?,
        size("linewidth")?,
    );
    let suppress = match a.get("suppress") {
        None | Some(Value::None) => None,
        Some(_) => Some(a.flag("suppress", false)?),
    };
    rng::with(|s| {
        let o = &mut s.print;
        o.precision = precision.unwrap_or(o.precision);
        o.threshold = threshold.unwrap_or(o.threshold);
        o.edgeitems = edgeitems.unwrap_or(o.edgeitems);
        o.linewidth = linewidth.unwrap_or(o.linewidth);
        o.suppress = suppress.unwrap_or(o.suppress);
        crate::render::numpy::set_options(*o);
    });
    Ok(Value::None)
}

fn get_printoptions(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    let o = crate::render::numpy::options();
    let s = |x: &str| Value::Str(std::sync::Arc::new(x.to_string()));
    Value::dict(vec![
        (s("edgeitems"), Value::Int(o.edgeitems as i64)),
        (s("threshold"), Value::Int(o.threshold as i64)),
        (s("floatmode"), s("maxprec")),
        (s("precision"), Value::Int(o.precision as i64)),
        (s("suppress"), Value::Bool(o.suppress)),
        (s("linewidth"), Value::Int(o.linewidth as i64)),
        (s("nanstr"), s("nan")),
        (s("infstr"), s("inf")),
        (s("sign"), s("-")),
        (s("formatter"), Value::None),
        (s("legacy"), Value::Bool(false)),
        (s("override_repr"), Value::None),
    ])
    .map_err(Error::from)
}

fn bytes_(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.get("value") {
        None => Ok(Value::np_bytes(Vec::new())),
        Some(Value::Bytes(b)) => Ok(Value::np_bytes(b.data.clone())),
        Some(Value::Str(s)) => {
            if !s.is_ascii() {
                return Err(Error::new(
                    ExceptionClass::UnicodeEncodeError,
                    format!(
                        "'ascii' codec can't encode characters in '{s}': ordinal not in range(128)"
                    ),
                )
                .at(a.span("value")));
            }
            Ok(Value::np_bytes(s.as_bytes().to_vec()))
        }
        Some(v) => Ok(Value::np_bytes(
            crate::render::tf_text::repr_of(v).into_bytes(),
        )),
    }
}

fn object_(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(a.get("value").cloned().unwrap_or(Value::None))
}

fn fill(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = self_tensor(a)?;
    // NumPy casts the value as `astype` would (2.7 fills an int array with 2).
    let s = convert::to_scalar(a.value("value"), None).map_err(|e| a.err_at("value", e))?;
    let one = ragtag_engine::ops::cast::cast_buffer(Tensor::scalar(s).data(), t.dtype())
        .map_err(|e| a.err_at("value", e))?
        .get(0);
    Tensor::filled("np.ndarray.fill", t.shape().to_vec(), &one)
        .map(nd)
        .map_err(|e| a.err_at("self", e))
}

fn sort(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = self_tensor(a)?;
    if t.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::AxisError,
            "axis -1 is out of bounds for array of dimension 0",
        )
        .at(a.call));
    }
    let k = match a.get("axis") {
        Some(Value::None) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "'NoneType' object cannot be interpreted as an integer",
            )
            .at(a.span("axis")))
        }
        _ => norm_axis(a.opt_int("axis")?.unwrap_or(-1), t.rank())
            .map_err(|e| a.err_at("axis", e))?,
    };
    let (src, _) =
        sort_positions("np.ndarray.sort", &t, k, false).map_err(|e| Error::from(e).at(a.call))?;
    Ok(nd(Tensor::from_parts(
        t.shape().to_vec(),
        t.data().gather(&src),
    )))
}

fn tobytes(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = self_tensor(a)?;
    fn flat<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
        v.iter().flat_map(|&x| f(x)).collect()
    }
    ragtag_engine::budget::check(
        "np.ndarray.tobytes",
        t.size() as u128,
        t.dtype().item_bytes(),
    )
    .map_err(|e| a.err_at("self", e))?;
    let out =
        match t.data() {
            Buffer::Bool(v) => v.iter().map(|&b| b as u8).collect(),
            Buffer::I8(v) => flat(v, i8::to_le_bytes),
            Buffer::I16(v) => flat(v, i16::to_le_bytes),
            Buffer::I32(v) => flat(v, i32::to_le_bytes),
            Buffer::I64(v) => flat(v, i64::to_le_bytes),
            Buffer::U8(v) => v.to_vec(),
            Buffer::U16(v) => flat(v, u16::to_le_bytes),
            Buffer::U32(v) => flat(v, u32::to_le_bytes),
            Buffer::U64(v) => flat(v, u64::to_le_bytes),
            Buffer::F16(v) => flat(v, |x| x.to_bits().to_le_bytes()),
            Buffer::BF16(v) => flat(v, |x| x.to_bits().to_le_bytes()),
            Buffer::F32(v) => flat(v, f32::to_le_bytes),
            Buffer::F64(v) => flat(v, f64::to_le_bytes),
            _ => return Err(Error::new(
                ExceptionClass::ValueError,
                "tobytes of an object array gives its pointers in NumPy; ragtag has none to give",
            )
            .at(a.call)),
        };
    Ok(Value::bytes(out))
}
