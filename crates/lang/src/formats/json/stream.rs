//! JSON text straight to a nested literal, value by value, without a parsed tree in
//! between: the literal is the only copy held, its bytes are tallied against the memory
//! budget as it grows, and the interrupt flag is checked every few thousand values, so a
//! large file can be stopped part-way with Ctrl-C and cannot take more memory than the
//! limit allows.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::read::{Nulls, Place};
use crate::diagnostic::{Error, Result};
use ragtag_engine::budget::Tally;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::interrupt;
use ragtag_engine::literal::{Leaf, Nested};

/// Values between two interrupt and budget checks.
const EVERY: usize = 4096;

/// What one read keeps while it walks the text.
pub struct State<'a> {
    place: Place,
    /// The index of each list the walk is inside, outermost first.
    indices: Vec<usize>,
    /// Nulls met so far.
    pub nulls: Nulls,
    /// What a null reads as (`fill_null=`); None counts it as an error.
    pub fill: Option<Leaf>,
    tally: Tally<'a>,
    /// Values and string bytes since the last check.
    pending: u128,
    values: usize,
    /// The error that stopped the walk, when it is ragtag's own (serde only carries text).
    error: Option<Error>,
}

impl<'a> State<'a> {
    /// A walk for `what` (the budget's name for the read).
    pub fn new(what: &'a str, place: Place) -> Self {
        State {
            place,
            indices: Vec::new(),
            nulls: Nulls::default(),
            fill: None,
            tally: Tally::new(what),
            pending: 0,
            values: 0,
            error: None,
        }
    }

    /// Sets the place for the next value (a JSON Lines line and key).
    pub fn at(&mut self, line: Option<usize>, key: Option<&str>) {
        self.place.line = line;
        self.place.key = key.map(str::to_string);
    }

    /// `[2][0]`: where the walk is.
    fn path(&self) -> String {
        self.indices.iter().map(|i| format!("[{i}]")).collect()
    }

    /// Counts one value of `bytes` extra bytes; every [`EVERY`] values, checks the
    /// interrupt flag and the budget.
    fn count(&mut self, bytes: usize) -> Result<()> {
        self.pending += (std::mem::size_of::<Nested>() + bytes) as u128;
        self.values += 1;
        if self.values.is_multiple_of(EVERY) {
            self.flush()?;
        }
        Ok(())
    }

    /// Checks the interrupt flag and adds what was counted to the tally.
    pub fn flush(&mut self) -> Result<()> {
        interrupt::check()?;
        let pending = std::mem::take(&mut self.pending);
        self.tally.add(pending)?;
        Ok(())
    }

    /// Keeps `e` as the walk's error and gives serde an error to unwind with.
    fn fail<E: de::Error>(&mut self, e: Error) -> E {
        self.error = Some(e);
        E::custom("stopped")
    }

    /// The error that ended a walk: ragtag's own when it kept one, else serde's syntax
    /// error as a ValueError.
    pub fn error(&mut self, e: &serde_json::Error) -> Error {
        self.error
            .take()
            .unwrap_or_else(|| super::syntax_error(&self.place, e))
    }
}

/// A seed that reads one JSON value into a [`Nested`].
#[derive(Clone, Copy)]
pub struct Node<'s, 'a>(pub &'s RefCell<State<'a>>);

impl<'de> DeserializeSeed<'de> for Node<'_, '_> {
    type Value = Nested;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Nested, D::Error> {
        d.deserialize_any(self)
    }
}

impl Node<'_, '_> {
    fn leaf<E: de::Error>(&self, leaf: Leaf, bytes: usize) -> std::result::Result<Nested, E> {
        let mut s = self.0.borrow_mut();
        match s.count(bytes) {
            Ok(()) => Ok(Nested::Leaf(leaf)),
            Err(e) => Err(s.fail(e)),
        }
    }
}

