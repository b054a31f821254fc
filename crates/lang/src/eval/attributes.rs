//! Attributes: `value.name` on modules, classes, exceptions and tensors, and Paddle's
//! setters that rebind their receiver.

use super::args::{Args, CallArg};
use super::builtins::{self, registry, Kind};
use super::{suggest, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_syntax::ast::*;

impl<'s> Interp<'s> {
    /// `value.name`.
    pub(super) fn get_attr(
        &mut self,
        o: Value,
        name: &str,
        span: Span,
        obj_span: Span,
    ) -> Result<Value> {
        if let Some(v) = self.object_attr(&o, name, span)? {
            return Ok(v);
        }
        if let Value::Module(m) = &o {
            return builtins::module_attr(m, name).ok_or_else(|| {
                let prefix = format!("{m}.");
                let names: Vec<&str> = registry()
                    .function_paths()
                    .filter_map(|p| {
                        p.strip_prefix(&prefix)
                            .or_else(|| p.strip_prefix(&format!("tf.{prefix}")).map(|_| ""))
                    })
                    .filter(|p| !p.is_empty() && !p.contains('.'))
                    .collect();
                let mut err = Error::new(
                    ExceptionClass::AttributeError,
                    format!("module '{m}' has no attribute '{name}'"),
                )
                .at_labeled(span, "unknown name");
                suggest::did_you_mean(&mut err, name, names, |s| format!("{m}.{s}"));
                err
            });
        }
        // A class that is also a callable builtin (`tf.RaggedTensorSpec`) has its static
        // methods under its path (`tf.RaggedTensorSpec.from_value`).
        if let Value::Builtin(b) = &o {
            if let Some(f) = registry().get(&format!("{}.{name}", b.name)) {
                // A Python type's method read from the type (`str.lower`) is a function
                // whose first argument is the receiver.
                let python_type = matches!(
                    b.name,
                    "str"
                        | "list"
                        | "dict"
                        | "int"
                        | "float"
                        | "tuple"
                        | "set"
                        | "frozenset"
                        | "bytes"
                        | "bytearray"
                        | "object"
                );
                if f.kind == Kind::Function || (python_type && f.kind == Kind::Method) {
                    return Ok(Value::Builtin(f));
                }
            }
        }
        if let Value::Exception(x) = &o {
            if let Some(v) = crate::value::exception_chain::chain_attr(&o, name) {
                return Ok(v);
            }
            if name == "args" {
                return Ok(builtins::python::exception_args::args_of(x));
            }
            if name == "message" {
                return Ok(Value::str(&x.message));
            }
            if let Some(v) = builtins::python::exception_args::json_error_attr(x, name) {
                return Ok(v);
            }
            if let Some(v) = builtins::python::exception_attrs::attr(x, name) {
                return Ok(v);
            }
        }
        let class = builtins::class_of(&o);
        let member = class.and_then(|c| registry().member(c, name));
        // Counter, defaultdict and OrderedDict have every dict method.
        let member = member.or_else(|| {
            matches!(o, Value::Dict(_))
                .then(|| registry().member("dict", name))
                .flatten()
        });
        if let Some(b) = member {
            return match b.kind {
                Kind::Property => {
                    let args = Args::bind(
                        b,
                        vec![CallArg {
                            name: None,
                            value: o,
                            span: obj_span,
                        }],
                        span,
                    )?;
                    (b.func)(self, &args).map_err(|e| e.at(span))
                }
                _ => Ok(Value::method(o, b)),
            };
        }
        let members: Vec<&str> = class
            .map(|c| {
                let prefix = format!("{c}.");
                registry()
                    .all
                    .iter()
                    .filter_map(|b| b.name.strip_prefix(prefix.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let mut err = Error::new(
            ExceptionClass::AttributeError,
            format!("'{}' object has no attribute '{name}'", o.type_name()),
        )
        .at_labeled(span, "unknown attribute");
        suggest::did_you_mean(&mut err, name, members, |s| format!(".{s}"));
        Err(err)
    }

    /// Paddle's in-place setters (`t.set_lod(…)`) return the updated tensor, since values
    /// are immutable: rebind the receiver's name to it, and yield None as Paddle does.
    pub(super) fn rebind_receiver(&mut self, f: &Expr, func: &Value, result: Value) -> Value {
        let Value::Method(m) = func else {
            return result;
        };
        if !builtins::updates_receiver(m.builtin) {
            return result;
        }
        if let ExprKind::Attr(obj, _) = &f.kind {
            if let ExprKind::Name(n) = &obj.kind {
                let local = self.has_local(n);
                if local || !self.globals.contains_key(n.as_str()) {
                    self.set(n, result);
                } else {
                    self.set_global(n, result);
                }
            }
        }
        Value::None
    }
}
