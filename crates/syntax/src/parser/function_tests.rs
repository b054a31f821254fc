//! Parser tests of functions and unpacking: parameter kinds, `*`/`**` at call sites and in
//! displays, starred targets, `global`/`nonlocal`, and the SyntaxErrors CPython gives for
//! each misuse.

use super::tests::{err, sx};

#[test]
fn parameter_kinds() {
    for (src, want) in [
        ("def f(*a, **k): pass", "(def f (*a **k) (pass))"),
        (
            "def f(a, /, b, *, c=1): pass",
            "(def f (a / b * (= c 1)) (pass))",
        ),
        ("def f(a, *r, k, **o): pass", "(def f (a *r k **o) (pass))"),
        ("f = lambda *a, b=2: a", "(= f (lambda (*a (= b 2)) a))"),
        ("def f(a, /): pass", "(def f (a /) (pass))"),
    ] {
        assert_eq!(sx(src), want, "source: {src:?}");
    }
}

#[test]
fn unpacking_in_calls_displays_and_targets() {
    for (src, want) in [
        (
            "f(1, *xs, k=2, **d)",
            "(call f 1 (star xs) (kw k 2) (star-star d))",
        ),
        ("[*a, 1, *b]", "(list (* a) 1 (* b))"),
        ("(*a, 1)", "(tuple (* a) 1)"),
        ("{**d, 'k': 1}", "(dict (** d) (\"k\" 1))"),
        ("a, *rest = xs", "(= (tuple a (* rest)) xs)"),
        ("for a, *b in xs: pass", "(for (tuple a (* b)) xs (pass))"),
        ("x = *a, b", "(= x (tuple (* a) b))"),
        ("global a, b", "(global a b)"),
        (
            "def f():\n  nonlocal_ok = 1",
            "(def f () (= nonlocal_ok 1))",
        ),
    ] {
        assert_eq!(sx(src), want, "source: {src:?}");
    }
}

#[test]
fn misuses_are_cpython_syntax_errors() {
    for (src, want) in [
        ("def f(*): pass", "named arguments must follow bare *"),
        ("def f(*, **k): pass", "named arguments must follow bare *"),
        ("def f(/, a): pass", "at least one argument must precede /"),
        ("def f(*a, /): pass", "/ must be ahead of *"),
        ("def f(a, /, b, /): pass", "/ may appear only once"),
        ("def f(*a, *b): pass", "* argument may appear only once"),
        (
            "def f(**k, a): pass",
            "arguments cannot follow var-keyword argument",
        ),
        ("*a, *b = xs", "multiple starred expressions in assignment"),
        (
            "*a = xs",
            "starred assignment target must be in a list or tuple",
        ),
        ("*a", "can't use starred expression here"),
        (
            "[*x for x in y]",
            "iterable unpacking cannot be used in comprehension",
        ),
        (
            "{**d for x in y}",
            "dict unpacking cannot be used in dict comprehension",
        ),
        (
            "f(**d, 1)",
            "positional argument follows keyword argument unpacking",
        ),
        (
            "f(**d, *a)",
            "iterable argument unpacking follows keyword argument unpacking",
        ),
        (
            "nonlocal x",
            "nonlocal declaration not allowed at module level",
        ),
        (
            "def f():\n  nonlocal x",
            "no binding for nonlocal 'x' found",
        ),
        ("def f(a):\n  global a", "name 'a' is parameter and global"),
    ] {
        assert_eq!(err(src).message, want, "source: {src:?}");
    }
}
