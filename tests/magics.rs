//! Meta-commands, IPython's magics and shell lines among a script's code, through the
//! binary: `ragtag -c` and `ragtag run`.

use std::process::Command;

fn ragtag(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn a_format_line_in_a_script_changes_what_follows() {
    let (out, err, ok) = ragtag(&[
        "-c",
        "rt = tf.ragged.constant([[1, 2], [3]])\n:format json\nrt",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "{\"kind\":\"ragged\",\"dtype\":\"int32\",\"shape\":[2,null],\"ragged_rank\":1,\"value\":[[1,2],[3]]}\n"
    );
}

#[test]
fn time_who_and_shell_lines_run_in_a_script_file() {
    let dir = std::env::temp_dir().join(format!("ragtag-magics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script.rtg");
    std::fs::write(
        &script,
        "x = 20\n%time x * 2 + 2\n%who\n!echo hi\n!exit 4\nprint('after')\n",
    )
    .unwrap();
    let (out, err, ok) = ragtag(&["run", script.to_str().unwrap()]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("CPU times: user "), "{out}");
    assert!(lines[1].starts_with("Wall time: "), "{out}");
    assert_eq!(&lines[2..], ["42", "x\t ", "hi", "after"], "{out}");
    assert_eq!(err, "!exit 4: exit status 4\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_magic_fails_the_script_with_a_pointer() {
    let (out, err, ok) = ragtag(&["-c", "print(1)\n%tme 1\nprint(2)"]);
    assert!(!ok);
    assert_eq!(out, "1\n");
    assert!(
        err.contains("unknown magic '%tme'") && err.contains("`%time`"),
        "{err}"
    );
}

#[test]
fn draw_to_a_file_says_what_it_wrote() {
    let dir = std::env::temp_dir().join(format!("ragtag-draw-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["-c", "draw(tf.ragged.constant([[1, 2], [3]]), 'rt.svg')"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let size = std::fs::metadata(dir.join("rt.svg")).unwrap().len() as f64;
    let expected = format!("wrote rt.svg ({:.0} KB)\n", size / 1024.0);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn whos_is_ipythons_table_and_reset_f_forgets_every_name() {
    let (out, err, ok) = ragtag(&[
        "-c",
        "%whos\nx = 20\nname = 'a long string of text that goes on past fifty characters'\n\
         rows = [1, 2, 3]\nt = tf.constant([1, 2])\na = np.zeros((2, 3))\n%whos\n%reset -f\n%whos",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "Interactive namespace is empty.\n\
         Variable   Type           Data/Info\n\
         -----------------------------------\n\
         a          ndarray        2x3: 6 elems, type `float64`, 48 bytes\n\
         name       str            a long string of text tha<...> on past fifty characters\n\
         rows       list           n=3\n\
         t          EagerTensor    tf.Tensor([1 2], shape=(2,), dtype=int32)\n\
         x          int            20\n\
         Interactive namespace is empty.\n",
        "{out}"
    );
    let (_, err, ok) = ragtag(&["-c", "x = 1\n%reset\nprint(x)"]);
    assert!(!ok && err.contains("%reset -f"), "{err}");
}

#[test]
fn load_echoes_a_file_and_runs_it_in_a_script() {
    let dir = std::env::temp_dir().join(format!("ragtag-load-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rtg"), "def double(x):\n    return x * 2\n").unwrap();
    std::fs::write(dir.join("main.rtg"), "%load lib.rtg\nprint(double(21))\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["run", "main.rtg"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "# %load lib.rtg\ndef double(x):\n    return x * 2\n42\n"
    );
    let (_, err, ok) = ragtag(&["-c", "%load /no/such/file.rtg"]);
    assert!(!ok && err.contains("FileNotFoundError"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cell_magics_time_a_whole_script() {
    let (out, err, ok) = ragtag(&["-c", "%%time\nx = 40\nprint(x + 2)"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "42", "{out}");
    assert!(lines[1].starts_with("CPU times: user "), "{out}");
    assert!(lines[2].starts_with("Wall time: "), "{out}");
    let (out, err, ok) = ragtag(&["-c", "%%timeit -n 2 -r 3 t = tf.range(5)\nt * 2"]);
    assert!(ok, "{err}");
    assert!(
        out.ends_with(" per loop (mean ± std. dev. of 3 runs, 2 loops each)\n"),
        "{out}"
    );
    let (out, err, ok) = ragtag(&["-c", "x = 1\n%history -n"]);
    assert!(ok, "{err}");
    assert_eq!(out, "   1:\nx = 1\n%history -n\n");
}

#[test]
fn unseeded_random_numbers_differ_between_processes_unless_reproducible() {
    let draw = |reproducible: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ragtag"));
        cmd.args([
            "-c",
            "print(tf.random.normal([3]))\nprint(np.random.rand(2))",
        ]);
        if reproducible {
            cmd.env("RAGTAG_REPRODUCIBLE", "1");
        } else {
            cmd.env_remove("RAGTAG_REPRODUCIBLE");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_ne!(draw(false), draw(false));
    assert_eq!(draw(true), draw(true));
    // A seed gives TensorFlow's sequence whatever the process.
    let (a, _, _) = ragtag(&["-c", "tf.random.set_seed(1)\nprint(tf.random.normal([2]))"]);
    let (b, _, _) = ragtag(&["-c", "tf.random.set_seed(1)\nprint(tf.random.normal([2]))"]);
    assert_eq!(a, b);
}
