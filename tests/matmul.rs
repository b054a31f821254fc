//! Matrix products checked from the engine's side: `matmul` agrees with a naive triple loop
//! on random shapes, dtypes, transposes and broadcast batches (integers wrapping around),
//! large products take the parallel, stepped path and still agree, and an interrupt stops
//! a long product.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use ragtag::engine::ops::matmul::{matmul, matmul_arrays, numpy_matmul, Transpose};
use ragtag::engine::{
    interrupt, Array, Buffer, DType, ExceptionClass, Ragged, RowPartition, Tensor,
};

const CASES: u32 = 96;

/// A buffer of `dtype` holding `vals` (wrapped into int32 where needed).
fn buffer(dtype: DType, vals: &[i64]) -> Buffer {
    match dtype {
        DType::Int32 => Buffer::I32(vals.iter().map(|&v| v as i32).collect()),
        DType::Int64 => Buffer::I64(vals.iter().copied().collect()),
        DType::Float32 => Buffer::F32(vals.iter().map(|&v| v as f32).collect()),
        DType::Float64 => Buffer::F64(vals.iter().map(|&v| v as f64).collect()),
        _ => unreachable!("numeric dtypes only"),
    }
}

/// The elements as i64 (the float cases hold small integers, so this is exact).
fn elements(b: &Buffer) -> Vec<i64> {
    match b {
        Buffer::I32(v) => v.iter().map(|&x| x as i64).collect(),
        Buffer::I64(v) => v.to_vec(),
        Buffer::F32(v) => v.iter().map(|&x| x as i64).collect(),
        Buffer::F64(v) => v.iter().map(|&x| x as i64).collect(),
        other => panic!("unexpected buffer {other:?}"),
    }
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The naive product: for every output position, a sum over the inner index, with
/// broadcast batch indices and transposes, wrapping like `dtype`.
fn naive(
    dtype: DType,
    a: &[i64],
    a_shape: &[usize],
    b: &[i64],
    b_shape: &[usize],
    t: Transpose,
) -> (Vec<usize>, Vec<i64>) {
    let (ra, rb) = (a_shape.len(), b_shape.len());
    let (m, k) = if t.a {
        (a_shape[ra - 1], a_shape[ra - 2])
    } else {
        (a_shape[ra - 2], a_shape[ra - 1])
    };
    let n = if t.b {
        b_shape[rb - 2]
    } else {
        b_shape[rb - 1]
    };
    let rank = ra.max(rb) - 2;
    let pad = |s: &[usize]| -> Vec<usize> {
        let batch = &s[..s.len() - 2];
        let mut p = vec![1; rank - batch.len()];
        p.extend_from_slice(batch);
        p
    };
    let (pa, pb) = (pad(a_shape), pad(b_shape));
    let out_batch: Vec<usize> = pa.iter().zip(&pb).map(|(&x, &y)| x.max(y)).collect();
    let (sa, sb) = (strides(&pa), strides(&pb));
    let count: usize = out_batch.iter().product();
    let mut out = Vec::new();
    let wrap = |v: i64| {
        if dtype == DType::Int32 {
            v as i32 as i64
        } else {
            v
        }
    };
    for bi in 0..count {
        let mut rem = bi;
        let (mut ai, mut bj) = (0, 0);
        for d in (0..rank).rev() {
            let i = rem % out_batch[d];
            rem /= out_batch[d];
            ai += if pa[d] == 1 { 0 } else { i * sa[d] };
            bj += if pb[d] == 1 { 0 } else { i * sb[d] };
        }
        for i in 0..m {
            for j in 0..n {
                let mut acc: i64 = 0;
                for p in 0..k {
                    let x = if t.a {
                        a[ai * m * k + p * m + i]
                    } else {
                        a[ai * m * k + i * k + p]
                    };
                    let y = if t.b {
                        b[bj * k * n + j * k + p]
                    } else {
                        b[bj * k * n + p * n + j]
                    };
                    acc = wrap(acc.wrapping_add(wrap(x.wrapping_mul(y))));
                }
                out.push(acc);
            }
        }
    }
    let mut shape = out_batch;
    shape.extend([m, n]);
    (shape, out)
}

/// A random product: dtype, the two shapes (broadcastable batches), transposes and values.
fn case() -> impl Strategy<Value = (DType, Vec<usize>, Vec<usize>, Transpose, Vec<i64>, Vec<i64>)> {
    let dtype = prop_oneof![
        Just(DType::Int32),
        Just(DType::Int64),
        Just(DType::Float32),
        Just(DType::Float64)
    ];
    let batch = prop::collection::vec(1usize..4, 0..3);
    (
        dtype,
        batch,
        (0usize..5, 0usize..5, 0usize..5),
        (any::<bool>(), any::<bool>()),
        (0usize..3, 0usize..3, any::<u8>(), any::<u8>()),
        any::<u64>(),
    )
        .prop_map(
            |(dtype, batch, (m, k, n), (ta, tb), (da, db, ones_a, ones_b), seed)| {
                // Each operand drops some leading batch dimensions and sets some to 1.
                let operand = |drop: usize, ones: u8| -> Vec<usize> {
                    let drop = drop.min(batch.len());
                    batch[drop..]
                        .iter()
                        .enumerate()
                        .map(|(i, &d)| if ones >> i & 1 == 1 { 1 } else { d })
                        .collect::<Vec<_>>()
                };
                let mut a_shape = operand(da, ones_a);
                a_shape.extend(if ta { [k, m] } else { [m, k] });
                let mut b_shape = operand(db, ones_b);
                b_shape.extend(if tb { [n, k] } else { [k, n] });
                // Integers use their whole range (products wrap); floats small integers (exact).
                let mut state = seed | 1;
                let mut next = || {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                };
                let mut values = |len: usize| -> Vec<i64> {
                    (0..len)
                        .map(|_| match dtype {
                            DType::Int32 | DType::Int64 => next() as i64,
                            _ => (next() % 11) as i64 - 5,
                        })
                        .collect()
                };
                let a_vals = values(a_shape.iter().product());
                let b_vals = values(b_shape.iter().product());
                (
                    dtype,
                    a_shape,
                    b_shape,
                    Transpose { a: ta, b: tb },
                    a_vals,
                    b_vals,
                )
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn matmul_equals_a_naive_triple_loop((dtype, a_shape, b_shape, t, a_vals, b_vals) in case()) {
        let a = Tensor::new(a_shape.clone(), buffer(dtype, &a_vals)).unwrap();
        let b = Tensor::new(b_shape.clone(), buffer(dtype, &b_vals)).unwrap();
        let a_vals = elements(a.data());
        let b_vals = elements(b.data());
        let (shape, want) = naive(dtype, &a_vals, &a_shape, &b_vals, &b_shape, t);
        let got = matmul(&a, &b, t).unwrap();
        prop_assert_eq!(got.shape(), &shape[..]);
        prop_assert_eq!(got.dtype(), dtype);
        prop_assert_eq!(elements(got.data()), want);
    }

    #[test]
    fn numpy_matmul_on_matrices_is_the_same_product((dtype, a_shape, b_shape, t, a_vals, b_vals) in case()) {
        prop_assume!(!t.a && !t.b);
        let a = Tensor::new(a_shape.clone(), buffer(dtype, &a_vals)).unwrap();
        let b = Tensor::new(b_shape.clone(), buffer(dtype, &b_vals)).unwrap();
        let got = numpy_matmul(&a, &b).unwrap();
        let want = matmul(&a, &b, t).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn a_ragged_batch_multiplies_row_by_row(
        lengths in prop::collection::vec(0usize..4, 0..5),
        (j, k) in (1usize..4, 1usize..4),
        seed in any::<u64>(),
        tb in any::<bool>(),
    ) {
        // rt is [B, (I), J], w is [B, J, K]: row r of batch i of the product is rt[i][r] · w[i].
        let nvals: usize = lengths.iter().sum();
        let bsz = lengths.len();
        let vals: Vec<i64> = (0..nvals * j).map(|i| ((seed >> (i % 60)) & 7) as i64 - 3).collect();
        let wv: Vec<i64> = (0..bsz * j * k).map(|i| ((seed >> ((i * 7) % 60)) & 7) as i64 - 3).collect();
        let lens: Vec<i64> = lengths.iter().map(|&l| l as i64).collect();
        let rt = Ragged::new(
            vec![RowPartition::from_row_lengths(&lens, None).unwrap()],
            Tensor::new(vec![nvals, j], buffer(DType::Int64, &vals)).unwrap(),
        ).unwrap();
        let w_shape = if tb { vec![bsz, k, j] } else { vec![bsz, j, k] };
        let w = Tensor::new(w_shape, buffer(DType::Int64, &wv)).unwrap();
        let got = matmul_arrays(&Array::Ragged(rt.clone()), &Array::Dense(w), Transpose { a: false, b: tb }).unwrap();
        let Array::Ragged(got) = got else { panic!("a ragged product") };
        prop_assert_eq!(got.row_lengths(), rt.row_lengths());
        let mut want = Vec::new();
        let mut row = 0;
        for (bi, &len) in lengths.iter().enumerate() {
            for _ in 0..len {
                for c in 0..k {
                    let mut acc = 0;
                    for p in 0..j {
                        let wpc = if tb { wv[bi * j * k + c * j + p] } else { wv[bi * j * k + p * k + c] };
                        acc += vals[row * j + p] * wpc;
                    }
                    want.push(acc);
                }
                row += 1;
            }
        }
        prop_assert_eq!(got.flat_values().shape(), &[nvals, k][..]);
        prop_assert_eq!(elements(got.flat_values().data()), want);
    }
}

/// Large products run in steps of blocks on every core; they agree with the naive loop.
#[test]
fn large_products_take_the_parallel_path_and_agree() {
    for (dtype, m, k, n, t) in [
        (
            DType::Float64,
            300,
            300,
            300,
            Transpose { a: false, b: false },
        ),
        (
            DType::Float32,
            257,
            190,
            301,
            Transpose { a: true, b: true },
        ),
        (DType::Int64, 200, 300, 200, Transpose { a: false, b: true }),
        (DType::Int32, 129, 500, 131, Transpose { a: true, b: false }),
    ] {
        let a_shape = if t.a { vec![k, m] } else { vec![m, k] };
        let b_shape = if t.b { vec![n, k] } else { vec![k, n] };
        let a_vals: Vec<i64> = (0..m * k).map(|i| (i * 7 % 13) as i64 - 6).collect();
        let b_vals: Vec<i64> = (0..k * n).map(|i| (i * 5 % 11) as i64 - 5).collect();
        let a = Tensor::new(a_shape.clone(), buffer(dtype, &a_vals)).unwrap();
        let b = Tensor::new(b_shape.clone(), buffer(dtype, &b_vals)).unwrap();
        let (shape, want) = naive(dtype, &a_vals, &a_shape, &b_vals, &b_shape, t);
        let got = matmul(&a, &b, t).unwrap();
        assert_eq!(got.shape(), &shape[..]);
        assert_eq!(elements(got.data()), want, "{dtype} {m}x{k}x{n}");
    }
}

/// Integer overflow wraps around in a debug build too (no overflow panic).
#[test]
fn integer_products_wrap_around() {
    let a = Tensor::new(vec![1, 2], Buffer::I64(vec![i64::MAX, i64::MIN].into())).unwrap();
    let b = Tensor::new(vec![2, 1], Buffer::I64(vec![3, -1].into())).unwrap();
    let got = matmul(&a, &b, Transpose::default()).unwrap();
    let want = i64::MAX
        .wrapping_mul(3)
        .wrapping_add(i64::MIN.wrapping_mul(-1));
    assert_eq!(got.data(), &Buffer::I64(vec![want].into()));
}

/// An interrupt during a long product stops it with KeyboardInterrupt.
#[test]
fn an_interrupt_stops_a_long_product() {
    // 8 products of 2048 × 2048 float32 matrices: 69 billion multiply-adds, about a
    // second on two cores with AVX-512 kernels (measured), far longer than the 20 ms before the
    // interrupt comes (a billion, the size this test used first, could finish before it).
    let a = Tensor::new(
        vec![8, 2048, 2048],
        Buffer::F32(vec![1.0; 8 * 2048 * 2048].into()),
    )
    .unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    interrupt::watch(Some(flag.clone()));
    let stopper = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let started = std::time::Instant::now();
    let result = matmul(&a, &a, Transpose::default());
    stopper.join().unwrap();
    interrupt::watch(None);
    assert_eq!(result.unwrap_err().class, ExceptionClass::KeyboardInterrupt);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it stopped part-way"
    );
}

/// Shape errors are InvalidArgumentErrors (NumPy's are ValueErrors); none panics.
#[test]
fn bad_shapes_are_errors_not_panics() {
    let t = |shape: Vec<usize>| {
        let n = shape.iter().product();
        Tensor::new(shape, Buffer::F32(vec![1.0; n].into())).unwrap()
    };
    let shapes: Vec<Vec<usize>> = vec![
        vec![],
        vec![3],
        vec![2, 3],
        vec![3, 2],
        vec![2, 2, 3],
        vec![3, 3, 2],
        vec![0, 3],
        vec![1, 0, 2],
    ];
    for x in &shapes {
        for y in &shapes {
            for ta in [false, true] {
                let r = matmul(&t(x.clone()), &t(y.clone()), Transpose { a: ta, b: false });
                if let Err(e) = r {
                    assert_eq!(
                        e.class,
                        ExceptionClass::InvalidArgumentError,
                        "{x:?} {y:?}: {e:?}"
                    );
                }
            }
            if let Err(e) = numpy_matmul(&t(x.clone()), &t(y.clone())) {
                assert_eq!(e.class, ExceptionClass::ValueError, "{x:?} {y:?}: {e:?}");
            }
        }
    }
}
