//! Function scopes as CPython compiles them: the names a function body binds (its locals,
//! for the whole body), the names it declares `global` or `nonlocal`, and the checks
//! Python makes before running anything (`nonlocal` naming no enclosing variable, a
//! parameter declared global).

use std::collections::HashSet;

/// A set of names, hashed with foldhash: a call asks its function's sets whether a name is
/// local or declared on every read of a name it does not hold yet (a global, a builtin).
pub type NameSet = HashSet<String, foldhash::fast::FixedState>;

use crate::ast::{ExprKind, Param, ParamKind, Program, Stmt, StmtKind, Target};
use crate::error::{SyntaxError, SyntaxErrorKind};

/// What a function body does with names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bindings {
    /// Names bound in the body (parameters, assignments, `for`, `del`, `import`, `def`,
    /// `except … as`), less the declared ones: local everywhere in the body.
    pub locals: NameSet,
    /// Names declared `global`.
    pub globals: NameSet,
    /// Names declared `nonlocal`.
    pub nonlocals: NameSet,
    /// Whether the body holds a `yield`: calling the function makes a generator.
    pub generator: bool,
    /// The parameters' names in order, made once here so that each call binds its frame
    /// by sharing them rather than allocating every name again.
    pub params: Vec<std::sync::Arc<str>>,
    /// Whether every parameter is a plain positional one (no keyword-only parameter,
    /// `*args` or `**kwargs`): a call with as many positional arguments binds them in order.
    pub positional: bool,
    /// The first parameter, when it is a positional one: what a zero-argument `super()` in
    /// the body takes as its object (CPython's first argument, whatever its name).
    pub receiver: Option<std::sync::Arc<str>>,
}

impl Bindings {
    /// The bindings of a function with `params` and `body` (a lambda's body binds nothing).
    pub fn of_function(params: &[Param], body: &[Stmt]) -> Bindings {
        let mut b = Bindings::default();
        b.locals.extend(params.iter().map(|p| p.name.clone()));
        collect(body, &mut b);
        b.generator = crate::yields::is_generator(body);
        b.params = params.iter().map(|p| p.name.as_str().into()).collect();
        b.positional = params
            .iter()
            .all(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal));
        b.receiver = params
            .first()
            .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
            .and(b.params.first().cloned());
        b.locals
            .retain(|n| !b.globals.contains(n) && !b.nonlocals.contains(n));
        b
    }
}

/// Adds what `body` binds and declares to `b`, without entering nested functions.
fn collect(body: &[Stmt], b: &mut Bindings) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { targets, .. } => targets.iter().for_each(|t| target(t, b)),
            StmtKind::AugAssign { target: t, .. } | StmtKind::AnnAssign { target: t, .. } => {
                target(t, b)
            }
            StmtKind::For {
                target: t,
                body,
                orelse,
                ..
            } => {
                target(t, b);
                collect(body, b);
                collect(orelse, b);
            }
            StmtKind::Import { module, alias } if !module.starts_with("__future__.") => {
                let bound = alias
                    .clone()
                    .unwrap_or_else(|| module.split('.').next().unwrap_or(module).to_string());
                b.locals.insert(bound);
            }
            StmtKind::Del(items) => {
                for e in items {
                    if let ExprKind::Name(n) = &e.kind {
                        b.locals.insert(n.to_string());
                    }
                }
            }
            StmtKind::Def { name, .. } => {
                b.locals.insert(name.clone());
            }
            StmtKind::While { body, orelse, .. } => {
                collect(body, b);
                collect(orelse, b);
            }
            StmtKind::If { body, orelse, .. } => {
                collect(body, b);
                collect(orelse, b);
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            } => {
                collect(body, b);
                collect(orelse, b);
                for h in handlers {
                    if let Some(n) = &h.name {
                        b.locals.insert(n.clone());
                    }
                    collect(&h.body, b);
                }
                collect(finally, b);
            }
            StmtKind::Global(names) => b.globals.extend(names.iter().cloned()),
            StmtKind::Nonlocal(names) => b.nonlocals.extend(names.iter().cloned()),
            StmtKind::Class { name, .. } => {
                b.locals.insert(name.clone());
            }
            StmtKind::With { items, body } => {
                items.iter().flat_map(|i| &i.1).for_each(|t| target(t, b));
                collect(body, b);
            }
            StmtKind::Decorated { def, .. } => collect(std::slice::from_ref(def), b),
            StmtKind::Match { cases, .. } => {
                for c in cases {
                    let mut names = Vec::new();
                    c.pattern.bound_names(&mut names);
                    b.locals.extend(names);
                    collect(&c.body, b);
                }
            }
            _ => {}
        }
    }
}

