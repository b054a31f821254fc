//! The error catalogue: every error ragtag raises, generated from the error enums — the
//! Python and TensorFlow exception classes every layer raises ([`ExceptionClass`], the
//! engine's), the engine's typed errors ([`EngineError`], by code) and the kinds of syntax
//! error ([`SyntaxErrorKind`]) — each with when it happens and an input that raises it. `:help errors` shows [`text`];
//! docs/errors.snap.md is [`markdown`], the snapshot a test keeps in step (it also runs every
//! example).

use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::EngineError;
use ragtag_syntax::SyntaxErrorKind;

/// Examples longer than this are described instead of shown (the deep-nesting kinds).
const SHOWN_EXAMPLE: usize = 60;

/// An example as it reads in the catalogue: its lines, with tabs visible as `\t`; a long
/// generated example is cut and says how long it is.
fn example_lines(example: &str) -> Vec<String> {
    if example.len() > SHOWN_EXAMPLE {
        let head: String = example
            .chars()
            .take(24)
            .collect::<String>()
            .replace('\n', "⏎");
        return vec![format!("{head}… ({} characters)", example.len())];
    }
    example.lines().map(|l| l.replace('\t', "\\t")).collect()
}

/// How a class is written in code: TensorFlow's under `tf.errors.`.
fn qualified(c: ExceptionClass) -> String {
    if c.is_tf() {
        format!("tf.errors.{}", c.name())
    } else {
        c.name().to_string()
    }
}

fn depth(c: ExceptionClass) -> usize {
    std::iter::successors(c.parent(), |p| p.parent()).count()
}

/// The catalogue as `:help errors` prints it.
pub fn text() -> String {
    let mut out = String::from(
        "Errors, by class: an `except` clause catches its class and the ones indented under it.\n",
    );
    for c in ExceptionClass::ALL {
        let indent = format!("{:1$}", "", 2 * depth(c));
        out.push_str(&format!("\n{indent}{}: {}\n", qualified(c), c.summary()));
        let raises = if c.is_base() {
            "   (raises a subclass)"
        } else {
            ""
        };
        for (i, line) in example_lines(c.example()).iter().enumerate() {
            let lead = if i == 0 { "e.g. " } else { "     " };
            let tail = if i == 0 { raises } else { "" };
            out.push_str(&format!("{indent}    {lead}{line}{tail}\n"));
        }
    }
    out.push_str("\nThe engine's typed errors, by code [class]:\n");
    for (code, class, summary, example) in EngineError::CATALOGUE {
        out.push_str(&format!("\n  {code} [{}]: {summary}\n", qualified(class)));
        out.push_str(&format!("      e.g. {example}\n"));
    }
    out.push_str("\nSyntax errors, by kind (the class is SyntaxError unless named):\n");
    for k in SyntaxErrorKind::ALL {
        let class = match k.class_name() {
            "SyntaxError" => String::new(),
            other => format!(" [{other}]"),
        };
        out.push_str(&format!("\n  {k:?}{class}: {}\n", k.summary()));
        for (i, line) in example_lines(k.example()).iter().enumerate() {
            let lead = if i == 0 { "e.g. " } else { "     " };
            out.push_str(&format!("      {lead}{line}\n"));
        }
    }
    out
}

/// A Markdown table cell: pipes escaped, lines joined with `<br>`.
fn cell(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("`{}`", l.replace('|', "\\|")))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// The catalogue as docs/errors.snap.md holds it.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Errors\n\n\
         Generated from ragtag's error enums: this page is the snapshot that \
         `cargo test --test integration error_catalogue::` checks (`cargo insta review` takes \
         in a change), and the same tests run every example and check the class it raises. In \
         the REPL, `:help errors` shows this list.\n\n\
         ## Exception classes\n\n\
         An `except` clause catches its class and every class below it. A base class's \
         example raises one of its subclasses.\n\n\
         | class | when | example |\n|---|---|---|\n",
    );
    for c in ExceptionClass::ALL {
        let name = format!(
            "{}{}",
            (0..depth(c)).map(|_| "&nbsp;&nbsp;").collect::<String>(),
            qualified(c)
        );
        out.push_str(&format!(
            "| {name} | {} | {} |\n",
            c.summary().replace('|', "\\|"),
            cell(&example_lines(c.example()))
        ));
    }
    out.push_str(
        "\n## The engine's typed errors\n\nThe engine raises its common failures as typed \
         errors that carry what went wrong as data (`ragtag_engine::EngineError`); each has \
         a code and raises one class.\n\n\
         | code | class | when | example |\n|---|---|---|---|\n",
    );
    for (code, class, summary, example) in EngineError::CATALOGUE {
        out.push_str(&format!(
            "| {code} | {} | {} | {} |\n",
            qualified(class),
            summary.replace('|', "\\|"),
            cell(&example_lines(example))
        ));
    }
    out.push_str(
        "\n## Syntax errors\n\nEvery syntax error has one of these kinds; the class is \
         `SyntaxError` or, for indentation, the subclass Python raises.\n\n\
         | kind | class | when | example |\n|---|---|---|---|\n",
    );
    for k in SyntaxErrorKind::ALL {
        out.push_str(&format!(
            "| {k:?} | {} | {} | {} |\n",
            k.class_name(),
            k.summary().replace('|', "\\|"),
            cell(&example_lines(k.example()))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_listed_with_its_summary() {
        let text = text();
        let md = markdown();
        for c in ExceptionClass::ALL {
            assert!(
                text.contains(&format!("{}: {}", qualified(c), c.summary())),
                "{c}"
            );
            assert!(md.contains(c.summary()), "{c}");
        }
        for k in SyntaxErrorKind::ALL {
            assert!(text.contains(&format!("{k:?}")), "{k:?}");
            assert!(md.contains(&format!("| {k:?} |")), "{k:?}");
        }
        assert!(text.contains("\n      IndexError: "), "{text}");
        assert!(text.contains("e.g. f = lambda n: f(n)\n"), "{text}");
    }

    #[test]
    fn long_examples_are_described() {
        let long: String = std::iter::repeat_n('[', 200).collect();
        assert_eq!(
            example_lines(&long),
            vec![format!("{}… (200 characters)", &long[..24])]
        );
        assert_eq!(example_lines("if x:\n\ty"), vec!["if x:", "\\ty"]);
    }
}
