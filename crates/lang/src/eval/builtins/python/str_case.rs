//! The methods of Python's str that map case (with Unicode's full mappings: `'ß'.upper()` is
//! `'SS'`, a final sigma lowers to `ς`), test characters (`isdigit`, `istitle`, …) and
//! translate, as CPython 3.11 has them.

use super::str_methods::is_py_space;
use super::str_tables::{within, ALPHA, DECIMAL, DIGIT, NUMERIC, UNPRINTABLE};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::{PyDict, Value};
use ragtag_engine::{budget, ExceptionClass};

/// A str method with its doc and one example.
macro_rules! method {
    ($name:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("str.", $name), "(self)", $f)
            .doc($doc)
            .examples(&[$ex])
    };
}

/// A str predicate: true when the string is not empty and every character passes.
macro_rules! every {
    ($name:literal, $test:expr, $doc:literal, $ex:literal) => {
        method!($name, |_, a| Ok(Value::Bool(every(a, $test))), $doc, $ex)
    };
}

/// The str methods that map case, test characters and translate.
pub static STR_CASE: &[Builtin] = &[
    method!("upper", |_, a| { check_mapped(a, "str.upper")?; Ok(Value::str(me(a).to_uppercase())) },
        "In upper case, with Unicode's full mappings ('ß' becomes 'SS').", "'straße'.upper()"),
    method!("lower", |_, a| { check_mapped(a, "str.lower")?; Ok(Value::str(me(a).to_lowercase())) },
        "In lower case, with Unicode's full mappings (a final 'Σ' becomes 'ς').", "'ΟΔΟΣ'.lower()"),
    method!("casefold", casefold,
        "For caseless comparison: lower case that also folds 'ß' to 'ss' and 'ς' to 'σ'.",
        "'Straße'.casefold() == 'STRASSE'.casefold()"),
    method!("capitalize", capitalize,
        "The first character in title case and the rest in lower case.", "'hello WORLD'.capitalize()"),
    method!("title", title,
        "Each word's first letter in title case and the rest in lower case (a word is a run of cased letters).",
        "\"they're bill's\".title()"),
    method!("swapcase", swapcase,
        "Upper-case letters lowered and lower-case ones raised.", "'Hello'.swapcase()"),
    every!("isdigit", |c| within(DIGIT, c),
        "Whether every character is a digit (decimal digits, superscripts, …) and there is one.", "'²3'.isdigit()"),
    every!("isdecimal", |c| within(DECIMAL, c),
        "Whether every character is a decimal digit (of any script) and there is one.", "'١٢'.isdecimal()"),
    every!("isnumeric", |c| within(NUMERIC, c),
        "Whether every character is numeric (digits, fractions like '½', numerals like '五') and there is one.",
        "'½五'.isnumeric()"),
    every!("isalpha", |c| within(ALPHA, c),
        "Whether every character is a letter and there is one.", "'héllo'.isalpha()"),
    every!("isalnum", is_alnum,
        "Whether every character is a letter or numeric and there is one.", "'abc123'.isalnum()"),
    every!("isspace", is_py_space,
        "Whether every character is whitespace and there is one.", "' \\t\\n'.isspace()"),
    method!("islower", islower,
        "Whether there is a cased character and every cased one is lower case.", "'abc1'.islower()"),
    method!("isupper", isupper,
        "Whether there is a cased character and every cased one is upper case.", "'ABC1'.isupper()"),
    method!("istitle", istitle,
        "Whether there is a cased character, upper-case ones follow uncased ones and lower-case ones follow cased ones.",
        "'Hello World'.istitle()"),
    method!("isidentifier", isidentifier,
        "Whether the string is a valid Python identifier (keywords included).", "'_x1'.isidentifier()"),
    method!("isprintable", |_, a| Ok(Value::Bool(!me(a).chars().any(|c| within(UNPRINTABLE, c)))),
        "Whether repr shows every character as itself (the empty string is printable).", "'a\\tb'.isprintable()"),
    method!("isascii", |_, a| Ok(Value::Bool(me(a).is_ascii())),
        "Whether every character is ASCII (the empty string is).", "'abc'.isascii()"),
    Builtin::function("str.maketrans", "(x, y=None, z=None, /)", maketrans)
        .doc("A translation table for str.translate: a dict of characters (or ordinals) to strings, ordinals or None; or two strings of equal length mapped character by character, and a third whose characters are deleted.")
        .examples(&["str.maketrans('ab', 'xy', 'c')", "'abcd'.translate(str.maketrans('ab', 'xy', 'c'))"]),
    Builtin::method("str.translate", "(self, table, /)", translate)
        .doc("Each character looked up by ordinal in `table`: replaced by the str or ordinal found, deleted for None, kept when missing.")
        .examples(&["'hello'.translate({ord('l'): 'L', ord('o'): None})"]),
];

