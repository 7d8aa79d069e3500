"""minnx's own cases for the layout ops of issue 21 (ops/tensor/): Pad, Split, Expand, Tile, Range,
Size.

Every version x every dtype it allows x each rule, with the expected outputs from numpy (np.pad,
np.split, np.broadcast_to, np.tile, the spec's formula for Range), never from minnx; and the
models minnx must refuse (at load when the shape-fixing input is a constant, when it is bound
when it is a graph input).  generate.py imports this module and lists its generator."""
import numpy as np
from onnx import helper

from generate import (ALL, BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, NO_BF16, U8, U16, U64, Case,
                      Value, any_values, from_num, i64, node, rand, seeded, tensor_proto)

NUM_NO_BF16 = FLOATS + INTS
PAD_TYPES = {1: FLOATS, 2: FLOATS, 11: NUM_NO_BF16, 13: ALL, 18: ALL, 19: ALL, 21: ALL}  # 21: types minnx lacks
SPLIT_TYPES = {1: FLOATS, 2: NO_BF16, 11: NO_BF16, 13: ALL, 18: ALL}
EXPAND_TYPES = {8: NO_BF16, 13: ALL}
TILE_TYPES = {1: FLOATS, 6: NO_BF16, 13: ALL}
RANGE_TYPES = [F32, F64, I16, I32, I64]
SIZE_TYPES = {1: NO_BF16, 13: ALL, 19: ALL, 21: ALL}  # 19, 21: types minnx lacks
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def refused(name, keyword, op, opset, ins, inits=(), stage="load", out_dt=F32, names=None, n_out=1, **attrs):
    nm = names if names is not None else [v.name for v in ins] + [v.name for v in inits]
    outs = [Value("y" if k == 0 else f"y{k}", out_dt, None, shape=None) for k in range(n_out)]
    return Case(name, [node(op, nm, [v.name for v in outs], **attrs)], {"": opset}, list(ins), outs,
                list(inits), error=(stage, keyword))


def scalar_of(dt, rng):
    return any_values(dt, (1,), rng)[0]


# ---------------------------------------------------------------------------------------------
# pad_

def np_pad(x, begin, end, mode, value=None):
    """numpy's pad after cropping the negative pads (the spec's "remove"); wrap beyond the dim as
    the torus the spec describes (np.take of the coordinates mod the dim)."""
    if x.ndim == 0:
        return x.copy()
    sl = tuple(slice(max(-b, 0), x.shape[d] - max(-e, 0)) for d, (b, e) in enumerate(zip(begin, end)))
    x = x[sl]
    width = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value if value is not None else x.dtype.type(0))
    if mode == "wrap":
        for d, (b, e) in enumerate(width):
            n = x.shape[d]
            x = np.take(x, np.arange(-b, n + e) % n, axis=d)
        return x
    return np.pad(x, width, mode=mode)


def pad_case(name, opset, dt, x, begin, end, mode=None, value=None, how="init", axes=None, field="raw"):
    """how: init (pads an initializer), input (a graph input, bound at run), const (data too:
    folded at load); value: storage-form scalar or None; axes: Pad-18's, pads only for them."""
    rank = x.ndim
    if axes is None:
        full_b, full_e = list(begin), list(end)
    else:
        full_b, full_e = [0] * rank, [0] * rank
        for k, a in enumerate(axes):
            full_b[a % rank], full_e[a % rank] = begin[k], end[k]
    want = np_pad(x, full_b, full_e, mode or "constant", value)
    attrs = {} if mode is None else {"mode": mode}
    xv = Value("x", dt, x)
    if opset < 11:
        attrs["paddings" if opset == 1 else "pads"] = list(begin) + list(end)
        if value is not None:
            attrs["value"] = float(value)
        return Case(name, [node("Pad", ["x"], ["y"], **attrs)], {"": opset}, [xv], [Value("y", dt, want)])
    pads = Value("p", I64, i64(list(begin) + list(end)), field=field)
    extra = []
    names = ["x", "p"]
    if value is not None:
        extra.append(Value("v", dt, np.array(value, dt.np)))
        names.append("v")
    if axes is not None:
        if value is None:
            names.append("")
        extra.append(Value("a", I64, i64(axes)))
        names.append("a")
    nodes = [node("Pad", names, ["y"], **attrs)]
    out = [Value("y", dt, want)]
    if how == "input":
        return Case(name, nodes, {"": opset}, [xv, pads] + extra, out)
    if how == "const":
        return Case(name, nodes, {"": opset}, [], out, [xv, pads] + extra)
    return Case(name, nodes, {"": opset}, [xv], out, [pads] + extra)


