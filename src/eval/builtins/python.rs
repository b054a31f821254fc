//! Python's own builtins that guide code uses: print, len, range, str.format, …

use super::{registry, Builtin, Kind};
use crate::diagnostic::{Error, Result};
use crate::engine::{budget, Array, ErrorClass};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::{repr_of, str_of};
use crate::value::Value;

/// Python builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("print", "(*values, sep=' ', end='\\n')", print)
        .doc("Writes the values' text forms (TensorFlow's, for tensors), separated by `sep`.")
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
        .doc("A Python list of ints from `start` (or 0) up to `stop`, stepping by `step`.")
        .examples(&["range(3)"]),
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
    Builtin::function("int", "(x=0)", int)
        .doc("A Python int from a number, a numeric string or a scalar tensor.")
        .examples(&["int('3')"]),
    Builtin::function("float", "(x=0.0)", float)
        .doc("A Python float from a number, a numeric string or a scalar tensor.")
        .examples(&["float(3)"]),
    Builtin::function("bool", "(x=False)", bool_)
        .doc("Python truthiness of a value.")
        .examples(&["bool([])"]),
    Builtin::function("zip", "(*iterables)", zip)
        .doc("Tuples of the i-th items of each iterable, up to the shortest.")
        .examples(&["zip([1, 2], ['a', 'b'])"]),
    Builtin::function("enumerate", "(iterable, start=0)", enumerate)
        .doc("Pairs `(index, item)`.")
        .examples(&["enumerate(['a', 'b'])"]),
    Builtin::function("sum", "(iterable, start=0)", sum)
        .doc("Python's sum of the items (use `tf.reduce_sum` for tensors).")
        .examples(&["sum([1, 2, 3])"]),
    Builtin::function("min", "(*values)", min)
        .doc("The smallest item.")
        .examples(&["min([3, 1, 2])"]),
    Builtin::function("max", "(*values)", max)
        .doc("The largest item.")
        .examples(&["max(3, 1, 2)"]),
    Builtin::function("sorted", "(iterable)", sorted)
        .doc("The items sorted ascending.")
        .examples(&["sorted([3, 1, 2])"]),
    Builtin::function("dict", "(pairs=None)", dict)
        .doc("A dict from `(key, value)` pairs.")
        .examples(&["dict([('a', 1)])"]),
    Builtin::function("type", "(object)", type_)
        .doc("The name of a value's type.")
        .examples(&["type(tf.ragged.constant([[1], []]))"]),
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
    Builtin::method("str.format", "(self, *args)", format)
        .doc("Replaces each `{}` with the next argument's text form.")
        .examples(&["'{} rows'.format(3)"]),
    Builtin::method("str.join", "(self, iterable)", join)
        .doc("The items (strings) joined with this string between them.")
        .examples(&["'+'.join(['a', 'b'])"]),
    Builtin::method("str.split", "(self, sep=None)", split)
        .doc("The words of the string (split on whitespace, or on `sep`).")
        .examples(&["'a b'.split()"]),
    Builtin::method("str.upper", "(self)", upper)
        .doc("The string in upper case.")
        .examples(&["'ab'.upper()"]),
    Builtin::method("str.lower", "(self)", lower)
        .doc("The string in lower case.")
        .examples(&["'AB'.lower()"]),
    Builtin::method("str.strip", "(self)", strip)
        .doc("The string without leading and trailing whitespace.")
        .examples(&["' a '.strip()"]),
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
    let text: Vec<String> = a.rest().iter().map(|(v, _)| str_of(v)).collect();
    it.print(&format!("{}{}", text.join(&sep), end));
    Ok(Value::None)
}

fn ord(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("c") {
        Value::Str(s) if s.chars().count() == 1 => {
            Ok(Value::Int(s.chars().next().map_or(0, |c| c as i64)))
        }
        Value::Str(s) => Err(Error::new(
            ErrorClass::TypeError,
            format!(
                "ord() expected a character, but string of length {} found",
                s.chars().count()
            ),
        )
        .at(a.span("c"))),
        other => Err(Error::new(
            ErrorClass::TypeError,
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
                ErrorClass::ValueError,
                format!("chr() arg not in range(0x110000): {i}"),
            )
            .at(a.span("i"))
        })
}

