//! Moving elements without computing on them: `tf.transpose`, `tf.roll` and `tf.pad` of
//! dense tensors. Each computes, for every output position, the input position it reads
//! (one pass over the output, a chunk at a time between interrupt checks), then gathers:
//! one code path for every dtype, strings included.

use crate::buffer::{Buffer, Scalar};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt, invalid_arg, value_error};

/// Row-major strides of `shape`, in elements.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s: Vec<usize> = shape.iter().map(|_| 1).collect();
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// For every position of `out_shape` (row-major), `source(coordinates)`: the input position
/// it reads. The caller has checked the output size against the budget.
fn positions(
    what: &str,
    out_shape: &[usize],
    mut source: impl FnMut(&[usize]) -> usize,
) -> Result<Vec<usize>> {
    let n = crate::size::numel(out_shape)?;
    let mut out = budget::vec(what, n)?;
    if n == 0 {
        return Ok(out);
    }
    let mut c: Vec<usize> = out_shape.iter().map(|_| 0).collect();
    for i in 0..n {
        if i % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        out.push(source(&c));
        for d in (0..c.len()).rev() {
            c[d] += 1;
            if c[d] < out_shape[d] {
                break;
            }
            c[d] = 0;
        }
    }
    Ok(out)
}

/// `tf.transpose(t, perm)`: dimension `i` of the result is dimension `perm[i]` of `t`
/// (negative entries count from the end, as TensorFlow's kernel allows).
pub fn transpose(t: &Tensor, perm: &[i64]) -> Result<Tensor> {
    let rank = t.rank();
    if perm.len() != rank {
        return Err(invalid_arg!(
            "transpose expects a vector of size {rank}. But input(1) is a vector of size {}",
            perm.len()
        ));
    }
    let mut p = budget::vec("tf.transpose", rank)?;
    for &d in perm {
        let k = crate::size::index(d, rank)
            .ok_or_else(|| invalid_arg!("{d} is out of range [0 .. {rank})"))?;
        p.push(k);
    }
    if let Some(missing) = (0..rank).find(|d| !p.contains(d)) {
        let list: Vec<String> = perm.iter().map(|d| d.to_string()).collect();
        return Err(invalid_arg!(
            "{missing} is missing from {{{}}}",
            list.join(",")
        ));
    }
    let shape = t.shape();
    let out_shape: Vec<usize> = p.iter().map(|&d| shape[d]).collect();
    // A view: dimension i steps as dimension p[i] of the input did; nothing is copied.
    let (base, offset, st) = t.layout();
    let strides = p.iter().map(|&d| st[d]).collect();
    Ok(Tensor::strided(out_shape, base, offset, strides))
}

/// `tf.broadcast_to(t, shape)` for a `shape` the caller has checked against `t`'s (each
/// of `t`'s trailing dimensions equal, or 1): a view that repeats by stride 0, made within
/// the memory budget the copy will need; strings are copied now, since each copy counts
/// its bytes.
pub fn broadcast_to(t: &Tensor, shape: Vec<usize>) -> Result<Tensor> {
    budget::check_shape("tf.broadcast_to", &shape, t.dtype().item_bytes().max(1))?;
    let off = shape.len() - t.rank();
    let ins = t.shape().to_vec();
    if t.dtype() == crate::DType::String {
        let st = strides(&ins);
        return remap(
            "tf.broadcast_to",
            t,
            shape,
            |c| {
                Some(
                    (0..ins.len())
                        .map(|d| if ins[d] == 1 { 0 } else { c[off + d] * st[d] })
                        .sum(),
                )
            },
            &Scalar::Str(Vec::new()),
        );
    }
    let (base, offset, st) = t.layout();
    let strides = (0..shape.len())
        .map(|d| match d.checked_sub(off) {
            Some(k) if ins[k] != 1 => st[k],
            _ => 0,
        })
        .collect();
    Ok(Tensor::strided(shape, base, offset, strides))
}

