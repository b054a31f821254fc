//! The engine's result type, its common failures as typed errors ([`EngineError`]: the
//! data of each failure, its class, message and hint), and the macros that raise the other
//! classes with a formatted message; the classes and the error value are in
//! [`crate::exceptions`].

use std::fmt;
use std::sync::Arc;

use crate::exceptions::{Exception, ExceptionClass};
use crate::DType;

/// The engine's result type.
pub type Result<T, E = Exception> = std::result::Result<T, E>;

/// The engine's common failures, by family (memory budget, shapes and broadcasting, indices,
/// dtypes, row partitions, literals), each carrying what went wrong as data. An
/// `EngineError` becomes an [`Exception`] of its [`class`](EngineError::class) whose
/// message is its `Display` and whose [`kind`](Exception::kind) keeps the data, so a front
/// end can label what it points at. Each variant's documentation names an input that raises
/// it; the error catalogue (`:help errors`, docs/errors.snap.md) lists them all by
/// [`code`](EngineError::code), and a test runs every example.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// An operation would allocate more than the memory limit, e.g.
    /// `tf.zeros([100000, 100000, 100000])`.
    #[error("{what} would allocate {}{detail}, over ragtag's memory limit of {}",
        amounts(*bytes, *limit).0, amounts(*bytes, *limit).1)]
    MemoryLimit {
        /// The operation.
        what: String,
        /// The bytes it asked for.
        bytes: u128,
        /// What the bytes are, when it helps (`" (10 strings)"`), else empty.
        detail: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A shape with more elements than any tensor can have, e.g.
    /// `tf.zeros([2**40, 2**40, 2**40])`.
    #[error("Shape {} would have more than 2**63 - 1 elements", shape_list(shape))]
    TooManyElements {
        /// The shape.
        shape: Vec<usize>,
    },
    /// Two operands whose shapes do not broadcast, e.g.
    /// `tf.constant([1, 2]) + tf.constant([1, 2, 3])`.
    #[error("shapes do not broadcast: {}", broadcast_text(*dim, *left, *right, *row))]
    Broadcast {
        /// The dimension, counted from the outside of the result.
        dim: usize,
        /// Its size (or the row's length) in the left operand.
        left: usize,
        /// Its size (or the row's length) in the right operand.
        right: usize,
        /// For a ragged dimension whose rows differ, the first row that does.
        row: Option<usize>,
    },
    /// An integer index past the end of a dense dimension, e.g. `tf.constant([1, 2])[5]`.
    #[error("index {index} is out of bounds for dimension {dim} of size {size}")]
    IndexOutOfBounds {
        /// The index as written.
        index: i64,
        /// The dimension it indexes.
        dim: usize,
        /// The dimension's size.
        size: usize,
    },
    /// A row index past the rows of a ragged tensor, e.g. `tf.ragged.constant([[1], [2]])[5]`
    /// (an IndexError, so that iterating stops; a too-negative index is an
    /// InvalidArgumentError, as in TensorFlow).
    #[error("Row key {index} out of bounds: this ragged tensor has {nrows} rows")]
    RowOutOfBounds {
        /// The index as written.
        index: i64,
        /// The number of rows.
        nrows: usize,
    },
    /// A gather index outside the gathered axis, e.g. `tf.gather([1, 2], 5)`.
    #[error("indices[{}] = {value} is not in [0, {size})", join(at))]
    GatherIndex {
        /// Where the index is in the indices tensor.
        at: Vec<usize>,
        /// The index.
        value: i64,
        /// The size of the gathered axis.
        size: usize,
    },
    /// The two operands of an elementwise operation have different dtypes, e.g.
    /// `tf.constant([1, 2]) + tf.constant([1.5, 2.5])`.
    #[error("{op} needs both operands of one dtype, but got {left} and {right}")]
    OperandDTypes {
        /// TensorFlow's name of the operation (`AddV2`).
        op: String,
        /// The left operand's dtype.
        left: DType,
        /// The right operand's dtype.
        right: DType,
    },
    /// A Python value that does not fit the dtype asked for, e.g.
    /// `tf.constant(1.5, dtype=tf.int32)`.
    #[error("Cannot convert {what} to a tensor of dtype {dtype}")]
    CannotConvert {
        /// The value as written.
        what: String,
        /// The dtype asked for.
        dtype: DType,
    },
    /// Row splits with no elements, e.g. `tf.RaggedTensor.from_row_splits([1, 2, 3], [])`.
    #[error("row_splits must have at least one element (the leading 0)")]
    SplitsEmpty,
    /// Row splits that do not start at 0, e.g.
    /// `tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3])`.
    #[error("row_splits must start with 0, but starts with {first}")]
    SplitsStart {
        /// The first split.
        first: i64,
    },
    /// Row splits that go down, e.g. `tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 3, 2, 3])`.
    #[error("row_splits must never decrease, but row_splits[{at}] = {value} is less than row_splits[{}] = {previous}", at - 1)]
    SplitsDecrease {
        /// Where the split that goes down is.
        at: usize,
        /// That split.
        value: i64,
        /// The split before it.
        previous: i64,
    },
    /// Row splits that do not end at the number of values, e.g.
    /// `tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])`.
    #[error("row_splits must end at the number of values ({nvals}), but ends at {last}")]
    SplitsEnd {
        /// The number of values.
        nvals: usize,
        /// The last split.
        last: i64,
    },
    /// A negative row length, e.g. `tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, -1, 2])`.
    #[error("row_lengths must be non-negative, but row_lengths[{at}] = {length}")]
    NegativeLength {
        /// Which row.
        at: usize,
        /// Its length.
        length: i64,
    },
    /// Row lengths that do not add up to the number of values, e.g.
    /// `tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 2])`.
    #[error("row_lengths add up to {sum}, but there are {nvals} values")]
    LengthsSum {
        /// Their sum.
        sum: i64,
        /// The number of values.
        nvals: usize,
    },
    /// Value row ids out of order, e.g. `tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 1])`.
    #[error("value_rowids must be sorted in ascending order, but value_rowids[{at}] = {value} follows {previous}")]
    RowidsUnsorted {
        /// Where the id that goes down is.
        at: usize,
        /// That id.
        value: i64,
        /// The id before it.
        previous: i64,
    },
    /// A nested list whose rows differ in length where a dense tensor needs them equal, e.g.
    /// `tf.constant([[1, 2], [3]])`.
    #[error("Can't convert non-rectangular Python sequence to Tensor.")]
    NonRectangular,
    /// A nested list mixing numbers and strings, e.g. `tf.constant([1, 'a'])`.
    #[error("Can't convert Python sequence with mixed types to Tensor.")]
    MixedTypes,
}

