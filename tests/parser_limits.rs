//! The parser's limits: adversarial inputs (deep nesting of every kind, long chains and
//! argument lists, deep indentation, unterminated strings and brackets) parse or fail with a
//! clear SyntaxError and a correct span, never overflow a small thread stack, and parsing
//! stops with KeyboardInterrupt when the cancel flag is set. Timings are measured by
//! `cargo run --release --example parse_limits`, not here.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use std::sync::atomic::AtomicBool;

use ragtag::diagnostic::Error;
use ragtag::engine::exceptions::ExceptionClass;
use ragtag::syntax::ast::{ExprKind, StmtKind};
use ragtag::syntax::{
    completeness, parse, parse_interruptible, program_to_sexpr, Completeness, ParseError,
    SyntaxError, SyntaxErrorKind,
};

/// A 2 MiB stack: smaller than the 8 MiB of a main thread, as small as a worker's.
const SMALL_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a 2 MiB stack (a stack overflow aborts the test process).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the thread did not panic")
}

/// Parses `src` and everything a front end does with it: the REPL's completeness check,
/// the S-expression of the tree, and dropping the tree.
fn exercise(src: &str) -> Result<String, SyntaxError> {
    let _ = completeness(src);
    parse(src).map(|p| {
        let s = program_to_sexpr(&p);
        drop(p);
        s
    })
}

#[track_caller]
fn fails_with(src: &str, message: &str) -> SyntaxError {
    match parse(src) {
        Ok(_) => panic!("{:?}… parsed", &src[..src.len().min(40)]),
        Err(e) => {
            assert_eq!(e.message, message, "{:?}…", &src[..src.len().min(40)]);
            assert!(
                e.span.start <= e.span.end && e.span.end <= src.len(),
                "{:?}",
                e.span
            );
            e
        }
    }
}

/// Nested `if` blocks, `depth` deep, each one space deeper, ending with `body`.
fn nested_blocks(depth: usize, body: &str) -> String {
    let mut s = String::new();
    for d in 0..depth {
        s.push_str(&" ".repeat(d));
        s.push_str("if x:\n");
    }
    s.push_str(&" ".repeat(depth));
    s.push_str(body);
    s.push('\n');
    s
}

#[test]
fn adversarial_inputs_never_overflow_a_small_stack() {
    on_small_stack(|| {
        let n = 5000;
        let inputs = [
            "[".repeat(n),
            "(".repeat(n),
            "{".repeat(n),
            "([{".repeat(n),
            format!("x = {}1{}", "[".repeat(n), "]".repeat(n)),
            format!("x = {}1{}", "(".repeat(n), ")".repeat(n)),
            format!("x = {}1{}", "f(".repeat(n), ")".repeat(n)),
            format!("x = {}1{}", "{1: ".repeat(n), "}".repeat(n)),
            format!("x = {}0{}", "y[".repeat(n), "]".repeat(n)),
            format!("x = {}1{}", "[x, ".repeat(n), "]".repeat(n)),
            format!("x = {}1", "-".repeat(n)),
            format!("x = {}1", "-+~".repeat(n)),
            format!("x = {}y", "not ".repeat(n)),
            format!("f = {}0", "lambda: ".repeat(n)),
            format!("f = {}0", "lambda a, b=1: ".repeat(n)),
            format!("x = {}c", "a if b else ".repeat(n)),
            format!("x = {}b{}", "(a if ".repeat(n), " else c)".repeat(n)),
            format!("x = a{}", ".b".repeat(n)),
            format!("x = f{}", "()".repeat(n)),
            format!("x = a{}", "[0]".repeat(n)),
            format!("x = 2{}", " ** 2".repeat(n)),
            format!("x = 1{}", " + 1".repeat(n)),
            format!("x = 1{}", " < 2".repeat(n)),
            format!("x = a{}", " and b".repeat(n)),
            nested_blocks(300, "pass"),
            format!("x = {}", "[1, ".repeat(n)),
            format!("x = '{}", "a".repeat(n)),
            format!("x = '''{}", "a\n".repeat(n)),
        ];
        for src in &inputs {
            assert!(exercise(src).is_err(), "{:?}… parsed", &src[..40]);
        }
        // Long but flat: these parse.
        for src in [
            format!("{}1", "a = ".repeat(n)),
            format!("x = [{}]", "lambda: 0, ".repeat(n)),
            format!("x = ({})", "a if b else c, ".repeat(n)),
        ] {
            assert!(exercise(&src).is_ok(), "{:?}…", &src[..40]);
        }
    });
}

