//! `tf.ragged.constant` of a regular literal in one pass: every scalar a number at one
//! depth, every list above them holding only lists. Data pasted as a list literal has this
//! form; the row lengths of each level and the values go straight into the engine's row
//! partitions and value buffer, without the general conversion's intermediate lists. The
//! result is the one `engine::literal::ragged_constant` gives (a test compares them).

use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::{Array, Buffer, DType, Exception, Ragged, RowPartition, Tensor};

/// A number of a regular literal, as written.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

/// What one pass over a regular literal collects.
struct Levels {
    /// The row lengths of each level of lists below the outermost.
    lengths: Vec<Vec<i64>>,
    numbers: Vec<Number>,
    any_float: bool,
    /// Whether an int does not fit in int32 (TensorFlow then infers int64).
    big_int: bool,
}

/// `tf.ragged.constant(n)` with every argument at its default (int64 row splits), when `n`
/// is a regular literal of numbers with at least two levels of lists; None for any other
/// literal, which the general conversion handles and reports on. Typing is TensorFlow's:
/// ints are int32, or int64 when one does not fit; ints mixed with floats are float32.
pub fn regular_ragged(n: &Nested) -> Option<Result<Array, Exception>> {
    // The depth of the scalars, read along the first items.
    let mut depth = 0;
    let mut first = n;
    while let Nested::List(items) = first {
        first = items.first()?;
        depth += 1;
        if depth > super::convert::MAX_RANK {
            return None;
        }
    }
    if depth < 2 {
        return None;
    }
    let mut levels = Levels {
        // One vector per level: `depth` is at most MAX_RANK (checked above).
        lengths: (1..depth).map(|_| Vec::new()).collect(),
        numbers: Vec::new(),
        any_float: false,
        big_int: false,
    };
    let Nested::List(rows) = n else { return None };
    for row in rows {
        collect(row, 0, depth - 1, &mut levels)?;
    }
    Some(build(levels))
}

/// Adds `node` (an item at list level `level`; scalars are at `scalar_level`) to `out`;
/// None when the literal is not regular.
fn collect(node: &Nested, level: usize, scalar_level: usize, out: &mut Levels) -> Option<()> {
    match node {
        Nested::List(items) if level < scalar_level => {
            out.lengths[level].push(items.len() as i64);
            for item in items {
                collect(item, level + 1, scalar_level, out)?;
            }
        }
        Nested::Leaf(Leaf::Int(v)) if level == scalar_level => {
            out.big_int |= i32::try_from(*v).is_err();
            out.numbers.push(Number::Int(*v));
        }
        Nested::Leaf(Leaf::Float(v)) if level == scalar_level => {
            out.any_float = true;
            out.numbers.push(Number::Float(*v));
        }
        _ => return None,
    }
    Some(())
}

fn build(levels: Levels) -> Result<Array, Exception> {
    let numbers = levels.numbers;
    // As `leaf_to_scalar` converts each leaf to the inferred dtype.
    let data = if levels.any_float {
        Buffer::F32(
            numbers
                .iter()
                .map(|n| match *n {
                    Number::Int(v) => v as f32,
                    Number::Float(v) => v as f32,
                })
                .collect(),
        )
    } else {
        let ints = numbers.iter().map(|n| match *n {
            Number::Int(v) => v,
            Number::Float(_) => unreachable!("no floats"),
        });
        if levels.big_int {
            Buffer::I64(ints.collect())
        } else {
            // Every int fits: checked while collecting.
            Buffer::I32(ints.map(|v| v as i32).collect())
        }
    };
    let flat = Tensor::new(vec![numbers.len()], data)?;
    let partitions = levels
        .lengths
        .iter()
        .map(|l| RowPartition::from_row_lengths(l, None).map(|p| p.with_splits_dtype(DType::Int64)))
        .collect::<Result<Vec<_>, _>>()?;
    Ragged::new(partitions, flat).map(Array::Ragged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtag_engine::literal::ragged_constant;
    use ragtag_engine::random::Pcg;

    fn random(rng: &mut Pcg, depth: usize) -> Nested {
        let r = rng.next_u32();
        if depth == 0 || r.is_multiple_of(23) {
            return Nested::Leaf(match r % 7 {
                0 => Leaf::Float(f64::from(r % 100) / 8.0 - 3.0),
                1 => Leaf::Int(i64::from(r) << 20),
                2 if r.is_multiple_of(5) => Leaf::Str(b"s".to_vec()),
                _ => Leaf::Int(i64::from(r % 2000) - 1000),
            });
        }
        let n = (r / 7 % 5) as usize;
        Nested::List((0..n).map(|_| random(rng, depth - 1)).collect())
    }

    #[test]
    fn regular_literals_convert_as_the_general_conversion_does() {
        let mut rng = Pcg::new(7);
        let mut fast = 0;
        for _ in 0..3000 {
            let depth = 1 + (rng.next_u32() % 4) as usize;
            let n = random(&mut rng, depth);
            let general = ragged_constant(&n, None, None, None);
            // What the one pass leaves alone is irregular, strings, or under two levels.
            if let Some(r) = regular_ragged(&n) {
                fast += 1;
                assert_eq!(r.ok(), general.ok(), "{n:?}");
            }
        }
        assert!(fast > 300, "only {fast} regular literals");
    }
}
