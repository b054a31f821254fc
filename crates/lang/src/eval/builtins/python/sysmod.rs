//! `sys`'s descriptions of the interpreter: `version_info` and `float_info` (named tuples
//! with CPython's reprs), `version`, `platform`, `byteorder`, `maxunicode`, `getsizeof`
//! with CPython 3.11's sizes on 64-bit Linux; `exit` and `setrecursionlimit`.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::class::{attr_set, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `sys.getsizeof`, `sys.exit` and `sys.setrecursionlimit`.
pub static SYSMOD: &[Builtin] = &[
    Builtin::function("sys.exit", "(status=None, /)", exit)
        .doc(
            "Raises SystemExit(status): `ragtag run` ends with exit status 0 for None, the \
                 int itself, or 1 after printing any other status to stderr; `finally` blocks \
                 run on the way out, and in the REPL or a notebook the session goes on.",
        )
        .examples(&[
            "import sys\ntry:\n    sys.exit(3)\nexcept SystemExit as e:\n    code = e.code\ncode",
        ]),
    Builtin::function("sys.setrecursionlimit", "(limit, /)", setrecursionlimit)
        .doc(
            "Sets how deep user function calls may nest before a RecursionError (for the \
                 whole process, as in CPython); very deep recursion still stops where the \
                 evaluation stack runs out.",
        )
        .examples(&["import sys\nsys.setrecursionlimit(1000)\nsys.getrecursionlimit()"]),
    Builtin::function("sys.getsizeof", "(object, default=None)", getsizeof)
        .doc(
            "The bytes CPython 3.11 (64-bit) uses for an int, float, bool, None, str, bytes, \
         tuple, list, dict, set or frozenset. A list is sized as a display of constants \
         (`[1, 2, 3]`: 88), a dict and a set as built by adding one key at a time.",
        )
        .examples(&[
            "import sys\nsys.getsizeof(2**100), sys.getsizeof('abc'), sys.getsizeof([1, 2, 3])",
        ]),
];

/// The interpreter this follows.
const VERSION: (i64, i64, i64) = (3, 11, 7);

/// `sys.version_info`, `sys.version` and `sys.float_info` (`None`: another name).
pub fn constant(path: &str) -> Option<Value> {
    let (major, minor, micro) = VERSION;
    match path {
        "sys.version" => Some(Value::str(format!(
            "{major}.{minor}.{micro} (main) [ragtag]"
        ))),
        "sys.version_info" => struct_seq(
            "sys.version_info",
            &[
                ("major", Value::Int(major)),
                ("minor", Value::Int(minor)),
                ("micro", Value::Int(micro)),
                ("releaselevel", Value::str("final")),
                ("serial", Value::Int(0)),
            ],
        ),
        "sys.platform" => Some(Value::str("linux")),
        "sys.byteorder" => Some(Value::str(if cfg!(target_endian = "little") {
            "little"
        } else {
            "big"
        })),
        "sys.maxunicode" => Some(Value::Int(0x10ffff)),
        "sys.float_info" => struct_seq(
            "sys.float_info",
            &[
                ("max", Value::Float(f64::MAX)),
                ("max_exp", Value::Int(f64::MAX_EXP as i64)),
                ("max_10_exp", Value::Int(f64::MAX_10_EXP as i64)),
                ("min", Value::Float(f64::MIN_POSITIVE)),
                ("min_exp", Value::Int(f64::MIN_EXP as i64)),
                ("min_10_exp", Value::Int(f64::MIN_10_EXP as i64)),
                ("dig", Value::Int(f64::DIGITS as i64)),
                ("mant_dig", Value::Int(f64::MANTISSA_DIGITS as i64)),
                ("epsilon", Value::Float(f64::EPSILON)),
                ("radix", Value::Int(f64::RADIX as i64)),
                ("rounds", Value::Int(1)),
            ],
        ),
        _ => None,
    }
}

/// A named tuple of class `name` (shown as `name(field=value, …)`), as CPython's
/// structure sequences are.
pub(super) fn struct_seq(name: &str, fields: &[(&str, Value)]) -> Option<Value> {
    let names: Vec<String> = fields.iter().map(|(n, _)| n.to_string()).collect();
    let Value::Class(c) = super::namedtuple::make_class(name, &names, Vec::new()).ok()? else {
        return None;
    };
    let i = Instance::new(c);
    for (n, v) in fields {
        attr_set(&i.attrs, n, v.clone());
    }
    Some(Value::Instance(i))
}

