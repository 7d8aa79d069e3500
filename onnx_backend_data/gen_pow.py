"""arith_pow_: Pow (ops/math/pow.c), versions 1, 7, 12, 13, 15, every (base, exponent) dtype pair.

References: numpy in float64 (np.power of the inputs' values, exact in float64), rounded once to
the base's dtype (bfloat16 by round-to-odd to float32 first), compared within ONNX's tolerance
(Pow is inexact). Integer bases with integer exponents: exact in python, wrapped to the base's
width, a negative exponent giving the integer part of 1 / x^|n| (1 for x = 1, +-1 for x = -1, 0
otherwise: minnx's documented value, numpy refuses it). Float bases with integer exponents: the
float64 power, a negative base taking its sign from the integer's parity (float64 cannot hold
2^63 - 1's). Integer bases with float exponents: the
float64 power truncated toward zero, saturated to the type's range, NaN giving 0 (minnx's rule,
as its Cast; ONNX Runtime's cast is undefined there: the cases keep to values in range but a few).
"""
import numpy as np

from generate import (BF16, F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Case, Value, err_op, node, seeded,
                      to_num)
from gen_unary import round_bf16, storage

FL3 = [F16, F32, F64]
T12 = [I32, I64, F16, F32, F64]
T1_12 = [U8, U16, U32, U64, I8, I16, I32, I64, F16, F32, F64]
TYPES = {1: [(t, t) for t in FL3], 7: [(t, t) for t in FL3],
         12: [(x, y) for x in T12 for y in T1_12],
         13: [(x, y) for x in T12 + [BF16] for y in T1_12],
         15: [(x, y) for x in T12 + [BF16] for y in T1_12 + [BF16]]}

FBASES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.75, -3.0, 1e-3, 10.0, 0.999, 1.001]
FEXPS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 2.5, 1 / 3, 7.0]
IBASES = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10]


def float_exps(dt):
    return [v for v in FEXPS]


def int_exps(dt):
    info = np.iinfo(dt.np)
    v = [0, 1, 2, 3, 5, 7, 11, int(info.max)]
    if dt.is_signed:
        v += [-1, -2, -3, int(info.min)]
    if info.bits >= 32:
        v += [31, 63]
    return v


def to_int_sat(dt, v):
    info = np.iinfo(dt.np)
    out = []
    for f in v.ravel().tolist():
        if f != f:
            out.append(0)
        elif f >= 2.0 ** (info.bits - 1):
            out.append(int(info.max))
        elif f <= -(2.0 ** (info.bits - 1)):
            out.append(int(info.min))
        else:
            out.append(int(f))  # toward zero
    return np.array(out, dt.np).reshape(v.shape)


def int_pow(dt, x, n):
    bits_ = np.iinfo(dt.np).bits
    if n < 0:
        z = 1 if x == 1 else (1 if n % 2 == 0 else -1) if x == -1 else 0
    else:
        z = pow(x, n, 1 << 64)
    z &= (1 << bits_) - 1
    if z >= 1 << (bits_ - 1):
        z -= 1 << bits_
    return z


def pow_ref(xt, yt, a, b):
    x, y = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    if not xt.is_float and not yt.is_float:
        return np.array([int_pow(xt, p, q) for p, q in zip(x.ravel().tolist(), y.ravel().tolist())],
                        xt.np).reshape(x.shape)
    xv = to_num(xt, x).astype(np.float64)
    yv = to_num(yt, y).astype(np.float64) if yt.is_float else \
        np.array([float(v) for v in y.ravel().tolist()], np.float64).reshape(y.shape)
    with np.errstate(all="ignore"):
        z = np.power(xv, yv)
    if xt.is_float and not yt.is_float:  # a negative base takes its sign from the integer's parity
        odd = np.array([v % 2 for v in y.ravel().tolist()]).reshape(y.shape) == 1
        neg = np.signbit(xv) & ~np.isnan(xv) & ~np.isnan(z)
        z = np.where(neg, np.where(odd, -np.abs(z), np.abs(z)), z)
    if not xt.is_float:
        return to_int_sat(xt, z)
    return storage(xt, z) if xt is not BF16 else round_bf16(z)


def pow_case(name, xt, yt, a, b, ver, **attrs):
    ins = [Value("x0", xt, a), Value("x1", yt, b)]
    bb = b
    if attrs.get("broadcast"):
        axis = attrs.get("axis", a.ndim - b.ndim)
        bb = b.reshape(b.shape + (1,) * (a.ndim - axis - b.ndim))
    return Case(name, [node("Pow", ["x0", "x1"], ["y"], **attrs)], {"": ver}, ins,
                [Value("y", xt, pow_ref(xt, yt, a, bb))])


