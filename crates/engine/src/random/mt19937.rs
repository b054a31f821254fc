//! MT19937, the Mersenne Twister of CPython's `random` module and NumPy's legacy
//! `np.random.RandomState`, with both of their seeding rules, so seeded draws match theirs.

/// The generator's 624-word state and position.
#[derive(Debug, Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    pos: usize,
    /// NumPy's cached second Gaussian of the polar method (`has_gauss`/`gauss`).
    pub gauss: Option<f64>,
}

impl Mt19937 {
    /// `init_genrand(s)`: the reference seeding from one word.
    pub fn from_u32(seed: u32) -> Self {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 {
            state,
            pos: 624,
            gauss: None,
        }
    }

    /// `init_by_array(key)`: the reference seeding from many words, which CPython uses for
    /// `random.Random(n)` (the words of |n|, lowest first) and NumPy for `seed(n)`.
    pub fn from_key(key: &[u32]) -> Self {
        let mut mt = Mt19937::from_u32(19_650_218);
        let s = &mut mt.state;
        let n = 624;
        let len = key.len().max(1);
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..n.max(len) {
            let k = key.get(j).copied().unwrap_or(0);
            s[i] = (s[i] ^ (s[i - 1] ^ (s[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(k)
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                s[0] = s[n - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            s[i] = (s[i] ^ (s[i - 1] ^ (s[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                s[0] = s[n - 1];
                i = 1;
            }
        }
        s[0] = 0x8000_0000;
        mt
    }

    /// The 32-bit words of a non-negative integer, lowest first (at least one word).
    pub fn key_of(mut n: u128) -> Vec<u32> {
        let mut key = vec![];
        while n > 0 {
            key.push(n as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        key
    }

    fn twist(&mut self) {
        let s = &mut self.state;
        for i in 0..624 {
            let y = (s[i] & 0x8000_0000) | (s[(i + 1) % 624] & 0x7fff_ffff);
            let mut v = s[(i + 397) % 624] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            s[i] = v;
        }
        self.pos = 0;
    }

    /// The state words and the position in them (CPython's `getstate()` holds both).
    pub fn words(&self) -> (&[u32; 624], usize) {
        (&self.state, self.pos)
    }

    /// A generator at `pos` (0 to 624) in the state words `state` (`setstate()`).
    pub fn from_words(state: [u32; 624], pos: usize) -> Self {
        Mt19937 {
            state,
            pos: pos.min(624),
            gauss: None,
        }
    }

    /// The next 32 random bits (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= 624 {
            self.twist();
        }
        let mut y = self.state[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in [0, 1) with 53 random bits (`genrand_res53`, CPython's `random()` and
    /// NumPy's `random_sample`).
    pub fn next_f64(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// CPython's `getrandbits(k)` for k ≤ 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            return (self.next_u32() >> (32 - k)) as u64;
        }
        let lo = self.next_u32() as u64;
        let hi = (self.next_u32() >> (64 - k)) as u64;
        lo | hi << 32
    }

    /// CPython's `randrange(0, n)` for 0 < n ≤ 2⁶³ (`_randbelow_with_getrandbits`).
    pub fn py_randbelow(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// NumPy's legacy bounded integer in [0, max] (`rk_interval`: masked rejection).
    pub fn np_interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for shift in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> shift;
        }
        if max <= 0xffff_ffff {
            loop {
                let v = (self.next_u32() as u64) & mask;
                if v <= max {
                    return v;
                }
            }
        }
        loop {
            // NumPy's `mt19937_next64`: the high word is drawn first.
            let hi = (self.next_u32() as u64) << 32;
            let v = (hi | self.next_u32() as u64) & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// NumPy's legacy standard normal: the polar Box–Muller method, caching the second value.
    pub fn np_gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.next_f64() - 1.0;
            let x2 = 2.0 * self.next_f64() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // mt19937ar.c's test: init_by_array({0x123, 0x234, 0x345, 0x456}).
        let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        assert_eq!(mt.next_u32(), 1_067_595_299);
        assert_eq!(mt.next_u32(), 955_945_823);
    }
}
