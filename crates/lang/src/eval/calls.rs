//! Calls: builtins with bound arguments, bound methods, user functions, exception
//! classes and dtypes.

use std::sync::Arc;

use super::args::{Args, CallArg};
use super::builtins::{self, Builtin, ParamSpec};
use super::set_attrs::ItemOwner;
use super::spares::Callee;
use super::statements::outside_loop;
use super::{convert, Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::env::{Env, Locals};
use crate::value::{Closure, ClosureBody, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl<'s> Interp<'s> {
    /// Calls a function value with evaluated arguments.
    pub fn call(&mut self, func: &Value, args: Vec<CallArg>, span: Span) -> Result<Value> {
        self.check_cancel()?;
        match func {
            Value::Builtin(b) => self.call_builtin(b, args, span),
            Value::Method(m) => {
                #[allow(clippy::disallowed_methods)] // sized by the source text
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(CallArg {
                    name: None,
                    value: m.receiver.clone(),
                    span,
                });
                all.extend(args);
                self.call_builtin(m.builtin, all, span)
            }
            Value::Closure(c) => self.call_closure(c, args, span),
            Value::Class(c) => self.instantiate(c, args, span),
            Value::Bound(b) => self.call_method(&b.receiver, &b.func, args, span),
            Value::Instance(_) => self.call_instance(func, args, span),
            Value::ErrorClass(class) => {
                let values: Vec<Value> = args.iter().map(|a| a.value.clone()).collect();
                if let Some((class, msg)) =
                    builtins::python::exception_attrs::construct(*class, &values)
                {
                    let e = builtins::python::exception_args::make(class, msg, values);
                    return Ok(Value::Exception(Arc::new(e)));
                }
                let msg = match args.first().map(|a| &a.value) {
                    // `str(KeyError('k'))` is the key's repr, as CPython's.
                    Some(v) if *class == ExceptionClass::KeyError && args.len() == 1 => {
                        crate::render::tf_text::repr_of(v)
                    }
                    Some(_) if args.len() > 1 => crate::render::tf_text::repr_of(&Value::tuple(
                        args.iter().map(|a| a.value.clone()).collect(),
                    )),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(v) => crate::render::tf_text::str_of(v),
                    None => String::new(),
                };
                let e = builtins::python::exception_args::make(*class, msg, values);
                Ok(Value::Exception(Arc::new(e)))
            }
            Value::DType(d) => {
                let a = args.into_iter().next().ok_or_else(|| {
                    Error::new(ExceptionClass::TypeError, "a dtype call needs one value").at(span)
                })?;
                let x =
                    convert::to_array(&a.value, Some(*d)).map_err(|e| Error::from(e).at(a.span))?;
                builtins::cast_array(&x, *d)
                    .map(Value::from_array)
                    .map_err(|e| Error::from(e).at(span))
            }
            // NumPy's scalar type makes a NumPy scalar (or, from a list, an array).
            Value::NpType(t) if t.scalar => {
                let a = args.into_iter().next().ok_or_else(|| {
                    Error::new(
                        ExceptionClass::TypeError,
                        format!("np.{}() needs a value here", t.name()),
                    )
                    .at(span)
                })?;
                let x = convert::to_array(&a.value, Some(t.dtype))
                    .map_err(|e| Error::from(e).at(a.span))?;
                match builtins::cast_array(&x, t.dtype).map_err(|e| Error::from(e).at(span))? {
                    ragtag_engine::Array::Dense(d) => {
                        Ok(Value::NdArray(Arc::new(crate::value::NdArray::Dense(d))))
                    }
                    ragged => Ok(Value::from_array(ragged)),
                }
            }
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not callable", other.type_name()),
            )
            .at(span)),
        }
    }

    /// A call of an attribute, `obj.name(args)`. A builtin method of a Python container
    /// or string (`out.append(i)`, `d.get(k, 0)`) is called with the receiver as its first
    /// argument directly, without making the bound-method value `obj.name` would be; any
    /// other attribute is read and called as an expression would be.
    pub(super) fn call_attr(
        &mut self,
        f: &Expr,
        obj: &Expr,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        ragtag_engine::guard::check_stack().map_err(|err| Error::from(err).at(f.span))?;
        if let Some(result) = self.named_container_method(obj, name, args) {
            return result;
        }
        if let ExprKind::Name(n) = &obj.kind {
            if let Some(result) = self.cached_method_call(n, name, args, span) {
                return result;
            }
        }
        let o = match (name, &obj.kind) {
            // `self.__dict__.update(kwargs)` sets the instance's attributes.
            ("update", ExprKind::Attr(_, d)) if d == "__dict__" => {
                match self.item_owner(obj, false)? {
                    ItemOwner::Attrs(i) => {
                        let fresh = Value::dict(Vec::new())?;
                        self.call_attr_on(fresh.clone(), f, obj, name, args, span)?;
                        return self.dict_update(&i, &fresh, span);
                    }
                    ItemOwner::Value(o) => o,
                }
            }
            _ => self.eval(obj)?,
        };
        self.call_attr_on(o, f, obj, name, args, span)
    }

    /// [`Self::call_attr`] once `obj` is evaluated to `o`.
    fn call_attr_on(
        &mut self,
        o: Value,
        f: &Expr,
        obj: &Expr,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        if let Value::Instance(i) = &o {
            // `obj.method(a, b)` of a user class's `def method(self, a, b)`: the receiver and
            // each argument go straight into the new frame, with no bound method, argument
            // list or binding made.
            if let Some(c) = super::classes::plain_function(i, name) {
                if plain_positional(&c, args, 1) {
                    let key = self.method_key(&i.class, name);
                    let callee = Callee::Held(c, Some(key));
                    return self.call_closure_args(callee, None, Some(o), args, span);
                }
            }
        }
        if let Some(result) = self.container_method(&o, name, args, span) {
            return result;
        }
        if let Some(b) = plain_method(&o, name) {
            if let Some(params) = positional_params(b, args, 1) {
                return self.call_builtin_slots(b, params, Some(o), args, span);
            }
            #[allow(clippy::disallowed_methods)] // sized by the source text
            let mut all = Vec::with_capacity(args.len() + 1);
            all.push(CallArg {
                name: None,
                value: o,
                span,
            });
            self.call_args_into(&Value::Builtin(b), args, &mut all)?;
            self.check_cancel()?;
            return self.call_builtin(b, all, span);
        }
        let func = self.get_attr(o, name, f.span, obj.span)?;
        if let Value::Method(m) = &func {
            let receiver = Some(m.receiver.clone());
            if let Some(result) = self.call_builtin_positional(m.builtin, receiver, args, span) {
                return Ok(self.rebind_receiver(f, &func, result?));
            }
        }
        let call_args = self.call_args(&func, args)?;
        let result = self.call(&func, call_args, span)?;
        Ok(self.rebind_receiver(f, &func, result))
    }

    /// `xs.append(x)`, `d.get(k)` and `d.get(k, default)`, the container methods loops call
    /// most, without binding the builtin's arguments. `None` (with nothing evaluated) for
    /// any other call.
    fn container_method(
        &mut self,
        o: &Value,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> Option<Result<Value>> {
        if !matches!(
            (o, name),
            (Value::List(_), "append") | (Value::Dict(_), "get")
        ) || args.iter().any(|a| a.star || a.double_star)
        {
            return None;
        }
        Some(self.call_container_method(o, name, args, span))
    }

    /// [`Self::container_method`] once the call is known to be one of its own.
    fn call_container_method(
        &mut self,
        o: &Value,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        // Every argument is evaluated before a wrong count is an error, as in CPython.
        let mut values = [Value::None, Value::None];
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(&a.value)?;
            if let Some(slot) = values.get_mut(i) {
                *slot = v;
            }
        }
        self.check_cancel()?;
        if let Some(message) = container_arity(name, args) {
            return Err(Error::new(ExceptionClass::TypeError, message).at(span));
        }
        let [first, second] = values;
        // Iterators, instances and NumPy arrays take the general path, which primes or
        // converts them as the builtin needs.
        let general =
            |v: &Value| matches!(v, Value::Iter(_) | Value::Instance(_) | Value::NdArray(_));
        match o {
            Value::List(l) if !general(&first) => {
                l.with_mut(|items| items.push(first));
                Ok(Value::None)
            }
            Value::Dict(d) if !general(&first) && !general(&second) => Ok(d
                .get(&first)
                .map_err(|e| Error::from(e).at(args[0].value.span))?
                .unwrap_or(second)),
            _ => {
                let b = plain_method(o, name).ok_or_else(|| {
                    Error::new(ExceptionClass::AttributeError, format!("no method {name}")).at(span)
                })?;
                let receiver = CallArg {
                    name: None,
                    value: o.clone(),
                    span,
                };
                let rest = [first, second]
                    .into_iter()
                    .zip(args)
                    .map(|(value, a)| CallArg {
                        name: None,
                        value,
                        span: a.value.span,
                    });
                self.call_builtin(b, std::iter::once(receiver).chain(rest).collect(), span)
            }
        }
    }

    /// A builtin called with plain positional arguments (`len(x)`, or `d.get(k, 0)` with
    /// `receiver` first): each value goes to its parameter as it is evaluated, with no
    /// argument list to build and bind. `None`, with nothing evaluated, for a call with
    /// keyword, `*` or `**` arguments, or more than reach the builtin's plain parameters.
    pub(super) fn call_builtin_positional(
        &mut self,
        b: &'static Builtin,
        receiver: Option<Value>,
        args: &[Arg],
        span: Span,
    ) -> Option<Result<Value>> {
        let params = positional_params(b, args, usize::from(receiver.is_some()))?;
        Some(self.call_builtin_slots(b, params, receiver, args, span))
    }

    fn call_builtin_slots(
        &mut self,
        b: &'static Builtin,
        params: &'static [ParamSpec],
        receiver: Option<Value>,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        let mut bound = Args::positional(b, params, span);
        if let Some(r) = receiver {
            bound.push_positional(r, span);
        }
        for a in args {
            let v = self.eval(&a.value)?;
            bound.push_positional(v, a.value.span);
        }
        self.check_cancel()?;
        // Iterators, instances and NumPy arrays take the general path, which drains,
        // primes or converts them as the builtin needs.
        if bound.needs_conversion() {
            return self.call_builtin(b, bound.into_call_args(), span);
        }
        bound.finish_positional()?;
        (b.func)(self, &bound).map_err(|e| e.at(span))
    }

    /// Binds `args` to a builtin's signature and calls it.
    fn call_builtin(
        &mut self,
        b: &'static Builtin,
        args: Vec<CallArg>,
        span: Span,
    ) -> Result<Value> {
        let mut args = self.drain_iterators(b, args)?;
        if args.iter().any(|a| matches!(a.value, Value::Instance(_))) {
            if let Some(v) = self.numeric_protocol(b.name, &mut args, span)? {
                return Ok(v);
            }
            self.prime_builtin_args(b.name, &args, span)?;
        }
        let args = Args::bind(b, args, span)?;
        (b.func)(self, &args).map_err(|e| e.at(span))
    }

    /// Calls a user function.
    pub fn call_closure(
        &mut self,
        c: &Arc<Closure>,
        args: Vec<CallArg>,
        span: Span,
    ) -> Result<Value> {
        self.check_depth(span)?;
        let callee = Callee::Borrowed(c);
        let frame = self.closure_frame(callee, None, |_, c, vars| {
            *vars = super::params::bind(c, args, span, std::mem::take(vars))?;
            Ok(())
        })?;
        self.run_closure(frame, span)
    }

    /// The call most code makes, `f(a, b)` of `def f(a, b)`: each argument is evaluated
    /// straight into the new frame, with no argument list to build and bind, and the frame
    /// keeps `c` for the next call of it. `Err(c)` (with nothing evaluated) when the call
    /// has keyword, `*` or `**` arguments, or another count than the function's plain
    /// positional parameters.
    pub(super) fn call_closure_positional(
        &mut self,
        c: Arc<Closure>,
        args: &[Arg],
        span: Span,
    ) -> std::result::Result<Result<Value>, Arc<Closure>> {
        if !plain_positional(&c, args, 0) {
            return Err(c);
        }
        Ok(self.call_closure_args(Callee::Held(c, None), None, None, args, span))
    }

    /// Calls `callee` with `receiver` (a method's) and then `args` bound to its parameters
    /// in order (the caller has checked they match one for one), in `env` when that is a
    /// spare frame set up for it already.
    pub(super) fn call_closure_args(
        &mut self,
        callee: Callee,
        env: Option<Arc<Env>>,
        mut receiver: Option<Value>,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        let frame = self.closure_frame(callee, env, |it, c, vars| {
            let mut names = c.bindings.params.iter();
            if let Some(r) = receiver.take() {
                if let Some(name) = names.next() {
                    vars.push_param(name, r);
                }
            }
            for (name, a) in names.zip(args) {
                let v = it.eval(&a.value)?;
                vars.push_param(name, v);
            }
            it.check_cancel()?;
            it.check_depth(span)
        })?;
        self.run_closure(frame, span)
    }
    /// The frame of a call of `callee`, its parameters bound by `bind`: `env` (a spare frame
    /// set up for it) when given, else a finished call's frame reused or a new one. When
    /// `bind` fails, the frame and variables stay spare.
    fn closure_frame<'c>(
        &mut self,
        callee: Callee<'c>,
        env: Option<Arc<Env>>,
        bind: impl FnOnce(&mut Self, &Arc<Closure>, &mut Locals) -> Result<()>,
    ) -> Result<CallFrame<'c>> {
        let mut vars = self.spare_locals();
        if let Err(err) = bind(self, callee.func(), &mut vars) {
            self.keep_locals(vars);
            if let Some(env) = env {
                self.keep_env(env, callee);
            }
            return Err(err);
        }
        let env = match env {
            Some(env) => env,
            None => self.fresh_frame(callee.func()),
        };
        Ok(CallFrame { callee, env, vars })
    }

    /// CPython's RecursionError past [`super::recursion_limit`] nested calls.
    fn check_depth(&self, span: Span) -> Result<()> {
        let limit = super::recursion_limit();
        if self.frames.len() < limit {
            return Ok(());
        }
        Err(Error::new(
            ExceptionClass::RecursionError,
            format!("maximum recursion depth exceeded ({limit} nested calls)"),
        )
        .at(span)
        .with_hint("Python's default recursion limit; a recursive function needs a base case"))
    }

    /// Runs a user function's body in its frame (its parameters bound), or makes the
    /// generator a generator function's call returns.
    fn run_closure(&mut self, frame: CallFrame, span: Span) -> Result<Value> {
        let CallFrame { callee, env, vars } = frame;
        let c = callee.func();
        if c.bindings.generator {
            *env.vars() = *vars;
            return Ok(self.make_generator(c, env));
        }
        self.push_own_frame(env, vars);
        let result = match &c.body {
            ClosureBody::Expr(e) => self.eval(e),
            ClosureBody::Block(body) => self.exec_block(body).and_then(|f| match f {
                Flow::Return(v) => Ok(v),
                Flow::Normal => Ok(Value::None),
                Flow::Break | Flow::Continue => Err(outside_loop(span)),
            }),
        };
        let result = self.call_result(c, result);
        let vars = self.own_frame_vars();
        let Some(mut env) = self.frames.pop() else {
            return result;
        };
        // The interpreter held the variables throughout and the frame is not held elsewhere
        // (a plain load, no atomic operation): the frame is spare as it is, its own
        // variables never used.
        if Arc::strong_count(&env) == 1 {
            if let Some(vars) = vars {
                self.keep_frame(env, vars, callee);
                return result;
            }
        }
        match Arc::get_mut(&mut env) {
            Some(e) => {
                e.recycle(vars.map(|v| *v));
                self.keep_env(env, callee);
            }
            None => {
                if let Some(vars) = vars {
                    *env.vars() = *vars;
                }
                drop(callee);
                self.forget_frame(&env);
                Env::release(env);
            }
        }
        result
    }

    /// A call of `c`'s result: an error inside a function from another cell keeps its own
    /// source.
    fn call_result(&self, c: &Closure, result: Result<Value>) -> Result<Value> {
        result.map_err(|e| {
            if c.source != self.source {
                e.in_source(c.source)
            } else {
                e
            }
        })
    }

    /// Calls any function value with positional values (used by `map_fn` and friends).
    pub fn call_values(&mut self, func: &Value, values: Vec<Value>, span: Span) -> Result<Value> {
        let args = values
            .into_iter()
            .map(|value| CallArg {
                name: None,
                value,
                span,
            })
            .collect();
        self.call(func, args, span)
    }
}

