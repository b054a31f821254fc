//! Python's format-spec mini-language, in one place for f-strings, `format()`, `str.format`
//! and `%`-formatting: `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`
//! applied to ints, floats and strings exactly as CPython 3.11 writes them (floats are
//! correctly rounded, as CPython's are; Rust's formatter rounds exactly too).

use crate::render::tf_text::{py_float, repr_of, str_of};

mod fixed;
mod percent;
mod str_format;

use crate::value::Value;
pub use percent::{percent_format, percent_format_bytes};
use ragtag_engine::{budget, type_error, value_error, Array, DType, Exception, ExceptionClass};
pub use str_format::{str_format, str_format_map, AttrLookup};

/// A parsed format spec.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    /// `z`: negative zero is written as zero.
    z: bool,
    /// `#`: the alternate form (`0x` prefixes, a kept decimal point).
    alt: bool,
    /// `0` before the width.
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    ty: Option<char>,
}

/// The largest width or precision CPython accepts, `sys.maxsize`: a larger one is a
/// ValueError, a smaller one too wide for memory is the memory budget's error.
const MAX_WIDTH: u64 = i64::MAX as u64;

fn digits_at(s: &[char], i: &mut usize) -> Result<Option<usize>, Exception> {
    let start = *i;
    let mut n: u64 = 0;
    let mut fits = true;
    while let Some(d) = s.get(*i).and_then(|c| c.to_digit(10)) {
        n = n.saturating_mul(10).saturating_add(u64::from(d));
        fits &= n <= MAX_WIDTH;
        *i += 1;
    }
    if *i == start {
        return Ok(None);
    }
    if !fits {
        return Err(value_error!("Too many decimal digits in format string"));
    }
    Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
}

impl Spec {
    /// Parses `spec` for a value of type `type_name` (named in the errors).
    pub fn parse(spec: &str, type_name: &str) -> Result<Spec, Exception> {
        // A spec is a few characters (`>7`, `.2f`), parsed on every formatting of every
        // f-string field: read into a buffer on the stack unless it is long.
        let mut short = ['\0'; 24];
        let long: Vec<char>;
        let n = spec.chars().count();
        let s: &[char] = if n <= short.len() {
            for (slot, c) in short.iter_mut().zip(spec.chars()) {
                *slot = c;
            }
            &short[..n]
        } else {
            long = spec.chars().collect();
            &long
        };
        let mut out = Spec::default();
        let mut i = 0;
        let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
        if s.len() >= 2 && is_align(s[1]) {
            out.fill = Some(s[0]);
            out.align = Some(s[1]);
            i = 2;
        } else if !s.is_empty() && is_align(s[0]) {
            out.align = Some(s[0]);
            i = 1;
        }
        if i < s.len() && matches!(s[i], '+' | '-' | ' ') {
            out.sign = Some(s[i]);
            i += 1;
        }
        if i < s.len() && s[i] == 'z' {
            out.z = true;
            i += 1;
        }
        if i < s.len() && s[i] == '#' {
            out.alt = true;
            i += 1;
        }
        if i < s.len() && s[i] == '0' {
            out.zero = true;
            i += 1;
        }
        out.width = digits_at(s, &mut i)?.unwrap_or(0);
        if i < s.len() && matches!(s[i], ',' | '_') {
            out.grouping = Some(s[i]);
            i += 1;
            if i < s.len() && matches!(s[i], ',' | '_') {
                return Err(if s[i] == s[i - 1] {
                    value_error!("Cannot specify '{}' with '{}'.", s[i], s[i])
                } else {
                    value_error!("Cannot specify both ',' and '_'.")
                });
            }
        }
        if i < s.len() && s[i] == '.' {
            i += 1;
            out.precision = Some(
                digits_at(s, &mut i)?
                    .ok_or_else(|| value_error!("Format specifier missing precision"))?,
            );
        }
        if s.len() - i > 1 {
            return Err(value_error!(
                "Invalid format specifier '{spec}' for object of type '{type_name}'"
            ));
        }
        out.ty = s.get(i).copied();
        if out.zero {
            // `0` pads with zeros after the sign unless a fill or an alignment is given.
            out.fill.get_or_insert('0');
        }
        Ok(out)
    }

