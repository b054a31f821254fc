//! Every example of every builtin (the ones `help(name)` shows) runs without error in a
//! fresh session: any error fails the test, a misspelt name (NameError, AttributeError)
//! included. The examples run inside a scratch directory (target/builtin-examples), so the
//! readers' and writers' examples (`ak.to_parquet(x, 'tokens.parquet')`) make their files
//! there. The other tests share this process and its working directory, so the examples
//! run in a child: this test binary again, started in the scratch directory and running
//! this test alone.

use std::process::Command;

use ragtag::eval::builtins::registry;
use ragtag::session::Collect;
use ragtag::Session;

/// Set in the child, whose working directory is the scratch directory.
const IN_SCRATCH: &str = "RAGTAG_BUILTIN_EXAMPLES_IN_SCRATCH";

#[test]
fn every_builtin_example_runs() {
    if std::env::var_os(IN_SCRATCH).is_some() {
        return run_every_example();
    }
    let scratch = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/builtin-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([
            "builtin_examples::every_builtin_example_runs",
            "--exact",
            "--nocapture",
        ])
        .env(IN_SCRATCH, "1")
        .current_dir(&scratch)
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The child's report is indented, so that its `test result:` line is not taken for one
    // of this run's (CI totals those lines).
    let indent = |text: &[u8]| String::from_utf8_lossy(text).replace('\n', "\n    ");
    assert!(
        out.status.success() && stdout.contains(" 1 passed;"),
        "the examples failed in {}:\n    {}\n    {}",
        scratch.display(),
        indent(&out.stdout),
        indent(&out.stderr)
    );
}

/// Runs every example in this process, whose working directory is the scratch directory.
fn run_every_example() {
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut undocumented = Vec::new();
    for b in &registry().all {
        if b.examples.is_empty() || b.doc.trim().is_empty() {
            undocumented.push(b.name);
        }
        for example in b.examples {
            let mut session = Session::new();
            ran += 1;
            if let Err(e) = session.execute(example, &mut Collect::default()) {
                failures.push(format!(
                    "{}: {example:?}: {}: {}",
                    b.name, e.class, e.message
                ));
            }
        }
    }
    assert!(ran > 100, "only {ran} examples");
    assert!(
        undocumented.is_empty(),
        "builtins without a doc or an example: {undocumented:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} examples fail:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
