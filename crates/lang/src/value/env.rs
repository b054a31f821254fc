//! Environments: the local variables of one running function call (or comprehension),
//! linked to the environment the function was defined in. A closure holds its defining
//! environment itself, not a copy, so it sees the enclosing function's variables as they
//! are when it runs, and `nonlocal` assignments reach them — Python's closure cells.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::value::Value;
use ragtag_syntax::scope::Bindings;

/// A scope's variables by name. Hashed with foldhash rather than std's SipHash: every
/// name a program reads or writes is hashed, and SipHash's resistance to chosen keys buys
/// nothing for one user's own variable names (a quarter of a tight Python loop's time
/// went to hashing names). The fixed-seed state, not foldhash's per-process random one:
/// evcxr compiles each cell into its own library with its own copy of foldhash's global
/// seed, so a session made in one cell must hash names the same way in the next.
///
/// Kept in insertion order, as Python's module namespace is: a name's place is stable, so
/// a top-level loop reads and binds its variables at the place its name's node remembers
/// ([`ragtag_syntax::ast::Ident`]) without hashing the name.
pub type Names = indexmap::IndexMap<String, Value, foldhash::fast::FixedState>;

/// A function call's (or comprehension's, or class body's) variables. The names are shared
/// strings: a call binds its parameters by sharing the names its function made once
/// (`Bindings::params`) instead of allocating each one on every call.
pub use super::locals::Locals;

/// One scope's variables.
#[derive(Debug)]
pub struct Env {
    vars: Mutex<Locals>,
    /// What the function body does with names; `None` for a comprehension, whose only
    /// locals are its loop variables.
    pub(crate) bindings: Option<Arc<Bindings>>,
    /// The environment of the function this one's function was defined in.
    pub(crate) parent: Option<Arc<Env>>,
    /// A comprehension's or generator expression's: `name := …` in it binds in the
    /// nearest enclosing scope that is not one.
    pub(crate) comprehension: bool,
}

/// Where a name lives, seen from the innermost environment.
pub(crate) enum Found {
    /// Bound to this value.
    Value(Value),
    /// Local to the running function but not bound yet (UnboundLocalError).
    UnboundLocal,
    /// A variable of an enclosing function not bound yet (NameError).
    UnboundFree,
    /// Not a local or enclosing variable: look in the globals.
    Global,
}

impl Env {
    /// A new environment holding `vars`.
    pub(crate) fn new(
        vars: Locals,
        bindings: Option<Arc<Bindings>>,
        parent: Option<Arc<Env>>,
    ) -> Arc<Env> {
        Arc::new(Env {
            vars: Mutex::new(vars),
            bindings,
            parent,
            comprehension: false,
        })
    }

    /// A new comprehension's or generator expression's environment inside `parent`.
    pub(crate) fn comprehension(parent: Option<Arc<Env>>) -> Arc<Env> {
        Arc::new(Env {
            vars: Mutex::new(Locals::default()),
            bindings: None,
            parent,
            comprehension: true,
        })
    }

