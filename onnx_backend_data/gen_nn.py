"""conv_ and pool_ (ops/nn/): conv_: Conv 1 and 11, every version x dtype x rule (1-D, 2-D, 3-D; groups and depthwise;
strides, dilations, explicit and auto pads; kernel_shape given or from W; with and without bias;
weights as initializers), and the refusals.

The reference is numpy in float64 (the zero-padded input, each kernel offset's products summed
with einsum), rounded once into the dtype: independent of minnx's order, compared within the
tolerance of an inexact op.  float16 data are small integers and halves, so that float32's sum
is exact and only the final rounding shows.  pool_: below."""
import numpy as np

from generate import BF16, F16, F32, F64, I8, I32, I64, U8, Case, Value, arr, err_op, node, seeded, to_num, from_num

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


# ---------------------------------------------------------------------------------------------
# convtranspose_: ConvTranspose 1 and 11, every version x dtype x rule (1-D, 2-D, 3-D; groups and
# depthwise; strides, dilations, explicit pads, every auto_pad, output_padding, output_shape with
# each version's split of the padding, a negative one included; kernel_shape given or from W;
# with and without bias; weights as initializers), and the refusals.  The reference: numpy in
# float64, each input element times each kernel offset's weights added where it lands in the
# output (o = i * stride + t * dilation - pad_begin; what lands outside is dropped), rounded once.

CONVT_TYPES = {1: [F16, F32, F64], 11: [F16, F32, F64]}


