//! `csv` as CPython 3.11 has it: `reader` (CPython's parsing state machine: quoted fields
//! with doubled quotes and line breaks, `escapechar`, `skipinitialspace`, `strict`, the
//! four quoting modes, an empty line as `[]`), `writer` (`writerow`/`writerows` through
//! the file's `write`, quoting what needs it), `DictReader`, `DictWriter`, the dialects
//! `excel`, `excel-tab` and `unix` with keyword overrides, and `csv.Error` with CPython's
//! messages. A reader reads its whole input when it is made.

mod read;
mod write;

use std::sync::Arc;

use super::super::{registry, Builtin};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Class, Instance};
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;
use ragtag_syntax::ast::Span;

/// Quote only fields that hold a delimiter, quote character or line break.
pub(super) const QUOTE_MINIMAL: i64 = 0;
/// Quote every field.
pub(super) const QUOTE_ALL: i64 = 1;
/// Quote every field that is not a number; a reader makes unquoted fields floats.
pub(super) const QUOTE_NONNUMERIC: i64 = 2;
/// Never quote; special characters are escaped with `escapechar`.
pub(super) const QUOTE_NONE: i64 = 3;

/// CPython's default `field_size_limit`.
pub(super) const FIELD_LIMIT: usize = 131_072;

macro_rules! f {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("csv.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import csv\n", $ex)])
    };
}

macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method($name, $sig, $f)
            .doc($doc)
            .examples(&[concat!("import csv\n", $ex)])
    };
}

