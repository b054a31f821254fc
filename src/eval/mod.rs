//! The evaluator: runs statements and expressions against a session's names and the
//! builtin table.

pub mod args;
pub mod builtins;
pub mod convert;
pub mod exceptions;
pub mod operators;
mod subscript;
pub mod suggest;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use args::{Args, CallArg};
use builtins::{registry, Builtin, Kind};

use crate::diagnostic::{Error, Result};
use crate::engine::EngineError;
use crate::syntax::ast::*;
use crate::value::{Closure, ClosureBody, Value};
use exceptions::{Exception, ExceptionClass};

/// Where evaluation sends what a program shows.
pub trait Sink: Send {
    /// A bare expression statement produced `value` at top level.
    fn display(&mut self, value: &Value);
    /// `print(…)` wrote `text` (including its line end).
    fn print(&mut self, text: &str);
    /// Whether a bare expression whose value is None is displayed (`{"kind": "none"}` in
    /// JSON); by default it shows nothing, as in Python's REPL.
    fn shows_none(&self) -> bool {
        false
    }
    /// How text this sink shows should be drawn (width, limits, Unicode, colour), for output
    /// rendered during evaluation such as `explain(x)`. Plain Unicode by default.
    fn render_options(&self) -> crate::render::Options {
        crate::render::Options::default()
    }
    /// A display that is not a value — `explain(x)`'s view of how a value is stored. The
    /// default prints it as a text table; a sink that can show rich output (the Jupyter
    /// kernel) overrides this to send HTML too.
    fn show(&mut self, display: &crate::render::grid::Display, opts: &crate::render::Options) {
        self.print(&format!(
            "{}\n",
            crate::render::table::to_text(display, opts)
        ));
    }
}

/// How a statement finished.
enum Flow {
    Normal,
    Return(Value),
    Break,
    Continue,
}

/// Deepest nesting of user function calls before a RecursionError: Python's default
/// recursion limit. Nested expressions are bounded separately by the evaluation stack
/// ([`crate::guard::check_stack`]).
pub const MAX_DEPTH: usize = 1000;

/// One evaluation in progress: the session's globals plus a stack of local frames.
pub struct Interp<'s> {
    globals: &'s mut HashMap<String, Value>,
    frames: Vec<HashMap<String, Value>>,
    sink: &'s mut dyn Sink,
    cancel: &'s AtomicBool,
    /// The id of the source being run (for closures created in it).
    pub source: usize,
    /// What the running top-level statement changed in the globals: each name with the
    /// value it had before the statement (kept once per name, so a loop that assigns a
    /// name a billion times keeps one entry), so a failing statement can be undone.
    undo: HashMap<String, Option<Value>>,
}

/// The names every session starts with besides builtins: module roots and exception classes.
pub fn root_module(name: &str) -> Option<&'static str> {
    Some(match name {
        "tf" | "tensorflow" => "tf",
        "np" | "numpy" => "np",
        "fluid" => "fluid",
        "paddle" => "paddle",
        "math" => "math",
        _ => return None,
    })
}

impl<'s> Interp<'s> {
    /// An evaluator over `globals`, sending output to `sink`.
    pub fn new(
        globals: &'s mut HashMap<String, Value>,
        sink: &'s mut dyn Sink,
        cancel: &'s AtomicBool,
        source: usize,
    ) -> Self {
        Interp {
            globals,
            frames: Vec::new(),
            sink,
            cancel,
            source,
            undo: HashMap::new(),
        }
    }

