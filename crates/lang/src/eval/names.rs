//! Names: binding, unpacking, deleting and looking up names, and the closures `def` and
//! `lambda` make.

use std::sync::Arc;

use super::builtins::{self, registry, Kind};
use super::{items, root_module, subscript, suggest, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::{Closure, ClosureBody, Value};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

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

    /// Binds a name in the innermost frame, or globally at top level.
    pub(super) fn set(&mut self, name: &str, v: Value) {
        match self.frames.last_mut() {
            Some(f) => {
                f.insert(name.to_string(), v);
            }
            None => self.set_global(name, v),
        }
    }

    /// `del name` or `del name[index]`.
    pub(super) fn delete(&mut self, e: &Expr) -> Result<()> {
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
                    Some(_) => Ok(()),
                    None => Err(Error::new(
                        ExceptionClass::NameError,
                        format!("name '{n}' is not defined"),
                    )
                    .at(e.span)),
                }
            }
            ExprKind::Subscript(obj, index) => {
                let o = self.eval(obj)?;
                let sub = self.eval_sub(&o, index, e.span)?;
                items::del_item(&o, sub, e.span)
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
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
            Target::Subscript(obj, index, span) => {
                let o = self.eval(obj)?;
                let sub = self.eval_sub(&o, index, *span)?;
                items::set_item(&o, sub, v, *span)
            }
            Target::Attr(obj, name, span) => {
                let o = self.eval(obj)?;
                Err(self.attr_unsettable(&o, name, *span))
            }
        }
    }

    /// The AttributeError of setting or deleting an attribute: ragtag's values have no
    /// attributes of their own to change.
    fn attr_unsettable(&mut self, o: &Value, name: &str, span: Span) -> Error {
        let exists = self.get_attr(o.clone(), name, span, span).is_ok();
        let class = o.type_name();
        let message = if exists {
            format!("'{class}' object attribute '{name}' is read-only")
        } else {
            format!("'{class}' object has no attribute '{name}'")
        };
        Error::new(ExceptionClass::AttributeError, message).at(span)
    }

    /// Looks a name up: locals, globals, module roots, exception classes, Python builtins.
    pub(super) fn lookup(&self, name: &str, span: Span) -> Result<Value> {
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
