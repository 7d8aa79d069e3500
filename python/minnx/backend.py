"""minnx as an ONNX backend (onnx.backend.base.Backend), so that onnx's own
runner, onnx.backend.test.BackendTest, drives it:

    import onnx.backend.test, minnx.backend
    runner = onnx.backend.test.BackendTest(minnx.backend, __name__)
    OnnxBackendNodeModelTest = runner.test_cases["OnnxBackendNodeModelTest"]

tests/python/test_onnx_backend.py does exactly that under pytest.

Compatibility comes from the library, not from a list kept here: a model is
compatible when minnx loads it, or refuses it for any reason other than
MINNX_E_UNSUPPORTED (an operator, version or dtype it does not implement) or
MINNX_E_FEATURE (a model feature it lacks, e.g. sequence or optional values),
as `minnx test` skips those. A model refused for another reason is "compatible" so that the test fails and says
why, rather than being skipped.

bfloat16: onnx's numpy_helper gives bfloat16 tensors as float32 arrays, so
this backend converts a float32 array given for a bfloat16 input to bfloat16
(round to nearest even) and returns bfloat16 outputs as float32, exactly
(minnx.InferenceSession itself uses uint16 bit patterns).
"""
import numpy as np
import onnx
from onnx import helper, shape_inference
from onnx.backend.base import Backend, BackendRep, Device, DeviceType

from . import FeatureError, InferenceSession, UnsupportedError, _BF16


def _to_bfloat16_bits(a):
    """float32 -> bfloat16 bit patterns, round to nearest even; NaN stays NaN."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, (bits >> 16) | 0x40, rounded).astype(np.uint16)


def _from_bfloat16_bits(a):
    return (a.astype(np.uint32) << 16).view(np.float32)


def _tensor_dtype(dtype):
    """The TensorProto dtype of a numpy dtype (onnx 1.12 has the table, not yet a helper)."""
    try:
        return helper.np_dtype_to_tensor_dtype(dtype)
    except AttributeError:
        return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


class MinnxRep(BackendRep):
    def __init__(self, session):
        self.session = session
        self._bf16_in = {a.name for a in session.get_inputs() if a.type == "tensor(bfloat16)"}
        self._bf16_out = [a.type == "tensor(bfloat16)" for a in session.get_outputs()]

    def run(self, inputs, **kwargs):
        names = [a.name for a in self.session.get_inputs()]
        feeds = dict(inputs) if isinstance(inputs, dict) else dict(zip(names, inputs))
        for name in self._bf16_in & feeds.keys():
            a = np.asarray(feeds[name])
            if a.dtype == np.float32:
                feeds[name] = _to_bfloat16_bits(a)
        outs = self.session.run(None, feeds)
        if _BF16 is None:
            outs = [_from_bfloat16_bits(o) if bf else o for o, bf in zip(outs, self._bf16_out)]
        return tuple(outs)


class MinnxBackend(Backend):
    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        try:
            InferenceSession(model.SerializeToString())
        except (UnsupportedError, FeatureError):
            return False
        except Exception:  # noqa: BLE001 - any other refusal is a failure prepare() will report
            return True
        return True

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        super().prepare(model, device, **kwargs)  # onnx's checker
        return MinnxRep(InferenceSession(model.SerializeToString()))

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Runs one NodeProto on inputs (a list of arrays, in the node's input order)."""
        ins = [helper.make_tensor_value_info(n, _tensor_dtype(np.asarray(a).dtype), np.asarray(a).shape)
               for n, a in zip(node.input, inputs)]
        opset = kwargs.get("opset_version", onnx.defs.onnx_opset_version())
        graph = helper.make_graph([node], "run_node", ins, [helper.make_empty_tensor_value_info(n) for n in node.output])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid(node.domain or "", opset)])
        inferred = shape_inference.infer_shapes(model)
        known = {v.name: v for v in inferred.graph.value_info}
        del model.graph.output[:]
        for n in node.output:
            if n not in known:
                raise UnsupportedError("unsupported", f"no output type could be inferred for '{n}'")
            model.graph.output.append(known[n])
        return cls.run_model(model, list(inputs), device)

    @classmethod
    def supports_device(cls, device):
        return Device(device).type == DeviceType.CPU


prepare = MinnxBackend.prepare
run_model = MinnxBackend.run_model
run_node = MinnxBackend.run_node
supports_device = MinnxBackend.supports_device
is_compatible = MinnxBackend.is_compatible
