//! Sparse and LoD tensors through a session: every example of their builtins runs, and the
//! language-level behaviour (errors, in-place LoD setters, conversions, compare) holds.

use ragtag::eval::builtins::registry;
use ragtag::render::json::{error_json, to_json};
use ragtag::session::{Collect, Output};
use ragtag::Session;
use serde_json::{json, Value as J};

/// Runs `src`; returns the JSON of each displayed value (and of the error, if any) and the
/// printed text.
fn run(src: &str) -> (Vec<J>, String) {
    let mut session = Session::new();
    let mut sink = Collect::default();
    let result = session.execute(src, &mut sink);
    let mut values = Vec::new();
    let mut printed = String::new();
    for o in &sink.outputs {
        match o {
            Output::Value(v) => values.push(to_json(v)),
            Output::Print(t) => printed.push_str(t),
        }
    }
    if let Err(e) = result {
        values.push(error_json(e.class.name(), &e.message));
    }
    (values, printed)
}

#[track_caller]
fn values(src: &str) -> Vec<J> {
    run(src).0
}

#[track_caller]
fn error(src: &str) -> (String, String) {
    let v = values(src);
    let last = v.last().expect("an output");
    assert_eq!(last["kind"], "error", "{src}: {last}");
    (
        last["error"].as_str().unwrap().to_string(),
        last["message"].as_str().unwrap().to_string(),
    )
}

fn mine(name: &str) -> bool {
    [
        "tf.sparse",
        "tf.Sparse",
        "fluid.",
        "to_",
        "compare",
        "tf.compat.v1.sparse",
        "tf.RaggedTensor.to_sparse",
        "tf.RaggedTensor.from_sparse",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

#[test]
fn every_example_runs() {
    let mut count = 0;
    for b in registry().all.iter().filter(|b| mine(b.name)) {
        assert!(!b.doc.is_empty(), "{} has no doc", b.name);
        for ex in b.examples {
            let (vals, printed) = run(ex);
            let err = vals.iter().find(|v| v["kind"] == "error");
            assert!(err.is_none(), "example of {} failed: {ex}\n{err:?}", b.name);
            assert!(
                !vals.is_empty() || !printed.is_empty(),
                "example of {} shows nothing: {ex}",
                b.name
            );
            count += 1;
        }
    }
    assert!(count >= 30, "only {count} examples");
}

#[test]
fn every_function_has_an_example() {
    for b in registry().all.iter().filter(|b| mine(b.name)) {
        if b.kind == ragtag::eval::builtins::Kind::Function {
            assert!(!b.examples.is_empty(), "{} has no example", b.name);
        }
    }
}

#[test]
fn tf1_spellings_reach_the_same_ops() {
    let setup =
        "a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], shape=[3, 5])\n";
    for (new, old) in [
        (
            "tf.sparse.to_dense(a, default_value=11)",
            "tf.sparse_tensor_to_dense(a, default_value=11)",
        ),
        ("tf.sparse.concat(0, [a, a])", "tf.sparse_concat(0, [a, a])"),
        (
            "tf.sparse.concat(axis=0, sp_inputs=[a, a])",
            "tf.sparse_concat(concat_dim=0, sp_inputs=[a, a])",
        ),
        ("tf.sparse.reorder(a)", "tf.sparse_reorder(a)"),
        (
            "tf.sparse.retain(a, [True, False, True])",
            "tf.sparse_retain(a, [True, False, True])",
        ),
        (
            "tf.sparse.fill_empty_rows(a, 7)",
            "tf.sparse_fill_empty_rows(a, 7)",
        ),
        (
            "tf.sparse.to_indicator(a, 4)",
            "tf.sparse_to_indicator(a, 4)",
        ),
        (
            "tf.SparseTensor(indices=[[1]], values=[2], dense_shape=[3])",
            "tf.SparseTensorValue(indices=[[1]], values=[2], shape=[3])",
        ),
    ] {
        let (x, y) = (
            values(&format!("{setup}{new}")),
            values(&format!("{setup}{old}")),
        );
        assert_eq!(x, y, "{new} vs {old}");
        assert!(x[0]["kind"] != "error", "{new}: {x:?}");
    }
}

#[test]
fn sparse_properties_and_text() {
    let v = values("st = tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']]).to_sparse()\nst.shape\nst.dense_shape[1]\nst.dtype\nst.values");
    assert_eq!(v[0], json!({"kind": "shape", "value": [3, 4]}));
    assert_eq!(v[1]["value"], 4);
    assert_eq!(v[1]["dtype"], "int64");
    assert_eq!(v[2]["value"], "string");
    assert_eq!(v[3]["shape"], json!([7]));
    let (_, printed) = run("print(tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']]).to_sparse())");
    // TensorFlow's own text, from the ragged guide.
    assert_eq!(
        printed,
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 0]\n [1 1]\n [1 2]\n [1 3]\n [2 0]\n [2 1]], shape=(7, 2), dtype=int64), values=tf.Tensor([b'Hi' b'Welcome' b'to' b'the' b'fair' b'Have' b'fun'], shape=(7,), dtype=string), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))\n"
    );
}

