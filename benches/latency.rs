//! Interactive latency: small inputs through the whole `Session` (parse + evaluate, not
//! rendering), and the parse alone, in microseconds; then a 100,000-row list literal through
//! the parser alone and through the session, in seconds.
//!
//! `cargo bench --bench latency [-- ITERATIONS]` (default 20,000 per input). Each figure is
//! the median of the timed runs after a warm-up: on a shared machine the median is steadier
//! than the best and closer to what a user sees.

use std::time::Instant;

use ragtag::engine::random::Pcg;
use ragtag::session::Collect;
use ragtag::Session;

/// mimalloc keeps freed large blocks for reuse: a result of tens of megabytes is not
/// page-faulted into being by every operation, as with glibc, which returns each block over
/// 32 MiB to the system at once (`cargo bench --bench engine` shows the difference).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The median of `reps` timings of `f`, in seconds, after `reps / 10` untimed runs.
fn median(reps: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..reps / 10 {
        f();
    }
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let reps: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20_000);
    let mut session = Session::new();
    session
        .execute(
            "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])",
            &mut Collect::default(),
        )
        .expect("the setup runs");
    for (key, code) in [
        ("small_add", "digits + 3"),
        ("small_slice", "digits[:, :2]"),
        ("small_reduce_mean", "tf.reduce_mean(digits, axis=1)"),
    ] {
        let parse = median(reps, || {
            ragtag::syntax::parse(code).expect("parses");
        });
        let whole = median(reps, || {
            session
                .execute(code, &mut Collect::default())
                .expect("runs");
        });
        println!(
            "{key:<20} session {:>8.2} µs   parse alone {:>8.2} µs",
            whole * 1e6,
            parse * 1e6
        );
    }

    // The literal of the engine benchmark's parse_literal_100k.
    let mut rng = Pcg::new(0);
    let mut text = String::from("tf.ragged.constant([");
    for i in 0..100_000 {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('[');
        for j in 0..rng.next_u32() % 21 {
            if j > 0 {
                text.push_str(", ");
            }
            text.push_str(&((rng.next_u32() % 2000) as i64 - 1000).to_string());
        }
        text.push(']');
    }
    text.push_str("])");
    let parse = median(5, || {
        ragtag::syntax::parse(&text).expect("parses");
    });
    let whole = median(5, || {
        session
            .execute(&text, &mut Collect::default())
            .expect("runs");
    });
    println!(
        "literal_100k ({:.1} MB) session {whole:.4} s   parse alone {parse:.4} s",
        text.len() as f64 / 1e6
    );
}
