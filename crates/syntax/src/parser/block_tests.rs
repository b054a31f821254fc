//! The data-block scanner against the grammar: random list literals (small ones the grammar
//! hands to the scanner, large ones hidden from it) parse to the same literal, with the same
//! span, or fail with the same error at the same place, either way.

use std::sync::atomic::AtomicBool;

use super::data_blocks::GRAMMAR_ONLY;
use super::*;
use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::random::Pcg;

/// Parses `src` on this thread, through the scanner or (with `grammar`) the grammar alone.
fn parse_with(src: &str, grammar: bool) -> Result<Program, SyntaxError> {
    GRAMMAR_ONLY.with(|g| g.set(grammar));
    let cancel = AtomicBool::new(false);
    let out = match clean(src, true, &cancel) {
        Ok(cleaned) => convert_program(src, &cleaned, &cancel),
        Err(Interrupted) => Err(ParseError::Interrupted),
    };
    GRAMMAR_ONLY.with(|g| g.set(false));
    out.map_err(|e| match e {
        ParseError::Syntax(e) => e,
        ParseError::Interrupted => panic!("nothing interrupts"),
    })
}

/// The literal an expression denotes, as evaluation reads a list display of literals.
fn literal(e: &Expr) -> Option<Nested> {
    Some(match &e.kind {
        ExprKind::Data(n) => n.tree().clone(),
        ExprKind::List(items) => Nested::List(items.iter().map(literal).collect::<Option<_>>()?),
        ExprKind::Int(i) => Nested::Leaf(Leaf::Int(*i)),
        ExprKind::Float(f) => Nested::Leaf(Leaf::Float(*f)),
        ExprKind::Str(s) => Nested::Leaf(Leaf::Str(s.as_bytes().to_vec())),
        ExprKind::Unary(UnaryOp::Neg, x) => match &x.kind {
            ExprKind::Int(i) => Nested::Leaf(Leaf::Int(-*i)),
            ExprKind::Float(f) => Nested::Leaf(Leaf::Float(-*f)),
            _ => return None,
        },
        _ => return None,
    })
}

/// The literal (and its span) that `src`'s first statement assigns or shows.
fn outcome(src: &str, grammar: bool) -> Result<(Option<Nested>, Span), (SyntaxErrorKind, Span)> {
    let mut p = parse_with(src, grammar).map_err(|e| (e.kind, e.span))?;
    let e = match p.body.remove(0).kind {
        StmtKind::Expr(e) => e,
        StmtKind::Assign { value, .. } => value,
        other => panic!("{src:?} is {other:?}"),
    };
    let e = match e.kind {
        ExprKind::Call(_, mut args) => args.remove(0).value,
        _ => e,
    };
    Ok((literal(&e), e.span))
}

const LEAVES: &[&str] = &[
    "0",
    "7",
    "-3",
    "12345678901",
    "9223372036854775807",
    "-9223372036854775807",
    "99999999999999999999",
    "1.5",
    "-0.25",
    ".5",
    "3.",
    "1e3",
    "2.5E-3",
    "-1e+2",
    "0x1f",
    "1_000",
    "0_0",
    "'a'",
    "\"b c\"",
    "'\\n\\t'",
    "'é'",
    "\"q\\\"x\"",
    "''",
    "'''t'''",
    "r'\\d'",
    "b'x'",
    "'\\x41'",
    "'\\N{BULLET}'",
    "'\\q'",
    "1e999",
    "0.1e-400",
];

fn random_literal(rng: &mut Pcg, depth: u32, out: &mut String) {
    let pick = |rng: &mut Pcg, n: usize| rng.next_u32() as usize % n;
    if depth == 0 || pick(rng, 3) == 0 {
        out.push_str(LEAVES[pick(rng, LEAVES.len())]);
        return;
    }
    out.push('[');
    // Sometimes long enough that the block is hidden from the grammar (256 bytes or more).
    let n = if pick(rng, 8) == 0 {
        40 + pick(rng, 60)
    } else {
        pick(rng, 6)
    };
    for i in 0..n {
        if i > 0 {
            out.push_str([",", ", ", " ,  "][pick(rng, 3)]);
        }
        random_literal(rng, depth - 1, out);
    }
    if n > 0 && pick(rng, 4) == 0 {
        out.push(',');
    }
    out.push(']');
}