#[test]
fn the_deepest_accepted_inputs_fit_a_small_stack() {
    on_small_stack(|| {
        // Each is as deep as the limits allow in its own way, or all of them at once.
        let brackets = format!("x = {}1{}", "(".repeat(99), ")".repeat(99));
        let lists = format!("x = {}1{}", "[".repeat(99), "]".repeat(99));
        let names = format!("x = {}y{}", "[y, ".repeat(99), "]".repeat(99));
        let lambdas = format!("f = {}0", "lambda: ".repeat(99));
        let ternaries = format!("x = {}c", "a if b else ".repeat(99));
        let chain = format!("x = 1{}", " + 1".repeat(200));
        let power = format!("x = 2{}", " ** 2".repeat(200));
        let trailers = format!("x = f{}", "(1)".repeat(200));
        // 99 brackets around a chain of 400 unary minuses: 500 levels of tree.
        let mixed = format!(
            "x = {}{}1{}",
            "(".repeat(99),
            "-".repeat(400),
            ")".repeat(99)
        );
        let blocks = nested_blocks(100, &mixed);
        let all = nested_blocks(100, &format!("y = {}", &lambdas[4..]));
        for src in [
            &brackets, &lists, &names, &lambdas, &ternaries, &chain, &power, &trailers, &mixed,
            &blocks, &all,
        ] {
            if let Err(e) = exercise(src) {
                panic!("{:?}…: {}", &src[..40], e.message);
            }
        }
    });
}

#[test]
fn nesting_limits_name_the_problem_and_point_at_it() {
    let e = fails_with(&"[".repeat(5000), "too many nested brackets");
    assert_eq!((e.span.start, e.span.end), (100, 101));
    let e = fails_with(
        &format!("x = 1\ny = {}", "([{".repeat(5000)),
        "too many nested brackets",
    );
    assert_eq!((e.span.start, e.span.end), (110, 111));
    // Lambdas and `else` branches nest without brackets; they count as levels too.
    let e = fails_with(
        &format!("f = {}0", "lambda: ".repeat(5000)),
        "expression nested too deeply",
    );
    assert_eq!((e.span.start, e.span.end), (4 + 8 * 100, 4 + 8 * 100));
    let e = fails_with(
        &format!("x = {}c", "a if b else ".repeat(5000)),
        "expression nested too deeply",
    );
    assert_eq!(
        e.span.start,
        4 + 100 * "a if b else ".len() + "a if b ".len()
    );
    fails_with(
        &format!("x = {}1{}", "(lambda: ".repeat(60), ")".repeat(60)),
        "expression nested too deeply",
    );
    // The commas of a lambda's parameters do not end it.
    let src = format!("f = {}a", "lambda a, b=1: ".repeat(5000));
    let e = fails_with(&src, "expression nested too deeply");
    assert_eq!(e.span.start, 4 + 100 * "lambda a, b=1: ".len());
    // Chains of operators and trailers.
    fails_with(
        &format!("x = 1{}", "+1".repeat(10_000)),
        "expression too long: split it into several statements",
    );
    fails_with(
        &format!("x = {}1", "-".repeat(5000)),
        "expression too long: split it into several statements",
    );
    // Brackets and operators together make a tree deeper than either limit alone allows.
    fails_with(
        &format!("x = {}1{}", "(-".repeat(99), ")".repeat(99)).replace('-', &"-".repeat(5)),
        "expression nested too deeply",
    );
    // Blocks: CPython's limit of 100 levels.
    let src = nested_blocks(150, "pass");
    let e = fails_with(&src, "too many levels of indentation");
    let line = src.lines().nth(101).expect("line 102");
    let start = src.find(line).expect("the line") + 101;
    assert_eq!(e.span.start, start);
    assert!(parse(&nested_blocks(100, "pass")).is_ok());
}

#[test]
fn lambdas_and_conditionals_side_by_side_are_not_nested() {
    let lambdas = format!("fs = [{}]", "lambda: 0, ".repeat(1000));
    assert!(parse(&lambdas).is_ok());
    let lines = "f = lambda x: x if x else 0\n".repeat(1000);
    assert_eq!(parse(&lines).expect("parses").body.len(), 1000);
    let calls = format!("x = f({})", "a if b else c, ".repeat(1000));
    assert!(parse(&calls).is_ok());
    let statements = "f = lambda: 0; ".repeat(1000);
    assert!(parse(&statements).is_ok());
}

