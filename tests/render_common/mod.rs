//! Shared by the render snapshot tests: a catalogue of values of every kind, and a check of
//! renderings against their insta snapshots under tests/render/.

use std::path::Path;
use std::sync::Arc;

use ragtag::engine::{Buffer, Lod, Ragged, RowPartition, Sparse, StringBuf, Tensor};
use ragtag::session::{Collect, Output};
use ragtag::value::Value;
use ragtag::Session;

/// The last value a program displays.
#[track_caller]
pub fn value_of(src: &str) -> Value {
    let mut s = Session::new();
    let mut sink = Collect::default();
    if let Err(e) = s.execute(src, &mut sink) {
        panic!("{src}\nfailed: {}", e.message);
    }
    sink.outputs
        .into_iter()
        .rev()
        .find_map(|o| match o {
            Output::Value(v) => Some(v),
            Output::Print(_) => None,
        })
        .unwrap_or_else(|| panic!("{src}\ndisplayed nothing"))
}

fn strings(items: &[&str]) -> Tensor {
    Tensor::vector(Buffer::Str(StringBuf::from_strs(items.iter().copied())))
}

fn sparse(indices: Vec<i64>, values: Tensor, shape: Vec<i64>) -> Value {
    Value::Sparse(Arc::new(Sparse::new(indices, values, shape).unwrap()))
}

fn lod(data: Tensor, levels: Vec<Vec<i64>>) -> Value {
    Value::Lod(Arc::new(Lod::new(data, levels).unwrap()))
}

/// A ragged tensor of `rows` rows whose row i has `i % 7` values (0, 1, 2, …).
pub fn long_ragged(rows: usize) -> Value {
    let lengths: Vec<i64> = (0..rows as i64).map(|i| i % 7).collect();
    let n: i64 = lengths.iter().sum();
    let p = RowPartition::from_row_lengths(&lengths, None).unwrap();
    Value::ragged(Ragged::new(vec![p], Tensor::vector(Buffer::I64((0..n).collect()))).unwrap())
}

