//! Python bytes and bytearray. A bytes value is immutable (NumPy's `bytes_`, what a string
//! tensor's `.numpy()` items are, is a bytes flagged as such); a bytearray is one shared,
//! mutable object, aliased like a list.

use std::sync::Arc;

use spin::Mutex;

use super::Value;

/// An immutable bytes value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PyBytes {
    /// The bytes.
    pub data: Vec<u8>,
    /// NumPy's `bytes_` (a subclass of bytes) rather than Python's bytes.
    pub numpy: bool,
}

/// A Python bytearray.
pub struct PyByteArray {
    data: Mutex<Vec<u8>>,
}

impl PyByteArray {
    /// A bytearray of these bytes.
    pub fn new(data: Vec<u8>) -> Arc<PyByteArray> {
        Arc::new(PyByteArray {
            data: Mutex::new(data),
        })
    }
    /// A copy of the bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.data.lock().clone()
    }
    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.data.lock().len()
    }
    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Runs `f` on the bytes to change them (under this bytearray's lock: `f` must not
    /// evaluate user code).
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        f(&mut self.data.lock())
    }
}

impl std::fmt::Debug for PyByteArray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[bytearray]")
    }
}

impl Value {
    /// A Python bytes value.
    pub fn bytes(data: impl Into<Vec<u8>>) -> Value {
        Value::Bytes(Arc::new(PyBytes {
            data: data.into(),
            numpy: false,
        }))
    }
    /// A NumPy `bytes_` (an item of a string array).
    pub fn np_bytes(data: impl Into<Vec<u8>>) -> Value {
        Value::Bytes(Arc::new(PyBytes {
            data: data.into(),
            numpy: true,
        }))
    }
    /// A new bytearray.
    pub fn bytearray(data: Vec<u8>) -> Value {
        Value::ByteArray(PyByteArray::new(data))
    }
    /// The bytes of a bytes or bytearray value (a copy), None for anything else.
    pub fn as_bytes(&self) -> Option<Vec<u8>> {
        match self {
            Value::Bytes(b) => Some(b.data.clone()),
            Value::ByteArray(b) => Some(b.bytes()),
            _ => None,
        }
    }
}

/// A tensor's nested elements as Python values (`to_list()`, `.numpy().tolist()`): strings
/// are bytes, as TensorFlow gives them.
pub fn tensor_nested_to_value(n: &ragtag_engine::literal::Nested) -> Value {
    use ragtag_engine::literal::{Leaf, Nested};
    match n {
        Nested::List(items) => Value::list(items.iter().map(tensor_nested_to_value).collect()),
        Nested::Leaf(Leaf::Str(s)) => Value::bytes(s.clone()),
        leaf => super::nested_to_value(leaf),
    }
}
