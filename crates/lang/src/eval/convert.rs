//! The value layer's conversions ([`crate::value::convert`]) under the name eval's builtins
//! use: a list becomes a tensor in one place, whoever asks.

pub use crate::value::convert::*;