#[test]
fn construction_errors_are_value_errors() {
    assert_eq!(
        error("tf.SparseTensor(indices=[[0, 1]], values=[1, 2], dense_shape=[3, 5])").0,
        "ValueError"
    );
    assert_eq!(
        error("tf.SparseTensor(indices=[[0, 1, 2]], values=[1], dense_shape=[3, 5])").0,
        "ValueError"
    );
    assert_eq!(
        error("tf.SparseTensor(indices=[[0, 1]], values=[[1]], dense_shape=[3, 5])").0,
        "ValueError"
    );
    assert_eq!(
        error("tf.SparseTensor(indices=[[0, 1]], values=[1])").0,
        "TypeError"
    );
    assert_eq!(
        error("tf.SparseTensor(indices=[[0.5, 1]], values=[1], dense_shape=[3, 5])").0,
        "TypeError"
    );
    // An empty tensor may spell its indices [].
    let v = values("tf.sparse.to_dense(tf.SparseTensor(indices=[], values=[], dense_shape=[2]))");
    assert_eq!(v[0]["value"], json!([0.0, 0.0]));
}

#[test]
fn op_errors() {
    let a = "a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5])\n";
    for (src, class) in [
        ("tf.sparse.to_dense([[1, 2]])", "TypeError"),
        ("tf.sparse.retain(a, [True])", "ValueError"),
        ("tf.sparse.concat(2, [a, a])", "InvalidArgumentError"),
        ("tf.sparse.concat(0, [a, tf.SparseTensor(indices=[[0, 0]], values=[1], dense_shape=[3, 4])])", "InvalidArgumentError"),
        ("tf.sparse.add(tf.constant([1]), tf.constant([1]))", "TypeError"),
        ("tf.sparse.add(a, tf.zeros([2, 2], dtype=tf.int32))", "InvalidArgumentError"),
        ("tf.sparse.reduce_sum(a, axis=3)", "InvalidArgumentError"),
        ("tf.sparse.reshape(a, [4, 4])", "InvalidArgumentError"),
        ("tf.sparse.transpose(a, [1, 1])", "InvalidArgumentError"),
        ("tf.sparse.slice(a, [0], [1])", "InvalidArgumentError"),
        ("tf.sparse.to_indicator(a, 2)", "InvalidArgumentError"),
        ("tf.sparse.to_dense(a, default_value=0.5)", "TypeError"),
        ("tf.sparse.map_values(tf.math.square, 3)", "ValueError"),
        ("tf.RaggedTensor.from_sparse(tf.SparseTensor(indices=[[0, 0, 0]], values=[1], dense_shape=[1, 1, 1]))", "ValueError"),
        ("tf.sparse_to_dense(sparse_indices=[0, 2], output_shape=[2, 2], sparse_values=1)", "InvalidArgumentError"),
    ] {
        let (got, msg) = error(&format!("{a}{src}"));
        assert_eq!(got, class, "{src}: {msg}");
    }
    // The out-of-order hint points at reorder; the message names both entries.
    let (_, msg) = error("b = tf.SparseTensor(indices=[[2, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5])\ntf.sparse.to_dense(b)");
    assert!(msg.contains("indices[1] = [0, 3] is out of order"), "{msg}");
    // Caught like TensorFlow's error class.
    let v = values("b = tf.SparseTensor(indices=[[4, 1]], values=[1], dense_shape=[3, 4])\ntry:\n    tf.sparse.to_dense(b)\nexcept tf.errors.InvalidArgumentError as e:\n    r = 'caught'\nr");
    assert_eq!(v[0]["value"], "caught");
}

