//! Python structures as TensorFlow's `nest` module sees them: spreading loop variables,
//! checking that two nests of lists, tuples and dicts have the same structure, and making
//! every leaf a tensor.

use crate::eval::convert;
use crate::value::Value;

/// The items `f(*v)` spreads: a list's or tuple's items, a dict's keys, a tensor's rows.
pub(crate) fn spread(v: &Value) -> std::result::Result<Vec<Value>, ragtag_engine::Exception> {
    match v {
        Value::List(_) | Value::Tuple(_) => Ok(crate::value::subscript_items(v)),
        Value::Dict(d) => Ok(d.keys()),
        Value::Array(arr) if arr.rank() > 0 => (0..arr.nrows())
            .map(|i| arr.row(i as i64).map(Value::from_array))
            .collect(),
        Value::Array(_) => Err(ragtag_engine::type_error!(
            "Cannot iterate over a scalar tensor."
        )),
        other => Err(ragtag_engine::type_error!(
            "'{}' object is not iterable",
            other.type_name()
        )),
    }
}

/// Checks that `b` nests lists, tuples and dicts as `a` does (TensorFlow's
/// `nest.assert_same_structure`; the leaves may differ).
pub(crate) fn same_structure(
    a: &Value,
    b: &Value,
) -> std::result::Result<(), ragtag_engine::Exception> {
    let seq = |v: &Value| matches!(v, Value::List(_) | Value::Tuple(_) | Value::Dict(_));
    match (seq(a), seq(b)) {
        (false, false) => return Ok(()),
        (true, true) => {}
        _ => {
            return Err(ragtag_engine::value_error!(
                "The two structures don't have the same nested structure: {} and {}",
                crate::render::tf_text::repr_of(a),
                crate::render::tf_text::repr_of(b)
            ))
        }
    }
    match (a, b) {
        (Value::Dict(x), Value::Dict(y)) => {
            let (kx, ky) = (x.keys(), y.keys());
            let sx: Vec<String> = kx.iter().map(crate::render::tf_text::repr_of).collect();
            let mut sy: Vec<String> = ky.iter().map(crate::render::tf_text::repr_of).collect();
            let mut sx2 = sx.clone();
            sx2.sort();
            sy.sort();
            if sx2 != sy {
                return Err(ragtag_engine::value_error!(
                    "The two dictionaries don't have the same set of keys: {} and {}",
                    sx2.join(", "),
                    sy.join(", ")
                ));
            }
            for k in kx {
                let va = x.get(&k)?.unwrap_or(Value::None);
                let vb = y.get(&k)?.unwrap_or(Value::None);
                same_structure(&va, &vb)?;
            }
            Ok(())
        }
        (Value::Dict(_), _) | (_, Value::Dict(_)) => Err(ragtag_engine::type_error!(
            "The two structures don't have the same sequence type: {} and {}",
            a.type_name(),
            b.type_name()
        )),
        _ => {
            let (xa, xb) = (
                crate::value::subscript_items(a),
                crate::value::subscript_items(b),
            );
            if xa.len() != xb.len() {
                return Err(ragtag_engine::value_error!(
                    "The two structures don't have the same nested structure: the first has {} elements and the second {}",
                    xa.len(),
                    xb.len()
                ));
            }
            for (p, q) in xa.iter().zip(&xb) {
                if std::mem::discriminant(p) != std::mem::discriminant(q)
                    && matches!(p, Value::List(_) | Value::Tuple(_))
                    && matches!(q, Value::List(_) | Value::Tuple(_))
                {
                    return Err(ragtag_engine::type_error!(
                        "The two structures don't have the same sequence type: {} and {}",
                        p.type_name(),
                        q.type_name()
                    ));
                }
                same_structure(p, q)?;
            }
            Ok(())
        }
    }
}

/// Every leaf of a nest of lists, tuples and dicts made a tensor (`ops.convert_to_tensor`
/// mapped over the structure); tensors of every kind stay as they are.
pub(crate) fn leaves_to_tensors(v: &Value) -> std::result::Result<Value, ragtag_engine::Exception> {
    Ok(match v {
        Value::List(l) => Value::list(
            l.items()
                .iter()
                .map(leaves_to_tensors)
                .collect::<std::result::Result<_, _>>()?,
        ),
        Value::Tuple(t) => Value::tuple(
            t.iter()
                .map(leaves_to_tensors)
                .collect::<std::result::Result<_, _>>()?,
        ),
        Value::Dict(d) => {
            let mut pairs = Vec::new();
            for (k, x) in d.items() {
                pairs.push((k, leaves_to_tensors(&x)?));
            }
            Value::Dict(crate::value::PyDict::new(pairs)?)
        }
        Value::Array(_) | Value::Sparse(_) => v.clone(),
        other => Value::from_array((*convert::to_array(other, None)?).clone()),
    })
}
