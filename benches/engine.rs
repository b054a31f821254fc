//! The engine benchmark: the workload of ../shared/bench/anchors.py (the same data, the same
//! operations, the same keys), timed in ragtag, printed as one JSON object so a run can be
//! set beside TensorFlow's and Awkward Array's figures.
//!
//! `cargo bench --bench engine [-- N]` (N rows, default 1,000,000). Each figure is the best of
//! five runs after one warm-up, in seconds, or microseconds for keys ending in `_us`.
//!
//! `cargo bench --bench engine -- threshold` instead times an int64 add of a scalar at sizes
//! from 2^10 to 2^23 on one thread and on two, the measurement behind
//! `engine::interrupt::PARALLEL_MIN`.

use std::hint::black_box;

/// The binary's allocator (src/main.rs), so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use ragtag::engine::lod_ops::{sequence_pad, sequence_pool, PoolType};
use ragtag::engine::ops::broadcast::binary;
use ragtag::engine::ops::concat::concat;
use ragtag::engine::ops::index::{dense_getitem, getitem, Key};
use ragtag::engine::ops::kernels::BinaryOp;
use ragtag::engine::ops::layout::transpose;
use ragtag::engine::ops::reduce::{reduce, ReduceOp};
use ragtag::engine::random::Pcg;
use ragtag::engine::{Array, Buffer, Lod, Ragged, RowPartition, Scalar, Sparse, Tensor};
use ragtag::session::Collect;
use ragtag::Session;

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Microseconds of an int64 add of a scalar over `2^k` elements, on a pool of 1 and of 2
/// threads, for each `k`: where two threads start to win is `PARALLEL_MIN`.
fn threshold() {
    use ragtag::engine::ops::kernels;
    let one = Buffer::I64(vec![1i64].into());
    for k in 10..=23 {
        let n = 1usize << k;
        let x = Buffer::I64((0..n as i64).collect());
        let time = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            pool.install(|| {
                best(20, || {
                    drop(black_box(kernels::binary(BinaryOp::Add, &x, &one, n)));
                })
            }) * 1e6
        };
        println!(
            "2^{k:<2} {n:>9}: 1 thread {:>10.1} us, 2 threads {:>10.1} us",
            time(1),
            time(2)
        );
    }
}

