//! `io.StringIO` and `io.BytesIO`: file objects held in memory, with the methods of the
//! files `open()` makes (`read`, `readline`, iteration, `write` at the position, `seek`,
//! `tell`, `close`, `with`) and `getvalue`. Positions count bytes of the UTF-8 text, which
//! is CPython's count (characters) for ASCII text.

use super::super::{registry, Builtin};
use super::files::file_class;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `io.StringIO`, `io.BytesIO` and their `getvalue`.
pub static IO: &[Builtin] = &[
    Builtin::function("io.StringIO", "(initial_value='', newline='\\n')", string_io)
        .doc("A text file in memory, starting with `initial_value`, read and written with the file methods; `getvalue()` gives all of its text.")
        .examples(&["import io\nf = io.StringIO('a,b\\n1,2\\n')\nf.readline(), f.read()"]),
    Builtin::function("io.BytesIO", "(initial_bytes=b'')", bytes_io)
        .doc("A binary file in memory, starting with `initial_bytes`; `getvalue()` gives all of its bytes.")
        .examples(&["import io\nf = io.BytesIO()\nn = f.write(b'abc')\nf.getvalue()"]),
    Builtin::method("_io.StringIO.getvalue", "(self)", getvalue)
        .doc("Everything the file holds, whatever the position.")
        .examples(&["import io\nf = io.StringIO()\nn = f.write('x')\nf.getvalue()"]),
];

fn memory_file(class: &str, data: Value) -> Value {
    let c = file_class(class);
    if attr_get(&c.attrs, "getvalue").is_none() {
        if let Some(b) = registry().get("_io.StringIO.getvalue") {
            attr_set(&c.attrs, "getvalue", Value::Builtin(b));
        }
    }
    let f = Instance::new(c);
    attr_set(&f.attrs, "closed", Value::Bool(false));
    attr_set(&f.attrs, "_read", Value::Bool(true));
    attr_set(&f.attrs, "_write", Value::Bool(true));
    attr_set(&f.attrs, "_append", Value::Bool(false));
    attr_set(&f.attrs, "_data", data);
    attr_set(&f.attrs, "_pos", Value::Int(0));
    Value::Instance(f)
}

fn string_io(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let text = match a.value("initial_value") {
        Value::None => String::new(),
        Value::Str(s) => s.to_string(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "initial_value must be str or None, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("initial_value")))
        }
    };
    Ok(memory_file("StringIO", Value::str(text)))
}

fn bytes_io(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let data = match a.value("initial_bytes") {
        Value::None => Vec::new(),
        Value::Bytes(b) => b.data.clone(),
        Value::ByteArray(b) => b.bytes(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "a bytes-like object is required, not '{}'",
                    other.type_name()
                ),
            )
            .at(a.span("initial_bytes")))
        }
    };
    Ok(memory_file("BytesIO", Value::bytes(data)))
}

fn getvalue(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(f) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "not a file").at(a.call));
    };
    if matches!(attr_get(&f.attrs, "closed"), Some(Value::Bool(true))) {
        return Err(
            Error::new(ExceptionClass::ValueError, "I/O operation on closed file").at(a.call),
        );
    }
    Ok(attr_get(&f.attrs, "_data").unwrap_or(Value::None))
}
