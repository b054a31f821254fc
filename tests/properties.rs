//! Engine invariants checked on random inputs: row-partition encodings round-trip,
//! padding and unpadding round-trip, and concat, reductions and broadcasting agree with
//! naive nested-Vec references.
#![allow(clippy::disallowed_methods)] // fixed-size test data

use proptest::prelude::*;
use ragtag::engine::literal::{Leaf, Nested};
use ragtag::engine::ops::broadcast;
use ragtag::engine::ops::concat::concat;
use ragtag::engine::ops::kernels::BinaryOp;
use ragtag::engine::ops::reduce::{reduce, ReduceOp};
use ragtag::engine::{Array, Buffer, DType, Ragged, RowPartition, Tensor};
use ragtag::eval::convert::array_to_nested;

const CASES: u32 = 64;

/// A nested list of ints: the naive reference representation.
#[derive(Debug, Clone, PartialEq)]
enum Tree {
    Leaf(i64),
    List(Vec<Tree>),
}

fn to_nested(t: &Tree) -> Nested {
    match t {
        Tree::Leaf(v) => Nested::Leaf(Leaf::Int(*v)),
        Tree::List(items) => Nested::List(items.iter().map(to_nested).collect()),
    }
}

fn from_nested(n: &Nested) -> Tree {
    match n {
        Nested::Leaf(Leaf::Typed(s)) => Tree::Leaf(s.as_i64().expect("int leaf")),
        Nested::Leaf(Leaf::Int(v)) => Tree::Leaf(*v),
        Nested::Leaf(other) => panic!("unexpected leaf {other:?}"),
        Nested::List(items) => Tree::List(items.iter().map(from_nested).collect()),
    }
}

fn tree_of(a: &Array) -> Tree {
    from_nested(&array_to_nested(a))
}

fn rows2(rows: &[Vec<i32>]) -> Tree {
    Tree::List(
        rows.iter()
            .map(|r| Tree::List(r.iter().map(|&v| Tree::Leaf(v as i64)).collect()))
            .collect(),
    )
}

/// A ragged int32 tensor of rank `rank` from a tree, every dimension after the first
/// ragged (built from row lengths, so empty tensors work too).
fn ragged_of(t: &Tree, rank: usize) -> Array {
    ragged_inner(t, rank, 0)
}

/// Like [`ragged_of`], with a uniform innermost dimension of size `inner` when nonzero.
fn ragged_inner(t: &Tree, rank: usize, inner: usize) -> Array {
    let ragged_levels = if inner > 0 { rank - 2 } else { rank - 1 };
    let mut levels: Vec<Vec<i64>> = vec![Vec::new(); ragged_levels];
    let mut values = Vec::new();
    fn walk(t: &Tree, level: usize, levels: &mut Vec<Vec<i64>>, values: &mut Vec<i32>) {
        match t {
            Tree::Leaf(v) => values.push(*v as i32),
            Tree::List(items) => {
                if level < levels.len() {
                    levels[level].push(items.len() as i64);
                }
                items
                    .iter()
                    .for_each(|i| walk(i, level + 1, levels, values));
            }
        }
    }
    let Tree::List(top) = t else { panic!("rank 0") };
    for item in top {
        walk(item, 0, &mut levels, &mut values);
    }
    let nvals = levels
        .last()
        .map_or(top.len(), |l| l.iter().sum::<i64>() as usize);
    let mut shape = vec![nvals];
    if inner > 0 {
        shape.push(inner);
    }
    let flat = Tensor::new(shape, Buffer::I32(values.into())).unwrap();
    let parts = levels
        .iter()
        .map(|l| RowPartition::from_row_lengths(l, None).unwrap())
        .collect();
    Array::Ragged(Ragged::new(parts, flat).unwrap())
}

fn dense_of(t: &Tree) -> Array {
    let n = to_nested(t);
    Array::Dense(
        ragtag::engine::literal::constant(
            &n,
            Some(DType::Int32),
            ragtag::engine::literal::Flavor::TensorFlow,
        )
        .unwrap(),
    )
}

fn rows_strategy(max_rows: usize, max_len: usize) -> impl Strategy<Value = Vec<Vec<i32>>> {
    prop::collection::vec(prop::collection::vec(-50i32..50, 0..=max_len), 0..=max_rows)
}

