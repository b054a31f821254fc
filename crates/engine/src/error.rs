//! The engine's result type and the macros that raise the common classes with a formatted
//! message; the classes and the error value are in [`crate::exceptions`].

use crate::exceptions::Exception;

/// The engine's result type.
pub type Result<T, E = Exception> = std::result::Result<T, E>;

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
