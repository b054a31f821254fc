//! The TensorFlow ragged-tensor guide notebook (seed 003), run cell by cell in one session
//! the way a teacher pastes it into a ragtag notebook: every code cell should run. Cells that
//! cannot run yet are listed by number in tests/guide_notebook_known_failures.txt; a listed
//! cell that starts running fails this test too, so the list only shrinks.

use std::collections::BTreeSet;

use ragtag::session::{Collect, Output};
use ragtag::Session;

/// Whether a cell was added beside the guide's own (a `draw` cell tagged `picture`).
fn is_picture(cell: &serde_json::Value) -> bool {
    cell["metadata"]["tags"]
        .as_array()
        .is_some_and(|tags| tags.iter().any(|t| t == "picture"))
}

/// The code cells of a notebook file (without added picture cells), or None when it cannot
/// be read.
fn code_cells(path: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let nb: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(
        nb["cells"]
            .as_array()?
            .iter()
            .filter(|c| c["cell_type"] == "code" && !is_picture(c))
            .map(|c| match &c["source"] {
                serde_json::Value::Array(lines) => {
                    lines.iter().filter_map(|l| l.as_str()).collect()
                }
                other => other.as_str().unwrap_or("").to_string(),
            })
            .collect(),
    )
}

const SEED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/seeds/003_6b90ffbde28121d8.txt"
);
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ragged_guide.ipynb");

/// The guide's code cells. examples/ragged_guide.ipynb carries the same cells, so a checkout
/// without ../shared beside it (a fresh CI clone) still runs every one of them.
fn cells() -> Option<Vec<String>> {
    code_cells(SEED).or_else(|| code_cells(EXAMPLE))
}

/// The example notebook's code cells are the guide's, one for one: it cannot drift from the
/// seed it was made from (checked where the seed is present).
#[test]
fn the_example_notebook_holds_the_guide_s_cells() {
    let example = code_cells(EXAMPLE).expect("examples/ragged_guide.ipynb reads");
    assert_eq!(example.len(), 56, "the guide has 56 code cells");
    match code_cells(SEED) {
        Some(seed) => assert_eq!(seed, example),
        None => eprintln!("../shared/seeds is not beside this checkout: compared the count only"),
    }
}

#[test]
fn every_guide_cell_runs() {
    let cells = cells().expect("the guide's cells read from the seed or the example notebook");
    let known: BTreeSet<usize> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/guide_notebook_known_failures.txt"
    ))
    .unwrap_or_default()
    .lines()
    .filter_map(|l| l.split('#').next().unwrap().trim().parse().ok())
    .collect();
    let mut session = Session::new();
    let mut problems = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let mut sink = Collect::default();
        let result = session.execute(cell, &mut sink);
        match (result, known.contains(&i)) {
            (Ok(()), true) => problems.push(format!(
                "cell {i} runs now; remove it from the known failures"
            )),
            (Err(e), false) => problems.push(format!("cell {i}: {e}\n{cell}")),
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "guide notebook problems:\n{}",
        problems.join("\n\n")
    );
}

/// What a cell shows in text form: what it printed, then the TensorFlow repr of each value it
/// displayed, then `<ExceptionClass>` if it failed — the form tools/guide_answers.py records.
fn cell_text(session: &mut Session, cell: &str) -> String {
    let mut sink = Collect::default();
    let result = session.execute(cell, &mut sink);
    let mut text = String::new();
    for out in &sink.outputs {
        match out {
            Output::Print(s) => text.push_str(s),
            Output::Value(v) => {
                text.push_str(&ragtag::render::tf_text::repr_of(v));
                text.push('\n');
            }
        }
    }
    if let Err(e) = result {
        text.push_str(&format!("<{}>\n", e.class.name()));
    }
    text
}

/// The guide's printed output, cell by cell, is TensorFlow 2.21's (recorded by
/// tools/guide_answers.py in tests/guide_notebook_tf.jsonl), except for the cells listed with
/// a reason in tests/guide_notebook_output_differences.txt (random values, and TensorFlow's
/// error messages, which ragtag words differently on purpose).
#[test]
fn every_guide_cell_prints_what_tensorflow_prints() {
    let cells = cells().expect("the guide's cells read from the seed or the example notebook");
    let dir = env!("CARGO_MANIFEST_DIR");
    let answers: Vec<String> =
        std::fs::read_to_string(format!("{dir}/tests/guide_notebook_tf.jsonl"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let j: serde_json::Value = serde_json::from_str(l).unwrap();
                j["output"].as_str().unwrap().to_string()
            })
            .collect();
    assert_eq!(
        answers.len(),
        cells.len(),
        "one recorded answer per code cell"
    );
    let mut known = BTreeSet::new();
    let listed =
        std::fs::read_to_string(format!("{dir}/tests/guide_notebook_output_differences.txt"))
            .unwrap_or_default();
    for line in listed.lines() {
        let (cell, reason) = line.split_once('#').unwrap_or((line, ""));
        if let Ok(n) = cell.trim().parse::<usize>() {
            assert!(
                !reason.trim().is_empty(),
                "cell {n} is listed without a reason"
            );
            known.insert(n);
        }
    }
    let mut session = Session::new();
    let mut problems = Vec::new();
    for (i, (cell, want)) in cells.iter().zip(&answers).enumerate() {
        let got = cell_text(&mut session, cell);
        match (&got == want, known.contains(&i)) {
            (true, true) => problems.push(format!(
                "cell {i} prints what TensorFlow prints now; remove it from the list"
            )),
            (false, false) => problems.push(format!(
                "cell {i}:\n{cell}\n--- ragtag printed:\n{got}--- TensorFlow printed:\n{want}"
            )),
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "guide notebook output differs from TensorFlow's:\n{}",
        problems.join("\n\n")
    );
}
