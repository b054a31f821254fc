//! Eager control flow that calls the user's functions: `tf.cond`, `tf.case`,
//! `tf.switch_case` and `tf.while_loop`, with TensorFlow's eager semantics (the chosen
//! branch runs at once and its result is returned as the function gave it).

use super::nest::{leaves_to_tensors, same_structure, spread};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, ExceptionClass};

/// The control-flow builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.cond", "(pred, true_fn=None, false_fn=None, name=None)", cond)
        .doc("Calls `true_fn()` when `pred` is true and `false_fn()` otherwise, and returns what it returned (eagerly, only the chosen function runs). `pred` is a boolean scalar (a Python bool or a one-element tensor).")
        .examples(&[
            "tf.cond(tf.constant(3) > 2, lambda: tf.constant(10), lambda: tf.constant(20))",
            "tf.cond(False, lambda: 'yes', lambda: ('no', 0))",
        ]),
    Builtin::function("tf.case", "(pred_fn_pairs, default=None, exclusive=False, strict=False, name='case')", case)
        .doc("Calls the function of the first `(pred, fn)` pair whose boolean tensor `pred` is true, or `default()` when none is (without a default, the last pair's function, after checking its predicate: InvalidArgumentError when no predicate is true). With `exclusive=True` more than one true predicate is an InvalidArgumentError. A one-item list or tuple result is unpacked, as TensorFlow's non-strict cond does.")
        .examples(&[
            "x = tf.constant(5)\ntf.case([(x < 3, lambda: tf.constant('small')), (x < 10, lambda: tf.constant('medium'))], default=lambda: tf.constant('large'))",
        ]),
    Builtin::function("tf.switch_case", "(branch_index, branch_fns, default=None, name='switch_case')", switch_case)
        .doc("Calls `branch_fns[branch_index]()`: `branch_fns` is a list of functions or a dict from 0, 1, … to functions, and `branch_index` an integer scalar tensor. An index out of range calls `default` (or, without one, the last branch).")
        .examples(&[
            "tf.switch_case(tf.constant(1), [lambda: tf.constant(10), lambda: tf.constant(20)])",
            "tf.switch_case(tf.constant(7), {0: lambda: 'zero', 1: lambda: 'one'}, default=lambda: 'other')",
        ]),
    Builtin::function(
        "tf.while_loop",
        "(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True, swap_memory=False, maximum_iterations=None, name=None)",
        while_loop,
    )
    .doc("Repeats `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` is true (and fewer than `maximum_iterations` times, when given), then returns the loop variables with every leaf made a tensor. `loop_vars` is a list or tuple, and may nest lists, tuples and dicts; `body` must return the same structure (the values' dtypes and shapes may change, as in eager TensorFlow).")
    .examples(&[
        "tf.while_loop(lambda i: i < 10, lambda i: (i + 3,), (0,))",
        "tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (tf.constant(0), tf.constant(0)))",
        "tf.while_loop(lambda i: True, lambda i: [i * 2], [1], maximum_iterations=4)",
    ]),
];

/// Whether `v` can be called.
pub(super) fn is_callable(v: &Value) -> bool {
    matches!(
        v,
        Value::Builtin(_)
            | Value::Method(..)
            | Value::Closure(_)
            | Value::ErrorClass(_)
            | Value::DType(_)
            | Value::NpType(crate::value::np_type::NpType { scalar: true, .. })
    )
}

fn type_error(a: &Args, name: &str, msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::TypeError, msg).at(a.span(name))
}

/// A predicate's truth, as `bool(np.asarray(pred))`: one element decides; more, or none,
/// is ambiguous.
fn pred_truth(a: &Args, name: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
            v.truthy().map_err(|e| a.err_at(name, e))
        }
        _ => {
            let arr = convert::to_array(v, None).map_err(|e| a.err_at(name, e))?;
            if let Array::Dense(t) = &*arr {
                if t.size() != 1 {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
                    )
                    .at(a.span(name))
                    .with_hint("a predicate must be a boolean scalar: reduce it with tf.reduce_any or tf.reduce_all"));
                }
            }
            Value::from_array((*arr).clone())
                .truthy()
                .map_err(|e| a.err_at(name, e))
        }
    }
}

