//! Norms and norm clipping: `tf.norm` (also `tf.linalg.norm`), `tf.linalg.normalize`,
//! `tf.linalg.global_norm`, `tf.clip_by_norm` and `tf.clip_by_global_norm`. The sums run
//! in float64 and round once to the tensor's dtype.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Tensor};

/// The norm builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.norm", "(tensor, ord='euclidean', axis=None, keepdims=None, name=None)", norm)
        .doc("The norm of a float tensor: with `axis=None` of all its elements as one vector, with an integer `axis` of the vectors along it, with a pair of axes of the matrices they span. Vector norms: 'euclidean' (the default) or any `ord` > 0 (np.inf: the largest magnitude). Matrix norms: 'euclidean' or 'fro' (Frobenius), 1 (largest column sum), np.inf (largest row sum), 2 (largest singular value). `keepdims=True` keeps the reduced axes with size 1.")
        .aliases(&["tf.linalg.norm"])
        .examples(&[
            "tf.norm(tf.constant([3.0, 4.0]))",
            "tf.norm(tf.constant([[1.0, -2.0], [3.0, 4.0]]), ord=1, axis=1)",
            "tf.norm(tf.constant([[1.0, -2.0], [3.0, 4.0]]), ord=np.inf, axis=[0, 1])",
        ]),
    Builtin::function("tf.linalg.normalize", "(tensor, ord='euclidean', axis=None, name=None)", normalize)
        .doc("`(tensor / norm, norm)`, where `norm` is tf.norm(tensor, ord, axis, keepdims=True).")
        .examples(&["tf.linalg.normalize(tf.constant([[3.0, 4.0], [1.0, 0.0]]), axis=1)"]),
    Builtin::function("tf.linalg.global_norm", "(t_list, name=None)", global_norm)
        .doc("The Euclidean norm of all the tensors of the list `t_list` together, as if they were one vector (None items are skipped). The tensors need one float dtype.")
        .examples(&["tf.linalg.global_norm([tf.constant([3.0, 4.0]), tf.constant([12.0])])"]),
    Builtin::function("tf.clip_by_norm", "(t, clip_norm, axes=None, name=None)", clip_by_norm)
        .doc("`t` scaled down so that its Euclidean norm (along `axes`, or over all of it) is at most `clip_norm`: `t * clip_norm / max(norm, clip_norm)`. A tensor whose norm is already at most `clip_norm` is unchanged.")
        .examples(&[
            "tf.clip_by_norm(tf.constant([3.0, 4.0]), 2.0)",
            "tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.3, 0.4]]), 2.0, axes=[1])",
        ]),
    Builtin::function("tf.clip_by_global_norm", "(t_list, clip_norm, use_norm=None, name=None)", clip_by_global_norm)
        .doc("Scales every tensor of `t_list` by `clip_norm / max(global_norm, clip_norm)`, where `global_norm` is tf.linalg.global_norm(t_list) (or `use_norm`, a tensor). Returns the list of scaled tensors (None items stay None) and the global norm.")
        .examples(&["tf.clip_by_global_norm([tf.constant([3.0, 4.0]), tf.constant([12.0])], 2.0)"]),
];

/// A dense float tensor argument; integer dtypes fail in TensorFlow's Sqrt kernel.
fn float_tensor(v: &Value, op: &str) -> std::result::Result<Tensor, Exception> {
    let arr = convert::to_array(v, None)?;
    let Array::Dense(t) = &*arr else {
        return Err(ragtag_engine::value_error!(
            "TypeError: object of type 'RaggedTensor' has no len()"
        )
        .with_hint("norms take dense tensors: use rt.flat_values or rt.to_tensor()"));
    };
    if !t.dtype().is_float() {
        return Err(ragtag_engine::invalid_arg!(
            "Value for attr 'T' of {} is not in the list of allowed values: bfloat16, half, float, double (in {op})",
            t.dtype()
        )
        .with_hint("cast to a float dtype first: tf.cast(x, tf.float32)"));
    }
    Ok(t.clone())
}

fn values(t: &Tensor) -> Vec<f64> {
    t.data().to_f64_vec().unwrap_or_default()
}

