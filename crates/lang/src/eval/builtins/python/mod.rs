//! Python's own builtins that guide code uses: print, len, range, str.format, …
//!
//! The table is one list (every entry sees NumPy arrays as themselves, see `Args::bind`);
//! the implementations live beside it by concern.

mod bigints;
pub mod builtin_bases;
mod bytearray_methods;
mod bytes;
mod bytes_methods;
pub mod chainmap;
mod codecs;
pub mod collections;
pub mod containers;
mod copy;
pub mod csv_mod;
mod dataclass_functions;
mod dataclass_methods;
pub mod dataclasses;
mod deque;
pub mod dict_bases;
pub mod exception_args;
pub mod exception_attrs;
mod exec;
mod file_write;
mod files;
pub mod format;
mod functools;
mod functools_more;
mod higher;
pub mod identity;
mod ints;
pub mod io_mod;
mod iterables;
pub mod iterators;
mod itertools;
pub mod json;
mod json_classes;
mod json_error;
mod json_files;
mod lru;
mod modnames;
mod namedtuple;
mod number_methods;
mod numbers;
pub mod objects;
mod operator_fns;
pub mod os_walk;
pub mod osmod;
mod protocols;
mod pymath;
mod pymath_gamma;
mod pymath_ints;
mod random;
mod random_dists;
mod random_instances;
mod random_state;
mod ranges;
mod re_check;
mod re_match;
pub mod re_mod;
mod re_syntax;
mod search;
mod sets;
pub mod slices;
pub mod stdmisc;
mod stdtime;
mod str_case;
mod str_methods;
mod str_split;
mod str_tables;
pub mod string_template;
pub mod sysmod;
mod text;
mod total_ordering;
pub mod typing;
pub mod typing_classes;
pub mod union_type;
pub mod user_collections;
pub mod value_bases;
mod warnings;

use self::bigints::int;
use self::higher::{callable, max, min, sorted};
use self::ints::{bin, divmod, hex, oct, pow, round};
use self::iterables::dict;
use self::iterators::{all, any, enumerate, filter, map, reversed, sum, zip};
use self::numbers::{bool_, float, math1, math_int, math_log, num_arg};
use self::text::{dict_items, dict_keys, dict_values, format, join};
use super::help::help;
pub use super::help::{help_index, help_text, lookup_help};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::{repr_of, str_of};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

pub use bigints::BIGINTS;
pub use builtin_bases::BUILTIN_BASE_METHODS;
pub use bytearray_methods::BYTEARRAY_METHODS;
pub use bytes::BYTES;
pub use bytes_methods::BYTES_METHODS;
pub use chainmap::CHAINMAP;
pub use collections::COLLECTIONS;
pub use containers::CONTAINERS;
pub use dataclass_functions::DATACLASS_FUNCTIONS;
pub use dataclass_methods::DATACLASS_METHODS;
pub use dataclasses::DATACLASSES;
pub use deque::DEQUE;
pub use dict_bases::DICT_BASE_METHODS;
pub use exec::EXEC;
pub use files::FILES;
pub use functools::FUNCTOOLS;
pub use functools_more::{is_dispatch_method, FUNCTOOLS_MORE};
pub use identity::IDENTITY;
pub use itertools::ITERTOOLS;
pub use lru::LRU;
pub use namedtuple::NAMEDTUPLE;
pub use operator_fns::OPERATOR_FNS;
pub use osmod::OS;
pub use pymath::MATH;
pub use pymath_gamma::MATH_GAMMA;
pub use pymath_ints::MATH_INTS;
pub use random_state::RANDOM_STATE;
pub use re_mod::RE;
pub use str_case::STR_CASE;
pub use str_methods::STR_METHODS;
pub use str_split::STR_SPLIT;
pub use total_ordering::TOTAL_ORDERING;
pub use typing::TYPING;
pub use typing_classes::TYPING_CLASSES;
pub use union_type::UNION_TYPE;
pub use user_collections::USER_COLLECTIONS;
pub use value_bases::VALUE_BASE_METHODS;
pub use warnings::WARNINGS;

