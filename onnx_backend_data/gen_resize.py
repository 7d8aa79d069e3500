"""minnx's own cases for Resize (10, 11, 13, 18, 19) and Upsample (7, 9; refused from 10).

Every version x mode x coordinate_transformation_mode (x nearest_mode for nearest) on float32,
upsampling and downsampling, by scales and by sizes; every dtype each version allows under each
mode; cubic_coeff_a, exclude_outside, tf_crop_and_resize's roi and extrapolation_value, and from
18 antialias, axes and keep_aspect_ratio_policy. The expected outputs come from this file's own
implementation of the spec's formulas in numpy float64 (the rules minnx states in
ops/tensor/resize.h: the coordinate of each output element per axis, its taps and weights, the
nested sum over the axes, innermost first), rounded once to the dtype; nearest gathers the
elements themselves. Never from minnx. And the models minnx must refuse."""
import math

import numpy as np

from generate import (BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8, U16, U64, Case, Value, from_num,
                      i64, node, seeded, to_num)
from gen_unary import round_bf16

COORDS = ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
          "tf_crop_and_resize", "half_pixel_symmetric"]
NEAREST = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]
IDENTITY_COORDS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric")


def coords_of(ver):
    if ver < 11:
        return ["asymmetric"]
    return [c for c in COORDS if (c != "tf_half_pixel_for_nn" or ver < 18) and (c != "half_pixel_symmetric" or ver >= 19)]


def f32(v):
    return float(np.float32(v))


# ---------------------------------------------------------------------------------------------
# the reference

def axis_table(n, o, s, L, ct, mode, nmode, A, aa, excl, start_end, legacy, listed):
    """Per output coordinate x of one axis: its taps [(index, weight)...], or None (outside the
    crop: extrapolation_value)."""
    out = []
    ident = not listed or (s == 1.0 and n == o and ct in IDENTITY_COORDS)
    k = 1 if mode == "nearest" else 2 if mode == "linear" else 4
    if aa and mode != "nearest" and s < 1:
        k = 2 - 2 * (math.floor((-1 if mode == "linear" else -2) / s) + 1)
    a, b = start_end
    for x in range(o):
        if ident:
            out.append([(x, 1.0)])
            continue
        if ct == "half_pixel":
            xo = (x + 0.5) / s - 0.5
        elif ct == "half_pixel_symmetric":
            xo = n / 2 * (1 - o / L) + ((x + 0.5) / s - 0.5)
        elif ct == "pytorch_half_pixel":
            xo = (x + 0.5) / s - 0.5 if o > 1 else 0.0
        elif ct == "align_corners":
            xo = 0.0 if o == 1 else x * (n - 1) / (L - 1)
        elif ct == "tf_half_pixel_for_nn":
            xo = (x + 0.5) / s
        elif ct == "tf_crop_and_resize":
            xo = (b - a) * (n - 1) / 2 + a * (n - 1) if o == 1 else x * (b - a) * (n - 1) / (L - 1) + a * (n - 1)
            if not 0 <= xo <= n - 1:
                out.append(None)
                continue
        else:
            xo = x / s
        fl = math.floor(xo)
        whole = fl == xo
        clamp = lambda i: min(max(i, 0), n - 1)
        if mode == "nearest":
            r = xo - fl
            if legacy:
                i = fl if s >= 1 or whole else fl + 1
            elif whole or nmode == "floor":
                i = fl
            elif nmode == "ceil":
                i = fl + 1
            elif nmode == "round_prefer_ceil":
                i = fl + 1 if r >= 0.5 else fl
            else:
                i = fl + 1 if r > 0.5 else fl
            out.append([(clamp(i), 1.0)])
            continue
        i0 = fl - 1 if whole else fl
        r = xo - i0
        first = 1 - k // 2
        if aa:
            t = min(s, 1.0)
            ws = []
            for j in range(first, first + k):
                z = abs((j - r) * t)
                if mode == "linear":
                    w = max(1 - z, 0.0)
                else:
                    z2 = z * z
                    z3 = z * z2
                    w = (A + 2) * z3 - (A + 3) * z2 + 1 if z <= 1 else \
                        A * z3 - 5 * A * z2 + 8 * A * z - 4 * A if z < 2 else 0.0
                ws.append(w)
            tot = 0.0
            for w in ws:
                tot += w
            ws = [w / tot for w in ws]
        elif mode == "linear":
            ws = [1 - r, r]
        else:
            u, v = r + 1, 1 - r
            w3 = v + 1
            ws = [((A * u - 5 * A) * u + 8 * A) * u - 4 * A, ((A + 2) * r - (A + 3)) * r * r + 1,
                  ((A + 2) * v - (A + 3)) * v * v + 1, ((A * w3 - 5 * A) * w3 + 8 * A) * w3 - 4 * A]
        idx = [i0 + j for j in range(first, first + k)]
        if excl:
            ws = [0.0 if not 0 <= i < n else w for i, w in zip(idx, ws)]
            tot = 0.0
            for w in ws:
                tot += w
            ws = [w / tot for w in ws]
        out.append([(clamp(i), w) for i, w in zip(idx, ws)])
    return out


