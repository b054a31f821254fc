//! Binding call arguments to a builtin's parameters, and reading them as the types builtins
//! need — each conversion error points at the argument that caused it.

use super::builtins::{Builtin, Kind, ParamSpec};
use super::convert;
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::{Array, DType, ExceptionClass};
use ragtag_syntax::ast::Span;
use std::sync::Arc;

/// Arguments bound to a builtin's parameters.
#[derive(Debug)]
pub struct Args {
    /// The span of the whole call.
    pub call: Span,
    builtin: &'static Builtin,
    /// The builtin's parameters, looked up once per call rather than once per argument read.
    params: &'static [ParamSpec],
    slots: Slots,
    rest: Vec<(Value, Span)>,
    kwargs: Vec<(String, Value, Span)>,
}

/// A builtin's arguments by parameter, inline for up to four.
pub(crate) type Slots = smallvec::SmallVec<[Option<(Value, Span)>; 4]>;

/// An argument as evaluated at the call site.
#[derive(Debug, Clone)]
pub struct CallArg {
    /// `Some(name)` for keyword arguments.
    pub name: Option<String>,
    /// The value.
    pub value: Value,
    /// Its source span.
    pub span: Span,
}

/// CPython's TypeError for a required parameter no argument reached.
fn check_required(
    builtin: &'static Builtin,
    params: &[ParamSpec],
    slots: &Slots,
    call: Span,
) -> Result<()> {
    for (p, slot) in params.iter().zip(slots) {
        if p.required && slot.is_none() {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{}() missing required argument '{}'", builtin.name, p.name),
            )
            .at(call)
            .with_hint(format!("signature: {}", builtin.signature())));
        }
    }
    Ok(())
}

