//! Philox4x32-10, TensorFlow's counter-based generator, with TensorFlow's key/counter layout
//! (tensorflow/core/lib/random/philox_random.h) and its distributions
//! (random_distributions.h), so `tf.random.*` gives TensorFlow's numbers bit for bit.

/// One Philox4x32-10 generator: a 128-bit counter and a 64-bit key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Philox {
    /// The counter, lowest word first.
    pub counter: [u32; 4],
    /// The key, lowest word first.
    pub key: [u32; 2],
}

// The constants of the Philox paper (Salmon et al., 2011), as TensorFlow spells them.
const W32A: u32 = 0x9E37_79B9;
const W32B: u32 = 0xBB67_AE85;
const M4X32A: u32 = 0xD251_1F53;
const M4X32B: u32 = 0xCD9E_8D57;

impl Philox {
    /// TensorFlow's `PhiloxRandom(seed_lo, seed_hi)`: the first seed is the key, the second
    /// the upper half of the counter.
    pub fn from_seeds(seed_lo: u64, seed_hi: u64) -> Self {
        Philox {
            key: [seed_lo as u32, (seed_lo >> 32) as u32],
            counter: [0, 0, seed_hi as u32, (seed_hi >> 32) as u32],
        }
    }

    /// The key and counter of the stateless ops (`GenerateKey` in stateless_random_ops.cc):
    /// the two seeds are scrambled by one Philox call under a fixed key.
    pub fn stateless(seed0: u64, seed1: u64) -> Self {
        let mut scramble = Philox {
            key: [0x3ec8_f720, 0x0246_1e29],
            counter: [
                seed0 as u32,
                (seed0 >> 32) as u32,
                seed1 as u32,
                (seed1 >> 32) as u32,
            ],
        };
        let mix = scramble.next_block();
        Philox {
            key: [mix[0], mix[1]],
            counter: [0, 0, mix[2], mix[3]],
        }
    }

    /// The next four 32-bit words; the counter moves on by one.
    pub fn next_block(&mut self) -> [u32; 4] {
        let mut c = self.counter;
        let mut k = self.key;
        for round in 0..10 {
            if round > 0 {
                k[0] = k[0].wrapping_add(W32A);
                k[1] = k[1].wrapping_add(W32B);
            }
            let p0 = (M4X32A as u64) * (c[0] as u64);
            let p1 = (M4X32B as u64) * (c[2] as u64);
            c = [
                (p1 >> 32) as u32 ^ c[1] ^ k[0],
                p1 as u32,
                (p0 >> 32) as u32 ^ c[3] ^ k[1],
                p0 as u32,
            ];
        }
        self.skip(1);
        c
    }

    /// Moves the counter on by `count` blocks (128-bit samples), as `PhiloxRandom::Skip`.
    pub fn skip(&mut self, count: u64) {
        let lo = count as u32;
        let mut hi = (count >> 32) as u32;
        self.counter[0] = self.counter[0].wrapping_add(lo);
        if self.counter[0] < lo {
            hi = hi.wrapping_add(1);
        }
        self.counter[1] = self.counter[1].wrapping_add(hi);
        if self.counter[1] < hi {
            self.counter[2] = self.counter[2].wrapping_add(1);
            if self.counter[2] == 0 {
                self.counter[3] = self.counter[3].wrapping_add(1);
            }
        }
    }
}

/// Single 32-bit words from a Philox generator (`SingleSampleAdapter`).
#[derive(Debug, Clone)]
pub struct Single {
    /// The generator blocks come from.
    pub gen: Philox,
    block: [u32; 4],
    used: usize,
}

