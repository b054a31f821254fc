//! Reproducible random numbers for `tf.random.*`: a small PCG generator, seeded, so that
//! notebooks and golden transcripts give the same tensors on every run.

/// PCG-XSH-RR 64/32: tiny, fast, and good enough for example data.
#[derive(Debug, Clone)]
pub struct Pcg {
    state: u64,
}

/// The seed used when the user gives none, so that output is deterministic.
pub const DEFAULT_SEED: u64 = 0x5EED_0F7A_67A6;

impl Pcg {
    const MUL: u64 = 6364136223846793005;
    const INC: u64 = 1442695040888963407;

    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        let mut p = Pcg { state: 0 };
        p.next_u32();
        p.state = p.state.wrapping_add(seed);
        p.next_u32();
        p
    }
    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(Self::MUL).wrapping_add(Self::INC);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        let hi = (self.next_u32() as u64) << 21;
        let lo = (self.next_u32() >> 11) as u64;
        ((hi | lo) as f64) / (1u64 << 53) as f64
    }
    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = self.uniform();
            if u > 0.0 {
                let v = self.uniform();
                return (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos();
            }
        }
    }
    /// Standard normal truncated to ±2 (values beyond are redrawn), as TensorFlow's
    /// `truncated_normal` does.
    pub fn truncated_normal(&mut self) -> f64 {
        loop {
            let x = self.normal();
            if x.abs() <= 2.0 {
                return x;
            }
        }
    }
}

pub mod gamma_poisson;
pub mod mt19937;
pub mod pcg64;
pub mod philox;
mod ziggurat;

/// 64 bits of fresh entropy from the operating system (through the standard library's
/// randomly keyed hasher), for sessions that must not repeat their draws.
pub fn os_entropy() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Pcg::new(7);
        let mut b = Pcg::new(7);
        for _ in 0..1000 {
            let (x, y) = (a.uniform(), b.uniform());
            assert_eq!(x, y);
            assert!((0.0..1.0).contains(&x));
            assert!(a.truncated_normal().abs() <= 2.0);
            b.truncated_normal();
        }
    }
}
