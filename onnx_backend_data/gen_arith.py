"""arith_sum_, arith_mean_, arith_prelu_: Sum and Mean (1, 6, 8, 13) and PRelu (1, 6, 7, 9, 16),
every version x dtype x rule (ops/math/sum_mean.c, ops/math/binary.c).

References come from numpy in float64, never from minnx. Sum and Mean: each element's inputs
summed exactly (math.fsum; numpy's own sum where an infinity or NaN is among them), Mean's sum
divided by N in float64, rounded once to the dtype (bfloat16 by round-to-odd to float32 first, so
that the second rounding is the only one). minnx folds left to right in the dtype (float16 and
bfloat16 in float32, rounded once), so these compare within ONNX's tolerance; the round_once
cases tell one rounding at the end from one per addition. PRelu is one multiplication where
x < 0: the float64 product of two inputs of a narrower float is exact, so rounding it once gives
the correctly rounded product, numpy's bits (integers wrap); compared bit for bit.
"""
import math

import numpy as np

from generate import (BF16, F16, F32, F64, FLOATS, I8, I32, I64, U32, U64, Case, Value, all_pairs,
                      err_op, extremes, from_num, inputs_for, node, rand, seeded, to_num)
from gen_unary import round_bf16

SUM_TYPES = {1: FLOATS, 6: FLOATS, 8: FLOATS, 13: FLOATS + [BF16]}
PRELU_TYPES = {1: FLOATS, 6: FLOATS, 7: FLOATS, 9: FLOATS + [I32, I64, U32, U64],
               16: FLOATS + [BF16, I32, I64, U32, U64]}


def round_to(dt, v):
    """float64 values -> dt's storage form, rounded once."""
    v = np.asarray(v, np.float64)
    if dt is BF16:
        return round_bf16(v)
    with np.errstate(all="ignore"):
        return v.astype(dt.np)


def sum_ref(op, dt, xs):
    vals = np.broadcast_arrays(*[to_num(dt, x).astype(np.float64) for x in xs])
    out = np.empty(vals[0].shape, np.float64)
    for i in np.ndindex(out.shape):
        terms = [float(v[i]) for v in vals]
        try:
            s = math.fsum(terms)
        except (ValueError, OverflowError):  # inf - inf, or a sum beyond float64's range
            s = float(np.sum(terms))
        out[i] = s / len(xs) if op == "Mean" else s
    return round_to(dt, out)


def sum_case(name, op, dt, xs, opset, **attrs):
    ins = inputs_for(dt, xs)
    return Case(name, [node(op, [v.name for v in ins], ["y"], **attrs)], {"": opset}, ins,
                [Value("y", dt, sum_ref(op, dt, xs))])


def gen_sum():
    for op in ("Sum", "Mean"):
        lo = op.lower()
        for ver, types in SUM_TYPES.items():
            for dt in types:
                for n in (1, 2, 3, 5):
                    name = f"arith_{lo}_v{ver}_{dt.name}_n{n}"
                    rng = seeded(name)
                    yield sum_case(name, op, dt, [rand(dt, (2, 3, 4), rng) for _ in range(n)], ver)
            if ver >= 8:  # multidirectional broadcasting: the output is the broadcast of all
                for dt in types:
                    name = f"arith_{lo}_v{ver}_{dt.name}_bcast"
                    rng = seeded(name)
                    shapes = ((3, 1), (2, 3, 4), (4,), (), (2, 1, 4))
                    yield sum_case(name, op, dt, [rand(dt, s, rng) for s in shapes], ver)
        rng = seeded(f"arith_{lo}_shapes")
        for label, shapes in {"grow": ((3, 1), (1, 4)), "scalar_first": ((), (2, 3)),
                              "three_ways": ((1,), (2, 1), (1, 3)), "empty": ((0, 3), (3,)),
                              "rank5": ((2, 1, 3, 1, 2), (1, 2, 1, 4, 1), (2,)),
                              "long": ((20000,), (20000,), (20000,)),
                              "rows": ((64, 512), (512,), (64, 1), (64, 512))}.items():
            # |x|: thousands of sums of four, where one that nearly cancels would leave float32's
            # order an error beyond the tolerance relative to it (what the order gives is the
            # fuzzer's to check, bit for bit against the reference loop)
            yield sum_case(f"arith_{lo}_bcast_{label}", op, F32, [np.abs(rand(F32, s, rng)) for s in shapes], 13)
        x = rand(F32, (3, 4), rng)
        yield sum_case(f"arith_{lo}_v1_consumed_inputs", op, F32, [x, rand(F32, (3, 4), rng)], 1,
                       consumed_inputs=[0, 0])
        yield sum_case(f"arith_{lo}_same_input_twice", op, F32, [x, x, x], 13)
        # one rounding at the end: 2048 + 1 + ... + 1 in float16 (bfloat16: 256 + 1 + ...) keeps
        # 2048 when each addition rounds (ties to even), gives 2056 (264) when only the end does
        for dt, big in ((F16, 2048.0), (BF16, 256.0)):
            xs = [from_num(dt, np.full((3,), big))] + [from_num(dt, np.ones(3)) for _ in range(7)]
            yield sum_case(f"arith_{lo}_{dt.name}_round_once", op, dt, xs, 13)
        for dt in (F32, F64, F16, BF16):  # inf - inf, NaN, -0 + -0, overflow
            sp = [np.inf, -np.inf, np.nan, -0.0, 1.0]
            a, b = np.meshgrid(sp, sp)
            big = float(np.finfo(np.float32 if dt is BF16 else dt.np).max)
            if op == "Mean":  # a quarter: the sum of three stays finite in the dtype (Sum's overflows)
                big /= 4
            xs = [from_num(dt, np.append(a.ravel(), [big, -0.0])), from_num(dt, np.append(b.ravel(), [big, -0.0])),
                  from_num(dt, np.append(a.ravel() * 0, [big, -0.0]))]
            yield sum_case(f"arith_{lo}_{dt.name}_specials", op, dt, xs, 13)
        yield from sum_err(op, lo)


