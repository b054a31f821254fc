//! The samplers of TensorFlow's `RandomGamma` and `RandomPoissonV2` kernels
//! (tensorflow/core/kernels/random_gamma_op.cc, random_poisson_op.cc), draw for draw: every
//! output takes its own Philox stream, 256 blocks apart, and the draws are laid out as
//! `[samples..., params...]` while the work runs parameter by parameter.

use super::philox::{box_muller_f64, u64_to_f64, Philox};

/// Blocks each output may use (`kReservedSamplesPerOutput`).
pub const RESERVED_PER_OUTPUT: u64 = 256;

/// `UniformDistribution<PhiloxRandom, double>` read as the kernels' `UNIFORM` macro does:
/// two doubles a block, the second first.
struct Draws {
    gen: Philox,
    uniform: [f64; 2],
    uniform_left: usize,
    normal: [f64; 2],
    normal_left: usize,
}

impl Draws {
    fn new(rng: Philox, output: u64) -> Draws {
        let mut gen = rng;
        gen.skip(RESERVED_PER_OUTPUT * output);
        Draws {
            gen,
            uniform: [0.0; 2],
            uniform_left: 0,
            normal: [0.0; 2],
            normal_left: 0,
        }
    }
    fn uniform(&mut self) -> f64 {
        if self.uniform_left == 0 {
            let b = self.gen.next_block();
            self.uniform = [u64_to_f64(b[0], b[1]), u64_to_f64(b[2], b[3])];
            self.uniform_left = 2;
        }
        self.uniform_left -= 1;
        self.uniform[self.uniform_left]
    }
    fn normal(&mut self) -> f64 {
        if self.normal_left == 0 {
            let b = self.gen.next_block();
            let (x, y) = box_muller_f64(b[0], b[1], b[2], b[3]);
            self.normal = [x, y];
            self.normal_left = 2;
        }
        self.normal_left -= 1;
        self.normal[self.normal_left]
    }
}

/// Gamma(alpha, 1) draws: `out[s * alphas.len() + a]` is sample `s` for `alphas[a]`. `rng`
/// is the kernel's generator after reserving `256 * num_samples * alphas.len()` blocks.
pub fn gamma(rng: Philox, alphas: &[f64], num_samples: usize, out: &mut [f64]) {
    let num_alphas = alphas.len();
    for (ai, &alpha) in alphas.iter().enumerate() {
        for s in 0..num_samples {
            let output = (ai * num_samples + s) as u64;
            let mut d = Draws::new(rng, output);
            out[s * num_alphas + ai] = if alpha == 1.0 {
                -(-d.uniform()).ln_1p()
            } else {
                gamma_one(&mut d, alpha)
            };
        }
    }
}

/// Marsaglia and Tsang's transformation-rejection, as the kernel runs it.
fn gamma_one(d: &mut Draws, alpha: f64) -> f64 {
    let less = alpha < 1.0;
    let dd = alpha + if less { 2.0 / 3.0 } else { -1.0 / 3.0 };
    let c = 1.0 / 3.0 / dd.sqrt();
    loop {
        let x = d.normal();
        let mut v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        v = v * v * v;
        let u = d.uniform();
        if (u < 1.0 - 0.0331 * (x * x) * (x * x))
            || (u.ln() < 0.5 * x * x + dd * (1.0 - v + v.ln()))
        {
            let mut res = dd * v;
            if less {
                let b = d.uniform();
                res *= b.powf(1.0 / alpha);
            }
            return res;
        }
        // A NaN alpha never accepts in the kernel either; stop rather than spin.
        if alpha.is_nan() {
            return f64::NAN;
        }
    }
}

/// Poisson(rate) draws laid out as [`gamma`]'s; `highest` is the output dtype's largest
/// value (Knuth's loop stops counting there). `lgamma` is the log-gamma function.
pub fn poisson(
    rng: Philox,
    rates: &[f64],
    num_samples: usize,
    highest: f64,
    lgamma: fn(f64) -> f64,
    out: &mut [f64],
) {
    let num_rates = rates.len();
    for (ri, &rate) in rates.iter().enumerate() {
        for s in 0..num_samples {
            let output = (ri * num_samples + s) as u64;
            let slot = &mut out[s * num_rates + ri];
            if rate < 10.0 {
                let mut d = Draws::new(rng, output);
                let exp_neg_rate = (-rate).exp();
                let (mut prod, mut x) = (1.0f64, 0.0f64);
                loop {
                    prod *= d.uniform();
                    if prod <= exp_neg_rate && x <= highest {
                        *slot = x;
                        break;
                    }
                    x += 1.0;
                }
                continue;
            }
            if rate.is_infinite() && rate > 0.0 {
                *slot = f64::INFINITY;
                continue;
            }
            if rate.is_nan() {
                *slot = f64::NAN;
                continue;
            }
            let mut d = Draws::new(rng, output);
            let log_rate = rate.ln();
            let b = 0.931 + 2.53 * rate.sqrt();
            let a = -0.059 + 0.02483 * b;
            let inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
            loop {
                let u = d.uniform() - 0.5;
                let v = d.uniform();
                let u_shifted = 0.5 - u.abs();
                let k = ((2.0 * a / u_shifted + b) * u + rate + 0.43).floor();
                if k < 0.0 {
                    continue;
                }
                if u_shifted >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2.0) {
                    *slot = k;
                    break;
                }
                if u_shifted < 0.013 && v > u_shifted {
                    continue;
                }
                let s = (v * inv_alpha / (a / (u_shifted * u_shifted) + b)).ln();
                let t = -rate + k * log_rate - lgamma(k + 1.0);
                if s <= t {
                    *slot = k;
                    break;
                }
            }
        }
    }
}
