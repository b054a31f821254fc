//! The SVG writer every picture draws on: shapes and real `<text>` in integer pixels, the
//! stylesheet (colours as CSS variables, light and dark), escaping, and the document frame
//! that scales a wide picture down to a notebook's width.

use std::fmt::Write as _;

use crate::render::html;

/// The widest a picture is shown, in pixels: a Jupyter output area at its default width
/// holds about 800 px; wider pictures keep their coordinates and are scaled by the viewBox.
pub const MAX_WIDTH: i64 = 800;

/// Monospace advance at 12 px, times five (0.6 em = 7.2 px): text widths are estimated
/// from character counts, since the picture embeds no font.
const CHAR_W5: i64 = 36;

/// Colours as CSS variables, so a theme (or the reader's dark mode) can change them all;
/// JupyterLab's dark themes are matched by their `data-jp-theme-light` attribute too. Each
/// rule names its light colour first, for renderers without CSS variables.
const STYLE: &str = "\
svg.ragtag{--fg:#1f2328;--muted:#656d76;--bg:#ffffff;--cell:#ddf4ff;--cell-line:#0969da;\
--row:#fff8c5;--row-line:#9a6700;--uniform:#dafbe1;--uniform-line:#1a7f37;--empty:#cf222e;\
--implicit:#8c959f;--accent:#8250df;--accent-bg:#fbefff;--bar:#54aeff}\
@media (prefers-color-scheme: dark){svg.ragtag{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;\
--cell:#0c2d6b;--cell-line:#4493f8;--row:#3b2300;--row-line:#d29922;--uniform:#033a16;\
--uniform-line:#3fb950;--empty:#f85149;--implicit:#6e7681;--accent:#ab7df8;\
--accent-bg:#271052;--bar:#1f6feb}}\
[data-jp-theme-light=false] svg.ragtag{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;\
--cell:#0c2d6b;--cell-line:#4493f8;--row:#3b2300;--row-line:#d29922;--uniform:#033a16;\
--uniform-line:#3fb950;--empty:#f85149;--implicit:#6e7681;--accent:#ab7df8;\
--accent-bg:#271052;--bar:#1f6feb}\
svg.ragtag .bg{fill:#ffffff;fill:var(--bg)}\
svg.ragtag text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace;\
font-size:12px;fill:#1f2328;fill:var(--fg)}\
svg.ragtag text.small{font-size:10px;fill:#656d76;fill:var(--muted)}\
svg.ragtag text.title{font-size:13px;font-weight:bold}\
svg.ragtag text.mid{text-anchor:middle}\
svg.ragtag text.end{text-anchor:end}\
svg.ragtag text.hollow{fill:#8c959f;fill:var(--implicit)}\
svg.ragtag text.warn{fill:#cf222e;fill:var(--empty)}\
svg.ragtag .cell{fill:#ddf4ff;fill:var(--cell);stroke:#0969da;stroke:var(--cell-line)}\
svg.ragtag .row{fill:#fff8c5;fill:var(--row);stroke:#9a6700;stroke:var(--row-line)}\
svg.ragtag .uniform{fill:#dafbe1;fill:var(--uniform);stroke:#1a7f37;stroke:var(--uniform-line)}\
svg.ragtag .empty{fill:none;stroke:#cf222e;stroke:var(--empty);stroke-dasharray:3 2}\
svg.ragtag .implicit{fill:none;stroke:#8c959f;stroke:var(--implicit);stroke-dasharray:2 2}\
\
svg.ragtag .split{fill:#8250df;fill:var(--accent);stroke:none}\
svg.ragtag .line{fill:none;stroke:#656d76;stroke:var(--muted)}\
svg.ragtag .mark{fill:none;stroke:#8250df;stroke:var(--accent);stroke-width:1.5}\
svg.ragtag .bracket{fill:none;stroke:#9a6700;stroke:var(--row-line);stroke-width:1.5}\
svg.ragtag .bar{fill:#54aeff;fill:var(--bar);stroke:none}";

/// Where a text is anchored.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// At its start.
    Start,
    /// At its middle.
    Mid,
    /// At its end.
    End,
}

/// A picture being drawn: its SVG elements so far and the extent they cover.
#[derive(Default)]
pub struct Canvas {
    body: String,
    /// The rightmost x drawn on.
    pub w: i64,
    /// The lowest y drawn on.
    pub h: i64,
}

/// The estimated width of `s` in pixels at 12 px (`small`: 10 px).
pub fn text_w(s: &str, small: bool) -> i64 {
    let n = s.chars().count() as i64;
    let w = (n * CHAR_W5 + 4) / 5;
    if small {
        w * 10 / 12
    } else {
        w
    }
}

/// `s` cut to `max` characters, with `…` when cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Escapes text for XML: markup characters as HTML's entities (`html::escape_into`), and
/// the characters XML 1.0 cannot hold (control characters, U+FFFE and U+FFFF) as `\xNN` /
/// `\uNNNN` escapes, so any string tensor draws; tabs and line breaks become spaces.
pub fn escape(s: &str, out: &mut String) {
    // The start of the run of characters not yet written.
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let code = c as u32;
        if code >= 0x20 && c != '\u{fffe}' && c != '\u{ffff}' {
            continue;
        }
        html::escape_into(&s[run..i], out);
        run = i + c.len_utf8();
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            _ if code < 0x20 => {
                let _ = write!(out, "\\x{code:02x}");
            }
            _ => {
                let _ = write!(out, "\\u{code:04x}");
            }
        }
    }
    html::escape_into(&s[run..], out);
}

