//! Arrow IPC files (`ARROW1` magic, random access) and streams (a sequence of messages),
//! read into tensors and written from them; which one a file is comes from its first
//! bytes.

use std::io::BufWriter;
use std::path::Path;

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_buffer::Buffer;
use arrow_ipc::convert::try_fb_to_schema;
use arrow_ipc::reader::{read_footer_length, FileDecoder, StreamDecoder};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use arrow_ipc::Block;
use arrow_schema::{ArrowError, SchemaRef};

use super::{invalid_file, reader_failed, ReadOptions};
use crate::diagnostic::{Error, Result};
use crate::formats::fs;
use ragtag_engine::{budget, Array, ExceptionClass};

/// The first bytes of an Arrow IPC file (a stream starts with a message instead).
const FILE_MAGIC: &[u8] = b"ARROW1";
/// What the format is called in messages.
const KIND: &str = "Arrow IPC";

/// Reads the columns `opts` asks for from the Arrow IPC file or stream at `path`.
///
/// The file is read whole into one buffer (interruptibly, through the budget) and its
/// record batches decoded from slices of it, without a copy: arrow-ipc's own readers would
/// zero a buffer for each record batch before reading into it, a pass over every byte that
/// cannot be interrupted.
pub fn read(path: &Path, opts: &ReadOptions) -> Result<Vec<(String, Array)>> {
    let len = fs::size(path)?;
    // Arrow arrays take about as many bytes as the file's record batches, and the tensors
    // as many again: the file must fit the budget before anything is decoded.
    budget::check_bytes(&format!("reading '{}'", path.display()), u128::from(len))
        .map_err(|e| Error::from(e).with_hint(big_file_hint()))?;
    let bytes = fs::read(path)?;
    let is_file = bytes.starts_with(FILE_MAGIC);
    let buffer = Buffer::from_vec(bytes);
    let decoded = ragtag_engine::guard::catch(|| -> Result<_> {
        let bad = |e| invalid_file(path, KIND, e);
        if is_file {
            decode_file(&buffer).map_err(bad)?
        } else {
            decode_stream(buffer.clone()).map_err(bad)?
        }
    });
    // A read stopped by an interrupt ends in an error of its own: the interrupt wins.
    ragtag_engine::interrupt::check()?;
    let (schema, batches) = decoded.map_err(|crash| reader_failed(path, KIND, &crash))??;
    let selected = super::select(&schema, opts, path)?;
    super::tensors(&batches, &selected, opts.fill.as_ref())
}

/// What a decode gives: the schema and the record batches, or the interrupt.
type Decoded = std::result::Result<Result<(SchemaRef, Vec<RecordBatch>)>, ArrowError>;

/// The slice of `buffer` a footer's block names, checked to lie inside it.
fn block_bytes(buffer: &Buffer, block: &Block) -> std::result::Result<Buffer, ArrowError> {
    let offset = usize::try_from(block.offset()).ok();
    let len = usize::try_from(block.metaDataLength())
        .ok()
        .zip(usize::try_from(block.bodyLength()).ok())
        .and_then(|(m, b)| m.checked_add(b));
    match (offset, len) {
        (Some(o), Some(l)) if o.checked_add(l).is_some_and(|e| e <= buffer.len()) => {
            Ok(buffer.slice_with_length(o, l))
        }
        _ => Err(ArrowError::IpcError(format!(
            "a block at byte {} of {} + {} bytes lies outside the file ({} bytes)",
            block.offset(),
            block.metaDataLength(),
            block.bodyLength(),
            buffer.len()
        ))),
    }
}

/// Decodes an Arrow IPC file (`ARROW1 … footer ARROW1`) held in `buffer`.
fn decode_file(buffer: &Buffer) -> Decoded {
    let short = || ArrowError::IpcError("the file ends before its footer".to_string());
    let trailer_start = buffer.len().checked_sub(10).ok_or_else(short)?;
    let footer_len = read_footer_length(buffer[trailer_start..].try_into().map_err(|_| short())?)?;
    let footer_start = trailer_start.checked_sub(footer_len).ok_or_else(short)?;
    let footer = arrow_ipc::root_as_footer(&buffer[footer_start..trailer_start])
        .map_err(|e| ArrowError::IpcError(format!("its footer is unreadable: {e}")))?;
    let schema = footer
        .schema()
        .ok_or_else(|| ArrowError::IpcError("its footer has no schema".to_string()))?;
    let schema: SchemaRef = Arc::new(try_fb_to_schema(schema)?);
    let mut decoder = FileDecoder::new(Arc::clone(&schema), footer.version());
    for block in footer.dictionaries().iter().flatten() {
        if let Err(e) = ragtag_engine::interrupt::check() {
            return Ok(Err(e.into()));
        }
        decoder.read_dictionary(block, &block_bytes(buffer, block)?)?;
    }
    let mut out = Vec::new();
    for block in footer.recordBatches().iter().flatten() {
        if let Err(e) = ragtag_engine::interrupt::check() {
            return Ok(Err(e.into()));
        }
        if let Some(batch) = decoder.read_record_batch(block, &block_bytes(buffer, block)?)? {
            out.push(batch);
        }
    }
    Ok(Ok((schema, out)))
}

/// Decodes an Arrow IPC stream (a schema message, then dictionaries and record batches)
/// held in `buffer`.
fn decode_stream(mut buffer: Buffer) -> Decoded {
    let mut decoder = StreamDecoder::new();
    let mut out = Vec::new();
    while !buffer.is_empty() {
        if let Err(e) = ragtag_engine::interrupt::check() {
            return Ok(Err(e.into()));
        }
        if let Some(batch) = decoder.decode(&mut buffer)? {
            out.push(batch);
        }
    }
    decoder.finish()?;
    let schema = decoder
        .schema()
        .ok_or_else(|| ArrowError::IpcError("the stream holds no schema".to_string()))?;
    Ok(Ok((schema, out)))
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