    fn unknown(&self, type_name: &str) -> Exception {
        value_error!(
            "Unknown format code '{}' for object of type '{type_name}'",
            self.ty.unwrap_or(' ')
        )
    }

    fn fill(&self) -> char {
        self.fill.unwrap_or(' ')
    }
}

/// Python's `format(value, spec)`.
pub fn format_value(v: &Value, spec: &str) -> Result<String, Exception> {
    match v {
        Value::Bool(b) if spec.is_empty() => Ok(if *b { "True" } else { "False" }.into()),
        Value::Bool(b) => format_int(i64::from(*b), &Spec::parse(spec, "bool")?, "bool"),
        Value::Int(i) => format_int(*i, &Spec::parse(spec, "int")?, "int"),
        Value::BigInt(n) => format_big(n, &Spec::parse(spec, "int")?),
        Value::Float(f) => format_float(*f, &Spec::parse(spec, "float")?),
        Value::Str(s) => format_str(s, &Spec::parse(spec, "str")?),
        _ if spec.is_empty() => Ok(crate::render::tf_text::format_of(v)),
        // A scalar tensor formats as its number (TensorFlow formats its NumPy scalar).
        Value::Array(a) if a.shape().is_empty() => match &**a {
            Array::Dense(t) if t.dtype().is_int() || t.dtype() == DType::Bool => {
                let i = crate::value::convert::to_int(v)?;
                format_int(i, &Spec::parse(spec, "int")?, "int")
            }
            Array::Dense(t) if t.dtype() != DType::String => {
                let f = crate::value::convert::to_f64(v)?;
                format_float(f, &Spec::parse(spec, "float")?)
            }
            _ => format_str(&str_of(v), &Spec::parse(spec, "str")?),
        },
        // Other tensors: their text, aligned (NumPy arrays refuse a spec; lenient here).
        Value::Array(_) | Value::Sparse(_) | Value::Lod(_) | Value::NdArray(_) => format_str(
            &crate::render::tf_text::format_of(v),
            &Spec::parse(spec, "str")?,
        ),
        other => Err(type_error!(
            "unsupported format string passed to {}.__format__",
            other.type_name()
        )),
    }
}

/// `text` in a field of `width` characters, aligned by `align` (returned as it is when it
/// fills the field).
fn pad(text: String, fill: char, align: char, width: usize) -> Result<String, Exception> {
    if width == 0 {
        return Ok(text);
    }
    let len = text.chars().count();
    if len >= width {
        return Ok(text);
    }
    let n = width - len;
    let (left, right) = match align {
        '<' => (0, n),
        '^' => (n / 2, n - n / 2),
        _ => (n, 0),
    };
    let mut out = budget::string(
        "format",
        text.len().saturating_add(n.saturating_mul(fill.len_utf8())),
    )?;
    push_fill(&mut out, fill, left);
    out.push_str(&text);
    push_fill(&mut out, fill, right);
    Ok(out)
}

/// Appends `n` copies of `fill`, a block of them at a time: a field a billion wide is
/// copied in blocks rather than encoded one character at a time.
pub(crate) fn push_fill(out: &mut String, fill: char, n: usize) {
    const BLOCK: usize = 4096;
    let mut left = n;
    if left >= BLOCK {
        let block: String = std::iter::repeat_n(fill, BLOCK).collect();
        while left >= BLOCK {
            out.push_str(&block);
            left -= BLOCK;
        }
    }
    out.extend(std::iter::repeat_n(fill, left));
}

fn format_str(s: &str, spec: &Spec) -> Result<String, Exception> {
    if !matches!(spec.ty, None | Some('s')) {
        return Err(spec.unknown("str"));
    }
    if spec.sign.is_some() {
        return Err(value_error!("Sign not allowed in string format specifier"));
    }
    if spec.alt {
        return Err(value_error!(
            "Alternate form (#) not allowed in string format specifier"
        ));
    }
    if spec.z {
        return Err(value_error!(
            "Negative zero coercion (z) not allowed in format specifier"
        ));
    }
    if let Some(g) = spec.grouping {
        return Err(value_error!("Cannot specify '{g}' with 's'."));
    }
    if spec.align == Some('=') {
        return Err(value_error!(
            "'=' alignment not allowed in string format specifier"
        ));
    }
    let text = match spec.precision {
        Some(p) => s.chars().take(p).collect::<String>(),
        None => s.to_string(),
    };
    pad(text, spec.fill(), spec.align.unwrap_or('<'), spec.width)
}