fn cond(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for name in ["true_fn", "false_fn"] {
        match a.get(name) {
            None | Some(Value::None) => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("cond(): '{name}' argument required"),
                )
                .at(a.call))
            }
            Some(f) if !is_callable(f) => {
                return Err(type_error(a, name, format!("'{name}' must be callable.")))
            }
            _ => {}
        }
    }
    let branch = if pred_truth(a, "pred", a.value("pred"))? {
        "true_fn"
    } else {
        "false_fn"
    };
    interp.call_values(&a.value(branch).clone(), vec![], a.call)
}

/// A one-item list or tuple's item (TensorFlow's non-strict cond); anything else as it is.
fn unpack_singleton(v: Value) -> Value {
    match &v {
        Value::List(l) if l.len() == 1 => l.items().remove(0),
        Value::Tuple(t) if t.len() == 1 => t[0].clone(),
        _ => v,
    }
}

/// A `(pred, fn)` pair's predicate: a boolean tensor.
fn case_pred(a: &Args, v: &Value) -> Result<bool> {
    match v {
        Value::Array(arr) => {
            if arr.dtype() != ragtag_engine::DType::Bool {
                // TensorFlow's message names `pred.name`, which an eager tensor lacks.
                return Err(Error::new(
                    ExceptionClass::AttributeError,
                    format!(
                        "Tensor.name is undefined when eager execution is enabled (raised while reporting that pred must be Tensor of type bool, not {})",
                        arr.dtype()
                    ),
                )
                .at(a.span("pred_fn_pairs"))
                .with_hint("a predicate must be a bool tensor, e.g. tf.equal(x, 1)"));
            }
            pred_truth(a, "pred_fn_pairs", v)
        }
        other => Err(type_error(
            a,
            "pred_fn_pairs",
            format!(
                "pred must be a Tensor, got: {}",
                crate::render::tf_text::str_of(other)
            ),
        )
        .with_hint("wrap a Python bool in tf.constant(...)")),
    }
}

fn case(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pairs_v = a.value("pred_fn_pairs");
    let pairs = match pairs_v {
        Value::List(_) | Value::Tuple(_) => crate::value::subscript_items(pairs_v),
        Value::Dict(d) => {
            if !a.flag("exclusive", false)? {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "Unordered dictionaries are not supported for the 'pred_fn_pairs' argument when `exclusive=False` and eager mode is enabled.",
                )
                .at(a.span("pred_fn_pairs"))
                .with_hint("pass a list of (pred, fn) tuples instead"));
            }
            d.items()
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect()
        }
        other => {
            return Err(type_error(
                a,
                "pred_fn_pairs",
                format!(
                    "'pred_fn_pairs' must be a list, tuple, or dict. Received: {}",
                    other.type_name()
                ),
            ))
        }
    };
    let mut preds = Vec::new();
    let mut fns = Vec::new();
    for p in &pairs {
        let Value::Tuple(items) = p else {
            return Err(type_error(
                a,
                "pred_fn_pairs",
                format!(
                    "Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {}.",
                    crate::render::tf_text::repr_of(p)
                ),
            ));
        };
        if items.len() != 2 {
            return Err(type_error(
                a,
                "pred_fn_pairs",
                "Each entry in 'pred_fn_pairs' must be a 2-tuple.",
            ));
        }
        preds.push(case_pred(a, &items[0])?);
        if !is_callable(&items[1]) {
            return Err(type_error(
                a,
                "pred_fn_pairs",
                "fn for pred must be callable.",
            ));
        }
        fns.push(items[1].clone());
    }
    if pairs.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "not enough values to unpack (expected 2, got 0)",
        )
        .at(a.span("pred_fn_pairs"))
        .with_hint("tf.case needs at least one (pred, fn) pair"));
    }
    let default = a
        .get("default")
        .filter(|v| !matches!(v, Value::None))
        .cloned();
    if let Some(d) = &default {
        if !is_callable(d) {
            return Err(type_error(a, "default", "default must be callable."));
        }
    }
    if a.flag("exclusive", false)? && preds.iter().filter(|p| **p).count() > 1 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "Input error: exclusive=True: more than 1 conditions evaluated as True",
        )
        .at(a.span("pred_fn_pairs")));
    }
    // Without a default, the last pair is the default (TensorFlow checks its predicate).
    let (default, conds) = match default {
        Some(d) => (d, preds.len()),
        None => (fns[fns.len() - 1].clone(), preds.len() - 1),
    };
    let chosen = preds[..conds].iter().position(|p| *p);
    let out = match chosen {
        Some(i) => interp.call_values(&fns[i], vec![], a.call)?,
        None => {
            if conds < preds.len() && !preds[conds] {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    "Input error: None of conditions evaluated as True",
                )
                .at(a.span("pred_fn_pairs"))
                .with_hint("give tf.case a default function for when no predicate is true"));
            }
            interp.call_values(&default, vec![], a.call)?
        }
    };
    // Each pair is a cond, and a non-strict cond unpacks one-item results.
    if conds > 0 && !a.flag("strict", false)? {
        Ok(unpack_singleton(out))
    } else {
        Ok(out)
    }
}

