//! Reading the TensorFlow-style forms `print` writes back into a tensor:
//! `<tf.RaggedTensor [[1, 2], [3]]>`, `tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)`,
//! `SparseTensor(indices=tf.Tensor(…), values=tf.Tensor(…), dense_shape=tf.Tensor(…))` and
//! `LoDTensor(lod=[[0, 3, 5]], data=[[1] …])`.

use super::{label, read_shape, Kind, Shown};

/// The most lines one display may span before it is taken for something else (a bracket
/// that never closes).
const MAX_LINES: usize = 10_000;

/// The deepest nesting read back: a tensor has at most a few dozen dimensions, and an
/// expected block that nests deeper is not read as one (rather than recursing without end).
const MAX_DEPTH: usize = 64;

/// A nested list as printed.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    List(Vec<Node>),
    Leaf(String),
    /// NumPy's `...` in a summarised array.
    Elided,
}

/// Reads a display starting at `lines[0]`: the tensor and how many lines it spans.
pub(super) fn read(lines: &[String]) -> Option<(Shown, usize)> {
    let first = lines.first()?;
    let starts = [
        "<tf.RaggedTensor ",
        "tf.Tensor(",
        "SparseTensor(",
        "LoDTensor(",
    ];
    if !starts.iter().any(|s| first.starts_with(s)) {
        return None;
    }
    let mut text = String::new();
    let mut depth = 0i64;
    let mut used = 0;
    for line in lines.iter().take(MAX_LINES) {
        used += 1;
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
        depth += balance(line);
        if depth <= 0 {
            break;
        }
    }
    if depth > 0 {
        return None;
    }
    let shown = if let Some(rest) = text.strip_prefix("<tf.RaggedTensor ") {
        let (node, _) = list(rest)?;
        let mut s = Shown::new(Kind::Ragged);
        let mut levels = Vec::new();
        lengths(&node, 0, &mut levels);
        s.levels = levels;
        leaves(&node, &mut Vec::new(), &mut s);
        s
    } else if text.starts_with("tf.Tensor(") {
        let (s, _) = tensor(&text)?;
        s
    } else if text.starts_with("SparseTensor(") {
        sparse(&text)?
    } else {
        lod(&text)?
    };
    Some((shown, used))
}

/// How much a line opens brackets minus how much it closes, outside quotes.
fn balance(line: &str) -> i64 {
    let mut depth = 0;
    let mut quote = None;
    let mut escaped = false;
    for c in line.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Reads a nested list (or a single scalar) at the start of `text`, after spaces: the node
/// and the rest of the text.
fn list(text: &str) -> Option<(Node, &str)> {
    nested(text, 0)
}

/// [`list`] at a depth of nesting.
fn nested(text: &str, depth: usize) -> Option<(Node, &str)> {
    let text = text.trim_start();
    if let Some(mut rest) = text.strip_prefix('[') {
        if depth >= MAX_DEPTH {
            return None;
        }
        let mut items = Vec::new();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
            if let Some(after) = rest.strip_prefix(']') {
                return Some((Node::List(items), after));
            }
            let (item, after) = nested(rest, depth + 1)?;
            items.push(item);
            rest = after;
        }
    }
    let end = atom_end(text)?;
    let atom = &text[..end];
    let node = if atom == "..." {
        Node::Elided
    } else {
        Node::Leaf(atom.to_string())
    };
    Some((node, &text[end..]))
}

/// Where an atom (a number, a word, a quoted string with an optional `b` prefix) ends.
fn atom_end(text: &str) -> Option<usize> {
    let body = text.strip_prefix('b').unwrap_or(text);
    let skipped = text.len() - body.len();
    if let Some(q) = body.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let mut escaped = false;
        for (i, c) in body.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                return Some(skipped + i + 1);
            }
        }
        return None;
    }
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | ',' | '(' | ')'))
        .unwrap_or(text.len());
    (end > 0).then_some(end)
}

/// The lengths of the lists at each depth below the outermost, in order.
fn lengths(node: &Node, depth: usize, levels: &mut Vec<Vec<usize>>) {
    if let Node::List(items) = node {
        if depth > 0 {
            if levels.len() < depth {
                levels.resize(depth, Vec::new());
            }
            levels[depth - 1].push(items.len());
        }
        for item in items {
            lengths(item, depth + 1, levels);
        }
    }
}

/// Every leaf with its index path; an elided part makes the display partial (the indices
/// after it are not known).
fn leaves(node: &Node, path: &mut Vec<usize>, shown: &mut Shown) {
    match node {
        Node::Leaf(v) => {
            if !shown.partial {
                shown.values.push((label(path), v.clone()));
            }
        }
        Node::Elided => shown.partial = true,
        Node::List(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i);
                leaves(item, path, shown);
                path.pop();
            }
        }
    }
}

