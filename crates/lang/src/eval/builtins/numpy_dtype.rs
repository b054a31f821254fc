//! NumPy's element types as values: the properties of a dtype object (`a.dtype.itemsize`,
//! `np.dtype('int8').kind`), the scalar type's `__name__`, and TensorFlow's
//! `DType.as_numpy_dtype`, as NumPy 2.x and TensorFlow 2.21 have them.

use super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::np_type::NpType;
use crate::value::Value;

/// The dtype object's properties and the scalar type's name.
pub static BUILTINS: &[Builtin] = &[
    Builtin::property("np.dtype.name", |_, a| Ok(Value::str(this(a).name())))
        .doc("NumPy's name of the element type: 'int64', 'float32', 'bool', 'object'.")
        .examples(&["np.array([1, 2]).dtype.name", "np.dtype('float16').name"]),
    Builtin::property("np.dtype.itemsize", |_, a| {
        Ok(Value::Int(this(a).itemsize() as i64))
    })
    .doc("The bytes one element takes.")
    .examples(&["np.array([1.5]).dtype.itemsize", "np.dtype('int8').itemsize"]),
    Builtin::property("np.dtype.kind", |_, a| Ok(Value::str(this(a).kind())))
        .doc("NumPy's kind character: 'b' bool, 'i' signed int, 'u' unsigned int, 'f' float, 'O' object.")
        .examples(&["np.array([1, 2]).dtype.kind", "np.dtype('uint8').kind"]),
    Builtin::property("np.dtype.char", |_, a| Ok(Value::str(this(a).char())))
        .doc("NumPy's one-letter type code ('l' for int64, 'f' for float32, '?' for bool).")
        .examples(&["np.dtype('float32').char"]),
    Builtin::property("np.dtype.str", |_, a| Ok(Value::str(this(a).protocol_str())))
        .doc("The array-protocol type string: byte order, kind and size ('<i8', '|b1').")
        .examples(&["np.array([1, 2]).dtype.str", "np.dtype('bool').str"]),
    Builtin::property("np.dtype.type", |_, a| {
        Ok(Value::NpType(NpType::scalar(this(a).dtype)))
    })
    .doc("The scalar type of the elements (`np.int64` for an int64 dtype).")
    .examples(&["np.array([1, 2]).dtype.type"]),
    Builtin::property("np.scalar_type.__name__", |_, a| {
        Ok(Value::str(this(a).name()))
    })
    .doc("The scalar type's name ('float32').")
    .examples(&["np.float32.__name__"]),
    Builtin::property("tf.DType.as_numpy_dtype", as_numpy_dtype)
        .doc("NumPy's scalar type for the dtype (`np.float32` for tf.float32; tf.string's elements are NumPy's object)")
        .examples(&["tf.float32.as_numpy_dtype", "tf.int8.as_numpy_dtype"]),
];

fn this(a: &Args) -> NpType {
    match a.value("self") {
        Value::NpType(t) => *t,
        _ => unreachable!("a NumPy dtype property's receiver is a NumPy type"),
    }
}

fn as_numpy_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("self") {
        Value::DType(d) => Ok(Value::NpType(NpType::scalar(*d))),
        _ => unreachable!("a tf.DType property's receiver is a dtype"),
    }
}