fn make(shape: Vec<usize>, v: Vec<f64>, dtype: DType) -> std::result::Result<Tensor, Exception> {
    Tensor::new(shape, Buffer::from_f64s(v, dtype))
}

/// Groups the elements by their position with `axes` removed; the groups in row-major
/// order of the kept shape (with size 1 at the reduced axes).
fn groups(data: &[f64], shape: &[usize], axes: &[usize]) -> (Vec<Vec<f64>>, Vec<usize>) {
    let kept: Vec<usize> = shape
        .iter()
        .enumerate()
        .map(|(i, &d)| if axes.contains(&i) { 1 } else { d })
        .collect();
    let n: usize = kept.iter().product();
    #[allow(clippy::disallowed_methods)] // at most one group an element of the input, which exists
    let mut out: Vec<Vec<f64>> = vec![Vec::new(); n];
    let total: usize = shape.iter().product();
    for (flat, x) in data.iter().enumerate().take(total) {
        let mut rem = flat;
        let mut o = 0;
        let mut mul = 1;
        for i in (0..shape.len()).rev() {
            let idx = rem % shape[i].max(1);
            rem /= shape[i].max(1);
            if !axes.contains(&i) {
                o += idx * mul;
                mul *= kept[i];
            }
        }
        out[o].push(*x);
    }
    (out, kept)
}

/// The norm's `ord`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ord {
    Euclidean,
    Fro,
    P(f64),
}

fn parse_ord(v: &Value) -> std::result::Result<Ord, String> {
    match v {
        Value::Str(s) if s.as_str() == "euclidean" => Ok(Ord::Euclidean),
        Value::Str(s) if s.as_str() == "fro" => Ok(Ord::Fro),
        Value::Int(i) => Ok(Ord::P(*i as f64)),
        Value::Float(f) => Ok(Ord::P(*f)),
        other => Err(crate::render::tf_text::str_of(other)),
    }
}

fn show_ord(o: Ord) -> String {
    match o {
        Ord::Euclidean => "euclidean".into(),
        Ord::Fro => "fro".into(),
        Ord::P(p) if p.is_infinite() => if p > 0.0 { "inf" } else { "-inf" }.into(),
        Ord::P(p) if p.fract() == 0.0 => format!("{}", p as i64),
        Ord::P(p) => crate::render::tf_text::py_float(p),
    }
}

/// The vector p-norm of `xs`.
fn vector_norm(xs: &[f64], ord: Ord) -> f64 {
    match ord {
        Ord::P(p) if p.is_infinite() => xs.iter().fold(0.0f64, |m, x| m.max(x.abs())),
        Ord::P(1.0) => xs.iter().map(|x| x.abs()).sum(),
        Ord::P(p) if p != 2.0 => xs
            .iter()
            .map(|x| x.abs().powf(p))
            .sum::<f64>()
            .powf(1.0 / p),
        _ => xs.iter().map(|x| x * x).sum::<f64>().sqrt(),
    }
}

/// The largest eigenvalue of a symmetric matrix (cyclic Jacobi rotations).
fn largest_eigenvalue(mut m: Vec<f64>, n: usize) -> f64 {
    for _ in 0..100 {
        // Each sweep is n³ work: stop with what it has when the user interrupts.
        if ragtag_engine::interrupt::requested() {
            break;
        }
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| m[i * n + j] * m[i * n + j])
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = m[p * n + q];
                if apq.abs() < 1e-300 {
                    continue;
                }
                let theta = (m[q * n + q] - m[p * n + p]) / (2.0 * apq);
                let t = theta.signum().max(0.0) * 2.0 - 1.0;
                let t = t / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (m[k * n + p], m[k * n + q]);
                    m[k * n + p] = c * akp - s * akq;
                    m[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (m[p * n + k], m[q * n + k]);
                    m[p * n + k] = c * apk - s * aqk;
                    m[q * n + k] = s * apk + c * aqk;
                }
            }
        }
    }
    (0..n).map(|i| m[i * n + i]).fold(0.0f64, f64::max)
}

