#!/usr/bin/python3
"""Fits the polynomial coefficients of ops/core/mathf.h and prints them as C hex floats.

Each polynomial approximates a smooth function on the reduced interval its algorithm gives it
(the header's comments say which); the fit is a weighted minimax one by Lawson's algorithm
(iteratively reweighted least squares in float64 with numpy), on 4000 Chebyshev points. For the
float32 polynomials, the coefficients are rounded to float32 one at a time, lowest degree first,
and the remaining ones refitted after each rounding, so that the rounding errors of the earlier
coefficients are absorbed by the later ones. The reference values come from Python's math module
(double precision, far below float32's rounding). The float32 coefficients come out the same,
bit for bit, every run; the double ones (powf's internals) vary in their trailing bits from run
to run (numpy's least squares is not bit-reproducible), which moves the polynomials by less than
2^-49, below their fitted error (2^-45): the header holds one run's.

    /usr/bin/python3 tests/ulp/fit.py
"""
import math

import numpy as np


def chebyshev_points(a, b, n=4000):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos(np.pi * (k + 0.5) / n)


def lawson(columns, target, weight, iters=60):
    """Coefficients c minimizing max |weight * (columns @ c - target)|."""
    a = columns * weight[:, None]
    b = target * weight
    w = np.ones(len(b)) / len(b)
    for _ in range(iters):
        sw = np.sqrt(w)
        c = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)[0]
        e = np.abs(a @ c - b)
        w = w * e
        w /= w.sum()
    return c, np.max(np.abs(a @ c - b))


def fit(t, powers, target, weight, as_float32=True):
    """Fits target(t) ~ sum c_i t^powers[i] under weight; returns the coefficients and the error."""
    fixed = []
    err = None
    for i in range(len(powers)):
        rest = target - sum(c * t ** p for c, p in zip(fixed, powers))
        cols = np.stack([t ** p for p in powers[i:]], axis=1)
        c, err = lawson(cols, rest, weight)
        if not as_float32:
            return list(c), err
        fixed.append(float(np.float32(c[0])))
    rest = target - sum(c * t ** p for c, p in zip(fixed, powers))
    return fixed, np.max(np.abs(rest * weight))


def show(name, coeffs, err, suffix="f"):
    print(f"/* {name}: max weighted error {err:.3g} (2^{math.log2(err):.1f}) */")
    for i, c in enumerate(coeffs):
        print(f"  {float(c).hex()}{suffix}, /* {c:.9g} */")


vexp = np.vectorize(math.exp)
vlog1p = np.vectorize(math.log1p)
vtanh = np.vectorize(math.tanh)
verf = np.vectorize(math.erf)
verfc = np.vectorize(math.erfc)

# expf: e^r = 1 + r + r^2 P(r) on |r| <= ln2/2 (a little beyond, for the rounding of k), relative error.
r = chebyshev_points(-0.3466 * 1.001, 0.3466 * 1.001)
c, e = fit(r, [0, 1, 2, 3, 4], (vexp(r) - 1 - r) / r ** 2, r ** 2 / vexp(r))
show("exp: P(r), e^r = 1 + r + r^2 P(r)", c, e)

# expm1f: e^r - 1 = r + r^2 P(r) on |r| <= 0.75 (x itself below 0.75), relative error of e^r - 1.
r = chebyshev_points(-0.75, 0.75)
c, e = fit(r, [0, 1, 2, 3, 4, 5, 6], (vexp(r) - 1 - r) / r ** 2, r ** 2 / np.abs(np.expm1(r)))
show("expm1: P(r), e^r - 1 = r + r^2 P(r), |r| <= 0.75", c, e)

# logf, log1pf: with s = f / (2 + f), f in [sqrt(1/2) - 1, sqrt(2) - 1], z = s^2 <= 0.0295,
# log(1 + f) = 2s + s R(z), R(z) = z Q(z); R's error counts half (log(1 + f) ~ 2s).
smax = (math.sqrt(2) - 1) / (math.sqrt(2) + 1)
s = chebyshev_points(1e-6, smax * 1.001)
z = s * s
R = (vlog1p(2 * s / (1 - s)) - 2 * s) / s
c, e = fit(z, [1, 2, 3, 4], R, 0.5 * np.ones_like(z))
show("log: R(z) = z (c0 + c1 z + c2 z^2 + c3 z^3)", c, e)

# tanhf, |x| < 0.625: tanh x = x + x^3 P(x^2), relative error. (Its other branch, e^2|x|, takes
# exp's P with its coefficients scaled by 2^(i+1).)
x = chebyshev_points(1e-4, 0.625)
c, e = fit(x * x, [0, 1, 2, 3, 4], (vtanh(x) - x) / x ** 3, x ** 3 / vtanh(x))
show("tanh: P(x^2), tanh x = x + x^3 P(x^2), |x| < 0.625", c, e)

# erff, |x| < 1: erf x = x + x P(x^2), relative error.
x = chebyshev_points(1e-4, 1.0)
c, e = fit(x * x, [0, 1, 2, 3, 4, 5, 6], (verf(x) - x) / x, x / verf(x))
show("erf: P(x^2), erf x = x + x P(x^2), |x| < 1", c, e)

# erff, 1 <= x <= 4: erfc x = e^(-x^2) Q(x), with x - 2.5 as the variable; erf x = 1 - erfc x, so
# the error that counts is erfc's absolute one, here in units of 2^-24 (erf's ulp on [0.5, 1)).
x = chebyshev_points(1.0, 4.0)
q = verfc(x) * vexp(x * x)
c, e = fit(x - 2.5, list(range(10)), q, vexp(-x * x) / 2.0 ** -24)
show("erfc: Q(x - 2.5), erfc x = e^(-x^2) Q(x), 1 <= x <= 4, error in 2^-24", c, e)

# powf, in double: log(1 + f) = 2s + s R(z) as for logf, to 2^-44 relative.
c, e = fit(z, [1, 2, 3, 4, 5], R, 0.5 * np.ones_like(z), as_float32=False)
show("pow: R(z) in double", c, e, suffix="")
# 2^r on |r| <= 1/2, in double: 2^r = 1 + r P(r), relative error.
r = chebyshev_points(-0.5 * 1.001, 0.5 * 1.001)
two = np.exp2(r)
c, e = fit(r, list(range(9)), (two - 1) / r, r / two, as_float32=False)
show("pow: P(r), 2^r = 1 + r P(r), |r| <= 1/2, in double", c, e, suffix="")