pub use copy::COPY;
pub use json::JSON;
pub use json_classes::JSON_CLASSES;
pub use json_files::JSON_FILES;
pub use modnames::{constant_names, provided_modules, ROOT_MODULES, STDLIB_MODULES};
pub use number_methods::NUMBER_METHODS;
pub use objects::OBJECTS;
pub use protocols::PROTOCOLS;
pub use random::RANDOM;
pub use random_dists::RANDOM_DISTS;
pub use random_instances::RANDOM_INSTANCES;
pub use ranges::RANGES;
pub use sets::{FROZENSET_METHODS, SETS, SET_SHARED};
pub use slices::SLICES;
pub use stdmisc::STDMISC;
pub use stdtime::STDTIME;
pub use string_template::STRING_TEMPLATE;
pub use sysmod::SYSMOD;

/// Python builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("print", "(*values, sep=' ', end='\\n', file=None, flush=False)", print)
        .doc(
            "Writes the values' text forms (TensorFlow's, for tensors), separated by `sep`; \
             to standard error with `file=sys.stderr`.",
        )
        .examples(&["print(tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::function("len", "(obj)", len)
        .doc("The number of items: rows of a tensor, items of a list, characters of a str.")
        .examples(&["len(tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::function("ord", "(c)", ord)
        .doc("The Unicode code point of a one-character str.")
        .examples(&["ord('a')"]),
    Builtin::function("chr", "(i)", chr)
        .doc("The one-character str of a Unicode code point.")
        .examples(&["chr(97)"]),
    Builtin::function("abs", "(x)", abs)
        .doc("The absolute value, elementwise for tensors (`tf.math.abs`).")
        .examples(&["abs(tf.ragged.constant([[-1, 2], [-3]]))"]),
    Builtin::function("range", "(start, stop=None, step=None)", range)
        .doc(
            "Python's range: the ints from `start` (or 0) up to `stop`, stepping by `step`, \
             computed lazily (`len`, indexing, slicing and `in` cost nothing).",
        )
        .examples(&["range(3)", "range(0, 10, 2)[1:3]", "10**12 - 1 in range(10**12)"]),
    Builtin::function("list", "(iterable=None)", list)
        .doc("A Python list of the items (rows of a tensor become tensors).")
        .examples(&["list(range(3))"]),
    Builtin::function("tuple", "(iterable=None)", tuple)
        .doc("A Python tuple of the items.")
        .examples(&["tuple([1, 2])"]),
    Builtin::function("str", "(object='')", str_)
        .doc("The text form of a value: what `print` shows.")
        .examples(&["str(tf.constant([1, 2]))"]),
    Builtin::function("repr", "(object)", repr)
        .doc("The representation of a value, as Python's `repr`.")
        .examples(&["repr('a')"]),
    Builtin::function("int", "(x=0, base=None)", int)
        .doc("A Python int from a number, a numeric string or a scalar tensor.")
        .examples(&["int(2.9)", "int('ff', 16)", "int('0b_101', 0)", "int('1' * 25)"]),
    Builtin::function("float", "(x=0.0)", float)
        .doc("A Python float from a number, a numeric string or a scalar tensor.")
        .examples(&["float(3)"]),
    Builtin::function("bool", "(x=False)", bool_)
        .doc("Python truthiness of a value.")
        .examples(&["bool([])"]),
    Builtin::function("zip", "(*iterables, strict=False)", zip)
        .doc(
            "An iterator of tuples of the i-th items of each iterable, up to the shortest; \
             `strict=True` makes unequal lengths a ValueError.",
        )
        .examples(&["list(zip([1, 2], ['a', 'b']))"]),
    Builtin::function("enumerate", "(iterable, start=0)", enumerate)
        .doc("An iterator of pairs `(index, item)`, counting from `start`.")
        .examples(&["list(enumerate(['a', 'b']))"]),
    Builtin::function("sum", "(iterable, start=0)", sum)
        .doc("Python's sum of the items of any iterable, read one at a time (use `tf.reduce_sum` for tensors).")
        .examples(&["sum([1, 2, 3])"]),
    Builtin::function("min", "(*values, key=None, default=None)", min)
        .doc(
            "The smallest item (of one iterable, or of the arguments), compared by `key(item)` \
             when given; `default` for an empty iterable.",
        )
        .examples(&["min([3, 1, 2])", "min(['bb', 'a'], key=len)"]),
    Builtin::function("max", "(*values, key=None, default=None)", max)
        .doc(
            "The largest item (of one iterable, or of the arguments), compared by `key(item)` \
             when given; `default` for an empty iterable.",
        )
        .examples(&["max(3, 1, 2)", "max([], default=0)"]),
    Builtin::function("sorted", "(iterable, /, *, key=None, reverse=False)", sorted)
        .doc("The items in a new list, sorted ascending by `key(item)` (stable); `reverse=True` for descending.")
        .examples(&["sorted([3, 1, 2])", "sorted(['bb', 'a', 'ccc'], key=len, reverse=True)"]),
    Builtin::function("map", "(function, *iterables)", map)
        .doc("An iterator of `function` applied to the items of the iterables in step.")
        .examples(&["list(map(abs, [-1, 2, -3]))"]),
    Builtin::function("filter", "(function, iterable)", filter)
        .doc("An iterator of the items for which `function(item)` is true (`None`: the true items).")
        .examples(&["list(filter(lambda x: x > 1, [1, 2, 3]))"]),
    Builtin::function("reversed", "(sequence)", reversed)
        .doc("An iterator of the items in reverse order.")
        .examples(&["list(reversed([1, 2, 3]))"]),
    Builtin::function("any", "(iterable)", any)
        .doc("True when some item is true.")
        .examples(&["any([0, 1])"]),
    Builtin::function("all", "(iterable)", all)
        .doc("True when every item is true (and for no items).")
        .examples(&["all([1, 2])"]),
    Builtin::function("callable", "(obj)", callable)
        .doc("Whether the value can be called: functions, builtins, classes.")
        .examples(&["callable(len)"]),
    Builtin::function("round", "(number, ndigits=None)", round)
        .doc("Python's round: ties to even; an int without `ndigits`, else the type of `number`.")
        .examples(&["round(2.5)", "round(2.675, 2)"]),
    Builtin::function("divmod", "(a, b)", divmod)
        .doc("The pair `(a // b, a % b)`.")
        .examples(&["divmod(7, -2)"]),
    Builtin::function("pow", "(base, exp, mod=None)", pow)
        .doc("`base ** exp`, or with `mod` the modular power of ints (a negative `exp` inverts).")
        .examples(&["pow(2, 10)", "pow(3, -1, 7)"]),
    Builtin::function("hex", "(x)", hex)
        .doc("An int in hexadecimal, `0x` first.")
        .examples(&["hex(255)"]),
    Builtin::function("oct", "(x)", oct)
        .doc("An int in octal, `0o` first.")
        .examples(&["oct(8)"]),
    Builtin::function("bin", "(x)", bin)
        .doc("An int in binary, `0b` first.")
        .examples(&["bin(-5)"]),
    Builtin::function("dict", "(pairs=None, **kwargs)", dict)
        .doc("A dict from `(key, value)` pairs.")
        .examples(&["dict([('a', 1)])"]),
    Builtin::function("type", "(object, bases=None, dict=None)", type_)
        .doc("The type object of a value: `type(3) is int`, `type(x).__name__`. With three arguments, `type(name, bases, dict)` makes a class, as a `class` statement does.")
        .examples(&["type(tf.ragged.constant([[1], []]))", "P = type('P', (), {'x': 1, 'double': lambda self: self.x * 2})\nP().double()"]),
    Builtin::function("isinstance", "(obj, classinfo)", isinstance)
        .doc("Whether `obj` is a `classinfo` (compared by type name: `tf.RaggedTensor`, `int` …).")
        .examples(&["isinstance(tf.ragged.constant([[1], []]), tf.RaggedTensor)"]),
    Builtin::function("help", "(obj=None)", help)
        .doc("Shows a builtin's signature, meaning and examples; with no argument, lists them all.")
        .examples(&["help(tf.ragged.constant)"]),
    Builtin::function("math.sqrt", "(x)", |_, a| math1(a, f64::sqrt))
        .doc("Python's math.sqrt: the square root of a number, as a Python float (use tf.math.sqrt for tensors).")
        .examples(&["math.sqrt(4)"]),
    Builtin::function("math.exp", "(x)", |_, a| math1(a, f64::exp))
        .doc("Python's math.exp of a number (use tf.math.exp for tensors).")
        .examples(&["math.exp(1)"]),
    Builtin::function("math.log", "(x, base=None)", math_log)
        .doc("Python's math.log: the natural logarithm, or the logarithm in `base` (use tf.math.log for tensors).")
        .examples(&["math.log(8, 2)"]),
    Builtin::function("math.floor", "(x)", |_, a| math_int(a, f64::floor))
        .doc("Python's math.floor: the largest int not above x.")
        .examples(&["math.floor(2.5)"]),
    Builtin::function("math.ceil", "(x)", |_, a| math_int(a, f64::ceil))
        .doc("Python's math.ceil: the smallest int not below x.")
        .examples(&["math.ceil(2.5)"]),
    Builtin::function("math.isnan", "(x)", |_, a| Ok(Value::Bool(num_arg(a)?.is_nan())))
        .doc("Python's math.isnan.")
        .examples(&["math.isnan(float('nan'))"]),
    Builtin::method("str.format", "(self, *args, **kwargs)", format)
        .doc(
            "Python's str.format: `{}`, `{0}`, `{name}`, `{0[1]}` and `{0.attr}` fields with \
             `!r`/`!s`/`!a` and format specs (`{:>8.2f}`, `{:,}`, nested `{:{}}`).",
        )
        .examples(&["'{1} and {0}'.format('spam', 'eggs')", "'{:>8.2f}|{x:#x}'.format(3.14159, x=255)"]),
    Builtin::function("format", "(value, format_spec='')", format_builtin)
        .doc("Python's format(value, spec): the format-spec mini-language (`'>8'`, `'.2f'`, `','`, `'#x'`, `'.1%'` …).")
        .examples(&["format(1234567.891, ',.2f')", "format(255, '#010b')"]),
    Builtin::function("ascii", "(object)", ascii)
        .doc("Python's ascii: repr with non-ASCII characters escaped.")
        .examples(&["ascii('héllo')"]),
    Builtin::method("str.join", "(self, iterable)", join)
        .doc("The items (strings) joined with this string between them.")
        .examples(&["'+'.join(['a', 'b'])"]),
    Builtin::method("dict.keys", "(self)", dict_keys)
        .doc("The keys, in insertion order.")
        .examples(&["{'a': 1}.keys()"]),
    Builtin::method("dict.values", "(self)", dict_values)
        .doc("The values, in insertion order.")
        .examples(&["{'a': 1}.values()"]),
    Builtin::method("dict.items", "(self)", dict_items)
        .doc("The `(key, value)` pairs, in insertion order.")
        .examples(&["{'a': 1}.items()"]),
];

fn print(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = a.opt_str("sep")?.unwrap_or_else(|| " ".into());
    let end = a.opt_str("end")?.unwrap_or_else(|| "\n".into());
    for (v, s) in a.rest() {
        it.prepare_shown(v, *s)?;
    }
    let parts: Vec<String> = a.rest().iter().map(|(v, _)| str_of(v)).collect();
    let text = format!("{}{}", parts.join(&sep), end);
    match a.get("file") {
        Some(f) if super::notebook::is_stderr(f) => it.sink().print_stderr(&text),
        None | Some(Value::None) => it.print(&text),
        Some(Value::Opaque(o)) if &**o == "<sys.stdout>" => it.print(&text),
        // Any other file is an object with a `write` method (an open file, a user's
        // class), called as CPython's print calls it: each value, separator and the end.
        Some(f) => {
            let span = a.span("file");
            let write = it.attribute(f.clone(), "write", span)?;
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    it.call_values(&write, vec![Value::str(&sep)], span)?;
                }
                it.call_values(&write, vec![Value::str(part)], span)?;
            }
            it.call_values(&write, vec![Value::str(&end)], span)?;
        }
    }
    Ok(Value::None)
}

fn ord(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("c") {
        Value::Str(s) if s.chars().count() == 1 => {
            Ok(Value::Int(s.chars().next().map_or(0, |c| c as i64)))
        }
        Value::Str(s) => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "ord() expected a character, but string of length {} found",
                s.chars().count()
            ),
        )
        .at(a.span("c"))),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "ord() expected string of length 1, but {} found",
                other.type_name()
            ),
        )
        .at(a.span("c"))),
    }
}

