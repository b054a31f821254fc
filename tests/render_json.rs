//! Snapshots of the JSON form (DESIGN.md's objects) of every kind of value.

use crate::render_common::{self, catalogue, check_all};
use ragtag::render::json::to_json;

#[test]
fn json_of_every_value() {
    check_all(
        "json",
        catalogue()
            .into_iter()
            .map(|(name, v)| (name.to_string(), to_json(&v).to_string())),
    );
}

#[test]
fn json_follows_design_examples() {
    let v = render_common::value_of("tf.ragged.constant([[3, 1], [], [5, 9], [6], []])");
    assert_eq!(
        to_json(&v).to_string(),
        r#"{"kind":"ragged","dtype":"int32","shape":[5,null],"ragged_rank":1,"value":[[3,1],[],[5,9],[6],[]]}"#
    );
}
