//! The shared helpers, and messages read as a Python user reads them: axes checked by
//! `positive_axis`, lists printed as Python lists, strings in Python's quotes.

use super::{list_str, nested_list_str};
use crate::session::Collect;
use crate::Session;

/// The class and message of the error `program` raises.
#[track_caller]
fn error_of(program: &str) -> (String, String) {
    let mut session = Session::new();
    match session.execute_named(program, "<test>", &mut Collect::default()) {
        Ok(_) => panic!("{program}: no error"),
        Err(e) => (e.class.name().to_string(), e.message.clone()),
    }
}

/// Asserts that `program` raises `class` with a message containing `part` and no Rust
/// debug text (`Some(`, `None)`, double quotes).
#[track_caller]
fn assert_error(program: &str, class: &str, part: &str) {
    let (got_class, message) = error_of(program);
    assert_eq!(got_class, class, "{program}: {message}");
    assert!(message.contains(part), "{program}: {message}");
    for debug in ["Some(", "None)", "\""] {
        assert!(!message.contains(debug), "{program}: {message}");
    }
}

#[test]
fn lists_print_as_python_lists() {
    assert_eq!(list_str([2usize, 3]), "[2, 3]");
    assert_eq!(list_str(Vec::<i64>::new()), "[]");
    assert_eq!(
        nested_list_str(&[vec![1, 2], vec![], vec![-3]]),
        "[[1, 2], [], [-3]]"
    );
}

#[test]
fn row_lengths_axes_go_through_positive_axis() {
    let rt = "rt = tf.ragged.constant([[1, 2, 3], [4]])\n";
    assert_error(
        &format!("{rt}rt.row_lengths(axis=2)"),
        "ValueError",
        "axis 2 is out of range for a tensor of rank 2 (valid: -2 to 1)",
    );
    assert_error(
        &format!("{rt}rt.row_lengths(axis=-3)"),
        "ValueError",
        "axis -3 is out of range for a tensor of rank 2",
    );
}

#[test]
fn merge_dims_checks_each_axis_then_their_order() {
    let rt = "rt = tf.ragged.constant([[[1, 2], [3]], [[4]]])\n";
    assert_error(
        &format!("{rt}rt.merge_dims(0, 3)"),
        "ValueError",
        "inner_axis 3 is out of range for a tensor of rank 3",
    );
    assert_error(
        &format!("{rt}rt.merge_dims(-4, 1)"),
        "ValueError",
        "outer_axis -4 is out of range for a tensor of rank 3",
    );
    assert_error(
        &format!("{rt}rt.merge_dims(2, 1)"),
        "ValueError",
        "need 0 <= outer_axis <= inner_axis < rank",
    );
}

#[test]
fn shapes_in_messages_are_python_lists() {
    assert_error(
        "tf.reshape(tf.range(6), [4, 2])",
        "InvalidArgumentError",
        "cannot reshape a tensor of 6 values (shape [6]) into shape [4, 2]",
    );
    assert_error(
        "tf.RaggedTensor.from_tensor([[[1, 2]], [[3, 4]]], padding=[0, 0, 0])",
        "ValueError",
        "padding must have shape [2] (the tensor's shape after dimension 1), not [3]",
    );
    assert_error(
        "tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).to_tensor(default_value=[7, 8, 9])",
        "InvalidArgumentError",
        "default_value has shape [3], which does not broadcast to the inner shape [2]",
    );
}

#[test]
fn strings_in_messages_have_python_quotes() {
    assert_error(
        "tf.compat.v1.string_split(['a b'], result_type='Dense')",
        "ValueError",
        "result_type must be 'RaggedTensor' or 'SparseTensor', not 'Dense'",
    );
}
