"""unary_: the elementwise ops of one operand (ops/math/unary.c), every version x dtype.

References come from numpy in float64 (math.erf for erf), rounded once to the dtype (bfloat16 by
round-to-odd to float32 first, so that the second rounding is the only one), never from minnx.
Exact ops (Neg, Abs, Reciprocal, Floor, Ceil, Sqrt, Round, Sign, Relu, LeakyRelu) are compared
bit for bit: their float64 result rounded once is the correctly rounded one, which minnx's float32
computation rounded once to float16/bfloat16 equals (sqrt and division in float32 are innocuous
to round twice at those widths); LeakyRelu's float16/bfloat16 reference multiplies in float32, as
minnx's rule says (README). The others are compared within ONNX's tolerance. Integers: exact,
wrapping (Neg and Abs of the most negative value give it back).
"""
import math

import numpy as np

from generate import (BF16, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8, U16, U32, U64,
                      Case, Value, bf16_round, err_op, inputs_for, node, seeded, to_num)

F3 = FLOATS
F4 = FLOATS + [BF16]
SINTS = [I8, I16, I32, I64]

# op -> {version: dtypes}, from ONNX's Changelog
TYPES = {
    "Neg": {1: F3, 6: F3 + SINTS, 13: F4 + SINTS},
    "Abs": {1: F3, 6: F3 + INTS, 13: F4 + INTS},
    "Reciprocal": {1: F3, 6: F3, 13: F4},
    "Floor": {1: F3, 6: F3, 13: F4},
    "Ceil": {1: F3, 6: F3, 13: F4},
    "Sqrt": {1: F3, 6: F3, 13: F4},
    "Round": {11: F3},
    "Sign": {9: F3 + INTS, 13: F4 + INTS},
    "Relu": {1: F3, 6: F3, 13: F4, 14: F4 + SINTS},
    "LeakyRelu": {1: F3, 6: F3, 16: F4},
    "Exp": {1: F3, 6: F3, 13: F4},
    "Log": {1: F3, 6: F3, 13: F4},
    "Erf": {9: F3, 13: F4},
    "Sigmoid": {1: F3, 6: F3, 13: F4},
    "Tanh": {1: F3, 6: F3, 13: F4},
    "HardSigmoid": {1: F3, 6: F3},
    "HardSwish": {14: F3},
    "Elu": {1: F3, 6: F3},
    "Selu": {1: F3, 6: F3},
    "Softplus": {1: F3},
    "Gelu": {20: F4},
}
EXACT = {"Neg", "Abs", "Reciprocal", "Floor", "Ceil", "Sqrt", "Round", "Sign", "Relu", "LeakyRelu"}

SELU6 = (1.67326319217681884765625, 1.05070102214813232421875)
SELU1 = (float(np.float32(1.6732)), float(np.float32(1.0507)))


def f32(v):
    return float(np.float32(v))


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def sigmoid(x):
    with np.errstate(all="ignore"):
        return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))


def ref64(op, x, attrs, ver):
    """The op on float64 values."""
    a = attrs.get("alpha")
    with np.errstate(all="ignore"):
        if op == "Neg":
            return -x
        if op == "Abs":
            return np.abs(x)
        if op == "Reciprocal":
            return 1 / x
        if op == "Floor":
            return np.floor(x)
        if op == "Ceil":
            return np.ceil(x)
        if op == "Sqrt":
            return np.sqrt(x)
        if op == "Round":
            return np.round(x)
        if op == "Sign":
            return np.sign(x)
        if op == "Relu":
            return np.where(np.isnan(x), x, np.maximum(x, 0))
        if op == "LeakyRelu":
            return np.where(x < 0, x * f32(0.01 if a is None else a), x)
        if op == "Exp":
            return np.exp(x)
        if op == "Log":
            return np.log(x)
        if op == "Erf":
            return erf(x)
        if op == "Sigmoid":
            return sigmoid(x)
        if op == "Tanh":
            return np.tanh(x)
        if op == "HardSigmoid":
            al, be = f32(0.2 if a is None else a), f32(attrs.get("beta", 0.5))
            return np.where(np.isnan(x), x, np.clip(al * x + be, 0, 1))
        if op == "HardSwish":
            return x * np.where(np.isnan(x), x, np.clip(x / 6 + 0.5, 0, 1))
        if op == "Elu":
            al = f32(1.0 if a is None else a)
            return np.where(x < 0, al * np.expm1(x), x)
        if op == "Selu":
            al, ga = SELU1 if ver < 6 else SELU6
            al, ga = f32(attrs.get("alpha", al)), f32(attrs.get("gamma", ga))
            return np.where(x <= 0, ga * al * np.expm1(x), ga * x)
        if op == "Softplus":
            return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))
        if op == "Gelu":
            if attrs.get("approximate", "none") == "tanh":
                c = math.sqrt(2 / math.pi)
                return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
            return 0.5 * x * (1 + erf(x / math.sqrt(2)))
    raise ValueError(op)


