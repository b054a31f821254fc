//! Special functions for the elementwise kernels that libm does not provide: the inverse
//! error function and digamma, to float64 precision.
//!
//! erf, erfc and lgamma come from the `libm` crate (the kernels call it directly); erfinv
//! refines an approximation with Newton steps on them, and digamma is written here.

use std::f64::consts::{FRAC_2_SQRT_PI, PI};

/// The most Newton steps erfinv takes towards ±1: from the fit's worst start (12% off at
/// 1 - 2⁻⁵³, where the fit is used past its range) they converge in five.
const NEWTON_STEPS_MAX: usize = 8;

/// The error function (libm's), for callers outside the engine.
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// The inverse error function: NaN outside [-1, 1], ±inf at the ends.
pub fn erfinv(y: f64) -> f64 {
    if y.is_nan() || !(-1.0..=1.0).contains(&y) {
        return f64::NAN;
    }
    if y == 1.0 {
        return f64::INFINITY;
    }
    if y == -1.0 {
        return f64::NEG_INFINITY;
    }
    // Giles' single-precision approximation (about 1e-7 relative), then Newton steps, each
    // of which doubles the correct digits.
    let w = -((1.0 - y) * (1.0 + y)).ln();
    let mut x = if w < 5.0 {
        let w = w - 2.5;
        let mut p = 2.810_226_36e-08;
        for c in [
            3.432_739_39e-07,
            -3.523_387_7e-06,
            -4.391_506_54e-06,
            0.000_218_580_87,
            -0.001_253_725_03,
            -0.004_177_681_64,
            0.246_640_727,
            1.501_409_41,
        ] {
            p = c + p * w;
        }
        p * y
    } else {
        let w = w.sqrt() - 3.0;
        let mut p = -0.000_200_214_257;
        for c in [
            0.000_100_950_558,
            0.001_349_343_22,
            -0.003_673_428_44,
            0.005_739_507_73,
            -0.007_622_461_3,
            0.009_438_870_47,
            1.001_674_06,
            2.832_976_82,
        ] {
            p = c + p * w;
        }
        p * y
    };
    if y.abs() <= 0.5 {
        // Here Giles' fit is good to 1e-7, and two steps take it past float64's digits.
        for _ in 0..2 {
            let err = libm::erf(x) - y;
            x -= err / (FRAC_2_SQRT_PI * (-x * x).exp());
        }
        return x;
    }
    // Towards ±1, erf(x) - y cancels to a few digits, so the steps solve erfc(a) = q for
    // a = |x| instead, with q = 1 - |y| (exact for |y| >= 0.5). They solve it in logarithms,
    // ln erfc(a) = ln q: that curve is nearly a parabola, so Newton's steps converge from the
    // fit's start even where the fit (made for float32's range) is several per cent off, as
    // it is for q below about 1e-8.
    let ln_q = (1.0 - y.abs()).ln();
    let mut a = x.abs();
    for _ in 0..NEWTON_STEPS_MAX {
        let c = libm::erfc(a);
        let step = (c.ln() - ln_q) * c / (FRAC_2_SQRT_PI * (-a * a).exp());
        a += step;
        if step.abs() <= f64::EPSILON * a {
            break;
        }
    }
    a.copysign(y)
}

/// The positive root of digamma (1.4616…) as the sum of two float64s, so that `x - root`
/// keeps its digits next to the root (from tools/special_reference.py).
const ROOT_HI: f64 = 1.461_632_144_968_362_2;
const ROOT_LO: f64 = 9.549_995_429_965_697e-17;

/// How far from the root the Taylor series below is used: beyond it |ψ(x)| > 0.2, so the
/// recurrence's rounding (a few 1e-16 absolute, from sums near ln 10) stays near 1e-15
/// relative.
const ROOT_WINDOW: f64 = 1.0 / 4.0;

/// ψ⁽ⁿ⁾(root) / n! for n = 1, 2, …: the terms shrink by about 1/root per power, so within
/// `ROOT_WINDOW` the first one left out is below 1e-18 of the first (from
/// tools/special_reference.py).
const ROOT_TAYLOR: [f64; 24] = [
    0.967_672_245_447_621_2,
    -0.442_763_168_983_592_1,
    0.258_499_760_955_651,
    -0.163_942_705_442_406_52,
    0.107_824_050_691_262_37,
    -0.072_199_561_256_454_71,
    0.048_804_288_164_143_11,
    -0.033_161_126_474_847_36,
    0.022_597_648_232_218_104,
    -0.015_424_765_904_948_96,
    0.010_538_791_616_612_175,
    -0.007_204_534_386_356_869,
    0.004_926_781_395_729_853,
    -0.003_369_801_655_439_328,
    0.002_305_126_326_734_928,
    -0.001_576_936_771_430_197_2,
    0.001_078_825_201_916_296_7,
    -0.000_738_070_938_996_005_2,
    0.000_504_953_265_834_602,
    -0.000_345_468_025_106_307_7,
    0.000_236_356_015_640_270_53,
    -0.000_161_706_220_919_748_03,
    0.000_110_633_727_687_474_1,
    -7.569_179_582_195_066e-05,
];

