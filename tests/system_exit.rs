//! `sys.exit` and `SystemExit` from the user's side: `ragtag run` ends with CPython's exit
//! status and prints no report (a status that is not an int or None is printed to stderr),
//! `finally` blocks run on the way out, and in the Jupyter kernel (as in the REPL, see
//! repl_tmux.rs) the error is reported and the session goes on.

/// Runs `program` with `ragtag run -` and returns (exit code, stdout, stderr).
fn run(program: &str) -> (Option<i32>, String, String) {
    crate::run_errors::run_program(&["run", "-"], program)
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
        // A class of the user's deriving from SystemExit, as CPython.
        ("class Quit(SystemExit):\n    pass\nraise Quit(3)\n", 3, ""),
        ("class Quit(SystemExit):\n    pass\nraise Quit\n", 0, ""),
        (
            "class Quit(SystemExit):\n    pass\nraise Quit('gone')\n",
            1,
            "gone\n",
        ),
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