/// Every kind of value the renderers handle, by name.
pub fn catalogue() -> Vec<(&'static str, Value)> {
    let digits = "tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])";
    let mut out: Vec<(&'static str, Value)> = vec![
        ("ragged_digits", value_of(digits)),
        (
            "ragged_empty_rows",
            value_of("tf.ragged.constant([[], [], [7], []])"),
        ),
        (
            "ragged_no_rows",
            value_of("tf.RaggedTensor.from_row_splits(values=tf.constant([], dtype=tf.int32), row_splits=[0])"),
        ),
        (
            "ragged_strings",
            value_of(
                "tf.ragged.constant([[\"it's\", 'say \"hi\"', ''], [' padded', 'naïve', '日本語', 'a\\nb'], ['·', '...']])",
            ),
        ),
        (
            "ragged_floats",
            value_of(
                "tf.ragged.constant([[1.5, float('nan'), float('inf')], [-float('inf')], [0.1, 1e-5, 16.0 / 3.0]])",
            ),
        ),
        (
            "ragged_inner_dense",
            value_of("tf.ragged.constant([[[1, 3], [0, 0], [1, 3]], [[5, 3]], [[3, 3], [1, 2]]], ragged_rank=1)"),
        ),
        (
            "ragged_rank3",
            value_of(
                "tf.RaggedTensor.from_nested_row_splits(flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], \
                 nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))",
            ),
        ),
        (
            "ragged_rank4",
            value_of(
                "tf.ragged.constant([[[['I', 'like', 'ragged', 'tensors.']], [['Oh', 'yeah?'], \
                 ['What', 'can', 'you', 'use', 'them', 'for?']], [['Processing', 'variable', 'length', 'data!']]], \
                 [[['I', 'like', 'cheese.'], ['Do', 'you?']], [['Yes.'], ['I', 'do.']]]])",
            ),
        ),
        (
            "ragged_uniform",
            value_of(
                "tf.RaggedTensor.from_uniform_row_length(values=tf.RaggedTensor.from_row_splits(\
                 values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 5, 9, 10]), uniform_row_length=2)",
            ),
        ),
        (
            "ragged_wide",
            value_of("tf.RaggedTensor.from_row_lengths(values=tf.range(60), row_lengths=[40, 0, 20])"),
        ),
        ("ragged_long", long_ragged(1000)),
        ("dense_scalar", value_of("tf.constant(3)")),
        ("dense_string_scalar", value_of("tf.constant('the')")),
        ("dense_vector", value_of("tf.constant([3, 1, 4, 1])")),
        ("dense_bool", value_of("tf.constant([True, False, True])")),
        (
            "dense_floats",
            value_of("tf.constant([2.25, float('nan'), 16.0 / 3.0, 6.0, -float('inf')], dtype=tf.float64)"),
        ),
        (
            "dense_matrix",
            value_of(
                "tf.constant([[-0.14285272, 0.02908629, -0.16327512, -0.14529026], \
                 [-0.4479212, -0.35615516, 0.17110227, 0.2522229], [-0.1987868, -0.13152348, -0.0325102, 0.02125177]])",
            ),
        ),
        (
            "dense_strings",
            value_of(
                "tf.constant(['What makes you think she is a witch?', 'She turned me into a newt.', 'A newt?', 'Well, I got better.'])",
            ),
        ),
        ("dense_rank3", value_of("tf.reshape(tf.range(24), [2, 3, 4])")),
        ("dense_rank4", value_of("tf.reshape(tf.range(120), [2, 5, 3, 4])")),
        ("dense_big", value_of("tf.reshape(tf.range(10000), [100, 100])")),
        ("dense_long_vector", value_of("tf.range(1000)")),
        ("dense_empty", value_of("tf.zeros([0])")),
        ("dense_empty_columns", value_of("tf.zeros([3, 0])")),
        (
            "sparse_strings",
            sparse(
                vec![0, 0, 1, 0, 1, 1, 1, 2, 1, 3, 2, 0, 2, 1],
                strings(&["Hi", "Welcome", "to", "the", "fair", "Have", "fun"]),
                vec![3, 4],
            ),
        ),
        (
            "sparse_ints",
            sparse(
                vec![0, 0, 1, 2, 2, 3],
                Tensor::vector(Buffer::I32(vec![1, 0, 2].into())),
                vec![3, 4],
            ),
        ),
        (
            "sparse_vector",
            sparse(
                vec![1, 4],
                Tensor::vector(Buffer::F32(vec![0.5, -2.0].into())),
                vec![6],
            ),
        ),
        (
            "sparse_rank3",
            sparse(
                vec![0, 0, 1, 1, 2, 0],
                Tensor::vector(Buffer::I64(vec![7, 8].into())),
                vec![2, 3, 2],
            ),
        ),
        (
            "sparse_empty",
            sparse(vec![], Tensor::vector(Buffer::I64(vec![].into())), vec![2, 2]),
        ),
        (
            "sparse_big",
            sparse(
                (0..1000i64).flat_map(|i| [i, i]).collect(),
                Tensor::vector(Buffer::I64((0..1000).collect())),
                vec![1000, 1000],
            ),
        ),
        (
            "lod_one_level",
            lod(
                Tensor::new(vec![5, 2], Buffer::I64((1..=10).collect())).unwrap(),
                vec![vec![0, 2, 5]],
            ),
        ),
        (
            "lod_two_levels",
            lod(
                Tensor::new(vec![7, 2], Buffer::I64((1..=14).collect())).unwrap(),
                vec![vec![0, 2, 2, 5], vec![0, 1, 3, 4, 4, 7]],
            ),
        ),
        (
            "lod_vector",
            lod(
                Tensor::vector(Buffer::F32(vec![0.5, 1.5, 2.5].into())),
                vec![vec![0, 1, 3]],
            ),
        ),
        ("python_int", Value::Int(3)),
        ("python_float", Value::Float(0.1)),
        ("python_str", Value::str("it's")),
        ("python_list", value_of("[1, 'a', None]")),
        ("python_none", Value::None),
        (
            "tuple_of_tensors",
            value_of(&format!(
                "rt = {digits}\n(tf.reduce_max(rt, axis=-1), tf.reduce_min(rt, axis=-1))"
            )),
        ),
        ("shape", value_of(&format!("{digits}.shape"))),
        ("dtype", value_of("tf.int32")),
    ];
    out.sort_by_key(|(n, _)| *n);
    out
}

/// Checks each rendering against its snapshot, tests/render/FORM/NAME.snap (insta): one that
/// changed fails the test, and `cargo insta review` (or INSTA_UPDATE=always) takes it in once
/// the diff has been read.
pub fn check_all(form: &str, rendered: impl IntoIterator<Item = (String, String)>) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/render")
            .join(form),
    );
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for (name, text) in rendered {
            insta::assert_snapshot!(name, text);
        }
    });
}
