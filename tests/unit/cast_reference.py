#!/usr/bin/python3
"""Writes tests/unit/cast_expected.h: inputs and expected outputs of Cast for every pair of minnx's
numeric dtypes and bool, for tests/unit/test_cast.c.

The expected values are computed here from each input's exact value (Python integers and
fractions): rounding to nearest even into a float format, truncation toward zero with saturation
into an integer type (NaN -> 0), low bits from integer to integer, x != 0 into bool. The script
then checks them against numpy (float16, float32, float64, and every integer) and PyTorch
(bfloat16 from float32) wherever those libraries are exact and defined, and stops on a
difference. Nothing here comes from minnx.

    /usr/bin/python3 tests/unit/cast_reference.py > tests/unit/cast_expected.h
"""
import math
import random
import struct
import sys
from fractions import Fraction

import numpy as np

# name -> (ONNX number, C element type), in the header's order
DTYPES = {
    "float": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7, "bool": 9,
    "float16": 10, "double": 11, "uint32": 12, "uint64": 13, "bfloat16": 16,
}
FLOATS = {"float16": (5, 10), "bfloat16": (8, 7), "float": (8, 23), "double": (11, 52)}  # exponent, mantissa bits
INTS = {"int8": (8, True), "int16": (16, True), "int32": (32, True), "int64": (64, True),
        "uint8": (8, False), "uint16": (16, False), "uint32": (32, False), "uint64": (64, False)}
NAN = "nan"


def width(name):
    if name in FLOATS:
        return 1 + sum(FLOATS[name])
    return 8 if name == "bool" else INTS[name][0]


# ---- exact values of float bit patterns, and rounding to nearest even ----

def decode(bits, name):
    """(sign, magnitude) with magnitude a Fraction or math.inf; NaN for NaN."""
    e_bits, m_bits = FLOATS[name]
    sign = bits >> (e_bits + m_bits)
    e = (bits >> m_bits) & ((1 << e_bits) - 1)
    m = bits & ((1 << m_bits) - 1)
    bias = (1 << (e_bits - 1)) - 1
    if e == (1 << e_bits) - 1:
        return NAN if m else (sign, math.inf)
    if e == 0:
        return sign, Fraction(m) * Fraction(2) ** (1 - bias - m_bits)
    return sign, Fraction((1 << m_bits) | m) * Fraction(2) ** (e - bias - m_bits)


def encode(value, name):
    """The bits of (sign, magnitude) rounded to nearest, ties to even; beyond the range: inf."""
    e_bits, m_bits = FLOATS[name]
    bias = (1 << (e_bits - 1)) - 1
    inf = ((1 << e_bits) - 1) << m_bits
    if value == NAN:
        return inf | (1 << (m_bits - 1))
    sign, mag = value
    s = sign << (e_bits + m_bits)
    if mag == math.inf:
        return s | inf
    if mag == 0:
        return s
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    while Fraction(2) ** e > mag:
        e -= 1
    while Fraction(2) ** (e + 1) <= mag:
        e += 1
    e = max(e, 1 - bias)  # subnormals share the smallest exponent
    scaled = mag / Fraction(2) ** (e - m_bits)
    n = math.floor(scaled)
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    if n == 1 << (m_bits + 1):
        n >>= 1
        e += 1
    if e > bias:
        return s | inf
    if n < 1 << m_bits:
        return s | n
    return s | ((e + bias) << m_bits) | (n - (1 << m_bits))


# ---- one element: source bits -> expected bits ----

def value_of(bits, name):
    """NaN, (sign, magnitude) for a float; an int for an integer or bool."""
    if name in FLOATS:
        return decode(bits, name)
    if name == "bool":
        return int(bits != 0)
    w, signed = INTS[name]
    return bits - (1 << w) if signed and bits >> (w - 1) else bits