/// Where the asymptotic series starts: from x = 10 its terms through B₁₆ leave an error
/// below 1e-17 relative.
const ASYMPTOTIC_FROM: f64 = 10.0;

/// B₂ₖ / 2k for k = 1..8, the coefficients of 1/x²ᵏ in ψ(x) ~ ln x - 1/2x - Σ B₂ₖ/(2k x²ᵏ).
const ASYMPTOTIC: [f64; 8] = [
    1.0 / 12.0,
    -1.0 / 120.0,
    1.0 / 252.0,
    -1.0 / 240.0,
    1.0 / 132.0,
    -691.0 / 32760.0,
    1.0 / 12.0,
    -3617.0 / 8160.0,
];

/// The digamma function ψ(x), the derivative of lgamma: NaN at the poles (0 and the negative
/// integers) and at -inf, as TensorFlow gives.
///
/// For x > 0 it is within about 2e-15 relative of the true value. Below 0, next to the root
/// that each interval between poles holds, the relative error grows (to a few 1e-14 within
/// 0.01 of one): the reflection and the recurrence subtract nearly equal terms there.
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x <= 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x <= -1.0 {
        // Reflection: ψ(1 - x) - ψ(x) = π / tan(πx). tan has period 1, so x's fraction, moved
        // into [-1/2, 1/2] (both exact), keeps πx from losing digits for large |x|.
        let mut r = x - x.floor();
        if r > 0.5 {
            r -= 1.0;
        }
        return digamma(1.0 - x) - PI / (PI * r).tan();
    }
    let mut x = x;
    let mut acc = 0.0;
    // ψ(x) = ψ(x + 1) - 1/x lifts (-1, 1) into [1, 2), away from the pole at 0.
    while x < 1.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let h = (x - ROOT_HI) - ROOT_LO;
    if h.abs() <= ROOT_WINDOW {
        return acc + h * ROOT_TAYLOR.iter().rev().fold(0.0, |s, &c| s * h + c);
    }
    while x < ASYMPTOTIC_FROM {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let inv2 = 1.0 / (x * x);
    let series = ASYMPTOTIC.iter().rev().fold(0.0, |s, &c| s * inv2 + c) * inv2;
    acc + x.ln() - 0.5 / x - series
}

#[cfg(test)]
mod tests {
    use super::*;