impl Single {
    /// Words from `gen`, starting at its next block.
    pub fn new(gen: Philox) -> Self {
        Single {
            gen,
            block: [0; 4],
            used: 4,
        }
    }
    /// The next word.
    pub fn next_u32(&mut self) -> u32 {
        if self.used == 4 {
            self.block = self.gen.next_block();
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }
    /// The next word pair as a uniform double in [0, 1) (`SimplePhilox::RandDouble`).
    pub fn next_f64(&mut self) -> f64 {
        let x0 = self.next_u32();
        let x1 = self.next_u32();
        u64_to_f64(x0, x1)
    }
}

/// A float in [0, 1) from the low 23 bits of a word (`Uint32ToFloat`).
pub fn u32_to_f32(x: u32) -> f32 {
    f32::from_bits((127 << 23) | (x & 0x7f_ffff)) - 1.0
}

/// A double in [0, 1) from 52 bits of two words (`Uint64ToDouble`).
pub fn u64_to_f64(x0: u32, x1: u32) -> f64 {
    let man = (((x0 & 0xf_ffff) as u64) << 32) | x1 as u64;
    f64::from_bits((1023 << 52) | man) - 1.0
}

/// Two standard normal floats from two words (`BoxMullerFloat`).
pub fn box_muller_f32(x0: u32, x1: u32) -> (f32, f32) {
    // Keeps log() away from zero, as TensorFlow does.
    let epsilon = 1.0e-7f32;
    let u1 = u32_to_f32(x0).max(epsilon);
    // `2.0f * M_PI * x` is computed in double (M_PI is a double), then stored as a float.
    let v1 = (2.0 * std::f64::consts::PI * u32_to_f32(x1) as f64) as f32;
    let u2 = (-2.0f32 * u1.ln()).sqrt();
    (v1.sin() * u2, v1.cos() * u2)
}

/// Two standard normal doubles from four words (`BoxMullerDouble`).
pub fn box_muller_f64(x0: u32, x1: u32, x2: u32, x3: u32) -> (f64, f64) {
    let epsilon = 1.0e-7f64;
    let u1 = u64_to_f64(x0, x1).max(epsilon);
    let v1 = 2.0 * std::f64::consts::PI * u64_to_f64(x2, x3);
    let u2 = (-2.0 * u1.ln()).sqrt();
    (v1.sin() * u2, v1.cos() * u2)
}

/// Which distribution a fill draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dist {
    /// Uniform floats in [0, 1).
    Uniform,
    /// Standard normal.
    Normal,
    /// Standard normal, values at or beyond two standard deviations drawn again.
    TruncatedNormal,
}

/// Whether the distribution works in double precision (else in float).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// float16, bfloat16 and float32 draw from float32 samples.
    F32,
    /// float64.
    F64,
}

/// How many 32-bit words one output may use in the variable-length distributions
/// (`kReservedSamplesPerOutput`); a group of outputs starts that many words per output
/// (four words a block) after the previous group.
const RESERVED_WORDS_PER_OUTPUT: u64 = 256;

/// `n` draws of `dist` from `gen`, laid out as TensorFlow's `FillPhiloxRandom` on the CPU
/// lays them out (groups of four floats or two doubles per block; the truncated normal's
/// groups each start 256 blocks apart). `push` receives every value in order.
pub fn fill(gen: Philox, dist: Dist, width: Width, n: usize, mut push: impl FnMut(f64)) {
    let group = match width {
        Width::F32 => 4,
        Width::F64 => 2,
    };
    let mut left = n;
    let mut g = gen;
    let mut index = 0u64;
    while left > 0 {
        let take = left.min(group);
        let vals: [f64; 4] = match dist {
            Dist::Uniform | Dist::Normal => {
                let s = g.next_block();
                group_values(dist, width, s)
            }
            Dist::TruncatedNormal => {
                let mut start = gen;
                start.skip(index * group as u64 * RESERVED_WORDS_PER_OUTPUT / 4);
                truncated_group(width, &mut Single::new(start))
            }
        };
        for v in &vals[..take] {
            push(*v);
        }
        left -= take;
        index += 1;
    }
}

fn group_values(dist: Dist, width: Width, s: [u32; 4]) -> [f64; 4] {
    match (dist, width) {
        (Dist::Uniform, Width::F32) => s.map(|x| u32_to_f32(x) as f64),
        (Dist::Uniform, Width::F64) => [u64_to_f64(s[0], s[1]), u64_to_f64(s[2], s[3]), 0.0, 0.0],
        (_, Width::F32) => {
            let (a, b) = box_muller_f32(s[0], s[1]);
            let (c, d) = box_muller_f32(s[2], s[3]);
            [a as f64, b as f64, c as f64, d as f64]
        }
        (_, Width::F64) => {
            let (a, b) = box_muller_f64(s[0], s[1], s[2], s[3]);
            [a, b, 0.0, 0.0]
        }
    }
}

