//! The memory budget: every buffer whose size follows from a user's arguments
//! (`tf.range(n)`, `tf.zeros(shape)`, `'a' * n`, a padded `to_tensor`, a broadcast) is
//! reserved here, so a typo such as `10**12` becomes a clear ResourceExhaustedError instead
//! of the process being killed by the operating system or aborting on a failed allocation.
//!
//! One limit, process-wide ([`limit`], [`set_limit`]), checked at the point of allocation:
//! [`vec()`] reserves a `Vec<T>` of `n` items counting `size_of::<T>()` bytes each (an int32
//! counts 4 bytes, a float64 8), [`filled`] and [`repeat`] fill one, [`grow`] checks growth of
//! an existing vector, [`string`] and [`repeat_str`] count string bytes, and [`check`] /
//! [`check_bytes`] vet a size before an iterator is collected. All of them reserve with
//! `try_reserve_exact`, so an allocator failure below the limit is an error too.
//!
//! The limit bounds one buffer (or, through [`Tally`], the sum of the buffers one operation
//! builds piece by piece: `tf.map_fn` results, a list built by a comprehension); it is not a
//! live-memory account of the whole session, which would need every value to report its
//! size when dropped.
//!
//! The clippy configuration (`clippy.toml`) forbids `Vec::with_capacity`, `vec![x; n]`,
//! `resize`, `reserve` and `repeat` outside this module, so a new call site cannot forget
//! the budget by accident.
#![allow(clippy::disallowed_methods)]

use std::sync::atomic::{AtomicU64, Ordering};

use super::error::Result;

use crate::exceptions::{Exception, ExceptionClass};

/// The limit used where physical memory cannot be read (not Linux, no `/proc`).
pub const FALLBACK_LIMIT: u64 = 4 << 30;

/// The limit golden transcripts replay under (`ragtag test`), so that their
/// ResourceExhaustedError messages read the same on every machine.
pub const TRANSCRIPT_LIMIT: u64 = 1 << 30;

/// The limit; 0 until first read, then the default or what [`set_limit`] stored.
static LIMIT: AtomicU64 = AtomicU64::new(0);

/// The most bytes one buffer (or one [`Tally`]) may take.
///
/// Defaults to half of physical memory (`MemTotal` in `/proc/meminfo`, or a lower cgroup
/// limit), else [`FALLBACK_LIMIT`]. Half, because a result is often copied once more before the
/// operation ends (a cast, a concatenation, the old value still bound to a name), so a
/// single buffer of half the memory is the largest that can still complete; and because
/// anything larger than that is never what an interactive user meant.
pub fn limit() -> u64 {
    let own = THREAD_LIMIT.with(std::cell::Cell::get);
    if own != 0 {
        return own;
    }
    match LIMIT.load(Ordering::Relaxed) {
        0 => {
            let d = default_limit();
            // Another thread may have set a limit meanwhile: keep theirs.
            let _ = LIMIT.compare_exchange(0, d, Ordering::Relaxed, Ordering::Relaxed);
            LIMIT.load(Ordering::Relaxed)
        }
        v => v,
    }
}

/// Sets the limit for the whole process (`--max-memory`). A limit of 0 is taken as 1 byte
/// (every non-empty allocation fails).
pub fn set_limit(bytes: u64) {
    LIMIT.store(bytes.max(1), Ordering::Relaxed);
}

thread_local! {
    /// This thread's own limit, overriding the process's; 0 for none.
    static THREAD_LIMIT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Sets (or, with `None`, clears) the limit for operations on this thread only. A session
/// whose user typed `:set memory=` evaluates under its own limit this way, so sessions in
/// one process (tests, transcripts) never change each other's.
pub fn set_thread_limit(bytes: Option<u64>) {
    THREAD_LIMIT.with(|l| l.set(bytes.map_or(0, |b| b.max(1))));
}

/// Half of physical memory, or [`FALLBACK_LIMIT`] when it cannot be read.
pub fn default_limit() -> u64 {
    physical_memory().map_or(FALLBACK_LIMIT, |m| (m / 2).max(1))
}

/// `MemTotal` from `/proc/meminfo`, in bytes, or the container's cgroup memory limit when
/// that is lower (in a container, `MemTotal` is the host's memory).
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let total = meminfo_total(&text)?;
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|path| std::fs::read_to_string(path).ok())
    .filter_map(|t| cgroup_limit(&t))
    .min();
    Some(cgroup.map_or(total, |c| c.min(total)))
}

