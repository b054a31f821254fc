//! Annotations as CPython 3.11 has them (PEP 526, PEP 3107): `x: T = v` and `x: T` at module
//! and class level evaluate `T` and record it in the scope's `__annotations__` dict, in
//! order; in a function body the annotation is not evaluated and a bare `x: T` binds
//! nothing. A `def`'s parameter and return annotations are evaluated when it is defined and
//! become its `__annotations__`.

use std::sync::Arc;

use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl Interp<'_> {
    /// `target: annotation [= value]`.
    pub(super) fn exec_ann_assign(
        &mut self,
        target: &Target,
        annotation: &Expr,
        value: Option<&Expr>,
        simple: bool,
    ) -> Result<()> {
        if let Some(e) = value {
            let v = self.eval(e)?;
            self.assign(target, v)?;
        }
        // A function's frame has bindings; a class body's (and the module) has none.
        let evaluated = self.frames.last().is_none_or(|f| f.bindings.is_none());
        if !evaluated {
            return Ok(());
        }
        let ann = self.eval(annotation)?;
        let Target::Name(name, _) = target else {
            return Ok(());
        };
        if !simple {
            return Ok(());
        }
        let current = match self.frames.last() {
            Some(_) => self.local_value("__annotations__"),
            None => self.globals.get("__annotations__").cloned(),
        };
        let dict = match current {
            Some(d) => d,
            None => {
                let d = Value::dict(Vec::new())?;
                self.set("__annotations__", d.clone());
                d
            }
        };
        match &dict {
            Value::Dict(d) => d.insert(Value::str(name.as_str()), ann)?,
            other => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "'{}' object does not support item assignment",
                        other.type_name()
                    ),
                )
                .at(annotation.span))
            }
        }
        Ok(())
    }

    /// Evaluates a `def`'s parameter annotations (in order) and its return annotation into
    /// the new function's `__annotations__`.
    pub(super) fn annotate_function(
        &mut self,
        closure: &mut Value,
        params: &[Param],
        returns: Option<&Expr>,
    ) -> Result<()> {
        if returns.is_none() && params.iter().all(|p| p.annotation.is_none()) {
            return Ok(());
        }
        // CPython's order: the normal parameters, the positional-only ones, `*args`, the
        // keyword-only ones, `**kwargs`.
        let rank = |k: ParamKind| match k {
            ParamKind::Normal => 0,
            ParamKind::PositionalOnly => 1,
            ParamKind::VarArgs => 2,
            ParamKind::KeywordOnly => 3,
            ParamKind::VarKeywords => 4,
        };
        let mut ordered: Vec<&Param> = params.iter().collect();
        ordered.sort_by_key(|p| rank(p.kind));
        let mut pairs = Vec::new();
        for p in ordered {
            if let Some(a) = &p.annotation {
                pairs.push((Value::str(&p.name), self.eval(a)?));
            }
        }
        if let Some(r) = returns {
            pairs.push((Value::str("return"), self.eval(r)?));
        }
        let dict = Value::dict(pairs)?;
        if let Value::Closure(c) = closure {
            if let Some(c) = Arc::get_mut(c) {
                c.annotations = Some(dict);
            }
        }
        Ok(())
    }
}
