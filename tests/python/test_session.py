"""minnx.InferenceSession against numpy: dtypes, shapes, names, copies, errors, the GIL."""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from onnx import TensorProto, helper

import minnx


def max_model(dtype=TensorProto.FLOAT, shape_a=("N", 3), shape_b=(1, 3), opset=13, out_shape=None):
    a = helper.make_tensor_value_info("a", dtype, list(shape_a))
    b = helper.make_tensor_value_info("b", dtype, list(shape_b))
    y = helper.make_tensor_value_info("y", dtype, None if out_shape is None else list(out_shape))
    node = helper.make_node("Max", ["a", "b"], ["y"])
    graph = helper.make_graph([node], "max", [a, b], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()


@pytest.fixture
def sess():
    return minnx.InferenceSession(max_model())


def test_version():
    assert minnx.__version__ == minnx.get_version()
    assert [int(x) for x in minnx.__version__.split(".")] >= [0, 1, 0]


def test_inputs_outputs_described_like_onnxruntime(sess):
    ins = sess.get_inputs()
    assert [(a.name, a.shape, a.type) for a in ins] == [("a", ["N", 3], "tensor(float)"), ("b", [1, 3], "tensor(float)")]
    [y] = sess.get_outputs()
    assert (y.name, y.type) == ("y", "tensor(float)")
    assert y.shape == [None, 3]
    [y] = minnx.InferenceSession(max_model(out_shape=("batch", 3))).get_outputs()
    assert y.shape == ["batch", 3]


def test_load_from_path(tmp_path):
    p = tmp_path / "m.onnx"
    p.write_bytes(max_model())
    s = minnx.InferenceSession(p)
    a = np.array([[1, 5, -3]], np.float32)
    b = np.array([[2, 2, 2]], np.float32)
    [y] = s.run(None, {"a": a, "b": b})
    np.testing.assert_array_equal(y, np.maximum(a, b))


@pytest.mark.parametrize("dtype,np_dtype", [(TensorProto.FLOAT, np.float32), (TensorProto.DOUBLE, np.float64),
                                            (TensorProto.FLOAT16, np.float16), (TensorProto.INT8, np.int8),
                                            (TensorProto.UINT64, np.uint64), (TensorProto.INT64, np.int64)])
def test_dtypes_match_numpy(dtype, np_dtype):
    s = minnx.InferenceSession(max_model(dtype))
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((4, 3)) * 50).astype(np_dtype)
    b = (rng.standard_normal((1, 3)) * 50).astype(np_dtype)
    [y] = s.run(["y"], {"a": a, "b": b})
    assert y.dtype == np_dtype and y.shape == (4, 3)
    np.testing.assert_array_equal(y, np.maximum(a, b))


def test_bfloat16_as_bit_patterns():
    s = minnx.InferenceSession(max_model(TensorProto.BFLOAT16, shape_a=(3,), shape_b=(3,)))
    assert s.get_inputs()[0].type == "tensor(bfloat16)"
    if minnx._BF16 is not None:
        pytest.skip("ml_dtypes present: bfloat16 is a real dtype here")
    a = np.array([0x3F80, 0xC000, 0x7FC0], np.uint16)  # 1.0, -2.0, NaN
    b = np.array([0x4000, 0xBF80, 0x3F80], np.uint16)  # 2.0, -1.0, 1.0
    [y] = s.run(None, {"a": a, "b": b})
    assert y.dtype == np.uint16
    assert list(y[:2]) == [0x4000, 0xBF80] and (y[2] & 0x7FFF) > 0x7F80


def test_outputs_are_copies_that_outlive_the_next_run(sess):
    a = np.zeros((2, 3), np.float32)
    b = np.ones((1, 3), np.float32)
    [y1] = sess.run(None, {"a": a, "b": b})
    [y2] = sess.run(None, {"a": a + 5, "b": b})
    assert (y1 == 1).all() and (y2 == 5).all()


def test_contiguous_input_is_bound_without_a_copy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert minnx.contiguous_input(a) is a


def test_non_contiguous_and_byte_swapped_inputs_are_copied(sess):
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    strided = base[:, ::2]
    fortran = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(4, 3))
    swapped = np.arange(12, dtype=">f4").reshape(4, 3)
    b = np.full((1, 3), 7, np.float32)
    for a in (strided, fortran, swapped):
        c = minnx.contiguous_input(a)
        assert c is not a and c.flags.c_contiguous and c.dtype.isnative
        [y] = sess.run(None, {"a": a, "b": b})
        np.testing.assert_array_equal(y, np.maximum(a.astype(np.float32), b))


def test_wrong_dtype(sess):
    with pytest.raises(minnx.DtypeError) as e:
        sess.run(None, {"a": np.zeros((2, 3), np.float64), "b": np.zeros((1, 3), np.float32)})
    assert e.value.status == "dtype" and "'a'" in e.value.message


