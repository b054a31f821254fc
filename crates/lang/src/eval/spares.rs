//! Finished calls' frames kept for the next calls, each with what its last call ran.
//!
//! A frame nothing else holds when its call ends is kept (up to [`SPARE_ENVS`]) for the next
//! call to reuse. With it the frame keeps the function that ran (when the call held its own
//! reference to it), where that function was found when it was a method (its receiver's
//! class, the attribute's name), and the method's receiver. A loop calling the same function
//! or method finds all of these here: `f(x)` of a global `f` and `obj.m(x)` of a user class's
//! `def m` then run without taking a reference to the function or the receiver, and a
//! method without looking it up in its class and the classes it inherits from (a lock and
//! a search of each one's attributes).
//!
//! A kept function or receiver lives at most until its frame is reused by another call, the
//! frame is let go of, or the input's evaluation ends: ragtag has no finalizers or weak
//! references through which that could be seen, and the frames are few.

use std::sync::Arc;

use super::Interp;
use crate::diagnostic::Result;
use crate::value::class::{method_epoch, Class, Instance};
use crate::value::env::{Env, Locals};
use crate::value::{Closure, Value};
use ragtag_syntax::ast::{Arg, Ident, Span};

/// How many finished calls' environments an evaluation keeps for reuse: enough for the
/// nesting of the calls in a loop's body.
pub(super) const SPARE_ENVS: usize = 16;

/// How many of the latest spare frames a call looks through for its function's.
const SEARCH: usize = 4;

/// A finished call's frame, emptied, with what the call ran.
pub(super) struct Spare {
    /// The environment, set up for a call of `func` when there is one.
    env: Arc<Env>,
    /// The function that ran in it, when that call held its own reference.
    func: Option<Arc<Closure>>,
    /// Where `func` was found, when it was called as a method.
    method: Option<Box<MethodKey>>,
    /// The method call's receiver: the value of the frame's first variable as the call
    /// ended, when it was an instance.
    receiver: Option<Arc<Instance>>,
}

/// Where a method was found: `name` read on an instance of the class at `class` (which
/// has no attribute `name` of its own) was the function, and no class has been made or
/// had a method set or removed since ([`method_epoch`] was `epoch`). A class made since
/// may sit where a freed one did, so the address alone says nothing after that.
pub(super) struct MethodKey {
    class: usize,
    name: String,
    epoch: u64,
}

/// The function a call runs: held by the call (its reference taken for it, or taken over
/// from a spare frame), with where it was found when it is a method, or borrowed from the
/// caller's value.
pub(super) enum Callee<'c> {
    Held(Arc<Closure>, Option<Box<MethodKey>>),
    Borrowed(&'c Arc<Closure>),
}

impl Callee<'_> {
    pub(super) fn func(&self) -> &Arc<Closure> {
        match self {
            Callee::Held(c, _) => c,
            Callee::Borrowed(c) => c,
        }
    }

    /// What a spare frame keeps of the call: the function and where it was found, when
    /// the call held them.
    fn into_kept(self) -> (Option<Arc<Closure>>, Option<Box<MethodKey>>) {
        match self {
            Callee::Held(f, m) => (Some(f), m),
            Callee::Borrowed(_) => (None, None),
        }
    }
}

impl<'s> Interp<'s> {
    /// The latest of the last [`SEARCH`] spare frames (an index of `spares`) that `wanted`
    /// accepts.
    fn find_spare(&self, wanted: impl Fn(&Spare) -> bool) -> Option<usize> {
        let n = self.spares.len();
        (n.saturating_sub(SEARCH)..n)
            .rev()
            .find(|&i| wanted(&self.spares[i]))
    }

    /// `f(args)` where `f` is a variable holding a user function that one of the latest
    /// spare frames ran, called with plain positional arguments: run in that frame with its
    /// reference to the function. `None`, with nothing evaluated, for any other call.
    pub(super) fn cached_call(
        &mut self,
        f: &Ident,
        args: &[Arg],
        span: Span,
    ) -> Option<Result<Value>> {
        let at = match self.peek_hinted(f)? {
            Value::Closure(c) if super::calls::plain_positional(c, args, 0) => {
                self.find_spare(|s| s.func.as_ref().is_some_and(|f| Arc::ptr_eq(f, c)))?
            }
            _ => return None,
        };
        let spare = self.take_spare(at);
        let func = spare.func?;
        let callee = Callee::Held(func, spare.method);
        Some(self.call_closure_args(callee, Some(spare.env), None, args, span))
    }

