//! Ragged tensors: flat values plus a stack of row partitions, outermost first.

use super::buffer::{Buffer, Scalar};
use super::dtype::DType;
use super::element::Element;
use super::error::Result;
use super::partition::RowPartition;
use super::tensor::{normalize_index, Tensor};
use crate::budget;
use crate::{index_error, invalid_arg, value_error};

/// A ragged tensor: `partitions[0]` splits the outermost dimension; the last partition's
/// values are the rows of `flat_values`, a dense tensor holding the uniform inner dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct Ragged {
    partitions: Vec<RowPartition>,
    flat_values: Tensor,
}

/// A dense or ragged tensor: what indexing, `values` and most ops return.
#[derive(Debug, Clone, PartialEq)]
pub enum Array {
    /// A dense tensor.
    Dense(Tensor),
    /// A ragged tensor.
    Ragged(Ragged),
}

/// One dimension of a tensor's static shape: a size, or `None` for a ragged dimension.
pub type Dim = Option<usize>;

impl Ragged {
    /// A ragged tensor from partitions (outermost first) and flat values; checks that
    /// each partition's values are the next one's rows.
    ///
    /// ```
    /// use ragtag_engine::{Ragged, RowPartition, Tensor};
    ///
    /// // [[[1, 2], [3]], [[4, 5, 6]]]: two rows of sentences, sentences of tokens.
    /// let outer = RowPartition::from_row_lengths(&[2, 1], None).unwrap();
    /// let inner = RowPartition::from_row_lengths(&[2, 1, 3], None).unwrap();
    /// let rt = Ragged::new(vec![outer, inner], Tensor::from_i64(vec![1, 2, 3, 4, 5, 6])).unwrap();
    /// assert_eq!((rt.nrows(), rt.ragged_rank()), (2, 2));
    /// assert_eq!(rt.shape(), vec![Some(2), None, None]);
    ///
    /// // Each partition must cover the next one's rows.
    /// let short = RowPartition::from_row_lengths(&[1, 1], None).unwrap();
    /// assert!(Ragged::new(vec![short], Tensor::from_i64(vec![1, 2, 3])).is_err());
    /// ```
    pub fn new(partitions: Vec<RowPartition>, flat_values: Tensor) -> Result<Ragged> {
        if partitions.is_empty() {
            return Err(value_error!(
                "a ragged tensor needs at least one row partition"
            ));
        }
        if flat_values.rank() == 0 {
            return Err(value_error!(
                "the flat values of a ragged tensor must have rank >= 1"
            ));
        }
        for k in 0..partitions.len() {
            let nvals = partitions[k].nvals();
            let next = match partitions.get(k + 1) {
                Some(p) => p.nrows(),
                None => flat_values.shape()[0],
            };
            if nvals != next {
                return Err(value_error!(
                    "row partition {k} covers {nvals} values, but there are {next}"
                ));
            }
        }
        Ok(Ragged {
            partitions,
            flat_values,
        })
    }

    /// Wraps `values` (dense or ragged) in one more outer partition.
    pub fn from_partition(partition: RowPartition, values: Array) -> Result<Ragged> {
        match values {
            Array::Dense(t) => Ragged::new(vec![partition], t),
            Array::Ragged(r) => {
                let mut parts = budget::vec("a ragged tensor", r.partitions.len() + 1)?;
                parts.push(partition);
                parts.extend(r.partitions);
                Ragged::new(parts, r.flat_values)
            }
        }
    }