/// The axes argument of tf.norm: None, one axis, or two distinct ones.
fn norm_axes(a: &Args, rank: usize) -> Result<Option<Vec<usize>>> {
    let v = match a.get("axis") {
        None | Some(Value::None) => return Ok(None),
        Some(v) => v,
    };
    let raw = match v {
        Value::Int(i) => vec![*i],
        other => convert::to_ints(other).map_err(|e| a.err_at("axis", e))?,
    };
    let distinct = raw.len() != 2 || raw[0] != raw[1];
    if raw.is_empty() || raw.len() > 2 || !distinct {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "'axis' must be None, an integer, or a tuple of 2 unique integers, got {}",
                crate::render::tf_text::repr_of(v)
            ),
        )
        .at(a.span("axis")));
    }
    let mut out = Vec::new();
    for &i in &raw {
        let j = if i < 0 { i + rank as i64 } else { i };
        if j < 0 || j as usize >= rank {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("Invalid reduction dimension ({i} for input with {rank} dimension(s)"),
            )
            .at(a.span("axis")));
        }
        out.push(j as usize);
    }
    Ok(Some(out))
}

/// tf.norm's computation: the norm tensor with the reduced axes kept (size 1).
fn norm_kept(a: &Args, t: &Tensor) -> Result<(Vec<f64>, Vec<usize>)> {
    let ord_v = a
        .get("ord")
        .cloned()
        .unwrap_or_else(|| Value::str("euclidean"));
    let axes = norm_axes(a, t.rank())?;
    let ord = parse_ord(&ord_v);
    let matrix = axes.as_ref().is_some_and(|x| x.len() == 2);
    let valid = match (&ord, matrix) {
        (Ok(Ord::Euclidean | Ord::Fro), true) => true,
        (Ok(Ord::P(p)), true) => *p == 1.0 || *p == 2.0 || *p == f64::INFINITY,
        (Ok(Ord::Euclidean), false) => true,
        (Ok(Ord::P(p)), false) => *p > 0.0,
        _ => false,
    };
    if !valid {
        let shown = match &ord {
            Ok(o) => show_ord(*o),
            Err(s) => s.clone(),
        };
        let msg = if matrix {
            format!("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got {shown}")
        } else {
            format!("'ord' must be a supported vector norm, got {shown}")
        };
        return Err(Error::new(ExceptionClass::ValueError, msg).at(a.span("ord")));
    }
    let ord = ord.unwrap_or(Ord::Euclidean);
    let data = values(t);
    let shape = t.shape();
    let all: Vec<usize> = (0..t.rank()).collect();
    match axes {
        None => {
            let (g, kept) = groups(&data, shape, &all);
            Ok((g.iter().map(|x| vector_norm(x, ord)).collect(), kept))
        }
        Some(ax) if ax.len() == 1 => {
            let (g, kept) = groups(&data, shape, &ax);
            Ok((g.iter().map(|x| vector_norm(x, ord)).collect(), kept))
        }
        Some(ax) => {
            let (r, c) = (ax[0], ax[1]);
            let (g, kept) = groups(&data, shape, &ax);
            // Each group lists its matrix in row-major order of the two axes as they lie
            // in the tensor; index it by (row axis, column axis).
            let (nr, nc) = (shape[r], shape[c]);
            let at = |m: &[f64], i: usize, j: usize| -> f64 {
                if r < c {
                    m[i * nc + j]
                } else {
                    m[j * nr + i]
                }
            };
            let out = g
                .iter()
                .map(|m| match ord {
                    Ord::P(1.0) => (0..nc)
                        .map(|j| (0..nr).map(|i| at(m, i, j).abs()).sum::<f64>())
                        .fold(0.0, f64::max),
                    Ord::P(p) if p.is_infinite() => (0..nr)
                        .map(|i| (0..nc).map(|j| at(m, i, j).abs()).sum::<f64>())
                        .fold(0.0, f64::max),
                    Ord::P(_) => {
                        // The largest singular value: the root of the largest eigenvalue
                        // of the smaller Gram matrix (AᵀA or AAᵀ), whose size is at most
                        // the matrix's own.
                        let k = nr.min(nc);
                        #[allow(clippy::disallowed_methods)]
                        // min(rows, cols)² ≤ rows × cols: no larger than the input
                        let mut g = vec![0.0; k * k];
                        for p in 0..k {
                            for q in 0..k {
                                g[p * k + q] = if nr >= nc {
                                    (0..nr).map(|i| at(m, i, p) * at(m, i, q)).sum()
                                } else {
                                    (0..nc).map(|j| at(m, p, j) * at(m, q, j)).sum()
                                };
                            }
                        }
                        largest_eigenvalue(g, k).max(0.0).sqrt()
                    }
                    _ => m.iter().map(|x| x * x).sum::<f64>().sqrt(),
                })
                .collect();
            Ok((out, kept))
        }
    }
}

