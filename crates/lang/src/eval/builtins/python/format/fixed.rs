//! Fixed-point digits of a float computed exactly in 128-bit integers, for the precisions
//! and magnitudes most formatting asks for (`f"{x:.2f}"`, `'%.3f' % x`).
//!
//! A finite float is `m·2^e` with `m` below 2⁵³. With at most 19 fraction digits, `m·10^p`
//! fits in 128 bits, so `x·10^p` is that shifted by `e`, and the digits are its integer
//! part rounded half to even on the exact remainder: the answer CPython's correctly
//! rounded conversion gives, without the general (and much slower) decimal expansion.

use std::fmt::Write;

/// `x` (finite, not negative) with `p` fraction digits, as `format!("{x:.p$}")` writes it;
/// `None` when `p` is above 19 or `x·10^p` reaches past 128 bits.
pub(super) fn fixed_digits(x: f64, p: usize) -> Option<String> {
    if p > 19 || !x.is_finite() || x.is_sign_negative() && x != 0.0 {
        return None;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = match biased {
        0 => (fraction, -1074),
        _ => (fraction | (1 << 52), biased - 1075),
    };
    let scale = 10u128.pow(p as u32);
    let q = if e >= 0 {
        if e > 74 {
            return None;
        }
        (u128::from(m) << e).checked_mul(scale)?
    } else {
        let k = e.unsigned_abs();
        // Below 2¹¹⁷, so with 128 or more bits shifted out it is under half of one unit.
        let n = u128::from(m) * scale;
        if k >= 128 {
            0
        } else {
            let q = n >> k;
            let rest = n & ((1 << k) - 1);
            let half = 1 << (k - 1);
            if rest > half || (rest == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    let mut s = String::with_capacity(24 + p);
    write!(s, "{}", q / scale).ok()?;
    if p > 0 {
        write!(s, ".{:0width$}", q % scale, width = p).ok()?;
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::fixed_digits;

    /// Agrees with the standard library's exact formatting on values near ties, tiny and
    /// huge magnitudes, and every precision it takes.
    #[test]
    fn matches_the_exact_decimal_expansion() {
        let mut values = vec![
            0.0,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            2.675,
            1.005,
            0.045,
            1e-300,
            5e-324,
            1e15,
            123456789.98765432,
            9007199254740993.0,
            1e22,
            3.0e30,
            0.1,
            0.7,
            1.0 / 3.0,
        ];
        // Deterministic pseudo-random values over many magnitudes.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state >> 1);
            if x.is_finite() {
                values.push(x);
            }
            values.push((state % 1_000_000) as f64 / 1000.0);
            values.push((state % 10_000) as f64 / 8.0);
        }
        for x in values {
            for p in 0..=19 {
                if let Some(got) = fixed_digits(x, p) {
                    assert_eq!(got, format!("{x:.p$}"), "{x:e} with {p} digits");
                }
            }
        }
        assert_eq!(fixed_digits(2.5, 0).as_deref(), Some("2"));
        assert_eq!(fixed_digits(0.125, 2).as_deref(), Some("0.12"));
        assert_eq!(fixed_digits(1e300, 2), None);
        assert_eq!(fixed_digits(0.5, 20), None);
    }
}