/// The functions and methods of `csv`.
pub static CSV: &[Builtin] = &[
    f!("reader", "(csvfile, dialect='excel', *, delimiter=None, quotechar=None, escapechar=None, doublequote=None, skipinitialspace=None, lineterminator=None, quoting=None, strict=None)", reader,
       "An iterator of the rows of `csvfile` (a file, or any iterable of lines), each a list of strings.",
       "list(csv.reader(['a,b', '1,\"x, y\"']))"),
    f!("writer", "(csvfile, dialect='excel', *, delimiter=None, quotechar=None, escapechar=None, doublequote=None, skipinitialspace=None, lineterminator=None, quoting=None, strict=None)", writer,
       "A writer whose `writerow` writes one row of values to `csvfile` (anything with `write`), quoted where needed.",
       "with open('rows.csv', 'w', newline='') as f:\n    w = csv.writer(f)\n    n = w.writerow(['a', 'b, c', 3])\nopen('rows.csv').read()"),
    f!("DictReader", "(f, fieldnames=None, restkey=None, restval=None, dialect='excel', *, delimiter=None, quotechar=None, escapechar=None, doublequote=None, skipinitialspace=None, lineterminator=None, quoting=None, strict=None)", dict_reader,
       "An iterator of the rows of `f` as dicts keyed by `fieldnames` (the first row when not given).",
       "[dict(r) for r in csv.DictReader(['x,y', '1,2', '3,4'])]"),
    f!("DictWriter", "(f, fieldnames, restval='', extrasaction='raise', dialect='excel', *, delimiter=None, quotechar=None, escapechar=None, doublequote=None, skipinitialspace=None, lineterminator=None, quoting=None, strict=None)", dict_writer,
       "A writer of dicts as rows, in the order of `fieldnames`; `writeheader` writes the names.",
       "with open('d.csv', 'w', newline='') as f:\n    w = csv.DictWriter(f, ['x', 'y'])\n    w.writeheader()\n    n = w.writerow({'x': 1, 'y': 2})\nopen('d.csv').read()"),
    f!("list_dialects", "()", |_, _| Ok(Value::list(["excel", "excel-tab", "unix"].into_iter().map(Value::str).collect())),
       "The names of the known dialects.", "csv.list_dialects()"),
    f!("field_size_limit", "(new_limit=None)", |_, _| Ok(Value::Int(FIELD_LIMIT as i64)),
       "The largest field a reader accepts (CPython's default, which ragtag does not let change).", "csv.field_size_limit()"),
    m!("_csv.writer.writerow", "(self, row, /)", |it, a| {
        let d = dialect_of(a.value("self"))?;
        write::write_row(it, a.value("self"), &d, a.value("row"), a.call)
    }, "Writes one row (an iterable of values); the number of characters written.",
       "with open('r.csv', 'w', newline='') as f:\n    csv.writer(f).writerow([1, 'a'])"),
    m!("_csv.writer.writerows", "(self, rows, /)", |it, a| {
        let d = dialect_of(a.value("self"))?;
        for row in it.iterate_value(a.value("rows"), a.span("rows"))? {
            write::write_row(it, a.value("self"), &d, &row, a.call)?;
        }
        Ok(Value::None)
    }, "Writes each row of `rows`.",
       "with open('r.csv', 'w', newline='') as f:\n    csv.writer(f).writerows([[1, 2], [3, 4]])\nopen('r.csv').read()"),
    m!("csv.DictWriter.writeheader", "(self)", |it, a| {
        let me = a.value("self");
        let names = field(me, "fieldnames");
        let w = field(me, "writer");
        let d = dialect_of(&w)?;
        write::write_row(it, &w, &d, &names, a.call)
    }, "Writes the field names as a row.",
       "with open('h.csv', 'w', newline='') as f:\n    csv.DictWriter(f, ['a', 'b']).writeheader()\nopen('h.csv').read()"),
    m!("csv.DictWriter.writerow", "(self, rowdict)", |it, a| {
        let me = a.value("self");
        let row = dict_row(it, me, a.value("rowdict"), a.call)?;
        let w = field(me, "writer");
        let d = dialect_of(&w)?;
        write::write_row(it, &w, &d, &row, a.call)
    }, "Writes one dict as a row, in the order of the field names.",
       "with open('w.csv', 'w', newline='') as f:\n    csv.DictWriter(f, ['a', 'b']).writerow({'b': 2, 'a': 1})\nopen('w.csv').read()"),
    m!("csv.DictWriter.writerows", "(self, rowdicts)", |it, a| {
        let me = a.value("self");
        let w = field(me, "writer");
        let d = dialect_of(&w)?;
        for r in it.iterate_value(a.value("rowdicts"), a.span("rowdicts"))? {
            let row = dict_row(it, me, &r, a.call)?;
            write::write_row(it, &w, &d, &row, a.call)?;
        }
        Ok(Value::None)
    }, "Writes each dict as a row.",
       "with open('w.csv', 'w', newline='') as f:\n    csv.DictWriter(f, ['a']).writerows([{'a': 1}, {'a': 2}])\nopen('w.csv').read()"),
    m!("csv.DictReader.__iter__", "(self)", |_, a| Ok(a.value("self").clone()),
       "The reader itself.", "r = csv.DictReader(['a', '1'])\niter(r) is r"),
    m!("csv.DictReader.__next__", "(self)", dict_next,
       "The next row as a dict; StopIteration at the end.", "next(csv.DictReader(['a,b', '1,2']))"),
];

/// The module's names that are not functions.
pub fn constant(path: &str) -> Option<Value> {
    match path.strip_prefix("csv.")? {
        "QUOTE_MINIMAL" => Some(Value::Int(QUOTE_MINIMAL)),
        "QUOTE_ALL" => Some(Value::Int(QUOTE_ALL)),
        "QUOTE_NONNUMERIC" => Some(Value::Int(QUOTE_NONNUMERIC)),
        "QUOTE_NONE" => Some(Value::Int(QUOTE_NONE)),
        "Error" => Some(Value::Class(error_class())),
        _ => None,
    }
}

/// The names [`constant`] answers.
pub const CONSTANTS: &[&str] = &[
    "QUOTE_MINIMAL",
    "QUOTE_ALL",
    "QUOTE_NONNUMERIC",
    "QUOTE_NONE",
    "Error",
];

fn error_class() -> Arc<Class> {
    static MADE: std::sync::OnceLock<Arc<Class>> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        Class::new(
            "Error",
            "_csv",
            vec![Value::ErrorClass(C::Exception)],
            Vec::new(),
        )
    })
    .clone()
}