def gen_pad():
    for ver, types in PAD_TYPES.items():
        modes = ["constant", "reflect", "edge"] + (["wrap"] if ver >= 19 else [])
        for dt in types:
            rng = seeded(f"pad_v{ver}_{dt.name}")
            x = any_values(dt, (3, 4), rng)
            for mode in modes:
                value = None
                if mode == "constant" and dt is not BOOL:
                    value = dt.np(1.5) if ver < 11 else scalar_of(dt, rng)
                if mode == "constant" and dt is BOOL:
                    value = np.bool_(True)
                yield pad_case(f"pad_v{ver}_{dt.name}_{mode}", ver, dt, x, [1, 2], [2, 1], mode, value)
            yield pad_case(f"pad_v{ver}_{dt.name}_default", ver, dt, x, [0, 1], [1, 0])
    rng = seeded("pad_rules")
    x = rand(F32, (3, 5), rng)
    for mode in ("constant", "reflect", "edge", "wrap"):
        # negative pads crop first; positive ones then extend what is kept
        yield pad_case(f"pad_crop_{mode}", 19, F32, x, [-1, 2], [1, -2], mode)
        yield pad_case(f"pad_crop_both_ends_{mode}", 19, F32, x, [-1, -1], [-1, -2], mode)
        yield pad_case(f"pad_rank3_{mode}", 19, F64, rand(F64, (2, 3, 4), rng), [1, 0, 2], [0, 2, 3], mode)
        yield pad_case(f"pad_long_rows_{mode}", 19, U8, rand(U8, (3, 300), rng), [1, 2], [2, 299], mode)
        yield pad_case(f"pad_axes_{mode}", 19, I16, rand(I16, (2, 3, 4), rng), [1, 1], [2, 1], mode, axes=[-1, 0])
        yield pad_case(f"pad_pads_input_{mode}", 19, F16, rand(F16, (4, 3), rng), [2, 1], [1, 2], mode, how="input")
        yield pad_case(f"pad_const_{mode}", 19, I64, rand(I64, (3, 3), rng), [1, 2], [2, 0], mode, how="const")
        yield pad_case(f"pad_rank1_{mode}", 19, I32, rand(I32, (6,), rng), [3], [5], mode)
    # reflect to the limit (dim - 1), edge and wrap far beyond the dim
    yield pad_case("pad_reflect_max", 18, F32, x, [2, 4], [2, 4], "reflect")
    yield pad_case("pad_edge_long", 18, F32, x, [7, 9], [6, 11], "edge")
    yield pad_case("pad_wrap_long", 19, F32, x, [7, 11], [8, 13], "wrap")
    yield pad_case("pad_wrap_within", 21, F32, x, [3, 5], [2, 4], "wrap")
    yield pad_case("pad_reflect_dim2", 13, F32, rand(F32, (2, 2), rng), [1, 1], [1, 1], "reflect")
    # a dim of 1: edge repeats it; zeros of pads leave the axis alone
    yield pad_case("pad_edge_dim1", 13, F32, rand(F32, (1, 4), rng), [3, 0], [2, 0], "edge")
    yield pad_case("pad_zero_pads", 13, F32, x, [0, 0], [0, 0], "reflect")
    yield pad_case("pad_scalar", 13, F32, np.array(2.5, np.float32), [], [], "constant")
    yield pad_case("pad_empty_axis_constant", 13, F32, np.zeros((0, 3), np.float32), [1, 1], [2, 0], "constant",
                   np.float32(7))
    yield pad_case("pad_empty_axis_untouched", 13, F32, np.zeros((0, 3), np.float32), [0, 1], [0, 1], "edge")
    yield pad_case("pad_crop_to_empty", 13, F32, x, [-3, 0], [0, 0], "constant")
    yield pad_case("pad_crop_all_then_constant", 13, F32, x, [-2, 1], [-1, 1], "constant", np.float32(-1))
    yield pad_case("pad_value_nan", 13, F32, x, [1, 1], [1, 1], "constant", np.float32("nan"))
    yield pad_case("pad_value_bfloat16", 13, BF16, from_num(BF16, x), [1, 0], [0, 1], "constant", np.uint16(0x7f80))
    yield pad_case("pad_value_negzero", 13, F16, rand(F16, (2, 2), rng), [1, 1], [1, 1], "constant", np.float16(-0.0))
    yield pad_case("pad_v1_value_float16_rounds", 1, F16, rand(F16, (2, 2), rng), [1, 0], [0, 1], "constant",
                   np.float16(0.1))
    yield pad_case("pad_v11_int32_no_value", 11, I32, rand(I32, (2, 3), rng), [1, 1], [1, 1], "constant")
    yield pad_case("pad_pads_typed", 13, F32, x, [1, 0], [0, 1], "edge", field="typed")
    yield pad_case("pad_axes_one", 18, F32, rand(F32, (2, 3, 4), rng), [2], [1], "reflect", axes=[1])
    yield pad_case("pad_axes_empty", 18, F32, x, [], [], "constant", axes=[])
    v = Value("v", F32, np.array(3.25, np.float32))
    yield Case("pad_value_input", [node("Pad", ["x", "p", "v"], ["y"])], {"": 13},
               [Value("x", F32, x), v], [Value("y", F32, np_pad(x, [1, 0], [0, 1], "constant", np.float32(3.25)))],
               [Value("p", I64, i64([1, 0, 0, 1]))])
    yield Case("pad_value_omitted", [node("Pad", ["x", "p", ""], ["y"], mode="constant")], {"": 13},
               [Value("x", F32, x)], [Value("y", F32, np_pad(x, [1, 1], [1, 1], "constant"))],
               [Value("p", I64, i64([1, 1, 1, 1]))])
    yield Case("pad_axes_int32", [node("Pad", ["x", "p", "", "a"], ["y"], mode="edge")], {"": 18},
               [Value("x", F32, x)], [Value("y", F32, np_pad(x, [0, 2], [0, 3], "edge"))],
               [Value("p", I64, i64([2, 3])), Value("a", I32, np.array([1], np.int32))])
    yield Case("pad_pads_from_constant_node",
               [helper.make_node("Constant", [], ["p"], value=tensor_proto(Value("p", I64, i64([0, 1, 2, 0])))),
                node("Pad", ["x", "p"], ["y"], mode="reflect")], {"": 13},
               [Value("x", F32, x)], [Value("y", F32, np_pad(x, [0, 1], [2, 0], "reflect"))])


