"""norm_ (ops/nn/norm.c): BatchNormalization 1, 6, 7, 9, 14, 15, InstanceNormalization 1, 6 and
LayerNormalization 17, every version x dtype x attribute (spatial=0 of 1, 6, 7; is_test; the
mixed parameter dtypes of 14 and 15; axis, epsilon, B, Mean and InvStdDev of 17), and the refusals
(training: is_test=0, training_mode=1, the training outputs; wrong shapes, dtypes, ranks, axes,
stash_type).

The reference is numpy in float64 (the spec's formulas: (x - mean) / sqrt(var + eps) * scale + B,
the population variance), rounded once into the dtype, compared within the tolerance of an
inexact op. bfloat16 data are chosen so that every step is exact (epsilon 0, variances powers of
4, small integers), since a bfloat16 result one unit off is beyond ONNX's tolerance."""
import numpy as np

from generate import BF16, F16, F32, F64, I32, Case, Value, arr, err_op, node, refused, seeded, to_num

BN_TYPES = {1: [F16, F32, F64], 6: [F16, F32, F64], 7: [F16, F32, F64], 9: [F16, F32, F64],
            14: [F16, F32, F64, BF16], 15: [F16, F32, F64, BF16]}


def store(dt, v):
    """float64 -> storage form, rounded once (bfloat16: to nearest even)."""
    v = np.asarray(v, np.float64)
    if dt is BF16:
        b = v.astype(np.float32).view(np.uint32).astype(np.uint64)
        return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    return v.astype(dt.np)


def f64(dt, a):
    return to_num(dt, a).astype(np.float64)


def vals(dt, shape, rng, lo=-3.0, hi=3.0, exact=False):
    if exact:  # halves: exact in every float dtype
        return store(dt, rng.integers(int(lo * 2), int(hi * 2) + 1, size=shape) / 2)
    return store(dt, rng.uniform(lo, hi, size=shape))


def bn_ref(dt, x, scale, b, mean, var, eps, pshape):
    xf = f64(dt[0], x)
    r = lambda a, t: f64(t, a).reshape(pshape)
    y = (xf - r(mean, dt[2])) / np.sqrt(r(var, dt[2]) + np.float64(np.float32(eps))) * r(scale, dt[1]) + r(b, dt[1])
    return store(dt[0], y)


def bn_case(name, ver, dt, xs, eps=None, spatial=None, pdt=None, mdt=None, is_test=1, exact=False):
    """dt: X's dtype; pdt: scale and B's (15); mdt: mean and var's (14, 15)."""
    rng = seeded(name)
    pdt, mdt = pdt or dt, mdt or dt
    exact = exact or BF16 in (dt, pdt, mdt)
    vec = spatial == 0
    ps = xs[1:] if vec else (xs[1],)
    pshape = (1,) + tuple(ps) if vec else (1, xs[1]) + (1,) * (len(xs) - 2)
    x = vals(dt, xs, rng, exact=exact)
    scale, b = vals(pdt, ps, rng, exact=exact), vals(pdt, ps, rng, exact=exact)
    mean = vals(mdt, ps, rng, exact=exact)
    var = store(mdt, 4.0 ** rng.integers(-1, 3, size=ps)) if exact else vals(mdt, ps, rng, 0.1, 4.0)
    attrs = {}
    if exact:
        eps = 0.0
    if eps is not None:
        attrs["epsilon"] = eps
    if spatial is not None:
        attrs["spatial"] = spatial
    if ver < 7:
        attrs["is_test"] = is_test
    if ver == 1:
        attrs["consumed_inputs"] = []
    want = bn_ref((dt, pdt, mdt), x, scale, b, mean, var, 1e-5 if eps is None else eps, pshape)
    ins = [Value("x", dt, x), Value("scale", pdt, scale), Value("b", pdt, b), Value("mean", mdt, mean),
           Value("var", mdt, var)]
    return Case(name, [node("BatchNormalization", [v.name for v in ins], ["y"], **attrs)], {"": ver}, ins[:1],
                [Value("y", dt, want)], ins[1:])


def in_ref(dt, x, scale, b, eps):
    xf = f64(dt, x)
    ax = tuple(range(2, xf.ndim))
    m = xf.mean(ax, keepdims=True)
    v = ((xf - m) ** 2).mean(ax, keepdims=True)
    sh = (1, xf.shape[1]) + (1,) * (xf.ndim - 2)
    return store(dt, (xf - m) / np.sqrt(v + np.float64(np.float32(eps))) * f64(dt, scale).reshape(sh)
                 + f64(dt, b).reshape(sh))


