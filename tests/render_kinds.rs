//! Snapshots of the values that are not tensors, and of tensors inside a dict, in the
//! terminal's table form, TensorFlow's text form (Python's repr) and, where it adds
//! something, the notebook's HTML.

use crate::render_common::{check_all, value_of};
use ragtag::render::{html::to_html, table, tf_text::repr_of, Options};

const KINDS: &[(&str, &str)] = &[
    (
        "dict_of_tensors",
        "{'a': tf.constant([1, 2]), 'b': tf.ragged.constant([[1], [2, 3]])}",
    ),
    ("dict_mixed", "{1: tf.constant([[1.5, 2.0]]), 'n': 3}"),
    ("set", "{3, 1, 2}"),
    ("empty_set", "set()"),
    ("bytes", "b'ab\\x00\\xff'"),
    ("none", "None"),
    (
        "instance_repr",
        "class Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n    def __repr__(self):\n        return f'Point({self.x}, {self.y})'\nPoint(1, 2)",
    ),
    ("instance_default", "class Empty:\n    pass\nEmpty()"),
];

#[test]
fn every_kind_as_text_and_html() {
    check_all(
        "kinds",
        KINDS.iter().map(|(name, src)| {
            // A bare None displays nothing, so it is made directly.
            let v = if *src == "None" {
                ragtag::value::Value::None
            } else {
                value_of(src)
            };
            let opts = Options::plain(80);
            let html = if v.is_tensor_like() || matches!(v, ragtag::value::Value::Dict(_)) {
                to_html(&v, &opts)
            } else {
                "(none: the text form says it all)".into()
            };
            let text = format!(
                "=== table\n{}\n=== repr\n{}\n=== html\n{html}\n",
                table::render(&v, &opts),
                repr_of(&v)
            );
            (name.to_string(), without_addresses(&text))
        }),
    );
}

#[test]
fn a_dict_of_tensors_is_framed_as_a_dict_with_its_keys_over_the_tables() {
    let v = value_of(KINDS[0].1);
    let text = table::render(&v, &Options::plain(80));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "{", "{text}");
    assert_eq!(lines[1], "'a':", "{text}");
    assert!(lines[2].starts_with("Tensor  dtype=int32"), "{text}");
    assert!(lines.contains(&"'b':") && lines.contains(&"}"), "{text}");
    assert!(!text.contains("['a']"), "{text}");
    // The repr stays Python's.
    assert!(repr_of(&v).starts_with("{'a': <tf.Tensor: shape=(2,)"));
}

#[test]
fn other_values_show_as_python_writes_them() {
    let repr = |src| table::render(&value_of(src), &Options::plain(80));
    assert_eq!(repr("{3, 1, 2}"), "{1, 2, 3}");
    assert_eq!(repr("set()"), "set()");
    assert_eq!(repr("b'a\\x00'"), "b'a\\x00'");
    assert_eq!(repr(KINDS[6].1), "Point(1, 2)");
    assert!(repr(KINDS[7].1).starts_with("<__main__.Empty object at 0x"));
}

/// `text` with each `0x…` address (different in every run) written `0x[ADDR]`.
fn without_addresses(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at + 2]);
        let after = &rest[at + 2..];
        let hex = after.len()
            - after
                .trim_start_matches(|c: char| c.is_ascii_hexdigit())
                .len();
        out.push_str(if hex > 0 { "[ADDR]" } else { "" });
        rest = &after[hex..];
    }
    out.push_str(rest);
    out
}
