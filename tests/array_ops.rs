//! The array operations run through a `Session`, checked on their JSON output: the guide's
//! uses (concat, tile, map_fn, embeddings, palindromes, ranges) and their error classes.

use ragtag::session::Collect;
use ragtag::Session;
use serde_json::{json, Value as J};

/// Runs a program; returns the JSON of each displayed value, then of the error if any.
fn run(program: &str) -> Vec<J> {
    ragtag::session::json_outputs(program)
}

fn one(program: &str) -> J {
    let mut out = run(program);
    assert_eq!(out.len(), 1, "{program}: {out:?}");
    out.pop().unwrap()
}

#[track_caller]
fn error_class(program: &str) -> String {
    let out = one(program);
    assert_eq!(out["kind"], "error", "{program}: {out}");
    out["error"].as_str().unwrap().to_string()
}

/// The builtins this file covers; each one's examples must run without error.
const ARRAY_BUILTINS: &[&str] = &[
    "tf.concat",
    "tf.stack",
    "tf.ragged.stack",
    "tf.tile",
    "tf.reverse",
    "tf.gather",
    "tf.nn.embedding_lookup",
    "tf.boolean_mask",
    "tf.ragged.boolean_mask",
    "tf.where",
    "tf.expand_dims",
    "tf.squeeze",
    "tf.ragged.map_flat_values",
    "tf.map_fn",
    "tf.ragged.range",
    "tf.ragged.row_splits_to_segment_ids",
    "tf.ragged.segment_ids_to_row_splits",
    "tf.math.segment_sum",
    "tf.math.unsorted_segment_sum",
    "tf.reduce_sum",
    "tf.reduce_prod",
    "tf.reduce_max",
    "tf.reduce_min",
    "tf.reduce_mean",
    "tf.reduce_any",
    "tf.reduce_all",
    "tf.reduce_variance",
    "tf.reduce_std",
];