fn rank3_strategy() -> impl Strategy<Value = Vec<Vec<Vec<i32>>>> {
    prop::collection::vec(
        prop::collection::vec(prop::collection::vec(-20i32..20, 0..4), 0..4),
        0..5,
    )
}

/// Rank-3 ragged tensors with a uniform innermost dimension of size `d`.
fn rank3_uniform_strategy() -> impl Strategy<Value = (usize, Vec<Vec<Vec<i32>>>)> {
    (1usize..4).prop_flat_map(|d| {
        (
            Just(d),
            prop::collection::vec(
                prop::collection::vec(prop::collection::vec(-20i32..20, d), 0..4),
                0..5,
            ),
        )
    })
}

fn rows3(x: &[Vec<Vec<i32>>]) -> Tree {
    Tree::List(x.iter().map(|r| rows2(r)).collect())
}

/// The reference reduction of a tree's leaves.
fn combine(op: ReduceOp, vals: &[i64]) -> i64 {
    match op {
        ReduceOp::Sum => vals.iter().sum(),
        ReduceOp::Max => vals.iter().copied().max().unwrap_or(i32::MIN as i64),
        _ => unreachable!(),
    }
}

fn leaves(t: &Tree, out: &mut Vec<i64>) {
    match t {
        Tree::Leaf(v) => out.push(*v),
        Tree::List(items) => items.iter().for_each(|i| leaves(i, out)),
    }
}

/// The naive reduction over `axis` of `t`, a tree of rank `rank`: the axis' items are
/// combined position by position (ragged items align on their leading positions).
/// `uniform` is the size of a uniform innermost dimension (0 when it is ragged).
fn reduce_ref(t: &Tree, rank: usize, axis: usize, op: ReduceOp, uniform: usize) -> Tree {
    let Tree::List(items) = t else {
        panic!("reduce of a leaf")
    };
    if axis > 0 {
        return Tree::List(
            items
                .iter()
                .map(|i| reduce_ref(i, rank - 1, axis - 1, op, uniform))
                .collect(),
        );
    }
    fold_positions(items, rank - 1, op, uniform)
}

/// Combines trees of rank `rank` position by position.
fn fold_positions(items: &[Tree], rank: usize, op: ReduceOp, uniform: usize) -> Tree {
    if rank == 0 {
        let vals: Vec<i64> = items
            .iter()
            .map(|i| if let Tree::Leaf(v) = i { *v } else { 0 })
            .collect();
        return Tree::Leaf(combine(op, &vals));
    }
    let width = if rank == 1 && uniform > 0 {
        uniform
    } else {
        items
            .iter()
            .map(|i| if let Tree::List(l) = i { l.len() } else { 0 })
            .max()
            .unwrap_or(0)
    };
    Tree::List(
        (0..width)
            .map(|j| {
                let column: Vec<Tree> = items
                    .iter()
                    .filter_map(|i| {
                        if let Tree::List(l) = i {
                            l.get(j).cloned()
                        } else {
                            None
                        }
                    })
                    .collect();
                fold_positions(&column, rank - 1, op, uniform)
            })
            .collect(),
    )
}

/// Naive broadcasting of `op` over two trees of equal depth: equal lengths pair up, a
/// length-1 list stretches.
fn broadcast_ref(a: &Tree, b: &Tree) -> Option<Tree> {
    match (a, b) {
        (Tree::Leaf(x), Tree::Leaf(y)) => Some(Tree::Leaf(x + y)),
        (Tree::List(xs), Tree::List(ys)) => {
            let n = if xs.len() == ys.len() || ys.len() == 1 {
                xs.len()
            } else if xs.len() == 1 {
                ys.len()
            } else {
                return None;
            };
            let pick = |v: &Vec<Tree>, i: usize| v[if v.len() == 1 { 0 } else { i }].clone();
            (0..n)
                .map(|i| broadcast_ref(&pick(xs, i), &pick(ys, i)))
                .collect::<Option<Vec<_>>>()
                .map(Tree::List)
        }
        _ => None,
    }
}

