//! Comparing a tensor's display as a tensor: when an expected block and the actual output
//! differ and both show a tensor, the first difference is reported in tensor words before
//! the text diff — `dtype: expected int32, got int64`, `row 3 of level 1: expected 2
//! values, got 3`, `[2][1]: expected 0.5, got 0.50000006 (float32; rtol 1e-06)`.
//!
//! The expected side is the transcript's own text, so both sides are read back from what
//! ragtag prints ([`table`] for the table form and its header, [`tf_form`] for the
//! TensorFlow-style `print` forms) rather than from a hidden machine form: transcripts stay
//! readable and can be edited by hand, and a display the reader cannot understand (an
//! elided one, one with wildcards) is simply not compared as a tensor.

mod table;
mod tf_form;
mod words;

pub use words::first_difference;

/// What kind of tensor a display shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A dense tensor or array.
    Dense,
    /// A ragged tensor.
    Ragged,
    /// A sparse tensor.
    Sparse,
    /// A LoD tensor.
    LoD,
}

impl Kind {
    /// The name the display uses.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Dense => "Tensor",
            Kind::Ragged => "RaggedTensor",
            Kind::Sparse => "SparseTensor",
            Kind::LoD => "LoDTensor",
        }
    }
}

/// A tensor as read back from its display: whatever the display tells.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// Its kind.
    pub kind: Kind,
    /// Its dtype, when shown.
    pub dtype: Option<String>,
    /// Its shape (a sparse tensor's dense_shape), `None` for a ragged dimension.
    pub shape: Option<Vec<Option<usize>>>,
    /// Its ragged rank, when shown.
    pub ragged_rank: Option<usize>,
    /// The row lengths of each ragged level, outermost first (level 1 is the first ragged
    /// dimension), rows counted flat across the level; empty when not known (elided).
    pub levels: Vec<Vec<usize>>,
    /// A LoD tensor's offsets per level.
    pub lod: Option<Vec<Vec<usize>>>,
    /// A sparse tensor's indices, in order, as written (`[0, 2]`).
    pub indices: Option<Vec<String>>,
    /// The values shown, each with its index (`[2][1]`), in display order.
    pub values: Vec<(String, String)>,
    /// Part of the display was elided, so the row partition and values are not all known.
    pub partial: bool,
}

impl Shown {
    fn new(kind: Kind) -> Shown {
        Shown {
            kind,
            dtype: None,
            shape: None,
            ragged_rank: None,
            levels: Vec::new(),
            lod: None,
            indices: None,
            values: Vec::new(),
            partial: false,
        }
    }
}

/// The form a display is written in; only displays of the same form are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Table,
    Tf,
}

/// Every tensor display in a block of output lines, in order, with its form. A display
/// that contains a pattern line (`...`, `[..]`, a regex) or cannot be read is left out.
fn displays(lines: &[String]) -> Vec<(Form, Shown)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((shown, used)) = table::read(&lines[i..]) {
            if !lines[i..i + used]
                .iter()
                .any(|l| super::matching::is_pattern(l))
            {
                out.push((Form::Table, shown));
            }
            i += used.max(1);
        } else if let Some((shown, used)) = tf_form::read(&lines[i..]) {
            if !lines[i..i + used]
                .iter()
                .any(|l| super::matching::is_pattern(l))
            {
                out.push((Form::Tf, shown));
            }
            i += used.max(1);
        } else {
            i += 1;
        }
    }
    out
}

/// `[1][2]` for an index path.
fn label(path: &[usize]) -> String {
    path.iter().map(|i| format!("[{i}]")).collect()
}

/// `[2, None(1..2), 2]` or `(2, 2)` as a shape.
fn read_shape(text: &str) -> Option<Vec<Option<usize>>> {
    let inner = text
        .trim()
        .strip_prefix(['[', '('])?
        .strip_suffix([']', ')'])?;
    let mut dims = Vec::new();
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.starts_with("None") || part.contains("..") {
            dims.push(None);
        } else if part.ends_with(')') {
            // The inside of `None(1..2)` after splitting at its comma-free parenthesis.
            dims.push(None);
        } else {
            dims.push(Some(part.parse().ok()?));
        }
    }
    Some(dims)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_read_back() {
        assert_eq!(
            read_shape("[2, None(1..2), 2]"),
            Some(vec![Some(2), None, Some(2)])
        );
        assert_eq!(read_shape("(2,)"), Some(vec![Some(2)]));
        assert_eq!(read_shape("[]"), Some(vec![]));
    }
}
