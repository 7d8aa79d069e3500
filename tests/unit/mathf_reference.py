#!/usr/bin/python3
"""Writes tests/unit/mathf_expected.h: inputs of ops/core/mathf.h's functions and the values numpy
gives for them in float64, for tests/unit/test_mathf.c.

Each function's list holds its edge cases (NaN, +-inf, +-0, subnormals, the overflow and
underflow thresholds, the algorithms' branch points) and a sample of ordinary inputs (fixed
seed). The expected values are numpy's in float64 (np.exp, np.expm1, np.log, np.log1p, np.tanh,
1 / (1 + np.exp(-x)) for the sigmoid, np.power; erf from Python's math.erf, numpy having none),
written as the float64 value itself so that the test can measure the error in ulps; the test
wants a NaN, an inf or a zero (its sign included) exactly, and anything else within README's
bound. Nothing here comes from minnx.

    /usr/bin/python3 tests/unit/mathf_reference.py > tests/unit/mathf_expected.h
"""
import math
import random
import struct

import numpy as np


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


NAN = float("nan")
INF = float("inf")
TINY = f32(1)  # the smallest subnormal
SUB_MAX = f32(0x007fffff)
FMIN = f32(0x00800000)
FMAX = f32(0x7f7fffff)
COMMON = [NAN, INF, -INF, 0.0, -0.0, TINY, -TINY, SUB_MAX, -SUB_MAX, FMIN, -FMIN, FMAX, -FMAX, 1.0, -1.0,
          0.5, -0.5, 2.0, -2.0, 1e-30, -1e-30, 1e-8, -1e-8]

EDGES = {
    "exp": COMMON + [f32(0x42b17217), f32(0x42b17218), 88.0, 89.0, 100.0, -87.33654, -87.5, -100.0,
                     -103.9, -103.972, -104.0, -110.0, -1000.0, 1000.0, 0.34657359, -0.34657359],
    "expm1": COMMON + [f32(0x42b17217), f32(0x42b17218), 89.0, -17.0, -18.0, -19.0, -100.0, 0.7499999,
                       0.75, -0.75, -0.7500001, 1.04, -1.04, 16.9, 17.4, 1e-10, -1e-10],
    "log": COMMON + [f32(0x3f7fffff), f32(0x3f800001), math.e, 0.70710677, 0.7071068, 1.4142135,
                     1.4142137, 1e38, 1e-38, 1e-44],
    "log1p": COMMON + [f32(0xbf7fffff), f32(0xbf800001), -0.29289323, 0.41421357, 0.41421354, 1e38,
                       16777216.0, 8388609.0, 1e-44, -1e-44],
    "tanh": COMMON + [0.875, -0.875, f32(0x3f5fffff), -f32(0x3f5fffff), 9.0, -9.0, 9.1, 10.0, -10.0, 20.0,
                      -20.0, 1e-20, 0.625, -0.625, f32(0x3f1fffff), -f32(0x3f1fffff), 9.25, -9.25, f32(0x4113ffff),
                      -f32(0x4113ffff), f32(0x3f204892), -f32(0x3f204892), 0.1733, 4.0],
    "sigmoid": COMMON + [-88.0, -100.0, -103.0, -104.0, -110.0, 16.0, 17.0, 20.0, 100.0, -20.0, 0.25,
                         -87.33654, -87.5, -103.972, -103.99, -104.01, 103.99, 104.01, 17.32868, 17.3287,
                         -f32(0x40ddc97d), 1e-20, -1e-20],
    "erf": COMMON + [f32(0x3f7fffff), -f32(0x3f7fffff), 3.9, -3.9, 3.92, 4.0, -4.0, 5.0, -5.0, 1e-20, 0.01,
                     f32(0x3f7ed47f), -f32(0x3f7ed47f)],
}