    // Correctly rounded float64 answers from tools/special_reference.py (mpmath, 60 digits).
    const ERF: &[(f64, f64)] = &[
        (1e-300, 1.1283791670955126e-300),
        (1e-10, 1.1283791670955126e-10),
        (0.001, 0.0011283787909692365),
        (0.1, 0.1124629160182849),
        (0.25, 0.27632639016823696),
        (0.5, 0.5204998778130465),
        (0.9, 0.7969082124228322),
        (1.0, 0.8427007929497149),
        (-0.7, -0.6778011938374184),
        (2.5, 0.999593047982555),
        (3.0, 0.9999779095030014),
        (4.5, 0.9999999998033839),
        (-5.0, -0.9999999999984626),
        (5.9, 0.9999999999999999),
    ];
    const ERFC: &[(f64, f64)] = &[
        (-3.0, 1.9999779095030015),
        (-0.7, 1.6778011938374184),
        (0.0, 1.0),
        (0.1, 0.887537083981715),
        (0.5, 0.4795001221869535),
        (1.0, 0.15729920705028513),
        (2.5, 0.0004069520174449589),
        (5.0, 1.537459794428035e-12),
        (10.0, 2.088487583762545e-45),
        (26.0, 5.663192408856143e-296),
    ];
    const LGAMMA: &[(f64, f64)] = &[
        (1e-08, 18.42068073818021),
        (0.1, 2.252712651734206),
        (0.5, 0.5723649429247001),
        (0.9, 0.06637623973474295),
        (1.5, -0.12078223763524522),
        (2.5, 0.2846828704729192),
        (3.5, 1.2009736023470743),
        (10.0, 12.801827480081469),
        (100.0, 359.1342053695754),
        (171.5, 709.1431630309282),
        (100000.0, 1051287.7089736569),
        (1e+300, 6.897755278982137e+302),
        (-0.5, 1.2655121234846454),
        (-1.5, 0.860047015376481),
        (-10.3, -14.457515440024208),
        (-100.5, -364.90096830942736),
    ];
    const DIGAMMA: &[(f64, f64)] = &[
        (1e-06, -1000000.5772140201),
        (0.1, -10.423754940411076),
        (0.25, -4.2274535333762655),
        (0.5, -1.9635100260214235),
        (1.0, -0.5772156649015329),
        (1.4, -0.06138454458511624),
        (1.44, -0.02114267033353053),
        (1.45, -0.011316422586445888),
        (1.46, -0.0015805619870834522),
        (1.4616, -3.110625123034165e-05),
        (1.47, 0.008066489011364869),
        (1.48, 0.017626268388849453),
        (1.5, 0.03648997397857652),
        (1.6, 0.12604745277347632),
        (2.0, 0.42278433509846713),
        (3.5, 1.103156640645243),
        (6.0, 1.7061176684318005),
        (9.99, 2.250700372831201),
        (10.0, 2.251752589066721),
        (10.5, 2.3030010342976865),
        (100.0, 4.600161852738087),
        (1000000.0, 13.815510057964191),
        (1000000000000000.0, 34.538776394910684),
        (-0.25, 2.9141391202135276),
        (-1.5, 0.7031566406452432),
        (-2.25, 4.158583564657972),
        (-10.3, 4.662403493582087),
        (-100.5, 4.6151246013380645),
    ];
    const ERFINV: &[(f64, f64)] = &[
        (1e-10, 8.862269254527581e-11),
        (0.1, 0.08885599049425769),
        (0.3, 0.2724627147267543),
        (0.5, 0.4769362762044699),
        (-0.7, -0.7328690779592167),
        (0.9, 1.1630871536766743),
        (0.99, 1.8213863677184494),
        (-0.999999, -3.458910737275499),
        (0.9999999999, 4.572824958544925),
        (0.9999999999999999, 5.8635847487551676),
        (-0.9999999999999999, -5.8635847487551676),
    ];

    /// Every answer to within `tol` relative (absolute below the smallest normal).
    #[track_caller]
    fn check(name: &str, table: &[(f64, f64)], f: impl Fn(f64) -> f64, tol: f64) {
        for &(x, want) in table {
            let got = f(x);
            let err = (got - want).abs() / want.abs().max(f64::MIN_POSITIVE);
            assert!(
                err <= tol,
                "{name}({x}) = {got}, want {want} (relative error {err:e})"
            );
        }
    }

    /// libm's erf, erfc and lgamma, as the kernels call them, to float64 precision.
    #[test]
    fn libm_matches_the_reference() {
        check("erf", ERF, libm::erf, 1e-14);
        check("erfc", ERFC, libm::erfc, 1e-14);
        check("lgamma", LGAMMA, libm::lgamma, 1e-14);
    }

    #[test]
    fn digamma_matches_the_reference() {
        check("digamma", DIGAMMA, digamma, 1e-14);
        // At the float64 nearest the root, ψ is the slope there times the distance.
        let at_root = digamma(ROOT_HI);
        assert!(
            (at_root + ROOT_TAYLOR[0] * ROOT_LO).abs() < 1e-30,
            "{at_root:e}"
        );
    }

    #[test]
    fn erfinv_matches_the_reference() {
        check("erfinv", ERFINV, erfinv, 1e-14);
    }

    #[test]
    fn poles_and_ends() {
        assert!(digamma(0.0).is_nan() && digamma(-2.0).is_nan() && digamma(-1.0).is_nan());
        assert!(digamma(f64::NEG_INFINITY).is_nan() && digamma(f64::NAN).is_nan());
        assert_eq!(digamma(f64::INFINITY), f64::INFINITY);
        assert_eq!(libm::lgamma(0.0), f64::INFINITY);
        assert_eq!(libm::lgamma(-3.0), f64::INFINITY);
        assert_eq!(libm::lgamma(f64::NEG_INFINITY), f64::INFINITY);
        assert_eq!(erfinv(1.0), f64::INFINITY);
        assert_eq!(erfinv(-1.0), f64::NEG_INFINITY);
        assert!(erfinv(1.5).is_nan() && erfinv(f64::NAN).is_nan());
        assert_eq!(erfinv(0.0), 0.0);
    }
}
