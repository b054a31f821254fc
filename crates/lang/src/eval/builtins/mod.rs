//! The builtin table: one entry per function, method and property, with its signature, doc
//! and examples — the single source for evaluation, completion, `help()` and inspection.

pub use constants::{attribute_names, root_names};
use constants::{named_constant, namespace};
use signature::parse_sig;
pub use signature::ParamSpec;
use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use super::args::Args;
use super::Interp;
use crate::diagnostic::Result;
use crate::value::Value;

mod array;
mod bitwise;
mod common;
mod constants;
mod contractions;
mod control_flow;
mod convert;
mod debugging;
mod display;
mod draw;
mod dtypes;
#[cfg(feature = "arrow")]
mod files_arrow;
mod files_json;
mod files_numpy;
mod folds;
mod functional;
pub mod help;
mod layout;
mod linalg;
mod lod;
mod math;
mod math_more;
mod math_small;
mod nest;
mod nn;
mod nn_embedding;
mod nn_losses;
mod norms;
mod notebook;
pub(crate) mod numpy;
mod numpy_args;
mod numpy_count;
mod numpy_dtype;
mod numpy_generator;
mod numpy_join;
mod numpy_make;
mod numpy_math;
mod numpy_more;
mod numpy_random;
mod numpy_reduce;
mod numpy_shape;
mod ordering;
mod partitions;
pub mod python;
mod ragged;
mod random;
mod random_more;
mod random_stateless;
mod scatter;
mod segments;
mod sequence;
mod sequence_common;
mod sequence_more;
mod shape_ops;
mod signature;
mod sparse;
mod sparse_extra;
mod sparse_more;
mod sparse_ops;
mod spec;
mod spec_extra;
mod strings;
mod strings_extra;
mod strings_more;
mod tensor;
mod tensor_extra;
mod tf_io;
mod tf_io_more;
mod tf_print;

pub use lod::updates_receiver;

/// What a builtin is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A function reached by its module path (`tf.ragged.constant`).
    Function,
    /// A method of a value (`rt.row_lengths()`); the receiver is the first parameter.
    Method,
    /// An attribute computed from a value (`rt.values`); evaluated on access.
    Property,
}

/// A builtin's implementation.
pub type BuiltinFn = fn(&mut Interp<'_>, &Args) -> Result<Value>;

/// One builtin function, method or property.
#[derive(Debug)]
pub struct Builtin {
    /// The full path, e.g. `tf.ragged.constant` or `tf.RaggedTensor.row_lengths`.
    pub name: &'static str,
    /// The parameter list as Python shows it, e.g. `(pylist, dtype=None)`.
    pub sig: &'static str,
    /// One paragraph on what it does (first sentence is the summary).
    pub doc: &'static str,
    /// Runnable examples, shown by `help()` and executed by the tests.
    pub examples: &'static [&'static str],
    /// Other full paths that reach it (`tf.sparse_tensor_to_dense`).
    pub aliases: &'static [&'static str],
    /// Function, method or property.
    pub kind: Kind,
    /// The implementation.
    pub func: BuiltinFn,
}

