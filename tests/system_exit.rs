//! `sys.exit` and `SystemExit` from the user's side: `ragtag run` ends with CPython's exit
//! status and prints no report (a status that is not an int or None is printed to stderr),
//! `finally` blocks run on the way out, and in the Jupyter kernel (as in the REPL, see
//! repl_tmux.rs) the error is reported and the session goes on.

use std::process::Command;

/// Runs `program` with `ragtag run -` and returns (exit code, stdout, stderr).
fn run(program: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["run", "-"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ragtag starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(program.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_script_ends_with_cpython_s_exit_status() {
    for (program, status, stderr) in [
        ("import sys\nprint('a')\nsys.exit()\nprint('b')\n", 0, ""),
        ("import sys\nsys.exit(0)\n", 0, ""),
        ("import sys\nsys.exit(None)\n", 0, ""),
        ("import sys\nsys.exit(3)\n", 3, ""),
        ("import sys\nsys.exit(263)\n", 7, ""),
        ("import sys\nsys.exit(True)\n", 1, ""),
        ("import sys\nsys.exit('bye now')\n", 1, "bye now\n"),
        ("raise SystemExit(2)\n", 2, ""),
        ("raise SystemExit('2')\n", 1, "2\n"),
        ("raise SystemExit\n", 0, ""),
        ("def f():\n    raise SystemExit(5)\nf()\n", 5, ""),
    ] {
        let (code, out, err) = run(program);
        assert_eq!(code, Some(status), "{program}: {out}{err}");
        assert_eq!(err, stderr, "{program}");
        assert!(!out.contains('b'), "{program}: {out}");
    }
}

#[test]
fn finally_runs_on_the_way_out_and_except_can_keep_going() {
    let (code, out, err) = run("import sys\ntry:\n    sys.exit(4)\nfinally:\n    print('fin')\n");
    assert_eq!((code, out.as_str(), err.as_str()), (Some(4), "fin\n", ""));
    let program = "import sys\ntry:\n    sys.exit(4)\nexcept SystemExit as e:\n    print('caught', e.code)\nprint('on')\n";
    let (code, out, _) = run(program);
    assert_eq!((code, out.as_str()), (Some(0), "caught 4\non\n"));
}

#[cfg(feature = "jupyter")]
#[tokio::test]
async fn the_kernel_reports_a_system_exit_and_the_session_goes_on() {
    use crate::kernel_common::client::*;
    let mut k = Kernel::start("system-exit").await;
    let (reply, _) = k.execute("kept = 41").await;
    assert_eq!(reply["content"]["status"], "ok");
    let (reply, out) = k.execute("import sys\nsys.exit(3)").await;
    assert_eq!(reply["content"]["status"], "error");
    assert_eq!(reply["content"]["ename"], "SystemExit");
    assert_eq!(reply["content"]["evalue"], "3");
    assert!(types(&out).contains(&"error".to_string()));
    let (reply, out) = k.execute("kept + 1").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(out[2]["content"]["data"]["text/plain"], "42");
    k.shutdown().await;
}
