//! Snapshots of the HTML form (what a notebook shows) of every kind of value, and checks that
//! it is escaped and styled without fixed colours.

use crate::render_common::{self, catalogue, check_all};
use ragtag::render::{html::to_html, Options};

#[test]
fn html_of_every_value() {
    check_all(
        "html",
        catalogue()
            .into_iter()
            .map(|(name, v)| (name.to_string(), to_html(&v, &Options::plain(80)))),
    );
}

#[test]
fn html_is_escaped_and_theme_neutral() {
    let v = render_common::value_of("tf.constant(['<b>&', \"it's\"])");
    let html = to_html(&v, &Options::plain(80));
    assert!(html.contains("&lt;b&gt;&amp;"), "{html}");
    assert!(!html.contains("<b>&"), "{html}");
    for fixed in ["#000", "#fff", ":black", ":white", "rgb(0,", "rgb(255,"] {
        assert!(!html.to_lowercase().contains(fixed), "{fixed} in {html}");
    }
}