/// `b`'s parameters, when `args` after `before` values (a method's receiver) are plain
/// positional ones that bind to its parameters one by one.
fn positional_params(
    b: &'static Builtin,
    args: &[Arg],
    before: usize,
) -> Option<&'static [ParamSpec]> {
    if args
        .iter()
        .any(|a| a.star || a.double_star || a.name.is_some())
    {
        return None;
    }
    let params = b.params();
    Args::positional_fits(params, args.len() + before).then_some(params)
}

/// The builtin method `o.name` is, when reading it has no other effect: `o` is a Python
/// container or string (whose attributes are only their class's members) and the member is
/// a plain method (not a property, nor one that rebinds its receiver's name).
fn plain_method(o: &Value, name: &str) -> Option<&'static Builtin> {
    if !matches!(
        o,
        Value::List(_) | Value::Dict(_) | Value::Str(_) | Value::Tuple(_) | Value::Set(_)
    ) || name == "__class__"
    {
        return None;
    }
    let member = builtins::class_of(o).and_then(|c| builtins::registry().member(c, name));
    // Counter, defaultdict and OrderedDict have every dict method (as `get_attr` reads them).
    let member = member.or_else(|| {
        matches!(o, Value::Dict(_))
            .then(|| builtins::registry().member("dict", name))
            .flatten()
    })?;
    (member.kind == builtins::Kind::Method && !builtins::updates_receiver(member)).then_some(member)
}

