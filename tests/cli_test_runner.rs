//! `ragtag test` as users run it: the real binary, which replays each transcript in a child
//! process, so an input that aborts the process or never finishes fails its transcript
//! and the run still reaches its summary line.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory of this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ragtag-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `ragtag test ARGS` with extra environment: (success, stdout, stderr, how long it took).
fn ragtag_test(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .arg("test")
        .args(args)
        // Under CI, --bless only writes pending files: these tests ask for CI themselves.
        .env_remove("CI")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The hostile-input transcript through the binary: an abort in any of its inputs would
/// show here as a failure rather than taking `cargo test` down with it.
#[test]
fn the_must_not_panic_transcript_passes() {
    let path = root().join("tests/golden/must_not_panic.rtt");
    // Other tests run beside this one: a generous timeout, as only a hang should fail.
    let (ok, out, err, _) = ragtag_test(&["--timeout", "120", s(&path)], &[]);
    assert!(ok, "{out}{err}");
    assert_eq!(out, "1 passed, 0 failed\n", "{err}");
}

/// Every transcript, each in a process of its own, as CI runs them: an input that aborts
/// shows here as one failing transcript instead of taking the test binary down.
#[test]
fn every_transcript_passes_through_the_binary() {
    let (tests, examples) = (root().join("tests"), root().join("examples"));
    // Other tests run beside this one: a generous timeout, as only a hang should fail.
    let (ok, out, err, _) = ragtag_test(&["--timeout", "120", s(&tests), s(&examples)], &[]);
    assert!(ok, "{out}{err}");
    assert!(out.ends_with(" passed, 0 failed\n"), "{out}");
}

const GOOD: &str = ">>> x = 2\n>>> x + 1\n3\n";

/// The test hook makes `print('boom')` abort; the comments put input 3 on line 5.
const ABORTS: &str = "# The third input aborts.\n>>> x = 1\n>>> print('before')\nbefore\n\
>>> print('boom')\nboom\n>>> x\n1\n";

// Signals and their names are Unix's.
#[cfg(unix)]
#[test]
fn an_input_that_aborts_fails_its_transcript_and_the_run_goes_on() {
    let dir = scratch("abort");
    std::fs::write(dir.join("a_aborts.rtt"), ABORTS).unwrap();
    std::fs::write(dir.join("b_good.rtt"), GOOD).unwrap();
    let hook = [("RAGTAG_TEST_ABORT_ON", "print('boom')")];
    let (ok, out, _, _) = ragtag_test(&[s(&dir)], &hook);
    assert!(!ok, "{out}");
    let a = dir.join("a_aborts.rtt");
    assert!(
        out.contains(&format!(
            "FAIL {}\n  input 3 (line 5) aborted the process: signal SIGABRT\n  \
             (the input after it did not run)\n",
            a.display()
        )),
        "{out}"
    );
    // The inputs before the abort ran and matched: no diff for this transcript.
    assert!(!out.contains("a_aborts.rtt (expected)"), "{out}");
    assert!(!out.contains("b_good.rtt"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"), "{out}");

    // Blessing leaves a transcript whose process died as it was.
    let (ok, out, _, _) = ragtag_test(&["--bless", s(&dir)], &hook);
    assert!(!ok, "{out}");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), ABORTS);
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"), "{out}");

    // Without the hook the same transcript passes: the failure was the abort.
    let (ok, out, _, _) = ragtag_test(&[s(&a)], &[]);
    assert!(ok, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs for 10^15 iterations, checking for interrupts as every loop does. (`range` makes
/// its whole list before the loop starts, without checking, so each stays small.)
const LOOPS: &str = ">>> x = 5\n>>> for i in range(10**5):\n...     for j in range(10**5):\n\
...         for k in range(10**5): pass\n>>> x\n5\n";

#[test]
fn an_input_that_runs_too_long_is_interrupted_or_killed_and_the_run_goes_on() {
    let dir = scratch("timeout");
    std::fs::write(dir.join("a_loops.rtt"), LOOPS).unwrap();
    std::fs::write(dir.join("b_good.rtt"), GOOD).unwrap();
    // The hook makes this input sleep without looking at the cancel flag.
    std::fs::write(dir.join("c_hangs.rtt"), ">>> print('zzz')\nzzz\n>>> 1\n1\n").unwrap();
    let hook = [("RAGTAG_TEST_HANG_ON", "print('zzz')")];
    let (ok, out, _, took) = ragtag_test(&["--timeout", "1", "--bless", s(&dir)], &hook);
    assert!(!ok, "{out}");
    let a = dir.join("a_loops.rtt");
    assert!(
        out.contains(&format!(
            "FAIL {}\n  input 2 (line 2) did not finish within 1 s (interrupted)\n",
            a.display()
        )),
        "{out}"
    );
    // Interrupted, the input failed with KeyboardInterrupt and the session went on: `x`
    // still showed 5, so the only difference is the interrupted input's report.
    assert!(
        out.contains("+  × KeyboardInterrupt: interrupted\n"),
        "{out}"
    );
    assert!(out.contains(" >>> x\n 5\n"), "{out}");
    let c = dir.join("c_hangs.rtt");
    assert!(
        out.contains(&format!(
            "FAIL {}\n  input 1 (line 1) did not finish within 1 s and ignored the interrupt; \
             killed after ",
            c.display()
        )),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("1 passed, 2 failed"), "{out}");
    assert!(!out.contains("blessed"), "{out}");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), LOOPS);
    // 1 s, then the 3 s grace, for the killed input; 1 s for the interrupted one.
    assert!(took < Duration::from_secs(60), "took {took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_timeout_is_checked() {
    let dir = scratch("timeout-arg");
    let good = dir.join("good.rtt");
    std::fs::write(&good, GOOD).unwrap();
    // 0 turns the limit off.
    let (ok, out, err, _) = ragtag_test(&["--timeout", "0", s(&good)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}{err}");
    for bad in ["-1", "nan", "soon"] {
        let (ok, out, err, _) = ragtag_test(&[&format!("--timeout={bad}"), s(&good)], &[]);
        assert!(!ok && out.is_empty(), "{bad}: {out}");
        assert!(err.contains("--timeout"), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn max_memory_sets_the_limit_transcripts_replay_under() {
    let dir = scratch("max-memory");
    let t = dir.join("zeros.rtt");
    // 400 MB of float32: within the fixed 1 GiB transcripts replay under, over 100 MB.
    std::fs::write(
        &t,
        ">>> x = tf.zeros([10**8])\n>>> x.shape\nTensorShape([100000000])\n",
    )
    .unwrap();
    let (ok, out, err, _) = ragtag_test(&[s(&t)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}{err}");
    let (ok, out, err, _) = ragtag_test(&["--max-memory", "100MB", s(&t)], &[]);
    assert!(!ok && out.ends_with("0 passed, 1 failed\n"), "{out}{err}");
    assert!(
        out.contains("ResourceExhaustedError") && out.contains("limit of 95.4 MiB"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn blessing_through_a_symlink_rewrites_its_target() {
    let dir = scratch("symlink");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let target = dir.join("real").join("t.rtt");
    std::fs::write(&target, ">>> 1 + 1\n3\n").unwrap();
    let link = dir.join("link.rtt");
    std::os::unix::fs::symlink(Path::new("real").join("t.rtt"), &link).unwrap();
    let (ok, out, err, _) = ragtag_test(&["--bless", s(&link)], &[]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(&format!("blessed {}", link.display())),
        "{out}"
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("real").join("t.rtt")
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), ">>> 1 + 1\n2\n");
    // Nothing was left beside the link or the target.
    for d in [&dir, &dir.join("real")] {
        let names: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1 + usize::from(d == &dir), "{names:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