fn chr(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = a.int("i")?;
    u32::try_from(i)
        .ok()
        .and_then(char::from_u32)
        .map(|c| Value::str(c.to_string()))
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::ValueError,
                format!("chr() arg not in range(0x110000): {i}"),
            )
            .at(a.span("i"))
        })
}

fn len(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("obj");
    let n = match v {
        Value::Instance(_) => return it.len_of(v, a.span("obj")).map(Value::Int),
        Value::Str(s) => s.chars().count(),
        Value::Bytes(b) => b.data.len(),
        Value::ByteArray(b) => b.len(),
        Value::Range(r) => return r.py_len().map(Value::Int).map_err(|e| a.err_at("obj", e)),
        Value::List(x) => x.len(),
        Value::Tuple(x) => x.len(),
        Value::Dict(x) => x.len(),
        Value::Deque(x) => x.len(),
        Value::View(x) => x.len(),
        Value::Set(x) => x.len(),
        Value::Shape(s) => s.len(),
        Value::Lod(l) => l.data().shape().first().copied().unwrap_or(0),
        Value::NdArray(n) => match n.shape().first() {
            Some(&d) => d,
            None => {
                return Err(
                    Error::new(ExceptionClass::TypeError, "len() of unsized object")
                        .at(a.span("obj")),
                )
            }
        },
        Value::Array(_) => {
            let arr = a.array("obj", None)?;
            if arr.rank() == 0 {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "len() of unsized object (a scalar tensor)",
                )
                .at(a.span("obj")));
            }
            arr.nrows()
        }
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("object of type '{}' has no len()", other.type_name()),
            )
            .at(a.span("obj")))
        }
    };
    Ok(Value::Int(n as i64))
}