    /// `obj.name(args)` where `obj` is a variable holding an instance whose `name` is a
    /// method one of the latest spare frames ran, found the same way (the same class, no
    /// attribute of the instance's own by that name, no class changed since), called with
    /// plain positional arguments: run in that frame with its references to the function
    /// and, when it was the same instance, the receiver. `None`, with nothing evaluated,
    /// for any other call.
    pub(super) fn cached_method_call(
        &mut self,
        obj: &Ident,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> Option<Result<Value>> {
        let (at, same) = {
            let Value::Instance(i) = self.peek_hinted(obj)? else {
                return None;
            };
            if i.attrs.may_have(name) {
                return None;
            }
            let class = Arc::as_ptr(&i.class).addr();
            let epoch = method_epoch();
            let at = self.find_spare(|s| {
                s.method.as_ref().is_some_and(|m| {
                    m.class == class
                        && m.epoch == epoch
                        && crate::value::locals::same_name(&m.name, name)
                })
            })?;
            let spare = &self.spares[at];
            let func = spare.func.as_ref()?;
            if !super::calls::plain_positional(func, args, 1) {
                return None;
            }
            let same = spare.receiver.as_ref().is_some_and(|r| Arc::ptr_eq(r, i));
            (at, same)
        };
        let spare = self.take_spare(at);
        let receiver = match (same, spare.receiver) {
            (true, Some(r)) => Value::Instance(r),
            (_, old) => {
                drop(old);
                self.peek_hinted(obj)?.clone()
            }
        };
        let callee = Callee::Held(spare.func?, spare.method);
        Some(self.call_closure_args(callee, Some(spare.env), Some(receiver), args, span))
    }

    /// The spare frame at `at`, taken out.
    #[inline]
    fn take_spare(&mut self, at: usize) -> Spare {
        if at + 1 == self.spares.len() {
            if let Some(spare) = self.spares.pop() {
                return spare;
            }
        }
        self.spares.remove(at)
    }

    /// Where `name` was found as a method on an instance of `class`, to keep with the
    /// call's frame.
    pub(super) fn method_key(&mut self, class: &Arc<Class>, name: &str) -> Box<MethodKey> {
        let class = Arc::as_ptr(class).addr();
        let epoch = method_epoch();
        match self.spare_keys.pop() {
            Some(mut key) => {
                key.name.clear();
                key.name.push_str(name);
                key.class = class;
                key.epoch = epoch;
                key
            }
            None => Box::new(MethodKey {
                class,
                name: name.to_string(),
                epoch,
            }),
        }
    }

    /// Lets go of a method's key, keeping its room for the next one.
    fn keep_key(&mut self, key: Box<MethodKey>) {
        if self.spare_keys.len() < SPARE_ENVS {
            self.spare_keys.push(key);
        }
    }

    /// A frame for a call of `c` that was not found among the spare frames: the latest
    /// spare one, set up for `c` (unless something else holds it), or a new one.
    pub(super) fn fresh_frame(&mut self, c: &Arc<Closure>) -> Arc<Env> {
        if let Some(spare) = self.spares.pop() {
            let Spare {
                mut env,
                func,
                method,
                receiver,
            } = spare;
            drop((func, receiver));
            if let Some(key) = method {
                self.keep_key(key);
            }
            if env.entered(&c.bindings, &c.env) {
                return env;
            }
            if let Some(e) = Arc::get_mut(&mut env) {
                e.enter(&c.bindings, &c.env);
                return env;
            }
        }
        Env::new(Locals::default(), Some(c.bindings.clone()), c.env.clone())
    }

    /// Keeps a frame nothing else holds, whose variables are in it (emptied), or that did
    /// not run because its call's parameters failed to bind, with what the call ran.
    pub(super) fn keep_env(&mut self, env: Arc<Env>, callee: Callee) {
        let (func, method) = callee.into_kept();
        self.keep_spare(Spare {
            env,
            func,
            method,
            receiver: None,
        });
    }

    /// Keeps a finished call's frame `env`, which nothing else holds, with its emptied
    /// variables `vars` and what the call ran.
    pub(super) fn keep_frame(&mut self, env: Arc<Env>, mut vars: Box<Locals>, callee: Callee) {
        let (func, method) = callee.into_kept();
        let receiver = match method {
            Some(_) => match vars.take_first() {
                Some(Value::Instance(i)) => Some(i),
                _ => None,
            },
            None => None,
        };
        self.keep_locals(vars);
        self.keep_spare(Spare {
            env,
            func,
            method,
            receiver,
        });
    }

    /// Variables to bind a new frame's in: a finished call's, or new ones.
    #[inline]
    pub(super) fn spare_locals(&mut self) -> Box<Locals> {
        self.spare_vars.pop().unwrap_or_default()
    }

    /// Empties a finished frame's variables and keeps them for the next frame.
    #[inline]
    pub(super) fn keep_locals(&mut self, mut vars: Box<Locals>) {
        vars.clear();
        if self.spare_vars.len() < SPARE_ENVS {
            self.spare_vars.push(vars);
        }
    }

    #[inline(always)]
    fn keep_spare(&mut self, spare: Spare) {
        if self.spares.len() < SPARE_ENVS {
            self.spares.push(spare);
        } else if let Some(key) = spare.method {
            self.keep_key(key);
        }
    }

    /// Before a frame still held elsewhere is let go of ([`Env::release`], which counts its
    /// holders): the spare frames stop holding it as their enclosing environment, and let
    /// go of what they alone kept alive (which would be gone without them, and may hold
    /// the frame) and of the functions defined in it.
    pub(super) fn forget_frame(&mut self, env: &Arc<Env>) {
        for spare in &mut self.spares {
            if spare
                .receiver
                .as_ref()
                .is_some_and(|r| Arc::strong_count(r) == 1)
            {
                spare.receiver = None;
            }
            if spare.func.as_ref().is_some_and(|f| {
                Arc::strong_count(f) == 1 || f.env.as_ref().is_some_and(|e| Arc::ptr_eq(e, env))
            }) {
                spare.func = None;
                spare.method = None;
            }
            if let Some(e) = Arc::get_mut(&mut spare.env) {
                e.forget_parent(env);
            }
        }
    }
}