def test_numpy_dtype_without_onnx_counterpart(sess):
    with pytest.raises(minnx.DtypeError, match="complex64"):
        sess.run(None, {"a": np.zeros((2, 3), np.complex64), "b": np.zeros((1, 3), np.float32)})


def test_wrong_shape(sess):
    with pytest.raises(minnx.ShapeError) as e:
        sess.run(None, {"a": np.zeros((2, 3), np.float32), "b": np.zeros((2, 3), np.float32)})
    assert e.value.status == "shape" and "'b'" in e.value.message


def test_wrong_input_and_output_names(sess):
    feeds = {"a": np.zeros((2, 3), np.float32), "b": np.zeros((1, 3), np.float32)}
    with pytest.raises(minnx.ArgumentError, match="no input named 'c'"):
        sess.run(None, dict(feeds, c=feeds["a"]))
    with pytest.raises(minnx.ArgumentError, match="no output named 'z'"):
        sess.run(["z"], feeds)
    with pytest.raises(minnx.ArgumentError, match="no value given for input.* b"):
        sess.run(None, {"a": feeds["a"]})


def test_load_errors_carry_status_and_message(tmp_path):
    with pytest.raises(minnx.ParseError) as e:
        minnx.InferenceSession(b"\xff\xff\xff not a model")
    assert e.value.status == "parse" and e.value.message
    with pytest.raises(minnx.FileError):
        minnx.InferenceSession(tmp_path / "missing.onnx")
    node = helper.make_node("Det", ["a"], ["y"])
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    with pytest.raises(minnx.UnsupportedError, match="Det"):
        minnx.InferenceSession(helper.make_model(g).SerializeToString())
    with pytest.raises(TypeError):
        minnx.InferenceSession(42)


def test_threads_option():
    assert minnx.InferenceSession(max_model(), threads=None).threads == 1
    assert minnx.InferenceSession(max_model(), threads=1).threads == 1
    assert minnx.InferenceSession(max_model(), threads=3).threads == 3
    with pytest.raises(ValueError, match="threads=0"):
        minnx.InferenceSession(max_model(), threads=0)
    with pytest.raises(TypeError):
        minnx.InferenceSession(max_model(), threads="2")


def split_model():
    """Max of [512,1024] and a [1024] row, then ArgMax and ReduceMax over axis 0 (not the last):
    large enough that a session on threads splits each node into tasks."""
    nodes = [helper.make_node("Max", ["a", "b"], ["m"]), helper.make_node("ArgMax", ["m"], ["i"], axis=0, keepdims=0),
             helper.make_node("ReduceMax", ["m"], ["r"], axes=[0], keepdims=0)]
    g = helper.make_graph(nodes, "split", [helper.make_tensor_value_info("a", TensorProto.FLOAT, [512, 1024]),
                                           helper.make_tensor_value_info("b", TensorProto.FLOAT, [1024])],
                          [helper.make_tensor_value_info("m", TensorProto.FLOAT, [512, 1024]),
                           helper.make_tensor_value_info("i", TensorProto.INT64, [1024]),
                           helper.make_tensor_value_info("r", TensorProto.FLOAT, [1024])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def test_threads_give_the_same_results_as_one():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((512, 1024), dtype=np.float32)
    a[rng.integers(0, 512, 40), rng.integers(0, 1024, 40)] = np.nan
    a[:, 5] = 1.0  # ties: the first index wins
    b = rng.standard_normal(1024, dtype=np.float32)
    feeds = {"a": a, "b": b}
    one = minnx.InferenceSession(split_model(), threads=1).run(None, feeds)
    two = minnx.InferenceSession(split_model(), threads=2).run(None, feeds)
    for x, y in zip(one, two):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()  # bit for bit, NaN included
    m = np.where(np.isnan(a) | np.isnan(b), np.nan, np.maximum(a, b))
    np.testing.assert_array_equal(one[0], m)  # and right: numpy's answer
    np.testing.assert_array_equal(one[2], m.max(axis=0))
    np.testing.assert_array_equal(one[1], m.argmax(axis=0))  # numpy's too: NaN wins, then the first index


def _ticking_during_a_run(s, err):
    """Runs the session once while another thread notes the time in a loop;
    returns (the span of the call, the time that thread was running in the
    middle half of the span: the sum of its gaps under 1 ms there). Taking
    and giving back the GIL happens at the span's edges, never in its middle."""
    import ctypes
    from minnx._capi import lib
    ticks, done, started = [], threading.Event(), threading.Event()

    def watcher():
        started.set()
        while not done.is_set():
            ticks.append(time.perf_counter())

    t = threading.Thread(target=watcher)
    t.start()
    started.wait()
    time.sleep(0.02)
    start = time.perf_counter()
    assert lib.minnx_session_run(s._session, ctypes.byref(err)) == 0  # the C call alone
    end = time.perf_counter()
    done.set()
    t.join()
    lo, hi = start + (end - start) / 4, end - (end - start) / 4
    middle = [lo] + [x for x in ticks if lo <= x <= hi] + [hi]
    return end - start, sum(b - a for a, b in zip(middle, middle[1:]) if b - a < 0.001)


def long_chain_model(n=300, side=1024):
    """Max(...Max(Max(a, b), b)..., b): one run of n nodes, long enough that
    the edges of the call (taking and giving back the GIL) are a small part."""
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [side, side])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [side, side])
    y = helper.make_tensor_value_info(f"y{n}", TensorProto.FLOAT, [side, side])
    nodes = [helper.make_node("Max", ["a" if i == 1 else f"y{i - 1}", "b"], [f"y{i}"]) for i in range(1, n + 1)]
    graph = helper.make_graph(nodes, "chain", [a, b], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def test_gil_is_released_while_running():
    """Another thread keeps running Python while one is inside minnx_session_run
    (ctypes.CDLL releases the GIL; with PyDLL, which keeps it, this fails)."""
    from minnx._capi import ErrorStruct
    s = minnx.InferenceSession(long_chain_model())
    a = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
    feeds = {"a": a, "b": -a}
    s.run(None, feeds)  # binds, and warms
    err = ErrorStruct()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)  # threads trade the GIL every 0.5 ms, not 5 ms: shorter edges
    try:
        results = [_ticking_during_a_run(s, err) for _ in range(3)]
    finally:
        sys.setswitchinterval(interval)
    # Held through the call, the other thread could not run in its middle at
    # all (with PyDLL: 0 here); free, it runs there as much as it gets a CPU.
    assert max(ticking / run for run, ticking in results) > 0.01, results


