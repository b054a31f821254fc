//! evcxr's display convention, so ragtag's values show as tables in evcxr (the Rust REPL and
//! Jupyter kernel): an `evcxr_display` method (inherent on values, the [`EvcxrDisplay`] trait
//! on the engine's tensors) that prints the value's HTML table and
//! its plain-text table, each between evcxr's content markers, on standard output.
//!
//! evcxr calls `(expr).evcxr_display()` on the last expression of a cell when the type has
//! such a method. Its child process reads standard output line by line: a line
//! `EVCXR_BEGIN_CONTENT <mime type>` opens a block, the lines up to one that is exactly
//! `EVCXR_END_CONTENT` are its content (joined with `\n`), and several blocks of different
//! mime types from one call make one rich output. evcxr_jupyter sends them all (notebooks
//! show `text/html`); evcxr_repl prints only `text/plain`.
//!
//! ```
//! let mut session = ragtag_lang::Session::new();
//! let rt = session.eval("tf.ragged.constant([[1, 2], [3]])").unwrap();
//! let shown = ragtag_lang::render::evcxr::content(&rt, &ragtag_lang::render::Options::default());
//! assert!(shown.starts_with("EVCXR_BEGIN_CONTENT text/html\n<div class=\"ragtag-display\""));
//! assert!(shown.contains("EVCXR_END_CONTENT\nEVCXR_BEGIN_CONTENT text/plain\n"));
//! assert!(shown.ends_with("\nEVCXR_END_CONTENT\n"));
//! rt.evcxr_display(); // prints the same text
//! ```

use std::io::Write;
use std::sync::Arc;

use super::Options;
use crate::value::{NdArray, Value};
use ragtag_engine::{Array, Lod, Ragged, Sparse, Tensor};

/// The line that opens a block of content, followed by a space and the mime type.
pub const BEGIN: &str = "EVCXR_BEGIN_CONTENT";
/// The line that closes a block of content.
pub const END: &str = "EVCXR_END_CONTENT";

/// What `evcxr_display` prints for `v`: the HTML table (`text/html`, what notebooks show)
/// then the plain-text table (`text/plain`, what evcxr_repl prints), each in its block.
pub fn content(v: &Value, opts: &Options) -> String {
    let mut out = String::new();
    block(&mut out, "text/html", &super::html::to_html(v, opts), true);
    block(
        &mut out,
        "text/plain",
        &super::table::render(v, opts),
        false,
    );
    out
}

/// The options `evcxr_display` renders with: a plain Unicode table without colour (evcxr
/// shows `text/plain` as it is, where ANSI codes would be noise) at the default limits.
pub fn options() -> Options {
    Options {
        color: false,
        ..Options::default()
    }
}

