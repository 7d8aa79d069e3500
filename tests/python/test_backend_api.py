"""minnx.backend's own entry points, beside what onnx's runner exercises."""
import numpy as np
import onnx
from onnx import TensorProto, helper

import minnx
import minnx.backend as backend


def model(op="Max"):
    node = helper.make_node(op, ["a", "b"], ["y"]) if op == "Max" else helper.make_node(op, ["a"], ["y"])
    ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in (["a", "b"] if op == "Max" else ["a"])]
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_devices():
    assert backend.supports_device("CPU")
    assert not backend.supports_device("CUDA")


def test_compatibility_comes_from_the_library():
    assert backend.is_compatible(model("Max"))
    assert not backend.is_compatible(model("Det"))


def test_prepare_and_run_model():
    a = np.array([1, -5, 3], np.float32)
    b = np.array([0, 2, 9], np.float32)
    rep = backend.prepare(model(), "CPU")
    np.testing.assert_array_equal(rep.run([a, b])[0], np.maximum(a, b))
    np.testing.assert_array_equal(rep.run({"a": a, "b": b})[0], np.maximum(a, b))
    np.testing.assert_array_equal(backend.run_model(model(), [a, b])[0], np.maximum(a, b))


def test_run_node():
    a = np.array([[1, 7, 3], [4, 0, 6]], np.int32)
    node = helper.make_node("ArgMax", ["x"], ["i"], axis=1, keepdims=0)
    [i] = backend.run_node(node, [a])
    np.testing.assert_array_equal(i, np.argmax(a, axis=1))


def test_bfloat16_through_the_backend_as_float32():
    node = helper.make_node("Max", ["a", "b"], ["y"])
    ins = [helper.make_tensor_value_info(n, TensorProto.BFLOAT16, [3]) for n in "ab"]
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [3])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    a = np.array([1.5, -2.0, 3.0], np.float32)  # exactly representable in bfloat16
    b = np.array([1.0, -1.0, np.nan], np.float32)
    [y] = backend.run_model(m, [a, b])
    if minnx._BF16 is None:
        assert y.dtype == np.float32
        np.testing.assert_array_equal(y, np.maximum(a, b))


def test_a_model_refused_for_another_reason_is_compatible_so_that_it_fails_loudly():
    m = model()
    m.graph.node[0].attribute.append(helper.make_attribute("bogus", 1))
    assert backend.is_compatible(m)
    try:
        minnx.InferenceSession(m.SerializeToString())
    except minnx.Error as e:
        assert not isinstance(e, minnx.UnsupportedError), e
    else:
        raise AssertionError("an unknown attribute was accepted")
    assert onnx.__version__
