//! Large numeric list literals in columns. A pasted block of data (`[[3, 1, 4], [], …]`,
//! every scalar a plain int or every scalar a float, all at one depth) is read by the parser
//! straight into one flat vector of values and one vector of row splits per level of lists,
//! the layout of a ragged tensor, so `tf.ragged.constant` moves them into the tensor
//! instead of walking a tree of boxed elements. The Python list the literal also is
//! (printed, indexed, iterated, compared) is made from the columns on first use.

use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

use super::buffer::Buffer;
use super::dtype::DType;
use super::element::Element;
use super::error::Result;
use super::literal::{Flavor, Leaf, Nested};
use super::partition::RowPartition;
use super::ragged::{Array, Ragged};
use super::shared::Shared;
use super::tensor::Tensor;

/// The scalars of a columnar literal, in row-major order.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Python ints that all fit in int32 (TensorFlow's default dtype for them).
    I32(Shared<i32>),
    /// Python ints, one of which does not fit in int32.
    I64(Shared<i64>),
    /// Python floats.
    F64(Shared<f64>),
}

impl Values {
    /// How many scalars there are.
    pub fn len(&self) -> usize {
        match self {
            Values::I32(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::F64(v) => v.len(),
        }
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The scalar at `i` as the literal's leaf.
    fn leaf(&self, i: usize) -> Leaf {
        match self {
            Values::I32(v) => Leaf::Int(i64::from(v[i])),
            Values::I64(v) => Leaf::Int(v[i]),
            Values::F64(v) => Leaf::Float(v[i]),
        }
    }
    /// The dtype the scalars take without a `dtype=` argument.
    fn dtype(&self, flavor: Flavor) -> DType {
        match (self, flavor) {
            (Values::I32(_), Flavor::TensorFlow) => DType::Int32,
            (Values::I64(_), Flavor::TensorFlow) => DType::Int64,
            (Values::F64(_), Flavor::TensorFlow) => DType::Float32,
            (Values::I32(_) | Values::I64(_), Flavor::NumPy) => DType::Int64,
            (Values::F64(_), Flavor::NumPy) => DType::Float64,
        }
    }
    /// The scalars as a buffer of `dtype` (one the scalars take without a check, as
    /// `leaf_to_scalar` converts them; a buffer of their own dtype shares their storage);
    /// None for any other dtype.
    fn to_buffer(&self, dtype: DType) -> Option<Buffer> {
        /// Ints widen to int64 and anything becomes a float, as `tf.cast` does; the
        /// scalars' own dtype shares their storage.
        fn convert<S: Element>(v: &Shared<S>, dtype: DType) -> Option<Buffer> {
            if dtype == S::DTYPE {
                return Some(Buffer::from(v.clone()));
            }
            let widens = dtype.is_float() || (dtype == DType::Int64 && !S::DTYPE.is_float());
            widens.then(|| {
                crate::dispatch!(numbers dtype dtype, T => {
                    Buffer::from(v.iter().map(|x| x.cast::<T>()).collect::<Vec<T>>())
                }, _ => unreachable!("a numeric dtype"))
            })
        }
        match self {
            Values::I32(v) => convert(v, dtype),
            Values::I64(v) => convert(v, dtype),
            Values::F64(v) => convert(v, dtype),
        }
    }
}

/// A list literal whose scalars are all ints or all floats, all at the same depth, laid out
/// as a ragged tensor is: the values, and a row partition for each level of lists below
/// the outermost (shared with every tensor made from them).
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    /// `partitions[k]` partitions the items of the lists `k + 1` levels down (the next
    /// level's lists, or the values for the last); empty for a flat list of scalars.
    partitions: Vec<RowPartition>,
    values: Values,
}

impl Columns {
    /// Columns from the row splits of each level below the outermost (`splits[k]` covers
    /// the rows of `splits[k + 1]`, the last covers the values); None when they do not
    /// fit together.
    pub fn new(splits: Vec<Vec<i64>>, values: Values) -> Option<Columns> {
        let mut partitions = Vec::new();
        for s in splits {
            partitions.push(RowPartition::from_row_splits(s, None).ok()?);
        }
        let fits = partitions.windows(2).all(|w| w[0].nvals() == w[1].nrows())
            && partitions.last().is_none_or(|p| p.nvals() == values.len());
        fits.then_some(Columns { partitions, values })
    }
    /// The scalars.
    pub fn values(&self) -> &Values {
        &self.values
    }
    /// How many items the outermost list has.
    pub fn rows(&self) -> usize {
        match self.partitions.first() {
            Some(p) => p.nrows(),
            None => self.values.len(),
        }
    }
    /// The shape, when every list of each level has the same length (a rectangular literal).
    pub fn rect_shape(&self) -> Option<Vec<usize>> {
        let mut shape = vec![self.rows()];
        for p in &self.partitions {
            let s = p.row_splits();
            let first = s.get(1).map_or(0, |&e| e - s[0]);
            if s.windows(2).any(|w| w[1] - w[0] != first) {
                return None;
            }
            shape.push(first as usize);
        }
        Some(shape)
    }
    /// The Python list of lists these columns hold.
    pub fn to_nested(&self) -> Nested {
        let mut level: Vec<Nested> = (0..self.values.len())
            .map(|i| Nested::Leaf(self.values.leaf(i)))
            .collect();
        for p in self.partitions.iter().rev() {
            let s = p.row_splits();
            let mut items = level.into_iter();
            level = s
                .windows(2)
                .map(|w| Nested::List(items.by_ref().take((w[1] - w[0]) as usize).collect()))
                .collect();
        }
        Nested::List(level)
    }
    /// `tf.ragged.constant(literal)` with every argument at its default (int64 row splits):
    /// the tensor shares the values and row partitions (nothing is copied). A flat list
    /// gives a dense vector.
    pub fn to_ragged(&self) -> Result<Array> {
        let dtype = self.values.dtype(Flavor::TensorFlow);
        let data = self.values.to_buffer(dtype).expect("the values' own dtype");
        let flat = Tensor::new(vec![self.values.len()], data)?;
        if self.partitions.is_empty() {
            return Ok(Array::Dense(flat));
        }
        Ragged::new(self.partitions.clone(), flat).map(Array::Ragged)
    }
    /// `tf.constant(literal)` / `np.array(literal)` (by `flavor`) with `dtype` (None: the
    /// inferred one): a dense tensor when the literal is rectangular, else what
    /// [`Columns::to_ragged`] gives. None when `dtype` is one the scalars do not take
    /// without a check (the general conversion then reports or converts).
    pub fn to_array(&self, dtype: Option<DType>, flavor: Flavor) -> Option<Result<Array>> {
        let dtype = dtype.unwrap_or(self.values.dtype(flavor));
        match self.rect_shape() {
            Some(shape) => {
                let data = self.values.to_buffer(dtype)?;
                Some(Tensor::new(shape, data).map(Array::Dense))
            }
            None if flavor == Flavor::TensorFlow && dtype == self.values.dtype(flavor) => {
                Some(self.to_ragged())
            }
            None => None,
        }
    }
}

/// A list literal as the parser read it: a tree of items, or, for a large block of numbers,
/// [`Columns`] with the tree made from them on first use. Reads as the tree ([`Deref`]).
pub struct ListLiteral {
    columns: Option<Columns>,
    tree: OnceLock<Nested>,
}

impl ListLiteral {
    /// A literal held in columns.
    pub fn from_columns(columns: Columns) -> Self {
        ListLiteral {
            columns: Some(columns),
            tree: OnceLock::new(),
        }
    }
    /// The columns, for a literal read into them.
    pub fn columns(&self) -> Option<&Columns> {
        self.columns.as_ref()
    }
    /// The literal as a tree of items (made from the columns the first time).
    pub fn tree(&self) -> &Nested {
        self.tree.get_or_init(|| match &self.columns {
            Some(c) => c.to_nested(),
            None => Nested::List(Vec::new()),
        })
    }
}

impl From<Nested> for ListLiteral {
    fn from(n: Nested) -> Self {
        ListLiteral {
            columns: None,
            tree: OnceLock::from(n),
        }
    }
}

impl Deref for ListLiteral {
    type Target = Nested;
    fn deref(&self) -> &Nested {
        self.tree()
    }
}

impl Clone for ListLiteral {
    fn clone(&self) -> Self {
        match &self.columns {
            Some(c) => ListLiteral::from_columns(c.clone()),
            None => ListLiteral::from(self.tree().clone()),
        }
    }
}

impl PartialEq for ListLiteral {
    fn eq(&self, other: &Self) -> bool {
        match (&self.columns, &other.columns) {
            (Some(a), Some(b)) => a == b,
            _ => self.tree() == other.tree(),
        }
    }
}

impl fmt::Debug for ListLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.tree().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal::{constant, ragged_constant};

