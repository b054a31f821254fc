//! `warnings` as CPython 3.11 has it: `warn` shows `Category: message` on standard error,
//! once per call site under the default filter; `filterwarnings`/`simplefilter` put
//! filters in front (`ignore`, `error` raises the warning as its exception, `always`,
//! `default`, `once`, `module`), with CPython's default filters behind them
//! (DeprecationWarning shown only from `__main__`, PendingDeprecationWarning and
//! ImportWarning ignored); `catch_warnings` restores the filters when it exits and, with
//! `record=True`, collects the warnings in a list instead of showing them.

use std::cell::RefCell;
use std::collections::HashSet;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;

/// The module's functions and the methods of `catch_warnings`.
pub static WARNINGS: &[Builtin] = &[
    Builtin::function("warnings.warn", "(message, category=None, stacklevel=1, source=None)", warn)
        .doc("Issues a warning: shown as `UserWarning: message` on standard error (once per place under the default filter), ignored, or raised, as the filters say.")
        .examples(&["import warnings\nwarnings.warn('the mean of an empty row is nan')"]),
    Builtin::function("warnings.filterwarnings", "(action, message='', category=None, module='', lineno=0, append=False)", filterwarnings)
        .doc("Adds a filter in front: warnings of `category` whose message starts with the regular expression `message` get `action` ('ignore', 'error', 'always', 'default', 'once', 'module').")
        .examples(&["import warnings\nwarnings.filterwarnings('ignore')\nwarnings.warn('not shown')"]),
    Builtin::function("warnings.simplefilter", "(action, category=None, lineno=0, append=False)", simplefilter)
        .doc("Adds a filter in front for every warning of `category`.")
        .examples(&["import warnings\nwarnings.simplefilter('ignore', DeprecationWarning)"]),
    Builtin::function("warnings.resetwarnings", "()", |_, _| {
        FILTERS.with(|f| f.borrow_mut().clear());
        Ok(Value::None)
    })
    .doc("Removes every filter added (CPython's default filters go too).")
    .examples(&["import warnings\nwarnings.resetwarnings()"]),
    Builtin::function("warnings.catch_warnings", "(*, record=False)", catch_warnings)
        .doc("A context manager that restores the filters when it exits; with `record=True` its `as` target is a list of the warnings issued inside (each with `message`, `category`).")
        .examples(&["import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    warnings.warn('x')\nlen(w), w[0].category"]),
    Builtin::method("warnings.catch_warnings.__enter__", "(self)", enter)
        .doc("Saves the filters; the record list when `record=True`, else None.")
        .examples(&["import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')"]),
    Builtin::method("warnings.catch_warnings.__exit__", "(self, *args)", exit)
        .doc("Restores the filters saved on entering.")
        .examples(&["import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')"]),
];

/// One filter: the action, the message's pattern (None for any) and the category.
#[derive(Clone)]
struct Filter {
    action: String,
    message: Option<regex::Regex>,
    category: Value,
}

thread_local! {
    /// The filters the program added, the first tried first.
    static FILTERS: RefCell<Vec<Filter>> = const { RefCell::new(Vec::new()) };
    /// What `default`, `once` and `module` have shown already.
    static SHOWN: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
    /// For each `catch_warnings` entered: the filters to restore and its record list.
    static SAVED: RefCell<Vec<(Vec<Filter>, Option<Value>)>> = const { RefCell::new(Vec::new()) };
}

const ACTIONS: &[&str] = &[
    "error", "ignore", "always", "all", "default", "module", "once",
];

fn action_arg(a: &Args) -> Result<String> {
    let action = a.opt_str("action")?.unwrap_or_default();
    if !ACTIONS.contains(&action.as_str()) {
        // CPython checks the action with an `assert`.
        return Err(
            Error::new(C::AssertionError, format!("invalid action: '{action}'"))
                .at(a.span("action"))
                .with_hint(format!("the actions are {}", ACTIONS.join(", "))),
        );
    }
    Ok(action)
}