def round_bf16(v):
    """float64 -> bfloat16 bits, rounded once: to float32 by round-to-odd, then to nearest even."""
    v = np.asarray(v, np.float64)
    with np.errstate(all="ignore"):
        f = v.astype(np.float32)
        over = np.abs(f.astype(np.float64)) > np.abs(v)
    f = np.where(over & np.isfinite(v), np.nextafter(f, np.float32(0)), f).astype(np.float32)
    inexact = np.isfinite(v) & (f.astype(np.float64) != v)
    u = f.view(np.uint32) | inexact.astype(np.uint32)
    return bf16_round(u.view(np.float32))


def int_ref(op, dt, x):
    bits_ = np.iinfo(dt.np).bits
    out = []
    for p in x.ravel().tolist():
        z = {"Neg": -p, "Abs": abs(p), "Sign": (p > 0) - (p < 0), "Relu": max(p, 0)}[op]
        z &= (1 << bits_) - 1
        if dt.is_signed and z >= 1 << (bits_ - 1):
            z -= 1 << bits_
        out.append(z)
    return np.array(out, dtype=dt.np).reshape(x.shape)


def reference(op, dt, x, attrs, ver):
    if not dt.is_float:
        return int_ref(op, dt, x)
    v = to_num(dt, x).astype(np.float64)
    if op == "LeakyRelu" and dt in (F16, BF16):  # minnx's rule: the product in float32, rounded once
        al = np.float32(attrs.get("alpha", 0.01))
        with np.errstate(all="ignore"):
            y32 = np.where(v < 0, v.astype(np.float32) * al, v.astype(np.float32)).astype(np.float32)
        return bf16_round(y32) if dt is BF16 else y32.astype(np.float16)
    y = ref64(op, v, attrs, ver)
    if dt is BF16:
        return round_bf16(y)
    with np.errstate(all="ignore"):
        return np.asarray(y).astype(dt.np)


def storage(dt, values):
    """float64 values -> storage form, rounded to nearest (bfloat16 via round_bf16)."""
    v = np.asarray(values, np.float64)
    if dt is BF16:
        return round_bf16(v)
    with np.errstate(all="ignore"):
        return v.astype(dt.np)


def specials(dt):
    """NaN, +-inf, +-0, the smallest subnormal and normal, the largest finite, ties of rounding."""
    info = np.finfo(np.float32 if dt is BF16 else dt.np)
    tiny, big = float(info.tiny), float(info.max)
    sub = float(info.smallest_subnormal) if hasattr(info, "smallest_subnormal") else tiny * info.eps
    if dt is BF16:
        big = float(np.uint32(0x7F7F0000).view(np.float32))
        sub = float(np.uint32(0x00010000).view(np.float32))
    return [np.nan, np.inf, -np.inf, 0.0, -0.0, sub, -sub, tiny, -tiny, big, -big, 1.0, -1.0, 0.5, -0.5,
            1.5, -1.5, 2.5, -2.5, 3.5, 1e-3, -1e-3]


def values(op, dt, rng):
    """The specials, and ordinary values over the op's interesting range."""
    vals = list(specials(dt))
    if op in ("Log", "Sqrt", "Reciprocal"):
        vals += list(np.exp(rng.uniform(-12, 12, 24)))
    else:
        vals += list(rng.normal(0, 4, 24))
        vals += [-90.0, -20.0, -8.0, 8.0, 20.0, 90.0]
    if dt is not F16 and dt is not BF16:
        vals += [1e10, -1e10, 123456.75, -8388607.5, 8388609.0]
    if dt is F16:
        vals += [1024.5, -1023.5, 65504.0]
    return storage(dt, vals)


def int_values(dt, rng):
    info = np.iinfo(dt.np)
    v = [int(info.min), int(info.min) + 1, -1, 0, 1, int(info.max)] if dt.is_signed else \
        [0, 1, 2, int(info.max) - 1, int(info.max)]
    return np.concatenate([np.array(v, dt.np), rng.integers(info.min, info.max, 16, dtype=dt.np,
                                                            endpoint=True)])


def unary_case(name, op, dt, x, ver, **attrs):
    return Case(name, [node(op, ["x0"], ["y"], **attrs)], {"": ver}, inputs_for(dt, [x]),
                [Value("y", dt, reference(op, dt, x, attrs, ver))])


