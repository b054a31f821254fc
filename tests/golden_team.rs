//! `ragtag test` in a team's CI, through the real binary: `-j N` with a report in file
//! order, `--filter`/`--filter-out` over `FILE::LINE` block names, `--junit`, pending
//! `*.rtt.new` files from `--bless=new`, and `--bless` under `CI`, which never rewrites a
//! transcript.

use std::time::{Duration, Instant};

use crate::golden_features::{ragtag_test, s, scratch};

/// The load average of the last minute, where the system says it.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `ragtag test -j JOBS DIR` with extra environment: the report and how long it took.
fn timed(jobs: &str, dir: &std::path::Path, env: &[(&str, &str)]) -> (String, Duration) {
    let started = Instant::now();
    let (_, out, _) = ragtag_test(&["-j", jobs, s(dir)], env);
    (out, started.elapsed())
}

#[test]
fn two_jobs_overlap_and_report_in_the_same_order() {
    let dir = scratch("jobs");
    for k in 0..40 {
        // The hook makes `print('nap')` sleep 0.4 s first; a few transcripts fail, so the
        // report has something to order.
        let want = if k % 13 == 5 { "wrong" } else { "nap" };
        std::fs::write(
            dir.join(format!("t{k:02}.rtt")),
            format!("# Transcript {k}.\n>>> print('nap')\n{want}\n"),
        )
        .unwrap();
    }
    let hook = [("RAGTAG_TEST_SLEEP_ON", "print('nap')")];
    let (out1, one) = timed("1", &dir, &hook);
    let (out2, two) = timed("2", &dir, &hook);
    assert_eq!(out1, out2, "the report does not depend on -j");
    assert!(out1.ends_with("37 passed, 3 failed\n"), "{out1}");
    let order: Vec<&str> = out1.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(
        order.len() == 3 && order[0].ends_with("t05.rtt") && order[2].ends_with("t31.rtt"),
        "{order:?}"
    );
    eprintln!(
        "sleeping transcripts: -j 1 {one:?}, -j 2 {two:?} ({:.0}%)",
        100.0 * two.as_secs_f64() / one.as_secs_f64()
    );
    assert!(one >= Duration::from_secs(16), "40 naps of 0.4 s: {one:?}");
    // Run two at a time, the naps overlap: -j 2 saves 8 s of them (half of 40 × 0.4 s).
    // Starting a process costs CPU time, which cores busy with other tests may not give
    // back in parallel, so at least half of that saving is asked for; a runner that ran
    // the transcripts one after the other would save nothing. (On an idle machine it saves
    // all of it: -j 2 takes about 51% of -j 1.)
    let saved = one.saturating_sub(two);
    assert!(
        saved >= Duration::from_secs(4),
        "-j 1 took {one:?}, -j 2 took {two:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A transcript that keeps a core busy for a fifth of a second or so.
fn busy(k: usize) -> String {
    format!(
        ">>> s = {k}\n>>> for i in range(1000000):\n...     s += 1\n>>> s\n{}\n",
        k + 1_000_000
    )
}

#[test]
fn two_jobs_on_two_idle_cores_take_at_most_60_percent_of_one() {
    let dir = scratch("cores");
    for k in 0..40 {
        std::fs::write(dir.join(format!("t{k:02}.rtt")), busy(k)).unwrap();
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let idle = load_average().is_some_and(|l| l < 0.5);
    let (out1, one) = timed("1", &dir, &[]);
    let (out2, two) = timed("2", &dir, &[]);
    assert!(
        out1 == "40 passed, 0 failed\n" && out1 == out2,
        "{out1}{out2}"
    );
    let ratio = two.as_secs_f64() / one.as_secs_f64();
    eprintln!(
        "busy transcripts: -j 1 {one:?}, -j 2 {two:?} ({:.0}%)",
        100.0 * ratio
    );
    // Only two cores that nothing else uses can show it; on a busy machine the numbers are
    // printed and not judged.
    if cores >= 2 && idle {
        assert!(ratio <= 0.6, "-j 1 took {one:?}, -j 2 took {two:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn filters_select_blocks_by_file_and_line() {
    let dir = scratch("filter");
    // a.rtt: the block on line 3 fails; b.rtt: the one on line 1.
    std::fs::write(dir.join("a.rtt"), ">>> x = 1\n>>> x\n1\n>>> x + 1\n3\n").unwrap();
    std::fs::write(dir.join("b.rtt"), ">>> 2 * 2\n5\n").unwrap();
    let (ok, out, _) = ragtag_test(&["--filter", "b\\.rtt", s(&dir)], &[]);
    assert!(
        !ok && out.ends_with("0 passed, 1 failed\n") && out.contains("b.rtt"),
        "{out}"
    );
    assert!(!out.contains("a.rtt"), "{out}");
    // The failing blocks left out: the inputs before them still run (x is defined).
    let (ok, out, _) = ragtag_test(&["--filter-out", "a\\.rtt::4$|b\\.rtt", s(&dir)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}");
    let (ok, out, _) = ragtag_test(&["--filter", "a\\.rtt::2$", s(&dir)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}");
    let (ok, _, err) = ragtag_test(&["--filter", "nothing-matches", s(&dir)], &[]);
    assert!(!ok && err.contains("matches the filters"), "{err}");
    let (ok, _, err) = ragtag_test(&["--filter", "(", s(&dir)], &[]);
    assert!(!ok && err.contains("--filter"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_split_the_transcripts_between_runs() {
    let dir = scratch("shard");
    for k in 0..5 {
        std::fs::write(dir.join(format!("t{k}.rtt")), format!(">>> {k}\n{k}\n")).unwrap();
    }
    let counts: Vec<String> = ["1/2", "2/2"]
        .iter()
        .map(|sh| ragtag_test(&["--shard", sh, s(&dir)], &[]).1)
        .collect();
    assert_eq!(counts, ["3 passed, 0 failed\n", "2 passed, 0 failed\n"]);
    let (ok, _, err) = ragtag_test(&["--shard", "3/2", s(&dir)], &[]);
    assert!(!ok && err.contains("I/N"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn junit_has_one_testcase_per_block() {
    let dir = scratch("junit");
    std::fs::write(dir.join("a.rtt"), ">>> x = 1\n>>> x\n1\n>>> x + 1\n3 <&>\n").unwrap();
    std::fs::write(dir.join("b.rtt"), ">>> 2 * 2\n4\n").unwrap();
    std::fs::write(dir.join("c.rtt"), "stray\n").unwrap();
    let report = dir.join("report.xml");
    let (ok, _, _) = ragtag_test(&["--junit", s(&report), s(&dir)], &[]);
    assert!(!ok);
    let xml = std::fs::read_to_string(&report).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("5"));
    assert_eq!(root.attribute("failures"), Some("1"));
    assert_eq!(root.attribute("errors"), Some("1"));
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 3);
    for suite in &suites {
        assert_eq!(suite.tag_name().name(), "testsuite");
        let cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
        assert_eq!(
            suite.attribute("tests"),
            Some(cases.len().to_string().as_str())
        );
        for case in cases {
            // The JUnit schema's testcase: name and classname, and at most one of
            // failure, error, skipped.
            assert_eq!(case.tag_name().name(), "testcase");
            assert!(case.attribute("name").is_some() && case.attribute("classname").is_some());
            assert!(case.children().filter(|n| n.is_element()).count() <= 1);
        }
    }
    let a = dir.join("a.rtt").display().to_string();
    let names: Vec<&str> = suites[0]
        .children()
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(
        names,
        [format!("{a}::1"), format!("{a}::2"), format!("{a}::4")]
    );
    let failure = suites[0]
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert!(failure.text().unwrap().contains("-3 <&>\n+2"), "{xml}");
    assert!(suites[2].descendants().any(|n| n.has_tag_name("error")));
    std::fs::remove_dir_all(&dir).unwrap();
}

const STALE: &str = "# A comment.\n>>> 1 + 1\n3\n";

#[test]
fn bless_new_and_bless_under_ci_write_pending_files_and_leave_transcripts_alone() {
    let dir = scratch("pending");
    let t = dir.join("t.rtt");
    let pending = dir.join("t.rtt.new");
    for (args, env) in [
        (&["--bless=new"][..], &[][..]),
        (&["--bless"][..], &[("CI", "true")][..]),
    ] {
        std::fs::write(&t, STALE).unwrap();
        let _ = std::fs::remove_file(&pending);
        let mut all = args.to_vec();
        all.push(s(&dir));
        let (ok, out, err) = ragtag_test(&all, env);
        assert!(!ok, "a pending change still fails: {out}");
        assert!(
            out.contains(&format!("pending: wrote {}", pending.display())),
            "{out}"
        );
        assert_eq!(
            std::fs::read_to_string(&t).unwrap(),
            STALE,
            "{args:?} {env:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&pending).unwrap(),
            "# A comment.\n>>> 1 + 1\n2\n"
        );
        if !env.is_empty() {
            assert!(err.contains("CI is set"), "{err}");
        }
        // A pending file is not a transcript: the next run does not pick it up.
        let (_, out, _) = ragtag_test(&[s(&dir)], &[]);
        assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
    }
    // Once the transcript passes, the pending file is reported as stale, and a bless
    // removes it.
    std::fs::write(&t, "# A comment.\n>>> 1 + 1\n2\n").unwrap();
    let (ok, out, _) = ragtag_test(&[s(&dir)], &[]);
    assert!(
        ok && out.contains(&format!("stale {}", pending.display())),
        "{out}"
    );
    let (ok, out, _) = ragtag_test(&["--bless=new", s(&dir)], &[]);
    assert!(ok && out.contains("removed stale"), "{out}");
    assert!(!pending.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
