//! TensorFlow's `FingerprintCat64`, which folds FarmHash fingerprints together for
//! `tf.ragged.cross_hashed`.
//!
//! The fingerprints themselves (`Fingerprint64`, FarmHash's `na` variant) come from the
//! `farmhash2` crate. `FingerprintCat64` stays here because it is not part of FarmHash and the
//! crate lacks it: TensorFlow defines it in tensorflow/core/platform/fingerprint.h.

/// FarmHash's final avalanche step, `v ^ (v >> 47)`, which `FingerprintCat64` reuses.
fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
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
    use farmhash2::fingerprint64;

    /// Every length class and round count of `Fingerprint64` gives the values ragtag's own
    /// FarmHash gave before the crate replaced it (the 1-, 5- and 70-byte values of the
    /// next test are TensorFlow's).
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
