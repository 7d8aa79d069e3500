"""sums_ and softmax_: the sums (ReduceSum, ReduceMean, ReduceProd, ReduceL1, ReduceL2,
ReduceSumSquare, ReduceLogSum, ReduceLogSumExp) and Softmax, LogSoftmax, Hardmax. Each version x
dtype x rule; numpy computes every answer in float64 (integers: wrapping in their own width) and
rounds it once to the dtype. minnx compares these ops within ONNX's tolerance (they are inexact:
README, "The sums"); Hardmax exactly."""
import warnings

import numpy as np

from generate import (BF16, F16, F32, F64, I8, I32, I64, U32, U64, Case, Value, node, refused,
                      seeded, to_num)

SUM_OPS = {"ReduceSum": "sum", "ReduceMean": "mean", "ReduceProd": "prod", "ReduceL1": "l1",
           "ReduceL2": "l2", "ReduceSumSquare": "sumsq", "ReduceLogSum": "logsum",
           "ReduceLogSumExp": "logsumexp"}
INT_TYPES = [I32, I64, U32, U64]
LOG_OPS = ("ReduceLogSum", "ReduceLogSumExp")


def versions(op):
    return (1, 11, 13) if op == "ReduceSum" else (1, 11, 13, 18)


def types(op, ver):
    return [F16, F32, F64] + ([BF16] if ver >= 13 else []) + INT_TYPES


def axes_input(op, ver):
    return ver >= (13 if op == "ReduceSum" else 18)


def store(dt, v):
    """float64 (or exact integers) -> storage form, rounded once (bfloat16: to nearest even)."""
    v = np.asarray(v)
    if dt is BF16:
        b = v.astype(np.float32).view(np.uint32).astype(np.uint64)
        nan = np.isnan(v)
        b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
        return np.where(nan, np.uint16(0x7FC0), b)
    return v.astype(dt.np)


def cast_int(dt, r):
    """A float64 answer converted as minnx's Cast converts a double to an integer: toward zero,
    saturated at the type's range (-inf its minimum, +inf its maximum), NaN to 0."""
    info = np.iinfo(dt.np)
    def one(a):
        if np.isnan(a):
            return 0
        if a <= info.min:
            return int(info.min)
        if a >= info.max:
            return int(info.max)
        return int(np.trunc(a))
    r = np.asarray(r, np.float64)
    return np.array([one(a) for a in r.flat], dtype=object).reshape(r.shape).astype(dt.np)


