//! How quickly an interrupt stops a long operation: each statement below works on 10^8
//! elements; a second thread sets the session's cancel flag (what Ctrl-C and a notebook's
//! Interrupt do) a moment after it starts, and this prints how long the statement took to
//! stop after that.
//!
//! ```text
//! cargo run --release --example interrupt_latency
//! ```
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ragtag::session::Collect;
use ragtag::Session;

/// Set-up run once, then the statements that are interrupted.
const SETUP: &str = "x = tf.range(10**8)\nf = tf.cast(x, tf.float64)";
const STATEMENTS: &[&str] = &[
    "y = tf.range(10**8)",
    "y = x + 1",
    "y = x * x - x",
    "y = tf.cast(x, tf.float32)",
    "y = tf.math.sqrt(f)",
    "y = tf.reduce_sum(x)",
    "y = tf.reduce_mean(f)",
    "y = tf.random.uniform([10**8])",
    "y = tf.zeros([10**8]) + tf.ones([10**8])",
    "y = tf.RaggedTensor.from_row_lengths(x, tf.fill([10**7], 10))",
    "y = tf.strings.as_string(x[:10**7])",
];

/// How long after a statement starts the interrupt comes.
const DELAY: Duration = Duration::from_millis(30);

fn main() {
    let mut session = Session::new();
    if let Err(e) = session.execute(SETUP, &mut Collect::default()) {
        eprintln!("set-up failed: {e}");
        std::process::exit(1);
    }
    println!(
        "{:<66} {:>12} {:>14}",
        "statement", "uninterrupted", "stops after"
    );
    for stmt in STATEMENTS {
        let start = Instant::now();
        let full = session.execute(stmt, &mut Collect::default());
        let whole = start.elapsed();
        let flag = session.cancel_flag();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(DELAY);
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let result = session.execute(stmt, &mut Collect::default());
        let done = Instant::now();
        let asked = stopper.join().expect("the stopper thread ran");
        let stopped = match &result {
            Err(e) if e.class == ragtag::engine::ExceptionClass::KeyboardInterrupt => {
                format!("{:.1} ms", done.duration_since(asked).as_secs_f64() * 1e3)
            }
            Err(e) => format!("failed: {e}"),
            Ok(()) => "finished first".to_string(),
        };
        let whole = match full {
            Ok(()) => format!("{:.0} ms", whole.as_secs_f64() * 1e3),
            Err(e) => format!("failed: {e}"),
        };
        println!("{stmt:<66} {whole:>12} {stopped:>14}");
    }
}
