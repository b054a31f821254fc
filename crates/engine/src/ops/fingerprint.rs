//! FarmHash's 64-bit fingerprint (`farmhash::Fingerprint64`, the `na` variant) and
//! TensorFlow's `FingerprintCat64`, as `tf.ragged.cross_hashed` uses them.

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;

fn fetch64(s: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&s[i..i + 8]);
    u64::from_le_bytes(b)
}

fn fetch32(s: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&s[i..i + 4]);
    u32::from_le_bytes(b) as u64
}

fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

fn hash_len16(u: u64, v: u64, mul: u64) -> u64 {
    let mut a = (u ^ v).wrapping_mul(mul);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(mul);
    b ^= b >> 47;
    b.wrapping_mul(mul)
}

fn len0to16(s: &[u8]) -> u64 {
    let n = s.len();
    if n >= 8 {
        let mul = K2.wrapping_add(n as u64 * 2);
        let a = fetch64(s, 0).wrapping_add(K2);
        let b = fetch64(s, n - 8);
        let c = b.rotate_right(37).wrapping_mul(mul).wrapping_add(a);
        let d = a.rotate_right(25).wrapping_add(b).wrapping_mul(mul);
        return hash_len16(c, d, mul);
    }
    if n >= 4 {
        let mul = K2.wrapping_add(n as u64 * 2);
        let a = fetch32(s, 0);
        return hash_len16((n as u64).wrapping_add(a << 3), fetch32(s, n - 4), mul);
    }
    if n > 0 {
        let (a, b, c) = (s[0] as u32, s[n >> 1] as u32, s[n - 1] as u32);
        let y = a.wrapping_add(b << 8) as u64;
        let z = (n as u32).wrapping_add(c << 2) as u64;
        return shift_mix(y.wrapping_mul(K2) ^ z.wrapping_mul(K0)).wrapping_mul(K2);
    }
    K2
}

fn len17to32(s: &[u8]) -> u64 {
    let n = s.len();
    let mul = K2.wrapping_add(n as u64 * 2);
    let a = fetch64(s, 0).wrapping_mul(K1);
    let b = fetch64(s, 8);
    let c = fetch64(s, n - 8).wrapping_mul(mul);
    let d = fetch64(s, n - 16).wrapping_mul(K2);
    let (u, v) = mix4(a, b, c, d, K2);
    hash_len16(u, v, mul)
}

/// FarmHash's mixing of four words into the two it hashes: `(a + b) >>> 43 + c >>> 30 + d`
/// and `a + (b + e) >>> 18 + c`.
#[inline(always)]
fn mix4(a: u64, b: u64, c: u64, d: u64, e: u64) -> (u64, u64) {
    (
        a.wrapping_add(b)
            .rotate_right(43)
            .wrapping_add(c.rotate_right(30))
            .wrapping_add(d),
        a.wrapping_add(b.wrapping_add(e).rotate_right(18))
            .wrapping_add(c),
    )
}

fn len33to64(s: &[u8]) -> u64 {
    let n = s.len();
    let mul = K2.wrapping_add(n as u64 * 2);
    let a = fetch64(s, 0).wrapping_mul(K2);
    let b = fetch64(s, 8);
    let c = fetch64(s, n - 8).wrapping_mul(mul);
    let d = fetch64(s, n - 16).wrapping_mul(K2);
    let (y, y2) = mix4(a, b, c, d, K2);
    let z = hash_len16(y, y2, mul);
    let e = fetch64(s, 16).wrapping_mul(mul);
    let f = fetch64(s, 24);
    let g = y.wrapping_add(fetch64(s, n - 32)).wrapping_mul(mul);
    let h = z.wrapping_add(fetch64(s, n - 24)).wrapping_mul(mul);
    let (u, v) = mix4(e, f, g, h, a);
    hash_len16(u, v, mul)
}

fn weak32(s: &[u8], i: usize, a: u64, b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, i),
        fetch64(s, i + 8),
        fetch64(s, i + 16),
        fetch64(s, i + 24),
    );
    let a = a.wrapping_add(w);
    let b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    let a = a.wrapping_add(x).wrapping_add(y);
    let b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// The opening of a 64-byte round of `Fingerprint64`: `x` and `y` take in the words at
/// `i + 8` and `i + 48` (the loop multiplies by `K1`, the last round by its own `mul`).
#[inline(always)]
fn mix_xy(s: &[u8], i: usize, x: u64, y: u64, v: (u64, u64), mul: u64) -> (u64, u64) {
    let x = x
        .wrapping_add(y)
        .wrapping_add(v.0)
        .wrapping_add(fetch64(s, i + 8))
        .rotate_right(37)
        .wrapping_mul(mul);
    let y = y
        .wrapping_add(v.1)
        .wrapping_add(fetch64(s, i + 48))
        .rotate_right(42)
        .wrapping_mul(mul);
    (x, y)
}