fn abs(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("x");
    if let Some(r) = bigints::abs_int(v) {
        return Ok(r);
    }
    Ok(match v {
        Value::Int(i) => Value::Int(i.wrapping_abs()),
        Value::Float(f) => Value::Float(f.abs()),
        Value::Bool(b) => Value::Int(*b as i64),
        _ => crate::eval::operators::map_unary(ragtag_engine::ops::kernels::UnaryOp::Abs, v)
            .map_err(|e| a.err_at("x", e))?,
    })
}

fn range(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let first = a.int("start")?;
    let (start, stop) = match a.opt_int("stop")? {
        Some(s) => (first, s),
        None => (0, first),
    };
    let step = a.opt_int("step")?.unwrap_or(1);
    if step == 0 {
        return Err(
            Error::new(ExceptionClass::ValueError, "range() arg 3 must not be zero")
                .at(a.span("step")),
        );
    }
    Ok(Value::Range(std::sync::Arc::new(
        crate::value::range::PyRange::new(start, stop, step),
    )))
}

fn items_of(a: &Args, name: &str) -> Result<Vec<Value>> {
    match a.get(name) {
        None => Ok(Vec::new()),
        Some(v) => iterate(v).map_err(|e| a.err_at(name, e)),
    }
}

/// The items of argument `name`, an instance of a user class included.
fn items_in(it: &mut Interp<'_>, a: &Args, name: &str) -> Result<Vec<Value>> {
    match a.get(name) {
        Some(v @ Value::Instance(_)) => it.iterate_value(v, a.span(name)),
        _ => items_of(a, name),
    }
}