fn len(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("obj");
    let n = match v {
        Value::Str(s) => s.chars().count(),
        Value::List(x) | Value::Tuple(x) => x.len(),
        Value::Dict(x) => x.len(),
        Value::Shape(s) => s.len(),
        Value::Lod(l) => l.data().shape().first().copied().unwrap_or(0),
        Value::Literal(_) => iterate(v).map_err(|e| a.err_at("obj", e))?.len(),
        Value::NdArray(n) => match n.shape().first() {
            Some(&d) => d,
            None => {
                return Err(
                    Error::new(ErrorClass::TypeError, "len() of unsized object").at(a.span("obj"))
                )
            }
        },
        Value::Array(_) => {
            let arr = a.array("obj", None)?;
            if arr.rank() == 0 {
                return Err(Error::new(
                    ErrorClass::TypeError,
                    "len() of unsized object (a scalar tensor)",
                )
                .at(a.span("obj")));
            }
            arr.nrows()
        }
        other => {
            return Err(Error::new(
                ErrorClass::TypeError,
                format!("object of type '{}' has no len()", other.type_name()),
            )
            .at(a.span("obj")))
        }
    };
    Ok(Value::Int(n as i64))
}

fn abs(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("x");
    Ok(match v {
        Value::Int(i) => Value::Int(i.wrapping_abs()),
        Value::Float(f) => Value::Float(f.abs()),
        Value::Bool(b) => Value::Int(*b as i64),
        _ => crate::eval::operators::map_unary(crate::engine::ops::kernels::UnaryOp::Abs, v)
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
            Error::new(ErrorClass::ValueError, "range() arg 3 must not be zero").at(a.span("step")),
        );
    }
    // Count in i128 so that ranges near the ends of i64 cannot overflow.
    let (start, stop, step) = (start as i128, stop as i128, step as i128);
    let span = if step > 0 { stop - start } else { start - stop };
    let count = if span <= 0 {
        0
    } else {
        (span + step.abs() - 1) / step.abs()
    };
    let mut out: Vec<Value> =
        budget::vec("range()", count as usize).map_err(|e| Error::from(e).at(a.call))?;
    out.extend((0..count).map(|k| Value::Int((start + k * step) as i64)));
    Ok(Value::list(out))
}

fn items_of(a: &Args, name: &str) -> Result<Vec<Value>> {
    match a.get(name) {
        None => Ok(Vec::new()),
        Some(v) => iterate(v).map_err(|e| a.err_at(name, e)),
    }
}

fn list(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(items_of(a, "iterable")?))
}

fn tuple(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tuple(items_of(a, "iterable")?))
}

fn str_(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(str_of(a.value("object"))))
}

fn repr(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(repr_of(a.value("object"))))
}

fn int(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("x");
    Ok(Value::Int(match v {
        Value::Str(s) => s.trim().parse::<i64>().map_err(|_| {
            Error::new(
                ErrorClass::ValueError,
                format!("invalid literal for int(): '{s}'"),
            )
            .at(a.span("x"))
        })?,
        Value::Float(f) => float_to_int(*f).map_err(|e| a.err_at("x", e))?,
        _ => match convert::to_f64(v) {
            Ok(f) => float_to_int(f).map_err(|e| a.err_at("x", e))?,
            Err(e) => return Err(a.err_at("x", e)),
        },
    }))
}

/// Python's `int(float)`, failing where the float has no int64 value.
fn float_to_int(f: f64) -> std::result::Result<i64, crate::engine::EngineError> {
    let t = f.trunc();
    // 2**63 is exactly representable; every float below it and at least -2**63 fits.
    if t.is_nan() {
        Err(crate::engine::EngineError::new(
            ErrorClass::ValueError,
            "cannot convert float NaN to integer",
        ))
    } else if !(i64::MIN as f64..-(i64::MIN as f64)).contains(&t) {
        Err(crate::engine::EngineError::new(
            ErrorClass::OverflowError,
            format!(
                "cannot convert float {} to a 64-bit integer",
                crate::render::tf_text::py_float(f)
            ),
        ))
    } else {
        Ok(t as i64)
    }
}