#[test]
fn more_ops() {
    let a = "a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5])\n";
    let v = values(&format!("{a}tf.sparse.add(a, tf.ones([3, 5], dtype=tf.int32))\ntf.sparse.map_values(tf.math.multiply, a, 10)\ntf.sparse.reduce_sum(a, axis=0, keepdims=True)\n2 * a\ntf.sparse.reduce_sum(a, 1, output_is_sparse=True)"));
    assert_eq!(v[0]["value"][0], json!([1, 2, 1, 3, 1]));
    assert_eq!(v[1]["values"], json!([10, 20, 30]));
    assert_eq!(v[2]["shape"], json!([1, 5]));
    assert_eq!(v[2]["value"], json!([[3, 1, 0, 2, 0]]));
    assert_eq!(v[3]["values"], json!([2, 4, 6]));
    assert_eq!(v[4]["indices"], json!([[0], [2]]));
}

#[test]
fn sparse_dense_arithmetic_keeps_implicit_zeros() {
    let a =
        "a = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[5.0, 6.0], dense_shape=[3, 2])\n";
    let v = values(&format!(
        "{a}a * tf.constant([10.0, 20.0])\na / 2.0\n3.0 * a"
    ));
    assert_eq!(v[0]["values"], json!([100.0, 60.0]));
    assert_eq!(v[1]["values"], json!([2.5, 3.0]));
    assert_eq!(v[2]["values"], json!([15.0, 18.0]));
    for bad in ["a + 1.0", "2.0 / a", "a * tf.constant([1.0, 2.0, 3.0])"] {
        let (class, _) = error(&format!("{a}{bad}"));
        assert!(
            class == "TypeError" || class == "InvalidArgumentError",
            "{bad}: {class}"
        );
    }
}

#[test]
fn lod_setters_update_the_name() {
    let v = values(
        "x = fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), [[2, 3]], fluid.CPUPlace())\n\
         y = x\n\
         x.set_lod([[0, 1, 5]])\n\
         x.lod()\n\
         y.lod()\n\
         x.set_recursive_sequence_lengths([[4, 1]])\n\
         x.recursive_sequence_lengths()\n\
         x.has_valid_recursive_sequence_lengths()\n\
         len(x)",
    );
    // The setters display nothing (they return None); only the name they are called on changes.
    assert_eq!(v[0]["value"], json!([[0, 1, 5]]));
    assert_eq!(v[1]["value"], json!([[0, 2, 5]]));
    assert_eq!(v[2]["value"], json!([[4, 1]]));
    assert_eq!(v[3]["value"], true);
    assert_eq!(v[4]["value"], 5);
    // A failing setter leaves the tensor as it was (the cell is a transaction anyway).
    let (class, _) = error("x = fluid.create_lod_tensor(np.array([[1], [2]]), [[2]], fluid.CPUPlace())\nx.set_lod([[0, 3]])");
    assert_eq!(class, "ValueError");
    // Inside a function the global tensor is updated, as Paddle's shared object would be.
    let v = values("x = fluid.create_lod_tensor(np.array([[1], [2]]), [[2]], fluid.CPUPlace())\ndef f():\n    x.set_lod([[0, 1, 2]])\nf()\nx.lod()");
    assert_eq!(v[0]["value"], json!([[0, 1, 2]]));
}

