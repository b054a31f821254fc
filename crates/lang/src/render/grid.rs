//! The intermediate form every displayed value is rendered to before a backend draws it:
//! a [`Display`] is a list of blocks (a header of annotations, titles, notes, grids), and a
//! [`Grid`] is a header row plus rows of cells whose [`Role`] says what each cell *means* —
//! a stored value, a position past a ragged row's end, a sparse tensor's implicit default,
//! an elided run, or a label. Backends (terminal text, HTML) choose how each role looks.

use unicode_width::UnicodeWidthStr;

/// What a cell means; backends style each role distinctly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A stored element.
    Value,
    /// Nothing is stored here: the position is past a ragged row's end.
    Absent,
    /// Not stored, but it has a value: a sparse tensor's implicit default.
    Implicit,
    /// Elided rows or columns (head … tail).
    Ellipsis,
    /// A row index, a length or another annotation rather than data.
    Label,
}

/// One cell: its text, its role and whether it is a number (numbers align right).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The text shown.
    pub text: String,
    /// What the cell means.
    pub role: Role,
    /// True for numbers, which align right.
    pub numeric: bool,
}

impl Cell {
    /// A cell with a role.
    pub fn new(text: impl Into<String>, role: Role) -> Cell {
        Cell {
            text: text.into(),
            role,
            numeric: false,
        }
    }
    /// A stored value.
    pub fn value(text: impl Into<String>) -> Cell {
        Cell::new(text, Role::Value)
    }
    /// A label (index, length, name).
    pub fn label(text: impl Into<String>) -> Cell {
        Cell::new(text, Role::Label)
    }
    /// A numeric label, aligned right.
    pub fn index(i: impl ToString) -> Cell {
        Cell::label(i.to_string()).numeric()
    }
    /// An absent position (the backend picks the marker).
    pub fn absent() -> Cell {
        Cell::new("", Role::Absent)
    }
    /// An elided run (the backend picks the marker).
    pub fn ellipsis() -> Cell {
        Cell::new("", Role::Ellipsis)
    }
    /// An empty label cell.
    pub fn blank() -> Cell {
        Cell::label("")
    }
    /// Marks the cell as a number.
    pub fn numeric(mut self) -> Cell {
        self.numeric = true;
        self
    }
}

/// What a column holds, so width fitting knows which columns it may elide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// Row labels (indices, lengths); never elided.
    Label,
    /// Data; may be elided from the middle when the grid is too wide.
    Data,
    /// The column standing for elided data columns.
    Ellipsis,
}

/// A table: column headings, then rows of cells (every row as long as the heading row).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Grid {
    /// Column headings.
    pub head: Vec<Cell>,
    /// What each column holds.
    pub kinds: Vec<Column>,
    /// The rows.
    pub rows: Vec<Vec<Cell>>,
}

/// The header line of a displayed value: its kind and `key=value` annotations.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// `RaggedTensor`, `Tensor`, `SparseTensor`, `LoDTensor` …
    pub kind: String,
    /// Annotations in order, e.g. `("dtype", "int32")`, `("shape", "[5, None(0..4)]")`.
    pub fields: Vec<(String, String)>,
}

impl Header {
    /// A header for `kind` with no annotations yet.
    pub fn new(kind: impl Into<String>) -> Header {
        Header {
            kind: kind.into(),
            fields: Vec::new(),
        }
    }
    /// Adds one `key=value` annotation.
    pub fn field(mut self, key: impl Into<String>, value: impl ToString) -> Header {
        self.fields.push((key.into(), value.to_string()));
        self
    }
}

/// One block of a display.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// The kind and annotations of the value.
    Header(Header),
    /// A caption for the grid below it.
    Title(String),
    /// A table.
    Grid(Grid),
    /// A line of plain text (a scalar, a Python value).
    Text(String),
    /// A quieter line: a legend or an explanation.
    Note(String),
}

/// Everything shown for one value, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Display {
    /// The blocks, top to bottom.
    pub blocks: Vec<Block>,
}