def round_to(dt, v):
    v = np.asarray(v, np.float64)
    if dt is BF16:
        return round_bf16(v)
    if dt.is_float:
        with np.errstate(all="ignore"):
            return v.astype(dt.np)
    if dt is BOOL:
        return v != 0
    info = np.iinfo(dt.np)
    r = np.clip(np.nan_to_num(np.rint(v), nan=0.0), float(info.min), float(info.max))
    return r.astype(dt.np)


def resize_ref(dt, x, tables, mode, extrapolation):
    """x: storage form; tables: axis_table per axis."""
    rank = x.ndim
    outside = np.zeros([len(t) for t in tables], bool)
    for d, tab in enumerate(tables):
        shape = [1] * rank
        shape[d] = len(tab)
        outside |= np.array([t is None for t in tab], bool).reshape(shape)
    y = x if mode == "nearest" else to_num(dt, x).astype(np.float64)
    for d in reversed(range(rank)):
        pieces = []
        for taps in tables[d]:
            if taps is None:
                pieces.append(np.take(y, 0, axis=d) if y.shape[d] else
                              np.zeros(y.shape[:d] + y.shape[d + 1:], y.dtype))
            elif mode == "nearest":
                pieces.append(np.take(y, taps[0][0], axis=d))
            else:
                acc = np.zeros(y.shape[:d] + y.shape[d + 1:], np.float64)
                for i, w in taps:
                    if w != 0.0:
                        acc = acc + w * np.take(y, i, axis=d)
                pieces.append(acc)
        y = np.stack(pieces, axis=d)
    if mode != "nearest":
        y = round_to(dt, y)
    if outside.any():
        y = np.where(outside, round_to(dt, np.array([f32(extrapolation)]))[0], y)
    return y.astype(x.dtype)


def plan(x_shape, ver, mode, ct, scales=None, sizes=None, roi=None, axes=None, policy=None, aa=0):
    """The output shape and each axis's (s, L, listed, (start, end)) by the spec's rules."""
    rank = len(x_shape)
    ax = list(range(rank)) if axes is None else [a % rank for a in axes]
    per = [(1.0, float(n), False, (0.0, 1.0)) for n in x_shape]
    out = list(x_shape)
    keep = None
    if sizes is not None and policy in ("not_larger", "not_smaller"):
        ss = [sizes[i] / x_shape[d] for i, d in enumerate(ax)]
        keep = min(ss) if policy == "not_larger" else max(ss)
    for i, d in enumerate(ax):
        n = x_shape[d]
        a, b = (f32(roi[i]), f32(roi[i + len(ax)])) if roi is not None and ct == "tf_crop_and_resize" else (0.0, 1.0)
        if scales is not None:
            s = f32(scales[i])
            L = n * (b - a) * s if ct == "tf_crop_and_resize" else n * s
            o = math.floor(L)
        elif keep is not None:
            s = keep
            o = int(s * n + 0.5)
            L = n * s
        else:
            o = sizes[i]
            s = o / n
            L = n * s
        out[d] = o
        per[d] = (s, L, True, (a, b))
    return out, per


