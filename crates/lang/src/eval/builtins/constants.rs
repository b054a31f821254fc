//! The names each namespace holds besides its builtins: dtypes (TensorFlow's, and NumPy's
//! scalar types under `np`), `newaxis`, math constants, `sys.stdout`, `tf.errors`' classes.

use std::collections::BTreeSet;

use super::registry;
use crate::value::Value;

// Evaluation reads these through `constant` and `module_attr`; the completer and the
// highlighter read them through the functions below, so what completes is what evaluates.

/// The constants each module holds, spelled as TensorFlow, NumPy and Python's `math` spell
/// them; [`constant_value`] gives their values. Either library's dtype spelling also works
/// under the other (`tf.str_`, `np.string`, see [`named_constant`]) as a lenient alias the
/// completer does not offer.
const NAMED_CONSTANTS: &[(&str, &[&str])] = &[
    (
        "tf",
        &[
            "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "bfloat16", "float32", "float64", "string", "half", "double", "newaxis",
        ],
    ),
    (
        "tf.dtypes",
        &[
            "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "bfloat16", "float32", "float64", "string", "half", "double",
        ],
    ),
    (
        "np",
        &[
            "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "float32", "float64", "half", "double", "str_", "newaxis", "pi", "e", "inf",
            "nan",
        ],
    ),
    ("math", &["pi", "e", "tau", "inf", "nan"]),
    ("sys", &["stdout", "stderr"]),
];

/// The value of the constant `name` in whichever module holds it: a dtype (`str_` is
/// `string`), `newaxis` (Python's `None`) or a float.
fn constant_value(name: &str) -> Option<Value> {
    Some(match name {
        "newaxis" => Value::None,
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "tau" => Value::Float(std::f64::consts::TAU),
        "inf" => Value::Float(f64::INFINITY),
        "nan" => Value::Float(f64::NAN),
        "stdout" | "stderr" => super::notebook::stream(name),
        _ => return ragtag_engine::DType::parse(name.trim_end_matches('_')).map(Value::DType),
    })
}

/// Namespaces that hold no builtin under their own path, and the module each one is:
/// `paddle.fluid` is `fluid`; `tf.errors` holds TensorFlow's exception classes and
/// `np.exceptions` NumPy's `AxisError`.
const NAMESPACES: &[(&str, &str)] = &[
    ("paddle.fluid", "fluid"),
    ("tf.errors", "tf.errors"),
    ("np.exceptions", "np.exceptions"),
];

/// The constant at `path`: a row of [`NAMED_CONSTANTS`], a dtype under either library's
/// spelling, or an exception class under `tf.errors`.
pub(super) fn named_constant(path: &str) -> Option<Value> {
    let (module, name) = path.rsplit_once('.')?;
    let numpy = matches!(module, "np" | "numpy");
    if constants_of(module).any(|n| n == name) {
        return constant_value(name).map(|v| numpy_face(v, numpy));
    }
    let dtype_module = matches!(module, "tf" | "tf.dtypes" | "np" | "numpy");
    let dtype_name = ragtag_engine::DType::ALL.iter().any(|d| d.name() == name)
        || matches!(name, "str_" | "bool_" | "half" | "double");
    if dtype_module && dtype_name {
        return constant_value(name).map(|v| numpy_face(v, numpy));
    }
    // The versions whose behaviour ragtag follows (its recorded answers come from them).
    if name == "__version__" {
        match module {
            "tf" | "tensorflow" => return Some(Value::str("2.21.0")),
            "np" | "numpy" => return Some(Value::str("2.4.6")),
            _ => {}
        }
    }
    if matches!(module, "np.exceptions" | "numpy.exceptions") && name == "AxisError" {
        return Some(Value::ErrorClass(
            ragtag_engine::exceptions::ExceptionClass::AxisError,
        ));
    }
    if module == "tf.errors" {
        return ragtag_engine::exceptions::ExceptionClass::from_name(name)
            .filter(|c| c.is_tf())
            .map(Value::ErrorClass);
    }
    None
}

/// A dtype constant as NumPy's scalar type when read from NumPy (`np.float32`).
fn numpy_face(v: Value, numpy: bool) -> Value {
    match v {
        Value::DType(d) if numpy => Value::NpType(crate::value::np_type::NpType::scalar(d)),
        v => v,
    }
}

/// The rows of [`NAMED_CONSTANTS`] for `module`.
fn constants_of(module: &str) -> impl Iterator<Item = &'static str> + '_ {
    NAMED_CONSTANTS
        .iter()
        .filter(move |(m, _)| *m == module)
        .flat_map(|(_, names)| names.iter().copied())
}

/// The module a namespace path without builtins names (`paddle.fluid` → `fluid`).
pub(super) fn namespace(path: &str) -> Option<&'static str> {
    NAMESPACES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|&(_, module)| module)
}

/// The module roots a session starts with, by their own names (`tf`, `np`, `fluid`,
/// `paddle`, `math`): the first part of every namespace that holds builtins or constants,
/// kept when [`super::root_module`] resolves it to itself (so `tensorflow` is not listed).
pub fn root_names() -> BTreeSet<&'static str> {
    let reg = registry();
    let paths = reg
        .modules()
        .chain(NAMED_CONSTANTS.iter().map(|(m, _)| *m))
        .chain(NAMESPACES.iter().map(|(p, _)| *p));
    paths
        .filter_map(|p| {
            let first = p.split('.').next().unwrap_or(p);
            crate::eval::root_module(first).filter(|r| *r == first)
        })
        .collect()
}

/// The names directly under `module` that are not builtins: its constants, the exception
/// classes under `tf.errors`, and namespaces without builtins of their own (`paddle.fluid`).
pub fn attribute_names(module: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = constants_of(module).collect();
    out.extend(NAMESPACES.iter().filter_map(|(p, _)| {
        p.strip_prefix(module)
            .and_then(|r| r.strip_prefix('.'))
            .filter(|r| !r.contains('.'))
    }));
    if module == "np.exceptions" {
        out.push("AxisError");
    }
    if module == "tf.errors" {
        out.extend(
            ragtag_engine::exceptions::ExceptionClass::ALL
                .iter()
                .filter(|c| c.is_tf())
                .map(|c| c.name()),
        );
    }
    out
}