fn list(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(items_in(it, a, "iterable")?))
}

fn tuple(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tuple(items_in(it, a, "iterable")?))
}

fn str_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if a.given("object").is_none() {
        return Ok(Value::str(""));
    }
    it.prepare_shown(a.value("object"), a.span("object"))?;
    Ok(Value::str(str_of(a.value("object"))))
}

fn format_builtin(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    it.prepare_shown(a.value("value"), a.span("value"))?;
    let spec = match a.value("format_spec") {
        Value::Str(s) => s.to_string(),
        // Not given.
        Value::None if a.get("format_spec").is_none() => String::new(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("format() argument 2 must be str, not {}", other.type_name()),
            )
            .at(a.span("format_spec")))
        }
    };
    if let Some(text) = it.format_instance(a.value("value"), &spec, a.span("value"))? {
        return Ok(Value::str(text));
    }
    let text = format::format_value(a.value("value"), &spec).map_err(|e| a.err_at("value", e))?;
    Ok(Value::str(text))
}

fn ascii(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(format::ascii_of(a.value("object"))))
}

fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    it.prepare_shown(a.value("object"), a.span("object"))?;
    Ok(Value::str(repr_of(a.value("object"))))
}

fn type_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match (a.given("bases"), a.given("dict")) {
        (None, None) => Ok(objects::type_of(a.value("object"))),
        (Some(bases), Some(dict)) => it.type_new(a.value("object"), bases, dict, a.call),
        _ => Err(Error::new(ExceptionClass::TypeError, "type() takes 1 or 3 arguments").at(a.call)),
    }
}