def sum_ref(op, dt, x, axes, keepdims=1):
    """The answer in float64, or wrapping in the integer's width."""
    ax = tuple(range(x.ndim)) if not axes else tuple(a % x.ndim for a in axes)
    kd = bool(keepdims)
    if not dt.is_float:
        w = x.astype(dt.np)
        n = int(np.prod([x.shape[a] for a in ax])) if ax else 1
        with np.errstate(over="ignore"):
            if op == "ReduceSum":
                return np.sum(w, axis=ax, keepdims=kd, dtype=dt.np)
            if op == "ReduceMean":
                s = np.sum(w, axis=ax, keepdims=kd, dtype=dt.np)
                return (s // n if not dt.is_signed else np.trunc(s.astype(np.float64) / n)).astype(dt.np) \
                    if n else np.zeros_like(s)
            if op == "ReduceProd":
                return np.prod(w, axis=ax, keepdims=kd, dtype=dt.np)
            if op == "ReduceL1":
                return np.sum(np.abs(w), axis=ax, keepdims=kd, dtype=dt.np)
            sq = np.sum(w * w, axis=ax, keepdims=kd, dtype=dt.np)
            if op == "ReduceSumSquare":
                return sq
            if op == "ReduceLogSum":  # the log of the wrapped sum, converted as Cast does (ops/reduction/reduce.c)
                with np.errstate(divide="ignore", invalid="ignore"):
                    return cast_int(dt, np.log(np.sum(w, axis=ax, keepdims=kd, dtype=dt.np).astype(np.float64)))
            if op == "ReduceLogSumExp":  # in float64 from each element's double, converted as Cast does
                v = w.astype(np.float64)
                m = np.max(v, axis=ax, keepdims=True, initial=-np.inf)
                with np.errstate(invalid="ignore"):
                    r = np.log(np.sum(np.exp(v - np.where(np.isfinite(m), m, 0.0)), axis=ax, keepdims=True)) + m
                return cast_int(dt, r if kd else np.squeeze(r, axis=ax))
            return np.floor(np.sqrt(sq.astype(np.float64))).astype(dt.np)  # ReduceL2
    v = to_num(dt, x).astype(np.float64)
    with np.errstate(all="ignore"):
        if op == "ReduceSum":
            r = np.sum(v, axis=ax, keepdims=kd)
        elif op == "ReduceMean":
            with warnings.catch_warnings():  # an empty set's mean is NaN, which is the answer
                warnings.simplefilter("ignore")
                r = np.mean(v, axis=ax, keepdims=kd)
        elif op == "ReduceProd":
            r = np.prod(v, axis=ax, keepdims=kd)
        elif op == "ReduceL1":
            r = np.sum(np.abs(v), axis=ax, keepdims=kd)
        elif op == "ReduceL2":
            r = np.sqrt(np.sum(v * v, axis=ax, keepdims=kd))
        elif op == "ReduceSumSquare":
            r = np.sum(v * v, axis=ax, keepdims=kd)
        elif op == "ReduceLogSum":
            r = np.log(np.sum(v, axis=ax, keepdims=kd))
        else:  # the largest finite element subtracted, as minnx does
            fin = np.where(np.isfinite(v), v, -np.inf)
            m = np.max(fin, axis=ax, keepdims=True, initial=-np.inf)
            m = np.where(np.isfinite(m), m, 0.0)
            r = np.log(np.sum(np.exp(v - m), axis=ax, keepdims=True)) + m
            if not kd:
                r = np.squeeze(r, axis=ax)
    return store(dt, r)


def sum_case(name, op, dt, x, ver, axes=None, keepdims=None, noop=None):
    attrs = {k: v for k, v in (("keepdims", keepdims), ("noop_with_empty_axes", noop)) if v is not None}
    ins, inits, node_ins = [Value("x", dt, x)], [], ["x"]
    if axes is not None and axes_input(op, ver):
        inits.append(Value("axes", I64, np.array(axes, np.int64)))
        node_ins.append("axes")
    elif axes is not None:
        attrs["axes"] = list(axes)
    if noop and not axes:
        want = x.copy()
    else:
        want = sum_ref(op, dt, x, axes, 1 if keepdims is None else keepdims)
    return Case(name, [node(op, node_ins, ["y"], **attrs)], {"": ver}, ins, [Value("y", dt, want)], inits)


def data(op, dt, shape, rng):
    """Values whose sums stay in range; small integers for bfloat16 and float16 (sums exact there,
    so the one rounding is the same whatever the order)."""
    if not dt.is_float:
        hi = 4 if op == "ReduceProd" else 100
        lo = 1 if op == "ReduceLogSum" else 0 if dt in (U32, U64) else -hi
        return rng.integers(lo, hi + 1, size=shape).astype(dt.np)
    if op in ("ReduceLogSum",):
        v = rng.uniform(0.5, 4.0, size=shape)
    elif op == "ReduceProd":
        v = rng.uniform(0.5, 1.5, size=shape)
    else:
        v = rng.uniform(-4.0, 4.0, size=shape)
    if dt in (F16, BF16) and op not in ("ReduceLogSumExp", "ReduceProd", "ReduceLogSum"):
        v = np.round(v)
    v = v.astype(np.float32)
    return store(dt, v) if dt is BF16 else v.astype(dt.np)


def gen_sums():
    for op, short in SUM_OPS.items():
        p = f"sums_{short}"
        for ver in versions(op):
            choices = [(1,), (0, 2), None, (2,)] if ver < 11 else [(-1,), (0, -1), None, (1,)]
            for i, dt in enumerate(types(op, ver)):
                axes, kd = choices[i % 4], i // 4 % 2
                name = f"{p}_v{ver}_{dt.name}_kd{kd}"
                yield sum_case(name, op, dt, data(op, dt, (3, 4, 5), seeded(name)), ver, axes, kd)
        last = versions(op)[-1]
        rng = seeded(p)
        x = data(op, F32, (3, 4), rng)
        yield sum_case(f"{p}_defaults", op, F32, x, last)
        yield sum_case(f"{p}_empty_axes", op, F32, x, last, (), 0)
        yield sum_case(f"{p}_noop_empty_axes", op, F32, x, last, (), 0, noop=1)
        yield sum_case(f"{p}_noop_with_axes", op, F32, x, last, (1,), 1, noop=1)
        for axes in ((0,), (-1,), (0, 1), (-2, -1), (1, 0)):
            for kd in (0, 1):
                tag = "_".join(f"m{-a}" if a < 0 else str(a) for a in axes)
                name = f"{p}_axes_{tag}_kd{kd}"
                yield sum_case(name, op, F32, data(op, F32, (2, 3, 4), seeded(name)), last, axes, kd)
        # several axes apart, long rows and columns (past the 16 partials and a fold's lanes)
        for shape, axes in (((2, 3, 4, 5), (1, 3)), ((2, 3, 4, 5), (0, 2)), ((3, 1, 2, 1), (1, 3)),
                            ((3, 200), (1,)), ((70, 3), (0,)), ((4, 37, 19), (1,)), ((5,), None), ((), None)):
            name = f"{p}_s{'x'.join(map(str, shape))}_" + ("all" if axes is None else "_".join(map(str, axes)))
            yield sum_case(name, op, F32, data(op, F32, shape, seeded(name)), last, axes, 0)
        # an empty set: 0, 1 (ReduceProd), NaN (ReduceMean), -inf (the logs)
        for dt in (F32, F64, I32, U64):
            yield sum_case(f"{p}_empty_set_{dt.name}", op, dt, np.zeros((2, 0, 3), dt.np), last, (1,), 0)
        yield sum_case(f"{p}_empty_kept", op, F32, np.zeros((0, 4), np.float32), last, (1,), 1)
        # NaN and the infinities
        sp = np.array([[np.nan, 1, 2], [np.inf, 1, 2], [-np.inf, 1, 2], [np.inf, -np.inf, 1], [0.5, 1, 2]],
                      np.float32)
        yield sum_case(f"{p}_specials", op, F32, sp, last, (1,), 0)
    # integers wrap
    big = np.array([[2 ** 31 - 1, 1, 5], [-(2 ** 31), -1, 7]], np.int32)
    yield sum_case("sums_sum_int32_wraps", "ReduceSum", I32, big, 13, (1,), 0)
    yield sum_case("sums_l1_int32_min", "ReduceL1", I32, np.array([[-(2 ** 31), 0]], np.int32), 13, (1,), 0)
    u = np.array([2 ** 64 - 1, 2], np.uint64)
    yield sum_case("sums_sum_uint64_wraps", "ReduceSum", U64, u, 13, (0,), 0)
    # the logs of integers (ops/reduction/reduce.c): a sum of 0 (-inf: the minimum), a negative sum (NaN:
    # 0), a sum that wraps, values far apart (exp(x - m) underflows), large magnitudes
    s = np.array([[3, -3, 0], [-5, 1, 1], [2 ** 31 - 1, 1, 0], [7, 7, 7], [1, 2, 3]], np.int32)
    for op in LOG_OPS:
        for dt in INT_TYPES if op == "ReduceLogSumExp" else (I32, I64):
            v = s.astype(dt.np) if dt.is_signed else np.abs(s.astype(np.int64)).astype(dt.np)
            yield sum_case(f"sums_{SUM_OPS[op]}_{dt.name}_rows", op, dt, v, 18, (1,), 0)
        big = np.array([[-(2 ** 62), 2 ** 62, 5], [-100, -1000, -10], [0, -40, -700]], np.int64)
        yield sum_case(f"sums_{SUM_OPS[op]}_int64_far", op, I64, big, 13, (-1,), 1)
    # one output over 2 x 2^15 + 16 elements: three pieces (ops/reduction/sum.h), which threads split
    for op, dt in (("ReduceSum", F32), ("ReduceSum", I32)):
        name = f"sums_{SUM_OPS[op]}_pieces_{dt.name}"
        yield sum_case(name, op, dt, data(op, dt, (2, 32776), seeded(name)), 13, None, 0)


def sums_refused():
    def err(name, keyword, op, ver, axes=None, dt=F32, shape=(2, 3, 4), **attrs):
        ins, inits, node_ins = [Value("x", dt, np.zeros(shape, dt.np))], [], ["x"]
        if axes is not None and axes_input(op, ver):
            inits.append(Value("axes", I64, np.array(axes, np.int64)))
            node_ins.append("axes")
        elif axes is not None:
            attrs["axes"] = list(axes)
        c = refused(name, "load", keyword, [node(op, node_ins, ["y"], **attrs)], {"": ver}, ins, dt)
        c.inits = inits
        return c
    for op, short in SUM_OPS.items():
        e = f"err_sums_{short}"
        last = versions(op)[-1]
        yield err(f"{e}_axis_pos", "axis", op, last, (3,))
        yield err(f"{e}_axis_neg", "axis", op, last, (-4,))
        yield err(f"{e}_v1_neg_axis", "axis", op, 1, (-1,))
        yield err(f"{e}_repeated_axis", "axis", op, last, (2, -1))
        yield err(f"{e}_int8", "dtype", op, last, dt=I8)
        yield err(f"{e}_v11_bfloat16", "dtype", op, 11, dt=BF16)
        yield err(f"{e}_keepdims_2", "attribute", op, last, keepdims=2)
    x = [Value("x", F32, np.zeros((2, 3), np.float32))]
    yield refused("err_sums_sum_v13_axes_attribute", "load", "attribute",
                  [node("ReduceSum", ["x"], ["y"], axes=[1])], {"": 13}, x)
    yield err("err_sums_mean_v13_noop_attribute", "attribute", "ReduceMean", 13, noop_with_empty_axes=1)


# ---- Softmax, LogSoftmax, Hardmax ----

def softmax_ref(op, dt, x, axis, coerced):
    v = to_num(dt, x).astype(np.float64)
    shape = v.shape
    a = axis % v.ndim
    if coerced:
        v = v.reshape(int(np.prod(shape[:a], dtype=np.int64)), -1)
        a = 1
    if op == "Hardmax":
        y = np.zeros_like(v)
        np.put_along_axis(y, np.expand_dims(np.argmax(v, axis=a), a), 1, axis=a)
    else:
        with np.errstate(all="ignore"):
            d = v - np.max(v, axis=a, keepdims=True)
            s = np.sum(np.exp(d), axis=a, keepdims=True)
            y = d - np.log(s) if op == "LogSoftmax" else np.exp(d) / s
    return store(dt, y.reshape(shape))


def softmax_case(name, op, dt, x, ver, axis=None):
    attrs = {} if axis is None else {"axis": axis}
    ax = axis if axis is not None else (-1 if ver >= 13 else 1)
    want = softmax_ref(op, dt, x, ax, ver < 13)
    return Case(name, [node(op, ["x"], ["y"], **attrs)], {"": ver}, [Value("x", dt, x)], [Value("y", dt, want)])


def gen_softmax():
    for op in ("Softmax", "LogSoftmax", "Hardmax"):
        p = f"softmax_{op.lower()}"
        for ver in (1, 11, 13):
            for dt in [F16, F32, F64] + ([BF16] if ver >= 13 else []):
                for axis in (None, 0, 2, -1):
                    tag = "default" if axis is None else (f"m{-axis}" if axis < 0 else str(axis))
                    name = f"{p}_v{ver}_{dt.name}_axis_{tag}"
                    rng = seeded(name)
                    v = rng.uniform(-3, 3, size=(2, 3, 4)).astype(np.float32)
                    x = store(dt, v) if dt is BF16 else v.astype(dt.np)
                    yield softmax_case(name, op, dt, x, ver, axis)
        rng = seeded(p)
        long_row = rng.uniform(-5, 5, size=(3, 100)).astype(np.float32)
        yield softmax_case(f"{p}_long_rows", op, F32, long_row, 13)
        yield softmax_case(f"{p}_long_columns", op, F32, long_row.T.copy(), 13, 0)
        yield softmax_case(f"{p}_large", op, F32, np.array([[1000, 1001, 1002], [-1000, 0, 3]], np.float32), 13)
        sp = np.array([[np.nan, 1, 2], [-np.inf, 1, 2], [-np.inf, -np.inf, -np.inf], [3, 3, 3]], np.float32)
        yield softmax_case(f"{p}_specials", op, F32, sp, 13)
        yield softmax_case(f"{p}_axis_len1", op, F32, rng.uniform(-1, 1, (3, 1)).astype(np.float32), 13)
        yield softmax_case(f"{p}_empty", op, F32, np.zeros((0, 3), np.float32), 13)
        yield softmax_case(f"{p}_rank1", op, F64, rng.uniform(-1, 1, (7,)), 11, 0)


def softmax_refused():
    def err(name, keyword, op, ver, dt=F32, shape=(2, 3), **attrs):
        ins = [Value("x", dt, np.zeros(shape, dt.np))]
        return refused(name, "load", keyword, [node(op, ["x"], ["y"], **attrs)], {"": ver}, ins, dt)
    for op in ("Softmax", "LogSoftmax", "Hardmax"):
        e = f"err_softmax_{op.lower()}"
        yield err(f"{e}_axis_pos", "axis", op, 13, axis=2)
        yield err(f"{e}_axis_neg", "axis", op, 13, axis=-3)
        yield err(f"{e}_v1_axis_pos", "axis", op, 1, axis=2)
        yield err(f"{e}_int32", "dtype", op, 13, dt=I32)
        yield err(f"{e}_v11_bfloat16", "dtype", op, 11, dt=BF16)


def gen_reduction():
    yield from gen_sums()
    yield from sums_refused()
    yield from gen_softmax()
    yield from softmax_refused()
