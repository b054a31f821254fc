//! The numeric special methods a builtin reaches on a user's instance, as CPython's:
//! `abs(x)` calls `__abs__`, `float(x)` `__float__` (then `__index__`), `int(x)` `__int__`
//! (then `__index__`), `round(x, n)` `__round__`, `bin`/`hex`/`oct` and an index `__index__`,
//! `math.floor`/`ceil`/`trunc` theirs, and `math`'s other functions read a float through
//! `__float__`. An instance of a class without the method gets CPython's TypeError.

use super::args::CallArg;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::Span;

/// `math`'s functions that take integers, through `__index__`.
const INT_MATH: &[&str] = &[
    "math.factorial",
    "math.gcd",
    "math.lcm",
    "math.comb",
    "math.perm",
    "math.isqrt",
];

fn type_error(msg: String, span: Span) -> Error {
    Error::new(ExceptionClass::TypeError, msg).at(span)
}

/// The user's class of `v`, when `v` is an instance that is not a builtin value's subclass
/// (those convert through their base value).
fn plain_instance(v: &Value) -> Option<&'static str> {
    match v {
        Value::Instance(i) if i.base().is_none() => Some(i.class.name),
        _ => None,
    }
}

impl Interp<'_> {
    /// `builtin(args)` answered by the first argument's special method; None when the
    /// builtin is not one of these or its first argument is not a user's instance. The
    /// arguments of `math`'s functions are converted in place.
    pub(super) fn numeric_protocol(
        &mut self,
        builtin: &str,
        args: &mut [CallArg],
        span: Span,
    ) -> Result<Option<Value>> {
        if let Some(name) = builtin.strip_prefix("math.") {
            if !matches!(name, "floor" | "ceil" | "trunc") {
                let ints = INT_MATH.contains(&builtin);
                for a in args.iter_mut().filter(|a| a.name.is_none()) {
                    if plain_instance(&a.value).is_some() {
                        a.value = if ints {
                            self.index_of(&a.value, a.span)?
                        } else {
                            self.float_of(&a.value, false, a.span)?
                        };
                    }
                }
                return Ok(None);
            }
        }
        if matches!(builtin, "range" | "chr") {
            for a in args.iter_mut().filter(|a| a.name.is_none()) {
                if plain_instance(&a.value).is_some() {
                    a.value = self.index_of(&a.value, a.span)?;
                }
            }
            return Ok(None);
        }
        let Some(first) = args.first().filter(|a| a.name.is_none()) else {
            return Ok(None);
        };
        let Some(class) = plain_instance(&first.value) else {
            return Ok(None);
        };
        let (x, at) = (first.value.clone(), first.span);
        let rest: Vec<Value> = args[1..].iter().map(|a| a.value.clone()).collect();
        let call = |it: &mut Self, name: &str, args: Vec<Value>| it.dunder(&x, name, args, span);
        Ok(Some(match builtin {
            "abs" => match call(self, "__abs__", Vec::new())? {
                Some(v) => v,
                None => {
                    return Err(type_error(
                        format!("bad operand type for abs(): '{class}'"),
                        at,
                    ))
                }
            },
            "float" if rest.is_empty() => self.float_of(&x, true, at)?,
            "int" if rest.is_empty() => self.int_of(&x, at)?,
            "round" => match call(self, "__round__", rest)? {
                Some(v) => v,
                None => {
                    return Err(type_error(
                        format!("type {class} doesn't define __round__ method"),
                        at,
                    ))
                }
            },
            "math.floor" | "math.ceil" | "math.trunc" => {
                let dunder = format!("__{}__", &builtin[5..]);
                match call(self, &dunder, Vec::new())? {
                    Some(v) => v,
                    None => {
                        let f = self.float_of(&x, false, at)?;
                        let b = super::builtins::registry()
                            .get(builtin)
                            .expect("math's functions are registered");
                        let a = vec![CallArg {
                            name: None,
                            value: f,
                            span: at,
                        }];
                        let a = super::args::Args::bind(b, a, span)?;
                        (b.func)(self, &a)?
                    }
                }
            }
            "bin" | "hex" | "oct" => {
                let i = self.index_of(&x, at)?;
                let b = super::builtins::registry()
                    .get(builtin)
                    .expect("bin, hex and oct are registered");
                let a = vec![CallArg {
                    name: None,
                    value: i,
                    span: at,
                }];
                let a = super::args::Args::bind(b, a, span)?;
                (b.func)(self, &a)?
            }
            _ => return Ok(None),
        }))
    }

    /// `x.__index__()`, which must be an int; None when the instance has no `__index__`.
    pub(super) fn try_index(&mut self, x: &Value, span: Span) -> Result<Option<Value>> {
        let Some(v) = self.dunder(x, "__index__", Vec::new(), span)? else {
            return Ok(None);
        };
        match v {
            Value::Int(_) | Value::BigInt(_) => Ok(Some(v)),
            Value::Bool(b) => Ok(Some(Value::Int(i64::from(b)))),
            other => Err(type_error(
                format!("__index__ returned non-int (type {})", other.type_name()),
                span,
            )),
        }
    }

    /// The int an instance stands for where an integer is wanted (`__index__`).
    pub(super) fn index_of(&mut self, x: &Value, span: Span) -> Result<Value> {
        match self.try_index(x, span)? {
            Some(v) => Ok(v),
            None => Err(type_error(
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    x.type_name()
                ),
                span,
            )),
        }
    }

    /// `float(x)` (`builtin`) or a float argument of `math`: `__float__`, else `__index__`
    /// as a float.
    fn float_of(&mut self, x: &Value, builtin: bool, span: Span) -> Result<Value> {
        if let Some(v) = self.dunder(x, "__float__", Vec::new(), span)? {
            return match v {
                Value::Float(_) => Ok(v),
                other => Err(type_error(
                    format!(
                        "{}.__float__ returned non-float (type {})",
                        x.type_name(),
                        other.type_name()
                    ),
                    span,
                )),
            };
        }
        match self.try_index(x, span)? {
            Some(Value::Int(i)) => Ok(Value::Float(i as f64)),
            Some(v) => {
                super::operators::binary(ragtag_syntax::ast::BinOp::Mul, &v, &Value::Float(1.0))
                    .map_err(|e| Error::from(e).at(span))
            }
            None if builtin => Err(type_error(
                format!(
                    "float() argument must be a string or a real number, not '{}'",
                    x.type_name()
                ),
                span,
            )),
            None => Err(type_error(
                format!("must be real number, not {}", x.type_name()),
                span,
            )),
        }
    }

    /// `int(x)`: `__int__`, else `__index__`, else `__trunc__`.
    fn int_of(&mut self, x: &Value, span: Span) -> Result<Value> {
        for name in ["__int__", "__index__", "__trunc__"] {
            if let Some(v) = self.dunder(x, name, Vec::new(), span)? {
                return match v {
                    Value::Int(_) | Value::BigInt(_) => Ok(v),
                    Value::Bool(b) => Ok(Value::Int(i64::from(b))),
                    other => Err(type_error(
                        format!("{name} returned non-int (type {})", other.type_name()),
                        span,
                    )),
                };
            }
        }
        Err(type_error(
            format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                x.type_name()
            ),
            span,
        ))
    }
}