def expected(dt, x, ver, mode, ct, nmode, A, excl, extrap, aa, **shape_args):
    out, per = plan(x.shape, ver, mode, ct, aa=aa, **shape_args)
    legacy = ver < 11
    tables = [axis_table(x.shape[d], out[d], s, L, ct, mode, nmode, f32(A), aa, excl, se, legacy, listed)
              for d, (s, L, listed, se) in enumerate(per)]
    return resize_ref(dt, x, tables, mode, extrap)


# ---------------------------------------------------------------------------------------------
# the cases

def data_of(dt, shape, rng, mode):
    if dt is BOOL:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dt.is_float:
        v = rng.uniform(-8.0, 8.0, size=shape)
        return from_num(dt, np.round(v * 16) / 16) if dt in (F16, BF16) else from_num(dt, v)
    info = np.iinfo(dt.np)
    if mode == "nearest":
        return rng.integers(int(info.min), int(info.max), size=shape, dtype=dt.np, endpoint=True)
    lo, hi = (0, 255) if info.min == 0 else (-100, 100)
    return rng.integers(lo, hi, size=shape, dtype=dt.np, endpoint=True)


def resize_case(name, ver, dt, x, mode="nearest", ct=None, nmode=None, A=None, excl=None, extrap=None, aa=None,
                axes=None, policy=None, scales=None, sizes=None, roi=None, roi_dt=F32, how="init", op="Resize"):
    attrs = {}
    if mode != "nearest" or ver < 11:
        attrs["mode"] = mode
    for key, val in (("coordinate_transformation_mode", ct), ("nearest_mode", nmode), ("cubic_coeff_a", A),
                     ("exclude_outside", excl), ("extrapolation_value", extrap), ("antialias", aa),
                     ("axes", axes), ("keep_aspect_ratio_policy", policy)):
        if val is not None:
            attrs[key] = val
    want = expected(dt, x, ver, mode, ct or ("half_pixel" if ver >= 11 else "asymmetric"),
                    nmode or "round_prefer_floor", -0.75 if A is None else A, excl or 0,
                    0.0 if extrap is None else extrap, aa or 0, scales=scales, sizes=sizes, roi=roi, axes=axes,
                    policy=policy)
    xv = Value("x", dt, x)
    consts, names = [], ["x"]
    sc = Value("sc", F32, np.array(scales, np.float32)) if scales is not None else None
    sz = Value("sz", I64, i64(sizes)) if sizes is not None else None
    if op == "Upsample" and ver < 9:
        attrs["scales"] = [float(v) for v in scales]
    elif ver < 11:
        consts, names = [sc], ["x", "sc"]
    else:
        rv = Value("roi", roi_dt, from_num(roi_dt, np.array(roi if roi is not None else [], np.float64)))
        if roi is not None or ver < 13:
            consts.append(rv)
            names.append("roi")
        else:
            names.append("")
        if sc is not None:
            consts.append(sc)
            names.append("sc")
        elif ver < 13:
            consts.append(Value("sc", F32, np.zeros(0, np.float32)))
            names.append("sc")
        else:
            names.append("")
        if sz is not None:
            consts.append(sz)
            names.append("sz")
    nodes = [node(op, names, ["y"], **attrs)]
    out = [Value("y", dt, want)]
    if how == "input":
        return Case(name, nodes, {"": ver}, [xv] + consts, out)
    return Case(name, nodes, {"": ver}, [xv], out, consts)


RESIZE_TYPES = {10: FLOATS + INTS + [BOOL], 11: FLOATS + INTS + [BOOL], 13: FLOATS + [BF16] + INTS + [BOOL],
                18: FLOATS + [BF16] + INTS + [BOOL], 19: FLOATS + [BF16] + INTS + [BOOL]}
UP = [1.0, 1.0, 1.75, 2.5]
DOWN = [1.0, 1.0, 0.6, 0.45]