def err_pad():
    x = rand(F32, (3, 4), seeded("pad_err"))
    X = [Value("x", F32, x)]
    P = lambda *v: Value("p", I64, i64(list(v)))
    yield refused("pad_err_reflect_too_long", "pads", "Pad", 13, X, inits=[P(0, 4, 0, 0)], mode="reflect")
    yield refused("pad_err_reflect_dim1", "pads", "Pad", 13, [Value("x", F32, x[:1])], inits=[P(1, 0, 0, 0)],
                  mode="reflect")
    yield refused("pad_err_reflect_after_crop", "pads", "Pad", 13, X, inits=[P(0, -2, 0, 2)], mode="reflect")
    yield refused("pad_err_edge_empty_axis", "mode", "Pad", 13, [Value("x", F32, np.zeros((0, 2), np.float32))],
                  inits=[P(1, 0, 0, 0)], mode="edge")
    yield refused("pad_err_wrap_crop_all", "mode", "Pad", 19, X, inits=[P(-3, 0, 1, 0)], mode="wrap")
    yield refused("pad_err_wrap_v18", "mode", "Pad", 18, X, inits=[P(0, 1, 0, 1)], mode="wrap")
    yield refused("pad_err_mode_unknown", "mode", "Pad", 13, X, inits=[P(0, 1, 0, 1)], mode="symmetric")
    yield refused("pad_err_crop_below_zero", "pads", "Pad", 13, X, inits=[P(-2, 0, -2, 0)])
    yield refused("pad_err_crop_int64_min", "pads", "Pad", 13, X, inits=[P(INT64_MIN, 0, 0, 0)])
    yield refused("pad_err_overflow", "pads", "Pad", 13, X, inits=[P(INT64_MAX, 0, INT64_MAX, 0)])
    yield refused("pad_err_overflow_one_side", "pads", "Pad", 13, X, inits=[P(0, INT64_MAX, 0, 0)])
    yield refused("pad_err_count_overflow", "count", "Pad", 13, X, inits=[P(2 ** 40, 2 ** 40, 0, 0)])
    yield refused("pad_err_pads_short", "pads", "Pad", 13, X, inits=[P(1, 1)])
    yield refused("pad_err_pads_rank2", "rank", "Pad", 13, X, inits=[Value("p", I64, i64([[1, 1], [1, 1]]))])
    yield refused("pad_err_pads_int32", "dtype", "Pad", 13, X, inits=[Value("p", I32, np.zeros(4, np.int32))])
    yield refused("pad_err_v2_pads_missing", "pads", "Pad", 2, X)
    yield refused("pad_err_v1_pads_named_pads", "attribute", "Pad", 1, X, pads=[0, 0, 0, 0])
    yield refused("pad_err_v2_int32", "dtype", "Pad", 2, [Value("x", I32, np.zeros((2,), np.int32))], out_dt=I32,
                  pads=[1, 1])
    yield refused("pad_err_v11_bool", "dtype", "Pad", 11, [Value("x", BOOL, np.zeros((2,), bool))], out_dt=BOOL,
                  inits=[P(1, 1)])
    yield refused("pad_err_v11_bfloat16", "dtype", "Pad", 11, [Value("x", BF16, from_num(BF16, x))], out_dt=BF16,
                  inits=[P(0, 0, 0, 0)])
    yield refused("pad_err_value_two", "constant_value", "Pad", 13, X,
                  inits=[P(0, 1, 0, 1), Value("v", F32, np.zeros(2, np.float32))])
    yield refused("pad_err_value_dtype", "dtype", "Pad", 13, X, inits=[P(0, 1, 0, 1), Value("v", F64, np.zeros((), np.float64))])
    yield refused("pad_err_axes_twice", "twice", "Pad", 18, X, inits=[P(1, 1, 1, 1), Value("a", I64, i64([1, -1]))],
                  names=["x", "p", "", "a"])
    yield refused("pad_err_axes_out_of_range", "axis", "Pad", 18, X, inits=[P(1, 1), Value("a", I64, i64([2]))],
                  names=["x", "p", "", "a"])
    yield refused("pad_err_axes_count", "pads", "Pad", 18, X, inits=[P(1, 1, 1, 1), Value("a", I64, i64([0]))],
                  names=["x", "p", "", "a"])
    yield refused("pad_err_v13_axes", "inputs", "Pad", 13, X, inits=[P(1, 1), Value("a", I64, i64([0]))],
                  names=["x", "p", "", "a"])
    # a graph input's pads: refused when bound
    yield refused("pad_err_run_reflect_too_long", "pads", "Pad", 13, X + [P(0, 0, 0, 9)], stage="run", mode="reflect")
    yield refused("pad_err_run_overflow", "pads", "Pad", 13, X + [P(INT64_MAX, 0, 1, 0)], stage="run")
    yield refused("pad_err_run_crop_below_zero", "pads", "Pad", 19, X + [P(0, -3, 0, -3)], stage="run", mode="wrap")
    yield Case("pad_err_pads_computed", [node("Neg", ["q"], ["p"]), node("Pad", ["x", "p"], ["y"])], {"": 13}, X,
               [Value("y", F32, None, shape=None)], [Value("q", I64, i64([0, 0, 0, 0]))], error=("load", "constant"))


