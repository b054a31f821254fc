//! More of `tf.strings`: `format` (TensorFlow's tensor summaries in a template),
//! `to_hash_bucket` (the legacy Hash64), `to_hash_bucket_strong` (keyed SipHash),
//! `unsorted_segment_join` and `unicode_script` (ICU's script codes).

use super::tf_io::strings;
use super::tf_print::{ragged_to_string, summarize_tensor};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::ops::strings as ops;
use ragtag_engine::strings::StringBuf;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// The added `tf.strings` builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.strings.format", "(template, inputs, placeholder='{}', summarize=3, name=None)", format)
        .doc("A scalar string: the template with each placeholder replaced by the next input's text as TensorFlow summarises tensors (`summarize` elements at each end of every dimension, -1 for all; strings quoted, bools as 1/0). Ragged inputs print as nested lists.")
        .examples(&[
            "tf.strings.format('tensor: {}, suffix', tf.range(10))",
            "tf.strings.format('{} and {}', (tf.constant([[1, 2], [3, 4]]), tf.constant('x')), summarize=1)",
        ]),
    Builtin::function("tf.strings.to_hash_bucket", "(input, num_buckets, name=None)", to_hash_bucket)
        .doc("Hashes every string into one of num_buckets buckets (int64) with TensorFlow's legacy Hash64 (a MurmurHash64A variant, seed 0xDECAFCAFFE), so ids match models that used it; prefer to_hash_bucket_fast for new work.")
        .examples(&["tf.strings.to_hash_bucket(['Hello', 'TensorFlow', '2.x'], 3)"]),
    Builtin::function("tf.strings.to_hash_bucket_strong", "(input, num_buckets, key, name=None)", to_hash_bucket_strong)
        .doc("Hashes every string into one of num_buckets buckets (int64) with SipHash-2-4 keyed by `key`, two 64-bit integers; without the key the buckets cannot be predicted.")
        .examples(&["tf.strings.to_hash_bucket_strong(['Hello', 'TF'], 3, [1, 2])"]),
    Builtin::function("tf.strings.unsorted_segment_join", "(inputs, segment_ids, num_segments, separator='', name=None)", unsorted_segment_join)
        .doc("Joins the strings of each segment, in input order, with `separator`: segment_ids has the shape of the leading dimensions of inputs and the result is [num_segments] + the rest. Empty segments give ''; ids outside [0, num_segments) are an InvalidArgumentError.")
        .examples(&["tf.strings.unsorted_segment_join(['this', 'a', 'test', 'is'], [0, 1, 1, 0], 2, separator=' ')"]),
    Builtin::function("tf.strings.unicode_script", "(input, name=None)", unicode_script)
        .doc("ICU's UScriptCode of every int32 code point: 25 Latin, 8 Cyrillic, 17 Han, 0 Common, 1 Inherited, 103 Unknown, ...; -1 for values that are not code points. Ragged input keeps its rows.")
        .examples(&["tf.strings.unicode_script([65, 0x410, 0x4e00, 32])", "tf.strings.unicode_script(tf.strings.unicode_decode(['Hi Привет'], 'UTF-8'))"]),
];

fn done(a: &Args, name: &str, r: ragtag_engine::Result<Array>) -> Result<Value> {
    r.map(Value::from_array).map_err(|e| a.err_at(name, e))
}

fn scalar_string(s: &[u8]) -> Value {
    let mut b = StringBuf::new();
    b.push(s);
    Value::tensor(Tensor::from_parts(Vec::new(), Buffer::Str(b)))
}