impl Display {
    /// An empty display.
    pub fn new() -> Display {
        Display::default()
    }
    /// A display of one plain line.
    pub fn text(s: impl Into<String>) -> Display {
        Display {
            blocks: vec![Block::Text(s.into())],
        }
    }
    /// Appends a block.
    pub fn push(&mut self, b: Block) -> &mut Self {
        self.blocks.push(b);
        self
    }
    /// Appends every block of `other`.
    pub fn extend(&mut self, other: Display) -> &mut Self {
        self.blocks.extend(other.blocks);
        self
    }
    /// True when some grid holds a cell with `role` (to decide which legends to show).
    pub fn has_role(&self, role: Role) -> bool {
        self.first_with_role(role).is_some()
    }
    /// The first cell with `role`, for a legend that shows it (a sparse tensor's default).
    pub fn first_with_role(&self, role: Role) -> Option<&Cell> {
        self.blocks.iter().find_map(|b| match b {
            Block::Grid(g) => g.rows.iter().flatten().find(|c| c.role == role),
            _ => None,
        })
    }
}

/// The header cells of the data columns [`head_tail`] chose: each position's index, `…`
/// where columns are elided.
pub fn data_heads(cols: &[Option<usize>]) -> impl Iterator<Item = (Cell, Column)> + '_ {
    cols.iter().map(|c| match c {
        Some(c) => (Cell::index(c), Column::Data),
        None => (Cell::ellipsis(), Column::Ellipsis),
    })
}

/// Which of `n` positions to show when at most `max` fit: all of them, or a head and a tail
/// around `None` (the elided middle). The head gets the odd one out.
pub fn head_tail(n: usize, max: usize) -> Vec<Option<usize>> {
    let max = max.max(2);
    if n <= max {
        return (0..n).map(Some).collect();
    }
    let head = max.div_ceil(2);
    let tail = max - head;
    (0..head)
        .map(Some)
        .chain(std::iter::once(None))
        .chain((n - tail..n).map(Some))
        .collect()
}

/// Display width of text in terminal columns (East Asian wide characters count two).
pub fn text_width(s: &str) -> usize {
    s.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
}

impl Grid {
    /// A grid with these column headings and kinds.
    pub fn new(head: Vec<(Cell, Column)>) -> Grid {
        let (head, kinds) = head.into_iter().unzip();
        Grid {
            head,
            kinds,
            rows: Vec::new(),
        }
    }
    /// Appends a row (padded with blanks or cut to the number of columns).
    pub fn push(&mut self, mut row: Vec<Cell>) {
        row.resize(self.head.len(), Cell::blank());
        self.rows.push(row);
    }
    /// Appends a row standing for elided rows: every cell an ellipsis.
    pub fn push_ellipsis_row(&mut self) {
        self.rows.push(vec![Cell::ellipsis(); self.head.len()]);
    }
    /// Which columns align right: those holding numbers and no other text. Markers and
    /// blanks do not count, so an absent cell sits under the numbers of its column.
    pub fn right_aligned(&self) -> Vec<bool> {
        (0..self.width())
            .map(|c| {
                let mut numbers = false;
                for row in &self.rows {
                    let cell = &row[c];
                    match cell.role {
                        Role::Absent | Role::Ellipsis => {}
                        _ if cell.text.is_empty() => {}
                        _ if cell.numeric => numbers = true,
                        _ => return false,
                    }
                }
                numbers
            })
            .collect()
    }

