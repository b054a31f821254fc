"""Reference values for crates/engine/src/ops/special.rs: erf, erfc, lgamma, digamma and
erfinv at float64 points, and the digamma constants near its positive root.

The values come from mpmath at 60 significant digits, rounded once to the nearest float64,
so they are the correctly rounded answers a float64 kernel should approach. Python's own
math.erf, math.erfc and math.lgamma are checked against them (to 1e-14 relative), so the
recorded values are also what Python prints.

    python3 -m venv target/venv-special
    target/venv-special/bin/pip install mpmath
    target/venv-special/bin/python tools/special_reference.py

prints Rust constants to paste into special.rs's tests (and its digamma root constants).
"""

import math

import mpmath

mpmath.mp.dps = 60

# Points that cover each function's regimes: tiny arguments, the bulk, the tails, negative
# arguments through reflection, and the neighbourhoods where a float32-accurate fit failed.
ERF_POINTS = [1e-300, 1e-10, 1e-3, 0.1, 0.25, 0.5, 0.9, 1.0, -0.7, 2.5, 3.0, 4.5, -5.0, 5.9]
ERFC_POINTS = [-3.0, -0.7, 0.0, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 26.0]
LGAMMA_POINTS = [
    1e-8, 0.1, 0.5, 0.9, 1.5, 2.5, 3.5, 10.0, 100.0, 171.5, 1e5, 1e300,
    -0.5, -1.5, -10.3, -100.5,
]
DIGAMMA_POINTS = [
    1e-6, 0.1, 0.25, 0.5, 1.0, 1.4, 1.44, 1.45, 1.46, 1.4616, 1.47, 1.48, 1.5, 1.6, 2.0,
    3.5, 6.0, 9.99, 10.0, 10.5, 100.0, 1e6, 1e15, -0.25, -1.5, -2.25, -10.3, -100.5,
]
# The last two are the float64s nearest ±1 (1 - 2**-53), past the range of erfinv's first fit.
ERFINV_POINTS = [
    1e-10, 0.1, 0.3, 0.5, -0.7, 0.9, 0.99, -0.999999, 0.9999999999,
    0.9999999999999999, -0.9999999999999999,
]

# Taylor coefficients of digamma about its positive root: enough terms that the first
# dropped one is below 1e-18 of the first on |x - root| <= 1/4.
ROOT_TERMS = 24


def f64(v):
    return float(mpmath.mpf(v))


def rust_pairs(name, points, fn):
    print(f"const {name}: &[(f64, f64)] = &[")
    for x in points:
        print(f"    ({x!r}, {f64(fn(mpmath.mpf(x)))!r}),")
    print("];")


def check_python(fn_py, fn_mp, points):
    for x in points:
        want = f64(fn_mp(mpmath.mpf(x)))
        got = fn_py(x)
        assert abs(got - want) <= 1e-14 * abs(want), (fn_py.__name__, x, got, want)


def main():
    check_python(math.erf, mpmath.erf, ERF_POINTS)
    check_python(math.erfc, mpmath.erfc, ERFC_POINTS)
    check_python(math.lgamma, mpmath.loggamma, [x for x in LGAMMA_POINTS if x > 0])
    print("// Correctly rounded float64 answers from tools/special_reference.py (mpmath, 60 digits).")
    rust_pairs("ERF", ERF_POINTS, mpmath.erf)
    rust_pairs("ERFC", ERFC_POINTS, mpmath.erfc)
    # log|Γ(x)|: mpmath's loggamma is complex for negative x; its real part is log|Γ(x)|.
    rust_pairs("LGAMMA", LGAMMA_POINTS, lambda x: mpmath.re(mpmath.loggamma(x)))
    rust_pairs("DIGAMMA", DIGAMMA_POINTS, mpmath.digamma)
    rust_pairs("ERFINV", ERFINV_POINTS, mpmath.erfinv)

    root = mpmath.findroot(mpmath.digamma, 1.46)
    hi = f64(root)
    lo = f64(root - mpmath.mpf(hi))
    print("// The positive root of digamma as a sum of two float64s, and the Taylor")
    print("// coefficients ψ⁽ⁿ⁾(root) / n! for n = 1, 2, …")
    print(f"const ROOT_HI: f64 = {hi!r};")
    print(f"const ROOT_LO: f64 = {lo!r};")
    print(f"const ROOT_TAYLOR: [f64; {ROOT_TERMS}] = [")
    for n in range(1, ROOT_TERMS + 1):
        c = mpmath.polygamma(n, root) / mpmath.factorial(n)
        print(f"    {f64(c)!r},")
    print("];")


if __name__ == "__main__":
    main()
