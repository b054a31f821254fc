//! How long `draw(x)` takes on large values, and how large the SVG is: a 1,000,000-row
//! ragged tensor (the summary picture must take under 50 ms and stay under 100 KB, a
//! bound tests/svg.rs checks for size), a million strings and a large sparse tensor.
//!
//! Run with `cargo run --release --example draw_bench`.
#![allow(clippy::disallowed_methods)] // fixed-size test data

use std::time::Instant;

use ragtag::engine::{Buffer, Ragged, RowPartition, Sparse, StringBuf, Tensor};
use ragtag::render::svg;
use ragtag::value::Value;

/// Best and median of 21 timings of drawing `v`, in milliseconds, and the SVG's size.
fn report(what: &str, v: &Value) {
    let mut bytes = 0;
    let mut ms: Vec<f64> = (0..21)
        .map(|_| {
            let start = Instant::now();
            bytes = std::hint::black_box(svg::to_svg(v)).len();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{what:<52} best {:7.3} ms   median {:7.3} ms   {bytes:>7} bytes",
        ms[0], ms[10]
    );
}

fn main() {
    // One million rows of 0..10 values each (about five million values).
    let lengths: Vec<i64> = (0..1_000_000i64).map(|i| i % 11).collect();
    let n: i64 = lengths.iter().sum();
    let ragged = Ragged::new(
        vec![RowPartition::from_row_lengths(&lengths, None).unwrap()],
        Tensor::vector(Buffer::I64((0..n).collect())),
    )
    .unwrap();
    report(
        &format!("ragged, 1,000,000 rows, {n} values"),
        &Value::ragged(ragged),
    );

    let words = StringBuf::from_strs((0..1_000_000).map(|i| ["a", "bé", "cde", ""][i % 4]));
    let strings = Tensor::vector(Buffer::Str(words));
    report("string, 1,000,000 elements", &Value::tensor(strings));

    let nnz = 100_000i64;
    let indices: Vec<i64> = (0..nnz).flat_map(|i| [i * 7 % 100_000, i]).collect();
    let sparse = Sparse::new(
        indices,
        Tensor::vector(Buffer::F32((0..nnz).map(|i| i as f32).collect())),
        vec![100_000, 100_000],
    )
    .unwrap();
    report(
        "sparse [100000, 100000], 100,000 stored",
        &Value::Sparse(std::sync::Arc::new(sparse)),
    );
}