use EngineError as E;

impl EngineError {
    /// Every kind's code, the class it raises, when it happens and an input that raises it:
    /// the error catalogue's list (a test runs each example and checks the code it raises).
    pub const CATALOGUE: [(&'static str, ExceptionClass, &'static str, &'static str); 17] = [
        (
            "budget.limit",
            ExceptionClass::ResourceExhaustedError,
            "an operation would allocate more than the memory limit",
            "tf.zeros([100000, 100000, 100000])",
        ),
        (
            "shape.too_many_elements",
            ExceptionClass::InvalidArgumentError,
            "a shape with more than 2**63 - 1 elements",
            "tf.zeros([2**40, 2**40, 2**40])",
        ),
        (
            "shape.broadcast",
            ExceptionClass::InvalidArgumentError,
            "operands whose shapes (or ragged rows) do not broadcast",
            "tf.constant([1, 2]) + tf.constant([1, 2, 3])",
        ),
        (
            "index.out_of_bounds",
            ExceptionClass::InvalidArgumentError,
            "an integer index past the end of a dense dimension",
            "tf.constant([1, 2])[5]",
        ),
        (
            "index.row_out_of_bounds",
            ExceptionClass::IndexError,
            "a row index past the rows of a ragged tensor",
            "tf.ragged.constant([[1], [2]])[5]",
        ),
        (
            "index.gather",
            ExceptionClass::InvalidArgumentError,
            "a gather index outside the gathered axis",
            "tf.gather([1, 2], 5)",
        ),
        (
            "dtype.operands",
            ExceptionClass::InvalidArgumentError,
            "an elementwise operation on operands of two dtypes",
            "tf.constant([1, 2]) + tf.constant([1.5, 2.5])",
        ),
        (
            "dtype.convert",
            ExceptionClass::TypeError,
            "a Python value that does not fit the dtype asked for",
            "tf.constant(1.5, dtype=tf.int32)",
        ),
        (
            "partition.splits_empty",
            ExceptionClass::ValueError,
            "row splits with no elements",
            "tf.RaggedTensor.from_row_splits([1, 2, 3], [])",
        ),
        (
            "partition.splits_start",
            ExceptionClass::InvalidArgumentError,
            "row splits that do not start at 0",
            "tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3])",
        ),
        (
            "partition.splits_decrease",
            ExceptionClass::InvalidArgumentError,
            "row splits that go down",
            "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 3, 2, 3])",
        ),
        (
            "partition.splits_end",
            ExceptionClass::InvalidArgumentError,
            "row splits that do not end at the number of values",
            "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])",
        ),
        (
            "partition.negative_length",
            ExceptionClass::InvalidArgumentError,
            "a negative row length",
            "tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, -1, 2])",
        ),
        (
            "partition.lengths_sum",
            ExceptionClass::InvalidArgumentError,
            "row lengths that do not add up to the number of values",
            "tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 2])",
        ),
        (
            "partition.rowids_unsorted",
            ExceptionClass::InvalidArgumentError,
            "value row ids out of order",
            "tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 1])",
        ),
        (
            "literal.non_rectangular",
            ExceptionClass::ValueError,
            "a nested list whose rows differ where a dense tensor needs them equal",
            "tf.constant([[1, 2], [3]])",
        ),
        (
            "literal.mixed_types",
            ExceptionClass::ValueError,
            "a nested list mixing numbers and strings",
            "tf.constant([1, 'a'])",
        ),
    ];

    /// The kind's code in the catalogue (`shape.broadcast`).
    pub fn code(&self) -> &'static str {
        match self {
            E::MemoryLimit { .. } => "budget.limit",
            E::TooManyElements { .. } => "shape.too_many_elements",
            E::Broadcast { .. } => "shape.broadcast",
            E::IndexOutOfBounds { .. } => "index.out_of_bounds",
            E::RowOutOfBounds { .. } => "index.row_out_of_bounds",
            E::GatherIndex { .. } => "index.gather",
            E::OperandDTypes { .. } => "dtype.operands",
            E::CannotConvert { .. } => "dtype.convert",
            E::SplitsEmpty => "partition.splits_empty",
            E::SplitsStart { .. } => "partition.splits_start",
            E::SplitsDecrease { .. } => "partition.splits_decrease",
            E::SplitsEnd { .. } => "partition.splits_end",
            E::NegativeLength { .. } => "partition.negative_length",
            E::LengthsSum { .. } => "partition.lengths_sum",
            E::RowidsUnsorted { .. } => "partition.rowids_unsorted",
            E::NonRectangular => "literal.non_rectangular",
            E::MixedTypes => "literal.mixed_types",
        }
    }

