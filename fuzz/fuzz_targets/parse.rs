//! The parser on any text: it parses or reports a SyntaxError, and the REPL's completeness
//! check answers — never a panic, a stack overflow or a hang (libFuzzer's -timeout flags a
//! slow input as a crash). It runs on the fuzzer's own thread, not the evaluation stack, so
//! it also checks that the parser's nesting limit keeps it within an ordinary stack.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = ragtag::syntax::parse(src);
    let _ = ragtag::syntax::completeness(src);
    if let Ok(program) = parsed {
        let _ = ragtag::syntax::program_to_sexpr(&program);
    }
});
