//! Code run from a string, as `exec`, `eval` and a compiled code object run it: parsed as
//! a source of its own (named `<string>`, or the file name `compile` was given), so that an
//! error inside it is reported against its own text, and run in the caller's scope or in
//! the dicts the call passed.
//!
//! The code runs in an evaluation of its own over the same sink and cancel flag. Its scope:
//! - the caller's, at top level: the session's globals themselves (a name it binds stays);
//! - the caller's, inside a function: the globals, and a frame holding a copy of the
//!   function's variables (read there first; what it binds changes only the copy, as in
//!   CPython, where it goes to the `locals()` snapshot); in a class body, the body's own
//!   namespace (what it binds becomes a class attribute);
//! - a globals dict (and a locals dict): a frame holding the dict's names, so that a
//!   function it defines finds the names the code bound when it is called later; the dicts
//!   get what the code bound when it ends.

use std::sync::Arc;

use super::operators::identical;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::env::{Env, Locals, Names};
use crate::value::{PyDict, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::{Span, StmtKind};

/// How the code is compiled: `compile`'s `mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Statements (`exec`).
    Exec,
    /// One expression (`eval`).
    Eval,
    /// One interactive statement: the value of an expression statement is printed.
    Single,
}

impl Mode {
    /// The mode named `name` (`'exec'`, `'eval'`, `'single'`).
    pub fn named(name: &str) -> Option<Mode> {
        Some(match name {
            "exec" => Mode::Exec,
            "eval" => Mode::Eval,
            "single" => Mode::Single,
            _ => return None,
        })
    }

    /// The mode's name, as `compile` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Exec => "exec",
            Mode::Eval => "eval",
            Mode::Single => "single",
        }
    }
}

/// Where the code's names live.
pub enum Scope {
    /// The caller's scope.
    Caller,
    /// A globals dict and, when it is another object, a locals dict.
    Dicts(Arc<PyDict>, Option<Arc<PyDict>>),
}

/// The sink of code run from a string: an expression statement's value is not displayed
/// (printed as its repr in the `single` mode); everything else goes to the caller's sink.
struct Quiet<'a> {
    inner: &'a mut dyn super::Sink,
    single: bool,
}

impl super::Sink for Quiet<'_> {
    fn display(&mut self, value: &Value) {
        if self.single {
            let text = crate::render::tf_text::repr_of(value);
            self.inner.print(&format!("{text}\n"));
        }
    }
    super::forward_sink!(inner);
}

/// A dict's names (its str keys) as a scope's variables, in the dict's order.
fn dict_locals(d: &PyDict) -> Locals {
    let mut vars = Locals::default();
    for (k, v) in d.items() {
        if let Value::Str(s) = k {
            vars.insert(Arc::from(s.as_str()), v);
        }
    }
    vars
}

/// Binds each of `pairs` in `d` (a name already there keeps its place; new ones follow in
/// the order given).
fn store(d: &PyDict, pairs: impl IntoIterator<Item = (String, Value)>) -> Result<()> {
    for (k, v) in pairs {
        d.insert(Value::str(k), v).map_err(Error::from)?;
    }
    Ok(())
}

/// Removes from `d` the str keys `keep` does not hold (names the code deleted).
fn drop_unbound(d: &PyDict, keep: impl Fn(&str) -> bool) -> Result<()> {
    for k in d.keys() {
        if matches!(&k, Value::Str(s) if !keep(s.as_str())) {
            d.remove(&k).map_err(Error::from)?;
        }
    }
    Ok(())
}

/// What [`Interp::run_code`] runs: a source's text, its name and id, and its mode.
pub struct CodeText<'a> {
    /// The text.
    pub text: &'a str,
    /// The source's name in reports (`<string>`, or `compile`'s file name).
    pub name: &'a str,
    /// The mode.
    pub mode: Mode,
    /// The id of the source when it was registered already (a compiled code object's).
    pub source: Option<usize>,
}

impl<'s> Interp<'s> {
    /// Parses `text` as a source of its own named `name` (registered with the session) and
    /// checks it fits `mode`; returns its id and program. A syntax error points into it.
    pub fn compile_source(
        &mut self,
        text: &str,
        name: &str,
        mode: Mode,
        known: Option<usize>,
    ) -> Result<(usize, ragtag_syntax::ast::Program)> {
        let id = match known {
            Some(id) => id,
            None => self.add_source(name, text),
        };
        let program = ragtag_syntax::parse_interruptible(text, self.cancel)
            .map_err(|e| Error::from(e).in_source(id))?;
        if mode == Mode::Eval {
            match program.body.as_slice() {
                [stmt] if matches!(stmt.kind, StmtKind::Expr(_)) => {}
                [stmt, ..] => {
                    return Err(Error::new(ExceptionClass::SyntaxError, "invalid syntax")
                        .at_labeled(stmt.span, "a statement, where an expression belongs")
                        .in_source(id))
                }
                [] => {
                    return Err(Error::new(ExceptionClass::SyntaxError, "invalid syntax")
                        .at_labeled(Span { start: 0, end: 0 }, "no expression")
                        .in_source(id))
                }
            }
        }
        Ok((id, program))
    }

