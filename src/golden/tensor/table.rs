//! Reading ragtag's table display of a tensor back: the header line
//! (`RaggedTensor  dtype=int32  shape=[2, None(1..2)]  ragged_rank=1  values=3`), then its
//! tables — the rows of a ragged or dense tensor, a sparse tensor's stored values, a LoD
//! tensor's levels and its data by sequence.

use super::{label, read_shape, Kind, Shown};

/// Where a table display ends: after the header, every line is part of a table, a slice's
/// caption (`[0, :, :]`), a table's caption or a legend.
fn belongs(line: &str) -> bool {
    let t = line.trim_end();
    t.starts_with(['┌', '│', '╞', '├', '└'])
        || (t.starts_with('[') && t.ends_with(']') && t.contains(':'))
        || t.starts_with("stored values")
        || t == "dense view"
        || t == "levels"
        || t == "data by sequence"
        || t.starts_with("· ")
        || (t.starts_with('(') && t.contains("implicit"))
}

/// The kind named by a header's first word.
fn kind_of(word: &str) -> Option<Kind> {
    match word {
        "RaggedTensor" => Some(Kind::Ragged),
        "SparseTensor" => Some(Kind::Sparse),
        "LoDTensor" => Some(Kind::LoD),
        "Tensor" | "ndarray" | "Variable" => Some(Kind::Dense),
        _ => None,
    }
}

/// Reads a table display starting at `lines[0]`: the tensor and how many lines it spans.
pub(super) fn read(lines: &[String]) -> Option<(Shown, usize)> {
    let header = lines.first()?;
    let (word, rest) = header.split_once("  ")?;
    let kind = kind_of(word)?;
    if !rest.contains("dtype=") {
        return None;
    }
    let mut shown = Shown::new(kind);
    for field in rest.split("  ").map(str::trim).filter(|f| !f.is_empty()) {
        let Some((key, value)) = field.split_once('=') else {
            continue;
        };
        match key {
            "dtype" => shown.dtype = Some(value.to_string()),
            "shape" | "dense_shape" => shown.shape = read_shape(value),
            "ragged_rank" => shown.ragged_rank = value.parse().ok(),
            "value" => shown.values.push(("value".into(), value.to_string())),
            _ => {}
        }
    }
    let used = 1 + lines[1..].iter().take_while(|l| belongs(l)).count();
    let mut caption = String::new();
    let mut k = 1;
    let mut records = Vec::new();
    let mut index_columns = 0;
    let mut has_len = false;
    while k < used {
        let line = lines[k].trim_end();
        if line.starts_with('┌') {
            let end = (k..used)
                .find(|&j| lines[j].starts_with('└'))
                .unwrap_or(used);
            let table = &lines[k..end];
            match read_table(&mut shown, &caption, table) {
                Some((recs, n, len)) => {
                    records.extend(recs);
                    index_columns = n;
                    has_len = len;
                }
                None => return None,
            }
            k = end + 1;
        } else {
            if !line.starts_with("· ") && !line.starts_with('(') {
                caption = line.to_string();
            }
            k += 1;
        }
    }
    if kind == Kind::Ragged && !shown.partial {
        shown.levels = partition(&records, index_columns, has_len);
    }
    Some((shown, used))
}

/// The cells of a table line, trimmed.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('│').trim_end_matches('│');
    inner
        .split(['┆', '│'])
        .map(|c| c.trim().to_string())
        .collect()
}

/// One row of a ragged table: its index path (ending where a `·` says a row is empty) and
/// its `len`.
type Record = (Vec<usize>, Option<usize>);