def convert(v, to):
    if to == "bool":
        if v == NAN:
            return 1
        return int((v[1] if isinstance(v, tuple) else v) != 0)
    if to in FLOATS:
        if isinstance(v, int):
            v = (int(v < 0), Fraction(abs(v)))
        return encode(v, to)
    w, signed = INTS[to]
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    if isinstance(v, int):  # integer to integer: the low bits
        return v & ((1 << w) - 1)
    if v == NAN:
        return 0
    sign, mag = v
    t = hi + 1 if mag == math.inf else math.floor(mag)  # truncation toward zero of the magnitude
    t = -t if sign else t
    return max(lo, min(hi, t)) & ((1 << w) - 1)


# ---- the inputs ----

def float_bits(x, name):
    """Bits of a Python float or Fraction rounded into the format (for building inputs)."""
    if isinstance(x, float) and math.isnan(x):
        return encode(NAN, name)
    if isinstance(x, float) and math.isinf(x):
        return encode((int(x < 0), math.inf), name)
    sign = int(x < 0 or (isinstance(x, float) and math.copysign(1, x) < 0))
    return encode((sign, Fraction(abs(x))), name)


def float_inputs(name, rng):
    e_bits, m_bits = FLOATS[name]
    top = (1 << (e_bits + m_bits)) - 1  # largest positive pattern below the sign (a NaN)
    inf = ((1 << e_bits) - 1) << m_bits
    F = Fraction
    xs = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.9, -0.9, 1.5, -1.5, 2.5, -2.5, 127.9, -128.9, 255.5, -300.7,
          65504.0, 65519.0, 65520.0, -65520.0, 65536.0, 1e10, -1e10, 2.0 ** 31, -2.0 ** 31, 2.0 ** 31 - 128,
          -2.0 ** 31 - 256, 2.0 ** 32, 2.0 ** 63, -2.0 ** 63, 2.0 ** 64, -2.0 ** 64, 3e38, 1e300, -1e300,
          # ties and near-ties of float16 (10 bits), bfloat16 (7 bits), float (23 bits)
          F(1) + F(1, 2 ** 11), F(1) + F(3, 2 ** 11), F(1) + F(1, 2 ** 8), F(1) + F(3, 2 ** 8),
          -(F(1) + F(1, 2 ** 8)), F(1) + F(1, 2 ** 24), F(1) + F(3, 2 ** 24),
          # double-rounding traps: a tie after a first rounding, but above it exactly
          F(1) + F(1, 2 ** 11) + F(1, 2 ** 40), F(1) + F(1, 2 ** 8) + F(1, 2 ** 40),
          F(1) + F(1, 2 ** 8) + F(1, 2 ** 30), F(1) + F(1, 2 ** 11) + F(1, 2 ** 30),
          -(F(1) + F(1, 2 ** 8) + F(1, 2 ** 40)), F(1) + F(1, 2 ** 24) + F(1, 2 ** 60),
          # float16 subnormals: 2^-24 is the smallest
          F(1, 2 ** 24), F(1, 2 ** 25), F(3, 2 ** 25), F(3, 2 ** 26), F(1023, 2 ** 24), F(2047, 2 ** 25),
          -F(1, 2 ** 25), F(1, 2 ** 14), 1e-40, -1e-40, 1e-310, math.inf, -math.inf, math.nan, -math.nan]
    bits = [float_bits(x, name) for x in xs]
    # the format's own extremes: smallest and largest subnormal, smallest normal, largest finite
    for b in (1, (1 << m_bits) - 1, 1 << m_bits, inf - 1, inf + 1, top):
        bits += [b, b | (1 << (e_bits + m_bits))]
    # every float16/bfloat16 tie for a float source: mantissa bits just at half
    bits += [rng.getrandbits(e_bits + m_bits + 1) for _ in range(24)]
    return sorted(set(bits), key=bits.index)


