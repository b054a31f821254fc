//! The HTML backend (Jupyter's `text/html`): the same display as the terminal table, escaped,
//! with self-contained inline styles that read in light and dark themes alike — colours come
//! from the page (`inherit`, `currentColor`, translucent greys and opacity), never fixed
//! black or white.

use super::grid::{Block, Cell, Display, Grid, Header, Role};
use super::Options;
use crate::value::Value;

/// The outer box: code font from the notebook theme when it has one.
const BOX: &str =
    "font-family:var(--jp-code-font-family,ui-monospace,SFMono-Regular,Menlo,monospace);\
font-size:var(--jp-code-font-size,13px);line-height:1.45;color:inherit;background:transparent;\
margin-bottom:8px";
/// Grids: undo notebook table styles (centred, fixed layout) and draw thin translucent rules.
const TABLE: &str = "border-collapse:collapse;margin:2px 0 6px 0;table-layout:auto;\
font-size:inherit;color:inherit;background:transparent";
/// Every cell: a translucent grey border works on any background.
const TD: &str = "border:1px solid rgba(128,128,128,0.35);padding:1px 8px;white-space:pre;\
color:inherit;background:transparent;vertical-align:top";
/// The heading row is set off by a stronger rule.
const TH: &str =
    "border:1px solid rgba(128,128,128,0.35);border-bottom:2px solid rgba(128,128,128,0.6);\
padding:1px 8px;white-space:pre;font-weight:600;color:inherit;background:transparent";

/// Renders a value as an HTML fragment: the table view with its annotations.
pub fn to_html(v: &Value, opts: &Options) -> String {
    display_html(&super::view::view(v, opts))
}

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(s, &mut out);
    out
}

/// Appends `s` to `out` with the characters markup reserves (`&`, `<`, `>` and both quotes)
/// written as entities: the one escaping of HTML here and of the SVG pictures (whose
/// canvas first replaces what XML cannot hold).
pub fn escape_into(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Renders any display (a value's view or an explanation) as an HTML fragment.
pub fn display_html(d: &Display) -> String {
    let mut out = format!("<div class=\"ragtag-display\" style=\"{BOX}\">\n");
    for b in &d.blocks {
        match b {
            Block::Header(h) => out.push_str(&header_html(h)),
            Block::Title(t) => out.push_str(&format!(
                "<div style=\"font-weight:600;margin-top:6px\">{}</div>\n",
                escape(t)
            )),
            Block::Text(t) => out.push_str(&format!(
                "<pre style=\"margin:0;font:inherit;color:inherit;background:transparent\">{}</pre>\n",
                escape(t)
            )),
            // A legend line (`row_lengths   how many values …`) keeps the spaces that set
            // its term apart from its meaning, which HTML would collapse into one.
            Block::Note(t) if t.contains("  ") => out.push_str(&format!(
                "<div style=\"opacity:0.7;font-style:italic;white-space:pre-wrap\">{}</div>\n",
                escape(t)
            )),
            Block::Note(t) => out.push_str(&format!(
                "<div style=\"opacity:0.7;font-style:italic\">{}</div>\n",
                escape(t)
            )),
            Block::Grid(g) if g.width() == 0 => {}
            Block::Grid(g) => {
                let mut g = g.clone();
                g.align_decimals();
                out.push_str(&grid_html(&g));
            }
        }
    }
    if d.has_role(Role::Absent) {
        out.push_str(&format!(
            "<div style=\"opacity:0.7\"><span style=\"{}\">·</span> absent: nothing is stored here (past the end of a row, or an empty row)</div>\n",
            cell_style(Role::Absent)
        ));
    }
    if let Some(cell) = d.first_with_role(Role::Implicit) {
        out.push_str(&format!(
            "<div style=\"opacity:0.7\"><span style=\"{}\">{}</span> implicit: not stored, the sparse tensor's default value</div>\n",
            cell_style(Role::Implicit),
            escape(&cell.text)
        ));
    }
    out.push_str("</div>");
    out
}

fn header_html(h: &Header) -> String {
    let mut s = format!(
        "<div style=\"margin-bottom:2px\"><span style=\"font-weight:700\">{}</span>",
        escape(&h.kind)
    );
    for (k, v) in &h.fields {
        s.push_str(&format!(
            "&ensp;<span style=\"opacity:0.65\">{}=</span>{}",
            escape(k),
            escape(v)
        ));
    }
    s.push_str("</div>\n");
    s
}

/// Extra style of a cell by role.
fn cell_style(role: Role) -> &'static str {
    match role {
        Role::Value => "",
        Role::Label => "opacity:0.65",
        Role::Absent => "opacity:0.3",
        Role::Ellipsis => "opacity:0.5",
        Role::Implicit => "opacity:0.55;font-style:italic",
    }
}

fn cell_text(c: &Cell) -> &str {
    match c.role {
        Role::Absent => "·",
        Role::Ellipsis => "…",
        _ => &c.text,
    }
}

fn cell_html(c: &Cell, right: bool, tag: &str, base: &str) -> String {
    let align = if right {
        "text-align:right"
    } else {
        "text-align:left"
    };
    let title = match c.role {
        Role::Absent => " title=\"absent: nothing stored here\"",
        Role::Implicit => " title=\"implicit default: not stored\"",
        _ => "",
    };
    format!(
        "<{tag} style=\"{base};{align};{}\"{title}>{}</{tag}>",
        cell_style(c.role),
        escape(cell_text(c))
    )
}

fn grid_html(g: &Grid) -> String {
    let right = g.right_aligned();
    let mut s = format!("<table style=\"{TABLE}\">\n<thead><tr>");
    for (c, &r) in g.head.iter().zip(&right) {
        s.push_str(&cell_html(c, r, "th", TH));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in &g.rows {
        s.push_str("<tr>");
        for (c, &r) in row.iter().zip(&right) {
            s.push_str(&cell_html(c, r, "td", TD));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
    s
}
