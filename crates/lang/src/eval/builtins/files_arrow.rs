//! Parquet and Arrow IPC files: `ak.from_parquet` / `ak.to_parquet` (Awkward Array's names)
//! and `ragtag.read_arrow` / `ragtag.write_arrow`. The formats themselves live in
//! `crate::formats`; these read the arguments and shape the results (one column is a
//! tensor, several a dict of tensors).

use std::path::PathBuf;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::formats::arrow::{ipc, ReadOptions};
use crate::formats::parquet;
use crate::value::Value;
use ragtag_engine::literal::Leaf;
use ragtag_engine::{Array, ExceptionClass, Scalar};

/// The Parquet and Arrow IPC readers and writers.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function(
        "ak.from_parquet",
        "(path, columns=None, row_groups=None, fill_null=None)",
        from_parquet,
    )
    .doc("Reads a Parquet file (as pyarrow, Polars, DuckDB, Spark or Awkward Array write it): a list column becomes a ragged tensor whose row_splits are the column's offsets, a fixed-size list a uniform dimension, numbers, bools and strings a dense tensor. `columns` names the columns to read (a name, a list of names, or a dotted path into a struct column such as 'doc.tokens'); one column gives a tensor, several a dict of tensors. `row_groups` picks row groups by index, to read a large file a piece at a time: a read that would pass the memory budget fails before anything is decoded. A null is an error that counts them, unless `fill_null` gives the value that replaces null values (a null list becomes an empty list).")
    .examples(&[
        "ak.to_parquet(tf.ragged.constant([[1, 2, 3], [], [4, 5]]), 'tokens.parquet')\nak.from_parquet('tokens.parquet')",
        "ak.to_parquet({'id': [7, 8], 'words': tf.ragged.constant([['a', 'b'], ['c']])}, 'table.parquet', row_group_size=1)\nak.from_parquet('table.parquet', columns='words', row_groups=[1])",
    ]),
    Builtin::function("ak.to_parquet", "(x, path, row_group_size=None)", to_parquet)
        .doc("Writes a tensor (one column named 'values') or a dict of tensors (one column each, all with the same number of rows) to a Parquet file, snappy-compressed. A ragged dimension becomes a list column (LargeList for int64 row_splits, List for int32), a uniform dimension a fixed-size list, strings a UTF-8 column, so that pyarrow, Polars, DuckDB and ak.from_parquet read the same values back. `row_group_size` sets the rows per row group, the unit a reader can read alone.")
        .examples(&[
            "ak.to_parquet(tf.ragged.constant([[1.5], [2.0, 2.5]]), 'scores.parquet')\nak.from_parquet('scores.parquet')",
        ]),
    Builtin::function("ragtag.read_arrow", "(path, columns=None, fill_null=None)", read_arrow)
        .doc("Reads an Arrow IPC file (Feather v2, `pa.ipc.new_file`) or stream (`pa.ipc.new_stream`) — told apart by the file's first bytes — with the same conversions, column selection and null handling as ak.from_parquet. The whole file must fit the memory budget.")
        .examples(&[
            "ragtag.write_arrow(tf.ragged.constant([['to', 'be'], ['or']]), 'words.arrow')\nragtag.read_arrow('words.arrow')",
        ]),
    Builtin::function("ragtag.write_arrow", "(x, path, stream=False)", write_arrow)
        .doc("Writes a tensor (one column named 'values') or a dict of tensors to an Arrow IPC file, or to an IPC stream when `stream` is True, in the types ak.to_parquet writes.")
        .examples(&[
            "ragtag.write_arrow({'x': tf.constant([[1, 2], [3, 4]])}, 'grid.arrows', stream=True)\nragtag.read_arrow('grid.arrows', columns='x')",
        ]),
];

/// The `path` argument.
fn path_arg(a: &Args) -> Result<PathBuf> {
    match a.value("path") {
        Value::Str(s) => Ok(PathBuf::from(&**s)),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!("path must be a str, not {}", v.type_name()),
        )
        .at(a.span("path"))),
    }
}

