//! Walking nested rows (ragged partitions, LoD levels) in display order without visiting
//! more than the rows shown: the first and last few leaves are found depth-first from either
//! end, so a million-row tensor costs the same to show as a ten-row one.

use crate::render::grid::Cell;

/// Rows nested by offset levels: root `i` has children `levels[0][i]..levels[0][i + 1]` at
/// the next level, and so on; the nodes below the last level are the leaves.
#[derive(Debug, Clone)]
pub struct Nest<'a> {
    /// Number of roots.
    pub roots: usize,
    /// Offsets of each level, outermost first (each like `row_splits`).
    pub levels: Vec<&'a [i64]>,
}

/// One displayed row: where it sits (the position within its parent at each depth) and what
/// it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Position within the parent at each depth, outermost first.
    pub path: Vec<usize>,
    /// The leaf's absolute index, or `None` for an empty row above the leaves (then `path`
    /// is shorter than the depth of a leaf).
    pub leaf: Option<usize>,
}

impl Node {
    /// The outline labels of this row: its position at each of `depth` levels, shown only
    /// where it differs from the row above (`prev`), absent below an empty row. With
    /// `repeat_last`, the innermost position is shown on every row.
    pub fn labels(&self, prev: Option<&Node>, depth: usize, repeat_last: bool) -> Vec<Cell> {
        (0..depth)
            .map(|k| {
                let same = prev.is_some_and(|p| {
                    p.path.len() > k && self.path.len() > k && p.path[..=k] == self.path[..=k]
                });
                match self.path.get(k) {
                    Some(_) if same && !(repeat_last && k + 1 == depth) => Cell::blank(),
                    Some(i) => Cell::index(i),
                    None => Cell::absent(),
                }
            })
            .collect()
    }
}

impl Nest<'_> {
    fn children(&self, depth: usize, node: usize) -> (usize, usize) {
        let l = self.levels[depth];
        (l[node] as usize, l[node + 1] as usize)
    }

    /// How many rows a full walk shows: every leaf plus every empty row above the leaves.
    /// Costs one pass over the offsets (never over the values).
    pub fn count(&self) -> usize {
        let leaves = match self.levels.last() {
            None => self.roots,
            Some(l) => l.last().map_or(0, |&x| x as usize) - l.first().map_or(0, |&x| x as usize),
        };
        let empties: usize = self
            .levels
            .iter()
            .map(|l| l.windows(2).filter(|w| w[0] == w[1]).count())
            .sum();
        leaves + empties
    }

    /// The first `n` rows in display order.
    pub fn head(&self, n: usize) -> Vec<Node> {
        let mut out = Vec::with_capacity(n);
        let mut path = Vec::new();
        for r in 0..self.roots {
            if out.len() >= n {
                break;
            }
            path.push(r);
            self.visit(0, r, &mut path, &mut out, n, false);
            path.pop();
        }
        out
    }

    /// The last `n` rows in display order.
    pub fn tail(&self, n: usize) -> Vec<Node> {
        let mut out = Vec::with_capacity(n);
        let mut path = Vec::new();
        for r in (0..self.roots).rev() {
            if out.len() >= n {
                break;
            }
            path.push(r);
            self.visit(0, r, &mut path, &mut out, n, true);
            path.pop();
        }
        out.reverse();
        out
    }

    /// The rows to show under a limit of `max`: all of them, or a head and a tail around
    /// `None` (the elided middle).
    pub fn shown(&self, max: usize) -> Vec<Option<Node>> {
        let max = max.max(2);
        // Walking one past the limit tells whether anything must be elided, without a count.
        let head = self.head(max + 1);
        if head.len() <= max {
            return head.into_iter().map(Some).collect();
        }
        let h = max.div_ceil(2);
        let mut out: Vec<Option<Node>> = head.into_iter().take(h).map(Some).collect();
        out.push(None);
        out.extend(self.tail(max - h).into_iter().map(Some));
        out
    }

    fn visit(
        &self,
        depth: usize,
        node: usize,
        path: &mut Vec<usize>,
        out: &mut Vec<Node>,
        n: usize,
        rev: bool,
    ) {
        if out.len() >= n {
            return;
        }
        if depth == self.levels.len() {
            out.push(Node {
                path: path.clone(),
                leaf: Some(node),
            });
            return;
        }
        let (a, b) = self.children(depth, node);
        if a == b {
            out.push(Node {
                path: path.clone(),
                leaf: None,
            });
            return;
        }
        let step = |c: usize, path: &mut Vec<usize>, out: &mut Vec<Node>| {
            path.push(c - a);
            self.visit(depth + 1, c, path, out, n, rev);
            path.pop();
            out.len() < n
        };
        if rev {
            for c in (a..b).rev() {
                if !step(c, path, out) {
                    break;
                }
            }
        } else {
            for c in a..b {
                if !step(c, path, out) {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(path: &[usize], i: usize) -> Node {
        Node {
            path: path.to_vec(),
            leaf: Some(i),
        }
    }
    fn empty(path: &[usize]) -> Node {
        Node {
            path: path.to_vec(),
            leaf: None,
        }
    }

    #[test]
    fn walks_leaves_and_empty_rows_in_order() {
        // [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]
        let outer = [0i64, 1, 1, 5];
        let nest = Nest {
            roots: 3,
            levels: vec![&outer],
        };
        assert_eq!(nest.count(), 6);
        let all = nest.head(10);
        assert_eq!(
            all,
            vec![
                leaf(&[0, 0], 0),
                empty(&[1]),
                leaf(&[2, 0], 1),
                leaf(&[2, 1], 2),
                leaf(&[2, 2], 3),
                leaf(&[2, 3], 4)
            ]
        );
        assert_eq!(nest.tail(2), all[4..].to_vec());
        let shown = nest.shown(4);
        assert_eq!(shown.len(), 5);
        assert_eq!(shown[2], None);
        assert_eq!(shown[4], Some(leaf(&[2, 3], 4)));
    }

    #[test]
    fn no_levels_means_every_root_is_a_leaf() {
        let nest = Nest {
            roots: 1_000_000,
            levels: vec![],
        };
        assert_eq!(nest.count(), 1_000_000);
        let shown = nest.shown(4);
        assert_eq!(shown[0], Some(leaf(&[0], 0)));
        assert_eq!(shown[4], Some(leaf(&[999_999], 999_999)));
    }
}