def int_inputs(name, rng):
    w, signed = INTS[name]
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    vs = [0, 1, -1, 2, -2, 127, -128, 255, 256, 300, -300, 32767, -32768, 65504, 65519, 65520, 65535, 65536,
          2 ** 24 + 1, 2 ** 24 + 3, 2 ** 31 - 1, -2 ** 31, 2 ** 32 - 1, 2 ** 40 + 2 ** 16 + 1, 2 ** 40 + 2 ** 16,
          2 ** 53 + 1, 2 ** 53 + 3, 2 ** 60 + 2 ** 52, 2 ** 60 + 2 ** 52 + 1, -(2 ** 60 + 2 ** 52 + 1),
          2 ** 63 + 2 ** 55 + 1, 2 ** 64 - 2 ** 10, 2 ** 64 - 2 ** 10 + 1, 2 ** 64 - 2 ** 11 - 1, 2 ** 63,
          2 ** 62 + 2 ** 38 + 1, lo, hi, lo + 1, hi - 1]
    vs = [v for v in vs if lo <= v <= hi]
    vs += [rng.randint(lo, hi) for _ in range(16)]
    vs = sorted(set(vs), key=vs.index)
    return [v & ((1 << w) - 1) for v in vs]


def inputs(name, rng):
    """Bit patterns of a dtype's inputs: its specials, ties, traps, extremes and random values."""
    if name in FLOATS:
        return float_inputs(name, rng)
    if name == "bool":
        return [0, 1]
    return int_inputs(name, rng)