fn format(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let template = a.opt_str("template")?.unwrap_or_default();
    let placeholder = a.opt_str("placeholder")?.unwrap_or_else(|| "{}".into());
    let summarize = a.opt_int("summarize")?.unwrap_or(3);
    let inputs: Vec<Value> = match a.value("inputs") {
        Value::List(l) => l.items(),
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    let pieces: Vec<&str> = if placeholder.is_empty() {
        vec![template.as_str()]
    } else {
        template.split(placeholder.as_str()).collect()
    };
    if pieces.len() - 1 != inputs.len() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "The template expects {} tensors, but the inputs only has {}. Please ensure the number of placeholders in template matches inputs length.",
                pieces.len() - 1,
                inputs.len()
            ),
        )
        .at(a.span("inputs")));
    }
    let mut out = String::from(pieces[0]);
    for (v, piece) in inputs.iter().zip(&pieces[1..]) {
        let arr = convert::to_array(v, None).map_err(|e| a.err_at("inputs", e))?;
        let text = match &*arr {
            Array::Dense(t) => summarize_tensor(t, summarize),
            Array::Ragged(_) => {
                ragged_to_string(&arr, summarize).map_err(|e| a.err_at("summarize", e))?
            }
        };
        out.push_str(&text);
        out.push_str(piece);
    }
    Ok(scalar_string(out.as_bytes()))
}

fn to_hash_bucket(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    let n = a.int("num_buckets")?;
    let at = if n < 1 { "num_buckets" } else { "input" };
    done(a, at, ops::to_hash_bucket(&x, n))
}

fn to_hash_bucket_strong(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    let n = a.int("num_buckets")?;
    let key = a.ints("key")?;
    let [k0, k1] = key[..] else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "Key must have 2 elements",
        )
        .at(a.span("key")));
    };
    let at = if n < 1 { "num_buckets" } else { "input" };
    done(
        a,
        at,
        ops::to_hash_bucket_strong(&x, n, [k0 as u64, k1 as u64]),
    )
}

fn unicode_script(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", Some(DType::Int32))?;
    done(a, "input", ops::unicode_script(&x))
}

fn unsorted_segment_join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "inputs")?;
    let ids = a.array("segment_ids", Some(DType::Int32))?;
    let (Array::Dense(x), Array::Dense(ids)) = (&*x, &*ids) else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "TypeError: object of type 'RaggedTensor' has no len()",
        )
        .at(a.call));
    };
    let num = a.int("num_segments")?;
    let sep = a.opt_str("separator")?.unwrap_or_default();
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    let (xs, is) = (x.shape(), ids.shape());
    if is.len() > xs.len() || xs[..is.len()] != *is {
        let at = (0..is.len())
            .find(|&d| d >= xs.len() || xs[d] != is[d])
            .unwrap_or(0);
        return Err(bad(format!(
            "Segment dimension is {} while input dimension is {} in rank {at}",
            is[at],
            xs.get(at).copied().unwrap_or(0)
        )));
    }
    let ids_v = ids
        .data()
        .to_i64_vec()
        .filter(|_| ids.dtype().is_int())
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!("segment_ids must be int32 or int64, not {}", ids.dtype()),
            )
            .at(a.span("segment_ids"))
        })?;
    let Buffer::Str(col) = x.data() else {
        return Err(bad("inputs must be strings".into()));
    };
    let inner: usize = xs[is.len()..].iter().product();
    if ids_v.iter().any(|&id| id < 0 || id >= num) {
        return Err(bad(
            "segment_ids are not allowed to exceed num_segments or to have negative values.".into(),
        ));
    }
    let num =
        usize::try_from(num).map_err(|_| bad(format!("num_segments must be >= 0, got {num}")))?;
    let cells = num.saturating_mul(inner);
    ragtag_engine::budget::check("tf.strings.unsorted_segment_join", cells as u128, 24)
        .map_err(|e| a.err_at("num_segments", e))?;
    let mut acc: Vec<Option<Vec<u8>>> =
        ragtag_engine::budget::filled("tf.strings.unsorted_segment_join", None, cells)
            .map_err(|e| a.err_at("num_segments", e))?;
    for (i, &id) in ids_v.iter().enumerate() {
        for j in 0..inner {
            let slot = &mut acc[id as usize * inner + j];
            let s = col.get(i * inner + j);
            match slot {
                None => *slot = Some(s.to_vec()),
                Some(v) => {
                    v.extend_from_slice(sep.as_bytes());
                    v.extend_from_slice(s);
                }
            }
        }
    }
    let mut shape = vec![num];
    shape.extend_from_slice(&xs[is.len()..]);
    let mut out = StringBuf::new();
    for s in &acc {
        out.push(s.as_deref().unwrap_or(b""));
    }
    Ok(Value::tensor(Tensor::from_parts(shape, Buffer::Str(out))))
}
