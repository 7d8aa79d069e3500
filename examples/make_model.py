#!/usr/bin/python3
"""Writes the example model shipped with minnx, with one test data set whose
expected outputs come from numpy: max_argmax/model.onnx computes
m = Max(a, b) and idx = ArgMax(m, axis=1, keepdims=0) on float [2,4] inputs.

Run with Debian's python3 (python3-onnx, python3-numpy): /usr/bin/python3 make_model.py
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "max_argmax")

a = np.array([[1.0, -2.0, 3.5, 0.0], [-1.0, -5.0, -0.5, -3.0]], dtype=np.float32)
b = np.array([[0.5, 4.0, -1.0, 2.0], [-2.0, -4.0, -0.25, -6.0]], dtype=np.float32)
m = np.maximum(a, b)
idx = np.argmax(m, axis=1).astype(np.int64)

graph = helper.make_graph(
    [helper.make_node("Max", ["a", "b"], ["m"], name="max"),
     helper.make_node("ArgMax", ["m"], ["idx"], name="argmax", axis=1, keepdims=0)],
    "max_argmax",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 4]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("m", TensorProto.FLOAT, [2, 4]),
     helper.make_tensor_value_info("idx", TensorProto.INT64, [2])])
model = helper.make_model(graph, producer_name="minnx-example", opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8

os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
for name, arr in (("input_0", a), ("input_1", b), ("output_0", m), ("output_1", idx)):
    t = numpy_helper.from_array(arr, name={"input_0": "a", "input_1": "b", "output_0": "m", "output_1": "idx"}[name])
    with open(os.path.join(out, "test_data_set_0", name + ".pb"), "wb") as f:
        f.write(t.SerializeToString())
sys.stdout.write("wrote %s\n" % out)
