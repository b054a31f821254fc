//! Between sparse and dense: `to_dense`, `from_dense`, `sparse_to_dense`, `to_indicator`.

use super::{dense_strides, flat_offset, index_text, Sparse};
use crate::buffer::{Buffer, Scalar};
use crate::element::Element;
use crate::error::Result;
use crate::size::dense_shape_str;
use crate::strings::StringBuf;
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, type_error};

/// A buffer of `n` copies of `default` with `values[k]` written at `positions[k]` (later
/// writes win, as TensorFlow's unvalidated scatter does).
pub(crate) fn scatter(
    default: &Scalar,
    n: usize,
    positions: &[usize],
    values: &Buffer,
) -> Result<Buffer> {
    const WHAT: &str = "a dense tensor";
    /// `n` copies of `d`, then the values written at their positions.
    fn fill<T: Element>(d: T, n: usize, positions: &[usize], v: &[T]) -> Result<Buffer> {
        let mut out = budget::filled(WHAT, d, n)?;
        for (k, &p) in positions.iter().enumerate() {
            out[p] = v[k];
        }
        Ok(Buffer::from(out))
    }
    fn mismatch(default: &Scalar, values: &Buffer) -> ! {
        unreachable!("scatter: default {default:?} vs values {}", values.dtype())
    }
    crate::dispatch!(elements values, T: v => {
        let d = T::from_scalar(default).unwrap_or_else(|| mismatch(default, values));
        fill(d, n, positions, v)
    }, Buffer::Str(v) => {
        let Scalar::Str(d) = default else {
            mismatch(default, values)
        };
        // Strings have variable width: note which value lands where, then build once.
        let mut src = budget::filled(WHAT, usize::MAX, n)?;
        for (k, &p) in positions.iter().enumerate() {
            src[p] = k;
        }
        let fill_bytes = size::mul(d.len(), n.saturating_sub(positions.len()))?;
        let bytes = size::add(v.bytes().len(), fill_bytes)?;
        let mut out = StringBuf::try_with_capacity(WHAT, n, bytes)?;
        for s in src {
            out.push(if s == usize::MAX { d } else { v.get(s) });
        }
        Ok(Buffer::Str(out))
    })
}

/// The flat positions of a buffer's non-default elements (non-zero, `True`, non-empty).
fn nonzero_positions(b: &Buffer) -> Vec<usize> {
    fn pick<T: Element>(v: &[T]) -> Vec<usize> {
        // NaN is not equal to zero, so TensorFlow keeps it; so does `!=`.
        v.iter()
            .enumerate()
            .filter(|(_, &x)| x != T::default())
            .map(|(i, _)| i)
            .collect()
    }
    crate::dispatch!(elements b, v => pick(v),
        Buffer::Str(s) => (0..s.len()).filter(|&i| !s.get(i).is_empty()).collect())
}

impl Sparse {
    /// The dense tensor (`tf.sparse.to_dense`): `default` everywhere, the values at their
    /// indices. With `validate` the indices must also be sorted and distinct.
    pub fn to_dense(&self, default: &Scalar, validate: bool) -> Result<Tensor> {
        if default.dtype() != self.dtype() {
            return Err(type_error!(
                "default_value has dtype {}, but the values have dtype {}",
                default.dtype(),
                self.dtype()
            ));
        }
        if validate {
            self.check_indices()?;
        } else {
            self.check_bounds()?;
        }
        let shape = self.shape_usize();
        let (strides, total) = dense_strides(&shape, self.dtype().item_bytes())?;
        let positions: Vec<usize> = (0..self.nnz())
            .map(|i| flat_offset(self.index(i), &strides))
            .collect();
        Ok(Tensor::from_parts(
            shape,
            scatter(default, total, &positions, self.values.data())?,
        ))
    }