impl Canvas {
    /// An empty canvas.
    pub fn new() -> Canvas {
        Canvas::default()
    }

    fn cover(&mut self, x: i64, y: i64) {
        self.w = self.w.max(x);
        self.h = self.h.max(y);
    }

    /// A rectangle of class `class`.
    pub fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, class: &str) {
        let (w, h) = (w.max(1), h.max(1));
        let _ = write!(
            self.body,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2" class="{class}"/>"#
        );
        self.cover(x + w, y + h);
    }

    /// A rectangle with a tooltip (`<title>`), e.g. a histogram bar's exact count.
    pub fn rect_titled(&mut self, x: i64, y: i64, w: i64, h: i64, class: &str, tip: &str) {
        let (w, h) = (w.max(1), h.max(1));
        let _ = write!(
            self.body,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" class="{class}"><title>"#
        );
        escape(tip, &mut self.body);
        self.body.push_str("</title></rect>");
        self.cover(x + w, y + h);
    }

    /// Text with its baseline at `y`; `class` adds `small`, `title`, `hollow` … styles.
    pub fn text(&mut self, x: i64, y: i64, s: &str, anchor: Anchor, class: &str) {
        let w = text_w(s, class.contains("small"));
        // Titles are 13 px bold: about a sixth wider than body text.
        let w = if class.contains("title") {
            w * 7 / 6
        } else {
            w
        };
        let (left, a) = match anchor {
            Anchor::Start => (x, ""),
            Anchor::Mid => (x - w / 2, " mid"),
            Anchor::End => (x - w, " end"),
        };
        let cls = format!("{class}{a}");
        let cls = cls.trim();
        if cls.is_empty() {
            let _ = write!(self.body, r#"<text x="{x}" y="{y}">"#);
        } else {
            let _ = write!(self.body, r#"<text x="{x}" y="{y}" class="{cls}">"#);
        }
        escape(s, &mut self.body);
        self.body.push_str("</text>");
        self.cover(left.max(0) + w, y + 4);
    }

    /// A straight line of class `class`.
    pub fn line(&mut self, x1: i64, y1: i64, x2: i64, y2: i64, class: &str) {
        let _ = write!(
            self.body,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="{class}"/>"#
        );
        self.cover(x1.max(x2), y1.max(y2));
    }

    /// A path (`d` in SVG's path syntax) of class `class`, covering up to (`x`, `y`).
    pub fn path(&mut self, d: &str, class: &str, x: i64, y: i64) {
        let _ = write!(self.body, r#"<path d="{d}" class="{class}"/>"#);
        self.cover(x, y);
    }

    /// A small triangle pointing down at (`x`, `y`): a split marker.
    pub fn marker_down(&mut self, x: i64, y: i64) {
        self.path(
            &format!("M{} {}L{} {}L{x} {y}Z", x - 4, y - 6, x + 4, y - 6),
            "split",
            x + 4,
            y,
        );
    }

    /// A small triangle pointing up at (`x`, `y`): an arrow head.
    pub fn marker_up(&mut self, x: i64, y: i64) {
        self.path(
            &format!("M{} {}L{} {}L{x} {y}Z", x - 4, y + 6, x + 4, y + 6),
            "split",
            x + 4,
            y + 6,
        );
    }

    /// Draws `other` here, moved by (`dx`, `dy`).
    pub fn place(&mut self, other: &Canvas, dx: i64, dy: i64) {
        let _ = write!(self.body, r#"<g transform="translate({dx},{dy})">"#);
        self.body.push_str(&other.body);
        self.body.push_str("</g>");
        self.cover(dx + other.w, dy + other.h);
    }

    /// The whole SVG document, with `label` as its accessible title. A picture wider than
    /// [`MAX_WIDTH`] keeps its coordinates in the viewBox and is shown scaled down.
    pub fn finish(&self, label: &str) -> String {
        // A margin so strokes at the edges are not cut.
        let (w, h) = (self.w + 8, self.h + 8);
        let (sw, sh) = if w > MAX_WIDTH {
            (MAX_WIDTH, (h * MAX_WIDTH + w - 1) / w)
        } else {
            (w, h)
        };
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="ragtag" width="{sw}" height="{sh}" viewBox="0 0 {w} {h}" role="img"><title>"#
        );
        escape(label, &mut out);
        out.push_str("</title><style>");
        out.push_str(STYLE);
        out.push_str("</style>");
        let _ = write!(
            out,
            r#"<rect class="bg" x="0" y="0" width="{w}" height="{h}"/><g transform="translate(4,4)">"#
        );
        out.push_str(&self.body);
        out.push_str("</g></svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_xml_well_formed() {
        let mut s = String::new();
        escape("a<b>&\"c\"\u{1}\u{ffff}é\tit's", &mut s);
        assert_eq!(s, "a&lt;b&gt;&amp;&quot;c&quot;\\x01\\uffffé it&#39;s");
    }

    #[test]
    fn wide_pictures_scale_to_the_notebook_width() {
        let mut c = Canvas::new();
        c.rect(0, 0, 1992, 92, "cell");
        let svg = c.finish("wide");
        assert!(
            svg.contains(r#"width="800" height="40" viewBox="0 0 2000 100""#),
            "{svg}"
        );
    }

    #[test]
    fn clip_marks_what_it_cuts() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
    }
}
