//! Programs with TensorFlow's (and Paddle's) real answers, run through the library the way
//! `check.py` runs them through the binary:
//! - tests/conformance: the seeds' examples (cases that cannot pass yet are listed in
//!   tests/conformance/known_failures.txt);
//! - tests/tf: cases ported from TensorFlow's own unit tests, each naming the test it comes
//!   from, answered by TensorFlow 2.21 through `tools/tf_answers.py`; what `print` writes is
//!   compared too. Differences ragtag keeps on purpose, or cannot close yet, are listed with
//!   their reason in tests/tf/known_differences.txt, which may hold at most 5% of the cases.
//!
//! A listed case that starts passing fails the test too, so the lists only shrink.

use std::collections::BTreeSet;

use serde_json::Value as J;

/// Whether two JSON answers agree, numbers within a relative 1e-5 (shared with the Paddle
/// cases).
pub(crate) fn close(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 1e-6_f64.max(1e-5 * x.abs().max(y.abs()))
        }
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| close(p, q))
        }
        _ => a == b,
    }
}

fn diff(got: &J, want: &J) -> Option<String> {
    let kind = want["kind"].as_str().unwrap_or("");
    if kind == "error" {
        if got["kind"] != "error" {
            return Some(format!(
                "expected an error ({}), got {}",
                want["error"], got
            ));
        }
        if got["error"] != want["error"] {
            return Some(format!(
                "expected error class {}, got {}",
                want["error"], got["error"]
            ));
        }
        return None;
    }
    if got["kind"] != want["kind"] {
        return Some(format!("kind: expected {kind}, got {}", truncate(got)));
    }
    if kind == "print" {
        return (got["text"] != want["text"]).then(|| {
            format!(
                "printed {} where TensorFlow prints {}",
                got["text"], want["text"]
            )
        });
    }
    if kind == "tuple" {
        let (ws, gs) = (
            want["value"].as_array().unwrap(),
            got["value"].as_array().cloned().unwrap_or_default(),
        );
        if ws.len() != gs.len() {
            return Some("tuple length differs".into());
        }
        return ws.iter().zip(&gs).find_map(|(w, g)| diff(g, w));
    }
    for key in ["dtype", "shape", "ragged_rank", "dense_shape", "lod"] {
        if let Some(w) = want.get(key) {
            if got.get(key) != Some(w) {
                return Some(format!("{key}: expected {w}, got {:?}", got.get(key)));
            }
        }
    }
    for key in ["value", "indices", "values"] {
        if let Some(w) = want.get(key) {
            if !got.get(key).is_some_and(|g| close(g, w)) {
                return Some(format!(
                    "{key}: expected {}, got {}",
                    truncate(w),
                    got.get(key).map_or("nothing".into(), truncate)
                ));
            }
        }
    }
    None
}

pub(crate) fn truncate(j: &J) -> String {
    let s = j.to_string();
    if s.len() > 200 {
        format!("{}…", &s[..200])
    } else {
        s
    }
}

fn check_case(case: &J, prints: bool) -> Option<String> {
    let program = case["program"].as_str().unwrap();
    let got = if prints {
        ragtag::session::json_transcript(program)
    } else {
        ragtag::session::json_outputs(program)
    };
    compare(&got, case["expected"].as_array().unwrap(), diff)
}

/// Why the outputs `got` are not `want`, output by output (`diff` compares one), or None
/// when they agree.
pub(crate) fn compare(
    got: &[J],
    want: &[J],
    diff: impl Fn(&J, &J) -> Option<String>,
) -> Option<String> {
    for (i, w) in want.iter().enumerate() {
        let Some(g) = got.get(i) else {
            return Some(format!(
                "output {} missing (got {}; last: {:?})",
                i + 1,
                got.len(),
                got.last().map(truncate)
            ));
        };
        if let Some(d) = diff(g, w) {
            return Some(format!("output {}: {d}", i + 1));
        }
    }
    (got.len() > want.len()).then(|| {
        format!(
            "{} extra outputs: {}",
            got.len() - want.len(),
            truncate(&got[want.len()])
        )
    })
}