# ---------------------------------------------------------------------------------------------
# split_

def split_case(name, opset, dt, x, parts, axis=None, how="attr", n_out=None, field="raw"):
    """parts: the lengths (np.split's indices from them); how: attr, input (an initializer),
    graph (a graph input), none (equal parts, n_out of them), num (Split-18's num_outputs),
    const (the data an initializer too: folded)."""
    ax = 0 if axis is None else axis
    dim = x.shape[ax]
    if parts is None:
        k = n_out
        if how == "num":
            part = -(-dim // k)
            parts = [part] * (k - 1) + [dim - part * (k - 1)]
        else:
            parts = [dim // k] * k
    wants = np.split(x, np.cumsum(parts)[:-1], axis=ax)
    outs = [Value(f"y{k}", dt, np.ascontiguousarray(w)) for k, w in enumerate(wants)]
    attrs = {} if axis is None else {"axis": axis}
    names = ["x"]
    ins, inits = [Value("x", dt, x)], []
    if how == "attr":
        attrs["split"] = list(parts)
    elif how in ("input", "graph", "const"):
        sdt = dt if opset == 1 else I64
        sv = Value("s", sdt, np.array(parts, sdt.np), field=field)
        names.append("s")
        (ins if how == "graph" else inits).append(sv)
        if how == "const":
            inits.insert(0, ins.pop(0))
    elif how == "num":
        attrs["num_outputs"] = len(parts)
    if how == "const":
        names = ["x", "s"]
    return Case(name, [node("Split", names, [o.name for o in outs], **attrs)], {"": opset}, ins, outs, inits)


def gen_split():
    for ver, types in SPLIT_TYPES.items():
        for dt in types:
            name = f"split_v{ver}_{dt.name}"
            x = any_values(dt, (4, 6), seeded(name))
            if ver < 18:
                yield split_case(name + "_equal", ver, dt, x, None, axis=1, how="none", n_out=3)
            else:
                yield split_case(name + "_num_outputs", ver, dt, x, None, axis=1, how="num", n_out=4)
            yield split_case(name + "_lengths", ver, dt, x, [1, 3, 0, 2], axis=1,
                             how="attr" if ver < 13 else "input")
    rng = seeded("split_rules")
    x = rand(F32, (6, 5, 4), rng)
    yield split_case("split_v1_input_lengths", 1, F32, x, [2, 4], how="input")
    yield split_case("split_v1_input_lengths_float16", 1, F16, from_num(F16, x), [5, 1], how="input")
    yield split_case("split_v1_default", 1, F64, rand(F64, (4, 2), rng), None, how="none", n_out=2)
    for ver in (1, 2, 11, 13, 18):
        for axis in (-1, -2, -3):
            yield split_case(f"split_v{ver}_axis_m{-axis}", ver, F32, x, [x.shape[axis] - 1, 1], axis=axis,
                             how="attr" if ver < 13 else "input")
    yield split_case("split_v18_uneven_last", 18, F32, rand(F32, (7, 3), rng), None, how="num", n_out=3)
    yield split_case("split_v18_uneven_axis1", 18, I8, rand(I8, (2, 10), rng), None, axis=1, how="num", n_out=4)
    yield split_case("split_v18_num_one", 18, F32, x, None, how="num", n_out=1)
    yield split_case("split_v18_num_even", 18, U16, rand(U16, (8,), rng), None, how="num", n_out=4)
    yield split_case("split_v18_last_zero", 18, F32, rand(F32, (6, 2), rng), None, how="num", n_out=4)
    yield split_case("split_v18_num_empty_axis", 18, F32, np.zeros((0, 3), np.float32), None, how="num", n_out=2)
    yield split_case("split_v13_split_graph_input", 13, F32, x, [3, 3], how="graph")
    yield split_case("split_v13_const", 13, I64, rand(I64, (4, 3), rng), [1, 3], how="const")
    yield split_case("split_v13_typed_lengths", 13, F32, x, [1, 4], axis=1, how="input", field="typed")
    yield split_case("split_v13_zeros", 13, F32, x, [0, 6, 0], how="input")
    yield split_case("split_v2_long_rows", 2, U8, rand(U8, (3, 600), rng), [250, 350], axis=1)
    yield split_case("split_v13_one_output", 13, F32, x, None, axis=2, how="none", n_out=1)
    yield split_case("split_v13_rank1", 13, BOOL, any_values(BOOL, (9,), rng), None, how="none", n_out=3)


def err_split():
    x = rand(F32, (4, 6), seeded("split_err"))
    X = [Value("x", F32, x)]
    S = lambda *v: Value("s", I64, i64(list(v)))
    yield refused("split_err_sum_short", "split", "Split", 13, X, inits=[S(1, 2)], n_out=2)
    yield refused("split_err_sum_long", "split", "Split", 11, X, n_out=2, split=[2, 3])
    yield refused("split_err_negative", "split", "Split", 13, X, inits=[S(5, -1)], n_out=2)
    yield refused("split_err_count", "split", "Split", 13, X, inits=[S(1, 1, 2)], n_out=2)
    yield refused("split_err_indivisible", "divide", "Split", 13, X, n_out=3)
    yield refused("split_err_v18_neither", "split", "Split", 18, X, n_out=2)
    yield refused("split_err_v18_both", "split", "Split", 18, X, inits=[S(2, 2)], n_out=2, num_outputs=2)
    yield refused("split_err_v18_num_mismatch", "num_outputs", "Split", 18, X, n_out=2, num_outputs=3)
    yield refused("split_err_v18_last_empty", "num_outputs", "Split", 18, [Value("x", F32, rand(F32, (5,), seeded("s5")))],
                  n_out=4, num_outputs=4)
    yield refused("split_err_v2_axis_below_range", "axis", "Split", 2, X, n_out=2, axis=-3)
    yield refused("split_err_axis_out_of_range", "axis", "Split", 13, X, n_out=2, axis=2)
    yield refused("split_err_v13_attribute", "attribute", "Split", 13, X, n_out=2, split=[2, 2])
    yield refused("split_err_v18_num_outputs_v13", "attribute", "Split", 13, X, n_out=2, num_outputs=2)
    yield refused("split_err_v1_fraction", "split", "Split", 1, X, inits=[Value("s", F32, np.array([1.5, 2.5], np.float32))],
                  n_out=2)
    yield refused("split_err_v1_bool", "dtype", "Split", 1, [Value("x", BOOL, np.zeros(4, bool))], out_dt=BOOL, n_out=2)
    yield refused("split_err_v11_bfloat16", "dtype", "Split", 11, [Value("x", BF16, from_num(BF16, x))], out_dt=BF16,
                  n_out=2)
    yield refused("split_err_run_sum", "split", "Split", 13, X + [S(1, 1)], n_out=2, stage="run")
    yield refused("split_err_run_negative", "split", "Split", 13, X + [S(-2, 6)], n_out=2, stage="run")


# ---------------------------------------------------------------------------------------------
# expand_

def expand_case(name, opset, dt, x, shape, how="init"):
    want = np.ascontiguousarray(np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(shape))))
    s = Value("s", I64, i64(list(shape)))
    nodes = [node("Expand", ["x", "s"], ["y"])]
    out = [Value("y", dt, want)]
    if how == "input":
        return Case(name, nodes, {"": opset}, [Value("x", dt, x), s], out)
    if how == "const":
        return Case(name, nodes, {"": opset}, [], out, [Value("x", dt, x), s])
    return Case(name, nodes, {"": opset}, [Value("x", dt, x)], out, [s])


