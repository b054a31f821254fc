//! A write that fails leaves the old file byte for byte, a process killed mid-write leaves
//! no temporary file, a symbolic link stays a link, and a FIFO is refused instead of
//! blocking: each drives the real binary on real files.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ragtag-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `program` in `dir` with `ragtag run` (after `extra` shell setup, e.g. `ulimit`),
/// and returns (exit code, stdout, stderr). It must end within 30 s: nothing may block.
fn run_in(dir: &Path, extra: &str, program: &str) -> (Option<i32>, String, String) {
    std::fs::write(dir.join("program.py"), program).unwrap();
    let bin = env!("CARGO_BIN_EXE_ragtag");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{extra} exec '{bin}' run program.py"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("ragtag did not finish within 30 s:\n{program}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names in `dir` other than the program, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "program.py")
        .collect();
    v.sort();
    v
}

#[test]
fn a_refused_write_leaves_the_old_file_as_it_was() {
    let dir = scratch("refused");
    let old = b"the old contents\n";
    for f in ["keep.json", "keep.jsonl"] {
        std::fs::write(dir.join(f), old).unwrap();
    }
    let program = "\
x = tf.constant([1.0, float('nan')])
try:
    ragtag.write_json(x, 'keep.json')
except ValueError as e:
    print('json', e)
try:
    ragtag.write_jsonl(tf.ragged.constant([[1.0], [float('inf')]]), 'keep.jsonl')
except ValueError as e:
    print('jsonl', e)
";
    let (code, out, err) = run_in(&dir, "", program);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("json writing 'keep.json'"), "{out}");
    assert!(out.contains("jsonl"), "{out}");
    for f in ["keep.json", "keep.jsonl"] {
        assert_eq!(std::fs::read(dir.join(f)).unwrap(), old, "{f}");
    }
    assert_eq!(names(&dir), ["keep.json", "keep.jsonl"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_archive_whose_member_exceeds_the_budget_leaves_the_old_file() {
    let dir = scratch("budget");
    let old = b"the old archive\n";
    std::fs::write(dir.join("keep.npz"), old).unwrap();
    let program = "\
small = tf.constant([1, 2])
try:
    np.savez('keep.npz', a=small, b=tf.zeros([4000000]))
except tf.errors.ResourceExhaustedError as e:
    print('refused')
";
    std::fs::write(dir.join("program.py"), program).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["run", "--max-memory", "10MB", "program.py"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("refused"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(dir.join("keep.npz")).unwrap(), old);
    assert_eq!(names(&dir), ["keep.npz"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ulimit -f` makes the system stop the process (SIGXFSZ) the moment the file passes the
/// limit, as a full disk stops a write half-way: the old file must be whole afterwards, and
/// no temporary file may be left.
#[test]
fn a_write_stopped_by_the_file_size_limit_leaves_the_old_file_and_no_temporary() {
    let dir = scratch("ulimit");
    let old = b"old\n";
    let files = ["big.json", "big.npy", "big.parquet", "big.svg"];
    for f in files {
        std::fs::write(dir.join(f), old).unwrap();
    }
    for (f, program) in [
        ("big.npy", "np.save('big.npy', tf.zeros([1000000]))\n"),
        (
            "big.json",
            "ragtag.write_json(tf.zeros([1000000]), 'big.json')\n",
        ),
        (
            "big.svg",
            "draw(tf.ragged.constant([[1, 2], [3]]), 'big.svg')\n",
        ),
        (
            "big.parquet",
            "ak.to_parquet(tf.ragged.constant([[1.5] * 400] * 2000), 'big.parquet')\n",
        ),
    ] {
        // 1 block = 512 bytes: every one of these files is larger than that.
        let (code, out, err) = run_in(&dir, "ulimit -f 1;", program);
        assert_ne!(code, Some(0), "{f}: the limit stops the write\n{out}{err}");
        assert_eq!(std::fs::read(dir.join(f)).unwrap(), old, "{f}");
        assert_eq!(names(&dir), files, "{f}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_process_killed_mid_write_leaves_the_old_file_and_no_temporary() {
    let dir = scratch("kill");
    let old = b"old\n";
    std::fs::write(dir.join("big.npy"), old).unwrap();
    std::fs::write(
        dir.join("program.py"),
        "x = tf.zeros([100000000])\nfor i in range(100):\n    np.save('big.npy', x)\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["run", "program.py"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until a write is under way (the file system shows the new file's blocks only at
    // the rename, so wait a fixed time past the array's creation), then kill -9.
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    let now = std::fs::read(dir.join("big.npy")).unwrap();
    assert!(
        now == old || now.len() == 400_000_128,
        "the file is either the old one or a whole new one, never part of one ({} bytes)",
        now.len()
    );
    assert_eq!(names(&dir), ["big.npy"], "no temporary file is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_symbolic_link_stays_a_link_and_its_target_gets_the_new_contents() {
    let dir = scratch("link");
    std::fs::write(dir.join("real.npy"), b"old").unwrap();
    std::os::unix::fs::symlink("real.npy", dir.join("link.npy")).unwrap();
    std::fs::write(dir.join("real.parquet"), b"old").unwrap();
    std::os::unix::fs::symlink("real.parquet", dir.join("link.parquet")).unwrap();
    let (code, out, err) = run_in(
        &dir,
        "",
        "np.save('link.npy', tf.constant([1, 2]))\nprint(np.load('real.npy'))\n\
         ak.to_parquet(tf.ragged.constant([[1], [2, 3]]), 'link.parquet')\n\
         print(ak.from_parquet('real.parquet').to_list())\n",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("[1 2]"), "{out}");
    assert!(out.contains("[[1], [2, 3]]"), "{out}");
    for link in ["link.npy", "link.parquet"] {
        assert!(dir.join(link).is_symlink(), "{link}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_is_refused_for_reading_and_writing_without_blocking() {
    let dir = scratch("fifo");
    for f in ["f.npy", "f.json", "f.parquet", "f.svg"] {
        let status = Command::new("mkfifo").arg(dir.join(f)).status().unwrap();
        assert!(status.success());
    }
    let (code, out, err) = run_in(
        &dir,
        "",
        "\
for read in [lambda: np.load('f.npy'), lambda: ragtag.read_json('f.json'),
             lambda: ak.from_parquet('f.parquet')]:
    try:
        read()
    except OSError as e:
        print('read', e)
for write in [lambda: np.save('f.npy', tf.constant([1])),
              lambda: ragtag.write_json(tf.constant([1]), 'f.json'),
              lambda: ak.to_parquet(tf.ragged.constant([[1]]), 'f.parquet'),
              lambda: draw(tf.constant([1]), 'f.svg')]:
    try:
        write()
    except OSError as e:
        print('write', e)
",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out.matches("is a FIFO (named pipe), not a regular file")
            .count(),
        7,
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
