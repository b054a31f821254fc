//! Parser tests: precedence, statements, blocks, spans, completeness and data literals
//! (the errors are in `error_tests`).

use super::super::sexpr::{expr_to_sexpr, program_to_sexpr};
use super::*;

/// The S-expression of a program that must parse.
pub(super) fn sx(src: &str) -> String {
    match parse(src) {
        Ok(p) => program_to_sexpr(&p),
        Err(e) => panic!("{src:?} failed: {} at {:?}", e.message, e.span),
    }
}

/// The S-expression of an expression that must parse.
fn ex(src: &str) -> String {
    match parse_expr(src) {
        Ok(e) => expr_to_sexpr(&e),
        Err(e) => panic!("{src:?} failed: {} at {:?}", e.message, e.span),
    }
}

pub(super) fn err(src: &str) -> SyntaxError {
    match parse(src) {
        Ok(p) => panic!("{src:?} parsed: {}", program_to_sexpr(&p)),
        Err(e) => e,
    }
}

fn first_expr(src: &str) -> Expr {
    match parse(src).expect("parses").body.remove(0).kind {
        StmtKind::Expr(e) => e,
        StmtKind::Assign { value, .. } => value,
        other => panic!("not an expression statement: {other:?}"),
    }
}

pub(super) fn check_all(cases: &[(&str, &str)], f: fn(&str) -> String) {
    for (src, want) in cases {
        assert_eq!(f(src), *want, "source: {src:?}");
    }
}

// ---------------------------------------------------------------- precedence

#[test]
fn arithmetic_precedence() {
    check_all(
        &[
            ("1 + 2 * 3", "(+ 1 (* 2 3))"),
            ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
            ("1 - 2 - 3", "(- (- 1 2) 3)"),
            ("a / b // c % d @ e", "(@ (% (// (/ a b) c) d) e)"),
            ("-x ** 2", "(- (** x 2))"),
            ("2 ** -1", "(** 2 (- 1))"),
            ("2 ** 3 ** 2", "(** 2 (** 3 2))"),
            ("a ** -b ** c", "(** a (- (** b c)))"),
            ("-2 ** -1 * 3", "(* (- (** 2 (- 1))) 3)"),
            ("- - +~x", "(- (- (+ (~ x))))"),
            ("-x.y ** 2", "(- (** (. x y) 2))"),
        ],
        ex,
    );
}

#[test]
fn logical_and_comparison_precedence() {
    check_all(
        &[
            ("a or b and not c", "(or a (and b (not c)))"),
            ("not a == b", "(not (== a b))"),
            ("x < y == z", "(and (< x y) (== y z))"),
            ("a < b < c < d", "(and (and (< a b) (< b c)) (< c d))"),
            ("(a < b) < c", "(< (< a b) c)"),
            ("a | b ^ c & d", "(| a (^ b (& c d)))"),
            ("a & b + c", "(& a (+ b c))"),
            ("a == b | c", "(== a (| b c))"),
            ("a not in b", "(not-in a b)"),
            ("a in b", "(in a b)"),
            ("a is not None", "(is-not a None)"),
            ("a is b", "(is a b)"),
            ("a != b >= c", "(and (!= a b) (>= b c))"),
            ("not not x", "(not (not x))"),
            ("x if c else y", "(if c x y)"),
            ("a if b else c if d else e", "(if b a (if d c e))"),
            ("a or b if c or d else e", "(if (or c d) (or a b) e)"),
        ],
        ex,
    );
}

#[test]
fn lambda_precedence() {
    check_all(
        &[
            ("lambda x: x * 2 + 1", "(lambda (x) (+ (* x 2) 1))"),
            ("lambda: 0", "(lambda () 0)"),
            (
                "lambda x, axis: f(x, axis)",
                "(lambda (x axis) (call f x axis))",
            ),
            ("lambda x, y=2: x", "(lambda (x (= y 2)) x)"),
            ("lambda: 0 if a else 1", "(lambda () (if a 0 1))"),
            ("x if c else lambda: 0", "(if c x (lambda () 0))"),
            (
                "lambda x: lambda y: x + y",
                "(lambda (x) (lambda (y) (+ x y)))",
            ),
            ("(lambda x: x)(1)", "(call (lambda (x) x) 1)"),
        ],
        ex,
    );
}

#[test]
fn bare_not_needs_parentheses() {
    for src in ["1 == not 2", "-not x", "a + not b"] {
        let e = parse_expr(src).unwrap_err();
        assert_eq!(e.message, "expected an expression, found `not`", "{src}");
        assert_eq!(&src[e.span.start..e.span.end], "not");
    }
    assert_eq!(ex("1 == (not 2)"), "(== 1 (not 2))");
    assert_eq!(ex("a and not b"), "(and a (not b))");
}

