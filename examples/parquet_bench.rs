//! Reading a Parquet list<int64> column of 10 M values: ragtag's `ak.from_parquet` against
//! `pyarrow.parquet.read_table` + `ak.from_arrow` on the same file, best of 5 each, side by
//! side.
//!
//! Run with `cargo run --release --example parquet_bench` (`-- ROWS` for another size; one
//! million rows hold about ten million values). The file is written by pyarrow in the
//! data-format tests' Python environment (`RAGTAG_FORMATS_VENV`, else target/formats-venv,
//! with tests/formats/requirements.txt installed; pandas is added when missing, since
//! awkward's from_arrow needs it with pyarrow 22).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ragtag::session::Collect;
use ragtag::Session;

/// Reads per side; the best one counts (the machine is shared, so the others are noise).
const RUNS: usize = 5;

fn python() -> PathBuf {
    let venv = std::env::var_os("RAGTAG_FORMATS_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/formats-venv"));
    let py = venv.join("bin/python");
    assert!(
        py.exists(),
        "no Python environment at {}: run `cargo test --test integration formats_parquet::` once to make it",
        venv.display()
    );
    let has_pandas = Command::new(&py)
        .args(["-c", "import pandas"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_pandas {
        let ok = Command::new(&py)
            .args(["-m", "pip", "install", "--quiet", "pandas"])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "pip install pandas failed");
    }
    py
}

fn script(py: &Path, args: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/formats/parquet_bench.py");
    let out = Command::new(py)
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "parquet_bench.py {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn main() {
    let rows: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/parquet-bench");
    std::fs::create_dir_all(&dir).expect("target/parquet-bench");
    let file = dir.join("tokens.parquet");
    let py = python();
    let values = script(&py, &["write", file.to_str().unwrap(), &rows.to_string()]);
    let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);

    let theirs: f64 = script(&py, &["time", file.to_str().unwrap(), &RUNS.to_string()])
        .parse()
        .expect("a time in seconds");

    let mut session = Session::new();
    let program = format!("x = ak.from_parquet('{}')", file.display());
    let mut ours = f64::INFINITY;
    for _ in 0..RUNS {
        let start = Instant::now();
        session
            .execute(&program, &mut Collect::default())
            .expect("ragtag reads the file");
        ours = ours.min(start.elapsed().as_secs_f64());
        session
            .execute("del x", &mut Collect::default())
            .expect("del x");
    }

    println!(
        "list<int64> column: {rows} rows, {values} values, {:.1} MB on disk (snappy)",
        size as f64 / 1e6
    );
    println!("best of {RUNS}:");
    println!(
        "  ragtag  ak.from_parquet                           {:8.1} ms",
        ours * 1e3
    );
    println!(
        "  Python  pq.read_table + ak.from_arrow             {:8.1} ms",
        theirs * 1e3
    );
    println!(
        "  ratio   (Python / ragtag)                         {:8.2}x",
        theirs / ours
    );
}