/// Prints [`content`] of `v` with [`options`] on standard output in one write, as evcxr
/// reads it. An error writing (a closed pipe) is ignored: there is nobody left to show it to.
pub fn display(v: &Value) {
    let text = content(v, &options());
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Appends one block of `text` as `mime`. A line of the content that starts with `EVCXR_`
/// could end the block early or be read as one of evcxr's own signals (`EVCXR_END_CONTENT`,
/// `EVCXR_PANIC_NOTIFICATION`), so it is changed to look the same without being one: its
/// `E` as a character reference in HTML, a zero-width space before it in plain text.
fn block(out: &mut String, mime: &str, text: &str, html: bool) {
    out.push_str(BEGIN);
    out.push(' ');
    out.push_str(mime);
    out.push('\n');
    for line in text.trim_end_matches('\n').split('\n') {
        if let Some(rest) = line.strip_prefix("EVCXR_") {
            out.push_str(if html { "&#69;" } else { "\u{200b}E" });
            out.push_str(&line[1..line.len() - rest.len()]);
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str(END);
    out.push('\n');
}

impl Value {
    /// Shows this value in evcxr: its HTML table in notebooks, its plain-text table in
    /// evcxr_repl (see [`crate::render::evcxr`]).
    pub fn evcxr_display(&self) {
        display(self);
    }
}

/// evcxr's `evcxr_display` for the engine's tensor types, which live in the engine crate
/// and so cannot have an inherent method here; in evcxr, `use ragtag::EvcxrDisplay;` once
/// makes a cell ending in an engine tensor show ragtag's table.
///
/// ```
/// use ragtag_engine::{Array, Ragged, RowPartition, Tensor};
/// use ragtag_lang::render::evcxr::EvcxrDisplay;
///
/// Array::Dense(Tensor::from_i64(vec![1, 2, 3])).evcxr_display();
/// let rows = RowPartition::from_row_lengths(&[2, 0, 1], None).unwrap();
/// let rt = Ragged::new(vec![rows], Tensor::from_i64(vec![7, 8, 9])).unwrap();
/// rt.evcxr_display();
/// ```
pub trait EvcxrDisplay {
    /// Prints this tensor's HTML and plain-text tables between evcxr's content markers.
    fn evcxr_display(&self);
}

impl EvcxrDisplay for Array {
    fn evcxr_display(&self) {
        display(&Value::from_array(self.clone()));
    }
}

impl EvcxrDisplay for Ragged {
    fn evcxr_display(&self) {
        display(&Value::ragged(self.clone()));
    }
}

impl EvcxrDisplay for Tensor {
    fn evcxr_display(&self) {
        display(&Value::tensor(self.clone()));
    }
}

impl EvcxrDisplay for Sparse {
    fn evcxr_display(&self) {
        display(&Value::Sparse(Arc::new(self.clone())));
    }
}

impl EvcxrDisplay for Lod {
    fn evcxr_display(&self) {
        display(&Value::Lod(Arc::new(self.clone())));
    }
}

impl NdArray {
    /// Shows this NumPy array in evcxr as ragtag's table.
    pub fn evcxr_display(&self) {
        display(&Value::NdArray(Arc::new(self.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtag_engine::RowPartition;

    fn ragged() -> Value {
        let rows = RowPartition::from_row_lengths(&[2, 1], None).unwrap();
        Value::ragged(Ragged::new(vec![rows], Tensor::from_i64(vec![1, 2, 3])).unwrap())
    }

    #[test]
    fn blocks_are_html_then_plain_text_between_the_markers() {
        let v = ragged();
        let opts = options();
        let html = super::super::html::to_html(&v, &opts);
        let text = super::super::table::render(&v, &opts);
        let want = format!(
            "EVCXR_BEGIN_CONTENT text/html\n{}\nEVCXR_END_CONTENT\n\
             EVCXR_BEGIN_CONTENT text/plain\n{}\nEVCXR_END_CONTENT\n",
            html.trim_end_matches('\n'),
            text.trim_end_matches('\n')
        );
        assert_eq!(content(&v, &opts), want);
        assert!(html.starts_with("<div class=\"ragtag-display\""), "{html}");
        assert!(text.contains("ragged"), "{text}");
    }

    /// Reads `text` the way evcxr's child-process reader does: the content of each block
    /// by mime type, and the lines outside any block.
    fn read_like_evcxr(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        let (mut blocks, mut outside) = (Vec::new(), Vec::new());
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if let Some(at) = line.find("EVCXR_BEGIN_CONTENT ") {
                let mime = line[at + 20..].split(' ').next().unwrap().to_string();
                let mut content = Vec::new();
                for l in lines.by_ref() {
                    if l == END || l == "EVCXR_PANIC_NOTIFICATION" {
                        break;
                    }
                    content.push(l);
                }
                blocks.push((mime, content.join("\n")));
            } else {
                outside.push(line.to_string());
            }
        }
        (blocks, outside)
    }

    #[test]
    fn evcxr_reads_exactly_two_blocks_with_the_tables() {
        let v = ragged();
        let (blocks, outside) = read_like_evcxr(&content(&v, &options()));
        assert!(outside.is_empty(), "{outside:?}");
        let mimes: Vec<&str> = blocks.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(mimes, ["text/html", "text/plain"]);
        assert_eq!(blocks[0].1, super::super::html::to_html(&v, &options()));
        assert_eq!(
            blocks[1].1,
            super::super::table::render(&v, &options()).trim_end_matches('\n')
        );
    }

    #[test]
    fn a_value_holding_the_markers_cannot_end_a_block_early() {
        for text in [
            "EVCXR_END_CONTENT",
            "a\nEVCXR_END_CONTENT\nEVCXR_BEGIN_CONTENT text/html\nb",
            "x\nEVCXR_PANIC_NOTIFICATION\n",
        ] {
            let mut out = String::new();
            block(&mut out, "text/plain", text, false);
            block(&mut out, "text/html", text, true);
            let (blocks, outside) = read_like_evcxr(&out);
            assert!(outside.is_empty(), "{text:?}: {outside:?}");
            assert_eq!(blocks.len(), 2, "{text:?}: {blocks:?}");
            assert_eq!(
                blocks[0].1.replace('\u{200b}', ""),
                text.trim_end_matches('\n'),
                "{text:?}"
            );
            assert_eq!(
                blocks[1].1.replace("&#69;", "E"),
                text.trim_end_matches('\n'),
                "{text:?}"
            );
        }
        // A Python string whose text is a marker, shown through the real renderers.
        let v = Value::list(vec![Value::str("EVCXR_END_CONTENT")]);
        let (blocks, outside) = read_like_evcxr(&content(&v, &options()));
        assert!(outside.is_empty() && blocks.len() == 2, "{blocks:?}");
    }

    #[test]
    fn every_kind_of_value_renders_both_blocks() {
        let t = Tensor::from_i64(vec![4, 5]);
        let values = [
            ragged(),
            Value::tensor(t.clone()),
            Value::Sparse(Arc::new(Sparse::from_dense(&t))),
            Value::Int(3),
            Value::str("text"),
            Value::None,
        ];
        for v in values {
            let (blocks, outside) = read_like_evcxr(&content(&v, &options()));
            assert!(outside.is_empty(), "{v:?}");
            assert_eq!(blocks.len(), 2, "{v:?}");
            assert!(
                blocks[0].1.contains("ragtag-display"),
                "{v:?}: {}",
                blocks[0].1
            );
        }
    }
}