    /// `RaggedTensor.from_tensor(t, ragged_rank)` without padding or lengths: the outer
    /// `ragged_rank` dimensions of a dense tensor become uniform row partitions.
    pub fn from_tensor_uniform(t: &Tensor, ragged_rank: usize) -> Result<Ragged> {
        if ragged_rank == 0 || t.rank() <= ragged_rank {
            return Err(value_error!(
                "a tensor of rank {} cannot have ragged_rank {ragged_rank} (need 1 <= ragged_rank < rank)",
                t.rank()
            ));
        }
        let shape = t.shape();
        let mut partitions = budget::vec("a ragged tensor", ragged_rank)?;
        let mut nrows = shape[0];
        for &len in &shape[1..=ragged_rank] {
            let p =
                RowPartition::from_uniform_row_length(len as i64, nrows * len, Some(nrows as i64))?;
            partitions.push(p);
            nrows *= len;
        }
        let mut flat_shape = vec![nrows];
        flat_shape.extend_from_slice(&shape[ragged_rank + 1..]);
        Ragged::new(partitions, t.clone().with_shape(flat_shape))
    }

    /// Adds uniform partitions over the flat values' outer dimensions until the ragged rank
    /// is `ragged_rank` (TensorFlow's `_increase_ragged_rank_to`).
    pub fn with_ragged_rank(self, ragged_rank: usize) -> Result<Ragged> {
        let have = self.ragged_rank();
        if have >= ragged_rank {
            return Ok(self);
        }
        let inner = Ragged::from_tensor_uniform(&self.flat_values, ragged_rank - have)?;
        let mut partitions = self.partitions;
        partitions.extend(inner.partitions);
        Ragged::new(partitions, inner.flat_values)
    }

