//! Rerunning and reviewing failures through the real binary: `ragtag test --failed` reruns
//! what failed last time, `ragtag review` walks the pending `*.rtt.new` files block by
//! block, and Markdown files and notebooks run as transcripts.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::golden_features::{s, scratch};

/// `ragtag ARGS` run in `dir` with `input` on standard input: (success, stdout, stderr).
fn ragtag_in(
    dir: &Path,
    args: &[&str],
    input: &str,
    env: &[(&str, &str)],
) -> (bool, String, String) {
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
    assert!(
        out.contains("running the 1 transcript that failed last time"),
        "{out}"
    );
    assert!(
        out.contains("0 passed, 1 failed") && out.contains("FAIL ./bad.rtt"),
        "{out}"
    );
    // Fixed: it passes, and the next --failed run finds no failure and runs everything.
    std::fs::write(dir.join("bad.rtt"), ">>> 1 + 1\n2\n").unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "--failed", "."], "", &[]);
    assert!(ok && out.contains("1 passed, 0 failed"), "{out}");
    let (ok, out, _) = ragtag_in(&dir, &["test", "--failed", "."], "", &[]);
    assert!(ok, "{out}");
    assert!(
        out.contains("no transcript here failed last time; running all 2"),
        "{out}"
    );
    assert!(out.contains("2 passed, 0 failed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A transcript whose three blocks all changed, with its pending file written by
/// `ragtag test --bless=new`.
fn three_pending(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::write(
        dir.join("t.rtt"),
        ">>> 1 + 1\n3\n>>> print('x')\ny\n>>> 5\n0\n",
    )
    .unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "--bless=new", "t.rtt"], "", &[]);
    assert!(!ok && out.contains("pending: wrote t.rtt.new"), "{out}");
    dir
}

