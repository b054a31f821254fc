//! Columns by name: a root column, or a field of a struct column by its dotted path
//! (`"doc.tokens"`), resolved against a schema, then taken out of every record batch with
//! the nulls of the structs above it.

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::{Array as _, ArrayRef, RecordBatch};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields, Schema};

use super::to_engine::Piece;
use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;

/// A column the user asked for.
#[derive(Debug, Clone)]
pub struct Selected {
    /// The name as the user wrote it (the key of the result).
    pub name: String,
    /// The field names from the root column down.
    pub path: Vec<String>,
    /// The column's Arrow type.
    pub dtype: DataType,
}

/// The column `name` of `schema`: a root column of that exact name, else a dotted path
/// into struct columns.
pub fn resolve(schema: &Schema, name: &str, file: &Path) -> Result<Selected> {
    if let Ok(f) = schema.field_with_name(name) {
        return Ok(selected(name, vec![name.to_string()], f));
    }
    let mut fields: &Fields = schema.fields();
    let mut path = Vec::new();
    let parts: Vec<&str> = name.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        let Some(f) = fields.iter().find(|f| f.name() == part) else {
            break;
        };
        path.push(part.to_string());
        if i + 1 == parts.len() {
            return Ok(selected(name, path, f));
        }
        match f.data_type() {
            DataType::Struct(inner) => fields = inner,
            _ => break,
        }
    }
    Err(Error::new(
        ExceptionClass::KeyError,
        format!("no column '{name}' in '{}'", file.display()),
    )
    .with_hint(format!("its columns: {}", all_paths(schema).join(", "))))
}

fn selected(name: &str, path: Vec<String>, f: &Field) -> Selected {
    Selected {
        name: name.to_string(),
        path,
        dtype: f.data_type().clone(),
    }
}

/// Every column a tensor can be read from: root columns, and the fields of struct columns
/// by their dotted paths (recursively).
pub fn all_paths(schema: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    for f in schema.fields() {
        paths_under(f, f.name().clone(), &mut out);
    }
    out
}

fn paths_under(f: &Field, prefix: String, out: &mut Vec<String>) {
    match f.data_type() {
        DataType::Struct(inner) if !inner.is_empty() => {
            for g in inner {
                paths_under(g, format!("{prefix}.{}", g.name()), out);
            }
        }
        _ => out.push(prefix),
    }
}

/// The chunks of `sel` in `batches`, each with the nulls of the structs above it.
pub fn pieces(batches: &[RecordBatch], sel: &Selected) -> Result<Vec<Piece>> {
    let mut out = Vec::new();
    for b in batches {
        let missing = || {
            Error::new(
                ExceptionClass::ValueError,
                format!("column '{}' is missing from a record batch", sel.name),
            )
        };
        let mut col: ArrayRef = b.column_by_name(&sel.path[0]).ok_or_else(missing)?.clone();
        let mut extra: Option<NullBuffer> = None;
        for part in &sel.path[1..] {
            let DataType::Struct(_) = col.data_type() else {
                return Err(missing());
            };
            let s = col.as_struct();
            extra = NullBuffer::union(extra.as_ref(), s.logical_nulls().as_ref());
            col = s.column_by_name(part).ok_or_else(missing)?.clone();
        }
        out.push(Piece {
            array: col,
            extra,
            hidden: None,
        });
    }
    Ok(out)
}