def in_case(name, ver, dt, xs, eps=None, as_inputs=False):
    rng = seeded(name)
    x = vals(dt, xs, rng, -4.0, 4.0)
    scale, b = vals(dt, (xs[1],), rng), vals(dt, (xs[1],), rng)
    attrs = {} if eps is None else {"epsilon": eps}
    if ver == 1:
        attrs["consumed_inputs"] = []
    want = in_ref(dt, x, scale, b, 1e-5 if eps is None else eps)
    ins = [Value("x", dt, x), Value("scale", dt, scale), Value("b", dt, b)]
    return Case(name, [node("InstanceNormalization", [v.name for v in ins], ["y"], **attrs)], {"": ver},
                ins if as_inputs else ins[:1], [Value("y", dt, want)], [] if as_inputs else ins[1:])


def ln_ref(dt, x, scale, b, axis, eps):
    xf = f64(dt, x)
    ax = tuple(range(axis % xf.ndim, xf.ndim))
    m = xf.mean(ax, keepdims=True)
    v = ((xf - m) ** 2).mean(ax, keepdims=True)
    s = np.sqrt(v + np.float64(np.float32(eps)))
    y = (xf - m) / s * f64(dt, scale).reshape(xf.shape[axis % xf.ndim:])
    if b is not None:
        y = y + f64(dt, b).reshape(xf.shape[axis % xf.ndim:])
    return store(dt, y), m.astype(np.float32), (1 / s).astype(np.float32)


def ln_case(name, dt, xs, axis=None, eps=None, bias=True, stats=False, sshape=None):
    rng = seeded(name)
    a = -1 if axis is None else axis
    ns = tuple(xs[a % len(xs):])
    exact = dt is BF16
    if exact:  # every set: an integer mean plus +-s, s a power of 2, as many + as -
        rows = int(np.prod(xs[:a % len(xs)]))
        n = int(np.prod(ns))
        sgn = np.array([(1 if i % 2 else -1) for i in range(n)], np.float64)
        xv = np.stack([rng.integers(-3, 4) + 2.0 ** rng.integers(-1, 2) * rng.permutation(sgn) for _ in range(rows)])
        x = store(dt, xv.reshape(xs)) if n % 2 == 0 else None
        eps = 0.0
    else:
        x = vals(dt, xs, rng, -4.0, 4.0)
    scale = vals(dt, ns, rng, exact=exact)
    b = vals(dt, ns, rng, exact=exact) if bias else None
    attrs = {k: v for k, v in (("axis", axis), ("epsilon", eps)) if v is not None}
    y, m, inv = ln_ref(dt, x, scale, b, a, 1e-5 if eps is None else eps)
    sc = Value("scale", dt, scale.reshape(sshape) if sshape else scale)
    inits = [sc] + ([Value("b", dt, b)] if bias else [])
    outs = [Value("y", dt, y)] + ([Value("mean", F32, m), Value("invstd", F32, inv)] if stats else [])
    return Case(name, [node("LayerNormalization", ["x"] + [v.name for v in inits], [v.name for v in outs], **attrs)],
                {"": 17}, [Value("x", dt, x)], outs, inits)


def gen_bn():
    for ver, types in BN_TYPES.items():
        for dt in types:
            yield bn_case(f"norm_bn_v{ver}_{dt.name}", ver, dt, (2, 3, 4, 5))
            yield bn_case(f"norm_bn_v{ver}_{dt.name}_eps", ver, dt, (2, 3, 4, 5), eps=0.25)
        yield bn_case(f"norm_bn_v{ver}_rank2", ver, F32, (4, 5))
        yield bn_case(f"norm_bn_v{ver}_rank3", ver, F32, (2, 3, 7))
        yield bn_case(f"norm_bn_v{ver}_rank5", ver, F64, (1, 2, 3, 4, 5))
        yield bn_case(f"norm_bn_v{ver}_long_rows", ver, F32, (2, 3, 37, 41))
    for ver in (1, 6, 7):
        for dt in (F16, F32, F64):
            yield bn_case(f"norm_bn_v{ver}_{dt.name}_spatial0", ver, dt, (2, 3, 4, 5), spatial=0)
        yield bn_case(f"norm_bn_v{ver}_spatial1", ver, F32, (2, 3, 4), spatial=1)
        yield bn_case(f"norm_bn_v{ver}_spatial0_rank2", ver, F32, (3, 6), spatial=0)
    for dt in (F16, F32, F64, BF16):  # 14: mean and var of their own dtype (U)
        for mdt in (F16, F32, F64, BF16):
            if mdt is not dt:
                yield bn_case(f"norm_bn_v14_{dt.name}_u_{mdt.name}", 14, dt, (2, 3, 4), mdt=mdt)
    for dt, pdt, mdt in ((F32, F16, F64), (F16, F32, F32), (F64, F32, F16), (BF16, F32, F16), (F32, BF16, BF16),
                         (F16, F64, BF16), (F32, F64, F64)):
        yield bn_case(f"norm_bn_v15_{dt.name}_t1_{pdt.name}_t2_{mdt.name}", 15, dt, (2, 3, 4), pdt=pdt, mdt=mdt)


