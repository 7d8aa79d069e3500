"""ONNX Runtime's session arguments and queries on minnx.InferenceSession:
SessionOptions, providers, get_modelmeta (against onnx's own decoding of the
same bytes), get_providers, get_provider_options, get_session_options."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import minnx

CPU = "CPUExecutionProvider"


def max_model(**fields):
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([helper.make_node("Max", ["a", "b"], ["y"])], fields.pop("graph_name", "g"),
                              [a, b], [y], doc_string=fields.pop("graph_doc", ""))
    props = fields.pop("props", {})
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], **fields)
    helper.set_model_props(model, props)
    return model.SerializeToString()


FEEDS = {"a": np.array([[1, -5, 3], [0, 2, -1]], np.float32), "b": np.array([[4, -6, 2], [0, 1, 7]], np.float32)}


def test_ort_code_ports_by_changing_the_import():
    rt = minnx  # was: import onnxruntime as rt
    so = rt.SessionOptions()
    so.intra_op_num_threads = 2
    so.inter_op_num_threads = 1
    so.graph_optimization_level = rt.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.execution_mode = rt.ExecutionMode.ORT_SEQUENTIAL
    sess = rt.InferenceSession(max_model(), so, providers=["CPUExecutionProvider"])
    [y] = sess.run([sess.get_outputs()[0].name], FEEDS)
    np.testing.assert_array_equal(y, np.maximum(FEEDS["a"], FEEDS["b"]))
    assert sess.threads == 2
    assert rt.get_available_providers() == [CPU]


def test_session_options_defaults_are_onnxruntimes():
    so = minnx.SessionOptions()
    assert so.intra_op_num_threads == 0 and so.inter_op_num_threads == 0
    assert so.graph_optimization_level == minnx.GraphOptimizationLevel.ORT_ENABLE_ALL == 99
    assert so.execution_mode == minnx.ExecutionMode.ORT_SEQUENTIAL == 0
    assert so.enable_cpu_mem_arena is True and so.enable_mem_pattern is True
    assert so.use_deterministic_compute is False and so.enable_profiling is False
    assert (so.log_severity_level, so.log_verbosity_level, so.logid) == (2, 0, "")
    assert so.optimized_model_filepath == "" and so.profile_file_prefix == "onnxruntime_profile_"
    assert repr(so) == "SessionOptions()"


def test_options_without_effect_are_accepted():
    so = minnx.SessionOptions()
    so.inter_op_num_threads = 8
    so.graph_optimization_level = minnx.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.graph_optimization_level = 1  # ORT_ENABLE_BASIC, by number
    so.execution_mode = minnx.ExecutionMode.ORT_PARALLEL
    so.enable_cpu_mem_arena = so.enable_mem_pattern = False
    so.use_deterministic_compute = True
    so.log_severity_level, so.log_verbosity_level, so.logid = 0, 1, "mine"
    assert so.graph_optimization_level is minnx.GraphOptimizationLevel.ORT_ENABLE_BASIC
    [y] = minnx.InferenceSession(max_model(), so).run(None, FEEDS)
    np.testing.assert_array_equal(y, np.maximum(FEEDS["a"], FEEDS["b"]))


def test_options_minnx_cannot_honour_are_refused():
    so = minnx.SessionOptions()
    with pytest.raises(ValueError, match="enable_profiling=True: minnx has no profiler"):
        so.enable_profiling = True
    with pytest.raises(ValueError, match="optimized_model_filepath='o.onnx': minnx rewrites no graph"):
        so.optimized_model_filepath = "o.onnx"
    with pytest.raises(ValueError, match=r"graph_optimization_level=5: not a GraphOptimizationLevel \(ORT_DISABLE_ALL=0"):
        so.graph_optimization_level = 5
    with pytest.raises(ValueError, match="intra_op_num_threads=-1"):
        so.intra_op_num_threads = -1
    with pytest.raises(TypeError, match="intra_op_num_threads must be an int, not str"):
        so.intra_op_num_threads = "2"
    with pytest.raises(TypeError, match="enable_mem_pattern must be a bool"):
        so.enable_mem_pattern = 1
    with pytest.raises(AttributeError, match="SessionOptions has no option 'intra_threads'"):
        so.intra_threads = 2
    assert repr(so) == "SessionOptions()"  # nothing refused was kept


def test_intra_op_num_threads_is_the_sessions_threads():
    s0 = minnx.InferenceSession(max_model(), minnx.SessionOptions())
    assert s0.threads == 1  # 0: minnx's default, the calling thread only
    so = minnx.SessionOptions()
    so.intra_op_num_threads = 3
    s3 = minnx.InferenceSession(max_model(), sess_options=so)
    assert s3.threads == 3
    np.testing.assert_array_equal(s3.run(None, FEEDS)[0], s0.run(None, FEEDS)[0])
    assert minnx.InferenceSession(max_model(), so, threads=3).threads == 3
    with pytest.raises(ValueError, match="threads=2 but sess_options.intra_op_num_threads=3"):
        minnx.InferenceSession(max_model(), so, threads=2)
    with pytest.raises(TypeError, match="sess_options must be a minnx.SessionOptions, not dict"):
        minnx.InferenceSession(max_model(), {"intra_op_num_threads": 2})


def test_get_session_options_is_a_copy_of_what_the_session_took():
    so = minnx.SessionOptions()
    so.intra_op_num_threads = 2
    so.logid = "x"
    s = minnx.InferenceSession(max_model(), so)
    so.intra_op_num_threads = 5  # after the fact: changes nothing
    got = s.get_session_options()
    assert isinstance(got, minnx.SessionOptions) and got is not so
    assert (got.intra_op_num_threads, got.logid) == (2, "x") and s.threads == 2
    got.intra_op_num_threads = 4
    assert s.get_session_options().intra_op_num_threads == 2
    assert minnx.InferenceSession(max_model(), threads=3).get_session_options().intra_op_num_threads == 3
    assert repr(minnx.InferenceSession(max_model()).get_session_options()) == "SessionOptions()"


@pytest.mark.parametrize("providers,provider_options", [
    (None, None), ([CPU], None), ((CPU,), None), ([(CPU, {})], None), ([CPU], [{}]), ([], None), ([CPU, CPU], None)])
def test_cpu_provider_is_accepted(providers, provider_options):
    s = minnx.InferenceSession(max_model(), None, providers, provider_options)
    assert s.get_providers() == [CPU]
    assert s.get_provider_options() == {CPU: {}}
    np.testing.assert_array_equal(s.run(None, FEEDS)[0], np.maximum(FEEDS["a"], FEEDS["b"]))


@pytest.mark.parametrize("providers,provider_options,error,message", [
    (["CUDAExecutionProvider"], None, ValueError,
     r"provider 'CUDAExecutionProvider' is not available in minnx: it runs on the CPU only "
     r"\(providers: \['CPUExecutionProvider'\]\)"),
    (["CUDAExecutionProvider", CPU], None, ValueError, "provider 'CUDAExecutionProvider' is not available"),
    ([("TensorrtExecutionProvider", {})], None, ValueError, "provider 'TensorrtExecutionProvider' is not available"),
    ([(CPU, {"use_arena": "1"})], None, ValueError, r"CPUExecutionProvider options \['use_arena'\]: minnx takes none"),
    ([CPU], [{"x": 1}], ValueError, r"CPUExecutionProvider options \['x'\]"),
    ([CPU], [{}, {}], ValueError, "1 providers but 2 provider_options"),
    ([(CPU, {})], [{}], ValueError, "provider_options must then be None"),
    (None, [{}], ValueError, "provider_options given without providers"),
    ("CPUExecutionProvider", None, TypeError, "not a str"),
    ([(CPU,)], None, ValueError, r"a tuple is \(name, options dict\)"),
    ([3], None, TypeError, "a name or a"),
])
def test_other_providers_and_options_are_refused(providers, provider_options, error, message):
    with pytest.raises(error, match=message):
        minnx.InferenceSession(max_model(), providers=providers, provider_options=provider_options)


def ort_metadata(model_bytes):
    """What ONNX Runtime's ModelMetadata holds, from onnx's own decoding."""
    m = onnx.load_from_string(model_bytes)
    return dict(producer_name=m.producer_name, graph_name=m.graph.name, domain=m.domain, description=m.doc_string,
                graph_description=m.graph.doc_string, version=m.model_version,
                custom_metadata_map={p.key: p.value for p in m.metadata_props})


def metadata_of(meta):
    return {k: getattr(meta, k) for k in ("producer_name", "graph_name", "domain", "description",
                                          "graph_description", "version", "custom_metadata_map")}


@pytest.mark.parametrize("fields", [
    dict(producer_name="pytorch", producer_version="2.0", domain="ai.example", model_version=7,
         doc_string="a model", graph_name="main_graph", graph_doc="the graph",
         props={"author": "me", "license": "MIT", "": "empty key", "unicode": "\u00e9t\u00e9 \u2713"}),
    dict(model_version=-1), dict(model_version=2 ** 63 - 1), dict(model_version=-2 ** 63),
    dict(),  # every field absent but the graph's name
])
def test_modelmeta_matches_onnxs_decoding(fields, tmp_path):
    data = max_model(**fields)
    expected = ort_metadata(data)
    meta = minnx.InferenceSession(data).get_modelmeta()
    assert isinstance(meta, minnx.ModelMetadata)
    assert metadata_of(meta) == expected
    p = tmp_path / "m.onnx"
    p.write_bytes(data)
    assert metadata_of(minnx.InferenceSession(str(p)).get_modelmeta()) == expected
    assert metadata_of(minnx.InferenceSession(bytearray(data)).get_modelmeta()) == expected


def test_modelmeta_of_a_graph_named_after_many_nodes():
    """GraphProto's name (field 2) is written after its nodes (field 1): found past them all."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    nodes = [helper.make_node("Identity", [f"v{i}"], [f"v{i + 1}"]) for i in range(2000)]
    nodes[0].input[0] = "x"
    y = helper.make_tensor_value_info("v2000", TensorProto.FLOAT, [4])
    model = helper.make_model(helper.make_graph(nodes, "chain", [x], [y]), producer_name="p",
                              opset_imports=[helper.make_opsetid("", 13)])
    meta = minnx.InferenceSession(model.SerializeToString()).get_modelmeta()
    assert (meta.graph_name, meta.producer_name) == ("chain", "p")


def test_modelmeta_last_value_wins_and_graphs_merge():
    """Protobuf's rules for a field given twice, which onnx's decoder follows too."""
    data = max_model(producer_name="first", graph_name="g1", graph_doc="d1")
    extra = onnx.ModelProto(producer_name="second", graph=onnx.GraphProto(name="g2")).SerializeToString()
    data += extra  # concatenated messages merge: scalars from the later, the graph merged
    meta = minnx.InferenceSession(data).get_modelmeta()
    assert metadata_of(meta) == ort_metadata(data)
    assert (meta.producer_name, meta.graph_name, meta.graph_description) == ("second", "g2", "d1")