fn float(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("x");
    Ok(Value::Float(match v {
        Value::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "nan" => f64::NAN,
            "inf" | "infinity" => f64::INFINITY,
            "-inf" | "-infinity" => f64::NEG_INFINITY,
            t => t.parse::<f64>().map_err(|_| {
                Error::new(
                    ErrorClass::ValueError,
                    format!("could not convert string to float: '{s}'"),
                )
                .at(a.span("x"))
            })?,
        },
        _ => convert::to_f64(v).map_err(|e| a.err_at("x", e))?,
    }))
}

fn bool_(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(
        a.value("x").truthy().map_err(|e| a.err_at("x", e))?,
    ))
}

fn zip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lists: Vec<Vec<Value>> = a
        .rest()
        .iter()
        .map(|(v, s)| iterate(v).map_err(|e| Error::from(e).at(*s)))
        .collect::<Result<_>>()?;
    let n = lists.iter().map(|l| l.len()).min().unwrap_or(0);
    Ok(Value::list(
        (0..n)
            .map(|i| Value::tuple(lists.iter().map(|l| l[i].clone()).collect()))
            .collect(),
    ))
}

fn enumerate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let start = a.opt_int("start")?.unwrap_or(0);
    Ok(Value::list(
        items_of(a, "iterable")?
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::tuple(vec![Value::Int(start + i as i64), v]))
            .collect(),
    ))
}

fn sum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut acc = a.get("start").cloned().unwrap_or(Value::Int(0));
    for v in items_of(a, "iterable")? {
        acc = crate::eval::operators::binary(crate::syntax::ast::BinOp::Add, &acc, &v)
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(acc)
}

fn extreme(a: &Args, want_max: bool) -> Result<Value> {
    let items: Vec<Value> = if a.rest().len() == 1 {
        iterate(&a.rest()[0].0).map_err(|e| Error::from(e).at(a.rest()[0].1))?
    } else {
        a.rest().iter().map(|(v, _)| v.clone()).collect()
    };
    let mut best: Option<Value> = None;
    for v in items {
        best = Some(match best {
            None => v,
            Some(b) => {
                let op = if want_max {
                    crate::syntax::ast::BinOp::Gt
                } else {
                    crate::syntax::ast::BinOp::Lt
                };
                let better = crate::eval::operators::binary(op, &v, &b)
                    .and_then(|r| r.truthy())
                    .map_err(|e| Error::from(e).at(a.call))?;
                if better {
                    v
                } else {
                    b
                }
            }
        });
    }
    best.ok_or_else(|| Error::new(ErrorClass::ValueError, "arg is an empty sequence").at(a.call))
}

fn min(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, false)
}

fn max(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, true)
}

fn sorted(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut items = items_of(a, "iterable")?;
    let mut err = None;
    items.sort_by(|x, y| {
        match crate::eval::operators::binary(crate::syntax::ast::BinOp::Lt, x, y)
            .and_then(|r| r.truthy())
        {
            Ok(true) => std::cmp::Ordering::Less,
            Ok(false) => match crate::eval::operators::binary(crate::syntax::ast::BinOp::Lt, y, x)
                .and_then(|r| r.truthy())
            {
                Ok(true) => std::cmp::Ordering::Greater,
                _ => std::cmp::Ordering::Equal,
            },
            Err(e) => {
                err = Some(e);
                std::cmp::Ordering::Equal
            }
        }
    });
    if let Some(e) = err {
        return Err(a.err_at("iterable", e));
    }
    Ok(Value::list(items))
}

fn dict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut out: Vec<(Value, Value)> = Vec::new();
    for item in items_of(a, "pairs")? {
        let kv = iterate(&item).map_err(|e| a.err_at("pairs", e))?;
        if kv.len() != 2 {
            return Err(Error::new(
                ErrorClass::ValueError,
                "dictionary update sequence element has the wrong length",
            )
            .at(a.span("pairs")));
        }
        if let Some(slot) = out
            .iter_mut()
            .find(|(k, _)| crate::eval::operators::python_eq(k, &kv[0]))
        {
            slot.1 = kv[1].clone();
        } else {
            out.push((kv[0].clone(), kv[1].clone()));
        }
    }
    Ok(Value::Dict(std::sync::Arc::new(out)))
}

fn type_(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Exception(e) = a.value("object") {
        return Ok(Value::ErrorClass(e.class));
    }
    Ok(Value::str(format!(
        "<class '{}'>",
        a.value("object").type_name()
    )))
}