    fn ints(splits: Vec<Vec<i64>>, v: Vec<i64>) -> Columns {
        // As the parser stores them: int32 when every int fits.
        let values = match v
            .iter()
            .map(|&x| i32::try_from(x))
            .collect::<Result<Vec<i32>, _>>()
        {
            Ok(small) => Values::I32(Shared::from(small)),
            Err(_) => Values::I64(v.into()),
        };
        Columns::new(splits, values).unwrap()
    }

    #[test]
    fn columns_convert_as_their_tree_does() {
        let cases = [
            ints(vec![vec![0, 2, 2, 5]], vec![1, 2, 3, 4, 5]),
            ints(vec![vec![0, 2, 4]], vec![1, 2, 3, 1 << 40]),
            ints(vec![], vec![7, 8]),
            ints(vec![vec![0, 1, 3], vec![0, 2, 2, 3]], vec![1, 2, 3]),
            Columns::new(
                vec![vec![0, 3, 3]],
                Values::F64(vec![0.5, -1.0, 2.25].into()),
            )
            .unwrap(),
            Columns::new(vec![vec![0, 2, 4]], Values::I32(vec![1, -2, 3, 4].into())).unwrap(),
        ];
        for c in cases {
            let tree = c.to_nested();
            assert_eq!(
                c.to_ragged().ok(),
                ragged_constant(&tree, None, None, None).ok(),
                "{tree:?}"
            );
            for flavor in [Flavor::TensorFlow, Flavor::NumPy] {
                if let Some(a) = c.to_array(None, flavor) {
                    let want = match constant(&tree, None, flavor) {
                        Ok(t) => Array::Dense(t),
                        Err(_) => ragged_constant(&tree, None, None, None).unwrap(),
                    };
                    assert_eq!(a.ok(), Some(want), "{tree:?}");
                }
            }
        }
    }
}