/// A cgroup memory limit file's value: bytes, or `max` (no limit, None).
fn cgroup_limit(text: &str) -> Option<u64> {
    text.trim().parse().ok().filter(|&n| n > 0)
}

fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut parts = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = parts.next()?.parse().ok()?;
    let unit = match parts.next() {
        Some("kB") | Some("KB") | Some("kb") => 1024,
        None => 1,
        _ => return None,
    };
    n.checked_mul(unit)
}

/// Parses a memory size: `1000000` (bytes), `512MB`, `2GiB`, `1.5 GB`, `64k`. Decimal
/// units (`KB`, `MB`, `GB`, `TB`) are powers of 1000, binary ones (`KiB`, `MiB`, `GiB`,
/// `TiB`) and the bare letters (`K`, `M`, `G`, `T`) powers of 1024; case is ignored.
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(t.len());
    let (num, unit) = (t[..split].replace('_', ""), t[split..].trim());
    let bad = || {
        format!(
            "'{text}' is not a memory size; write bytes (1000000) or a unit such as 512MB or 2GiB"
        )
    };
    if num.is_empty() {
        return Err(bad());
    }
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" => 1000,
        "mb" => 1000_u64.pow(2),
        "gb" => 1000_u64.pow(3),
        "tb" => 1000_u64.pow(4),
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    let bytes = if num.contains('.') {
        let v: f64 = num.parse().map_err(|_| bad())?;
        let b = v * scale as f64;
        if !b.is_finite() || b >= u64::MAX as f64 {
            return Err(format!("'{text}' is too large"));
        }
        b.round() as u64
    } else {
        let v: u64 = num.parse().map_err(|_| bad())?;
        v.checked_mul(scale)
            .ok_or_else(|| format!("'{text}' is too large"))?
    };
    if bytes == 0 {
        return Err("the memory limit must be more than 0 bytes".into());
    }
    Ok(bytes)
}

/// The ResourceExhaustedError for `what` asking for `bytes` (as `detail`) over `limit`.
fn exhausted(what: &str, bytes: u128, detail: &str, limit: u64) -> Exception {
    crate::EngineError::MemoryLimit {
        what: what.to_string(),
        bytes,
        detail: detail.to_string(),
        limit,
    }
    .into()
}

fn check_against(limit: u64, what: &str, count: u128, item_bytes: usize) -> Result<()> {
    let bytes = count.saturating_mul(item_bytes.max(1) as u128);
    if bytes > limit as u128 {
        let detail = if item_bytes > 1 {
            format!(" for {count} elements of {item_bytes} bytes")
        } else {
            String::new()
        };
        return Err(exhausted(what, bytes, &detail, limit));
    }
    Ok(())
}

/// Fails with ResourceExhaustedError when `count` items of `item_bytes` each would exceed
/// the limit. `what` names the operation in the message (`tf.range`).
pub fn check(what: &str, count: u128, item_bytes: usize) -> Result<()> {
    check_against(limit(), what, count, item_bytes)
}

/// Fails with ResourceExhaustedError when `bytes` would exceed the limit.
pub fn check_bytes(what: &str, bytes: u128) -> Result<()> {
    check_against(limit(), what, bytes, 1)
}

/// The number of elements of `shape`, checked for overflow (InvalidArgumentError, see
/// [`super::size::numel`]) and against the budget at `item_bytes` an element.
pub fn check_shape(what: &str, shape: &[usize], item_bytes: usize) -> Result<usize> {
    let count = super::size::numel(shape)?;
    check(what, count as u128, item_bytes)?;
    Ok(count)
}

fn alloc_failed(what: &str, bytes: u128) -> Exception {
    Exception {
        class: ExceptionClass::ResourceExhaustedError,
        message: format!(
            "{what} could not allocate {}: the system is out of memory",
            human(bytes)
        ),
        hint: Some("use smaller sizes, or free memory by deleting large names (del x)".into()),
        kind: None,
    }
}