/// `tf.roll(t, shift, axis)`: every element moves `shift[i]` places along `axis[i]`,
/// wrapping around; shifts of one axis add up.
pub fn roll(t: &Tensor, shift: &[i64], axis: &[i64]) -> Result<Tensor> {
    let rank = t.rank();
    if rank == 0 {
        return Err(invalid_arg!("input must be 1-D or higher"));
    }
    if shift.len() != axis.len() {
        return Err(invalid_arg!(
            "shift and axis must have the same size: {} vs {}",
            shift.len(),
            axis.len()
        ));
    }
    let shape = t.shape().to_vec();
    let mut total = vec_of(rank, 0i128);
    for (&s, &a) in shift.iter().zip(axis) {
        let d = crate::size::index(a, rank)
            .ok_or_else(|| invalid_arg!("axis {a} is out of range for a tensor of rank {rank}"))?;
        total[d] += i128::from(s);
    }
    // The shift of each dimension, reduced to 0..n.
    let shifts: Vec<usize> = total
        .iter()
        .zip(&shape)
        .map(|(&s, &n)| {
            if n == 0 {
                0
            } else {
                s.rem_euclid(n as i128) as usize
            }
        })
        .collect();
    if shifts.iter().all(|&s| s == 0) {
        return Ok(t.clone());
    }
    let st = strides(&shape);
    let pos = positions("tf.roll", &shape, |c| {
        c.iter()
            .enumerate()
            .map(|(d, &x)| ((x + shape[d] - shifts[d]) % shape[d]) * st[d])
            .sum()
    })?;
    Ok(Tensor::from_parts(shape, t.data().gather(&pos)))
}

/// The three ways `tf.pad` fills the border.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadMode {
    /// With a constant.
    Constant,
    /// With the mirror image, the edge not repeated.
    Reflect,
    /// With the mirror image, the edge repeated.
    Symmetric,
}

impl PadMode {
    /// TensorFlow's spelling, any case.
    pub fn parse(mode: &str) -> Result<PadMode> {
        match mode.to_ascii_uppercase().as_str() {
            "CONSTANT" => Ok(PadMode::Constant),
            "REFLECT" => Ok(PadMode::Reflect),
            "SYMMETRIC" => Ok(PadMode::Symmetric),
            _ => Err(value_error!(
                "Value of argument `mode` expected to be one of \"CONSTANT\", \"REFLECT\", or \"SYMMETRIC\". Received `mode` = {mode}"
            )),
        }
    }
}

/// `tf.pad(t, paddings, mode, constant_values)`: `paddings[d] = (before, after)` elements
/// added before and after dimension `d`.
pub fn pad(t: &Tensor, paddings: &[(i64, i64)], mode: PadMode, value: &Scalar) -> Result<Tensor> {
    let rank = t.rank();
    if paddings.len() != rank {
        return Err(invalid_arg!(
            "The first dimension of paddings must be the rank of inputs[{},2] {}",
            paddings.len(),
            crate::size::dense_shape_str(t.shape())
        ));
    }
    let shape = t.shape().to_vec();
    let mut out_shape = budget::vec("tf.pad", rank)?;
    for (d, &(b, a)) in paddings.iter().enumerate() {
        if b < 0 || a < 0 {
            return Err(invalid_arg!("Paddings must be non-negative: {b} {a}"));
        }
        let n = shape[d] as i64;
        match mode {
            PadMode::Reflect if b >= n || a >= n => {
                return Err(invalid_arg!(
                    "paddings must be less than the dimension size: {b}, {a} not less than {n}"
                ))
            }
            PadMode::Symmetric if b > n || a > n => {
                return Err(invalid_arg!(
                    "paddings must be no greater than the dimension size: {b}, {a} greater than {n}"
                ))
            }
            _ => {}
        }
        let size = n
            .checked_add(b)
            .and_then(|s| s.checked_add(a))
            .and_then(|s| usize::try_from(s).ok())
            .ok_or_else(|| invalid_arg!("the padded dimension {d} is too large"))?;
        out_shape.push(size);
    }
    budget::check_shape("tf.pad", &out_shape, t.dtype().item_bytes())?;
    if mode == PadMode::Constant && rank > 0 {
        if let Some(out) = super::pad_fast::pad_constant(t, &out_shape, paddings, value)? {
            return Ok(out);
        }
    }
    let st = strides(&shape);
    // Out-of-range reads land on one extra element holding the constant.
    let fill = t.size();
    let pos = positions("tf.pad", &out_shape, |c| {
        let mut at = 0;
        for (d, &x) in c.iter().enumerate() {
            let n = shape[d] as i64;
            let i = x as i64 - paddings[d].0;
            let j = if (0..n).contains(&i) {
                i
            } else {
                match mode {
                    PadMode::Constant => return fill,
                    PadMode::Reflect if i < 0 => -i,
                    PadMode::Reflect => 2 * (n - 1) - i,
                    PadMode::Symmetric if i < 0 => -i - 1,
                    PadMode::Symmetric => 2 * n - 1 - i,
                }
            };
            at += j as usize * st[d];
        }
        at
    })?;
    let data = if mode == PadMode::Constant {
        let extra = Buffer::filled(value, 1);
        Buffer::concat(t.dtype(), &[t.data(), &extra])?.gather(&pos)
    } else {
        t.data().gather(&pos)
    };
    Ok(Tensor::from_parts(out_shape, data))
}