fn norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = float_tensor(a.value("tensor"), "Sqrt").map_err(|e| a.err_at("tensor", e))?;
    let (v, kept) = norm_kept(a, &t)?;
    let keep = matches!(a.get("keepdims"), Some(v) if v.truthy().unwrap_or(false));
    let shape = if keep {
        kept
    } else {
        match norm_axes(a, t.rank())? {
            None => Vec::new(),
            Some(ax) => t
                .shape()
                .iter()
                .enumerate()
                .filter(|(i, _)| !ax.contains(i))
                .map(|(_, &d)| d)
                .collect(),
        }
    };
    make(shape, v, t.dtype())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// Where element `i` of `shape` reads from in a broadcast operand of shape `from`.
fn source(i: usize, shape: &[usize], from: &[usize]) -> usize {
    let mut rem = i;
    let mut off = 0;
    let mut mul = 1;
    let lead = shape.len() - from.len();
    for k in (0..shape.len()).rev() {
        let idx = rem % shape[k].max(1);
        rem /= shape[k].max(1);
        if k >= lead {
            let d = from[k - lead];
            if d != 1 {
                off += idx * mul;
            }
            mul *= d;
        }
    }
    off
}

/// NumPy broadcasting of two shapes.
fn broadcast(x: &[usize], y: &[usize]) -> Option<Vec<usize>> {
    let n = x.len().max(y.len());
    #[allow(clippy::disallowed_methods)] // one size an axis (the rank)
    let mut out = vec![0; n];
    for k in 0..n {
        let dx = if k + x.len() >= n {
            x[k + x.len() - n]
        } else {
            1
        };
        let dy = if k + y.len() >= n {
            y[k + y.len() - n]
        } else {
            1
        };
        out[k] = match (dx, dy) {
            (p, q) if p == q => p,
            (1, q) => q,
            (p, 1) => p,
            _ => return None,
        };
    }
    Some(out)
}

fn normalize(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = float_tensor(a.value("tensor"), "Sqrt").map_err(|e| a.err_at("tensor", e))?;
    let (n, kept) = norm_kept(a, &t)?;
    let data = values(&t);
    let out: Vec<f64> = (0..data.len())
        .map(|i| data[i] / n[source(i, t.shape(), &kept)])
        .collect();
    let err = |e: Exception| Error::from(e).at(a.call);
    Ok(Value::tuple(vec![
        Value::tensor(make(t.shape().to_vec(), out, t.dtype()).map_err(err)?),
        Value::tensor(make(kept, n, t.dtype()).map_err(err)?),
    ]))
}

/// The tensors of `t_list` (None where it holds None), checked to be floats of one dtype.
fn tensor_list(a: &Args) -> Result<Vec<Option<Tensor>>> {
    let v = a.value("t_list");
    if !matches!(v, Value::List(_) | Value::Tuple(_)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "`t_list` should be a sequence of tensors. Received {}.",
                v.type_name()
            ),
        )
        .at(a.span("t_list")));
    }
    let mut out = Vec::new();
    let mut dtype: Option<DType> = None;
    for (i, item) in crate::value::subscript_items(v).iter().enumerate() {
        if matches!(item, Value::None) {
            out.push(None);
            continue;
        }
        let t = float_tensor(item, "L2Loss").map_err(|e| a.err_at("t_list", e))?;
        match dtype {
            None => dtype = Some(t.dtype()),
            Some(d) if d != t.dtype() => {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    format!(
                        "cannot compute Pack as input #{i}(zero-based) was expected to be a {d} tensor but is a {} tensor",
                        t.dtype()
                    ),
                )
                .at(a.span("t_list")))
            }
            _ => {}
        }
        out.push(Some(t));
    }
    Ok(out)
}