    /// The variables (a poisoned lock still holds usable values: nothing panics while
    /// holding it).
    pub(crate) fn vars(&self) -> MutexGuard<'_, Locals> {
        self.vars.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `name` is declared `global` here (most functions declare nothing, and the
    /// emptiness test spares them hashing every name they bind).
    #[inline]
    fn declares_global(&self, name: &str) -> bool {
        self.bindings
            .as_ref()
            .is_some_and(|b| !b.globals.is_empty() && b.globals.contains(name))
    }

    fn is_local(&self, name: &str) -> bool {
        self.bindings
            .as_ref()
            .is_some_and(|b| b.locals.contains(name))
    }

    /// Looks `name` up from this environment outwards, where `own` (when given) holds this
    /// environment's variables in its place (the interpreter holds a running call's, see
    /// `eval::own_frame`).
    pub(crate) fn find_with(self: &Arc<Env>, own: Option<&Locals>, name: &str) -> Found {
        let mut env = self;
        let mut innermost = true;
        loop {
            if env.declares_global(name) {
                return Found::Global;
            }
            match own.filter(|_| innermost) {
                Some(vars) => {
                    if let Some(v) = vars.get(name) {
                        return Found::Value(v.clone());
                    }
                }
                None => {
                    if let Some(v) = env.vars().get(name) {
                        return Found::Value(v.clone());
                    }
                }
            }
            if env.is_local(name) {
                return if innermost {
                    Found::UnboundLocal
                } else {
                    Found::UnboundFree
                };
            }
            innermost = false;
            match &env.parent {
                Some(p) => env = p,
                None => return Found::Global,
            }
        }
    }

    /// Whether an assignment to `name` here goes to the globals (`global name`).
    #[inline]
    pub(crate) fn assigns_global(&self, name: &str) -> bool {
        self.declares_global(name)
    }

    /// The environment an assignment to `name` here binds in: this one, or for a
    /// `nonlocal` name the nearest enclosing function's that holds it.
    #[inline]
    pub(crate) fn target_of<'e>(self: &'e Arc<Env>, name: &str) -> &'e Arc<Env> {
        let nonlocal = self
            .bindings
            .as_ref()
            .is_some_and(|b| !b.nonlocals.is_empty() && b.nonlocals.contains(name));
        if !nonlocal {
            return self;
        }
        let mut env = self;
        while let Some(p) = &env.parent {
            if p.is_local(name) {
                return p;
            }
            env = p;
        }
        self
    }

    /// A finished call's environment for the next call to reuse, when nothing else holds
    /// it (no closure or generator kept it): its variables are dropped and its room kept,
    /// so a call allocates neither a new environment nor a new frame. Its function's
    /// bindings and enclosing environment stay: the next call is most often of the same
    /// function (a method's enclosing environment is its class body's), and
    /// [`Env::enter`] then keeps them as they are, without a reference counted up and
    /// down. The interpreter lets go of an enclosing environment kept so before it asks
    /// whether that one is held elsewhere (see `Interp::run_closure`).
    ///
    /// `vars` are its variables when the interpreter held them while the call ran.
    pub(crate) fn recycle(&mut self, vars: Option<Locals>) {
        match vars {
            Some(mut vars) => {
                vars.clear();
                *self.vars_mut() = vars;
            }
            None => self.vars_mut().clear(),
        }
    }

    /// Lets go of the enclosing environment kept by [`Env::recycle`] when it is `env`.
    pub(crate) fn forget_parent(&mut self, env: &Arc<Env>) {
        if self.parent.as_ref().is_some_and(|p| Arc::ptr_eq(p, env)) {
            self.parent = None;
        }
    }

    /// The variables, for an environment no one else holds yet.
    pub(crate) fn vars_mut(&mut self) -> &mut Locals {
        self.vars.get_mut().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether this environment is set up for a call of the function with `bindings`,
    /// defined in `parent`, already.
    pub(crate) fn entered(&self, bindings: &Arc<Bindings>, parent: &Option<Arc<Env>>) -> bool {
        self.bindings
            .as_ref()
            .is_some_and(|b| Arc::ptr_eq(b, bindings))
            && self.has_parent(parent)
    }

    /// Whether `parent` is this environment's enclosing one (the same one, or both none).
    fn has_parent(&self, parent: &Option<Arc<Env>>) -> bool {
        match (&self.parent, parent) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// Sets a recycled environment up for a call of the function with `bindings`, defined
    /// in `parent`.
    pub(crate) fn enter(&mut self, bindings: &Arc<Bindings>, parent: &Option<Arc<Env>>) {
        if !self
            .bindings
            .as_ref()
            .is_some_and(|b| Arc::ptr_eq(b, bindings))
        {
            self.bindings = Some(bindings.clone());
        }
        if !self.has_parent(parent) {
            self.parent = parent.clone();
        }
    }

    /// Called as a call's environment is left: when only closures stored in its own
    /// variables still hold it (a helper `def` inside a function, never returned), the
    /// environment and those closures hold each other and nothing else can reach them, so
    /// its variables are dropped to free them.
    pub(crate) fn release(env: Arc<Env>) {
        let holders = Arc::strong_count(&env);
        if holders == 1 {
            return;
        }
        let own_closures = env
            .vars()
            .values()
            .filter(|v| match v {
                Value::Closure(c) => {
                    Arc::strong_count(c) == 1
                        && c.env.as_ref().is_some_and(|e| Arc::ptr_eq(e, &env))
                }
                _ => false,
            })
            .count();
        if holders == 1 + own_closures {
            env.vars().clear();
        }
    }
}