/// Digits grouped by `sep` every `every` digits from the right, padded with zeros on the
/// left to at least `min_width` characters (never starting with a separator), as CPython
/// does for `'{:08,}'`.
fn group(
    digits: &str,
    sep: Option<char>,
    every: usize,
    min_width: usize,
) -> Result<String, Exception> {
    let d = digits.as_bytes();
    let Some(sep) = sep else {
        let zeros = min_width.saturating_sub(d.len());
        if zeros == 0 {
            return Ok(digits.to_string());
        }
        return Ok(budget::repeat_str("format", "0", zeros)? + digits);
    };
    let mut rev: Vec<u8> = Vec::new();
    let mut left = d.len();
    let mut len = 0;
    let mut first = true;
    loop {
        if !first {
            rev.extend(sep.to_string().bytes().rev());
            len += 1;
        }
        first = false;
        let n = every.min(left.max(min_width.saturating_sub(len)).max(1));
        for k in 0..n {
            rev.push(if k < left { d[left - 1 - k] } else { b'0' });
        }
        len += n;
        left -= left.min(n);
        if left == 0 && len >= min_width {
            break;
        }
    }
    rev.reverse();
    Ok(String::from_utf8(rev).unwrap_or_default())
}

/// Lays out a number: sign, prefix, the integer digits (grouped and zero-padded) and the
/// rest (fraction, exponent, `%`), within the spec's field.
fn layout(
    negative: bool,
    prefix: &str,
    int_digits: &str,
    rest: &str,
    spec: &Spec,
    every: usize,
) -> Result<String, Exception> {
    let sign = match (negative, spec.sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    };
    let align = spec
        .align
        .unwrap_or(if spec.zero && spec.fill == Some('0') {
            '='
        } else {
            '>'
        });
    let zero_pad = spec.fill() == '0' && align == '=';
    let min_width = if zero_pad {
        spec.width
            .saturating_sub(sign.len() + prefix.len() + rest.chars().count())
    } else {
        0
    };
    if min_width > 0 {
        budget::check_bytes("format", min_width as u128)?;
    }
    let grouped;
    let digits = if spec.grouping.is_none() && min_width <= int_digits.len() {
        int_digits
    } else {
        grouped = group(int_digits, spec.grouping, every, min_width)?;
        grouped.as_str()
    };
    // The sign goes before the padding for `=` and inside the field otherwise.
    #[allow(clippy::disallowed_methods)] // sized by the parts, which exist already
    let mut body = String::with_capacity(sign.len() + prefix.len() + digits.len() + rest.len());
    if align != '=' {
        body.push_str(sign);
    }
    body.push_str(prefix);
    body.push_str(digits);
    body.push_str(rest);
    if align == '=' {
        let inner = pad(
            body,
            spec.fill(),
            '>',
            spec.width.saturating_sub(sign.len()),
        )?;
        return Ok(format!("{sign}{inner}"));
    }
    pad(body, spec.fill(), align, spec.width)
}

