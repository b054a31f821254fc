//! The Python differential test: programs of everyday Python (tests/python/*.jsonl), each
//! tagged with the features it uses, with CPython 3.11's answers recorded by
//! `tools/python_answers.py` and replayed here without Python.
//!
//! The comparison is exact (CPython is the specification: a float must print digit for
//! digit as CPython prints it); an error matches when its exception class does. Cases whose
//! answer ragtag does not give yet are listed in tests/python/known_differences.txt, each
//! with its reason; a listed case that starts passing fails the test, so the list only
//! shrinks.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as J;

fn truncate(j: &J) -> String {
    let s = j.to_string();
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

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
    let program = case["program"].as_str().unwrap();
    let got = ragtag::session::json_transcript(program);
    let want = case["expected"].as_array().unwrap();
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

/// The ids of tests/python/known_differences.txt, each of which must give its reason.
fn known_differences(path: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut ids = BTreeSet::new();
    for line in text.lines() {
        let (id, reason) = line.split_once('#').unwrap_or((line, ""));
        let id = id.trim();
        if id.is_empty() {
            continue;
        }
        assert!(
            !reason.trim().is_empty(),
            "{path}: `{id}` needs a `# reason`"
        );
        assert!(ids.insert(id.to_string()), "{path}: `{id}` is listed twice");
    }
    ids
}

#[test]
fn python_programs_agree_with_cpython() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python");
    let known = known_differences(&format!("{dir}/known_differences.txt"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let (mut passed, mut differ) = (0usize, 0usize);
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    // Cases per feature tag, to show what the test covers.
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
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
            let tags = case["features"].as_array().map_or(0, Vec::len);
            assert!(tags > 0, "{}: {id} has no features", file.display());
            for t in case["features"].as_array().into_iter().flatten() {
                *features
                    .entry(t.as_str().unwrap_or("").to_string())
                    .or_default() += 1;
            }
            let outcome = std::panic::catch_unwind(|| check_case(&case))
                .unwrap_or_else(|_| Some("panicked".into()));
            match (outcome, known.contains(&id)) {
                (None, false) => passed += 1,
                (None, true) => problems.push(format!("{id}: passes now; remove it from the list")),
                (Some(_), true) => differ += 1,
                (Some(why), false) => problems.push(format!("{id}: {why}")),
            }
        }
    }
    for id in known.difference(&seen) {
        problems.push(format!("{id}: listed, but there is no such case"));
    }
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
