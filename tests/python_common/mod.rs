//! A Python virtual environment under target/ with the libraries the data-format tests
//! compare ragtag with (tests/formats/requirements.txt: NumPy, pyarrow, Awkward Array),
//! created on first use, and a way to run a script in it.
//!
//! A test that needs it fails (it does not skip) when the environment cannot be made, so a
//! machine without Python or network access reports the missing tool instead of passing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The environment's Python, creating the environment (target/formats-venv, or
/// `RAGTAG_FORMATS_VENV`) and installing the requirements the first time.
pub fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let venv = std::env::var_os("RAGTAG_FORMATS_VENV")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target/formats-venv"));
        let py = venv.join("bin/python");
        let requirements = root().join("tests/formats/requirements.txt");
        let stamp = venv.join("requirements.txt");
        let wanted = std::fs::read_to_string(&requirements).expect("requirements.txt");
        if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
            return py;
        }
        if !py.exists() {
            let status = Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .status()
                .expect("python3 runs");
            assert!(
                status.success(),
                "python3 -m venv {} failed",
                venv.display()
            );
        }
        let status = Command::new(&py)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
            ])
            .arg(&requirements)
            .status()
            .expect("pip runs");
        assert!(
            status.success(),
            "pip install -r {} failed",
            requirements.display()
        );
        std::fs::write(&stamp, wanted).expect("stamp written");
        py
    })
}

/// Runs `script` (a path under tests/) with `args` in the environment; panics with its
/// output when it fails, and returns its standard output.
pub fn run(script: &str, args: &[&str]) -> String {
    let out = Command::new(python())
        .arg(root().join("tests").join(script))
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{script} {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh directory under target/ for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/formats-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