/// The global norm of the tensors and its dtype (float32 for an empty list).
fn global(ts: &[Option<Tensor>]) -> (f64, DType) {
    let dtype = ts
        .iter()
        .flatten()
        .next()
        .map_or(DType::Float32, |t| t.dtype());
    let sum: f64 = ts
        .iter()
        .flatten()
        .map(|t| values(t).iter().map(|x| x * x).sum::<f64>())
        .sum();
    (sum.sqrt(), dtype)
}

fn global_norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let ts = tensor_list(a)?;
    let (n, d) = global(&ts);
    make(Vec::new(), vec![n], d)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn clip_by_norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = float_tensor(a.value("t"), "Sqrt").map_err(|e| a.err_at("t", e))?;
    let clip = match &*a.array("clip_norm", Some(t.dtype()))? {
        Array::Dense(c) if c.dtype() == t.dtype() => c.clone(),
        other => {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "clip_norm must have t's dtype {}, not {}",
                    t.dtype(),
                    other.dtype()
                ),
            )
            .at(a.span("clip_norm")))
        }
    };
    let rank = t.rank();
    let axes: Vec<usize> = match a.get("axes") {
        None | Some(Value::None) => (0..rank).collect(),
        Some(v) => {
            let raw = match v {
                Value::Int(i) => vec![*i],
                other => convert::to_ints(other).map_err(|e| a.err_at("axes", e))?,
            };
            let mut out = Vec::new();
            for i in raw {
                let j = if i < 0 { i + rank as i64 } else { i };
                if j < 0 || j as usize >= rank {
                    return Err(Error::new(
                        ExceptionClass::InvalidArgumentError,
                        format!(
                            "Invalid reduction dimension ({i} for input with {rank} dimension(s)"
                        ),
                    )
                    .at(a.span("axes")));
                }
                out.push(j as usize);
            }
            out
        }
    };
    let data = values(&t);
    let (g, kept) = groups(&data, t.shape(), &axes);
    let norms: Vec<f64> = g
        .iter()
        .map(|x| x.iter().map(|v| v * v).sum::<f64>().sqrt())
        .collect();
    let cv = values(&clip);
    let shape = broadcast(t.shape(), clip.shape()).ok_or_else(|| {
        Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Incompatible shapes: {:?} vs. {:?}",
                t.shape(),
                clip.shape()
            ),
        )
        .at(a.span("clip_norm"))
    })?;
    let n: usize = shape.iter().product();
    let out: Vec<f64> = (0..n)
        .map(|i| {
            let x = data[source(i, &shape, t.shape())];
            let c = cv[source(i, &shape, clip.shape())];
            let l = norms[source(i, &shape, &kept)];
            x * c / l.max(c)
        })
        .collect();
    make(shape, out, t.dtype())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn clip_by_global_norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let ts = tensor_list(a)?;
    let (mut gn, d) = global(&ts);
    match a.get("use_norm") {
        None | Some(Value::None) => {}
        Some(Value::Array(arr)) => {
            gn =
                convert::to_f64(&Value::Array(arr.clone())).map_err(|e| a.err_at("use_norm", e))?;
        }
        Some(other) => {
            return Err(Error::new(
                ExceptionClass::AttributeError,
                format!("'{}' object has no attribute 'dtype'", other.type_name()),
            )
            .at(a.span("use_norm"))
            .with_hint("pass use_norm as a tensor: tf.constant(...)"))
        }
    }
    let clip = convert::to_f64(a.value("clip_norm")).map_err(|e| a.err_at("clip_norm", e))?;
    let scale = if gn.is_finite() {
        clip * (1.0 / gn).min(1.0 / clip)
    } else {
        f64::NAN
    };
    let err = |e: Exception| Error::from(e).at(a.call);
    let mut out = Vec::new();
    for t in &ts {
        out.push(match t {
            None => Value::None,
            Some(t) => {
                let v: Vec<f64> = values(t).iter().map(|x| x * scale).collect();
                Value::tensor(make(t.shape().to_vec(), v, t.dtype()).map_err(err)?)
            }
        });
    }
    Ok(Value::tuple(vec![
        Value::list(out),
        Value::tensor(make(Vec::new(), vec![gn], d).map_err(err)?),
    ]))
}