/// The receiver.
fn me(a: &Args) -> &str {
    match a.value("self") {
        Value::Str(s) => s.as_str(),
        _ => "",
    }
}

fn every(a: &Args, test: fn(char) -> bool) -> bool {
    let s = me(a);
    !s.is_empty() && s.chars().all(test)
}

fn is_alnum(c: char) -> bool {
    within(ALPHA, c) || within(NUMERIC, c)
}

/// Unicode's titlecase letters (category Lt): the digraphs 'ǅ', 'ǈ', 'ǋ', 'ǲ' and Greek
/// capitals with prosgegrammeni.
fn is_title(c: char) -> bool {
    matches!(c as u32,
        0x1C5 | 0x1C8 | 0x1CB | 0x1F2 | 0x1F88..=0x1F8F | 0x1F98..=0x1F9F | 0x1FA8..=0x1FAF
        | 0x1FBC | 0x1FCC | 0x1FFC)
}

/// A letter with case, as CPython's `_PyUnicode_IsCased`.
fn is_cased(c: char) -> bool {
    c.is_lowercase() || c.is_uppercase() || is_title(c)
}

/// The titlecase mapping where it differs from the uppercase one (Unicode's UnicodeData
/// and SpecialCasing): digraphs, ligatures, Georgian and Greek with iota subscript.
fn to_title(c: char, out: &mut String) {
    let u = c as u32;
    let mapped: Option<&str> = match u {
        0xDF => Some("Ss"),
        0x1C4..=0x1C6 => Some("\u{1C5}"),
        0x1C7..=0x1C9 => Some("\u{1C8}"),
        0x1CA..=0x1CC => Some("\u{1CB}"),
        0x1F1..=0x1F3 => Some("\u{1F2}"),
        0x587 => Some("\u{535}\u{582}"),
        0x1FB2 => Some("\u{1FBA}\u{345}"),
        0x1FB4 => Some("\u{386}\u{345}"),
        0x1FB7 => Some("\u{391}\u{342}\u{345}"),
        0x1FB3 | 0x1FBC => Some("\u{1FBC}"),
        0x1FC2 => Some("\u{1FCA}\u{345}"),
        0x1FC4 => Some("\u{389}\u{345}"),
        0x1FC7 => Some("\u{397}\u{342}\u{345}"),
        0x1FC3 | 0x1FCC => Some("\u{1FCC}"),
        0x1FF2 => Some("\u{1FFA}\u{345}"),
        0x1FF4 => Some("\u{38F}\u{345}"),
        0x1FF7 => Some("\u{3A9}\u{342}\u{345}"),
        0x1FF3 | 0x1FFC => Some("\u{1FFC}"),
        0xFB00 => Some("Ff"),
        0xFB01 => Some("Fi"),
        0xFB02 => Some("Fl"),
        0xFB03 => Some("Ffi"),
        0xFB04 => Some("Ffl"),
        0xFB05 | 0xFB06 => Some("St"),
        0xFB13 => Some("\u{544}\u{576}"),
        0xFB14 => Some("\u{544}\u{565}"),
        0xFB15 => Some("\u{544}\u{56B}"),
        0xFB16 => Some("\u{54E}\u{576}"),
        0xFB17 => Some("\u{544}\u{56D}"),
        _ => None,
    };
    match mapped {
        Some(m) => out.push_str(m),
        // Georgian Mkhedruli letters are their own title case (their upper case is Mtavruli).
        None if (0x10D0..=0x10FA).contains(&u) || (0x10FD..=0x10FF).contains(&u) => out.push(c),
        // Greek with ypogegrammeni title-cases to the one prosgegrammeni letter.
        None if (0x1F80..=0x1FAF).contains(&u) => {
            out.push(char::from_u32(u | 0x8).unwrap_or(c));
        }
        None => out.extend(c.to_uppercase()),
    }
}