/// Reads one table (from its `┌` line to before its `└`) into `shown`; for a table of rows,
/// also its records, its number of index columns and whether it has a `len` column.
fn read_table(
    shown: &mut Shown,
    caption: &str,
    table: &[String],
) -> Option<(Vec<Record>, usize, bool)> {
    let rows: Vec<Vec<String>> = table
        .iter()
        .filter(|l| l.starts_with('│'))
        .map(|l| cells(l))
        .collect();
    let (head, body) = rows.split_first()?;
    if caption == "dense view" {
        return Some((Vec::new(), 0, false));
    }
    if head.iter().any(|h| h == "indices") {
        let mut indices = Vec::new();
        for row in body {
            if row.iter().any(|c| c == "…") {
                shown.partial = true;
                continue;
            }
            let (index, value) = (row.get(1)?, row.get(2)?);
            let path: Option<Vec<usize>> = index
                .trim_matches(['[', ']'])
                .split(',')
                .map(|p| p.trim().parse().ok())
                .collect();
            indices.push(index.clone());
            shown.values.push((label(&path?), value.clone()));
        }
        shown.indices = Some(indices);
        return Some((Vec::new(), 0, false));
    }
    if head.iter().any(|h| h.starts_with("offsets")) {
        let mut lod = Vec::new();
        for row in body {
            let offsets: Option<Vec<usize>> = row
                .get(1)?
                .trim_matches(['[', ']'])
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| p.trim().parse().ok())
                .collect();
            lod.push(offsets?);
        }
        shown.lod = Some(lod);
        return Some((Vec::new(), 0, false));
    }
    // A table of rows: index columns (`row`, `i`, `j`, …, or an unnamed one), `len`, then
    // value columns named by their index.
    let prefix: Vec<usize> = caption
        .trim_matches(['[', ']'])
        .split(',')
        .map_while(|p| p.trim().parse().ok())
        .collect();
    let is_index = |h: &str| h.is_empty() || h == "row" || (h.len() == 1 && h != "…");
    let index_at: Vec<usize> = (0..head.len())
        .filter(|&c| is_index(&head[c]) && head[c].parse::<usize>().is_err())
        .collect();
    let len_at = head.iter().position(|h| h == "len");
    let value_at: Vec<(usize, Option<usize>)> = (0..head.len())
        .filter(|&c| head[c] == "…" || head[c].parse::<usize>().is_ok())
        .map(|c| (c, head[c].parse().ok()))
        .collect();
    let mut records = Vec::new();
    let mut last: Vec<String> = vec![String::new(); index_at.len()];
    for row in body {
        if row.len() != head.len() {
            return None;
        }
        if index_at.iter().any(|&c| row[c] == "…") {
            shown.partial = true;
            continue;
        }
        let mut path = prefix.clone();
        let mut empty = false;
        for (n, &c) in index_at.iter().enumerate() {
            if !row[c].is_empty() {
                last[n] = row[c].clone();
                last[n + 1..].iter_mut().for_each(String::clear);
            }
            if last[n] == "·" {
                empty = true;
                break;
            }
            path.push(last[n].parse().ok()?);
        }
        let len = len_at.and_then(|c| row[c].parse().ok());
        records.push((path[prefix.len()..].to_vec(), len));
        if empty {
            continue;
        }
        for &(c, name) in &value_at {
            let Some(name) = name else {
                shown.partial = true;
                continue;
            };
            let v = &row[c];
            if v != "·" && v != "…" && !v.is_empty() {
                let mut at = path.clone();
                at.push(name);
                shown.values.push((label(&at), v.clone()));
            }
        }
    }
    Some((records, index_at.len(), len_at.is_some()))
}

