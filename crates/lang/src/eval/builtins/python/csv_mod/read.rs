//! `csv.reader`'s parsing: CPython's state machine, character by character over whole
//! lines, with its errors.

use super::{csv_error, Dialect, FIELD_LIMIT, QUOTE_NONE, QUOTE_NONNUMERIC};
use crate::diagnostic::{Error, Result};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;
use ragtag_syntax::ast::Span;

/// Where CPython's reader is between characters.
#[derive(Clone, Copy, PartialEq)]
enum State {
    StartRecord,
    StartField,
    EscapedChar,
    InField,
    InQuotedField,
    EscapeInQuotedField,
    QuoteInQuotedField,
    EatCrnl,
    AfterEscapedCrnl,
}

/// CPython's reader over whole lines.
struct Parser<'d> {
    d: &'d Dialect,
    state: State,
    field: String,
    fields: Vec<Value>,
    numeric: bool,
}

impl Parser<'_> {
    fn save(&mut self) -> std::result::Result<(), String> {
        let text = std::mem::take(&mut self.field);
        let v = if self.numeric {
            self.numeric = false;
            match super::super::numbers::parse_float(&text) {
                Some(x) => Value::Float(x),
                None => return Err(super::super::numbers::float_error(&text)),
            }
        } else {
            Value::str(text)
        };
        self.fields.push(v);
        Ok(())
    }

    fn add(&mut self, c: char) -> std::result::Result<(), String> {
        if self.field.len() >= FIELD_LIMIT {
            return Err(format!("field larger than field limit ({FIELD_LIMIT})"));
        }
        self.field.push(c);
        Ok(())
    }

    /// A line break or the end of a line ends the field and the record: the next line
    /// starts a record, or a line break's second character (`\r\n`) is eaten first.
    fn end_line(&mut self, eol: bool) -> std::result::Result<(), String> {
        self.save()?;
        self.state = if eol {
            State::StartRecord
        } else {
            State::EatCrnl
        };
        Ok(())
    }

    /// One character, or the end of a line (`None`). An `Err` is a csv.Error's message,
    /// or a ValueError's when it starts with "could not convert".
    fn process(&mut self, c: Option<char>) -> std::result::Result<(), String> {
        let d = self.d;
        let eol = c.is_none();
        let newline = matches!(c, Some('\n' | '\r'));
        let quote = c.is_some() && c == d.quotechar && d.quoting != QUOTE_NONE;
        let escape = c.is_some() && c == d.escapechar;
        let delim = c == Some(d.delimiter);
        match self.state {
            State::StartRecord if eol => {}
            State::StartRecord if newline => self.state = State::EatCrnl,
            State::StartRecord | State::StartField => {
                if newline || eol {
                    self.end_line(eol)?;
                } else if quote {
                    self.state = State::InQuotedField;
                } else if escape {
                    self.state = State::EscapedChar;
                } else if c == Some(' ') && d.skipinitialspace {
                    self.state = State::StartField;
                } else if delim {
                    self.save()?;
                    self.state = State::StartField;
                } else {
                    self.numeric = d.quoting == QUOTE_NONNUMERIC;
                    self.add(c.unwrap_or('\n'))?;
                    self.state = State::InField;
                }
            }
            State::EscapedChar => {
                if newline {
                    self.add(c.unwrap_or('\n'))?;
                    self.state = State::AfterEscapedCrnl;
                } else {
                    self.add(c.unwrap_or('\n'))?;
                    self.state = State::InField;
                }
            }
            State::AfterEscapedCrnl if eol => {}
            State::AfterEscapedCrnl | State::InField => {
                if newline || eol {
                    self.end_line(eol)?;
                } else if escape {
                    self.state = State::EscapedChar;
                } else if delim {
                    self.save()?;
                    self.state = State::StartField;
                } else {
                    // The state stays: after an escaped line break, the end of the line
                    // still does not end the record (CPython's fall-through).
                    self.add(c.unwrap_or('\n'))?;
                }
            }
            State::InQuotedField => {
                if eol {
                } else if escape {
                    self.state = State::EscapeInQuotedField;
                } else if quote {
                    self.state = if d.doublequote {
                        State::QuoteInQuotedField
                    } else {
                        State::InField
                    };
                } else {
                    self.add(c.unwrap_or('\n'))?;
                }
            }
            State::EscapeInQuotedField => {
                self.add(c.unwrap_or('\n'))?;
                self.state = State::InQuotedField;
            }
            State::QuoteInQuotedField => {
                if quote {
                    self.add(c.unwrap_or('"'))?;
                    self.state = State::InQuotedField;
                } else if delim {
                    self.save()?;
                    self.state = State::StartField;
                } else if newline || eol {
                    self.end_line(eol)?;
                } else if !d.strict {
                    self.add(c.unwrap_or('\n'))?;
                    self.state = State::InField;
                } else {
                    return Err(format!(
                        "'{}' expected after '{}'",
                        d.delimiter,
                        d.quotechar.unwrap_or('"')
                    ));
                }
            }
            State::EatCrnl => {
                if newline {
                } else if eol {
                    self.state = State::StartRecord;
                } else {
                    return Err("new-line character seen in unquoted field - do you need to open the file in universal-newline mode?".into());
                }
            }
        }
        Ok(())
    }
}

/// The rows of `lines` read with `d`, each a list value.
pub(super) fn read_rows(
    it: &mut Interp<'_>,
    lines: Vec<Value>,
    d: &Dialect,
    span: Span,
) -> Result<Vec<Value>> {
    let mut p = Parser {
        d,
        state: State::StartRecord,
        field: String::new(),
        fields: Vec::new(),
        numeric: false,
    };
    let mut rows = Vec::new();
    let fail = |it: &mut Interp<'_>, msg: String| {
        if msg.starts_with("could not convert") {
            Error::new(C::ValueError, msg).at(span)
        } else {
            csv_error(it, msg, span)
        }
    };
    for line in lines {
        let text = match &line {
            Value::Str(s) => s.clone(),
            other => {
                let msg = format!(
                    "iterator should return strings, not {} (the file should be opened in text mode)",
                    other.type_name()
                );
                return Err(csv_error(it, msg, span));
            }
        };
        for c in text.chars() {
            if c == '\0' {
                return Err(csv_error(it, "line contains NUL".into(), span));
            }
            p.process(Some(c)).map_err(|m| fail(it, m))?;
        }
        p.process(None).map_err(|m| fail(it, m))?;
        if p.state == State::StartRecord {
            rows.push(Value::list(std::mem::take(&mut p.fields)));
        }
    }
    if !p.field.is_empty() || p.state == State::InQuotedField {
        if d.strict {
            return Err(csv_error(it, "unexpected end of data".into(), span));
        }
        p.save().map_err(|m| fail(it, m))?;
        rows.push(Value::list(std::mem::take(&mut p.fields)));
    }
    Ok(rows)
}