/// An empty `Vec<T>` with room for `n` items, after checking `n * size_of::<T>()` bytes
/// against the limit; an allocator failure is a ResourceExhaustedError too.
pub fn vec<T>(what: &str, n: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    grow(what, &mut v, n)?;
    Ok(v)
}

/// Makes room in `v` for `additional` more items, checking the grown size (`len +
/// additional` items) against the limit.
pub fn grow<T>(what: &str, v: &mut Vec<T>, additional: usize) -> Result<()> {
    let item = std::mem::size_of::<T>();
    let total = (v.len() as u128).saturating_add(additional as u128);
    check(what, total, item)?;
    if v.capacity() - v.len() >= additional {
        return Ok(());
    }
    // Doubling, as `Vec::push` does, while the doubled room is within the limit: a caller
    // that grows by one item at a time (a comprehension's results) would otherwise
    // reallocate, and copy the whole vector, on every item. Near the limit it reserves
    // exactly, so the limit still admits `total` items.
    let doubled = (v.capacity() as u128).saturating_mul(2).max(total);
    let reserved = if check(what, doubled, item).is_ok() {
        v.try_reserve(additional)
    } else {
        v.try_reserve_exact(additional)
    };
    reserved.map_err(|_| alloc_failed(what, total.saturating_mul(item.max(1) as u128)))
}

/// `n` copies of `value`, within the budget (the checked `vec![value; n]`), written a chunk
/// at a time so an interrupt stops a large fill.
pub fn filled<T: Clone>(what: &str, value: T, n: usize) -> Result<Vec<T>> {
    let mut v = vec(what, n)?;
    fill_to(&mut v, value, n)?;
    Ok(v)
}

/// Resizes `v` (with room reserved) to `len` items with copies of `value`, checking for an
/// interrupt every [`super::interrupt::CHUNK`] items.
fn fill_to<T: Clone>(v: &mut Vec<T>, value: T, len: usize) -> Result<()> {
    while v.len() < len {
        super::interrupt::check()?;
        let next = len.min(v.len() + super::interrupt::CHUNK);
        v.resize(next, value.clone());
    }
    Ok(())
}

/// Appends `n` copies of `value` to `v`, within the budget (the checked `Vec::resize`).
pub fn extend_filled<T: Clone>(what: &str, v: &mut Vec<T>, value: T, n: usize) -> Result<()> {
    grow(what, v, n)?;
    let len = v.len();
    fill_to(v, value, len + n)
}

/// `items` repeated `n` times, within the budget (the checked `slice::repeat`).
pub fn repeat<T: Clone>(what: &str, items: &[T], n: usize) -> Result<Vec<T>> {
    check(
        what,
        items.len() as u128 * n as u128,
        std::mem::size_of::<T>(),
    )?;
    let total = super::size::mul(items.len(), n)?;
    let mut v = vec(what, total)?;
    let every = (super::interrupt::CHUNK / items.len().max(1)).max(1);
    for i in 0..n {
        if i % every == 0 {
            super::interrupt::check()?;
        }
        v.extend_from_slice(items);
    }
    Ok(v)
}

/// An empty `String` with room for `bytes` bytes, within the budget.
pub fn string(what: &str, bytes: usize) -> Result<String> {
    check_bytes(what, bytes as u128)?;
    let mut s = String::new();
    s.try_reserve_exact(bytes)
        .map_err(|_| alloc_failed(what, bytes as u128))?;
    Ok(s)
}

/// `s` repeated `n` times, within the budget (the checked `str::repeat`).
pub fn repeat_str(what: &str, s: &str, n: usize) -> Result<String> {
    check_bytes(what, s.len() as u128 * n as u128)?;
    let bytes = super::size::mul(s.len(), n)?;
    let mut out = string(what, bytes)?;
    if bytes > 0 {
        // Doubling copies: a gigabyte takes about thirty memcpys, not a billion pushes, and
        // whole copies of a str need no UTF-8 check.
        out.push_str(s);
        while out.len() < bytes {
            let more = out.len().min(bytes - out.len());
            out.extend_from_within(..more);
            crate::interrupt::check()?;
        }
    }
    Ok(out)
}

/// Counts the bytes one operation builds piece by piece (the results of `tf.map_fn`, the
/// items of a list comprehension), so that many buffers each under the limit cannot add up
/// to an unbounded total.
#[derive(Debug)]
pub struct Tally<'a> {
    what: &'a str,
    bytes: u128,
}