    /// Fails with KeyboardInterrupt when the user asked to stop.
    pub fn check_cancel(&self) -> Result<()> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Error::from(crate::engine::interrupt::interrupted()));
        }
        Ok(())
    }

    /// Sends `print` output to the sink.
    pub fn print(&mut self, text: &str) {
        self.sink.print(text);
    }

    /// The display options of the sink output goes to.
    pub fn render_options(&self) -> crate::render::Options {
        self.sink.render_options()
    }

    /// Sends a display that is not a value (an explanation) to the sink.
    pub fn show(&mut self, display: &crate::render::grid::Display) {
        let opts = self.sink.render_options();
        self.sink.show(display, &opts);
    }

    /// Runs a whole program at top level, as Python does: the statements before a failing
    /// one keep their effects, and the failing statement has none (every global name it
    /// assigned gets its old value back, or is removed again).
    pub fn run(&mut self, program: &Program) -> Result<()> {
        for stmt in &program.body {
            self.undo.clear();
            let result = self.check_cancel().and_then(|()| match self.exec(stmt)? {
                Flow::Break | Flow::Continue => Err(outside_loop(stmt.span)),
                Flow::Normal | Flow::Return(_) => Ok(()),
            });
            if let Err(e) = result {
                self.rollback();
                return Err(e);
            }
        }
        self.undo.clear();
        Ok(())
    }

    /// Undoes what the running top-level statement did to the globals.
    fn rollback(&mut self) {
        for (name, old) in std::mem::take(&mut self.undo) {
            match old {
                Some(v) => self.globals.insert(name, v),
                None => self.globals.remove(&name),
            };
        }
    }

    /// Binds a global name, remembering its old value for [`Interp::rollback`].
    fn set_global(&mut self, name: &str, v: Value) {
        let old = self.globals.insert(name.to_string(), v);
        if !self.undo.contains_key(name) {
            self.undo.insert(name.to_string(), old);
        }
    }

    fn exec_block(&mut self, body: &[Stmt]) -> Result<Flow> {
        for stmt in body {
            self.check_cancel()?;
            match self.exec(stmt)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, stmt: &Stmt) -> Result<Flow> {
        crate::guard::check_stack().map_err(|e| Error::from(e).at(stmt.span))?;
        match &stmt.kind {
            StmtKind::Expr(e) => {
                let v = self.eval(e)?;
                // A top-level call of `print` shows only what it printed.
                let print_call = matches!(&e.kind, ExprKind::Call(f, _)
                    if matches!(&f.kind, ExprKind::Name(n) if n == "print"));
                if self.frames.is_empty()
                    && (!matches!(v, Value::None) || (self.sink.shows_none() && !print_call))
                {
                    self.sink.display(&v);
                }
            }
            StmtKind::Assign { targets, value } => {
                let v = self.eval(value)?;
                for t in targets {
                    self.assign(t, v.clone())?;
                }
            }
            // `from __future__ import …` only changes how Python 2 compiled the file.
            StmtKind::Import { module, .. } if module.starts_with("__future__.") => {}
            StmtKind::Import { module, alias } => {
                let bound = alias
                    .clone()
                    .unwrap_or_else(|| module.split('.').next().unwrap_or(module).to_string());
                let value = import(module).map_err(|e| e.at(stmt.span))?;
                let value = match (alias, value) {
                    // `import a.b` binds `a`.
                    (None, Value::Module(m)) => {
                        let root = m.split('.').next().unwrap_or("").to_string();
                        Value::Module(Arc::from(root.as_str()))
                    }
                    (_, v) => v,
                };
                self.set(&bound, value);
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Del(items) => {
                for e in items {
                    self.delete(e)?;
                }
            }
            StmtKind::While { cond, body } => loop {
                self.check_cancel()?;
                let c = self.eval(cond)?;
                if !c.truthy().map_err(|e| Error::from(e).at(cond.span))? {
                    break;
                }
                match self.exec_block(body)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
            },
            StmtKind::Pass => {}
            StmtKind::Def { name, params, body } => {
                let closure = self.make_closure(name, params, ClosureBody::Block(body.clone()))?;
                self.set(name, closure);
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Raise(e) => {
                let err = match e {
                    None => Error::new(
                        ExceptionClass::RuntimeError,
                        "No active exception to reraise",
                    ),
                    Some(e) => match self.eval(e)? {
                        Value::Exception(x) => Error::from((*x).clone()),
                        Value::ErrorClass(c) => Error::new(c, ""),
                        other => Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "exceptions must derive from BaseException, not {}",
                                other.type_name()
                            ),
                        ),
                    }
                    .at(e.span),
                };
                return Err(err);
            }
            StmtKind::Assert { test, msg } => {
                let holds = self
                    .eval(test)?
                    .truthy()
                    .map_err(|err| Error::from(err).at(test.span))?;
                if !holds {
                    let message = match msg {
                        Some(m) => crate::render::tf_text::str_of(&self.eval(m)?),
                        None => String::new(),
                    };
                    return Err(Error::new(ExceptionClass::AssertionError, message)
                        .at(test.span)
                        .with_hint("the asserted condition is false"));
                }
            }
            StmtKind::If { cond, body, orelse } => {
                let c = self.eval(cond)?;
                let t = c.truthy().map_err(|e| Error::from(e).at(cond.span))?;
                return self.exec_block(if t { body } else { orelse });
            }
            StmtKind::For { target, iter, body } => {
                let it = self.eval(iter)?;
                let items = subscript::iterate(&it).map_err(|e| Error::from(e).at(iter.span))?;
                for item in items {
                    self.check_cancel()?;
                    self.assign(target, item)?;
                    match self.exec_block(body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Normal | Flow::Continue => {}
                    }
                }
            }
            StmtKind::Try {
                body,
                handlers,
                finally,
            } => {
                let result = self.exec_block(body);
                let result = match result {
                    Err(err)
                        if err.class != ExceptionClass::KeyboardInterrupt
                            || self.catches_interrupt(handlers) =>
                    {
                        self.handle(err, handlers)
                    }
                    other => other,
                };
                if !finally.is_empty() {
                    match self.exec_block(finally)? {
                        Flow::Normal => {}
                        other => return Ok(other),
                    }
                }
                return result;
            }
        }
        Ok(Flow::Normal)
    }

    fn catches_interrupt(&self, handlers: &[Handler]) -> bool {
        handlers.iter().any(|h| {
            h.classes.iter().any(|c| {
                matches!(&c.kind, ExprKind::Name(n) if n == "KeyboardInterrupt" || n == "BaseException")
            })
        })
    }

    fn handle(&mut self, err: Error, handlers: &[Handler]) -> Result<Flow> {
        for h in handlers {
            let mut matched = h.classes.is_empty();
            for c in &h.classes {
                let v = self.eval(c)?;
                let classes: Vec<Value> = match v {
                    Value::Tuple(items) => items.to_vec(),
                    other => vec![other],
                };
                for class in classes {
                    let class = match &class {
                        Value::ErrorClass(k) => *k,
                        other => {
                            return Err(Error::new(
                                ExceptionClass::TypeError,
                                format!(
                                    "catching classes that do not inherit from BaseException is not allowed (got a {})",
                                    other.type_name()
                                ),
                            )
                            .at(c.span))
                        }
                    };
                    matched |= class.catches(err.class);
                }
            }
            if matched {
                if let Some(name) = &h.name {
                    self.set(name, Value::Exception(Arc::new(err.to_exception())));
                }
                return self.exec_block(&h.body);
            }
        }
        Err(err)
    }

    fn make_closure(&mut self, name: &str, params: &[Param], body: ClosureBody) -> Result<Value> {
        #[allow(clippy::disallowed_methods)] // sized by the source text
        let mut defaults = Vec::with_capacity(params.len());
        for p in params {
            defaults.push(match &p.default {
                Some(e) => Some(self.eval(e)?),
                None => None,
            });
        }
        let captured = self
            .frames
            .last()
            .map(|f| f.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        Ok(Value::Closure(Arc::new(Closure {
            name: name.to_string(),
            params: params.to_vec(),
            defaults,
            body,
            captured,
            source: self.source,
        })))
    }

    fn set(&mut self, name: &str, v: Value) {
        match self.frames.last_mut() {
            Some(f) => {
                f.insert(name.to_string(), v);
            }
            None => self.set_global(name, v),
        }
    }

    /// `del name` or `del name[index]`.
    fn delete(&mut self, e: &Expr) -> Result<()> {
        match &e.kind {
            ExprKind::Name(n) => {
                if let Some(f) = self.frames.last_mut() {
                    if f.remove(n.as_str()).is_some() {
                        return Ok(());
                    }
                    return Err(Error::new(
                        ExceptionClass::NameError,
                        format!("name '{n}' is not defined"),
                    )
                    .at(e.span));
                }
                match self.globals.remove(n.as_str()) {
                    Some(old) => {
                        if !self.undo.contains_key(n.as_str()) {
                            self.undo.insert(n.clone(), Some(old));
                        }
                        Ok(())
                    }
                    None => Err(Error::new(
                        ExceptionClass::NameError,
                        format!("name '{n}' is not defined"),
                    )
                    .at(e.span)),
                }
            }
            ExprKind::Subscript(obj, index) => {
                let ExprKind::Name(n) = &obj.kind else {
                    return Err(Error::new(
                        ExceptionClass::UnimplementedError,
                        "`del` of an item works on a named list or dict (`del items[0]`)",
                    )
                    .at(e.span)
                    .with_hint(
                        "assign the inner list to a name, delete from it, and assign it back",
                    ));
                };
                let o = self.eval(obj)?;
                let updated = subscript::delete_item(self, &o, index, e.span)?;
                let local = self
                    .frames
                    .last()
                    .is_some_and(|fr| fr.contains_key(n.as_str()));
                if local || !self.frames.is_empty() && !self.globals.contains_key(n.as_str()) {
                    self.set(n, updated);
                } else {
                    self.set_global(n, updated);
                }
                Ok(())
            }
            _ => Err(
                Error::new(ExceptionClass::SyntaxError, "cannot delete this expression").at(e.span),
            ),
        }
    }

    fn assign(&mut self, target: &Target, v: Value) -> Result<()> {
        match target {
            Target::Name(n, _) => {
                self.set(n, v);
                Ok(())
            }
            Target::Tuple(ts, span) => {
                let items = subscript::iterate(&v).map_err(|e| Error::from(e).at(*span))?;
                if items.len() != ts.len() {
                    let msg = if items.len() > ts.len() {
                        format!("too many values to unpack (expected {})", ts.len())
                    } else {
                        format!(
                            "not enough values to unpack (expected {}, got {})",
                            ts.len(),
                            items.len()
                        )
                    };
                    return Err(Error::new(ExceptionClass::ValueError, msg).at(*span));
                }
                for (t, item) in ts.iter().zip(items) {
                    self.assign(t, item)?;
                }
                Ok(())
            }
        }
    }

    /// Looks a name up: locals, globals, module roots, exception classes, Python builtins.
    fn lookup(&self, name: &str, span: Span) -> Result<Value> {
        if let Some(v) = self.frames.last().and_then(|f| f.get(name)) {
            return Ok(v.clone());
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        if let Some(root) = root_module(name) {
            return Ok(Value::Module(Arc::from(root)));
        }
        if let Some(c) = ExceptionClass::from_name(name).filter(|c| c.name() == name) {
            return Ok(Value::ErrorClass(c));
        }
        if let Some(v) = builtins::constant(name) {
            return Ok(v);
        }
        if let Some(b) = registry().get(name).filter(|b| b.kind == Kind::Function) {
            return Ok(Value::Builtin(b));
        }
        let mut candidates: Vec<&str> = self.globals.keys().map(|k| k.as_str()).collect();
        if let Some(f) = self.frames.last() {
            candidates.extend(f.keys().map(|k| k.as_str()));
        }
        candidates.extend(
            registry()
                .all
                .iter()
                .filter(|b| !b.name.contains('.'))
                .map(|b| b.name),
        );
        candidates.extend(["tf", "np", "fluid"]);
        let mut err = Error::new(
            ExceptionClass::NameError,
            format!("name '{name}' is not defined"),
        )
        .at_labeled(span, "not defined");
        if let Some(s) = suggest::closest(name, candidates) {
            err = err.with_hint(format!("did you mean `{s}`?"));
        } else if let Some(b) = registry()
            .all
            .iter()
            .find(|b| b.kind == Kind::Function && b.short_name() == name)
        {
            err = err.with_hint(format!("it lives in a module: `{}`", b.name));
        } else {
            // A misspelt module function (`reduce_summ`): suggest its full path.
            let functions = registry()
                .all
                .iter()
                .filter(|b| b.kind == Kind::Function && b.name.contains('.'));
            if let Some(short) = suggest::closest(name, functions.clone().map(|b| b.short_name())) {
                if let Some(b) = functions.clone().find(|b| b.short_name() == short) {
                    err = err.with_hint(format!("did you mean `{}`?", b.name));
                }
            }
        }
        Err(err)
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: &Expr) -> Result<Value> {
        crate::guard::check_stack().map_err(|err| Error::from(err).at(e.span))?;
        let v = match &e.kind {
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Str(s) => Value::str(s),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::None => Value::None,
            ExprKind::Ellipsis => Value::Opaque(Arc::from("Ellipsis")),
            ExprKind::Name(n) => self.lookup(n, e.span)?,
            ExprKind::List(items) => {
                if let Some(n) = subscript::literal_nested(e) {
                    Value::Literal(Arc::new(n))
                } else {
                    let vals = items
                        .iter()
                        .map(|i| self.eval(i))
                        .collect::<Result<Vec<_>>>()?;
                    Value::list(vals)
                }
            }
            ExprKind::Tuple(items) => Value::tuple(
                items
                    .iter()
                    .map(|i| self.eval(i))
                    .collect::<Result<Vec<_>>>()?,
            ),
            ExprKind::Dict(items) => {
                #[allow(clippy::disallowed_methods)] // sized by values already built
                let mut out = Vec::with_capacity(items.len());
                for (k, v) in items {
                    let key = self.eval(k)?;
                    if matches!(key, Value::List(_) | Value::Literal(_) | Value::Dict(_)) {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!("unhashable type: '{}'", key.type_name()),
                        )
                        .at(k.span));
                    }
                    out.push((key, self.eval(v)?));
                }
                Value::Dict(Arc::new(out))
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
                self.get_attr(o, name, e.span, obj.span)?
            }
            ExprKind::Call(f, args) => {
                let func = self.eval(f)?;
                #[allow(clippy::disallowed_methods)] // sized by the source text
                let mut call_args = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval(&a.value)?;
                    if a.star {
                        let items = subscript::iterate(&v)
                            .map_err(|err| Error::from(err).at(a.value.span))?;
                        call_args.extend(items.into_iter().map(|value| CallArg {
                            name: None,
                            value,
                            span: a.value.span,
                        }));
                    } else {
                        call_args.push(CallArg {
                            name: a.name.clone(),
                            value: v,
                            span: a.value.span,
                        });
                    }
                }
                let result = self.call(&func, call_args, e.span)?;
                self.rebind_receiver(f, &func, result)
            }
            ExprKind::Subscript(obj, index) => {
                let o = self.eval(obj)?;
                subscript::subscript(self, &o, index, e.span)?
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                operators::unary(*op, &v).map_err(|err| Error::from(err).at(e.span))?
            }
            ExprKind::Binary(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                operators::binary(*op, &a, &b)
                    .map_err(|err| binary_error(err, e.span, l, r, &a, &b))?
            }
            ExprKind::Logic(op, l, r) => {
                let a = self.eval(l)?;
                let t = a.truthy().map_err(|err| Error::from(err).at(l.span))?;
                match (op, t) {
                    (LogicOp::And, false) | (LogicOp::Or, true) => a,
                    _ => self.eval(r)?,
                }
            }
            ExprKind::Not(x) => {
                let v = self.eval(x)?;
                Value::Bool(!v.truthy().map_err(|err| Error::from(err).at(x.span))?)
            }
            ExprKind::Lambda(params, body) => {
                self.make_closure("<lambda>", params, ClosureBody::Expr((**body).clone()))?
            }
            ExprKind::IfElse { cond, then, orelse } => {
                let c = self.eval(cond)?;
                if c.truthy().map_err(|err| Error::from(err).at(cond.span))? {
                    self.eval(then)?
                } else {
                    self.eval(orelse)?
                }
            }
            ExprKind::ListComp {
                elt,
                target,
                iter,
                conds,
            } => {
                let it = self.eval(iter)?;
                let items =
                    subscript::iterate(&it).map_err(|err| Error::from(err).at(iter.span))?;
                #[allow(clippy::disallowed_methods)] // sized by values already built
                let mut out = Vec::with_capacity(items.len());
                // The loop variable lives in its own frame, as in Python 3.
                let frame = self.frames.last().cloned().unwrap_or_default();
                self.frames.push(frame);
                let result = (|| -> Result<()> {
                    'items: for item in items {
                        self.check_cancel()?;
                        self.assign(target, item)?;
                        for c in conds {
                            if !self
                                .eval(c)?
                                .truthy()
                                .map_err(|err| Error::from(err).at(c.span))?
                            {
                                continue 'items;
                            }
                        }
                        out.push(self.eval(elt)?);
                    }
                    Ok(())
                })();
                self.frames.pop();
                result?;
                Value::list(out)
            }
        };
        Ok(v)
    }

    /// `value.name`.
    fn get_attr(&mut self, o: Value, name: &str, span: Span, obj_span: Span) -> Result<Value> {
        if let Value::Module(m) = &o {
            return builtins::module_attr(m, name).ok_or_else(|| {
                let prefix = format!("{m}.");
                let names: Vec<&str> = registry()
                    .function_paths()
                    .filter_map(|p| {
                        p.strip_prefix(&prefix)
                            .or_else(|| p.strip_prefix(&format!("tf.{prefix}")).map(|_| ""))
                    })
                    .filter(|p| !p.is_empty() && !p.contains('.'))
                    .collect();
                let mut err = Error::new(
                    ExceptionClass::AttributeError,
                    format!("module '{m}' has no attribute '{name}'"),
                )
                .at_labeled(span, "unknown name");
                if let Some(s) = suggest::closest(name, names) {
                    err = err.with_hint(format!("did you mean `{m}.{s}`?"));
                }
                err
            });
        }
        // A class that is also a callable builtin (`tf.RaggedTensorSpec`) has its static
        // methods under its path (`tf.RaggedTensorSpec.from_value`).
        if let Value::Builtin(b) = &o {
            if let Some(f) = registry().get(&format!("{}.{name}", b.name)) {
                if f.kind == Kind::Function {
                    return Ok(Value::Builtin(f));
                }
            }
        }
        if let Value::Exception(x) = &o {
            if matches!(name, "message" | "args") {
                return Ok(Value::str(&x.message));
            }
        }
        let class = builtins::class_of(&o);
        if let Some(b) = class.and_then(|c| registry().member(c, name)) {
            return match b.kind {
                Kind::Property => {
                    let args = Args::bind(
                        b,
                        vec![CallArg {
                            name: None,
                            value: o,
                            span: obj_span,
                        }],
                        span,
                    )?;
                    (b.func)(self, &args).map_err(|e| e.at(span))
                }
                _ => Ok(Value::Method(Arc::new(o), b)),
            };
        }
        let members: Vec<&str> = class
            .map(|c| {
                let prefix = format!("{c}.");
                registry()
                    .all
                    .iter()
                    .filter_map(|b| b.name.strip_prefix(prefix.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let mut err = Error::new(
            ExceptionClass::AttributeError,
            format!("'{}' object has no attribute '{name}'", o.type_name()),
        )
        .at_labeled(span, "unknown attribute");
        if let Some(s) = suggest::closest(name, members.iter().copied()) {
            err = err.with_hint(format!("did you mean `.{s}`?"));
        }
        Err(err)
    }

    /// Paddle's in-place setters (`t.set_lod(…)`) return the updated tensor, since values
    /// are immutable: rebind the receiver's name to it, and yield None as Paddle does.
    fn rebind_receiver(&mut self, f: &Expr, func: &Value, result: Value) -> Value {
        let Value::Method(_, b) = func else {
            return result;
        };
        if !builtins::updates_receiver(b) {
            return result;
        }
        if let ExprKind::Attr(obj, _) = &f.kind {
            if let ExprKind::Name(n) = &obj.kind {
                let local = self
                    .frames
                    .last()
                    .is_some_and(|fr| fr.contains_key(n.as_str()));
                if local || !self.globals.contains_key(n.as_str()) {
                    self.set(n, result);
                } else {
                    self.set_global(n, result);
                }
            }
        }
        Value::None
    }

    /// Calls a function value with evaluated arguments.
    pub fn call(&mut self, func: &Value, args: Vec<CallArg>, span: Span) -> Result<Value> {
        self.check_cancel()?;
        match func {
            Value::Builtin(b) => self.call_builtin(b, args, span),
            Value::Method(recv, b) => {
                #[allow(clippy::disallowed_methods)] // sized by the source text
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(CallArg {
                    name: None,
                    value: (**recv).clone(),
                    span,
                });
                all.extend(args);
                self.call_builtin(b, all, span)
            }
            Value::Closure(c) => self.call_closure(c, args, span),
            Value::ErrorClass(class) => {
                let msg = match args.first().map(|a| &a.value) {
                    Some(Value::Str(s)) => s.to_string(),
                    Some(v) => crate::render::tf_text::str_of(v),
                    None => String::new(),
                };
                Ok(Value::Exception(Arc::new(Exception::new(*class, msg))))
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
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not callable", other.type_name()),
            )
            .at(span)),
        }
    }

    fn call_builtin(
        &mut self,
        b: &'static Builtin,
        args: Vec<CallArg>,
        span: Span,
    ) -> Result<Value> {
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
        if self.frames.len() >= MAX_DEPTH {
            return Err(Error::new(
                ExceptionClass::RecursionError,
                format!("maximum recursion depth exceeded ({MAX_DEPTH} nested calls)"),
            )
            .at(span)
            .with_hint(
                "Python's default recursion limit; a recursive function needs a base case",
            ));
        }
        let mut frame: HashMap<String, Value> = c.captured.iter().cloned().collect();
        #[allow(clippy::disallowed_methods)] // sized by the source text
        let mut bound: Vec<Option<Value>> = vec![None; c.params.len()];
        let mut pos = 0;
        for a in args {
            match &a.name {
                None => {
                    if pos >= c.params.len() {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!(
                                "{}() takes {} positional arguments but more were given",
                                c.name,
                                c.params.len()
                            ),
                        )
                        .at(a.span));
                    }
                    bound[pos] = Some(a.value);
                    pos += 1;
                }
                Some(n) => {
                    let Some(i) = c.params.iter().position(|p| &p.name == n) else {
                        return Err(Error::new(
                            ExceptionClass::TypeError,
                            format!("{}() got an unexpected keyword argument '{n}'", c.name),
                        )
                        .at(a.span));
                    };
                    bound[i] = Some(a.value);
                }
            }
        }
        for (i, p) in c.params.iter().enumerate() {
            let v = match bound[i].take().or_else(|| c.defaults[i].clone()) {
                Some(v) => v,
                None => {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("{}() missing required argument '{}'", c.name, p.name),
                    )
                    .at(span))
                }
            };
            frame.insert(p.name.clone(), v);
        }
        self.frames.push(frame);
        let result = match &c.body {
            ClosureBody::Expr(e) => self.eval(e),
            ClosureBody::Block(body) => self.exec_block(body).and_then(|f| match f {
                Flow::Return(v) => Ok(v),
                Flow::Normal => Ok(Value::None),
                Flow::Break | Flow::Continue => Err(outside_loop(span)),
            }),
        };
        self.frames.pop();
        // An error inside a function from another cell keeps its own source.
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

