//! A script stops at its first uncaught error, with exit status 1, and every output format
//! reports the same error: an invalid list converted to a tensor is the example, because it
//! used to be drawn three different ways and let the script go on.

use std::process::Command;

/// Runs `program` with `ragtag run --format FORMAT -` and returns (exit code, stdout, stderr).
fn run(format: &str, program: &str) -> (Option<i32>, String, String) {
    run_program(&["run", "--format", format, "-"], program)
}

/// Runs ragtag with `args`, `program` on its stdin, and returns (exit code, stdout, stderr).
pub(crate) fn run_program(args: &[&str], program: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(args)
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

const MESSAGE: &str = "Can't convert non-rectangular Python sequence to Tensor.";

#[test]
fn an_invalid_list_stops_the_script_at_its_span_in_every_format() {
    let program = "print('before')\nx = tf.constant([[1], 2])\nprint('after')\n";
    for format in ["table", "tf", "json"] {
        let (code, out, err) = run(format, program);
        assert_eq!(code, Some(1), "{format}: {out}{err}");
        assert!(!out.contains("after"), "{format}: {out}");
        assert!(out.contains("before"), "{format}: {out}");
        if format == "json" {
            let last = out.lines().last().unwrap();
            let v: serde_json::Value = serde_json::from_str(last).unwrap();
            assert_eq!(v["kind"], "error", "{last}");
            assert_eq!(v["error"], "ValueError", "{last}");
            assert_eq!(v["message"], MESSAGE, "{last}");
            // The same place as the other formats' report: line 2, column 17.
            assert_eq!(
                (v["line"].as_u64(), v["column"].as_u64()),
                (Some(2), Some(17)),
                "{last}"
            );
            assert_eq!(v["source"], "<stdin>", "{last}");
        } else {
            assert!(
                err.contains(&format!("ValueError: {MESSAGE}")),
                "{format}: {err}"
            );
            // The report points at the list: line 2, column 17 (where `[[1], 2]` starts).
            assert!(
                err.contains("<stdin>:2:17") || err.contains(":2:17]"),
                "{format}: {err}"
            );
        }
    }
}

#[test]
fn an_invalid_list_as_an_operand_is_reported_the_same_way() {
    let program = "y = [[1], 2] + tf.constant(1)\nprint('after')\n";
    let mut seen = Vec::new();
    for format in ["table", "tf", "json"] {
        let (code, out, err) = run(format, program);
        assert_eq!(code, Some(1), "{format}: {out}{err}");
        assert!(!out.contains("after"), "{format}: {out}");
        let text = if format == "json" { out } else { err };
        assert!(text.contains("ValueError"), "{format}: {text}");
        assert!(text.contains("nesting depth"), "{format}: {text}");
        seen.push(format);
    }
    assert_eq!(seen.len(), 3);
}

#[test]
fn a_list_that_never_becomes_a_tensor_is_a_python_list() {
    for format in ["table", "tf", "json"] {
        let (code, out, err) = run(format, "x = [[1], 2]\nx\nprint(len(x))\n");
        assert_eq!(code, Some(0), "{format}: {out}{err}");
        assert!(out.contains('2'), "{format}: {out}");
        assert!(err.is_empty(), "{format}: {err}");
    }
}

#[test]
fn json_and_the_report_name_the_same_place_after_non_ascii_text() {
    let program = "x = 1\ns = 'héllo'; y = tf.constant([[1], 2])\n";
    let (_, out, _) = run("json", program);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let (_, _, err) = run("table", program);
    let header = format!("<stdin>:{}:{}", v["line"], v["column"]);
    assert!(err.contains(&header), "{header} in\n{err}");
}

/// A list nested a hundred thousand deep, shown by a script: the front end draws it on its
/// own (main) thread, which has far less stack than an evaluation thread. It used to abort
/// the process with a stack overflow; now the drawing stops at `...` where the stack runs
/// short, and a shown value that nothing else holds is dropped on an evaluation thread.
#[test]
fn a_value_nested_a_hundred_thousand_deep_is_shown_and_dropped_without_a_crash() {
    let program = "x = []\nfor i in range(100000):\n    x = [x]\nx\n\
                   def f():\n    y = []\n    for i in range(100000):\n        y = [y]\n    return y\n\
                   f()\nprint('after')\n";
    for format in ["table", "tf", "json"] {
        let (code, out, err) = run(format, program);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert!(out.contains("[[[[[[[["), "{format}");
        assert!(
            out.contains("..."),
            "{format}: the drawing stops where the stack runs short"
        );
        assert!(
            out.trim_end().ends_with("after") || format == "json",
            "{format}"
        );
        assert!(out.contains("after"), "{format}");
    }
}