def gen_expand():
    for ver, types in EXPAND_TYPES.items():
        for dt in types:
            name = f"expand_v{ver}_{dt.name}"
            yield expand_case(name, ver, dt, any_values(dt, (3, 1), seeded(name)), [2, 3, 4])
    rng = seeded("expand_rules")
    for label, xs, shape in (("same", (2, 3), [2, 3]), ("shape_shorter", (2, 3, 4), [3, 1]),
                             ("shape_ones", (2, 1, 4), [1, 1, 1]), ("both_ways", (3, 1), [1, 5]),
                             ("scalar", (), [2, 3]), ("empty_shape", (2, 3), []), ("to_zero", (1, 3), [0, 3]),
                             ("zero_stays", (0, 1), [0, 4]), ("rank6", (2, 1, 3), [2, 1, 1, 2, 4, 3]),
                             ("inner_one", (4, 1), [4, 300]), ("outer_one", (1, 300), [5, 300]),
                             ("middle", (2, 1, 5), [2, 7, 5])):
        for dt in (F32, U8, F64):
            yield expand_case(f"expand_{label}_{dt.name}", 13, dt, rand(dt, xs, rng), shape)
    yield expand_case("expand_shape_input", 13, F32, rand(F32, (3, 1), rng), [3, 4], how="input")
    yield expand_case("expand_const", 13, I32, rand(I32, (1, 3), rng), [2, 3], how="const")


