//! Parquet files in and out through the parquet crate's Arrow reader and writer: columns
//! and row groups selected before anything is decoded, the bytes they take estimated from
//! the file's metadata and checked against the memory budget first, row groups decoded on
//! both cores, and the chunks converted to tensors by [`super::arrow`].

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use rayon::prelude::*;

use super::arrow::{invalid_file, reader_failed, select::Selected, ReadOptions};
use crate::diagnostic::{Error, Result};
use crate::formats::fs;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, Array};

/// What the format is called in messages.
const KIND: &str = "Parquet";

/// Rows decoded at a time: between two batches a read looks at the interrupt flag.
const BATCH_ROWS: usize = 1 << 16;

/// Reads the columns and row groups asked for from the Parquet file at `path`.
pub fn read(
    path: &Path,
    opts: &ReadOptions,
    row_groups: Option<&[i64]>,
) -> Result<Vec<(String, Array)>> {
    let file = fs::open(path)?;
    let meta =
        ragtag_engine::guard::catch(|| ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()))
            .map_err(|crash| reader_failed(path, KIND, &crash))?
            .map_err(|e| invalid_file(path, KIND, e))?;
    let selected = super::arrow::select(meta.schema(), opts, path)?;
    let count = meta.metadata().num_row_groups();
    let groups = match row_groups {
        None => (0..count).collect(),
        Some(asked) => asked
            .iter()
            .map(|&g| row_group_index(g, count, path))
            .collect::<Result<Vec<usize>>>()?,
    };
    let mask = projection(&meta, &selected);
    check_budget(path, &meta, &mask, &groups, row_groups.is_some())?;
    let decoded = ragtag_engine::guard::catch(|| decode(path, &meta, &mask, &groups));
    // A decode stopped by an interrupt ends in an error of its own: the interrupt wins.
    ragtag_engine::interrupt::check()?;
    let decoded = decoded
        .map_err(|crash| reader_failed(path, KIND, &crash))?
        .map_err(|e| invalid_file(path, KIND, e))?;
    super::arrow::tensors(&decoded, &selected, opts.fill.as_ref())
}

/// A row group index (negative counts from the end, as in Python) checked against the
/// file's count.
fn row_group_index(g: i64, count: usize, path: &Path) -> Result<usize> {
    ragtag_engine::size::index(g, count).ok_or_else(|| {
        Error::new(
            ExceptionClass::IndexError,
            format!(
                "row group {g} is out of range: '{}' has {count} row group{}",
                path.display(),
                if count == 1 { "" } else { "s" }
            ),
        )
        .with_hint(format!(
            "row_groups= takes indices from 0 to {}",
            count.saturating_sub(1)
        ))
    })
}

/// The Parquet leaf columns under the selected columns (a struct field's path, or a
/// list's inner `list.element` levels, are prefixes of its leaves' paths).
fn projection(meta: &ArrowReaderMetadata, selected: &[Selected]) -> ProjectionMask {
    let schema = meta.parquet_schema();
    let leaves = schema.columns().iter().enumerate().filter_map(|(i, col)| {
        let parts = col.path().parts();
        selected
            .iter()
            .any(|s| parts.len() >= s.path.len() && parts[..s.path.len()] == s.path[..])
            .then_some(i)
    });
    ProjectionMask::leaves(schema, leaves)
}

