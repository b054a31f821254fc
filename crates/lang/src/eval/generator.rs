//! Generator functions, run as a resumable walk over the body: the generator keeps a
//! stack of the blocks it is inside (a loop's body with its iterator, a `try`'s body, a
//! `finally` with what it interrupted) and the position in each, so a `next()` continues
//! from the `yield` it stopped at. Statements without a `yield` run with the ordinary
//! evaluator; only the statements that hold one are walked here. A `yield` is a statement
//! of its own, the value of an assignment (`x = yield v`) or of a `return`.
//! Nothing runs on another thread: a generator left unfinished is just dropped.

use std::sync::Arc;

use super::{Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::env::Env;
use crate::value::iter::{GenBox, IterState, PyIter};
use crate::value::{Closure, ClosureBody, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{ExprKind, Handler, Span, Stmt, StmtKind};
use ragtag_syntax::yields::stmt_has_yield;

use super::generator_blocks::{block_of, frame, parent_stmt, Block, Frame, Pending};

/// What a generator is resumed with.
pub enum Resume {
    /// `next(g)`.
    Next,
    /// `g.send(v)`.
    Send(Value),
    /// `g.throw(e)` (and `g.close()`, with GeneratorExit).
    Throw(Error),
}

/// What a resumed generator did.
pub enum Out {
    /// It yielded this value.
    Yield(Value),
    /// It finished, returning this value.
    Done(Value),
}

/// A generator function's state between two resumptions.
struct Gen {
    closure: Arc<Closure>,
    env: Arc<Env>,
    frames: Vec<Frame>,
    started: bool,
    /// The iterator a `yield from` is delegating to.
    delegate: Option<Value>,
}

fn unsupported(span: Span) -> Error {
    Error::new(
        ExceptionClass::SyntaxError,
        "ragtag runs `yield` only as a statement, as the value of an assignment or of a return",
    )
    .at(span)
    .with_hint("write `x = yield value` on a line of its own")
}

impl<'s> Interp<'s> {
    /// Calling a generator function: its arguments bound in `env`, nothing run yet.
    pub(super) fn make_generator(&self, c: &Arc<Closure>, env: Arc<Env>) -> Value {
        let gen = Gen {
            closure: c.clone(),
            env,
            frames: Vec::new(),
            started: false,
            delegate: None,
        };
        Value::Iter(PyIter::named(
            "generator",
            c.name.clone(),
            IterState::Generator(GenBox(Box::new(gen))),
        ))
    }

    /// `next(g)` of a generator whose state was taken out of `it`.
    pub(super) fn resume(
        &mut self,
        it: &Arc<PyIter>,
        state: Box<IterState>,
        input: Resume,
        span: Span,
    ) -> Result<Option<Value>> {
        match self.resume_state(it, state, input, span)? {
            Out::Yield(v) => Ok(Some(v)),
            Out::Done(_) => Ok(None),
        }
    }

    /// Sends `input` to the iterator `v` (a generator, or any iterator for `Next`).
    pub fn send_to(&mut self, v: &Value, input: Resume, span: Span) -> Result<Out> {
        let Value::Iter(it) = v else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not an iterator", v.type_name()),
            )
            .at(span));
        };
        if !it.is_generator() {
            return match input {
                Resume::Throw(e) => Err(e),
                Resume::Send(x) if !matches!(x, Value::None) => Err(Error::new(
                    ExceptionClass::AttributeError,
                    format!("'{}' object has no attribute 'send'", it.type_name()),
                )
                .at(span)),
                _ => Ok(match self.next_iter(it, span)? {
                    Some(x) => Out::Yield(x),
                    None => Out::Done(Value::None),
                }),
            };
        }
        self.check_cancel()?;
        match it.take().map_err(|e| Error::from(e).at(span))? {
            Some(state) => self.resume_state(it, state, input, span),
            None => match input {
                Resume::Throw(e) => Err(e),
                _ => Ok(Out::Done(Value::None)),
            },
        }
    }

    fn resume_state(
        &mut self,
        it: &Arc<PyIter>,
        mut state: Box<IterState>,
        input: Resume,
        span: Span,
    ) -> Result<Out> {
        let IterState::Generator(GenBox(b)) = &mut *state else {
            // A generator expression: `next()` and `send(None)` step it.
            it.put(state);
            return Ok(match input {
                Resume::Next | Resume::Send(Value::None) => match self.next_iter(it, span)? {
                    Some(x) => Out::Yield(x),
                    None => Out::Done(Value::None),
                },
                _ => Out::Done(Value::None),
            });
        };
        let Some(gen) = b.downcast_mut::<Gen>() else {
            it.finish();
            return Ok(Out::Done(Value::None));
        };
        if self.frames.len() >= super::recursion_limit() {
            it.put(state);
            return Err(Error::new(
                ExceptionClass::RecursionError,
                "maximum recursion depth exceeded",
            )
            .at(span));
        }
        self.frames.push(gen.env.clone());
        let source = gen.closure.source;
        let r = self.run_gen(gen, input, span);
        self.frames.pop();
        match r {
            Ok(Out::Yield(v)) => {
                it.put(state);
                Ok(Out::Yield(v))
            }
            Ok(done) => {
                it.finish();
                Ok(done)
            }
            Err(e) => {
                it.finish();
                let e = if source != self.source {
                    e.in_source(source)
                } else {
                    e
                };
                // A StopIteration raised inside a generator becomes a RuntimeError (PEP 479).
                if e.class == ExceptionClass::StopIteration {
                    return Err(Error::new(
                        ExceptionClass::RuntimeError,
                        "generator raised StopIteration",
                    )
                    .at(span));
                }
                Err(e)
            }
        }
    }

    fn run_gen(&mut self, gen: &mut Gen, input: Resume, span: Span) -> Result<Out> {
        let c = gen.closure.clone();
        let ClosureBody::Block(root) = &c.body else {
            return Ok(Out::Done(Value::None));
        };
        let mut raised: Option<Error> = None;
        if !gen.started {
            match input {
                Resume::Send(v) if !matches!(v, Value::None) => {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        "can't send non-None value to a just-started generator",
                    )
                    .at(span))
                }
                Resume::Throw(e) => return Err(e),
                _ => {}
            }
            gen.started = true;
            gen.frames = vec![frame(Block::Root)];
        } else if let Some(d) = gen.delegate.clone() {
            match self.send_to(&d, input, span) {
                Ok(Out::Yield(v)) => return Ok(Out::Yield(v)),
                Ok(Out::Done(rv)) => {
                    gen.delegate = None;
                    if let Some(out) = self.after_yield(gen, root, rv)? {
                        return Ok(out);
                    }
                }
                Err(e) => {
                    gen.delegate = None;
                    raised = Some(e);
                }
            }
        } else {
            match input {
                Resume::Next => {
                    if let Some(out) = self.after_yield(gen, root, Value::None)? {
                        return Ok(out);
                    }
                }
                Resume::Send(v) => {
                    if let Some(out) = self.after_yield(gen, root, v)? {
                        return Ok(out);
                    }
                }
                Resume::Throw(e) => raised = Some(e),
            }
        }
        loop {
            if let Some(e) = raised.take() {
                if let Some(out) = self.unwind(gen, root, Pending::Raise(Box::new(e)))? {
                    return Ok(out);
                }
                continue;
            }
            self.check_cancel()?;
            let block = block_of(root, &gen.frames);
            let Some(top) = gen.frames.last_mut() else {
                return Ok(Out::Done(Value::None));
            };
            let Some(stmt) = block.get(top.pos) else {
                match self.end_block(gen, root) {
                    Ok(Some(out)) => return Ok(out),
                    Ok(None) => {}
                    Err(e) => raised = Some(e),
                }
                continue;
            };
            if !stmt_has_yield(stmt) {
                // Inside an `except` block, what it handles is the one a bare `raise`
                // raises again.
                let base = self.handling.len();
                for f in &gen.frames {
                    if let Some(h) = &f.handled {
                        self.handling.push((**h).clone());
                    }
                }
                let flow = self.exec(stmt);
                self.handling.truncate(base);
                let pending = match flow {
                    Ok(Flow::Normal) => {
                        top_mut(gen).pos += 1;
                        continue;
                    }
                    Ok(Flow::Break) => Pending::Jump(false),
                    Ok(Flow::Continue) => Pending::Jump(true),
                    Ok(Flow::Return(v)) => Pending::Return(v),
                    Err(e) => Pending::Raise(Box::new(e)),
                };
                if let Some(out) = self.unwind(gen, root, pending)? {
                    return Ok(out);
                }
                continue;
            }
            match self.enter(gen, stmt) {
                Ok(Some(out)) => return Ok(out),
                Ok(None) => {}
                Err(e) => raised = Some(e),
            }
        }
    }

    /// Runs one statement that holds a `yield`: stops at the yield, or opens its block.
    fn enter(&mut self, gen: &mut Gen, stmt: &Stmt) -> Result<Option<Out>> {
        let yielded = match &stmt.kind {
            StmtKind::Expr(e) | StmtKind::Assign { value: e, .. } => Some(e),
            StmtKind::Return(Some(e)) => Some(e),
            _ => None,
        };
        if let Some(e) = yielded {
            return match &e.kind {
                ExprKind::Yield(v) => {
                    let v = match v {
                        Some(v) => self.eval(v)?,
                        None => Value::None,
                    };
                    Ok(Some(Out::Yield(v)))
                }
                ExprKind::YieldFrom(src) => {
                    let d = self.eval_iterable(src)?;
                    match self.send_to(&d, Resume::Next, e.span)? {
                        Out::Yield(v) => {
                            gen.delegate = Some(d);
                            Ok(Some(Out::Yield(v)))
                        }
                        Out::Done(rv) => {
                            let c = gen.closure.clone();
                            let ClosureBody::Block(root) = &c.body else {
                                return Ok(None);
                            };
                            self.after_yield(gen, root, rv)
                        }
                    }
                }
                _ => Err(unsupported(e.span)),
            };
        }
        match &stmt.kind {
            StmtKind::If { cond, .. } => {
                let t = self.eval(cond)?;
                let t = t.truthy().map_err(|e| Error::from(e).at(cond.span))?;
                gen.frames
                    .push(frame(if t { Block::Body } else { Block::Orelse }));
            }
            StmtKind::While { cond, orelse, .. } => {
                let t = self.eval(cond)?;
                if t.truthy().map_err(|e| Error::from(e).at(cond.span))? {
                    gen.frames.push(frame(Block::Body));
                } else if !orelse.is_empty() {
                    gen.frames.push(frame(Block::Orelse));
                } else {
                    top_mut(gen).pos += 1;
                }
            }
            StmtKind::For {
                target,
                iter,
                orelse,
                ..
            } => {
                let it = self.eval_iterable(iter)?;
                match self.next_of(&it, iter.span)? {
                    Some(x) => {
                        self.assign(target, x)?;
                        gen.frames.push(Frame {
                            iter: Some(it),
                            ..frame(Block::Body)
                        });
                    }
                    None if !orelse.is_empty() => gen.frames.push(frame(Block::Orelse)),
                    None => top_mut(gen).pos += 1,
                }
            }
            StmtKind::Try { .. } => gen.frames.push(frame(Block::Body)),
            _ => return Err(unsupported(stmt.span)),
        }
        Ok(None)
    }

    /// Finishes the statement a generator stopped at with the value its `yield` gave.
    fn after_yield(&mut self, gen: &mut Gen, root: &[Stmt], v: Value) -> Result<Option<Out>> {
        let block = block_of(root, &gen.frames);
        let pos = top_mut(gen).pos;
        match block.get(pos).map(|s| &s.kind) {
            Some(StmtKind::Assign { targets, .. }) => {
                for t in targets {
                    if let Err(e) = self.assign(t, v.clone()) {
                        return self.unwind(gen, root, Pending::Raise(Box::new(e)));
                    }
                }
            }
            Some(StmtKind::Return(_)) => return self.unwind(gen, root, Pending::Return(v)),
            _ => {}
        }
        top_mut(gen).pos += 1;
        Ok(None)
    }

    /// The innermost block ran to its end.
    fn end_block(&mut self, gen: &mut Gen, root: &[Stmt]) -> Result<Option<Out>> {
        let top = gen.frames.last().cloned().expect("a frame");
        // An `except` block that ran to its end is done with its exception.
        if matches!(top.block, Block::Handler(_)) {
            self.raised = None;
        }
        if top.block == Block::Root {
            return Ok(Some(Out::Done(Value::None)));
        }
        let Some(parent) = parent_stmt(root, &gen.frames) else {
            return Ok(Some(Out::Done(Value::None)));
        };
        match (&parent.kind, top.block) {
            (StmtKind::While { cond, orelse, .. }, Block::Body) => {
                let t = self.eval(cond)?;
                if t.truthy().map_err(|e| Error::from(e).at(cond.span))? {
                    top_mut(gen).pos = 0;
                    return Ok(None);
                }
                if !orelse.is_empty() {
                    gen.frames.pop();
                    gen.frames.push(frame(Block::Orelse));
                    return Ok(None);
                }
            }
            (
                StmtKind::For {
                    target,
                    iter,
                    orelse,
                    ..
                },
                Block::Body,
            ) => {
                if let Some(it) = &top.iter {
                    if let Some(x) = self.next_of(it, iter.span)? {
                        self.assign(target, x)?;
                        top_mut(gen).pos = 0;
                        return Ok(None);
                    }
                }
                if !orelse.is_empty() {
                    gen.frames.pop();
                    gen.frames.push(frame(Block::Orelse));
                    return Ok(None);
                }
            }
            // The body of a `try` ran to its end: its `else:` next, then its `finally:`.
            (StmtKind::Try { orelse, .. }, Block::Body) if !orelse.is_empty() => {
                gen.frames.pop();
                gen.frames.push(frame(Block::Orelse));
                return Ok(None);
            }
            (StmtKind::Try { finally, .. }, Block::Body | Block::Handler(_) | Block::Orelse)
                if !finally.is_empty() =>
            {
                gen.frames.pop();
                gen.frames.push(frame(Block::Finally));
                return Ok(None);
            }
            (_, Block::Finally) => {
                gen.frames.pop();
                if let Some(p) = top.pending {
                    return self.unwind(gen, root, p);
                }
                top_mut(gen).pos += 1;
                return Ok(None);
            }
            _ => {}
        }
        gen.frames.pop();
        top_mut(gen).pos += 1;
        Ok(None)
    }

    /// Carries an exception, a `return` or a jump out through the open blocks: to an
    /// `except` that catches it, a `finally` that must run first, or the loop it leaves.
    /// `Some` when it leaves the generator.
    fn unwind(&mut self, gen: &mut Gen, root: &[Stmt], pending: Pending) -> Result<Option<Out>> {
        loop {
            let top = gen.frames.last().cloned().expect("a frame");
            if top.block == Block::Root {
                return match pending {
                    Pending::Raise(e) => Err(*e),
                    Pending::Return(v) => Ok(Some(Out::Done(v))),
                    Pending::Jump(_) => Ok(Some(Out::Done(Value::None))),
                };
            }
            let parent = parent_stmt(root, &gen.frames).expect("a parent");
            gen.frames.pop();
            match (&pending, top.block, &parent.kind) {
                (
                    Pending::Jump(cont),
                    Block::Body,
                    StmtKind::While { .. } | StmtKind::For { .. },
                ) => {
                    if *cont {
                        gen.frames.push(Frame {
                            pos: usize::MAX,
                            ..top
                        });
                    } else {
                        top_mut(gen).pos += 1;
                    }
                    return Ok(None);
                }
                (
                    Pending::Raise(e),
                    Block::Body,
                    StmtKind::Try {
                        handlers, finally, ..
                    },
                ) => {
                    if let Some(i) = self.handler_for(e, handlers)? {
                        let (_, value) = self.exception_values(e);
                        self.raised = Some((value.clone(), e.class, e.message.clone()));
                        if let Some(name) = &handlers[i].name {
                            self.set(name, value);
                        }
                        gen.frames.push(Frame {
                            handled: Some(Box::new(((**e).clone(), self.raised.clone()))),
                            ..frame(Block::Handler(i))
                        });
                        return Ok(None);
                    }
                    if !finally.is_empty() {
                        gen.frames.push(Frame {
                            pending: Some(pending),
                            ..frame(Block::Finally)
                        });
                        return Ok(None);
                    }
                }
                (
                    _,
                    Block::Body | Block::Handler(_) | Block::Orelse,
                    StmtKind::Try { finally, .. },
                ) if !finally.is_empty() => {
                    gen.frames.push(Frame {
                        pending: Some(pending),
                        ..frame(Block::Finally)
                    });
                    return Ok(None);
                }
                _ => {}
            }
        }
    }

    /// The first `except` clause that catches `err`.
    fn handler_for(&mut self, err: &Error, handlers: &[Handler]) -> Result<Option<usize>> {
        if err.class == ExceptionClass::KeyboardInterrupt && !self.catches_interrupt(handlers) {
            return Ok(None);
        }
        for (i, h) in handlers.iter().enumerate() {
            if self.handler_matches(err, h)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }
}

fn top_mut(gen: &mut Gen) -> &mut Frame {
    gen.frames.last_mut().expect("a frame")
}
