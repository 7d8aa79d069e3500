#!/usr/bin/python3
"""Generate minnx's own conformance cases in the ONNX backend node-test layout.

Every case is a folder  <case>/model.onnx  +  <case>/test_data_set_0/input_<i>.pb [, output_<i>.pb]
holding TensorProto files, as in the ONNX backend test data.  A case that minnx must refuse has no
output_*.pb and a text file  <case>/expect_error  whose line 1 is the stage (`load` or `run`) and
line 2 one keyword the error message must contain:
  shape dtype axis attribute operator domain inputs
(A refused model without graph inputs has no test_data_set_0 at all.)

Expected outputs come from numpy alone, never from an ONNX runtime, and follow minnx's rules
(the spec's NOTES.md): Max propagates NaN; ArgMax ranks NaN above every number and breaks
ties by the first (or, with select_last_index=1, the last) index.  bfloat16 tensors are handled as
uint16 bit patterns and computed in float32.

The output is deterministic: fixed seeds (derived from the name of a case, or of a small group of
cases), fixed producer and ir_version, no timestamps.  Run it with Debian's python3 (it needs
python3-onnx and python3-numpy):
    /usr/bin/python3 onnx_backend_data/generate.py [--out DIR]
Only folders that hold a model.onnx are deleted before writing, so stale cases vanish and nothing
else in DIR is touched.  onnx.checker is deliberately not used: it rejects opset 18 on onnx 1.12
and the refused cases on purpose.
"""
import argparse
import os
import random
import re
import shutil
import sys
import time
import zlib
from collections import Counter
import dataclasses
from dataclasses import dataclass, field

import numpy as np
from onnx import TensorProto, helper

IR_VERSION = 8
PRODUCER = "minnx-gen"
OV = "org.openvinotoolkit"
PREFIXES = ("max_", "bcast_", "f16_", "bf16_", "argmax_", "maximum_", "graph_", "opset_",
            "typed_", "err_", "const_", "identity_", "reshape_", "flatten_", "squeeze_",
            "unsqueeze_", "view_", "cast_", "min_", "argmin_", "minimum_", "reduce_", "clip_",
            "matmul_", "gemm_", "arith_", "unary_", "conv_", "convtranspose_", "pool_", "sums_", "softmax_", "transpose_", "gather_", "dropout_", "constantofshape_",
            "pad_", "split_", "expand_", "tile_", "range_", "size_", "norm_", "bindshape_", "rnn_", "resize_",
            "upsample_", "if_", "loop_")
ERROR_KEYWORDS = ("shape", "dtype", "axis", "attribute", "operator", "domain", "inputs",
                  "constant", "sparse", "strings", "string", "twice", "output", "axes", "maximum", "squeezed", "index", "training",
                  "pads", "mode", "count", "constant_value", "split", "num_outputs", "broadcast", "repeats",
                  "overflows", "element", "delta", "NaN", "infinite", "scalar", "divide",
                  "scales", "sizes", "roi", "deprecated", "aspect", "exclude_outside",
                  "outputs", "defined", "cycle", "deeper", "infinite", "scan", "sequence", "cond", "iteration")


# ---------------------------------------------------------------------------------------------
# dtypes

@dataclass(frozen=True)
class DType:
    name: str      # used in case names
    onnx: int      # TensorProto.DataType
    np: type       # numpy storage type; bfloat16 is stored as its uint16 bit pattern
    field: str     # the TensorProto typed field that carries this dtype

    @property
    def is_float(self):
        return self.name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_signed(self):
        return self.is_float or self.name.startswith("int")


F16 = DType("float16", TensorProto.FLOAT16, np.float16, "int32_data")
BF16 = DType("bfloat16", TensorProto.BFLOAT16, np.uint16, "int32_data")
F32 = DType("float32", TensorProto.FLOAT, np.float32, "float_data")
F64 = DType("float64", TensorProto.DOUBLE, np.float64, "double_data")
I8 = DType("int8", TensorProto.INT8, np.int8, "int32_data")
I16 = DType("int16", TensorProto.INT16, np.int16, "int32_data")
I32 = DType("int32", TensorProto.INT32, np.int32, "int32_data")
I64 = DType("int64", TensorProto.INT64, np.int64, "int64_data")
U8 = DType("uint8", TensorProto.UINT8, np.uint8, "int32_data")
U16 = DType("uint16", TensorProto.UINT16, np.uint16, "int32_data")
U32 = DType("uint32", TensorProto.UINT32, np.uint32, "uint64_data")
U64 = DType("uint64", TensorProto.UINT64, np.uint64, "uint64_data")
BOOL = DType("bool", TensorProto.BOOL, np.bool_, "int32_data")  # views and refused cases

FLOATS = [F16, F32, F64]
INTS = [I8, I16, I32, I64, U8, U16, U32, U64]
NUMERIC = FLOATS + [BF16] + INTS

# Types each schema version accepts (NOTES.md).
MAX_TYPES = {1: FLOATS, 6: FLOATS, 8: FLOATS, 12: FLOATS + INTS, 13: NUMERIC}
ARGMAX_TYPES = {1: FLOATS + INTS, 11: FLOATS + INTS, 12: FLOATS + INTS, 13: NUMERIC}


# ---------------------------------------------------------------------------------------------
# values: arrays are kept in storage form (bfloat16 = uint16 bits); numbers go through float32
# for bfloat16 only when computing.

def seeded(name):
    """A generator per case, so adding or removing a case never changes another one's data."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def to_num(dt, a):
    """Storage form -> numbers numpy can compare."""
    a = np.asarray(a)
    if dt is BF16:
        # np.asarray: a shift of a 0-d array gives a scalar of a promoted type
        return np.asarray(a.astype(np.uint32) << np.uint32(16), np.uint32).view(np.float32)
    return a


def from_num(dt, v):
    """Numbers -> storage form.  For bfloat16 the float32 bits are truncated, which is exact for
    values that came from bfloat16 (all results of Max) and merely defines the inputs otherwise."""
    v = np.asarray(v)
    if dt is BF16:
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return v.astype(dt.np)


def arr(dt, values):
    """Storage-form array from python numbers (floats via from_num, so NaN/inf work for bf16)."""
    if dt.is_float:
        return from_num(dt, np.array(values, dtype=np.float64))
    return np.array(values, dt.np)


def bits(dt, patterns):
    """Half-precision array from raw 16-bit patterns (exact NaN payloads, subnormals)."""
    a = np.array(patterns, dtype=np.uint16)
    return a if dt is BF16 else a.view(np.float16)


def rand(dt, shape, rng, kind="mixed"):
    """Random values over the type's range.  kind: mixed | neg (all < 0) | high (unsigned values
    with the top bit set, which a signed comparison orders wrongly)."""
    if dt.is_float:
        lo, hi = {"mixed": (-1000.0, 1000.0), "neg": (-1000.0, -0.001)}[kind]
        return from_num(dt, rng.uniform(lo, hi, size=shape))
    info = np.iinfo(dt.np)
    lo, hi = int(info.min), int(info.max)
    if kind == "neg":
        hi = -1
    elif kind == "high":
        lo = (hi >> 1) + 1
    return rng.integers(lo, hi, size=shape, dtype=dt.np, endpoint=True)


def tie_palette(dt, nan=True):
    """Few distinct values (so maxima tie often), including the type's extremes."""
    if dt.is_float:
        vals = [-np.inf, -7.5, -1.0, 0.0, 2.0, 3.25, np.inf] + ([np.nan] if nan else [])
        return arr(dt, vals)
    info = np.iinfo(dt.np)
    lo, hi = int(info.min), int(info.max)
    if dt.is_signed:
        return arr(dt, [lo, lo + 1, -1, 0, 1, hi - 1, hi])
    return arr(dt, [0, 1, hi >> 1, (hi >> 1) + 1, hi - 1, hi])


def ties(dt, shape, rng, nan=True):
    return rng.choice(tie_palette(dt, nan), size=shape)


def neg_palette(dt):
    """All-negative values, for types that have them: a running max started at 0 or FLT_MIN, or
    an argmax that starts from 0, gives a wrong answer."""
    if dt.is_float:
        return arr(dt, [-np.inf, -1000.0, -7.5, -1.0, -0.5])
    return arr(dt, [int(np.iinfo(dt.np).min), -100, -2, -1])


def extremes(dt):
    """Interesting values of one type; cases pair every value with every other one."""
    if dt is F16:
        return bits(F16, [0x7C00, 0xFC00, 0x7BFF, 0xFBFF, 0x0400, 0x8400, 0x0001, 0x8001,
                          0x0000, 0x8000, 0x3C00, 0xBC00, 0x3C01])
    if dt is BF16:
        return bits(BF16, [0x7F80, 0xFF80, 0x7F7F, 0xFF7F, 0x0080, 0x8080, 0x0001, 0x8001,
                           0x0000, 0x8000, 0x3F80, 0xBF80, 0x3F81])
    if dt.is_float:
        fi = np.finfo(dt.np)
        one_up = np.nextafter(dt.np(1), dt.np(2))  # differs from 1.0 in the lowest bit only
        sub = np.nextafter(dt.np(0), dt.np(1))  # smallest subnormal
        return np.array([np.inf, -np.inf, fi.max, -fi.max, fi.tiny, -fi.tiny, sub, -sub,
                         0.0, -0.0, 1.0, -1.0, one_up], dtype=dt.np)
    info = np.iinfo(dt.np)
    lo, hi, nbits = int(info.min), int(info.max), info.bits
    vals = {lo, lo + 1, hi, hi - 1, 0, 1, 255, 256}
    if dt.is_signed:
        vals |= {-1, -256}
    else:
        vals |= {hi >> 1, (hi >> 1) + 1}  # around the top bit
    if nbits >= 32:
        vals |= {2**31 - 1, 2**31, 2**16}
    if nbits == 64:
        vals |= {2**32 - 1, 2**32,
                 0x1_00000001, 0x1_00000002,   # equal high halves, low halves differ
                 0x2_00000001,                 # differs from 0x1_00000001 in the high half only
                 2**53, 2**53 + 1}             # not representable as a double
        if dt.is_signed:
            vals |= {-(2**32), -(2**32) + 1, -0x1_00000001, -0x2_00000001}
    vals = {v for v in vals if lo <= v <= hi}
    return np.array(sorted(vals, key=lambda v: (v % 7, v)), dtype=dt.np)  # not sorted by value


def all_pairs(values):
    """Two arrays that together hold every ordered pair of values."""
    n = len(values)
    return np.repeat(values, n), np.tile(values, n)


def max_ref(dt, xs, fold=np.maximum):
    """Elementwise max (or, with fold=np.minimum, min) with numpy broadcasting; both propagate
    NaN from either side."""
    out = to_num(dt, xs[0]).copy()
    for x in xs[1:]:
        out = fold(out, to_num(dt, x))
    return from_num(dt, out)