fn isinstance(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let obj = a.value("obj").type_name();
    let classes = match a.value("classinfo") {
        Value::Tuple(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    let name_of = |v: &Value| -> String {
        match v {
            Value::Builtin(b) => b.short_name().to_string(),
            Value::Module(m) => m.rsplit('.').next().unwrap_or(m).to_string(),
            Value::ErrorClass(c) => c.name().to_string(),
            _ => String::new(),
        }
    };
    Ok(Value::Bool(classes.iter().any(|c| {
        if let (Value::Exception(e), Value::ErrorClass(k)) = (a.value("obj"), c) {
            return k.catches(e.class);
        }
        let n = name_of(c);
        n == obj || (n == "Tensor" && obj == "Tensor")
    })))
}

fn help(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let text = match a.get("obj") {
        None => help_index(),
        Some(Value::Builtin(b)) | Some(Value::Method(_, b)) => help_text(b),
        Some(Value::Str(s)) => match lookup_help(s) {
            Some(b) => help_text(b),
            None => {
                return Err(Error::new(
                    crate::eval::exceptions::ExceptionClass::NameError,
                    format!("no builtin named '{s}'"),
                )
                .at(a.span("obj")))
            }
        },
        Some(v) => value_help(v),
    };
    it.print(&text);
    Ok(Value::None)
}

/// What `help(value)` says about a value that is not a builtin: its kind and, for values
/// of a class, the methods and attributes it has.
fn value_help(v: &Value) -> String {
    let name = v.type_name();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    let mut out = format!("{article} {name} value; `help(name)` describes a builtin\n");
    if let Some(class) = super::class_of(v) {
        let prefix = format!("{class}.");
        let members: Vec<&str> = registry()
            .all
            .iter()
            .filter(|b| b.kind != Kind::Function && b.name.starts_with(&prefix))
            .map(|b| b.short_name())
            .collect();
        if !members.is_empty() {
            out.push_str(&format!("{class} members: {}\n", members.join(", ")));
        }
    }
    out
}

/// Finds a builtin by any spelling (`constant`, `tf.ragged.constant`, `row_lengths`).
pub fn lookup_help(name: &str) -> Option<&'static Builtin> {
    let r = registry();
    r.get(name)
        .or_else(|| r.resolve(name))
        .or_else(|| r.all.iter().copied().find(|b| b.short_name() == name))
}

/// The help text of one builtin: signature, meaning, examples.
pub fn help_text(b: &Builtin) -> String {
    let mut out = format!("{}\n\n{}\n", b.signature(), b.doc);
    if !b.aliases.is_empty() {
        out.push_str(&format!("\nAlso: {}\n", b.aliases.join(", ")));
    }
    if !b.examples.is_empty() {
        out.push_str("\nExamples:\n");
        for e in b.examples {
            out.push_str(&format!("  >>> {e}\n"));
        }
    }
    out
}

/// The list of builtins grouped by module.
pub fn help_index() -> String {
    let mut groups: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for b in &registry().all {
        if b.kind != Kind::Function && !b.name.starts_with("tf.RaggedTensor") {
            continue;
        }
        let (module, name) = b.name.rsplit_once('.').unwrap_or(("python", b.name));
        groups.entry(module.to_string()).or_default().push(name);
    }
    let mut out = String::from("Builtins by module (help(name) for one):\n");
    for (m, names) in groups {
        out.push_str(&format!("  {m}: {}\n", names.join(", ")));
    }
    out
}

fn self_str(a: &Args) -> String {
    match a.value("self") {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

fn format(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fmt = self_str(a);
    let mut out = String::new();
    let mut args = a.rest().iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut spec = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    spec.push(d);
                }
                let (v, _) = args.next().ok_or_else(|| {
                    Error::new(
                        ErrorClass::IndexError,
                        "Replacement index out of range for positional args tuple",
                    )
                    .at(a.call)
                })?;
                let piece = format_one(v, &spec).map_err(|e| a.err_at("self", e))?;
                budget::check_bytes("str.format", out.len() as u128 + piece.len() as u128)
                    .map_err(|e| a.err_at("self", e))?;
                out.push_str(&piece);
            }
            c => out.push(c),
        }
    }
    Ok(Value::str(out))
}

