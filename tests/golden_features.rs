//! What `ragtag test` offers a team, through the real binary: strict parsing, transcripts
//! that run in their own folder, wildcards and comments that survive `--bless`, numbers
//! within a per-dtype tolerance, errors that must be marked, `# may vary`.
//! (Parallel runs, filters, JUnit and pending `*.rtt.new` files: tests/golden_team.rs.)

use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch directory of this test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ragtag-feat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `ragtag test ARGS` with extra environment (CI removed unless given): (success, stdout,
/// stderr).
pub fn ragtag_test(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .arg("test")
        .args(args)
        .env_remove("CI")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// How many lines a report's diffs remove.
fn removed(report: &str) -> usize {
    report
        .lines()
        .filter(|l| l.starts_with('-') && !l.starts_with("---"))
        .count()
}

#[test]
fn finding_no_transcript_is_an_error() {
    let dir = scratch("empty");
    let (ok, out, err) = ragtag_test(&[s(&dir)], &[]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("no transcripts (*.rtt) found in") && err.contains(s(&dir)),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_transcript_reads_files_from_its_own_folder() {
    let dir = scratch("folder");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/helper.py"), "x = 41\n").unwrap();
    let t = dir.join("sub/t.rtt");
    std::fs::write(&t, ">>> :load helper.py\n>>> x + 1\n42\n").unwrap();
    // The test runs from the repository, far from the transcript's folder.
    let (ok, out, err) = ragtag_test(&[s(&dir)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_directives_and_near_miss_prompts_are_errors_with_their_line() {
    let dir = scratch("strict");
    let cases = [
        (
            "directive.rtt",
            "# ragtag: rtol=1e-3 tolerance=2\n>>> 1\n1\n",
            "line 1: unknown directive `tolerance`",
        ),
        (
            "typo.rtt",
            ">>> 1\n1\n# ragtg: rtol=0\n>>> 2\n2\n",
            "line 3: `ragtg:` looks like a directive",
        ),
        (
            "prompt.rtt",
            ">>> 1\n1\n>> 2\n2\n",
            "line 3: `>>` is not a prompt",
        ),
        (
            "marker.rtt",
            ">>> 1  # raises\n1\n",
            "line 1: `# raises`: write `# raises ClassName`",
        ),
        (
            "regex.rtt",
            ">>> 1\n1 ( (re)\n",
            "line 2: the regex of this ` (re)` line is invalid",
        ),
    ];
    for (name, text, _) in cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (ok, out, _) = ragtag_test(&["--bless", s(&dir)], &[]);
    assert!(!ok, "{out}");
    for (name, text, message) in cases {
        let path = dir.join(name);
        assert!(
            out.contains(&format!("FAIL {}: {message}", path.display())),
            "{name}: {out}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name}");
    }
    assert_eq!(out.lines().last(), Some("0 passed, 5 failed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Wildcards, a placeholder of the file's own, comments, a directive and blank lines, and
/// two outputs that really changed.
const WILD: &str = "\
# ragtag: atol=0 [ID]=id-[0-9]+
# Wildcards: any lines, any text, a regex, a duration.
>>> print('start\\nline 1\\nline 2\\nend')
start
...
end

>>> :time 1 + 1
2
took [TIME]
>>> print('id-42 of 7')
id-[0-9]+ of \\d+ (re)
>>> print('path /tmp/x/y.txt, kept')
path [PATH], [..]
>>> print('user id-77 of', 3)
user [ID] of 3
>>> print('a\\nb\\nc')
a
stale
c
>>> 6 * 7
41
";

#[test]
fn blessing_keeps_wildcards_comments_and_directives_byte_for_byte() {
    let dir = scratch("wild");
    let t = dir.join("wild.rtt");
    std::fs::write(&t, WILD).unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(!ok, "{out}");
    // Only the lines that really differ show in the diff.
    assert!(out.contains(" a\n-stale\n+b\n c\n"), "{out}");
    assert!(out.contains("-41\n+42\n"), "{out}");
    assert!(
        out.contains("  line 22: expected 41, got 42 (integers are exact)\n"),
        "{out}"
    );
    assert_eq!(removed(&out), 2, "{out}");
    let (ok, out, _) = ragtag_test(&["--bless", s(&t)], &[]);
    assert!(ok, "{out}");
    let blessed = std::fs::read_to_string(&t).unwrap();
    assert_eq!(
        blessed,
        WILD.replace("a\nstale\nc", "a\nb\nc")
            .replace("41\n", "42\n")
    );
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What ragtag prints for `tf.constant([0.5, 1.25])`, with 0.5 moved in its last float32
/// bit (0.5 + 2^-24 prints as 0.50000006).
const FLOAT32: &str = "\
>>> tf.constant([0.5, 1.25])
Tensor  dtype=float32  shape=[2]  values=2
┌────────────┬──────┐
│          0 ┆    1 │
╞════════════╪══════╡
│ 0.50000006 ┆ 1.25 │
└────────────┴──────┘
";

#[test]
fn a_float32_last_bit_change_passes_by_default_and_fails_with_rtol_0() {
    let dir = scratch("tolerance");
    let t = dir.join("f.rtt");
    std::fs::write(&t, FLOAT32).unwrap();
    let (ok, out, err) = ragtag_test(&[s(&t)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}{err}");
    // Blessing a passing transcript leaves its numbers as written.
    let (ok, _, _) = ragtag_test(&["--bless", s(&t)], &[]);
    assert!(ok);
    assert_eq!(std::fs::read_to_string(&t).unwrap(), FLOAT32);

    for strict in [
        format!("# ragtag: rtol=0\n{FLOAT32}"),
        format!(
            "# ragtag: rtol=1e-3\n>>> 1.0 / 3\n0.3334\n{FLOAT32}\
                 # ragtag: rtol=0 atol=0\n>>> 0.1 + 0.2\n0.3\n"
        ),
    ] {
        std::fs::write(&t, &strict).unwrap();
        let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
        assert!(!ok, "{out}");
        if strict.contains("0.1 + 0.2") {
            // The file's rtol=1e-3 lets 0.3334 and 0.50000006 pass; the block's rtol=0
            // does not let 0.3 stand for 0.30000000000000004.
            assert!(
                out.contains("expected 0.3, got 0.30000000000000004 (float64; rtol 0e0, atol 0e0)"),
                "{out}"
            );
            assert_eq!(removed(&out), 1, "{out}");
        } else {
            // A tensor's block: the difference in tensor words, at the display's first line.
            assert!(
                out.contains("line 3: [0]: expected 0.50000006, got 0.5 (float32; rtol 0)"),
                "{out}"
            );
        }
    }
    // Python floats are float64: the last digits of a sum pass by default.
    std::fs::write(&t, ">>> 0.1 + 0.2\n0.3000000000000001\n>>> 7\n7\n").unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(ok, "{out}");
    // Precision as written, when the block asks for it.
    let written = ">>> 8 ** 0.5\n2.83\n";
    std::fs::write(&t, format!("# ragtag: precision=written\n{written}")).unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(ok, "{out}");
    std::fs::write(&t, written).unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(
        !ok && out.contains("expected 2.83, got 2.8284271247461903"),
        "{out}"
    );
    // Integers are exact.
    std::fs::write(&t, ">>> 10**17 + 1\n100000000000000000\n").unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(!ok, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const UNMARKED: &str = ">>> x = 1\n>>> x[0]\n>>> x + 1\n3\n";

#[test]
fn an_error_must_be_marked_and_an_unmarked_one_is_never_blessed() {
    let dir = scratch("raises");
    let t = dir.join("e.rtt");
    std::fs::write(&t, UNMARKED).unwrap();
    for env in [&[][..], &[("CI", "true")][..]] {
        let (ok, out, _) = ragtag_test(&["--bless", s(&t)], env);
        assert!(!ok, "{out}");
        assert!(
            out.contains(
                "input 2 (line 2) raised TypeError, but its line is not marked `# raises \
                 TypeError`"
            ),
            "{out}"
        );
        assert_eq!(std::fs::read_to_string(&t).unwrap(), UNMARKED);
        assert!(!dir.join("e.rtt.new").exists());
    }
    // Marked, the error is blessed as expected output, and the marker stays.
    let marked = UNMARKED.replace("x[0]", "x[0]  # raises TypeError");
    std::fs::write(&t, &marked).unwrap();
    let (ok, out, _) = ragtag_test(&["--bless", s(&t)], &[]);
    assert!(ok, "{out}");
    let blessed = std::fs::read_to_string(&t).unwrap();
    assert!(
        blessed.starts_with(">>> x = 1\n>>> x[0]  # raises TypeError\n  × TypeError:"),
        "{blessed}"
    );
    // The report quotes the code without the marker.
    assert!(blessed.contains(" 1 │ x[0]\n"), "{blessed}");
    assert!(blessed.ends_with(">>> x + 1\n2\n"), "{blessed}");
    // A marked input that no longer fails fails.
    std::fs::write(&t, ">>> 1 + 1  # raises ValueError\n2\n").unwrap();
    let (ok, out, _) = ragtag_test(&[s(&t)], &[]);
    assert!(
        !ok && out.contains("is marked `# raises ValueError` but raised nothing"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn diffs_are_coloured_with_the_changed_characters_highlighted_when_asked() {
    let dir = scratch("colour");
    let t = dir.join("c.rtt");
    std::fs::write(
        &t,
        ">>> print('a wide row: 1234567 and 89')\na wide row: 1234467 and 89\n",
    )
    .unwrap();
    let (_, out, _) = ragtag_test(&["--color", "always", s(&t)], &[]);
    assert!(
        out.contains(
            "\x1b[31m-a wide row: 1234\x1b[7m4\x1b[27m67 and 89\x1b[0m\n\
             \x1b[32m+a wide row: 1234\x1b[7m5\x1b[27m67 and 89\x1b[0m\n"
        ),
        "{out:?}"
    );
    // Piped (as here) or with NO_COLOR, plain text.
    for env in [&[][..], &[("NO_COLOR", "1")][..]] {
        let (_, out, _) = ragtag_test(&[s(&t)], env);
        assert!(
            !out.contains('\x1b') && out.contains("-a wide row: 1234467 and 89\n"),
            "{out}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_that_may_vary_runs_but_is_not_compared() {
    let dir = scratch("vary");
    let t = dir.join("v.rtt");
    let text = ">>> x = 3\n>>> print(x * 1000003 % 7919, 'whatever')  # may vary\n\
                anything at all\n>>> x\n3\n";
    std::fs::write(&t, text).unwrap();
    let (ok, out, _) = ragtag_test(&["--bless", s(&t)], &[]);
    assert!(ok && out == "1 passed, 0 failed\n", "{out}");
    assert_eq!(std::fs::read_to_string(&t).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `# ragtag: width=N` renders a transcript's tables at N columns (as the README's examples,
/// written for 80-column readers); a block blessed at one width fails at another.
#[test]
fn a_width_directive_sets_the_rendering_width() {
    let dir = scratch("width");
    let file = dir.join("w.rtt");
    let wide = "x = tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]])";
    std::fs::write(&file, format!("# ragtag: width=40\n>>> {wide}\n>>> x\n")).unwrap();
    let (ok, _, err) = ragtag_test(&["--bless", s(&file)], &[]);
    assert!(ok, "{err}");
    let blessed = std::fs::read_to_string(&file).unwrap();
    let widest = blessed.lines().skip(2).map(|l| l.chars().count()).max();
    assert!(widest.is_some_and(|w| w <= 40), "{blessed}");
    let (ok, out, _) = ragtag_test(&[s(&file)], &[]);
    assert!(ok && out.ends_with("1 passed, 0 failed\n"), "{out}");
    // The same expected output at the default width of 100 no longer matches.
    std::fs::write(&file, blessed.replace("# ragtag: width=40\n", "")).unwrap();
    let (ok, out, _) = ragtag_test(&[s(&file)], &[]);
    assert!(!ok && out.contains("1 failed"), "{out}");
    // The width is the whole file's: after the first input it is an error with its line.
    std::fs::write(&file, ">>> 1\n1\n# ragtag: width=40\n>>> 2\n2\n").unwrap();
    let (ok, out, err) = ragtag_test(&[s(&file)], &[]);
    let report = format!("{out}{err}");
    assert!(
        !ok && report.contains("line 3") && report.contains("applies to a whole transcript"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
