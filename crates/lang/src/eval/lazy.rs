//! Lazy evaluation at the language level: `for` over an iterator, generator expressions,
//! and `in` over an iterator, each reading only as many items as it needs.

use std::sync::Arc;

use super::builtins::python::builtin_bases as bases;
use super::{Flow, Interp};
use crate::diagnostic::{Error, Result};
use crate::value::env::Env;
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_syntax::ast::{ExprKind, Span, Stmt};

impl<'s> Interp<'s> {
    /// `for target in it:` over an iterator, one item at a time (it may be endless).
    /// `Flow::Break` when a `break` ended the loop.
    pub(super) fn for_iter(
        &mut self,
        target: &ragtag_syntax::ast::Target,
        it: &Value,
        body: &[Stmt],
        span: Span,
    ) -> Result<Flow> {
        while let Some(item) = self.next_of(it, span)? {
            self.assign(target, item)?;
            match self.exec_block(body)? {
                Flow::Break => return Ok(Flow::Break),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
        Ok(Flow::Normal)
    }

    /// A generator expression: its first iterable evaluated now, the rest as it is read.
    pub(super) fn genexp(
        &mut self,
        elt: &ragtag_syntax::ast::Expr,
        generators: &[ragtag_syntax::ast::Comprehension],
    ) -> Result<Value> {
        let Some(first) = generators.first() else {
            return Ok(Value::None);
        };
        let it = self.eval_iterable(&first.iter)?;
        let env = Env::comprehension(self.shared_frame());
        Ok(Value::Iter(PyIter::named(
            "generator",
            "<genexpr>".into(),
            IterState::GenExp {
                elt: Arc::new(elt.clone()),
                gens: Arc::new(generators.to_vec()),
                env,
                iters: vec![it],
            },
        )))
    }

    /// Whether an expression is certainly not an iterator (a display, a literal): the
    /// common `x in [...]` skips the lazy test.
    pub(super) fn is_iter_expr(&self, e: &ragtag_syntax::ast::Expr) -> bool {
        !matches!(
            e.kind,
            ExprKind::List(_)
                | ExprKind::Tuple(_)
                | ExprKind::Dict(_)
                | ExprKind::Str(_)
                | ExprKind::Data(_)
                | ExprKind::ListComp { .. }
        )
    }

    /// `a in it` / `a not in it`, reading an iterator only as far as the first equal item.
    pub(super) fn contains_lazy(
        &mut self,
        op: ragtag_syntax::ast::BinOp,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> Result<Value> {
        let found = match b {
            Value::Iter(_) => {
                let mut found = false;
                while let Some(x) = self.next_of(b, span)? {
                    if super::operators::python_eq(a, &x) {
                        found = true;
                        break;
                    }
                }
                found
            }
            Value::Instance(_) => return self.instance_binary(op, a, b, span),
            _ if matches!(a, Value::Instance(_)) => return self.instance_binary(op, a, b, span),
            _ => {
                return super::operators::binary(op, a, b).map_err(|e| Error::from(e).at(span));
            }
        };
        Ok(Value::Bool(found == (op == ragtag_syntax::ast::BinOp::In)))
    }
}

/// The builtins that read a whole iterable at once without knowing iterators: an
/// iterator given to one is drained into a list first.
const DRAINING: &[&str] = &[
    "list",
    "tuple",
    "sorted",
    "min",
    "max",
    "dict",
    "set",
    "frozenset",
    "str.join",
    "list.extend",
    "dict.update",
    "collections.Counter",
    "collections.Counter.update",
    "collections.Counter.subtract",
    "collections.OrderedDict",
    "collections.defaultdict",
    "dict.fromkeys",
    "collections.OrderedDict.fromkeys",
    "collections.defaultdict.fromkeys",
    "collections.deque",
    "collections.deque.extend",
    "collections.deque.extendleft",
    "set.update",
    "set.intersection_update",
    "set.difference_update",
    "set.symmetric_difference_update",
    "set.union",
    "set.intersection",
    "set.difference",
    "set.symmetric_difference",
    "set.issubset",
    "set.issuperset",
    "set.isdisjoint",
    "frozenset.union",
    "frozenset.intersection",
    "frozenset.difference",
    "frozenset.symmetric_difference",
    "frozenset.issubset",
    "frozenset.issuperset",
    "frozenset.isdisjoint",
    "tf.constant",
    "tf.ragged.constant",
    "tf.convert_to_tensor",
    "np.array",
    "np.asarray",
    "np.fromiter",
];

impl<'s> Interp<'s> {
    /// The arguments of a call of `b`, with iterators drained into lists for a builtin
    /// that reads its iterables whole.
    pub(super) fn drain_iterators(
        &mut self,
        b: &'static super::builtins::Builtin,
        mut args: Vec<super::args::CallArg>,
    ) -> Result<Vec<super::args::CallArg>> {
        // A user iterator (an instance with `__next__`) passed where an iterable is wanted
        // is read one item at a time, as an iterator.
        if args.iter().any(|a| matches!(a.value, Value::Instance(_))) {
            // `dict.get(self, k)` in a class deriving from dict acts on its items.
            bases::unwrap_receiver(b, &mut args);
            super::builtins::python::value_bases::unwrap_values(b, &mut args);
            if b.sig.contains("iterable") || DRAINING.contains(&b.name) {
                // A method's receiver stays itself.
                let skip = usize::from(b.kind == super::builtins::Kind::Method);
                for (n, a) in args.iter_mut().enumerate() {
                    if let Some(w) = super::user_iter::wrap(&a.value) {
                        a.value = w;
                    } else if n >= skip {
                        if let Some(v) = bases::iterable_arg(self, b, &a.value, a.span)? {
                            a.value = v;
                        }
                    }
                }
            }
        }
        if !args.iter().any(|a| matches!(a.value, Value::Iter(_))) || !DRAINING.contains(&b.name) {
            return Ok(args);
        }
        for a in &mut args {
            if let Value::Iter(_) = a.value {
                let items = self.collect(&a.value, a.span)?;
                a.value = Value::list(items);
            }
        }
        Ok(args)
    }
}
