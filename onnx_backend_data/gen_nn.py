"""conv_: Conv 1 and 11, every version x dtype x rule (1-D, 2-D, 3-D; groups and depthwise;
strides, dilations, explicit and auto pads; kernel_shape given or from W; with and without bias;
weights as initializers), and the refusals.

The reference is numpy in float64 (the zero-padded input, each kernel offset's products summed
with einsum), rounded once into the dtype: independent of minnx's order, compared within the
tolerance of an inexact op.  float16 data are small integers and halves, so that float32's sum
is exact and only the final rounding shows."""
import numpy as np

from generate import F16, F32, F64, I32, Case, Value, arr, err_op, node, seeded, to_num, from_num

CONV_TYPES = {1: [F16, F32, F64], 11: [F16, F32, F64]}


def same_pads(size, k, s, d, lower):
    """auto_pad SAME_UPPER / SAME_LOWER, from the spec: output ceil(in / stride), the padding
    split in two, the odd one at the end (UPPER) or at the beginning (LOWER)."""
    out = -(-size // s)
    total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
    small = total // 2
    return (total - small, small) if lower else (small, total - small)


def conv_ref(dt, x, w, b=None, strides=None, dilations=None, pads=None, group=1, auto_pad=None):
    xf, wf = to_num(dt, x).astype(np.float64), to_num(dt, w).astype(np.float64)
    sp = xf.ndim - 2
    ks = wf.shape[2:]
    strides = strides or [1] * sp
    dilations = dilations or [1] * sp
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pp = [same_pads(xf.shape[2 + i], ks[i], strides[i], dilations[i], auto_pad == "SAME_LOWER")
              for i in range(sp)]
    elif auto_pad == "VALID" or pads is None:
        pp = [(0, 0)] * sp
    else:
        pp = [(pads[i], pads[sp + i]) for i in range(sp)]
    xp = np.pad(xf, [(0, 0), (0, 0)] + pp)
    outs = [(xp.shape[2 + i] - ((ks[i] - 1) * dilations[i] + 1)) // strides[i] + 1 for i in range(sp)]
    n, c = xf.shape[:2]
    m = wf.shape[0]
    cg, mg = c // group, m // group
    y = np.zeros((n, m) + tuple(outs))
    for g in range(group):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = wf[g * mg:(g + 1) * mg]
        for off in np.ndindex(*ks):
            sl = tuple(slice(off[i] * dilations[i], off[i] * dilations[i] + (outs[i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(sp))
            patch = xs[(slice(None), slice(None)) + sl]          # [n, cg, outs...]
            wk = ws[(slice(None), slice(None)) + tuple(off)]     # [mg, cg]
            y[:, g * mg:(g + 1) * mg] += np.einsum("nc...,mc->nm...", patch, wk)
    if b is not None:
        y += to_num(dt, b).astype(np.float64).reshape((1, m) + (1,) * sp)
    return from_num(dt, y)


def data(dt, shape, rng):
    if dt is F16:  # halves in [-4, 4]: products and sums exact in float32
        return arr(dt, rng.integers(-8, 9, size=shape) / 2)
    return arr(dt, rng.uniform(-2.0, 2.0, size=shape))


def conv_case(name, dt, xs, ws, bias=True, ver=11, w_init=False, kernel_shape=False, **attrs):
    rng = seeded(name)
    x, w = data(dt, xs, rng), data(dt, ws, rng)
    b = data(dt, (ws[0],), rng) if bias else None
    attrs = {k: v for k, v in attrs.items() if v is not None}
    if kernel_shape:
        attrs["kernel_shape"] = list(ws[2:])
    want = conv_ref(dt, x, w, b, attrs.get("strides"), attrs.get("dilations"), attrs.get("pads"),
                    attrs.get("group", 1), attrs.get("auto_pad"))
    vals = [Value("x", dt, x), Value("w", dt, w)] + ([Value("b", dt, b)] if bias else [])
    ins, inits = (vals[:1], vals[1:]) if w_init else (vals, [])
    return Case(name, [node("Conv", [v.name for v in vals], ["y"], **attrs)], {"": ver}, ins,
                [Value("y", dt, want)], inits)


def gen_conv():
    # every version x dtype: a 2-D convolution with padding and a bias
    for ver, types in CONV_TYPES.items():
        for dt in types:
            yield conv_case(f"conv_v{ver}_{dt.name}", dt, (1, 2, 5, 5), (3, 2, 3, 3), ver=ver, pads=[1, 1, 1, 1])
            yield conv_case(f"conv_v{ver}_{dt.name}_no_bias", dt, (2, 3, 4, 6), (2, 3, 2, 3), bias=False, ver=ver)
    for dt in (F16, F32, F64):
        d = dt.name
        # 1-D and 3-D
        yield conv_case(f"conv_1d_{d}", dt, (2, 3, 9), (4, 3, 3), strides=[2], pads=[1, 2])
        yield conv_case(f"conv_3d_{d}", dt, (1, 2, 4, 5, 3), (3, 2, 2, 3, 2), pads=[1, 0, 1, 0, 1, 1])
        # groups, depthwise, depthwise with a multiplier
        yield conv_case(f"conv_groups_{d}", dt, (1, 4, 5, 5), (6, 2, 3, 3), group=2, pads=[1, 1, 1, 1])
        yield conv_case(f"conv_depthwise_{d}", dt, (2, 3, 6, 5), (3, 1, 3, 3), group=3, pads=[1, 1, 1, 1])
        yield conv_case(f"conv_depthwise_mult_{d}", dt, (1, 2, 5, 5), (6, 1, 3, 3), group=2, strides=[2, 2])
        # strides, dilations, asymmetric pads
        yield conv_case(f"conv_strides_{d}", dt, (1, 2, 7, 8), (2, 2, 3, 3), strides=[2, 3], pads=[0, 1, 2, 0])
        yield conv_case(f"conv_dilations_{d}", dt, (1, 2, 7, 7), (2, 2, 3, 2), dilations=[2, 3], pads=[1, 1, 1, 1])
        # every auto_pad
        for ap in ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"):
            extra = {"pads": [1, 0, 0, 1]} if ap == "NOTSET" else {}
            yield conv_case(f"conv_autopad_{ap.lower()}_{d}", dt, (1, 2, 6, 7), (2, 2, 3, 2), auto_pad=ap,
                            strides=[2, 2], **extra)
        # 1x1: stride 1 (the input is the product's B itself) and stride 2
        yield conv_case(f"conv_pointwise_{d}", dt, (2, 5, 3, 4), (4, 5, 1, 1))
        yield conv_case(f"conv_pointwise_stride2_{d}", dt, (1, 5, 5, 4), (4, 5, 1, 1), strides=[2, 2])
    for ver in (1, 11):
        yield conv_case(f"conv_v{ver}_kernel_shape", F32, (1, 2, 5, 5), (2, 2, 3, 2), ver=ver, kernel_shape=True)
        yield conv_case(f"conv_v{ver}_same_lower_dilated", F32, (1, 1, 6, 5), (2, 1, 3, 3), ver=ver,
                        auto_pad="SAME_LOWER", dilations=[2, 1])
        yield conv_case(f"conv_v{ver}_weights_init", F32, (1, 2, 4, 4), (3, 2, 2, 2), ver=ver, w_init=True)
    # blocks crossed: K = 32 * 9 = 288 (> the product's KC of 256), 20 output channels, 2 images
    yield conv_case("conv_blocks_float32", F32, (2, 32, 6, 7), (20, 32, 3, 3), pads=[1, 1, 1, 1])
    yield conv_case("conv_blocks_float64", F64, (1, 32, 5, 5), (9, 32, 3, 3), pads=[1, 1, 1, 1])
    yield conv_case("conv_depthwise_wide_float32", F32, (1, 16, 9, 9), (16, 1, 3, 3), group=16, pads=[1, 1, 1, 1],
                    strides=[2, 2])
    # the padding is zeros times the weights: an infinite weight over padding gives NaN
    rng = seeded("conv_inf_weight_padding")
    x = arr(F32, rng.integers(-3, 4, size=(1, 1, 3, 3)))
    w = arr(F32, [[[[np.inf, 0, 0], [0, 1, 0], [0, 0, 0]]]])
    yield Case("conv_inf_weight_padding", [node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])], {"": 11},
               [Value("x", F32, x), Value("w", F32, w)], [Value("y", F32, conv_ref(F32, x, w, pads=[1, 1, 1, 1]))])


def err_conv():
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op("err_conv_channels_shape", "shape", "Conv", f((1, 3, 5, 5), (2, 2, 3, 3)), 11)
    yield err_op("err_conv_group_divides_shape", "shape", "Conv", f((1, 4, 5, 5), (3, 2, 3, 3)), 11, group=2)
    yield err_op("err_conv_group_channels_shape", "shape", "Conv", f((1, 3, 5, 5), (2, 1, 3, 3)), 11, group=2)
    yield err_op("err_conv_kernel_too_large_shape", "shape", "Conv", f((1, 1, 3, 3), (1, 1, 4, 2)), 11)
    yield err_op("err_conv_dilated_too_large_shape", "shape", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 dilations=[3, 1])
    yield err_op("err_conv_valid_too_large_shape", "shape", "Conv", f((1, 1, 3, 3), (1, 1, 4, 1)), 11,
                 auto_pad="VALID")
    yield err_op("err_conv_negative_pads_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 pads=[0, -1, 0, 0])
    yield err_op("err_conv_zero_stride_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 1,
                 strides=[1, 0])
    yield err_op("err_conv_pads_length_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 pads=[1, 1])
    yield err_op("err_conv_auto_pad_name_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 auto_pad="SAME")
    yield err_op("err_conv_pads_and_auto_pad_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 auto_pad="SAME_UPPER", pads=[1, 1, 1, 1])
    yield err_op("err_conv_kernel_shape_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 kernel_shape=[3, 2])
    yield err_op("err_conv_group_zero_attribute", "attribute", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11, group=0)
    yield err_op("err_conv_bias_shape", "shape", "Conv", f((1, 1, 5, 5), (2, 1, 3, 3), (3,)), 11)
    yield err_op("err_conv_rank_mismatch_shape", "shape", "Conv", f((1, 1, 5, 5), (1, 1, 3)), 11)
    yield err_op("err_conv_rank2_rank", "rank", "Conv", f((1, 5), (1, 5)), 11)
    yield err_op("err_conv_int32_dtype", "dtype", "Conv", [(I32, (1, 1, 3, 3)), (I32, (1, 1, 2, 2))], 11)
    yield err_op("err_conv_mixed_dtype", "dtype", "Conv", [(F32, (1, 1, 3, 3)), (F64, (1, 1, 2, 2))], 11)
    yield err_op("err_conv_dilation_overflow_shape", "shape", "Conv", f((1, 1, 5, 5), (1, 1, 3, 3)), 11,
                 dilations=[1 << 62, 1])


def gen_nn():
    yield from gen_conv()
    yield from err_conv()
