//! TensorFlow's printed forms from the seed documents, and NumPy's, checked character
//! for character.

use super::*;
use crate::session::{Collect, Output, Session};
use ragtag_engine::StringBuf;

/// What a program printed.
#[track_caller]
fn printed(src: &str) -> String {
    let mut s = Session::new();
    let mut sink = Collect::default();
    if let Err(e) = s.execute(src, &mut sink) {
        panic!("{src}\nfailed: {}", e.message);
    }
    sink.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Print(t) => Some(t.as_str()),
            Output::Value(_) => None,
        })
        .collect::<String>()
}

const DIGITS: &str = "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])\n";

#[test]
fn overview_ops() {
    let cases = [
        (
            "print(tf.add(digits, 3))",
            "<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
        ),
        (
            "print(tf.reduce_mean(digits, axis=1))",
            "tf.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,), dtype=float64)",
        ),
        (
            "print(digits[0])",
            "tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)",
        ),
        (
            "print(digits[:, :2])",
            "<tf.RaggedTensor [[3, 1], [], [5, 9], [6], []]>",
        ),
        (
            "print(digits[:, -2:])",
            "<tf.RaggedTensor [[4, 1], [], [9, 2], [6], []]>",
        ),
        (
            "print(digits + 3)",
            "<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
        ),
        (
            "print(digits + tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], []]))",
            "<tf.RaggedTensor [[4, 3, 7, 5], [], [10, 15, 9], [14], []]>",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(
            printed(&format!("{DIGITS}{src}")),
            format!("{want}\n"),
            "{src}"
        );
    }
}

#[test]
fn constructing_ragged_tensors() {
    let cases = [
        (
            "print(tf.ragged.constant([[\"Let's\", 'build', 'some', 'ragged', 'tensors', '!'], \
             ['We', 'can', 'use', 'tf.ragged.constant', '.']]))",
            "<tf.RaggedTensor [[b\"Let's\", b'build', b'some', b'ragged', b'tensors', b'!'],\n \
             [b'We', b'can', b'use', b'tf.ragged.constant', b'.']]>",
        ),
        (
            "print(tf.ragged.constant([[['I', 'have', 'a', 'cat'], ['His', 'name', 'is', 'Mat']], \
             [['Do', 'you', 'want', 'to', 'come', 'visit'], [\"I'm\", 'free', 'tomorrow']]]))",
            "<tf.RaggedTensor [[[b'I', b'have', b'a', b'cat'], [b'His', b'name', b'is', b'Mat']],\n \
             [[b'Do', b'you', b'want', b'to', b'come', b'visit'],\n  \
             [b\"I'm\", b'free', b'tomorrow']]]>",
        ),
        (
            "print(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], \
             value_rowids=[0, 0, 0, 0, 2, 2, 3]))",
            "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
        ),
        (
            "print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))",
            "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
        ),
        (
            "print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))",
            "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
        ),
        (
            "print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]))",
            "<tf.RaggedTensor [[b'Hi'], [b'How', b'are', b'you']]>",
        ),
        (
            "print(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]]))",
            "<tf.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>",
        ),
        (
            "print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).bounding_shape())",
            "tf.Tensor([2 3], shape=(2,), dtype=int64)",
        ),
        (
            "x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]\n\
             print(tf.RaggedTensor.from_tensor(x, padding=-1))",
            "<tf.RaggedTensor [[1, 3], [2], [4, 5, 8, 9]]>",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(printed(src), format!("{want}\n"), "{src}");
    }
}

#[test]
fn errors_print_their_message() {
    let src = "try:\n  tf.ragged.constant([['one', 'two'], [3, 4]])\nexcept ValueError as exception:\n  print(exception)\n\
               try:\n  tf.ragged.constant(['A', ['B', 'C']])\nexcept ValueError as exception:\n  print(exception)\n";
    assert_eq!(
        printed(src),
        "Can't convert Python sequence with mixed types to Tensor.\n\
         all scalar values must have the same nesting depth\n"
    );
}

#[test]
fn indexing_and_broadcasting() {
    let queries = "queries = tf.ragged.constant([['Who', 'is', 'George', 'Washington'], \
                   ['What', 'is', 'the', 'weather', 'tomorrow'], ['Goodnight']])\n\
                   print(queries[1])\nprint(queries[1, 2])\nprint(queries[1:])\n\
                   print(queries[:, :3])\nprint(queries[:, -2:])\n";
    assert_eq!(
        printed(queries),
        "tf.Tensor([b'What' b'is' b'the' b'weather' b'tomorrow'], shape=(5,), dtype=string)\n\
         tf.Tensor(b'the', shape=(), dtype=string)\n\
         <tf.RaggedTensor [[b'What', b'is', b'the', b'weather', b'tomorrow'], [b'Goodnight']]>\n\
         <tf.RaggedTensor [[b'Who', b'is', b'George'], [b'What', b'is', b'the'], [b'Goodnight']]>\n\
         <tf.RaggedTensor [[b'George', b'Washington'], [b'weather', b'tomorrow'], [b'Goodnight']]>\n"
    );
    let rt = "rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])\n\
              print(rt[1])\nprint(rt[3, 0])\nprint(rt[:, 1:3])\nprint(rt[:, -1:])\n";
    assert_eq!(
        printed(rt),
        "<tf.RaggedTensor [[5], [], [6]]>\n\
         tf.Tensor([8 9], shape=(2,), dtype=int32)\n\
         <tf.RaggedTensor [[[4]], [[], [6]], [], [[10]]]>\n\
         <tf.RaggedTensor [[[4]],\n\n [[6]],\n\n [[7]],\n\n [[10]]]>\n"
    );
    let cases = [
        (
            "x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])\ny = tf.ragged.constant([[1, 1], [2], [3, 3, 3]])\nprint(x + y)",
            "<tf.RaggedTensor [[2, 3], [5], [7, 8, 9]]>",
        ),
        (
            "x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])\nprint(x + 3)",
            "<tf.RaggedTensor [[4, 5], [6], [7, 8, 9]]>",
        ),
        (
            "x = tf.ragged.constant([[1, 2], [3]])\ny = 3\nprint(x + y)",
            "<tf.RaggedTensor [[4, 5], [6]]>",
        ),
        (
            "x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])\ny = [[1000], [2000], [3000]]\nprint(x + y)",
            "<tf.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>",
        ),
        (
            "x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)\n\
             y = tf.constant([[10]])\nprint(x + y)",
            "<tf.RaggedTensor [[[11, 12],\n  [13, 14],\n  [15, 16]], [[17, 18]]]>",
        ),
        (
            "x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)\n\
             y = tf.constant([10, 20, 30])\nprint(x + y)",
            "<tf.RaggedTensor [[[[11, 21, 31],\n   [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]],\n \
             [[[15, 25, 35],\n   [16, 26, 36]], [[17, 27, 37]]]]>",
        ),
        (
            "rt = tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]])\nprint(rt * 100.0)",
            "<tf.RaggedTensor [[100.0, 400.0, 300.0], [200.0]]>",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(printed(src), format!("{want}\n"), "{src}");
    }
}

#[test]
fn conversions_and_multi_line_tensors() {
    let src =
        "s = tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']])\n\
               print(s.to_tensor(default_value='', shape=[None, 10]))\n";
    assert_eq!(
        printed(src),
        "tf.Tensor(\n\
         [[b'Hi' b'' b'' b'' b'' b'' b'' b'' b'' b'']\n \
         [b'Welcome' b'to' b'the' b'fair' b'' b'' b'' b'' b'' b'']\n \
         [b'Have' b'fun' b'' b'' b'' b'' b'' b'' b'' b'']], shape=(3, 10), dtype=string)\n"
    );
    // The 3x4 float32 average embedding: float32 digits, padded to a common width.
    let src = "print(tf.constant([[-0.14285272, 0.02908629, -0.16327512, -0.14529026], \
               [-0.4479212, -0.35615516, 0.17110227, 0.2522229], \
               [-0.1987868, -0.13152348, -0.0325102, 0.02125177]]))";
    assert_eq!(
        printed(src),
        "tf.Tensor(\n\
         [[-0.14285272  0.02908629 -0.16327512 -0.14529026]\n \
         [-0.4479212  -0.35615516  0.17110227  0.2522229 ]\n \
         [-0.1987868  -0.13152348 -0.0325102   0.02125177]], shape=(3, 4), dtype=float32)\n"
    );
}

#[test]
fn multiple_ragged_dimensions() {
    let nested = "rt = tf.RaggedTensor.from_row_splits(values=tf.RaggedTensor.from_row_splits(\
                  values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 3, 5, 9, 10]), \
                  row_splits=[0, 1, 1, 5])\n\
                  print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                  print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n";
    assert_eq!(
        printed(nested),
        "<tf.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>\n\
         Shape: (3, None, None)\nNumber of partitioned dimensions: 2\n"
    );
    let splits = "rt = tf.RaggedTensor.from_nested_row_splits(flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], \
                  nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))\nprint(rt)\n";
    assert_eq!(
        printed(splits),
        "<tf.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>\n"
    );
    let inner = "rt = tf.RaggedTensor.from_row_splits(values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]], \
                 row_splits=[0, 3, 4, 6])\n\
                 print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                 print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n\
                 print(\"Flat values shape: {}\".format(rt.flat_values.shape))\n\
                 print(\"Flat values:\\n{}\".format(rt.flat_values))\n";
    assert_eq!(
        printed(inner),
        "<tf.RaggedTensor [[[1, 3],\n  [0, 0],\n  [1, 3]], [[5, 3]], [[3, 3],\n                      [1, 2]]]>\n\
         Shape: (3, None, 2)\nNumber of partitioned dimensions: 1\nFlat values shape: (6, 2)\n\
         Flat values:\n[[1 3]\n [0 0]\n [1 3]\n [5 3]\n [3 3]\n [1 2]]\n"
    );
    let uniform =
        "rt = tf.RaggedTensor.from_uniform_row_length(values=tf.RaggedTensor.from_row_splits(\
                   values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 5, 9, 10]), \
                   uniform_row_length=2)\n\
                   print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                   print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n";
    assert_eq!(
        printed(uniform),
        "<tf.RaggedTensor [[[10, 11, 12], [13, 14]],\n [[15, 16, 17, 18], [19]]]>\n\
         Shape: (2, 2, None)\nNumber of partitioned dimensions: 2\n"
    );
}

#[test]
fn python_lists_and_shapes() {
    let src = "rt = tf.ragged.constant([[1, 2], [3, 4, 5], [6], [], [7]])\n\
               print(\"Python list:\", rt.to_list())\n\
               print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).shape)\n\
               print(repr(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).shape))\n";
    assert_eq!(
        printed(src),
        "Python list: [[1, 2], [3, 4, 5], [6], [], [7]]\n(2, None)\nTensorShape([2, None])\n"
    );
}

/// `print(ragged_sentences.to_sparse())`, on the sparse tensor it returns.
#[test]
fn sparse_tensor_multi_line_indices() {
    let words = ["Hi", "Welcome", "to", "the", "fair", "Have", "fun"];
    let s = Sparse::new(
        vec![0, 0, 1, 0, 1, 1, 1, 2, 1, 3, 2, 0, 2, 1],
        Tensor::vector(Buffer::Str(StringBuf::from_strs(words))),
        vec![3, 4],
    )
    .unwrap();
    assert_eq!(
        str_of(&Value::Sparse(std::sync::Arc::new(s))),
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 0]\n [1 1]\n [1 2]\n [1 3]\n [2 0]\n [2 1]], \
         shape=(7, 2), dtype=int64), values=tf.Tensor([b'Hi' b'Welcome' b'to' b'the' b'fair' b'Have' b'fun'], \
         shape=(7,), dtype=string), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))"
    );
}

