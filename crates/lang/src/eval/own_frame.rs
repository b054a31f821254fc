//! The variables of the innermost call, held by the interpreter itself while nothing else
//! can see its frame.
//!
//! A frame is an `Arc<Env>` whose variables sit behind a lock, because closures, generator
//! expressions and class bodies keep their defining frame and may read it later (from
//! another thread, too). A call's or comprehension's new frame is seen by nobody else until
//! one of those is made inside it, yet every variable read and write took the lock: two
//! atomic operations, a fifth of a comprehension's time. So a new frame's variables are taken
//! out of it while it runs ([`Interp::push_own_frame`]) and read and written here without a
//! lock. The first time code needs the frame itself ([`Interp::shared_frame`]: a `def`,
//! `lambda`, comprehension, generator expression or class body inside it), its variables go
//! back into it, and the rest of the call uses the lock as before.

use std::sync::Arc;

use super::Interp;
use crate::value::env::{Env, Locals};

/// The variables taken out of the frame at depth `depth` (the length of the frame stack
/// when that frame is the innermost).
#[derive(Debug)]
struct OwnVars {
    depth: usize,
    vars: Box<Locals>,
}

/// The frames whose variables the interpreter holds, innermost last.
#[derive(Debug, Default)]
pub(super) struct OwnFrames(Vec<OwnVars>);

impl OwnFrames {
    /// The variables of the innermost frame when the interpreter holds them (`depth` is the
    /// frame stack's length).
    pub(super) fn get(&self, depth: usize) -> Option<&Locals> {
        self.0.last().filter(|o| o.depth == depth).map(|o| &*o.vars)
    }

    /// [`Self::get`], to change.
    pub(super) fn get_mut(&mut self, depth: usize) -> Option<&mut Locals> {
        self.0
            .last_mut()
            .filter(|o| o.depth == depth)
            .map(|o| &mut *o.vars)
    }

    /// Takes the innermost frame's variables back, when the interpreter holds them.
    fn take(&mut self, depth: usize) -> Option<Box<Locals>> {
        if self.0.last()?.depth != depth {
            return None;
        }
        self.0.pop().map(|o| o.vars)
    }
}

impl<'s> Interp<'s> {
    /// Pushes `frame`, a new one nothing else holds yet, as the innermost frame, with its
    /// variables `vars` held by the interpreter (the frame's own stay empty until
    /// [`Self::check_in`]).
    #[inline(always)]
    pub(super) fn push_own_frame(&mut self, frame: Arc<Env>, vars: Box<Locals>) {
        self.own.0.push(OwnVars {
            depth: self.frames.len() + 1,
            vars,
        });
        self.frames.push(frame);
    }

    /// The innermost frame's variables, taken back from the interpreter when it holds them
    /// (before the frame is popped).
    #[inline(always)]
    pub(super) fn own_frame_vars(&mut self) -> Option<Box<Locals>> {
        self.own.take(self.frames.len())
    }

    /// Puts the innermost frame's variables back into it, if the interpreter holds them:
    /// before code that reads the frame through its lock or keeps it.
    pub(super) fn check_in(&mut self) {
        if let Some(vars) = self.own.take(self.frames.len()) {
            if let Some(f) = self.frames.last() {
                *f.vars() = *vars;
            }
        }
    }

    /// The innermost frame, its variables back in it, for code that keeps it: the parent
    /// of a closure, comprehension, generator expression or class body made inside it.
    pub(super) fn shared_frame(&mut self) -> Option<Arc<Env>> {
        self.check_in();
        self.frames.last().cloned()
    }

    /// The innermost frame's variables when the interpreter holds them.
    pub(super) fn own_vars(&self) -> Option<&Locals> {
        self.own.get(self.frames.len())
    }

    /// The value of the innermost frame's variable `name` (None at top level or unbound).
    pub(super) fn local_value(&self, name: &str) -> Option<crate::value::Value> {
        match self.own_vars() {
            Some(vars) => vars.get(name).cloned(),
            None => self.frames.last()?.vars().get(name).cloned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn held_variables_belong_to_the_innermost_frame_only() {
        let mut own = OwnFrames::default();
        let mut vars = Locals::default();
        vars.insert("x".into(), Value::Int(1));
        own.0.push(OwnVars {
            depth: 2,
            vars: Box::new(vars),
        });
        assert!(own.get(1).is_none(), "an outer frame");
        assert!(
            own.get(3).is_none(),
            "a frame pushed on top without its own variables"
        );
        assert!(matches!(
            own.get(2).and_then(|v| v.get("x")),
            Some(Value::Int(1))
        ));
        own.get_mut(2).unwrap().insert("y".into(), Value::Int(2));
        assert!(own.take(3).is_none());
        let back = own.take(2).unwrap();
        assert!(back.contains_key("y"));
        assert!(own.get(2).is_none());
    }
}
