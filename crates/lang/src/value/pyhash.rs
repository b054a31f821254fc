//! CPython's `hash()` of hashable values, which decides where a set keeps an item and so
//! the order a set iterates in. Ints hash to themselves modulo the Mersenne prime 2**61 − 1
//! (−1 becomes −2), floats with an integral value hash as that int, tuples mix their items'
//! hashes with xxHash's primes, frozensets xor shuffled item hashes. Strings hash with a
//! fixed SipHash: CPython randomises theirs per process, so no order of a set of strings
//! is CPython's to match.

use std::hash::{Hash, Hasher};

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use super::Key;

/// `sys.hash_info.modulus`: 2**61 − 1 on 64-bit builds.
const MODULUS: u64 = (1 << 61) - 1;
/// `sys.hash_info.width` minus three: the bits of the modulus.
const BITS: i32 = 61;
/// `sys.hash_info.inf`.
const INF: i64 = 314159;

/// `hash(i)` of an int.
pub fn hash_int(i: i64) -> i64 {
    let m = (i.unsigned_abs() % MODULUS) as i64;
    fix(if i < 0 { -m } else { m })
}

/// `hash(n)` of a big int.
pub fn hash_big(n: &BigInt) -> i64 {
    let m = (n.abs() % MODULUS).to_i64().unwrap_or(0);
    fix(if n.is_negative() { -m } else { m })
}

/// `hash(x)` of a float (CPython's `_Py_HashDouble`); NaN hashes as 0 (CPython 3.11 hashes
/// each NaN object by its identity).
pub fn hash_float(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { INF } else { -INF };
    }
    let (mut m, mut e) = frexp(v);
    let sign: i64 = if m < 0.0 {
        m = -m;
        -1
    } else {
        1
    };
    let mut x: u64 = 0;
    // Take 28 bits of the mantissa at a time, folding into x modulo 2**61 − 1.
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | (x >> (BITS - 28));
        m *= 268435456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % BITS
    } else {
        BITS - 1 - ((-1 - e) % BITS)
    };
    x = ((x << e) & MODULUS) | (x >> (BITS - e));
    fix((x as i64).wrapping_mul(sign))
}

/// C's `frexp`: `v = m · 2**e` with `0.5 <= |m| < 1`.
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// A string's hash: any fixed one serves, as CPython's is random per process.
pub fn hash_str(s: &str) -> i64 {
    #[allow(deprecated)] // SipHash with fixed keys: the same hash in every run
    let mut h = std::hash::SipHasher::new();
    s.hash(&mut h);
    fix(h.finish() as i64)
}

/// A bytes value's hash: the hash of the str of the same ASCII text, as in CPython (whose
/// hashes of both are random per process).
pub fn hash_bytes(b: &[u8]) -> i64 {
    match std::str::from_utf8(b) {
        Ok(s) if s.is_ascii() => hash_str(s),
        _ => {
            #[allow(deprecated)] // SipHash with fixed keys: the same hash in every run
            let mut h = std::hash::SipHasher::new();
            b.hash(&mut h);
            fix(h.finish() as i64)
        }
    }
}

/// CPython's tuple hash (xxHash's mixing of the items' hashes).
pub fn hash_tuple(items: impl ExactSizeIterator<Item = i64>) -> i64 {
    const P1: u64 = 11400714785074694791;
    const P2: u64 = 14029467366897019727;
    const P5: u64 = 2870177450012600261;
    let len = items.len() as u64;
    let mut acc = P5;
    for lane in items {
        acc = acc.wrapping_add((lane as u64).wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add(len ^ (P5 ^ 3527539));
    if acc == u64::MAX {
        return 1546275796;
    }
    acc as i64
}

/// CPython's frozenset hash of the hashes of its items.
pub fn hash_frozenset(items: impl ExactSizeIterator<Item = i64>) -> i64 {
    let shuffle = |h: u64| ((h ^ 89869747) ^ (h << 16)).wrapping_mul(3644798167);
    let n = items.len() as u64;
    let mut hash: u64 = 0;
    for h in items {
        hash ^= shuffle(h as u64);
    }
    hash ^= (n + 1).wrapping_mul(1927868237);
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash.wrapping_mul(69069).wrapping_add(907133923);
    if hash == u64::MAX {
        return 590923713;
    }
    hash as i64
}

/// −1 is CPython's error code, never a hash.
fn fix(h: i64) -> i64 {
    if h == -1 {
        -2
    } else {
        h
    }
}

impl Key {
    /// Python's `hash()` of the value this key stands for.
    pub fn py_hash(&self) -> i64 {
        match self {
            // CPython 3.11 hashes None by its address; any constant serves.
            Key::None => 0x7e_5a_a4_c0,
            Key::Int(i) => hash_int(*i),
            Key::Float(bits) => hash_float(f64::from_bits(*bits)),
            Key::Str(s) => hash_str(s),
            Key::Tuple(items) => hash_tuple(items.iter().map(Key::py_hash)),
            Key::Named(kind, text) => hash_str(&format!("{kind}:{text}")),
            Key::Big(n) => hash_big(n),
            Key::Frozen(f) => f.hash,
            Key::Bytes(b) => hash_bytes(b),
            Key::Range(n, start, step) => {
                let int = |v: Option<i64>| v.map_or(Key::None.py_hash(), hash_int);
                let n = i64::try_from(*n).map_or_else(|_| hash_big(&BigInt::from(*n)), hash_int);
                hash_tuple([n, int(*start), int(*step)].into_iter())
            }
            Key::Hashed(h, _) => *h,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_cpython() {
        assert_eq!(hash_int(-1), -2);
        assert_eq!(hash_int(1 << 61), 1);
        assert_eq!(hash_float(1.5), 1152921504606846977);
        assert_eq!(hash_float(-0.5), -1152921504606846976);
        assert_eq!(hash_float(1e300), 1224995262755759164);
        assert_eq!(hash_tuple([1, 2].into_iter()), -3550055125485641917);
        assert_eq!(hash_tuple([].into_iter()), 5740354900026072187);
        assert_eq!(
            hash_frozenset([1, 2].into_iter().map(hash_int)),
            -1826646154956904602
        );
        assert_eq!(hash_big(&(BigInt::from(1) << 100)), 549755813888);
    }
}
