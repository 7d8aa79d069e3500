#!/usr/bin/python3
"""Memory figures for the README: for every official Max/ArgMax case and the
benchmark workloads (issue 4's list), what `minnx info` reports: the arena the
planner chose, the sum of all value sizes (a plan without reuse), and what a
program giving minnx all its memory provides for the model and for a session.

usage: figures.py MINNX NODE_TEST_DIR   (prints a Markdown table)
The workload models are written to a temporary folder; they hold no data."""
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

F32, F16, F64, I8, I64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.INT8, TensorProto.INT64


def model(nodes, inputs, outputs):
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [helper.make_tensor_value_info(n, t, None) for n, t in outputs])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def max_of(dtype, *shapes):
    names = ["x%d" % i for i in range(len(shapes))]
    return model([helper.make_node("Max", names, ["y"])], [(n, dtype, s) for n, s in zip(names, shapes)], [("y", dtype)])


def argmax(shape, axis, last=0):
    node = helper.make_node("ArgMax", ["x"], ["y"], axis=axis, select_last_index=last)
    return model([node], [("x", F32, shape)], [("y", I64)])


def chain(shape):
    nodes = [helper.make_node("Max", ["a", "b"], ["m1"]), helper.make_node("Max", ["m1", "a"], ["m2"]),
             helper.make_node("ArgMax", ["m2"], ["y"], axis=-1)]
    return model(nodes, [("a", F32, shape), ("b", F32, shape)], [("y", I64)])


WORKLOADS = [
    ("Max f32 [1024,1024] x2", max_of(F32, [1024, 1024], [1024, 1024])),
    ("Max f32 [4096,4096] x2", max_of(F32, [4096, 4096], [4096, 4096])),
    ("Max f32 [2048,2048] x4", max_of(F32, *[[2048, 2048]] * 4)),
    ("Max f32 [4096,4096] with [4096]", max_of(F32, [4096, 4096], [4096])),
    ("Max f32 [4096,4096] with [4096,1]", max_of(F32, [4096, 4096], [4096, 1])),
    ("Max f32 [4096,4096] with scalar", max_of(F32, [4096, 4096], [])),
    ("Max f32 [16,1,64,1] with [128,1,256]", max_of(F32, [16, 1, 64, 1], [128, 1, 256])),
    ("Max int8 [4096,4096] x2", max_of(I8, [4096, 4096], [4096, 4096])),
    ("Max float16 [2048,2048] x2", max_of(F16, [2048, 2048], [2048, 2048])),
    ("Max float64 [2048,2048] x2", max_of(F64, [2048, 2048], [2048, 2048])),
    ("Max int64 [2048,2048] x2", max_of(I64, [2048, 2048], [2048, 2048])),
    ("ArgMax f32 [4096,4096] axis -1", argmax([4096, 4096], -1)),
    ("ArgMax f32 [4096,4096] axis 0", argmax([4096, 4096], 0)),
    ("ArgMax f32 [64,1024,256] axis 1", argmax([64, 1024, 256], 1)),
    ("ArgMax f32 [4096,4096] axis -1, last index", argmax([4096, 4096], -1, 1)),
    ("Max f32 [3,4] x2", max_of(F32, [3, 4], [3, 4])),
    ("ArgMax f32 [3,4] axis 1", argmax([3, 4], 1)),
    ("Max -> Max -> ArgMax f32 [1024,1024]", chain([1024, 1024])),
]


wrapped = [0, 0]


def info(minnx, path):
    # MINNX_WRAPPER, when set, prefixes minnx (valgrind; qemu-user in a cross build); under valgrind
    # (ctest's memcheck run, where a start takes a second) every third model only, the rest run plain
    wrapper = os.environ.get("MINNX_WRAPPER", "").split()
    if "valgrind" in " ".join(wrapper) and wrapped[1] % 3:
        wrapper = []
    wrapped[0] += bool(wrapper)
    wrapped[1] += 1
    out = subprocess.run(wrapper + [minnx, "info", path], check=True, capture_output=True, text=True).stdout
    arena = re.search(r"^arena: (\d+) bytes \(values without reuse: (\d+) bytes\)", out, re.M)
    mem = re.search(r"^caller memory: model (\d+) bytes to load \((\d+) kept\), session (\d+) bytes$", out, re.M)
    if not arena or not mem:
        sys.exit("unexpected 'minnx info' output for %s:\n%s" % (path, out))
    return [int(x) for x in arena.groups() + mem.groups()]


def main():
    minnx, node_dir = sys.argv[1], sys.argv[2]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, m) in enumerate(WORKLOADS):
            path = os.path.join(tmp, "w%d.onnx" % i)
            onnx.save(m, path)
            rows.append((name, info(minnx, path)))
    for case in sorted(os.listdir(node_dir)):
        if re.match(r"test_(max|argmax)_", case):
            rows.append((case, info(minnx, os.path.join(node_dir, case, "model.onnx"))))
    print("| model | arena | values, no reuse | model region (load) | model kept | session region |")
    print("|---|--:|--:|--:|--:|--:|")
    for name, (arena, values, load, kept, session) in rows:
        print("| %s | %d | %d | %d | %d | %d |" % (name, arena, values, load, kept, session))
    if wrapped[0] < wrapped[1] and "valgrind" in os.environ.get("MINNX_WRAPPER", ""):
        print("memory/figures: sampled under valgrind: %d of %d models run" % tuple(wrapped), file=sys.stderr)


main()
