//! Annotations: annotated assignments, parameter and return annotations.

use super::tests::{check_all, sx};
use crate::parse;

#[test]
fn annotated_assignments() {
    check_all(
        &[
            ("x: int = 0", "(: x int 0)"),
            ("x: int", "(: x int)"),
            (
                "x: list[int] = [1, 2]",
                "(: x (subscript list int) (list 1 2))",
            ),
            ("(x): int = 1", "(: (paren x) int 1)"),
            ("self.a: int = 1", "(: (. self a) int 1)"),
            ("d['k']: str", "(: (subscript d \"k\") str)"),
            ("x: int = 1, 2", "(: x int (tuple 1 2))"),
            (
                "class P:\n    x: int\n    y: int = 2\n",
                "(class P () (: x int) (: y int 2))",
            ),
        ],
        sx,
    );
}

#[test]
fn function_annotations() {
    check_all(
        &[
            ("def f(a: int): pass", "(def f ((: a int)) (pass))"),
            (
                "def f(a: int, b: str = 'x') -> bool: pass",
                "(def f ((: a int) (= (: b str) \"x\")) (-> bool) (pass))",
            ),
            (
                "def f(*args: int, k: float = 1.0, **kw: str) -> None: pass",
                "(def f ((: *args int) (= (: k float) 1.0) (: **kw str)) (-> None) (pass))",
            ),
            ("def f() -> 'P': pass", "(def f () (-> \"P\") (pass))"),
            ("lambda a, b=1: a", "(lambda (a (= b 1)) a)"),
        ],
        sx,
    );
}

#[test]
fn annotation_errors() {
    let cases = [
        (
            "a, b: int",
            "only single target (not tuple) can be annotated",
        ),
        ("[a]: int", "only single target (not list) can be annotated"),
        ("f(): int", "illegal target for annotation"),
    ];
    for (src, msg) in cases {
        let e = parse(src).expect_err(src);
        assert!(e.to_string().contains(msg), "{src}: {e}");
    }
    // A lambda takes no annotations.
    assert!(parse("lambda a: int: a").is_err());
    // Other mistakes keep their messages.
    let e = parse("print 'a'").expect_err("print");
    assert!(e.to_string().contains("unexpected string"), "{e}");
}