def loop_traps(name):
    """More inputs for this header only (onnx_backend_data's cases take inputs() alone), aimed at the
    vector loops' tricks: int64/uint64 -> float's rounding boundaries from 2^36 up (where the low
    bits are folded) and around 2^53, 2^63 and -2^63, their ties and neighbours (the float step at
    2^e is 2^(e-23)); float -> bfloat16's ties, from below and above, up to the overflow to inf,
    subnormal ties, and NaNs with payloads (one whose upper half reads as inf)."""
    if name == "float":
        return [0x3f808000, 0x3f807fff, 0x3f808001, 0x3f818000, 0xbf817fff, 0x7f7f7fff, 0x7f7f8000, 0xff7f8000,
                0x7f7effff, 0x7f7e8000, 0x00008000, 0x00018000, 0x80008001, 0x007fffff, 0x7f80ffff, 0xff80ffff,
                0x7fa00000, 0xffc00001, 0x7fbfffff]
    if name not in ("int64", "uint64"):
        return []
    vs = []
    for e in (36, 40, 52, 53, 54, 60, 62, 63):
        step = 2 ** (e - 23)
        for k in (0, 1, 3):
            for d in (-1, 0, 1):
                vs += [2 ** e + k * step // 2 + d, -(2 ** e + k * step // 2 + d)]
    vs += [2 ** 53 - 2 ** 28, 2 ** 53 - 2 ** 28 + 1, 2 ** 53 - 1, -2 ** 53 + 1, 2 ** 63 - 2 ** 39,
           2 ** 63 - 2 ** 39 - 1, -2 ** 63 + 2 ** 39, -2 ** 63 + 2 ** 39 + 1, 2 ** 64 - 2 ** 40 + 2 ** 39,
           2 ** 60 + 5 * 2 ** 36 + 4095, 2 ** 60 + 5 * 2 ** 36 + 4096, -(2 ** 60 + 5 * 2 ** 36 + 4097),
           -2 ** 63, -2 ** 63 + 1, 2 ** 63 - 1]
    w, signed = INTS[name]
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return [v & ((1 << w) - 1) for v in vs if lo <= v <= hi]


# ---- checks against numpy and PyTorch ----

NP = {"float16": np.float16, "float": np.float32, "double": np.float64, "bool": np.bool_, "int8": np.int8,
      "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16,
      "uint32": np.uint32, "uint64": np.uint64}
UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def as_array(bits, name):
    return np.array(bits, dtype=UINT[width(name)]).view(NP[name])


def same(got, expected, to):
    """Equal bits, any NaN matching any NaN."""
    isnan = lambda b: to in FLOATS and decode(b, to) == NAN
    return all(g == e or (isnan(g) and isnan(e)) for g, e in zip(got, expected))


def library_check(frm, to, bits, expected):
    """Where numpy or PyTorch is exact and defined, it must give the same; returns how many it checked."""
    import torch  # here: onnx_backend_data/generate.py uses this module's rules without PyTorch
    if frm == "bfloat16" or to == "bfloat16":
        if (frm, to) == ("bfloat16", "float"):
            t = torch.from_numpy(np.array(bits, dtype=np.uint16).view(np.int16)).view(torch.bfloat16).float()
            got = [int(g) for g in t.numpy().view(np.uint32)]
        elif (frm, to) == ("float", "bfloat16"):  # PyTorch rounds to nearest even
            t = torch.from_numpy(as_array(bits, "float").copy()).to(torch.bfloat16)
            got = [int(g) for g in t.view(torch.int16).numpy().view(np.uint16)]
        else:  # PyTorch goes through float on the way (double rounding), numpy has no bfloat16
            return 0
        assert same(got, expected, to), (frm, to)
        return len(bits)
    x = as_array(bits, frm)
    keep = list(range(len(bits)))
    if frm in FLOATS and to in INTS:  # numpy is undefined outside the range: compare inside it only
        w, signed = INTS[to]
        lo, hi = (-(2 ** (w - 1)) - 1, 2 ** (w - 1)) if signed else (-1, 2 ** w)
        keep = [i for i in keep if np.isfinite(x[i]) and lo < float(x[i]) < hi]
    with np.errstate(all="ignore"):
        got = [int(g) for g in x[keep].astype(NP[to]).view(UINT[width(to)])]
    exp = [expected[i] for i in keep]
    bad = [(hex(g), hex(e)) for g, e in zip(got, exp) if not same([g], [e], to)]
    assert not bad, (frm, to, bad[:5])
    return len(keep)


def main():
    rng = random.Random(20261201)
    names = list(DTYPES)
    import torch
    out = [f"/* Generated by tests/unit/cast_reference.py (numpy {np.__version__}, torch {torch.__version__})."
           " Do not edit. */",
           "/* clang-format off */", "#include <stdint.h>", ""]
    srcs = {}
    for n in names:
        srcs[n] = inputs(n, rng)
        srcs[n] += [b for b in dict.fromkeys(loop_traps(n)) if b not in srcs[n]]
        out.append(f"static const uint64_t cast_in_{n}[] = {{{', '.join(hex(b) + 'u' for b in srcs[n])}}};")
    out.append("")
    rows, checked = [], 0
    for frm in names:
        for to in names:
            exp = [convert(value_of(b, frm), to) for b in srcs[frm]]
            checked += library_check(frm, to, srcs[frm], exp)
            out.append(f"static const uint64_t cast_exp_{frm}_{to}[] = {{{', '.join(hex(b) + 'u' for b in exp)}}};")
            rows.append(f"    {{{DTYPES[frm]}, {DTYPES[to]}, \"{frm}\", \"{to}\", cast_in_{frm}, cast_exp_{frm}_{to}, "
                        f"{len(exp)}}},")
    out += ["", "typedef struct {", "  int from, to;", "  const char *from_name, *to_name;",
            "  const uint64_t *in, *expected;", "  int n;", "} cast_case;", "",
            "static const cast_case cast_cases[] = {"] + rows + ["};", ""]
    print("\n".join(out))
    print(f"cast_reference: {len(rows)} pairs, {sum(len(v) for v in srcs.values()) * len(names)} elements, "
          f"{checked} of them confirmed by numpy or PyTorch", file=sys.stderr)


if __name__ == "__main__":
    main()
