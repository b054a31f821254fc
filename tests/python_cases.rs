//! The Python differential test: programs of everyday Python (tests/python/*.jsonl), each
//! tagged with the features it uses, with CPython 3.11's answers recorded by
//! `tools/python_answers.py` and replayed here without Python.
//!
//! The comparison is exact (CPython is the specification: a float must print digit for
//! digit as CPython prints it); an error matches when its exception class does. Cases whose
//! answer ragtag does not give yet are listed in tests/python/known_differences.txt, each
//! with its reason; a listed case that starts passing fails the test, so the list only
//! shrinks.

use std::collections::BTreeMap;

use serde_json::Value as J;

use crate::conformance::{compare, known_ids, replay, truncate};

/// Why `got` is not CPython's `want`, or None when it is.
fn diff(got: &J, want: &J) -> Option<String> {
    if want["kind"] == "error" {
        return (got["kind"] != "error" || got["error"] != want["error"])
            .then(|| format!("expected {}, got {}", want["error"], truncate(got)));
    }
    if want["kind"] == "print" {
        return (got["kind"] != "print" || got["text"] != want["text"]).then(|| {
            format!(
                "printed {}, CPython prints {}",
                truncate(&got["text"]),
                want["text"]
            )
        });
    }
    // ragtag's JSON may carry more keys than CPython's answer (a source line for errors,
    // a dtype); the ones CPython's answer has must be equal.
    let want_map = want.as_object()?;
    want_map
        .iter()
        .any(|(k, w)| got.get(k) != Some(w))
        .then(|| format!("expected {}, got {}", truncate(want), truncate(got)))
}

fn check_case(case: &J) -> Option<String> {
    let got = ragtag::session::json_transcript(case["program"].as_str().unwrap());
    compare(&got, case["expected"].as_array().unwrap(), diff)
}

#[test]
fn python_programs_agree_with_cpython() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python");
    let known = known_ids(&format!("{dir}/known_differences.txt"), true);
    // Cases per feature tag, to show what the test covers.
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    let (passed, differ, problems) = replay(dir, &known, check_case, |file, case| {
        let tags = case["features"].as_array().map_or(0, Vec::len);
        assert!(
            tags > 0,
            "{}: {} has no features",
            file.display(),
            case["id"]
        );
        for t in case["features"].as_array().into_iter().flatten() {
            *features
                .entry(t.as_str().unwrap_or("").to_string())
                .or_default() += 1;
        }
    });
    let total = passed + differ;
    eprintln!(
        "Python programs: {passed} of {total} agree with CPython 3.11 ({differ} known differences)"
    );
    eprintln!("cases per feature: {features:?}");
    assert!(
        problems.is_empty(),
        "Python programs that differ from CPython 3.11:\n{}",
        problems.join("\n")
    );
}