def err_expand():
    x = rand(F32, (3, 1), seeded("expand_err"))
    X = [Value("x", F32, x)]
    S = lambda *v: Value("s", I64, i64(list(v)))
    yield refused("expand_err_mismatch", "broadcast", "Expand", 13, X, inits=[S(2, 4)])
    yield refused("expand_err_negative", "shape", "Expand", 13, X, inits=[S(-1, 3)])
    yield refused("expand_err_zero_from_3", "broadcast", "Expand", 13, X, inits=[S(0, 1)])
    yield refused("expand_err_shape_rank2", "rank", "Expand", 13, X, inits=[Value("s", I64, i64([[3, 1]]))])
    yield refused("expand_err_too_many_dims", "maximum", "Expand", 13, X, inits=[S(*([1] * 9))])
    yield refused("expand_err_count_overflow", "count", "Expand", 13, [Value("x", F32, x[:1])], inits=[S(2 ** 40, 2 ** 40)])
    yield refused("expand_err_v8_bfloat16", "dtype", "Expand", 8, [Value("x", BF16, from_num(BF16, x))], out_dt=BF16,
                  inits=[S(3, 1)])
    yield refused("expand_err_run_mismatch", "broadcast", "Expand", 13, X + [S(5, 5)], stage="run")


# ---------------------------------------------------------------------------------------------
# tile_

def tile_case(name, opset, dt, x, reps, how="init", axis=None):
    """reps: per axis (6+), or Tile-1's count along `axis`."""
    if opset < 6:
        full = [1] * x.ndim
        full[axis] = reps
        want = np.tile(x, full)
        ins = [Value("t", I64, i64(reps)), Value("a", I64, i64(axis))]
        return Case(name, [node("Tile", ["x", "t", "a"], ["y"])], {"": opset}, [Value("x", dt, x)],
                    [Value("y", dt, want)], ins)
    want = np.tile(x, reps) if x.ndim else x.copy()
    r = Value("r", I64, i64(list(reps)))
    nodes = [node("Tile", ["x", "r"], ["y"])]
    out = [Value("y", dt, want)]
    if how == "input":
        return Case(name, nodes, {"": opset}, [Value("x", dt, x), r], out)
    if how == "const":
        return Case(name, nodes, {"": opset}, [], out, [Value("x", dt, x), r])
    return Case(name, nodes, {"": opset}, [Value("x", dt, x)], out, [r])