/// Whether `v` is a warning category (Warning or a class deriving from it).
fn is_category(v: &Value) -> bool {
    match v {
        Value::ErrorClass(k) => C::Warning.catches(*k),
        Value::Class(c) => c.is_subclass_of(&Value::ErrorClass(C::Warning)),
        _ => false,
    }
}

/// A filter's category: Warning when not given.
fn category_arg(a: &Args) -> Result<Value> {
    let c = match a.value("category") {
        Value::None => Value::ErrorClass(C::Warning),
        c => c.clone(),
    };
    if !is_category(&c) {
        return Err(
            Error::new(C::TypeError, "category must be a Warning subclass").at(a.span("category")),
        );
    }
    Ok(c)
}

fn add(filter: Filter, append: bool) {
    FILTERS.with(|f| {
        let mut f = f.borrow_mut();
        if append {
            f.push(filter);
        } else {
            f.insert(0, filter);
        }
    });
}

fn filterwarnings(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let action = action_arg(a)?;
    let message = a.opt_str("message")?.unwrap_or_default();
    let message = if message.is_empty() {
        None
    } else {
        let re = regex::Regex::new(&format!("(?i)^(?:{message})")).map_err(|e| {
            Error::new(C::ValueError, format!("bad message pattern: {e}")).at(a.span("message"))
        })?;
        Some(re)
    };
    let category = category_arg(a)?;
    let append = a.value("append").truthy().unwrap_or(false);
    add(
        Filter {
            action,
            message,
            category,
        },
        append,
    );
    Ok(Value::None)
}

fn simplefilter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let action = action_arg(a)?;
    let category = category_arg(a)?;
    let append = a.value("append").truthy().unwrap_or(false);
    add(
        Filter {
            action,
            message: None,
            category,
        },
        append,
    );
    Ok(Value::None)
}

/// Whether the category `c` is `filter` or derives from it.
fn derives(c: &Value, filter: &Value) -> bool {
    match (c, filter) {
        (Value::ErrorClass(x), Value::ErrorClass(y)) => y.catches(*x),
        (Value::Class(x), f) => x.is_subclass_of(f),
        _ => false,
    }
}

/// The action for a warning: the first filter that matches, then CPython's defaults.
fn action_for(text: &str, category: &Value) -> String {
    let found = FILTERS.with(|f| {
        f.borrow()
            .iter()
            .find(|f| {
                derives(category, &f.category)
                    && f.message.as_ref().is_none_or(|m| m.is_match(text))
            })
            .map(|f| f.action.clone())
    });
    if let Some(a) = found {
        return a;
    }
    let quiet = [
        C::DeprecationWarning,
        C::PendingDeprecationWarning,
        C::ImportWarning,
    ];
    // DeprecationWarning from `__main__` (the program itself) is shown.
    if quiet[1..]
        .iter()
        .any(|k| derives(category, &Value::ErrorClass(*k)))
    {
        return "ignore".into();
    }
    "default".into()
}

fn category_name(c: &Value) -> String {
    match c {
        Value::ErrorClass(k) => k.name().to_string(),
        Value::Class(k) => k.name.to_string(),
        _ => "UserWarning".into(),
    }
}