/// Fails before decoding when the selected columns of the selected row groups take more
/// bytes than the memory budget allows: the uncompressed sizes the file's metadata gives, or
/// what their page headers claim when that is more ([`super::parquet_pages`]). A page header
/// no honest file holds is a ValueError naming the column.
fn check_budget(
    path: &Path,
    meta: &ArrowReaderMetadata,
    mask: &ProjectionMask,
    groups: &[usize],
    some_groups: bool,
) -> Result<()> {
    let md = meta.metadata();
    let mut bytes: u128 = 0;
    let mut file = fs::open(path)?;
    for &g in groups {
        let rg = md.row_group(g);
        for (leaf, col) in rg.columns().iter().enumerate() {
            if mask.leaf_included(leaf) {
                ragtag_engine::interrupt::check()?;
                // What the page headers claim, read before the crate trusts them.
                let start = col
                    .dictionary_page_offset()
                    .unwrap_or_else(|| col.data_page_offset());
                let claims = super::parquet_pages::scan(&mut file, start, col.compressed_size())
                    .map_err(|why| {
                        if ragtag_engine::interrupt::requested() {
                            return ragtag_engine::interrupt::interrupted().into();
                        }
                        invalid_file(
                            path,
                            KIND,
                            format!(
                                "column '{}' of row group {g}: {why}",
                                col.column_path().string()
                            ),
                        )
                    })?;
                let declared = u128::try_from(col.uncompressed_size()).unwrap_or(0);
                bytes += declared.max(claims.bytes());
            }
        }
    }
    let count = md.num_row_groups();
    let what = if some_groups {
        format!(
            "reading {} of the {count} row groups of '{}'",
            groups.len(),
            path.display()
        )
    } else {
        format!(
            "reading all {count} row group{} of '{}'",
            if count == 1 { "" } else { "s" },
            path.display()
        )
    };
    budget::check_bytes(&what, bytes).map_err(|e| {
        let hint = if count > 1 {
            format!(
                "read part of it at a time: row_groups=[i] reads row group i (the file has \
                 {count}, 0 to {}), and columns=[...] only the columns named; or raise the \
                 limit with `:set memory=` (or --max-memory)",
                count - 1
            )
        } else {
            "the file has a single row group: read fewer columns with columns=[...], or \
             raise the limit with `:set memory=` (or --max-memory)"
                .to_string()
        };
        Error::from(e).with_hint(hint)
    })
}

/// Decodes the selected row groups, each into one record batch, on every core. Each
/// group opens the file anew: clones of one handle share its read position, which
/// parallel reads would race on.
fn decode(
    path: &Path,
    meta: &ArrowReaderMetadata,
    mask: &ProjectionMask,
    groups: &[usize],
) -> parquet::errors::Result<Vec<RecordBatch>> {
    let flag = ragtag_engine::interrupt::current();
    let per_group = groups
        .par_iter()
        .map(|&g| {
            let rows = usize::try_from(meta.metadata().row_group(g).num_rows()).unwrap_or(0);
            let input = File::open(path)?;
            let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(input, meta.clone())
                .with_projection(mask.clone())
                .with_row_groups(vec![g])
                .with_batch_size(rows.clamp(1, BATCH_ROWS))
                .build()?;
            let mut batches = Vec::new();
            for batch in reader {
                if ragtag_engine::interrupt::is_set(&flag) {
                    return Err(parquet::errors::ParquetError::General("interrupted".into()));
                }
                batches.push(batch?);
            }
            Ok(batches)
        })
        .collect::<parquet::errors::Result<Vec<Vec<RecordBatch>>>>()?;
    Ok(per_group.into_iter().flatten().collect())
}

/// How a written file is laid out.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// Rows per row group (the writer's default, 1 Mi rows, when None).
    pub row_group_size: Option<usize>,
}

/// Writes named tensors as the columns of a Parquet file (snappy-compressed, as pyarrow
/// writes by default).
pub fn write(path: &Path, columns: &[(String, Array)], opts: &WriteOptions) -> Result<()> {
    let batch = super::arrow::batch(columns)?;
    let (file, replacement) = super::fs::begin(path)?;
    let mut props = WriterProperties::builder().set_compression(Compression::SNAPPY);
    if let Some(rows) = opts.row_group_size {
        props = props.set_max_row_group_row_count(Some(rows.max(1)));
    }
    let failed = |e: parquet::errors::ParquetError| {
        Error::new(
            ExceptionClass::ValueError,
            format!("could not write '{}': {e}", path.display()),
        )
    };
    let mut w = ArrowWriter::try_new(file, Arc::clone(&batch.schema()), Some(props.build()))
        .map_err(failed)?;
    w.write(&batch).map_err(failed)?;
    w.close().map_err(failed)?;
    replacement.commit()
}