fn truncated_group(width: Width, single: &mut Single) -> [f64; 4] {
    let want = match width {
        Width::F32 => 4,
        Width::F64 => 2,
    };
    let mut out = [0.0; 4];
    let mut got = 0;
    loop {
        let pair = match width {
            Width::F32 => {
                let (a, b) = box_muller_f32(single.next_u32(), single.next_u32());
                [a as f64, b as f64]
            }
            Width::F64 => {
                let w = [
                    single.next_u32(),
                    single.next_u32(),
                    single.next_u32(),
                    single.next_u32(),
                ];
                let (a, b) = box_muller_f64(w[0], w[1], w[2], w[3]);
                [a, b]
            }
        };
        for v in pair {
            if v.abs() < 2.0 {
                out[got] = v;
                got += 1;
                if got == want {
                    return out;
                }
            }
        }
    }
}

/// `n` uniform integers in [lo, hi) (`UniformDistribution<int32|int64>`: the word, or two
/// words low first, modulo the range).
pub fn fill_int(gen: Philox, wide: bool, lo: i64, hi: i64, n: usize, mut push: impl FnMut(i64)) {
    let mut g = gen;
    let mut left = n;
    while left > 0 {
        let s = g.next_block();
        if wide {
            let range = (hi as u64).wrapping_sub(lo as u64);
            for i in 0..2.min(left) {
                let bits = s[2 * i] as u64 | (s[2 * i + 1] as u64) << 32;
                push(lo.wrapping_add((bits % range) as i64));
            }
            left -= 2.min(left);
        } else {
            let range = (hi as i32 as u32).wrapping_sub(lo as i32 as u32);
            for x in s.iter().take(left.min(4)) {
                push((lo as i32).wrapping_add((x % range) as i32) as i64);
            }
            left -= 4.min(left);
        }
    }
}

/// How many 128-bit samples a stateful op reserves for `n` outputs
/// (`GuardedPhiloxRandom::ReserveRandomOutputs(n, 256)`).
pub fn reserved_for(n: usize) -> u64 {
    (n as u64).wrapping_mul(256)
}

/// TensorFlow's `Multinomial` kernel on one thread: for each row of `logits` (`rows` ×
/// `classes`, row-major), `samples` class indices drawn by inverting the unnormalised CDF
/// of exp(logit − max) with `RandDouble`, non-finite logits taking no mass.
pub fn multinomial(
    gen: Philox,
    logits: &[f64],
    rows: usize,
    classes: usize,
    samples: usize,
    mut push: impl FnMut(i64),
) {
    let mut single = Single::new(gen);
    // One row's CDF: `classes` is a dimension of `logits`, which is already in memory.
    #[allow(clippy::disallowed_methods)]
    let mut cdf = vec![0.0f64; classes];
    for row in logits.chunks(classes.max(1)).take(rows) {
        let max = row
            .iter()
            .filter(|x| x.is_finite())
            .fold(f64::MIN, |m, &x| m.max(x));
        let mut total = 0.0;
        for (c, &x) in cdf.iter_mut().zip(row) {
            if x.is_finite() {
                total += (x - max).exp();
            }
            *c = total;
        }
        for _ in 0..samples {
            let to_find = single.next_f64() * total;
            push(cdf.partition_point(|&c| c <= to_find) as i64);
        }
    }
}

/// TensorFlow's `RandomShuffle` order: a Fisher–Yates pass from the front, each swap partner
/// `word % remaining` of the next 32-bit word.
pub fn shuffle_order(gen: Philox, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut single = Single::new(gen);
    for i in 0..n.saturating_sub(1) {
        let r = if n - i > u32::MAX as usize {
            (single.next_u32() as u64 | (single.next_u32() as u64) << 32) % (n - i) as u64
        } else {
            (single.next_u32() % (n - i) as u32) as u64
        };
        order.swap(i, i + r as usize);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answer() {
        // The Random123 known-answer vector for philox4x32-10 with a zero counter and key.
        let mut p = Philox {
            counter: [0; 4],
            key: [0; 2],
        };
        assert_eq!(
            p.next_block(),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
    }
}
