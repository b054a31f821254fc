//! `class`, `with` and decorated definitions.

use super::tests::{check_all, sx};
use crate::parse;

#[test]
fn class_statements() {
    check_all(
        &[
            ("class A: pass", "(class A () (pass))"),
            ("class A:\n    x = 1\n", "(class A () (= x 1))"),
            ("class A(B, C):\n  pass", "(class A (B C) (pass))"),
            ("class A():\n  pass", "(class A () (pass))"),
            (
                "class A(object):\n    def __init__(self, x):\n        self.x = x",
                "(class A (object) (def __init__ (self x) (= (. self x) x)))",
            ),
            (
                "class E(ValueError):\n    '''doc'''\n",
                "(class E (ValueError) \"doc\")",
            ),
        ],
        sx,
    );
}

#[test]
fn with_statements() {
    check_all(
        &[
            ("with a: pass", "(with (a) (pass))"),
            (
                "with open(p) as f:\n  x = f.read()",
                "(with ((as (call open p) f)) (= x (call (. f read))))",
            ),
            (
                "with a as x, b, c as (d, e):\n  pass",
                "(with ((as a x) b (as c (tuple d e))) (pass))",
            ),
        ],
        sx,
    );
}

#[test]
fn decorated_definitions() {
    check_all(
        &[
            (
                "@property\ndef f(self): return 1",
                "(decorated property (def f (self) (return 1)))",
            ),
            (
                "@register\nclass A: pass",
                "(decorated register (class A () (pass)))",
            ),
            (
                "class A:\n    @x.setter\n    def x(self, v): pass",
                "(class A () (decorated (. x setter) (def x (self v) (pass))))",
            ),
        ],
        sx,
    );
}

#[test]
fn class_and_with_errors() {
    for src in [
        "class: pass",
        "class A(:\n  pass",
        "with : pass",
        "with a as 1: pass",
        "class A",
    ] {
        assert!(parse(src).is_err(), "{src} should not parse");
    }
}