/// Each character's lower case, where a capital sigma's depends on its neighbours (`ς` at
/// the end of a word): the pieces of the whole string's lowering, one per character.
fn lower_pieces(s: &str) -> Vec<(char, String)> {
    let lowered = s.to_lowercase();
    let mut at = 0;
    s.chars()
        .map(|c| {
            // Lowering is one mapping per character, but for sigma's choice of form (both
            // forms are two bytes).
            let n = if c == 'Σ' {
                2
            } else {
                c.to_lowercase().map(char::len_utf8).sum()
            };
            let piece = lowered[at..at + n].to_string();
            at += n;
            (c, piece)
        })
        .collect()
}

/// A mapping's result size is at most three characters per character (Unicode's longest
/// full case mappings): checked before building it.
fn check_mapped(a: &Args, what: &str) -> Result<()> {
    budget::check_bytes(what, me(a).len() as u128 * 3).map_err(|e| Error::from(e).at(a.call))
}

fn casefold(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    check_mapped(a, "str.casefold")?;
    let mut out = String::new();
    for c in me(a).chars() {
        let u = c as u32;
        if c == 'ı' {
            // The dotless i has no case folding (its upper case is the dotted 'I').
            out.push(c);
        } else if (0x13A0..=0x13FD).contains(&u) || (0xAB70..=0xABBF).contains(&u) {
            // Cherokee folds to its upper case, the older letters.
            out.extend(c.to_uppercase());
        } else {
            // Lowering the upper case of the lower case reaches the fold for every other
            // character ('ß' → 'ss', 'ς' → 'σ', 'ﬁ' → 'fi').
            let lower: String = c.to_lowercase().collect();
            out.push_str(&lower.to_uppercase().to_lowercase());
        }
    }
    Ok(Value::str(out))
}

fn capitalize(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    check_mapped(a, "str.capitalize")?;
    Ok(Value::str(capitalized(me(a))))
}

/// `s.capitalize()`: the first character in title case, the rest in lower case.
pub(super) fn capitalized(s: &str) -> String {
    let mut out = String::new();
    for (i, (c, lower)) in lower_pieces(s).into_iter().enumerate() {
        if i == 0 {
            to_title(c, &mut out);
        } else {
            out.push_str(&lower);
        }
    }
    out
}

fn title(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    check_mapped(a, "str.title")?;
    let mut out = String::new();
    let mut prev_cased = false;
    for (c, lower) in lower_pieces(me(a)) {
        if prev_cased {
            out.push_str(&lower);
        } else {
            to_title(c, &mut out);
        }
        prev_cased = is_cased(c);
    }
    Ok(Value::str(out))
}

fn swapcase(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    check_mapped(a, "str.swapcase")?;
    let mut out = String::new();
    for (c, lower) in lower_pieces(me(a)) {
        if c.is_uppercase() {
            out.push_str(&lower);
        } else if c.is_lowercase() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    Ok(Value::str(out))
}

/// Whether there is a cased character and every cased one passes `ok` (title case fails).
fn all_cased(a: &Args, ok: fn(char) -> bool, bad: fn(char) -> bool) -> Value {
    let mut cased = false;
    for c in me(a).chars() {
        if bad(c) || is_title(c) {
            return Value::Bool(false);
        }
        cased |= ok(c);
    }
    Value::Bool(cased)
}

fn islower(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_cased(a, char::is_lowercase, char::is_uppercase))
}
fn isupper(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_cased(a, char::is_uppercase, char::is_lowercase))
}

