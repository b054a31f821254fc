//! Every example of every builtin (the ones `help(name)` shows) runs without error in a
//! fresh session: any error fails the test, a misspelt name (NameError, AttributeError)
//! included. The examples run inside a scratch directory (target/builtin-examples), so the
//! readers' and writers' examples (`ak.to_parquet(x, 'tokens.parquet')`) make their files
//! there; this binary holds one test, so changing the working directory affects no other.

use ragtag::eval::builtins::registry;
use ragtag::session::Collect;
use ragtag::Session;

#[test]
fn every_builtin_example_runs() {
    let scratch = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/builtin-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    std::env::set_current_dir(&scratch).expect("cd into the scratch directory");
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