#[test]
fn long_argument_and_parameter_lists_parse() {
    let n = 20_000;
    let call = format!("print(1{})", ", 1".repeat(n - 1));
    let program = parse(&call).expect("parses");
    match &program.body[0].kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Call(_, args) => assert_eq!(args.len(), n),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    let keywords: String = (0..n).map(|k| format!("a{k}=1, ")).collect();
    assert!(parse(&format!("f({keywords})")).is_ok());
    let e = fails_with(
        &format!("f({keywords}a7=2)"),
        "keyword argument repeated: `a7`",
    );
    assert_eq!(e.span.end, 2 + keywords.len() + 4);
    fails_with(
        &format!("f({keywords}1)"),
        "positional argument follows keyword argument",
    );
    let params: String = (0..n).map(|k| format!("a{k}, ")).collect();
    assert!(parse(&format!("def f({params}):\n  pass\n")).is_ok());
    fails_with(
        &format!("def f({params}a5):\n  pass\n"),
        "duplicate argument 'a5' in function definition",
    );
    fails_with(
        &format!("def f(b=1, {params}):\n  pass\n"),
        "non-default argument follows default argument",
    );
}

#[test]
fn errors_deep_in_large_inputs_keep_their_spans() {
    let line = "rt = tf.ragged.constant([[1, 2], [3]])  # data\n";
    let body = line.repeat(500);
    let src = format!("{body}x = f([1, 'abc");
    let e = fails_with(&src, "unterminated string literal");
    assert_eq!(e.span.start, body.len() + 10);
    let src = format!("{body}x = f([1, 2)");
    let e = fails_with(&src, "expected `]` to close `[`, found `)`");
    assert_eq!(e.span.start, body.len() + 11);
    // Unclosed brackets after a large data literal: the error points at the opener.
    let data = format!("x = [1{}]\n", ", 123".repeat(5000));
    let src = format!("{data}y = (1, [2, 3]");
    let e = fails_with(&src, "expected `)` to close `(`");
    assert_eq!(e.span.start, data.len() + 4);
    assert_eq!(completeness(&src), Completeness::Incomplete);
    // A bad end to a data literal.
    let src = format!("x = [1{}, ]]", ", 123".repeat(5000));
    let e = fails_with(&src, "unexpected `]`");
    assert_eq!(e.span.start, src.len() - 1);
    // Many line continuations, then nothing but spaces: still waiting for more input.
    let src = format!("x = 1 + \\\n{}", " \\\n".repeat(5000));
    assert_eq!(completeness(&src), Completeness::Incomplete);
}

#[test]
fn every_prefix_of_a_program_parses_or_fails_cleanly() {
    let program = "def f(x, y=[1, 'a']):\n    return (lambda z: z[1:-1] if z else {'k': x})(y)\n\
                   try:\n    r = f(1, y=[[2], \"\"\"s\"\"\"])  # comment\nexcept (ValueError, \\\n\
                   TypeError) as e:\n    pass\n";
    on_small_stack(move || {
        for end in (0..=program.len()).filter(|&i| program.is_char_boundary(i)) {
            let src = &program[..end];
            let _ = completeness(src);
            if let Err(e) = parse(src) {
                assert!(
                    e.span.start <= e.span.end && e.span.end <= src.len(),
                    "{src:?}"
                );
            }
        }
    });
}