impl Args {
    /// Binds `args` to `builtin`'s parameters as Python would.
    pub fn bind(builtin: &'static Builtin, args: Vec<CallArg>, call: Span) -> Result<Args> {
        let params = builtin.params();
        // A NumPy array converts where a TensorFlow (or Paddle, or ragtag) function expects
        // a tensor; NumPy's own functions and Python's builtins see the array itself.
        // tf.print writes a NumPy array as NumPy's repr, unlike a tensor.
        // Asked only when an argument is a NumPy array: the question scans the Python tables,
        // which every call of a builtin method (`out.append(i)`) would otherwise pay for.
        let has_array = args.iter().any(|a| matches!(a.value, Value::NdArray(_)));
        let keep_arrays = !has_array
            || builtin.name.starts_with("np.")
            || builtin.name == "tf.print"
            || crate::eval::builtins::python::BUILTINS
                .iter()
                .chain(crate::eval::builtins::python::CONTAINERS)
                .chain(crate::eval::builtins::python::NUMBER_METHODS)
                .any(|b| std::ptr::eq(b, builtin));
        let args: Vec<CallArg> = if keep_arrays {
            args
        } else {
            args.into_iter()
                .map(|a| match &a.value {
                    Value::NdArray(_) => match crate::eval::convert::to_array(&a.value, None) {
                        Ok(x) => CallArg {
                            value: Value::Array(x),
                            ..a
                        },
                        Err(_) => a,
                    },
                    _ => a,
                })
                .collect()
        };
        let mut slots: Slots = std::iter::repeat_with(|| None).take(params.len()).collect();
        let mut rest = Vec::new();
        let variadic = params.iter().position(|p| p.variadic && !p.keywords);
        let takes_kwargs = params.iter().any(|p| p.keywords);
        let mut kwargs: Vec<(String, Value, Span)> = Vec::new();
        let mut next = 0;
        let given = args.iter().filter(|a| a.name.is_none()).count();
        for a in args {
            match a.name {
                None => {
                    if Some(next) == variadic {
                        rest.push((a.value, a.span));
                        continue;
                    }
                    if params.get(next).is_none_or(|p| p.keyword_only) {
                        return Err(too_many_positional(builtin, params, given, a.span));
                    }
                    slots[next] = Some((a.value, a.span));
                    next += 1;
                }
                Some(name) => {
                    let known = params.iter().position(|p| p.name == name && !p.variadic);
                    if known.is_some_and(|i| params[i].positional_only) && !takes_kwargs {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "{}() got some positional-only arguments passed as keyword arguments: '{name}'",
                                builtin.name
                            ),
                        )
                        .at_labeled(a.span, "positional-only")
                        .with_hint(format!(
                            "pass it by position; signature: {}",
                            builtin.signature()
                        )));
                    }
                    let known = known.filter(|&i| !params[i].positional_only);
                    if known.is_none() && takes_kwargs {
                        if kwargs.iter().any(|(k, _, _)| *k == name) {
                            return Err(Error::new(
                                ExceptionClass::TypeError,
                                format!(
                                    "{}() got multiple values for keyword argument '{name}'",
                                    builtin.name
                                ),
                            )
                            .at(a.span));
                        }
                        kwargs.push((name, a.value, a.span));
                        continue;
                    }
                    let Some(i) = known else {
                        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
                        let mut err = Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "{}() got an unexpected keyword argument '{name}'",
                                builtin.name
                            ),
                        )
                        .at_labeled(a.span, "unknown keyword");
                        err = match crate::eval::suggest::closest(&name, names.iter().copied()) {
                            Some(s) => err.with_hint(format!(
                                "did you mean `{s}`? signature: {}",
                                builtin.signature()
                            )),
                            None => err.with_hint(format!("signature: {}", builtin.signature())),
                        };
                        return Err(err);
                    };
                    if slots[i].is_some() {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "{}() got multiple values for argument '{name}'",
                                builtin.name
                            ),
                        )
                        .at(a.span));
                    }
                    slots[i] = Some((a.value, a.span));
                }
            }
        }
        Args::complete(builtin, params, slots, rest, kwargs, call)
    }

    /// Arguments for `builtin` to receive positional values one by one
    /// ([`Args::push_positional`], then [`Args::finish_positional`]): values that
    /// [`Args::positional_fits`] admits, none of them an iterator, an instance or a NumPy
    /// array (which [`Args::bind`] and the call path convert first). Built where it is used,
    /// so the inline slots are never moved.
    pub(crate) fn positional(
        builtin: &'static Builtin,
        params: &'static [ParamSpec],
        call: Span,
    ) -> Args {
        Args {
            call,
            builtin,
            params,
            slots: Slots::new(),
            rest: Vec::new(),
            kwargs: Vec::new(),
        }
    }

    /// Binds the next positional value.
    pub(crate) fn push_positional(&mut self, value: Value, span: Span) {
        self.slots.push(Some((value, span)));
    }

    /// Whether a positional value is one the general binding converts first.
    pub(crate) fn needs_conversion(&self) -> bool {
        self.slots
            .iter()
            .flatten()
            .any(|(v, _)| matches!(v, Value::Iter(_) | Value::Instance(_) | Value::NdArray(_)))
    }

    /// The positional values, as arguments for the general binding.
    pub(crate) fn into_call_args(self) -> Vec<CallArg> {
        self.slots
            .into_iter()
            .flatten()
            .map(|(value, span)| CallArg {
                name: None,
                value,
                span,
            })
            .collect()
    }

    /// Leaves the parameters no value reached unset, or fails as [`Args::bind`] does when
    /// one of them is required.
    pub(crate) fn finish_positional(&mut self) -> Result<()> {
        while self.slots.len() < self.params.len() {
            self.slots.push(None);
        }
        check_required(self.builtin, self.params, &self.slots, self.call)
    }

    /// Whether `count` positional arguments bind to `params` one by one: no more of them
    /// than parameters, and none reaching a `*args` or `**kwargs` parameter.
    pub(crate) fn positional_fits(params: &[ParamSpec], count: usize) -> bool {
        count <= params.len() && !params[..count].iter().any(|p| p.variadic || p.keyword_only)
    }

    fn complete(
        builtin: &'static Builtin,
        params: &'static [ParamSpec],
        slots: Slots,
        rest: Vec<(Value, Span)>,
        kwargs: Vec<(String, Value, Span)>,
        call: Span,
    ) -> Result<Args> {
        check_required(builtin, params, &slots, call)?;
        Ok(Args {
            call,
            builtin,
            params,
            slots,
            rest,
            kwargs,
        })
    }

    fn slot(&self, name: &str) -> Option<&(Value, Span)> {
        let i = self
            .params
            .iter()
            .position(|p| crate::value::locals::same_name(&p.name, name))
            .unwrap_or_else(|| panic!("{} has no parameter {name}", self.builtin.name));
        self.slots[i].as_ref()
    }

    /// The builtin being called.
    pub fn builtin(&self) -> &'static Builtin {
        self.builtin
    }
    /// The argument `name`, if given and not `None`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.slot(name)
            .map(|(v, _)| v)
            .filter(|v| !matches!(v, Value::None))
    }
    /// The argument `name` if the call gave it, `None` included.
    pub fn given(&self, name: &str) -> Option<&Value> {
        self.slot(name).map(|(v, _)| v)
    }
    /// The argument `name` (required parameters are always present after binding).
    pub fn value(&self, name: &str) -> &Value {
        self.slot(name).map(|(v, _)| v).unwrap_or(&Value::None)
    }
    /// The span of argument `name`, or of the call when it was not given.
    pub fn span(&self, name: &str) -> Span {
        self.slot(name).map_or(self.call, |(_, s)| *s)
    }
    /// The extra positional arguments of a `*args` parameter.
    pub fn rest(&self) -> &[(Value, Span)] {
        &self.rest
    }
    /// The keyword arguments of a `**kwargs` parameter, in call order.
    pub fn kwargs(&self) -> &[(String, Value, Span)] {
        &self.kwargs
    }
    /// The `*args` and `**kwargs` a builtin received, as arguments to pass on to a call.
    pub fn forwarded(&self) -> Vec<CallArg> {
        let mut args: Vec<CallArg> = self
            .rest
            .iter()
            .map(|(v, s)| CallArg {
                name: None,
                value: v.clone(),
                span: *s,
            })
            .collect();
        args.extend(self.kwargs.iter().map(|(k, v, s)| CallArg {
            name: Some(k.clone()),
            value: v.clone(),
            span: *s,
        }));
        args
    }
    /// Attaches the span of argument `name` to an error.
    pub fn err_at(&self, name: &str, e: impl Into<Error>) -> Error {
        e.into().at(self.span(name))
    }

    /// Argument `name` as a dense or ragged tensor (`hint`: dtype for Python literals).
    pub fn array(&self, name: &str, hint: Option<DType>) -> Result<Arc<Array>> {
        convert::to_array(self.value(name), hint).map_err(|e| self.err_at(name, e))
    }
    /// Argument `name` as an int, if given.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => convert::to_int(v)
                .map(Some)
                .map_err(|e| self.err_at(name, e)),
        }
    }
    /// Argument `name` as an int (an error when missing).
    pub fn int(&self, name: &str) -> Result<i64> {
        self.opt_int(name)?.ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!("argument '{name}' must be an int, not None"),
            )
            .at(self.span(name))
        })
    }
    /// Argument `name` as a list of ints (a Python list or an integer vector).
    pub fn ints(&self, name: &str) -> Result<Vec<i64>> {
        convert::to_ints(self.value(name)).map_err(|e| self.err_at(name, e))
    }
    /// Argument `name` as a dtype, if given.
    pub fn dtype(&self, name: &str) -> Result<Option<DType>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => convert::to_dtype(v)
                .map(Some)
                .map_err(|e| self.err_at(name, e)),
        }
    }
    /// Argument `name` as a bool (default when missing).
    pub fn flag(&self, name: &str, default: bool) -> Result<bool> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v.truthy().map_err(|e| self.err_at(name, e)),
        }
    }
    /// Argument `name` as a string, if given.
    pub fn opt_str(&self, name: &str) -> Result<Option<String>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(v) => Err(Error::new(
                ExceptionClass::TypeError,
                format!("argument '{name}' must be a str, not {}", v.type_name()),
            )
            .at(self.span(name))),
        }
    }
}

/// CPython's TypeError for more positional arguments than `builtin` takes (`given` of them,
/// a method's receiver among them, which neither count includes).
fn too_many_positional(
    builtin: &'static Builtin,
    params: &[ParamSpec],
    given: usize,
    at: Span,
) -> Error {
    let receiver = usize::from(builtin.kind == Kind::Method);
    let takes = |p: &&ParamSpec| !p.variadic && !p.keyword_only;
    let most = params.iter().filter(takes).count().saturating_sub(receiver);
    let least = params
        .iter()
        .filter(takes)
        .filter(|p| p.required)
        .count()
        .saturating_sub(receiver);
    let given = given.saturating_sub(receiver);
    let takes = match (least == most, most) {
        (true, 0) => "no positional arguments".to_string(),
        (true, 1) => "1 positional argument".to_string(),
        (true, n) => format!("{n} positional arguments"),
        (false, n) => format!("from {least} to {n} positional arguments"),
    };
    let were = if given == 1 { "was" } else { "were" };
    Error::new(
        ExceptionClass::TypeError,
        format!("{}() takes {takes} but {given} {were} given", builtin.name),
    )
    .at_labeled(at, "one too many")
    .with_hint(format!("signature: {}", builtin.signature()))
}
