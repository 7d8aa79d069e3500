#!/usr/bin/python3
"""minnx's benchmark suite: every workload against the memory-bandwidth floor, at 1 and N threads.

For each workload this writes a model and its inputs (the `minnx bench` layout: DIR/model.onnx,
DIR/input_<i>.pb), then, for several rounds, interleaves these timings of the same op on the same
bytes:
  floor   tests/bench/floor.c: threads read every input byte once and write every output byte
          once (per node, for a graph of several), with software prefetch and the machine's full
          vector width (built here at -O3 -march=native), at 1 thread and at N; timed with plain
          stores and with streaming (non-temporal) stores, the faster of the two;
  minnx   `minnx bench DIR --threads T` (session run only, median of N runs), T = 1 and N;
  numpy   the same op in numpy, into preallocated outputs where numpy allows it;
  ORT     ONNX Runtime 1.30 (npm onnxruntime-node, installed by tests/bench/ort/install.sh into
          --ort DIR, default ~/.cache/minnx/onnxruntime-node-1.30.0; a peer for the benchmark only, never linked into minnx) on
          the same model and inputs, tests/bench/ort/time.js: intra-op threads T, inter-op 1,
          sequential, outputs bound to buffers of their own, the runs only timed (median of N, tiny
          graphs in batches as minnx bench does), at T = 1 and N, right after minnx at the same T;
          the ratio minnx/ORT per round (<= 1.00x is the target "no slower than ORT" where an issue
          sets it). Without node or the package those columns say "-"; a workload ORT refuses (an
          operator or dtype it lacks, such as bfloat16 tensors in its Node binding) is named below
          the table. ORT runs through its Node binding, whose own cost per run (a few microseconds,
          and tens of nanoseconds per element of the feeds and fetches) is in the ORT cells of
          workloads under 1 MiB: the footer gives it, timed on an Identity of one float. From 1 MiB
          on, an ORT cell is ORT's own time of the run (its profiler's model_run, time.js --ort-run).
The matrix products (MatMul, Gemm) also get a second table, in the same rounds: their GFLOP/s
against the machine's float32 FMA peak (tests/bench/gemm_peers.c's probe: independent FMA chains
at the full vector width, at 1 thread and at N) and against OpenBLAS's cblas_sgemm on the same
shape (Debian's libopenblas-dev: a peer for the benchmark only, never linked into minnx; without
it those columns say "-").
Each round gives a median per column; the table shows the median over rounds of each, and of the
per-round ratios minnx/floor at the same thread count (a round's timings ran back to back, so
their ratio cancels most of the drift of a shared machine).

Run it with Debian's python3 (python3-onnx, python3-numpy), after a Release build:
    /usr/bin/python3 tests/bench/run.py [--minnx build/minnx] [--work build/bench] [--rounds 5]
                                       [--only SUBSTRING] [--no-numpy] [--threads N]
                                       [--ort DIR] [--node node]
(--threads: default, the online CPUs.)
It is not part of ctest: timings need a quiet machine, and the inputs take about 1 GB of disk.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass, field
from typing import Callable, List

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.float64: TensorProto.DOUBLE,
             np.int8: TensorProto.INT8, np.int32: TensorProto.INT32, np.int64: TensorProto.INT64}
# numpy has no bfloat16: its arrays are uint16 bit patterns whose dtype carries this mark
BF16 = np.dtype(np.uint16, metadata={"onnx": TensorProto.BFLOAT16})


def onnx_type(dt):
    return (dt.metadata or {}).get("onnx") or ONNX_TYPE[dt.type]
STAMP = "v2"  # bump when a workload's definition changes, so old inputs are rewritten


@dataclass
class Node:
    op: str
    inputs: List[str]
    output: str
    attrs: dict = field(default_factory=dict)


@dataclass
class Workload:
    name: str
    what: str                 # the table's description
    inputs: Callable          # rng -> list of arrays
    nodes: List[Node]
    numpy_op: Callable        # (inputs, outputs) -> None, writing into preallocated outputs; None: no numpy
    out_dtype: type = None    # of the graph output; None: the inputs' dtype
    target: str = ""          # the target: "1.15x" (ratio to the floor), "50ns" (absolute)
    flops: int = 0            # matrix products: their floating-point operations (2 M N K)
    blas: tuple = None        # and OpenBLAS's peer: (M, N, K, transB)
    vs_ort: bool = False      # the target against ONNX Runtime: no slower at the same thread count
    opset: int = 13           # the model's opset import
    consts: Callable = None   # rng -> {name: array}: initializers (a layer's weights), read by the nodes
    macs: int = 0             # multiply-adds (convolutions): sizes the repeats of compute-bound workloads
    const_arrays: dict = field(default_factory=dict)  # consts' arrays, made with the inputs

    def meets(self, ratio, ns):
        if self.target.endswith("x"):
            return ratio <= float(self.target[:-1])
        if self.target.endswith("ns"):
            return ns <= float(self.target[:-2])
        return None


# ---- workloads ----------------------------------------------------------------------------------

def normal(shape, dtype):
    return lambda rng: rng.standard_normal(shape, dtype=np.float32).astype(dtype)


def ints(shape, dtype, lo, hi):
    return lambda rng: rng.integers(lo, hi, size=shape, dtype=dtype)


def max_of(*gens):
    return lambda rng: [g(rng) for g in gens]


def np_max(ins, outs):
    np.maximum(ins[0], ins[1], out=outs[0])
    for x in ins[2:]:
        np.maximum(outs[0], x, out=outs[0])


def np_min(ins, outs):
    np.minimum(ins[0], ins[1], out=outs[0])
    for x in ins[2:]:
        np.minimum(outs[0], x, out=outs[0])


def np_argmax(axis, last=False, pick=np.argmax):
    def op(ins, outs):
        x = ins[0]
        if last:  # numpy has no select_last_index: the first index of the reversed axis
            n = x.shape[axis]
            outs[0][...] = n - 1 - pick(np.flip(x, axis), axis=axis, keepdims=True)
        else:
            pick(x, axis=axis, keepdims=True, out=outs[0])
    return op


def np_reduce(axes, fold=np.max):
    def op(ins, outs):
        fold(ins[0], axis=axes, keepdims=True, out=outs[0])
    return op


def reduce_node(op, axes):
    return [Node(op, ["x0"], "y", {"axes": list(axes) if axes is not None else None})]


def twin(w):
    """The Min (ArgMin) row of a Max (ArgMax) row: the same data and shapes, the op swapped."""
    n = w.nodes[0]
    if n.op == "Max":
        return Workload(w.name.replace("max", "min"), w.what.replace("Max", "Min"), w.inputs,
                        [Node("Min", n.inputs, n.output, n.attrs)], np_min)
    return Workload(w.name.replace("argmax", "argmin"), w.what.replace("ArgMax", "ArgMin"), w.inputs,
                    [Node("ArgMin", n.inputs, n.output, n.attrs)],
                    np_argmax(n.attrs["axis"], n.attrs.get("select_last_index", 0), np.argmin), np.int64)


def max_node(n):
    return [Node("Max", [f"x{i}" for i in range(n)], "y")]


def argmax_node(axis, last=0):
    attrs = {"axis": axis}
    if last:
        attrs["select_last_index"] = 1
    return [Node("ArgMax", ["x0"], "y", attrs)]


def chain_numpy(ins, outs):
    t = np.maximum(ins[0], ins[1])
    np.maximum(t, ins[2], out=t)
    np.argmax(t, axis=-1, keepdims=True, out=outs[0])


def np_views(ins, outs):
    ins[0].reshape(-1).reshape(outs[0].shape)  # numpy's reshapes are views too: no copy


VIEWS = ("Identity", "Flatten", "Reshape", "Squeeze", "Unsqueeze")
F32 = np.float32
WORKLOADS = [
    Workload("max_f32_1k", "Max f32 [1024,1024] x2", max_of(normal((1024, 1024), F32), normal((1024, 1024), F32)),
             max_node(2), np_max),
    Workload("max_f32_4k", "Max f32 [4096,4096] x2", max_of(normal((4096, 4096), F32), normal((4096, 4096), F32)),
             max_node(2), np_max),
    Workload("max4_f32_2k", "Max f32 [2048,2048] x4", max_of(*[normal((2048, 2048), F32)] * 4), max_node(4), np_max),
    Workload("max_row", "Max f32 [4096,4096] [4096]", max_of(normal((4096, 4096), F32), normal((4096,), F32)),
             max_node(2), np_max),
    Workload("max_col", "Max f32 [4096,4096] [4096,1]", max_of(normal((4096, 4096), F32), normal((4096, 1), F32)),
             max_node(2), np_max),
    Workload("max_scalar", "Max f32 [4096,4096] []", max_of(normal((4096, 4096), F32), normal((), F32)),
             max_node(2), np_max),
    Workload("max_bcast4d", "Max f32 [16,1,64,1] [128,1,256]",
             max_of(normal((16, 1, 64, 1), F32), normal((128, 1, 256), F32)), max_node(2), np_max),
    Workload("max_i8_4k", "Max i8 [4096,4096] x2",
             max_of(ints((4096, 4096), np.int8, -128, 128), ints((4096, 4096), np.int8, -128, 128)),
             max_node(2), np_max),
    Workload("max_f16_2k", "Max f16 [2048,2048] x2",
             max_of(normal((2048, 2048), np.float16), normal((2048, 2048), np.float16)), max_node(2), np_max),
    Workload("max_f64_2k", "Max f64 [2048,2048] x2",
             max_of(normal((2048, 2048), np.float64), normal((2048, 2048), np.float64)), max_node(2), np_max),
    Workload("max_i64_2k", "Max i64 [2048,2048] x2",
             max_of(ints((2048, 2048), np.int64, -2**62, 2**62), ints((2048, 2048), np.int64, -2**62, 2**62)),
             max_node(2), np_max),
    Workload("argmax_last", "ArgMax f32 [4096,4096] axis -1", max_of(normal((4096, 4096), F32)),
             argmax_node(-1), np_argmax(-1), np.int64),
    Workload("argmax_first", "ArgMax f32 [4096,4096] axis 0", max_of(normal((4096, 4096), F32)),
             argmax_node(0), np_argmax(0), np.int64),
    Workload("argmax_mid", "ArgMax f32 [64,1024,256] axis 1", max_of(normal((64, 1024, 256), F32)),
             argmax_node(1), np_argmax(1), np.int64),
    Workload("argmax_ties", "ArgMax f32 [4096,4096] axis -1 last, ties",
             lambda rng: [rng.integers(0, 4, size=(4096, 4096)).astype(F32)],
             argmax_node(-1, last=1), np_argmax(-1, last=True), np.int64),
    # beyond the list: the target is for every axis and select_last_index, so the worst
    # data across rows too (ties with the last index; columns rising, a new maximum in every row)
    Workload("argmax_col_ties", "ArgMax f32 [4096,4096] axis 0 last, ties",
             lambda rng: [rng.integers(0, 4, size=(4096, 4096)).astype(F32)],
             argmax_node(0, last=1), np_argmax(0, last=True), np.int64),
    Workload("argmax_col_rising", "ArgMax f32 [4096,4096] axis 0, rising",
             lambda rng: [np.cumsum(rng.random((4096, 4096), dtype=F32), axis=0, dtype=F32)],
             argmax_node(0), np_argmax(0), np.int64),
    Workload("tiny_max", "Max f32 [3,4] x2", max_of(normal((3, 4), F32), normal((3, 4), F32)), max_node(2), np_max),
    Workload("tiny_argmax", "ArgMax f32 [3,4] axis -1", max_of(normal((3, 4), F32)), argmax_node(-1),
             np_argmax(-1), np.int64),
    # views cost no bytes and no kernel: the run is the executor's loop over two nodes
    Workload("tiny_views", "Identity->Flatten f32 [1024,1024] (views)", max_of(normal((1024, 1024), F32)),
             [Node("Identity", ["x0"], "t"), Node("Flatten", ["t"], "y", {"axis": 0})], np_views),
    Workload("chain", "Max->Max->ArgMax f32 [1024,1024]", max_of(*[normal((1024, 1024), F32)] * 3),
             [Node("Max", ["x0", "x1"], "t0"), Node("Max", ["t0", "x2"], "t1"),
              Node("ArgMax", ["t1"], "y", {"axis": -1})], chain_numpy, np.int64),
]
# The min side: a twin of each single-node Max and ArgMax row (same targets), then the reductions.
WORKLOADS += [twin(w) for w in WORKLOADS if len(w.nodes) == 1 and w.nodes[0].op in ("Max", "ArgMax")]
WORKLOADS += [
    Workload("reduce_last", "ReduceMax f32 [4096,4096] axes [-1]", max_of(normal((4096, 4096), F32)),
             reduce_node("ReduceMax", [-1]), np_reduce((-1,))),
    Workload("reduce_first", "ReduceMax f32 [4096,4096] axes [0]", max_of(normal((4096, 4096), F32)),
             reduce_node("ReduceMax", [0]), np_reduce((0,))),
    Workload("reduce_mid", "ReduceMax f32 [64,1024,256] axes [1]", max_of(normal((64, 1024, 256), F32)),
             reduce_node("ReduceMax", [1]), np_reduce((1,))),
    Workload("reduce_all", "ReduceMax f32 [4096,4096] all axes", max_of(normal((4096, 4096), F32)),
             reduce_node("ReduceMax", None), np_reduce(None)),
    Workload("reduce_min_last", "ReduceMin f32 [4096,4096] axes [-1]", max_of(normal((4096, 4096), F32)),
             reduce_node("ReduceMin", [-1]), np_reduce((-1,), np.min)),
    Workload("reduce_min_first", "ReduceMin f32 [4096,4096] axes [0]", max_of(normal((4096, 4096), F32)),
             reduce_node("ReduceMin", [0]), np_reduce((0,), np.min)),
    # Clip-13 as torch.clamp exports it: scalar bounds (here graph inputs, read at run time)
    Workload("clip_f32_4k", "Clip f32 [4096,4096] [] []",
             max_of(normal((4096, 4096), F32), lambda rng: np.array(-0.5, F32), lambda rng: np.array(0.5, F32)),
             [Node("Clip", ["x0", "x1", "x2"], "y")], lambda ins, outs: np.clip(*ins, out=outs[0])),
]


# ---- matrix products: 1024^3 against the FMA peak and OpenBLAS; batch-1 GEMV against the floor -----

def np_matmul(ins, outs):
    np.matmul(ins[0], ins[1], out=outs[0])


def np_linear(ins, outs):  # Gemm transB=1 with a bias, as nn.Linear exports it
    np.matmul(ins[0], ins[1].T, out=outs[0])
    outs[0] += ins[2]


WORKLOADS += [
    Workload("gemm_matmul_1k", "MatMul f32 [1024,1024] [1024,1024]",
             max_of(normal((1024, 1024), F32), normal((1024, 1024), F32)), [Node("MatMul", ["x0", "x1"], "y")],
             np_matmul, flops=2 * 1024 ** 3, blas=(1024, 1024, 1024, 0)),
    Workload("gemm_linear_1k", "Gemm f32 [1024,1024] [1024,1024]^T [1024]",
             max_of(normal((1024, 1024), F32), normal((1024, 1024), F32), normal((1024,), F32)),
             [Node("Gemm", ["x0", "x1", "x2"], "y", {"transB": 1})], np_linear, flops=2 * 1024 ** 3,
             blas=(1024, 1024, 1024, 1)),
    Workload("gemm_gemv_512_1000", "MatMul f32 [1,512] [512,1000]",
             max_of(normal((1, 512), F32), normal((512, 1000), F32)), [Node("MatMul", ["x0", "x1"], "y")],
             np_matmul, target="1.15x", flops=2 * 512 * 1000, blas=(1, 1000, 512, 0)),
    Workload("gemm_gemv_784_128", "MatMul f32 [1,784] [784,128]",
             max_of(normal((1, 784), F32), normal((784, 128), F32)), [Node("MatMul", ["x0", "x1"], "y")],
             np_matmul, target="1.15x", flops=2 * 784 * 128, blas=(1, 128, 784, 0)),
    Workload("gemm_linear_512_1000", "Gemm f32 [1,512] [1000,512]^T [1000]",
             max_of(normal((1, 512), F32), normal((1000, 512), F32), normal((1000,), F32)),
             [Node("Gemm", ["x0", "x1", "x2"], "y", {"transB": 1})], np_linear, target="1.15x",
             flops=2 * 512 * 1000, blas=(1, 1000, 512, 1)),
]


def linear_weights(n, k):
    """nn.Linear's weight [N, K] and bias [N] as initializers (as exported): minnx packs W' at prepare."""
    def consts(rng):
        return {"w": rng.standard_normal((n, k), dtype=F32), "b": rng.standard_normal((n,), dtype=F32)}
    return consts


WORKLOADS += [
    Workload(f"gemm_linear_w_{k}_{n}", f"Gemm f32 [1,{k}] W[{n},{k}]^T b[{n}] (initializers)",
             max_of(normal((1, k), F32)), [Node("Gemm", ["x0", "w", "b"], "y", {"transB": 1})], None, target="1.15x",
             flops=2 * k * n, blas=(1, n, k, 1), consts=linear_weights(n, k))
    for k, n in ((512, 1000), (784, 128))
]


# ---- Cast between float32 and float16, bfloat16, int32, int64 ------------------------------------

def bf16_of(gen):
    """bfloat16 inputs: float32 values cut to their upper half (exact bfloat16 values)."""
    return lambda rng: (gen(rng).view(np.uint32) >> 16).astype(np.uint16).view(BF16)


def np_cast(ins, outs):
    np.copyto(outs[0], ins[0], casting="unsafe")


def cast_workload(name, what, gen, to_dtype, numpy_op=np_cast):
    return Workload(name, f"Cast {what} [2048,2048]", lambda rng: [gen(rng)],
                    [Node("Cast", ["x0"], "y", {"to": onnx_type(np.dtype(to_dtype))})], numpy_op, to_dtype)


CAST_SHAPE = (2048, 2048)
WORKLOADS += [
    cast_workload("cast_f32_f16", "f32->f16", normal(CAST_SHAPE, F32), np.float16),
    cast_workload("cast_f16_f32", "f16->f32", normal(CAST_SHAPE, np.float16), F32),
    cast_workload("cast_f32_bf16", "f32->bf16", normal(CAST_SHAPE, F32), BF16, None),
    cast_workload("cast_bf16_f32", "bf16->f32", bf16_of(normal(CAST_SHAPE, F32)), F32, None),
    cast_workload("cast_f32_i32", "f32->i32", lambda rng: (rng.standard_normal(CAST_SHAPE, F32) * 1e6), np.int32),
    cast_workload("cast_i32_f32", "i32->f32", ints(CAST_SHAPE, np.int32, -2**31, 2**31 - 1), F32),
    cast_workload("cast_f32_i64", "f32->i64", lambda rng: (rng.standard_normal(CAST_SHAPE, F32) * 1e6), np.int64),
    cast_workload("cast_i64_f32", "i64->f32", ints(CAST_SHAPE, np.int64, -2**40, 2**40), F32),
    # beyond the target: int64 values of 2^53 and more have their low bits folded (ops/tensor/convert.c, i64_to_f32)
    cast_workload("cast_i64_f32_huge", "i64->f32 (|x| >= 2^53)", ints(CAST_SHAPE, np.int64, 2**53, 2**62), F32),
]


for _w in WORKLOADS:
    _w.target = ("" if _w.name.endswith("_huge") else "20ns" if _w.name == "tiny_views"
                 else "50ns" if "tiny" in _w.name else "" if _w.name == "chain"
                 else "1.3x" if _w.name.startswith(("argmax", "argmin", "reduce"))
                 or ("f16" in _w.name and _w.nodes[0].op != "Cast")
                 else "1.15x")


# ---- the arithmetic of real models (issue 20): elementwise against the floor, transcendental
# functions and Softmax against ONNX Runtime --------------------------------------------------------

def np_binary(fn):
    return lambda ins, outs: fn(ins[0], ins[1], out=outs[0])


def np_unary(fn):
    return lambda ins, outs: fn(ins[0], out=outs[0])


def np_sigmoid(ins, outs):
    y = outs[0]
    np.negative(ins[0], out=y)
    np.exp(y, out=y)
    y += 1
    np.reciprocal(y, out=y)


def np_softmax(ins, outs):
    y = outs[0]
    np.subtract(ins[0], ins[0].max(axis=-1, keepdims=True), out=y)
    np.exp(y, out=y)
    y /= y.sum(axis=-1, keepdims=True)


def np_softmax_first(ins, outs):
    y = outs[0]
    np.subtract(ins[0], ins[0].max(axis=0, keepdims=True), out=y)
    np.exp(y, out=y)
    y /= y.sum(axis=0, keepdims=True)


SQ4K = (4096, 4096)
ACTIVATIONS = [("exp", "Exp", np_unary(np.exp)), ("tanh", "Tanh", np_unary(np.tanh)), ("sigmoid", "Sigmoid", np_sigmoid),
               ("erf", "Erf", None), ("gelu", "Gelu", None)]  # numpy has no erf (and Debian's scipy is not needed)
WORKLOADS += [Workload(f"act_{name}_4k", f"{op} f32 [4096,4096]", max_of(normal(SQ4K, F32)), [Node(op, ["x0"], "y")],
                       fn, target="", vs_ort=True, opset=20 if op == "Gelu" else 13)
              for name, op, fn in ACTIVATIONS]
WORKLOADS += [
    Workload("softmax_last", "Softmax f32 [4096,1024] axis -1", max_of(normal((4096, 1024), F32)),
             [Node("Softmax", ["x0"], "y", {"axis": -1})], np_softmax, target="", vs_ort=True),
    Workload("softmax_first", "Softmax f32 [4096,1024] axis 0", max_of(normal((4096, 1024), F32)),
             [Node("Softmax", ["x0"], "y", {"axis": 0})], np_softmax_first, target="", vs_ort=True),
]
for op, fn in (("Add", np.add), ("Mul", np.multiply)):
    WORKLOADS += [
        Workload(f"{op.lower()}_f32_4k", f"{op} f32 [4096,4096] x2", max_of(normal(SQ4K, F32), normal(SQ4K, F32)),
                 [Node(op, ["x0", "x1"], "y")], np_binary(fn), target="1.15x"),
        Workload(f"{op.lower()}_row", f"{op} f32 [4096,4096] [4096]", max_of(normal(SQ4K, F32), normal((4096,), F32)),
                 [Node(op, ["x0", "x1"], "y")], np_binary(fn), target="1.15x"),
        Workload(f"{op.lower()}_col", f"{op} f32 [4096,4096] [4096,1]",
                 max_of(normal(SQ4K, F32), normal((4096, 1), F32)), [Node(op, ["x0", "x1"], "y")], np_binary(fn),
                 target="1.15x"),
    ]
# nodes too small to thread: the executor's and the kernel's fixed cost (the "50ns" target of tiny_*)
WORKLOADS += [Workload("tiny_add", "Add f32 [3,4] x2", max_of(normal((3, 4), F32), normal((3, 4), F32)),
                       [Node("Add", ["x0", "x1"], "y")], np_binary(np.add), target="50ns"),
              Workload("tiny_sigmoid", "Sigmoid f32 [3,4]", max_of(normal((3, 4), F32)), [Node("Sigmoid", ["x0"], "y")],
                       np_sigmoid, target="50ns")]
for op, fold in (("ReduceSum", np.sum), ("ReduceMean", np.mean)):
    short = op[len("Reduce"):].lower()
    for where, axes in (("last", [-1]), ("first", [0]), ("all", None)):
        WORKLOADS.append(Workload(f"reduce_{short}_{where}",
                                  f"{op} f32 [4096,4096] " + (f"axes {axes}" if axes else "all axes"),
                                  max_of(normal(SQ4K, F32)), reduce_node(op, axes),
                                  np_reduce(tuple(axes) if axes else None, fold), target="1.3x"))
# a fold over a middle axis (x.sum(dim=1) of [B, T, C]): each output's rows are contiguous runs of 1 KB
WORKLOADS.append(Workload("reduce_sum_middle", "ReduceSum f32 [64,1024,256] axes [1]",
                          max_of(normal((64, 1024, 256), F32)), reduce_node("ReduceSum", [1]),
                          np_reduce((1,), np.sum), target="1.3x"))


# ---- the layers of real networks (issue 21): each a one-node model at batch 1, weights as initializers,
# against ONNX Runtime at the same thread count ---------------------------------------------------------

def conv_out(size, k, stride, pad, dil=1):
    return (size + 2 * pad - (dil * (k - 1) + 1)) // stride + 1


def conv_layer(name, what, cin, hw, cout, k, stride=1, pad=0, group=1):
    kh, kw = (k, k) if isinstance(k, int) else k
    ph, pw = (pad, pad) if isinstance(pad, int) else pad
    oh, ow = conv_out(hw[0], kh, stride, ph), conv_out(hw[1], kw, stride, pw)

    def consts(rng):
        w = rng.standard_normal((cout, cin // group, kh, kw), dtype=F32) * F32(1 / np.sqrt(cin // group * kh * kw))
        return {"w": w.astype(F32), "b": rng.standard_normal((cout,), dtype=F32) * F32(0.1)}
    attrs = {"kernel_shape": [kh, kw], "strides": [stride, stride], "pads": [ph, pw, ph, pw], "group": group}
    return Workload(name, f"Conv {what} [1,{cin},{hw[0]},{hw[1]}] -> {cout}", max_of(normal((1, cin) + tuple(hw), F32)),
                    [Node("Conv", ["x0", "w", "b"], "y", attrs)], None, target="", vs_ort=True, consts=consts,
                    macs=cout * oh * ow * (cin // group) * kh * kw)


def np_global_avg(ins, outs):
    np.mean(ins[0], axis=(2, 3), keepdims=True, out=outs[0])


WORKLOADS += [
    conv_layer("conv_resnet_stem", "7x7/2 (ResNet-18 stem)", 3, (224, 224), 64, 7, 2, 3),
    conv_layer("conv_resnet_3x3", "3x3/1 (ResNet-18)", 64, (56, 56), 64, 3, 1, 1),
    conv_layer("conv_resnet_3x3s2", "3x3/2 (ResNet-18)", 64, (56, 56), 128, 3, 2, 1),
    conv_layer("conv_resnet_3x3_l3", "3x3/1 (ResNet-18 layer3)", 256, (14, 14), 256, 3, 1, 1),
    conv_layer("conv_resnet_3x3_l4", "3x3/1 (ResNet-18 layer4)", 512, (7, 7), 512, 3, 1, 1),
    conv_layer("conv_mbv2_dw", "dw 3x3/1 (MobileNet v2)", 144, (56, 56), 144, 3, 1, 1, group=144),
    conv_layer("conv_mbv2_pw", "pw 1x1 (MobileNet v2)", 144, (56, 56), 24, 1),
    conv_layer("conv_dscnn_stem", "10x4/2 (DS-CNN)", 1, (49, 10), 64, (10, 4), 2, (5, 1)),
    conv_layer("conv_dscnn_dw", "dw 3x3/1 (DS-CNN)", 64, (25, 5), 64, 3, 1, 1, group=64),
    conv_layer("conv_dscnn_pw", "pw 1x1 (DS-CNN)", 64, (25, 5), 64, 1),
    Workload("pool_max_resnet", "MaxPool 3x3/2 f32 [1,64,112,112]", max_of(normal((1, 64, 112, 112), F32)),
             [Node("MaxPool", ["x0"], "y", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]})], None,
             target="", vs_ort=True),
    Workload("pool_gap_resnet", "GlobalAveragePool f32 [1,512,7,7]", max_of(normal((1, 512, 7, 7), F32)),
             [Node("GlobalAveragePool", ["x0"], "y")], np_global_avg, target="", vs_ort=True),
    Workload("pool_gap_mbv2", "GlobalAveragePool f32 [1,1280,7,7]", max_of(normal((1, 1280, 7, 7), F32)),
             [Node("GlobalAveragePool", ["x0"], "y")], np_global_avg, target="", vs_ort=True),
]


# ---- shapes and bytes, for the floor --------------------------------------------------------------

def out_shape(node, shapes):
    ins = [shapes[i] for i in node.inputs]
    if node.op == "MatMul":
        return np.matmul(np.empty(ins[0], np.int8), np.empty(ins[1], np.int8)).shape
    if node.op == "Gemm":
        a, b = ins[0], ins[1]
        return (a[1] if node.attrs.get("transA") else a[0], b[0] if node.attrs.get("transB") else b[1])
    if node.op in ("Max", "Min", "Add", "Mul"):
        return np.broadcast_shapes(*ins)
    if node.op in ("Identity", "Cast", "Clip", "Exp", "Tanh", "Sigmoid", "Erf", "Gelu", "Softmax"):
        return ins[0]
    if node.op in ("Conv", "MaxPool"):
        k = node.attrs["kernel_shape"]
        s, p = node.attrs.get("strides", [1] * len(k)), node.attrs.get("pads", [0] * 2 * len(k))
        cout = ins[1][0] if node.op == "Conv" else ins[0][1]
        return (ins[0][0], cout) + tuple((ins[0][2 + i] + p[i] + p[i + len(k)] - k[i]) // s[i] + 1 for i in range(len(k)))
    if node.op == "GlobalAveragePool":
        return ins[0][:2] + (1,) * (len(ins[0]) - 2)
    if node.op == "Flatten":
        a = node.attrs.get("axis", 1)
        return (int(np.prod(ins[0][:a])), int(np.prod(ins[0][a:])))
    s = list(ins[0])
    axes = node.attrs.get("axes", [node.attrs.get("axis")]) or range(len(s))  # reductions keep dims
    for a in axes:
        s[a] = 1
    return tuple(s)


def node_shapes(w, arrays):
    """Each value's shape and dtype, in node order."""
    shapes = {f"x{i}": a.shape for i, a in enumerate(arrays)}
    dtypes = {f"x{i}": a.dtype for i, a in enumerate(arrays)}
    for name, a in w.const_arrays.items():
        shapes[name], dtypes[name] = a.shape, a.dtype
    for n in w.nodes:
        shapes[n.output] = out_shape(n, shapes)
        dtypes[n.output] = (np.dtype(np.int64) if n.op.startswith("Arg") else np.dtype(w.out_dtype) if n.op == "Cast"
                            else dtypes[n.inputs[0]])
    return shapes, dtypes