    /// The non-default elements of a dense tensor (`tf.sparse.from_dense`): zeros, `False`
    /// and empty strings are left implicit.
    pub fn from_dense(t: &Tensor) -> Sparse {
        let positions = nonzero_positions(t.data());
        let shape = t.shape();
        // One index row per stored element of an existing tensor: no larger than it times
        // its rank, so it grows as it is filled.
        let mut indices = Vec::new();
        #[allow(clippy::disallowed_methods)] // rank-sized
        let mut idx = vec![0i64; shape.len()];
        for &p in &positions {
            let mut rest = p;
            for d in (0..shape.len()).rev() {
                idx[d] = (rest % shape[d]) as i64;
                rest /= shape[d];
            }
            indices.extend_from_slice(&idx);
        }
        Sparse::from_parts(
            indices,
            Tensor::vector(t.data().gather(&positions)),
            shape.iter().map(|&d| d as i64).collect(),
        )
    }

    /// `tf.sparse.to_indicator`: a bool tensor whose last dimension is `vocab_size`, true at
    /// `[index[:-1]…, value]` for every stored (integer) value.
    pub fn to_indicator(&self, vocab_size: i64) -> Result<Tensor> {
        let values = self
            .values
            .data()
            .to_i64_vec()
            .filter(|_| self.dtype().is_int())
            .ok_or_else(|| {
                type_error!(
                    "to_indicator needs integer values (ids below vocab_size), not {}",
                    self.dtype()
                )
            })?;
        if self.rank() == 0 {
            return Err(invalid_arg!(
                "to_indicator needs a sparse tensor of rank at least 1, not a scalar"
            ));
        }
        if vocab_size < 0 {
            return Err(invalid_arg!(
                "vocab_size must be non-negative, not {vocab_size}"
            ));
        }
        self.check_bounds()?;
        let r = self.rank();
        let mut shape = self.shape_usize();
        shape[r - 1] = vocab_size as usize;
        let (strides, total) = dense_strides(&shape, 1)?;
        let mut out = budget::filled("tf.sparse.to_indicator", false, total)?;
        for (i, &v) in values.iter().enumerate() {
            if v < 0 || v >= vocab_size {
                return Err(invalid_arg!(
                    "values[{i}] = {v} (at indices[{i}] = {}) is not a valid id: it must satisfy 0 <= id < vocab_size = {vocab_size}",
                    index_text(self.index(i))
                ));
            }
            let idx = self.index(i);
            let p = flat_offset(&idx[..r - 1], &strides[..r - 1]) + v as usize;
            out[p] = true;
        }
        Ok(Tensor::from_parts(shape, Buffer::from(out)))
    }

    /// The elements of `t`, broadcast to the dense shape, at each stored index — what a
    /// sparse-dense elementwise op (`st * t`) combines with the values. Only `t` broadcasts.
    pub fn dense_at_indices(&self, t: &Tensor) -> Result<Buffer> {
        let r = self.rank();
        let ts = t.shape();
        let fits = ts.len() <= r
            && ts
                .iter()
                .rev()
                .zip(self.dense_shape.iter().rev())
                .all(|(&d, &n)| d == 1 || d as i64 == n);
        if !fits {
            return Err(invalid_arg!(
                "a tensor of shape {} does not broadcast to the sparse tensor's dense_shape {}",
                dense_shape_str(ts),
                dense_shape_str(&self.dense_shape)
            )
            .with_hint("only the dense side broadcasts: its dimensions must be 1 or match, aligned from the right"));
        }
        if t.size() == 1 {
            return Ok(t
                .data()
                .gather(&budget::filled("a sparse lookup", 0, self.nnz())?));
        }
        self.check_bounds()?;
        let (strides, _) = dense_strides(ts, 1)?;
        let skip = r - ts.len();
        let positions: Vec<usize> = (0..self.nnz())
            .map(|i| {
                let idx = &self.index(i)[skip..];
                idx.iter()
                    .zip(ts)
                    .zip(&strides)
                    .map(|((&x, &d), &st)| if d == 1 { 0 } else { x as usize * st })
                    .sum()
            })
            .collect();
        Ok(t.data().gather(&positions))
    }