    /// The row partitions, outermost first.
    pub fn partitions(&self) -> &[RowPartition] {
        &self.partitions
    }
    /// The outermost partition.
    pub fn outer(&self) -> &RowPartition {
        &self.partitions[0]
    }
    /// The innermost dense values.
    pub fn flat_values(&self) -> &Tensor {
        &self.flat_values
    }
    /// Number of partitions: the number of ragged (partitioned) dimensions.
    pub fn ragged_rank(&self) -> usize {
        self.partitions.len()
    }
    /// Total rank.
    pub fn rank(&self) -> usize {
        self.partitions.len() + self.flat_values.rank()
    }
    /// Element dtype.
    pub fn dtype(&self) -> DType {
        self.flat_values.dtype()
    }
    /// Number of rows of the outermost dimension.
    pub fn nrows(&self) -> usize {
        self.partitions[0].nrows()
    }
    /// The static shape: `None` for ragged dimensions, sizes for uniform ones.
    pub fn shape(&self) -> Vec<Dim> {
        let mut s = vec![Some(self.nrows())];
        for p in &self.partitions {
            s.push(p.uniform_row_length().map(|u| u as usize));
        }
        s.extend(self.flat_values.shape()[1..].iter().map(|&d| Some(d)));
        s
    }
    /// The values one level down: a ragged tensor or, at the last level, the flat values.
    pub fn values(&self) -> Array {
        if self.partitions.len() == 1 {
            Array::Dense(self.flat_values.clone())
        } else {
            Array::Ragged(Ragged {
                partitions: self.partitions[1..].to_vec(),
                flat_values: self.flat_values.clone(),
            })
        }
    }
    /// The dtype of the row-partitioning tensors (`row_splits_dtype`).
    pub fn row_splits_dtype(&self) -> DType {
        self.partitions[0].splits_dtype()
    }
    /// The same tensor with every partition's row-partitioning tensors shown as `dtype`.
    pub fn with_row_splits_dtype(mut self, dtype: DType) -> Ragged {
        for p in &mut self.partitions {
            *p = p.clone().with_splits_dtype(dtype);
        }
        self
    }
    /// The same tensor with the outer `levels` partitions no longer marked uniform (their
    /// static sizes become None).
    pub fn without_uniform(mut self, levels: usize) -> Ragged {
        for p in self.partitions.iter_mut().take(levels) {
            *p = p.clone().with_uniform(None);
        }
        self
    }
    /// Same partitions, new flat values (which must have as many rows).
    pub fn with_flat_values(&self, flat_values: Tensor) -> Result<Ragged> {
        Ragged::new(self.partitions.clone(), flat_values)
    }
    /// Same outer partition, new values.
    pub fn with_values(&self, values: Array) -> Result<Ragged> {
        Ragged::from_partition(self.partitions[0].clone(), values)
    }
    /// Row `i` (negative counts from the end) as a dense or ragged tensor.
    pub fn row(&self, i: i64) -> Result<Array> {
        let n = self.nrows();
        let k = normalize_index(i, n).ok_or_else(|| {
            index_error!("row index {i} is out of bounds: this ragged tensor has {n} rows")
        })?;
        let (a, b) = self.partitions[0].row_range(k);
        if self.partitions.len() == 1 {
            return Ok(Array::Dense(self.flat_values.rows(a, b)));
        }
        Ok(Array::Ragged(self.slice_level(1, a, b)))
    }
    /// Rows `start..end` (a contiguous range of the outer dimension).
    pub fn slice_rows(&self, start: usize, end: usize) -> Ragged {
        self.slice_level(0, start, end)
    }
    /// Rows `start..end` of the dimension partitioned by `partitions[level]`, with everything
    /// below them; only the selected part is copied (indexing a row in a loop stays linear).
    fn slice_level(&self, level: usize, start: usize, end: usize) -> Ragged {
        let mut partitions = Vec::new();
        let (mut a, mut b) = (start, end);
        for p in &self.partitions[level..] {
            let splits = &p.row_splits()[a..=b];
            let base = splits[0];
            let new_splits: Vec<i64> = splits.iter().map(|s| s - base).collect();
            let part = RowPartition::from_row_splits(new_splits, None)
                .expect("a slice of valid splits is valid")
                .with_uniform(p.uniform_row_length())
                .with_splits_dtype(p.splits_dtype());
            partitions.push(part);
            (a, b) = (base as usize, splits[splits.len() - 1] as usize);
        }
        Ragged {
            partitions,
            flat_values: self.flat_values.rows(a, b),
        }
    }
    /// The rows at `indices` of the outer dimension, in order.
    pub fn gather_rows(&self, indices: &[usize]) -> Ragged {
        let outer = &self.partitions[0];
        // One entry per row picked; the caller checked the result's size (see
        // `ops::gather`).
        let mut lengths = Vec::new();
        let mut ranges = Vec::new();
        for &i in indices {
            let (a, b) = outer.row_range(i);
            lengths.push((b - a) as i64);
            ranges.push((a, b));
        }
        let part = RowPartition::from_row_lengths(&lengths, None)
            .expect("lengths of existing rows are valid")
            .with_uniform(outer.uniform_row_length())
            .with_splits_dtype(outer.splits_dtype());
        let values = self.values().gather_ranges(&ranges);
        Ragged::from_partition(part, values).expect("gathered rows are consistent")
    }

    /// The length of each row of the outer dimension.
    pub fn row_lengths(&self) -> &[i64] {
        self.partitions[0].row_lengths()
    }

    /// The tightest dense shape holding every row (`bounding_shape`).
    pub fn bounding_shape(&self) -> Vec<usize> {
        let mut shape = vec![self.nrows()];
        for p in &self.partitions {
            shape.push(p.max_row_length());
        }
        shape.extend_from_slice(&self.flat_values.shape()[1..]);
        shape
    }

