//! Names of classes and types: interned names, the type objects of builtin types ragtag
//! has no value for, and how builtins that are types show.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use super::class::Class;
use super::Value;

/// A class or type name kept for the whole run (`type_name` answers `&'static str`): each
/// distinct name is stored once.
pub fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(n);
    n
}

/// The type object of a builtin type that ragtag has no value for (`NoneType`,
/// `function`, `EagerTensor`): the same object each time, so `type(a) is type(b)` holds.
pub fn builtin_type(name: &str, module: &str) -> Value {
    static TYPES: OnceLock<Mutex<Vec<Arc<Class>>>> = OnceLock::new();
    let mut types = TYPES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(c) = types.iter().find(|c| c.name == name && c.module == module) {
        return Value::Class(c.clone());
    }
    let c = Class::new(name, module, Vec::new(), Vec::new());
    types.push(c.clone());
    Value::Class(c)
}

/// How a builtin that is also a type shows (`<class 'int'>`), `None` for other builtins.
pub fn type_repr(name: &str) -> Option<String> {
    Some(match name {
        "int" | "float" | "str" | "bool" | "list" | "tuple" | "dict" | "object" | "type"
        | "property" | "staticmethod" | "classmethod" | "super" | "range" | "enumerate" | "zip"
        | "map" | "filter" | "reversed" | "set" | "frozenset" | "bytes" | "bytearray" | "slice" => {
            format!("<class '{name}'>")
        }
        "tf.SparseTensor" => {
            "<class 'tensorflow.python.framework.sparse_tensor.SparseTensor'>".into()
        }
        "np.ndarray" => "<class 'numpy.ndarray'>".into(),
        "collections.Counter"
        | "collections.defaultdict"
        | "collections.OrderedDict"
        | "collections.deque" => format!("<class '{name}'>"),
        "np.bytes_" => "<class 'numpy.bytes_'>".into(),
        "np.object_" => "<class 'numpy.object_'>".into(),
        _ => return None,
    })
}
