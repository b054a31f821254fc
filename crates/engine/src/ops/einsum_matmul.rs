//! The fast path of `einsum` for two float operands: an equation such as `ij,jk->ik`,
//! `bij,bjk->bik` or `ij,kj->ki` is a batched matrix product after transposes, which is how
//! TensorFlow's own einsum computes it. The operands are transposed (views) into
//! `[batch, free, contracted]` and `[batch, contracted, free]`, multiplied by the matmul
//! kernel, and the product is laid out in the output's order.

use super::layout::transpose;
use super::matmul::{matmul, Transpose};
use crate::{DType, Result, Tensor};

/// Below this many multiply-adds the general loop runs (it sums in f64, and every small
/// equation keeps the answers it had).
const MIN_WORK: usize = 1 << 16;

/// `a` and `b` multiplied as the labels say, or None when the equation is not a product of
/// two matrices in disguise: a label repeated within an operand (a diagonal), a label summed
/// in one operand only, an axis that broadcasts, or a dtype the matmul kernel does not take.
pub(super) fn try_matmul(
    labels_a: &[usize],
    labels_b: &[usize],
    output: &[usize],
    size: &[usize],
    a: &Tensor,
    b: &Tensor,
) -> Result<Option<Tensor>> {
    if !matches!(a.dtype(), DType::Float32 | DType::Float64) || a.dtype() != b.dtype() {
        return Ok(None);
    }
    let repeats = |l: &[usize]| l.iter().enumerate().any(|(i, x)| l[..i].contains(x));
    if repeats(labels_a) || repeats(labels_b) || repeats(output) {
        return Ok(None);
    }
    // Every axis has its label's full size (no broadcasting).
    let full = |labels: &[usize], t: &Tensor| {
        labels.len() == t.rank() && labels.iter().zip(t.shape()).all(|(&l, &d)| size[l] == d)
    };
    if !full(labels_a, a) || !full(labels_b, b) {
        return Ok(None);
    }
    let in_a = |l: &usize| labels_a.contains(l);
    let in_b = |l: &usize| labels_b.contains(l);
    let in_out = |l: &usize| output.contains(l);
    // A label in one operand only must reach the output; otherwise it is a sum first.
    if labels_a.iter().any(|l| !in_b(l) && !in_out(l))
        || labels_b.iter().any(|l| !in_a(l) && !in_out(l))
    {
        return Ok(None);
    }
    let batch: Vec<usize> = output
        .iter()
        .copied()
        .filter(|l| in_a(l) && in_b(l))
        .collect();
    let free_a: Vec<usize> = output
        .iter()
        .copied()
        .filter(|l| in_a(l) && !in_b(l))
        .collect();
    let free_b: Vec<usize> = output
        .iter()
        .copied()
        .filter(|l| in_b(l) && !in_a(l))
        .collect();
    let summed: Vec<usize> = labels_a
        .iter()
        .copied()
        .filter(|l| in_b(l) && !in_out(l))
        .collect();
    let count = |ls: &[usize]| ls.iter().map(|&l| size[l]).product::<usize>();
    let (nb, m, n, k) = (
        count(&batch),
        count(&free_a),
        count(&free_b),
        count(&summed),
    );
    if nb.saturating_mul(m).saturating_mul(n).saturating_mul(k) < MIN_WORK {
        return Ok(None);
    }
    let place = |order: &[usize], labels: &[usize]| -> Vec<i64> {
        order
            .iter()
            .map(|l| {
                labels
                    .iter()
                    .position(|x| x == l)
                    .expect("a label of this operand") as i64
            })
            .collect()
    };
    let order_a: Vec<usize> = [&batch[..], &free_a, &summed].concat();
    let order_b: Vec<usize> = [&batch[..], &summed, &free_b].concat();
    let a3 = transpose(a, &place(&order_a, labels_a))?.reshaped(vec![nb, m, k])?;
    let b3 = transpose(b, &place(&order_b, labels_b))?.reshaped(vec![nb, k, n])?;
    let product = matmul(&a3, &b3, Transpose::default())?;
    let laid: Vec<usize> = [&batch[..], &free_a, &free_b].concat();
    let shape: Vec<usize> = laid.iter().map(|&l| size[l]).collect();
    let product = product.reshaped(shape)?;
    Ok(Some(transpose(&product, &place(output, &laid))?))
}

#[cfg(test)]
mod tests {
    use super::super::einsum::{einsum, Rules};
    use crate::{Buffer, Tensor};

    /// Whole numbers as float32, so that every order of additions gives the same sums.
    fn whole(shape: Vec<usize>, seed: u64) -> Tensor {
        let n: usize = shape.iter().product();
        let v: Vec<f32> = (0..n as u64)
            .map(|i| ((i * 7919 + seed * 104_729) % 17) as f32 - 8.0)
            .collect();
        Tensor::new(shape, Buffer::from(v)).unwrap()
    }

    /// The same product by the general loop: the operands cut into pieces under the
    /// fast path's size, one output row at a time.
    #[test]
    fn large_products_match_the_general_loop() {
        let (a, b) = (whole(vec![3, 40, 60], 1), whole(vec![3, 70, 60], 2));
        let fast = einsum("bij,bkj->bki", &[&a, &b], Rules::TensorFlow).unwrap();
        assert_eq!(fast.shape(), &[3, 70, 40]);
        let fast = fast.into_data().to_f64_vec().unwrap();
        let (av, bv) = (
            a.data().to_f64_vec().unwrap(),
            b.data().to_f64_vec().unwrap(),
        );
        for bt in 0..3 {
            for k in 0..70 {
                for i in 0..40 {
                    let want: f64 = (0..60)
                        .map(|j| av[(bt * 40 + i) * 60 + j] * bv[(bt * 70 + k) * 60 + j])
                        .sum();
                    assert_eq!(fast[(bt * 70 + k) * 40 + i], want, "[{bt}][{k}][{i}]");
                }
            }
        }
        // An outer product (nothing summed) and a matrix-vector product take it too.
        let (x, y) = (whole(vec![300], 3), whole(vec![300], 4));
        let outer = einsum("i,j->ji", &[&x, &y], Rules::NumPy).unwrap();
        let (xv, yv) = (
            x.data().to_f64_vec().unwrap(),
            y.data().to_f64_vec().unwrap(),
        );
        let ov = outer.into_data().to_f64_vec().unwrap();
        assert_eq!(ov[5 * 300 + 7], xv[7] * yv[5]);
        // A diagonal (a repeated label) keeps the general loop and its answer.
        let sq = whole(vec![300, 300], 5);
        let trace = einsum("ii->", &[&sq], Rules::TensorFlow).unwrap();
        let sv = sq.data().to_f64_vec().unwrap();
        let want: f64 = (0..300).map(|i| sv[i * 301]).sum();
        assert_eq!(trace.data().to_f64_vec().unwrap(), vec![want]);
    }
}