def floor_stages(w, arrays):
    """One floor stage per node: the bytes it must read and write; an input that an earlier node
    wrote is that stage's output (@j), so the floor reads it where it was written, as minnx does."""
    shapes, dtypes = node_shapes(w, arrays)
    nbytes = lambda v: int(np.prod(shapes[v], dtype=np.int64)) * dtypes[v].itemsize
    made = {n.output: j for j, n in enumerate(w.nodes)}
    src = lambda v: f"@{made[v]}" if v in made else str(nbytes(v))
    return ["0:0" if n.op in VIEWS else "+".join(src(i) for i in n.inputs) + ":" + str(nbytes(n.output))
            for n in w.nodes]


def total_bytes(w, arrays):
    """The bytes the floor moves: every node's inputs read and output written."""
    shapes, dtypes = node_shapes(w, arrays)
    nbytes = lambda v: int(np.prod(shapes[v], dtype=np.int64)) * dtypes[v].itemsize
    return sum(sum(nbytes(i) for i in n.inputs) + nbytes(n.output) for n in w.nodes if n.op not in VIEWS)


# ---- writing the cases ----------------------------------------------------------------------------

def write_case(w, arrays, d):
    shapes, dtypes = node_shapes(w, arrays)
    inputs = [helper.make_tensor_value_info(f"x{i}", onnx_type(a.dtype), a.shape) for i, a in enumerate(arrays)]
    y = w.nodes[-1].output
    out_type = onnx_type(dtypes[y])
    outputs = [helper.make_tensor_value_info(y, out_type, shapes[y])]
    nodes, inits = [], [numpy_helper.from_array(a, name) for name, a in w.const_arrays.items()]
    for n in w.nodes:
        attrs = {k: v for k, v in n.attrs.items() if v is not None}
        ins = list(n.inputs)
        if n.op == "ReduceSum" and w.opset >= 13 and "axes" in attrs:  # axes an input from ReduceSum-13
            inits.append(numpy_helper.from_array(np.array(attrs.pop("axes"), np.int64), f"{n.output}_axes"))
            ins.append(f"{n.output}_axes")
        nodes.append(helper.make_node(n.op, ins, [n.output], **attrs))
    graph = helper.make_graph(nodes, w.name, inputs, outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", w.opset)], producer_name="minnx-bench")
    model.ir_version = 8 if w.opset <= 18 else 9  # IR 9 from ONNX 1.14 (opset 19)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for i, a in enumerate(arrays):
        with open(os.path.join(d, f"input_{i}.pb"), "wb") as f:
            t = numpy_helper.from_array(a, f"x{i}")
            t.data_type = onnx_type(a.dtype)  # bfloat16: the same bytes
            f.write(t.SerializeToString())
    with open(os.path.join(d, "stamp"), "w") as f:
        f.write(STAMP + "\n")


def case_is_current(d):
    try:
        with open(os.path.join(d, "stamp")) as f:
            return f.read().strip() == STAMP
    except OSError:
        return False


# ---- timing ---------------------------------------------------------------------------------------

def repeats(nbytes, macs=0):
    """Enough runs for about a quarter second per measurement at ~10 GB/s (or 10 G multiply-adds/s)."""
    return max(7, min(2001, int(0.25 / (max(nbytes / 10e9, macs / 10e9) + 1e-7))) | 1)


def ns_per_run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1].split("=")[1])