    /// Lines up decimal points down each column of numbers, as NumPy does: a number with
    /// fewer fractional digits than the column's longest is padded on the right.
    pub fn align_decimals(&mut self) {
        for c in 0..self.width() {
            let frac = |t: &str| t.split_once('.').map(|(_, f)| f.len());
            let is_plain = |cell: &Cell| {
                cell.numeric && cell.role != Role::Label && !cell.text.contains(['e', 'n'])
            };
            let widest = self
                .rows
                .iter()
                .filter(|r| is_plain(&r[c]))
                .filter_map(|r| frac(&r[c].text))
                .max();
            let Some(widest) = widest else { continue };
            for row in &mut self.rows {
                let cell = &mut row[c];
                if is_plain(cell) {
                    let have = frac(&cell.text).map_or(widest + 1, |f| f);
                    let pad = widest.saturating_sub(have);
                    cell.text.extend(std::iter::repeat_n(' ', pad));
                }
            }
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.head.len()
    }

    /// The width a bordered table of this grid takes when each cell's text is measured by
    /// `measure`: every column is its widest cell plus one space of padding on each side,
    /// plus one border character between and around columns.
    pub fn drawn_width(&self, measure: &dyn Fn(&Cell) -> usize) -> usize {
        let mut total = 1;
        for c in 0..self.width() {
            let w = std::iter::once(&self.head[c])
                .chain(self.rows.iter().map(|r| &r[c]))
                .map(measure)
                .max()
                .unwrap_or(0);
            total += w + 3;
        }
        total
    }

    /// Removes data columns from the middle (keeping the head and the tail, with an ellipsis
    /// column between them) until the drawn width fits `width` or one data column is left.
    /// A row's cell in the ellipsis column says what that row lost: an ellipsis for values,
    /// an absent marker when only absent cells went, a blank when only blanks went.
    pub fn fit_width(&mut self, width: usize, measure: &dyn Fn(&Cell) -> usize) {
        let mut from_head = true;
        // What each row lost: (values, absent cells).
        let mut lost = vec![(false, false); self.rows.len()];
        while self.drawn_width(measure) > width {
            let data: Vec<usize> = (0..self.width())
                .filter(|&c| self.kinds[c] == Column::Data)
                .collect();
            if data.len() <= 1 {
                break;
            }
            let gap = self.kinds.iter().position(|k| *k == Column::Ellipsis);
            // Remove the data column next to the gap (or the middle one if there is none),
            // alternating sides so the head and the tail shrink evenly.
            let victim = match gap {
                None => data[data.len() / 2],
                Some(g) => {
                    let before = data.iter().rev().find(|&&c| c < g).copied();
                    let after = data.iter().find(|&&c| c > g).copied();
                    match (before, after, from_head) {
                        (Some(b), _, true) | (Some(b), None, false) => b,
                        (_, Some(a), _) => a,
                        (None, None, _) => break,
                    }
                }
            };
            from_head = !from_head;
            for (r, row) in self.rows.iter().enumerate() {
                let c = &row[victim];
                match c.role {
                    Role::Absent => lost[r].1 = true,
                    Role::Label if c.text.is_empty() => {}
                    _ => lost[r].0 = true,
                }
            }
            self.remove_column(victim);
            if gap.is_none() {
                self.insert_ellipsis_column(victim);
                // The new column's cells are decided below, from what each row lost.
                for row in &mut self.rows {
                    row[victim] = Cell::blank();
                }
            }
        }
        let Some(g) = self.kinds.iter().position(|k| *k == Column::Ellipsis) else {
            return;
        };
        for (row, (values, absent)) in self.rows.iter_mut().zip(lost) {
            let had = row[g].role;
            let elided_row = row.iter().all(|c| c.role == Role::Ellipsis);
            row[g] = if elided_row || values || had == Role::Ellipsis {
                Cell::ellipsis()
            } else if absent || had == Role::Absent {
                Cell::absent()
            } else {
                Cell::blank()
            };
        }
    }

    /// Whether the grid needed to elide data columns to fit `width`.
    pub fn too_wide(&self, width: usize, measure: &dyn Fn(&Cell) -> usize) -> bool {
        self.drawn_width(measure) > width
            && self.kinds.iter().filter(|k| **k == Column::Data).count() > 1
    }

    fn remove_column(&mut self, c: usize) {
        self.head.remove(c);
        self.kinds.remove(c);
        for r in &mut self.rows {
            r.remove(c);
        }
    }

    /// Inserts a column of ellipsis cells at `c` (headed by an ellipsis too).
    pub fn insert_ellipsis_column(&mut self, c: usize) {
        self.head.insert(c, Cell::ellipsis());
        self.kinds.insert(c, Column::Ellipsis);
        for r in &mut self.rows {
            r.insert(c, Cell::ellipsis());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_tail_keeps_both_ends() {
        assert_eq!(head_tail(3, 5), vec![Some(0), Some(1), Some(2)]);
        assert_eq!(
            head_tail(10, 4),
            vec![Some(0), Some(1), None, Some(8), Some(9)]
        );
        assert_eq!(
            head_tail(10, 5),
            vec![Some(0), Some(1), Some(2), None, Some(8), Some(9)]
        );
    }

    #[test]
    fn fit_width_elides_middle_data_columns() {
        let mut g = Grid::new(
            std::iter::once((Cell::label("row"), Column::Label))
                .chain((0..10).map(|i| (Cell::index(i), Column::Data)))
                .collect(),
        );
        g.push(
            std::iter::once(Cell::index(0))
                .chain((0..10).map(|i| Cell::value(format!("v{i}"))))
                .collect(),
        );
        let measure = |c: &Cell| text_width(&c.text).max(1);
        g.fit_width(30, &measure);
        assert!(g.drawn_width(&measure) <= 30);
        let heads: Vec<_> = g.head.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(heads, vec!["row", "0", "1", "", "9"]);
        assert_eq!(g.kinds[3], Column::Ellipsis);
    }
}
