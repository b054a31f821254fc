//! Einstein summation (`tf.einsum`, `np.einsum`): an equation such as `ij,jk->ik` names
//! each operand's axes with letters; letters missing from the output are summed over.
//! `...` stands for broadcast axes. One loop over every assignment of the letters: fine for
//! the sizes einsum is used on interactively, and it gives every equation the same code;
//! a large product of two float operands goes to the matmul kernel (einsum_matmul.rs).

use crate::{budget, interrupt, invalid_arg, size, value_error, Buffer, DType, Result, Tensor};

/// Whose rules to follow where TensorFlow and NumPy differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// A named axis must have one size everywhere (InvalidArgumentError otherwise).
    TensorFlow,
    /// A named axis of size 1 broadcasts (ValueError for other mismatches).
    NumPy,
}

/// A parsed equation: each operand's labels (one per axis) and the output's.
#[derive(Debug, Clone)]
struct Parsed {
    inputs: Vec<Vec<usize>>,
    output: Vec<usize>,
    /// How many labels there are (letters first, then broadcast axes).
    nlabels: usize,
}

/// Label ids: 'a'..'z' are 0..26, 'A'..'Z' 26..52, broadcast axes 52.. (from the left).
const LETTERS: usize = 52;

fn letter(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// The letters of one term and whether (and where) it has an ellipsis.
fn term(t: &str) -> Result<(Vec<usize>, Option<usize>)> {
    let mut labels = Vec::new();
    let mut ell = None;
    let mut rest = t.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("...") {
            if ell.is_some() {
                return Err(value_error!(
                    "Subscripts may contain at most one ellipsis: '{t}'"
                ));
            }
            ell = Some(labels.len());
            rest = r;
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        match letter(c) {
            Some(l) => labels.push(l),
            None if c == ' ' => {}
            None => {
                return Err(value_error!(
                    "Subscripts must be letters or '...', not {c:?} (in '{t}')"
                ))
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    Ok((labels, ell))
}

fn parse(equation: &str, ranks: &[usize]) -> Result<Parsed> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != ranks.len() {
        return Err(value_error!(
            "Got {} inputs for equation \"{equation}\", expecting {}",
            ranks.len(),
            terms.len()
        ));
    }
    let mut parsed = Vec::new();
    let mut nell = 0;
    for (t, &r) in terms.iter().zip(ranks) {
        let (labels, ell) = term(t)?;
        if labels.len() > r || (ell.is_none() && labels.len() != r) {
            return Err(invalid_arg!(
                "Input {} of einsum has rank {r}, but its subscripts '{t}' name {} axes",
                parsed.len(),
                labels.len()
            )
            .with_hint("give one letter per axis, or '...' for the leading axes"));
        }
        if ell.is_some() {
            nell = nell.max(r - labels.len());
        }
        parsed.push((labels, ell, r));
    }
    let mut inputs = Vec::new();
    for (labels, ell, r) in &parsed {
        let mut ids = labels.clone();
        if let Some(pos) = ell {
            let k = r - labels.len();
            // Broadcast axes line up from the right.
            let b: Vec<usize> = (nell - k..nell).map(|i| LETTERS + i).collect();
            ids.splice(*pos..*pos, b);
        }
        inputs.push(ids);
    }
    let mut count = [0usize; LETTERS];
    for (labels, _, _) in &parsed {
        for &l in labels {
            count[l] += 1;
        }
    }
    let output = match rhs {
        Some(r) => {
            let (labels, ell) = term(&r)?;
            for &l in &labels {
                if count[l] == 0 {
                    let c = if l < 26 {
                        (b'a' + l as u8) as char
                    } else {
                        (b'A' + (l - 26) as u8) as char
                    };
                    return Err(value_error!(
                        "Output subscripts contain the label {c} not present in the input subscripts."
                    ));
                }
            }
            let mut seen = [false; LETTERS];
            for &l in &labels {
                if std::mem::replace(&mut seen[l], true) {
                    return Err(value_error!(
                        "Output subscripts of einsum contain a label more than once: '{r}'"
                    ));
                }
            }
            let mut ids = labels;
            match ell {
                Some(pos) => {
                    ids.splice(pos..pos, (0..nell).map(|i| LETTERS + i));
                }
                None if nell > 0 => {
                    return Err(value_error!(
                    "The output of einsum needs '...' where the inputs have broadcast axes: '{r}'"
                ))
                }
                None => {}
            }
            ids
        }
        None => {
            // Implicit output: broadcast axes, then the letters used once, alphabetically.
            let mut ids: Vec<usize> = (0..nell).map(|i| LETTERS + i).collect();
            let mut once: Vec<usize> = (0..LETTERS).filter(|&l| count[l] == 1).collect();
            // Alphabetical order puts upper case first, as in ASCII.
            once.sort_by_key(|&l| if l >= 26 { l - 26 } else { l + 26 });
            ids.extend(once);
            ids
        }
    };
    Ok(Parsed {
        inputs,
        output,
        nlabels: LETTERS + nell,
    })
}

/// Each label's size, checked across the operands.
fn sizes(p: &Parsed, shapes: &[&[usize]], rules: Rules) -> Result<Vec<usize>> {
    #[allow(clippy::disallowed_methods)]
    // one entry a label: at most 52 letters and the operands' ranks
    let mut size: Vec<Option<usize>> = vec![None; p.nlabels];
    for (k, (labels, shape)) in p.inputs.iter().zip(shapes).enumerate() {
        for (axis, (&l, &d)) in labels.iter().zip(shape.iter()).enumerate() {
            let broadcasts = l >= LETTERS || rules == Rules::NumPy;
            size[l] = match size[l] {
                None => Some(d),
                Some(s) if s == d => Some(s),
                Some(1) if broadcasts => Some(d),
                Some(s) if broadcasts && d == 1 => Some(s),
                Some(s) => {
                    return Err(match rules {
                        Rules::TensorFlow => invalid_arg!(
                            "Expected dimension {s} at axis {axis} of the input shaped {shape:?} but got dimension {d}"
                        ),
                        Rules::NumPy => value_error!(
                            "operands could not be broadcast together: operand {k} has size {d} on axis {axis} where another operand has {s}"
                        ),
                    }
                    .with_hint("a letter must stand for axes of the same size in every operand"))
                }
            };
        }
    }
    Ok(size.into_iter().map(|s| s.unwrap_or(1)).collect())
}

/// What the loop multiplies and adds.
trait Acc: Copy {
    fn zero() -> Self;
    fn one() -> Self;
    fn mul(self, o: Self) -> Self;
    fn add(self, o: Self) -> Self;
}

impl Acc for f64 {
    fn zero() -> f64 {
        0.0
    }
    fn one() -> f64 {
        1.0
    }
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    fn add(self, o: f64) -> f64 {
        self + o
    }
}

impl Acc for i64 {
    fn zero() -> i64 {
        0
    }
    fn one() -> i64 {
        1
    }
    fn mul(self, o: i64) -> i64 {
        self.wrapping_mul(o)
    }
    fn add(self, o: i64) -> i64 {
        self.wrapping_add(o)
    }
}

impl Acc for bool {
    fn zero() -> bool {
        false
    }
    fn one() -> bool {
        true
    }
    fn mul(self, o: bool) -> bool {
        self && o
    }
    fn add(self, o: bool) -> bool {
        self || o
    }
}

fn run<T: Acc>(
    p: &Parsed,
    data: &[Vec<T>],
    shapes: &[&[usize]],
    size: &[usize],
    out_shape: &[usize],
) -> Result<Vec<T>> {
    // Each operand's stride for each label (0 where the axis broadcasts; summed where a
    // label repeats, which walks a diagonal).
    let strides: Vec<Vec<usize>> = p
        .inputs
        .iter()
        .zip(shapes)
        .map(|(labels, shape)| {
            #[allow(clippy::disallowed_methods)] // one entry a label (a few dozen)
            let mut s = vec![0usize; p.nlabels];
            let mut acc = 1;
            for (&l, &d) in labels.iter().zip(shape.iter()).rev() {
                if d != 1 || size[l] == 1 {
                    s[l] += acc;
                }
                acc *= d;
            }
            s
        })
        .collect();
    let summed: Vec<usize> = (0..p.nlabels)
        .filter(|l| !p.output.contains(l) && p.inputs.iter().any(|x| x.contains(l)))
        .collect();
    let n_out = size::numel(out_shape)?;
    let inner: usize = summed.iter().map(|&l| size[l]).product();
    let mut out = budget::vec::<T>("einsum", n_out)?;
    #[allow(clippy::disallowed_methods)]
    // one entry a label: at most 52 letters and the operands' ranks
    let mut idx = vec![0usize; p.nlabels];
    for o in 0..n_out {
        if o % 4096 == 0 {
            interrupt::check()?;
        }
        // The output position's labels.
        let mut rem = o;
        for (&l, &d) in p.output.iter().zip(out_shape).rev() {
            idx[l] = rem % d.max(1);
            rem /= d.max(1);
        }
        for &l in &summed {
            idx[l] = 0;
        }
        let mut total = T::zero();
        for step in 0..inner {
            // A long sum over the contracted labels stays interruptible.
            if step % 65536 == 65535 {
                interrupt::check()?;
            }
            let mut prod = T::one();
            for (k, x) in data.iter().enumerate() {
                let off: usize = strides[k].iter().zip(&idx).map(|(s, i)| s * i).sum();
                prod = prod.mul(x[off]);
            }
            total = total.add(prod);
            // The next assignment of the summed labels.
            for &l in summed.iter().rev() {
                idx[l] += 1;
                if idx[l] < size[l] {
                    break;
                }
                idx[l] = 0;
            }
        }
        out.push(total);
    }
    Ok(out)
}

/// `einsum(equation, *operands)` on tensors of one dtype (the caller converts), giving a
/// tensor of that dtype. Integers wrap around; bools (NumPy's) multiply as `and` and add
/// as `or`.
pub fn einsum(equation: &str, operands: &[&Tensor], rules: Rules) -> Result<Tensor> {
    let ranks: Vec<usize> = operands.iter().map(|t| t.rank()).collect();
    let p = parse(equation, &ranks)?;
    let shapes: Vec<&[usize]> = operands.iter().map(|t| t.shape()).collect();
    let size = sizes(&p, &shapes, rules)?;
    let out_shape: Vec<usize> = p.output.iter().map(|&l| size[l]).collect();
    let dtype = operands.first().map_or(DType::Float32, |t| t.dtype());
    budget::check_shape("einsum", &out_shape, dtype.item_bytes())?;
    if let [a, b] = operands {
        let (la, lb) = (&p.inputs[0], &p.inputs[1]);
        if let Some(t) = super::einsum_matmul::try_matmul(la, lb, &p.output, &size, a, b)? {
            return Ok(t);
        }
    }
    let buf = if dtype == DType::Bool {
        let data: Vec<Vec<bool>> = operands
            .iter()
            .map(|t| {
                (0..t.size())
                    .map(|i| t.data().get(i).as_i64() == Some(1))
                    .collect()
            })
            .collect();
        let out = run(&p, &data, &shapes, &size, &out_shape)?;
        Buffer::from_i64s(out.into_iter().map(i64::from).collect(), DType::Int64)
    } else if dtype.is_float() {
        let data: Vec<Vec<f64>> = operands
            .iter()
            .map(|t| t.data().to_f64_vec().unwrap_or_default())
            .collect();
        Buffer::from_f64s(run(&p, &data, &shapes, &size, &out_shape)?, dtype)
    } else if dtype.is_int() {
        let data: Vec<Vec<i64>> = operands
            .iter()
            .map(|t| t.data().to_i64_vec().unwrap_or_default())
            .collect();
        Buffer::from_i64s(run(&p, &data, &shapes, &size, &out_shape)?, dtype)
    } else {
        return Err(invalid_arg!("einsum has no kernel for {dtype} tensors"));
    };
    let buf = if dtype == DType::Bool {
        crate::ops::cast::cast_buffer(&buf, DType::Bool)?
    } else {
        buf
    };
    Tensor::new(out_shape, buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: Vec<usize>, v: Vec<i32>) -> Tensor {
        Tensor::new(shape, Buffer::from(v)).unwrap()
    }

    #[test]
    fn matmul_trace_and_outer() {
        let a = t(vec![2, 2], vec![1, 2, 3, 4]);
        let b = t(vec![2, 2], vec![1, 0, 0, 1]);
        let c = einsum("ij,jk->ik", &[&a, &b], Rules::TensorFlow).unwrap();
        assert_eq!(c.data(), a.data());
        let tr = einsum("ii", &[&a], Rules::TensorFlow).unwrap();
        assert_eq!(tr.data(), &Buffer::from(vec![5i32]));
        let v = t(vec![2], vec![1, 2]);
        let o = einsum("i,j", &[&v, &v], Rules::TensorFlow).unwrap();
        assert_eq!(o.shape(), &[2, 2]);
        assert_eq!(o.data(), &Buffer::from(vec![1i32, 2, 2, 4]));
        let x = einsum("ij->ji", &[&t(vec![1, 2], vec![1, 2])], Rules::TensorFlow).unwrap();
        assert_eq!(x.shape(), &[2, 1]);
    }
}
