//! Python's format-spec mini-language, in one place for f-strings, `format()`, `str.format`
//! and `%`-formatting: `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`
//! applied to ints, floats and strings exactly as CPython 3.11 writes them (floats are
//! correctly rounded, as CPython's are; Rust's formatter rounds exactly too).

use crate::render::tf_text::{py_float, repr_of, str_of};
use crate::value::Value;
use ragtag_engine::{budget, type_error, value_error, Array, DType, Exception, ExceptionClass};

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

/// A width or precision written with more digits than any field could use (CPython's
/// limit is `sys.maxsize`; a field this wide would not fit in memory anyway).
const MAX_DIGITS: usize = 18;

fn digits_at(s: &[char], i: &mut usize) -> Result<Option<usize>, Exception> {
    let start = *i;
    while *i < s.len() && s[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i == start {
        return Ok(None);
    }
    if *i - start > MAX_DIGITS {
        return Err(value_error!("Too many decimal digits in format string"));
    }
    let text: String = s[start..*i].iter().collect();
    Ok(Some(text.parse().unwrap_or(usize::MAX)))
}

impl Spec {
    /// Parses `spec` for a value of type `type_name` (named in the errors).
    pub fn parse(spec: &str, type_name: &str) -> Result<Spec, Exception> {
        let s: Vec<char> = spec.chars().collect();
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
        out.width = digits_at(&s, &mut i)?.unwrap_or(0);
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
                digits_at(&s, &mut i)?
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

/// Writes `text` into a field of `width` characters, aligned by `align`.
fn pad(text: &str, fill: char, align: char, width: usize) -> Result<String, Exception> {
    let len = text.chars().count();
    if len >= width {
        return Ok(text.to_string());
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
    out.extend(std::iter::repeat_n(fill, left));
    out.push_str(text);
    out.extend(std::iter::repeat_n(fill, right));
    Ok(out)
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
    let text: std::borrow::Cow<str> = match spec.precision {
        Some(p) => s.chars().take(p).collect::<String>().into(),
        None => s.into(),
    };
    pad(&text, spec.fill(), spec.align.unwrap_or('<'), spec.width)
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
    let digits = group(int_digits, spec.grouping, every, min_width)?;
    let body = format!("{prefix}{digits}{rest}");
    if align == '=' {
        let inner = pad(
            &body,
            spec.fill(),
            '>',
            spec.width.saturating_sub(sign.len()),
        )?;
        return Ok(format!("{sign}{inner}"));
    }
    pad(&format!("{sign}{body}"), spec.fill(), align, spec.width)
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
        return pad(&c.to_string(), spec.fill(), align, spec.width);
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
    let mut s = format!("{:.*}", p.min(EXACT_FRAC), x);
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

// ---------------------------------------------------------------------------------------
// str.format

/// Looks up `.name` on a value for a `{0.name}` field.
pub type AttrLookup<'a> = dyn FnMut(&Value, &str) -> Result<Value, Exception> + 'a;

/// Python's `fmt.format(*args, **kwargs)`.
pub fn str_format(
    fmt: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    attr: &mut AttrLookup<'_>,
) -> Result<String, Exception> {
    let mut auto = Numbering::default();
    render(fmt, args, kwargs, attr, &mut auto, 2)
}

/// Whether fields were numbered automatically (`{}`) or by hand (`{0}`); Python refuses a
/// mix.
#[derive(Default)]
struct Numbering {
    next: usize,
    manual: bool,
    automatic: bool,
}

fn render(
    fmt: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
    depth: usize,
) -> Result<String, Exception> {
    let mut out = String::new();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' if chars.get(i + 1) == Some(&'{') => {
                out.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                out.push('}');
                i += 2;
            }
            '}' => return Err(value_error!("Single '}}' encountered in format string")),
            '{' => {
                // The field runs to its matching `}` (specs may hold nested fields).
                let mut level = 1;
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '{' => level += 1,
                        '}' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    let message = if level > 1 {
                        "unmatched '{' in format spec"
                    } else {
                        "expected '}' before end of string"
                    };
                    return Err(Exception::new(ExceptionClass::ValueError, message));
                }
                if depth == 0 {
                    return Err(value_error!("Max string recursion exceeded"));
                }
                let field: String = chars[i + 1..j].iter().collect();
                out.push_str(&replace_field(&field, args, kwargs, attr, auto, depth)?);
                i = j + 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn replace_field(
    field: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
    depth: usize,
) -> Result<String, Exception> {
    // field_name [! conversion] [: spec]; the name ends at the first `!` or `:` outside `[]`.
    let mut name_end = field.len();
    let mut in_index = false;
    for (k, ch) in field.char_indices() {
        match ch {
            '[' => in_index = true,
            ']' => in_index = false,
            '!' | ':' if !in_index => {
                name_end = k;
                break;
            }
            _ => {}
        }
    }
    let name = &field[..name_end];
    let mut rest = &field[name_end..];
    let mut conversion = None;
    if let Some(r) = rest.strip_prefix('!') {
        let mut cs = r.chars();
        let c = cs.next();
        match c {
            Some(k @ ('r' | 's' | 'a')) => conversion = Some(k),
            Some(':') | None => {
                return Err(value_error!(
                    "end of string while looking for conversion specifier"
                ))
            }
            Some(k) => return Err(value_error!("Unknown conversion specifier {k}")),
        }
        rest = cs.as_str();
        if !rest.is_empty() && !rest.starts_with(':') {
            return Err(value_error!("expected ':' after conversion specifier"));
        }
    }
    // The field's value first, then the fields nested in its spec (numbered after it).
    let value = lookup(name, args, kwargs, attr, auto)?;
    let spec = rest.strip_prefix(':').unwrap_or("");
    let spec = if spec.contains('{') {
        render(spec, args, kwargs, attr, auto, depth - 1)?
    } else {
        spec.to_string()
    };
    format_value(&convert(&value, conversion), &spec)
}

/// The value a field name names: `0`, `name`, `` (the next), then `.attr` and `[key]`.
fn lookup(
    name: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    attr: &mut AttrLookup<'_>,
    auto: &mut Numbering,
) -> Result<Value, Exception> {
    let first_end = name.find(['.', '[']).unwrap_or(name.len());
    let first = &name[..first_end];
    let mut value = if first.is_empty() || first.bytes().all(|b| b.is_ascii_digit()) {
        let index = if first.is_empty() {
            if auto.manual {
                return Err(value_error!(
                    "cannot switch from manual field specification to automatic field numbering"
                ));
            }
            auto.automatic = true;
            auto.next += 1;
            auto.next - 1
        } else {
            if auto.automatic {
                return Err(value_error!(
                    "cannot switch from automatic field numbering to manual field specification"
                ));
            }
            auto.manual = true;
            first
                .parse()
                .map_err(|_| value_error!("Too many decimal digits in format string"))?
        };
        args.get(index).cloned().ok_or_else(|| {
            Exception::new(
                ExceptionClass::IndexError,
                format!("Replacement index {index} out of range for positional args tuple"),
            )
        })?
    } else {
        kwargs
            .iter()
            .find(|(k, _)| k == first)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| Exception::new(ExceptionClass::KeyError, format!("'{first}'")))?
    };
    let mut rest = &name[first_end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return Err(value_error!("Empty attribute in format string"));
            }
            value = attr(&value, &r[..end])?;
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r
                .find(']')
                .ok_or_else(|| value_error!("Missing ']' in format string"))?;
            let key = &r[..end];
            if key.is_empty() {
                return Err(value_error!("Empty attribute in format string"));
            }
            value = item(&value, key)?;
            rest = &r[end + 1..];
            if !rest.is_empty() && !rest.starts_with(['.', '[']) {
                return Err(value_error!(
                    "Only '.' or '[' may follow ']' in format field specifier"
                ));
            }
        } else {
            return Err(value_error!(
                "Only '.' or '[' may follow ']' in format field specifier"
            ));
        }
    }
    Ok(value)
}

/// `value[key]` in a field name: an int key when it is all digits, a str key otherwise.
fn item(value: &Value, key: &str) -> Result<Value, Exception> {
    let as_int: Option<i64> = key
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| key.parse().ok())
        .flatten();
    let key_value = match as_int {
        Some(i) => Value::Int(i),
        None => Value::str(key),
    };
    match value {
        Value::Dict(entries) => entries
            .iter()
            .find(|(k, _)| crate::eval::operators::python_eq(k, &key_value))
            .map(|(_, v)| v.clone())
            .ok_or_else(|| Exception::new(ExceptionClass::KeyError, repr_of(&key_value))),
        Value::List(_) | Value::Tuple(_) | Value::Literal(_) | Value::Str(_) => {
            let Some(i) = as_int else {
                return Err(type_error!(
                    "{} indices must be integers or slices, not str",
                    value.type_name()
                ));
            };
            let items: Vec<Value> = match value {
                Value::Str(s) => s.chars().map(|c| Value::str(c.to_string())).collect(),
                other => crate::eval::operators::as_items(other)?,
            };
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i).cloned())
                .ok_or_else(|| {
                    Exception::new(
                        ExceptionClass::IndexError,
                        format!("{} index out of range", value.type_name()),
                    )
                })
        }
        other => Err(type_error!(
            "'{}' object is not subscriptable",
            other.type_name()
        )),
    }
}