def argmax_ref(dt, x, axis=0, keepdims=1, last=0, pick=np.argmax):
    """np.argmax (and np.argmin, pick) already returns the first NaN, or the first maximum; the
    last one is the first one of the flipped axis."""
    v = to_num(dt, x)
    if last:
        idx = v.shape[axis] - 1 - pick(np.flip(v, axis), axis=axis)
    else:
        idx = pick(v, axis=axis)
    if keepdims:
        idx = np.expand_dims(idx, axis)
    return np.asarray(idx, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# cases

SAME = "same"  # declared shape = the data's shape


@dataclass
class Value:
    name: str
    dt: DType
    data: np.ndarray = None   # storage form; None: nothing written (outputs of refused cases)
    shape: object = SAME      # declared: SAME, a list (ints; strings are dim_params) or None
    field: str = "raw"        # how the .pb / initializer stores it: "raw" or "typed"

    def declared_shape(self):
        return list(self.data.shape) if self.shape == SAME else self.shape


@dataclass
class Case:
    name: str
    nodes: list
    opsets: dict              # domain -> version
    inputs: list
    outputs: list
    inits: list = field(default_factory=list)
    error: tuple = None       # (stage, keyword) for a case minnx must refuse
    more: list = field(default_factory=list)  # more data sets: (input arrays, output arrays), other shapes


def node(op, ins, outs, domain=None, **attrs):
    return helper.make_node(op, list(ins), list(outs), name=f"{op.lower()}_{outs[0]}",
                            domain=domain, **attrs)


def inputs_for(dt, xs, field="raw"):
    return [Value(f"x{i}", dt, x, field=field) for i, x in enumerate(xs)]


def max_case(name, dt, xs, opset=13, field="raw", out_field="raw", **attrs):
    ins = inputs_for(dt, xs, field)
    return Case(name, [node("Max", [v.name for v in ins], ["y"], **attrs)], {"": opset}, ins,
                [Value("y", dt, max_ref(dt, xs), field=out_field)])


def max_shapes(name, dt, shapes, opset=13, kind="mixed"):
    rng = seeded(name)
    return max_case(name, dt, [rand(dt, s, rng, kind) for s in shapes], opset)


def argmax_case(name, dt, x, opset=13, axis=None, keepdims=None, last=None, field="raw",
                out_field="raw"):
    attrs = {k: v for k, v in (("axis", axis), ("keepdims", keepdims),
                               ("select_last_index", last)) if v is not None}
    want = argmax_ref(dt, x, 0 if axis is None else axis, 1 if keepdims is None else keepdims,
                      last or 0)
    return Case(name, [node("ArgMax", ["x"], ["y"], **attrs)], {"": opset},
                [Value("x", dt, x, field=field)], [Value("y", I64, want, field=out_field)])


def maximum_case(name, dt, a, b, auto_broadcast=None, opsets=None):
    attrs = {} if auto_broadcast is None else {"auto_broadcast": auto_broadcast}
    ins = inputs_for(dt, [a, b])
    return Case(name, [node("Maximum", ["x0", "x1"], ["y"], domain=OV, **attrs)],
                opsets or {OV: 1}, ins, [Value("y", dt, max_ref(dt, [a, b]))])


def axis_name(axis):
    return f"m{-axis}" if axis < 0 else str(axis)


# ---------------------------------------------------------------------------------------------
# max_: every version x dtype x input count, then special values (all negative, extremes, NaN)

def gen_max():
    for ver, types in MAX_TYPES.items():
        for dt in types:
            for n in (1, 2, 3, 8):
                yield max_shapes(f"max_v{ver}_{dt.name}_{n}in", dt,
                                 [(3, 7) if n < 8 else (2, 9)] * n, ver)
            # Special values depend on the dtype's kernel, not on the version: every dtype under
            # Max-13, and float32 under the older versions too.
            if ver == 13 or dt is F32:
                yield from max_special(ver, dt)
    # consumed_inputs is legal (and ignored) in Max-1 only.
    name = "max_v1_float32_consumed_inputs"
    yield max_case(name, F32, [rand(F32, (2, 3), seeded(name)) for _ in range(2)], 1,
                   consumed_inputs=[0, 0])
    # NaN scattered over many inputs.
    name = "max_v13_float32_nan_8in"
    rng = seeded(name)
    xs = [rand(F32, (8,), rng) for _ in range(8)]
    for i, pos in ((0, 1), (3, 4), (7, 6), (2, 6), (5, 0)):
        xs[i][pos] = np.nan
    yield max_case(name, F32, xs)


def max_special(ver, dt):
    base = f"max_v{ver}_{dt.name}"
    rng = seeded(base)
    if dt.is_signed:
        yield max_case(f"{base}_allneg", dt, [rng.choice(neg_palette(dt), (4, 5))
                                              for _ in range(3)], ver)
    else:
        yield max_case(f"{base}_highbit", dt, [rand(dt, (4, 5), rng, "high") for _ in range(3)],
                       ver)
    yield max_case(f"{base}_extremes", dt, list(all_pairs(extremes(dt))), ver)
    if dt.is_float:
        for which, pos in ((0, "first"), (1, "middle"), (2, "last")):
            yield max_case(f"{base}_nan_{pos}", dt, nan_inputs(dt, which, rng), ver)


def nan_inputs(dt, which, rng):
    """Three inputs; NaN only in input `which`, facing +-inf, equal and ordinary values, so that
    `a > b ? a : b` or fmax() fail whatever the order of evaluation."""
    xs = [to_num(dt, rand(dt, (8,), rng)).astype(np.float64) for _ in range(3)]
    others = [(np.inf, -np.inf), (-np.inf, np.inf), (5.0, -5.0), (-3.0, -3.0), (np.inf, np.inf)]
    for pos, pair in zip((0, 2, 3, 5, 7), others):
        xs[which][pos] = np.nan
        for j, v in zip([j for j in range(3) if j != which], pair):
            xs[j][pos] = v
    return [from_num(dt, x) for x in xs]


# ---------------------------------------------------------------------------------------------
# bcast_: numpy broadcasting of Max (opset 13 unless the name says otherwise)

BCAST_SHAPES = {
    "scalar_x_vec": [(), (5,)],
    "vec_x_scalar": [(5,), ()],
    "scalar_x_scalar": [(), ()],
    "scalar_x_rank3": [(), (2, 3, 4)],
    "scalar_x_empty": [(), (0,)],
    "one_input_scalar": [()],
    "3x1_x_1x4": [(3, 1), (1, 4)],
    "1x4_x_3x1": [(1, 4), (3, 1)],
    "8161_x_715": [(8, 1, 6, 1), (7, 1, 5)],
    "715_x_8161": [(7, 1, 5), (8, 1, 6, 1)],
    "rank6": [(2, 1, 3, 1, 2, 1), (1, 2, 1, 3, 1, 2)],
    "rank6_x_vec": [(2, 1, 3, 1, 2, 3), (3,)],
    "vec1_x_vec7": [(1,), (7,)],
    "trailing_1": [(2, 3, 4), (2, 3, 1)],
    "middle_1": [(2, 3, 4), (2, 1, 4)],
    "leading_missing": [(2, 3, 4), (3, 4)],
    "interleaved": [(1, 3, 1, 5), (4, 1, 2, 1)],
    "all_ones": [(2, 3), (1, 1)],
    "large_odd": [(33, 1), (1, 65)],
    "zero_0x3_x_1x3": [(0, 3), (1, 3)],
    "zero_2x0_x_2x1": [(2, 0), (2, 1)],
    "zero_0_x_1": [(0,), (1,)],
    "zero_1x0_x_0x1": [(1, 0), (0, 1)],
    "zero_0x3_x_3": [(0, 3), (3,)],
    "3in_each_dim": [(2, 1, 1), (1, 3, 1), (1, 1, 4)],
    "3in_ranks": [(4,), (3, 1), (2, 1, 1)],
    "8in": [(2, 1, 1), (1, 3, 1), (1, 1, 4), (4,), (), (3, 1), (2, 3, 4), (1, 1, 1)],
}


def gen_bcast():
    for suffix, shapes in BCAST_SHAPES.items():
        yield max_shapes(f"bcast_{suffix}", F32, shapes)
    for dt in NUMERIC:
        yield max_shapes(f"bcast_{dt.name}", dt, [(2, 1, 3), (4, 1)])
    yield max_shapes("bcast_opset8_float32", F32, [(3, 1), (1, 4)], 8)
    yield max_shapes("bcast_opset8_float64_3in", F64, [(2, 1, 1), (1, 3, 1), (1, 1, 4)], 8)
    yield max_shapes("bcast_opset12_int32", I32, [(8, 1, 6, 1), (7, 1, 5)], 12)
    yield max_shapes("bcast_allneg", F32, [(3, 1), (1, 4), ()], kind="neg")
    name = "bcast_nan_in_broadcast_input"  # one NaN spreads along the broadcast axis
    rng = seeded(name)
    a, b = rand(F32, (3, 1), rng), rand(F32, (1, 4), rng)
    a[1, 0] = np.nan
    b[0, 2] = np.nan
    yield max_case(name, F32, [a, b])


# ---------------------------------------------------------------------------------------------
# f16_ / bf16_: half types, as raw_data and as int32_data bit patterns

NAN_PATTERNS = {F16: [0x7E00, 0xFE00, 0x7C01, 0xFC01], BF16: [0x7FC0, 0xFFC0, 0x7F81, 0xFF81]}


def gen_half():
    for dt, p in ((F16, "f16_"), (BF16, "bf16_")):
        rng = seeded(p)
        x3 = [rand(dt, (4, 6), rng) for _ in range(3)]
        yield max_case(f"{p}max_raw", dt, x3)
        yield max_case(f"{p}max_int32data", dt, x3, field="typed")
        yield max_case(f"{p}max_int32data_out", dt, x3, field="typed", out_field="typed")
        yield max_case(f"{p}max_8in", dt, [rand(dt, (5,), rng) for _ in range(8)])
        yield max_case(f"{p}max_allneg", dt, [rand(dt, (4, 6), rng, "neg") for _ in range(2)])
        yield max_case(f"{p}max_allneg_int32data", dt,
                       [rand(dt, (4, 6), rng, "neg") for _ in range(2)], field="typed")
        a = arr(dt, [np.nan, 1.0, np.nan, -np.inf, np.inf, np.nan, -2.0, np.nan])
        b = arr(dt, [1.0, np.nan, np.inf, np.nan, np.nan, -np.inf, -3.0, np.nan])
        yield max_case(f"{p}max_nan_inf", dt, [a, b])
        yield max_case(f"{p}max_nan_inf_int32data", dt, [a, b], field="typed")
        nans = bits(dt, NAN_PATTERNS[dt] * 2)
        yield max_case(f"{p}max_nan_payloads", dt, [nans, arr(dt, [0.0, -1.0, np.inf, -np.inf,
                                                                  1.0, 2.0, -np.inf, np.inf])])
        sub = bits(dt, [0x0001, 0x8001, 0x0002, 0x8002, 0x0000, 0x8000])
        yield max_case(f"{p}max_subnormal", dt, list(all_pairs(sub)))
        yield max_case(f"{p}max_bcast", dt, [rand(dt, (3, 1), rng), rand(dt, (1, 4), rng)])
        x = arr(dt, [[1, np.nan, 3, np.nan, 2], [-np.inf] * 5, [np.nan] * 5,
                     [np.inf, np.nan, np.inf, -1, np.nan], [-2, -1, -1, -3, -1]])
        yield argmax_case(f"{p}argmax_nan", dt, x, axis=1)
        yield argmax_case(f"{p}argmax_nan_last", dt, x, axis=1, last=1)
        yield argmax_case(f"{p}argmax_nan_axis0_kd0", dt, x, axis=0, keepdims=0)
        t = ties(dt, (4, 5), rng, nan=False)
        yield argmax_case(f"{p}argmax_ties_first", dt, t, axis=1, keepdims=0)
        yield argmax_case(f"{p}argmax_ties_last", dt, t, axis=1, keepdims=0, last=1)
        yield argmax_case(f"{p}argmax_allneg", dt, rng.choice(neg_palette(dt), (3, 6)), axis=-1)
        yield argmax_case(f"{p}argmax_int32data", dt, ties(dt, (3, 4, 2), rng), axis=1,
                          field="typed")


# ---------------------------------------------------------------------------------------------
# argmax_: versions x dtypes, the axis/keepdims/select_last_index grid, ranks 1..5, specials

def gen_argmax():
    yield from argmax_versions_dtypes()
    yield from argmax_grid()
    yield from argmax_ranks()
    yield from argmax_specials()


def argmax_versions_dtypes():
    """Each (version, dtype) once (twice in 13, once per select_last_index); axis and keepdims
    rotate so every version sees every axis value (negative ones from 11 on)."""
    for ver, types in ARGMAX_TYPES.items():
        axes = [0, 1, 2] if ver < 11 else [-3, -2, -1, 0, 1, 2]
        for i, dt in enumerate(types):
            axis, kd = axes[i % len(axes)], (i // 2) % 2
            for last in {1: [None], 11: [None], 12: [i % 2], 13: [0, 1]}[ver]:
                name = f"argmax_v{ver}_{dt.name}_axis{axis_name(axis)}_kd{kd}"
                name += "" if last is None else ("_last" if last else "_first")
                x = ties(dt, (3, 4, 5), seeded(name))
                yield argmax_case(name, dt, x, ver, axis, kd, last)


def argmax_grid():
    """float32 rank 3: every axis x keepdims per version up to 11; from 12 on select_last_index
    varies too, so that every axis meets both values of it and every (keepdims, last) pair
    occurs, without the full product."""
    grid = {1: [(a, k, None) for a in range(3) for k in (0, 1)],
            11: [(a, k, None) for a in range(-3, 3) for k in (0, 1)],
            12: [(a, a % 2, (a + 3) // 2 % 2) for a in range(-3, 3)],
            13: [(a, k, (a + k) % 2) for a in range(-3, 3) for k in (0, 1)]}
    for ver, combos in grid.items():
        for axis, kd, last in combos:
            name = f"argmax_v{ver}_grid_axis{axis_name(axis)}_kd{kd}"
            name += "" if last is None else f"_last{last}"
            yield argmax_case(name, F32, ties(F32, (2, 3, 4), seeded(name)), ver, axis, kd, last)


def argmax_ranks():
    shapes = {1: (7,), 2: (3, 5), 3: (2, 3, 4), 4: (2, 3, 2, 3), 5: (2, 3, 2, 3, 2)}
    for r, shape in shapes.items():
        for i, axis in enumerate(list(range(r)) + [-1]):
            name = f"argmax_rank{r}_axis{axis_name(axis)}"
            yield argmax_case(name, F32, ties(F32, shape, seeded(name)), 13, axis, i % 2,
                              (i // 2) % 2)


def argmax_specials():
    rng = seeded("argmax_specials")
    for ver in ARGMAX_TYPES:  # no attributes at all: axis 0, keepdims 1
        yield argmax_case(f"argmax_v{ver}_defaults", F32, ties(F32, (4, 3), rng), ver)
    yield argmax_case("argmax_v12_explicit_defaults", F32, ties(F32, (4, 3), rng), 12, 0, 1, 0)
    nan_rows = arr(F32, [[np.nan] * 4, [1, np.nan, 2, np.nan], [np.inf, np.nan, np.inf, 0],
                         [-np.inf] * 4, [np.inf, 1, np.inf, -np.inf]])
    for last in (0, 1):
        yield argmax_case(f"argmax_nan_rows_last{last}", F32, nan_rows, axis=1, last=last)
        yield argmax_case(f"argmax_nan_rows_float64_last{last}", F64, nan_rows.astype(np.float64),
                          axis=-1, last=last)
    neg_nan = np.array([0xFFC00000, 0x7FC00001], np.uint32).view(np.float32)  # sign, payload
    yield argmax_case("argmax_nan_sign_payload", F32,
                      np.array([1.0, neg_nan[0], np.inf, neg_nan[1]], np.float32))
    equal = np.full((3, 6), 4, np.int32)
    for last in (0, 1):
        yield argmax_case(f"argmax_all_equal_last{last}", I32, equal, axis=1, last=last)
    yield argmax_case("argmax_signed_zero_tie", F32, arr(F32, [-0.0, 0.0, -0.0, -1.0]), last=1)
    for dt in (I64, U64, U32, I8):
        for last in (0, 1):
            yield argmax_case(f"argmax_{dt.name}_extremes_last{last}", dt,
                              np.stack(all_pairs(extremes(dt))), axis=0, last=last)
    for dt in (F32, F64, I32, I64, I8):
        yield argmax_case(f"argmax_allneg_{dt.name}", dt, rng.choice(neg_palette(dt), (4, 5)),
                          axis=1)
    yield argmax_case("argmax_empty_outer_kd1", F32, np.zeros((0, 3), np.float32), axis=1)
    yield argmax_case("argmax_empty_outer_kd0", F32, np.zeros((0, 3), np.float32), axis=-1,
                      keepdims=0)
    yield argmax_case("argmax_axis_len1", F32, rand(F32, (3, 1), rng), axis=1)
    yield argmax_case("argmax_rank1_len1_kd0", F32, rand(F32, (1,), rng), keepdims=0)
    long_axis = rand(I16, (2, 1000), rng)
    long_axis[0, 997] = long_axis[1, 3] = np.iinfo(np.int16).max
    yield argmax_case("argmax_long_axis", I16, long_axis, axis=1)


# ---------------------------------------------------------------------------------------------
# maximum_: OpenVINO Maximum-1 in domain org.openvinotoolkit

def gen_maximum():
    for dt in NUMERIC:
        rng = seeded(f"maximum_{dt.name}")
        yield maximum_case(f"maximum_{dt.name}_none", dt, rand(dt, (3, 5), rng),
                           rand(dt, (3, 5), rng), "none")
        yield maximum_case(f"maximum_{dt.name}_numpy", dt, rand(dt, (2, 1, 3), rng),
                           rand(dt, (4, 1), rng), "numpy")
    rng = seeded("maximum_")
    # The two examples of the OpenVINO spec.
    yield maximum_case("maximum_spec_example_none", F32, rand(F32, (256, 56), rng),
                       rand(F32, (256, 56), rng), "none")
    a, b = rand(F32, (8, 1, 6, 1), rng), rand(F32, (7, 1, 5), rng)
    yield maximum_case("maximum_spec_example_numpy", F32, a, b, "numpy")
    # An absent auto_broadcast means numpy.
    yield maximum_case("maximum_default_spec_example", F32, a, b)
    yield maximum_case("maximum_default_int64", I64, rand(I64, (3, 1), rng), rand(I64, (4,), rng))
    yield maximum_case("maximum_default_bfloat16", BF16, rand(BF16, (2, 3), rng),
                       rand(BF16, (), rng))
    yield maximum_case("maximum_default_equal_shapes", U16, rand(U16, (4, 4), rng),
                       rand(U16, (4, 4), rng))
    yield maximum_case("maximum_none_scalars", F64, rand(F64, (), rng), rand(F64, (), rng), "none")
    yield maximum_case("maximum_none_rank6", I8, rand(I8, (2, 1, 3, 1, 2, 2), rng),
                       rand(I8, (2, 1, 3, 1, 2, 2), rng), "none")
    yield maximum_case("maximum_none_empty", F32, np.zeros((0, 3), np.float32),
                       np.zeros((0, 3), np.float32), "none")
    yield maximum_case("maximum_numpy_scalar_x_matrix", I32, rand(I32, (), rng),
                       rand(I32, (2, 3), rng), "numpy")
    yield maximum_case("maximum_numpy_zero_dim", F32, rand(F32, (0, 3), rng),
                       rand(F32, (1, 3), rng), "numpy")
    yield maximum_case("maximum_numpy_rank6", F16, rand(F16, (2, 1, 3, 1, 2, 1), rng),
                       rand(F16, (1, 2, 1, 3, 1, 2), rng), "numpy")
    for dt in (F32, F16, BF16):
        yield maximum_case(f"maximum_nan_{dt.name}", dt, *nan_inputs(dt, 0, rng)[:2])
    for dt in (I64, U64, I8, F32):
        yield maximum_case(f"maximum_extremes_{dt.name}", dt, *all_pairs(extremes(dt)), "none")
    yield maximum_case("maximum_allneg_float32", F32, rand(F32, (3, 4), rng, "neg"),
                       rand(F32, (3, 4), rng, "neg"))
    yield maximum_case("maximum_with_default_domain", F32, rand(F32, (3,), rng),
                       rand(F32, (3,), rng), "none", {"": 13, OV: 1})


# ---------------------------------------------------------------------------------------------
# graph_: several nodes, initializers, outputs that are inputs or initializers

def gen_graph():
    rng = seeded("graph_")
    x = lambda dt, shape: rand(dt, shape, rng)

    x0, x1, x2 = x(F32, (3, 4)), x(F32, (3, 4)), x(F32, (4,))
    m1 = max_ref(F32, [x0, x1])
    m2 = max_ref(F32, [m1, x2])
    yield Case("graph_chain_max_max_argmax",
               [node("Max", ["x0", "x1"], ["m1"]), node("Max", ["m1", "x2"], ["m2"]),
                node("ArgMax", ["m2"], ["y"], axis=1, keepdims=0)],
               {"": 13}, inputs_for(F32, [x0, x1, x2]),
               [Value("y", I64, argmax_ref(F32, m2, 1, 0))])

    # m1 feeds two nodes; one output is an intermediate that is also consumed (its buffer must
    # outlive its last reader and still reach the caller).
    yield Case("graph_fanout_two_consumers",
               [node("Max", ["x0", "x1"], ["m1"]), node("Max", ["m1", "x2"], ["y"]),
                node("ArgMax", ["m1"], ["z"], axis=0)],
               {"": 13}, inputs_for(F32, [x0, x1, x2]),
               [Value("y", F32, m2), Value("z", I64, argmax_ref(F32, m1, 0, 1))])
    yield Case("graph_intermediate_is_output",
               [node("Max", ["x0", "x1"], ["m1"]), node("ArgMax", ["m1"], ["z"], axis=-1)],
               {"": 13}, inputs_for(F32, [x0, x1]),
               [Value("m1", F32, m1), Value("z", I64, argmax_ref(F32, m1, -1, 1))])
    yield Case("graph_same_input_thrice", [node("Max", ["x0", "x0", "x0"], ["y"])], {"": 13},
               inputs_for(F32, [x0]), [Value("y", F32, x0)])

    # Initializers as Max inputs: raw_data and every typed field (each dtype's own field).
    for dt in (F32, BF16, I64):
        yield init_case(f"graph_init_raw_{dt.name}", dt, x(dt, (2, 3)), x(dt, (3,)), "raw")
    for dt in NUMERIC:
        yield init_case(f"graph_init_typed_{dt.name}", dt, x(dt, (2, 3)), x(dt, (2, 3)), "typed")
    yield init_case("graph_init_scalar", F32, x(F32, (2, 3)), x(F32, ()), "raw")

    w = x(F32, (4,))
    yield Case("graph_init_only_inputs",  # a node fed by initializers alone
               [node("Max", ["w0", "w1"], ["m"]), node("Max", ["x0", "m"], ["y"])],
               {"": 13}, inputs_for(F32, [x0]), [Value("y", F32, max_ref(F32, [x0, w, x2]))],
               [Value("w0", F32, w), Value("w1", F32, x2)])

    yield Case("graph_output_is_input", [node("Max", ["x0", "x1"], ["y"])], {"": 13},
               inputs_for(F32, [x0, x1]), [Value("x0", F32, x0), Value("y", F32, m1)])
    yield Case("graph_output_is_initializer", [node("Max", ["x0", "w"], ["y"])], {"": 13},
               inputs_for(F32, [x0]),
               [Value("y", F32, max_ref(F32, [x0, x2])), Value("w", F32, x2)],
               [Value("w", F32, x2)])

    x3 = x(F32, (3, 1))
    n = max_ref(F32, [max_ref(F32, [x0, x1, x2]), x3])
    yield Case("graph_both_domains",
               [node("Max", ["x0", "x1", "x2"], ["m"]), node("Maximum", ["m", "x3"], ["n"],
                                                             domain=OV, auto_broadcast="numpy"),
                node("ArgMax", ["n"], ["y"], axis=-1, keepdims=0)],
               {"": 13, OV: 1}, inputs_for(F32, [x0, x1, x2, x3]),
               [Value("n", F32, n), Value("y", I64, argmax_ref(F32, n, -1, 0))])

    a, b = x(I32, (2, 3)), x(I32, (2, 3))
    ab = max_ref(I32, [a, b])
    yield Case("graph_diamond",
               [node("Max", ["x0", "x1"], ["a"]), node("Max", ["a", "x0"], ["b"]),
                node("Maximum", ["a", "x1"], ["c"], domain=OV), node("Max", ["b", "c"], ["y"])],
               {"": 13, OV: 1}, inputs_for(I32, [a, b]), [Value("y", I32, ab)])

    xs = [x(F32, (5,)) for _ in range(11)]
    nodes = [node("Max", ["x0", "x1"], ["m1"])]
    nodes += [node("Max", [f"m{i - 1}", f"x{i}"], [f"m{i}"]) for i in range(2, 11)]
    yield Case("graph_long_chain", nodes, {"": 13}, inputs_for(F32, xs),
               [Value("m10", F32, max_ref(F32, xs))])

    c, d = x(F16, (3, 1)), x(F16, (1, 4))
    cd = max_ref(F16, [c, d])
    yield Case("graph_bcast_then_argmax",
               [node("Max", ["x0", "x1"], ["m"]), node("ArgMax", ["m"], ["y"], axis=0)],
               {"": 13}, inputs_for(F16, [c, d]), [Value("y", I64, argmax_ref(F16, cd, 0, 1))])

    yield Case("graph_unused_input", [node("Max", ["x0"], ["y"])], {"": 13},
               inputs_for(F32, [x0, x1]), [Value("y", F32, x0)])


def init_case(name, dt, xv, wv, wfield):
    return Case(name, [node("Max", ["x0", "w"], ["y"])], {"": 13}, inputs_for(dt, [xv]),
                [Value("y", dt, max_ref(dt, [xv, wv]))], [Value("w", dt, wv, field=wfield)])


# ---------------------------------------------------------------------------------------------
# opset_: which schema version a model's opset import resolves to

def gen_opset():
    rng = seeded("opset_")
    # Max: 3 resolves to Max-1, 6 and 7 to Max-6 (no broadcasting), 8 and 11 to Max-8, 12 to
    # Max-12, 13 and later to Max-13.
    max_cases = [(3, F32, [(2, 3)] * 2), (6, F32, [(2, 3)] * 2), (7, F64, [(2, 3)] * 3),
                 (8, F32, [(3, 1), (1, 4)]), (11, F16, [(3, 1), (1, 4)]),
                 (12, I32, [(3, 1), (1, 4)]), (13, BF16, [(3, 1), (1, 4)]),
                 (17, U64, [(3, 1), (1, 4)]), (18, I8, [(2, 1, 3), (4, 1), ()])]
    for opset, dt, shapes in max_cases:
        yield max_case(f"opset_{opset}_max_{dt.name}", dt, [rand(dt, s, rng) for s in shapes],
                       opset)
    # ArgMax: 1 and 10 resolve to ArgMax-1, 11 to 11, 12 to 12, 13+ to 13.
    argmax_cases = [(1, F32, 1, 1, None), (10, U8, 1, 0, None), (11, F32, -1, 1, None),
                    (12, I32, -2, 0, 1), (13, BF16, -2, 1, 1), (17, BF16, 0, 0, 0),
                    (18, F16, -1, 1, 1)]
    for opset, dt, axis, kd, last in argmax_cases:
        yield argmax_case(f"opset_{opset}_argmax_{dt.name}", dt, ties(dt, (3, 4), rng), opset,
                          axis, kd, last)
    # "ai.onnx" and "" name the same default domain, in the import and in the node.
    a, b = rand(F32, (3,), rng), rand(F32, (3,), rng)
    for imp, dom in (("ai.onnx", "ai.onnx"), ("ai.onnx", ""), ("", "ai.onnx")):
        name = f"opset_import_{imp.replace('.', '_') or 'default'}_node_" \
               f"{dom.replace('.', '_') or 'default'}"
        yield Case(name, [node("Max", ["x0", "x1"], ["y"], domain=dom)], {imp: 13},
                   inputs_for(F32, [a, b]), [Value("y", F32, max_ref(F32, [a, b]))])
    # An imported domain that no node uses is harmless.
    yield Case("opset_unused_extra_domain", [node("Max", ["x0", "x1"], ["y"])],
               {"": 13, OV: 1, "com.example": 1}, inputs_for(F32, [a, b]),
               [Value("y", F32, max_ref(F32, [a, b]))])


# ---------------------------------------------------------------------------------------------
# typed_: input/output .pb files written with typed fields instead of raw_data

def gen_typed():
    typed_out = {F32, F64, I8, I64, U32, U64, BF16}  # one of each field, plus the tricky ones
    for dt in NUMERIC:
        rng = seeded(f"typed_{dt.name}")
        xs = [np.concatenate([extremes(dt)[:6], rand(dt, (6,), rng)]) for _ in range(2)]
        xs[1] = xs[1][::-1].copy()
        yield max_case(f"typed_max_{dt.name}", dt, xs, field="typed")
        if dt in typed_out:
            yield max_case(f"typed_max_{dt.name}_out", dt, xs, out_field="typed")
        yield argmax_case(f"typed_argmax_{dt.name}", dt, ties(dt, (3, 4), rng), axis=-1,
                          field="typed")
    rng = seeded("typed_")
    yield argmax_case("typed_argmax_out_int64data", I32, ties(I32, (3, 4), rng), axis=1,
                      out_field="typed")
    a, b = rand(F32, (2, 3), rng), rand(F32, (2, 3), rng)
    yield Case("typed_mixed_raw_and_typed", [node("Max", ["x0", "x1"], ["y"])], {"": 13},
               [Value("x0", F32, a), Value("x1", F32, b, field="typed")],
               [Value("y", F32, max_ref(F32, [a, b]))])
    e = np.zeros((0, 3), np.float32)
    yield max_case("typed_empty", F32, [e, rand(F32, (1, 3), rng)], field="typed",
                   out_field="typed")
    yield max_case("typed_scalar", I64, [rand(I64, (), rng), rand(I64, (), rng)], field="typed")
    every = np.arange(-128, 128, dtype=np.int8)  # int32_data holds them sign-extended
    yield max_case("typed_int8_every_value", I8, [every, every[::-1].copy()], field="typed",
                   out_field="typed")
    every16 = np.arange(0, 65536, 257, dtype=np.uint16)  # int32_data holds them zero-extended
    yield max_case("typed_uint16_spread", U16, [every16, every16[::-1].copy()], field="typed")
    yield max_case("typed_float32_nan_inf", F32, nan_inputs(F32, 1, rng), field="typed",
                   out_field="typed")


# ---------------------------------------------------------------------------------------------
# cast_: Cast and CastLike, every version x source dtype with all its targets in one graph (one
# node per target), over each dtype's special values. Expected values: the exact-arithmetic rules
# of tests/unit/cast_reference.py (round to nearest even; float to int truncates and saturates,
# NaN -> 0; int to int keeps the low bits), which that script checks against numpy and PyTorch.

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "unit"))
import cast_reference as castref  # noqa: E402

CAST_DTYPES = {d.onnx: d for d in NUMERIC + [BOOL]}
CAST_NAMES = {CAST_DTYPES[n]: name for name, n in castref.DTYPES.items()}  # castref's names
NO_BF16 = [d for d in CAST_DTYPES.values() if d is not BF16]
# (op, version): the dtypes minnx holds that the version allows, as input and as target
CAST_VERSIONS = {("Cast", 1): NO_BF16, ("Cast", 6): NO_BF16, ("Cast", 9): NO_BF16,
                 ("Cast", 13): list(CAST_DTYPES.values()), ("Cast", 19): list(CAST_DTYPES.values()),
                 ("Cast", 21): list(CAST_DTYPES.values()), ("CastLike", 15): list(CAST_DTYPES.values()),
                 ("CastLike", 19): list(CAST_DTYPES.values()), ("CastLike", 21): list(CAST_DTYPES.values())}
UNSIGNED_BITS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def from_bits(dt, patterns):
    """Storage form of a dtype from its bit patterns."""
    name = CAST_NAMES[dt]
    a = np.array(patterns, dtype=UNSIGNED_BITS[castref.width(name)])
    return a.astype(np.bool_) if dt is BOOL else a if dt is BF16 else a.view(dt.np)


def cast_node(op, ver, src, dt, y):
    if op == "CastLike":
        return node("CastLike", [src, f"like_{dt.name}"], [y])
    return node("Cast", [src], [y], to=TensorProto.DataType.Name(dt.onnx) if ver == 1 else dt.onnx)


def cast_case(name, op, ver, src_dt, patterns, targets, shape=None, field="raw"):
    """One graph: x of src_dt, one node per target dtype, each output's expected values."""
    frm = CAST_NAMES[src_dt]
    x = from_bits(src_dt, patterns)
    if shape is not None:
        x = x.reshape(shape)
    outs, inits, nodes = [], [], []
    for dt in targets:
        want = [castref.convert(castref.value_of(b, frm), CAST_NAMES[dt]) for b in patterns]
        y = from_bits(dt, want).reshape(x.shape)
        nodes.append(cast_node(op, ver, "x", dt, f"y_{dt.name}"))
        outs.append(Value(f"y_{dt.name}", dt, y, field=field))
        if op == "CastLike":  # the target type's carrier: its data is never read
            inits.append(Value(f"like_{dt.name}", dt, from_bits(dt, [0])))
    return Case(name, nodes, {"": ver}, [Value("x", src_dt, x, field=field)], outs, inits)


def gen_cast():
    for (op, ver), types in CAST_VERSIONS.items():
        for dt in types:
            rng = random.Random(f"cast_{ver}_{dt.name}")
            yield cast_case(f"cast_{op.lower()}{ver}_{dt.name}", op, ver, dt,
                            castref.inputs(CAST_NAMES[dt], rng), types)
    # shapes: a scalar, an empty tensor, 3-D, and one large enough to be cut into slices
    rng = random.Random("cast_shapes")
    f32 = castref.inputs("float", rng)
    yield cast_case("cast_shape_scalar", "Cast", 13, F32, f32[5:6], [I32, F16], shape=())
    yield cast_case("cast_shape_empty", "Cast", 13, F32, [], [I64, BF16, BOOL], shape=(2, 0, 3))
    yield cast_case("cast_shape_3d", "Cast", 13, F32, f32[:24], [I8, U64, F16], shape=(2, 3, 4))
    big = [rng.getrandbits(32) for _ in range(260 * 256)]  # more than one slice (ops/cast.c)
    yield cast_case("cast_shape_large", "Cast", 13, F32, big, [F16], shape=(260, 256))
    # the typed TensorProto fields, in and out
    for dt in (F16, BF16, I8, U16, U64, BOOL):
        yield cast_case(f"cast_typed_{dt.name}", "Cast", 13, dt, castref.inputs(CAST_NAMES[dt], rng)[:16],
                        [F32, I64, dt], field="typed")
    # a Cast chain: float32 -> float16 -> float32 (rounding once, then exactly back)
    x = from_bits(F32, f32)
    h = from_bits(F16, [castref.convert(castref.value_of(b, "float"), "float16") for b in f32])
    back = from_bits(F32, [castref.convert(castref.value_of(int(b), "float16"), "float")
                           for b in h.view(np.uint16)])
    yield Case("cast_chain_f32_f16_f32", [node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
                                          node("Cast", ["h"], ["y"], to=TensorProto.FLOAT)],
               {"": 13}, [Value("x", F32, x)], [Value("y", F32, back)])


def err_cast(name, keyword, ver, src_dt=F32, op="Cast", n_inputs=1, like_dt=None, **attrs):
    rng = seeded(name)
    ins = [Value(f"x{i}", src_dt, rand(src_dt, (3,), rng) if src_dt is not BOOL else np.ones(3, bool))
           for i in range(n_inputs)]
    if like_dt is not None:
        ins.append(Value("like", like_dt, rand(like_dt, (1,), rng)))
    return refused(name, "load", keyword, [node(op, [v.name for v in ins], ["y"], **attrs)], {"": ver}, ins)


def gen_err_cast():
    yield err_cast("err_cast_to_missing", "attribute", 13)
    yield err_cast("err_cast_to_zero", "attribute", 13, to=0)
    yield err_cast("err_cast_to_99", "attribute", 13, to=99)
    yield err_cast("err_cast_to_negative", "attribute", 13, to=-1)
    yield err_cast("err_cast_to_huge", "attribute", 13, to=2 ** 40)
    yield err_cast("err_cast_to_string", "dtype", 13, to=TensorProto.STRING)
    yield err_cast("err_cast_to_complex64", "dtype", 13, to=TensorProto.COMPLEX64)
    yield err_cast("err_cast_v19_to_float8e4m3fn", "dtype", 19, to=17)
    yield err_cast("err_cast_v19_to_float8e5m2fnuz", "dtype", 19, to=20, saturate=0)
    yield err_cast("err_cast_v21_to_int4", "dtype", 21, to=22)
    yield err_cast("err_cast_v21_to_uint4", "dtype", 21, to=21)
    yield err_cast("err_cast_v6_to_bfloat16", "dtype", 6, to=TensorProto.BFLOAT16)
    yield err_cast("err_cast_v9_from_bfloat16", "dtype", 9, src_dt=BF16, to=TensorProto.FLOAT)
    yield err_cast("err_cast_v1_to_unknown_name", "attribute", 1, to="FLOAT32")
    yield err_cast("err_cast_v1_to_bfloat16", "dtype", 1, to="BFLOAT16")
    yield err_cast("err_cast_v1_to_int", "attribute", 1, to=TensorProto.FLOAT)
    yield err_cast("err_cast_v13_to_name", "attribute", 13, to="FLOAT")
    yield err_cast("err_cast_v13_saturate", "attribute", 13, to=TensorProto.FLOAT16, saturate=1)
    yield err_cast("err_cast_two_inputs", "inputs", 13, n_inputs=2, to=TensorProto.FLOAT)
    yield err_cast("err_castlike_v15_saturate", "attribute", 15, op="CastLike", like_dt=F16, saturate=1)
    yield err_cast("err_castlike_one_input", "inputs", 15, op="CastLike")
    yield err_cast("err_castlike_opset13", "operator", 13, op="CastLike", like_dt=F16)


# ---------------------------------------------------------------------------------------------
# err_: models and inputs minnx must refuse

def refused(name, stage, keyword, nodes, opsets, inputs, out_dt=F32):
    return Case(name, nodes, opsets, inputs, [Value("y", out_dt, None, shape=None)],
                error=(stage, keyword))


def err_op(name, keyword, op, dts_shapes, opset=13, domain=None, stage="load", opsets=None,
           **attrs):
    """A single node `op` over inputs of the given (dtype, shape)s."""
    rng = seeded(name)
    ins = [Value(f"x{i}", dt, rand(dt, s, rng) if dt is not BOOL else np.ones(s, bool))
           for i, (dt, s) in enumerate(dts_shapes)]
    out_dt = I64 if op == "ArgMax" else (dts_shapes[0][0] if dts_shapes else F32)
    return refused(name, stage, keyword, [node(op, [v.name for v in ins], ["y"], domain=domain,
                                               **attrs)],
                   opsets or {(domain or ""): opset}, ins, out_dt)


def gen_err():
    f = lambda *shapes: [(F32, s) for s in shapes]
    # Max: shapes
    yield err_op("err_max_v1_bcast_shape", "shape", "Max", f((2, 3), (3,)), 1)
    yield err_op("err_max_v6_bcast_shape", "shape", "Max", f((2, 3), (2, 1)), 6)
    yield err_op("err_max_opset7_bcast_shape", "shape", "Max", f((3, 1), (1, 4)), 7)
    yield err_op("err_max_shape_3_x_4", "shape", "Max", f((3,), (4,)))
    yield err_op("err_max_shape_3in_incompatible", "shape", "Max", f((2, 1), (1, 3), (4, 1)))
    yield err_op("err_max_shape_zero_x_2", "shape", "Max", f((0,), (2,)))
    # Max: dtypes
    yield err_op("err_max_v1_int32", "dtype", "Max", [(I32, (3,))] * 2, 1)
    yield err_op("err_max_v6_int64", "dtype", "Max", [(I64, (3,))] * 2, 6)
    yield err_op("err_max_v8_int32", "dtype", "Max", [(I32, (3,))] * 2, 8)
    yield err_op("err_max_opset11_uint8", "dtype", "Max", [(U8, (3,))] * 2, 11)
    yield err_op("err_max_v8_bfloat16", "dtype", "Max", [(BF16, (3,))] * 2, 8)
    yield err_op("err_max_v12_bfloat16", "dtype", "Max", [(BF16, (3,))] * 2, 12)
    yield err_op("err_max_bool", "dtype", "Max", [(BOOL, (3,))] * 2)
    yield err_op("err_max_mixed_float32_float64", "dtype", "Max", [(F32, (3,)), (F64, (3,))])
    yield err_op("err_max_mixed_int32_int64", "dtype", "Max", [(I32, (3,))] * 2 + [(I64, (3,))])
    yield err_op("err_max_mixed_float16_bfloat16", "dtype", "Max", [(F16, (3,)), (BF16, (3,))])
    # Max: arity and attributes
    yield err_op("err_max_no_inputs", "inputs", "Max", [])
    yield err_op("err_max_v6_consumed_inputs", "attribute", "Max", f((3,), (3,)), 6,
                 consumed_inputs=[0, 0])
    yield err_op("err_max_unknown_attribute", "attribute", "Max", f((3,), (3,)), foo=1)
    # ArgMax
    yield err_op("err_argmax_axis_pos", "axis", "ArgMax", f((2, 3, 4)), axis=3)
    yield err_op("err_argmax_axis_neg", "axis", "ArgMax", f((2, 3, 4)), axis=-4)
    yield err_op("err_argmax_v1_axis_pos", "axis", "ArgMax", f((2, 3)), 1, axis=2)
    yield err_op("err_argmax_v11_axis_neg", "axis", "ArgMax", f((2, 3)), 11, axis=-3)
    yield err_op("err_argmax_v1_neg_axis", "axis", "ArgMax", f((2, 3)), 1, axis=-1)
    yield err_op("err_argmax_opset10_neg_axis", "axis", "ArgMax", f((2, 3)), 10, axis=-2)
    yield err_op("err_argmax_v11_select_last_index", "attribute", "ArgMax", f((2, 3)), 11,
                 select_last_index=1)
    yield err_op("err_argmax_v1_select_last_index0", "attribute", "ArgMax", f((2, 3)), 1,
                 select_last_index=0)  # the attribute does not exist before 12, whatever its value
    yield err_op("err_argmax_unknown_attribute", "attribute", "ArgMax", f((2, 3)), foo=1)
    yield err_op("err_argmax_v12_bfloat16", "dtype", "ArgMax", [(BF16, (2, 3))], 12)
    yield err_op("err_argmax_v1_bfloat16", "dtype", "ArgMax", [(BF16, (2, 3))], 1)
    yield err_op("err_argmax_bool", "dtype", "ArgMax", [(BOOL, (2, 3))])
    yield err_op("err_argmax_no_inputs", "inputs", "ArgMax", [])
    yield err_op("err_argmax_two_inputs", "inputs", "ArgMax", f((2, 3), (2, 3)))
    # Maximum
    ov = {"domain": OV, "opset": 1}
    yield err_op("err_maximum_none_shape", "shape", "Maximum", f((3, 1), (1, 4)), **ov,
                 auto_broadcast="none")
    yield err_op("err_maximum_numpy_shape", "shape", "Maximum", f((3,), (4,)), **ov)
    yield err_op("err_maximum_three_inputs", "inputs", "Maximum", f((3,), (3,), (3,)), **ov)
    yield err_op("err_maximum_one_input", "inputs", "Maximum", f((3,)), **ov)
    yield err_op("err_maximum_auto_broadcast_pdpd", "attribute", "Maximum", f((3,), (3,)), **ov,
                 auto_broadcast="pdpd")
    yield err_op("err_maximum_auto_broadcast_empty", "attribute", "Maximum", f((3,), (3,)),
                 **ov, auto_broadcast="")
    yield err_op("err_maximum_auto_broadcast_int", "attribute", "Maximum", f((3,), (3,)), **ov,
                 auto_broadcast=1)
    yield err_op("err_maximum_mixed_dtype", "dtype", "Maximum", [(I32, (3,)), (I64, (3,))], **ov)
    yield err_op("err_maximum_bool", "dtype", "Maximum", [(BOOL, (3,))] * 2, **ov)
    # Operators and domains
    yield err_op("err_unknown_op", "operator", "Foo", f((3,)))
    yield err_op("err_max_in_openvino_domain", "operator", "Max", f((3,), (3,)), **ov)
    yield err_op("err_maximum_in_default_domain", "operator", "Maximum", f((3,), (3,)))
    yield err_op("err_domain_not_imported", "domain", "Maximum", f((3,), (3,)), domain=OV,
                 opsets={"": 13})
    yield err_op("err_domain_unknown", "domain", "Max", f((3,), (3,)), domain="com.example",
                 opsets={"": 13, "com.example": 1})
    yield from err_run()


def err_run():
    """Shapes that only meet at run time: dim_param inputs fed with incompatible shapes."""
    rng = seeded("err_run")
    for name, op, opsets, domain, attrs, feed in (
            ("err_run_max13_dim_param", "Max", {"": 13}, None, {}, [(3,), (4,)]),
            ("err_run_max6_dim_param", "Max", {"": 6}, None, {}, [(1,), (3,)]),
            ("err_run_maximum_none_dim_param", "Maximum", {OV: 1}, OV,
             {"auto_broadcast": "none"}, [(3,), (1,)])):
        ins = [Value(f"x{i}", F32, rand(F32, s, rng), shape=[dim])
               for i, (s, dim) in enumerate(zip(feed, "NM"))]
        yield refused(name, "run", "shape", [node(op, ["x0", "x1"], ["y"], domain=domain,
                                                  **attrs)], opsets, ins)


# ---------------------------------------------------------------------------------------------
# const_, identity_, reshape_, flatten_, squeeze_, unsqueeze_: the plumbing exporters write
# around Max and ArgMax. Every version x every dtype it allows x each rule; expected outputs are
# numpy's reshape / squeeze / expand_dims of the input (the views share its bytes in minnx).

NO_BF16 = FLOATS + INTS + [BOOL]
ALL = NUMERIC + [BOOL]
# Types each version accepts (onnx.defs; versions 19 and 21 add only types minnx lacks).
IDENTITY_TYPES = {1: NO_BF16, 13: ALL, 14: ALL, 16: ALL, 19: ALL, 21: ALL}
RESHAPE_TYPES = {1: FLOATS, 5: NO_BF16, 13: ALL, 14: ALL, 19: ALL, 21: ALL}
FLATTEN_TYPES = {1: FLOATS, 9: NO_BF16, 11: NO_BF16, 13: ALL, 21: ALL}
SQUEEZE_TYPES = {1: NO_BF16, 11: NO_BF16, 13: ALL, 21: ALL}
# Constant-1's spec lists the floats; minnx takes every dtype Constant-9 does, as ONNX Runtime does: PyTorch
# wrote int64 Constants at opsets 6 to 8, and ONNX's own pytorch-converted and pytorch-operator data hold them.
CONSTANT_TYPES = {1: NO_BF16, 9: NO_BF16, 11: NO_BF16, 12: NO_BF16, 13: ALL, 19: ALL, 21: ALL}


def any_values(dt, shape, rng):
    if dt is BOOL:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    return rand(dt, shape, rng)


def i64(values):
    return np.array(values, dtype=np.int64)


def view_case(name, op, opset, x, want, attrs=None, extra=(), inits=(), dt=None):
    """One node `op` over x (and extra inputs / initializers such as a shape or axes), whose
    output must be x's elements under shape `want`."""
    dt = dt or x[0]
    ins = [Value("x", dt, x[1])] + list(extra)
    names = [v.name for v in ins] + [v.name for v in inits]
    return Case(name, [node(op, names, ["y"], **(attrs or {}))], {"": opset}, ins,
                [Value("y", dt, x[1].reshape(want))], list(inits))


def gen_views():
    # Identity: every version x dtype; rank 0 and an empty tensor too.
    for ver, types in IDENTITY_TYPES.items():
        for dt in types:
            name = f"identity_v{ver}_{dt.name}"
            x = any_values(dt, (2, 3), seeded(name))
            yield view_case(name, "Identity", ver, (dt, x), x.shape)
    rng = seeded("identity_shapes")
    for label, shape in (("scalar", ()), ("empty", (0, 3)), ("rank6", (1, 2, 1, 3, 1, 2))):
        x = rand(F32, shape, rng)
        yield view_case(f"identity_{label}", "Identity", 13, (F32, x), shape)

    # Reshape: every version x dtype (the shape an attribute in 1, an initializer after)...
    for ver, types in RESHAPE_TYPES.items():
        for dt in types:
            name = f"reshape_v{ver}_{dt.name}"
            x = any_values(dt, (2, 3, 4), seeded(name))
            if ver == 1:
                yield view_case(name, "Reshape", 1, (dt, x), (4, 6), {"shape": [4, -1]})
            else:
                yield view_case(name, "Reshape", ver, (dt, x), (4, 6), inits=[Value("s", I64, i64([4, -1]))])
    # ... then the rules: 0 copies the input's dim, one -1, rank changes, scalars, empty tensors,
    # allowzero (14), and the shape as an initializer, a Constant or a graph input.
    rng = seeded("reshape_rules")
    x = rand(F32, (2, 3, 4), rng)
    for label, shape, want, opset, attrs in (
            ("zero_copies", [0, 0, -1], (2, 3, 4), 13, {}),
            ("zero_copies_first", [0, -1], (2, 12), 13, {}),
            ("minus_one_first", [-1, 4], (6, 4), 13, {}),
            ("minus_one_alone", [-1], (24,), 13, {}),
            ("rank_up", [2, 3, 2, 2], (2, 3, 2, 2), 13, {}),
            ("rank_same", [4, 3, 2], (4, 3, 2), 5, {}),
            ("allowzero0_explicit", [0, 12], (2, 12), 14, {"allowzero": 0}),
            ("allowzero1_no_zero", [6, -1], (6, 4), 14, {"allowzero": 1})):
        yield view_case(f"reshape_{label}", "Reshape", opset, (F32, x), want, attrs,
                        inits=[Value("s", I64, i64(shape))])
    e = rand(F32, (0, 3), rng)
    yield view_case("reshape_allowzero1_empty", "Reshape", 14, (F32, e), (3, 0), {"allowzero": 1},
                    inits=[Value("s", I64, i64([3, 0]))])
    yield view_case("reshape_allowzero0_empty_copy", "Reshape", 14, (F32, e), (0, 3, 1),
                    inits=[Value("s", I64, i64([0, 3, 1]))])
    yield view_case("reshape_v1_zero_copies", "Reshape", 1, (F32, x), (2, 12), {"shape": [0, -1]})
    sc = rand(F32, (), rng)
    yield view_case("reshape_scalar_to_1", "Reshape", 13, (F32, sc), (1,), inits=[Value("s", I64, i64([1]))])
    one = rand(F32, (1, 1), rng)
    yield view_case("reshape_to_scalar", "Reshape", 13, (F32, one), (), inits=[Value("s", I64, i64([]))])
    yield view_case("reshape_shape_graph_input", "Reshape", 13, (F32, x), (3, 8),
                    extra=[Value("s", I64, i64([3, -1]))])
    yield Case("reshape_shape_constant",
               [node("Constant", [], ["s"], value=helper.make_tensor("v", TensorProto.INT64, [2], [-1, 2])),
                node("Reshape", ["x", "s"], ["y"])], {"": 13}, [Value("x", F32, x)],
               [Value("y", F32, x.reshape(-1, 2))])

    # Flatten: every version x dtype, then every axis (negative ones from 11).
    for ver, types in FLATTEN_TYPES.items():
        for dt in types:
            name = f"flatten_v{ver}_{dt.name}"
            x = any_values(dt, (2, 3, 4), seeded(name))
            yield view_case(name, "Flatten", ver, (dt, x), (2, 12))
    rng = seeded("flatten_axes")
    x = rand(F32, (2, 3, 4, 5), rng)
    for ver, axes in ((1, range(0, 5)), (11, range(-4, 5))):
        for axis in axes:
            a = axis % 4 if axis < 0 else axis
            want = (int(np.prod(x.shape[:a])), int(np.prod(x.shape[a:])))
            yield view_case(f"flatten_v{ver}_axis_{axis_name(axis)}", "Flatten", ver, (F32, x), want,
                            {"axis": axis})
    yield view_case("flatten_scalar", "Flatten", 13, (F32, rand(F32, (), rng)), (1, 1), {"axis": 0})
    yield view_case("flatten_empty", "Flatten", 13, (F32, rand(F32, (2, 0, 3), rng)), (2, 0))

    # Squeeze and Unsqueeze: every version x dtype, then the axes rules.
    for ver, types in SQUEEZE_TYPES.items():
        for dt in types:
            name = f"squeeze_v{ver}_{dt.name}"
            x = any_values(dt, (1, 3, 1, 2), seeded(name))
            axes = [0, 2]
            if ver < 13:
                yield view_case(name, "Squeeze", ver, (dt, x), (3, 2), {"axes": axes})
            else:
                yield view_case(name, "Squeeze", ver, (dt, x), (3, 2), inits=[Value("a", I64, i64(axes))])
            name = f"unsqueeze_v{ver}_{dt.name}"
            x = any_values(dt, (3, 2), seeded(name))
            if ver < 13:
                yield view_case(name, "Unsqueeze", ver, (dt, x), (1, 3, 1, 2), {"axes": axes})
            else:
                yield view_case(name, "Unsqueeze", ver, (dt, x), (1, 3, 1, 2), inits=[Value("a", I64, i64(axes))])
    rng = seeded("squeeze_axes")
    x = rand(F32, (1, 3, 1, 2, 1), rng)
    yield view_case("squeeze_v1_all_ones", "Squeeze", 1, (F32, x), (3, 2))
    yield view_case("squeeze_v13_all_ones", "Squeeze", 13, (F32, x), (3, 2))
    yield view_case("squeeze_v11_negative", "Squeeze", 11, (F32, x), (1, 3, 2), {"axes": [-1, -3]})
    yield view_case("squeeze_v13_negative", "Squeeze", 13, (F32, x), (3, 1, 2), inits=[Value("a", I64, i64([-5, -1]))])
    yield view_case("squeeze_v13_unsorted", "Squeeze", 13, (F32, x), (3, 2), inits=[Value("a", I64, i64([4, 0, 2]))])
    # an empty axes list squeezes nothing (numpy's squeeze(axis=()), ONNX's shape inference)
    yield view_case("squeeze_v13_empty_axes", "Squeeze", 13, (F32, x), x.shape, inits=[Value("a", I64, i64([]))])
    yield view_case("squeeze_to_scalar", "Squeeze", 13, (F32, rand(F32, (1, 1), rng)), ())
    yield view_case("squeeze_axes_graph_input", "Squeeze", 13, (F32, x), (1, 3, 2, 1),
                    extra=[Value("a", I64, i64([2]))])
    y = rand(F32, (3, 2), rng)
    for label, ver, axes, want in (("v1_front_back", 1, [0, 3], (1, 3, 2, 1)),
                                   ("v11_negative", 11, [-1], (3, 2, 1)),
                                   ("v11_negative_front", 11, [-3], (1, 3, 2)),
                                   ("v13_unsorted", 13, [3, 0, 1], (1, 1, 3, 1, 2)),
                                   ("v13_negative_mix", 13, [-1, 0], (1, 3, 2, 1)),
                                   ("v13_empty_axes", 13, [], (3, 2))):
        if ver < 13:
            yield view_case(f"unsqueeze_{label}", "Unsqueeze", ver, (F32, y), want, {"axes": axes})
        else:
            yield view_case(f"unsqueeze_{label}", "Unsqueeze", ver, (F32, y), want,
                            inits=[Value("a", I64, i64(axes))])
    yield view_case("unsqueeze_scalar", "Unsqueeze", 13, (F32, rand(F32, (), rng)), (1, 1),
                    inits=[Value("a", I64, i64([0, 1]))])
    yield view_case("unsqueeze_axes_graph_input", "Unsqueeze", 13, (F32, y), (3, 1, 2),
                    extra=[Value("a", I64, i64([1]))])
    yield from err_views()


def gen_const():
    """Constant: every version x dtype it allows, each value attribute, sparse values. The
    graph's output is the constant itself (folded at load: no node runs)."""
    for ver, types in CONSTANT_TYPES.items():
        for dt in types:
            name = f"const_v{ver}_{dt.name}"
            v = Value("y", dt, any_values(dt, (2, 3), seeded(name)), field="typed")
            yield Case(name, [node("Constant", [], ["y"], value=tensor_proto(v))], {"": ver}, [], [v])
    rng = seeded("const_values")
    f = rand(F32, (4,), rng)
    for label, attrs, out in (
            ("value_float", {"value_float": float(f[0])}, Value("y", F32, f[:1].reshape(()))),
            ("value_floats", {"value_floats": [float(v) for v in f]}, Value("y", F32, f)),
            ("value_int", {"value_int": -7}, Value("y", I64, i64(-7))),
            ("value_ints", {"value_ints": [3, -1, 2**40]}, Value("y", I64, i64([3, -1, 2**40]))),
            ("value_scalar_tensor", {"value": helper.make_tensor("v", TensorProto.DOUBLE, [], [2.5])},
             Value("y", F64, np.array(2.5)))):
        for ver in (12, 21):
            yield Case(f"const_v{ver}_{label}", [node("Constant", [], ["y"], **attrs)], {"": ver}, [], [out])
    # sparse_value (from 11): indices as [NNZ] (linear) or [NNZ, rank]
    dense = np.zeros((3, 4), np.float32)
    dense[0, 1], dense[1, 3], dense[2, 0] = 1.5, -2.0, 7.0
    vals = helper.make_tensor("v", TensorProto.FLOAT, [3], [1.5, -2.0, 7.0])
    for ver in (11, 13, 21):
        yield Case(f"const_v{ver}_sparse_linear",
                   [node("Constant", [], ["y"], sparse_value=helper.make_sparse_tensor(
                       vals, helper.make_tensor("i", TensorProto.INT64, [3], [1, 7, 8]), [3, 4]))],
                   {"": ver}, [], [Value("y", F32, dense)])
    yield Case("const_v13_sparse_coords",
               [node("Constant", [], ["y"], sparse_value=helper.make_sparse_tensor(
                   vals, helper.make_tensor("i", TensorProto.INT64, [3, 2], [0, 1, 1, 3, 2, 0]), [3, 4]))],
               {"": 13}, [], [Value("y", F32, dense)])
    yield Case("const_v13_sparse_int32_none",
               [node("Constant", [], ["y"], sparse_value=helper.make_sparse_tensor(
                   helper.make_tensor("v", TensorProto.INT32, [0], []),
                   helper.make_tensor("i", TensorProto.INT64, [0], []), [2, 2]))],
               {"": 13}, [], [Value("y", I32, np.zeros((2, 2), np.int32))])
    # a Constant feeding Max (torch.maximum(x, torch.tensor(0.0)) exports this)
    x = rand(F32, (2, 3), rng)
    yield Case("const_feeds_max",
               [node("Constant", [], ["c"], value=helper.make_tensor("v", TensorProto.FLOAT, [], [0.0])),
                node("Max", ["x", "c"], ["y"])], {"": 13}, [Value("x", F32, x)],
               [Value("y", F32, max_ref(F32, [x, np.zeros((), np.float32)]))])
    yield from err_const()


def gen_view_graphs():
    """Views in graphs: chains of views, views as graph outputs, views of inputs and
    initializers, views between computing nodes (the viewed bytes must stay alive)."""
    rng = seeded("view_graphs")
    a, b = rand(F32, (2, 6), rng), rand(F32, (2, 6), rng)
    m = max_ref(F32, [a, b])
    s = Value("s", I64, i64([3, 4]))
    ax = Value("ax", I64, i64([0]))
    yield Case("view_chain_reshape_flatten_unsqueeze_squeeze",
               [node("Reshape", ["x0", "s"], ["r"]), node("Flatten", ["r"], ["f"], axis=0),
                node("Unsqueeze", ["f", "ax"], ["u"]), node("Squeeze", ["u", "ax"], ["y"])],
               {"": 13}, inputs_for(F32, [a]), [Value("y", F32, a.reshape(1, 12))], [s, ax])
    yield Case("view_of_input_is_output", [node("Identity", ["x0"], ["y"])], {"": 13},
               inputs_for(F32, [a]), [Value("y", F32, a)])
    yield Case("view_of_initializer_is_output", [node("Reshape", ["w", "s"], ["y"])], {"": 13},
               [], [Value("y", F32, b.reshape(3, 4))], [Value("w", F32, b), s])
    yield Case("view_of_constant_is_output",
               [node("Constant", [], ["c"], value=helper.make_tensor("v", TensorProto.INT64, [4], [1, 2, 3, 4])),
                node("Reshape", ["c", "s2"], ["y"])], {"": 13}, [],
               [Value("y", I64, i64([[1, 2], [3, 4]]))], [Value("s2", I64, i64([2, 2]))])
    yield Case("view_between_max_and_argmax",
               [node("Max", ["x0", "x1"], ["m"]), node("Reshape", ["m", "s"], ["r"]),
                node("ArgMax", ["r"], ["y"], axis=1, keepdims=0)],
               {"": 13}, inputs_for(F32, [a, b]),
               [Value("y", I64, argmax_ref(F32, m.reshape(3, 4), 1, 0))], [s])
    # the viewed value m dies as a value at the Reshape, but its bytes live on through r
    # while later nodes make values that could otherwise take its place
    c = rand(F32, (3, 4), rng)
    n1 = max_ref(F32, [c, c])
    yield Case("view_keeps_bytes_alive",
               [node("Max", ["x0", "x1"], ["m"]), node("Reshape", ["m", "s"], ["r"]),
                node("Max", ["x2", "x2"], ["n1"]), node("Max", ["n1", "x2"], ["n2"]),
                node("Max", ["r", "n2"], ["y"])],
               {"": 13}, inputs_for(F32, [a, b, c]),
               [Value("y", F32, max_ref(F32, [m.reshape(3, 4), n1]))], [s])
    yield Case("view_two_views_and_base_are_outputs",
               [node("Max", ["x0", "x1"], ["m"]), node("Reshape", ["m", "s"], ["r"]),
                node("Flatten", ["m"], ["f"], axis=0)],
               {"": 13}, inputs_for(F32, [a, b]),
               [Value("m", F32, m), Value("r", F32, m.reshape(3, 4)), Value("f", F32, m.reshape(1, 12))], [s])
    yield Case("view_of_view_of_input_feeds_max",
               [node("Identity", ["x0"], ["i"]), node("Reshape", ["i", "s"], ["r"]),
                node("Max", ["r", "x1"], ["y"])],
               {"": 13}, [Value("x0", F32, a), Value("x1", F32, c)],
               [Value("y", F32, max_ref(F32, [a.reshape(3, 4), c]))], [s])
    yield Case("view_dim_param", [node("Flatten", ["x0"], ["y"], axis=1)], {"": 13},
               [Value("x0", F32, c.reshape(3, 2, 2), shape=["N", 2, 2])],
               [Value("y", F32, c.reshape(3, 4), shape=["N", 4])])


def err_views():
    f = lambda *shapes: [(F32, s) for s in shapes]
    s = lambda *v: Value("s", I64, i64(list(v)))

    def err_view(name, keyword, op, opset, shape, attrs=None, inits=(), extra=(), dt=F32):
        x = Value("x", dt, any_values(dt, shape, seeded(name)))
        ins = [x] + list(extra)
        return Case(name, [node(op, [v.name for v in ins] + [v.name for v in inits], ["y"], **(attrs or {}))],
                    {"": opset}, ins, [Value("y", dt, None, shape=None)], list(inits), error=("load", keyword))

    yield err_view("reshape_err_two_minus_one", "shape", "Reshape", 13, (2, 3), inits=[s(-1, -1)])
    yield err_view("reshape_err_minus_two", "shape", "Reshape", 13, (2, 3), inits=[s(-2, 3)])
    yield err_view("reshape_err_count", "shape", "Reshape", 13, (2, 3), inits=[s(4, 2)])
    yield err_view("reshape_err_not_divisible", "shape", "Reshape", 13, (2, 3), inits=[s(4, -1)])
    yield err_view("reshape_err_zero_past_rank", "shape", "Reshape", 13, (6,), inits=[s(1, 0)])
    yield err_view("reshape_err_allowzero_zero_and_minus_one", "shape", "Reshape", 14, (0, 3),
                   {"allowzero": 1}, inits=[s(0, -1)])
    yield err_view("reshape_err_minus_one_beside_zero", "shape", "Reshape", 13, (2, 0), inits=[s(-1, 0)])
    yield err_view("reshape_err_allowzero_v13", "attribute", "Reshape", 13, (2, 3), {"allowzero": 1},
                   inits=[s(3, 2)])
    yield err_view("reshape_err_allowzero_2", "attribute", "Reshape", 14, (2, 3), {"allowzero": 2},
                   inits=[s(3, 2)])
    yield err_view("reshape_err_v1_bfloat16", "dtype", "Reshape", 1, (2, 3), {"shape": [3, 2]}, dt=BF16)
    yield err_view("reshape_err_v5_bfloat16", "dtype", "Reshape", 5, (2, 3), inits=[s(3, 2)], dt=BF16)
    yield err_view("reshape_err_v1_no_shape", "shape", "Reshape", 1, (2, 3))
    yield err_view("reshape_err_v13_shape_attribute", "attribute", "Reshape", 13, (2, 3), {"shape": [3, 2]},
                   inits=[s(3, 2)])
    yield err_view("reshape_err_shape_int32", "dtype", "Reshape", 13, (2, 3),
                   inits=[Value("s", I32, np.array([3, 2], np.int32))])
    yield err_view("reshape_err_shape_rank2", "shape", "Reshape", 13, (2, 3),
                   inits=[Value("s", I64, i64([[3, 2]]))])
    yield err_view("reshape_err_no_shape_input", "inputs", "Reshape", 13, (2, 3))
    # a shape computed by a node: refused at load, naming the node
    x = Value("x", F32, rand(F32, (2, 3), seeded("reshape_err_computed_shape")))
    yield Case("reshape_err_computed_shape",
               [node("Max", ["s1", "s2"], ["s"]), node("Reshape", ["x", "s"], ["y"])], {"": 13}, [x],
               [Value("y", F32, None, shape=None)], [Value("s1", I64, i64([3, 2])), Value("s2", I64, i64([1, 1]))],
               error=("load", "constant"))
    yield err_view("flatten_err_axis_past_rank", "axis", "Flatten", 13, (2, 3), {"axis": 3})
    yield err_view("flatten_err_v9_negative", "axis", "Flatten", 9, (2, 3), {"axis": -1})
    yield err_view("flatten_err_v11_axis_below", "axis", "Flatten", 11, (2, 3), {"axis": -3})
    yield err_view("flatten_err_v1_int32", "dtype", "Flatten", 1, (2, 3), dt=I32)
    yield err_view("flatten_err_v11_bfloat16", "dtype", "Flatten", 11, (2, 3), dt=BF16)
    yield err_view("squeeze_err_not_one", "squeezed", "Squeeze", 13, (1, 3), inits=[Value("a", I64, i64([1]))])
    yield err_view("squeeze_err_axis_out_of_range", "axis", "Squeeze", 13, (1, 3), inits=[Value("a", I64, i64([2]))])
    yield err_view("squeeze_err_axis_twice", "twice", "Squeeze", 13, (1, 3, 1),
                   inits=[Value("a", I64, i64([0, -3]))])
    yield err_view("squeeze_err_v1_negative", "axis", "Squeeze", 1, (1, 3), {"axes": [-2]})
    yield err_view("squeeze_err_v13_axes_attribute", "attribute", "Squeeze", 13, (1, 3), {"axes": [0]})
    yield err_view("squeeze_err_v11_bfloat16", "dtype", "Squeeze", 11, (1, 3), {"axes": [0]}, dt=BF16)
    yield err_view("unsqueeze_err_axis_twice", "twice", "Unsqueeze", 13, (2, 3),
                   inits=[Value("a", I64, i64([1, 1]))])
    yield err_view("unsqueeze_err_axis_out_of_range", "axis", "Unsqueeze", 13, (2, 3),
                   inits=[Value("a", I64, i64([3]))])
    yield err_view("unsqueeze_err_v1_negative", "axis", "Unsqueeze", 1, (2, 3), {"axes": [-1]})
    yield err_view("unsqueeze_err_v13_no_axes", "inputs", "Unsqueeze", 13, (2, 3))
    yield err_view("unsqueeze_err_v1_no_axes", "axes", "Unsqueeze", 1, (2, 3))
    yield err_view("unsqueeze_err_rank_9", "maximum", "Unsqueeze", 13, (2, 2, 2, 2, 2, 2, 2, 2),
                   inits=[Value("a", I64, i64([0]))])
    yield err_view("identity_err_v1_bfloat16", "dtype", "Identity", 1, (2, 3), dt=BF16)
    yield err_view("identity_err_two_inputs", "inputs", "Identity", 13, (2, 3),
                   extra=[Value("x2", F32, np.zeros(3, np.float32))])


def err_const():
    def err_c(name, keyword, opset, **attrs):
        return Case(name, [node("Constant", [], ["y"], **attrs)], {"": opset}, [],
                    [Value("y", F32, None, shape=None)], error=("load", keyword))

    t = lambda dt, dims, vals: helper.make_tensor("v", dt, dims, vals)
    yield err_c("const_err_value_string", "strings", 12, value_string="hello")
    yield err_c("const_err_value_strings", "strings", 13, value_strings=["a", "b"])
    yield err_c("const_err_string_tensor", "string", 13, value=t(TensorProto.STRING, [1], [b"x"]))
    yield err_c("const_err_v9_bfloat16", "output", 9, value=t(TensorProto.BFLOAT16, [1], [1]))
    yield err_c("const_err_v11_value_float", "attribute", 11, value_float=1.0)
    yield err_c("const_err_v9_sparse", "attribute", 9, sparse_value=helper.make_sparse_tensor(
        t(TensorProto.FLOAT, [1], [1.0]), t(TensorProto.INT64, [1], [0]), [2]))
    yield err_c("const_err_no_value", "attribute", 13)
    yield err_c("const_err_two_values", "attribute", 13, value_float=1.0, value_int=2)
    sp = lambda idx_dims, idx, dims, nvals=None: helper.make_sparse_tensor(
        t(TensorProto.FLOAT, [nvals or (len(idx) if len(idx_dims) == 1 else idx_dims[0])],
          [1.0] * (nvals or (len(idx) if len(idx_dims) == 1 else idx_dims[0]))),
        t(TensorProto.INT64, idx_dims, idx), dims)
    yield err_c("const_err_sparse_index_past_end", "sparse", 13, sparse_value=sp([1], [6], [2, 3]))
    yield err_c("const_err_sparse_index_negative", "sparse", 13, sparse_value=sp([1], [-1], [2, 3]))
    yield err_c("const_err_sparse_coord_past_dim", "sparse", 13, sparse_value=sp([1, 2], [0, 3], [2, 3]))
    yield err_c("const_err_sparse_coord_wraps", "sparse", 13, sparse_value=sp([1, 2], [2, 0], [2, 3]))
    yield err_c("const_err_sparse_huge_index", "sparse", 13, sparse_value=sp([1], [2**62], [2, 3]))
    yield err_c("const_err_sparse_repeated", "sparse", 13, sparse_value=sp([2], [1, 1], [2, 3]))
    yield err_c("const_err_sparse_descending", "sparse", 13, sparse_value=sp([2], [4, 1], [2, 3]))
    yield err_c("const_err_sparse_count_mismatch", "sparse", 13, sparse_value=sp([2], [1, 2], [2, 3], nvals=3))
    yield err_c("const_err_sparse_int32_indices", "sparse", 13, sparse_value=helper.make_sparse_tensor(
        t(TensorProto.FLOAT, [1], [1.0]), t(TensorProto.INT32, [1], [0]), [2]))


# min_, argmin_, minimum_: the twin of every single-node Max, ArgMax and Maximum case above (the
# same data, versions, attributes and refusals) with the op swapped for Min, ArgMin or Minimum
# and the expected output recomputed with numpy's minimum and argmin.

TWINS = {"Max": ("Min", np.minimum), "ArgMax": ("ArgMin", np.argmin),
         "Maximum": ("Minimum", np.minimum)}


def twin_name(name):
    n = name.replace("argmax", "argmin").replace("maximum", "minimum").replace("max", "min")
    if n == name:  # a name that does not say the op: say it
        return n.replace("err_", "err_min_", 1) if n.startswith("err_") else "min_" + n
    return n if n.startswith(("min_", "argmin_", "minimum_", "err_")) else "min_" + n


def twin(c):
    """The case's twin, or None for cases of other ops or of several nodes."""
    if len(c.nodes) != 1 or c.nodes[0].op_type not in TWINS:
        return None
    nd = c.nodes[0]
    op, fold = TWINS[nd.op_type]
    attrs = {a.name: helper.get_attribute_value(a) for a in nd.attribute}
    n2 = node(op, nd.input, nd.output, domain=nd.domain or None, **attrs)
    outs = c.outputs
    if c.error is None:
        known = {v.name: v for v in c.inputs + c.inits}
        xs = [known[i].data for i in nd.input]
        o = outs[0]
        if op == "ArgMin":
            want = argmax_ref(known[nd.input[0]].dt, xs[0], attrs.get("axis", 0),
                              attrs.get("keepdims", 1), attrs.get("select_last_index", 0), fold)
        else:
            want = max_ref(o.dt, xs, fold)
        outs = [Value(o.name, o.dt, want, o.shape, o.field)]
    return Case(twin_name(c.name), [n2], c.opsets, c.inputs, outs, c.inits, c.error)


def gen_min_mirror():
    for g in (gen_max, gen_bcast, gen_half, gen_argmax, gen_maximum, gen_opset, gen_typed,
              gen_err):
        for c in g():
            t = twin(c)
            if t is not None:
                yield t


# ---------------------------------------------------------------------------------------------
# reduce_: ReduceMax and ReduceMin, every version x dtype, the axes x keepdims grid, axes as an
# input (18+), noop_with_empty_axes, empty sets, rank 0, NaN, ties, +-0, extremes

REDUCE_TYPES = {1: FLOATS + [I32, I64, U32, U64]}
REDUCE_TYPES[11] = REDUCE_TYPES[1]
REDUCE_TYPES[12] = REDUCE_TYPES[1] + [I8, U8]
REDUCE_TYPES[13] = REDUCE_TYPES[12] + [BF16]
REDUCE_TYPES[18] = REDUCE_TYPES[13]
REDUCE_TYPES[20] = REDUCE_TYPES[13] + [BOOL]
REDUCE_OPS = {"ReduceMax": ("max", np.max), "ReduceMin": ("min", np.min)}


def reduce_start(dt, op):
    """The value of a reduction over an empty set: the lowest (ReduceMax) or highest value."""
    low = op == "ReduceMax"
    if dt is BOOL:
        return not low
    if dt.is_float:
        return -np.inf if low else np.inf
    info = np.iinfo(dt.np)
    return info.min if low else info.max


def reduce_ref(dt, op, x, axes, keepdims=1, noop=0):
    v = to_num(dt, x)
    if not axes and noop:
        return x.copy()
    ax = tuple(range(v.ndim)) if not axes else tuple(a % v.ndim for a in axes)
    r = REDUCE_OPS[op][1](v, axis=ax, keepdims=bool(keepdims), initial=reduce_start(dt, op))
    return from_num(dt, np.asarray(r))


def reduce_case(name, op, dt, x, ver=13, axes=None, keepdims=None, noop=None, axes_as="auto"):
    """axes_as: "attr" (before 18), "input" (an initializer; 18+), "none" (not given), or
    "graph" (a graph input fed at run time, which minnx refuses); "auto" by version."""
    if axes_as == "auto":
        axes_as = "none" if axes is None else ("input" if ver >= 18 else "attr")
    attrs = {k: v for k, v in (("keepdims", keepdims), ("noop_with_empty_axes", noop))
             if v is not None}
    ins, inits, node_ins = [Value("x", dt, x)], [], ["x"]
    if axes_as == "attr":
        attrs["axes"] = list(axes)
    elif axes_as in ("input", "graph"):
        a = Value("axes", I64, np.array(axes, np.int64))
        (inits if axes_as == "input" else ins).append(a)
        node_ins.append("axes")
    want = reduce_ref(dt, op, x, axes, 1 if keepdims is None else keepdims, noop or 0)
    return Case(name, [node(op, node_ins, ["y"], **attrs)], {"": ver}, ins,
                [Value("y", dt, want)], inits)


def reduce_data(dt, shape, rng):
    if dt is BOOL:
        return rng.integers(0, 2, size=shape).astype(bool)
    return ties(dt, shape, rng) if dt.is_float else rand(dt, shape, rng)


def gen_reduce():
    for op, (short, _) in REDUCE_OPS.items():
        p = f"reduce_{short}"
        # every version x dtype; the axes and keepdims rotate (negative axes from 11)
        for ver, types in REDUCE_TYPES.items():
            choices = [(1,), (0, 2), None, (2,)] if ver < 11 else [(-1,), (0, -1), None, (1,)]
            for i, dt in enumerate(types):
                axes, kd = choices[i % 4], i // 4 % 2
                name = f"{p}_v{ver}_{dt.name}_kd{kd}"
                yield reduce_case(name, op, dt, reduce_data(dt, (3, 4, 5), seeded(name)), ver,
                                  axes, kd)
        # the axes x keepdims grid, as an attribute (13) and as an input (18)
        for ver in (13, 18):
            for axes in ((0,), (1,), (2,), (-1,), (-3,), (0, 1), (0, 2), (1, 2), (2, 0),
                         (0, 1, 2), (-1, 0)):
                for kd in (0, 1):
                    tag = "_".join(axis_name(a) for a in axes)
                    name = f"{p}_v{ver}_axes_{tag}_kd{kd}"
                    yield reduce_case(name, op, F32, ties(F32, (2, 3, 4), seeded(name)), ver,
                                      axes, kd)
        yield from reduce_specials(op, p)


def reduce_specials(op, p):
    rng = seeded(p)
    x = ties(F32, (3, 4), rng)
    for ver in (1, 13, 18):  # no axes: all of them; keepdims absent: 1
        yield reduce_case(f"{p}_v{ver}_defaults", op, F32, x, ver)
    yield reduce_case(f"{p}_v18_empty_axes_input", op, F32, x, 18, (), 0)
    yield reduce_case(f"{p}_v18_noop_empty_axes", op, F32, x, 18, (), 0, noop=1)
    yield reduce_case(f"{p}_v18_noop_no_axes", op, F32, x, 18, None, noop=1)
    yield reduce_case(f"{p}_v18_noop0_no_axes", op, F32, x, 18, None, 0, noop=0)
    yield reduce_case(f"{p}_v18_noop_with_axes", op, F32, x, 18, (1,), 1, noop=1)
    # axes fed at run time as a graph input: the session plans again at each run
    yield reduce_case(f"{p}_v18_axes_graph_input", op, F32, x, 18, (1,), 0, axes_as="graph")
    yield reduce_case(f"{p}_v18_axes_graph_input_kd1", op, F32, x, 18, (0, -1), 1, axes_as="graph")
    yield reduce_case(f"{p}_v18_empty_axes_graph_input_noop", op, F32, x, 18, (), noop=1,
                      axes_as="graph")
    yield reduce_case(f"{p}_v20_noop_bool", op, BOOL, reduce_data(BOOL, (2, 3), rng), 20, (),
                      noop=1)
    # rank 0 and one element
    yield reduce_case(f"{p}_rank0", op, F64, rand(F64, (), rng))
    yield reduce_case(f"{p}_rank0_kd0", op, I32, rand(I32, (), rng), keepdims=0)
    yield reduce_case(f"{p}_v18_rank0_noop", op, F32, rand(F32, (), rng), 18, (), noop=1)
    yield reduce_case(f"{p}_one_element", op, F32, rand(F32, (1, 1, 1), rng), axes=(1,))
    # size-0 dims: a reduced one gives the empty set's value, a kept one an empty output
    for dt in (F32, F16, BF16, I8, I64, U8, U64, F64):
        yield reduce_case(f"{p}_empty_set_{dt.name}", op, dt, np.zeros((2, 0, 3), dt.np),
                          axes=(1,), keepdims=0)
    yield reduce_case(f"{p}_v20_empty_set_bool", op, BOOL, np.zeros((0, 3), bool), 20, (0,))
    yield reduce_case(f"{p}_empty_all", op, F32, np.zeros((0,), np.float32))
    yield reduce_case(f"{p}_empty_kept", op, F32, np.zeros((0, 4), np.float32), axes=(1,))
    yield reduce_case(f"{p}_empty_kept_kd0", op, I32, np.zeros((3, 0), np.int32), axes=(0,),
                      keepdims=0)
    # NaN, +-0, infinities, ties, extremes, all-negative
    nan_rows = arr(F32, [[np.nan, 1, 2, 3], [1, 2, 3, np.nan], [-np.inf, np.nan, np.inf, 0],
                         [-0.0, 0.0, -0.0, 0.0], [np.inf, -np.inf, 1, -1]])
    for dt in (F32, F64, F16, BF16):
        xs = from_num(dt, to_num(F32, nan_rows))
        for axes in ((1,), (0,), None):
            tag = "all" if axes is None else axis_name(axes[0])
            yield reduce_case(f"{p}_nan_{dt.name}_axes_{tag}", op, dt, xs, axes=axes)
    neg_nan = np.array([0xFFC00000, 0x7FC00001, 0x3F800000, 0xFF800000], np.uint32)
    yield reduce_case(f"{p}_nan_sign_payload", op, F32, neg_nan.view(np.float32).reshape(2, 2),
                      axes=(1,))
    for dt in REDUCE_TYPES[13]:
        ex = extremes(dt) if dt is not BF16 else bits(BF16, [0x7F80, 0xFF80, 0x7F7F, 0xFF7F,
                                                              0x0001, 0x8001, 0x0000, 0x8000])
        yield reduce_case(f"{p}_extremes_{dt.name}", op, dt, np.stack([ex, ex[::-1]]), axes=(1,))
        if dt.is_signed:
            yield reduce_case(f"{p}_allneg_{dt.name}", op, dt, rng.choice(neg_palette(dt), (4, 5)),
                              axes=(0,))
        else:
            yield reduce_case(f"{p}_highbit_{dt.name}", op, dt, rand(dt, (4, 5), rng, "high"),
                              axes=(1,))
    # several axes on higher ranks, long rows and columns (past the kernels' blocks)
    for shape, axes in (((2, 3, 4, 5), (1, 3)), ((2, 3, 4, 5), (0, 2)), ((2, 1, 3, 1, 2), (1, 3)),
                        ((2, 3, 1, 4, 1, 2), (0, 2, 5)), ((3, 2000), (1,)), ((700, 3), (0,)),
                        ((4, 300, 5), (1,))):
        name = f"{p}_r{len(shape)}_axes_" + "_".join(map(str, axes))
        yield reduce_case(name, op, F32, rand(F32, shape, seeded(name)), axes=axes)
    yield reduce_case(f"{p}_v20_bool_axes", op, BOOL, reduce_data(BOOL, (3, 4), rng), 20, (1,))
    yield reduce_case(f"{p}_v20_bool_all", op, BOOL, np.ones((2, 2), bool), 20)
    yield reduce_case(f"{p}_opset21", op, F32, x, 21, (0,))
    yield reduce_case(f"{p}_opset17_attr", op, F32, x, 17, (0,))


def reduce_refused(name, keyword, op, ver=13, axes=None, axes_as="auto", dt=F32, shape=(2, 3, 4),
                   **attrs):
    """A ReduceMax/ReduceMin node minnx must refuse at load; axes_as as in reduce_case."""
    if axes_as == "auto":
        axes_as = "input" if ver >= 18 else "attr"
    ins, inits, node_ins = [Value("x", dt, np.zeros(shape, dt.np))], [], ["x"]
    if axes is not None and axes_as == "attr":
        attrs["axes"] = list(axes)
    elif axes is not None:
        a = Value("axes", I64 if axes_as != "int32" else I32,
                  np.array(axes, np.int64 if axes_as != "int32" else np.int32))
        (ins if axes_as == "graph" else inits).append(a)
        node_ins.append("axes")
    return refused(name, "load", keyword, [node(op, node_ins, ["y"], **attrs)], {"": ver}, ins,
                   dt), inits


def gen_reduce_err():
    for op, (short, _) in REDUCE_OPS.items():
        e = f"err_reduce_{short}"
        for args in ((f"{e}_axis_pos", "axis", 13, (3,)),
                     (f"{e}_axis_neg", "axis", 13, (-4,)),
                     (f"{e}_v1_neg_axis", "axis", 1, (-1,)),
                     (f"{e}_repeated_axis", "axis", 13, (1, 1)),
                     (f"{e}_repeated_axis_neg", "axis", 13, (2, -1)),
                     (f"{e}_v18_axis_pos", "axis", 18, (3,)),
                     (f"{e}_v18_repeated_axis", "axis", 18, (0, -3)),
                     (f"{e}_v18_axes_attribute", "attribute", 18, (1,), "attr"),
                     (f"{e}_v13_axes_input", "inputs", 13, (1,), "input"),
                     (f"{e}_v18_axes_int32", "dtype", 18, (1,), "int32"),
                     (f"{e}_v18_axes_rank2", "shape", 18, [[0], [1]]),
                     (f"{e}_v13_noop_attribute", "attribute", 13, None, "auto", F32, (2, 3, 4),
                      {"noop_with_empty_axes": 1}),
                     (f"{e}_keepdims_2", "attribute", 13, None, "auto", F32, (2, 3, 4),
                      {"keepdims": 2}),
                     (f"{e}_v18_noop_2", "attribute", 18, None, "auto", F32, (2, 3, 4),
                      {"noop_with_empty_axes": 2}),
                     (f"{e}_v18_bool", "dtype", 18, None, "auto", BOOL),
                     (f"{e}_v11_int8", "dtype", 11, None, "auto", I8),
                     (f"{e}_v12_bfloat16", "dtype", 12, None, "auto", BF16),
                     (f"{e}_int16", "dtype", 13, None, "auto", I16),
                     (f"{e}_rank0_axis", "axis", 13, (0,), "auto", F32, ())):
            name, keyword, ver, axes = args[:4]
            rest = list(args[4:]) + ["auto", F32, (2, 3, 4), {}][len(args) - 4:]
            c, inits = reduce_refused(name, keyword, op, ver, axes, rest[0], rest[1], rest[2],
                                      **rest[3])
            c.inits = inits
            yield c
        # axes computed by a node (ArgMax's int64 output): unknown at load, refused there
        name = f"{e}_v18_axes_computed"
        ins = [Value("x", F32, np.zeros((2, 3), np.float32)), Value("s", F32, np.zeros((1,), np.float32))]
        yield refused(name, "load", "constant",
                      [node("ArgMax", ["s"], ["axes"]), node(op, ["x", "axes"], ["y"])], {"": 18}, ins)


# ---------------------------------------------------------------------------------------------
# shape_, slice_, concat_: shape arithmetic as exporters write it (Shape -> Slice -> Concat ->
# Reshape). Every version x every dtype it allows x each rule; numpy gives every answer: a shape
# is list(x.shape)[start:end], a slice is python's x[start:end:step] (whose clamping is ONNX's),
# a concatenation np.concatenate.

PREFIXES += ("shape_", "slice_", "concat_")
ERROR_KEYWORDS += ("step", "rank")
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
SHAPE_TYPES = {1: NO_BF16, 13: ALL, 15: ALL, 19: ALL, 21: ALL}  # 19, 21: types minnx lacks
SLICE_TYPES = {1: NO_BF16, 10: NO_BF16, 11: NO_BF16, 13: ALL}
CONCAT_TYPES = {1: FLOATS, 4: NO_BF16, 11: NO_BF16, 13: ALL}


def shape_case(name, opset, x, dt=F32, declared=SAME, **attrs):
    want = i64(list(x.shape)[attrs.get("start", 0):attrs.get("end", len(x.shape))])
    return Case(name, [node("Shape", ["x"], ["y"], **attrs)], {"": opset}, [Value("x", dt, x, shape=declared)],
                [Value("y", I64, want)])


def slice_ref(x, starts, ends, axes=None, steps=None):
    idx = [slice(None)] * x.ndim
    for i, s in enumerate(starts):
        a = axes[i] if axes is not None else i
        idx[a] = slice(s, ends[i], steps[i] if steps is not None else 1)
    return x[tuple(idx)]


def slice_case(name, opset, x, starts, ends, axes=None, steps=None, dt=F32, tind=I64, how="init"):
    """how: init (the lists are initializers), input (graph inputs, bound at run), attr (v1)."""
    want = slice_ref(x, starts, ends, axes, steps)
    if how == "attr":
        attrs = {"starts": starts, "ends": ends}
        if axes is not None:
            attrs["axes"] = axes
        return Case(name, [node("Slice", ["x"], ["y"], **attrs)], {"": opset}, [Value("x", dt, x)],
                    [Value("y", dt, want)])
    lists = [("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)]
    vals = [Value(n, tind, np.array(v, tind.np)) if v is not None else None for n, v in lists]
    while vals[-1] is None:
        vals.pop()
    names = ["x"] + [v.name if v else "" for v in vals]
    given = [v for v in vals if v]
    ins = [Value("x", dt, x)] + (given if how == "input" else [])
    return Case(name, [node("Slice", names, ["y"])], {"": opset}, ins, [Value("y", dt, want)],
                given if how == "init" else [])


def concat_case(name, opset, xs, axis, dt=F32):
    attrs = {} if axis is None else {"axis": axis}
    ins = inputs_for(dt, xs)
    return Case(name, [node("Concat", [v.name for v in ins], ["y"], **attrs)], {"": opset}, ins,
                [Value("y", dt, np.concatenate(xs, axis=1 if axis is None else axis))])


def gen_shape_ops():
    # Shape: every version x dtype; start/end from 15; rank 0, empty, symbolic dims (runs).
    for ver, types in SHAPE_TYPES.items():
        for dt in types:
            name = f"shape_v{ver}_{dt.name}"
            yield shape_case(name, ver, any_values(dt, (2, 3, 4), seeded(name)), dt)
    x = rand(F32, (2, 3, 4, 5), seeded("shape_ranges"))
    for start in (None, 0, 1, -1, -3, -9, 9, INT64_MIN, INT64_MAX):
        for end in (None, 0, 2, -1, -9, 9, INT64_MIN, INT64_MAX):
            attrs = {k: v for k, v in (("start", start), ("end", end)) if v is not None}
            label = "_".join(f"{k}_{'m' if v < 0 else ''}{abs(v) if abs(v) < 100 else 'big'}" for k, v in attrs.items())
            for ver in (15, 21):
                yield shape_case(f"shape_v{ver}_{label or 'all'}", ver, x, **attrs)
    rng = seeded("shape_shapes")
    yield shape_case("shape_scalar", 13, rand(F32, (), rng))
    yield shape_case("shape_empty", 13, rand(F32, (0, 3), rng))
    yield shape_case("shape_symbolic_runs", 15, rand(F32, (2, 5, 3), rng), declared=["N", 5, "C"], start=1)
    # the chain exporters write for flatten(x): folded at load into Reshape's shape
    for opset in (11, 13, 17, 21):
        name = f"shape_chain_flatten_opset{opset}"
        x = rand(F32, (2, 3, 4), seeded(name))
        lists = [Value("s0", I64, i64([0])), Value("e0", I64, i64([0])), Value("a0", I64, i64([0])),
                 Value("m1", I64, i64([-1]))]
        nodes = [node("Shape", ["x"], ["sh"]), node("Slice", ["sh", "s0", "e0", "a0"], ["sl"]),
                 node("Concat", ["sl", "m1"], ["shp"], axis=0), node("Reshape", ["x", "shp"], ["y"])]
        yield Case(name, nodes, {"": opset}, [Value("x", F32, x)], [Value("y", F32, x.reshape(-1))], lists)
        name = f"shape_chain_view_batch_opset{opset}"
        nodes = [node("Shape", ["x"], ["sh"]), node("Slice", ["sh", "s0", "e1", "a0"], ["sl"]),
                 node("Concat", ["sl", "m1"], ["shp"], axis=0), node("Reshape", ["x", "shp"], ["y"])]
        yield Case(name, nodes, {"": opset}, [Value("x", F32, x)], [Value("y", F32, x.reshape(2, -1))],
                   lists + [Value("e1", I64, i64([1]))])

    # Slice: every version x dtype (lists as attributes in 1, initializers after)...
    for ver, types in SLICE_TYPES.items():
        for dt in types:
            name = f"slice_v{ver}_{dt.name}"
            x = any_values(dt, (4, 6), seeded(name))
            if ver == 1:
                yield slice_case(name, 1, x, [1, 0], [3, 5], [0, 1], dt=dt, how="attr")
            else:
                yield slice_case(name, ver, x, [1, 5], [3, 0], [0, 1], [1, -2], dt=dt)
    # ... the rules: negative indices and steps, clamping, empty slices, defaults, int32 lists
    x = rand(F32, (5, 7), seeded("slice_rules"))
    rules = [
        ("basic", [1, 2], [4, 6], None, None), ("default_axes_steps", [0, 1], [3, 7], None, None),
        ("axis_1_only", [2], [5], [1], None), ("negative_indices", [-4, -3], [-1, -1], None, None),
        ("step_2", [0], [7], [1], [2]), ("step_3_offset", [1], [7], [1], [3]),
        ("negative_step", [4], [0], [0], [-1]), ("negative_step_to_start", [-1], [INT64_MIN], [1], [-1]),
        ("negative_step_2", [6], [INT64_MIN], [1], [-2]), ("negative_steps_both", [-1, -1], [INT64_MIN, INT64_MIN], [0, 1], [-1, -3]),
        ("end_past", [1], [INT64_MAX], [0], None), ("start_past", [9], [INT64_MAX], [1], None),
        ("start_below", [-100], [3], [0], None), ("start_int64_min", [INT64_MIN], [2], [1], None),
        ("empty_start_eq_end", [2], [2], [0], None), ("empty_start_after_end", [4], [1], [0], None),
        ("empty_negative_step_wrong_way", [1], [4], [0], [-1]), ("negative_step_start_past", [100], [-100], [0], [-2]),
        ("step_int64_max", [0], [7], [1], [INT64_MAX]), ("step_int64_min", [6], [INT64_MIN], [1], [INT64_MIN]),
        ("axes_reordered", [1, 0], [7, 3], [1, 0], [2, 1]), ("end_minus_one", [0], [-1], [1], None),
    ]
    for label, s, e, a, st in rules:
        yield slice_case(f"slice_{label}", 13, x, s, e, a, st)
    for label, s, e, a, st in (("negative_axes", [1, -6], [3, 7], [-2, -1], [1, 2]),
                               ("negative_axis_step", [-1], [INT64_MIN], [-1], [-1])):
        yield slice_case(f"slice_v11_{label}", 11, x, s, e, a, st)
        yield slice_case(f"slice_v13_{label}", 13, x, s, e, a, st)
    yield slice_case("slice_v10_negative_step", 10, x, [3], [0], [0], [-1])
    yield slice_case("slice_v1_negative_indices", 1, x, [-3, -100], [-1, 100], [0, 1], how="attr")
    yield slice_case("slice_v1_default_axes", 1, x, [1], [4], how="attr")
    yield slice_case("slice_int32_lists", 13, x, [1, -1], [2 ** 31 - 1, -(2 ** 31)], [0, 1], [2, -2], tind=I32)
    yield slice_case("slice_inputs_bound_at_run", 13, x, [1, -1], [4, 0], [0, 1], [1, -1], how="input")
    yield slice_case("slice_inputs_bound_at_run_defaults", 13, x, [0], [INT64_MAX], None, None, how="input")
    rng = seeded("slice_shapes")
    x3 = rand(F32, (3, 4, 5), rng)
    yield slice_case("slice_rank3_middle", 13, x3, [1, 3], [3, 0], [1, 2], [1, -2])
    yield slice_case("slice_rank3_all_axes", 13, x3, [2, -1, 0], [INT64_MIN, INT64_MIN, 5], [0, 1, 2], [-1, -2, 2])
    yield slice_case("slice_empty_input", 13, rand(F32, (0, 4), rng), [0], [2], [1])
    yield slice_case("slice_empty_input_negative_step", 13, rand(F32, (3, 0), rng), [-1], [INT64_MIN], [1], [-1])
    yield slice_case("slice_rank1_bool", 13, np.array([True, False, True, True, False]), [4], [INT64_MIN], None, [-2],
                     dt=BOOL)
    # a slice of an initializer: folded at load, then used by a node that runs
    w = rand(F32, (4, 6), seeded("slice_of_initializer"))
    xi = rand(F32, (2, 3), seeded("slice_of_initializer_x"))
    yield Case("slice_of_initializer_folded",
               [node("Slice", ["w", "s", "e", "a", "t"], ["ws"]), node("Max", ["x", "ws"], ["y"])], {"": 13},
               [Value("x", F32, xi)], [Value("y", F32, np.maximum(xi, w[3:0:-2, ::2]))],
               [Value("w", F32, w), Value("s", I64, i64([3, 0])), Value("e", I64, i64([0, 6])),
                Value("a", I64, i64([0, 1])), Value("t", I64, i64([-2, 2]))])

    # Concat: every version x dtype; the axis grid over ranks 1..4; empty inputs; many inputs.
    for ver, types in CONCAT_TYPES.items():
        for dt in types:
            name = f"concat_v{ver}_{dt.name}"
            rng = seeded(name)
            xs = [any_values(dt, (2, k, 3), rng) for k in (1, 2, 3)]
            yield concat_case(name, ver, xs, 1, dt=dt)
    rng = seeded("concat_v1_default_axis")
    yield concat_case("concat_v1_default_axis", 1, [rand(F32, (2, k), rng) for k in (1, 3)], None)
    for rank in (1, 2, 3, 4):
        for axis in range(-rank, rank):
            name = f"concat_rank{rank}_axis_{axis_name(axis)}"
            rng = seeded(name)
            xs = []
            for k in (2, 1, 3):
                shape = [2, 3, 2, 2][:rank]
                shape[axis] = k
                xs.append(rand(F32, tuple(shape), rng))
            yield concat_case(name, 13 if axis < 0 else 4, xs, axis)
    rng = seeded("concat_shapes")
    yield concat_case("concat_one_input", 13, [rand(F32, (2, 3), rng)], 0)
    yield concat_case("concat_empty_inputs", 13, [rand(F32, (2, 0), rng), rand(F32, (2, 3), rng), rand(F32, (2, 0), rng)], 1)
    yield concat_case("concat_all_empty", 13, [rand(F32, (0, 3), rng), rand(F32, (0, 3), rng)], 0)
    yield concat_case("concat_twelve_inputs", 13, [rand(F32, (1, 2), rng) for _ in range(12)], 0)
    yield concat_case("concat_bool", 13, [np.array([[True], [False]]), np.array([[False, True], [True, True]])], 1, dt=BOOL)
    c1, c2 = i64([1, 2]), i64([3])
    xi = rand(I64, (3,), seeded("concat_of_initializers"))
    yield Case("concat_of_initializers_folded", [node("Concat", ["c1", "c2"], ["c"], axis=0),
                                                  node("Max", ["x", "c"], ["y"])], {"": 13},
               [Value("x", I64, xi)], [Value("y", I64, np.maximum(xi, np.concatenate([c1, c2])))],
               [Value("c1", I64, c1), Value("c2", I64, c2)])
    # Slices, Splits and Gathers of initializers fold at load; where the result is one run of the
    # initializer's bytes it points into them (no copy), else it is copied: each form, then added to
    # a graph input so that a kernel reads the folded bytes.
    def folded(name, opset, op, w, wants, lists=(), attrs=None, dt=F32):
        rng = seeded(name)
        outs = [f"f{k}" for k in range(len(wants))]
        xs = [rand(dt, want.shape, rng) for want in wants]
        nodes = [node(op, ["w"] + [v.name for v in lists], outs, **(attrs or {}))]
        nodes += [node("Add", [f"x{k}", outs[k]], [f"y{k}"]) for k in range(len(wants))]
        return Case(name, nodes, {"": opset}, [Value(f"x{k}", dt, x) for k, x in enumerate(xs)],
                    [Value(f"y{k}", dt, x + want) for k, (x, want) in enumerate(zip(xs, wants))],
                    [Value("w", dt, w)] + list(lists))
    L = lambda n, *v: Value(n, I64, i64(list(v)))
    w = rand(F32, (5, 4, 3), seeded("slice_fold_w"))
    for label, s_, e_, a_, t_ in (("run_axis0", [1], [3], [0], [1]), ("run_inner", [2, 1], [3, 3], [0, 1], [1, 1]),
                                  ("run_last", [4, 3, 1], [5, 4, 3], [0, 1, 2], [1, 1, 1]),
                                  ("run_count1_steps", [3, -1], [0, 0], [0, 1], [-5, -7]),
                                  ("copy_axis1", [1], [3], [1], [1]), ("copy_reversed", [4], [INT64_MIN], [0], [-1]),
                                  ("copy_step2_last", [0], [3], [2], [2])):
        yield folded(f"slice_fold_{label}", 13, "Slice", w, [slice_ref(w, s_, e_, a_, t_)],
                     [L("s", *s_), L("e", *e_), L("a", *a_), L("t", *t_)])
    yield folded("slice_fold_run_v1", 1, "Slice", w, [w[2:4]], attrs={"starts": [2], "ends": [4]})
    w = rand(F32, (6, 3), seeded("split_fold_w"))
    yield folded("split_fold_runs_axis0", 13, "Split", w, [w[:1], w[1:3], w[3:]], [L("p", 1, 2, 3)])
    yield folded("split_fold_runs_empty_part", 13, "Split", w, [w[:4], w[4:4], w[4:]], [L("p", 4, 0, 2)])
    yield folded("split_fold_runs_v2_equal", 2, "Split", w, [w[:3], w[3:]])
    yield folded("split_fold_copies_axis1", 13, "Split", w, [w[:, :1], w[:, 1:]], [L("p", 1, 2)], {"axis": 1})
    w3 = rand(F32, (1, 6, 2), seeded("split_fold_w3"))
    yield folded("split_fold_runs_after_unit_dim", 18, "Split", w3, [w3[:, :2], w3[:, 2:4], w3[:, 4:]],
                 attrs={"axis": 1, "num_outputs": 3})
    w = rand(F32, (4, 3, 2), seeded("gather_fold_w"))
    yield folded("gather_fold_run_scalar_index", 13, "Gather", w, [w[3]], [Value("i", I64, np.array(-1, np.int64))])
    yield folded("gather_fold_run_one_index", 13, "Gather", w, [w[[2]]], [Value("i", I32, np.array([2], np.int32))])
    yield folded("gather_fold_run_after_unit_dim", 13, "Gather", w[None], [w[None][:, 1]],
                 [Value("i", I64, np.array(1, np.int64))], {"axis": 1})
    yield folded("gather_fold_copies_two_indices", 13, "Gather", w, [w[[3, 0]]], [Value("i", I64, i64([3, 0]))])
    yield folded("gather_fold_copies_axis1", 11, "Gather", w, [w[:, 2]], [Value("i", I64, np.array(2, np.int64))],
                 {"axis": 1})
    # Concats of constants folded at load: a later one of the same inputs (pointers, dims, axis) shares
    # the earlier one's bytes; the same inputs in another order or along another axis do not.
    rng = seeded("concat_fold_shared")
    a, b = rand(F32, (16, 16), rng), rand(F32, (16, 16), rng)
    forms = [(["a", "b"], 0), (["a", "b"], 0), (["b", "a"], 0), (["a", "b"], 1), (["a", "b", "a"], 0)]
    vals = {"a": a, "b": b}
    wants = [np.concatenate([vals[n] for n in ins], axis=ax) for ins, ax in forms]
    xs = [rand(F32, want.shape, rng) for want in wants]
    nodes = [node("Concat", ins, [f"c{k}"], axis=ax) for k, (ins, ax) in enumerate(forms)]
    nodes += [node("Add", [f"x{k}", f"c{k}"], [f"y{k}"]) for k in range(len(forms))]
    yield Case("concat_fold_shared", nodes, {"": 13}, [Value(f"x{k}", F32, x) for k, x in enumerate(xs)],
               [Value(f"y{k}", F32, x + want) for k, (x, want) in enumerate(zip(xs, wants))],
               [Value("a", F32, a), Value("b", F32, b)])
    # the two branches of an If cut the same outer weight into the same two pieces and swap them
    w = rand(F32, (8, 64), seeded("concat_fold_shared_if_w"))
    x = rand(F32, (8, 64), seeded("concat_fold_shared_if_x"))
    def branch(k):
        cut = [node("Slice", ["w", s_, e_, "ax"], [f"g{k}{j}"]) for j, (s_, e_) in enumerate((("s0", "e0"), ("e0", "e1")))]
        return helper.make_graph(cut + [node("Concat", [f"g{k}1", f"g{k}0"], [f"c{k}"], axis=0)], f"branch{k}", [],
                                 [helper.make_tensor_value_info(f"c{k}", TensorProto.FLOAT, [8, 64])])
    swapped = np.concatenate([w[4:], w[:4]])
    for cond in (True, False):
        yield Case(f"concat_fold_shared_if_{'then' if cond else 'else'}",
                   [node("If", ["cond"], ["c"], then_branch=branch(0), else_branch=branch(1)), node("Add", ["x", "c"], ["y"])],
                   {"": 13}, [Value("cond", BOOL, np.array(cond)), Value("x", F32, x)], [Value("y", F32, x + swapped)],
                   [Value("w", F32, w), Value("s0", I64, i64([0])), Value("e0", I64, i64([4])), Value("e1", I64, i64([8])),
                    Value("ax", I64, i64([0]))])


def err_shape_ops():
    def err(name, keyword, op, opset, xs, attrs=None, inits=(), stage="load", names=None, dt=F32):
        ins = [Value(f"x{i}", dt, x) for i, x in enumerate(xs)]
        nm = names or [v.name for v in ins] + [v.name for v in inits]
        return Case(name, [node(op, nm, ["y"], **(attrs or {}))], {"": opset}, ins,
                    [Value("y", I64 if op == "Shape" else dt, None, shape=None)], list(inits), error=(stage, keyword))

    x = rand(F32, (4, 6), seeded("slice_err"))
    L = lambda n, *v: Value(n, I64, i64(list(v)))
    se = [L("s", 0), L("e", 2)]
    yield err("shape_err_v13_start", "attribute", "Shape", 13, [x], {"start": 1})
    yield err("shape_err_v1_bfloat16", "dtype", "Shape", 1, [from_num(BF16, x)], dt=BF16)
    yield err("shape_err_two_inputs", "inputs", "Shape", 15, [x, x])
    yield err("slice_err_step_zero", "step", "Slice", 13, [x], inits=se + [L("a", 1), L("t", 0)])
    yield err("slice_err_axis_twice", "twice", "Slice", 13, [x], inits=[L("s", 0, 1), L("e", 2, 3), L("a", 1, 1)])
    yield err("slice_err_axis_out_of_range", "axis", "Slice", 13, [x], inits=se + [L("a", 2)])
    yield err("slice_err_axis_below_range", "axis", "Slice", 13, [x], inits=se + [L("a", -3)])
    yield err("slice_err_v10_negative_axis", "axis", "Slice", 10, [x], inits=se + [L("a", -1)])
    yield err("slice_err_v1_negative_axis", "axis", "Slice", 1, [x], {"starts": [0], "ends": [2], "axes": [-1]})
    yield err("slice_err_too_many_starts", "axis", "Slice", 13, [x], inits=[L("s", 0, 0, 0), L("e", 1, 1, 1)])
    yield err("slice_err_lengths_differ", "axes", "Slice", 13, [x], inits=[L("s", 0, 0), L("e", 1)])
    yield err("slice_err_axes_length", "axes", "Slice", 13, [x], inits=se + [L("a", 0, 1)])
    yield err("slice_err_starts_rank2", "shape", "Slice", 13, [x], inits=[Value("s", I64, i64([[0]])), L("e", 1)])
    yield err("slice_err_starts_float", "dtype", "Slice", 13, [x],
              inits=[Value("s", F32, np.zeros(1, np.float32)), Value("e", F32, np.ones(1, np.float32))])
    yield err("slice_err_starts_int32_ends_int64", "dtype", "Slice", 13, [x],
              inits=[Value("s", I32, np.zeros(1, np.int32)), L("e", 1)])
    yield err("slice_err_v1_steps_attribute", "attribute", "Slice", 1, [x], {"starts": [0], "ends": [2], "steps": [1]})
    yield err("slice_err_v1_no_ends", "attribute", "Slice", 1, [x], {"starts": [0]})
    yield err("slice_err_v10_one_input", "inputs", "Slice", 10, [x])
    yield err("slice_err_v11_bfloat16", "dtype", "Slice", 11, [from_num(BF16, x)], inits=se, dt=BF16)
    # a list computed by a node: refused at load, naming the node
    yield Case("slice_err_computed_starts", [node("Max", ["s1", "s2"], ["s"]), node("Slice", ["x", "s", "e"], ["y"])],
               {"": 13}, [Value("x", F32, x)], [Value("y", F32, None, shape=None)],
               [L("s1", 0), L("s2", 1), L("e", 2)], error=("load", "constant"))
    # a reshape to its own Shape over a symbolic batch dim: the shape is computed when x is bound
    # (gen_bindshape.py has the exporters' chains)
    yield Case("shape_chain_symbolic_at_bind", [node("Shape", ["x"], ["sh"]), node("Reshape", ["x", "sh"], ["y"])],
               {"": 13}, [Value("x", F32, x, shape=["N", 6])], [Value("y", F32, x, shape=["N", 6])], [])
    xs = [rand(F32, (2, 3), seeded("concat_err")), rand(F32, (2, 4), seeded("concat_err_b"))]
    yield err("concat_err_dim_differs", "shape", "Concat", 13, xs, {"axis": 0})
    yield err("concat_err_rank_differs", "rank", "Concat", 13, [xs[0], np.zeros(3, np.float32)], {"axis": 0})
    yield err("concat_err_axis_out_of_range", "axis", "Concat", 13, xs, {"axis": 2})
    yield err("concat_err_axis_below_range", "axis", "Concat", 13, xs, {"axis": -3})
    yield err("concat_err_v4_negative_axis", "axis", "Concat", 4, xs, {"axis": -1})
    yield err("concat_err_v4_no_axis", "attribute", "Concat", 4, xs)
    yield err("concat_err_scalar", "axis", "Concat", 13, [np.float32(1), np.float32(2)], {"axis": 0})
    yield err("concat_err_v1_int32", "dtype", "Concat", 1, [np.zeros((2, 3), np.int32)] * 2, {"axis": 1}, dt=I32)
    yield err("concat_err_v11_bfloat16", "dtype", "Concat", 11, [from_num(BF16, xs[0])] * 2, {"axis": 0}, dt=BF16)
    yield err("concat_err_no_inputs", "inputs", "Concat", 13, [], {"axis": 0})
    yield Case("concat_err_mixed_dtypes", [node("Concat", ["x0", "x1"], ["y"], axis=0)], {"": 13},
               [Value("x0", F32, xs[0]), Value("x1", I64, np.zeros((2, 3), np.int64))],
               [Value("y", F32, None, shape=None)], error=("load", "dtype"))
    # step 0 arriving in a graph input: refused when it is bound, at run
    yield Case("slice_err_step_zero_bound_at_run", [node("Slice", ["x", "s", "e", "a", "t"], ["y"])], {"": 13},
               [Value("x", F32, x), L("s", 0), L("e", 2), L("a", 1), L("t", 0)], [Value("y", F32, None, shape=None)],
               error=("run", "step"))


def gen_shape_ops_all():
    yield from gen_shape_ops()
    yield from err_shape_ops()


# ---------------------------------------------------------------------------------------------
# writing

def typed_list(dt, a):
    flat = a.ravel()
    if dt is F16:
        return flat.view(np.uint16).tolist()  # the bit pattern
    if dt.field in ("float_data", "double_data"):
        return flat.tolist()
    return [int(v) for v in flat]  # sign-extended for int8/int16, bits for bfloat16


def tensor_proto(v):
    t = TensorProto()
    t.name = v.name
    t.data_type = v.dt.onnx
    t.dims.extend(v.data.shape)
    a = np.ascontiguousarray(v.data, dtype=v.dt.np)
    if v.field == "raw":
        t.raw_data = a.astype(a.dtype.newbyteorder("<")).tobytes()
    else:
        getattr(t, v.dt.field).extend(typed_list(v.dt, a))
    return t


def value_info(v):
    return helper.make_tensor_value_info(v.name, v.dt.onnx, v.declared_shape())


def build_model(c):
    graph = helper.make_graph(c.nodes, c.name, [value_info(v) for v in c.inputs],
                              [value_info(v) for v in c.outputs],
                              initializer=[tensor_proto(v) for v in c.inits])
    opsets = [helper.make_opsetid(d, ver) for d, ver in sorted(c.opsets.items())]
    return helper.make_model(graph, producer_name=PRODUCER, ir_version=IR_VERSION,
                             opset_imports=opsets)


def write(path, data):
    with open(path, "wb") as fh:
        fh.write(data)


# One NaN per dtype in expected outputs: a reference's NaN sign and payload follow whichever of
# numpy's code paths ran (its SIMD and scalar loops pick different operands' NaNs), and `minnx test`
# matches any NaN with any NaN, so the files name none in particular.
NAN_BITS = {"float16": (np.uint16, 0x7C00, 0x7E00), "bfloat16": (np.uint16, 0x7F80, 0x7FC0),
            "float32": (np.uint32, 0x7F800000, 0x7FC00000),
            "float64": (np.uint64, 0x7FF0000000000000, 0x7FF8000000000000)}


def canonical_nan(v):
    """The value with every NaN replaced by its dtype's positive quiet NaN."""
    if v.dt.name not in NAN_BITS:
        return v
    word, inf, quiet = NAN_BITS[v.dt.name]
    bits = np.array(v.data, dtype=v.dt.np).view(word)
    sign = word(1) << word(8 * np.dtype(word).itemsize - 1)
    nan = (bits & ~sign) > word(inf)
    if not nan.any():
        return v
    return dataclasses.replace(v, data=np.where(nan, word(quiet), bits).astype(word).view(v.dt.np))


def write_case(root, c):
    d = os.path.join(root, c.name)
    os.makedirs(d)
    write(os.path.join(d, "model.onnx"), build_model(c).SerializeToString(deterministic=True))
    files = [(f"input_{i}.pb", v) for i, v in enumerate(c.inputs)]
    if c.error is None:
        files += [(f"output_{i}.pb", canonical_nan(v)) for i, v in enumerate(c.outputs)]
    else:
        write(os.path.join(d, "expect_error"), ("%s\n%s\n" % c.error).encode())
    if files:
        os.makedirs(os.path.join(d, "test_data_set_0"))
    for fname, v in files:
        write(os.path.join(d, "test_data_set_0", fname),
              tensor_proto(v).SerializeToString(deterministic=True))
    for k, (xs, ys) in enumerate(c.more, 1):  # the same model at other input shapes
        os.makedirs(os.path.join(d, f"test_data_set_{k}"))
        more = [(f"input_{i}.pb", dataclasses.replace(v, data=x)) for i, (v, x) in enumerate(zip(c.inputs, xs))]
        more += [(f"output_{i}.pb", canonical_nan(dataclasses.replace(v, data=y))) for i, (v, y) in enumerate(zip(c.outputs, ys))]
        for fname, v in more:
            write(os.path.join(d, f"test_data_set_{k}", fname), tensor_proto(v).SerializeToString(deterministic=True))


# ---------------------------------------------------------------------------------------------
# clip_: Clip 1, 6 (bounds as float attributes), 11, 12, 13 (bounds as optional scalar inputs).
# The reference is numpy's minimum(maximum(x, lo), hi), the spec's own formula
# (Min(max, Max(input, min))), which propagates NaN from x and from a bound; numpy's clip keeps
# NaN from x but ignores a NaN bound, where minnx follows torch.clamp (README).

CLIP_TYPES = {1: FLOATS, 6: FLOATS, 11: FLOATS, 12: FLOATS + INTS, 13: NUMERIC}
FLT_MAX = float(np.finfo(np.float32).max)


def clip_ref(dt, x, lo, hi):
    """lo, hi: storage-form scalars or None (no bound)."""
    v = to_num(dt, x)
    if lo is not None:
        v = np.maximum(v, to_num(dt, lo))
    if hi is not None:
        v = np.minimum(v, to_num(dt, hi))
    return from_num(dt, v)


def attr_bound(dt, f):
    """A float attribute bound of Clip-1/6 as the input's dtype (float32 first, as stored); beyond
    float16's range it rounds to an infinity."""
    with np.errstate(over="ignore"):
        return np.asarray(np.float32(f)).astype(dt.np)


def clip_case(name, dt, x, ver=13, lo=None, hi=None, bounds_as="auto", names=None):
    """bounds_as: "attr" (1, 6: float attributes; lo/hi python floats, absent: the attribute's
    default -+3.402823e+38), "input" (graph inputs fed at run time), "init" (initializers),
    "const" (Constant nodes); "auto": attr before 11, else input. names: the node's input list
    to use instead (omitted bounds as "")."""
    if bounds_as == "auto":
        bounds_as = "attr" if ver < 11 else "input"
    ins, inits, nodes = [Value("x", dt, x)], [], []
    if bounds_as == "attr":
        attrs = {k: float(v) for k, v in (("min", lo), ("max", hi)) if v is not None}
        want = clip_ref(dt, x, attr_bound(dt, -FLT_MAX if lo is None else lo),
                        attr_bound(dt, FLT_MAX if hi is None else hi))
        nodes.append(node("Clip", ["x"], ["y"], **attrs))
        return Case(name, nodes, {"": ver}, ins, [Value("y", dt, want)])
    node_ins = ["x", "", ""]
    for k, (nm, b) in enumerate((("lo", lo), ("hi", hi))):
        if b is None:
            continue
        v = Value(nm, dt, np.asarray(b, dt.np))
        node_ins[k + 1] = nm
        if bounds_as == "input":
            ins.append(v)
        elif bounds_as == "init":
            inits.append(v)
        else:
            nodes.append(helper.make_node("Constant", [], [nm], name=f"const_{nm}",
                                          value=tensor_proto(v)))
    while node_ins[-1] == "":
        node_ins.pop()
    nodes.append(node("Clip", names or node_ins, ["y"]))
    return Case(name, nodes, {"": ver}, ins, [Value("y", dt, clip_ref(dt, x, lo, hi))], inits)


def quantiles(dt, x, qs=(0.25, 0.75)):
    """Bounds that cut the data: values of x (so exact in every dtype)."""
    flat = np.sort(to_num(dt, x).ravel())
    return [from_num(dt, flat[int(q * (flat.size - 1))]) for q in qs]


def gen_clip():
    # every version x dtype, both bounds cutting the data
    for ver, types in CLIP_TYPES.items():
        for dt in types:
            name = f"clip_v{ver}_{dt.name}"
            x = rand(dt, (3, 4, 5), seeded(name))
            lo, hi = quantiles(dt, x)
            if ver < 11:
                lo, hi = float(np.float32(to_num(dt, lo))), float(np.float32(to_num(dt, hi)))
            yield clip_case(name, dt, x, ver, lo, hi)
            # one bound only, then none
            lo_only = clip_case(f"{name}_min_only", dt, x, ver, lo=lo)
            hi_only = clip_case(f"{name}_max_only", dt, x, ver, hi=hi)
            yield lo_only
            yield hi_only
            yield clip_case(f"{name}_no_bounds", dt, x, ver)
    yield from clip_specials()
    yield from clip_err()


def clip_specials():
    # omitted inputs spelled "" (min omitted, max given; both "")
    rng = seeded("clip_omitted")
    x = rand(F32, (4, 5), rng)
    yield clip_case("clip_v13_min_empty_name", F32, x, 13, None, np.float32(10.5))
    yield clip_case("clip_v13_both_empty_names", F32, x, 13, names=["x", "", ""])
    yield clip_case("clip_v11_max_empty_name", F32, x, 11, np.float32(-3.0), None,
                    names=["x", "lo", ""])
    # bounds as initializers and as Constant nodes (what exporters write)
    for how in ("init", "const"):
        yield clip_case(f"clip_v13_bounds_{how}", F32, x, 13, np.float32(-100.0),
                        np.float32(250.0), how)
        yield clip_case(f"clip_v12_int32_bounds_{how}", I32, rand(I32, (6,), rng), 12,
                        np.int32(-5), np.int32(1 << 20), how)
        yield clip_case(f"clip_v13_min_only_{how}", F32, x, 13, np.float32(0.0), None, how)
    # NaN in x stays NaN; a NaN bound makes every element NaN (torch.clamp, the spec's formula)
    nan_x = {dt: arr(dt, [np.nan, -np.inf, -2.0, -0.0, 0.0, 1.5, 3.0, np.inf, np.nan])
             for dt in FLOATS + [BF16]}
    for dt, x in nan_x.items():
        yield clip_case(f"clip_nan_x_{dt.name}", dt, x, 13, arr(dt, -1.0), arr(dt, 2.0))
        yield clip_case(f"clip_nan_min_{dt.name}", dt, x, 13, arr(dt, np.nan), arr(dt, 2.0))
        yield clip_case(f"clip_nan_max_{dt.name}", dt, x, 13, None, arr(dt, np.nan))
    for dt in FLOATS:
        yield clip_case(f"clip_v6_nan_x_{dt.name}", dt, nan_x[dt], 6, -1.0, 2.0)
        yield clip_case(f"clip_v6_nan_min_{dt.name}", dt, nan_x[dt], 6, float("nan"), 2.0)
    for p, b in ((0x7E00, "f16_nan_payload"), (0xFC01, "f16_neg_snan")):
        yield clip_case(f"clip_{b}_bound", F16, nan_x[F16], 13, bits(F16, [p])[0], None)
    # infinite bounds: none (-inf, inf), or all infinite (inf, inf)
    for dt in (F32, F16, BF16):
        x = nan_x[dt]
        yield clip_case(f"clip_inf_bounds_{dt.name}", dt, x, 13, arr(dt, -np.inf), arr(dt, np.inf))
        yield clip_case(f"clip_inf_min_{dt.name}", dt, x, 13, arr(dt, np.inf), None)
        yield clip_case(f"clip_neg_inf_max_{dt.name}", dt, x, 13, None, arr(dt, -np.inf))
    # Clip-1/6 without attributes: the defaults -+3.402823e+38 clip float32's infinities
    # (float16 rounds them to infinities: no bound; float64 keeps them as they are)
    big = {F32: arr(F32, [np.inf, -np.inf, FLT_MAX, -FLT_MAX, 1.0, np.nan]),
           F64: arr(F64, [np.inf, -np.inf, 1e300, -1e300, FLT_MAX, 1.0, np.nan]),
           F16: arr(F16, [np.inf, -np.inf, 65504.0, -65504.0, 1.0, np.nan])}
    for ver in (1, 6):
        for dt, x in big.items():
            yield clip_case(f"clip_v{ver}_defaults_{dt.name}", dt, x, ver)
            yield clip_case(f"clip_v{ver}_default_max_{dt.name}", dt, x, ver, lo=0.5)
    # attribute bounds that float16 cannot hold exactly: rounded to nearest even
    x16 = arr(F16, np.linspace(-3, 3, 49))
    for lo, hi, tag in ((-1.00048828125, 1.00048828125, "ties"), (-70000.0, 1e-8, "overflow_tiny"),
                        (2.9802322387695312e-08, 6e-08, "subnormal"), (0.1, 0.3, "inexact")):
        yield clip_case(f"clip_v6_float16_attr_{tag}", F16, x16, 6, lo, hi)
    # +0 and -0 (equal: either sign is right where both meet)
    for dt in (F32, F16, BF16, F64):
        z = arr(dt, [-0.0, 0.0, -1.0, 1.0])
        yield clip_case(f"clip_zero_bounds_{dt.name}", dt, z, 13, arr(dt, 0.0), arr(dt, 0.0))
    # every extreme value against extreme bounds, in every dtype of Clip-13
    for dt in NUMERIC:
        ex = extremes(dt)
        finite = np.sort(to_num(dt, ex)[np.isfinite(to_num(dt, ex))]) if dt.is_float \
            else np.sort(ex)
        pairs = [(finite[0], finite[-1], "full"), (finite[1], finite[-2], "inner"),
                 (finite[-1], finite[-1], "top"), (finite[0], finite[0], "bottom"),
                 (finite[len(finite) // 2], finite[len(finite) // 2], "equal")]
        for lo, hi, tag in pairs:
            lo, hi = (from_num(dt, lo), from_num(dt, hi)) if dt.is_float else (lo, hi)
            yield clip_case(f"clip_extremes_{dt.name}_{tag}", dt, ex, 13, lo, hi)
    # min > max: every element is max (the spec since 13 says so; numpy and torch agree)
    for dt in (F32, F16, BF16, I8, U64, I64):
        name = f"clip_min_gt_max_{dt.name}"
        x = rand(dt, (2, 7), seeded(name))
        lo, hi = quantiles(dt, x, (0.8, 0.2))
        yield clip_case(name, dt, x, 13, lo, hi)
    yield clip_case("clip_v6_min_gt_max", F32, rand(F32, (2, 7), seeded("clip_v6_min_gt_max")), 6,
                    5.0, -5.0)
    # rank 0, empty, and long inputs (several blocks and tasks, and their tails)
    yield clip_case("clip_rank0", F32, arr(F32, 7.5), 13, arr(F32, 0.0), arr(F32, 6.0))
    yield clip_case("clip_empty", F32, np.zeros((0, 3), np.float32), 13, arr(F32, 0.0),
                    arr(F32, 1.0))
    yield clip_case("clip_v6_empty", F64, np.zeros((2, 0), np.float64), 6, 0.0, 1.0)
    for n, dt in ((5000, F32), (70001, I8), (2049, F16), (4097, U16)):
        name = f"clip_long_{n}_{dt.name}"
        x = rand(dt, (n,), seeded(name))
        lo, hi = quantiles(dt, x, (0.1, 0.9))
        yield clip_case(name, dt, x, 13, lo, hi)
        yield clip_case(f"{name}_min_only", dt, x, 13, lo, None)
        yield clip_case(f"{name}_max_only", dt, x, 13, None, hi)
    # opset resolution: 7 and 10 run Clip-6, 11 Clip-11, 12 Clip-12, 18 and 21 Clip-13
    for opset in (7, 10):
        yield clip_case(f"clip_opset{opset}", F32, arr(F32, [-3, 0.5, 9]), opset, -1.0, 1.0)
    for opset in (18, 21):
        yield clip_case(f"clip_opset{opset}_bfloat16", BF16, arr(BF16, [-3, 0.5, 9]), opset,
                        arr(BF16, -1.0), arr(BF16, 1.0))


def clip_err():
    f32 = lambda s: Value("x", F32, rand(F32, s, seeded("clip_err")))

    def bad(name, keyword, ver, ins, node_ins=None, stage="load", **attrs):
        return refused(name, stage, keyword,
                       [node("Clip", node_ins or [v.name for v in ins], ["y"], **attrs)],
                       {"": ver}, ins)
    b = lambda nm, dt, v, shape=SAME: Value(nm, dt, np.asarray(v, dt.np), shape=shape)
    # bounds must be scalars (rank 0): the spec says "tensor of empty shape"
    yield bad("clip_err_min_shape_1", "shape", 13, [f32((3,)), b("lo", F32, [0.0])])
    yield bad("clip_err_max_shape_2", "shape", 13, [f32((3,)), b("lo", F32, 0.0),
                                                    b("hi", F32, [1.0, 2.0])])
    yield bad("clip_err_v11_max_shape_1x1", "shape", 11, [f32((3,)), b("hi", F32, [[1.0]])],
              ["x", "", "hi"])
    # a bound whose shape is known only when fed: refused at run time
    yield bad("clip_err_run_min_shape_1", "shape", 13,
              [f32((3,)), b("lo", F32, [0.0], shape=None)], stage="run")
    # dtypes: each version's own, and one T for all three
    yield bad("clip_err_v11_int32", "dtype", 11, [Value("x", I32, np.arange(3, dtype=np.int32))])
    yield bad("clip_err_v6_int64", "dtype", 6, [Value("x", I64, np.arange(3))])
    yield bad("clip_err_v12_bfloat16", "dtype", 12, [Value("x", BF16, arr(BF16, [1, 2]))])
    yield bad("clip_err_bool", "dtype", 13, [Value("x", BOOL, np.ones(3, bool))])
    yield bad("clip_err_min_float64", "dtype", 13, [f32((3,)), b("lo", F64, 0.0)])
    yield bad("clip_err_max_int32_for_int64", "dtype", 13,
              [Value("x", I64, np.arange(3)), b("hi", I32, 1)], ["x", "", "hi"])
    # arity and attributes
    yield bad("clip_err_no_inputs", "inputs", 13, [], [])
    yield bad("clip_err_four_inputs", "inputs", 13,
              [f32((3,)), b("lo", F32, 0.0), b("hi", F32, 1.0), b("z", F32, 2.0)])
    yield bad("clip_err_v6_two_inputs", "inputs", 6, [f32((3,)), b("lo", F32, 0.0)])
    yield bad("clip_err_v11_min_attribute", "attribute", 11, [f32((3,))], min=0.0)
    yield bad("clip_err_v6_consumed_inputs", "attribute", 6, [f32((3,))], consumed_inputs=[0])
    yield bad("clip_err_v6_int_min", "attribute", 6, [f32((3,))], min=1)
    yield bad("clip_err_v1_string_max", "attribute", 1, [f32((3,))], max="1")


# ---------------------------------------------------------------------------------------------
# matmul_, gemm_: MatMul 1, 9, 13 and Gemm 1, 6, 7, 9, 11, 13, every version x dtype x attribute.
# The reference is numpy in float64 (integers: Python's exact integers, then modulo 2^bits),
# Gemm's alpha * (A' B') + beta * C, rounded once into the dtype.  Until `minnx test` compares
# the sums within a tolerance, the data are chosen so that float32's sequential sum is exact
# (small integers, and for the rounding cases mantissas whose products and sums fit 24 bits):
# then every order gives numpy's bits, and the float16 cases still show the result rounded once
# (never after each step).

MATMUL_TYPES = {1: FLOATS, 9: FLOATS + [I32, I64, U32, U64], 13: FLOATS + [BF16, I32, I64, U32, U64]}
GEMM_TYPES = {1: FLOATS, 6: FLOATS, 7: FLOATS, 9: MATMUL_TYPES[9], 11: MATMUL_TYPES[9], 13: MATMUL_TYPES[13]}


def small_ints(dt, shape, rng, lo=-4, hi=5):
    if dt in (U32, U64):
        lo = 0
    return arr(dt, rng.integers(lo, hi, size=shape))


def product_ref(dt, a, b, c=None, alpha=1.0, beta=1.0, ta=0, tb=0, gemm=False):
    """numpy's matmul (1-D operands promoted and the dim removed), exactly; Gemm's scaling."""
    if dt.is_float:
        x, w = to_num(dt, a).astype(np.float64), to_num(dt, b).astype(np.float64)
    else:
        x, w = np.asarray(a).astype(object), np.asarray(b).astype(object)
    if gemm:
        x, w = (x.T if ta else x), (w.T if tb else w)
    y = np.matmul(x, w)
    if gemm:
        y = y * (alpha if dt.is_float else int(alpha))
        if c is not None:
            cv = to_num(dt, c).astype(np.float64) if dt.is_float else np.asarray(c).astype(object)
            y = y + cv * (beta if dt.is_float else int(beta))
    if dt.is_float:
        out = np.asarray(y, np.float64)
        if dt is BF16:  # exact in bfloat16 by construction: the cut is the value
            assert np.all(out.astype(np.float32).view(np.uint32) & 0xFFFF == 0)
        return from_num(dt, out)
    bits = 8 * np.dtype(dt.np).itemsize
    wrapped = [int(v) % (1 << bits) for v in np.asarray(y).ravel()]
    if dt.is_signed:
        wrapped = [v - (1 << bits) if v >= 1 << (bits - 1) else v for v in wrapped]
    return np.array(wrapped, dtype=dt.np).reshape(np.shape(y))


def matmul_case(name, dt, a, b, ver=13):
    ins = [Value("a", dt, a), Value("b", dt, b)]
    return Case(name, [node("MatMul", ["a", "b"], ["y"])], {"": ver}, ins, [Value("y", dt, product_ref(dt, a, b))])


def gemm_case(name, dt, a, b, c=None, ver=13, alpha=None, beta=None, ta=None, tb=None, broadcast=None,
              c_as="input", b_as="input"):
    attrs = {k: v for k, v in (("alpha", alpha), ("beta", beta), ("transA", ta), ("transB", tb),
                               ("broadcast", broadcast)) if v is not None}
    ins, inits = [Value("a", dt, a)], []
    (ins if b_as == "input" else inits).append(Value("b", dt, b))
    names = ["a", "b"]
    if c is not None:
        (ins if c_as == "input" else inits).append(Value("c", dt, c))
        names.append("c")
    want = product_ref(dt, a, b, c, 1.0 if alpha is None else alpha, 1.0 if beta is None else beta, ta or 0, tb or 0,
                       gemm=True)
    return Case(name, [node("Gemm", names, ["y"], **attrs)], {"": ver}, ins, [Value("y", dt, want)], inits)


def gen_products():
    # every version x dtype
    for ver, types in MATMUL_TYPES.items():
        for dt in types:
            name = f"matmul_v{ver}_{dt.name}"
            rng = seeded(name)
            yield matmul_case(name, dt, small_ints(dt, (3, 4), rng), small_ints(dt, (4, 5), rng), ver)
    for ver, types in GEMM_TYPES.items():
        for dt in types:
            name = f"gemm_v{ver}_{dt.name}"
            rng = seeded(name)
            yield gemm_case(name, dt, small_ints(dt, (3, 4), rng), small_ints(dt, (4, 5), rng),
                            small_ints(dt, (3, 5), rng), ver)
    # MatMul's shapes: 1-D operands, batches broadcast both ways, an empty sum, blocks crossed
    shapes = {"1d_2d": ((4,), (4, 5)), "2d_1d": ((3, 4), (4,)), "1d_1d": ((4,), (4,)),
              "3d_2d": ((2, 3, 4), (4, 5)), "2d_3d": ((3, 4), (2, 4, 5)), "bcast_4d": ((2, 1, 3, 4), (5, 4, 6)),
              "4d_1d": ((2, 3, 3, 4), (4,)), "1d_3d": ((4,), (2, 4, 5)), "k0": ((3, 0), (0, 5)),
              "m0": ((0, 4), (4, 5)), "gemv": ((1, 300), (300, 70)), "batch_gemv": ((3, 1, 33), (3, 33, 17))}
    for label, (sa, sb) in shapes.items():
        for dt in (F32, F64, I64):
            name = f"matmul_{label}_{dt.name}"
            rng = seeded(name)
            yield matmul_case(name, dt, small_ints(dt, sa, rng, -2, 3), small_ints(dt, sb, rng, -2, 3))
    # a block of rows and of k crossed (97 > 96, 257 > 256: gemm.c's MC and KC)
    rng = seeded("matmul_blocks_float32")
    yield matmul_case("matmul_blocks_float32", F32, small_ints(F32, (97, 257), rng, -2, 3),
                      small_ints(F32, (257, 40), rng, -2, 3))
    # integers wrap (modulo 2^bits, never saturated)
    for dt in (I32, I64, U32, U64):
        big = np.iinfo(dt.np).max // 3
        yield matmul_case(f"matmul_wrap_{dt.name}", dt, arr(dt, [[big, big, 7]]), arr(dt, [[5], [big], [3]]))
    # float16 and bfloat16 round once, at the end: 1 + i/1024 squared needs 21 bits, exact in float32
    rng = seeded("matmul_round_once")
    ia = rng.integers(1, 64, size=(4, 3)).astype(np.float64)
    ib = rng.integers(1, 64, size=(3, 5)).astype(np.float64)
    yield matmul_case("matmul_float16_round_once", F16, arr(F16, 1 + ia / 1024), arr(F16, 1 + ib / 1024))
    yield matmul_case("matmul_bfloat16_exact", BF16, arr(BF16, rng.integers(-8, 9, (4, 6))),
                      arr(BF16, rng.integers(-8, 9, (6, 5)) / 4))
    # Gemm's attributes
    for dt in (F32, F16, F64, I32):
        for ta in (0, 1):
            for tb in (0, 1):
                name = f"gemm_trans{ta}{tb}_{dt.name}"
                rng = seeded(name)
                a = small_ints(dt, (4, 3) if ta else (3, 4), rng)
                b = small_ints(dt, (5, 4) if tb else (4, 5), rng)
                yield gemm_case(name, dt, a, b, small_ints(dt, (5,), rng), ta=ta, tb=tb)
    scales = {"alpha_half_beta_2": (0.5, 2.0), "alpha_m1": (-1.0, None), "beta_0": (None, 0.0),
              "alpha_0": (0.0, 1.5), "alpha_3_beta_m2": (3.0, -2.0)}
    for label, (alpha, beta) in scales.items():
        for dt in (F32, F64, F16, I64, U32):
            if not dt.is_float and any(v is not None and v != int(v) for v in (alpha, beta)):
                continue  # refused: integer scales are whole (tests/bad)
            name = f"gemm_{label}_{dt.name}"
            rng = seeded(name)
            yield gemm_case(name, dt, small_ints(dt, (3, 4), rng), small_ints(dt, (4, 5), rng),
                            small_ints(dt, (3, 5), rng), alpha=alpha, beta=beta)
    # C: every shape that broadcasts one way to [M, N] (from 7), or none (from 11); as an initializer
    c_shapes = {"scalar": (), "one": (1,), "row": (5,), "row2d": (1, 5), "col": (3, 1), "one2d": (1, 1),
                "full": (3, 5)}
    for label, cs in c_shapes.items():
        for ver in (7, 13):
            name = f"gemm_v{ver}_c_{label}"
            rng = seeded(name)
            yield gemm_case(name, F32, small_ints(F32, (3, 4), rng), small_ints(F32, (4, 5), rng),
                            small_ints(F32, cs, rng), ver)
    for ver in (11, 13):
        name = f"gemm_v{ver}_no_c"
        rng = seeded(name)
        yield gemm_case(name, F32, small_ints(F32, (3, 4), rng), small_ints(F32, (4, 5), rng), None, ver, alpha=2.0)
    rng = seeded("gemm_c_initializer")
    yield gemm_case("gemm_c_initializer", F32, small_ints(F32, (3, 4), rng), small_ints(F32, (4, 5), rng),
                    small_ints(F32, (5,), rng), c_as="init")
    # versions 1 and 6: broadcast=0 wants C [M, N]; broadcast=1 one element or a suffix of [M, N]
    for ver in (1, 6):
        for label, cs, bc in (("full", (3, 5), 0), ("full_bcast", (3, 5), 1), ("row_bcast", (5,), 1),
                              ("one_bcast", (1,), 1), ("scalar_bcast", (), 1)):
            name = f"gemm_v{ver}_c_{label}"
            rng = seeded(name)
            yield gemm_case(name, F32, small_ints(F32, (3, 4), rng), small_ints(F32, (4, 5), rng),
                            small_ints(F32, cs, rng), ver, broadcast=bc)
    # nn.Linear as exported: transB=1, the bias [N]; batch 1 (the GEMV path) and 7; blocks crossed
    for label, (m, k, n) in (("linear_b1", (1, 40, 30)), ("linear_b7", (7, 40, 30)),
                             ("blocks", (97, 257, 40)), ("linear_b1_wide", (1, 20, 1100))):
        name = f"gemm_{label}"
        rng = seeded(name)
        yield gemm_case(name, F32, small_ints(F32, (m, k), rng, -2, 3), small_ints(F32, (n, k), rng, -2, 3),
                        small_ints(F32, (n,), rng), tb=1)
    # ... and with the weight an initializer, as exporters write it: minnx packs B' once, at prepare
    # (batch 1, 7, blocks crossed, several GEMV tasks; float16 is read as it lies)
    for label, (m, k, n), dt in (("b1", (1, 40, 30), F32), ("b7", (7, 40, 30), F32), ("blocks", (97, 257, 40), F32),
                                 ("b1_wide", (1, 20, 1100), F32), ("b1_odd", (1, 33, 17), F32),
                                 ("b2_float16", (2, 12, 9), F16)):
        name = f"gemm_linear_weights_{label}"
        rng = seeded(name)
        yield gemm_case(name, dt, small_ints(dt, (m, k), rng, -2, 3), small_ints(dt, (n, k), rng, -2, 3),
                        small_ints(dt, (n,), rng), tb=1, b_as="init")
    rng = seeded("gemm_weights_no_bias_alpha")
    yield gemm_case("gemm_weights_no_bias_alpha", F32, small_ints(F32, (1, 24), rng, -2, 3),
                    small_ints(F32, (19, 24), rng, -2, 3), None, 11, alpha=0.5, tb=1, b_as="init")
    # an empty sum: alpha * 0 + beta * C
    rng = seeded("gemm_k0")
    yield gemm_case("gemm_k0", F32, arr(F32, np.zeros((3, 0))), arr(F32, np.zeros((0, 5))),
                    small_ints(F32, (5,), rng), beta=2.0)
    # float16 rounds once, after alpha and beta in float32
    ia = rng.integers(1, 64, size=(4, 3)).astype(np.float64)
    ib = rng.integers(1, 64, size=(3, 5)).astype(np.float64)
    yield gemm_case("gemm_float16_round_once", F16, arr(F16, 1 + ia / 1024), arr(F16, 1 + ib / 1024),
                    arr(F16, np.full((5,), 0.5)), alpha=0.5, beta=0.25)


# arith_: Add, Sub, Mul, Div (1, 6, 7, 13, 14). References: numpy in the dtype for float16,
# float32 and float64 (one IEEE operation, correctly rounded; numpy's float16 goes through float32
# and rounds once, which equals the correctly rounded result); bfloat16 in float32 rounded once to
# nearest even; integers exactly in python, wrapped to the width, division truncated toward zero
# with x / 0 = 0 (minnx's documented value).

ARITH_OPS = ("Add", "Sub", "Mul", "Div")
T6 = FLOATS + [I32, I64, U32, U64]
ARITH_TYPES = {1: FLOATS, 6: T6, 7: T6, 13: T6 + [BF16], 14: NUMERIC}


def bf16_round(v):
    """float32 -> bfloat16 bits, to nearest even; NaN stays a quiet NaN."""
    u = np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), r)


def arith_ref(op, dt, a, b):
    if dt.is_float:
        x, y = to_num(dt, a), to_num(dt, b)
        if dt is BF16:
            x, y = x.astype(np.float32), y.astype(np.float32)
        fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[op]
        with np.errstate(all="ignore"):
            z = fn(x, y)
        return bf16_round(z) if dt is BF16 else z.astype(dt.np)
    x, y = np.broadcast_arrays(a, b)
    bits_ = np.iinfo(dt.np).bits
    out = []
    for p, q in zip(x.ravel().tolist(), y.ravel().tolist()):
        if op == "Add":
            z = p + q
        elif op == "Sub":
            z = p - q
        elif op == "Mul":
            z = p * q
        else:
            z = 0 if q == 0 else abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1)
        z &= (1 << bits_) - 1
        if dt.is_signed and z >= 1 << (bits_ - 1):
            z -= 1 << bits_
        out.append(z)
    return np.array(out, dtype=dt.np).reshape(x.shape)


def arith_case(name, op, dt, a, b, opset, **attrs):
    ins = inputs_for(dt, [a, b])
    if attrs.get("broadcast"):  # legacy: B's dims stand at A's from axis on
        axis = attrs.get("axis", a.ndim - b.ndim)
        bb = b.reshape(b.shape + (1,) * (a.ndim - axis - b.ndim))
    else:
        bb = b
    return Case(name, [node(op, ["x0", "x1"], ["y"], **attrs)], {"": opset}, ins,
                [Value("y", dt, arith_ref(op, dt, a, bb))])


def gen_arith():
    for ver, types in ARITH_TYPES.items():
        for dt in types:
            a, b = all_pairs(extremes(dt))
            if not dt.is_float:  # a few ordinary values beside the extremes
                rng = seeded(f"arith_v{ver}_{dt.name}")
                ra, rb = rand(dt, (40,), rng), rand(dt, (40,), rng)
                a, b = np.concatenate([a, ra, ra]), np.concatenate([b, rb, rb % 7])
            for op in ARITH_OPS:
                yield arith_case(f"arith_{op.lower()}_v{ver}_{dt.name}", op, dt, a, b, ver)
    for op in ARITH_OPS:
        rng = seeded(f"arith_{op}_bcast")
        lo = op.lower()
        for suffix, (sa, sb) in {"row": ((3, 4), (4,)), "col": ((3, 4), (3, 1)),
                                 "both": ((2, 1, 4), (3, 1)), "scalar": ((2, 3), ()),
                                 "scalar_left": ((), (2, 3))}.items():
            a, b = rand(F32, sa, rng), rand(F32, sb, rng)
            yield arith_case(f"arith_{lo}_bcast_{suffix}", op, F32, a, b, 14)
        a = rand(I32, (2, 3, 4), rng)
        yield arith_case(f"arith_{lo}_bcast_int32", op, I32, a, rand(I32, (3, 1), rng) | 1, 13)
        # legacy broadcast (1 and 6): B inside A from axis on
        a = rand(F32, (2, 3, 4, 5), rng)
        for ver in (1, 6):
            yield arith_case(f"arith_{lo}_v{ver}_legacy_suffix", op, F32, a, rand(F32, (4, 5), rng),
                             ver, broadcast=1)
            yield arith_case(f"arith_{lo}_v{ver}_legacy_axis1", op, F32, a, rand(F32, (3, 4), rng),
                             ver, broadcast=1, axis=1)
            yield arith_case(f"arith_{lo}_v{ver}_legacy_axis0", op, F32, a, rand(F32, (2,), rng),
                             ver, broadcast=1, axis=0)
            yield arith_case(f"arith_{lo}_v{ver}_legacy_scalar", op, F32, a,
                             rand(F32, (), rng), ver, broadcast=1)
            yield arith_case(f"arith_{lo}_v{ver}_same_shape", op, F32, a, rand(F32, a.shape, rng), ver)
    yield from gen_compare()
    yield from gen_not_where()
    yield from arith_err()


# Comparisons and logic: exact, numpy's answers (NaN compares false; bfloat16 and float16 as the
# float32 values they hold).
CMP_OPS = {"Equal": np.equal, "Greater": np.greater, "Less": np.less,
           "GreaterOrEqual": np.greater_equal, "LessOrEqual": np.less_equal}
CMP_TYPES = {
    "Equal": {1: [BOOL, I32, I64], 7: [BOOL, I32, I64], 11: [BOOL] + FLOATS + INTS,
              13: [BOOL, BF16] + FLOATS + INTS, 19: [BOOL, BF16] + FLOATS + INTS},
    "Greater": {1: FLOATS, 7: FLOATS, 9: FLOATS + INTS, 13: NUMERIC},
    "Less": {1: FLOATS, 7: FLOATS, 9: FLOATS + INTS, 13: NUMERIC},
    "GreaterOrEqual": {12: FLOATS + INTS, 16: NUMERIC},
    "LessOrEqual": {12: FLOATS + INTS, 16: NUMERIC},
}
LOGIC_OPS = {"And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor}


def cmp_case(name, op, fn, dt, a, b, opset, **attrs):
    ins = inputs_for(dt, [a, b])
    bb = b
    if attrs.get("broadcast"):
        axis = attrs.get("axis", a.ndim - b.ndim)
        bb = b.reshape(b.shape + (1,) * (a.ndim - axis - b.ndim))
    x, y = to_num(dt, a), to_num(dt, bb)
    with np.errstate(all="ignore"):
        want = fn(x, y)
    return Case(name, [node(op, ["x0", "x1"], ["y"], **attrs)], {"": opset}, ins,
                [Value("y", BOOL, np.asarray(want, np.bool_))])


def gen_compare():
    for op, versions in CMP_TYPES.items():
        for ver, types in versions.items():
            for dt in types:
                vals = np.array([False, True]) if dt is BOOL else extremes(dt)
                if dt.is_float and dt not in (BF16,):
                    vals = np.concatenate([vals, np.array([np.nan], dt.np)])
                elif dt is BF16:
                    vals = np.concatenate([vals, bits(BF16, [0x7FC0])])
                a, b = all_pairs(vals)
                yield cmp_case(f"arith_{op.lower()}_v{ver}_{dt.name}", op, CMP_OPS[op], dt, a, b, ver)
        rng = seeded(f"arith_{op}_bcast")
        a, b = ties(F32, (2, 3, 4), rng), ties(F32, (3, 1), rng)
        yield cmp_case(f"arith_{op.lower()}_bcast", op, CMP_OPS[op], F32, a, b, 16 if "Or" in op else 13)
        if 1 in versions:
            dt = I32 if op == "Equal" else F32
            yield cmp_case(f"arith_{op.lower()}_v1_legacy_axis1", op, CMP_OPS[op], dt, ties(dt, (2, 3, 4), rng),
                           ties(dt, (3,), rng), 1, broadcast=1, axis=1)
    for op, fn in LOGIC_OPS.items():
        a, b = all_pairs(np.array([False, True]))
        for ver in (1, 7):
            yield cmp_case(f"arith_{op.lower()}_v{ver}_bool", op, fn, BOOL, a, b, ver)
        rng = seeded(f"arith_{op}_bcast")
        x, y = rng.integers(0, 2, (2, 3, 4)).astype(bool), rng.integers(0, 2, (3, 1)).astype(bool)
        yield cmp_case(f"arith_{op.lower()}_bcast", op, fn, BOOL, x, y, 7)
        yield cmp_case(f"arith_{op.lower()}_v1_legacy", op, fn, BOOL, x, rng.integers(0, 2, (4,)).astype(bool),
                       1, broadcast=1)
    yield err_op("arith_err_equal_v7_float", "dtype", "Equal", [(F32, (3,)), (F32, (3,))], opset=7)
    yield err_op("arith_err_and_v7_int32", "dtype", "And", [(I32, (3,)), (I32, (3,))], opset=7)
    yield err_op("arith_err_greater_v13_bool", "dtype", "Greater", [(BOOL, (3,)), (BOOL, (3,))], opset=13)


def gen_not_where():
    # Not: every bool pair of shapes; Where: every version x dtype, broadcast three ways
    for shape in ((), (4,), (2, 3, 4)):
        name = f"arith_not_rank{len(shape)}"
        x = seeded(name).integers(0, 2, shape).astype(bool)
        yield Case(name, [node("Not", ["x0"], ["y"])], {"": 1}, inputs_for(BOOL, [x]),
                   [Value("y", BOOL, np.logical_not(x))])
    for ver, types in {9: [BOOL] + FLOATS + INTS, 16: [BOOL, BF16] + FLOATS + INTS}.items():
        for dt in types:
            name = f"arith_where_v{ver}_{dt.name}"
            rng = seeded(name)
            c = rng.integers(0, 2, (2, 3, 1)).astype(bool)
            x = rng.integers(0, 2, (3, 4)).astype(bool) if dt is BOOL else rand(dt, (3, 4), rng)
            y = rng.integers(0, 2, (2, 1, 4)).astype(bool) if dt is BOOL else rand(dt, (2, 1, 4), rng)
            ins = [Value("c", BOOL, c), Value("x", dt, x), Value("y", dt, y)]
            yield Case(name, [node("Where", ["c", "x", "y"], ["out"])], {"": ver}, ins,
                       [Value("out", dt, np.where(c, x, y).astype(dt.np))])
    rng = seeded("arith_where_scalars")
    c, x, y = rng.integers(0, 2, (5, 7)).astype(bool), rand(F32, (), rng), rand(F32, (7,), rng)
    yield Case("arith_where_scalar_x", [node("Where", ["c", "x", "y"], ["out"])], {"": 16},
               [Value("c", BOOL, c), Value("x", F32, x), Value("y", F32, y)],
               [Value("out", F32, np.where(c, x, y).astype(np.float32))])
    yield err_op("arith_err_where_v9_bfloat16", "dtype", "Where", [(BOOL, (3,)), (BF16, (3,)), (BF16, (3,))], opset=9)
    yield err_op("arith_err_where_int_condition", "dtype", "Where", [(I32, (3,)), (F32, (3,)), (F32, (3,))],
                 opset=16)
    yield err_op("arith_err_not_float", "dtype", "Not", [(F32, (3,))], opset=1)


def arith_err():
    f = lambda *shapes: [(F32, s) for s in shapes]
    yield err_op("arith_err_v7_shapes", "shape", "Add", f((3, 4), (2, 4)), opset=7)
    yield err_op("arith_err_v6_no_broadcast_attr", "shape", "Mul", f((3, 4), (4,)), opset=6)
    yield err_op("arith_err_v6_legacy_mismatch", "shape", "Sub", f((2, 3, 4), (3,)), opset=6,
                 broadcast=1)
    yield err_op("arith_err_v1_legacy_axis_out", "shape", "Div", f((2, 3), (3,)), opset=1,
                 broadcast=1, axis=0)
    yield err_op("arith_err_v1_b_longer", "shape", "Add", f((3,), (2, 3)), opset=1, broadcast=1)
    yield err_op("arith_err_v14_mixed_dtypes", "dtype", "Add", [(F32, (3,)), (F64, (3,))], opset=14)
    yield err_op("arith_err_v13_int8", "dtype", "Mul", [(I8, (3,)), (I8, (3,))], opset=13)
    yield err_op("arith_err_v7_broadcast_attr", "attribute", "Add", f((3,), (3,)), opset=7,
                 broadcast=1)
    yield err_op("arith_err_v14_three_inputs", "inputs", "Add", f((3,), (3,), (3,)), opset=14)


def check(cases):
    """Catch generator mistakes before anything is written."""
    seen = set()
    for c in cases:
        assert re.fullmatch(r"[a-z0-9_]+", c.name) and c.name.startswith(PREFIXES), c.name
        assert c.name not in seen, f"duplicate case {c.name}"
        seen.add(c.name)
        if c.error:
            assert c.error[0] in ("load", "run") and c.error[1] in ERROR_KEYWORDS, c.name
        else:
            for v in c.outputs:
                assert v.data is not None and v.data.dtype == np.dtype(v.dt.np), c.name


def clean(root):
    """Remove the case folders (those holding a model.onnx), nothing else."""
    for entry in sorted(os.listdir(root)):
        path = os.path.join(root, entry)
        if os.path.isdir(path) and os.path.isfile(os.path.join(path, "model.onnx")):
            shutil.rmtree(path)


def gen_nn():
    from gen_nn import gen_nn as gen  # its own module (it imports this one's helpers)
    return gen()


def all_cases():
    sys.modules.setdefault("generate", sys.modules[__name__])  # gen_<family>.py use this run's names
    from gen_unary import gen_unary
    from gen_reduction import gen_reduction
    from gen_arith import gen_arith as gen_sum_prelu
    from gen_norm import gen_norm
    from gen_rnn import gen_rnn
    from gen_pow import gen_pow
    import gen_layout  # its cases import this module's helpers
    import gen_layout2
    import gen_bindshape
    from gen_resize import gen_resize
    from gen_control import gen_control
    gens = (gen_max, gen_bcast, gen_half, gen_argmax, gen_maximum, gen_graph, gen_opset,
            gen_typed, gen_err, gen_const, gen_views, gen_view_graphs,
            gen_cast, gen_err_cast, gen_min_mirror, gen_reduce, gen_reduce_err,
            gen_shape_ops_all, gen_clip, gen_products, gen_arith, gen_sum_prelu, gen_pow, gen_unary, gen_nn, gen_reduction,
            gen_layout.gen_layout, gen_layout2.gen_layout2, gen_norm, gen_bindshape.gen_bindshape, gen_rnn,
            gen_resize, gen_control)
    return sorted((c for g in gens for c in g()), key=lambda c: c.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                    help="folder to (re)write the cases into (default: this script's folder)")
    args = ap.parse_args()
    start = time.monotonic()
    cases = all_cases()
    check(cases)
    os.makedirs(args.out, exist_ok=True)
    clean(args.out)
    for c in cases:
        write_case(args.out, c)
    counts = Counter(next(p for p in PREFIXES if c.name.startswith(p)) for c in cases)
    for p in PREFIXES:
        print(f"{p:10} {counts[p]}")
    refused_n = sum(1 for c in cases if c.error)
    print(f"{'total':10} {len(cases)} ({len(cases) - refused_n} good, {refused_n} refused) "
          f"in {time.monotonic() - start:.1f}s")


if __name__ == "__main__":
    main()