    /// `tf.sparse.add` of a sparse and a dense tensor of the same shape: a dense tensor.
    pub fn add_dense(&self, dense: &Tensor) -> Result<Tensor> {
        let shape = self.shape_usize();
        if dense.shape() != shape.as_slice() {
            return Err(invalid_arg!(
                "the sparse tensor has dense_shape {}, but the dense tensor has shape {}; they must match",
                dense_shape_str(&self.dense_shape),
                dense_shape_str(dense.shape())
            ));
        }
        if dense.dtype() != self.dtype() {
            return Err(type_error!(
                "cannot add a {} sparse tensor and a {} dense tensor",
                self.dtype(),
                dense.dtype()
            ));
        }
        self.check_bounds()?;
        let (strides, _) = dense_strides(&shape, 1)?;
        let data = crate::dispatch!(numbers pair (dense.data(), self.values.data()), (d, v) => {
            let mut out = d.to_vec();
            for (k, &x) in v.iter().enumerate() {
                let p = flat_offset(self.index(k), &strides);
                out[p] = out[p].plus(x);
            }
            Buffer::from(out)
        }, _ => return Err(type_error!("tf.sparse.add needs numbers, not {}", self.dtype())));
        Ok(Tensor::from_parts(shape, data))
    }
}

/// `tf.sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value)`:
/// `indices` is a scalar (one position of a vector), a vector (positions of a vector) or an
/// `[n, rank]` matrix; `values` is one value for every position or one per position.
pub fn sparse_to_dense(
    indices: &Tensor,
    output_shape: &[i64],
    values: &Tensor,
    default: &Scalar,
    validate: bool,
) -> Result<Tensor> {
    let idx = indices
        .to_i64_vec()
        .filter(|_| indices.dtype().is_int())
        .ok_or_else(|| invalid_arg!("sparse_indices must be integers, not {}", indices.dtype()))?;
    let (n, d) = match indices.shape() {
        [] => (1, 1),
        [n] => (*n, 1),
        [n, d] => (*n, *d),
        s => {
            return Err(invalid_arg!(
            "sparse_indices must be a scalar, a vector or an [n, rank] matrix, but has shape {}",
            dense_shape_str(s)
        ))
        }
    };
    if d != output_shape.len() {
        return Err(invalid_arg!(
            "each index has {d} coordinate{}, but output_shape {} has rank {}",
            if d == 1 { "" } else { "s" },
            dense_shape_str(output_shape),
            output_shape.len()
        ));
    }
    let vals = match values.shape() {
        [] => values
            .data()
            .gather(&budget::filled("a sparse-dense conversion", 0, n)?),
        [m] if *m == n => values.data().clone(),
        s => {
            return Err(invalid_arg!(
                "sparse_values must be one value or one per index ({n}), but has shape {}",
                dense_shape_str(s)
            ))
        }
    };
    if let Some(x) = output_shape.iter().find(|&&x| x < 0) {
        return Err(invalid_arg!(
            "output_shape must be non-negative, but holds {x}"
        ));
    }
    let sp = Sparse::new(idx, Tensor::vector(vals), output_shape.to_vec())?;
    sp.to_dense(default, validate)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rows, sp};
    use super::*;
    use crate::ExceptionClass;

    fn i32s(t: &Tensor) -> Vec<i32> {
        match t.data() {
            Buffer::I32(v) => v.to_vec(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn to_dense_fills_the_default() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let d = a.to_dense(&Scalar::I32(11), true).unwrap();
        assert_eq!(d.shape(), &[3, 5]);
        assert_eq!(
            i32s(&d),
            vec![11, 1, 11, 2, 11, 11, 11, 11, 11, 11, 3, 11, 11, 11, 11]
        );
    }

    #[test]
    fn to_dense_validates() {
        let oob = sp(&[&[4, 1], &[1, 2]], &[1, 2], &[3, 4]);
        assert_eq!(
            oob.to_dense(&Scalar::I32(0), true).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert_eq!(
            oob.to_dense(&Scalar::I32(0), false).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        let unordered = sp(&[&[2, 1], &[0, 3]], &[1, 2], &[3, 5]);
        assert_eq!(
            unordered.to_dense(&Scalar::I32(0), true).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert!(unordered.to_dense(&Scalar::I32(0), false).is_ok());
        assert_eq!(
            unordered
                .to_dense(&Scalar::I64(0), false)
                .unwrap_err()
                .class,
            ExceptionClass::TypeError
        );
    }

    #[test]
    fn strings_scatter() {
        let s = Sparse::new(
            vec![0, 2, 1, 0],
            Tensor::vector(Buffer::Str(StringBuf::from_strs(["a", "b"]))),
            vec![2, 3],
        )
        .unwrap();
        let d = s.to_dense(&Scalar::Str(b"-".to_vec()), true).unwrap();
        let Buffer::Str(b) = d.data() else { panic!() };
        let got: Vec<String> = (0..b.len()).map(|i| b.get_str(i).into_owned()).collect();
        assert_eq!(got, ["-", "-", "a", "b", "-", "-"]);
    }

    #[test]
    fn from_dense_keeps_nonzeros() {
        let t = Tensor::new(vec![2, 2], Buffer::from(vec![1i32, 0, 0, 2])).unwrap();
        let s = Sparse::from_dense(&t);
        assert_eq!(rows(&s), vec![vec![0, 0], vec![1, 1]]);
        assert_eq!(s.dense_shape(), &[2, 2]);
        assert_eq!(s.to_dense(&Scalar::I32(0), true).unwrap(), t);
    }

    #[test]
    fn sparse_to_dense_shapes_of_indices() {
        let m = Tensor::new(vec![2, 2], Buffer::from(vec![1i32, 2, 2, 1])).unwrap();
        let d = sparse_to_dense(
            &m,
            &[3, 3],
            &Tensor::vector(Buffer::from(vec![2i32, 3])),
            &Scalar::I32(1),
            true,
        )
        .unwrap();
        assert_eq!(i32s(&d), vec![1, 1, 1, 1, 1, 2, 1, 3, 1]);
        let v = Tensor::vector(Buffer::from(vec![0i32, 2]));
        let d = sparse_to_dense(
            &v,
            &[4],
            &Tensor::vector(Buffer::from(vec![5i32, 6])),
            &Scalar::I32(0),
            true,
        )
        .unwrap();
        assert_eq!(i32s(&d), vec![5, 0, 6, 0]);
        let s = Tensor::scalar(Scalar::I32(1));
        let d = sparse_to_dense(
            &s,
            &[3],
            &Tensor::scalar(Scalar::I32(7)),
            &Scalar::I32(0),
            true,
        )
        .unwrap();
        assert_eq!(i32s(&d), vec![0, 7, 0]);
        let e = sparse_to_dense(
            &v,
            &[2, 2],
            &Tensor::scalar(Scalar::I32(7)),
            &Scalar::I32(0),
            true,
        )
        .unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    }

    #[test]
    fn indicator() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let t = a.to_indicator(10).unwrap();
        assert_eq!(t.shape(), &[3, 10]);
        let Buffer::Bool(b) = t.data() else { panic!() };
        let on: Vec<usize> = b
            .iter()
            .enumerate()
            .filter(|(_, x)| **x)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(on, vec![1, 2, 23]);
        assert_eq!(
            a.to_indicator(3).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }

    #[test]
    fn dense_side_broadcasts() {
        let a = sp(&[&[0, 1], &[2, 0]], &[5, 6], &[3, 2]);
        let row = Tensor::vector(Buffer::from(vec![10i32, 20]));
        assert_eq!(
            a.dense_at_indices(&row).unwrap(),
            Buffer::from(vec![20i32, 10])
        );
        let col = Tensor::new(vec![3, 1], Buffer::from(vec![1i32, 2, 3])).unwrap();
        assert_eq!(
            a.dense_at_indices(&col).unwrap(),
            Buffer::from(vec![1i32, 3])
        );
        let bad = Tensor::vector(Buffer::from(vec![1i32, 2, 3]));
        assert_eq!(
            a.dense_at_indices(&bad).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }

    #[test]
    fn add_to_dense() {
        let a = sp(&[&[0, 1]], &[5], &[1, 2]);
        let d = Tensor::new(vec![1, 2], Buffer::from(vec![1i32, 1])).unwrap();
        assert_eq!(i32s(&a.add_dense(&d).unwrap()), vec![1, 6]);
        let wrong = Tensor::new(vec![2, 1], Buffer::from(vec![1i32, 1])).unwrap();
        assert_eq!(
            a.add_dense(&wrong).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }
}