// ---------------------------------------------------------------------------------------
// % formatting

/// Python's `fmt % arg`.
pub fn percent_format(fmt: &str, arg: &Value) -> Result<Value, Exception> {
    let (args, mapping): (Vec<Value>, Option<&Value>) = match arg {
        Value::Tuple(items) => (items.to_vec(), None),
        Value::Dict(_) => (vec![arg.clone()], Some(arg)),
        other => (vec![other.clone()], None),
    };
    let mut next = 0;
    let mut take = |what: &str| -> Result<Value, Exception> {
        let _ = what;
        let v = args
            .get(next)
            .cloned()
            .ok_or_else(|| type_error!("not enough arguments for format string"))?;
        next += 1;
        Ok(v)
    };
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut used_mapping = false;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut key_value = None;
        if chars.get(i) == Some(&'(') {
            let mut level = 1;
            let mut j = i + 1;
            while j < chars.len() && level > 0 {
                match chars[j] {
                    '(' => level += 1,
                    ')' => level -= 1,
                    _ => {}
                }
                j += 1;
            }
            if level > 0 {
                return Err(value_error!("incomplete format key"));
            }
            let key: String = chars[i + 1..j - 1].iter().collect();
            let Some(Value::Dict(entries)) = mapping else {
                return Err(type_error!("format requires a mapping"));
            };
            used_mapping = true;
            let k = Value::str(&key);
            key_value = Some(
                entries
                    .iter()
                    .find(|(x, _)| crate::eval::operators::python_eq(x, &k))
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| Exception::new(ExceptionClass::KeyError, repr_of(&k)))?,
            );
            i = j;
        }
        let mut spec = Spec::default();
        let (mut left, mut zero) = (false, false);
        while let Some(&c) = chars.get(i) {
            match c {
                '-' => left = true,
                '0' => zero = true,
                '+' => spec.sign = Some('+'),
                ' ' if spec.sign != Some('+') => spec.sign = Some(' '),
                ' ' => {}
                '#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'*') {
            let w = crate::value::convert::to_int(&take("width")?)
                .map_err(|_| type_error!("* wants int"))?;
            if w < 0 {
                left = true;
            }
            spec.width = w.unsigned_abs() as usize;
            i += 1;
        } else {
            spec.width = digits_at(&chars, &mut i)?.unwrap_or(0);
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            if chars.get(i) == Some(&'*') {
                let p = crate::value::convert::to_int(&take("precision")?)
                    .map_err(|_| type_error!("* wants int"))?;
                spec.precision = Some(p.max(0) as usize);
                i += 1;
            } else {
                spec.precision = Some(digits_at(&chars, &mut i)?.unwrap_or(0));
            }
        }
        // Length modifiers (`%ld`) are accepted and ignored, as in Python.
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&ty) = chars.get(i) else {
            return Err(value_error!("incomplete format"));
        };
        i += 1;
        if ty == '%' {
            out.push('%');
            continue;
        }
        let v = match key_value.take() {
            Some(v) => v,
            None => take("value")?,
        };
        let numeric = matches!(
            ty,
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G'
        );
        spec.align = Some(if left {
            '<'
        } else if zero && numeric {
            '='
        } else {
            '>'
        });
        if zero && numeric && !left {
            spec.fill = Some('0');
        }
        let text = match ty {
            's' | 'r' | 'a' => {
                let s = match ty {
                    's' => str_of(&v),
                    'r' => repr_of(&v),
                    _ => ascii_of(&v),
                };
                let s: String = match spec.precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                };
                pad(&s, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'c' => {
                let c = match &v {
                    Value::Str(s) if s.chars().count() == 1 => s.to_string(),
                    Value::Int(n) => u32::try_from(*n)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| {
                            Exception::new(
                                ExceptionClass::OverflowError,
                                "%c arg not in range(0x110000)",
                            )
                        })?
                        .to_string(),
                    _ => return Err(type_error!("%c requires int or char")),
                };
                pad(&c, ' ', spec.align.unwrap_or('>'), spec.width)?
            }
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                let n = match &v {
                    Value::Int(n) => *n,
                    Value::Bool(b) => i64::from(*b),
                    Value::Float(f) if matches!(ty, 'd' | 'i' | 'u') => {
                        if !f.is_finite() {
                            return Err(Exception::new(
                                ExceptionClass::OverflowError,
                                "cannot convert float infinity to integer",
                            ));
                        }
                        f.trunc() as i64
                    }
                    other if matches!(ty, 'd' | 'i' | 'u') => {
                        return Err(type_error!(
                            "%{ty} format: a real number is required, not {}",
                            other.type_name()
                        ))
                    }
                    other => {
                        return Err(type_error!(
                            "%{ty} format: an integer is required, not {}",
                            other.type_name()
                        ))
                    }
                };
                let abs = n.unsigned_abs();
                let (mut digits, prefix) = match ty {
                    'o' => (format!("{abs:o}"), "0o"),
                    'x' => (format!("{abs:x}"), "0x"),
                    'X' => (format!("{abs:X}"), "0X"),
                    _ => (abs.to_string(), ""),
                };
                // A precision is the least number of digits.
                if let Some(p) = spec.precision {
                    if p > digits.len() {
                        budget::check_bytes("format", p as u128)?;
                        digits = budget::repeat_str("format", "0", p - digits.len())? + &digits;
                    }
                }
                let prefix = if spec.alt { prefix } else { "" };
                let int_spec = Spec {
                    precision: None,
                    ty: Some('d'),
                    ..spec.clone()
                };
                layout(n < 0, prefix, &digits, "", &int_spec, 3)?
            }
            _ if numeric => {
                let f = match &v {
                    Value::Float(f) => *f,
                    Value::Int(n) => *n as f64,
                    Value::Bool(b) => f64::from(u8::from(*b)),
                    other => {
                        return Err(type_error!(
                            "must be real number, not {}",
                            other.type_name()
                        ))
                    }
                };
                let fspec = Spec {
                    ty: Some(ty),
                    precision: Some(spec.precision.unwrap_or(6)),
                    ..spec.clone()
                };
                format_float(f, &fspec)?
            }
            other => {
                return Err(value_error!(
                    "unsupported format character '{other}' (0x{:x}) at index {}",
                    other as u32,
                    i - 1
                ))
            }
        };
        let _ = start;
        out.push_str(&text);
    }
    if next < args.len() && !(mapping.is_some() || used_mapping) {
        return Err(type_error!(
            "not all arguments converted during string formatting"
        ));
    }
    Ok(Value::str(out))
}