/// The row lengths of each ragged level from a ragged table's rows: level `d` below the
/// index columns counts each row's distinct children, and the `len` column gives the last.
fn partition(records: &[Record], index_columns: usize, has_len: bool) -> Vec<Vec<usize>> {
    let mut levels = Vec::new();
    for d in 1..index_columns {
        let mut lengths: Vec<usize> = Vec::new();
        let mut parent: Option<&[usize]> = None;
        let mut child: Option<&[usize]> = None;
        for (path, _) in records {
            if path.len() < d {
                continue;
            }
            if parent != Some(&path[..d]) {
                parent = Some(&path[..d]);
                child = None;
                lengths.push(0);
            }
            if path.len() > d && child != Some(&path[..=d]) {
                child = Some(&path[..=d]);
                if let Some(n) = lengths.last_mut() {
                    *n += 1;
                }
            }
        }
        levels.push(lengths);
    }
    if has_len {
        levels.push(
            records
                .iter()
                .filter(|(p, _)| p.len() == index_columns)
                .filter_map(|(_, len)| *len)
                .collect(),
        );
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    #[test]
    fn a_ragged_table_reads_back() {
        let t = lines(
            "RaggedTensor  dtype=float32  shape=[2, None(1..2), None(0..2)]  ragged_rank=2  values=3
┌───┬───┬─────┬─────┬─────┐
│ i ┆ j ┆ len ┆   0 ┆   1 │
╞═══╪═══╪═════╪═════╪═════╡
│ 0 ┆ 0 ┆   2 ┆ 1.5 ┆ 2.0 │
│ 1 ┆ 0 ┆   1 ┆ 3.0 ┆   · │
│   ┆ 1 ┆   0 ┆   · ┆   · │
└───┴───┴─────┴─────┴─────┘
· absent: nothing is stored here (past the end of a row, or an empty row)
after",
        );
        let (s, used) = read(&t).unwrap();
        assert_eq!(used, 9);
        assert_eq!(s.kind, Kind::Ragged);
        assert_eq!(s.dtype.as_deref(), Some("float32"));
        assert_eq!(s.ragged_rank, Some(2));
        assert_eq!(s.levels, vec![vec![1, 2], vec![2, 1, 0]]);
        assert_eq!(
            s.values,
            [
                ("[0][0][0]".to_string(), "1.5".to_string()),
                ("[0][0][1]".into(), "2.0".into()),
                ("[1][0][0]".into(), "3.0".into())
            ]
        );
    }

    #[test]
    fn an_empty_outer_row_counts_zero() {
        let t = lines(
            "RaggedTensor  dtype=int32  shape=[2, None(0..1), None(1..1)]  ragged_rank=2  values=1
┌───┬───┬─────┬───┐
│ i ┆ j ┆ len ┆ 0 │
╞═══╪═══╪═════╪═══╡
│ 0 ┆ 0 ┆   1 ┆ 1 │
│ 1 ┆ · ┆   0 ┆ · │
└───┴───┴─────┴───┘",
        );
        let (s, _) = read(&t).unwrap();
        assert_eq!(s.levels, vec![vec![1, 0], vec![1]]);
    }

    #[test]
    fn dense_slices_and_sparse_read_back() {
        let t = lines(
            "Tensor  dtype=int32  shape=[2, 1, 2]  values=4
[1, :, :]
┌───┬───┬───┐
│   ┆ 0 ┆ 1 │
╞═══╪═══╪═══╡
│ 0 ┆ 5 ┆ 6 │
└───┴───┴───┘",
        );
        let (s, _) = read(&t).unwrap();
        assert_eq!(s.values[1], ("[1][0][1]".into(), "6".into()));
        let t = lines(
            "SparseTensor  dtype=float32  dense_shape=[3, 4]  stored=2 of 12  default=0.0
stored values (indices → values)
┌───┬─────────┬───────┐
│   ┆ indices ┆ value │
╞═══╪═════════╪═══════╡
│ 0 ┆ [0, 0]  ┆   1.0 │
│ 1 ┆ [1, 2]  ┆   2.0 │
└───┴─────────┴───────┘",
        );
        let (s, _) = read(&t).unwrap();
        assert_eq!(s.shape, Some(vec![Some(3), Some(4)]));
        assert_eq!(s.indices, Some(vec!["[0, 0]".into(), "[1, 2]".into()]));
        assert_eq!(s.values[1], ("[1][2]".into(), "2.0".into()));
    }
}
