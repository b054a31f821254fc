//! Snapshots of `explain(x)`: how ragged, dense, sparse, LoD and string values are stored.

use crate::render_common::{catalogue, check_all, value_of};
use ragtag::render::{explain::explain, html::display_html, table::to_text, Options};

#[test]
fn explanations() {
    let picked = [
        "ragged_digits",
        "ragged_rank3",
        "ragged_rank4",
        "ragged_uniform",
        "ragged_strings",
        "ragged_long",
        "ragged_inner_dense",
        "dense_matrix",
        "dense_strings",
        "sparse_strings",
        "lod_two_levels",
        "python_int",
        "python_str",
    ];
    check_all(
        "explain",
        catalogue()
            .into_iter()
            .filter(|(name, _)| picked.contains(name))
            .map(|(name, v)| {
                (
                    name.to_string(),
                    to_text(&explain(&v, &Options::plain(80)), &Options::plain(80)),
                )
            }),
    );
}

#[test]
fn explanation_as_html() {
    let v = value_of("tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])");
    check_all(
        "explain_html",
        [(
            "ragged_digits".to_string(),
            display_html(&explain(&v, &Options::plain(80))),
        )],
    );
}

#[test]
fn explain_builtin_prints_and_returns_none() {
    let mut s = ragtag::Session::new();
    let mut sink = ragtag::session::Collect::default();
    s.execute("explain(tf.ragged.constant([[1, 2], [3]]))", &mut sink)
        .unwrap();
    assert_eq!(sink.outputs.len(), 1);
    match &sink.outputs[0] {
        ragtag::session::Output::Print(t) => assert!(t.contains("value_rowids"), "{t}"),
        other => panic!("expected printed text, got {other:?}"),
    }
}

#[test]
fn explain_command_evaluates_in_the_session() {
    let mut s = ragtag::Session::new();
    let mut sink = ragtag::session::Collect::default();
    s.execute("x = tf.ragged.constant([[1, 2], [3]])", &mut sink)
        .unwrap();
    let out = ragtag::command::run(&mut s, ":explain x[1:]", &mut sink).unwrap();
    match out {
        ragtag::command::Outcome::Text(t) => {
            assert!(t.contains("row_splits"), "{t}");
            assert!(t.contains("shape=[1, None(1..1)]"), "{t}");
        }
        other => panic!("{other:?}"),
    }
    assert!(s.get("x").is_some());
}
