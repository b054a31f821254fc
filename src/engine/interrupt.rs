//! Interrupts inside long operations. The evaluator checks the session's cancel flag between
//! statements and calls; an operation over a hundred million elements checks it here, once
//! per [`CHUNK`] elements, so Ctrl-C (or a notebook's Interrupt) stops it within
//! milliseconds. The flag belongs to the evaluation thread ([`crate::guard::run`] starts one
//! per input), so the engine needs no handle to the session.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::error::{EngineError, ErrorClass, Result};

/// How many elements an operation processes between two looks at the flag: small enough
/// that the slowest per-element work (a string format, a transcendental function) takes well
/// under a millisecond per chunk, large enough that the look costs nothing.
pub const CHUNK: usize = 1 << 15;

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Makes `flag` the one this thread's operations watch (`None`: nothing interrupts them).
pub fn watch(flag: Option<Arc<AtomicBool>>) {
    FLAG.with(|f| *f.borrow_mut() = flag);
}

/// Whether the user asked the running input to stop.
pub fn requested() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// Fails with KeyboardInterrupt when the user asked the running input to stop.
pub fn check() -> Result<()> {
    if requested() {
        return Err(interrupted());
    }
    Ok(())
}

/// The error an interrupted operation returns.
pub fn interrupted() -> EngineError {
    EngineError::new(ErrorClass::KeyboardInterrupt, "interrupted").with_hint(
        "the interrupted statement assigned nothing; earlier statements keep their effects",
    )
}

/// Calls `f` on consecutive ranges of `0..n` of at most [`CHUNK`] indices, checking for an
/// interrupt before each.
pub fn for_chunks(n: usize, mut f: impl FnMut(std::ops::Range<usize>)) -> Result<()> {
    let mut start = 0;
    while start < n {
        check()?;
        let end = n.min(start + CHUNK);
        f(start..end);
        start = end;
    }
    Ok(())
}

/// `out` extended with `f` of every element of `x`, a chunk at a time, checking for an
/// interrupt between chunks. `out` should already have room for `x.len()` more elements.
pub fn extend_map<T: Copy, U>(out: &mut Vec<U>, x: &[T], f: impl Fn(T) -> U) -> Result<()> {
    for chunk in x.chunks(CHUNK) {
        check()?;
        out.extend(chunk.iter().map(|&v| f(v)));
    }
    Ok(())
}

/// `out` extended with `f` of every pair of elements of `x` and `y` (of equal length), a
/// chunk at a time, checking for an interrupt between chunks.
pub fn extend_zip<T: Copy, V: Copy, U>(
    out: &mut Vec<U>,
    x: &[T],
    y: &[V],
    f: impl Fn(T, V) -> U,
) -> Result<()> {
    for (a, b) in x.chunks(CHUNK).zip(y.chunks(CHUNK)) {
        check()?;
        out.extend(a.iter().zip(b).map(|(&p, &q)| f(p, q)));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    #[test]
    fn a_set_flag_stops_chunked_work_and_no_flag_never_does() {
        watch(None);
        let x = vec![1u8; 3 * CHUNK];
        let mut out = Vec::new();
        extend_map(&mut out, &x, |v| v + 1).unwrap();
        assert_eq!(out.len(), x.len());

        let flag = Arc::new(AtomicBool::new(false));
        watch(Some(flag.clone()));
        let mut seen = 0;
        let r = for_chunks(3 * CHUNK, |range| {
            seen += range.len();
            flag.store(true, Ordering::Relaxed);
        });
        assert_eq!(r.unwrap_err().class, ErrorClass::KeyboardInterrupt);
        assert_eq!(seen, CHUNK, "stops at the first look after the flag is set");
        let mut out = Vec::new();
        assert!(extend_zip(&mut out, &x, &x, |a, b| a + b).is_err());
        assert!(out.is_empty());
        watch(None);
    }
}