#[test]
fn review_accepts_rejects_and_skips_block_by_block_from_a_pipe() {
    let dir = three_pending("review");
    // t shows the whole block, t again the diff; then a, r, s.
    let (ok, out, err) = ragtag_in(&dir, &["review"], "t\nt\na\nr\ns\n", &[]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("./t.rtt:1 (1 of 3)\n--- expected\n+++ new\n"),
        "{out}"
    );
    assert!(out.contains("-3\n+2\n"), "{out}");
    // The toggle showed the block with its input.
    assert!(out.contains("> t\n>>> 1 + 1\n2\n"), "{out}");
    assert!(
        out.contains("review: 1 accepted, 1 rejected, 1 skipped"),
        "{out}"
    );
    let t = std::fs::read_to_string(dir.join("t.rtt")).unwrap();
    assert_eq!(t, ">>> 1 + 1\n2\n>>> print('x')\ny\n>>> 5\n0\n");
    // The skipped block stays pending, and only it.
    let (ok, out, _) = ragtag_in(&dir, &["review"], "A\n", &[]);
    assert!(ok && out.contains("./t.rtt:5 (1 of 1)"), "{out}");
    assert!(
        out.contains("review: 1 accepted, 0 rejected, 0 skipped"),
        "{out}"
    );
    let t = std::fs::read_to_string(dir.join("t.rtt")).unwrap();
    assert_eq!(t, ">>> 1 + 1\n2\n>>> print('x')\ny\n>>> 5\n5\n");
    assert!(
        !dir.join("t.rtt.new").exists(),
        "review consumes the pending file"
    );
    let (ok, out, _) = ragtag_in(&dir, &["review"], "", &[]);
    assert!(ok && out.contains("nothing pending"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn review_reject_all_remaining_and_the_end_of_input_skips() {
    let dir = three_pending("review_all");
    let (ok, out, _) = ragtag_in(&dir, &["review"], "a\n", &[]);
    assert!(
        ok && out.contains("review: 1 accepted, 0 rejected, 2 skipped"),
        "{out}"
    );
    let (ok, out, _) = ragtag_in(&dir, &["review", "t.rtt.new"], "R\n", &[]);
    assert!(
        ok && out.contains("review: 0 accepted, 2 rejected, 0 skipped"),
        "{out}"
    );
    let t = std::fs::read_to_string(dir.join("t.rtt")).unwrap();
    assert_eq!(t, ">>> 1 + 1\n2\n>>> print('x')\ny\n>>> 5\n0\n");
    assert!(!dir.join("t.rtt.new").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn review_accept_file_and_line_without_asking() {
    let dir = three_pending("review_accept");
    let (ok, out, err) = ragtag_in(&dir, &["review", "--accept", "t.rtt:3"], "", &[]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("review: 1 accepted, 0 rejected, 2 skipped"),
        "{out}"
    );
    let t = std::fs::read_to_string(dir.join("t.rtt")).unwrap();
    assert_eq!(t, ">>> 1 + 1\n3\n>>> print('x')\nx\n>>> 5\n0\n");
    let (ok, _, err) = ragtag_in(&dir, &["review", "--accept", "t.rtt:2"], "", &[]);
    assert!(
        !ok && err.contains("no pending block starts on that line (pending: lines 1, 5)"),
        "{err}"
    );
    let (ok, out, _) = ragtag_in(&dir, &["review", "--accept", "t.rtt"], "", &[]);
    assert!(ok && out.contains("review: 2 accepted"), "{out}");
    let (ok, out, _) = ragtag_in(&dir, &["test", "t.rtt"], "", &[]);
    assert!(ok, "{out}");
    assert!(!dir.join("t.rtt.new").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn review_opens_the_diff_tool_named_by_ragtag_diff_tool() {
    let dir = three_pending("review_tool");
    let env = [("RAGTAG_DIFF_TOOL", "echo TOOL")];
    let (ok, out, _) = ragtag_in(&dir, &["review"], "q\n", &env);
    assert!(ok, "{out}");
    assert!(
        out.contains("TOOL ") && out.contains("expected.txt") && out.contains("new.txt"),
        "{out}"
    );
    assert!(
        !out.contains("--- expected"),
        "the tool shows the diff instead: {out}"
    );
    assert!(
        out.contains("review: 0 accepted, 0 rejected, 3 skipped"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The review in a real terminal: tmux runs `ragtag review`, keys go in with `send-keys`.
/// Passes (saying why) when tmux is not installed.
#[test]
fn review_in_a_terminal_with_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux is not installed; skipping");
        return;
    }
    let dir = three_pending("review_tmux");
    let socket = format!("ragtag-review-{}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-L")
            .arg(&socket)
            .args(args)
            .output()
            .unwrap()
    };
    let cmd = format!(
        "cd {} && {} review; sleep 30",
        s(&dir),
        env!("CARGO_BIN_EXE_ragtag")
    );
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        "rv",
        "-x",
        "150",
        "-y",
        "50",
        &cmd,
    ]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let screen =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", "rv"]).stdout).into_owned();
    let wait = |what: &str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let s = screen();
            if s.contains(what) {
                return s;
            }
            assert!(std::time::Instant::now() < deadline, "no `{what}` on:\n{s}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    wait("(1 of 3)");
    tmux(&["send-keys", "-t", "rv", "a", "Enter"]);
    wait("(2 of 3)");
    tmux(&["send-keys", "-t", "rv", "R", "Enter"]);
    let s = wait("review: 1 accepted, 2 rejected, 0 skipped");
    tmux(&["kill-server"]);
    let t = std::fs::read_to_string(dir.join("t.rtt")).unwrap();
    assert_eq!(t, ">>> 1 + 1\n2\n>>> print('x')\ny\n>>> 5\n0\n", "{s}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn markdown_ragtag_blocks_run_as_transcripts_with_the_files_line_numbers() {
    let dir = scratch("markdown");
    let md = "# Guide\n\nProse.\n\n```ragtag\n>>> 1 + 1\n3\n```\n\n```python\n>>> not_run\n```\n";
    std::fs::write(dir.join("guide.md"), md).unwrap();
    // A Markdown file without a ragtag block is not a transcript in a folder.
    std::fs::write(dir.join("notes.md"), "# Notes\n\n```python\n>>> 1\n```\n").unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "."], "", &[]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("FAIL ./guide.md\n  line 7: expected 3, got 2"),
        "{out}"
    );
    assert!(
        out.contains("@@ -4,7 +4,7 @@"),
        "numbered by the Markdown's lines: {out}"
    );
    assert!(
        !out.contains("notes.md") && out.contains("0 passed, 1 failed"),
        "{out}"
    );
    // Blessing rewrites the block and leaves the prose as it was.
    let (ok, out, _) = ragtag_in(&dir, &["test", "--bless", "guide.md"], "", &[]);
    assert!(ok, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("guide.md")).unwrap(),
        md.replace("3\n```", "2\n```")
    );
    // Blessed, it passes.
    let (ok, out, _) = ragtag_in(&dir, &["test", "guide.md"], "", &[]);
    assert!(ok && out.contains("1 passed, 0 failed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const TRANSCRIPT: &str = "# A transcript\n# ragtag: rtol=1e-3\n>>> x = 1\n\n\
>>> for i in range(2):\n...     print(i + x)\n1\n2\n\n\
# Errors are marked\n>>> y  # raises NameError\n  × NameError: name 'y' is not defined\n...\n\n\
>>> print('# not a comment')\n\\# not a comment\n\n";

#[test]
fn convert_round_trips_between_a_transcript_and_a_notebook_and_both_run() {
    let dir = scratch("convert");
    std::fs::write(dir.join("t.rtt"), TRANSCRIPT).unwrap();
    let (ok, out, err) = ragtag_in(&dir, &["test", "--convert", "t.rtt"], "", &[]);
    assert!(ok && out.contains("wrote t.ipynb"), "{out}{err}");
    let nb: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("t.ipynb")).unwrap()).unwrap();
    assert_eq!(nb["metadata"]["kernelspec"]["name"], "ragtag");
    let cells = nb["cells"].as_array().unwrap();
    assert_eq!(cells.iter().filter(|c| c["cell_type"] == "code").count(), 4);
    assert_eq!(
        cells[2]["outputs"][0]["text"],
        serde_json::json!(["1\n", "2\n"])
    );
    // The notebook runs as a transcript.
    let (ok, out, _) = ragtag_in(&dir, &["test", "t.ipynb"], "", &[]);
    assert!(ok && out.contains("1 passed, 0 failed"), "{out}");
    // An existing target is never overwritten.
    let (ok, _, err) = ragtag_in(&dir, &["test", "--convert", "t.ipynb"], "", &[]);
    assert!(!ok && err.contains("t.rtt exists"), "{err}");
    std::fs::rename(dir.join("t.rtt"), dir.join("original.rtt")).unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "--convert", "t.ipynb"], "", &[]);
    assert!(ok && out.contains("wrote t.rtt"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("t.rtt")).unwrap(),
        TRANSCRIPT
    );
    // Blessing a notebook rewrites its code cells' outputs.
    let wrong = std::fs::read_to_string(dir.join("t.ipynb"))
        .unwrap()
        .replace("\"2\\n\"", "\"3\\n\"");
    std::fs::write(dir.join("t.ipynb"), wrong).unwrap();
    let (ok, out, _) = ragtag_in(&dir, &["test", "t.ipynb"], "", &[]);
    assert!(!ok && out.contains("-3\n+2\n"), "{out}");
    let (ok, _, _) = ragtag_in(&dir, &["test", "--bless", "t.ipynb"], "", &[]);
    assert!(ok);
    let (ok, out, _) = ragtag_in(&dir, &["test", "t.ipynb"], "", &[]);
    assert!(ok, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
