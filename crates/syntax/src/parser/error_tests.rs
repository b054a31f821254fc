//! Parser error tests: messages, spans and hints, limits, every error kind's example, and
//! bytes literal escapes.

use super::tests::{err, sx};
use super::*;

// ---------------------------------------------------------------- errors

#[test]
fn error_is_a_std_error_with_display() {
    let e = err("x = )");
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), "unexpected `)`");
    assert_eq!(
        e.hint.as_deref(),
        Some("there is no open bracket for it to close")
    );
    let source: miette::SourceSpan = e.span.into();
    assert_eq!((source.offset(), source.len()), (4, 1));
    let e = err("x = 1 foo");
    assert_eq!(e.span, Span::new(6, 9), "a word is underlined whole");
    assert_eq!(
        e.hint.as_deref(),
        Some("perhaps a `,` or an operator is missing before it")
    );
}

#[test]
fn error_unclosed_bracket() {
    let e = err("x = (1, 2");
    assert_eq!(e.message, "expected `)` to close `(`");
    assert_eq!(e.span, Span::new(4, 5));
    assert!(e.incomplete);
    assert_eq!(e.to_string(), e.message);
}

#[test]
fn error_missing_operand() {
    let e = err("1 +");
    assert_eq!(e.message, "expected an expression");
    assert_eq!(e.span, Span::new(3, 3));
    assert!(e.incomplete);
    let e = err("1 + * 2");
    assert_eq!(e.message, "expected an expression, found `*`");
    assert_eq!(e.span, Span::new(4, 5));
    assert!(!e.incomplete);
}

#[test]
fn error_unexpected_closer() {
    let e = err("x ]");
    assert_eq!(e.message, "unexpected `]`");
    assert_eq!(e.span, Span::new(2, 3));
    assert!(!e.incomplete);
    let e = err("(1, 2]");
    assert_eq!(e.message, "expected `)` to close `(`, found `]`");
    assert_eq!(e.span, Span::new(5, 6));
    assert_eq!(
        e.hint.as_deref(),
        Some("the `(` is opened at line 1, column 1")
    );
}

#[test]
fn error_empty_argument() {
    let e = err("f(,)");
    assert_eq!(e.message, "expected an expression or `)`, found `,`");
    assert_eq!(e.span, Span::new(2, 3));
    assert!(!e.incomplete);
}

#[test]
fn error_bad_parameter_list() {
    let e = err("def f(:");
    assert_eq!(e.message, "expected a parameter name or `)`, found `:`");
    assert_eq!(e.span, Span::new(6, 7));
    assert!(!e.incomplete);
}

