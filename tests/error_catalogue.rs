//! The error catalogue is generated and true: docs/errors.md is exactly what the error enums
//! generate (`RAGTAG_BLESS=1` rewrites it), `:help errors` shows the same entries, and every
//! example in it, run in a fresh session, raises the class the catalogue names.

use ragtag::engine::ExceptionClass;
use ragtag::session::{Collect, Session};
use ragtag::syntax::SyntaxErrorKind;

/// The error `src` raises in a fresh session: its class name and message.
#[track_caller]
fn raised(src: &str) -> (String, String) {
    let mut session = Session::new();
    let mut sink = Collect::default();
    match session.execute(src, &mut sink) {
        Err(e) => (e.class.name().to_string(), e.message),
        Ok(()) => panic!("`{src}` raised nothing"),
    }
}

#[test]
fn the_docs_page_is_the_generated_catalogue() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/errors.md");
    let want = ragtag::eval::catalogue::markdown();
    if std::env::var_os("RAGTAG_BLESS").is_some() {
        std::fs::create_dir_all(concat!(env!("CARGO_MANIFEST_DIR"), "/docs")).unwrap();
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/errors.md is out of date: run `RAGTAG_BLESS=1 cargo test --test integration error_catalogue::`"
    );
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
fn every_syntax_kind_example_raises_its_class() {
    for k in SyntaxErrorKind::ALL {
        let (got, message) = raised(k.example());
        assert_eq!(got, k.class_name(), "{k:?}: {message}");
    }
}