/// `tf.Tensor(DATA, shape=(…), dtype=…)` at the start of `text`: the tensor and the text
/// after its closing parenthesis.
fn tensor(text: &str) -> Option<(Shown, &str)> {
    let rest = text.strip_prefix("tf.Tensor(")?;
    let (node, rest) = list(rest)?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let rest = rest.strip_prefix("shape=")?;
    let close = rest.find(')')?;
    let shape = read_shape(&rest[..=close])?;
    let rest = rest[close + 1..]
        .trim_start()
        .strip_prefix(',')?
        .trim_start();
    let rest = rest.strip_prefix("dtype=")?;
    let end = rest.find(')')?;
    let mut s = Shown::new(Kind::Dense);
    s.dtype = Some(rest[..end].trim().to_string());
    s.shape = Some(shape);
    leaves(&node, &mut Vec::new(), &mut s);
    Some((s, &rest[end + 1..]))
}

/// The rows of a nested list of integers.
fn int_rows(node: &Node) -> Option<Vec<Vec<usize>>> {
    let Node::List(rows) = node else { return None };
    rows.iter()
        .map(|r| match r {
            Node::List(items) => items
                .iter()
                .map(|i| match i {
                    Node::Leaf(v) => v.parse().ok(),
                    _ => None,
                })
                .collect(),
            _ => None,
        })
        .collect()
}

/// `SparseTensor(indices=tf.Tensor(…), values=tf.Tensor(…), dense_shape=tf.Tensor(…))`.
fn sparse(text: &str) -> Option<Shown> {
    let rest = text.strip_prefix("SparseTensor(indices=")?;
    let (indices, rest) = tensor(rest)?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let (values, rest) = tensor(rest.strip_prefix("values=")?)?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let (dense_shape, _) = tensor(rest.strip_prefix("dense_shape=")?)?;
    let mut s = Shown::new(Kind::Sparse);
    s.dtype = values.dtype;
    s.partial = indices.partial || values.partial || dense_shape.partial;
    s.shape = Some(
        dense_shape
            .values
            .iter()
            .map(|(_, v)| v.parse().ok())
            .collect::<Option<Vec<usize>>>()?
            .into_iter()
            .map(Some)
            .collect(),
    );
    // The indices come as rows of the index matrix: `[k][d]` is index k's d-th coordinate.
    let rank = s.shape.as_ref().map_or(0, Vec::len).max(1);
    let coords: Vec<&str> = indices.values.iter().map(|(_, v)| v.as_str()).collect();
    let written: Vec<String> = coords
        .chunks(rank)
        .map(|c| format!("[{}]", c.join(", ")))
        .collect();
    for (k, (_, v)) in values.values.iter().enumerate() {
        let at = coords
            .chunks(rank)
            .nth(k)
            .map_or_else(|| format!("[{k}]"), |c| format!("[{}]", c.join("][")));
        s.values.push((at, v.clone()));
    }
    s.indices = Some(written);
    Some(s)
}

/// `LoDTensor(lod=[[0, 3, 5]], data=[[1] …])`.
fn lod(text: &str) -> Option<Shown> {
    let rest = text.strip_prefix("LoDTensor(lod=")?;
    let (offsets, rest) = list(rest)?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let (data, _) = list(rest.strip_prefix("data=")?)?;
    let mut s = Shown::new(Kind::LoD);
    s.lod = Some(int_rows(&offsets)?);
    leaves(&data, &mut Vec::new(), &mut s);
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    #[test]
    fn ragged_and_dense_forms_read_back() {
        let (s, used) = read(&lines(
            "<tf.RaggedTensor [[[1, 2],\n  [3, 4]], [[5, 6]]]>\nx",
        ))
        .unwrap();
        assert_eq!(used, 2);
        assert_eq!(s.levels, vec![vec![2, 1], vec![2, 2, 2]]);
        assert_eq!(s.values[5], ("[1][0][1]".into(), "6".into()));
        let (s, _) = read(&lines(
            "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)",
        ))
        .unwrap();
        assert_eq!(s.dtype.as_deref(), Some("int32"));
        assert_eq!(s.values[2], ("[1][0]".into(), "3".into()));
        let (s, _) = read(&lines("tf.Tensor([b'a b' b'c'], shape=(2,), dtype=string)")).unwrap();
        assert_eq!(s.values[0].1, "b'a b'");
        let (s, _) = read(&lines(
            "tf.Tensor([   0    1 ... 1999], shape=(2000,), dtype=int32)",
        ))
        .unwrap();
        assert!(s.partial);
        // Nesting past any tensor's rank is not read back (and does not recurse forever).
        let deep = format!(
            "<tf.RaggedTensor {}1{}>",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(read(&lines(&deep)).is_none());
    }

    #[test]
    fn sparse_and_lod_forms_read_back() {
        let (s, _) = read(&lines(
            "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))",
        ))
        .unwrap();
        assert_eq!(s.kind, Kind::Sparse);
        assert_eq!(s.dtype.as_deref(), Some("float32"));
        assert_eq!(s.indices, Some(vec!["[0, 0]".into(), "[1, 2]".into()]));
        assert_eq!(s.values[1], ("[1][2]".into(), "2.".into()));
        let (s, _) = read(&lines("LoDTensor(lod=[[0, 3, 5]], data=[[1]\n [2]])")).unwrap();
        assert_eq!(s.lod, Some(vec![vec![0, 3, 5]]));
    }
}