#[test]
fn parsing_stops_when_the_cancel_flag_is_set() {
    let src = "x = [1, 2, 3]\n".repeat(1000);
    let stop = AtomicBool::new(true);
    assert_eq!(
        parse_interruptible(&src, &stop),
        Err(ParseError::Interrupted)
    );
    // Invalid input too: the flag is looked at before anything is reported.
    let bad = format!("{src}x = (");
    assert_eq!(
        parse_interruptible(&bad, &stop),
        Err(ParseError::Interrupted)
    );
    let err = Error::from(ParseError::Interrupted);
    assert_eq!(err.class, ExceptionClass::KeyboardInterrupt);
    // Without the flag it is `parse`.
    let go = AtomicBool::new(false);
    assert_eq!(parse_interruptible(&src, &go).ok(), parse(&src).ok());
    match parse_interruptible(&bad, &go) {
        Err(ParseError::Syntax(e)) => {
            assert_eq!(Some(e.clone()), parse(&bad).err());
            assert_eq!(
                Error::from(ParseError::Syntax(e)).class,
                ExceptionClass::SyntaxError
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn odd_unicode_and_random_bytes_fail_cleanly() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut texts = vec![
        format!("x = {}", "é".repeat(3000)),
        format!("x = '{}'", "😀".repeat(3000)),
        "x = 1\u{2028}y = 2\n".repeat(100),
        format!("x = [{}]", "\u{0301}".repeat(1000)),
        "\u{FEFF}x = 1\n".to_string(),
    ];
    const TOKENS: &[u8] = b"([{}])'\"\\\n #:,=lambda else ";
    for _ in 0..50 {
        let s: String = (0..400)
            .filter_map(|_| char::from_u32((next() % 0x3000) as u32))
            .collect();
        texts.push(s);
        let t: String = (0..400)
            .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize] as char)
            .collect();
        texts.push(t);
    }
    on_small_stack(move || {
        for src in &texts {
            let _ = exercise(src);
        }
    });
}

#[test]
fn data_literals_inside_lists_that_are_not_data_still_parse_the_same() {
    // A list with a name in it is not a data literal, but the large lists inside it are:
    // the scanner that skips them must find them even after the outer list failed.
    let items: Vec<String> = (0..200).map(|k| k.to_string()).collect();
    let big = format!("[{}]", items.join(", "));
    let big_sexpr = format!("(list {})", items.join(" "));
    let cases = [
        (
            format!("x = [y, {big}]"),
            format!("(= x (list y {big_sexpr}))"),
        ),
        (
            format!("x = [[{big}, y], {big}]"),
            format!("(= x (list (list {big_sexpr} y) {big_sexpr}))"),
        ),
        (
            format!("x = [[[{big}]], [[{big}]], y]"),
            format!("(= x (list (list (list {big_sexpr})) (list (list {big_sexpr})) y))"),
        ),
        (
            format!("x = f({big})[{big}]"),
            format!("(= x (subscript (call f {big_sexpr}) {big_sexpr}))"),
        ),
    ];
    for (src, sexpr) in &cases {
        let program = parse(src).unwrap_or_else(|e| panic!("{src:?}: {}", e.message));
        assert_eq!(&program_to_sexpr(&program), sexpr);
    }
}

/// The bytes the parser uses to hide large data literals from the grammar, typed by the user
/// outside a string, are a syntax error (found by fuzzing: they used to panic).
#[test]
fn marker_bytes_in_code_are_a_syntax_error() {
    for src in ["\u{1}\u{2}", "x = \u{1}   \u{2}", "[\u{1}\u{2}]", "\u{1}"] {
        match ragtag::syntax::parse(src) {
            Ok(_) => panic!("{src:?} parsed"),
            Err(e) => assert!(!e.message.is_empty(), "{src:?}"),
        }
    }
    assert!(ragtag::syntax::parse("x = '\u{1}\u{2}'").is_ok());
}

/// A large data literal spread over lines with a comment inside it whose text has an
/// unclosed quote (found by fuzzing: the literal was read back from the text before its
/// comments were blanked, and the scan ran off the end).
#[test]
fn a_comment_inside_a_large_literal_is_skipped() {
    let row = format!(
        "[{}]",
        (0..60)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let src = format!("x = [\n    {row},\n    # ['an unclosed quote\n    [1, 2],\n]\n");
    let program = ragtag::syntax::parse(&src).expect("parses");
    let StmtKind::Assign { value, .. } = &program.body[0].kind else {
        panic!("an assignment")
    };
    // Scanned as one data block: the literal itself, not a node per element.
    let ExprKind::Data(rows) = &value.kind else {
        panic!("a data block: {:?}", value.kind)
    };
    let ragtag::engine::literal::Nested::List(rows) = rows.tree() else {
        panic!("a list")
    };
    assert_eq!(rows.len(), 2);
}

#[test]
fn every_error_kinds_example_fails_with_that_kind_on_a_small_stack() {
    on_small_stack(|| {
        for kind in SyntaxErrorKind::ALL {
            let e = exercise(kind.example()).expect_err(kind.example());
            assert_eq!(e.kind, kind, "{:?}: {}", kind.example(), e.message);
        }
    });
}