def gen_in():
    for ver in (1, 6):
        for dt in (F16, F32, F64):
            yield in_case(f"norm_in_v{ver}_{dt.name}", ver, dt, (2, 3, 4, 5))
            yield in_case(f"norm_in_v{ver}_{dt.name}_eps", ver, dt, (2, 3, 5), eps=0.5)
        yield in_case(f"norm_in_v{ver}_rank3", ver, F32, (3, 2, 7))
        yield in_case(f"norm_in_v{ver}_rank5", ver, F32, (1, 2, 3, 4, 5))
        yield in_case(f"norm_in_v{ver}_long_plane", ver, F32, (2, 2, 1000))
        yield in_case(f"norm_in_v{ver}_long_plane_f64", ver, F64, (1, 3, 517))
        yield in_case(f"norm_in_v{ver}_params_inputs", ver, F32, (2, 4, 3, 3), as_inputs=True)
        yield in_case(f"norm_in_v{ver}_one_element_planes", ver, F32, (2, 3, 1, 1))


def gen_ln():
    for dt in (F16, F32, F64, BF16):
        yield ln_case(f"norm_ln_{dt.name}", dt, (2, 3, 4))
        yield ln_case(f"norm_ln_{dt.name}_axis1_stats", dt, (2, 3, 4), axis=1, stats=True)
        yield ln_case(f"norm_ln_{dt.name}_no_bias", dt, (3, 8), bias=False)
    for axis in (0, 1, 2, 3, -1, -2, -3, -4):
        yield ln_case(f"norm_ln_4d_axis{axis}".replace("-", "m"), F32, (2, 3, 4, 5), axis=axis, stats=True)
    yield ln_case("norm_ln_eps", F32, (4, 6), eps=0.3, stats=True)
    yield ln_case("norm_ln_long_rows", F32, (3, 1031), stats=True)
    yield ln_case("norm_ln_long_rows_f64", F64, (2, 333), stats=True, bias=False)
    yield ln_case("norm_ln_rank1", F32, (10,), stats=True)
    yield ln_case("norm_ln_scale_shape_flat", F32, (2, 3, 4), axis=1, sshape=(12,))
    yield ln_case("norm_ln_no_bias_stats", F32, (2, 5, 3), axis=-2, bias=False, stats=True)


