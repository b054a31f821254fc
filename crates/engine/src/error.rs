//! Engine errors: the kind of failure (named after the Python class it maps to), and a
//! clear message.

use std::fmt;

/// The engine's error kinds, named after the Python class each maps to (the evaluator's
/// `ExceptionClass` holds the full Python and TensorFlow hierarchy users catch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// `ValueError`: a bad value for an argument (mixed literal types, bad partitions).
    ValueError,
    /// `tf.errors.InvalidArgumentError`: an op's inputs do not fit (shapes, sparse indices).
    InvalidArgumentError,
    /// `IndexError`: a row or element index out of range.
    IndexError,
    /// `TypeError`: a value of the wrong kind or dtype.
    TypeError,
    /// `ZeroDivisionError`: Python scalar division by zero.
    ZeroDivisionError,
    /// `OverflowError`: a Python int result past 64 bits (ragtag's ints are int64).
    OverflowError,
    /// `KeyboardInterrupt`: the evaluation was interrupted.
    KeyboardInterrupt,
    /// `tf.errors.ResourceExhaustedError`: the memory budget would be exceeded.
    ResourceExhaustedError,
    /// `tf.errors.UnimplementedError`: a case ragtag does not implement.
    UnimplementedError,
    /// `RecursionError`: evaluation nested past the stack guard (`crate::guard`), which
    /// conversions and operators check as they recurse.
    RecursionError,
}

impl ErrorClass {
    /// Every kind.
    pub const ALL: [ErrorClass; 10] = [
        ErrorClass::ValueError,
        ErrorClass::InvalidArgumentError,
        ErrorClass::IndexError,
        ErrorClass::TypeError,
        ErrorClass::ZeroDivisionError,
        ErrorClass::OverflowError,
        ErrorClass::KeyboardInterrupt,
        ErrorClass::ResourceExhaustedError,
        ErrorClass::UnimplementedError,
        ErrorClass::RecursionError,
    ];

    /// The name of the Python class this kind maps to.
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::ValueError => "ValueError",
            ErrorClass::InvalidArgumentError => "InvalidArgumentError",
            ErrorClass::IndexError => "IndexError",
            ErrorClass::TypeError => "TypeError",
            ErrorClass::ZeroDivisionError => "ZeroDivisionError",
            ErrorClass::OverflowError => "OverflowError",
            ErrorClass::KeyboardInterrupt => "KeyboardInterrupt",
            ErrorClass::ResourceExhaustedError => "ResourceExhaustedError",
            ErrorClass::UnimplementedError => "UnimplementedError",
            ErrorClass::RecursionError => "RecursionError",
        }
    }
    /// A short ragtag program whose error has this kind (a test runs every one).
    pub fn example(self) -> &'static str {
        match self {
            ErrorClass::ValueError => "tf.ragged.constant([['a'], [1]])",
            ErrorClass::InvalidArgumentError => "tf.constant([1, 2]) + tf.constant([1, 2, 3])",
            ErrorClass::IndexError => "tf.ragged.constant([[1], [2]])[5]",
            ErrorClass::TypeError => "tf.cast(tf.constant(['a']), tf.int32)",
            ErrorClass::ZeroDivisionError => "1 / 0",
            ErrorClass::OverflowError => "2 ** 64",
            ErrorClass::KeyboardInterrupt => "raise KeyboardInterrupt",
            ErrorClass::ResourceExhaustedError => "tf.zeros([100000, 100000, 100000])",
            ErrorClass::UnimplementedError => "del [1, 2][0]",
            ErrorClass::RecursionError => "f = lambda n: f(n)\nf(1)",
        }
    }

    /// When the engine reports this kind, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            ErrorClass::ValueError => {
                "a bad value: mixed literal types, partitions that do not fit"
            }
            ErrorClass::InvalidArgumentError => {
                "an op's inputs do not fit: shapes, dtypes, indices, sparse structure"
            }
            ErrorClass::IndexError => "a row or element index out of range",
            ErrorClass::TypeError => "a dtype an op cannot take (a cast, a mask)",
            ErrorClass::ZeroDivisionError => "Python number division by zero",
            ErrorClass::OverflowError => "a Python int result past 64 bits",
            ErrorClass::KeyboardInterrupt => "a long loop saw the interrupt flag",
            ErrorClass::ResourceExhaustedError => "an allocation would pass the memory budget",
            ErrorClass::UnimplementedError => "a case ragtag does not implement",
            ErrorClass::RecursionError => "evaluation nested past the stack guard",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error raised by the engine: its class, a message, and optionally a hint.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineError {
    /// The exception class.
    pub class: ErrorClass,
    /// What went wrong, in one sentence.
    pub message: String,
    /// How to fix it, when there is something to say.
    pub hint: Option<String>,
}

impl EngineError {
    /// An error of `class` with `message`.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        EngineError {
            class,
            message: message.into(),
            hint: None,
        }
    }
    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

impl std::error::Error for EngineError {}

/// The engine's result type.
pub type Result<T, E = EngineError> = std::result::Result<T, E>;

/// `ValueError` with a formatted message.
#[macro_export]
macro_rules! value_error {
    ($($t:tt)*) => { $crate::EngineError::new($crate::ErrorClass::ValueError, format!($($t)*)) };
}
/// `InvalidArgumentError` with a formatted message.
#[macro_export]
macro_rules! invalid_arg {
    ($($t:tt)*) => { $crate::EngineError::new($crate::ErrorClass::InvalidArgumentError, format!($($t)*)) };
}
/// `TypeError` with a formatted message.
#[macro_export]
macro_rules! type_error {
    ($($t:tt)*) => { $crate::EngineError::new($crate::ErrorClass::TypeError, format!($($t)*)) };
}
/// `IndexError` with a formatted message.
#[macro_export]
macro_rules! index_error {
    ($($t:tt)*) => { $crate::EngineError::new($crate::ErrorClass::IndexError, format!($($t)*)) };
}
