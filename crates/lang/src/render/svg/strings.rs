//! String storage: one byte buffer with every element's bytes run together, the elements
//! as boxes over their bytes, offsets as markers where each begins, and characters of more
//! than one byte bracketed under their bytes — `'é'` is two cells, `'👋'` four.

use super::canvas::{Anchor, Canvas};
use super::levels::{self, Level, Nest};
use super::summary::{self, Large};
use super::MAX_SLOTS;
use crate::render::tf_text::py_str;
use crate::render::view::count_text;
use ragtag_engine::{budget, StringBuf};

/// A byte as a cell shows it: printable ASCII as itself, anything else in hex.
fn byte_text(b: u8) -> String {
    if b.is_ascii_graphic() {
        (b as char).to_string()
    } else if b == b' ' {
        "␠".into()
    } else {
        format!("{b:02x}")
    }
}

/// Draws the buffer of `s` below `y`.
pub fn buffer(c: &mut Canvas, y: i64, s: &StringBuf) {
    let bytes = s.bytes();
    let offsets = s.offsets();
    c.text(
        0,
        y + 12,
        &format!(
            "{} string{} in one buffer of {} byte{}, plus {} offsets",
            count_text(s.len()),
            if s.len() == 1 { "" } else { "s" },
            count_text(bytes.len()),
            if bytes.len() == 1 { "" } else { "s" },
            count_text(offsets.len())
        ),
        Anchor::Start,
        "small",
    );
    let y = y + 22;
    let mut splits = match budget::vec::<i64>("string offsets", offsets.len()) {
        Ok(v) => v,
        Err(e) => {
            c.text(0, y + 14, &e.to_string(), Anchor::Start, "warn");
            return;
        }
    };
    splits.extend(offsets.iter().map(|&o| o as i64));
    let levels_of: [&[i64]; 1] = [&splits];
    let leaf_text = |i: usize| byte_text(bytes[i]);
    if !levels::valid(&levels_of, bytes.len()) {
        let msg = "the offsets do not describe the buffer";
        return c.text(0, y + 14, msg, Anchor::Start, "warn");
    }
    if levels::slot_count(&levels_of, bytes.len()) > MAX_SLOTS {
        let large = Large {
            splits: &levels_of,
            leaf_text: &leaf_text,
            row: "string",
            leaves: "bytes",
        };
        return summary::draw(c, y, &large);
    }
    let label = |_: usize, i: usize| format!("{i}: {}", py_str(&s.get_str(i)));
    let nest = Nest {
        splits: &levels_of,
        levels: vec![Level {
            name: "elements".into(),
            note: "offsets ▾".into(),
            uniform: false,
        }],
        leaf: Level {
            name: "bytes".into(),
            note: "UTF-8, hex past ASCII".into(),
            uniform: false,
        },
        leaves: bytes.len(),
        leaf_text: &leaf_text,
        item_label: Some(&label),
        label_w: 0,
        brackets: false,
    };
    let placed = levels::draw(c, y, &nest);
    // Characters of several bytes: a bracket under their bytes, the character below it.
    let by = placed.leaf_y + 40;
    let mut any = false;
    for (&start, item) in offsets.iter().zip(s.iter()) {
        let mut at = 0;
        for chunk in item.utf8_chunks() {
            for ch in chunk.valid().chars() {
                let n = ch.len_utf8();
                if n > 1 {
                    any = true;
                    let a = placed.x(placed.lay.leaf_slot[start + at]) + 3;
                    let b = placed.x(placed.lay.leaf_slot[start + at + n - 1]) + placed.cw - 3;
                    c.path(&format!("M{a} {by}V{}H{b}V{by}", by + 6), "mark", b, by + 6);
                    // The byte count when it fits under the bytes (6 px a small character).
                    let full = format!("{ch} ({n} bytes)");
                    let fits = full.chars().count() as i64 * 6 <= b - a;
                    let shown = if fits { full } else { ch.to_string() };
                    c.text((a + b) / 2, by + 20, &shown, Anchor::Mid, "small");
                }
                at += n;
            }
            for _ in chunk.invalid() {
                let x = placed.x(placed.lay.leaf_slot[start + at]);
                c.text(
                    x + placed.cw / 2,
                    by + 20,
                    "not UTF-8",
                    Anchor::Mid,
                    "small warn",
                );
                at += 1;
            }
        }
    }
    if any {
        c.text(0, by + 10, "characters", Anchor::Start, "");
    }
}