def numpy_ns(w, arrays, outs, n):
    for _ in range(2):
        w.numpy_op(arrays, outs)
    times = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        w.numpy_op(arrays, outs)
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times)


ORT_VERSION = "1.30.0"
TIME_JS = os.path.join(HERE, "ort", "time.js")


def default_ort_dir():
    """Where tests/bench/ort/install.sh installs by default: the user's cache, shared by build trees."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "minnx", f"onnxruntime-node-{ORT_VERSION}")


def find_ort(ort_dir, node):
    """The command that times ONNX Runtime (tests/bench/ort/time.js), or None and why not."""
    pkg = os.path.join(ort_dir, "node_modules", "onnxruntime-node", "package.json")
    if not shutil.which(node):
        return None, f"no {node} (Debian: nodejs npm)"
    try:
        with open(pkg) as fh:
            version = json.load(fh)["version"]
    except (OSError, ValueError, KeyError):
        return None, f"not installed in {ort_dir} (tests/bench/ort/install.sh [{ort_dir}])"
    if version != ORT_VERSION:
        return None, f"{ort_dir} holds onnxruntime-node {version}, not {ORT_VERSION} (tests/bench/ort/install.sh)"
    return [node, "--expose-gc", TIME_JS, "--ort", ort_dir], None


# From this many bytes of inputs and outputs, ORT's cell is its own time of a run (time.js --ort-run: its
# profiler's model_run), not the time through its Node binding, whose conversion of the feeds and fetches
# costs tens of nanoseconds per element (an Exp of [4096,4096]: 470-550 ms through the binding, 5-8 ms
# inside ORT). Below it the binding's time stands (a few us of its own, printed under the table): the
# profiler's events cost tens of microseconds per run there.
ORT_RUN_BYTES = 1 << 20


def ort_time(ort, d, rep, threads, own_run=False):
    """ONNX Runtime's ns per run and peak RSS delta (bytes, or None), or (None, None, why it refused)."""
    r = subprocess.run(ort + [d] + rep + ["--threads", str(threads)] + (["--ort-run"] if own_run else []),
                       capture_output=True, text=True)
    if r.returncode:
        why = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[0]
        return None, None, why
    kv = dict(tok.split("=", 1) for tok in r.stdout.split() if "=" in tok)
    delta = kv.get("rss_delta", "-")
    return float(kv.get("ort_run_ns", kv["ns_per_run"])), None if delta == "-" else int(delta), None