def sum_err(op, lo):
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op(f"arith_err_{lo}_no_inputs", "inputs", op, [], opset=13)
    yield err_op(f"arith_err_{lo}_mixed_dtypes", "dtype", op, [(F32, (3,)), (F64, (3,))], opset=13)
    yield err_op(f"arith_err_{lo}_v13_int32", "dtype", op, [(I32, (3,)), (I32, (3,))], opset=13)
    yield err_op(f"arith_err_{lo}_v8_bfloat16", "dtype", op, [(BF16, (3,)), (BF16, (3,))], opset=8)
    yield err_op(f"arith_err_{lo}_v6_shapes_differ", "shape", op, f((3, 4), (4,)), opset=6)
    yield err_op(f"arith_err_{lo}_v1_shapes_differ", "shape", op, f((3, 4), (3, 4), (3, 1)), opset=1)
    yield err_op(f"arith_err_{lo}_v8_not_broadcastable", "shape", op, f((3, 4), (2, 4), (4,)), opset=8)
    yield err_op(f"arith_err_{lo}_v6_consumed_inputs", "attribute", op, f((3,), (3,)), opset=6,
                 consumed_inputs=[0, 0])


def prelu_ref(dt, x, slope_numpy):
    if dt.is_float:
        v, s = np.broadcast_arrays(to_num(dt, x).astype(np.float64), to_num(dt, slope_numpy).astype(np.float64))
        with np.errstate(all="ignore"):
            return round_to(dt, np.where(v < 0, v * s, v))
    xv, sv = np.broadcast_arrays(x, slope_numpy)
    bits_ = np.iinfo(dt.np).bits
    out = []
    for p, q in zip(xv.ravel().tolist(), sv.ravel().tolist()):
        z = p * q if p < 0 else p
        z &= (1 << bits_) - 1
        if dt.is_signed and z >= 1 << (bits_ - 1):
            z -= 1 << bits_
        out.append(z)
    return np.array(out, dtype=dt.np).reshape(xv.shape)


def prelu_case(name, dt, x, slope, opset, slope_numpy=None, init=False, **attrs):
    """slope_numpy: the slope's shape as numpy broadcasts it (legacy rules), when not its own."""
    want = prelu_ref(dt, x, slope if slope_numpy is None else slope.reshape(slope_numpy))
    xv, sv = Value("x", dt, x), Value("slope", dt, slope)
    return Case(name, [node("PRelu", ["x", "slope"], ["y"], **attrs)], {"": opset},
                [xv] if init else [xv, sv], [Value("y", dt, want)], inits=[sv] if init else [])


