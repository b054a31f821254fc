//! Tensor-aware comparison through the real binary: when a block showing a tensor differs,
//! the report names the first difference in tensor words (row partition, values within the
//! dtype's tolerance, dtype) before the text diff.

use super::golden_features::{ragtag_test, s, scratch};

/// Writes `text` as `NAME.rtt` in a scratch folder and runs `ragtag test` on it.
fn run(name: &str, text: &str) -> (bool, String) {
    let dir = scratch(&format!("tensor-{name}"));
    let path = dir.join(format!("{name}.rtt"));
    std::fs::write(&path, text).unwrap();
    let (ok, out, err) = ragtag_test(&[s(&path)], &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.is_empty(), "{err}");
    (ok, out)
}

/// The report line naming the first difference comes before the diff.
#[track_caller]
fn says_before_the_diff(out: &str, words: &str) {
    let at = out
        .find(words)
        .unwrap_or_else(|| panic!("no `{words}` in:\n{out}"));
    let diff = out.find("--- ").expect("a diff");
    assert!(at < diff, "the tensor words come before the diff:\n{out}");
}

const RAGGED: &str = "\
>>> tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
RaggedTensor  dtype=int32  shape=[3, None(1..3)]  ragged_rank=1  values=6
┌─────┬─────┬───┬───┬───┐
│ row ┆ len ┆ 0 ┆ 1 ┆ 2 │
╞═════╪═════╪═══╪═══╪═══╡
│   0 ┆   2 ┆ 1 ┆ 2 ┆ · │
│   1 ┆   1 ┆ 3 ┆ · ┆ · │
│   2 ┆   3 ┆ 4 ┆ 5 ┆ 6 │
└─────┴─────┴───┴───┴───┘
· absent: nothing is stored here (past the end of a row, or an empty row)
";

#[test]
fn a_row_partition_change_is_reported_by_row_and_level() {
    let (ok, out) = run("ragged", RAGGED);
    assert!(ok, "{out}");
    // The program now makes row 1 one value longer (and row 2 one shorter).
    let changed = RAGGED.replace("[[1, 2], [3], [4, 5, 6]]", "[[1, 2], [3, 4], [5, 6]]");
    let (ok, out) = run("ragged", &changed);
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "line 2: row 1 of level 1: expected 1 value, got 2");
    // The TensorFlow-style form says the same.
    let text = ">>> print(tf.ragged.constant([[[1], [2, 3]], [[4]]]))\n\
                <tf.RaggedTensor [[[1], [2]], [[4]]]>\n";
    let (ok, out) = run("ragged_tf", text);
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "row 1 of level 2: expected 1 value, got 2");
}

#[test]
fn a_value_change_is_reported_by_index_with_its_tolerance() {
    let (ok, out) = run(
        "value",
        &RAGGED.replace("│   2 ┆   3 ┆ 4 ┆ 5 ┆ 6 │", "│   2 ┆   3 ┆ 4 ┆ 7 ┆ 6 │"),
    );
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "[2][1]: expected 7, got 5 (integers are exact)");
    let text = ">>> print(tf.constant([[0.5, 1.0], [2.0, 0.25]]))\n\
                tf.Tensor(\n[[0.5  1.  ]\n [2.   0.26]], shape=(2, 2), dtype=float32)\n";
    let (ok, out) = run("float", text);
    assert!(!ok, "{out}");
    says_before_the_diff(
        &out,
        "[1][1]: expected 0.26, got 0.25 (float32; rtol 1e-06)",
    );
}

#[test]
fn a_dtype_change_is_reported_first() {
    let text = ">>> print(tf.constant([1, 2], dtype=tf.int64))\n\
                tf.Tensor([1 3], shape=(2,), dtype=int32)\n";
    let (ok, out) = run("dtype", text);
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "dtype: expected int32, got int64");
}

const FLOAT32: &str = "\
>>> tf.constant([0.5, 2.0])
Tensor  dtype=float32  shape=[2]  values=2
┌────────────┬─────┐
│          0 ┆   1 │
╞════════════╪═════╡
│ 0.50000006 ┆ 2.0 │
└────────────┴─────┘
";

#[test]
fn a_float32_last_bit_change_passes_by_default_and_fails_with_rtol_0() {
    let (ok, out) = run("last_bit", FLOAT32);
    assert!(ok, "{out}");
    let (ok, out) = run("last_bit_exact", &format!("# ragtag: rtol=0\n{FLOAT32}"));
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "[0]: expected 0.50000006, got 0.5 (float32; rtol 0)");
}

#[test]
fn sparse_indices_and_lod_offsets_are_reported_in_their_words() {
    let text = ">>> print(tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4]))\n\
                SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 3]], shape=(2, 2), dtype=int64), values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))\n";
    let (ok, out) = run("sparse", text);
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "index of stored value 1: expected [1, 3], got [1, 2]");
    let text =
        ">>> print(fluid.create_lod_tensor([[1, 2, 3], [3, 4]], [[3, 2]], fluid.CPUPlace()))\n\
                LoDTensor(lod=[[0, 2, 5]], data=[[1]\n [2]\n [3]\n [3]\n [4]])\n";
    let (ok, out) = run("lod", text);
    assert!(!ok, "{out}");
    says_before_the_diff(&out, "sequence 0 of LoD level 0: expected 2 rows, got 3");
}
