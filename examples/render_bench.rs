//! How long rendering huge values takes: a 1,000,000-row ragged tensor and 10,000,000-value
//! tensors, in every form that must stay instant (table, TensorFlow text, HTML, explain).
//! Rendering visits only the rows shown, so each should take well under 10 ms.
//!
//! Run with `cargo run --release --example render_bench`.
#![allow(clippy::disallowed_methods)] // fixed-size test data

use std::time::Instant;

use ragtag::engine::{Buffer, Ragged, RowPartition, Tensor};
use ragtag::render::{explain, html, table, tf_text, Options};
use ragtag::value::Value;

/// Best and median of `runs` timings of `f`, in milliseconds.
fn time(runs: usize, mut f: impl FnMut() -> usize) -> (f64, f64) {
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    (ms[0], ms[runs / 2])
}

fn report(what: &str, v: &Value) {
    let opts = Options::plain(100);
    let runs = 21;
    let forms: [(&str, &dyn Fn() -> usize); 4] = [
        ("table", &|| table::render(v, &opts).len()),
        ("tf str", &|| tf_text::str_of(v).len()),
        ("html", &|| html::to_html(v, &opts).len()),
        ("explain", &|| {
            table::to_text(&explain::explain(v, &opts), &opts).len()
        }),
    ];
    for (form, f) in forms {
        let (best, median) = time(runs, f);
        println!("{what:<50} {form:<8} best {best:7.3} ms   median {median:7.3} ms");
    }
}

fn main() {
    // One million rows of 0..6 values each (about 3 million values).
    let lengths: Vec<i64> = (0..1_000_000i64).map(|i| i % 7).collect();
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

    // Ten million values: one million rows of ten, and the same values as one vector.
    let ten_m: Vec<f32> = (0..10_000_000).map(|i| i as f32 * 0.5).collect();
    let matrix = Tensor::new(vec![1_000_000, 10], Buffer::F32(ten_m.clone().into())).unwrap();
    report("dense float32 [1000000, 10]", &Value::tensor(matrix));
    let vector = Tensor::new(vec![10_000_000], Buffer::F32(ten_m.into())).unwrap();
    report("dense float32 [10000000]", &Value::tensor(vector));

    // Ten million values in one million ragged rows of ten (uniform lengths, ragged type).
    let lengths = vec![10i64; 1_000_000];
    let ragged = Ragged::new(
        vec![RowPartition::from_row_lengths(&lengths, None).unwrap()],
        Tensor::vector(Buffer::I32((0..10_000_000).collect())),
    )
    .unwrap();
    report(
        "ragged int32, 1,000,000 rows, 10,000,000 values",
        &Value::ragged(ragged),
    );
}