/// A str's size: CPython keeps it in the narrowest of 1, 2 or 4 bytes a character, with
/// a larger header when it is not ASCII.
fn str_size(s: &str) -> i64 {
    let n = s.chars().count() as i64;
    match s.chars().map(|c| c as u32).max().unwrap_or(0) {
        0..=0x7f => 49 + n,
        0x80..=0xff => 73 + n,
        0x100..=0xffff => 74 + 2 * n,
        _ => 76 + 4 * n,
    }
}

/// A dict's size after `n` keys were added one at a time (`str_keys`: the smaller
/// entries CPython keeps when every key is a str).
fn dict_size(n: usize, str_keys: bool) -> i64 {
    if n == 0 {
        return 64;
    }
    let mut size: usize = 8;
    while size * 2 / 3 < n {
        size *= 2;
    }
    let usable = size * 2 / 3;
    let index_bytes = match size {
        0..=128 => 1,
        129..=0xffff => 2,
        0x10000..=0xffff_ffff => 4,
        _ => 8,
    };
    let entry = if str_keys { 16 } else { 24 };
    (64 + 32 + size * index_bytes + usable * entry) as i64
}

/// A set's size after `n` items were added one at a time: eight slots inside the object,
/// then a table that grows to four times the items when three fifths are full.
fn set_size(n: usize) -> i64 {
    let (mut mask, mut fill) = (7usize, 0usize);
    for _ in 0..n {
        fill += 1;
        if fill * 5 >= mask * 3 {
            let want = if fill > 50_000 { fill * 2 } else { fill * 4 };
            let mut size = 8;
            while size <= want {
                size <<= 1;
            }
            mask = size - 1;
        }
    }
    if mask == 7 {
        216
    } else {
        216 + 16 * (mask as i64 + 1)
    }
}

/// The slots a list display of `n` constants allocates (an even number from three on).
fn list_slots(n: usize) -> i64 {
    if n <= 2 {
        n as i64
    } else {
        ((n + 1) & !1) as i64
    }
}

fn getsizeof(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("object");
    let size = match v {
        Value::Int(i) => {
            let bits = 64 - i.unsigned_abs().leading_zeros() as i64;
            24 + 4 * ((bits + 29) / 30).max(1)
        }
        Value::BigInt(b) => 24 + 4 * ((b.bits() as i64 + 29) / 30).max(1),
        Value::Bool(_) => 28,
        Value::Float(_) => 24,
        Value::None => 16,
        Value::Str(s) => str_size(s),
        Value::Bytes(b) => 33 + b.data.len() as i64,
        Value::Tuple(t) => 40 + 8 * t.len() as i64,
        Value::List(l) => 56 + 8 * list_slots(l.len()),
        Value::Dict(d) => {
            let str_keys = d.keys().iter().all(|k| matches!(k, Value::Str(_)));
            dict_size(d.len(), str_keys)
        }
        Value::Set(s) => set_size(s.len()),
        other => {
            if let Some(d) = a.given("default") {
                return Ok(d.clone());
            }
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "ragtag does not know CPython's size of a '{}' object",
                    other.type_name()
                ),
            )
            .at(a.span("object")));
        }
    };
    Ok(Value::Int(size))
}

/// `sys.exit(status)`: a SystemExit whose code is `status` (a tuple gives its items as the
/// arguments, as CPython's `SystemExit(*status)`).
fn exit(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let args = match a.value("status") {
        Value::None => Vec::new(),
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    let message = match args.as_slice() {
        [] => String::new(),
        [Value::Str(s)] => s.to_string(),
        [v] => crate::render::tf_text::str_of(v),
        _ => crate::render::tf_text::repr_of(&Value::tuple(args.clone())),
    };
    let e = super::exception_args::make(ExceptionClass::SystemExit, message, args);
    Err(Error::from(e).at(a.call))
}

fn setrecursionlimit(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = match a.value("limit") {
        Value::Int(n) => *n,
        Value::Bool(b) => *b as i64,
        Value::BigInt(_) => i64::MAX,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                ),
            )
            .at(a.span("limit")))
        }
    };
    if n < 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "recursion limit must be greater or equal than 1",
        )
        .at(a.span("limit")));
    }
    crate::eval::set_recursion_limit(usize::try_from(n).unwrap_or(usize::MAX));
    Ok(Value::None)
}
