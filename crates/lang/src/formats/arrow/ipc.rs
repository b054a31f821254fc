//! Arrow IPC files (`ARROW1` magic, random access) and streams (a sequence of messages),
//! read into tensors and written from them; which one a file is comes from its first
//! bytes.

use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom};
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_ipc::writer::{FileWriter, StreamWriter};

use super::{invalid_file, reader_failed, ReadOptions};
use crate::diagnostic::{Error, Result};
use crate::formats::fs;
use ragtag_engine::{budget, Array, ExceptionClass};

/// The first bytes of an Arrow IPC file (a stream starts with a message instead).
const FILE_MAGIC: &[u8] = b"ARROW1";
/// What the format is called in messages.
const KIND: &str = "Arrow IPC";

/// Reads the columns `opts` asks for from the Arrow IPC file or stream at `path`.
pub fn read(path: &Path, opts: &ReadOptions) -> Result<Vec<(String, Array)>> {
    let mut file = fs::open(path)?;
    let len = fs::size(path)?;
    // Arrow arrays take about as many bytes as the file's record batches, and the tensors
    // as many again: the file must fit the budget before anything is decoded.
    budget::check_bytes(&format!("reading '{}'", path.display()), u128::from(len))
        .map_err(|e| Error::from(e).with_hint(big_file_hint()))?;
    let mut magic = [0u8; 6];
    let is_file = file.read_exact(&mut magic).is_ok() && magic == FILE_MAGIC;
    file.seek(SeekFrom::Start(0))
        .map_err(|e| fs::io_error(&e, path))?;
    let decoded = ragtag_engine::guard::catch(|| -> Result<_> {
        let bad = |e| invalid_file(path, KIND, e);
        if is_file {
            let reader =
                FileReader::try_new(BufReader::new(fs::Interruptible(file)), None).map_err(bad)?;
            let schema = reader.schema();
            Ok((schema, batches(reader).map_err(bad)??))
        } else {
            let reader = StreamReader::try_new(BufReader::new(fs::Interruptible(file)), None)
                .map_err(bad)?;
            let schema = reader.schema();
            Ok((schema, batches(reader).map_err(bad)??))
        }
    });
    // A read stopped by an interrupt ends in an error of its own: the interrupt wins.
    ragtag_engine::interrupt::check()?;
    let (schema, batches) = decoded.map_err(|crash| reader_failed(path, KIND, &crash))??;
    let selected = super::select(&schema, opts, path)?;
    super::tensors(&batches, &selected, opts.fill.as_ref())
}

/// The record batches of a reader, looking at the interrupt flag between two.
fn batches(
    reader: impl Iterator<Item = std::result::Result<RecordBatch, arrow_schema::ArrowError>>,
) -> std::result::Result<Result<Vec<RecordBatch>>, arrow_schema::ArrowError> {
    let mut out = Vec::new();
    for batch in reader {
        if let Err(e) = ragtag_engine::interrupt::check() {
            return Ok(Err(e.into()));
        }
        out.push(batch?);
    }
    Ok(Ok(out))
}

fn big_file_hint() -> String {
    "an Arrow IPC file is read whole: raise the limit with `:set memory=` in the REPL \
     (or --max-memory), or write the data as Parquet and read it by row_groups="
        .to_string()
}

/// Writes named tensors as one record batch to an Arrow IPC file, or a stream when
/// `stream` is set.
pub fn write(path: &Path, columns: &[(String, Array)], stream: bool) -> Result<()> {
    let batch = super::batch(columns)?;
    let (file, replacement) = crate::formats::fs::begin(path)?;
    let file = BufWriter::new(file);
    let failed = |e: arrow_schema::ArrowError| {
        Error::new(
            ExceptionClass::ValueError,
            format!("could not write '{}': {e}", path.display()),
        )
    };
    if stream {
        let mut w = StreamWriter::try_new(file, &batch.schema()).map_err(failed)?;
        w.write(&batch).map_err(failed)?;
        w.finish().map_err(failed)?;
        w.into_inner()
            .map_err(failed)?
            .into_inner()
            .map_err(|e| fs::io_error(e.error(), path))?;
    } else {
        let mut w = FileWriter::try_new(file, &batch.schema()).map_err(failed)?;
        w.write(&batch).map_err(failed)?;
        w.finish().map_err(failed)?;
        w.into_inner()
            .map_err(failed)?
            .into_inner()
            .map_err(|e| fs::io_error(e.error(), path))?;
    }
    replacement.commit()
}