/// The ids in a known-failures file (one per line, `#` starts a comment); with
/// `need_reason`, every id must be followed by a `# reason`. No id may be listed twice.
pub(crate) fn known_ids(path: &str, need_reason: bool) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut ids = BTreeSet::new();
    for line in text.lines() {
        let (id, reason) = line.split_once('#').unwrap_or((line, ""));
        let id = id.trim();
        if id.is_empty() {
            continue;
        }
        assert!(
            !need_reason || !reason.trim().is_empty(),
            "{path}: `{id}` needs a `# reason`"
        );
        assert!(ids.insert(id.to_string()), "{path}: `{id}` is listed twice");
    }
    ids
}

/// Runs every case of the `.jsonl` files in `dir` through `check` (None when it passes),
/// after showing it to `each`; returns (passed, known failures, problems).
pub(crate) fn replay(
    dir: &str,
    known: &BTreeSet<String>,
    check: impl Fn(&J) -> Option<String> + std::panic::RefUnwindSafe,
    mut each: impl FnMut(&std::path::Path, &J),
) -> (usize, usize, Vec<String>) {
    let mut problems = Vec::new();
    let (mut passed, mut failed) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut seen = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: J = serde_json::from_str(line).unwrap();
            let id = case["id"].as_str().unwrap().to_string();
            assert!(
                seen.insert(id.clone()),
                "{}: duplicate id {id}",
                file.display()
            );
            each(&file, &case);
            let outcome = std::panic::catch_unwind(|| check(&case))
                .unwrap_or_else(|_| Some("panicked".into()));
            match (outcome, known.contains(&id)) {
                (None, false) => passed += 1,
                (None, true) => problems.push(format!("{id}: passes now; remove it from the list")),
                (Some(_), true) => failed += 1,
                (Some(why), false) => problems.push(format!("{id}: {why}")),
            }
        }
    }
    for id in known.difference(&seen) {
        problems.push(format!("{id}: listed, but there is no such case"));
    }
    (passed, failed, problems)
}

#[test]
fn conformance_cases() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance");
    let known = known_ids(&format!("{dir}/known_failures.txt"), false);
    let (passed, failed, problems) = replay(dir, &known, |c| check_case(c, false), |_, _| {});
    eprintln!("conformance: {passed} passed, {failed} known failures");
    assert!(
        problems.is_empty(),
        "conformance problems:\n{}",
        problems.join("\n")
    );
}

#[test]
fn tensorflow_unit_test_cases() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tf");
    let known = known_ids(&format!("{dir}/known_differences.txt"), true);
    let (passed, failed, problems) = replay(dir, &known, |c| check_case(c, true), |_, _| {});
    eprintln!("TensorFlow's unit tests: {passed} passed, {failed} known differences");
    assert!(
        problems.is_empty(),
        "problems with the cases from TensorFlow's unit tests:\n{}",
        problems.join("\n")
    );
    assert!(
        failed * 20 <= passed + failed,
        "{failed} known differences out of {}: more than 5%",
        passed + failed
    );
}

/// The differential test: seeded random programs over every op family
/// (tools/random_programs.py), with TensorFlow's answers; differences are listed with their
/// reason in tests/tf_random/known_differences.txt, at most 5% of the programs.
#[test]
fn random_programs_agree_with_tensorflow() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tf_random");
    let known = known_ids(&format!("{dir}/known_differences.txt"), true);
    let (passed, failed, problems) = replay(dir, &known, |c| check_case(c, true), |_, _| {});
    eprintln!("random programs: {passed} passed, {failed} known differences");
    assert!(
        problems.is_empty(),
        "random programs that differ from TensorFlow:\n{}",
        problems.join("\n")
    );
    assert!(
        failed * 20 <= passed + failed,
        "{failed} known differences out of {}: more than 5%",
        passed + failed
    );
}