def convt_geometry(ver, xshape, ks, strides, dilations, pads, output_padding, output_shape, auto_pad):
    """Per spatial dim (pad_begin, out), from the spec's formulas (the version's own split)."""
    res = []
    for i, k in enumerate(ks):
        n, s, d, op = xshape[2 + i], strides[i], dilations[i], output_padding[i]
        full = s * (n - 1) + op + (k - 1) * d + 1
        if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            if output_shape is not None:
                out = output_shape[i]
            else:
                out = n * s if ver >= 11 else n     # version 1: the output matches the input
            total = full - out
            upper = auto_pad == "SAME_UPPER"
            if output_shape is not None and ver < 11:
                upper = not upper                   # version 1's formula: the other way round
            res.append((total // 2 if upper else total - total // 2, out))
        elif auto_pad == "VALID" or pads is None:
            res.append((0, full))
        else:
            res.append((pads[i], full - pads[i] - pads[len(ks) + i]))
    return res


def convt_ref(dt, x, w, b, geom, strides, dilations, group):
    xf, wf = to_num(dt, x).astype(np.float64), to_num(dt, w).astype(np.float64)
    sp = xf.ndim - 2
    ks = wf.shape[2:]
    n, c = xf.shape[:2]
    mg = wf.shape[1]
    m, cg = mg * group, c // group
    y = np.zeros((n, m) + tuple(o for _, o in geom))
    for g in range(group):
        xs = xf[:, g * cg:(g + 1) * cg]
        for t in np.ndindex(*ks):
            part = np.einsum("nc...,cm->nm...", xs, wf[g * cg:(g + 1) * cg][(slice(None), slice(None)) + t])
            outs, ins = [], []
            for d in range(sp):
                o = np.arange(xf.shape[2 + d]) * strides[d] + t[d] * dilations[d] - geom[d][0]
                keep = (o >= 0) & (o < geom[d][1])
                outs.append(o[keep])
                ins.append(np.nonzero(keep)[0])
            sl = (slice(None), slice(g * mg, (g + 1) * mg))
            y[sl + np.ix_(*outs)] += part[(slice(None), slice(None)) + np.ix_(*ins)]
    if b is not None:
        y += to_num(dt, b).astype(np.float64).reshape((1, m) + (1,) * sp)
    return from_num(dt, y)


def convt_case(name, dt, xs, ws, bias=True, ver=11, w_init=False, kernel_shape=False, x=None, w=None, **attrs):
    rng = seeded(name)
    x = data(dt, xs, rng) if x is None else x
    w = data(dt, ws, rng) if w is None else w
    group = attrs.get("group", 1)
    b = data(dt, (ws[1] * group,), rng) if bias else None
    attrs = {k: v for k, v in attrs.items() if v is not None}
    if kernel_shape:
        attrs["kernel_shape"] = list(ws[2:])
    sp = len(xs) - 2
    strides, dilations = attrs.get("strides", [1] * sp), attrs.get("dilations", [1] * sp)
    geom = convt_geometry(ver, xs, ws[2:], strides, dilations, attrs.get("pads"), attrs.get("output_padding", [0] * sp),
                          attrs.get("output_shape"), attrs.get("auto_pad"))
    want = convt_ref(dt, x, w, b, geom, strides, dilations, group)
    vals = [Value("x", dt, x), Value("w", dt, w)] + ([Value("b", dt, b)] if bias else [])
    ins, inits = (vals[:1], vals[1:]) if w_init else (vals, [])
    return Case(name, [node("ConvTranspose", [v.name for v in vals], ["y"], **attrs)], {"": ver}, ins,
                [Value("y", dt, want)], inits)


def gen_convt():
    # every version x dtype: a 2-D transposed convolution with strides, pads and a bias, and one without
    for ver, types in CONVT_TYPES.items():
        for dt in types:
            d = dt.name
            yield convt_case(f"convtranspose_v{ver}_{d}", dt, (1, 2, 4, 5), (2, 3, 3, 3), ver=ver, strides=[2, 2],
                             pads=[1, 1, 0, 1])
            yield convt_case(f"convtranspose_v{ver}_{d}_no_bias", dt, (2, 3, 3, 4), (3, 2, 2, 3), bias=False, ver=ver)
            # 1-D and 3-D
            yield convt_case(f"convtranspose_v{ver}_1d_{d}", dt, (2, 3, 7), (3, 4, 3), ver=ver, strides=[3], pads=[2, 1])
            yield convt_case(f"convtranspose_v{ver}_3d_{d}", dt, (1, 2, 3, 4, 3), (2, 3, 2, 3, 2), ver=ver,
                             strides=[2, 1, 2], pads=[1, 0, 0, 0, 1, 1])
            # groups, depthwise, depthwise with a multiplier
            yield convt_case(f"convtranspose_v{ver}_groups_{d}", dt, (1, 4, 4, 4), (4, 3, 3, 3), ver=ver, group=2,
                             strides=[2, 2], pads=[1, 1, 1, 1])
            yield convt_case(f"convtranspose_v{ver}_depthwise_{d}", dt, (2, 3, 5, 4), (3, 1, 3, 3), ver=ver, group=3,
                             strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])
            yield convt_case(f"convtranspose_v{ver}_depthwise_mult_{d}", dt, (1, 2, 4, 4), (2, 3, 2, 2), ver=ver,
                             group=2, strides=[2, 2])
            # dilations (output_padding below its dilation, at stride 1), output_padding below the stride
            yield convt_case(f"convtranspose_v{ver}_dilations_{d}", dt, (1, 2, 5, 5), (2, 2, 3, 2), ver=ver,
                             dilations=[2, 3], pads=[1, 0, 2, 1], output_padding=[1, 2])
            yield convt_case(f"convtranspose_v{ver}_output_padding_{d}", dt, (1, 2, 4, 3), (2, 2, 3, 3), ver=ver,
                             strides=[3, 2], output_padding=[2, 1], pads=[0, 1, 1, 0])
            # every auto_pad (each version's sizes and split)
            for ap in ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"):
                extra = {"pads": [1, 0, 0, 1]} if ap == "NOTSET" else {}
                yield convt_case(f"convtranspose_v{ver}_autopad_{ap.lower()}_{d}", dt, (1, 2, 3, 4), (2, 2, 3, 2),
                                 ver=ver, auto_pad=ap, strides=[2, 3], **extra)
            # output_shape: pads from it (the version's split; odd totals), with and without auto_pad,
            # an output larger than the full one (a negative total), output_padding in the total
            yield convt_case(f"convtranspose_v{ver}_output_shape_{d}", dt, (1, 1, 3, 4), (1, 2, 3, 3), ver=ver,
                             strides=[2, 2], output_shape=[6, 8])
            yield convt_case(f"convtranspose_v{ver}_output_shape_upper_{d}", dt, (1, 1, 3, 4), (1, 2, 3, 3), ver=ver,
                             strides=[2, 2], output_shape=[6, 8], auto_pad="SAME_UPPER")
            yield convt_case(f"convtranspose_v{ver}_output_shape_larger_{d}", dt, (1, 2, 3, 3), (2, 2, 3, 3), ver=ver,
                             strides=[3, 2], output_shape=[12, 10])
            yield convt_case(f"convtranspose_v{ver}_output_shape_padding_{d}", dt, (1, 2, 3, 3), (2, 1, 3, 3), ver=ver,
                             strides=[3, 2], output_shape=[9, 6], output_padding=[2, 1], pads=[5, 5, 5, 5])
    for ver in (1, 11):
        yield convt_case(f"convtranspose_v{ver}_kernel_shape", F32, (1, 2, 4, 4), (2, 2, 3, 2), ver=ver,
                         kernel_shape=True, strides=[2, 2])
        yield convt_case(f"convtranspose_v{ver}_weights_init", F32, (1, 2, 4, 4), (2, 3, 2, 2), ver=ver, w_init=True,
                         strides=[2, 2])
        yield convt_case(f"convtranspose_v{ver}_same_lower_dilated", F32, (1, 1, 4, 5), (1, 2, 3, 3), ver=ver,
                         auto_pad="SAME_LOWER", dilations=[2, 1], strides=[2, 2])
        yield convt_case(f"convtranspose_v{ver}_defaults_1d", F64, (1, 1, 5), (1, 1, 2), ver=ver)
    # blocks crossed: 288 input channels (the product's k, > its KC of 256), 20 output channels, 2 images
    yield convt_case("convtranspose_blocks_float32", F32, (2, 288, 3, 3), (288, 20, 3, 3), strides=[2, 2],
                     pads=[1, 1, 1, 1])
    yield convt_case("convtranspose_blocks_float64", F64, (1, 288, 3, 2), (288, 5, 2, 2), strides=[2, 2])
    # halves: every product and sum exact in float32, so no cancellation meets the tolerance
    rng = seeded("convtranspose_wide_float32")
    x, w = arr(F32, rng.integers(-8, 9, size=(1, 16, 17, 19)) / 2), arr(F32, rng.integers(-8, 9, size=(16, 8, 4, 4)) / 2)
    yield convt_case("convtranspose_wide_float32", F32, (1, 16, 17, 19), (16, 8, 4, 4), x=x, w=w, strides=[2, 2],
                     pads=[1, 1, 1, 1])
    # an offset under which nothing lands in the output adds nothing: its infinite weight does not
    # make the output NaN (it would through a zero-inserted input)
    x = arr(F32, [[[1.0, -2.0]]])
    w = arr(F32, [[[1.0, 0.5, np.inf]]])
    yield convt_case("convtranspose_inf_weight_cropped", F32, (1, 1, 2), (1, 1, 3), bias=False, x=x, w=w,
                     pads=[0, 2])
    yield convt_case("convtranspose_inf_weight_gap", F32, (1, 1, 2), (1, 1, 3), bias=False, x=x, w=w,
                     strides=[4])


def err_convt():
    f = lambda *shapes: [(F32, s) for s in shapes]
    op = "ConvTranspose"
    yield err_op("err_convtranspose_output_padding_stride_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 strides=[2, 2], output_padding=[2, 0])
    yield err_op("err_convtranspose_output_padding_unit_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 1,
                 output_padding=[0, 1])
    yield err_op("err_convtranspose_output_padding_negative_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)),
                 11, strides=[2, 2], output_padding=[-1, 0])
    yield err_op("err_convtranspose_output_padding_length_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)),
                 11, strides=[2, 2], output_padding=[1])
    yield err_op("err_convtranspose_group_divides_shape", "shape", op, f((1, 3, 4, 4), (3, 1, 3, 3)), 11, group=2)
    yield err_op("err_convtranspose_w_channels_shape", "shape", op, f((1, 4, 4, 4), (2, 1, 3, 3)), 11, group=2)
    yield err_op("err_convtranspose_negative_pads_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 pads=[0, -1, 0, 0])
    yield err_op("err_convtranspose_pads_leave_nothing_shape", "shape", op, f((1, 1, 2, 2), (1, 1, 2, 2)), 11,
                 pads=[2, 0, 1, 0])
    yield err_op("err_convtranspose_output_shape_length_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 output_shape=[1, 1, 5, 5])
    yield err_op("err_convtranspose_output_shape_zero_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 output_shape=[5, 0])
    yield err_op("err_convtranspose_zero_stride_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 1,
                 strides=[1, 0])
    yield err_op("err_convtranspose_pads_and_auto_pad_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 auto_pad="SAME_UPPER", pads=[1, 1, 1, 1])
    yield err_op("err_convtranspose_auto_pad_name_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 auto_pad="SAME")
    yield err_op("err_convtranspose_kernel_shape_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 kernel_shape=[3, 2])
    yield err_op("err_convtranspose_group_zero_attribute", "attribute", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11, group=0)
    yield err_op("err_convtranspose_bias_shape", "shape", op, f((1, 1, 3, 3), (1, 2, 3, 3), (1,)), 11)
    yield err_op("err_convtranspose_rank_mismatch_shape", "shape", op, f((1, 1, 3, 3), (1, 1, 3)), 11)
    yield err_op("err_convtranspose_rank2_rank", "rank", op, f((1, 5), (1, 5)), 11)
    yield err_op("err_convtranspose_int32_dtype", "dtype", op, [(I32, (1, 1, 3, 3)), (I32, (1, 1, 2, 2))], 11)
    yield err_op("err_convtranspose_bfloat16_dtype", "dtype", op, [(BF16, (1, 1, 3, 3)), (BF16, (1, 1, 2, 2))], 11)
    yield err_op("err_convtranspose_dilation_overflow_shape", "shape", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 dilations=[1 << 62, 1])
    yield err_op("err_convtranspose_stride_overflow_shape", "shape", op, f((1, 1, 3, 3), (1, 1, 3, 3)), 11,
                 strides=[1 << 62, 1])


# ---------------------------------------------------------------------------------------------
# pool_: MaxPool 1, 8, 10, 11, 12; AveragePool 1, 7, 10, 11, 19; GlobalMaxPool and
# GlobalAveragePool 1.  References: every window's taps gathered here from the spec's shape
# rules; max numpy's (NaN wins, the first of equal values, its flat index), the average numpy's
# float64 mean rounded once.

MAXPOOL_TYPES = {1: [F16, F32, F64], 8: [F16, F32, F64], 10: [F16, F32, F64], 11: [F16, F32, F64],
                 12: [F16, F32, F64, I8, U8]}
AVGPOOL_VERSIONS = (1, 7, 10, 11, 19)


def pool_ref(dt, x, kernel, strides=None, pads=None, dilations=None, auto_pad=None, ceil_mode=0, avg=False,
             include_pad=0, storage_order=0):
    xf = to_num(dt, x).astype(np.float64)
    sp = xf.ndim - 2
    ins = xf.shape[2:]
    strides = strides or [1] * sp
    dilations = dilations or [1] * sp
    pb, pe, outs = [], [], []
    for i in range(sp):
        dk = (kernel[i] - 1) * dilations[i] + 1
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            a, b = same_pads(ins[i], kernel[i], strides[i], dilations[i], auto_pad == "SAME_LOWER")
            o = -(-ins[i] // strides[i])
        else:
            a, b = (0, 0) if auto_pad == "VALID" or pads is None else (pads[i], pads[sp + i])
            span = ins[i] + a + b - dk
            o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
            if ceil_mode and (o - 1) * strides[i] >= ins[i] + a:  # a last window starting in the end padding
                o -= 1
        pb.append(a), pe.append(b), outs.append(o)
    n, c = xf.shape[:2]
    y = np.zeros((n, c) + tuple(outs))
    ind = np.zeros((n, c) + tuple(outs), np.int64)
    for o in np.ndindex(*outs):
        vals, flat, count = [], [], 0
        for k in np.ndindex(*kernel):
            pos = [o[i] * strides[i] + k[i] * dilations[i] - pb[i] for i in range(sp)]
            inside = all(0 <= pos[i] < ins[i] for i in range(sp))
            padded = all(-pb[i] <= pos[i] < ins[i] + pe[i] for i in range(sp))
            count += inside or (include_pad and padded)
            if inside:
                vals.append(xf[(slice(None), slice(None)) + tuple(pos)])
                order = pos[::-1] if storage_order else pos
                dims = ins[::-1] if storage_order else ins
                flat.append(int(np.ravel_multi_index(order, dims)))
        v = np.stack(vals, -1)  # [n, c, taps]
        if avg:
            y[(slice(None), slice(None)) + o] = v.sum(-1) / count
        else:
            at = np.argmax(v, -1)  # the first NaN, else the first of the largest
            y[(slice(None), slice(None)) + o] = np.take_along_axis(v, at[..., None], -1)[..., 0]
            plane = np.arange(n * c).reshape(n, c) * int(np.prod(ins))
            ind[(slice(None), slice(None)) + o] = plane + np.array(flat)[at]
    return (from_num(dt, y) if dt.is_float else y.astype(dt.np)), ind


def pool_data(dt, shape, rng, avg):
    if dt in (I8, U8):
        lo, hi = (-128, 128) if dt is I8 else (0, 256)
        return rng.integers(lo, hi, size=shape).astype(dt.np)
    if avg and dt is F16:
        return arr(dt, rng.integers(-8, 9, size=shape) / 4)
    if not avg:  # ties now and then
        return arr(dt, rng.integers(-20, 21, size=shape) / 4)
    return arr(dt, rng.uniform(-2.0, 2.0, size=shape))


def pool_case(name, op, dt, xs, kernel, ver, indices=False, x=None, **attrs):
    avg = op == "AveragePool"
    rng = seeded(name)
    x = pool_data(dt, xs, rng, avg) if x is None else x
    attrs = {k: v for k, v in attrs.items() if v is not None}
    y, ind = pool_ref(dt, x, kernel, attrs.get("strides"), attrs.get("pads"), attrs.get("dilations"),
                      attrs.get("auto_pad"), attrs.get("ceil_mode", 0), avg, attrs.get("count_include_pad", 0),
                      attrs.get("storage_order", 0))
    outs = [Value("y", dt, y)] + ([Value("ind", I64, ind)] if indices else [])
    return Case(name, [node(op, ["x"], [v.name for v in outs], kernel_shape=list(kernel), **attrs)], {"": ver},
                [Value("x", dt, x)], outs)


def global_case(name, op, dt, xs, x=None):
    rng = seeded(name)
    avg = op == "GlobalAveragePool"
    x = pool_data(dt, xs, rng, avg) if x is None else x
    xf = to_num(dt, x).astype(np.float64)
    axes = tuple(range(2, xf.ndim))
    y = xf.mean(axes, keepdims=True) if avg else xf.max(axes, keepdims=True)
    return Case(name, [node(op, ["x"], ["y"])], {"": 1}, [Value("x", dt, x)], [Value("y", dt, from_num(dt, y))])


def gen_pool():
    for ver, types in MAXPOOL_TYPES.items():
        for dt in types:
            yield pool_case(f"pool_max_v{ver}_{dt.name}", "MaxPool", dt, (1, 2, 6, 7), (3, 3), ver, strides=[2, 2],
                            pads=[1, 1, 1, 1], indices=ver >= 8)
    for ver in AVGPOOL_VERSIONS:
        for dt in (F16, F32, F64):
            yield pool_case(f"pool_avg_v{ver}_{dt.name}", "AveragePool", dt, (1, 2, 6, 7), (3, 3), ver,
                            strides=[2, 2], pads=[1, 1, 1, 1])
            if ver >= 7:
                yield pool_case(f"pool_avg_v{ver}_{dt.name}_include_pad", "AveragePool", dt, (1, 2, 6, 7), (3, 3),
                                ver, strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1)
    for ver in (8, 10, 12):
        yield pool_case(f"pool_max_v{ver}_storage_order", "MaxPool", F32, (2, 2, 5, 4), (2, 3), ver, indices=True,
                        pads=[1, 0, 0, 1], storage_order=1)
    for ver in (10, 11, 12):
        yield pool_case(f"pool_max_v{ver}_ceil", "MaxPool", F32, (1, 2, 6, 6), (3, 3), ver, indices=True,
                        strides=[2, 2], ceil_mode=1)
        yield pool_case(f"pool_max_v{ver}_ceil_pads_drop", "MaxPool", F32, (1, 1, 5, 5), (2, 2), ver, indices=True,
                        strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
        yield pool_case(f"pool_max_v{ver}_dilations", "MaxPool", F32, (1, 2, 7, 8), (2, 3), ver, indices=True,
                        dilations=[2, 2], pads=[1, 1, 0, 1])
    for ver in (10, 11, 19):
        for inc in (0, 1):
            yield pool_case(f"pool_avg_v{ver}_ceil_include{inc}", "AveragePool", F32, (1, 2, 6, 5), (3, 2), ver,
                            strides=[2, 2], pads=[1, 0, 1, 1], ceil_mode=1, count_include_pad=inc)
    for inc in (0, 1):
        yield pool_case(f"pool_avg_v19_dilations_include{inc}", "AveragePool", F32, (1, 2, 7, 7), (2, 3), 19,
                        dilations=[2, 2], pads=[1, 1, 1, 0], count_include_pad=inc)
    for op, ver in (("MaxPool", 12), ("AveragePool", 19)):
        short = "max" if op == "MaxPool" else "avg"
        for dt in (F16, F32, F64):
            yield pool_case(f"pool_{short}_1d_{dt.name}", op, dt, (2, 3, 9), (3,), ver, strides=[2], pads=[1, 2])
            yield pool_case(f"pool_{short}_3d_{dt.name}", op, dt, (1, 2, 4, 5, 4), (2, 3, 2), ver,
                            strides=[1, 2, 2], pads=[1, 1, 0, 0, 1, 1])
        for ap in ("SAME_UPPER", "SAME_LOWER", "VALID"):
            yield pool_case(f"pool_{short}_autopad_{ap.lower()}", op, F32, (1, 2, 6, 7), (3, 2), ver,
                            strides=[2, 2], auto_pad=ap)
    # NaN wins (the first), -0 and +0 tie (the first); int8 and uint8 ties
    x = arr(F32, [[[[1.0, np.nan, 3.0], [np.nan, -np.inf, 2.0], [-0.0, 0.0, np.inf]]]])
    yield pool_case("pool_max_nan_ties", "MaxPool", F32, None, (2, 2), 12, indices=True, x=x)
    x = arr(F32, [[[[-0.0, 0.0], [0.0, -0.0]]]])
    yield pool_case("pool_max_signed_zeros", "MaxPool", F32, None, (2, 1), 12, indices=True, x=x)
    for op in ("GlobalMaxPool", "GlobalAveragePool"):
        short = "gmax" if op == "GlobalMaxPool" else "gavg"
        for dt in (F16, F32, F64):
            yield global_case(f"pool_{short}_{dt.name}", op, dt, (2, 3, 4, 5))
        yield global_case(f"pool_{short}_1d", op, F32, (2, 3, 7))
        yield global_case(f"pool_{short}_3d", op, F32, (1, 2, 3, 4, 5))
        yield global_case(f"pool_{short}_4d", op, F32, (1, 2, 3, 2, 2, 3))
    yield global_case("pool_gmax_nan", "GlobalMaxPool", F32, None, x=arr(F32, [[[1.0, np.nan, 2.0]], [[-1.0, -2.0, -3.0]]]))


def err_pool():
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op("err_pool_max_no_kernel_attribute", "attribute", "MaxPool", f((1, 1, 5, 5)), 12)
    yield err_op("err_pool_max_kernel_length_attribute", "attribute", "MaxPool", f((1, 1, 5, 5)), 12,
                 kernel_shape=[2])
    yield err_op("err_pool_max_negative_pads_attribute", "attribute", "MaxPool", f((1, 1, 5, 5)), 12,
                 kernel_shape=[2, 2], pads=[0, 0, -1, 0])
    yield err_op("err_pool_max_storage_order_attribute", "attribute", "MaxPool", f((1, 1, 5, 5)), 12,
                 kernel_shape=[2, 2], storage_order=2)
    yield err_op("err_pool_max_dilations_v8_attribute", "attribute", "MaxPool", f((1, 1, 5, 5)), 8,
                 kernel_shape=[2, 2], dilations=[2, 2])
    yield err_op("err_pool_max_int8_v11_dtype", "dtype", "MaxPool", [(I8, (1, 1, 4, 4))], 11, kernel_shape=[2, 2])
    yield err_op("err_pool_max_window_in_padding_shape", "shape", "MaxPool", f((1, 1, 2, 5)), 12,
                 kernel_shape=[2, 2], pads=[3, 0, 3, 0])
    yield err_op("err_pool_max_kernel_too_large_shape", "shape", "MaxPool", f((1, 1, 3, 3)), 12, kernel_shape=[4, 2])
    yield err_op("err_pool_max_rank2_shape", "shape", "MaxPool", f((1, 5)), 12, kernel_shape=[2])
    yield err_op("err_pool_avg_include_pad_v1_attribute", "attribute", "AveragePool", f((1, 1, 5, 5)), 1,
                 kernel_shape=[2, 2], count_include_pad=1)
    yield err_op("err_pool_avg_dilations_v11_attribute", "attribute", "AveragePool", f((1, 1, 5, 5)), 11,
                 kernel_shape=[2, 2], dilations=[2, 2])
    yield err_op("err_pool_avg_ceil_v7_attribute", "attribute", "AveragePool", f((1, 1, 5, 5)), 7,
                 kernel_shape=[2, 2], ceil_mode=1)
    yield err_op("err_pool_avg_zero_stride_attribute", "attribute", "AveragePool", f((1, 1, 5, 5)), 19,
                 kernel_shape=[2, 2], strides=[0, 1])
    yield err_op("err_pool_avg_int32_dtype", "dtype", "AveragePool", [(I32, (1, 1, 4, 4))], 19, kernel_shape=[2, 2])
    yield err_op("err_pool_gavg_rank2_shape", "shape", "GlobalAveragePool", f((2, 5)), 1)
    yield err_op("err_pool_gmax_int8_dtype", "dtype", "GlobalMaxPool", [(I8, (1, 1, 4, 4))], 1)


def gen_nn():
    yield from gen_conv()
    yield from err_conv()
    yield from gen_convt()
    yield from err_convt()
    yield from gen_pool()
    yield from err_pool()