#[test]
fn lod_data_forms() {
    let v = values("fluid.create_lod_tensor([[1.5, 2.5], [3.5]], [[2, 1]], fluid.CPUPlace())\nfluid.create_lod_tensor([[[1], [2]], [[3]]], [[2, 1], [1, 1, 1]], fluid.CPUPlace())");
    assert_eq!(v[0]["dtype"], "float64");
    assert_eq!(v[0]["shape"], json!([3, 1]));
    assert_eq!(v[1]["lod"], json!([[0, 2, 3], [0, 1, 2, 3]]));
    assert_eq!(v[1]["shape"], json!([3, 1]));
    let (class, msg) =
        error("fluid.create_lod_tensor([[1, 2, 3], [3, 4]], [[2, 2]], fluid.CPUPlace())");
    assert_eq!(class, "ValueError");
    assert!(msg.contains("[[3, 2]]"), "{msg}");
    assert_eq!(
        error("fluid.create_lod_tensor(np.array([[1]]), [[1]], 'cpu')").0,
        "TypeError"
    );
    assert_eq!(error("fluid.create_lod_tensor(tf.ragged.constant([[1], [2, 3]]), [[1, 1]], fluid.CPUPlace())").0, "TypeError");
}

#[test]
fn conversions_between_all_four() {
    let v = values(
        "rt = tf.ragged.constant([[1, 2], [], [3]])\n\
         to_sparse(rt)\n\
         to_ragged(to_sparse(rt))\n\
         to_lod(rt).lod()\n\
         to_ragged(to_lod(rt))\n\
         to_dense(to_lod(rt), default_value=9)\n\
         to_dense(to_sparse(rt))\n\
         to_ragged([[1, 2], [3, 4]])\n\
         to_lod(tf.constant([[1, 2], [3, 4]])).lod()\n\
         to_sparse(fluid.create_lod_tensor(np.array([[1], [2]]), [[1, 1]], fluid.CPUPlace()))",
    );
    assert_eq!(v[0]["indices"], json!([[0, 0], [0, 1], [2, 0]]));
    assert_eq!(v[1]["value"], json!([[1, 2], [], [3]]));
    assert_eq!(v[2]["value"], json!([[0, 2, 2, 3]]));
    assert_eq!(v[3]["value"], json!([[1, 2], [], [3]]));
    assert_eq!(v[4]["value"], json!([[1, 2], [9, 9], [3, 9]]));
    assert_eq!(v[5]["value"], json!([[1, 2], [0, 0], [3, 0]]));
    assert_eq!(v[6]["kind"], "ragged");
    assert_eq!(v[6]["value"], json!([[1, 2], [3, 4]]));
    assert_eq!(v[7]["value"], json!([[0, 2, 4]]));
    assert_eq!(v[8]["dense_shape"], json!([2, 1, 1]));
    // Where a conversion has no meaning, the error says why.
    let (class, msg) =
        error("to_ragged(tf.SparseTensor(indices=[[0, 1]], values=[1], dense_shape=[1, 2]))");
    assert_eq!(class, "InvalidArgumentError");
    assert!(msg.contains("not right-ragged"), "{msg}");
    let (class, msg) = error("to_lod(tf.constant(3))");
    assert_eq!(class, "ValueError");
    assert!(msg.contains("LoDTensor"), "{msg}");
    assert_eq!(error("to_ragged(fluid.LoDTensor())").0, "ValueError");
}

#[test]
fn compare_prints_side_by_side() {
    let (v, printed) = run("compare(tf.ragged.constant([['a'], ['b', 'c']]), tf.sparse.from_dense([['a', ''], ['b', 'c']]), names=['ragged', 'sparse'])");
    assert!(v.is_empty(), "compare displays nothing itself: {v:?}");
    assert!(printed.contains("ragged"), "{printed}");
    assert!(printed.contains("[a, ('')]"), "{printed}");
    assert!(printed.contains("[b, c]"), "{printed}");
    let (class, _) = error("compare(1, 2, names=['one'])");
    assert_eq!(class, "ValueError");
}

#[test]
fn tables_show_implicit_values_and_sequences() {
    let mut session = Session::new();
    session.options.unicode = false;
    let mut sink = Collect::default();
    session
        .execute(
            "tf.SparseTensor(indices=[[0, 1]], values=[7], dense_shape=[2, 2])",
            &mut sink,
        )
        .unwrap();
    let Output::Value(v) = &sink.outputs[0] else {
        panic!()
    };
    let text = session.render_value(v);
    assert!(text.contains("| 0 | (0) |   7 |"), "{text}");
    assert!(text.contains("| 1 | (0) | (0) |"), "{text}");
}