fn isinstance(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let classes = objects::classes_of(a.value("classinfo"));
    // CPython refuses a subscripted type when it reaches it: the classes before it are
    // checked first (`isinstance(1, int | list[int])` is True).
    if let Some(at) = classes.iter().position(typing::is_alias) {
        if instance_of_any(a, classes[..at].to_vec()) {
            return Ok(Value::Bool(true));
        }
        // `typing.Union[int, list[int]]` checks its members with `issubclass`.
        let in_typing_union = objects::classes_of_shallow(a.value("classinfo"))
            .iter()
            .any(|c| matches!(c, Value::Instance(i) if i.class.name == "_UnionGenericAlias"));
        let msg = match &classes[at] {
            Value::Instance(i) if i.class.module == "types" && in_typing_union => {
                "issubclass() argument 2 cannot be a parameterized generic"
            }
            Value::Instance(i) if i.class.module == "types" => {
                "isinstance() argument 2 cannot be a parameterized generic"
            }
            _ => "Subscripted generics cannot be used with class and instance checks",
        };
        return Err(Error::new(ExceptionClass::TypeError, msg).at(a.span("classinfo")));
    }
    Ok(Value::Bool(instance_of_any(a, classes)))
}

/// Whether `a`'s object is an instance of any of `classes` (`typing.List` checks as `list`).
fn instance_of_any(a: &Args, classes: Vec<Value>) -> bool {
    let obj = a.value("obj").type_name();
    let classes: Vec<Value> = classes.into_iter().map(typing::plain_origin).collect();
    let name_of = |v: &Value| -> String {
        match v {
            Value::Builtin(b) => b.short_name().to_string(),
            Value::Module(m) => m.rsplit('.').next().unwrap_or(m).to_string(),
            Value::ErrorClass(c) => c.name().to_string(),
            _ => String::new(),
        }
    };
    let mut user = false;
    for c in &classes {
        match objects::is_instance_of(a.value("obj"), c) {
            Some(true) => return true,
            Some(false) => user = true,
            None => {}
        }
    }
    if user && matches!(a.value("obj"), Value::Instance(_)) {
        return false;
    }
    classes.iter().any(|c| {
        if let (Value::Exception(e), Value::ErrorClass(k)) = (a.value("obj"), c) {
            return k.catches(e.class);
        }
        let n = name_of(c);
        // bool is a subclass of int; Counter, defaultdict and OrderedDict of dict.
        n == obj
            || (n == "int" && obj == "bool")
            || (n == "dict" && matches!(a.value("obj"), Value::Dict(_)))
    })
}