fn target(t: &Target, b: &mut Bindings) {
    match t {
        Target::Name(n, _) => {
            b.locals.insert(n.to_string());
        }
        Target::Tuple(items, _) => items.iter().for_each(|t| target(t, b)),
        Target::Starred(t, _) => target(t, b),
        // Setting an item or attribute binds no name.
        Target::Subscript(..) | Target::Attr(..) => {}
    }
}

/// CPython's compile-time checks of `global` and `nonlocal` over a whole program.
pub fn check(program: &Program) -> Result<(), SyntaxError> {
    check_body(&program.body, &mut Vec::new(), false)
}

/// Checks the statements of one scope; `enclosing` holds the bindings of the functions
/// around it, innermost last (empty at module level), and `in_class` says whether a class
/// body holds them.
fn check_body(
    body: &[Stmt],
    enclosing: &mut Vec<Bindings>,
    in_class: bool,
) -> Result<(), SyntaxError> {
    let error = |msg: String, s: &Stmt| {
        Err(SyntaxError::new(
            SyntaxErrorKind::ScopeDeclaration,
            msg,
            s.span,
        ))
    };
    for s in body {
        match &s.kind {
            StmtKind::Nonlocal(_) if enclosing.is_empty() => {
                return error("nonlocal declaration not allowed at module level".into(), s)
            }
            // A function's locals are fixed when it is defined; a star import's names are
            // known only when it runs.
            StmtKind::ImportAll { .. } if in_class || !enclosing.is_empty() => {
                return error("import * only allowed at module level".into(), s)
            }
            StmtKind::Def { params, body, .. } => {
                let b = Bindings::of_function(params, body);
                for p in params {
                    if b.globals.contains(&p.name) {
                        return error(format!("name '{}' is parameter and global", p.name), s);
                    }
                    if b.nonlocals.contains(&p.name) {
                        return error(format!("name '{}' is parameter and nonlocal", p.name), s);
                    }
                }
                // Sorted, so the error names the same variable every run.
                let mut nonlocals: Vec<&String> = b.nonlocals.iter().collect();
                nonlocals.sort();
                for n in nonlocals {
                    if b.globals.contains(n) {
                        return error(format!("name '{n}' is nonlocal and global"), s);
                    }
                    let bound = enclosing
                        .iter()
                        .any(|e| e.locals.contains(n) || e.nonlocals.contains(n));
                    if !bound {
                        return error(format!("no binding for nonlocal '{n}' found"), s);
                    }
                }
                enclosing.push(b);
                let r = check_body(body, enclosing, false);
                enclosing.pop();
                r?;
            }
            StmtKind::For { body, orelse, .. } | StmtKind::While { body, orelse, .. } => {
                check_body(body, enclosing, in_class)?;
                check_body(orelse, enclosing, in_class)?;
            }
            StmtKind::If { body, orelse, .. } => {
                check_body(body, enclosing, in_class)?;
                check_body(orelse, enclosing, in_class)?;
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finally,
            } => {
                check_body(body, enclosing, in_class)?;
                check_body(orelse, enclosing, in_class)?;
                for h in handlers {
                    check_body(&h.body, enclosing, in_class)?;
                }
                check_body(finally, enclosing, in_class)?;
            }
            // A class body is a scope of its own; its methods are checked as functions.
            StmtKind::Class { body, .. } => check_body(body, enclosing, true)?,
            StmtKind::With { body, .. } => check_body(body, enclosing, in_class)?,
            StmtKind::Decorated { def, .. } => {
                check_body(std::slice::from_ref(def), enclosing, in_class)?
            }
            StmtKind::Match { cases, .. } => {
                for c in cases {
                    check_body(&c.body, enclosing, in_class)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}