impl<'a> Tally<'a> {
    /// A tally for the operation `what`, at zero.
    pub fn new(what: &'a str) -> Self {
        Tally { what, bytes: 0 }
    }
    /// Adds `bytes`, failing once the total passes the limit.
    pub fn add(&mut self, bytes: u128) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        check_bytes(self.what, self.bytes)
    }
    /// The bytes counted so far.
    pub fn bytes(&self) -> u128 {
        self.bytes
    }
}

/// `4.0 GiB`, `12.5 TiB`.
pub fn human(bytes: u128) -> String {
    let units = [
        "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB",
    ];
    let mut v = bytes as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < units.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", units[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // These tests never call `set_limit`: the limit is process-wide and other tests run in
    // parallel. `check_against` takes the limit explicitly instead.

    #[test]
    fn small_passes_huge_fails() {
        assert!(check_against(4 << 30, "x", 1000, 8).is_ok());
        let e = check_against(4 << 30, "tf.range", 1 << 40, 8).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
        assert!(e.message.contains("8.0 TiB"), "{}", e.message);
        assert!(e.message.contains("tf.range"), "{}", e.message);
        assert!(e.message.contains("4.0 GiB"), "{}", e.message);
        let hint = e.hint.unwrap();
        assert!(hint.contains("--max-memory") && hint.contains(":set memory="));
        assert!(check_shape("tf.zeros", &[usize::MAX, usize::MAX], 4).is_err());
        assert_eq!(check_shape("tf.zeros", &[2, 3], 4).unwrap(), 6);
    }

    #[test]
    fn item_sizes_are_real() {
        // 2 GiB of int32 is 512 Mi elements: the same count of int64 is twice as much.
        let n = 512u128 << 20;
        assert!(check_against(2 << 30, "x", n, 4).is_ok());
        assert!(check_against(2 << 30, "x", n, 8).is_err());
    }

    #[test]
    fn vec_reserves_and_refuses() {
        let v: Vec<i32> = vec("test", 10).unwrap();
        assert!(v.capacity() >= 10 && v.is_empty());
        let e = vec::<u64>("huge", usize::MAX).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
        assert_eq!(filled("f", 7u8, 3).unwrap(), [7, 7, 7]);
        assert_eq!(repeat("r", &[1, 2], 2).unwrap(), [1, 2, 1, 2]);
        assert!(repeat("r", &[1, 2], usize::MAX).is_err());
        assert_eq!(repeat_str("s", "ab", 3).unwrap(), "ababab");
        assert_eq!(repeat_str("s", "é–", 5).unwrap(), "é–".repeat(5));
        assert_eq!(repeat_str("s", "abc", 0).unwrap(), "");
        assert_eq!(repeat_str("s", "", 7).unwrap(), "");
        assert_eq!(repeat_str("s", "xy", 1000).unwrap(), "xy".repeat(1000));
        assert!(repeat_str("s", "ab", usize::MAX / 2).is_err());
        let mut w = vec![1u8];
        extend_filled("e", &mut w, 0, 2).unwrap();
        assert_eq!(w, [1, 0, 0]);
    }

    #[test]
    fn tally_adds_up() {
        let mut t = Tally::new("tf.map_fn");
        t.add(10).unwrap();
        assert_eq!(t.bytes(), 10);
        assert!(t.add(u128::MAX).is_err());
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1000000"), Ok(1_000_000));
        assert_eq!(parse_size("512MB"), Ok(512_000_000));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("2 gib"), Ok(2 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1_000"), Ok(1000));
        assert!(parse_size("").is_err());
        assert!(parse_size("GiB").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("99999999999TiB").is_err());
        assert!(parse_size("-5").is_err());
    }

    #[test]
    fn meminfo_parses() {
        let text = "MemTotal:       16318412 kB\nMemFree:         1000 kB\n";
        assert_eq!(meminfo_total(text), Some(16318412 * 1024));
        assert_eq!(meminfo_total("MemFree: 3 kB"), None);
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("1073741824\n"), Some(1 << 30));
        assert!(default_limit() > 0);
        assert!(limit() > 0);
    }
}
