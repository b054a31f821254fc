//! Iterating values: what a `for` loop or a comprehension visits. Instances of user
//! classes iterate through their `__iter__` (or `__getitem__` with 0, 1, 2, … until an
//! IndexError); everything else as `subscript::iterate` says.

use super::{subscript, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::budget;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::Span;

impl<'s> Interp<'s> {
    /// The items of `v`, in order.
    pub fn iterate_value(&mut self, v: &Value, span: Span) -> Result<Vec<Value>> {
        match v {
            Value::Instance(_) => self.iterate_instance(v, span),
            Value::Iter(_) => self.collect(v, span),
            _ => subscript::iterate(v).map_err(|e| Error::from(e).at(span)),
        }
    }

    fn iterate_instance(&mut self, v: &Value, span: Span) -> Result<Vec<Value>> {
        if let Some(it) = self.dunder(v, "__iter__", Vec::new(), span)? {
            if let Some(wrapped) = super::user_iter::wrap(&it) {
                return self.collect(&wrapped, span);
            }
            if crate::eval::operators::identical(&it, v) {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("iter() returned non-iterator of type '{}'", v.type_name()),
                )
                .at(span));
            }
            return self.iterate_value(&it, span);
        }
        let has_getitem =
            matches!(v, Value::Instance(i) if i.class.lookup("__getitem__").is_some());
        if !has_getitem {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not iterable", v.type_name()),
            )
            .at(span));
        }
        let mut out = Vec::new();
        let mut k = 0;
        loop {
            self.check_cancel()?;
            match self.dunder(v, "__getitem__", vec![Value::Int(k)], span) {
                Ok(Some(x)) => {
                    budget::grow("iteration", &mut out, 1).map_err(|e| Error::from(e).at(span))?;
                    out.push(x);
                }
                Ok(None) => break,
                Err(e) if e.class == ExceptionClass::IndexError => break,
                Err(e) => return Err(e),
            }
            k += 1;
        }
        Ok(out)
    }
}
