//! The terminal backend: draws a [`Display`] as text — header annotations, then each grid as
//! a comfy-table (Unicode box drawing or ASCII, with or without ANSI colour), fitted to the
//! width. Every comfy-table of ragtag is built here.

use std::borrow::Cow;

use comfy_table::{
    presets, Attribute, Cell as TCell, CellAlignment, Color, ContentArrangement, Table,
};

use super::cell::{ABSENT_ASCII, ABSENT_UNICODE, ELLIPSIS_ASCII, ELLIPSIS_UNICODE};
use super::grid::{text_width, Block, Cell, Display, Grid, Header, Role};
use super::Options;
use crate::value::Value;

const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// Renders a value as the table view, for a terminal or a plain-text transcript.
pub fn render(v: &Value, opts: &Options) -> String {
    to_text(&super::view::view(v, opts), opts)
}

/// The text a cell shows in a terminal: markers for absent and elided cells, and implicit
/// defaults in parentheses (dimmed too in colour), so they never pass for stored values,
/// not even in text copied out of a colour terminal.
pub fn shown_text<'a>(c: &'a Cell, opts: &Options) -> Cow<'a, str> {
    match c.role {
        Role::Absent => Cow::Borrowed(if opts.unicode {
            ABSENT_UNICODE
        } else {
            ABSENT_ASCII
        }),
        Role::Ellipsis => Cow::Borrowed(if opts.unicode {
            ELLIPSIS_UNICODE
        } else {
            ELLIPSIS_ASCII
        }),
        // In colour too: dimmed alone, an implicit 0 and a stored 0 copy as the same text.
        Role::Implicit => Cow::Owned(format!("({})", c.text)),
        _ => Cow::Borrowed(&c.text),
    }
}

/// Columns a cell's text takes in a terminal.
pub fn cell_width(c: &Cell, opts: &Options) -> usize {
    text_width(&shown_text(c, opts))
}

/// Draws a whole display.
pub fn to_text(d: &Display, opts: &Options) -> String {
    let mut lines: Vec<String> = Vec::new();
    for b in &d.blocks {
        match b {
            Block::Header(h) => lines.push(header_text(h, opts.width, opts)),
            Block::Title(t) => lines.push(style(t, BOLD, opts)),
            Block::Text(t) => lines.push(t.clone()),
            Block::Note(t) => lines.push(style(t, DIM, opts)),
            // A grid without columns (a vector of no values) draws nothing.
            Block::Grid(g) if g.width() == 0 => {}
            Block::Grid(g) => {
                let mut g = g.clone();
                g.align_decimals();
                g.fit_width(opts.width, &|c| cell_width(c, opts));
                lines.push(draw(&g, opts));
            }
        }
    }
    lines.extend(legend(d, opts));
    lines.join("\n")
}

/// One line per special cell role the display uses, saying what it means.
pub fn legend(d: &Display, opts: &Options) -> Vec<String> {
    let mut out = Vec::new();
    if d.has_role(Role::Absent) {
        let mark = shown_text(&Cell::absent(), opts).into_owned();
        out.push(style(
            &format!(
                "{mark} absent: nothing is stored here (past the end of a row, or an empty row)"
            ),
            DIM,
            opts,
        ));
    }
    // The same form as the absent line: the mark as cells show it, then what it means. The
    // mark is the tensor's own default (`('')` for strings, `(0)` for numbers; dimmed
    // too in colour).
    if let Some(cell) = d.first_with_role(Role::Implicit) {
        let mark = shown_text(cell, opts);
        out.push(style(
            &format!("{mark} implicit: not stored, the sparse tensor's default value"),
            DIM,
            opts,
        ));
    }
    out
}

fn style(text: &str, code: &str, opts: &Options) -> String {
    if opts.color {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// `RaggedTensor  dtype=int32  shape=[5, None(0..4)]  ragged_rank=1  values=10`, wrapped
/// between annotations (continuations indented) when it is wider than `width`.
pub fn header_text(h: &Header, width: usize, opts: &Options) -> String {
    let mut s = style(&h.kind, BOLD, opts);
    let mut line = text_width(&h.kind);
    for (k, v) in &h.fields {
        let w = text_width(k) + 1 + text_width(v);
        if line + 2 + w > width && line > 2 {
            s.push_str("\n ");
            line = 1;
        }
        s.push_str("  ");
        s.push_str(&style(&format!("{k}="), DIM, opts));
        s.push_str(v);
        line += 2 + w;
    }
    s
}

fn table_cell(c: &Cell, right: bool, opts: &Options) -> TCell {
    let mut t = TCell::new(shown_text(c, opts));
    if right {
        t = t.set_alignment(CellAlignment::Right);
    }
    match c.role {
        Role::Value => t,
        Role::Label => t.fg(Color::Cyan),
        Role::Absent | Role::Ellipsis => t.fg(Color::DarkGrey),
        Role::Implicit => t.fg(Color::DarkGrey).add_attribute(Attribute::Italic),
    }
}

/// Draws one grid with comfy-table.
pub fn draw(g: &Grid, opts: &Options) -> String {
    let mut t = Table::new();
    t.load_preset(if opts.unicode {
        presets::UTF8_FULL_CONDENSED
    } else {
        presets::ASCII_FULL_CONDENSED
    });
    if !opts.unicode {
        // The preset draws the header rule straight across (`+=========+`); the column
        // joints (`+====+====+`) keep the columns readable under the header, as in Unicode.
        t.set_style(comfy_table::TableComponent::MiddleHeaderIntersections, '+');
    }
    // Dynamic arrangement wraps long cells if the grid is still too wide after eliding
    // columns (a single very long string).
    t.set_content_arrangement(ContentArrangement::Dynamic);
    t.set_width(opts.width.min(u16::MAX as usize) as u16);
    if opts.color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    let right = g.right_aligned();
    t.set_header(g.head.iter().zip(&right).map(|(c, &right)| {
        let mut cell = TCell::new(shown_text(c, opts));
        if right {
            cell = cell.set_alignment(CellAlignment::Right);
        }
        if opts.color {
            cell.add_attribute(Attribute::Bold)
        } else {
            cell
        }
    }));
    for row in &g.rows {
        t.add_row(row.iter().zip(&right).map(|(c, &r)| table_cell(c, r, opts)));
    }
    t.to_string()
}
