//! Snapshots of the table view: every kind of value at widths 40, 80 and 120 (plain Unicode,
//! no colour), under tighter row and column limits, and in ASCII and colour.

use crate::render_common::{self, catalogue, check_all};
use ragtag::render::{table, Options};

#[test]
fn every_value_at_three_widths() {
    check_all(
        "table",
        catalogue().into_iter().map(|(name, v)| {
            let mut text = String::new();
            for width in [40, 80, 120] {
                text.push_str(&format!(
                    "=== width {width}\n{}\n",
                    table::render(&v, &Options::plain(width))
                ));
            }
            (name.to_string(), text)
        }),
    );
}

#[test]
fn row_and_column_limits() {
    let limited = [
        "ragged_long",
        "ragged_rank4",
        "ragged_wide",
        "dense_big",
        "dense_rank4",
        "sparse_big",
        "lod_two_levels",
    ];
    check_all(
        "table_limits",
        catalogue()
            .into_iter()
            .filter(|(name, _)| limited.contains(name))
            .map(|(name, v)| {
                let mut text = String::new();
                for (rows, cols) in [(4, 3), (7, 6)] {
                    let opts = Options {
                        max_rows: rows,
                        max_cols: cols,
                        ..Options::plain(80)
                    };
                    text.push_str(&format!(
                        "=== rows {rows} cols {cols}\n{}\n",
                        table::render(&v, &opts)
                    ));
                }
                (name.to_string(), text)
            }),
    );
}

#[test]
fn ascii_without_colour_is_plain_ascii() {
    let opts = Options {
        unicode: false,
        ..Options::plain(80)
    };
    let picked = ["ragged_digits", "sparse_ints", "dense_rank3"];
    let rendered: Vec<_> = catalogue()
        .into_iter()
        .filter(|(name, _)| picked.contains(name))
        .map(|(name, v)| (name.to_string(), table::render(&v, &opts)))
        .collect();
    for (name, text) in &rendered {
        assert!(text.is_ascii(), "{name}:\n{text}");
    }
    check_all("table_ascii", rendered);
}

#[test]
fn colour_marks_roles_with_ansi_codes() {
    let opts = Options {
        color: true,
        ..Options::plain(80)
    };
    let v = render_common::value_of("tf.ragged.constant([[1, 2], []])");
    let text = table::render(&v, &opts);
    assert!(text.contains("\x1b["), "{text}");
    // Implicit defaults are bracketed with colour or without (and dimmed in colour), so
    // text copied out of a colour terminal still tells them from stored zeros.
    let sparse = catalogue()
        .into_iter()
        .find(|(n, _)| *n == "sparse_ints")
        .unwrap()
        .1;
    let plain = table::render(&sparse, &Options::plain(80));
    let coloured = table::render(&sparse, &opts);
    assert!(coloured.contains("\x1b["), "{coloured}");
    assert_eq!(strip_ansi(&coloured), plain);
    assert!(plain.contains("(0) implicit"), "{plain}");
}

/// `text` without its ANSI escape sequences: what a terminal's copy gives.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters, then a final byte in @..~.
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) && d != '[' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn huge_values_render_quickly_even_unoptimised() {
    // Ten million values: only the rows shown are visited. A debug build still takes a
    // fraction of a second; walking every value would take many seconds.
    let v = render_common::value_of("tf.reshape(tf.range(10000000), [1000000, 10])");
    let start = std::time::Instant::now();
    let text = table::render(&v, &Options::plain(100));
    assert!(
        start.elapsed().as_secs_f64() < 2.0,
        "took {:?}",
        start.elapsed()
    );
    assert!(text.contains("9999999"), "{text}");
    let r = render_common::long_ragged(1_000_000);
    let start = std::time::Instant::now();
    let text = table::render(&r, &Options::plain(100));
    assert!(
        start.elapsed().as_secs_f64() < 2.0,
        "took {:?}",
        start.elapsed()
    );
    assert!(text.contains("999999"), "{text}");
}
