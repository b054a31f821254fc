//! Rerunning and reviewing failures through the real binary: `ragtag test --failed` reruns
//! what failed last time, `ragtag review` walks the pending `*.rtt.new` files block by
//! block, and Markdown files and notebooks run as transcripts.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::golden_features::{s, scratch};

/// `ragtag ARGS` run in `dir` with `input` on standard input: (success, stdout, stderr).
fn ragtag_in(dir: &Path, args: &[&str], input: &str, env: &[(&str, &str)]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("RAGTAG_DIFF_TOOL")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn failed_reruns_only_last_times_failures_and_all_when_none() {
    let dir = scratch("failed");
    std::fs::write(dir.join("good.rtt"), ">>> 1 + 1\n2\n").unwrap();
    std::fs::write(dir.join("bad.rtt"), ">>> 1 + 1\n3\n").unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "."], "", &[]);
    assert!(!ok && out.contains("1 passed, 1 failed"), "{out}");
    // The cache keeps itself out of version control.
    let ignore = std::fs::read_to_string(dir.join(".ragtag/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    let (ok, out, _) = ragtag_in(&dir, &["test", "--failed", "."], "", &[]);
    assert!(!ok, "{out}");
    assert!(out.contains("running the 1 transcript that failed last time"), "{out}");
    assert!(out.contains("0 passed, 1 failed") && out.contains("FAIL ./bad.rtt"), "{out}");
    // Fixed: it passes, and the next --failed run finds no failure and runs everything.
    std::fs::write(dir.join("bad.rtt"), ">>> 1 + 1\n2\n").unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "--failed", "."], "", &[]);
    assert!(ok && out.contains("1 passed, 0 failed"), "{out}");
    let (ok, out, _) = ragtag_in(&dir, &["test", "--failed", "."], "", &[]);
    assert!(ok, "{out}");
    assert!(out.contains("no transcript here failed last time; running all 2"), "{out}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