    /// The exception class it raises.
    pub fn class(&self) -> ExceptionClass {
        let code = self.code();
        E::CATALOGUE
            .iter()
            .find(|entry| entry.0 == code)
            .map_or(ExceptionClass::InvalidArgumentError, |entry| entry.1)
    }

    /// How to fix it, when there is more to say than the message.
    pub fn hint(&self) -> Option<&'static str> {
        Some(match self {
            E::MemoryLimit { .. } => {
                "use smaller sizes, or raise the limit with --max-memory on the command line or \
                 `:set memory=` in the REPL (e.g. :set memory=8GiB)"
            }
            E::Broadcast { .. } => {
                "two sizes broadcast only when they are equal or one of them is 1 \
                 (shapes are aligned on the right); ragged rows must match row by row"
            }
            E::GatherIndex { .. } => {
                "gather indices must be non-negative and less than the size of the gathered axis"
            }
            E::OperandDTypes { .. } => "convert one side with tf.cast(x, tf.<dtype>)",
            E::MixedTypes => {
                "every element of a tensor has one dtype: use all strings or all numbers"
            }
            E::NonRectangular => {
                "rows of different lengths make a ragged tensor: use tf.ragged.constant"
            }
            _ => return None,
        })
    }
}

impl miette::Diagnostic for EngineError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(EngineError::code(self)))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.hint().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
}

impl From<EngineError> for Exception {
    fn from(e: EngineError) -> Exception {
        Exception {
            class: e.class(),
            message: e.to_string(),
            hint: e.hint().map(String::from),
            kind: Some(Arc::new(e)),
        }
    }
}

/// The asked and allowed amounts, in words; rounded alike, in bytes.
fn amounts(bytes: u128, limit: u64) -> (String, String) {
    use crate::budget::human;
    match (human(bytes), human(limit as u128)) {
        (a, l) if a == l => (format!("{bytes} bytes"), format!("{limit} bytes")),
        pair => pair,
    }
}

fn shape_list(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(","))
}

fn join(at: &[usize]) -> String {
    let parts: Vec<String> = at.iter().map(|c| c.to_string()).collect();
    parts.join(",")
}

fn broadcast_text(dim: usize, left: usize, right: usize, row: Option<usize>) -> String {
    match row {
        Some(p) => format!(
            "row {p} of ragged dimension {dim} has {left} elements in the left operand but {right} in the right"
        ),
        None => format!("dimension {dim} has size {left} in the left operand but {right} in the right"),
    }
}

/// `ValueError` with a formatted message.
#[macro_export]
macro_rules! value_error {
    ($($t:tt)*) => { $crate::Exception::new($crate::ExceptionClass::ValueError, format!($($t)*)) };
}
/// `InvalidArgumentError` with a formatted message.
#[macro_export]
macro_rules! invalid_arg {
    ($($t:tt)*) => { $crate::Exception::new($crate::ExceptionClass::InvalidArgumentError, format!($($t)*)) };
}
/// `TypeError` with a formatted message.
#[macro_export]
macro_rules! type_error {
    ($($t:tt)*) => { $crate::Exception::new($crate::ExceptionClass::TypeError, format!($($t)*)) };
}
/// `IndexError` with a formatted message.
#[macro_export]
macro_rules! index_error {
    ($($t:tt)*) => { $crate::Exception::new($crate::ExceptionClass::IndexError, format!($($t)*)) };
}