#[allow(clippy::vec_init_then_push)] // one push per timed operation reads like the anchors list
fn main() {
    if std::env::args().any(|a| a == "threshold") {
        return threshold();
    }
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = Pcg::new(0);
    let lengths: Vec<i64> = (0..n).map(|_| (rng.next_u32() % 21) as i64).collect();
    let total: i64 = lengths.iter().sum();
    let vals: Vec<i64> = (0..total)
        .map(|_| (rng.next_u32() % 2000) as i64 - 1000)
        .collect();
    let col: Vec<i64> = (0..n).map(|_| (rng.next_u32() % 10) as i64).collect();
    let values = Tensor::from_i64(vals);
    let build = || {
        Ragged::new(
            vec![RowPartition::from_row_lengths(&lengths, Some(values.size())).unwrap()],
            values.clone(),
        )
        .unwrap()
    };
    let rt = Array::Ragged(build());
    let one = Array::Dense(Tensor::scalar(Scalar::I64(1)));
    let tcol = Array::Dense(Tensor::new(vec![n, 1], Buffer::I64(col.into())).unwrap());
    let Array::Ragged(r) = &rt else {
        unreachable!()
    };

    let mut out: Vec<(&str, f64)> = Vec::new();
    out.push((
        "build_from_row_lengths",
        best(5, || drop(black_box(build()))),
    ));
    out.push((
        "add_scalar",
        best(5, || drop(black_box(binary(BinaryOp::Add, &rt, &one)))),
    ));
    out.push((
        "add_same_shape",
        best(5, || drop(black_box(binary(BinaryOp::Add, &rt, &rt)))),
    ));
    out.push((
        "add_broadcast_column",
        best(5, || drop(black_box(binary(BinaryOp::Add, &rt, &tcol)))),
    ));
    for (key, op) in [
        ("reduce_sum_axis1", ReduceOp::Sum),
        ("reduce_mean_axis1", ReduceOp::Mean),
        ("reduce_max_axis1", ReduceOp::Max),
    ] {
        out.push((
            key,
            best(5, || drop(black_box(reduce(&rt, Some(&[1]), op, false)))),
        ));
    }
    let first2 = [
        Key::Slice(None, None, None),
        Key::Slice(None, Some(2), None),
    ];
    let last1 = [
        Key::Slice(None, None, None),
        Key::Slice(Some(-1), None, None),
    ];
    out.push((
        "slice_first2",
        best(5, || drop(black_box(getitem(&rt, &first2)))),
    ));
    out.push((
        "slice_last1",
        best(5, || drop(black_box(getitem(&rt, &last1)))),
    ));
    let mid = [Key::Index((n / 2) as i64)];
    out.push(("row_index", best(5, || drop(black_box(getitem(&rt, &mid))))));
    out.push((
        "to_tensor",
        best(5, || drop(black_box(r.to_tensor(&Scalar::I64(0), None)))),
    ));
    out.push((
        "to_sparse",
        best(5, || drop(black_box(Sparse::from_ragged(r)))),
    ));
    // The sparse form lives only for its own figure, so the peak memory is one operation's.
    let st = Sparse::from_ragged(r);
    out.push(("from_sparse", best(5, || drop(black_box(st.to_ragged())))));
    drop(st);
    let pair = [rt.clone(), rt.clone()];
    out.push((
        "concat_axis1",
        best(5, || drop(black_box(concat(&pair, 1)))),
    ));
    out.push((
        "concat_axis0",
        best(5, || drop(black_box(concat(&pair, 0)))),
    ));

    // Paddle's sequence ops on the same rows as a 1-level LoD over [total, 1] float32 data
    // (the layout Paddle feeds them; bench/anchors_sequence.py times TensorFlow's ragged
    // counterparts and Paddle's own ops on the same shapes).
    let floats = Tensor::new(
        vec![values.size(), 1],
        match values.data() {
            Buffer::I64(v) => Buffer::F32(v.iter().map(|&v| v as f32).collect()),
            _ => unreachable!("the values are int64"),
        },
    )
    .expect("the values as a column");
    let seqs = Lod::from_lengths(floats, std::slice::from_ref(&lengths)).expect("a 1-level LoD");
    for (key, pool) in [
        ("sequence_pool_sum", PoolType::Sum),
        ("sequence_pool_max", PoolType::Max),
    ] {
        out.push((
            key,
            best(5, || {
                drop(black_box(sequence_pool(&seqs, pool, 0.0, true).unwrap()))
            }),
        ));
    }
    let zero = Tensor::scalar(Scalar::F32(0.0));
    out.push((
        "sequence_pad",
        best(5, || {
            drop(black_box(sequence_pad(&seqs, &zero, None).unwrap()))
        }),
    ));
    drop(seqs);

    // Dense layout changes of a [1000, 10000] int64 tensor: views, made in constant time,
    // and the first read of a transpose, which copies it into row-major order once.
    let big = Tensor::new(
        vec![1000, 10_000],
        Buffer::I64((0..10_000_000i64).collect()),
    )
    .expect("10^7 elements");
    out.push((
        "transpose_1000x10000",
        best(5, || drop(black_box(transpose(&big, &[1, 0]).unwrap()))),
    ));
    out.push((
        "transpose_then_read",
        best(5, || {
            drop(black_box(transpose(&big, &[1, 0]).unwrap().into_data()));
        }),
    ));
    let every_other = [Key::Slice(None, None, Some(2))];
    out.push((
        "slice_step2_dense",
        best(5, || {
            drop(black_box(dense_getitem(&big, &every_other).unwrap()))
        }),
    ));
    drop(big);

    // 100,000 rows written as a list literal, as the anchors feed json.dumps(rows) to TF.
    let mut text = String::from("tf.ragged.constant([");
    for i in 0..100_000 {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('[');
        let k = rng.next_u32() % 21;
        for j in 0..k {
            if j > 0 {
                text.push_str(", ");
            }
            text.push_str(&((rng.next_u32() % 2000) as i64 - 1000).to_string());
        }
        text.push(']');
    }
    text.push_str("])");
    let mut session = Session::new();
    out.push((
        "parse_literal_100k",
        best(3, || {
            let mut sink = Collect::default();
            session.execute(&text, &mut sink).unwrap();
        }),
    ));
    let mut session = Session::new();
    let mut sink = Collect::default();
    session
        .execute(
            "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])",
            &mut sink,
        )
        .unwrap();
    for (key, code) in [
        ("small_add_us", "digits + 3"),
        ("small_slice_us", "digits[:, :2]"),
        ("small_reduce_mean_us", "tf.reduce_mean(digits, axis=1)"),
    ] {
        let t = best(200, || {
            let mut sink = Collect::default();
            session.execute(code, &mut sink).unwrap();
        });
        out.push((key, t * 1e6));
    }
    let body: Vec<String> = out
        .iter()
        .map(|(k, v)| format!("\"{k}\": {{\"ragtag\": {v:.6e}}}"))
        .collect();
    println!("{{\"N\": {n}, \"seconds\": {{{}}}}}", body.join(", "));
}
