//! Values of the language: Python scalars and containers, tensors of every kind, functions.

use std::sync::Arc;

use crate::eval::builtins::Builtin;
use ragtag_engine::columns::ListLiteral;
use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::{Array, DType, Exception, ExceptionClass, Lod, Ragged, Scalar, Sparse, Tensor};
use ragtag_syntax::ast::{Expr, Param, Stmt};

mod bytes;
pub mod class;
pub mod convert;
pub mod deque;
mod dict;
pub mod env;
pub mod exception_args;
pub mod exception_chain;
mod fast_literal;
pub mod iter;
mod list;
pub mod locals;
mod mro;
pub mod named;
pub mod np_type;
pub mod pyhash;
pub mod range;
mod set;
pub mod slice;
mod snapshot;
mod type_names;
pub mod view;

pub use bytes::{tensor_nested_to_value, PyByteArray, PyBytes};
pub use dict::{DictKind, Key, PyDict};
pub use list::{Entered, PyList};
pub use num_bigint::BigInt;
pub use set::{FrozenKey, PySet};
pub use snapshot::snapshot;

/// A value a name can hold or an expression can produce.
///
/// Its kind is a whole word and every payload the word after it (`repr(u64)`), so a value
/// is moved as two words. With a one-byte kind the one-byte payloads (a bool, a dtype) sit
/// right after it, and every move of a value copies bytes 1 to 15 as two overlapping words:
/// a value just written as a kind and a word is then read back across both, which the
/// processor cannot forward from its pending writes and waits for instead. The Python
/// loops in `bench/python_loops` ran a fifth to a third longer that way.
#[derive(Debug, Clone)]
#[repr(u64)]
pub enum Value {
    /// `None`.
    None,
    /// A Python bool.
    Bool(bool),
    /// A Python int.
    Int(i64),
    /// A Python float.
    Float(f64),
    /// A Python str.
    Str(Arc<String>),
    /// A Python list, shared and mutable. One made by a list display of literals shows as
    /// the tensor it would become (`tf.constant` if rectangular, `tf.ragged.constant`
    /// otherwise).
    List(Arc<PyList>),
    /// A Python tuple.
    Tuple(Arc<Vec<Value>>),
    /// A Python dict (insertion ordered), shared and mutable.
    Dict(Arc<PyDict>),
    /// A dense `tf.Tensor` (or NumPy array) or a `tf.RaggedTensor`.
    Array(Arc<Array>),
    /// A `tf.SparseTensor`.
    Sparse(Arc<Sparse>),
    /// A Paddle `LoDTensor`.
    Lod(Arc<Lod>),
    /// A `tf.TensorShape` (`None` entries are unknown sizes).
    Shape(Arc<Vec<Option<usize>>>),
    /// A dtype such as `tf.int32`.
    DType(DType),
    /// A builtin function.
    Builtin(&'static Builtin),
    /// A builtin method bound to its receiver.
    Method(Arc<BoundBuiltin>),
    /// A user function (`lambda` or `def`).
    Closure(Arc<Closure>),
    /// A module or namespace such as `tf.ragged`.
    Module(ThinStr),
    /// An exception class such as `ValueError`.
    ErrorClass(ExceptionClass),
    /// A caught exception (`except … as e`).
    Exception(Arc<Exception>),
    /// An opaque marker object (`fluid.CPUPlace()`).
    Opaque(ThinStr),
    /// A `tf.RaggedTensorSpec` or `tf.TensorSpec`.
    Spec(Arc<TypeSpec>),
    /// A NumPy array (`x.numpy()`, `np.array(…)`).
    NdArray(Arc<NdArray>),
    /// A class made by a `class` statement, or a builtin type object (`type(None)`).
    Class(Arc<class::Class>),
    /// An instance of a user class, shared and mutable.
    Instance(Arc<class::Instance>),
    /// A function bound to its receiver (`obj.method`).
    Bound(Arc<class::Bound>),
    /// A Python set or frozenset, shared (and, for a set, mutable).
    Set(Arc<PySet>),
    /// A Python int past 64 bits (one that fits is always `Int`).
    BigInt(Arc<BigInt>),
    /// An iterator: a generator, `iter(xs)`, `map(…)`, an `itertools` object.
    Iter(Arc<iter::PyIter>),
    /// A Python bytes (or NumPy's `bytes_`).
    Bytes(Arc<PyBytes>),
    /// A Python bytearray, shared and mutable.
    ByteArray(Arc<PyByteArray>),
    /// A Python range: lazy, its items computed from start, stop and step.
    Range(Arc<range::PyRange>),
    /// A Python slice object (`slice(1, 3, None)`).
    Slice(Arc<slice::PySlice>),
    /// A `collections.deque`, shared and mutable.
    Deque(Arc<deque::PyDeque>),
    /// NumPy's scalar type (`np.float32`) or dtype object (`np.dtype('float32')`).
    NpType(np_type::NpType),
    /// A dict view: `d.keys()`, `d.values()` or `d.items()`.
    View(Arc<view::DictView>),
}

/// A builtin method and the receiver it is bound to (`xs.append`).
#[derive(Debug, Clone)]
pub struct BoundBuiltin {
    /// The object the method was read from.
    pub receiver: Value,
    /// The method.
    pub builtin: &'static Builtin,
}

/// A shared string one pointer wide (an `Arc<str>` is two), for the names a [`Value`]
/// carries (a module's path, an opaque marker): it keeps a value two words, so that an
/// evaluation's `Result<Value>` comes back in registers.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThinStr(Arc<String>);

impl std::ops::Deref for ThinStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for ThinStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ThinStr {
    fn from(s: &str) -> Self {
        ThinStr(Arc::new(s.to_string()))
    }
}

impl From<String> for ThinStr {
    fn from(s: String) -> Self {
        ThinStr(Arc::new(s))
    }
}

impl std::fmt::Display for ThinStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Debug for ThinStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self.0, f)
    }
}