def gen_grid():
    """float32: every version x mode x coordinate mode (x nearest_mode), up and down, scales and
    sizes."""
    for ver in (10, 11, 13, 18, 19):
        modes = ["nearest", "linear"] + (["cubic"] if ver >= 11 else [])
        for mode in modes:
            for ct in coords_of(ver):
                for nm in (NEAREST if mode == "nearest" and ver >= 11 else [None]):
                    for way, scales, sizes in (("up", UP, None), ("down", DOWN, None), ("upsz", None, [1, 2, 7, 5]),
                                               ("downsz", None, [1, 2, 3, 2])):
                        if ver < 11 and sizes is not None:
                            continue
                        tag = "_".join(t for t in (mode, ct if ver >= 11 else None, nm, way) if t)
                        name = f"resize_v{ver}_{tag}"
                        rng = seeded(name)
                        x = data_of(F32, (1, 2, 4, 5), rng, mode)
                        roi = [0, 0, 0.2, 0.1, 1, 1, 0.9, 1.2] if ct == "tf_crop_and_resize" else None
                        yield resize_case(name, ver, F32, x, mode, None if ver < 11 or ct == "half_pixel" else ct,
                                          nm, scales=scales, sizes=sizes, roi=roi,
                                          extrap=-3.5 if ct == "tf_crop_and_resize" else None)


def gen_dtypes():
    for ver, types in RESIZE_TYPES.items():
        for dt in types:
            modes = ["nearest"] + ([] if dt is BOOL else ["linear"] + (["cubic"] if ver >= 11 else []))
            for mode in modes:
                for way, scales in (("up", [1.0, 2.5, 1.5]), ("down", [1.0, 0.5, 0.7])):
                    name = f"resize_v{ver}_{dt.name}_{mode}_{way}"
                    rng = seeded(name)
                    x = data_of(dt, (2, 4, 5), rng, mode)
                    yield resize_case(name, ver, dt, x, mode, scales=scales)
            if ver >= 11 and dt is not BOOL:  # extrapolation_value into the dtype
                name = f"resize_v{ver}_{dt.name}_crop_extrapolation"
                x = data_of(dt, (3, 4), seeded(name), "linear")
                yield resize_case(name, ver, dt, x, "linear", "tf_crop_and_resize", sizes=[4, 5],
                                  roi=[-0.2, 0.1, 0.9, 1.3], extrap=7.0)


def gen_rules():
    rng = seeded("resize_rules")
    x = data_of(F32, (1, 1, 5, 6), rng, "cubic")
    for ver in (11, 13, 18, 19):
        for A in (-0.5, -0.75, -0.6):
            for excl in (0, 1):
                for way, scales in (("up", [1, 1, 1.6, 2.2]), ("down", [1, 1, 0.5, 0.7])):
                    name = f"resize_v{ver}_cubic_a{str(A)[1:].replace('.', 'p')}_excl{excl}_{way}"
                    yield resize_case(name, ver, F32, x, "cubic", A=A, excl=excl, scales=scales)
        for rdt in FLOATS:  # roi in each of its dtypes
            name = f"resize_v{ver}_crop_roi_{rdt.name}"
            yield resize_case(name, ver, F32, x, "linear", "tf_crop_and_resize", sizes=[1, 1, 4, 1],
                              roi=[0, 0, 0.25, 0.5, 1, 1, 0.75, 0.5], roi_dt=rdt)
        name = f"resize_v{ver}_scales_graph_input"
        yield resize_case(name, ver, F32, x, "linear", scales=[1, 1, 2, 0.5], how="input")
        for rank in (1, 2, 3, 5):
            name = f"resize_v{ver}_linear_rank{rank}"
            shape = (3, 4, 2, 3, 2)[:rank]
            xr = data_of(F32, shape, seeded(name), "linear")
            yield resize_case(name, ver, F32, xr, "linear", "align_corners", scales=[1.5, 0.8, 2.0, 1.0, 3.0][:rank])
    for ver in (18, 19):
        for mode in ("linear", "cubic"):
            for way, scales in (("down", [1, 1, 0.4, 0.3]), ("up", [1, 1, 1.5, 2.0]), ("mixed", [1, 1, 0.55, 1.7])):
                for ct in ("half_pixel", "align_corners", "asymmetric"):
                    name = f"resize_v{ver}_antialias_{mode}_{ct}_{way}"
                    xa = data_of(F32, (1, 1, 9, 11), seeded(name), mode)
                    yield resize_case(name, ver, F32, xa, mode, None if ct == "half_pixel" else ct, aa=1, scales=scales)
        for axes, scales, sizes in (([2, 3], [1.5, 0.5], None), ([-1, -2], [0.5, 1.5], None), ([3], None, [8]),
                                    ([1, 3], None, [3, 2])):
            tag = "_".join(str(a).replace("-", "m") for a in axes)
            for mode in ("nearest", "linear", "cubic"):
                name = f"resize_v{ver}_axes_{tag}_{mode}"
                xa = data_of(F32, (1, 2, 4, 5), seeded(name), mode)
                yield resize_case(name, ver, F32, xa, mode, axes=axes, scales=scales, sizes=sizes)
        for policy in ("stretch", "not_larger", "not_smaller"):
            for sizes in ([1, 2, 7, 7], [1, 2, 3, 9]):
                for axes in (None, [2, 3]):
                    name = f"resize_v{ver}_{policy}_{sizes[2]}x{sizes[3]}{'_axes' if axes else ''}"
                    xa = data_of(F32, (1, 2, 4, 5), seeded(name), "linear")
                    yield resize_case(name, ver, F32, xa, "linear", policy=policy, axes=axes,
                                      sizes=sizes[2:] if axes else sizes)
    # half_pixel_symmetric where the output is not the exact L (out != L)
    for sc in ([1, 1, 1.7, 0.43], [1, 1, 2.2, 0.9]):
        name = f"resize_v19_half_pixel_symmetric_{str(sc[2]).replace('.', 'p')}"
        xs = data_of(F32, (1, 1, 5, 7), seeded(name), "linear")
        yield resize_case(name, 19, F32, xs, "linear", "half_pixel_symmetric", scales=sc)