/// The close of a 64-byte round of `Fingerprint64`: the new `v` and `w` from the two halves
/// of the 64 bytes at `i`.
#[allow(clippy::too_many_arguments)] // the hash's state, named as in FarmHash
#[inline(always)]
fn mix_vw(
    s: &[u8],
    i: usize,
    x: u64,
    y: u64,
    z: u64,
    v: (u64, u64),
    w: (u64, u64),
    mul: u64,
) -> ((u64, u64), (u64, u64)) {
    (
        weak32(s, i, v.1.wrapping_mul(mul), x.wrapping_add(w.0)),
        weak32(
            s,
            i + 32,
            z.wrapping_add(w.1),
            y.wrapping_add(fetch64(s, i + 16)),
        ),
    )
}

/// `Fingerprint64(s)`.
pub fn fingerprint64(s: &[u8]) -> u64 {
    let n = s.len();
    if n <= 16 {
        return len0to16(s);
    }
    if n <= 32 {
        return len17to32(s);
    }
    if n <= 64 {
        return len33to64(s);
    }
    let seed: u64 = 81;
    let mut x = seed;
    let mut y = seed.wrapping_mul(K1).wrapping_add(113);
    let mut z = shift_mix(y.wrapping_mul(K2).wrapping_add(113)).wrapping_mul(K2);
    let mut v = (0u64, 0u64);
    let mut w = (0u64, 0u64);
    x = x.wrapping_mul(K2).wrapping_add(fetch64(s, 0));
    let end = ((n - 1) / 64) * 64;
    let last64 = end + ((n - 1) & 63) - 63;
    let mut i = 0;
    loop {
        (x, y) = mix_xy(s, i, x, y, v, K1);
        x ^= w.1;
        y = y.wrapping_add(v.0).wrapping_add(fetch64(s, i + 40));
        z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
        (v, w) = mix_vw(s, i, x, y, z, v, w, K1);
        std::mem::swap(&mut z, &mut x);
        i += 64;
        if i == end {
            break;
        }
    }
    let mul = K1.wrapping_add((z & 0xff) << 1);
    let i = last64;
    w.0 = w.0.wrapping_add(((n - 1) & 63) as u64);
    v.0 = v.0.wrapping_add(w.0);
    w.0 = w.0.wrapping_add(v.0);
    (x, y) = mix_xy(s, i, x, y, v, mul);
    x ^= w.1.wrapping_mul(9);
    y = y
        .wrapping_add(v.0.wrapping_mul(9))
        .wrapping_add(fetch64(s, i + 40));
    z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(mul);
    (v, w) = mix_vw(s, i, x, y, z, v, w, mul);
    std::mem::swap(&mut z, &mut x);
    hash_len16(
        hash_len16(v.0, w.0, mul)
            .wrapping_add(shift_mix(y).wrapping_mul(K0))
            .wrapping_add(z),
        hash_len16(v.1, w.1, mul).wrapping_add(x),
        mul,
    )
}

/// `FingerprintCat64(fp1, fp2)`: combines two fingerprints (order matters).
pub fn fingerprint_cat64(fp1: u64, fp2: u64) -> u64 {
    const MUL: u64 = 0xc6a4_a793_5bd1_e995;
    let mut r = fp1 ^ MUL;
    r ^= shift_mix(fp2.wrapping_mul(MUL)).wrapping_mul(MUL);
    r = r.wrapping_mul(MUL);
    r = shift_mix(r).wrapping_mul(MUL);
    shift_mix(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length class and round count keeps the values it had before the mixing steps
    /// were shared (the 1-, 5- and 70-byte values above are TensorFlow's).
    #[test]
    fn every_length_class_is_stable() {
        let want: [(usize, u64); 9] = [
            (17, 14506534093795057959),
            (20, 9055401396212531348),
            (32, 11907377154618496232),
            (33, 14001582926318596329),
            (40, 12941229458084698938),
            (64, 389040666157116578),
            (65, 8638051931306504420),
            (128, 7379187116787024497),
            (200, 7886090686657605591),
        ];
        for (n, fp) in want {
            let s: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
            assert_eq!(fingerprint64(&s), fp, "{n} bytes");
        }
    }

    #[test]
    fn known_fingerprints() {
        // Values from TensorFlow (tf.strings.to_hash_bucket_fast with 2**63 - 1 buckets and
        // tf.ragged.cross_hashed), one per length class.
        let cap = i64::MAX as u64;
        assert_eq!(
            fingerprint_cat64(
                fingerprint_cat64(0x00DE_CAFC_AFFE, fingerprint64(b"a")),
                fingerprint64(b"d")
            ) % cap,
            1_584_069_791_037_555_375
        );
        assert_eq!(
            fingerprint_cat64(
                fingerprint_cat64(0x00DE_CAFC_AFFE, fingerprint64(b"hello")),
                fingerprint64(b"k")
            ) % cap,
            1_508_431_745_657_921_164
        );
        let q70 = [b'q'; 70];
        assert_eq!(
            fingerprint_cat64(
                fingerprint_cat64(0x00DE_CAFC_AFFE, fingerprint64(&q70)),
                fingerprint64(b"k")
            ) % cap,
            7_312_320_320_618_017_902
        );
    }
}
