//! The workload of the instruction-count guard (bench/instructions.sh): the benchmark's
//! operations on a 10,000-row ragged tensor, and its three small inputs, each run through a
//! whole `Session` (parse and evaluate).
//!
//! `cargo run --release --example small_ops -- OP [REPEATS]` sets up the data, then runs OP
//! REPEATS times (default 1); OP `setup` runs nothing more, so callgrind's count for OP
//! minus its count for `setup` is what OP costs. `list` prints the operations.

use ragtag::session::Collect;

use ragtag::Session;

/// mimalloc keeps freed large blocks for reuse: a result of tens of megabytes is not
/// page-faulted into being by every operation, as with glibc, which returns each block over
/// 32 MiB to the system at once (the binary's allocator, so the counts are the binary's).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The data: 10,000 rows of lengths 0..=20 and int64 values in -1000..1000, made by
/// arithmetic (no random numbers), a [10000, 1] column, its sparse form, and the small
/// ragged tensor of the interactive figures.
const SETUP: &str = "\
lengths = tf.range(10000, dtype=tf.int64) * 7 % 21
vals = tf.range(tf.reduce_sum(lengths)) * 37 % 2000 - 1000
rt = tf.RaggedTensor.from_row_lengths(vals, lengths)
col = tf.reshape(tf.range(10000, dtype=tf.int64) % 10, [10000, 1])
st = rt.to_sparse()
digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
";

/// Each operation as ragtag code, assigned so that nothing is rendered.
const OPS: &[(&str, &str)] = &[
    (
        "build_from_row_lengths",
        "_ = tf.RaggedTensor.from_row_lengths(vals, lengths)",
    ),
    ("add_scalar", "_ = rt + 1"),
    ("add_same_shape", "_ = rt + rt"),
    ("add_broadcast_column", "_ = rt + col"),
    ("reduce_sum_axis1", "_ = tf.reduce_sum(rt, axis=1)"),
    ("reduce_mean_axis1", "_ = tf.reduce_mean(rt, axis=1)"),
    ("reduce_max_axis1", "_ = tf.reduce_max(rt, axis=1)"),
    ("slice_first2", "_ = rt[:, :2]"),
    ("slice_last1", "_ = rt[:, -1:]"),
    ("row_index", "_ = rt[5000]"),
    ("to_tensor", "_ = rt.to_tensor()"),
    ("to_sparse", "_ = rt.to_sparse()"),
    ("from_sparse", "_ = tf.RaggedTensor.from_sparse(st)"),
    ("concat_axis1", "_ = tf.concat([rt, rt], axis=1)"),
    ("concat_axis0", "_ = tf.concat([rt, rt], axis=0)"),
    ("small_add", "_ = digits + 3"),
    ("small_slice", "_ = digits[:, :2]"),
    ("small_reduce_mean", "_ = tf.reduce_mean(digits, axis=1)"),
];

/// A 1,000-row list literal, as the benchmark's parse_literal figure on a tenth the rows.
fn literal() -> String {
    let mut text = String::from("_ = tf.ragged.constant([");
    for i in 0..1000u64 {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('[');
        for j in 0..(i * 7 % 21) {
            if j > 0 {
                text.push_str(", ");
            }
            text.push_str(&((i * 31 + j * 17) % 2000).to_string());
        }
        text.push(']');
    }
    text.push_str("])");
    text
}

fn run(session: &mut Session, code: &str) {
    if let Err(e) = session.execute(code, &mut Collect::default()) {
        eprintln!("{code}: {}: {}", e.class, e.message);
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let op = args.first().map(String::as_str).unwrap_or("list");
    let repeats: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    if op == "list" {
        for (name, _) in OPS {
            println!("{name}");
        }
        println!("parse_literal_1k");
        return;
    }
    let code = match op {
        "setup" => None,
        "parse_literal_1k" => Some(literal()),
        _ => match OPS.iter().find(|(name, _)| *name == op) {
            Some((_, code)) => Some(code.to_string()),
            None => {
                eprintln!("unknown operation {op:?}; `list` prints them");
                std::process::exit(2);
            }
        },
    };
    let mut session = Session::new();
    run(&mut session, SETUP);
    if let Some(code) = code {
        for _ in 0..repeats {
            run(&mut session, &code);
        }
    }
}