POW_EDGES = [
    (NAN, 0.0), (NAN, -0.0), (1.0, NAN), (1.0, INF), (1.0, -INF), (-1.0, INF), (-1.0, -INF), (NAN, 1.0),
    (2.0, NAN), (NAN, NAN), (-2.0, 0.5), (-8.0, 1 / 3), (-INF, 0.5), (-INF, -0.5), (0.0, -1.0), (-0.0, -1.0),
    (-0.0, -2.0), (0.0, -0.5), (-0.0, -0.5), (-0.0, 3.0), (-0.0, 2.0), (0.0, 0.5), (-0.0, 0.5), (0.0, INF),
    (0.0, -INF), (-0.0, -INF), (0.5, INF), (0.5, -INF), (2.0, INF), (2.0, -INF), (-0.5, INF), (-0.5, -INF),
    (-2.0, INF), (-2.0, -INF), (-INF, -3.0), (-INF, -2.0), (-INF, 3.0), (-INF, 2.0), (INF, -1.0), (INF, 2.0),
    (INF, -0.5), (INF, INF), (INF, -INF), (-INF, INF), (-INF, -INF), (INF, 0.0), (-INF, -0.0), (-2.0, 3.0),
    (-2.0, 2.0), (-2.0, -1.0), (-3.0, -3.0), (2.0, 0.5), (10.0, 38.0), (10.0, 39.0), (10.0, -45.0),
    (10.0, -46.0), (2.0, -149.0), (2.0, -150.0), (2.0, -126.0), (2.0, 127.0), (2.0, 128.0), (-2.0, 127.0),
    (-2.0, 16777216.0), (-1.0, 8388609.0), (-1.0, 16777216.0), (-1.0, 1e30), (-1.0, 8388608.5 - 0.5),
    (-1.5, 8388607.0), (0.5, 149.0), (TINY, 0.5), (TINY, -0.5), (TINY, 2.0), (SUB_MAX, 1.0), (FMAX, 2.0),
    (FMAX, 0.5), (FMAX, -1.0), (-FMAX, 1.0), (-3.0, 1e10), (-0.5, 1e10), (f32(0x3f800001), 1e8),
    (f32(0x3f7fffff), -1e8), (4.0, 0.5), (27.0, 1 / 3), (1e-20, 2.0), (1e20, 2.0), (-1e20, 3.0),
]


def ref(name, x):
    with np.errstate(all="ignore"):
        x = np.float64(x)
        if name == "exp":
            return float(np.exp(x))
        if name == "expm1":
            return float(np.expm1(x))
        if name == "log":
            return float(np.log(x))
        if name == "log1p":
            return float(np.log1p(x))
        if name == "tanh":
            return float(np.tanh(x))
        if name == "sigmoid":
            return float(1 / (1 + np.exp(-x)))
        if name == "erf":
            return NAN if math.isnan(x) else math.erf(x)
    raise KeyError(name)


def pow_ref(x, y):
    with np.errstate(all="ignore"):
        return float(np.power(np.float64(x), np.float64(y)))


def sample(name, rng):
    """Ordinary inputs: uniform over the range where the function is not flat, and any bits."""
    lo, hi = {"exp": (-104, 89), "expm1": (-20, 89), "log": (0, 100), "log1p": (-1, 100),
              "tanh": (-10, 10), "sigmoid": (-110, 30), "erf": (-4.5, 4.5)}[name]
    xs = [rng.uniform(lo, hi) for _ in range(300)] + [rng.uniform(-1, 1) for _ in range(100)]
    xs += [f32(rng.getrandbits(32)) for _ in range(200)]
    return [f32(bits(x)) for x in xs if not math.isnan(x)]


def pow_sample(rng):
    out = []
    for _ in range(400):
        x = f32(bits(rng.uniform(0, 100) if rng.random() < 0.5 else 2.0 ** rng.uniform(-140, 120)))
        t = rng.uniform(-150, 125)
        y = f32(bits(t / math.log2(x))) if x != 1 else 2.0
        if rng.random() < 0.25:
            y, x = float(round(y)), -x
        out.append((x, y))
    out += [(f32(bits(rng.uniform(-10, 10))), float(rng.randint(-20, 20))) for _ in range(100)]
    return out


def c_float(x):
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    return float(x).hex() + "f" if x != 0 else ("-0.0f" if math.copysign(1, x) < 0 else "0.0f")


def c_double(x):
    if math.isnan(x):
        return "(double)NAN"
    if math.isinf(x):
        return "(double)INFINITY" if x > 0 else "-(double)INFINITY"
    return float(x).hex() if x != 0 else ("-0.0" if math.copysign(1, x) < 0 else "0.0")


def main():
    rng = random.Random(20261201)
    out = [f"/* Generated by tests/unit/mathf_reference.py (numpy {np.__version__}). Do not edit. */",
           "/* clang-format off */", "#include <math.h>",
           "", "typedef struct {", "  float x, y;", "  double want;", "} mathf_case;", ""]
    tables = []
    for name, edges in EDGES.items():
        xs = list({bits(x): f32(bits(x)) for x in edges}.values())  # (by bits: 0.0 == -0.0)
        xs += sample(name, rng)
        rows = [f"  {{{c_float(x)}, 0.0f, {c_double(ref(name, x))}}}," for x in xs]
        out += [f"static const mathf_case mathf_{name}[] = {{"] + rows + ["};", ""]
        tables.append(name)
    pairs = [(f32(bits(x)) if not math.isnan(x) else x, f32(bits(y)) if not math.isnan(y) else y)
             for x, y in POW_EDGES] + pow_sample(rng)
    rows = [f"  {{{c_float(x)}, {c_float(y)}, {c_double(pow_ref(x, y))}}}," for x, y in pairs]
    out += ["static const mathf_case mathf_pow[] = {"] + rows + ["};", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
