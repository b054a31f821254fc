//! Arrow: conversions between Arrow arrays and engine tensors ([`to_engine`],
//! [`from_engine`]), columns picked by name or dotted path ([`select`]), and Arrow IPC
//! files and streams ([`ipc`]). Parquet (`super::parquet`) reads and writes through the
//! same conversions.

pub mod from_engine;
pub mod ipc;
mod leaves;
pub mod select;
pub mod to_engine;

use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, Schema};

use crate::diagnostic::{Error, Result};
use ragtag_engine::{Array, ExceptionClass, Scalar};

/// What a reader is asked for.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The columns by name or dotted path; all of them when None.
    pub columns: Option<Vec<String>>,
    /// The value that replaces nulls (`fill_null=`).
    pub fill: Option<Scalar>,
}

/// The columns `opts` asks for in `schema` (every column, struct fields by their dotted
/// paths, when it names none).
pub fn select(schema: &Schema, opts: &ReadOptions, file: &Path) -> Result<Vec<select::Selected>> {
    let names = match &opts.columns {
        Some(names) => names.clone(),
        None => select::all_paths(schema),
    };
    names
        .iter()
        .map(|n| select::resolve(schema, n, file))
        .collect()
}

/// The selected columns of `batches` as tensors, named as asked.
pub fn tensors(
    batches: &[RecordBatch],
    selected: &[select::Selected],
    fill: Option<&Scalar>,
) -> Result<Vec<(String, Array)>> {
    selected
        .iter()
        .map(|sel| {
            let pieces = select::pieces(batches, sel)?;
            let a = to_engine::column(&sel.name, &sel.dtype, pieces, fill)?;
            Ok((sel.name.clone(), a))
        })
        .collect()
}

/// Named tensors as one record batch: one column each, with equal row counts.
pub fn batch(columns: &[(String, Array)]) -> Result<RecordBatch> {
    if let Some((first, a)) = columns.first() {
        let rows = nrows(a);
        if let Some((name, b)) = columns.iter().find(|(_, b)| nrows(b) != rows) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "the columns of a table need one row count, but '{first}' has {rows} rows \
                     and '{name}' has {}",
                    nrows(b)
                ),
            )
            .with_hint("write tensors of different lengths to separate files"));
        }
    } else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "a table needs at least one column, and the dict is empty",
        ));
    }
    let arrays: Vec<ArrayRef> = columns
        .iter()
        .map(|(_, a)| from_engine::array(a))
        .collect::<Result<_>>()?;
    let fields: Vec<Field> = columns
        .iter()
        .zip(&arrays)
        .map(|((name, _), arr)| Field::new(name.clone(), arr.data_type().clone(), false))
        .collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).map_err(|e| {
        Error::new(
            ExceptionClass::ValueError,
            format!("could not build the table: {e}"),
        )
    })
}

/// The outer row count of a tensor (a scalar has none: 0, and the writer rejects it).
fn nrows(a: &Array) -> usize {
    match a {
        Array::Dense(t) => t.shape().first().copied().unwrap_or(0),
        Array::Ragged(r) => r.nrows(),
    }
}

/// The ValueError for a file that is not valid `kind` (`Parquet`, `Arrow IPC`).
pub fn invalid_file(path: &Path, kind: &str, detail: impl std::fmt::Display) -> Error {
    Error::new(
        ExceptionClass::ValueError,
        format!("'{}' is not a valid {kind} file: {detail}", path.display()),
    )
    .with_hint(format!(
        "check that the file is complete and was written as {kind} (a truncated copy or \
         another format reads like this)"
    ))
}

/// The error for a file whose contents made the format library itself fail (a panic caught
/// by the evaluation guard): the place in the library's source, which says nothing to a
/// user, is left out.
pub fn reader_failed(path: &Path, kind: &str, crash: &ragtag_engine::guard::Crash) -> Error {
    let message = crash
        .message
        .rsplit_once(" at ")
        .map_or(crash.message.as_str(), |(m, _)| m);
    let first = message.lines().next().unwrap_or_default();
    invalid_file(
        path,
        kind,
        format!("its metadata is inconsistent (the {kind} reader stopped on: {first})"),
    )
}

#[cfg(test)]
mod tests;