def gen_tile():
    for ver, types in TILE_TYPES.items():
        for dt in types:
            name = f"tile_v{ver}_{dt.name}"
            x = any_values(dt, (2, 3), seeded(name))
            if ver == 1:
                yield tile_case(name, ver, dt, x, 3, axis=1)
                yield tile_case(name + "_axis0", ver, dt, x, 2, axis=0)
            else:
                yield tile_case(name, ver, dt, x, [2, 3])
    rng = seeded("tile_rules")
    for label, xs, reps in (("ones", (2, 3), [1, 1]), ("zero", (2, 3), [2, 0]), ("rank3", (2, 3, 4), [2, 1, 3]),
                            ("long_rows", (2, 300), [3, 2]), ("many_small", (3, 1), [2, 700]),
                            ("rank1", (5,), [4]), ("empty", (0, 3), [5, 2]), ("scalar", (), [])):
        for dt in (F32, U8, F64):
            yield tile_case(f"tile_{label}_{dt.name}", 13, dt, rand(dt, xs, rng), reps)
    yield tile_case("tile_repeats_input", 13, F32, rand(F32, (2, 2), rng), [3, 2], how="input")
    yield tile_case("tile_const", 13, I16, rand(I16, (2, 2), rng), [2, 2], how="const")
    yield tile_case("tile_v1_zero", 1, F32, rand(F32, (2, 2), rng), 0, axis=0)


def err_tile():
    x = rand(F32, (2, 3), seeded("tile_err"))
    X = [Value("x", F32, x)]
    R = lambda *v: Value("r", I64, i64(list(v)))
    yield refused("tile_err_negative", "count", "Tile", 13, X, inits=[R(2, -1)])
    yield refused("tile_err_short", "repeats", "Tile", 13, X, inits=[R(2)])
    yield refused("tile_err_overflow", "overflows", "Tile", 13, X, inits=[R(INT64_MAX, 1)])
    yield refused("tile_err_count_overflow", "count", "Tile", 13, X, inits=[R(2 ** 40, 2 ** 40)])
    yield refused("tile_err_repeats_rank2", "rank", "Tile", 13, X, inits=[Value("r", I64, i64([[2, 1]]))])
    yield refused("tile_err_repeats_int32", "dtype", "Tile", 13, X, inits=[Value("r", I32, np.ones(2, np.int32))])
    yield refused("tile_err_v6_bfloat16", "dtype", "Tile", 6, [Value("x", BF16, from_num(BF16, x))], out_dt=BF16,
                  inits=[R(1, 1)])
    yield refused("tile_err_v1_axis", "axis", "Tile", 1, X, inits=[Value("t", I64, i64(2)), Value("a", I64, i64(2))])
    yield refused("tile_err_v1_negative", "count", "Tile", 1, X, inits=[Value("t", I64, i64(-2)), Value("a", I64, i64(0))])
    yield refused("tile_err_v1_tiles_two", "element", "Tile", 1, X,
                  inits=[Value("t", I64, i64([2, 2])), Value("a", I64, i64(0))])
    yield refused("tile_err_run_negative", "count", "Tile", 13, X + [R(-1, 1)], stage="run")


# ---------------------------------------------------------------------------------------------
# range_: element i = start + i * delta (the spec's formula), each operation in the dtype