/// A NumPy array: numbers, bools or bytes in a dense block, or a 1-D object array of
/// arrays (what a RaggedTensor's `.numpy()` gives: one array per row).
#[derive(Debug, Clone)]
pub enum NdArray {
    /// A dense array (string elements are NumPy's object array of bytes).
    Dense(Tensor),
    /// An object array whose items are arrays, with its number of dimensions: with more
    /// than one, each item is itself an object array of one dimension fewer (a row).
    Object(Vec<Value>, usize),
}

impl NdArray {
    /// NumPy's `shape`.
    pub fn shape(&self) -> Vec<usize> {
        match self {
            NdArray::Dense(t) => t.shape().to_vec(),
            NdArray::Object(items, ndim) => {
                let mut shape = vec![items.len()];
                match items.first() {
                    Some(Value::NdArray(row)) if *ndim > 1 => shape.extend(row.shape()),
                    _ => shape.extend((1..*ndim).map(|_| 0)),
                }
                shape
            }
        }
    }
    /// NumPy's dtype name (`int64`, `object`).
    pub fn dtype_name(&self) -> &'static str {
        match self {
            NdArray::Dense(t) if t.dtype() == DType::String => "object",
            NdArray::Dense(t) => t.dtype().name(),
            NdArray::Object(..) => "object",
        }
    }
}

/// A user function: its parameters, body and the local names it closed over.
#[derive(Debug)]
pub struct Closure {
    /// Its name (`<lambda>` for lambdas).
    pub name: String,
    /// The parameters.
    pub params: Vec<Param>,
    /// Evaluated defaults, aligned with `params`.
    pub defaults: Vec<Option<Value>>,
    /// The body.
    pub body: ClosureBody,
    /// The environment of the function it was defined in (`None` at top level): read
    /// when it runs, so it sees that function's variables as they are then.
    pub env: Option<Arc<env::Env>>,
    /// What its body does with names: its locals, `global` and `nonlocal` names.
    pub bindings: Arc<ragtag_syntax::scope::Bindings>,
    /// The source it was defined in, for diagnostics inside it.
    pub source: usize,
    /// `__annotations__`: a dict of the parameters' and the return's annotations, when the
    /// `def` has any.
    pub annotations: Option<Value>,
    /// The function's own attributes (`f.x = 1`, `__wrapped__`), and the `__name__`,
    /// `__qualname__`, `__doc__` and `__module__` given to it (`functools.wraps`).
    pub attrs: class::AttrCell,
}

/// A lambda's expression or a def's statements.
#[derive(Debug)]
pub enum ClosureBody {
    /// `lambda …: expr`
    Expr(Expr),
    /// `def …: stmts`
    Block(Vec<Stmt>),
}

/// What a `tf.RaggedTensorSpec` or `tf.TensorSpec` describes.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeSpec {
    /// A RaggedTensorSpec (else a TensorSpec).
    pub ragged: bool,
    /// The shape, None for an unknown rank; None sizes are unknown (or ragged).
    pub shape: Option<Vec<Option<usize>>>,
    /// The dtype of the values.
    pub dtype: DType,
    /// How many dimensions are ragged partitions (0 for a TensorSpec).
    pub ragged_rank: usize,
    /// The dtype of the row partitions.
    pub row_splits_dtype: DType,
}