def gen_prelu():
    for ver, types in PRELU_TYPES.items():
        for dt in types:
            vals = extremes(dt)
            if dt.is_float:
                vals = np.concatenate([vals, from_num(dt, np.array([np.nan, -2.5, 0.5]))])
            x, s = all_pairs(vals)
            yield prelu_case(f"arith_prelu_v{ver}_{dt.name}", dt, x, s, ver)
            name = f"arith_prelu_v{ver}_{dt.name}_random"
            rng = seeded(name)
            x = rand(dt, (2, 3, 4), rng)
            slope = rand(dt, (2, 3, 4), rng) if dt.is_float else rng.integers(-3, 4, (2, 3, 4)).astype(dt.np)
            yield prelu_case(name, dt, x, slope, ver)
    rng = seeded("arith_prelu_bcast")
    x = rand(F32, (2, 3, 4, 5), rng)
    for label, shape in {"last": (5,), "channel": (3, 1, 1), "one": (1,), "scalar": (), "nchw": (1, 3, 1, 1),
                         "inner2": (4, 5), "same": (2, 3, 4, 5), "first": (2, 1, 1, 1)}.items():
        for ver in (7, 16):
            yield prelu_case(f"arith_prelu_v{ver}_bcast_{label}", F32, x, rand(F32, shape, rng), ver)
    for dt in (I32, I64, U32, U64, F16, BF16, F64):
        name = f"arith_prelu_v16_{dt.name}_bcast"
        r = seeded(name)
        xs = rand(dt, (2, 3, 4), r)
        slope = rand(dt, (3, 1), r) if dt.is_float else r.integers(-3, 4, (3, 1)).astype(dt.np)
        yield prelu_case(name, dt, xs, slope, 16)
    # before 7: one shared value, one per channel (dim 1), or a unidirectional broadcast
    for ver in (1, 6):
        x3, x4 = rand(F32, (2, 3, 4), rng), rand(F32, (2, 3, 4, 5), rng)
        yield prelu_case(f"arith_prelu_v{ver}_shared", F32, x4, rand(F32, (1,), rng), ver, slope_numpy=())
        yield prelu_case(f"arith_prelu_v{ver}_shared_rank2", F32, x3, rand(F32, (1, 1), rng), ver, slope_numpy=())
        yield prelu_case(f"arith_prelu_v{ver}_channel_rank3", F32, x3, rand(F32, (3,), rng), ver, slope_numpy=(3, 1))
        yield prelu_case(f"arith_prelu_v{ver}_channel_rank4", F32, x4, rand(F32, (3,), rng), ver,
                         slope_numpy=(3, 1, 1))
        yield prelu_case(f"arith_prelu_v{ver}_same_shape", F32, x3, rand(F32, (2, 3, 4), rng), ver)
        yield prelu_case(f"arith_prelu_v{ver}_unidirectional", F32, x4, rand(F32, (4, 5), rng), ver)
        yield prelu_case(f"arith_prelu_v{ver}_rank1", F32, rand(F32, (6,), rng), rand(F32, (6,), rng), ver)
    # X [2, 3, 3], slope [3]: one per channel before 7, along the last dim from 7
    x, s = rand(F32, (2, 3, 3), rng), rand(F32, (3,), rng)
    yield prelu_case("arith_prelu_v6_channel_or_last", F32, x, s, 6, slope_numpy=(3, 1))
    yield prelu_case("arith_prelu_v7_channel_or_last", F32, x, s, 7)
    yield prelu_case("arith_prelu_v1_consumed_inputs", F32, x, s, 1, slope_numpy=(3, 1), consumed_inputs=[0])
    yield prelu_case("arith_prelu_slope_initializer", F32, rand(F32, (2, 3, 4, 5), rng),
                     rand(F32, (3, 1, 1), rng), 16, init=True)
    yield prelu_case("arith_prelu_long", F32, rand(F32, (40000,), rng), rand(F32, (1,), rng), 16)
    yield prelu_case("arith_prelu_empty", F32, rand(F32, (0, 3), rng), rand(F32, (3,), rng), 16)
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op("arith_err_prelu_v7_channel_slope", "shape", "PRelu", f((2, 3, 4), (3,)), opset=7)
    yield err_op("arith_err_prelu_v16_slope_longer", "shape", "PRelu", f((3, 4), (2, 3, 4)), opset=16)
    yield err_op("arith_err_prelu_v16_slope_grows_x", "shape", "PRelu", f((3, 1), (3, 4)), opset=16)
    yield err_op("arith_err_prelu_v6_slope", "shape", "PRelu", f((2, 3, 4), (5,)), opset=6)
    yield err_op("arith_err_prelu_v6_slope_rank2", "shape", "PRelu", f((2, 3, 4), (3, 2)), opset=6)
    yield err_op("arith_err_prelu_v7_int32", "dtype", "PRelu", [(I32, (3,)), (I32, (3,))], opset=7)
    yield err_op("arith_err_prelu_v9_int8", "dtype", "PRelu", [(I8, (3,)), (I8, (3,))], opset=9)
    yield err_op("arith_err_prelu_v9_bfloat16", "dtype", "PRelu", [(BF16, (3,)), (BF16, (3,))], opset=9)
    yield err_op("arith_err_prelu_mixed_dtypes", "dtype", "PRelu", [(F32, (3,)), (F64, (3,))], opset=16)
    yield err_op("arith_err_prelu_one_input", "inputs", "PRelu", f((3,)), opset=16)
    yield err_op("arith_err_prelu_v6_consumed_inputs", "attribute", "PRelu", f((3,), (3,)), opset=6,
                 consumed_inputs=[0])


def gen_arith():
    yield from gen_sum()
    yield from gen_prelu()