fn switch_case(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let idx = match a.value("branch_index") {
        Value::Array(arr) => arr.clone(),
        other => {
            return Err(type_error(
                a,
                "branch_index",
                format!("'branch_index' must be a Tensor, got {}", other.type_name()),
            )
            .with_hint("wrap the index in tf.constant(...)"))
        }
    };
    if !idx.dtype().is_int() {
        return Err(type_error(
            a,
            "branch_index",
            format!(
                "'branch_index' must be an integer Tensor, got {}",
                idx.dtype()
            ),
        ));
    }
    let fns_v = a.value("branch_fns");
    let mut keyed: Vec<(i64, Value)> = match fns_v {
        Value::Dict(d) => {
            let mut out = Vec::new();
            for (k, f) in d.items() {
                let Value::Int(k) = k else {
                    return Err(type_error(
                        a,
                        "branch_fns",
                        format!("key must be a Python `int`, got {}", k.type_name()),
                    ));
                };
                out.push((k, f));
            }
            out
        }
        Value::List(_) | Value::Tuple(_) => {
            let items = crate::value::subscript_items(fns_v);
            if items.iter().all(is_callable) {
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, f)| (i as i64, f))
                    .collect()
            } else {
                let mut out = Vec::new();
                for it in items {
                    match &it {
                        Value::Tuple(p) if p.len() == 2 => match &p[0] {
                            Value::Int(k) => out.push((*k, p[1].clone())),
                            k => {
                                return Err(type_error(
                                    a,
                                    "branch_fns",
                                    format!("key must be a Python `int`, got {}", k.type_name()),
                                ))
                            }
                        },
                        _ => {
                            return Err(type_error(
                                a,
                                "branch_fns",
                                "Each entry in 'branch_fns' must be a 2-tuple.",
                            ))
                        }
                    }
                }
                out
            }
        }
        _ => {
            return Err(type_error(
                a,
                "branch_fns",
                "'branch_fns' must be a list, tuple, or dict",
            ))
        }
    };
    if keyed.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "Must provide at least one item in 'branch_fns'",
        )
        .at(a.span("branch_fns")));
    }
    for (k, f) in &keyed {
        if !is_callable(f) {
            return Err(type_error(
                a,
                "branch_fns",
                format!("fn for key {k} must be callable."),
            ));
        }
    }
    let n = keyed.len() as i64;
    let mut keys: Vec<i64> = keyed.iter().map(|(k, _)| *k).collect();
    keys.sort_unstable();
    keys.dedup();
    if keys.len() as i64 != n || keys[0] < 0 || keys[keys.len() - 1] >= n {
        let shown: Vec<String> = {
            let mut all: Vec<i64> = keyed.iter().map(|(k, _)| *k).collect();
            all.sort_unstable();
            all.iter().map(|k| k.to_string()).collect()
        };
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "branch indices (keys) must form contiguous range of [0 to {n}) but found {{{}}}",
                shown.join(",")
            ),
        )
        .at(a.span("branch_fns")));
    }
    keyed.sort_by_key(|(k, _)| *k);
    let mut fns: Vec<Value> = keyed.into_iter().map(|(_, f)| f).collect();
    if let Some(d) = a.get("default").filter(|v| !matches!(v, Value::None)) {
        if !is_callable(d) {
            return Err(type_error(a, "default", "default must be callable."));
        }
        fns.push(d.clone());
    }
    let Array::Dense(t) = &*idx else {
        return Err(type_error(
            a,
            "branch_index",
            "'branch_index' must be a Tensor, not a RaggedTensor",
        ));
    };
    if t.rank() != 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "'branch_index' must be a scalar, but saw shape: {:?}",
                t.shape()
            ),
        )
        .at(a.span("branch_index")));
    }
    let i = t.scalar_value().and_then(|s| s.as_i64()).unwrap_or(-1);
    let last = fns.len() - 1;
    let chosen = if i < 0 || i as usize > last {
        last
    } else {
        i as usize
    };
    interp.call_values(&fns[chosen], vec![], a.call)
}