impl Value {
    /// `builtin` bound to `receiver` (`xs.append`).
    pub fn method(receiver: Value, builtin: &'static Builtin) -> Value {
        Value::Method(Arc::new(BoundBuiltin { receiver, builtin }))
    }

    /// The builtin a builtin function or bound builtin method calls.
    pub fn as_builtin(&self) -> Option<&'static Builtin> {
        match self {
            Value::Builtin(b) => Some(b),
            Value::Method(m) => Some(m.builtin),
            _ => None,
        }
    }

    /// A short name of the value's kind, as Python's `type()` would say.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(d) => d.kind().name(),
            Value::Array(a) => match **a {
                Array::Dense(_) => "Tensor",
                Array::Ragged(_) => "RaggedTensor",
            },
            Value::Sparse(_) => "SparseTensor",
            Value::Lod(_) => "LoDTensor",
            Value::Shape(_) => "TensorShape",
            Value::DType(_) => "DType",
            Value::Builtin(_) | Value::Method(..) => "builtin_function",
            Value::Closure(_) => "function",
            Value::Module(_) => "module",
            Value::ErrorClass(_) => "type",
            Value::Exception(e) => e.class.name(),
            Value::Opaque(_) => "object",
            Value::Spec(s) if s.ragged => "RaggedTensorSpec",
            Value::Spec(_) => "TensorSpec",
            Value::NdArray(_) => "ndarray",
            Value::Class(_) => "type",
            Value::Instance(i) => i.class.name,
            Value::Bound(_) => "method",
            Value::Set(s) if s.is_frozen() => "frozenset",
            Value::Set(_) => "set",
            Value::BigInt(_) => "int",
            Value::Iter(i) => i.type_name(),
            Value::Bytes(b) if b.numpy => "bytes_",
            Value::Bytes(_) => "bytes",
            Value::ByteArray(_) => "bytearray",
            Value::Range(_) => "range",
            Value::Slice(_) => "slice",
            Value::Deque(_) => "deque",
            Value::NpType(t) if t.scalar => "type",
            Value::NpType(_) => "numpy.dtype",
            Value::View(v) => v.name(),
        }
    }

    /// Wraps a dense or ragged array.
    pub fn from_array(a: Array) -> Value {
        Value::Array(Arc::new(a))
    }
    /// Wraps a dense tensor.
    pub fn tensor(t: Tensor) -> Value {
        Value::Array(Arc::new(Array::Dense(t)))
    }
    /// Wraps a ragged tensor.
    pub fn ragged(r: Ragged) -> Value {
        Value::Array(Arc::new(Array::Ragged(r)))
    }
    /// The dense tensor inside, if this is one.
    pub fn as_dense(&self) -> Option<&Tensor> {
        match self {
            Value::Array(a) => match &**a {
                Array::Dense(t) => Some(t),
                Array::Ragged(_) => None,
            },
            _ => None,
        }
    }
    /// The ragged tensor inside, if this is one.
    pub fn as_ragged(&self) -> Option<&Ragged> {
        match self {
            Value::Array(a) => match &**a {
                Array::Ragged(r) => Some(r),
                Array::Dense(_) => None,
            },
            _ => None,
        }
    }
    /// A Python str.
    /// An owned `String` becomes the value without a copy.
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(Arc::new(s.into()))
    }
    /// A Python list.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(PyList::new(items, false))
    }
    /// The list a display of literals makes (shown as the tensor it would become).
    pub fn literal(lit: ListLiteral) -> Value {
        Value::List(PyList::from_literal(Arc::new(lit)))
    }
    /// A Python dict of these pairs (a TypeError for an unhashable key).
    pub fn dict(pairs: Vec<(Value, Value)>) -> Result<Value, Exception> {
        Ok(Value::Dict(PyDict::new(pairs)?))
    }
    /// The literal of a list whose items can all make a tensor (numbers, bools, strings,
    /// lists of them), if this is one.
    pub fn list_literal(&self) -> Option<Arc<ListLiteral>> {
        match self {
            Value::List(l) => l.literal(),
            _ => None,
        }
    }
    /// True for a list made by a list display whose items can all make a tensor.
    pub fn is_literal_display(&self) -> bool {
        matches!(self, Value::List(l) if l.is_display() && l.literal().is_some())
    }
    /// A Python tuple.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Arc::new(items))
    }
    /// A list of Python ints.
    pub fn int_list(items: &[i64]) -> Value {
        Value::list(items.iter().map(|&i| Value::Int(i)).collect())
    }

    /// True for the tensor kinds (dense, ragged, sparse, LoD, literal lists).
    pub fn is_tensor_like(&self) -> bool {
        matches!(
            self,
            Value::Array(_) | Value::Sparse(_) | Value::Lod(_) | Value::NdArray(_)
        ) || self.is_literal_display()
    }

    /// Python truthiness (`if x:`); tensors with one element use that element.
    pub fn truthy(&self) -> Result<bool, Exception> {
        Ok(match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(v) => !v.is_empty(),
            Value::Tuple(v) => !v.is_empty(),
            Value::Dict(v) => !v.is_empty(),
            Value::Set(v) => !v.is_empty(),
            Value::Bytes(b) => !b.data.is_empty(),
            Value::ByteArray(b) => !b.is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Deque(d) => !d.is_empty(),
            Value::View(v) => !v.is_empty(),
            Value::NdArray(n) => {
                let size: usize = n.shape().iter().product();
                match &**n {
                    NdArray::Dense(t) if size == 1 => {
                        return Value::tensor(t.clone()).truthy();
                    }
                    NdArray::Object(items, _) if size == 1 => return items[0].truthy(),
                    _ if size == 0 => false,
                    _ => {
                        return Err(Exception::new(
                            ExceptionClass::ValueError,
                            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
                        ))
                    }
                }
            }
            Value::Array(a) if matches!(**a, Array::Ragged(_)) => {
                return Err(Exception::new(
                    ExceptionClass::TypeError,
                    "RaggedTensor may not be used as a boolean",
                )
                .with_hint("use tf.reduce_any(rt) or tf.reduce_all(rt), or test rt.nrows() > 0"))
            }
            Value::Array(a) => match a
                .flat_values()
                .scalar_value()
                .filter(|_| matches!(**a, Array::Dense(_)))
            {
                Some(Scalar::Bool(b)) => b,
                Some(s) => {
                    s.as_f64().is_some_and(|f| f != 0.0)
                        || matches!(s, Scalar::Str(ref v) if !v.is_empty())
                }
                None => {
                    return Err(Exception::new(
                        ExceptionClass::ValueError,
                        "The truth value of a tensor with more than one element is ambiguous",
                    )
                    .with_hint("use tf.reduce_any(x) or tf.reduce_all(x)"))
                }
            },
            _ => true,
        })
    }
}