/// `csv.Error(msg)` raised at `span`.
pub(super) fn csv_error(it: &mut Interp<'_>, msg: String, span: Span) -> Error {
    let inst = Instance::new(error_class());
    attr_set(&inst.attrs, "args", Value::tuple(vec![Value::str(&msg)]));
    inst.set_shown(
        format!("Error({})", crate::render::tf_text::py_str(&msg)),
        msg.clone(),
    );
    it.raised = Some((Value::Instance(inst), C::Exception, msg.clone()));
    Error::new(C::Exception, msg)
        .at(span)
        .raised_as("_csv.Error")
}

/// A class of the module (`_csv.writer`, `csv.DictReader`, …) with its methods.
pub(super) fn class(name: &str, module: &str) -> Arc<Class> {
    let Value::Class(c) = builtin_type(name, module) else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "__csv__").is_none() {
        let prefix = format!("{module}.{name}.");
        for b in CSV.iter().filter(|b| b.name.starts_with(&prefix)) {
            let b = registry().get(b.name).unwrap_or(b);
            attr_set(&c.attrs, b.short_name(), Value::Builtin(b));
        }
        attr_set(&c.attrs, "__csv__", Value::Bool(true));
    }
    c
}

pub(super) fn field(v: &Value, name: &str) -> Value {
    match v {
        Value::Instance(i) => attr_get(&i.attrs, name).unwrap_or(Value::None),
        _ => Value::None,
    }
}

/// A dialect's settings.
#[derive(Clone)]
pub(super) struct Dialect {
    pub(super) delimiter: char,
    pub(super) quotechar: Option<char>,
    pub(super) escapechar: Option<char>,
    pub(super) doublequote: bool,
    pub(super) skipinitialspace: bool,
    pub(super) lineterminator: String,
    pub(super) quoting: i64,
    pub(super) strict: bool,
}

impl Dialect {
    fn named(it: &mut Interp<'_>, name: &str, span: Span) -> Result<Dialect> {
        let mut d = Dialect {
            delimiter: ',',
            quotechar: Some('"'),
            escapechar: None,
            doublequote: true,
            skipinitialspace: false,
            lineterminator: "\r\n".into(),
            quoting: QUOTE_MINIMAL,
            strict: false,
        };
        match name {
            "excel" => {}
            "excel-tab" => d.delimiter = '\t',
            "unix" => {
                d.lineterminator = "\n".into();
                d.quoting = QUOTE_ALL;
            }
            _ => return Err(csv_error(it, "unknown dialect".into(), span)),
        }
        Ok(d)
    }

    /// The dialect a call names (`dialect=`, a name or a dialect object) with its keyword
    /// settings applied, checked as CPython checks them.
    pub(super) fn of_call(it: &mut Interp<'_>, a: &Args) -> Result<Dialect> {
        let mut d = match a.value("dialect") {
            Value::None => Dialect::named(it, "excel", a.call)?,
            Value::Str(s) => Dialect::named(it, s, a.span("dialect"))?,
            Value::Instance(i) if attr_get(&i.attrs, "delimiter").is_some() => {
                let mut d = Dialect::named(it, "excel", a.span("dialect"))?;
                d.apply(|name| attr_get(&i.attrs, name), a, "dialect")?;
                d
            }
            _ => return Err(csv_error(it, "unknown dialect".into(), a.span("dialect"))),
        };
        d.apply(
            |name| a.given(name).filter(|v| !matches!(v, Value::None)).cloned(),
            a,
            "",
        )?;
        if d.quotechar.is_none() && d.quoting != QUOTE_NONE {
            return Err(type_error("quotechar must be set if quoting enabled", a));
        }
        Ok(d)
    }