/// `break` or `continue` that no loop encloses.
fn outside_loop(span: Span) -> Error {
    Error::new(
        ExceptionClass::SyntaxError,
        "'break' or 'continue' outside loop",
    )
    .at(span)
}

/// The value `import module` gives: a module ragtag provides, or a name inside one
/// (`from tensorflow.ragged import constant`); ModuleNotFoundError otherwise.
fn import(module: &str) -> Result<Value> {
    let canonical = match module {
        "tensorflow" => "tf".to_string(),
        "numpy" => "np".to_string(),
        "paddle.fluid" => "fluid".to_string(),
        m => m
            .strip_prefix("tensorflow.")
            .map(|r| format!("tf.{r}"))
            .or_else(|| m.strip_prefix("numpy.").map(|r| format!("np.{r}")))
            .or_else(|| {
                m.strip_prefix("paddle.fluid.")
                    .map(|r| format!("fluid.{r}"))
            })
            .unwrap_or_else(|| m.to_string()),
    };
    let mut parts = canonical.split('.');
    let first = parts.next().unwrap_or("");
    // Python names the first part of the path that does not exist.
    let written: Vec<&str> = module.split('.').collect();
    let extra = written.len().saturating_sub(canonical.split('.').count());
    let not_found = |depth: usize| {
        let name = written[..(depth + extra + 1).min(written.len())].join(".");
        Error::new(
            ExceptionClass::ModuleNotFoundError,
            format!("No module named '{name}'"),
        )
        .with_hint("ragtag provides tensorflow (tf), numpy (np), paddle / paddle.fluid and math")
    };
    let real = matches!(written[0], "tensorflow" | "numpy" | "paddle" | "math");
    let Some(root) = root_module(first).filter(|r| *r == first && real) else {
        return Err(not_found(0));
    };
    let mut v = Value::Module(Arc::from(root));
    for (depth, part) in parts.enumerate() {
        let Value::Module(m) = &v else {
            return Err(not_found(depth + 1));
        };
        v = builtins::module_attr(m, part).ok_or_else(|| not_found(depth + 1))?;
    }
    Ok(v)
}

/// Labels both operands of a failing binary operator with their descriptions (kind,
/// dtype and shape); the error's span is the whole expression.
fn binary_error(err: EngineError, span: Span, l: &Expr, r: &Expr, a: &Value, b: &Value) -> Error {
    let describe = |v: &Value| crate::render::describe(v);
    Error::from(err)
        .at(span)
        .with_label(l.span, describe(a))
        .with_label(r.span, describe(b))
}