/// The items of a list or tuple (empty for anything else).
pub fn subscript_items(v: &Value) -> Vec<Value> {
    match v {
        Value::List(l) => l.items(),
        Value::Tuple(t) => t.to_vec(),
        _ => Vec::new(),
    }
}

/// Converts a scalar element to the matching Python value.
pub fn scalar_to_value(s: Scalar) -> Value {
    match s {
        Scalar::Bool(b) => Value::Bool(b),
        // TensorFlow's strings are bytes: `.numpy()` of one is a Python bytes.
        Scalar::Str(b) => Value::bytes(b),
        // A uint64 past int64's range wraps: Python's ints here are 64-bit.
        s if s.dtype().is_int() => Value::Int(s.as_i64().unwrap_or(0)),
        s => Value::Float(s.as_f64().unwrap_or(f64::NAN)),
    }
}

/// One item of a list display of literals: a Python scalar, or a nested display.
pub fn literal_item(n: &Nested) -> Value {
    match n {
        Nested::List(_) => Value::literal(n.clone().into()),
        leaf => nested_to_value(leaf),
    }
}

/// A new list of Python values, kept a list display (shown as the table of the tensor it
/// would become, when its items can make one) when `display` is set.
pub fn relist(items: Vec<Value>, display: bool) -> Value {
    Value::List(PyList::new(items, display))
}

/// Converts a nested literal to Python values (for `to_list()` and `list()`).
pub fn nested_to_value(n: &Nested) -> Value {
    match n {
        Nested::List(items) => Value::list(items.iter().map(nested_to_value).collect()),
        Nested::Leaf(Leaf::Bool(b)) => Value::Bool(*b),
        Nested::Leaf(Leaf::Int(i)) => Value::Int(*i),
        Nested::Leaf(Leaf::Float(f)) => Value::Float(*f),
        Nested::Leaf(Leaf::Str(s)) => Value::str(String::from_utf8_lossy(s)),
        Nested::Leaf(Leaf::Typed(s)) => scalar_to_value(s.clone()),
    }
}

#[cfg(test)]
mod size_tests {
    /// Every expression node returns a `Result<Value>`: at two words it comes back in
    /// registers. A variant with a wider payload (a fat pointer, two fields) would double it.
    #[test]
    fn a_value_and_an_evaluation_result_are_two_words() {
        use crate::value::Value;
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<crate::diagnostic::Result<Value>>(), 16);
    }
}