def build_floor(work):
    exe = os.path.join(work, "floor")
    subprocess.run([os.environ.get("CC", "cc"), "-O3", "-march=native", "-DNDEBUG", "-std=c11", "-pthread", "-o", exe,
                    os.path.join(HERE, "floor.c")], check=True)
    return exe


def build_peers(work):
    """gemm_peers (the FMA peak probe and OpenBLAS), or None without libopenblas-dev."""
    exe = os.path.join(work, "gemm_peers")
    r = subprocess.run([os.environ.get("CC", "cc"), "-O3", "-march=native", "-DNDEBUG", "-std=c11", "-pthread", "-o",
                        exe, os.path.join(HERE, "gemm_peers.c"), "-lopenblas"], capture_output=True, text=True)
    if r.returncode:
        print(f"gemm_peers not built (libopenblas-dev?): {r.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return exe


def peak_flops_per_ns(peers, threads):
    out = subprocess.run([peers, "peak", "--threads", str(threads)], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1].split("=")[1])


def fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minnx", default="build/minnx")
    ap.add_argument("--work", default="build/bench")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="run the workloads whose names contain one of these comma-separated words")
    ap.add_argument("--no-numpy", action="store_true")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--ort", default=default_ort_dir(), help="where tests/bench/ort/install.sh installed ONNX Runtime")
    ap.add_argument("--node", default="node")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    floor = build_floor(args.work)
    peers = build_peers(args.work)
    ort, why_no_ort = find_ort(os.path.abspath(args.ort), args.node)
    if not ort:
        print(f"ONNX Runtime's columns say '-': {why_no_ort}", file=sys.stderr)
    ort_refused = {}  # workload -> why ORT refused it (an operator or dtype it lacks)
    ort_id = None
    if ort:  # ORT's cost per run through its Node binding: an Identity of one float
        ort_id = os.path.join(args.work, "ort_identity")
        ident = Workload("ort_identity", "", max_of(normal((1,), F32)), [Node("Identity", ["x0"], "y")], None)
        if not case_is_current(ort_id):
            write_case(ident, ident.inputs(np.random.default_rng(0)), ort_id)
    ort_id_ns = []
    words = args.only.split(",")
    chosen = [w for w in WORKLOADS if any(word in w.name for word in words)]
    if not chosen:
        ap.error(f"--only {args.only!r} names no workload; the names are: " + ", ".join(w.name for w in WORKLOADS))
    cases = []
    for w in chosen:
        rng = np.random.default_rng(zlib.crc32(w.name.encode()))
        arrays = w.inputs(rng)
        w.const_arrays = w.consts(rng) if w.consts else {}
        d = os.path.join(args.work, w.name)
        if not case_is_current(d):
            print(f"writing {d}", file=sys.stderr)
            write_case(w, arrays, d)
        shapes, dtypes = node_shapes(w, arrays)
        y = w.nodes[-1].output
        outs = [np.empty(shapes[y], dtype=w.out_dtype or arrays[0].dtype)]
        cases.append((w, arrays, outs, d, repeats(total_bytes(w, arrays), w.macs)))

    print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at start", file=sys.stderr)
    T = args.threads
    keys = ["minnx", "floor", "ratio", "minnxN", "floorN", "ratioN", "numpy", "nratio",
            "peak", "peakN", "blas", "blasN", "of_peak", "of_peakN", "vs_blas", "vs_blasN",
            "ort", "ortN", "vs_ort", "vs_ortN"]
    rows = {w.name: {k: [] for k in keys} for w, *_ in cases}
    for r in range(args.rounds):
        if ort_id:
            ns, _, why = ort_time(ort, ort_id, ["--repeat", "101", "--warmup", "3"], 1)
            if ns is not None:
                ort_id_ns.append(ns)
        for w, arrays, outs, d, n in cases:
            rep = ["--repeat", str(n), "--warmup", "3"]
            row = rows[w.name]
            for t, sfx in ((1, ""), (T, "N")):
                f = ns_per_run([floor] + rep + ["--threads", str(t)] + floor_stages(w, arrays))
                m = ns_per_run([args.minnx, "bench", d] + rep + ["--threads", str(t)])
                row["floor" + sfx].append(f)
                row["minnx" + sfx].append(m)
                row["ratio" + sfx].append(m / f)
                if ort and w.name not in ort_refused:  # ONNX Runtime, the same round, the same thread count
                    o, _, why = ort_time(ort, d, rep, t, total_bytes(w, arrays) >= ORT_RUN_BYTES)
                    if why:
                        ort_refused[w.name] = why
                    else:
                        row["ort" + sfx].append(o)
                        row["vs_ort" + sfx].append(m / o)
                if w.flops and peers:  # the same round: the peak probe and OpenBLAS beside minnx
                    pk = peak_flops_per_ns(peers, t)
                    row["peak" + sfx].append(pk)
                    row["of_peak" + sfx].append(w.flops / m / pk)
                    if w.blas:  # the same product through cblas_sgemm: (M, N, K, B transposed)
                        bl = ns_per_run([peers, "sgemm"] + [str(v) for v in w.blas] + rep[:2] + ["--threads", str(t)])
                        row["blas" + sfx].append(bl)
                        row["vs_blas" + sfx].append(m / bl)
            f = row["floor"][-1]
            if not args.no_numpy and w.numpy_op:
                row["numpy"].append(numpy_ns(w, arrays, outs, n))
                row["nratio"].append(row["numpy"][-1] / f)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the end")
    W = max([42] + [len(c[0].what) for c in cases])
    print(f"{'workload':<{W}} {'MB':>6} {'minnx':>10} {'floor':>10} {'minnx/floor':>11} {'target':>10}"
          f" {'minnx ' + str(T) + 't':>10} {'floor ' + str(T) + 't':>10} {'ratio ' + str(T) + 't':>10}"
          f" {'target':>10} {'numpy':>10} {'numpy/floor':>11}"
          f" {'ORT':>10} {'minnx/ORT':>12} {'ORT ' + str(T) + 't':>10} {'minnx/ORT ' + str(T) + 't':>12}")
    for w, arrays, outs, d, n in cases:
        row = rows[w.name]
        med = {k: statistics.median(v) if v else None for k, v in row.items()}
        ok = w.meets(med["ratio"], med["minnx"])
        target = "-" if ok is None else f"{w.target} {'ok' if ok else 'MISS'}"
        # N threads: the target is for workloads of 1 MiB or more (tiny ones stay inline)
        okN = w.meets(med["ratioN"], med["minnxN"]) if total_bytes(w, arrays) >= 2**20 or not w.target.endswith("x") else None
        targetN = "-" if okN is None else f"{w.target} {'ok' if okN else 'MISS'}"
        npy = f"{fmt_ns(med['numpy']):>10} {med['nratio']:>10.2f}x" if row["numpy"] else f"{'-':>10} {'-':>11}"
        ort_cells = ""
        for sfx in ("", "N"):  # minnx/ORT: no slower than ORT is <= 1.00x
            if row["ort" + sfx]:
                v = med["vs_ort" + sfx]
                mark = (" ok" if v <= 1.0 else " MISS") if w.vs_ort else ""
                ort_cells += f" {fmt_ns(med['ort' + sfx]):>10} {f'{v:.2f}x{mark}':>12}"
            else:
                ort_cells += f" {'-':>10} {'-':>12}"
        print(f"{w.what:<{W}} {total_bytes(w, arrays) / 1e6:>6.1f} {fmt_ns(med['minnx']):>10} "
              f"{fmt_ns(med['floor']):>10} {med['ratio']:>10.2f}x {target:>10} "
              f"{fmt_ns(med['minnxN']):>10} {fmt_ns(med['floorN']):>10} {med['ratioN']:>9.2f}x {targetN:>10} {npy}"
              f"{ort_cells}")
    print(f"({args.rounds} rounds; a cell is the median over the rounds of a median of N runs, N from "
          f"{min(c[4] for c in cases)} to {max(c[4] for c in cases)}; a ratio is the median of the "
          f"rounds' ratios)")
    if not ort:
        print(f"(ORT: {why_no_ort})")
    else:
        print(f"(ORT: onnxruntime-node {ORT_VERSION} through its Node binding (tests/bench/ort/time.js), "
              f"intra-op threads as minnx's, inter-op 1, sequential; "
              + (f"its cost per run there, an Identity of one float: {fmt_ns(statistics.median(ort_id_ns))}, "
                 "is in the ORT cells under 1 MiB; from 1 MiB on a cell is ORT's own time of a run, its "
                 "profiler's model_run" if ort_id_ns else "its Identity probe failed") + ")")
        for name, why in ort_refused.items():
            print(f"(ORT refused {name}: {why})")
    products = [c for c in cases if c[0].flops and rows[c[0].name]["peak"]]
    if products:
        print()
        print(f"{'matrix product':<{W}} " + " ".join(
            f"{h + sfx:>10}" for sfx in ("", f" {T}t") for h in ("minnx", "GFLOP/s", "of peak", "OpenBLAS", "minnx/BLAS")))
        for w, *_ in products:
            med = {k: statistics.median(v) if v else None for k, v in rows[w.name].items()}
            cells = []
            for sfx in ("", "N"):
                cells += [fmt_ns(med["minnx" + sfx]), f"{w.flops / med['minnx' + sfx]:.1f}",
                          f"{100 * med['of_peak' + sfx]:.0f}%", fmt_ns(med["blas" + sfx]) if med["blas" + sfx] else "-",
                          f"{med['vs_blas' + sfx]:.2f}x" if med["vs_blas" + sfx] else "-"]
            print(f"{w.what:<{W}} " + " ".join(f"{c:>10}" for c in cells))
        print(f"(FMA peak, float32, median over the rounds: {statistics.median(rows[products[0][0].name]['peak']):.1f} "
              f"GFLOP/s at 1 thread, {statistics.median(rows[products[0][0].name]['peakN']):.1f} at {T}; of peak and "
              f"minnx/BLAS are medians of the rounds' ratios)")


def machine():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next(l.split(":", 1)[1].strip() for l in out.splitlines() if l.startswith("Model name"))
    except (OSError, StopIteration):
        model = "unknown CPU"
    return f"{model}, {os.cpu_count()} CPUs"


if __name__ == "__main__":
    main()