/// `t` cut along `axis` into consecutive pieces of the given sizes (which add up to the
/// axis's length): `tf.split`'s pieces.
pub fn split(t: &Tensor, axis: usize, sizes: &[usize]) -> Result<Vec<Tensor>> {
    let shape = t.shape();
    let mut out = budget::vec("tf.split", sizes.len())?;
    let mut off = 0;
    for &s in sizes {
        interrupt::check()?;
        if axis == 0 {
            // Pieces along the first axis share the tensor's storage.
            out.push(t.rows(off, off + s));
            off += s;
            continue;
        }
        // Pieces along a later axis are strided views of the tensor's elements, copied
        // into row-major order when first read.
        let mut piece_shape = shape.to_vec();
        piece_shape[axis] = s;
        let (base, start, strides) = t.layout();
        let first = start as isize + off as isize * strides[axis];
        // A piece with elements starts inside the base (an empty one reads nothing).
        out.push(Tensor::strided(
            piece_shape,
            base,
            first.max(0) as usize,
            strides,
        ));
        off += s;
    }
    Ok(out)
}

/// A tensor of `out_shape` whose element at coordinates `c` is `t`'s element at position
/// `source(c)`, or `fill` where that is None: the one gather behind slices, repeats and
/// the matrix diagonals and bands. The output is checked against the memory budget.
pub fn remap(
    what: &str,
    t: &Tensor,
    out_shape: Vec<usize>,
    mut source: impl FnMut(&[usize]) -> Option<usize>,
    fill: &Scalar,
) -> Result<Tensor> {
    budget::check_shape(what, &out_shape, t.dtype().item_bytes().max(8))?;
    let at_fill = t.size();
    let mut filled = false;
    let pos = positions(what, &out_shape, |c| match source(c) {
        Some(p) => p,
        None => {
            filled = true;
            at_fill
        }
    })?;
    let data = if filled {
        let extra = Buffer::filled(fill, 1);
        Buffer::concat(t.dtype(), &[t.data(), &extra])?.gather(&pos)
    } else {
        t.data().gather(&pos)
    };
    Ok(Tensor::from_parts(out_shape, data))
}