def range_ref(dt, s, l, d):
    if dt in (F32, F64):
        t = dt.np
        n = int(max(np.ceil(t(t(l) - t(s)) / t(d)), 0))  # numpy.arange's count for scalars of dt
        return (t(s) + np.arange(n).astype(t) * t(d)).astype(t)
    n = max(-(-(l - s) // d), 0)
    return np.array([s + i * d for i in range(n)], dt.np)


def range_case(name, dt, s, l, d, how="init"):
    vals = [Value(k, dt, np.array(v, dt.np)) for k, v in zip(("s", "l", "d"), (s, l, d))]
    nodes = [node("Range", ["s", "l", "d"], ["y"])]
    out = [Value("y", dt, range_ref(dt, s, l, d))]
    if how == "input":
        return Case(name, nodes, {"": 11}, vals, out)
    return Case(name, nodes, {"": 11}, [], out, vals)


def gen_range():
    for dt in RANGE_TYPES:
        for how in ("init", "input"):
            yield range_case(f"range_{dt.name}_up_{how}", dt, 2, 17, 3, how)
            yield range_case(f"range_{dt.name}_down_{how}", dt, 10, -7, -4, how)
            yield range_case(f"range_{dt.name}_empty_{how}", dt, 5, 5, 1, how)
            yield range_case(f"range_{dt.name}_wrong_way_{how}", dt, 5, 9, -1, how)
    for dt in (F32, F64):
        yield range_case(f"range_{dt.name}_tenths", dt, 0.1, 10.3, 0.1)
        yield range_case(f"range_{dt.name}_inexact_count", dt, 1.0, 1.3, 0.1)
        yield range_case(f"range_{dt.name}_long", dt, -50.5, 1000.25, 0.75)
        yield range_case(f"range_{dt.name}_negative_fraction", dt, 3.0, -2.0, -0.3)
    yield range_case("range_int64_extremes", I64, INT64_MIN, INT64_MAX, 2 ** 62)
    yield range_case("range_int64_extremes_down", I64, INT64_MAX, INT64_MIN, -(2 ** 62))
    yield range_case("range_int64_min_delta", I64, INT64_MAX, INT64_MIN, INT64_MIN)
    yield range_case("range_int16_full", I16, -32768, 32767, 1000)
    yield range_case("range_int32_long", I32, -100000, 100000, 7)


def err_range():
    f = lambda dt, s, l, d: [Value(k, dt, np.array(v, dt.np)) for k, v in zip(("s", "l", "d"), (s, l, d))]
    yield refused("range_err_delta_zero", "delta", "Range", 11, [], inits=f(I32, 0, 5, 0), out_dt=I32)
    yield refused("range_err_float_delta_zero", "delta", "Range", 11, [], inits=f(F32, 0, 5, 0))
    yield refused("range_err_nan", "NaN", "Range", 11, [], inits=f(F32, 0, float("nan"), 1))
    yield refused("range_err_infinite", "infinite", "Range", 11, [], inits=f(F64, 0, float("inf"), 1), out_dt=F64)
    yield refused("range_err_huge_float", "count", "Range", 11, [], inits=f(F32, 0, 1e30, 1))
    yield refused("range_err_huge_int64", "count", "Range", 11, [], inits=f(I64, INT64_MIN, INT64_MAX, 1), out_dt=I64)
    yield refused("range_err_huge_memory", "count", "Range", 11, [], inits=f(I64, 0, 2 ** 61, 1), out_dt=I64)
    yield refused("range_err_two_elements", "scalar", "Range", 11, [],
                  inits=[Value("s", F32, np.zeros(2, np.float32))] + f(F32, 0, 3, 1)[1:])
    yield refused("range_err_mixed_dtypes", "dtype", "Range", 11, [],
                  inits=f(F32, 0, 3, 1)[:2] + [Value("d", F64, np.array(1.0))])
    yield refused("range_err_int8", "dtype", "Range", 11, [], inits=f(I8, 0, 3, 1), out_dt=I8)
    yield refused("range_err_run_delta_zero", "delta", "Range", 11, f(I64, 0, 3, 0), stage="run", out_dt=I64)
    yield refused("range_err_run_huge", "count", "Range", 11, f(F64, 0, 1e30, 1), stage="run", out_dt=F64)
    yield Case("range_err_computed", [node("Neg", ["a"], ["l"]), node("Range", ["s", "l", "d"], ["y"])], {"": 11}, [],
               [Value("y", F32, None, shape=None)], f(F32, 0, 0, 1)[::2] + [Value("a", F32, np.array(-3, np.float32))],
               error=("load", "constant"))


# ---------------------------------------------------------------------------------------------
# size_

def gen_size():
    for ver, types in SIZE_TYPES.items():
        for dt in types:
            x = any_values(dt, (2, 3, 4), seeded(f"size_v{ver}_{dt.name}"))
            yield Case(f"size_v{ver}_{dt.name}", [node("Size", ["x"], ["y"])], {"": ver}, [Value("x", dt, x)],
                       [Value("y", I64, i64(24))])
    for label, shape in (("scalar", ()), ("empty", (3, 0, 2)), ("rank1", (7,))):
        yield Case(f"size_{label}", [node("Size", ["x"], ["y"])], {"": 13}, [Value("x", F32, np.zeros(shape, np.float32))],
                   [Value("y", I64, i64(int(np.prod(shape))))])
    x = np.zeros((5, 3), np.float32)  # a symbolic dim: runs once the input is bound
    yield Case("size_dim_param", [node("Size", ["x"], ["y"])], {"": 13}, [Value("x", F32, x, shape=["n", 3])],
               [Value("y", I64, i64(15))])
    yield Case("size_of_initializer", [node("Size", ["c"], ["y"])], {"": 13}, [], [Value("y", I64, i64(6))],
               [Value("c", I16, np.zeros((2, 3), np.int16))])


def err_size():
    yield refused("size_err_v1_bfloat16", "dtype", "Size", 1, [Value("x", BF16, np.zeros(2, np.uint16))], out_dt=I64)
    yield refused("size_err_two_inputs", "inputs", "Size", 13, [Value("x", F32, np.zeros(2, np.float32)),
                                                                Value("x1", F32, np.zeros(2, np.float32))], out_dt=I64)


def gen_layout2():
    for g in (gen_pad, err_pad, gen_split, err_split, gen_expand, err_expand, gen_tile, err_tile, gen_range,
              err_range, gen_size, err_size):
        yield from g()