#[test]
fn array_builtin_examples_run() {
    let reg = ragtag::eval::builtins::registry();
    let mut failures = Vec::new();
    for name in ARRAY_BUILTINS {
        let b = reg
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not registered"));
        assert!(
            !b.examples.is_empty() && b.doc.len() > 40,
            "{name} needs a doc and an example"
        );
        for ex in b.examples {
            let out = run(ex);
            if out.is_empty() || out.iter().any(|o| o["kind"] == "error") {
                failures.push(format!("{name}: {ex} -> {:?}", out.last()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "examples that fail:\n{}",
        failures.join("\n")
    );
}

#[test]
fn embedding_lookup_with_ragged_ids_keeps_embedding_dims_uniform() {
    let out = run("ids = tf.ragged.constant([[633, 768, 237, 309], [28], [847, 998, 635, 20, 547]], dtype=tf.int64)
table = tf.reshape(tf.range(4096.0) / 4096.0, [1024, 4])
emb = tf.nn.embedding_lookup(table, ids)
emb.shape
emb.ragged_rank
emb[1]
tf.reduce_mean(emb, axis=1)[0]
tf.ragged.map_flat_values(tf.nn.embedding_lookup, table, ids).shape");
    assert_eq!(out[0], json!({"kind": "shape", "value": [3, null, 4]}));
    assert_eq!(out[1]["value"], 1);
    assert_eq!(out[2]["shape"], json!([1, 4]));
    assert_eq!(
        out[2]["value"],
        json!([[0.02734375, 0.027587890625, 0.027832031250, 0.028076171875]])
    );
    // mean(633, 768, 237, 309) = 486.75, so the mean row is (4 * 486.75 + k) / 4096.
    let want: Vec<f64> = (0..4).map(|k| (4.0 * 486.75 + k as f64) / 4096.0).collect();
    assert_eq!(out[3]["dtype"], "float32");
    let got: Vec<f64> = out[3]["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-6),
        "{got:?}"
    );
    assert_eq!(out[4], json!({"kind": "shape", "value": [3, null, 4]}));
}

#[test]
fn concat_pads_rows_with_a_dense_marker() {
    let out = run(
        "queries = tf.ragged.constant([['Who', 'is'], ['Pause'], []])
marker = tf.fill([queries.nrows(), 1], '#')
padded = tf.concat([marker, queries, marker], axis=1)
padded
padded[:, :-1]
tf.concat([queries, queries], axis=0).shape",
    );
    assert_eq!(
        out[0],
        json!({"kind": "ragged", "dtype": "string", "shape": [3, null], "ragged_rank": 1,
               "value": [["#", "Who", "is", "#"], ["#", "Pause", "#"], ["#", "#"]]})
    );
    assert_eq!(
        out[1]["value"],
        json!([["#", "Who", "is"], ["#", "Pause"], ["#"]])
    );
    assert_eq!(out[2], json!({"kind": "shape", "value": [6, null]}));
}

#[test]
fn concat_and_stack_errors_name_the_input() {
    let e = one("tf.concat([tf.constant([[1, 2]]), tf.constant([[1, 2, 3]])], axis=0)");
    assert_eq!(e["error"], "InvalidArgumentError");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("dimension 1 of input 1 has size 3"),
        "{e}"
    );
    assert_eq!(
        error_class("tf.concat([tf.constant([1]), tf.constant([[1]])], 0)"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.concat([tf.constant([1, 2]), tf.constant([3])], 1)"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.concat([tf.ragged.constant([[1]]), tf.constant([1])], 0)"),
        "ValueError"
    );
    assert_eq!(
        error_class("tf.concat([tf.ragged.constant([[1], [2]]), tf.ragged.constant([[1]])], 1)"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.concat([tf.ragged.constant([[1]]), tf.ragged.constant([[1.5]])], 0)"),
        "InvalidArgumentError"
    );
    assert_eq!(error_class("tf.concat(5, 0)"), "TypeError");
    assert_eq!(
        error_class("tf.stack([tf.constant([1, 2]), tf.constant([3])])"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.stack([tf.constant([1, 2])], axis=3)"),
        "ValueError"
    );
}

#[test]
fn stacks_and_python_lists() {
    assert_eq!(one("tf.stack([1, 2, 3])")["value"], json!([1, 2, 3]));
    let out = one("tf.ragged.stack([[1, 2, 3], [4]])");
    assert_eq!(out["shape"], json!([2, null]));
    assert_eq!(out["value"], json!([[1, 2, 3], [4]]));
    let out = one("tf.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], []])])");
    assert_eq!(out["shape"], json!([2, null, null]));
    assert_eq!(out["value"], json!([[[1, 2], [3]], [[4], []]]));
    // A list of equal-shape tensors is packed into one tensor; concat still sees its items.
    let out = one("x = tf.constant([[1, 2], [3, 4]])\ntf.concat([x, x], axis=1)");
    assert_eq!(out["value"], json!([[1, 2, 1, 2], [3, 4, 3, 4]]));
}

#[test]
fn tile_reverse_expand_squeeze() {
    let out = run(
        "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
tf.tile(digits, [1, 2])
tf.tile(digits, [2, 1]).shape
tf.reverse(digits, [1])
tf.reverse(digits, [0, 1])
tf.expand_dims(digits, 0).shape
tf.expand_dims(digits, 1).shape
tf.expand_dims(digits, 2).shape
tf.squeeze(tf.expand_dims(digits, 2), axis=[2])",
    );
    assert_eq!(
        out[0]["value"],
        json!([[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []])
    );
    assert_eq!(out[1]["value"], json!([10, null]));
    assert_eq!(
        out[2]["value"],
        json!([[1, 4, 1, 3], [], [2, 9, 5], [6], []])
    );
    assert_eq!(
        out[3]["value"],
        json!([[], [6], [2, 9, 5], [], [1, 4, 1, 3]])
    );
    assert_eq!(out[4]["value"], json!([1, 5, null]));
    assert_eq!(out[5]["value"], json!([5, 1, null]));
    assert_eq!(out[6]["value"], json!([5, null, 1]));
    assert_eq!(
        out[7]["value"],
        json!([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    );
    assert_eq!(
        error_class("tf.tile(tf.constant([1, 2]), [1, 2])"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.reverse(tf.constant([1, 2]), [0, 0])"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.reverse(tf.ragged.constant([[1]]), [2])"),
        "ValueError"
    );
    assert_eq!(
        error_class("tf.expand_dims(tf.constant([1, 2]), 3)"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.squeeze(tf.constant([[1, 2]]), axis=1)"),
        "InvalidArgumentError"
    );
}

#[test]
fn gather_masks_and_where() {
    let out = run(
        "params = tf.ragged.constant([['a', 'b', 'c'], ['d'], [], ['e']])
tf.gather(params, [3, 1, 2, 1, 0])
tf.gather(params, tf.ragged.constant([[3, 1, 2], [1], [], [0]]))
tf.gather(tf.constant([[1, 2, 3], [4, 5, 6]]), [[2, 0]], axis=1)
tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), [True, False, True])
tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), [True, False, True])
tf.where(tf.ragged.constant([[True, False, True], [False, True]]))
tf.where(tf.ragged.constant([[1, 5], [7]]) > 4, 1, 0)",
    );
    assert_eq!(
        out[0]["value"],
        json!([["e"], ["d"], [], ["d"], ["a", "b", "c"]])
    );
    assert_eq!(out[1]["shape"], json!([4, null, null]));
    assert_eq!(
        out[1]["value"],
        json!([[["e"], ["d"], []], [["d"]], [], [["a", "b", "c"]]])
    );
    assert_eq!(out[2]["shape"], json!([2, 1, 2]));
    assert_eq!(out[2]["value"], json!([[[3, 1]], [[6, 4]]]));
    assert_eq!(out[3]["value"], json!([[1, 2], [5, 6]]));
    assert_eq!(out[4]["value"], json!([[1, 2, 3], [5, 6]]));
    assert_eq!(
        out[5],
        json!({"kind": "tensor", "dtype": "int64", "shape": [3, 2], "value": [[0, 0], [0, 2], [1, 1]]})
    );
    assert_eq!(out[6]["value"], json!([[0, 1], [1]]));
    let e = one("tf.gather(tf.constant([1, 2, 3]), [5])");
    assert_eq!(e["error"], "InvalidArgumentError");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("indices[0] = 5 is not in [0, 3)"),
        "{e}"
    );
    // TensorFlow refuses float indices in the op (InvalidArgumentError).
    assert_eq!(
        error_class("tf.gather(tf.constant([1, 2, 3]), [0.5])"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.boolean_mask(tf.ragged.constant([[1], [2, 3]]), [True, False])"),
        "ValueError"
    );
    assert_eq!(
        error_class("tf.boolean_mask(tf.constant([1, 2]), [True])"),
        "ValueError"
    );
    assert_eq!(
        error_class("tf.where(tf.constant([True]), x=tf.constant([1]))"),
        "ValueError"
    );
}

#[test]
fn map_fn_and_map_flat_values() {
    let out = run(
        "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
tf.map_fn(tf.math.square, digits)
tf.map_fn(lambda row: tf.reduce_sum(row), digits, fn_output_signature=tf.int32)
tf.map_fn(lambda row: row[:1], digits)
tf.ragged.map_flat_values(lambda x: x * 2 + 1, digits)
tf.map_fn(lambda x: x * 2, tf.constant([[1, 2], [3, 4]]))",
    );
    assert_eq!(
        out[0]["value"],
        json!([[9, 1, 16, 1], [], [25, 81, 4], [36], []])
    );
    assert_eq!(out[0]["shape"], json!([5, null]));
    assert_eq!(
        out[1],
        json!({"kind": "tensor", "dtype": "int32", "shape": [5], "value": [9, 0, 16, 6, 0]})
    );
    assert_eq!(out[2]["value"], json!([[3], [], [5], [6], []]));
    assert_eq!(
        out[3]["value"],
        json!([[7, 3, 9, 3], [], [11, 19, 5], [13], []])
    );
    assert_eq!(out[4]["value"], json!([[2, 4], [6, 8]]));
    let e = one("tf.map_fn(tf.reduce_sum, tf.ragged.constant([[1, 2], [3]]))");
    assert_eq!(e["error"], "ValueError");
    assert_eq!(
        error_class("tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.ragged.map_flat_values(tf.reduce_sum, tf.ragged.constant([[1, 2], [3]]))"),
        "ValueError"
    );
    assert_eq!(
        error_class("tf.ragged.map_flat_values(tf.add, tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [2, 3]]))"),
        "InvalidArgumentError"
    );
}

#[test]
fn map_fn_stops_when_interrupted() {
    let mut session = Session::new();
    let flag = session.cancel_flag();
    // Ctrl-C arrives while a long map_fn is running.
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let mut sink = Collect::default();
    let started = std::time::Instant::now();
    let err = session
        .execute("tf.map_fn(lambda x: x + 1, tf.range(5000000))", &mut sink)
        .unwrap_err();
    stopper.join().unwrap();
    assert_eq!(err.class.name(), "KeyboardInterrupt");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn ranges_and_segments() {
    let out = run("lengths = tf.ragged.constant([[7], [], [1, 3], [3, 5, 2]])
tf.ragged.range(lengths[3])
tf.ragged.range([7, 0, 2, 3])
tf.ragged.range(3, 12, [2, 3, 4])
tf.ragged.range(0.0, [1.0, 2.0], 0.5)
tf.ragged.range(lengths.values, dtype=tf.int32).shape
tf.ragged.row_splits_to_segment_ids(lengths.row_splits)
tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=4)
tf.math.unsorted_segment_sum(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [0, 0, 1], 2)");
    assert_eq!(out[0]["value"], json!([[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]));
    assert_eq!(
        out[1]["value"],
        json!([[0, 1, 2, 3, 4, 5, 6], [], [0, 1], [0, 1, 2]])
    );
    assert_eq!(
        out[2]["value"],
        json!([[3, 5, 7, 9, 11], [3, 6, 9], [3, 7, 11]])
    );
    assert_eq!(out[3]["dtype"], "float32");
    assert_eq!(out[3]["value"], json!([[0.0, 0.5], [0.0, 0.5, 1.0, 1.5]]));
    assert_eq!(out[4]["value"], json!([6, null]));
    assert_eq!(
        out[5],
        json!({"kind": "tensor", "dtype": "int64", "shape": [6], "value": [0, 2, 2, 3, 3, 3]})
    );
    assert_eq!(out[6]["value"], json!([0, 2, 2, 3, 3]));
    assert_eq!(out[7]["value"], json!([[4, 2], [4, 5, 6]]));
    assert_eq!(
        error_class("tf.ragged.range(0, 5, 0)"),
        "InvalidArgumentError"
    );
    assert_eq!(
        error_class("tf.math.segment_sum(tf.constant([1, 2]), [1, 0])"),
        "InvalidArgumentError"
    );
}