fn format_int(i: i64, spec: &Spec, type_name: &str) -> Result<String, Exception> {
    let ty = spec.ty.unwrap_or('d');
    if matches!(ty, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') {
        return format_float(i as f64, spec);
    }
    if !matches!(ty, 'd' | 'n' | 'b' | 'o' | 'x' | 'X' | 'c') {
        return Err(spec.unknown(type_name));
    }
    if spec.precision.is_some() {
        return Err(value_error!(
            "Precision not allowed in integer format specifier"
        ));
    }
    if spec.z {
        return Err(value_error!(
            "Negative zero coercion (z) not allowed in integer format specifier"
        ));
    }
    if let Some(g) = spec.grouping {
        if ty == 'n' || ty == 'c' || (g == ',' && matches!(ty, 'b' | 'o' | 'x' | 'X')) {
            return Err(value_error!("Cannot specify '{g}' with '{ty}'."));
        }
    }
    if ty == 'c' {
        if spec.sign.is_some() {
            return Err(value_error!(
                "Sign not allowed with integer format specifier 'c'"
            ));
        }
        if spec.alt {
            return Err(value_error!(
                "Alternate form (#) not allowed with integer format specifier 'c'"
            ));
        }
        let c = u32::try_from(i)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| {
                Exception::new(
                    ExceptionClass::OverflowError,
                    "%c arg not in range(0x110000)",
                )
            })?;
        let align = spec.align.unwrap_or('>');
        return pad(c.to_string(), spec.fill(), align, spec.width);
    }
    let n = i.unsigned_abs();
    let (digits, prefix, every) = match ty {
        'b' => (format!("{n:b}"), "0b", 4),
        'o' => (format!("{n:o}"), "0o", 4),
        'x' => (format!("{n:x}"), "0x", 4),
        'X' => (format!("{n:X}"), "0X", 4),
        _ => (n.to_string(), "", 3),
    };
    let prefix = if spec.alt { prefix } else { "" };
    layout(i < 0, prefix, &digits, "", spec, every)
}

/// `format(n, spec)` of an int past 64 bits: the checks and layout of [`format_int`].
fn format_big(n: &num_bigint::BigInt, spec: &Spec) -> Result<String, Exception> {
    let ty = spec.ty.unwrap_or('d');
    if matches!(ty, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') {
        return format_float(
            crate::value::convert::to_f64(&Value::BigInt(n.clone().into()))?,
            spec,
        );
    }
    if ty == 'c' {
        return Err(Exception::new(
            ExceptionClass::OverflowError,
            "%c arg not in range(0x110000)",
        ));
    }
    // The spec's errors are those of any int.
    format_int(0, spec, "int")?;
    let (digits, prefix, every) = match ty {
        'b' => (n.magnitude().to_str_radix(2), "0b", 4),
        'o' => (n.magnitude().to_str_radix(8), "0o", 4),
        'x' => (n.magnitude().to_str_radix(16), "0x", 4),
        'X' => (n.magnitude().to_str_radix(16).to_uppercase(), "0X", 4),
        _ => (n.magnitude().to_string(), "", 3),
    };
    let prefix = if spec.alt { prefix } else { "" };
    layout(
        n.sign() == num_bigint::Sign::Minus,
        prefix,
        &digits,
        "",
        spec,
        every,
    )
}

/// The most significant digits a double's exact decimal expansion has (767); past them,
/// and past the 1074 fraction digits of the smallest subnormal, every digit is a zero.
const EXACT_SIG: usize = 780;
const EXACT_FRAC: usize = 1100;

/// `x` (finite, not negative) in `{:.p$e}` form with Python's exponent (`e+05`).
fn sci(x: f64, p: usize, alt: bool, upper: bool) -> Result<(String, String), Exception> {
    budget::check_bytes("format", p as u128)?;
    let s = format!("{:.*e}", p.min(EXACT_SIG), x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mut mant = mant.to_string();
    mant.extend(std::iter::repeat_n('0', p.saturating_sub(EXACT_SIG)));
    if alt && p == 0 {
        mant.push('.');
    }
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    let letter = if upper { 'E' } else { 'e' };
    Ok((mant, format!("{letter}{sign}{:02}", e.abs())))
}

/// `x` (finite, not negative) with `p` fraction digits.
fn fixed(x: f64, p: usize, alt: bool) -> Result<String, Exception> {
    budget::check_bytes("format", (p as u128) + 320)?;
    let mut s = match fixed::fixed_digits(x, p) {
        Some(s) => s,
        None => format!("{:.*}", p.min(EXACT_FRAC), x),
    };
    s.extend(std::iter::repeat_n('0', p.saturating_sub(EXACT_FRAC)));
    if alt && p == 0 {
        s.push('.');
    }
    Ok(s)
}

/// The decimal exponent of `x` rounded to `p` significant digits.
fn exponent(x: f64, p: usize) -> i32 {
    if x == 0.0 {
        return 0;
    }
    let s = format!("{:.*e}", p.saturating_sub(1).min(EXACT_SIG), x);
    s.split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0)
}

