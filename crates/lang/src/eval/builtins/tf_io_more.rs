//! `tf.io.decode_csv` (TensorFlow's CSV record parser, field by field with its defaults and
//! errors) and `tf.io.decode_compressed` (ZLIB and GZIP through flate2).

use std::io::Read;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::strings::StringBuf;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// The added `tf.io` builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.io.decode_csv", "(records, record_defaults, field_delim=',', use_quote_delim=True, na_value='', select_cols=None, name=None)", decode_csv)
        .doc("Parses CSV records into one tensor per column (each of the records' shape). record_defaults gives each column's dtype (int32, int64, float32, float64 or string) and its value when the field is empty or equals na_value; an empty default makes the column required. Quoted fields may hold the delimiter and doubled quotes; select_cols keeps only the given (increasing) columns.")
        .examples(&[
            "tf.io.decode_csv(['1,2.5,hello', '3,,x'], [[0], [0.0], ['']])",
            "tf.io.decode_csv(['1;\"a;b\"'], [[0], ['']], field_delim=';')",
        ]),
    Builtin::function("tf.io.decode_compressed", "(bytes, compression_type='', name=None)", decode_compressed)
        .doc("Decompresses every string: compression_type 'ZLIB' or 'GZIP', or '' for none (the strings are returned as they are). Data that does not decompress is an error.")
        .examples(&["tf.io.decode_compressed(['plain'], compression_type='')"]),
];

fn invalid(a: &Args, msg: String) -> Error {
    Error::new(ExceptionClass::InvalidArgumentError, msg).at(a.call)
}

/// `ExtractFields` of TensorFlow's DecodeCSV kernel for one record.
fn extract_fields(
    input: &[u8],
    delim: u8,
    quotes: bool,
    select: &[usize],
) -> std::result::Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    if input.is_empty() {
        return Ok(out);
    }
    let (mut i, mut parsed, mut sel) = (0usize, 0usize, 0usize);
    let all = select.is_empty();
    let n = input.len();
    while i < n {
        if input[i] == b'\n' || input[i] == b'\r' {
            i += 1;
            continue;
        }
        let include = all || select.get(sel) == Some(&parsed);
        let mut field = Vec::new();
        if quotes && input[i] == b'"' {
            i += 1;
            while i + 1 < n && (input[i] != b'"' || input[i + 1] != delim) {
                if input[i] != b'"' {
                    if include {
                        field.push(input[i]);
                    }
                    i += 1;
                } else {
                    if input[i + 1] != b'"' {
                        return Err(
                            "Quote inside a string has to be escaped by another quote".into()
                        );
                    }
                    if include {
                        field.push(b'"');
                    }
                    i += 2;
                }
            }
            if !(i < n && input[i] == b'"' && (i == n - 1 || input[i + 1] == delim)) {
                return Err("Quoted field has to end with quote followed by delim or end".into());
            }
            i += 2;
        } else {
            while i < n && input[i] != delim {
                if (quotes && input[i] == b'"') || input[i] == b'\n' || input[i] == b'\r' {
                    return Err("Unquoted fields cannot have quotes/CRLFs inside".into());
                }
                if include {
                    field.push(input[i]);
                }
                i += 1;
            }
            i += 1;
        }
        parsed += 1;
        if include {
            out.push(field);
            sel += 1;
            if !all && sel == select.len() {
                return Ok(out);
            }
        }
    }
    let include = all || select.get(sel) == Some(&parsed);
    if include && input[n - 1] == delim {
        out.push(Vec::new());
    }
    Ok(out)
}

/// One column's parsed values.
enum Col {
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Str(StringBuf),
}

