//! Data in and out: files read into tensors and tensors written to files.
//!
//! [`fs`] opens, reads and creates files with Python's error classes (`FileNotFoundError`,
//! `PermissionError`, …) and the memory budget checked before a file's bytes are read.

pub mod fs;
pub mod json;
pub mod numpy;