def gen_unary():
    for op, versions in TYPES.items():
        for ver, types in versions.items():
            for dt in types:
                name = f"unary_{op.lower()}_v{ver}_{dt.name}"
                rng = seeded(name)
                x = values(op, dt, rng) if dt.is_float else int_values(dt, rng)
                attrs = {}
                if op == "Gelu":
                    yield unary_case(name + "_tanh", op, dt, x, ver, approximate="tanh")
                yield unary_case(name, op, dt, x, ver, **attrs)
    yield from unary_attrs()
    yield from unary_shapes()
    yield from unary_err()


def unary_attrs():
    """Attributes given, legacy consumed_inputs accepted and ignored."""
    rng = seeded("unary_attrs")
    x = storage(F32, list(rng.normal(0, 3, 16)) + [-0.0, np.nan, -np.inf, np.inf])
    yield unary_case("unary_leakyrelu_alpha", "LeakyRelu", F32, x, 16, alpha=0.3)
    yield unary_case("unary_leakyrelu_alpha_negative", "LeakyRelu", F32, x, 6, alpha=-2.0)
    yield unary_case("unary_hardsigmoid_alpha_beta", "HardSigmoid", F32, x, 6, alpha=0.5, beta=0.25)
    yield unary_case("unary_elu_alpha", "Elu", F32, x, 6, alpha=2.5)
    yield unary_case("unary_selu_attrs", "Selu", F32, x, 6, alpha=2.0, gamma=3.0)
    yield unary_case("unary_gelu_none", "Gelu", F32, x, 20, approximate="none")
    for op in ("Neg", "Abs", "Relu", "Sqrt", "Exp", "Sigmoid", "Tanh", "Floor"):
        yield unary_case(f"unary_{op.lower()}_v1_consumed_inputs", op, F32, np.abs(x) if op == "Sqrt" else x, 1,
                         consumed_inputs=[0])
    yield unary_case("unary_leakyrelu_v1_consumed_inputs", "LeakyRelu", F32, x, 1, alpha=0.2,
                     consumed_inputs=[0])
    yield unary_case("unary_selu_v1_defaults", "Selu", F32, x, 1)


def unary_shapes():
    """Ranks 0 to 4, an empty tensor, and one long enough to be split into tasks."""
    for shape in ((), (0,), (3, 0, 2), (2, 3, 4, 5), (20000,)):
        label = "x".join(map(str, shape)) or "scalar"
        for op in ("Relu", "Exp") if len(shape) == 1 and shape[0] > 100 else ("Relu", "Exp", "Neg"):
            name = f"unary_{op.lower()}_shape_{label}"
            x = storage(F32, seeded(name).normal(0, 3, shape))
            yield unary_case(name, op, F32, x, 13)


def unary_err():
    f = lambda s: [(F32, s)]
    yield err_op("unary_err_relu_v13_int32", "dtype", "Relu", [(I32, (3,))], opset=13)
    yield err_op("unary_err_neg_v6_uint8", "dtype", "Neg", [(U8, (3,))], opset=6)
    yield err_op("unary_err_abs_v1_int32", "dtype", "Abs", [(I32, (3,))], opset=1)
    yield err_op("unary_err_exp_int32", "dtype", "Exp", [(I32, (3,))], opset=13)
    yield err_op("unary_err_sqrt_v6_bfloat16", "dtype", "Sqrt", [(BF16, (3,))], opset=6)
    yield err_op("unary_err_round_v11_bfloat16", "dtype", "Round", [(BF16, (3,))], opset=11)
    yield err_op("unary_err_leakyrelu_v6_bfloat16", "dtype", "LeakyRelu", [(BF16, (3,))], opset=6)
    yield err_op("unary_err_relu_v14_uint8", "dtype", "Relu", [(U8, (3,))], opset=14)
    yield err_op("unary_err_gelu_approximate", "attribute", "Gelu", f((3,)), opset=20, approximate="fast")
    yield err_op("unary_err_relu_v6_consumed_inputs", "attribute", "Relu", f((3,)), opset=6, consumed_inputs=[0])
    yield err_op("unary_err_leakyrelu_alpha_int", "attribute", "LeakyRelu", f((3,)), opset=16, alpha=2)
    yield err_op("unary_err_sigmoid_two_inputs", "inputs", "Sigmoid", f((3,)) + f((3,)), opset=13)
    yield err_op("unary_err_hardswish_v13", "operator", "HardSwish", f((3,)), opset=13)
    yield err_op("unary_err_gelu_v17", "operator", "Gelu", f((3,)), opset=17)
