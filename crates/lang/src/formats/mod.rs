//! Data in and out: files read into tensors and tensors written to files.
//!
//! [`fs`] opens, reads and creates files with Python's error classes (`FileNotFoundError`,
//! `PermissionError`, …) and the memory budget checked before a file's bytes are read.
//!
//! [`arrow`] converts between Arrow arrays and tensors and reads and writes Arrow IPC;
//! [`parquet`] reads and writes Parquet through the same conversions; [`numpy`] reads and
//! writes .npy and .npz files, and [`json`] JSON and JSON Lines by the literal rules.

#[cfg(feature = "arrow")]
pub mod arrow;
pub mod durable;
pub mod fs;
pub mod json;
pub mod numpy;
#[cfg(feature = "arrow")]
pub mod parquet;
#[cfg(feature = "arrow")]
mod parquet_pages;
