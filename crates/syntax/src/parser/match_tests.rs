//! `match` statements: patterns to the AST, soft keywords, and CPython's compile-time errors.

use super::tests::{check_all, err, sx};
use crate::parse;

#[test]
fn match_statements() {
    check_all(
        &[
            (
                "match x:\n    case 1:\n        pass",
                "(match x (case (value 1) ((pass))))",
            ),
            (
                "match x:\n    case [a, *rest]:\n        pass\n    case _:\n        pass",
                "(match x (case (seq a (* rest)) ((pass))) (case _ ((pass))))",
            ),
            (
                "match x:\n    case {'k': v, **kw} if v: pass",
                "(match x (case (map (\"k\" v) (** kw)) (if v) ((pass))))",
            ),
            (
                "match p:\n    case Point(0, y=b) | Point(b, 1) as q: pass\n    case C.D: pass",
                "(match p (case (as (| (class Point (value 0) (= y b)) (class Point b (value 1))) q) ((pass))) (case (value (. C D)) ((pass))))",
            ),
            (
                "match a, b:\n    case -1, (x,): pass",
                "(match (tuple a b) (case (seq (value (- 1)) (seq x)) ((pass))))",
            ),
        ],
        sx,
    );
}

#[test]
fn match_and_case_stay_names() {
    check_all(
        &[
            ("match = 3", "(= match 3)"),
            ("match(x)", "(call match x)"),
            ("case = 1\ncase + 1", "(= case 1)\n(+ case 1)"),
            ("x = match[0]", "(= x (subscript match 0))"),
        ],
        sx,
    );
}

#[test]
fn match_errors() {
    for (src, want) in [
        (
            "match x:\n    case y: pass\n    case 1: pass",
            "name capture 'y' makes remaining patterns unreachable",
        ),
        (
            "match x:\n    case _: pass\n    case 1: pass",
            "wildcard makes remaining patterns unreachable",
        ),
        (
            "match x:\n    case [a, a]: pass",
            "multiple assignments to name 'a' in pattern",
        ),
        (
            "match x:\n    case [*a, *b]: pass",
            "multiple starred names in sequence pattern",
        ),
        (
            "match x:\n    case [a] | 1: pass",
            "alternative patterns bind different names",
        ),
        (
            "match x:\n    case P(x=1, y): pass",
            "positional patterns follow keyword patterns",
        ),
    ] {
        assert_eq!(err(src).message, want, "{src:?}");
    }
    assert!(parse("match x:\n    case 1 + 2: pass").is_err());
}