    /// Pads every row to a dense tensor of `shape` (default: the bounding shape), filling with
    /// `default`; rows longer than the shape are truncated, as `RaggedTensor.to_tensor` does.
    pub fn to_tensor(&self, default: &Scalar, shape: Option<&[Option<usize>]>) -> Result<Tensor> {
        let bounding = self.bounding_shape();
        let mut target = bounding.clone();
        if let Some(shape) = shape {
            if shape.len() != target.len() {
                return Err(invalid_arg!(
                    "shape has rank {}, but the ragged tensor has rank {}",
                    shape.len(),
                    target.len()
                ));
            }
            // The dense inner dimensions (those of the flat values) cannot be padded or cut.
            let first_inner = self.ragged_rank() + 1;
            for (d, (t, s)) in target.iter_mut().zip(shape).enumerate() {
                if let Some(s) = s {
                    if d >= first_inner && *s != *t {
                        return Err(invalid_arg!(
                            "shape[{d}] is {s}, but that dimension of the values has size {t}: only ragged dimensions and the outermost one can be padded or cut"
                        ));
                    }
                    *t = *s;
                }
            }
        }
        if default.dtype() != self.dtype() {
            return Err(invalid_arg!(
                "default_value has dtype {}, but the tensor has dtype {}",
                default.dtype(),
                self.dtype()
            ));
        }
        let total = crate::budget::check_shape("to_tensor", &target, self.dtype().item_bytes())?;
        let mut out = Buffer::try_filled("to_tensor", default, total)?;
        if self.ragged_rank() == 1 {
            // The common case of one ragged dimension (the values' inner dimensions, whose
            // shape the target keeps, ride along as blocks of `block` elements): copy each
            // row's run of values into its padded row.
            let width = target[1];
            let block = self.flat_values.row_size();
            let splits = self.outer().row_splits();
            let rows = self.nrows().min(target[0]);
            /// Each row's run of values (cut to `width`) at the start of its padded row.
            fn copy_rows<T: Element>(
                o: &mut [T],
                v: &[T],
                splits: &[i64],
                width: usize,
                block: usize,
            ) {
                for (r, w) in splits.windows(2).enumerate() {
                    let (a, b) = (w[0] as usize, w[1] as usize);
                    let n = (b - a).min(width);
                    let at = r * width * block;
                    o[at..at + n * block].copy_from_slice(&v[a * block..(a + n) * block]);
                }
            }
            let splits = &splits[..=rows];
            crate::dispatch!(elements pair (&mut out, self.flat_values.data()), (o, v) => {
                copy_rows(o, v, splits, width, block)
            }, _ => return self.to_tensor_general(out, target, default));
            return Tensor::new(target, out);
        }
        self.to_tensor_general(out, target, default)
    }

    /// `to_tensor` for any ragged rank: walks the partitions level by level.
    fn to_tensor_general(
        &self,
        mut out: Buffer,
        target: Vec<usize>,
        default: &Scalar,
    ) -> Result<Tensor> {
        // Strides of the target in elements (their product is the checked element count).
        let rank = target.len();
        let mut strides = crate::budget::filled("to_tensor", 1usize, rank)?;
        for d in (0..rank.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * target[d + 1];
        }
        let inner_shape = &self.flat_values.shape()[1..];
        let rr = self.ragged_rank();
        // Walk each level: (offset in output, index at this level) pairs that fit the target.
        let mut frontier: Vec<(usize, usize)> = (0..self.nrows().min(target[0]))
            .map(|i| (i * strides[0], i))
            .collect();
        for (level, p) in self.partitions.iter().enumerate() {
            let mut next = crate::budget::vec("to_tensor", frontier.len())?;
            let lim = target[level + 1];
            for &(off, i) in &frontier {
                let (a, b) = p.row_range(i);
                for (j, v) in (a..b).enumerate().take(lim) {
                    next.push((off + j * strides[level + 1], v));
                }
            }
            frontier = next;
        }
        // Each frontier entry is one row of flat_values; copy its (possibly clipped) block.
        let fv = self.flat_values.data();
        let fv_row = self.flat_values.row_size();
        let mut buf_updates: Vec<(usize, usize)> = Vec::new();
        if inner_shape == &target[rr + 1..] {
            for &(off, v) in &frontier {
                buf_updates.push((off, v * fv_row));
            }
            write_blocks(&mut out, fv, &buf_updates, fv_row, default)?;
        } else {
            // Clip inner dense dimensions element by element (rare: an explicit smaller shape).
            let inner_target = &target[rr + 1..];
            for &(off, v) in &frontier {
                for_each_inner(inner_shape, inner_target, &mut |src, dst| {
                    buf_updates.push((off + dst, v * fv_row + src));
                });
            }
            write_blocks(&mut out, fv, &buf_updates, 1, default)?;
        }
        Tensor::new(target, out)
    }
}

