//! The direct parser (`fast`) against the full one: wherever it gives a tree, the grammar and
//! the conversion must give the same tree, spans included. Checked on hand-picked lines, on
//! every input line of the project's transcripts and lessons, on the fuzz corpus and on
//! generated expressions mixing its forms with ones it leaves to the full parser.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::super::*;
use super::program;

/// The full parser's tree for `src`.
fn full(src: &str) -> Result<Program, String> {
    match full_program(src, &AtomicBool::new(false)).0 {
        Ok(p) => Ok(p),
        Err(ParseError::Syntax(e)) => Err(e.message),
        Err(ParseError::Interrupted) => Err("interrupted".into()),
    }
}

/// Checks `src`; returns whether the direct parser took it.
fn same(src: &str) -> bool {
    let Some(fast) = program(src) else {
        return false;
    };
    match full(src) {
        Ok(p) => assert_eq!(fast, p, "the two parsers differ on {src:?}"),
        Err(e) => panic!("{src:?}: the direct parser accepted what the grammar refuses: {e}"),
    }
    true
}

#[test]
fn common_lines_are_read_directly_into_the_grammars_tree() {
    for src in [
        "digits + 3",
        "_ = digits + 3",
        "digits[:, :2]",
        "tf.reduce_mean(digits, axis=1)",
        "rt = tf.ragged.constant([[1, 2], [], [3]])",
        "rt[:, -2:]",
        "rt[1:3, ::2]",
        "rt[..., 0]",
        "x = y = -2 ** -1 * 3",
        "a, b = f(1, k=2.5,)",
        "[a, b] = c",
        "(a,)",
        "()",
        "(1)",
        "t = a, b,",
        "x[0,]",
        "f()(1)[2].y",
        "1 .real",
        "a < b",
        "(a < b) < c",
        "a | b ^ c & d << 1",
        "-a ** b",
        "~x @ y // 2 % 3",
        "[[1, -2], [], [3.5]]",
        "[1, - 2]",
        "[[1], x]",
        "[]",
        "(None == True) != False",
        "tf.constant([[1, 2], [3, 4]], dtype=tf.int64)\n",
        "x   \n\n",
        "00.5 + 0",
    ] {
        let taken = same(src);
        if src.contains("<<") {
            assert!(!taken, "{src:?} is left to the full parser");
        } else {
            assert!(taken, "{src:?} should be read directly");
        }
    }
}

#[test]
fn everything_else_is_left_to_the_full_parser() {
    for src in [
        "",
        " x",
        "x = 'a'",
        "a < b < c",
        "a if b else c",
        "not a",
        "a and b",
        "x += 1",
        "x -= 1",
        "x **= 2",
        "f(*a)",
        "f(a=1, a=2)",
        "f(a=1, 2)",
        "f(if=1)",
        "x.None",
        "1x",
        "1.",
        ".5",
        "0x10",
        "1_000",
        "1e3",
        "007",
        "9223372036854775808",
        "[1, 2",
        "x[]",
        "f(x) = 1",
        "x # note",
        "x\ny",
        "x; y",
        "{1: 2}",
        "lambda: 1",
        "[x for x in y]",
        "a\tb",
        "é",
        "a -> b",
        "x = ",
        "....",
    ] {
        assert!(!same(src), "{src:?} should go to the full parser");
    }
    // Brackets nested deeper than the direct parser goes: expressions past its own depth,
    // a data block past the pre-pass's bracket limit once the brackets around it count.
    let deep = format!("f(({}1{}))", "[".repeat(99), "]".repeat(99));
    assert!(!same(&deep));
    assert!(full(&deep).is_err(), "the pre-pass refuses 101 brackets");
    let deep = format!("{}1{}", "[".repeat(60), "]".repeat(60));
    assert!(
        same(&deep),
        "a data block is read as deep as the grammar reads it"
    );
    let deep = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    assert!(!same(&deep));
}

