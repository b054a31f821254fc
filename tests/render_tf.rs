//! Snapshots of TensorFlow's text forms: `repr` (what `--format tf` displays) and `str`
//! (what `print` writes) of every kind of value.

use crate::render_common::{catalogue, check_all};
use ragtag::render::tf_text::{repr_of, str_of};

#[test]
fn repr_and_str_of_every_value() {
    check_all(
        "tf",
        catalogue().into_iter().map(|(name, v)| {
            (
                name.to_string(),
                format!("=== repr\n{}\n=== str\n{}\n", repr_of(&v), str_of(&v)),
            )
        }),
    );
}
