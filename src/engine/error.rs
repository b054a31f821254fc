//! Engine errors: the TensorFlow exception class a user expects, and a clear message.

use std::fmt;

/// The Python/TensorFlow exception classes ragtag raises.
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
    /// `NameError`: an unknown name.
    NameError,
    /// `AttributeError`: an unknown attribute or method.
    AttributeError,
    /// `SyntaxError`: input that does not parse.
    SyntaxError,
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
    /// `KeyError`: a missing dictionary key.
    KeyError,
    /// `AssertionError`: a failed `assert` statement.
    AssertionError,
    /// `RuntimeError`: anything else.
    RuntimeError,
    /// `RecursionError`: calls or expressions nested past the recursion limit.
    RecursionError,
    /// `tf.errors.InternalError`: a bug in ragtag (a panic caught at the evaluation guard).
    InternalError,
    /// `ModuleNotFoundError`: an `import` of a module ragtag does not provide.
    ModuleNotFoundError,
}

impl ErrorClass {
    /// Every class, for name lookup.
    pub const ALL: [ErrorClass; 18] = [
        ErrorClass::ValueError,
        ErrorClass::InvalidArgumentError,
        ErrorClass::IndexError,
        ErrorClass::TypeError,
        ErrorClass::NameError,
        ErrorClass::AttributeError,
        ErrorClass::SyntaxError,
        ErrorClass::ZeroDivisionError,
        ErrorClass::OverflowError,
        ErrorClass::KeyboardInterrupt,
        ErrorClass::ResourceExhaustedError,
        ErrorClass::UnimplementedError,
        ErrorClass::KeyError,
        ErrorClass::AssertionError,
        ErrorClass::RuntimeError,
        ErrorClass::RecursionError,
        ErrorClass::InternalError,
        ErrorClass::ModuleNotFoundError,
    ];

    /// The class name as Python prints it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::ValueError => "ValueError",
            ErrorClass::InvalidArgumentError => "InvalidArgumentError",
            ErrorClass::IndexError => "IndexError",
            ErrorClass::TypeError => "TypeError",
            ErrorClass::NameError => "NameError",
            ErrorClass::AttributeError => "AttributeError",
            ErrorClass::SyntaxError => "SyntaxError",
            ErrorClass::ZeroDivisionError => "ZeroDivisionError",
            ErrorClass::OverflowError => "OverflowError",
            ErrorClass::KeyboardInterrupt => "KeyboardInterrupt",
            ErrorClass::ResourceExhaustedError => "ResourceExhaustedError",
            ErrorClass::UnimplementedError => "UnimplementedError",
            ErrorClass::KeyError => "KeyError",
            ErrorClass::AssertionError => "AssertionError",
            ErrorClass::RuntimeError => "RuntimeError",
            ErrorClass::RecursionError => "RecursionError",
            ErrorClass::InternalError => "InternalError",
            ErrorClass::ModuleNotFoundError => "ModuleNotFoundError",
        }
    }

    /// Looks a class up by its name, with or without `tf.errors.`.
    pub fn from_name(name: &str) -> Option<ErrorClass> {
        let short = name.rsplit('.').next().unwrap_or(name);
        ErrorClass::ALL.into_iter().find(|c| c.name() == short)
    }

    /// Whether an `except self:` clause catches an error of class `raised`
    /// (Python's hierarchy: `Exception` catches all but KeyboardInterrupt;
    /// TensorFlow's `InvalidArgumentError` is also a `ValueError`-free `OpError`).
    pub fn catches(name: &str, raised: ErrorClass) -> bool {
        let short = name.rsplit('.').next().unwrap_or(name);
        match short {
            "BaseException" => true,
            "Exception" => raised != ErrorClass::KeyboardInterrupt,
            "OpError" => matches!(
                raised,
                ErrorClass::InvalidArgumentError
                    | ErrorClass::ResourceExhaustedError
                    | ErrorClass::UnimplementedError
                    | ErrorClass::InternalError
            ),
            "RuntimeError" => matches!(
                raised,
                ErrorClass::RuntimeError | ErrorClass::RecursionError
            ),
            "LookupError" => matches!(raised, ErrorClass::IndexError | ErrorClass::KeyError),
            "ImportError" => raised == ErrorClass::ModuleNotFoundError,
            "ArithmeticError" => matches!(
                raised,
                ErrorClass::ZeroDivisionError | ErrorClass::OverflowError
            ),
            _ => ErrorClass::from_name(short) == Some(raised),
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
    ($($t:tt)*) => { $crate::engine::EngineError::new($crate::engine::ErrorClass::ValueError, format!($($t)*)) };
}
/// `InvalidArgumentError` with a formatted message.
#[macro_export]
macro_rules! invalid_arg {
    ($($t:tt)*) => { $crate::engine::EngineError::new($crate::engine::ErrorClass::InvalidArgumentError, format!($($t)*)) };
}
/// `TypeError` with a formatted message.
#[macro_export]
macro_rules! type_error {
    ($($t:tt)*) => { $crate::engine::EngineError::new($crate::engine::ErrorClass::TypeError, format!($($t)*)) };
}
/// `IndexError` with a formatted message.
#[macro_export]
macro_rules! index_error {
    ($($t:tt)*) => { $crate::engine::EngineError::new($crate::engine::ErrorClass::IndexError, format!($($t)*)) };
}
