//! Read any bytes as a file of each format ragtag reads — `.npy`, `.npz`, Parquet, Arrow IPC,
//! JSON, JSON Lines — then draw the value read in every output form: the path a user's
//! (or an attacker's) file takes. The first byte of an input picks the format, the rest is
//! the file, read in a fresh session under the budget and time limit of `common.rs`.
#![no_main]

#[path = "common.rs"]
mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// The formats: the file's extension and the call that reads it (`{}` is the path).
const READERS: &[(&str, &str)] = &[
    ("npy", "np.load('{}')"),
    ("npz", "np.load('{}')"),
    ("parquet", "ak.from_parquet('{}')"),
    ("arrow", "ragtag.read_arrow('{}')"),
    ("json", "ragtag.read_json('{}')"),
    ("jsonl", "ragtag.read_jsonl('{}')"),
];

/// This process's scratch directory, where each input is written as a file.
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ragtag-fuzz-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let (ext, call) = READERS[pick as usize % READERS.len()];
    let path = scratch().join(format!("input.{ext}"));
    std::fs::write(&path, file).expect("the scratch file is written");
    let src = format!("y = {}\ny", call.replace("{}", &path.display().to_string()));
    common::run_and_draw(&src);
});
