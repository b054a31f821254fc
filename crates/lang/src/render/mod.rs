//! Rendering values for people and programs: annotated tables, TensorFlow's text forms,
//! JSON and HTML. Nothing here knows about the REPL or the kernel.
//!
//! Tables go through an intermediate form ([`grid::Display`]) built by [`view`] (values) and
//! [`explain`] (how values are stored), then drawn by a backend at the end: [`table`] for a
//! terminal (comfy-table, with or without colour) and [`html`] for notebooks.

pub mod cell;
pub mod compare;
pub mod evcxr;
pub mod explain;
pub mod grid;
pub mod html;
pub mod json;
pub mod numpy;
pub mod svg;
pub mod table;
pub mod tf_text;
pub mod view;

use crate::value::Value;
use ragtag_engine::Array;

/// Which form a displayed value takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An annotated table (the default in the REPL and notebooks).
    Table,
    /// TensorFlow's text form, as `print` shows it.
    Tf,
    /// One JSON object per value.
    Json,
    /// The annotated table as an HTML fragment (what notebooks show).
    Html,
    /// A picture of how the value is laid out, as an SVG document ([`svg`]).
    Svg,
}

impl Format {
    /// Parses `table`, `tf`, `json`, `html` or `svg`.
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "table" => Format::Table,
            "tf" | "text" => Format::Tf,
            "json" => Format::Json,
            "html" => Format::Html,
            "svg" => Format::Svg,
            _ => return None,
        })
    }
}

/// Limits and style for tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Total width available, in columns.
    pub width: usize,
    /// Most rows shown before eliding the middle (head … tail).
    pub max_rows: usize,
    /// Most value columns shown before eliding the middle.
    pub max_cols: usize,
    /// Unicode box drawing (else ASCII).
    pub unicode: bool,
    /// ANSI colours.
    pub color: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: 100,
            // Twenty rows fit a laptop terminal with room for the prompt.
            max_rows: 20,
            // Twelve value columns keep a row of short values within 100 columns.
            max_cols: 12,
            unicode: true,
            color: false,
        }
    }
}

impl Options {
    /// Plain Unicode tables without colour at a fixed width: what tests pin.
    pub fn plain(width: usize) -> Options {
        Options {
            width,
            ..Options::default()
        }
    }

    /// Style for output going to a terminal or not: colour and box drawing only on a
    /// terminal, and never when `NO_COLOR` is set (plain ASCII then, as the convention asks).
    pub fn for_output(is_terminal: bool) -> Options {
        let fancy = is_terminal && std::env::var_os("NO_COLOR").is_none();
        Options {
            unicode: fancy,
            color: fancy,
            ..Options::default()
        }
    }

    /// Applies one `key=value` setting (`rows`, `cols`, `width`, `unicode`, `color`);
    /// returns an error message for an unknown key or a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("{key} needs a number, not '{value}'"))
        };
        let flag = || match value {
            "on" | "true" | "yes" | "1" => Ok(true),
            "off" | "false" | "no" | "0" => Ok(false),
            _ => Err(format!("{key} needs on or off, not '{value}'")),
        };
        match key {
            // Fewer than two rows or columns could not show a head and a tail.
            "rows" => self.max_rows = number()?.max(2),
            "cols" => self.max_cols = number()?.max(2),
            // Twenty columns is the narrowest in which a row label and a value still fit.
            "width" => self.width = number()?.max(20),
            "unicode" => self.unicode = flag()?,
            "color" | "colour" => self.color = flag()?,
            _ => {
                return Err(format!(
                    "unknown setting '{key}' (rows, cols, width, unicode, color)"
                ))
            }
        }
        Ok(())
    }
}

/// A one-line description of a value's kind, dtype and shape (`ragged int32 [5, None]`).
pub fn describe(v: &Value) -> String {
    use ragtag_engine::size::{dense_shape_str, shape_str};
    match v {
        Value::Array(a) => match &**a {
            Array::Dense(t) => format!("tensor {} {}", t.dtype(), dense_shape_str(t.shape())),
            Array::Ragged(r) => format!("ragged {} {}", r.dtype(), shape_str(&r.shape())),
        },
        Value::Sparse(s) => format!("sparse {} {}", s.dtype(), dense_shape_str(s.dense_shape())),
        Value::Lod(l) => format!(
            "lod {} {}",
            l.data().dtype(),
            dense_shape_str(l.data().shape())
        ),
        other => other.type_name().to_string(),
    }
}

/// Renders a displayed value in `format`.
pub fn render(v: &Value, format: Format, opts: &Options) -> String {
    match format {
        Format::Table => table::render(v, opts),
        Format::Tf => tf_text::repr_of(v),
        Format::Json => json::to_json(v).to_string(),
        Format::Html => html::to_html(v, opts),
        Format::Svg => svg::to_svg(v),
    }
}