/// Drops trailing zeros of a fraction, and the point if nothing follows it.
fn strip_zeros(s: &str) -> String {
    if !s.contains('.') {
        return s.to_string();
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn format_float(f: f64, spec: &Spec) -> Result<String, Exception> {
    let ty = spec.ty;
    if !matches!(
        ty,
        None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'n' | '%')
    ) {
        return Err(spec.unknown("float"));
    }
    if let (Some(g), Some('n')) = (spec.grouping, ty) {
        return Err(value_error!("Cannot specify '{g}' with 'n'."));
    }
    let upper = matches!(ty, Some('E' | 'F' | 'G'));
    let mut negative = f.is_sign_negative() && !f.is_nan();
    let x = f.abs();
    if !f.is_finite() {
        let word = match (f.is_nan(), upper) {
            (true, false) => "nan",
            (true, true) => "NAN",
            (false, false) => "inf",
            (false, true) => "INF",
        };
        let rest = if ty == Some('%') { "%" } else { "" };
        return layout(negative, "", "", &format!("{word}{rest}"), spec, 3);
    }
    let text = match ty {
        Some('f' | 'F') => fixed(x, spec.precision.unwrap_or(6), spec.alt)?,
        Some('%') => fixed(x * 100.0, spec.precision.unwrap_or(6), spec.alt)? + "%",
        Some('e' | 'E') => {
            let (m, e) = sci(x, spec.precision.unwrap_or(6), spec.alt, upper)?;
            m + &e
        }
        Some('g' | 'G' | 'n') => general(
            x,
            spec.precision.unwrap_or(6).max(1),
            spec.alt,
            upper,
            false,
        )?,
        None => match spec.precision {
            Some(p) => general(x, p.max(1), spec.alt, false, true)?,
            None => py_float(x),
        },
        Some(_) => unreachable!("checked above"),
    };
    if spec.z && negative && text.bytes().all(|c| !(b'1'..=b'9').contains(&c)) {
        negative = false;
    }
    // The integer digits, then the rest (point, fraction, exponent, `%`).
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    layout(negative, "", &text[..split], &text[split..], spec, 3)
}

/// The `g` form with precision `p` (≥ 1): fixed when the exponent is in `[-4, p)`,
/// scientific otherwise, trailing zeros dropped unless `alt`. `repr_like` is the form of a
/// spec with a precision and no type: scientific from `p - 1`, and a fixed number keeps at
/// least one fraction digit.
fn general(x: f64, p: usize, alt: bool, upper: bool, repr_like: bool) -> Result<String, Exception> {
    let e = exponent(x, p);
    let limit = if repr_like { p as i64 - 1 } else { p as i64 };
    if -4 <= e && (e as i64) < limit {
        let decimals = (p as i64 - 1 - e as i64).max(0) as usize;
        let s = fixed(x, decimals, alt)?;
        let mut s = if alt { s } else { strip_zeros(&s) };
        if repr_like && !s.contains('.') {
            s.push_str(".0");
        }
        Ok(s)
    } else {
        let (m, exp) = sci(x, p - 1, alt, upper)?;
        let m = if alt { m } else { strip_zeros(&m) };
        Ok(m + &exp)
    }
}

/// Python's `ascii(x)`: `repr` with non-ASCII characters escaped.
pub fn ascii_of(v: &Value) -> String {
    let mut out = String::new();
    for c in repr_of(v).chars() {
        match c as u32 {
            0..=0x7F => out.push(c),
            n @ 0x80..=0xFF => out.push_str(&format!("\\x{n:02x}")),
            n @ 0x100..=0xFFFF => out.push_str(&format!("\\u{n:04x}")),
            n => out.push_str(&format!("\\U{n:08x}")),
        }
    }
    out
}

/// A `!r` / `!s` / `!a` conversion.
pub fn convert(v: &Value, conversion: Option<char>) -> Value {
    match conversion {
        Some('r') => Value::str(repr_of(v)),
        Some('s') => Value::str(str_of(v)),
        Some('a') => Value::str(ascii_of(v)),
        _ => v.clone(),
    }
}