def gen_upsample():
    for ver in (7, 9):
        for dt in FLOATS + INTS + [BOOL]:
            for mode in ["nearest"] + ([] if dt is BOOL else ["linear"]):
                name = f"upsample_v{ver}_{dt.name}_{mode}"
                x = data_of(dt, (1, 2, 3, 3), seeded(name), mode)
                yield resize_case(name, ver, dt, x, mode, scales=[1.0, 1.0, 2.0, 1.5], op="Upsample")
        name = f"upsample_v{ver}_identity"
        x = data_of(F32, (2, 3), seeded(name), "linear")
        yield resize_case(name, ver, F32, x, "linear", scales=[1.0, 1.0], op="Upsample")


def refused(name, keyword, ver, ins, inits, names, stage="load", dt=F32, op="Resize", **attrs):
    out = [Value("y", dt, None, shape=None)]
    return Case(name, [node(op, names, ["y"], **attrs)], {"": ver}, list(ins), out, list(inits),
                error=(stage, keyword))


def err_resize():
    x = Value("x", F32, np.zeros((1, 1, 2, 2), np.float32))
    sc = lambda v: Value("sc", F32, np.array(v, np.float32))
    sz = lambda v: Value("sz", I64, i64(v))
    roi = lambda v: Value("roi", F32, np.array(v, np.float32))
    yield refused("resize_err_scales_and_sizes", "scales", 13, [x], [sc([1, 1, 2, 2]), sz([1, 1, 4, 4])],
                  ["x", "", "sc", "sz"])
    yield refused("resize_err_neither", "scales", 13, [x], [], ["x"])
    yield refused("resize_err_empty_both", "scales", 13, [x], [sc([])], ["x", "", "sc"])
    yield refused("resize_err_scales_length", "scales", 13, [x], [sc([2, 2])], ["x", "", "sc"])
    yield refused("resize_err_sizes_length", "sizes", 13, [x], [sz([1, 4, 4])], ["x", "", "", "sz"])
    yield refused("resize_err_v10_scales_length", "scales", 10, [x], [sc([1, 2])], ["x", "sc"])
    for tag, v in (("zero", 0.0), ("negative", -2.0), ("nan", np.nan), ("inf", np.inf)):
        yield refused(f"resize_err_scale_{tag}", "scales", 13, [x], [sc([1, 1, v, 2])], ["x", "", "sc"])
    yield refused("resize_err_sizes_negative", "sizes", 13, [x], [sz([1, 1, -1, 2])], ["x", "", "", "sz"])
    yield refused("resize_err_mode", "mode", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"], mode="bilinear")
    yield refused("resize_err_v10_cubic", "mode", 10, [x], [sc([1, 1, 2, 2])], ["x", "sc"], mode="cubic")
    yield refused("resize_err_coord_mode", "mode", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"],
                  coordinate_transformation_mode="half")
    yield refused("resize_err_v18_tf_half_pixel_for_nn", "mode", 18, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"],
                  coordinate_transformation_mode="tf_half_pixel_for_nn")
    yield refused("resize_err_v18_half_pixel_symmetric", "mode", 18, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"],
                  coordinate_transformation_mode="half_pixel_symmetric")
    yield refused("resize_err_nearest_mode", "mode", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"], nearest_mode="up")
    yield refused("resize_err_roi_length", "roi", 13, [x], [roi([0, 0, 1, 1]), sc([1, 1, 2, 2])], ["x", "roi", "sc"],
                  coordinate_transformation_mode="tf_crop_and_resize")
    yield refused("resize_err_roi_missing", "roi", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"],
                  coordinate_transformation_mode="tf_crop_and_resize")
    yield refused("resize_err_roi_length_axes", "roi", 18, [x], [roi([0, 0, 1, 1, 1]), sc([2, 2])], ["x", "roi", "sc"],
                  coordinate_transformation_mode="tf_crop_and_resize", axes=[2, 3])
    yield refused("resize_err_bool_linear", "dtype", 13, [Value("x", BOOL, np.zeros((2, 2), bool))],
                  [sc([2, 2])], ["x", "", "sc"], dt=BOOL, mode="linear")
    yield refused("resize_err_v11_bfloat16", "dtype", 11, [Value("x", BF16, np.zeros((2, 2), np.uint16))],
                  [roi([]), sc([2, 2])], ["x", "roi", "sc"], dt=BF16)
    yield refused("resize_err_axes_twice", "twice", 18, [x], [sc([2, 2])], ["x", "", "sc"], axes=[2, -2])
    yield refused("resize_err_axes_range", "axis", 18, [x], [sc([2, 2])], ["x", "", "sc"], axes=[2, 4])
    yield refused("resize_err_v13_axes_attr", "attribute", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"], axes=[2, 3])
    yield refused("resize_err_policy", "aspect", 18, [x], [sz([4, 4])], ["x", "", "", "sz"], axes=[2, 3],
                  keep_aspect_ratio_policy="fit")
    yield refused("resize_err_exclude_outside", "exclude_outside", 13, [x], [sc([1, 1, 2, 2])], ["x", "", "sc"],
                  exclude_outside=2)
    yield refused("resize_err_scalar", "scalar", 13, [Value("x", F32, np.zeros((), np.float32))], [sc([])],
                  ["x", "", "sc"])
    yield refused("resize_err_empty_axis", "axis", 13, [Value("x", F32, np.zeros((1, 0), np.float32))],
                  [sz([1, 3])], ["x", "", "", "sz"])
    s0 = Value("s0", F32, np.ones(4, np.float32))
    yield Case("resize_err_scales_computed", [node("Abs", ["s0"], ["s1"]), node("Resize", ["x", "", "s1"], ["y"])],
               {"": 13}, [x, s0], [Value("y", F32, None, shape=None)], error=("load", "constant"))
    # scales a graph input: refused once bound
    yield refused("resize_err_scales_bound_zero", "scales", 13, [x, Value("sc", F32, np.array([1, 1, 0, 2], np.float32))],
                  [], ["x", "", "sc"], stage="run")
    yield refused("upsample_err_scale_below_1", "scales", 9, [x], [sc([1, 1, 0.5, 2])], ["x", "sc"], op="Upsample")
    yield refused("upsample_err_v7_no_scales", "scales", 7, [x], [], ["x"], op="Upsample")
    yield refused("upsample_err_v10_deprecated", "deprecated", 10, [x], [sc([1, 1, 2, 2])], ["x", "sc"], op="Upsample")


def gen_resize():
    yield from gen_grid()
    yield from gen_dtypes()
    yield from gen_rules()
    yield from gen_upsample()
    yield from err_resize()
