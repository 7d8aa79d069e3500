#!/usr/bin/python3
"""Exporter-shaped Cast graphs: small PyTorch modules exported with Debian's python3-torch
(torch.onnx.export, opsets 11, 13, 17), in the ONNX backend node-test layout, for `minnx test`.

Each case is  <out>/<name>_opset<N>/model.onnx + test_data_set_0/input_<i>.pb, output_<i>.pb,
with the expected outputs computed by PyTorch itself (the module run on the inputs), never by
minnx. Inputs stay where PyTorch's casts are defined (float -> integer within the target's range:
PyTorch leaves the rest to the CPU, minnx saturates; README, "Cast semantics").

    /usr/bin/python3 tests/export/cast_modules.py [--out tests/export/cast]

The committed cases are what the suite runs; the script is how they were made (an exporter's
bytes may change between PyTorch versions, so there is no byte-for-byte regeneration test).
"""
import argparse
import io
import os
import shutil

import numpy as np
import onnx
import torch
from onnx import TensorProto, numpy_helper


class ArgmaxToInt32(torch.nn.Module):
    """argmax indices (int64) handed on as int32, as models do for smaller outputs."""
    def forward(self, x):
        return torch.argmax(x, dim=1).to(torch.int32)


class HalfMaximum(torch.nn.Module):
    """float16 math in a float32 model: .half() in, .float() out."""
    def forward(self, x, y):
        return torch.maximum(x.half(), y.half()).float()


class ToBfloat16(torch.nn.Module):
    def forward(self, x):
        return x.to(torch.bfloat16)


class FloatToInts(torch.nn.Module):
    """Truncation toward zero into every common integer width, and to bool."""
    def forward(self, x):
        return x.to(torch.int8), x.int(), x.long(), x.to(torch.uint8), x.bool()


class IntsToFloat(torch.nn.Module):
    def forward(self, i):
        return i.float(), i.double(), i.half()


class ViewThenHalf(torch.nn.Module):
    def forward(self, x):
        return x.view(-1, 2).to(torch.float16)


class MaxOfCasts(torch.nn.Module):
    """int32 and float16 inputs compared in float32: a Cast on each side of Max."""
    def forward(self, i, h):
        return torch.max(i.float(), h.float())


class DoubleRoundTrip(torch.nn.Module):
    def forward(self, x):
        return x.double().float().half()


def inputs(rng):
    f = lambda *s: torch.from_numpy(rng.standard_normal(s).astype(np.float32) * 40)
    return {
        "argmax_to_int32": (ArgmaxToInt32(), (f(3, 5),)),
        "half_maximum": (HalfMaximum(), (f(2, 3, 4), f(2, 3, 4))),
        "to_bfloat16": (ToBfloat16(), (f(4, 6),)),
        "float_to_ints": (FloatToInts(), (torch.from_numpy(rng.uniform(0, 120, (3, 7)).astype(np.float32)),)),
        "ints_to_float": (IntsToFloat(), (torch.from_numpy(rng.integers(-2 ** 40, 2 ** 40, (2, 9))),)),
        "view_then_half": (ViewThenHalf(), (f(3, 4),)),
        "max_of_casts": (MaxOfCasts(), (torch.from_numpy(rng.integers(-100, 100, (5,), dtype=np.int32)),
                                        f(5).half())),
        "double_round_trip": (DoubleRoundTrip(), (f(8),)),
    }


def tensor_proto(t, name):
    """A TensorProto of a torch tensor (bfloat16 as its bit pattern, typed bfloat16)."""
    if t.dtype == torch.bfloat16:
        p = numpy_helper.from_array(t.view(torch.int16).numpy().view(np.uint16), name)
        p.data_type = TensorProto.BFLOAT16
        return p
    return numpy_helper.from_array(t.numpy(), name)


def write_case(d, module, args, opset):
    f = io.BytesIO()
    n_out = len(module(*args)) if isinstance(module(*args), tuple) else 1
    in_names = [f"x{i}" for i in range(len(args))]
    out_names = [f"y{i}" for i in range(n_out)]
    torch.onnx.export(module, args, f, opset_version=opset, input_names=in_names, output_names=out_names)
    model = onnx.load_from_string(f.getvalue())
    with torch.no_grad():
        outs = module(*args)
    outs = outs if isinstance(outs, tuple) else (outs,)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    with open(os.path.join(d, "model.onnx"), "wb") as fh:
        fh.write(model.SerializeToString())
    for k, (name, t) in enumerate(zip(in_names, args)):
        with open(os.path.join(d, "test_data_set_0", f"input_{k}.pb"), "wb") as fh:
            fh.write(tensor_proto(t, name).SerializeToString())
    for k, (name, t) in enumerate(zip(out_names, outs)):
        with open(os.path.join(d, "test_data_set_0", f"output_{k}.pb"), "wb") as fh:
            fh.write(tensor_proto(t, name).SerializeToString())
    return [n.op_type for n in model.graph.node]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "cast"))
    out = ap.parse_args().out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for opset in (11, 13, 17):
        rng = np.random.default_rng(opset)
        for name, (module, args) in inputs(rng).items():
            if name == "to_bfloat16" and opset < 13:
                continue  # bfloat16 Cast comes with opset 13
            ops = write_case(os.path.join(out, f"{name}_opset{opset}"), module, args, opset)
            print(f"{name}_opset{opset}: {' '.join(ops)}")


if __name__ == "__main__":
    main()