def values(xt, yt, rng):
    if xt.is_float:
        xs = storage(xt, FBASES + list(rng.uniform(0.01, 5, 6)))
    else:
        info = np.iinfo(xt.np)
        xs = np.array(IBASES + [int(info.max), int(info.min)], xt.np)
    if yt.is_float:
        ys = storage(yt, float_exps(yt) + list(rng.uniform(-4, 4, 4)))
    else:
        ys = np.array(int_exps(yt), yt.np)
    if not xt.is_float and yt.is_float:  # keep in range: small bases' powers, big bases' 0, 1, 0.5
        ys = storage(yt, [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, 2.5, 7.0, 13.0])
    xa = np.repeat(xs, len(ys))
    yb = np.tile(ys, len(xs))
    return xa, yb


def gen_pow():
    for ver, pairs in TYPES.items():
        for xt, yt in pairs:
            name = f"arith_pow_v{ver}_{xt.name}_{yt.name}"
            rng = seeded(name)
            a, b = values(xt, yt, rng)
            yield pow_case(name, xt, yt, a, b, ver)
    rng = seeded("arith_pow_bcast")
    x, y = storage(F32, rng.uniform(0.1, 3, (2, 3, 4))), storage(F32, rng.uniform(-2, 2, (3, 1)))
    yield pow_case("arith_pow_bcast_col", F32, F32, x, y, 7)
    yield pow_case("arith_pow_bcast_scalar", F32, F32, x, storage(F32, 1.5), 15)
    yield pow_case("arith_pow_bcast_scalar_left", F32, I32, storage(F32, -2.0), np.arange(-3, 9, dtype=np.int32), 15)
    yield pow_case("arith_pow_bcast_both_int64", I64, I64, np.arange(-3, 3, dtype=np.int64).reshape(6, 1),
                   np.arange(0, 5, dtype=np.int64).reshape(1, 5), 13)
    yield pow_case("arith_pow_bcast_double", F64, F64, storage(F64, rng.uniform(0.1, 30, (5, 4))),
                   storage(F64, rng.uniform(-20, 20, (4,))), 15)
    yield pow_case("arith_pow_long_float32", F32, F32, storage(F32, rng.uniform(0, 4, (3000,))),
                   storage(F32, rng.uniform(-6, 6, (3000,))), 15)
    yield pow_case("arith_pow_long_float64", F64, F64, storage(F64, np.exp(rng.uniform(-700, 700, (3000,)))),
                   storage(F64, rng.uniform(-1, 1, (3000,))), 15)
    for ver in (1,):
        a = storage(F32, rng.uniform(0.5, 2, (2, 3, 4, 5)))
        yield pow_case(f"arith_pow_v{ver}_legacy_suffix", F32, F32, a, storage(F32, rng.uniform(-3, 3, (4, 5))), ver,
                       broadcast=1)
        yield pow_case(f"arith_pow_v{ver}_legacy_axis1", F32, F32, a, storage(F32, rng.uniform(-3, 3, (3, 4))), ver,
                       broadcast=1, axis=1)
        yield pow_case(f"arith_pow_v{ver}_legacy_scalar", F32, F32, a, storage(F32, 2.0), ver, broadcast=1)
    yield from pow_err()


def pow_err():
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op("arith_err_pow_v7_shapes", "shape", "Pow", f((3, 4), (2, 4)), opset=7)
    yield err_op("arith_err_pow_v1_no_broadcast_attr", "shape", "Pow", f((3, 4), (4,)), opset=1)
    yield err_op("arith_err_pow_v1_legacy_mismatch", "shape", "Pow", f((2, 3, 4), (3,)), opset=1, broadcast=1)
    yield err_op("arith_err_pow_v7_mixed", "dtype", "Pow", [(F32, (3,)), (F64, (3,))], opset=7)
    yield err_op("arith_err_pow_v7_int32", "dtype", "Pow", [(I32, (3,)), (I32, (3,))], opset=7)
    yield err_op("arith_err_pow_v12_int8_base", "dtype", "Pow", [(I8, (3,)), (I32, (3,))], opset=12)
    yield err_op("arith_err_pow_v12_bfloat16_base", "dtype", "Pow", [(BF16, (3,)), (F32, (3,))], opset=12)
    yield err_op("arith_err_pow_v13_bfloat16_exponent", "dtype", "Pow", [(F32, (3,)), (BF16, (3,))], opset=13)
    yield err_op("arith_err_pow_v15_uint8_base", "dtype", "Pow", [(U8, (3,)), (U8, (3,))], opset=15)
    yield err_op("arith_err_pow_v7_broadcast_attr", "attribute", "Pow", f((3,), (3,)), opset=7, broadcast=1)
    yield err_op("arith_err_pow_v15_three_inputs", "inputs", "Pow", f((3,), (3,), (3,)), opset=15)
    yield err_op("arith_err_pow_v15_one_input", "inputs", "Pow", f((3,)), opset=15)