    /// Runs code from a string in `scope` (see the module's comment): statements give
    /// None, an expression (the `eval` mode) its value.
    pub fn run_code(&mut self, code: &CodeText<'_>, scope: Scope) -> Result<Value> {
        let (id, program) = self.compile_source(code.text, code.name, code.mode, code.source)?;
        // The frame the code runs in, and the globals it sees.
        let mut own_names = Names::default();
        let (frame, globals): (Option<Arc<Env>>, &mut Names) = match &scope {
            Scope::Caller if self.frames.is_empty() => (None, &mut *self.globals),
            // A class body's namespace itself, as CPython's class body dict.
            Scope::Caller
                if self.qualname.is_some()
                    && self.frames.last().is_some_and(|f| f.bindings.is_none()) =>
            {
                (self.frames.last().cloned(), &mut *self.globals)
            }
            Scope::Caller => {
                let mut vars = Locals::default();
                for (k, v) in self.local_names() {
                    vars.insert(Arc::from(k.as_str()), v);
                }
                (Some(Env::new(vars, None, None)), &mut *self.globals)
            }
            Scope::Dicts(g, l) => {
                if !g
                    .contains(&Value::str("__builtins__"))
                    .map_err(Error::from)?
                {
                    let builtins = Value::Module(crate::value::ThinStr::from("builtins"));
                    g.insert(Value::str("__builtins__"), builtins)
                        .map_err(Error::from)?;
                }
                for (k, v) in g.items() {
                    if let Value::Str(s) = k {
                        own_names.insert(s.to_string(), v);
                    }
                }
                let frame = match l {
                    Some(l) => Env::new(
                        dict_locals(l),
                        None,
                        Some(Env::new(dict_locals(g), None, None)),
                    ),
                    None => Env::new(dict_locals(g), None, None),
                };
                (Some(frame), &mut own_names)
            }
        };
        let mut quiet = Quiet {
            inner: &mut *self.sink,
            single: code.mode == Mode::Single,
        };
        let mut inner = Interp::new(globals, &mut quiet, self.cancel, id);
        inner.first_added = self.first_added;
        inner.added = std::mem::take(&mut self.added);
        if let Some(f) = &frame {
            inner.frames.push(f.clone());
        }
        let result = match (code.mode, program.body.as_slice()) {
            (Mode::Eval, [stmt]) => match &stmt.kind {
                StmtKind::Expr(e) => inner.eval(e),
                _ => Ok(Value::None),
            },
            _ => match (&scope, &frame) {
                (Scope::Dicts(_, None), Some(frame)) => {
                    inner.run_synced(&program, frame).map(|()| Value::None)
                }
                _ => inner.run(&program).map(|()| Value::None),
            },
        };
        inner.frames.clear();
        self.added = std::mem::take(&mut inner.added);
        let raised = inner.raised.take();
        drop(inner);
        if result.is_err() && raised.is_some() {
            self.raised = raised;
        }
        if let Scope::Dicts(g, l) = &scope {
            let vars = frame.map(|f| f.vars().clone()).unwrap_or_default();
            let named = |vars: &Locals| -> Vec<(String, Value)> {
                vars.iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect()
            };
            match l {
                Some(l) => {
                    drop_unbound(l, |k| vars.contains_key(k))?;
                    store(l, named(&vars))?;
                    // What a `global` statement in a function the code ran bound.
                    drop_unbound(g, |k| own_names.contains_key(k))?;
                    let mut pairs: Vec<(String, Value)> = own_names.into_iter().collect();
                    pairs.sort_by(|a, b| a.0.cmp(&b.0));
                    store(g, pairs)?;
                }
                None => {
                    // The frame holds every name, kept in step with the globals.
                    drop_unbound(g, |k| vars.contains_key(k))?;
                    store(g, named(&vars))?;
                }
            }
        }
        result.map_err(|e| e.in_source(id))
    }

    /// Runs code whose frame holds a globals dict's names (see [`Self::run_code`]): before
    /// each top-level statement the globals get the frame's names, so that a function the
    /// code defined reads them under a `global` statement; after it, the frame gets what
    /// such a function bound.
    fn run_synced(
        &mut self,
        program: &ragtag_syntax::ast::Program,
        frame: &Arc<Env>,
    ) -> Result<()> {
        for stmt in &program.body {
            self.check_cancel()?;
            for (k, v) in frame.vars().iter() {
                self.globals.insert(k.to_string(), v.clone());
            }
            let before = self.globals.clone();
            let flow = self.exec(stmt);
            let changed: Vec<(String, Value)> = self
                .globals
                .iter()
                .filter(|(k, v)| !before.get(*k).is_some_and(|b| identical(b, v)))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for (k, v) in changed {
                let old = frame.vars().set(&k, v);
                drop(old);
            }
            if let super::Flow::Break | super::Flow::Continue = flow? {
                return Err(super::statements::outside_loop(stmt.span));
            }
        }
        Ok(())
    }
}