fn decode_csv(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let records = a.array("records", Some(DType::String))?;
    let Array::Dense(rec) = &*records else {
        return Err(invalid(a, "records must be a dense string tensor".into()));
    };
    let Buffer::Str(rows) = rec.data() else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("records must be a string tensor, not {}", rec.dtype()),
        )
        .at(a.span("records")));
    };
    let defaults: Vec<Value> = match a.value("record_defaults") {
        Value::List(l) => l.items(),
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    let select: Vec<i64> = match a.get("select_cols") {
        None | Some(Value::None) => Vec::new(),
        Some(_) => a.ints("select_cols")?,
    };
    let value_err =
        |m: &str| Error::new(ExceptionClass::ValueError, m.to_string()).at(a.span("select_cols"));
    if !select.is_empty() {
        if select.windows(2).any(|w| w[0] >= w[1]) {
            return Err(value_err("select_cols is not strictly increasing."));
        }
        if select[0] < 0 {
            return Err(value_err("select_cols contains negative values."));
        }
        if select.len() != defaults.len() {
            return Err(value_err(
                "Length of select_cols and record_defaults do not match.",
            ));
        }
    }
    let select: Vec<usize> = select.iter().map(|&s| s as usize).collect();
    let delim = a.opt_str("field_delim")?.unwrap_or_else(|| ",".into());
    if delim.len() != 1 {
        return Err(invalid(a, "field_delim should be only 1 char".into()));
    }
    let delim = delim.as_bytes()[0];
    let quotes = a.flag("use_quote_delim", true)?;
    let na = a.opt_str("na_value")?.unwrap_or_default();
    let mut dflts: Vec<Tensor> = Vec::new();
    for (f, v) in defaults.iter().enumerate() {
        let arr = convert::to_array(v, None).map_err(|e| a.err_at("record_defaults", e))?;
        let Array::Dense(t) = &*arr else {
            return Err(invalid(
                a,
                format!("record_defaults[{f}] must be a dense tensor"),
            ));
        };
        if t.rank() > 1 {
            return Err(invalid(
                a,
                "Each record default should be at most rank 1".into(),
            ));
        }
        if t.size() > 1 {
            return Err(invalid(
                a,
                format!(
                    "There should only be 1 default per field but field {f} has {}",
                    t.size()
                ),
            ));
        }
        if !matches!(
            t.dtype(),
            DType::Int32 | DType::Int64 | DType::Float32 | DType::Float64 | DType::String
        ) {
            return Err(invalid(
                a,
                format!("csv: data type {} not supported in field {f}", t.dtype()),
            ));
        }
        dflts.push(t.clone());
    }
    let n = rows.len();
    let mut cols: Vec<Col> = dflts
        .iter()
        .map(|t| match t.dtype() {
            DType::Int32 => Col::I32(Vec::new()),
            DType::Int64 => Col::I64(Vec::new()),
            DType::Float32 => Col::F32(Vec::new()),
            DType::Float64 => Col::F64(Vec::new()),
            _ => Col::Str(StringBuf::new()),
        })
        .collect();
    for i in 0..n {
        let fields =
            extract_fields(rows.get(i), delim, quotes, &select).map_err(|m| invalid(a, m))?;
        if fields.len() != cols.len() {
            return Err(invalid(
                a,
                format!(
                    "Expect {} fields but have {} in record {i}",
                    cols.len(),
                    fields.len()
                ),
            ));
        }
        for (f, (field, col)) in fields.iter().zip(cols.iter_mut()).enumerate() {
            let d = &dflts[f];
            let missing = field.is_empty() || field[..] == *na.as_bytes();
            if missing && d.size() != 1 {
                return Err(invalid(
                    a,
                    format!("Field {f} is required but missing in record {i}!"),
                ));
            }
            let text = String::from_utf8_lossy(field);
            let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
            let bad = |what: &str| {
                invalid(
                    a,
                    format!("Field {f} in record {i} is not a valid {what}: {text}"),
                )
            };
            // The default (read only when the field is missing, so a required column's empty
            // default is never indexed).
            let dv = if missing {
                d.data().get(0)
            } else {
                ragtag_engine::Scalar::I64(0)
            };
            match col {
                Col::I32(v) => v.push(if missing {
                    dv.as_i64().unwrap_or(0) as i32
                } else {
                    t.parse::<i32>().map_err(|_| bad("int32"))?
                }),
                Col::I64(v) => v.push(if missing {
                    dv.as_i64().unwrap_or(0)
                } else {
                    t.parse::<i64>().map_err(|_| bad("int64"))?
                }),
                Col::F32(v) => v.push(if missing {
                    dv.as_f64().unwrap_or(0.0) as f32
                } else {
                    t.parse::<f32>().map_err(|_| bad("float"))?
                }),
                Col::F64(v) => v.push(if missing {
                    dv.as_f64().unwrap_or(0.0)
                } else {
                    t.parse::<f64>().map_err(|_| bad("double"))?
                }),
                Col::Str(s) => match (d.data(), missing) {
                    (Buffer::Str(ds), true) => s.push(ds.get(0)),
                    _ => s.push(field),
                },
            }
        }
    }
    let shape = rec.shape().to_vec();
    let out: Vec<Value> = cols
        .into_iter()
        .map(|c| {
            let buf = match c {
                Col::I32(v) => Buffer::from(v),
                Col::I64(v) => Buffer::from(v),
                Col::F32(v) => Buffer::from(v),
                Col::F64(v) => Buffer::from(v),
                Col::Str(s) => Buffer::Str(s),
            };
            Value::tensor(Tensor::from_parts(shape.clone(), buf))
        })
        .collect();
    Ok(Value::list(out))
}

fn decode_compressed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("bytes", Some(DType::String))?;
    if x.dtype() != DType::String {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "Cannot convert {} to EagerTensor of dtype string",
                crate::render::tf_text::repr_of(a.value("bytes"))
            ),
        )
        .at(a.span("bytes")));
    }
    let kind = a.opt_str("compression_type")?.unwrap_or_default();
    if !matches!(kind.as_str(), "" | "ZLIB" | "GZIP") {
        return Err(invalid(
            a,
            format!("Only ZLIB, GZIP or NONE are supported compressions, got {kind}"),
        ));
    }
    let t = x.flat_values();
    let Buffer::Str(col) = t.data() else {
        return Ok(Value::Array(x));
    };
    let mut out = StringBuf::new();
    let mut buf = Vec::new();
    for s in col.iter() {
        buf.clear();
        let r = match kind.as_str() {
            "ZLIB" => flate2::read::ZlibDecoder::new(s).read_to_end(&mut buf),
            "GZIP" => flate2::read::GzDecoder::new(s).read_to_end(&mut buf),
            _ => {
                buf.extend_from_slice(s);
                Ok(0)
            }
        };
        if r.is_err() {
            return Err(Error::new(
                decompress_error_class(),
                "inflate() failed with error -3: incorrect header check",
            )
            .at(a.span("bytes")));
        }
        ragtag_engine::budget::check("tf.io.decode_compressed", buf.len() as u128, 1)
            .map_err(|e| a.err_at("bytes", e))?;
        out.push(&buf);
    }
    let flat = Tensor::from_parts(t.shape().to_vec(), Buffer::Str(out));
    let arr = match &*x {
        Array::Dense(_) => Array::Dense(flat),
        Array::Ragged(r) => {
            Array::Ragged(r.with_flat_values(flat).map_err(|e| a.err_at("bytes", e))?)
        }
    };
    Ok(Value::from_array(arr))
}

/// TensorFlow raises DataLossError for corrupt compressed data.
fn decompress_error_class() -> ExceptionClass {
    ExceptionClass::InvalidArgumentError
}