def test_calls_are_made_without_the_gil():
    """The mechanism itself: ctypes keeps the GIL only for functions flagged PYTHONAPI (PyDLL)."""
    import ctypes
    from minnx._capi import lib
    assert isinstance(lib, ctypes.CDLL) and not isinstance(lib, ctypes.PyDLL)
    for name in ("minnx_session_run", "minnx_model_load_buffer", "minnx_model_load_file"):
        assert not getattr(lib, name)._flags_ & ctypes._FUNCFLAG_PYTHONAPI


def chain_model(value_info):
    """Max(a, b) -> m, ArgMax(m) -> idx, with the value_info given for m."""
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 4])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N", 4])
    idx = helper.make_tensor_value_info("idx", TensorProto.INT64, ["rows"])
    nodes = [helper.make_node("Max", ["a", "b"], ["m"], name="max"),
             helper.make_node("ArgMax", ["m"], ["idx"], axis=1, keepdims=0, name="argmax")]
    graph = helper.make_graph(nodes, "chain", [a, b], [idx], value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def test_value_info_is_read_and_checked_against_inference():
    ok = chain_model([helper.make_tensor_value_info("m", TensorProto.FLOAT, ["N", 4])])
    s = minnx.InferenceSession(ok)
    assert s.get_outputs()[0].shape == ["rows"]
    minnx.InferenceSession(chain_model([helper.make_tensor_value_info("elsewhere", TensorProto.FLOAT, [1])]))
    with pytest.raises(minnx.DtypeError, match="'m' is declared int64 but the node gives float"):
        minnx.InferenceSession(chain_model([helper.make_tensor_value_info("m", TensorProto.INT64, ["N", 4])]))
    with pytest.raises(minnx.ShapeError, match="'m' is declared with shape"):
        minnx.InferenceSession(chain_model([helper.make_tensor_value_info("m", TensorProto.FLOAT, ["N", 5])]))
    with pytest.raises(minnx.DtypeError, match="graph value_info 'a' is declared double but is float"):
        minnx.InferenceSession(chain_model([helper.make_tensor_value_info("a", TensorProto.DOUBLE, ["N", 4])]))


@pytest.mark.skipif("MINNX_CLI" not in os.environ, reason="MINNX_CLI (the minnx program) not given")
def test_cli_info_shows_dim_params_and_roles(tmp_path):
    p = tmp_path / "chain.onnx"
    p.write_bytes(chain_model([helper.make_tensor_value_info("m", TensorProto.FLOAT, ["N", 4])]))
    out = subprocess.run([os.environ["MINNX_CLI"], "info", str(p)], check=True, capture_output=True, text=True).stdout
    values = out.split("values:\n")[1].split("arena:")[0].splitlines()
    # a value whose shape depends on a symbolic dim is known when the inputs are bound (issue 22)
    assert values == ["  a: float [N,4]  (graph input)", "  b: float [N,4]  (graph input)",
                      "  m: float [N,4]  (shape at bind)", "  idx: int64 [rows]  (graph output)  (shape at bind)"], values
