//! Interrupts inside long operations. The evaluator checks the session's cancel flag between
//! statements and calls; an operation over a hundred million elements checks it here, once
//! per [`CHUNK`] elements, so Ctrl-C (or a notebook's Interrupt) stops it within
//! milliseconds. The flag belongs to the evaluation thread (the guard module's `run` starts one
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

/// Folds `f` over `x` in order, a chunk at a time, failing with KeyboardInterrupt when an
/// interrupt is requested between chunks.
#[inline(always)]
pub fn fold<T: Copy, A>(x: &[T], init: A, mut f: impl FnMut(A, T) -> A) -> Result<A> {
    let mut acc = init;
    for chunk in x.chunks(CHUNK) {
        check()?;
        for &v in chunk {
            acc = f(acc, v);
        }
    }
    Ok(acc)
}

/// `f` of every element of `x`, a chunk at a time. When an interrupt is requested it stops
/// early and returns what it has: the caller must [`check`] before using the result (the
/// kernels do so once, on their way out).
#[inline(always)]
pub fn map<T: Copy, U>(x: &[T], f: impl Fn(T) -> U) -> Vec<U> {
    let mut out = Vec::new();
    // Where the allocator refuses, the vector grows as it goes instead.
    let _ = out.try_reserve_exact(x.len());
    for chunk in x.chunks(CHUNK) {
        if requested() {
            break;
        }
        out.extend(chunk.iter().map(|&v| f(v)));
    }
    out
}

/// `f` of `i` for every `i` in `0..n`, a chunk at a time; stops early like [`map`].
#[inline(always)]
pub fn map_range<U>(n: usize, f: impl Fn(usize) -> U) -> Vec<U> {
    let mut out = Vec::new();
    let _ = out.try_reserve_exact(n);
    let mut start = 0;
    while start < n && !requested() {
        let end = n.min(start + CHUNK);
        out.extend((start..end).map(&f));
        start = end;
    }
    out
}

/// `f` of every pair of elements of `x` and `y` (of equal length), a chunk at a time;
/// stops early like [`map`].
#[inline(always)]
pub fn zip_map<T: Copy, V: Copy, U>(x: &[T], y: &[V], f: impl Fn(T, V) -> U) -> Vec<U> {
    let mut out = Vec::new();
    let _ = out.try_reserve_exact(x.len().min(y.len()));
    for (a, b) in x.chunks(CHUNK).zip(y.chunks(CHUNK)) {
        if requested() {
            break;
        }
        out.extend(a.iter().zip(b).map(|(&p, &q)| f(p, q)));
    }
    out
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    #[test]
    fn a_set_flag_stops_chunked_work_and_no_flag_never_does() {
        watch(None);
        let x = vec![1u8; 3 * CHUNK];
        assert_eq!(map(&x, |v| v + 1).len(), x.len());
        assert_eq!(zip_map(&x, &x, |a, b| a + b).len(), x.len());
        assert_eq!(map_range(x.len(), |i| i).len(), x.len());
        assert!(check().is_ok());

        let flag = Arc::new(AtomicBool::new(false));
        watch(Some(flag.clone()));
        let mut seen = 0;
        let r = for_chunks(3 * CHUNK, |range| {
            seen += range.len();
            flag.store(true, Ordering::Relaxed);
        });
        assert_eq!(r.unwrap_err().class, ErrorClass::KeyboardInterrupt);
        assert_eq!(seen, CHUNK, "stops at the first look after the flag is set");
        assert!(map(&x, |v| v).is_empty());
        assert!(zip_map(&x, &x, |a, b| a + b).is_empty());
        assert!(map_range(x.len(), |i| i).is_empty());
        assert_eq!(check().unwrap_err().class, ErrorClass::KeyboardInterrupt);
        watch(None);
    }
}