impl Builtin {
    /// A function builtin.
    pub const fn function(name: &'static str, sig: &'static str, func: BuiltinFn) -> Builtin {
        Builtin {
            name,
            sig,
            doc: "",
            examples: &[],
            aliases: &[],
            kind: Kind::Function,
            func,
        }
    }
    /// A method builtin (`sig` starts with `self`).
    pub const fn method(name: &'static str, sig: &'static str, func: BuiltinFn) -> Builtin {
        Builtin {
            kind: Kind::Method,
            ..Builtin::function(name, sig, func)
        }
    }
    /// A property builtin.
    pub const fn property(name: &'static str, func: BuiltinFn) -> Builtin {
        Builtin {
            kind: Kind::Property,
            ..Builtin::function(name, "(self)", func)
        }
    }
    /// Sets the doc paragraph.
    pub const fn doc(self, doc: &'static str) -> Builtin {
        Builtin { doc, ..self }
    }
    /// Sets the examples.
    pub const fn examples(self, examples: &'static [&'static str]) -> Builtin {
        Builtin { examples, ..self }
    }
    /// Sets the aliases.
    pub const fn aliases(self, aliases: &'static [&'static str]) -> Builtin {
        Builtin { aliases, ..self }
    }
    /// The last component of the name (`constant`).
    pub fn short_name(&self) -> &'static str {
        self.name.rsplit('.').next().unwrap_or(self.name)
    }
    /// `name(params)` as shown in help.
    pub fn signature(&self) -> String {
        format!("{}{}", self.name, self.sig)
    }
    /// The parsed parameters.
    pub fn params(&'static self) -> &'static [ParamSpec] {
        let r = registry();
        // By address first: every call of a builtin binds its arguments here, and hashing
        // a pointer costs less than hashing and comparing the path.
        match r.params_at.get(&(self as *const Builtin as usize)) {
            Some(p) => p,
            None => &r.params[self.name],
        }
    }
}

/// Every builtin, indexed by each of its paths.
pub struct Registry {
    /// All builtins in definition order.
    pub all: Vec<&'static Builtin>,
    by_path: Paths<&'static Builtin>,
    params: Paths<Vec<ParamSpec>>,
    /// The same parameter lists by the address of each table's builtin.
    params_at: HashMap<usize, Vec<ParamSpec>, foldhash::fast::FixedState>,
    /// Each path split at its last dot: a class (`tf.RaggedTensor`, `list`) to its members
    /// by name, so a method call finds its builtin without building the `class.name` string.
    members: Paths<Paths<&'static Builtin>>,
    modules: BTreeSet<String>,
}

/// A table keyed by builtin paths, hashed with foldhash's fixed-seed state: every call of a
/// builtin looks its parameters up here and every method call its member, so std's SipHash
/// cost a tight loop of `out.append(i)` a tenth of its time (the seed is fixed for the same
/// reason as `value::env::Names`'s).
type Paths<V> = HashMap<&'static str, V, foldhash::fast::FixedState>;

