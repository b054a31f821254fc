//! Parse and evaluate any text in a session, then draw every value it displayed in every
//! output form and every error report: the whole path a user's input takes, under the
//! budget and time limit of `common.rs`.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    common::run_and_draw(src);
});