/// Copies `len`-element blocks `src[s..s+len]` to `out[d..d+len]` for each `(d, s)`.
fn write_blocks(
    out: &mut Buffer,
    src: &Buffer,
    blocks: &[(usize, usize)],
    len: usize,
    default: &Scalar,
) -> Result<()> {
    /// The blocks of one element type.
    fn copy<T: Element>(o: &mut [T], s: &[T], blocks: &[(usize, usize)], len: usize) {
        for &(d, s0) in blocks {
            o[d..d + len].copy_from_slice(&s[s0..s0 + len]);
        }
    }
    crate::dispatch!(elements pair (out, src), (o, s) => copy(o, s, blocks, len),
        (Buffer::Str(o), Buffer::Str(s)) => {
            // Strings have variable width: rebuild the column in output order.
            let n = o.len();
            let mut src_of: Vec<Option<usize>> = crate::budget::filled("to_tensor", None, n)?;
            for &(d, si) in blocks {
                for k in 0..len {
                    src_of[d + k] = Some(si + k);
                }
            }
            let fill: &[u8] = match default {
                Scalar::Str(s) => s,
                _ => unreachable!("to_tensor checked the dtype"),
            };
            let longest = s.iter().map(<[u8]>::len).max().unwrap_or(0).max(fill.len());
            crate::budget::check("to_tensor", n as u128, longest.saturating_add(8))?;
            let mut rebuilt = super::strings::StringBuf::try_with_capacity("to_tensor", n, 0)?;
            for slot in src_of {
                match slot {
                    Some(i) => rebuilt.push(s.get(i)),
                    None => rebuilt.push(fill),
                }
            }
            *o = rebuilt;
        }
        _ => unreachable!("to_tensor checked the dtype"),
    );
    Ok(())
}

/// Calls `f(src_offset, dst_offset)` for each element of the overlap of two row-major shapes.
fn for_each_inner(src: &[usize], dst: &[usize], f: &mut dyn FnMut(usize, usize)) {
    fn rec(src: &[usize], dst: &[usize], so: usize, doff: usize, f: &mut dyn FnMut(usize, usize)) {
        if src.is_empty() {
            f(so, doff);
            return;
        }
        let ss: usize = src[1..].iter().product();
        let ds: usize = dst[1..].iter().product();
        for i in 0..src[0].min(dst[0]) {
            rec(&src[1..], &dst[1..], so + i * ss, doff + i * ds, f);
        }
    }
    rec(src, dst, 0, 0, f)
}