impl<'de> Visitor<'de> for Node<'_, '_> {
    type Value = Nested;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> std::result::Result<Nested, E> {
        self.leaf(Leaf::Bool(b), 0)
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> std::result::Result<Nested, E> {
        self.leaf(Leaf::Int(i), 0)
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> std::result::Result<Nested, E> {
        match i64::try_from(u) {
            Ok(i) => self.leaf(Leaf::Int(i), 0),
            Err(_) => {
                let mut s = self.0.borrow_mut();
                let e = Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "{}: the integer {u} does not fit in int64",
                        s.place.describe(&s.path())
                    ),
                );
                Err(s.fail(e))
            }
        }
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> std::result::Result<Nested, E> {
        self.leaf(Leaf::Float(f), 0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Nested, E> {
        self.leaf(Leaf::Str(v.as_bytes().to_vec()), v.len())
    }

    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Nested, E> {
        let n = v.len();
        self.leaf(Leaf::Str(v.into_bytes()), n)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Nested, E> {
        let fill = self.0.borrow().fill.clone();
        if let Some(leaf) = fill {
            let n = match &leaf {
                Leaf::Str(b) => b.len(),
                _ => 0,
            };
            return self.leaf(leaf, n);
        }
        {
            let mut s = self.0.borrow_mut();
            s.nulls.count += 1;
            if s.nulls.first.is_none() {
                s.nulls.first = Some(s.place.describe(&s.path()));
            }
        }
        // A placeholder: the caller reports every null at once.
        self.leaf(Leaf::Int(0), 0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Nested, A::Error> {
        let mut out = Vec::new();
        self.0.borrow_mut().indices.push(0);
        while let Some(item) = seq.next_element_seed(self)? {
            out.push(item);
            if let Some(i) = self.0.borrow_mut().indices.last_mut() {
                *i += 1;
            }
        }
        let mut s = self.0.borrow_mut();
        s.indices.pop();
        match s.count(0) {
            Ok(()) => Ok(Nested::List(out)),
            Err(e) => Err(s.fail(e)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Nested, A::Error> {
        let (keys, more) = some_keys(&mut map)?;
        let mut s = self.0.borrow_mut();
        let path = s.path();
        let mut e = Error::new(
            ExceptionClass::ValueError,
            format!(
                "{}: a JSON object (keys {}) is not a tensor value",
                s.place.describe(&path),
                quoted(&keys, more)
            ),
        );
        if path.is_empty() && s.place.key.is_none() {
            e = e.with_hint("for one record per line, read with ragtag.read_jsonl(path, field='key') to take one key of each record");
        }
        Err(s.fail(e))
    }
}

/// Up to eight keys of an object (the rest skipped), and whether there were more.
fn some_keys<'de, A: MapAccess<'de>>(
    map: &mut A,
) -> std::result::Result<(Vec<String>, bool), A::Error> {
    let mut keys = Vec::new();
    let mut more = false;
    while let Some(k) = map.next_key::<String>()? {
        map.next_value::<IgnoredAny>()?;
        if keys.len() < 8 {
            keys.push(k);
        } else {
            more = true;
        }
    }
    Ok((keys, more))
}

/// `'a', 'b', …`.
fn quoted(keys: &[String], more: bool) -> String {
    let keys: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
    format!("{}{}", keys.join(", "), if more { ", …" } else { "" })
}

/// A seed that reads one JSON Lines record (an object) and keeps the value of one key.
pub struct Record<'s, 'a, 'k> {
    /// The walk.
    pub state: &'s RefCell<State<'a>>,
    /// The key to keep.
    pub key: &'k str,
    /// The line, for messages.
    pub line: usize,
    /// The file, for messages.
    pub file: &'k str,
}

impl<'de> DeserializeSeed<'de> for Record<'_, '_, '_> {
    type Value = Nested;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Nested, D::Error> {
        d.deserialize_any(self)
    }
}

impl Record<'_, '_, '_> {
    fn not_record<E: de::Error>(&self) -> E {
        let e = Error::new(
            ExceptionClass::TypeError,
            format!(
                "'{}', line {}: field='{}' picks a key of a record, but the line is not a JSON object",
                self.file, self.line, self.key
            ),
        )
        .with_hint("without field=, each line is read as one value");
        self.state.borrow_mut().fail(e)
    }
}

macro_rules! not_a_record {
    ($($name:ident($($t:ty)?)),*) => {
        $(
            fn $name<E: de::Error>(self $(, _: $t)?) -> std::result::Result<Nested, E> {
                Err(self.not_record())
            }
        )*
    };
}

impl<'de> Visitor<'de> for Record<'_, '_, '_> {
    type Value = Nested;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    not_a_record!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_f64(f64),
        visit_str(&str),
        visit_unit()
    );

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> std::result::Result<Nested, A::Error> {
        Err(self.not_record())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Nested, A::Error> {
        let mut found = None;
        let mut keys = Vec::new();
        let mut more = false;
        while let Some(k) = map.next_key::<String>()? {
            if found.is_none() && k == self.key {
                found = Some(map.next_value_seed(Node(self.state))?);
                continue;
            }
            map.next_value::<IgnoredAny>()?;
            if keys.len() < 8 {
                keys.push(k);
            } else {
                more = true;
            }
        }
        match found {
            Some(n) => Ok(n),
            None => {
                let e = Error::new(
                    ExceptionClass::KeyError,
                    format!(
                        "'{}': line {} of '{}' has no key '{}' (its keys: {})",
                        self.key,
                        self.line,
                        self.file,
                        self.key,
                        quoted(&keys, more)
                    ),
                );
                Err(self.state.borrow_mut().fail(e))
            }
        }
    }
}

/// Reads the one JSON value of `text` with `seed`, refusing anything after it.
pub fn parse_one<'de, T: DeserializeSeed<'de>>(
    text: &'de [u8],
    seed: T,
) -> std::result::Result<T::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let v = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The result of a walk: the value, or the walk's own error.
pub fn finish<T>(
    state: &RefCell<State<'_>>,
    r: std::result::Result<T, serde_json::Error>,
) -> Result<T> {
    match r {
        Ok(v) => state.borrow_mut().flush().map(|()| v),
        Err(e) => Err(state.borrow_mut().error(&e)),
    }
}