/// The builtin registry (built on first use).
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
        let tables: &[&'static [Builtin]] = &[
            python::BUILTINS,
            python::CONTAINERS,
            python::OBJECTS,
            python::FILES,
            python::NUMBER_METHODS,
            python::SETS,
            python::BIGINTS,
            python::SET_SHARED,
            python::FROZENSET_METHODS,
            python::iterators::ITERATORS,
            python::ITERTOOLS,
            python::FUNCTOOLS,
            python::FUNCTOOLS_MORE,
            python::RANDOM,
            python::RANDOM_DISTS,
            python::STDMISC,
            python::STRING_TEMPLATE,
            python::STDTIME,
            python::SYSMOD,
            python::JSON,
            python::JSON_CLASSES,
            python::BYTES,
            python::BYTES_METHODS,
            python::BYTEARRAY_METHODS,
            python::RANGES,
            python::SLICES,
            python::PROTOCOLS,
            python::LRU,
            python::COPY,
            python::COLLECTIONS,
            python::CHAINMAP,
            python::USER_COLLECTIONS,
            python::BUILTIN_BASE_METHODS,
            python::DICT_BASE_METHODS,
            python::DEQUE,
            python::NAMEDTUPLE,
            python::JSON_FILES,
            python::RANDOM_INSTANCES,
            python::RANDOM_STATE,
            python::STR_METHODS,
            python::STR_SPLIT,
            python::STR_CASE,
            python::DATACLASSES,
            python::DATACLASS_FUNCTIONS,
            python::DATACLASS_METHODS,
            python::IDENTITY,
            python::EXEC,
            python::MATH,
            python::MATH_INTS,
            python::MATH_GAMMA,
            python::OPERATOR_FNS,
            python::TOTAL_ORDERING,
            python::TYPING,
            python::UNION_TYPE,
            python::OS,
            python::csv_mod::CSV,
            python::os_walk::WALK,
            python::io_mod::IO,
            python::osmod::pathlib::PATHLIB,
            python::WARNINGS,
            python::RE,
            python::TYPING_CLASSES,
            tensor::BUILTINS,
            tensor::MATH,
            tensor::BINARY,
            tensor::REDUCTIONS,
            math::UNARY,
            math::BINARY,
            math::LISTS,
            math::MISC,
            math::REDUCTIONS,
            math::SOFTMAX,
            bitwise::BUILTINS,
            ragged::BUILTINS,
            random::BUILTINS,
            numpy_random::BUILTINS,
            numpy_generator::BUILTINS,
            random_stateless::BUILTINS,
            strings::BUILTINS,
            sparse::BUILTINS,
            sparse_ops::BUILTINS,
            spec::BUILTINS,
            sparse_extra::BUILTINS,
            strings_extra::BUILTINS,
            lod::BUILTINS,
            sequence::BUILTINS,
            sequence_more::BUILTINS,
            linalg::BUILTINS,
            convert::BUILTINS,
            array::BUILTINS,
            layout::BUILTINS,
            ordering::BUILTINS,
            nn::BUILTINS,
            nn_losses::BUILTINS,
            math_small::BUILTINS,
            tensor_extra::BUILTINS,
            functional::BUILTINS,
            control_flow::BUILTINS,
            folds::BUILTINS,
            contractions::BUILTINS,
            norms::BUILTINS,
            scatter::BUILTINS,
            shape_ops::BUILTINS,
            spec_extra::BUILTINS,
            partitions::BUILTINS,
            math_more::BUILTINS,
            sparse_more::BUILTINS,
            tf_print::BUILTINS,
            tf_io::BUILTINS,
            segments::BUILTINS,
            display::BUILTINS,
            draw::BUILTINS,
            dtypes::BUILTINS,
            numpy::BUILTINS,
            debugging::COMPARE,
            debugging::SIGN,
            debugging::BUILTINS,
            debugging::SHAPES,
            numpy_reduce::BUILTINS,
            numpy_reduce::COUNT,
            numpy_math::UNARY,
            numpy_math::BINARY,
            numpy_math::MISC,
            numpy_shape::BUILTINS,
            numpy_make::BUILTINS,
            numpy_join::BUILTINS,
            numpy_count::BUILTINS,
            numpy_dtype::BUILTINS,
            notebook::BUILTINS,
            files_numpy::BUILTINS,
            files_json::BUILTINS,
            strings_more::BUILTINS,
            tf_io_more::BUILTINS,
            numpy_more::BUILTINS,
            random_more::BUILTINS,
            nn_embedding::BUILTINS,
            #[cfg(feature = "arrow")]
            files_arrow::BUILTINS,
        ];
        let mut all = Vec::new();
        let mut by_path = Paths::default();
        let mut params = Paths::default();
        let mut params_at = HashMap::default();
        let mut modules = BTreeSet::new();
        for table in tables.iter().chain(python::VALUE_BASE_METHODS) {
            for b in table.iter() {
                all.push(b);
                params.insert(b.name, parse_sig(b.sig));
                params_at.insert(b as *const Builtin as usize, parse_sig(b.sig));
                for path in std::iter::once(&b.name).chain(b.aliases.iter()) {
                    by_path.insert(*path, b);
                    if b.kind == Kind::Function {
                        let mut prefix = String::new();
                        for part in path
                            .split('.')
                            .collect::<Vec<_>>()
                            .iter()
                            .rev()
                            .skip(1)
                            .rev()
                        {
                            if !prefix.is_empty() {
                                prefix.push('.');
                            }
                            prefix.push_str(part);
                            modules.insert(prefix.clone());
                        }
                    }
                }
            }
        }
        let mut members: Paths<Paths<&'static Builtin>> = Paths::default();
        for (path, b) in &by_path {
            if let Some((class, name)) = path.rsplit_once('.') {
                members.entry(class).or_default().insert(name, *b);
            }
        }
        Registry {
            all,
            by_path,
            params,
            params_at,
            members,
            modules,
        }
    });
    &REGISTRY
}