#[test]
fn error_messages_for_common_mistakes() {
    let cases = [
        ("x = 1 2", "unexpected `2`", 6),
        ("f(a b)", "expected `,` or `)`, found `b`", 4),
        ("if x y:\n  pass", "expected `:`, found `y`", 5),
        ("[x for x in xs y]", "expected `for` or `]`, found `y`", 15),
        ("x = = 1", "expected an expression, found `=`", 4),
        ("x[]", "expected an index, found `]`", 2),
        ("for x y: pass", "expected `in` or `,`, found `y`", 6),
        ("x = 1;;", "expected a statement, found `;`", 6),
        ("print 'a'", "unexpected string", 6),
        ("except: pass", "unexpected `except`", 0),
        ("async def f(): pass", "`async` is not supported", 0),
        (
            "a, b += 1",
            "'tuple' is an illegal expression for augmented assignment",
            0,
        ),
        ("f() = 1", "cannot assign to a function call", 0),
        ("1 = x", "cannot assign to a literal", 0),
        ("x = 0b2", "invalid digit '2' in binary literal", 4),
        ("x = 09", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", 4),
        ("x = 1__0", "invalid decimal literal", 4),
        ("x = 0x", "invalid hexadecimal literal", 4),
        ("x = '\\x4'", "invalid `\\x` escape in string literal", 4),
        ("f'{}'", "f-string: empty expression not allowed", 3),
        ("x = f'a}'", "f-string: single '}' is not allowed", 7),
        ("f'{x'", "f-string: expecting '}'", 4),
        (
            "f'{x!z}'",
            "f-string: invalid conversion character: expected 's', 'r', or 'a'",
            5,
        ),
        (
            r#"f'{"\n".join(x)}'"#,
            "f-string expression part cannot include a backslash",
            4,
        ),
        (
            "f'{x + }'",
            "expected an expression, found the end of the field",
            7,
        ),
        ("x = 'abc", "unterminated string literal", 4),
        (
            "f(x=1, 2)",
            "positional argument follows keyword argument",
            7,
        ),
        ("f(x=1, x=2)", "keyword argument repeated: `x`", 7),
        (
            "def f(a, a): pass",
            "duplicate argument 'a' in function definition",
            9,
        ),
        (
            "lambda x=1, y: x",
            "non-default argument follows default argument",
            12,
        ),
        ("x = 1\n  y = 2", "unexpected indent", 8),
        (
            "if x:\n    a\n  b",
            "unindent does not match any outer indentation level",
            14,
        ),
        ("if x:\ny", "expected an indented block", 6),
        (
            "if x:\n\ta\n        b",
            "inconsistent use of tabs and spaces in indentation",
            17,
        ),
        (
            "try:\n  x\ny = 1",
            "expected `except` or `finally`, found `y`",
            9,
        ),
        ("def f", "expected `(`", 5),
        ("1 if x", "expected `else`", 6),
        ("x = 1.5e", "invalid decimal literal", 6),
    ];
    for (src, message, at) in cases {
        let e = err(src);
        assert_eq!(
            (e.message.as_str(), e.span.start),
            (message, at),
            "source: {src:?}"
        );
    }
}

#[test]
fn error_messages_never_name_grammar_rules() {
    let rules: Vec<String> = Rule::all_rules().iter().map(|r| format!("{r:?}")).collect();
    let bad = [
        "1 +",
        "f(,)",
        "def f(:",
        "x = (1, 2",
        "x ]",
        "(",
        "[1 2]",
        "x.",
        "a[",
        "lambda",
        "lambda x",
        "if",
        "if x",
        "for",
        "for x in",
        "try",
        "try:",
        "def",
        "def f(",
        "import",
        "from",
        "from x import",
        "@",
        "x = [1, 2\ny = 3",
        "return return",
        "{1:",
        "{1: 2 3}",
        "x[1:2:3:4]",
        "f(**)",
        "a if b",
        "not",
        "x = 1 +\n",
        "\tx",
        "@d\nx = 1",
        "x y z",
        "1 2",
        "'a' 'b' c",
    ];
    for src in bad {
        let Err(e) = parse(src) else {
            panic!("{src:?} parsed")
        };
        let outside_ticks: String = e
            .message
            .split('`')
            .step_by(2)
            .collect::<Vec<_>>()
            .join(" ");
        for word in outside_ticks.split(|c: char| !c.is_alphanumeric() && c != '_') {
            let english = ["expression", "name", "statement", "block", "indent"].contains(&word);
            assert!(
                english || !rules.contains(&word.to_owned()),
                "{src:?}: {}",
                e.message
            );
        }
        assert!(
            e.span.end <= src.len() && e.span.start <= e.span.end,
            "{src:?}: {:?}",
            e.span
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let ok = format!("{}1{}", "[".repeat(90), "]".repeat(90));
    assert!(parse(&ok).is_ok());
    let e = err(&format!("x = {}1{}", "(".repeat(150), ")".repeat(150)));
    assert_eq!(e.message, "too many nested brackets");
    let e = err(&format!("f = {}0", "lambda: ".repeat(150)));
    assert_eq!(e.message, "expression nested too deeply");
    let e = err(&format!("x = 1{}", " + 1".repeat(600)));
    assert!(
        e.message.starts_with("expression too long"),
        "{}",
        e.message
    );
    assert!(parse(&format!("x = 1{}", " + 1".repeat(150))).is_ok());
    let e = err(&format!("x = {}1", "-".repeat(1000)));
    assert!(
        e.message.starts_with("expression too long"),
        "{}",
        e.message
    );
    let e = err(&format!("x{}", "[0]".repeat(1000)));
    assert!(
        e.message.starts_with("expression too long"),
        "{}",
        e.message
    );
}

// ---------------------------------------------------------------- error kinds

#[test]
fn every_error_kind_example_raises_that_kind() {
    for kind in SyntaxErrorKind::ALL {
        let e = err(kind.example());
        assert_eq!(
            e.kind,
            kind,
            "{:?} gave {:?}: {}",
            kind.example(),
            e.kind,
            e
        );
        assert!(!kind.summary().is_empty() && !kind.summary().ends_with('.'));
        assert!(matches!(
            kind.class_name(),
            "SyntaxError" | "IndentationError" | "TabError"
        ));
    }
}

#[test]
fn error_kinds_are_listed_once() {
    let mut seen = std::collections::HashSet::new();
    for kind in SyntaxErrorKind::ALL {
        assert!(seen.insert(kind), "{kind:?} is listed twice");
    }
    // Python's classes for the indentation errors.
    assert_eq!(
        SyntaxErrorKind::UnexpectedIndent.class_name(),
        "IndentationError"
    );
    assert_eq!(SyntaxErrorKind::InconsistentTabs.class_name(), "TabError");
    assert_eq!(SyntaxErrorKind::UnclosedBracket.class_name(), "SyntaxError");
}

#[test]
fn bytes_literal_escapes_are_bytes() {
    use super::convert::{string_literal, unescape};
    // `\xNN` and octal escapes are one byte each in a bytes literal, a character in a string.
    assert_eq!(unescape(r"\xff", true), Ok(vec![0xFF]));
    assert_eq!(unescape(r"\xff", false), Ok("ÿ".as_bytes().to_vec()));
    assert_eq!(
        unescape(r"a\x00\377\777", true),
        Ok(vec![b'a', 0, 0xFF, 0xFF])
    );
    assert_eq!(unescape(r"\377", false), Ok("ÿ".as_bytes().to_vec()));
    // `\u` and `\U` are not escapes in bytes (Python keeps them as written).
    assert_eq!(unescape(r"\u00e9", true), Ok(br"\u00e9".to_vec()));
    assert_eq!(unescape(r"\u00e9", false), Ok("é".as_bytes().to_vec()));
    assert!(unescape(r"\x4", true).is_err());
    // Escaped UTF-8 sequences make the text they encode (as a data block's strings).
    let span = Span::new(0, 0);
    assert_eq!(string_literal(r"b'\xc3\xa9'", span), Ok("é".to_owned()));
    assert_eq!(string_literal(r"B'\x41\102'", span), Ok("AB".to_owned()));
    assert_eq!(string_literal(r"'\xc3\xa9'", span), Ok("Ã©".to_owned()));
    assert_eq!(string_literal(r"rb'\xff'", span), Ok(r"\xff".to_owned()));
    // A bytes literal is its own value; any bytes, adjacent ones joined.
    assert_eq!(sx(r"b'\xe6\x97\xa5'"), "b\"日\"");
    assert_eq!(sx(r"b'a' rb'\n'"), "b\"a\\\\n\"");
    // CPython's two errors: a non-ASCII character, and bytes next to a str.
    let e = err("x = b'é'");
    assert_eq!(e.kind, SyntaxErrorKind::NonUtf8Bytes);
    assert_eq!(e.message, "bytes can only contain ASCII literal characters");
    let e = err("x = b'a' 'b'");
    assert_eq!(e.message, "cannot mix bytes and nonbytes literals");
}
