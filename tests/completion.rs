//! One table of completion cases drives both front ends: the library completer the REPL
//! calls (`ragtag::complete::complete`, byte offsets) and a real kernel's complete_request
//! (code points, per the Jupyter messaging spec). Both must give the same candidates over the
//! same range, and each case checks what that is.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
#![cfg(feature = "jupyter")]

use crate::kernel_common::client::{Channel, Kernel};

use ragtag::session::Collect;
use ragtag::Session;
use serde_json::json;

/// Names both sessions define before completing.
const SETUP: &str = "rt = tf.ragged.constant([[1, 2], [3]])\nrow_count = 3\n\
                     import numpy as xp\ndef my_fn(a, b):\n    return a";

/// What a case expects: the code-point offset where the replaced text starts, and the
/// candidates — all of them (`Exact`), some of them (`Has`), or `Has` with the first given.
enum Want {
    Exact(&'static [&'static str]),
    Has(&'static [&'static str]),
    First(&'static str),
}

/// A cell, the cursor in code points (None: at the end), and what completes there.
struct Case {
    code: &'static str,
    cursor: Option<usize>,
    start: usize,
    want: Want,
}

const fn at_end(code: &'static str, start: usize, want: Want) -> Case {
    Case {
        code,
        cursor: None,
        start,
        want,
    }
}

const CASES: &[Case] = &[
    // Module paths, by any spelling evaluation accepts.
    at_end("tf.ragged.con", 10, Want::Exact(&["constant("])),
    at_end("tf.ra", 3, Want::Has(&["ragged", "range(", "random"])),
    at_end("tensorflow.ragged.c", 18, Want::Has(&["constant("])),
    at_end("xp.arr", 3, Want::Has(&["array("])),
    at_end("ragged.con", 7, Want::Has(&["constant("])),
    at_end("tf.errors.Inv", 10, Want::Exact(&["InvalidArgumentError"])),
    at_end("np.", 3, Want::Has(&["str_", "pi", "newaxis", "array("])),
    at_end("paddle.", 7, Want::Has(&["fluid"])),
    at_end("tf.nosuchmodule.", 16, Want::Exact(&[])),
    // Members of a value.
    at_end(
        "rt.row_",
        3,
        Want::Exact(&["row_lengths(", "row_limits(", "row_splits", "row_starts("]),
    ),
    at_end("rt[0].row_", 10, Want::Exact(&[])),
    // Names: the user's, builtins, roots and keywords ragtag runs (not `yield`).
    at_end("row", 0, Want::Has(&["row_count"])),
    at_end("my", 0, Want::Exact(&["my_fn("])),
    at_end("pri", 0, Want::Has(&["print("])),
    at_end("wh", 0, Want::Exact(&["while"])),
    at_end("de", 0, Want::Has(&["def", "del"])),
    at_end("brea", 0, Want::Exact(&["break"])),
    at_end("contin", 0, Want::Exact(&["continue"])),
    at_end("wit", 0, Want::Exact(&["with"])),
    at_end("yiel", 0, Want::Exact(&["yield"])),
    at_end("asyn", 0, Want::Exact(&[])),
    at_end("pad", 0, Want::Has(&["paddle"])),
    // Keyword arguments come first inside a call.
    at_end("tf.ragged.constant([[1]], dty", 26, Want::First("dtype=")),
    at_end("tf.reduce_sum(rt, ax", 18, Want::First("axis=")),
    at_end("rt.to_tensor(def", 13, Want::First("default_value=")),
    // Meta-commands.
    at_end(":he", 0, Want::Exact(&[":help"])),
    at_end(":help tf.ragged.c", 6, Want::Has(&["tf.ragged.constant"])),
    // Nothing inside strings and comments.
    at_end("x = 'tf.rag", 11, Want::Exact(&[])),
    at_end("x = 1  # tf.rag", 15, Want::Exact(&[])),
    at_end("x = '''\ntf.rag", 14, Want::Exact(&[])),
    // File paths inside a string, relative to the current directory (the repository's root
    // for both the test and the kernel it starts): directories end in `/`, and hidden names
    // show only when the typed part starts with `.`.
    at_end("np.load('Cargo.to", 9, Want::Exact(&["Cargo.toml"])),
    at_end(
        "x = \"crates/lang/src/formats/js",
        29,
        Want::Exact(&["json/"]),
    ),
    at_end(
        "np.load('crates/lang/src/complete/",
        34,
        Want::Exact(&["paths.rs"]),
    ),
    at_end("ragtag.read_jsonl('.c", 19, Want::Has(&[".ci/"])),
    at_end("np.load('no_such_dir/", 21, Want::Exact(&[])),
    // The cursor in the middle of a line.
    Case {
        code: "tf.ragged.con + 1",
        cursor: Some(13),
        start: 10,
        want: Want::Exact(&["constant("]),
    },
    // Multi-line cells: the call's bracket and the earlier lines count.
    at_end("x = 1\ny = tf.ragged.con", 20, Want::Exact(&["constant("])),
    at_end(
        "tf.ragged.constant(\n    [[1]],\n    dty",
        35,
        Want::First("dtype="),
    ),
    // Non-ASCII text before the cursor: offsets are code points in the kernel.
    at_end("s = \"héllo\"; tf.rag", 16, Want::Has(&["ragged"])),
    Case {
        code: "# café ☕\nrt.row_l + 'ü'",
        cursor: Some(17),
        start: 12,
        want: Want::Exact(&["row_lengths(", "row_limits("]),
    },
];