/// The `.numpy()` prints of the guide show NumPy's `str` of the arrays.
#[test]
fn numpy_arrays_print_bare() {
    let v = Tensor::vector(Buffer::I32(vec![1, 2, 3, 4, 5, 6, 7].into()));
    assert_eq!(format_of(&Value::tensor(v)), "[1 2 3 4 5 6 7]");
    let splits = Tensor::from_i64(vec![0, 2, 5, 6, 6, 7]);
    assert_eq!(numpy::array_str(&splits), "[0 2 5 6 6 7]");
}

/// `tf.ragged.range` over an empty batch prints `<tf.RaggedTensor []>`.
#[test]
fn empty_ragged() {
    use ragtag_engine::Ragged;
    let p = ragtag_engine::RowPartition::from_row_splits(vec![0], None).unwrap();
    let r = Ragged::new(vec![p], Tensor::vector(Buffer::I64(vec![].into()))).unwrap();
    assert_eq!(ragged_text(&Array::Ragged(r)), "<tf.RaggedTensor []>");
}

/// Big ragged tensors print like NumPy summarises: first and last three rows.
#[test]
fn big_ragged_tensors_are_summarised() {
    use ragtag_engine::Ragged;
    let r = Ragged::new(
        vec![ragtag_engine::RowPartition::from_uniform_row_length(2, 4000, None).unwrap()],
        Tensor::vector(Buffer::I32((0..4000).collect())),
    )
    .unwrap();
    assert_eq!(
        ragged_text(&Array::Ragged(r)),
        "<tf.RaggedTensor [[0, 1],\n [2, 3],\n [4, 5],\n ...,\n [3994, 3995],\n [3996, 3997],\n [3998, 3999]]>"
    );
}