/// The input lines of every transcript and lesson, and the fuzz corpus, whole and by line.
#[test]
fn the_projects_own_inputs_parse_the_same_both_ways() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut inputs = Vec::new();
    let mut dirs = vec![root.join("tests"), root.join("examples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rtt") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for line in text.lines() {
                    if let Some(code) = line.strip_prefix(">>> ") {
                        inputs.push(code.to_string());
                    }
                }
            }
        }
    }
    for dir in ["fuzz/corpus/parse", "fuzz/corpus/eval", "fuzz/seeds"] {
        for entry in std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                inputs.extend(text.lines().map(str::to_string));
                inputs.push(text);
            }
        }
    }
    assert!(inputs.len() > 1000, "only {} inputs found", inputs.len());
    let taken = inputs.iter().filter(|s| same(s)).count();
    eprintln!("{taken} of {} inputs were read directly", inputs.len());
    assert!(
        taken > 300,
        "only {taken} of {} inputs were read directly",
        inputs.len()
    );
}

/// Random lines from the direct parser's forms and a few of the others, with random spaces.
#[test]
fn generated_lines_parse_the_same_both_ways() {
    struct Gen(u64);
    impl Gen {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.next(items.len())]
        }
        fn space(&mut self, out: &mut String) {
            if self.next(4) == 0 {
                out.push(' ');
            }
        }
        fn atom(&mut self, out: &mut String, depth: usize) {
            let k = if depth > 4 {
                self.next(3)
            } else {
                self.next(10)
            };
            match k {
                0 => out.push_str(
                    self.pick(&["x", "rt", "tf", "_a1", "True", "None", "lambda", "not"]),
                ),
                1 => out.push_str(self.pick(&[
                    "0",
                    "7",
                    "42",
                    "1.5",
                    "00.25",
                    "9223372036854775807",
                    "1e3",
                    "0x1f",
                ])),
                2 => out.push_str(self.pick(&[
                    "[]",
                    "[1, -2]",
                    "[[1], [2, 3]]",
                    "[1,]",
                    "[ -1 , 2 ]",
                ])),
                3 => {
                    out.push('(');
                    self.expr(out, depth + 1);
                    out.push_str(self.pick(&[")", ",)", ", x)"]));
                }
                4 => {
                    out.push('[');
                    self.expr(out, depth + 1);
                    out.push_str(self.pick(&["]", ", y]", ",]"]));
                }
                5 => {
                    self.atom(out, depth + 1);
                    out.push_str(self.pick(&[".a", " . shape", ".if"]));
                }
                6 => {
                    self.atom(out, depth + 1);
                    out.push('(');
                    if self.next(3) > 0 {
                        self.expr(out, depth + 1);
                    }
                    out.push_str(self.pick(&[")", ", axis=1)", ",)", ", k = 2, k=3)", ", a==b)"]));
                }
                7 => {
                    self.atom(out, depth + 1);
                    out.push('[');
                    out.push_str(self.pick(&[":", "1:", ":-1", "::2", "1:2:3", "..."]));
                    self.space(out);
                    if self.next(2) == 0 {
                        out.push_str(", ");
                        self.expr(out, depth + 1);
                    }
                    out.push(']');
                }
                _ => {
                    out.push_str(self.pick(&["-", "+", "~", "- "]));
                    self.atom(out, depth + 1);
                }
            }
        }
        fn expr(&mut self, out: &mut String, depth: usize) {
            self.atom(out, depth);
            for _ in 0..self.next(4) {
                self.space(out);
                out.push_str(self.pick(&[
                    "+",
                    "-",
                    "*",
                    "/",
                    "//",
                    "%",
                    "**",
                    "@",
                    "&",
                    "|",
                    "^",
                    "==",
                    "!=",
                    "<",
                    "<=",
                    ">",
                    ">=",
                    " and ",
                    " if x else ",
                    "+=",
                    "<<",
                ]));
                self.space(out);
                self.atom(out, depth + 1);
            }
        }
    }
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    let (mut taken, total) = (0, 20_000);
    for _ in 0..total {
        let mut line = String::new();
        match g.next(4) {
            0 => {
                line.push_str(g.pick(&["y = ", "a, b = ", "y = z = ", "[p] = ", "f(x) = "]));
                g.expr(&mut line, 0);
            }
            1 => {
                g.expr(&mut line, 0);
                line.push_str(g.pick(&[",", ", x", "\n", "  "]));
            }
            _ => g.expr(&mut line, 0),
        }
        taken += usize::from(same(&line));
    }
    // About one generated line in six uses only the direct parser's forms.
    assert!(
        taken > total / 10,
        "only {taken} of {total} generated lines were read directly"
    );
}
