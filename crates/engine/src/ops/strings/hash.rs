//! `tf.strings.to_hash_bucket` (TensorFlow's legacy `Hash64`, a MurmurHash64A variant from
//! tensorflow/core/lib/hash/hash.cc), `to_hash_bucket_strong` (SipHash-2-4 under a 128-bit
//! key) and `tf.strings.unicode_script` (ICU's `UScriptCode` of each code point).

use std::sync::LazyLock;

use super::{map_values, same_shape, str_col};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::invalid_arg;
use crate::ragged::Array;

/// TensorFlow's `Hash64(data, n, seed)`.
pub fn hash64(data: &[u8], seed: u64) -> u64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    const R: u32 = 47;
    let mut h = seed ^ (data.len() as u64).wrapping_mul(M);
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut k = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        for (i, &b) in rest.iter().enumerate().rev() {
            h ^= (b as u64) << (8 * i);
        }
        h = h.wrapping_mul(M);
    }
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h
}

/// SipHash-2-4 of `data` under the key `(k0, k1)`.
pub fn siphash24(k0: u64, k1: u64, data: &[u8]) -> u64 {
    let mut v0 = k0 ^ 0x736f_6d65_7073_6575;
    let mut v1 = k1 ^ 0x646f_7261_6e64_6f6d;
    let mut v2 = k0 ^ 0x6c79_6765_6e65_7261;
    let mut v3 = k1 ^ 0x7465_6462_7974_6573;
    let round = |v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64| {
        *v0 = v0.wrapping_add(*v1);
        *v1 = v1.rotate_left(13);
        *v1 ^= *v0;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v3);
        *v3 = v3.rotate_left(16);
        *v3 ^= *v2;
        *v0 = v0.wrapping_add(*v3);
        *v3 = v3.rotate_left(21);
        *v3 ^= *v0;
        *v2 = v2.wrapping_add(*v1);
        *v1 = v1.rotate_left(17);
        *v1 ^= *v2;
        *v2 = v2.rotate_left(32);
    };
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let m = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        v3 ^= m;
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= m;
    }
    let mut last = (data.len() as u64) << 56;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        last |= (b as u64) << (8 * i);
    }
    v3 ^= last;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= last;
    v2 ^= 0xff;
    for _ in 0..4 {
        round(&mut v0, &mut v1, &mut v2, &mut v3);
    }
    v0 ^ v1 ^ v2 ^ v3
}

fn buckets(a: &Array, num_buckets: i64, op: &str, hash: impl Fn(&[u8]) -> u64) -> Result<Array> {
    if num_buckets < 1 {
        return Err(invalid_arg!(
            "Value for attr 'num_buckets' of {num_buckets} must be at least minimum 1"
        ));
    }
    map_values(a, |t| {
        let col = str_col(t, op)?;
        let v: Vec<i64> = col
            .iter()
            .map(|s| (hash(s) % num_buckets as u64) as i64)
            .collect();
        Ok(same_shape(t, Buffer::from(v)))
    })
}

/// `tf.strings.to_hash_bucket`: `Hash64` of each string modulo `num_buckets` (int64).
pub fn to_hash_bucket(a: &Array, num_buckets: i64) -> Result<Array> {
    buckets(a, num_buckets, "tf.strings.to_hash_bucket", |s| {
        hash64(s, 0x00DE_CAFC_AFFE)
    })
}

/// `tf.strings.to_hash_bucket_strong`: SipHash-2-4 keyed by `key` modulo `num_buckets`.
pub fn to_hash_bucket_strong(a: &Array, num_buckets: i64, key: [u64; 2]) -> Result<Array> {
    buckets(a, num_buckets, "tf.strings.to_hash_bucket_strong", |s| {
        siphash24(key[0], key[1], s)
    })
}

/// Script ranges `(first, last, UScriptCode)` as TensorFlow 2.21's ICU reports them; code
/// points outside every range are Unknown (103).
static SCRIPTS: LazyLock<Vec<(u32, u32, i32)>> = LazyLock::new(|| {
    include_str!("unicode_scripts.txt")
        .lines()
        .filter_map(|l| {
            let mut it = l.split(' ');
            let a = u32::from_str_radix(it.next()?, 16).ok()?;
            let b = u32::from_str_radix(it.next()?, 16).ok()?;
            let c = it.next()?.parse().ok()?;
            Some((a, b, c))
        })
        .collect()
});

/// ICU's `UScriptCode` of one code point: -1 outside 0..=0x10FFFF, 103 (Unknown) where no
/// script is assigned.
pub fn script_of(cp: i64) -> i32 {
    if !(0..=0x10FFFF).contains(&cp) {
        return -1;
    }
    let cp = cp as u32;
    let table = &*SCRIPTS;
    let i = table.partition_point(|r| r.1 < cp);
    match table.get(i) {
        Some(&(a, _, s)) if a <= cp => s,
        _ => 103,
    }
}

/// `tf.strings.unicode_script`: the script code of every int32 code point.
pub fn unicode_script(a: &Array) -> Result<Array> {
    map_values(a, |t| {
        let Buffer::I32(v) = t.data() else {
            return Err(invalid_arg!(
                "cannot compute UnicodeScript as input #0(zero-based) was expected to be a int32 tensor but is a {} tensor",
                t.dtype()
            ));
        };
        let out: Vec<i32> = v.iter().map(|&c| script_of(c as i64)).collect();
        Ok(same_shape(t, Buffer::from(out)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siphash_reference_vector() {
        // The SipHash paper's test vector: key 00..0f, message 00..0e.
        let k0 = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        let k1 = u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]);
        let msg: Vec<u8> = (0..15).collect();
        assert_eq!(siphash24(k0, k1, &msg), 0xa129_ca61_49be_45e5);
    }

    #[test]
    fn scripts() {
        assert_eq!(script_of('A' as i64), 25);
        assert_eq!(script_of(0x410), 8);
        assert_eq!(script_of(0x4e00), 17);
        assert_eq!(script_of(' ' as i64), 0);
        assert_eq!(script_of(0x300), 1);
        assert_eq!(script_of(-1), -1);
    }
}
