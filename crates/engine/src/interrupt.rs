//! Interrupts inside long operations. The evaluator checks the session's cancel flag between
//! statements and calls; an operation over a hundred million elements checks it here, once
//! per [`CHUNK`] elements, so Ctrl-C (or a notebook's Interrupt) stops it within
//! milliseconds. The flag belongs to the evaluation thread (the guard module's `run` starts one
//! per input), so the engine needs no handle to the session.

use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use super::error::Result;

use crate::exceptions::{Exception, ExceptionClass};

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

/// The flag this thread watches, to hand to worker threads (which watch none of their
/// own): they look at it with [`is_set`].
pub fn current() -> Option<Arc<AtomicBool>> {
    FLAG.with(|f| f.borrow().clone())
}

/// Whether `flag` (from [`current`]) is set.
#[inline]
pub fn is_set(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Whether the user asked the running input to stop.
#[inline]
pub fn requested() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// Fails with KeyboardInterrupt when the user asked the running input to stop.
#[inline]
pub fn check() -> Result<()> {
    if requested() {
        return Err(interrupted());
    }
    Ok(())
}

/// The error an interrupted operation returns.
pub fn interrupted() -> Exception {
    Exception::new(ExceptionClass::KeyboardInterrupt, "interrupted").with_hint(
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

/// The size from which the elementwise kernels split their work across rayon's threads:
/// below it one thread is as fast (a split and a join cost microseconds). Measured with
/// `cargo bench --bench engine -- threshold` (an int64 add of a scalar, best of 20, pools of
/// 1 and 2 threads) on the quiet 2-core development machine, twice: up to 2^16 elements the
/// two take the same time (2^16: 29.2 vs 28.9 us, 29.9 vs 31.4 us); at 2^17 two threads win
/// (70.8 vs 39.0 us, 76.0 vs 39.4 us), at 2^20 by 2x (704 vs 355 us); from 2^22 the output's
/// page faults narrow the gap (2^23: 30.1 vs 18.8 ms). While other builds kept the load
/// average at 6 to 8, two threads won nowhere reliably (the second core was taken).
pub const PARALLEL_MIN: usize = 1 << 17;

/// Appends a copy of `src` to `out`: one `memcpy` below [`PARALLEL_MIN`] elements, split
/// across rayon's threads above it (a large concat is bound by one core's copy rate, and the
/// second core nearly doubles it). Not interruptible: a copy runs at memory speed.
pub fn extend_copy<T: Copy + Send + Sync>(out: &mut Vec<T>, src: &[T]) {
    if src.len() < PARALLEL_MIN {
        out.extend_from_slice(src);
        return;
    }
    let _ = out.try_reserve_exact(src.len());
    out.par_extend(src.par_iter().with_min_len(CHUNK).copied());
}

/// This thread's interrupt flag, for workers on other threads (the flag is thread-local).
fn flag() -> Option<Arc<AtomicBool>> {
    FLAG.with(|f| f.borrow().clone())
}

/// Whether `flag` (a copy of this thread's, see [`flag`]) is set.
fn raised(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Elements per block of [`fill_blocks`]: a block is built on the stack (256 bytes to
/// 1 KiB) and copied into place.
const BLOCK: usize = 64;

/// A vector of `n` elements, each written once and in place by `body(start, slots)`, where
/// `slots` are the vector's `start..start + slots.len()`, in chunks of [`CHUNK`] on every
/// core, unless an interrupt is requested (then `None`). `body` must write every slot it is
/// given: the callers below are its only users, and each writes its slots in a loop over the
/// whole slice.
///
/// This is the engine's one piece of `unsafe`: a measured kernel needs it. The output is
/// written straight into the vector's reserved space, which leaves `set_len` to say it is
/// initialised. Every safe alternative costs a second pass over the output's memory, and
/// with it a third to a half more time on a large add: a zero fill overwritten later, or
/// blocks built on the stack and copied into place (rayon moves each collected item by
/// value). A vector of 10^7 int64 added to itself on two cores (mimalloc, best of 48 runs on
/// a loaded machine): written in place 0.0178 s (rayon's own collect, compiled per closure,
/// 0.0163 s), blocks copied into place 0.0395 s, each block zeroed in place then written
/// 0.0268 s.
///
/// The kernels' closures reach rayon only through this one function per element type:
/// rayon's scheduling code, compiled once per closure type otherwise, was most of the
/// engine's machine code.
#[allow(unsafe_code)]
fn fill_parallel<U: Copy + Send + Sync>(
    n: usize,
    body: &(dyn Fn(usize, &mut [MaybeUninit<U>]) + Sync),
) -> Option<Vec<U>> {
    let flag = flag();
    let mut out: Vec<U> = Vec::new();
    // The output has as many elements as an input that exists (the sequential paths reserve
    // the same); rayon's collect, used here before, reserved it the same way.
    #[allow(clippy::disallowed_methods)]
    out.reserve_exact(n);
    // Set by any chunk left unwritten because an interrupt came first.
    let skipped = AtomicBool::new(false);
    out.spare_capacity_mut()[..n]
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(i, slots)| {
            if raised(&flag) {
                skipped.store(true, Ordering::Relaxed);
            } else {
                body(i * CHUNK, slots);
            }
        });
    if skipped.load(Ordering::Relaxed) {
        return None;
    }
    // SAFETY: the chunks cover `0..n` (the first `n` slots of a capacity of at least `n`),
    // `for_each` has returned, so every chunk ran, none was skipped, and each body wrote
    // every slot it was given (see above). A panic in a body propagates before this line and
    // drops the vector with its length still 0.
    unsafe { out.set_len(n) };
    Some(out)
}

/// A vector of `n` elements written by `body(start, block)` for consecutive blocks of at
/// most 64 elements (`block` is the output's `start..start + block.len()`), each written
/// once: on every core from [`PARALLEL_MIN`] elements, one block at a time below it. For
/// kernels whose output is runs (a padding's border and copied rows, a counting sort's runs
/// of equal values) rather than a function of one input element. Stops early like [`map`]
/// (then the vector is short; the caller must [`check`]).
pub fn fill_blocks<U: Copy + Default + Send + Sync>(
    n: usize,
    body: &(dyn Fn(usize, &mut [U]) + Sync),
) -> Vec<U> {
    if n >= PARALLEL_MIN {
        if requested() {
            return Vec::new();
        }
        return fill_parallel(n, &|start, slots| {
            let mut block = [U::default(); BLOCK];
            for (k, dst) in slots.chunks_mut(BLOCK).enumerate() {
                let block = &mut block[..dst.len()];
                body(start + k * BLOCK, block);
                for (d, &v) in dst.iter_mut().zip(block.iter()) {
                    d.write(v);
                }
            }
        })
        .unwrap_or_default();
    }
    let mut out = Vec::new();
    let _ = out.try_reserve_exact(n);
    let mut block = [U::default(); BLOCK];
    let mut start = 0;
    while start < n {
        if start % CHUNK == 0 && requested() {
            break;
        }
        let len = BLOCK.min(n - start);
        body(start, &mut block[..len]);
        out.extend_from_slice(&block[..len]);
        start += len;
    }
    out
}

/// One chunk of an output being written in order as runs: a repeated value or a copy of a
/// slice (see [`fill_runs`]). Each write is cut to the chunk's end; slots a body leaves
/// unwritten get the element type's default, so no slot is ever left uninitialised.
pub struct Runs<'a, U> {
    slots: &'a mut [MaybeUninit<U>],
    written: usize,
}

impl<U: Copy + Default> Runs<'_, U> {
    /// How many slots are still to be written.
    pub fn remaining(&self) -> usize {
        self.slots.len() - self.written
    }

    /// Writes `value` into the next `n` slots (fewer at the chunk's end).
    pub fn repeat(&mut self, value: U, n: usize) {
        let end = self.written + n.min(self.remaining());
        for s in &mut self.slots[self.written..end] {
            s.write(value);
        }
        self.written = end;
    }

    /// Copies `src` into the next slots (its head only, at the chunk's end).
    pub fn copy(&mut self, src: &[U]) {
        let k = src.len().min(self.remaining());
        self.slots[self.written..self.written + k].write_copy_of_slice(&src[..k]);
        self.written += k;
    }

    /// Gives the slots a body left unwritten the default value.
    fn finish(mut self) {
        let rest = self.remaining();
        self.repeat(U::default(), rest);
    }
}

/// A vector of `n` elements written as runs by `body(start, runs)`, where `runs` writes the
/// output's `start..start + runs.remaining()`, in chunks of [`CHUNK`] on every core (for
/// large outputs made of copied rows and borders, such as a padding: a small one is quicker
/// written on this thread by the caller). Stops early like [`map`] (then the vector is empty;
/// the caller must [`check`]).
pub fn fill_runs<U: Copy + Default + Send + Sync>(
    n: usize,
    body: &(dyn Fn(usize, &mut Runs<'_, U>) + Sync),
) -> Vec<U> {
    if requested() {
        return Vec::new();
    }
    fill_parallel(n, &|start, slots| {
        let mut runs = Runs { slots, written: 0 };
        body(start, &mut runs);
        runs.finish();
    })
    .unwrap_or_default()
}

/// `f` of every element of `x`, a chunk at a time, on every core from [`PARALLEL_MIN`]
/// elements. When an interrupt is requested it stops early and returns what it has (the
/// parallel path: nothing): the caller must [`check`] before using the result (the kernels
/// do so once, on their way out).
#[inline(always)]
pub fn map<T: Copy + Sync, U: Copy + Default + Send + Sync>(
    x: &[T],
    f: impl Fn(T) -> U + Sync,
) -> Vec<U> {
    if x.len() >= PARALLEL_MIN {
        if requested() {
            return Vec::new();
        }
        return fill_parallel(x.len(), &|start, chunk| {
            for (o, &v) in chunk.iter_mut().zip(&x[start..]) {
                o.write(f(v));
            }
        })
        .unwrap_or_default();
    }
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
pub fn map_range<U: Copy + Default + Send + Sync>(
    n: usize,
    f: impl Fn(usize) -> U + Sync,
) -> Vec<U> {
    if n >= PARALLEL_MIN {
        if requested() {
            return Vec::new();
        }
        return fill_parallel(n, &|start, chunk| {
            for (j, o) in chunk.iter_mut().enumerate() {
                o.write(f(start + j));
            }
        })
        .unwrap_or_default();
    }
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

/// `f` of every pair of elements of `x` and `y` (of equal length), a chunk at a time, on
/// every core from [`PARALLEL_MIN`] elements; stops early like [`map`].
#[inline(always)]
pub fn zip_map<T: Copy + Sync, V: Copy + Sync, U: Copy + Default + Send + Sync>(
    x: &[T],
    y: &[V],
    f: impl Fn(T, V) -> U + Sync,
) -> Vec<U> {
    let n = x.len().min(y.len());
    if n >= PARALLEL_MIN {
        if requested() {
            return Vec::new();
        }
        return fill_parallel(n, &|start, chunk| {
            for ((o, &p), &q) in chunk.iter_mut().zip(&x[start..]).zip(&y[start..]) {
                o.write(f(p, q));
            }
        })
        .unwrap_or_default();
    }
    let mut out = Vec::new();
    let _ = out.try_reserve_exact(n);
    for (a, b) in x[..n].chunks(CHUNK).zip(y[..n].chunks(CHUNK)) {
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
        let big: Vec<u32> = (0..3 * PARALLEL_MIN as u32 + 7).collect();
        let want: Vec<u32> = big.iter().map(|v| v * 3).collect();
        assert_eq!(map(&big, |v| v * 3), want, "in order, on every core");
        assert_eq!(zip_map(&big, &big, |a, b| a + 2 * b), want);
        assert_eq!(map_range(big.len(), |i| 3 * i as u32), want);

        let flag = Arc::new(AtomicBool::new(false));
        watch(Some(flag.clone()));
        let mut seen = 0;
        let r = for_chunks(3 * CHUNK, |range| {
            seen += range.len();
            flag.store(true, Ordering::Relaxed);
        });
        assert_eq!(r.unwrap_err().class, ExceptionClass::KeyboardInterrupt);
        assert_eq!(seen, CHUNK, "stops at the first look after the flag is set");
        assert!(map(&x, |v| v).is_empty());
        let big = vec![1u8; 2 * PARALLEL_MIN];
        assert!(
            map(&big, |v| v).is_empty(),
            "the parallel path looks at the flag too"
        );
        assert!(zip_map(&big, &big, |a, b| a + b).is_empty());
        assert!(map_range(big.len(), |i| i).is_empty());
        assert!(zip_map(&x, &x, |a, b| a + b).is_empty());
        assert!(map_range(x.len(), |i| i).is_empty());
        assert_eq!(
            check().unwrap_err().class,
            ExceptionClass::KeyboardInterrupt
        );
        watch(None);
    }
}