impl Registry {
    /// The builtin at `path` exactly.
    pub fn get(&self, path: &str) -> Option<&'static Builtin> {
        self.by_path.get(path).copied()
    }
    /// The builtin at `path`, also trying it under `tf.` (so `ragged.constant` works).
    pub fn resolve(&self, path: &str) -> Option<&'static Builtin> {
        let function = |p: &str| self.get(p).filter(|b| b.kind == Kind::Function);
        function(path)
            .or_else(|| function(&format!("tf.{path}")))
            .or_else(|| {
                // `tf.square` is `tf.math.square`.
                let rest = path.strip_prefix("tf.").unwrap_or(path);
                function(&format!("tf.math.{rest}"))
            })
    }
    /// True when `path` (or `tf.path`) is a namespace holding builtins.
    pub fn is_module(&self, path: &str) -> Option<String> {
        if self.modules.contains(path) {
            Some(path.to_string())
        } else {
            let tf = format!("tf.{path}");
            self.modules.contains(&tf).then_some(tf)
        }
    }
    /// The method or property `name` of values of class `class` (`tf.RaggedTensor`).
    pub fn member(&self, class: &str, name: &str) -> Option<&'static Builtin> {
        let found = if name.contains('.') {
            // A dotted name is not one member: look the whole path up.
            self.get(&format!("{class}.{name}"))
        } else {
            self.members.get(class).and_then(|m| m.get(name)).copied()
        };
        found.filter(|b| b.kind != Kind::Function)
    }
    /// Every path that reaches a function, for completion and suggestions.
    pub fn function_paths(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.by_path
            .iter()
            .filter(|(_, b)| b.kind == Kind::Function)
            .map(|(p, _)| *p)
    }
    /// The namespaces.
    pub fn modules(&self) -> impl Iterator<Item = &str> {
        self.modules.iter().map(|s| s.as_str())
    }
}

/// Named constants reachable by path: dtypes, `tf.newaxis`, math constants, `tf.errors.*`.
pub fn constant(path: &str) -> Option<Value> {
    named_constant(path)
}

/// `module.name`: a builtin, a constant, or a deeper module.
pub fn module_attr(module: &str, name: &str) -> Option<Value> {
    let path = format!("{module}.{name}");
    let path = path
        .strip_prefix("paddle.fluid.")
        .map(|r| format!("fluid.{r}"))
        .unwrap_or(path);
    if let Some(v) = constant(&path) {
        return Some(v);
    }
    if let Some(v) = python::stdmisc::constant(&path)
        .or_else(|| (path == "string.Template").then(python::string_template::template_class))
        .or_else(|| (path == "collections.ChainMap").then(python::chainmap::chainmap_class))
        .or_else(|| {
            path.strip_prefix("collections.")
                .and_then(python::user_collections::user_class)
        })
        .or_else(|| python::sysmod::constant(&path))
        .or_else(|| python::json::constant(&path))
        .or_else(|| python::dataclasses::constant(&path))
        .or_else(|| python::typing::constant(&path))
        .or_else(|| python::osmod::constant(&path))
        .or_else(|| python::re_mod::constant(&path))
        .or_else(|| python::csv_mod::constant(&path))
        .or_else(|| python::osmod::pathlib::constant(&path))
    {
        return Some(v);
    }
    // A standard module's names are its own: `random.xyz` is not `tf.random.xyz`.
    if python::STDLIB_MODULES.contains(&module) {
        return registry()
            .get(&path)
            .filter(|b| b.kind == Kind::Function)
            .map(Value::Builtin);
    }
    if let Some(b) = registry().resolve(&path) {
        return Some(Value::Builtin(b));
    }
    if let Some(m) = namespace(&path) {
        return Some(Value::Module(crate::value::ThinStr::from(m)));
    }
    registry()
        .is_module(&path)
        .map(|m| Value::Module(crate::value::ThinStr::from(m.as_str())))
}