fn while_loop(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let cond = a.value("cond").clone();
    let body = a.value("body").clone();
    for (name, f) in [("cond", &cond), ("body", &body)] {
        if !is_callable(f) {
            return Err(type_error(a, name, format!("'{name}' must be callable.")));
        }
    }
    let init = a.value("loop_vars").clone();
    if !init.truthy().map_err(|e| a.err_at("loop_vars", e))? {
        return Err(
            Error::new(ExceptionClass::ValueError, "'loop_vars' must be provided.")
                .at(a.span("loop_vars")),
        );
    }
    let max = match a
        .get("maximum_iterations")
        .filter(|v| !matches!(v, Value::None))
    {
        None => None,
        Some(v) => {
            let arr = convert::to_array(v, None).map_err(|e| a.err_at("maximum_iterations", e))?;
            if arr.rank() != 0 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "'maximum_iterations' must be a scalar. Received shape: {:?}",
                        arr.shape()
                    ),
                )
                .at(a.span("maximum_iterations")));
            }
            Some(
                convert::to_int(&Value::from_array((*arr).clone()))
                    .map_err(|e| a.err_at("maximum_iterations", e))?,
            )
        }
    };
    let structure = Value::list(spread(&init).map_err(|e| a.err_at("loop_vars", e))?);
    let mut vars = init;
    let mut count: i64 = 0;
    loop {
        interp.check_cancel()?;
        if max.is_some_and(|m| count >= m) {
            break;
        }
        let args = spread(&vars).map_err(|e| a.err_at("body", e))?;
        let c = interp.call_values(&cond, args.clone(), a.call)?;
        let go = if max.is_some() {
            // logical_and(i < maximum_iterations, cond(...)) converts the result to bool.
            match &c {
                Value::Bool(b) => *b,
                Value::Array(arr) if arr.dtype() == ragtag_engine::DType::Bool => {
                    c.truthy().map_err(|e| a.err_at("cond", e))?
                }
                other => {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!(
                            "Cannot convert {} to EagerTensor of dtype bool",
                            crate::render::tf_text::repr_of(other)
                        ),
                    )
                    .at(a.span("cond")))
                }
            }
        } else {
            c.truthy().map_err(|e| a.err_at("cond", e))?
        };
        if !go {
            break;
        }
        vars = interp.call_values(&body, args, a.call)?;
        let got = Value::list(spread(&vars).map_err(|e| a.err_at("body", e))?);
        // With maximum_iterations TensorFlow nests the loop variables in a counter's
        // tuple, so their own list or tuple must match too.
        let checked = if max.is_some() {
            same_structure(
                &Value::list(vec![a.value("loop_vars").clone()]),
                &Value::list(vec![vars.clone()]),
            )
        } else {
            same_structure(&structure, &got)
        };
        checked.map_err(|e| {
            a.err_at("body", e)
                .with_hint("body must return the loop variables in the structure of loop_vars, e.g. a one-item tuple `(i + 1,)` for one variable")
        })?;
        count += 1;
    }
    leaves_to_tensors(&vars).map_err(|e| a.err_at("body", e))
}