def gen_norm_err():
    f = lambda *shapes: [(F32, s) for s in shapes]
    bn = lambda c, *rest: f((2, 3, 4, 5), (c,), (c,), (c,), (c,))
    yield err_op("norm_err_bn_v14_training_mode_training", "training", "BatchNormalization", bn(3), 14,
                 training_mode=1)
    yield err_op("norm_err_bn_v15_training_mode_training", "training", "BatchNormalization", bn(3), 15,
                 training_mode=1)
    yield err_op("norm_err_bn_v6_is_test0_training", "training", "BatchNormalization", bn(3), 6)
    yield err_op("norm_err_bn_v1_is_test0_training", "training", "BatchNormalization", bn(3), 1, consumed_inputs=[])
    yield err_op("norm_err_bn_v9_channels_shape", "shape", "BatchNormalization", bn(4), 9)
    yield err_op("norm_err_bn_v15_channels_shape", "shape", "BatchNormalization",
                 f((2, 3, 4), (3,), (3,), (3,), (2,)), 15)
    yield err_op("norm_err_bn_v9_rank1_shape", "shape", "BatchNormalization", f((3,), (3,), (3,), (3,), (3,)), 9)
    yield err_op("norm_err_bn_v9_rank2_params_shape", "shape", "BatchNormalization",
                 f((2, 3, 4), (3, 4), (3, 4), (3, 4), (3, 4)), 9)
    yield err_op("norm_err_bn_v7_spatial0_shape", "shape", "BatchNormalization", f((2, 3, 4), (3,), (3,), (3,), (3,)),
                 7, spatial=0)
    yield err_op("norm_err_bn_v9_int32_dtype", "dtype", "BatchNormalization",
                 [(I32, (2, 3)), (I32, (3,)), (I32, (3,)), (I32, (3,)), (I32, (3,))], 9)
    yield err_op("norm_err_bn_v9_bfloat16_dtype", "dtype", "BatchNormalization",
                 [(BF16, (2, 3)), (BF16, (3,)), (BF16, (3,)), (BF16, (3,)), (BF16, (3,))], 9)
    yield err_op("norm_err_bn_v9_mixed_dtype", "dtype", "BatchNormalization",
                 [(F32, (2, 3)), (F32, (3,)), (F32, (3,)), (F64, (3,)), (F64, (3,))], 9)
    yield err_op("norm_err_bn_v14_scale_dtype", "dtype", "BatchNormalization",
                 [(F32, (2, 3)), (F64, (3,)), (F64, (3,)), (F32, (3,)), (F32, (3,))], 14)
    yield err_op("norm_err_bn_v9_four_inputs", "inputs", "BatchNormalization", f((2, 3), (3,), (3,), (3,)), 9)
    # a training output asked for in inference
    rng = seeded("norm_err_bn_outputs")
    for ver, outs in ((9, ["y", "om", "ov", "osm", "osv"]), (7, ["y", "om"]), (14, ["y", "orm", "orv"]),
                      (15, ["y", "", "orv"])):
        ins = [Value(n, F32, rng.uniform(0.5, 2, size=s).astype(np.float32))
               for n, s in (("x", (2, 3, 2)), ("s", (3,)), ("b", (3,)), ("m", (3,)), ("v", (3,)))]
        yield refused(f"norm_err_bn_v{ver}_outputs_training", "load", "training",
                      [node("BatchNormalization", [v.name for v in ins], outs)], {"": ver}, ins)
    # InstanceNormalization
    yield err_op("norm_err_in_v6_rank2_shape", "shape", "InstanceNormalization", f((2, 3), (3,), (3,)), 6)
    yield err_op("norm_err_in_v6_channels_shape", "shape", "InstanceNormalization", f((2, 3, 4), (3,), (4,)), 6)
    yield err_op("norm_err_in_v6_bfloat16_dtype", "dtype", "InstanceNormalization",
                 [(BF16, (2, 3, 4)), (BF16, (3,)), (BF16, (3,))], 6)
    yield err_op("norm_err_in_v1_int32_dtype", "dtype", "InstanceNormalization",
                 [(I32, (2, 3, 4)), (I32, (3,)), (I32, (3,))], 1)
    # LayerNormalization
    yield err_op("norm_err_ln_axis_axis", "axis", "LayerNormalization", f((2, 3), (3,)), 17, axis=2)
    yield err_op("norm_err_ln_axis_negative_axis", "axis", "LayerNormalization", f((2, 3), (3,)), 17, axis=-3)
    yield err_op("norm_err_ln_scale_shape", "shape", "LayerNormalization", f((2, 3, 4), (3,)), 17)
    yield err_op("norm_err_ln_bias_shape", "shape", "LayerNormalization", f((2, 3, 4), (4,), (5,)), 17)
    yield err_op("norm_err_ln_stash_bf16_attribute", "attribute", "LayerNormalization", f((2, 3), (3,)), 17,
                 stash_type=16)
    yield err_op("norm_err_ln_stash_double_attribute", "attribute", "LayerNormalization", f((2, 3), (3,)), 17,
                 stash_type=11)
    yield err_op("norm_err_ln_int32_dtype", "dtype", "LayerNormalization", [(I32, (2, 3)), (I32, (3,))], 17)
    yield err_op("norm_err_ln_v16_operator", "operator", "LayerNormalization", f((2, 3), (3,)), 16)


def gen_norm():
    yield from gen_bn()
    yield from gen_in()
    yield from gen_ln()
    yield from gen_norm_err()