fn istitle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut cased = false;
    let mut prev_cased = false;
    for c in me(a).chars() {
        if c.is_uppercase() || is_title(c) {
            if prev_cased {
                return Ok(Value::Bool(false));
            }
            prev_cased = true;
            cased = true;
        } else if c.is_lowercase() {
            if !prev_cased {
                return Ok(Value::Bool(false));
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    Ok(Value::Bool(cased))
}

fn isidentifier(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut chars = me(a).chars();
    let ok = match chars.next() {
        None => false,
        Some(c) => {
            (c == '_' || unicode_ident::is_xid_start(c))
                && chars.all(unicode_ident::is_xid_continue)
        }
    };
    Ok(Value::Bool(ok))
}

fn type_err(msg: String) -> Error {
    Error::new(ExceptionClass::TypeError, msg)
}

fn maketrans(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = PyDict::new(Vec::new()).map_err(|e| Error::from(e).at(a.call))?;
    let put = |k: Value, v: Value| out.insert(k, v).map_err(|e| Error::from(e).at(a.call));
    let Some(y) = a.given("y") else {
        let Value::Dict(d) = a.value("x") else {
            return Err(type_err(
                "if you give only one argument to maketrans it must be a dict".into(),
            )
            .at(a.span("x")));
        };
        for (k, v) in d.items() {
            let key = match &k {
                Value::Str(s) if s.chars().count() == 1 => {
                    Value::Int(s.chars().next().map_or(0, |c| c as i64))
                }
                Value::Str(_) => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "string keys in translate table must be of length 1",
                    )
                    .at(a.span("x")))
                }
                Value::Int(_) => k.clone(),
                _ => {
                    return Err(type_err(
                        "keys in translate table must be strings or integers".into(),
                    )
                    .at(a.span("x")))
                }
            };
            put(key, v)?;
        }
        return Ok(Value::Dict(out));
    };
    let Value::Str(x) = a.value("x") else {
        return Err(type_err(
            "first maketrans argument must be a string if there is a second argument".into(),
        )
        .at(a.span("x")));
    };
    let Value::Str(y) = y else {
        return Err(type_err(format!(
            "maketrans() argument 2 must be str, not {}",
            y.type_name()
        ))
        .at(a.span("y")));
    };
    if x.chars().count() != y.chars().count() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "the first two maketrans arguments must have equal length",
        )
        .at(a.call));
    }
    for (from, to) in x.chars().zip(y.chars()) {
        put(Value::Int(from as i64), Value::Int(to as i64))?;
    }
    match a.given("z") {
        None => {}
        Some(Value::Str(z)) => {
            for c in z.chars() {
                put(Value::Int(c as i64), Value::None)?;
            }
        }
        Some(z) => {
            return Err(type_err(format!(
                "maketrans() argument 3 must be str, not {}",
                z.type_name()
            ))
            .at(a.span("z")))
        }
    }
    Ok(Value::Dict(out))
}

fn translate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let table = a.value("table");
    let lookup = |c: char| -> Result<Option<Value>> {
        let key = Value::Int(c as i64);
        Ok(match table {
            Value::Dict(d) => d
                .get(&key)
                .map_err(|e| Error::from(e).at(a.span("table")))?,
            Value::List(l) => l.get(c as usize),
            Value::Tuple(t) => t.get(c as usize).cloned(),
            Value::Str(s) => s.chars().nth(c as usize).map(|c| Value::str(c.to_string())),
            v => {
                return Err(
                    type_err(format!("'{}' object is not subscriptable", v.type_name()))
                        .at(a.span("table")),
                )
            }
        })
    };
    let mut out = String::new();
    for c in me(a).chars() {
        match lookup(c)? {
            None => out.push(c),
            Some(Value::None) => {}
            Some(Value::Str(s)) => {
                budget::check_bytes("str.translate", out.len() as u128 + s.len() as u128)
                    .map_err(|e| Error::from(e).at(a.call))?;
                out.push_str(&s);
            }
            Some(Value::Int(i)) => match u32::try_from(i).ok().and_then(char::from_u32) {
                Some(m) => out.push(m),
                None => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "character mapping must be in range(0x110000)",
                    )
                    .at(a.span("table")))
                }
            },
            Some(_) => {
                return Err(
                    type_err("character mapping must return integer, None or str".into())
                        .at(a.span("table")),
                )
            }
        }
    }
    Ok(Value::str(out))
}
