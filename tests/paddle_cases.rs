//! Paddle's sequence ops against Paddle 2.6.2: programs in Paddle 1.x / 2.x spelling
//! (tests/paddle/*.jsonl), each with the answers real Paddle gave, recorded by
//! `tools/paddle_answers.py` (which runs the same program with the ops built as static
//! programs) and replayed here without Paddle.
//!
//! A LoDTensor must agree in dtype, shape, LoD (offsets) and values (floats within a
//! relative 1e-5, as float32 kernels may sum in another order); an error must have
//! Paddle's exception class (the messages differ on purpose: ragtag's say what was wrong in
//! terms of sequences). Cases ragtag answers differently on purpose are listed, each with
//! its reason, in tests/paddle/known_differences.txt, which may hold at most 2% of the
//! cases; a listed case that starts agreeing fails the test, so the list only shrinks.

use serde_json::Value as J;

use crate::conformance::{close, compare, known_ids, replay, truncate};

/// Why `got` is not Paddle's `want`, or None when it is.
fn diff(got: &J, want: &J) -> Option<String> {
    match want["kind"].as_str().unwrap_or("") {
        "error" => (got["kind"] != "error" || got["error"] != want["error"]).then(|| {
            format!(
                "Paddle raises {} ({}), ragtag gives {}",
                want["error"],
                want["message"],
                truncate(got)
            )
        }),
        "tuple" => {
            let (ws, gs) = (
                want["value"].as_array().unwrap(),
                got["value"].as_array().cloned().unwrap_or_default(),
            );
            if got["kind"] != "tuple" || ws.len() != gs.len() {
                return Some(format!(
                    "expected a tuple of {}, got {}",
                    ws.len(),
                    truncate(got)
                ));
            }
            ws.iter().zip(&gs).find_map(|(w, g)| diff(g, w))
        }
        kind => {
            if got["kind"] != kind {
                return Some(format!("expected a {kind}, got {}", truncate(got)));
            }
            for key in ["dtype", "shape", "lod"] {
                if want.get(key).is_some() && got.get(key) != want.get(key) {
                    return Some(format!(
                        "{key}: Paddle gives {}, ragtag {}",
                        want[key],
                        got.get(key).map_or("nothing".into(), truncate)
                    ));
                }
            }
            (!close(&got["value"], &want["value"])).then(|| {
                format!(
                    "value: Paddle gives {}, ragtag {}",
                    truncate(&want["value"]),
                    truncate(&got["value"])
                )
            })
        }
    }
}

fn check_case(case: &J) -> Option<String> {
    let got = ragtag::session::json_outputs(case["program"].as_str().unwrap());
    compare(&got, case["expected"].as_array().unwrap(), diff)
}

#[test]
fn sequence_ops_agree_with_paddle() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/paddle");
    let known = known_ids(&format!("{dir}/known_differences.txt"), true);
    let (passed, differ, problems) = replay(dir, &known, check_case, |file, case| {
        assert!(
            case["from"].as_str().is_some_and(|f| !f.is_empty()),
            "{}: {} does not say where it comes from",
            file.display(),
            case["id"]
        );
        assert!(
            case["expected"].as_array().is_some_and(|e| !e.is_empty()),
            "{}: {} has no recorded answer: run tools/paddle_answers.py",
            file.display(),
            case["id"]
        );
    });
    let total = passed + differ;
    eprintln!("Paddle's sequence ops: {passed} of {total} agree with Paddle 2.6.2 ({differ} known differences)");
    assert!(
        problems.is_empty(),
        "programs that differ from Paddle 2.6.2:\n{}",
        problems.join("\n")
    );
    assert!(
        differ * 50 <= total,
        "{differ} known differences out of {total}: more than 2%"
    );
}