/// `columns=`: None, a name, or a list of names.
fn columns_arg(a: &Args) -> Result<Option<Vec<String>>> {
    let bad = |v: &Value| {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "columns must be a column name or a list of names, not {}",
                v.type_name()
            ),
        )
        .at(a.span("columns"))
    };
    match a.get("columns") {
        None => Ok(None),
        Some(Value::Str(s)) => Ok(Some(vec![s.to_string()])),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => crate::value::subscript_items(v)
            .iter()
            .map(|item| match item {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(bad(other)),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some),
        Some(v) => Err(bad(v)),
    }
}

/// `fill_null=`: read as `read_json`'s is, as the scalar a null becomes.
fn fill_arg(a: &Args) -> Result<Option<Scalar>> {
    Ok(super::files_json::fill_arg(a)?.map(|leaf| match leaf {
        Leaf::Bool(b) => Scalar::Bool(b),
        Leaf::Int(v) => Scalar::I64(v),
        Leaf::Float(v) => Scalar::F64(v),
        Leaf::Str(s) => Scalar::Str(s),
        Leaf::Typed(s) => s,
    }))
}

fn read_options(a: &Args) -> Result<ReadOptions> {
    Ok(ReadOptions {
        columns: columns_arg(a)?,
        fill: fill_arg(a)?,
    })
}

/// One column as a tensor, several as a dict of tensors keyed by name.
fn result(mut columns: Vec<(String, Array)>) -> Value {
    if columns.len() == 1 {
        if let Some((_, a)) = columns.pop() {
            return Value::from_array(a);
        }
    }
    Value::Dict(crate::value::PyDict::from_str_keys(
        columns
            .into_iter()
            .map(|(name, a)| (name, Value::from_array(a))),
    ))
}

/// `x`: a tensor (one column, 'values') or a dict of tensors (one column each).
fn columns_of(a: &Args) -> Result<Vec<(String, Array)>> {
    match a.value("x") {
        Value::Dict(d) => d
            .items()
            .iter()
            .map(|(k, v)| {
                let Value::Str(name) = k else {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("column names must be str, not {}", k.type_name()),
                    )
                    .at(a.span("x")));
                };
                let arr = crate::value::convert::to_array(v, None).map_err(|e| a.err_at("x", e))?;
                Ok((name.to_string(), (*arr).clone()))
            })
            .collect(),
        _ => Ok(vec![("values".to_string(), (*a.array("x", None)?).clone())]),
    }
}

fn from_parquet(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_arg(a)?;
    let opts = read_options(a)?;
    let groups = match a.get("row_groups") {
        None => None,
        Some(Value::Int(g)) => Some(vec![*g]),
        Some(_) => Some(a.ints("row_groups")?),
    };
    let columns =
        parquet::read(&path, &opts, groups.as_deref()).map_err(|e| e.at(a.span("path")))?;
    Ok(result(columns))
}

fn to_parquet(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let columns = columns_of(a)?;
    let path = path_arg(a)?;
    let row_group_size = match a.opt_int("row_group_size")? {
        Some(n) if n < 1 => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("row_group_size must be at least 1, not {n}"),
            )
            .at(a.span("row_group_size")))
        }
        n => n.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
    };
    let opts = parquet::WriteOptions { row_group_size };
    parquet::write(&path, &columns, &opts).map_err(|e| e.at(a.span("x")))?;
    Ok(Value::None)
}

fn read_arrow(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_arg(a)?;
    let opts = read_options(a)?;
    let columns = ipc::read(&path, &opts).map_err(|e| e.at(a.span("path")))?;
    Ok(result(columns))
}

fn write_arrow(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let columns = columns_of(a)?;
    let path = path_arg(a)?;
    let stream = a.flag("stream", false)?;
    ipc::write(&path, &columns, stream).map_err(|e| e.at(a.span("x")))?;
    Ok(Value::None)
}
