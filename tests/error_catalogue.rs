//! The error catalogue is generated and true: its page, docs/errors.snap.md, is exactly what
//! the error enums generate (an insta snapshot: `cargo insta review` shows a change), `:help
//! errors` shows the same entries, and every example in it, run in a fresh session, raises
//! the class the catalogue names.

use std::path::Path;

use ragtag::engine::ExceptionClass;
use ragtag::session::{Collect, Session};
use ragtag::syntax::SyntaxErrorKind;

/// The error `src` raises in a fresh session: its class name and message.
#[track_caller]
fn raised(src: &str) -> (String, String) {
    let mut session = Session::new();
    let mut sink = Collect::default();
    match session.execute(src, &mut sink) {
        Err(e) => (e.class.name().to_string(), e.message.clone()),
        Ok(()) => panic!("`{src}` raised nothing"),
    }
}

/// The page is a binary snapshot, so that it stays a Markdown file to read:
/// docs/errors.snap.md, beside insta's metadata in docs/errors.snap.
#[test]
fn the_docs_page_is_the_generated_catalogue() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        let page = ragtag::eval::catalogue::markdown();
        insta::assert_binary_snapshot!("errors.md", page.into_bytes());
    });
}

#[test]
fn help_errors_shows_the_catalogue() {
    let mut session = Session::new();
    let mut sink = Collect::default();
    let shown = match ragtag::command::run(&mut session, ":help errors", &mut sink).unwrap() {
        ragtag::command::Outcome::Text(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(shown, ragtag::eval::catalogue::text());
    for c in ExceptionClass::ALL {
        assert!(shown.contains(c.summary()), "{c}: {shown}");
    }
    for k in SyntaxErrorKind::ALL {
        assert!(shown.contains(&format!("{k:?}")), "{k:?}");
    }
}

#[test]
fn every_exception_class_example_raises_it() {
    for c in ExceptionClass::ALL {
        let (got, message) = raised(c.example());
        let got = ExceptionClass::from_name(&got).unwrap();
        if c.is_base() {
            assert!(
                c.catches(got) && got != c,
                "{c}: `{}` raised {got}",
                c.example()
            );
        } else {
            assert_eq!(got, c, "`{}`: {message}", c.example());
        }
    }
}

#[test]
fn every_engine_error_example_raises_its_code_and_class() {
    let mut codes = std::collections::BTreeSet::new();
    for (code, class, _, example) in ragtag::engine::EngineError::CATALOGUE {
        assert!(codes.insert(code), "{code} is listed twice");
        let mut session = Session::new();
        let mut sink = Collect::default();
        let e = session.execute(example, &mut sink).unwrap_err();
        let kind = e
            .kind
            .as_deref()
            .unwrap_or_else(|| panic!("`{example}`: untyped {e:?}"));
        assert_eq!(kind.code(), code, "`{example}`: {}", e.message);
        assert_eq!(kind.class(), class, "{code}");
        assert_eq!(e.class, class, "`{example}`: {}", e.message);
        assert_eq!(e.message, kind.to_string(), "{code}");
    }
}

#[test]
fn every_syntax_kind_example_raises_its_class() {
    for k in SyntaxErrorKind::ALL {
        let (got, message) = raised(k.example());
        assert_eq!(got, k.class_name(), "{k:?}: {message}");
    }
}