    fn apply(&mut self, get: impl Fn(&str) -> Option<Value>, a: &Args, _from: &str) -> Result<()> {
        let one_char = |name: &str, v: &Value| -> Result<char> {
            match v {
                Value::Str(s) if s.chars().count() == 1 => Ok(s.chars().next().unwrap_or(',')),
                Value::Str(_) => Err(type_error(
                    &format!("\"{name}\" must be a 1-character string"),
                    a,
                )),
                other => Err(type_error(
                    &format!("\"{name}\" must be string, not {}", other.type_name()),
                    a,
                )),
            }
        };
        if let Some(v) = get("delimiter") {
            self.delimiter = one_char("delimiter", &v)?;
        }
        if let Some(v) = get("quotechar") {
            self.quotechar = match v {
                Value::None => None,
                v => Some(one_char("quotechar", &v)?),
            };
        }
        if let Some(v) = get("escapechar") {
            self.escapechar = match v {
                Value::None => None,
                v => Some(one_char("escapechar", &v)?),
            };
        }
        if let Some(v) = get("doublequote") {
            self.doublequote = v.truthy().unwrap_or(true);
        }
        if let Some(v) = get("skipinitialspace") {
            self.skipinitialspace = v.truthy().unwrap_or(true);
        }
        if let Some(v) = get("strict") {
            self.strict = v.truthy().unwrap_or(true);
        }
        if let Some(v) = get("lineterminator") {
            self.lineterminator = match v {
                Value::Str(s) => s.to_string(),
                other => {
                    return Err(type_error(
                        &format!(
                            "\"lineterminator\" must be a string, not {}",
                            other.type_name()
                        ),
                        a,
                    ))
                }
            };
        }
        if let Some(v) = get("quoting") {
            self.quoting = match v {
                Value::Int(q) if (0..=3).contains(&q) => q,
                Value::Int(_) => return Err(type_error("bad \"quoting\" value", a)),
                other => {
                    return Err(type_error(
                        &format!("\"quoting\" must be an integer, not {}", other.type_name()),
                        a,
                    ))
                }
            };
        }
        Ok(())
    }

    /// The dialect as the object a writer's `dialect` attribute shows.
    pub(super) fn to_value(&self) -> Value {
        let d = Instance::new(class("Dialect", "_csv"));
        let ch = |c: Option<char>| c.map_or(Value::None, |c| Value::str(c.to_string()));
        attr_set(
            &d.attrs,
            "delimiter",
            Value::str(self.delimiter.to_string()),
        );
        attr_set(&d.attrs, "quotechar", ch(self.quotechar));
        attr_set(&d.attrs, "escapechar", ch(self.escapechar));
        attr_set(&d.attrs, "doublequote", Value::Bool(self.doublequote));
        attr_set(
            &d.attrs,
            "skipinitialspace",
            Value::Bool(self.skipinitialspace),
        );
        attr_set(&d.attrs, "lineterminator", Value::str(&self.lineterminator));
        attr_set(&d.attrs, "quoting", Value::Int(self.quoting));
        attr_set(&d.attrs, "strict", Value::Bool(self.strict));
        Value::Instance(d)
    }
}

pub(super) fn type_error(msg: &str, a: &Args) -> Error {
    Error::new(C::TypeError, msg.to_string()).at(a.call)
}

/// The dialect a writer keeps.
fn dialect_of(w: &Value) -> Result<Dialect> {
    let d = field(w, "dialect");
    let text = |name: &str| match field(&d, name) {
        Value::Str(s) => s.chars().next(),
        _ => None,
    };
    Ok(Dialect {
        delimiter: text("delimiter").unwrap_or(','),
        quotechar: text("quotechar"),
        escapechar: text("escapechar"),
        doublequote: field(&d, "doublequote").truthy().unwrap_or(true),
        skipinitialspace: field(&d, "skipinitialspace").truthy().unwrap_or(true),
        lineterminator: match field(&d, "lineterminator") {
            Value::Str(s) => s.to_string(),
            _ => "\r\n".into(),
        },
        quoting: match field(&d, "quoting") {
            Value::Int(q) => q,
            _ => QUOTE_MINIMAL,
        },
        strict: field(&d, "strict").truthy().unwrap_or(true),
    })
}

fn reader(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = Dialect::of_call(it, a)?;
    let lines = it.iterate_value(a.value("csvfile"), a.span("csvfile"))?;
    let rows = read::read_rows(it, lines, &d, a.call)?;
    Ok(Value::Iter(PyIter::new(
        "_csv.reader",
        IterState::Seq(rows.into()),
    )))
}

fn writer(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    write::make_writer(it, a, "csvfile")
}