impl Array {
    /// Element dtype.
    pub fn dtype(&self) -> DType {
        match self {
            Array::Dense(t) => t.dtype(),
            Array::Ragged(r) => r.dtype(),
        }
    }
    /// Rank.
    pub fn rank(&self) -> usize {
        match self {
            Array::Dense(t) => t.rank(),
            Array::Ragged(r) => r.rank(),
        }
    }
    /// Static shape (`None` for ragged dimensions).
    pub fn shape(&self) -> Vec<Dim> {
        match self {
            Array::Dense(t) => t.shape().iter().map(|&d| Some(d)).collect(),
            Array::Ragged(r) => r.shape(),
        }
    }
    /// Size of the outer dimension.
    pub fn nrows(&self) -> usize {
        match self {
            Array::Dense(t) => t.shape().first().copied().unwrap_or(0),
            Array::Ragged(r) => r.nrows(),
        }
    }
    /// Rows `start..end` of the outer dimension.
    pub fn slice_rows(&self, start: usize, end: usize) -> Array {
        match self {
            Array::Dense(t) => Array::Dense(t.rows(start, end)),
            Array::Ragged(r) => Array::Ragged(r.slice_rows(start, end)),
        }
    }
    /// The concatenation of the given row ranges of the outer dimension.
    pub fn gather_ranges(&self, ranges: &[(usize, usize)]) -> Array {
        match self {
            Array::Dense(t) => {
                let rs = t.row_size();
                let n: usize = ranges.iter().map(|(a, b)| b - a).sum();
                let mut shape = t.shape().to_vec();
                shape[0] = n;
                let data = if rs == 1 {
                    t.data().gather_ranges(ranges)
                } else {
                    let scaled: Vec<_> = ranges.iter().map(|&(a, b)| (a * rs, b * rs)).collect();
                    t.data().gather_ranges(&scaled)
                };
                Array::Dense(Tensor::from_parts(shape, data))
            }
            Array::Ragged(r) => {
                let idx: Vec<usize> = ranges.iter().flat_map(|&(a, b)| a..b).collect();
                Array::Ragged(r.gather_rows(&idx))
            }
        }
    }
    /// Rows at `indices` of the outer dimension.
    pub fn gather_rows(&self, indices: &[usize]) -> Array {
        match self {
            Array::Dense(t) => Array::Dense(t.gather_rows(indices)),
            Array::Ragged(r) => Array::Ragged(r.gather_rows(indices)),
        }
    }
    /// Row `i` of the outer dimension.
    pub fn row(&self, i: i64) -> Result<Array> {
        match self {
            Array::Dense(t) => t.row(i).map(Array::Dense),
            Array::Ragged(r) => r.row(i),
        }
    }
    /// The flat innermost values.
    pub fn flat_values(&self) -> &Tensor {
        match self {
            Array::Dense(t) => t,
            Array::Ragged(r) => r.flat_values(),
        }
    }
    /// The ragged rank (0 for dense).
    pub fn ragged_rank(&self) -> usize {
        match self {
            Array::Dense(_) => 0,
            Array::Ragged(r) => r.ragged_rank(),
        }
    }
}

#[cfg(test)]
mod hostile_tests {
    use super::*;
    use crate::strings::StringBuf;
    use crate::ExceptionClass;

    fn strings(lengths: &[i64], items: &[&str]) -> Ragged {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        let v = Tensor::vector(Buffer::Str(StringBuf::from_strs(items.iter().copied())));
        Ragged::new(vec![p], v).unwrap()
    }

    #[test]
    fn padding_empty_string_tensors() {
        let empty = Scalar::Str(Vec::new());
        // No values at all: the padded tensor is empty, and nothing reads a first element.
        let t = strings(&[0, 0], &[])
            .to_tensor(&empty, Some(&[Some(1), Some(0)]))
            .unwrap();
        assert_eq!(t.shape(), &[1, 0]);
        // None keeps the natural size.
        let t = strings(&[1], &["a"])
            .to_tensor(&empty, Some(&[None, None]))
            .unwrap();
        assert_eq!(t.shape(), &[1, 1]);
        let dash = Scalar::Str(b"-".to_vec());
        let t = strings(&[2, 1], &["a", "b", "c"])
            .to_tensor(&dash, Some(&[None, Some(3)]))
            .unwrap();
        let Buffer::Str(b) = t.data() else { panic!() };
        let got: Vec<String> = (0..b.len()).map(|i| b.get_str(i).into_owned()).collect();
        assert_eq!(got, ["a", "b", "-", "c", "-", "-"]);
    }

    #[test]
    fn padding_past_the_budget_or_int64_fails() {
        let r = strings(&[1], &["a"]);
        let empty = Scalar::Str(Vec::new());
        let e = r
            .to_tensor(&empty, Some(&[Some(1 << 62), Some(1 << 62)]))
            .unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        let e = r
            .to_tensor(&empty, Some(&[Some(1 << 40), Some(1 << 20)]))
            .unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
    }
}