/// CPython's TypeError for a call of `list.append` or `dict.get` with keywords or the wrong
/// number of arguments; `None` for a right one.
fn container_arity(name: &str, args: &[Arg]) -> Option<String> {
    let n = args.len();
    let method = if name == "append" {
        "list.append"
    } else {
        "dict.get"
    };
    if args.iter().any(|a| a.name.is_some()) {
        return Some(format!("{method}() takes no keyword arguments"));
    }
    Some(match (name, n) {
        ("append", 1) | ("get", 1 | 2) => return None,
        ("append", _) => format!("list.append() takes exactly one argument ({n} given)"),
        (_, 0) => "get expected at least 1 argument, got 0".to_string(),
        _ => format!("get expected at most 2 arguments, got {n}"),
    })
}

/// A call's function and frame, its parameters bound, about to run.
struct CallFrame<'c> {
    callee: Callee<'c>,
    env: Arc<Env>,
    vars: Box<Locals>,
}

/// Whether `args` are plain positional ones, as many as `c`'s plain positional parameters
/// after the `bound` ones (a method's receiver) that the call fills itself.
#[inline]
pub(super) fn plain_positional(c: &Closure, args: &[Arg], bound: usize) -> bool {
    c.bindings.positional
        && args.len() + bound == c.bindings.params.len()
        && !args
            .iter()
            .any(|a| a.star || a.double_star || a.name.is_some())
}