/// One `{}` replacement with an optional `:spec` (`.2f`, `d`, `>5`). Widths and
/// precisions of any size are written by hand (Rust's formatter refuses those past 65535),
/// within the memory budget.
fn format_one(v: &Value, spec: &str) -> std::result::Result<String, crate::engine::EngineError> {
    let spec = spec.split_once(':').map_or("", |(_, s)| s);
    if let Some(prec) = spec.strip_prefix('.').and_then(|p| p.strip_suffix('f')) {
        if let (Ok(p), Ok(f)) = (prec.parse::<usize>(), convert::to_f64(v)) {
            // Up to 309 integer digits, a sign and a point, then the decimals.
            let mut out = budget::string("str.format", p.saturating_add(320))?;
            if f.is_finite() {
                crate::engine::ops::strings::write_fixed(&mut out, f, p);
            } else {
                out.push_str(&crate::render::tf_text::format_of(v));
            }
            return Ok(out);
        }
    }
    let text = crate::render::tf_text::format_of(v);
    // Alignment to a width: `>14`, `<8`, `^5` (fill is a space).
    let (align, width) = match spec.chars().next() {
        Some(c @ ('<' | '>' | '^')) => (c, &spec[1..]),
        _ => return Ok(text),
    };
    let Ok(width) = width.parse::<usize>() else {
        return Ok(text);
    };
    let pad = width.saturating_sub(text.chars().count());
    let (left, right) = match align {
        '<' => (0, pad),
        '>' => (pad, 0),
        _ => (pad / 2, pad - pad / 2),
    };
    let mut out = budget::string("str.format", text.len().saturating_add(pad))?;
    out.extend(std::iter::repeat_n(' ', left));
    out.push_str(&text);
    out.extend(std::iter::repeat_n(' ', right));
    Ok(out)
}

fn join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = self_str(a);
    let items = items_of(a, "iterable")?;
    let parts: Vec<String> = items.iter().map(str_of).collect();
    Ok(Value::str(parts.join(&sep)))
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = self_str(a);
    let parts: Vec<Value> = match a.opt_str("sep")? {
        None => s.split_whitespace().map(Value::str).collect(),
        Some(sep) => s.split(sep.as_str()).map(Value::str).collect(),
    };
    Ok(Value::list(parts))
}

fn upper(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).to_uppercase()))
}

fn lower(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).to_lowercase()))
}

fn strip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).trim()))
}

fn dict_of(a: &Args) -> Vec<(Value, Value)> {
    match a.value("self") {
        Value::Dict(d) => d.to_vec(),
        _ => Vec::new(),
    }
}

fn dict_keys(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a).into_iter().map(|(k, _)| k).collect(),
    ))
}

fn dict_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a).into_iter().map(|(_, v)| v).collect(),
    ))
}

fn dict_items(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a)
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect(),
    ))
}

#[allow(dead_code)]
fn _unused(_: &Array) {}

fn num_arg(a: &Args) -> Result<f64> {
    convert::to_f64(a.value("x")).map_err(|e| a.err_at("x", e))
}

fn math1(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    let x = num_arg(a)?;
    let y = f(x);
    if y.is_nan() && !x.is_nan() {
        return Err(Error::new(ErrorClass::ValueError, "math domain error").at(a.span("x")));
    }
    Ok(Value::Float(y))
}

fn math_int(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    if let Value::Int(i) = a.value("x") {
        return Ok(Value::Int(*i));
    }
    let y = f(num_arg(a)?);
    if !y.is_finite() {
        return Err(Error::new(
            ErrorClass::ValueError,
            "cannot convert an infinite or nan float to an int",
        )
        .at(a.span("x")));
    }
    Ok(Value::Int(y as i64))
}

fn math_log(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = num_arg(a)?;
    if x <= 0.0 {
        return Err(Error::new(ErrorClass::ValueError, "math domain error").at(a.span("x")));
    }
    match a.get("base") {
        None => Ok(Value::Float(x.ln())),
        Some(b) => {
            let b = convert::to_f64(b).map_err(|e| a.err_at("base", e))?;
            Ok(Value::Float(x.ln() / b.ln()))
        }
    }
}