fn vec_of<T: Clone>(n: usize, x: T) -> Vec<T> {
    std::iter::repeat_n(x, n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize], v: &[i32]) -> Tensor {
        Tensor::new(shape.to_vec(), Buffer::from(v.to_vec())).unwrap()
    }

    #[test]
    fn split_along_a_later_axis_gives_views_of_the_pieces() {
        // Large enough to stay views; pieces of a transposed view read through it.
        let v: Vec<i32> = (0..4000).collect();
        let x = t(&[40, 100], &v);
        let pieces = split(&x, 1, &[30, 0, 70]).unwrap();
        assert!(pieces[0].is_view() && pieces[2].is_view());
        assert_eq!(pieces[1].shape(), &[40, 0]);
        let want = |lo: usize, hi: usize| -> Vec<i32> {
            (0..40)
                .flat_map(|r| (lo..hi).map(move |c| (r * 100 + c) as i32))
                .collect()
        };
        assert_eq!(pieces[0], t(&[40, 30], &want(0, 30)));
        assert_eq!(pieces[2], t(&[40, 70], &want(30, 100)));
        let xt = transpose(&x, &[1, 0]).unwrap();
        let halves = split(&xt, 1, &[20, 20]).unwrap();
        assert_eq!(
            halves[1],
            transpose(&t(&[20, 100], &v[2000..]), &[1, 0]).unwrap()
        );
        // Small pieces are copied, one row is one run.
        let small = split(&t(&[1, 4], &[1, 2, 3, 4]), 1, &[1, 3]).unwrap();
        assert_eq!(small[1], t(&[1, 3], &[2, 3, 4]));
    }

    #[test]
    fn transpose_roll_and_pad_move_elements() {
        let x = t(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(
            transpose(&x, &[1, 0]).unwrap(),
            t(&[3, 2], &[1, 4, 2, 5, 3, 6])
        );
        assert_eq!(
            roll(&x, &[1], &[1]).unwrap(),
            t(&[2, 3], &[3, 1, 2, 6, 4, 5])
        );
        let v = t(&[3], &[1, 2, 3]);
        let p = |m| pad(&v, &[(2, 2)], m, &Scalar::I32(0)).unwrap();
        assert_eq!(p(PadMode::Constant), t(&[7], &[0, 0, 1, 2, 3, 0, 0]));
        assert_eq!(p(PadMode::Reflect), t(&[7], &[3, 2, 1, 2, 3, 2, 1]));
        assert_eq!(p(PadMode::Symmetric), t(&[7], &[2, 1, 1, 2, 3, 3, 2]));
        assert!(transpose(&x, &[0, 0]).is_err());
    }

    #[test]
    fn transposes_strided_slices_and_broadcasts_are_views() {
        use crate::ops::index::{dense_getitem, Key};
        let v: Vec<i32> = (0..2000).collect();
        let x = t(&[40, 50], &v);
        let xt = transpose(&x, &[1, 0]).unwrap();
        assert!(xt.is_view());
        assert_eq!(xt.shape(), &[50, 40]);
        // Reading one row of the view, or a scalar, flattens nothing else.
        assert_eq!(xt.row(3).unwrap().data().get(1), Scalar::I32(53));
        assert!(xt.is_view());
        // Transposing back is the original run of elements again.
        let back = transpose(&xt, &[1, 0]).unwrap();
        assert!(!back.is_view());
        assert_eq!(back, x);
        // A reversed, strided slice of the view, then a new axis: still one view.
        let keys = [
            Key::Slice(None, None, Some(-1)),
            Key::NewAxis,
            Key::Slice(Some(1), None, None),
        ];
        let s = dense_getitem(&xt, &keys).unwrap();
        assert!(s.is_view());
        assert_eq!(s.shape(), &[50, 1, 39]);
        let want: Vec<i32> = (0..50)
            .flat_map(|i| (0..39).map(move |j| (1 + j) * 50 + (49 - i)))
            .collect();
        assert_eq!(s.data(), &Buffer::from(want));
        let b = broadcast_to(&x.row(2).unwrap(), vec![30, 50]).unwrap();
        assert!(b.is_view());
        assert_eq!(b.row(29).unwrap(), x.row(2).unwrap());
        assert!(broadcast_to(&x, vec![1 << 40, 40, 50]).is_err());
    }
}