fn dict_reader(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = Dialect::of_call(it, a)?;
    let lines = it.iterate_value(a.value("f"), a.span("f"))?;
    let rows = read::read_rows(it, lines, &d, a.call)?;
    let mut rows: std::collections::VecDeque<Value> = rows.into();
    let names = match a.value("fieldnames") {
        Value::None => rows.pop_front().unwrap_or(Value::None),
        v => v.clone(),
    };
    let r = Instance::new(class("DictReader", "csv"));
    attr_set(&r.attrs, "fieldnames", names);
    attr_set(&r.attrs, "restkey", a.value("restkey").clone());
    attr_set(&r.attrs, "restval", a.value("restval").clone());
    attr_set(
        &r.attrs,
        "reader",
        Value::Iter(PyIter::new("_csv.reader", IterState::Seq(rows))),
    );
    Ok(Value::Instance(r))
}

fn dict_next(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self");
    let Value::Iter(rows) = field(me, "reader") else {
        return Err(Error::new(C::StopIteration, "").at(a.call));
    };
    let row = loop {
        match it.next_iter(&rows, a.call)? {
            Some(Value::List(l)) if l.is_empty() => continue,
            Some(r) => break r,
            None => return Err(Error::new(C::StopIteration, "").at(a.call)),
        }
    };
    let names = it.iterate_value(&field(me, "fieldnames"), a.call)?;
    let row = it.iterate_value(&row, a.call)?;
    let mut pairs: Vec<(Value, Value)> = names.iter().cloned().zip(row.iter().cloned()).collect();
    if names.len() < row.len() {
        pairs.push((
            field(me, "restkey"),
            Value::list(row[names.len()..].to_vec()),
        ));
    } else {
        let restval = field(me, "restval");
        for k in &names[row.len()..] {
            pairs.push((k.clone(), restval.clone()));
        }
    }
    Value::dict(pairs).map_err(|e| Error::from(e).at(a.call))
}

fn dict_writer(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let extras = match a.given("extrasaction") {
        None => "raise".to_string(),
        Some(Value::Str(s)) => s.to_lowercase(),
        Some(_) => String::new(),
    };
    if extras != "raise" && extras != "ignore" {
        let shown = crate::render::tf_text::str_of(a.value("extrasaction"));
        return Err(Error::new(
            C::ValueError,
            format!("extrasaction ({shown}) must be 'raise' or 'ignore'"),
        )
        .at(a.span("extrasaction")));
    }
    let w = write::make_writer(it, a, "f")?;
    let names = Value::list(it.iterate_value(a.value("fieldnames"), a.span("fieldnames"))?);
    let dw = Instance::new(class("DictWriter", "csv"));
    attr_set(&dw.attrs, "fieldnames", names);
    let restval = a
        .given("restval")
        .cloned()
        .unwrap_or_else(|| Value::str(""));
    attr_set(&dw.attrs, "restval", restval);
    attr_set(&dw.attrs, "extrasaction", Value::str(extras));
    attr_set(&dw.attrs, "writer", w);
    Ok(Value::Instance(dw))
}

/// A DictWriter's row for `rowdict`: the values in field-name order, `restval` for a
/// missing one; a key that is no field name is a ValueError unless extras are ignored.
fn dict_row(it: &mut Interp<'_>, me: &Value, rowdict: &Value, span: Span) -> Result<Value> {
    let Value::Dict(d) = rowdict else {
        return Err(Error::new(
            C::AttributeError,
            format!("'{}' object has no attribute 'keys'", rowdict.type_name()),
        )
        .at(span));
    };
    let names = it.iterate_value(&field(me, "fieldnames"), span)?;
    if matches!(field(me, "extrasaction"), Value::Str(s) if s.as_str() == "raise") {
        let wrong: Vec<String> = d
            .keys()
            .into_iter()
            .filter(|k| {
                !names
                    .iter()
                    .any(|n| crate::eval::operators::python_eq(n, k))
            })
            .map(|k| crate::render::tf_text::repr_of(&k))
            .collect();
        if !wrong.is_empty() {
            return Err(Error::new(
                C::ValueError,
                format!(
                    "dict contains fields not in fieldnames: {}",
                    wrong.join(", ")
                ),
            )
            .at(span));
        }
    }
    let restval = field(me, "restval");
    let row = names
        .iter()
        .map(|n| d.get(n).ok().flatten().unwrap_or_else(|| restval.clone()))
        .collect();
    Ok(Value::list(row))
}