fn session() -> Session {
    let mut s = Session::new();
    s.execute(SETUP, &mut Collect::default()).unwrap();
    s
}

/// The library's completion of `code` at code point `cursor`, in code points.
fn library(s: &Session, code: &str, cursor: usize) -> (Vec<String>, usize, usize) {
    let byte = code
        .char_indices()
        .nth(cursor)
        .map_or(code.len(), |(i, _)| i);
    let (start, matches) = ragtag::complete::complete(s, code, byte);
    let points = |b: usize| code[..b].chars().count();
    (matches, points(start), points(byte))
}

#[track_caller]
fn check(case: &Case, got: &(Vec<String>, usize, usize)) {
    let (matches, start, end) = got;
    let code = case.code;
    let cursor = case.cursor.unwrap_or(code.chars().count());
    assert_eq!(
        (*start, *end),
        (case.start, cursor),
        "{code:?}: {matches:?}"
    );
    match case.want {
        Want::Exact(want) => assert_eq!(matches, want, "{code:?}"),
        Want::Has(want) => {
            for w in want {
                assert!(
                    matches.iter().any(|m| m == w),
                    "{code:?}: {w} not in {matches:?}"
                );
            }
        }
        Want::First(first) => assert_eq!(matches.first().map(String::as_str), Some(first)),
    }
}

#[tokio::test]
async fn the_repl_and_the_kernel_complete_alike() {
    let s = session();
    let mut k = Kernel::start("completion").await;
    let (reply, _) = k.execute(SETUP).await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    for case in CASES {
        let cursor = case.cursor.unwrap_or(case.code.chars().count());
        let lib = library(&s, case.code, cursor);
        check(case, &lib);
        let r = k
            .shell(
                "complete_request",
                json!({"code": case.code, "cursor_pos": cursor}),
            )
            .await;
        let c = &r["content"];
        assert_eq!(c["status"], "ok", "{r}");
        let matches: Vec<String> = c["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let kernel = (
            matches,
            c["cursor_start"].as_u64().unwrap() as usize,
            c["cursor_end"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            kernel, lib,
            "{:?}: the kernel and the library differ",
            case.code
        );
    }
    k.shutdown_via(Channel::Control, json!({"restart": false}))
        .await;
}

/// Paths complete relative to the directory given, hidden names only when asked for, and
/// an absolute path from anywhere.
#[test]
fn file_paths_complete_in_a_directory() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("completion-paths");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tokens")).unwrap();
    for f in ["tokens.jsonl", "tokens/a.npy", ".secret.npy", "rt.npz"] {
        std::fs::write(dir.join(f), b"").unwrap();
    }
    let s = session();
    let got = |code: &str| ragtag::complete::complete_in(&s, code, code.len(), &dir);
    assert_eq!(
        got("np.load('tok"),
        (9, vec!["tokens.jsonl".to_string(), "tokens/".to_string()])
    );
    assert_eq!(got("np.load('tokens/"), (16, vec!["a.npy".to_string()]));
    assert_eq!(got("np.load('."), (9, vec![".secret.npy".to_string()]));
    let (_, all) = got("np.load('");
    assert_eq!(all, ["rt.npz", "tokens.jsonl", "tokens/"]);
    // Outside a string, the same word completes names, not files.
    assert!(!got("tok").1.contains(&"tokens.jsonl".to_string()));
    let code = format!("np.load('{}/rt", dir.display());
    let (start, found) = ragtag::complete::complete(&s, &code, code.len());
    assert_eq!((start, found), (code.len() - 2, vec!["rt.npz".to_string()]));
    // Inside a comment, nothing.
    assert_eq!(got("# np.load('tok").1, Vec::<String>::new());
}

/// What completes after a module evaluates: every constant, function and sub-module offered
/// is a name evaluation resolves.
#[test]
fn every_offered_module_attribute_evaluates() {
    let mut s = session();
    for module in [
        "tf",
        "tf.dtypes",
        "tf.errors",
        "tf.ragged",
        "np",
        "math",
        "paddle",
        "paddle.fluid",
        "fluid",
        "xp",
    ] {
        let code = format!("{module}.");
        let (_, found) = ragtag::complete::complete(&s, &code, code.len());
        assert!(!found.is_empty(), "{module}");
        for name in found {
            let path = format!("{module}.{}", name.trim_end_matches('('));
            let result = s.execute(&path, &mut Collect::default());
            assert!(result.is_ok(), "{path} is offered but does not evaluate");
        }
    }
}
