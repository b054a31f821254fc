//! The `tf.strings` builtins run through a session, checked against TensorFlow's answers
//! (the conformance cases' JSON values).

use serde_json::{json, Value as J};

use crate::render::json::to_json;
use crate::session::{Collect, Output};
use crate::Session;

/// Runs `program` and returns the JSON of every displayed value, or the error's class and
/// message.
fn run(program: &str) -> Result<Vec<J>, (String, String)> {
    let mut session = Session::new();
    let mut sink = Collect::default();
    let r = session.execute_named(program, "<test>", &mut sink);
    if let Err(e) = r {
        return Err((e.class.name().to_string(), e.message.clone()));
    }
    Ok(sink
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Value(v) => Some(to_json(v)),
            Output::Print(_) => None,
        })
        .collect())
}

/// The JSON of the last displayed value.
fn last(program: &str) -> J {
    let out = run(program).unwrap_or_else(|e| panic!("{program}: {e:?}"));
    out.last().cloned().expect("a displayed value")
}

fn err_class(program: &str) -> (String, String) {
    run(program).expect_err("an error")
}

const QUERIES: &str = "queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'], ['Pause'], ['Will', 'it', 'rain', 'later', 'today']])\n";

#[test]
fn bigram_word_buckets_match_tensorflow() {
    let got = last(&format!(
        "{QUERIES}tf.strings.to_hash_bucket_fast(queries, 1024)\n"
    ));
    assert_eq!(got["kind"], "ragged");
    assert_eq!(got["dtype"], "int64");
    assert_eq!(got["shape"], json!([3, null]));
    assert_eq!(
        got["value"],
        json!([[633, 768, 237, 309], [28], [847, 998, 635, 20, 547]])
    );
}

#[test]
fn bigram_join_matches_tensorflow() {
    // `padded` as tf.concat builds it in the guide; the join runs on two ragged slices.
    let program = "padded = tf.ragged.constant([['#', 'Who', 'is', 'Dan', 'Smith', '#'], ['#', 'Pause', '#'], ['#', 'Will', 'it', 'rain', 'later', 'today', '#']])\n\
                   tf.strings.join([padded[:, :-1], padded[:, 1:]], separator='+')\n";
    let got = last(program);
    assert_eq!(got["kind"], "ragged");
    assert_eq!(got["dtype"], "string");
    assert_eq!(got["shape"], json!([3, null]));
    assert_eq!(
        got["value"],
        json!([
            ["#+Who", "Who+is", "is+Dan", "Dan+Smith", "Smith+#"],
            ["#+Pause", "Pause+#"],
            [
                "#+Will",
                "Will+it",
                "it+rain",
                "rain+later",
                "later+today",
                "today+#"
            ]
        ])
    );
}

#[test]
fn overview_substr_matches_tensorflow() {
    let got = last("words = tf.ragged.constant([['So', 'long'], ['thanks', 'for', 'all', 'the', 'fish']])\ntf.strings.substr(words, 0, 2)\n");
    assert_eq!(got["kind"], "ragged");
    assert_eq!(got["shape"], json!([2, null]));
    assert_eq!(
        got["value"],
        json!([["So", "lo"], ["th", "fo", "al", "th", "fi"]])
    );
}

#[test]
fn length_of_dense_and_ragged() {
    let got = last("tf.strings.length(tf.constant(['foobar', 'yorkie is so cute']))");
    assert_eq!(got["dtype"], "int32");
    assert_eq!(got["value"], json!([6, 17]));
    let got = last("tf.strings.length(tf.ragged.constant([['héllo', ''], []]), unit='UTF8_CHAR')");
    assert_eq!(got["value"], json!([[5, 0], []]));
}

#[test]
fn split_scalar_vector_and_ragged() {
    let got = last("tf.strings.split('a b  c')");
    assert_eq!(
        (got["kind"].clone(), got["value"].clone()),
        (json!("tensor"), json!(["a", "b", "c"]))
    );
    let got = last("tf.strings.split(tf.constant(['a b', '', ' x ']))");
    assert_eq!(got["kind"], "ragged");
    assert_eq!(got["value"], json!([["a", "b"], [], ["x"]]));
    let got = last("tf.strings.split(tf.ragged.constant([['a b', 'c'], []]))");
    assert_eq!(got["ragged_rank"], 2);
    assert_eq!(got["value"], json!([[["a", "b"], ["c"]], []]));
}

#[test]
fn join_of_python_strings_and_broadcast_scalars() {
    assert_eq!(
        last("tf.strings.join(['a', 'b'], separator='-')")["value"],
        json!("a-b")
    );
    let got = last("tf.strings.join(['<', tf.constant(['x', 'y']), '>'])");
    assert_eq!(got["value"], json!(["<x>", "<y>"]));
}

/// A list display of equal-shape tensors is packed into one tensor; join still sees the
/// tensors as its inputs.
#[test]
fn join_of_dense_tensors_in_a_list() {
    let got = last("s = tf.constant(['foobar', 'yorkie']); tf.strings.join([s, s], separator='|')");
    assert_eq!(got["value"], json!(["foobar|foobar", "yorkie|yorkie"]));
    let got = last("s = tf.constant(['a', 'b']); tf.strings.join((s, s))");
    assert_eq!(got["value"], json!(["aa", "bb"]));
}

#[test]
fn reduce_join_ragged_rows() {
    let got = last("tf.strings.reduce_join(tf.ragged.constant([['a', 'b'], [], ['c']]), axis=1, separator=',')");
    assert_eq!(
        (got["kind"].clone(), got["value"].clone()),
        (json!("tensor"), json!(["a,b", "", "c"]))
    );
}

#[test]
fn to_number_and_as_string() {
    let got = last("tf.strings.to_number(tf.constant(['1.5', ' 2 ']))");
    assert_eq!(got["dtype"], "float32");
    assert_eq!(got["value"], json!([1.5, 2.0]));
    let (class, msg) = err_class("tf.strings.to_number(tf.constant(['1', 'abc']))");
    assert_eq!(class, "InvalidArgumentError");
    assert!(msg.contains("abc"), "{msg}");
    assert_eq!(
        last("tf.strings.as_string(tf.constant([1.5]))")["value"],
        json!(["1.500000"])
    );
}

#[test]
fn errors_have_tensorflow_classes() {
    let (class, msg) = err_class("tf.strings.substr(tf.constant(['abc']), 5, 1)");
    assert_eq!(class, "InvalidArgumentError");
    assert!(msg.contains("pos 5") && msg.contains("abc"), "{msg}");
    assert_eq!(
        err_class("tf.strings.length(tf.constant([1, 2]))").0,
        "InvalidArgumentError"
    );
    assert_eq!(err_class("tf.strings.join(5)").0, "TypeError");
    assert_eq!(
        err_class("tf.strings.to_hash_bucket_fast(['a'], 0)").0,
        "InvalidArgumentError"
    );
    assert_eq!(
        err_class("tf.strings.length('a', unit='WORD')").0,
        "InvalidArgumentError"
    );
    let (class, _) =
        err_class("tf.strings.join([tf.constant(['a', 'b']), tf.constant(['c', 'd', 'e'])])");
    assert_eq!(class, "InvalidArgumentError");
}

#[test]
fn every_example_runs() {
    for b in super::BUILTINS {
        for ex in b.examples {
            if let Err(e) = run(ex) {
                panic!("example of {}: {ex}\n  {e:?}", b.name);
            }
        }
    }
}