// ---------------------------------------------------------------- atoms and trailers

#[test]
fn literals() {
    check_all(
        &[
            (
                "0x1F + 1_000 + 0o17 + 0b101 + 0",
                "(+ (+ (+ (+ 31 1000) 15) 5) 0)",
            ),
            (
                "1. + .5 + 1e-3 + 2.5E+4 + 4096.0",
                "(+ (+ (+ (+ 1.0 0.5) 0.001) 25000.0) 4096.0)",
            ),
            ("9223372036854775807", "9223372036854775807"),
            ("True, False, None, ...", "(tuple True False None ...)"),
            (r#""a" 'b' """c""" '''d'''"#, r#""abcd""#),
            (r"'it\'s \x41\u0042\t\\'", r#""it's AB\t\\""#),
            (r"r'\d+' u'y'", r#""\\d+y""#),
            (r"b'x' Rb'\n'", r#"b"x\\n""#),
            (r"'\101\0'", r#""A\0""#),
            (
                r"'a\
b'", r#""ab""#,
            ),
            ("'''line\nbreak'''", r#""line\nbreak""#),
            ("'#' + \"#\"", r##"(+ "#" "#")"##),
            (r"'\N{DASH}'", r#""\\N{DASH}""#),
        ],
        ex,
    );
}

#[test]
fn displays() {
    check_all(
        &[
            ("[]", "(list)"),
            ("[1, 2,]", "(list 1 2)"),
            ("[[1, 2], [3]]", "(list (list 1 2) (list 3))"),
            ("()", "(tuple)"),
            ("(a,)", "(tuple a)"),
            ("(a, b)", "(tuple a b)"),
            ("(a)", "a"),
            ("((a))", "a"),
            ("{}", "(dict)"),
            ("{'a': 1, 'b': [2],}", r#"(dict ("a" 1) ("b" (list 2)))"#),
            (
                "[x * 2 for x in xs if x > 1]",
                "(listcomp (* x 2) (for x xs) (if (> x 1)))",
            ),
            ("[x for x in xs]", "(listcomp x (for x xs))"),
            (
                "[a for a, (b, c) in z if a if b]",
                "(listcomp a (for (tuple a (tuple b c)) z) (if a) (if b))",
            ),
            ("[x for [a, b] in z]", "(listcomp x (for (tuple a b) z))"),
            (
                "[y if y else 0 for y in ys]",
                "(listcomp (if y y 0) (for y ys))",
            ),
        ],
        ex,
    );
}

#[test]
fn calls_attributes_subscripts() {
    check_all(
        &[
            (
                "tf.ragged.constant([1, 2], axis=1)",
                "(call (. (. tf ragged) constant) (list 1 2) (kw axis 1))",
            ),
            ("f()", "(call f)"),
            ("f(a, b,)", "(call f a b)"),
            ("f(*xs, k=1)", "(call f (star xs) (kw k 1))"),
            ("f(a, *b, c=1,)", "(call f a (star b) (kw c 1))"),
            ("f(x == 1)", "(call f (== x 1))"),
            ("f(x)(y)[0].z", "(. (subscript (call (call f x) y) 0) z)"),
            ("x[i]", "(subscript x i)"),
            ("x[i, j]", "(subscript x i j)"),
            ("x[1,]", "(subscript x 1)"),
            ("x[1::2]", "(subscript x (slice 1 _ 2))"),
            ("x[:]", "(subscript x (slice _ _ _))"),
            ("x[::2]", "(subscript x (slice _ _ 2))"),
            ("x[1:2:]", "(subscript x (slice 1 2 _))"),
            ("x[:, -2:]", "(subscript x (slice _ _ _) (slice (- 2) _ _))"),
            ("x[1:]", "(subscript x (slice 1 _ _))"),
            ("x[:-1]", "(subscript x (slice _ (- 1) _))"),
            ("x[..., 0]", "(subscript x ... 0)"),
            (
                "x[:, tf.newaxis]",
                "(subscript x (slice _ _ _) (. tf newaxis))",
            ),
            ("x[:, None]", "(subscript x (slice _ _ _) None)"),
            (
                "a + x[1:2, ::3]",
                "(+ a (subscript x (slice 1 2 _) (slice _ _ 3)))",
            ),
            ("x . y", "(. x y)"),
        ],
        ex,
    );
}

#[test]
fn names_are_not_keywords() {
    check_all(
        &[
            (
                "iffy + format + notable + island + lambdas",
                "(+ (+ (+ (+ iffy format) notable) island) lambdas)",
            ),
            ("print(Trueish, None_)", "(call print Trueish None_)"),
            ("_x1 + é", "(+ _x1 é)"),
        ],
        ex,
    );
    for src in ["x = class", "while", "lambda = 1", "f(in)"] {
        assert!(parse(src).is_err(), "{src}");
    }
}

// ---------------------------------------------------------------- statements

#[test]
fn simple_statements() {
    check_all(
            &[
                ("x = 1", "(= x 1)"),
                ("a = b = 2", "(= a b 2)"),
                ("a, b = t", "(= (tuple a b) t)"),
                ("(a, b) = t", "(= (tuple a b) t)"),
                ("[a, b] = t", "(= (tuple a b) t)"),
                ("a, (b, [c, d]) = t", "(= (tuple a (tuple b (tuple c d))) t)"),
                ("x = 1, 2", "(= x (tuple 1 2))"),
                ("x = 1,", "(= x (tuple 1))"),
                ("x = (y) = 3", "(= x y 3)"),
                ("1, 2", "(tuple 1 2)"),
                ("pass", "(pass)"),
                ("return", "(return)"),
                ("return a, b", "(return (tuple a b))"),
                ("raise", "(raise)"),
                ("raise ValueError('bad')", r#"(raise (call ValueError "bad"))"#),
                ("assert x", "(assert x)"),
                ("assert x == 1, 'bad'", r#"(assert (== x 1) "bad")"#),
                ("x = 1; y = 2;", "(= x 1)\n(= y 2)"),
                ("rt[..., 0]; rt[:, tf.newaxis]; x = 1, 2", "(subscript rt ... 0)\n(subscript rt (slice _ _ _) (. tf newaxis))\n(= x (tuple 1 2))"),
            ],
            sx,
        );
}

#[test]
fn imports() {
    check_all(
        &[
            ("import tensorflow as tf", "(import tensorflow as tf)"),
            ("import numpy as np", "(import numpy as np)"),
            (
                "import paddle.fluid as fluid",
                "(import paddle.fluid as fluid)",
            ),
            ("import math", "(import math)"),
            ("import os, sys as s", "(import os)\n(import sys as s)"),
            ("from x.y import z", "(import x.y.z as z)"),
            ("from x.y import z as w", "(import x.y.z as w)"),
            (
                "from a import (b, c as d,)",
                "(import a.b as b)\n(import a.c as d)",
            ),
        ],
        sx,
    );
}

#[test]
fn def_and_decorators() {
    check_all(
            &[
                ("def f(): pass", "(def f () (pass))"),
                ("def f(x, y=2,):\n  return x + y", "(def f (x (= y 2)) (return (+ x y)))"),
                (
                    "@tf.function\ndef f(x):\n    return x",
                    "(decorated (. tf function) (def f (x) (return x)))",
                ),
                (
                    "@tf.function(input_signature=[tf.TensorSpec([None])])\n# note\n\n@other\ndef g(): return 1",
                    "(decorated (call (. tf function) (kw input_signature (list (call (. tf TensorSpec) (list None))))) other (def g () (return 1)))",
                ),
                ("def f(\n    a,   # first\n    b):\n  pass", "(def f (a b) (pass))"),
            ],
            sx,
        );
}

#[test]
fn if_elif_else() {
    check_all(
        &[
            ("if x: y = 1", "(if x ((= y 1)))"),
            ("if a: b = 1\nelse: b = 2", "(if a ((= b 1)) ((= b 2)))"),
            (
                "if a:\n  x\nelif b:\n  y\nelif c:\n  z\nelse:\n  w",
                "(if a (x) ((if b (y) ((if c (z) (w))))))",
            ),
            (
                "if x:\n  if y:\n    a\n  else:\n    b\nelse:\n  c",
                "(if x ((if y (a) (b))) (c))",
            ),
        ],
        sx,
    );
}

#[test]
fn for_loops() {
    check_all(
        &[
            (
                "for word in [\"a\", \"b\"]:\n  print(word)",
                r#"(for word (list "a" "b") (call print word))"#,
            ),
            (
                "for i, (a, b) in pairs: pass",
                "(for (tuple i (tuple a b)) pairs (pass))",
            ),
            ("for x in 1, 2: pass", "(for x (tuple 1 2) (pass))"),
            ("for x in a if c else b: pass", "(for x (if c a b) (pass))"),
        ],
        sx,
    );
}

#[test]
fn try_except_finally() {
    let src = "try:\n  a\nexcept (ValueError, TypeError) as e:\n  b\n\
                   except tf.errors.InvalidArgumentError as exception:\n  c\nexcept ValueError:\n  d\n\
                   except:\n  pass\nfinally:\n  f";
    assert_eq!(
        sx(src),
        "(try (a) (except (ValueError TypeError) e b) \
             (except ((. (. tf errors) InvalidArgumentError)) exception c) \
             (except (ValueError) _ d) (except () _ (pass)) (finally f))"
    );
    assert_eq!(sx("try: a\nfinally: b"), "(try (a) (finally b))");
    assert_eq!(sx("try: a\nexcept: pass"), "(try (a) (except () _ (pass)))");
}

// ---------------------------------------------------------------- layout

#[test]
fn brackets_continue_lines_and_ignore_comments() {
    let src = "x = [1,   # one\n     # a comment line ] ) }\n\n  2, # two\n]\ny = f(a,\n\
                   b=(1 +\n2))  # trailing\n";
    assert_eq!(sx(src), "(= x (list 1 2))\n(= y (call f a (kw b (+ 1 2))))");
    assert_eq!(sx("x = 1 + \\\n    2\ny = 3"), "(= x (+ 1 2))\n(= y 3)");
    assert_eq!(
        sx("s = 'a # not a comment'  # a comment"),
        r#"(= s "a # not a comment")"#
    );
    assert_eq!(sx("x = {'a':\n  1}"), r#"(= x (dict ("a" 1)))"#);
}

#[test]
fn blocks_follow_indentation() {
    let src = "\
# leading comment

def f(x):
    # comment in block
    y = x

        # deeper comment
  # shallower comment
    if y:
        return 1
    return 2
z = f(1)
for w in z:
\tprint(w)
print('done')
";
    assert_eq!(
        sx(src),
        "(def f (x) (= y x) (if y ((return 1))) (return 2))\n(= z (call f 1))\n\
             (for w z (call print w))\n(call print \"done\")"
    );
}

#[test]
fn nested_blocks_and_multi_level_dedent() {
    let src = "def outer(a):\n    def inner(b):\n        for x in b:\n            if x:\n                \
                   return x\n    return inner(a)\nafter = 1\n";
    assert_eq!(
        sx(src),
        "(def outer (a) (def inner (b) (for x b (if x ((return x))))) (return (call inner a)))\n\
             (= after 1)"
    );
    // Tabs and spaces may mix as long as each line repeats its block's indentation.
    let mixed = "if a:\n  if b:\n  \tx = 1\n  \ty = 2\n  z = 3\nw = 4";
    assert_eq!(
        sx(mixed),
        "(if a ((if b ((= x 1) (= y 2))) (= z 3)))\n(= w 4)"
    );
    assert_eq!(
        sx("if a: pass\nelif b: pass\nw = 1"),
        "(if a ((pass)) ((if b ((pass)))))\n(= w 1)"
    );
    assert_eq!(
        sx("raise ValueError('x') from err"),
        r#"(raise (call ValueError "x") (from err))"#
    );
}

#[test]
fn crlf_and_blank_space_inputs() {
    assert_eq!(
        sx("if x:\r\n  a = [1,\r\n 2]\r\n\r\nb = 3\r\n"),
        "(if x ((= a (list 1 2))))\n(= b 3)"
    );
    assert_eq!(sx(""), "");
    assert_eq!(sx("  \n\n   \n"), "");
    assert_eq!(sx("# only a comment"), "");
    assert_eq!(sx("\n\nx = 1\n\n\n"), "(= x 1)");
    assert_eq!(sx("s = '''a\n  b'''\nt = 1"), "(= s \"a\\n  b\")\n(= t 1)");
}

const GUIDE: &str = r#"import tensorflow as tf
digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
print(tf.concat([digits, [[5, 3]]], axis=0))
times_two_plus_one = lambda x: x * 2 + 1
print(tf.ragged.map_flat_values(times_two_plus_one, digits))
print(digits[:, -2:])
try:
  tf.ragged.constant([["one", "two"], [3, 4]])  # bad: multiple types
except ValueError as exception:
  print(exception)

queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'],
                              ['Pause'],
                              ['Will', 'it', 'rain', 'later', 'today']])
marker = tf.fill([queries.nrows(), 1], '#')
print(tf.RaggedTensor.from_row_splits(
    values=[3, 1, 4, 1, 5, 9, 2],
    row_splits=[0, 4, 4, 6, 7]))
x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
print(x + tf.constant([[10]]))
rt = tf.RaggedTensor.from_row_splits(
    values=tf.RaggedTensor.from_row_splits(
        values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        row_splits=[0, 3, 3, 5, 9, 10]),
    row_splits=[0, 1, 1, 5])
print("Shape: {}".format(rt.shape))
@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def max_and_min(rt):
  return (tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1))

def make_palindrome(x, axis):
  return tf.concat([x, tf.reverse(x, [axis])], axis)
for word in ["a", "b"]:
  print(word)
rt[..., 0]; rt[:, tf.newaxis]; x = 1, 2
filled, empty = tf.sparse.fill_empty_rows(c, 10)
print(dict(zip(keys, values)) if a is not None else {})
"#;

/// The S-expressions of the guide's code are a snapshot (snapshots/, one line a statement).
#[test]
fn tensorflow_guide_snippets() {
    insta::assert_snapshot!(sx(GUIDE));
    assert_eq!(completeness(GUIDE), Completeness::Complete);
}

// ---------------------------------------------------------------- spans

fn text(src: &str, span: Span) -> &str {
    &src[span.start..span.end]
}

#[test]
fn expression_spans() {
    let src = "y = digits[:, :2]";
    let e = first_expr(src);
    assert_eq!(e.span, Span::new(4, 17));
    let ExprKind::Subscript(obj, items) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(text(src, obj.span), "digits");
    let Index::Slice { span, stop, .. } = &items[1] else {
        panic!()
    };
    assert_eq!(text(src, *span), ":2");
    assert_eq!(text(src, stop.as_ref().unwrap().span), "2");

    let src = "z = (a + b) * c.d(1, k=2)";
    let e = first_expr(src);
    assert_eq!(text(src, e.span), "(a + b) * c.d(1, k=2)");
    let ExprKind::Binary(_, lhs, rhs) = &e.kind else {
        panic!()
    };
    assert_eq!(text(src, lhs.span), "(a + b)");
    assert_eq!(text(src, rhs.span), "c.d(1, k=2)");
    let ExprKind::Call(f, args) = &rhs.kind else {
        panic!()
    };
    assert_eq!(text(src, f.span), "c.d");
    assert_eq!(text(src, args[1].value.span), "2");

    let src = "-x ** 2 if not a < b < c else lambda q: q";
    let e = first_expr(src);
    assert_eq!(e.span, Span::new(0, src.len()));
    let ExprKind::IfElse { cond, then, orelse } = &e.kind else {
        panic!()
    };
    assert_eq!(text(src, then.span), "-x ** 2");
    assert_eq!(text(src, cond.span), "not a < b < c");
    assert_eq!(text(src, orelse.span), "lambda q: q");
    let ExprKind::Not(chain) = &cond.kind else {
        panic!()
    };
    let ExprKind::Compare(first, links) = &chain.kind else {
        panic!()
    };
    let spans: Vec<&str> = links.iter().map(|(_, e)| text(src, e.span)).collect();
    assert_eq!((text(src, first.span), spans), ("a", vec!["b", "c"]));
}

/// Every expression inside `e`, `e` included.
fn walk<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    out.push(e);
    let mut go = |x: &'a Expr| walk(x, out);
    match &e.kind {
        ExprKind::List(xs) | ExprKind::Tuple(xs) => xs.iter().for_each(go),
        ExprKind::Dict(kv) => kv.iter().for_each(|(k, v)| {
            if let Some(k) = k {
                go(k);
            }
            go(v);
        }),
        ExprKind::Attr(x, _) | ExprKind::Unary(_, x) | ExprKind::Not(x) | ExprKind::Starred(x) => {
            go(x)
        }
        ExprKind::Call(f, args) => {
            go(f);
            args.iter().for_each(|a| go(&a.value));
        }
        ExprKind::Subscript(x, items) => {
            go(x);
            for item in items {
                match item {
                    Index::Expr(i) => go(i),
                    Index::Slice {
                        start, stop, step, ..
                    } => [start, stop, step].into_iter().flatten().for_each(&mut go),
                }
            }
        }
        ExprKind::Binary(_, a, b) | ExprKind::Logic(_, a, b) => {
            go(a);
            go(b);
        }
        ExprKind::Walrus(_, value) => go(value),
        ExprKind::Compare(first, links) => {
            go(first);
            links.iter().for_each(|(_, e)| go(e));
        }
        ExprKind::Lambda(params, body) => {
            params
                .iter()
                .filter_map(|p| p.default.as_ref())
                .for_each(&mut go);
            go(body);
        }
        ExprKind::IfElse { cond, then, orelse } => {
            [cond, then, orelse].into_iter().for_each(|x| go(x))
        }
        ExprKind::ListComp { elt, generators } | ExprKind::GenExp { elt, generators } => {
            go(elt);
            for g in generators {
                go(&g.iter);
                g.conds.iter().for_each(&mut go);
            }
        }
        ExprKind::DictComp {
            key,
            value,
            generators,
        } => {
            go(key);
            go(value);
            for g in generators {
                go(&g.iter);
                g.conds.iter().for_each(&mut go);
            }
        }
        _ => {}
    }
}

fn stmt_exprs<'a>(s: &'a Stmt, out: &mut Vec<&'a Expr>) {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Assign { value: e, .. } => walk(e, out),
        StmtKind::Return(Some(e)) | StmtKind::Raise(Some(e), _) => walk(e, out),
        StmtKind::Assert { test, msg } => {
            walk(test, out);
            if let Some(m) = msg {
                walk(m, out);
            }
        }
        StmtKind::Def { body, .. } => body.iter().for_each(|s| stmt_exprs(s, out)),
        StmtKind::If { cond, body, orelse } => {
            walk(cond, out);
            body.iter().chain(orelse).for_each(|s| stmt_exprs(s, out));
        }
        StmtKind::For {
            iter, body, orelse, ..
        } => {
            walk(iter, out);
            body.iter().chain(orelse).for_each(|s| stmt_exprs(s, out));
        }
        StmtKind::Try {
            body,
            handlers,
            orelse,
            finally,
        } => {
            body.iter()
                .chain(orelse)
                .chain(finally)
                .for_each(|s| stmt_exprs(s, out));
            for h in handlers {
                h.classes.iter().for_each(|c| walk(c, out));
                h.body.iter().for_each(|s| stmt_exprs(s, out));
            }
        }
        _ => {}
    }
}

#[test]
fn every_span_reparses_to_the_same_expression() {
    let extra = "y = -x ** 2 if not a < b < c else (lambda q, r=[1, 2]: q[1:-1, ..., None])(f(*z, k={1: 'a' 'b'}))\n\
                     w = [v.t for v, (s, u) in zip(a, b) if v is not None if s not in u], ~m @ n // 2";
    for src in [GUIDE, extra] {
        let program = parse(src).unwrap();
        let mut exprs = Vec::new();
        program.body.iter().for_each(|s| stmt_exprs(s, &mut exprs));
        assert!(exprs.len() > 50 || src == extra, "{}", exprs.len());
        for e in exprs {
            let piece = text(src, e.span);
            let again =
                parse_expr(piece).unwrap_or_else(|err| panic!("{piece:?}: {}", err.message));
            assert_eq!(
                expr_to_sexpr(&again),
                expr_to_sexpr(e),
                "span text {piece:?}"
            );
        }
    }
}

#[test]
fn spans_across_lines_use_original_offsets() {
    let src = "print(tf.RaggedTensor.from_row_splits(  # c\n    values=[3, 1],\n    row_splits=[0, 2]))  # end\n";
    let e = first_expr(src);
    assert_eq!(
        text(src, e.span),
        src.trim_end().trim_end_matches("# end").trim_end()
    );
    let ExprKind::Call(_, args) = &e.kind else {
        panic!()
    };
    let ExprKind::Call(_, inner) = &args[0].value.kind else {
        panic!()
    };
    assert_eq!(text(src, inner[1].value.span), "[0, 2]");
    let s = "s = 'é' + x  # ünïcode\ny = 1";
    let p = parse(s).unwrap();
    assert_eq!(text(s, p.body[0].span), "s = 'é' + x");
    assert_eq!(text(s, p.body[1].span), "y = 1");
}

#[test]
fn statement_spans() {
    let src = "x, y = 1, 2  # c\nif a:\n  pass\nelif b:\n  pass\n\n@d\ndef f(): pass\ntry:\n  g()\nexcept E as e:  # c\n  pass\n";
    let p = parse(src).unwrap();
    let spans: Vec<&str> = p.body.iter().map(|s| text(src, s.span)).collect();
    assert_eq!(spans[0], "x, y = 1, 2");
    assert_eq!(spans[1], "if a:\n  pass\nelif b:\n  pass");
    assert_eq!(spans[2], "@d\ndef f(): pass");
    assert_eq!(spans[3], "try:\n  g()\nexcept E as e:  # c\n  pass");
    let StmtKind::Assign { targets, value } = &p.body[0].kind else {
        panic!()
    };
    assert_eq!(text(src, targets[0].span()), "x, y");
    assert_eq!(text(src, value.span), "1, 2");
    let StmtKind::If { orelse, .. } = &p.body[1].kind else {
        panic!()
    };
    assert_eq!(text(src, orelse[0].span), "elif b:\n  pass");
    let StmtKind::Try { handlers, .. } = &p.body[3].kind else {
        panic!()
    };
    assert_eq!(text(src, handlers[0].span), "except E as e:");
}

// ---------------------------------------------------------------- completeness

#[test]
fn completeness_of_repl_entries() {
    use Completeness::{Complete, Incomplete, Invalid};
    let cases = [
        ("x = [1,", Incomplete),
        ("x = [1,\n", Incomplete),
        ("x = [1,\n\n", Incomplete),
        ("print(tf.constant(\n  [1, 2]", Incomplete),
        ("def f(x):", Incomplete),
        ("def f(x):\n  return x\n", Incomplete),
        ("def f(x):\n  return x\n\n", Complete),
        ("def f(x):\n  return x\n  \n", Complete),
        ("def f(x):\n\n", Invalid),
        ("try:", Incomplete),
        ("try:\n  x\n", Incomplete),
        ("try:\n  x\n\n", Invalid),
        ("try:\n  x\nexcept ValueError as e:\n", Incomplete),
        ("try:\n  x\nexcept ValueError as e:\n  pass\n", Incomplete),
        ("try:\n  x\nexcept ValueError as e:\n  pass\n\n", Complete),
        ("if x:", Incomplete),
        ("if x: y", Incomplete),
        ("if x: y\n\n", Complete),
        ("if x:\n  y\nelse:", Incomplete),
        ("for w in ws:\n  print(w)\n", Incomplete),
        ("@tf.function", Incomplete),
        ("@tf.function\n", Incomplete),
        ("x ]", Invalid),
        ("1 + 2", Complete),
        ("1 +", Incomplete),
        ("1 +\n\n", Invalid),
        ("x = 1 + \\", Incomplete),
        ("x = 1 \\\n", Incomplete),
        ("s = '''abc", Incomplete),
        ("s = '''abc\n\n", Incomplete),
        ("'abc", Invalid),
        ("x = 1\n", Complete),
        ("", Complete),
        ("# comment", Complete),
        ("f(,", Invalid),
        ("def f(:", Invalid),
    ];
    for (src, want) in cases {
        assert_eq!(completeness(src), want, "source: {src:?}");
    }
}

#[test]
fn parse_expr_entry_point() {
    assert_eq!(ex("  a, b  "), "(tuple a b)");
    assert_eq!(ex("[1,\n 2]  # c"), "(list 1 2)");
    assert_eq!(parse_expr(" (a) ").unwrap().span, Span::new(1, 4));
    let e = parse_expr("").unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.incomplete),
        ("expected an expression", true)
    );
    assert_eq!(parse_expr("x = 1").unwrap_err().message, "unexpected `=`");
    assert_eq!(
        parse_expr("f(").unwrap_err().message,
        "expected `)` to close `(`"
    );
}

#[test]
fn large_data_literals_parse_like_small_ones() {
    // A literal over the bypass threshold (after `=`) and the same text where the bypass
    // does not apply (after the keyword `else`) give the same tree and spans.
    let rows: Vec<String> = (0..60)
        .map(|i| format!("[{i}, -{i}.5, 1e-3, 'r{i}', \"it's\"]"))
        .collect();
    let lit = format!("[{}, []]", rows.join(", "));
    assert!(lit.len() > 256);
    let hidden = parse(&format!("x = {lit}")).unwrap();
    let plain = parse(&format!("x = 0 if 0 else {lit}")).unwrap();
    let StmtKind::Assign { value: a, .. } = &hidden.body[0].kind else {
        panic!()
    };
    let StmtKind::Assign { value: b, .. } = &plain.body[0].kind else {
        panic!()
    };
    let ExprKind::IfElse { orelse, .. } = &b.kind else {
        panic!()
    };
    assert_eq!(expr_to_sexpr(a), expr_to_sexpr(orelse));
    assert_eq!(a.span.len(), orelse.span.len());
    // A subscript after a name is never mistaken for a literal.
    let idx = format!(
        "y[{}]",
        (0..200)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(parse(&idx).is_ok());
}

#[test]
fn augmented_assignments() {
    check_all(
        &[
            ("x += 1", "(+= x 1)"),
            ("x -= 1", "(-= x 1)"),
            ("x *= 2", "(*= x 2)"),
            ("x /= 2", "(/= x 2)"),
            ("x //= 2", "(//= x 2)"),
            ("x %= 2", "(%= x 2)"),
            ("x **= 2", "(**= x 2)"),
            ("x @= m", "(@= x m)"),
            ("x &= 1", "(&= x 1)"),
            ("x |= 1", "(|= x 1)"),
            ("x ^= 1", "(^= x 1)"),
            ("x <<= 1", "(<<= x 1)"),
            ("x >>= 1", "(>>= x 1)"),
            ("x += 1, 2", "(+= x (tuple 1 2))"),
            ("(x) += y if c else z", "(+= x (if c y z))"),
            ("s = 0; s += 1", "(= s 0)\n(+= s 1)"),
        ],
        sx,
    );
    check_all(
        &[
            ("x[0] += 1", "(+= (subscript x 0) 1)"),
            ("a.b -= 2", "(-= (. a b) 2)"),
        ],
        sx,
    );
    assert_eq!(err("1 += 1").kind, SyntaxErrorKind::CannotAssign);
}

#[test]
fn shift_operators() {
    check_all(
        &[
            ("1 << 2", "(<< 1 2)"),
            ("a >> b >> c", "(>> (>> a b) c)"),
            // Between `&` and `+`, as in Python.
            ("1 + 2 << 3", "(<< (+ 1 2) 3)"),
            ("a & b << c", "(& a (<< b c))"),
            ("a < b << c", "(< a (<< b c))"),
            ("a >= b >> c", "(>= a (>> b c))"),
        ],
        ex,
    );
}

#[test]
fn f_strings() {
    check_all(
        &[
            ("f'a{x}b'", r#"(f "a" (field x) "b")"#),
            (
                "f'{x!r:>{w}.2f}'",
                r#"(f (field x (conv r) (spec ">" (field w) ".2f")))"#,
            ),
            ("f'{x = }'", r#"(f (field x (debug "x = ")))"#),
            ("f'{x=:5}'", r#"(f (field x (debug "x=") (spec "5")))"#),
            (
                "f'{a == b}{a != b}{a <= b}'",
                "(f (field (== a b)) (field (!= a b)) (field (<= a b)))",
            ),
            ("f'{{}}{{x}}'", r#"(f "{}{x}")"#),
            ("'a' f'{x}' 'b'", r#"(f "a" (field x) "b")"#),
            ("f'{x, y}'", "(f (field (tuple x y)))"),
            ("f'{d[\"k\"]}'", r#"(f (field (subscript d "k")))"#),
            ("f'{f\"{x}\"}'", "(f (field (f (field x))))"),
            ("rf'\\n{x}'", r#"(f "\\n" (field x))"#),
            ("f'\\t{x}'", r#"(f "\t" (field x))"#),
            ("f'{ {1: 2}[1] }'", "(f (field (subscript (dict (1 2)) 1)))"),
            ("f'{lambda_}'", "(f (field lambda_))"),
            ("f''", "(f)"),
        ],
        ex,
    );
}

#[test]
fn f_string_spans_are_in_the_source() {
    let src = "y = f'ab{x + 1}'";
    let p = parse(src).unwrap();
    let StmtKind::Assign { value, .. } = &p.body[0].kind else {
        panic!("an assignment")
    };
    let ExprKind::FString(parts) = &value.kind else {
        panic!("an f-string")
    };
    let crate::ast::FPart::Field(f) = &parts[1] else {
        panic!("a field")
    };
    let ExprKind::Binary(_, a, b) = &f.expr.kind else {
        panic!("x + 1")
    };
    assert_eq!(&src[a.span.start..a.span.end], "x");
    assert_eq!(&src[b.span.start..b.span.end], "1");
    let e = err("y = f'{x +* 2}'");
    assert_eq!(&src[..0], "");
    assert!(e.span.start >= 8 && e.span.start <= 11, "{:?}", e.span);
}

#[test]
fn comprehensions_and_generator_expressions() {
    check_all(
        &[
            (
                "[(x, y) for x in a for y in b]",
                "(listcomp (tuple x y) (for x a) (for y b))",
            ),
            (
                "[x for x in a if x for y in x if y if z]",
                "(listcomp x (for x a) (if x) (for y x) (if y) (if z))",
            ),
            ("{k: v for k, v in d}", "(dictcomp k v (for (tuple k v) d))"),
            (
                "{k: 1 for k in a for j in k}",
                "(dictcomp k 1 (for k a) (for j k))",
            ),
            ("sum(x for x in xs)", "(call sum (genexp x (for x xs)))"),
            (
                "f(x * 2 for x in xs if x)",
                "(call f (genexp (* x 2) (for x xs) (if x)))",
            ),
            ("(x for x in xs)", "(genexp x (for x xs))"),
            (
                "list((a, b) for a, b in p)",
                "(call list (genexp (tuple a b) (for (tuple a b) p)))",
            ),
        ],
        ex,
    );
    // Python: "Generator expression must be parenthesized".
    assert!(parse("f(x for x in xs, 1)").is_err());
    assert!(parse("f(1, x for x in xs)").is_err());
    assert!(parse("f(*x for x in xs)").is_err());
}