fn warn(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let message = a.value("message");
    let (category, text, instance) = match message {
        Value::Exception(e) if C::Warning.catches(e.class) => (
            Value::ErrorClass(e.class),
            e.message.clone(),
            Some(message.clone()),
        ),
        Value::Instance(i) if is_category(&Value::Class(i.class.clone())) => {
            it.prepare_shown(message, a.span("message"))?;
            let text = crate::render::tf_text::str_of(message);
            (Value::Class(i.class.clone()), text, Some(message.clone()))
        }
        other => {
            let category = match a.value("category") {
                Value::None => Value::ErrorClass(C::UserWarning),
                c if is_category(c) => c.clone(),
                c => {
                    return Err(Error::new(
                        C::TypeError,
                        format!(
                            "category must be a Warning subclass, not '{}'",
                            match super::objects::type_of(c) {
                                Value::Builtin(b) => b.short_name().to_string(),
                                Value::Class(k) => k.name.to_string(),
                                other => other.type_name().to_string(),
                            }
                        ),
                    )
                    .at(a.span("category")))
                }
            };
            it.prepare_shown(other, a.span("message"))?;
            (category, crate::render::tf_text::str_of(other), None)
        }
    };
    let action = action_for(&text, &category);
    let name = category_name(&category);
    match action.as_str() {
        "ignore" => return Ok(Value::None),
        "error" => {
            return Err(match (&category, instance) {
                (_, Some(v @ Value::Instance(_))) => it.raise_object(v, a.call)?,
                (Value::ErrorClass(k), _) => Error::new(*k, text).at(a.call),
                (Value::Class(c), _) => {
                    let arg = crate::eval::args::CallArg {
                        name: None,
                        value: Value::str(&text),
                        span: a.call,
                    };
                    let v = it.instantiate(c, vec![arg], a.call)?;
                    it.raise_object(v, a.call)?
                }
                _ => Error::new(C::UserWarning, text).at(a.call),
            })
        }
        _ => {}
    }
    let key = match action.as_str() {
        "once" => Some(format!("{name}:{text}")),
        "default" | "module" => Some(format!("{name}:{text}:{}", a.call.start)),
        _ => None,
    };
    if let Some(k) = key {
        if !SHOWN.with(|s| s.borrow_mut().insert(k)) {
            return Ok(Value::None);
        }
    }
    let record = SAVED.with(|s| s.borrow().last().and_then(|(_, r)| r.clone()));
    if let Some(Value::List(list)) = record {
        let Value::Class(c) = builtin_type("WarningMessage", "warnings") else {
            return Ok(Value::None);
        };
        let m = Instance::new(c);
        let shown = format!("{{message : {name}('{text}'), category : '{name}'}}");
        m.set_shown(shown.clone(), shown);
        let exception = match instance {
            Some(v) => v,
            None => match &category {
                Value::ErrorClass(k) => Value::Exception(std::sync::Arc::new(
                    ragtag_engine::Exception::new(*k, text.clone()),
                )),
                _ => Value::str(&text),
            },
        };
        attr_set(&m.attrs, "message", exception);
        attr_set(&m.attrs, "category", category);
        attr_set(&m.attrs, "filename", Value::str("<input>"));
        list.with_mut(|items| items.push(Value::Instance(m)));
        return Ok(Value::None);
    }
    it.sink().print_stderr(&format!("{name}: {text}\n"));
    Ok(Value::None)
}

fn catch_warnings(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Class(c) = builtin_type("catch_warnings", "warnings") else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "__enter__").is_none() {
        for (k, path) in [
            ("__enter__", "warnings.catch_warnings.__enter__"),
            ("__exit__", "warnings.catch_warnings.__exit__"),
        ] {
            if let Some(m) = crate::eval::builtins::registry().get(path) {
                attr_set(&c.attrs, k, Value::Builtin(m));
            }
        }
    }
    let i = Instance::new(c);
    let record = a.value("record").truthy().unwrap_or(false);
    attr_set(&i.attrs, "_record", Value::Bool(record));
    Ok(Value::Instance(i))
}

fn enter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let record = match a.value("self") {
        Value::Instance(i) => matches!(attr_get(&i.attrs, "_record"), Some(Value::Bool(true))),
        _ => false,
    };
    let list = record.then(|| Value::list(Vec::new()));
    let filters = FILTERS.with(|f| f.borrow().clone());
    SAVED.with(|s| s.borrow_mut().push((filters, list.clone())));
    Ok(list.unwrap_or(Value::None))
}

fn exit(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    if let Some((filters, _)) = SAVED.with(|s| s.borrow_mut().pop()) {
        FILTERS.with(|f| *f.borrow_mut() = filters);
    }
    Ok(Value::None)
}
