//! Names: binding, unpacking, deleting and looking up names, and the closures `def` and
//! `lambda` make.

use std::sync::Arc;

use super::builtins::{self, registry, Kind};
use super::set_attrs::ItemOwner;
use super::{items, root_module, subscript, suggest, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::env::Found;
use crate::value::{Closure, ClosureBody, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;
use ragtag_syntax::scope::Bindings;

impl<'s> Interp<'s> {
    /// A closure over the innermost frame, with its defaults evaluated now, as in Python.
    pub(super) fn make_closure(
        &mut self,
        name: &str,
        params: &[Param],
        body: ClosureBody,
    ) -> Result<Value> {
        #[allow(clippy::disallowed_methods)] // sized by the source text
        let mut defaults = Vec::with_capacity(params.len());
        for p in params {
            defaults.push(match &p.default {
                Some(e) => Some(self.eval(e)?),
                None => None,
            });
        }
        let env = self.shared_frame();
        let bindings = match &body {
            ClosureBody::Block(stmts) => Bindings::of_function(params, stmts),
            ClosureBody::Expr(_) => Bindings::of_function(params, &[]),
        };
        Ok(Value::Closure(Arc::new(Closure {
            name: name.to_string(),
            params: params.to_vec(),
            defaults,
            body,
            env,
            bindings: Arc::new(bindings),
            source: self.source,
            annotations: None,
            attrs: Default::default(),
        })))
    }

    /// Binds a name in the innermost frame (or, for a `nonlocal` name, the enclosing
    /// function's), or globally at top level or for a `global` name.
    pub(super) fn set(&mut self, name: &str, v: Value) {
        match self.frames.last() {
            Some(f) if !f.assigns_global(name) => {
                let target = f.target_of(name);
                if Arc::ptr_eq(target, f) {
                    if let Some(vars) = self.own.get_mut(self.frames.len()) {
                        vars.set(name, v);
                        return;
                    }
                }
                // The old value is dropped after the lock is released.
                let old = target.vars().set(name, v);
                drop(old);
            }
            _ => self.set_global(name, v),
        }
    }

    /// [`Self::set`] through a name's node: a variable of the running call is looked for
    /// first where this node last bound it.
    ///
    /// The common case, a variable of the running call (or at top level a global) bound
    /// where the node last found it (a name declared `global` or `nonlocal` is never bound
    /// in the call's variables), is this small function's whole work; everything else is in
    /// [`Self::set_ident_rest`].
    #[inline]
    pub(super) fn set_ident(&mut self, name: &Ident, v: Value) {
        let depth = self.frames.len();
        let slot = match depth {
            0 => self
                .globals
                .get_index_mut(name.hint())
                .filter(|(k, _)| crate::value::locals::same_name(k, name))
                .map(|(_, slot)| slot),
            _ => self
                .own
                .get_mut(depth)
                .and_then(|vars| vars.at_hint_mut(name)),
        };
        match slot {
            Some(slot) => *slot = v,
            None => self.set_ident_rest(name, v),
        }
    }

    /// [`Self::set_ident`] past its common case.
    #[inline(never)]
    fn set_ident_rest(&mut self, name: &Ident, v: Value) {
        match self.frames.last() {
            Some(f) => {
                if !f.assigns_global(name) && Arc::ptr_eq(f.target_of(name), f) {
                    if let Some(vars) = self.own.get_mut(self.frames.len()) {
                        vars.set_ident(name, v);
                        return;
                    }
                }
                self.set(name, v)
            }
            // At top level (the remembered place was tried in `set_ident`).
            None => match self.globals.get_full_mut(name.as_str()) {
                Some((i, _, slot)) => {
                    *slot = v;
                    name.remember(i);
                }
                None => {
                    let (i, _) = self.globals.insert_full(name.to_string(), v);
                    name.remember(i);
                }
            },
        }
    }

    /// `name := v`: bound as an assignment binds it, but from inside a comprehension or
    /// generator expression in the nearest enclosing scope that is not one, as CPython's.
    pub(super) fn bind_walrus(&mut self, name: &Ident, v: Value) {
        if !self.frames.last().is_some_and(|f| f.comprehension) {
            return self.set_ident(name, v);
        }
        let mut scope = self.frames.last().and_then(|f| f.parent.clone());
        while let Some(e) = scope.clone().filter(|e| e.comprehension) {
            scope = e.parent.clone();
        }
        match scope {
            Some(env) if !env.assigns_global(name) => {
                env.target_of(name).vars().set(name, v);
            }
            _ => self.set_global(name, v),
        }
    }

    /// Whether `name` is bound in the innermost frame.
    pub(super) fn has_local(&self, name: &str) -> bool {
        if let Some(vars) = self.own_vars() {
            return vars.contains_key(name);
        }
        self.frames
            .last()
            .is_some_and(|f| f.vars().contains_key(name))
    }

    /// `del name` or `del name[index]`.
    pub(super) fn delete(&mut self, e: &Expr) -> Result<()> {
        match &e.kind {
            ExprKind::Name(n) => {
                let depth = self.frames.len();
                if let Some(f) = self.frames.last().filter(|f| !f.assigns_global(n)) {
                    let target = f.target_of(n);
                    let removed = match self.own.get_mut(depth) {
                        Some(vars) if Arc::ptr_eq(target, f) => vars.remove(n.as_str()),
                        _ => target.vars().remove(n.as_str()),
                    };
                    if removed.is_some() {
                        return Ok(());
                    }
                    return Err(Error::new(
                        ExceptionClass::UnboundLocalError,
                        format!("cannot access local variable '{n}' where it is not associated with a value"),
                    )
                    .at(e.span));
                }
                match self.globals.shift_remove(n.as_str()) {
                    Some(_) => Ok(()),
                    None => Err(Error::new(
                        ExceptionClass::NameError,
                        format!("name '{n}' is not defined"),
                    )
                    .at(e.span)),
                }
            }
            ExprKind::Subscript(obj, index) => {
                let o = match self.item_owner(obj, true)? {
                    ItemOwner::Attrs(i) => return self.dict_item(&i, index, None, e.span),
                    ItemOwner::Value(o) => o,
                };
                if let Value::Instance(_) = o {
                    return self.instance_delitem(&o, index, e.span);
                }
                let sub = self.eval_sub(&o, index, e.span)?;
                items::del_item(&o, sub, e.span)
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
                if self.del_object_attr(&o, name, e.span)? {
                    return Ok(());
                }
                Err(self.attr_unsettable(&o, name, e.span))
            }
            _ => Err(
                Error::new(ExceptionClass::SyntaxError, "cannot delete this expression").at(e.span),
            ),
        }
    }

    /// Binds an assignment target, unpacking tuples of names.
    pub(super) fn assign(&mut self, target: &Target, v: Value) -> Result<()> {
        match target {
            Target::Name(n, _) => {
                self.set_ident(n, v);
                Ok(())
            }
            _ => self.assign_rest(target, v),
        }
    }

    /// [`Self::assign`] to anything but a name, out of line.
    #[inline(never)]
    fn assign_rest(&mut self, target: &Target, v: Value) -> Result<()> {
        match target {
            Target::Name(n, _) => {
                self.set(n, v);
                Ok(())
            }
            Target::Tuple(ts, span) => {
                let v = match v {
                    Value::Iter(_) => Value::list(self.collect(&v, *span)?),
                    Value::Instance(_) => match self.instance_iter(&v, *span)? {
                        Some(it) => Value::list(self.collect(&it, *span)?),
                        None => v,
                    },
                    v => v,
                };
                let items = subscript::iterate(&v).map_err(|_| {
                    Error::new(
                        ExceptionClass::TypeError,
                        format!("cannot unpack non-iterable {} object", v.type_name()),
                    )
                    .at(*span)
                })?;
                if let Some(star) = ts.iter().position(|t| matches!(t, Target::Starred(..))) {
                    return self.assign_starred(ts, star, items, *span);
                }
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
            Target::Subscript(obj, index, span) => {
                let v = match self.store_named_item(obj, index, v, *span) {
                    Ok(stored) => return stored,
                    Err(v) => v,
                };
                if let Some(name) = self.globals_item(obj, index)? {
                    self.bind_global(&name, v);
                    return Ok(());
                }
                let o = match self.item_owner(obj, false)? {
                    ItemOwner::Attrs(i) => return self.dict_item(&i, index, Some(v), *span),
                    ItemOwner::Value(o) => o,
                };
                if let Value::Instance(_) = o {
                    return self.instance_setitem(&o, index, v, *span);
                }
                let sub = self.eval_sub(&o, index, *span)?;
                // A slice of a list takes any iterable's items.
                let v = match (&o, &sub, v) {
                    (
                        Value::List(_),
                        items::Sub::Slice(..),
                        v @ (Value::Iter(_) | Value::Instance(_)),
                    ) => Value::list(self.iterate_value(&v, *span)?),
                    (_, _, v) => v,
                };
                items::set_item(&o, sub, v, *span)
            }
            Target::Attr(obj, name, span) => {
                let o = self.eval(obj)?;
                self.store_attr(&o, name, v, *span)
            }
            // The parser keeps a starred target inside a tuple.
            Target::Starred(t, _) => self.assign(t, v),
        }
    }

    /// `o.name = v`.
    pub(super) fn store_attr(&mut self, o: &Value, name: &str, v: Value, span: Span) -> Result<()> {
        if self.set_object_attr(o, name, v, span)? {
            return Ok(());
        }
        Err(self.attr_unsettable(o, name, span))
    }

    /// The AttributeError of setting or deleting an attribute: ragtag's values have no
    /// attributes of their own to change.
    pub(super) fn attr_unsettable(&mut self, o: &Value, name: &str, span: Span) -> Error {
        let exists = self.get_attr(o.clone(), name, span, span).is_ok();
        let class = o.type_name();
        let message = if exists {
            format!("'{class}' object attribute '{name}' is read-only")
        } else {
            format!("'{class}' object has no attribute '{name}'")
        };
        Error::new(ExceptionClass::AttributeError, message).at(span)
    }

    /// [`Self::lookup`] through a name's node: a variable of the running call is looked for
    /// first where this node last found it.
    ///
    /// The common case, a variable of the running call where the node last found it, is
    /// this small function's whole work; everything else is in [`Self::lookup_ident_rest`].
    #[inline]
    pub(super) fn lookup_ident(&self, name: &Ident, span: Span) -> Result<Value> {
        if let Some(v) = self.own_vars().and_then(|vars| vars.at_hint(name)) {
            return Ok(v.clone());
        }
        self.lookup_ident_rest(name, span)
    }

    /// [`Self::lookup_ident`] past its common case.
    #[inline(never)]
    fn lookup_ident_rest(&self, name: &Ident, span: Span) -> Result<Value> {
        match self.own_vars() {
            Some(vars) => {
                if let Some(v) = vars.get_ident(name) {
                    return Ok(v.clone());
                }
            }
            // At top level a name is a global or a builtin.
            None if self.frames.is_empty() => {
                return match self.global_ident(name) {
                    Some(v) => Ok(v.clone()),
                    None => self.builtin_ident(name, span),
                };
            }
            None => {}
        }
        self.lookup_in(name, Some(name), span)
    }

    /// [`Self::lookup_builtin`] through a name's node: a builtin function is looked for first
    /// at the place in the registry this node last found it (the caller has found no
    /// variable of the name).
    fn builtin_ident(&self, name: &Ident, span: Span) -> Result<Value> {
        let all = &registry().all;
        if let Some(b) = all
            .get(name.hint())
            .filter(|b| b.kind == Kind::Function && crate::value::locals::same_name(b.name, name))
        {
            return Ok(Value::Builtin(b));
        }
        let v = self.lookup_builtin(name, span)?;
        if let Value::Builtin(b) = &v {
            if let Some(place) = all.iter().position(|x| std::ptr::eq(*x, *b)) {
                name.remember(place);
            }
        }
        Ok(v)
    }

    /// The global `name`, looked for first where this node last found it.
    #[inline]
    fn global_ident(&self, name: &Ident) -> Option<&Value> {
        let hint = name.hint();
        if let Some((k, v)) = self.globals.get_index(hint) {
            if crate::value::locals::same_name(k, name) {
                return Some(v);
            }
        }
        let (i, _, v) = self.globals.get_full(name.as_str())?;
        name.remember(i);
        Some(v)
    }

    /// The variable `name` of the running call, or at top level the global, when it is
    /// where this node last found it (no search: `None` otherwise).
    #[inline]
    pub(super) fn peek_hinted(&self, name: &Ident) -> Option<&Value> {
        match self.own_vars() {
            Some(vars) => vars.at_hint(name),
            None if self.frames.is_empty() => self
                .globals
                .get_index(name.hint())
                .filter(|(k, _)| crate::value::locals::same_name(k, name))
                .map(|(_, v)| v),
            None => None,
        }
    }

    /// [`Self::peek`] through a name's node.
    pub(super) fn peek_ident(&self, name: &Ident) -> Option<&Value> {
        match self.own_vars() {
            Some(vars) => vars.get_ident(name),
            None if self.frames.is_empty() => self.global_ident(name),
            None => None,
        }
    }

    /// Looks a name up: locals, globals, module roots, exception classes, Python builtins.
    pub(super) fn lookup(&self, name: &str, span: Span) -> Result<Value> {
        self.lookup_in(name, None, span)
    }

    /// [`Self::lookup`], with the name's node when there is one (a global is then looked
    /// for first where the node last found it).
    fn lookup_in(&self, name: &str, ident: Option<&Ident>, span: Span) -> Result<Value> {
        // A variable of the running call, when the interpreter holds them: a name declared
        // `global` is never bound there.
        if let Some(v) = self.own_vars().and_then(|vars| vars.get(name)) {
            return Ok(v.clone());
        }
        if let Some(f) = self.frames.last() {
            match f.find_with(self.own_vars(), name) {
                Found::Value(v) => return Ok(v),
                Found::UnboundLocal => {
                    return Err(Error::new(
                        ExceptionClass::UnboundLocalError,
                        format!(
                            "cannot access local variable '{name}' where it is not associated with a value"
                        ),
                    )
                    .at_labeled(span, "local here (assigned in this function), not yet bound"))
                }
                Found::UnboundFree => {
                    return Err(Error::new(
                        ExceptionClass::NameError,
                        format!(
                            "cannot access free variable '{name}' where it is not associated with a value in enclosing scope"
                        ),
                    )
                    .at(span))
                }
                Found::Global => {}
            }
        }
        let global = match ident {
            Some(ident) => self.global_ident(ident),
            None => self.globals.get(name),
        };
        if let Some(v) = global {
            return Ok(v.clone());
        }
        match ident {
            Some(ident) => self.builtin_ident(ident, span),
            None => self.lookup_builtin(name, span),
        }
    }

    /// Looks up a name bound neither locally nor globally: a module root, an exception
    /// class, a constant or a builtin function, or else CPython's NameError with
    /// suggestions. Out of line, so that [`Self::lookup`]'s frame stays small.
    #[inline(never)]
    fn lookup_builtin(&self, name: &str, span: Span) -> Result<Value> {
        if let Some(root) = root_module(name) {
            return Ok(Value::Module(crate::value::ThinStr::from(root)));
        }
        // Every exception class's name is capitalised: `len` or `range` skips the scan of
        // the classes.
        let capitalised = name.starts_with(|c: char| c.is_ascii_uppercase());
        if let Some(c) = capitalised
            .then(|| ExceptionClass::from_name(name))
            .flatten()
            .filter(|c| c.name() == name)
        {
            return Ok(Value::ErrorClass(c));
        }
        // Python's older names for OSError are the same class.
        if matches!(name, "IOError" | "EnvironmentError") {
            return Ok(Value::ErrorClass(ExceptionClass::OSError));
        }
        if let Some(v) = builtins::constant(name) {
            return Ok(v);
        }
        if let Some(b) = registry().get(name).filter(|b| b.kind == Kind::Function) {
            return Ok(Value::Builtin(b));
        }
        // `Ellipsis` is the value `...` writes.
        if name == "Ellipsis" {
            return Ok(Value::Opaque(crate::value::ThinStr::from("Ellipsis")));
        }
        if name == "NotImplemented" {
            return Ok(super::dunder::not_implemented());
        }
        // The session is the main module: `if __name__ == "__main__":` runs its block.
        if name == "__name__" {
            return Ok(Value::str("__main__"));
        }
        let mut candidates: Vec<&str> = self.globals.keys().map(|k| k.as_str()).collect();
        let locals: Vec<String> = match self.own_vars() {
            Some(vars) => vars.keys().map(|k| k.to_string()).collect(),
            None => self
                .frames
                .last()
                .map(|f| f.vars().keys().map(|k| k.to_string()).collect())
                .unwrap_or_default(),
        };
        candidates.extend(locals.iter().map(|k| k.as_str()));
        candidates.extend(
            registry()
                .all
                .iter()
                .filter(|b| !b.name.contains('.'))
                .map(|b| b.name),
        );
        candidates.extend(super::builtins::root_names());
        let mut err = Error::new(
            ExceptionClass::NameError,
            format!("name '{name}' is not defined"),
        )
        .at_labeled(span, "not defined");
        if !suggest::did_you_mean(&mut err, name, candidates, str::to_string) {
            let functions = registry().all.iter().filter(|b| b.kind == Kind::Function);
            if let Some(b) = functions.clone().find(|b| b.short_name() == name) {
                err = err.with_hint(format!("it lives in a module: `{}`", b.name));
            } else {
                // A misspelt module function (`reduce_summ`): suggest its full path.
                let in_modules = functions.filter(|b| b.name.contains('.'));
                let full = |short: &str| {
                    in_modules
                        .clone()
                        .find(|b| b.short_name() == short)
                        .map_or_else(|| short.to_string(), |b| b.name.to_string())
                };
                let shorts = in_modules.clone().map(|b| b.short_name());
                suggest::did_you_mean(&mut err, name, shorts, full);
            }
        }
        Err(err)
    }
}

impl Interp<'_> {
    /// The name `globals()[name] = v` binds, when the target is a subscript of a call of
    /// the builtin `globals` (whose dict is a copy, so the name is bound here).
    fn globals_item(&mut self, obj: &Expr, index: &[Index]) -> Result<Option<String>> {
        let ExprKind::Call(f, args) = &obj.kind else {
            return Ok(None);
        };
        let ExprKind::Name(n) = &f.kind else {
            return Ok(None);
        };
        if n != "globals" || !args.is_empty() || index.len() != 1 {
            return Ok(None);
        }
        if !matches!(self.lookup(n, f.span), Ok(Value::Builtin(b)) if b.name == "globals") {
            return Ok(None);
        }
        let Index::Expr(e) = &index[0] else {
            return Ok(None);
        };
        match self.eval(e)? {
            Value::Str(s) => Ok(Some(s.to_string())),
            _ => Ok(None),
        }
    }
}