#[test]
fn the_scanner_and_the_grammar_agree_on_random_literals() {
    let mut rng = Pcg::new(14);
    let mut scanned = 0;
    for case in 0..400 {
        let mut lit = String::new();
        let depth = 1 + rng.next_u32() % 4;
        random_literal(&mut rng, depth, &mut lit);
        let src = match case % 3 {
            0 => lit.clone(),
            1 => format!("x = {lit}"),
            _ => format!("f({lit}, 1)"),
        };
        let fast = outcome(&src, false);
        let slow = outcome(&src, true);
        assert_eq!(fast, slow, "source: {src}");
        let p = parse_with(&src, false);
        if format!("{p:?}").contains("Data(") {
            scanned += 1;
        }
    }
    // Most literals really went through the scanner.
    assert!(scanned > 130, "only {scanned} scanned");
}

#[test]
fn a_data_block_is_one_node_printed_as_its_list() {
    let src = "[[1, -2.5, 'a'], [], [-0.0, 7]]";
    let p = parse_with(src, false).unwrap();
    let StmtKind::Expr(e) = &p.body[0].kind else {
        panic!("an expression")
    };
    assert!(matches!(e.kind, ExprKind::Data(_)), "{e:?}");
    assert_eq!(e.span, Span::new(0, src.len()));
    assert_eq!(
        crate::sexpr::expr_to_sexpr(e),
        "(list (list 1 (- 2.5) \"a\") (list) (list (- 0.0) 7))"
    );
    let slow = parse_with(src, true).unwrap();
    assert_eq!(
        crate::sexpr::program_to_sexpr(&slow),
        crate::sexpr::program_to_sexpr(&p)
    );
}

/// A regular block: `depth` levels of lists of random lengths, every scalar an int (of
/// any size), or every scalar a float.
fn regular_literal(rng: &mut Pcg, depth: u32, floats: bool, out: &mut String) {
    out.push('[');
    let n = rng.next_u32() % 9;
    for i in 0..n {
        if i > 0 {
            out.push_str([",", ", ", " ,  "][rng.next_u32() as usize % 3]);
        }
        if depth > 1 {
            regular_literal(rng, depth - 1, floats, out);
            continue;
        }
        let r = rng.next_u32();
        match (floats, r % 5) {
            (true, 0) => out.push_str(&format!("{}e-3", r % 5000)),
            (true, _) => out.push_str(&format!("-{}.{}", r % 100, r % 7)),
            (false, 0) => out.push_str(&format!("{}", u64::from(r) << 24)),
            (false, 1) => out.push_str(&format!("-{}", r % 3000)),
            (false, _) => out.push_str(&format!("{}", r % 1000)),
        }
    }
    out.push(']');
}

#[test]
fn regular_blocks_are_read_into_columns_that_convert_as_their_tree_does() {
    use ragtag_engine::literal::nested_to_array;
    use ragtag_engine::literal::ragged_constant;
    let mut rng = Pcg::new(23);
    let mut columns = 0;
    for case in 0..300 {
        let mut lit = String::from("[");
        let depth = 1 + rng.next_u32() % 3;
        let floats = case % 3 == 0;
        while lit.len() < 300 {
            if lit.len() > 1 {
                lit.push_str(", ");
            }
            regular_literal(&mut rng, depth, floats, &mut lit);
        }
        lit.push(']');
        let src = format!("x = {lit}");
        let fast = outcome(&src, false);
        assert_eq!(fast, outcome(&src, true), "source: {src}");
        let p = parse_with(&src, false).unwrap();
        let StmtKind::Assign { value, .. } = &p.body[0].kind else {
            panic!("an assignment")
        };
        let ExprKind::Data(data) = &value.kind else {
            panic!("a data block: {src}")
        };
        let Some(c) = data.columns() else {
            continue;
        };
        columns += 1;
        let tree = fast.unwrap().0.unwrap();
        assert_eq!(
            c.to_ragged().ok(),
            ragged_constant(&tree, None, None, None).ok(),
            "{src}"
        );
        let from_columns = c.to_array(None, ragtag_engine::literal::Flavor::TensorFlow);
        if let Some(a) = from_columns {
            assert_eq!(a.ok(), nested_to_array(&tree, None).ok(), "{src}");
        }
    }
    // Blocks without a scalar (only empty lists) are read as trees.
    assert!(columns > 250, "only {columns} read into columns");
}