/// Wraps a tree of rank `from` in outer lists of length 1 until it has rank `to`.
fn lift(t: &Tree, from: usize, to: usize) -> Tree {
    let mut t = t.clone();
    for _ in from..to {
        t = Tree::List(vec![t]);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn row_partition_encodings_round_trip(lengths in prop::collection::vec(0i64..6, 0..10)) {
        let p = RowPartition::from_row_lengths(&lengths, None).unwrap();
        let nvals = p.nvals();
        prop_assert_eq!(p.row_lengths(), &lengths[..]);
        let from_splits = RowPartition::from_row_splits(p.row_splits().to_vec(), Some(nvals)).unwrap();
        prop_assert_eq!(from_splits.row_lengths(), &lengths[..]);
        let from_ids = RowPartition::from_value_rowids(p.value_rowids(), Some(lengths.len() as i64)).unwrap();
        prop_assert_eq!(from_ids.row_splits(), p.row_splits());
        let from_starts = RowPartition::from_row_starts(p.row_starts(), nvals).unwrap();
        prop_assert_eq!(from_starts.row_splits(), p.row_splits());
        let from_limits = RowPartition::from_row_limits(p.row_limits(), nvals).unwrap();
        prop_assert_eq!(from_limits.row_splits(), p.row_splits());
        prop_assert_eq!(p.value_rowids().len(), nvals);
        if let Some(&len) = lengths.first() {
            if lengths.iter().all(|&l| l == len) {
                let u = RowPartition::from_uniform_row_length(len, nvals, Some(lengths.len() as i64)).unwrap();
                prop_assert_eq!(u.row_splits(), p.row_splits());
            }
        }
    }

    #[test]
    fn to_tensor_then_from_tensor_round_trips(rows in prop::collection::vec(prop::collection::vec(1i32..100, 0..6), 1..6)) {
        // Values are nonzero, so padding with 0 never collides with a value. (At least one
        // row: `tf.ragged.constant([], ragged_rank=1)` is an error, as in TensorFlow.)
        let literal = format!("{:?}", rows);
        let program = format!(
            "x = tf.ragged.constant({literal}, dtype=tf.int32, ragged_rank=1)\n\
             y = tf.RaggedTensor.from_tensor(x.to_tensor(), padding=0)\n\
             y.to_list()\nx.to_list()\ny.shape[0]\n"
        );
        let out = run(&program);
        prop_assert_eq!(out.len(), 3, "{:?}", out);
        prop_assert_eq!(&out[0], &out[1]);
        prop_assert_eq!(out[2]["value"].as_u64(), Some(rows.len() as u64));
    }

    #[test]
    fn ragged_concat_matches_reference(a in rows_strategy(5, 4), b in rows_strategy(5, 4)) {
        let (x, y) = (ragged_of(&rows2(&a), 2), ragged_of(&rows2(&b), 2));
        let out = concat(&[x.clone(), y.clone()], 0).unwrap();
        let mut want = a.clone();
        want.extend(b.iter().cloned());
        prop_assert_eq!(tree_of(&out), rows2(&want));
        let out1 = concat(&[x, y], 1);
        if a.len() == b.len() {
            let want: Vec<Vec<i32>> = a.iter().zip(&b).map(|(p, q)| p.iter().chain(q).copied().collect()).collect();
            prop_assert_eq!(tree_of(&out1.unwrap()), rows2(&want));
        } else {
            prop_assert!(out1.is_err());
        }
    }

    #[test]
    fn rank2_reductions_match_reference(rows in rows_strategy(6, 5)) {
        let t = rows2(&rows);
        let x = ragged_of(&t, 2);
        for op in [ReduceOp::Sum, ReduceOp::Max] {
            let mut all = Vec::new();
            leaves(&t, &mut all);
            let total = reduce(&x, None, op, false).unwrap();
            prop_assert_eq!(tree_of(&total), Tree::Leaf(combine(op, &all)));
            for axis in 0..2 {
                let got = reduce(&x, Some(&[axis as i64]), op, false).unwrap();
                prop_assert_eq!(tree_of(&got), reduce_ref(&t, 2, axis, op, 0), "axis {} op {:?}", axis, op);
                let neg = reduce(&x, Some(&[axis as i64 - 2]), op, false).unwrap();
                prop_assert_eq!(tree_of(&neg), tree_of(&got));
            }
        }
    }

    #[test]
    fn rank3_reductions_match_reference(x in rank3_strategy(), (d, u) in rank3_uniform_strategy()) {
        let cases = [(rows3(&x), ragged_of(&rows3(&x), 3), 0), (rows3(&u), ragged_inner(&rows3(&u), 3, d), d)];
        for (t, arr, uniform) in cases {
            for op in [ReduceOp::Sum, ReduceOp::Max] {
                let mut all = Vec::new();
                leaves(&t, &mut all);
                let total = reduce(&arr, None, op, false).unwrap();
                prop_assert_eq!(tree_of(&total), Tree::Leaf(combine(op, &all)));
                for axis in 0..3 {
                    let got = reduce(&arr, Some(&[axis as i64]), op, false).unwrap();
                    prop_assert_eq!(tree_of(&got), reduce_ref(&t, 3, axis, op, uniform), "axis {} op {:?} on {:?}", axis, op, arr.shape());
                }
            }
        }
    }

    #[test]
    fn broadcast_add_matches_reference(
        rows in rows_strategy(5, 4),
        d in 1usize..4,
        kind in 0usize..7,
        seed in prop::collection::vec(-9i32..9, 64),
    ) {
        let n = rows.len();
        let mut k = 0;
        let mut next = || { k += 1; seed[k % seed.len()] as i64 };
        // x: rank 2 ragged, or rank 3 ragged with a uniform inner dimension of size d.
        let rank3 = kind >= 4;
        let x_tree = if rank3 {
            Tree::List(rows.iter().map(|r| Tree::List(r.iter().map(|_| Tree::List((0..d).map(|_| Tree::Leaf(next())).collect())).collect())).collect())
        } else {
            rows2(&rows)
        };
        let x = if rank3 {
            ragged_inner(&x_tree, 3, d)
        } else {
            ragged_of(&x_tree, 2)
        };
        // y: a compatible dense or ragged operand of the kind chosen.
        let y_tree = match kind {
            0 => Tree::Leaf(next()),
            1 => Tree::List((0..n).map(|_| Tree::List(vec![Tree::Leaf(next())])).collect()),
            2 => Tree::List(rows.iter().map(|r| Tree::List(r.iter().map(|_| Tree::Leaf(next())).collect())).collect()),
            3 => Tree::List(vec![Tree::Leaf(next())]),
            4 => Tree::List((0..d).map(|_| Tree::Leaf(next())).collect()),
            5 => Tree::List((0..n).map(|_| Tree::List(vec![Tree::List((0..d).map(|_| Tree::Leaf(next())).collect())])).collect()),
            _ => Tree::List(rows.iter().map(|r| Tree::List(r.iter().map(|_| Tree::List(vec![Tree::Leaf(next())])).collect())).collect()),
        };
        let y = match kind {
            0 | 1 | 3 | 4 | 5 => dense_of(&y_tree),
            2 => ragged_of(&y_tree, 2),
            _ => ragged_inner(&y_tree, 3, 1),
        };
        let x_rank = if rank3 { 3 } else { 2 };
        let y_rank = [0, 2, 2, 1, 1, 3, 3][kind];
        let rank = x_rank.max(y_rank);
        let want = broadcast_ref(&lift(&x_tree, x_rank, rank), &lift(&y_tree, y_rank, rank));
        let got = broadcast::binary(BinaryOp::Add, &x, &y);
        match (got, want) {
            (Ok(g), Some(w)) => prop_assert_eq!(tree_of(&g), w),
            (Err(_), None) => {}
            (g, w) => prop_assert!(false, "ragtag {:?} vs reference {:?}", g.map(|g| tree_of(&g)), w),
        }
        // Broadcasting is symmetric.
        let flipped = broadcast::binary(BinaryOp::Add, &y, &x).map(|g| tree_of(&g)).ok();
        let forward = broadcast::binary(BinaryOp::Add, &x, &y).map(|g| tree_of(&g)).ok();
        prop_assert_eq!(flipped, forward);
    }
}

/// Runs a program and returns the JSON of each displayed value (and of an error, if any).
fn run(program: &str) -> Vec<serde_json::Value> {
    ragtag::session::json_outputs(program)
}
