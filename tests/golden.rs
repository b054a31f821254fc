//! Every golden transcript under tests/ and examples/ replayed and blessed through the
//! binary (one process per transcript, each in its own folder: see also
//! tests/cli_test_runner.rs), plus the promises `--bless` makes: it rewrites only outputs,
//! and leaves an up-to-date transcript untouched.

use std::path::{Path, PathBuf};

use ragtag::golden::{check_file, find_transcripts, Status};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn dirs() -> Vec<PathBuf> {
    vec![root().join("tests"), root().join("examples")]
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ragtag-golden-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every transcript, blessed through the binary on a copy of tests/ and examples/ (each
/// transcript runs in its own folder, where the files it reads sit): all pass, and blessing
/// an up-to-date transcript leaves it byte for byte as it was. (Replaying in this process
/// cannot give each transcript its own working directory: the tests share one process.)
#[test]
fn every_transcript_passes_and_blessing_it_changes_nothing() {
    let dir = scratch("idempotent");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .args(dirs())
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let copies = [dir.join("tests"), dir.join("examples")];
    let before: Vec<(PathBuf, Vec<u8>)> = find_transcripts(&copies)
        .unwrap()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    assert!(
        before.len() >= 10,
        "expected the error, must-not-panic and example transcripts, found {}",
        before.len()
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ragtag"))
        // Other tests run beside this one: a generous timeout, as only a hang should fail.
        .args(["test", "--bless", "-j", "2", "--timeout", "120"])
        .args(&copies)
        .env_remove("CI")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text == format!("{} passed, 0 failed\n", before.len()),
        "{text}{}\n(run `cargo run -- test --bless tests examples` after checking the diffs)",
        String::from_utf8_lossy(&out.stderr)
    );
    for (path, bytes) in before {
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{} changed",
            path.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn blessing_rewrites_outputs_only() {
    let dir = scratch("rewrite");
    let path = dir.join("t.rtt");
    let original = "\
# A comment that stays.
>>> x = tf.ragged.constant([[1, 2], [3]])
>>> x.row_lengths()
stale output

# Another comment.
>>> print('a')
>>> x.nrows()
";
    std::fs::write(&path, original).unwrap();
    let failed = check_file(&path, false);
    let report = failed.report();
    assert!(
        report.starts_with(&format!("FAIL {}", path.display())),
        "{report}"
    );
    assert!(report.contains("-stale output"), "{report}");
    assert!(report.contains("@@ -1,"), "{report}");
    // Not blessed: the file is as it was.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);

    assert!(matches!(check_file(&path, true).status, Status::Blessed));
    let blessed = std::fs::read_to_string(&path).unwrap();
    let inputs_and_comments = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with(">>>") || l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(inputs_and_comments(&blessed), inputs_and_comments(original));
    assert!(!blessed.contains("stale output"));
    assert!(
        blessed.contains(">>> print('a')\na\n>>> x.nrows()\n"),
        "{blessed}"
    );
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // Blessed once, it passes and a second bless is a no-op.
    assert!(matches!(check_file(&path, true).status, Status::Passed));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), blessed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn directories_are_searched_for_rtt_files() {
    let found = find_transcripts(&[root().join("tests").join("golden")]).unwrap();
    assert!(found
        .iter()
        .all(|p| p.extension().is_some_and(|e| e == "rtt")));
    assert!(found
        .iter()
        .any(|p| p.ends_with(Path::new("errors/syntax_error.rtt"))));
    assert!(find_transcripts(&[root().join("no-such-dir")]).is_err());
}

#[test]
fn the_command_line_reports_and_exits() {
    let dir = scratch("cli");
    let good = dir.join("good.rtt");
    let bad = dir.join("sub").join("bad.rtt");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&good, ">>> 1 + 1\n2\n").unwrap();
    std::fs::write(&bad, "# wrong on purpose\n>>> 1 + 1\n3\n").unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ragtag"))
            .arg("test")
            .args(args)
            // Under CI, --bless only writes pending files; this test blesses for real.
            .env_remove("CI")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let d = dir.to_str().unwrap();
    let (ok, out) = run(&[d]);
    assert!(!ok, "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"), "{out}");
    assert!(out.contains(&format!("FAIL {}", bad.display())), "{out}");
    assert!(out.contains("-3\n+2\n"), "{out}");
    let (ok, out) = run(&["--bless", d]);
    assert!(ok, "{out}");
    assert!(out.contains(&format!("blessed {}", bad.display())), "{out}");
    assert_eq!(out.lines().last(), Some("2 passed, 0 failed"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "# wrong on purpose\n>>> 1 + 1\n2\n"
    );
    let (ok, out) = run(&[d]);
    assert!(ok && out == "2 passed, 0 failed\n", "{out}");
    let (ok, _) = run(&[dir.join("missing").to_str().unwrap()]);
    assert!(!ok);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn blessing_through_a_symlink_keeps_the_link() {
    let dir = scratch("symlink");
    let target = dir.join("target.rtt");
    std::fs::write(&target, ">>> 2 * 3\nstale\n").unwrap();
    let link = dir.join("link.rtt");
    std::os::unix::fs::symlink("target.rtt", &link).unwrap();
    assert!(matches!(check_file(&link, true).status, Status::Blessed));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), ">>> 2 * 3\n6\n");
    assert!(matches!(check_file(&link, false).status, Status::Passed));
    std::fs::remove_dir_all(&dir).unwrap();
}