/// The public names directly under `module`, sorted: its functions and classes, deeper
/// modules and constants — what `from module import *` binds and `dir(module)` lists.
pub fn module_names(module: &str) -> Vec<String> {
    let prefix = format!("{module}.");
    let mut names: BTreeSet<String> = registry()
        .function_paths()
        .filter_map(|p| p.strip_prefix(prefix.as_str()))
        .map(|rest| rest.split('.').next().unwrap_or(rest).to_string())
        .collect();
    names.extend(attribute_names(module).into_iter().map(String::from));
    names.extend(python::constant_names(module).iter().map(|n| n.to_string()));
    // A name the module does not give back (a path only another module's builtin
    // resolves) is not one of its names.
    names
        .into_iter()
        .filter(|n| !n.starts_with('_') && module_attr(module, n).is_some())
        .collect()
}

/// The class path whose members a value has (`tf.RaggedTensor` for ragged tensors).
pub fn class_of(v: &Value) -> Option<&'static str> {
    Some(match v {
        Value::Array(a) => match **a {
            ragtag_engine::Array::Dense(_) => "tf.Tensor",
            ragtag_engine::Array::Ragged(_) => "tf.RaggedTensor",
        },
        Value::Sparse(_) => "tf.SparseTensor",
        Value::Lod(_) => "fluid.LoDTensor",
        Value::Shape(_) => "tf.TensorShape",
        Value::DType(_) => "tf.DType",
        Value::NpType(t) if t.scalar => "np.scalar_type",
        Value::NpType(_) => "np.dtype",
        Value::Str(_) => "str",
        Value::Int(_) | Value::Bool(_) => "int",
        Value::Float(_) => "float",
        Value::Tuple(_) => "tuple",
        Value::List(_) => "list",
        Value::Dict(d) => python::collections::class_path(d),
        Value::Deque(_) => "collections.deque",
        Value::Set(_) | Value::BigInt(_) => v.type_name(),
        Value::Bytes(_) => "bytes",
        Value::ByteArray(_) => "bytearray",
        Value::NdArray(_) => "np.ndarray",
        Value::Range(_) => "range",
        Value::Slice(_) => "slice",
        Value::Spec(s) if s.ragged => "tf.RaggedTensorSpec",
        Value::Spec(_) => "tf.TensorSpec",
        v if numpy_random::is_generator(v) => "np.random.Generator",
        Value::Iter(i) if i.is_generator() => "generator",
        Value::Opaque(o) if matches!(&**o, "<sys.stdout>" | "<sys.stderr>") => "sys.stdout",
        Value::Exception(_) => "BaseException",
        _ => return None,
    })
}

/// `tf.cast` of a dense or ragged tensor.
pub fn cast_array(
    a: &ragtag_engine::Array,
    dtype: ragtag_engine::DType,
) -> Result<ragtag_engine::Array, ragtag_engine::Exception> {
    crate::eval::operators::map_flat(a, |t| {
        Ok(ragtag_engine::Tensor::from_parts(
            t.shape().to_vec(),
            ragtag_engine::ops::cast::cast_buffer(t.data(), dtype)?,
        ))
    })
}

/// Python's `'%s' % x` for the few uses in guide code.
pub fn percent_format(fmt: &str, arg: &Value) -> Result<Value, ragtag_engine::Exception> {
    python::format::percent_format(fmt, arg)
}

#[cfg(test)]
mod module_names_tests {
    use super::{module_attr, module_names, python};

    /// Every name a standard module lists among its constants is one it gives back, and
    /// every module's listed names are public and reachable.
    #[test]
    fn listed_names_are_the_modules_own() {
        for module in python::STDLIB_MODULES
            .iter()
            .chain(&["math", "sys", "tf", "np"])
        {
            for name in python::constant_names(module) {
                assert!(
                    module_attr(module, name).is_some(),
                    "{module}.{name} is listed but not found"
                );
            }
            let names = module_names(module);
            assert!(!names.is_empty(), "{module} lists no names");
            assert!(names.iter().all(|n| !n.starts_with('_')));
        }
        let math = module_names("math");
        assert!(["pi", "sqrt", "floor", "inf"]
            .iter()
            .all(|n| math.iter().any(|m| m == n)));
    }
}
