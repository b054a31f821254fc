//! NumPy's default bit generator: `SeedSequence` → PCG64 (XSL-RR 128/64), and the
//! `Generator` algorithms on top of it (Lemire's bounded integers, the ziggurat normal,
//! masked-rejection intervals for shuffles), so `np.random.default_rng(seed)` draws NumPy's
//! numbers.

use super::ziggurat::{FI, KI, NOR_INV_R, NOR_R, WI};

const MULT: u128 = (2_549_297_995_355_413_924u128 << 64) | 4_865_540_595_714_422_341u128;

/// PCG64 with NumPy's buffered 32-bit half-words.
#[derive(Debug, Clone)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    half: Option<u32>,
}

// SeedSequence's hashing constants (numpy/random/bit_generator.pyx).
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const POOL: usize = 4;

fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut v = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    v = v.wrapping_mul(*hash_const);
    v ^ (v >> 16)
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> 16)
}

/// `SeedSequence(entropy).generate_state(n_words)` for entropy given as 32-bit words.
pub fn seed_sequence(entropy: &[u32], n_words: usize) -> Vec<u32> {
    let mut hash_const = INIT_A;
    let mut pool = [0u32; POOL];
    for (i, p) in pool.iter_mut().enumerate() {
        *p = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
    }
    for src in 0..POOL {
        for dst in 0..POOL {
            if src != dst {
                let h = hashmix(pool[src], &mut hash_const);
                pool[dst] = mix(pool[dst], h);
            }
        }
    }
    for &e in entropy.iter().skip(POOL) {
        for p in pool.iter_mut() {
            let h = hashmix(e, &mut hash_const);
            *p = mix(*p, h);
        }
    }
    let mut hash_const = INIT_B;
    (0..n_words)
        .map(|i| {
            let mut v = pool[i % POOL] ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_B);
            v = v.wrapping_mul(hash_const);
            v ^ (v >> 16)
        })
        .collect()
}

impl Pcg64 {
    /// `PCG64(SeedSequence(entropy))`.
    pub fn from_entropy_words(entropy: &[u32]) -> Self {
        let w = seed_sequence(entropy, 8);
        let u = |i: usize| w[2 * i] as u64 | (w[2 * i + 1] as u64) << 32;
        let seed = ((u(0) as u128) << 64) | u(1) as u128;
        let inc = ((u(2) as u128) << 64) | u(3) as u128;
        let mut p = Pcg64 {
            state: 0,
            inc: (inc << 1) | 1,
            half: None,
        };
        p.step();
        p.state = p.state.wrapping_add(seed);
        p.step();
        p
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(MULT).wrapping_add(self.inc);
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let s = self.state;
        (((s >> 64) as u64) ^ (s as u64)).rotate_right((s >> 122) as u32)
    }

    /// The next 32 bits (the low half of a 64-bit draw, then its high half).
    pub fn next_u32(&mut self) -> u32 {
        if let Some(h) = self.half.take() {
            return h;
        }
        let n = self.next_u64();
        self.half = Some((n >> 32) as u32);
        n as u32
    }

    /// A double in [0, 1) from 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// An integer in [0, rng] by Lemire's method (`random_bounded_uint64`, unmasked).
    pub fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            return 0;
        }
        if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                return self.next_u32() as u64;
            }
            let excl = rng as u32 + 1;
            let mut m = self.next_u32() as u64 * excl as u64;
            let mut leftover = m as u32;
            if leftover < excl {
                let threshold = (u32::MAX - rng as u32) % excl;
                while leftover < threshold {
                    m = self.next_u32() as u64 * excl as u64;
                    leftover = m as u32;
                }
            }
            return m >> 32;
        }
        if rng == u64::MAX {
            return self.next_u64();
        }
        let excl = rng + 1;
        let mut m = self.next_u64() as u128 * excl as u128;
        let mut leftover = m as u64;
        if leftover < excl {
            let threshold = (u64::MAX - rng) % excl;
            while leftover < threshold {
                m = self.next_u64() as u128 * excl as u128;
                leftover = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// An integer in [0, max] by masked rejection (`random_interval`, used by shuffles).
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for shift in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> shift;
        }
        loop {
            let v = if max <= 0xffff_ffff {
                self.next_u32() as u64 & mask
            } else {
                self.next_u64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }

    /// A standard normal by NumPy's ziggurat (`random_standard_normal`).
    pub fn normal(&mut self) -> f64 {
        loop {
            let mut r = self.next_u64();
            let idx = (r & 0xff) as usize;
            r >>= 8;
            let sign = r & 1;
            let rabs = (r >> 1) & 0x000f_ffff_ffff_ffff;
            let mut x = rabs as f64 * WI[idx];
            if sign & 1 == 1 {
                x = -x;
            }
            if rabs < KI[idx] {
                return x;
            }
            if idx == 0 {
                loop {
                    let xx = -NOR_INV_R * (-self.next_f64()).ln_1p();
                    let yy = -(-self.next_f64()).ln_1p();
                    if yy + yy > xx * xx {
                        return if (rabs >> 8) & 1 == 1 {
                            -(NOR_R + xx)
                        } else {
                            NOR_R + xx
                        };
                    }
                }
            } else if (FI[idx - 1] - FI[idx]) * self.next_f64() + FI[idx] < (-0.5 * x * x).exp() {
                return x;
            }
        }
    }
}
