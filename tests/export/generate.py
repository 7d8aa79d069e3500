#!/usr/bin/python3
"""Graphs as exporters write them: tiny PyTorch modules exported with Debian's python3-torch
(torch.onnx.export, opsets 11, 13 and 17), in the ONNX backend node-test layout:
    cases/<module>_opset<N>/model.onnx + test_data_set_0/input_<i>.pb, output_<i>.pb
Expected outputs are PyTorch's own (the module run on the inputs), never minnx's.

Adding a module is one entry in MODULES: a name, the module, and its inputs (a function of a
seeded torch.Generator). Run with Debian's python3 (python3-torch, python3-onnx):
    /usr/bin/python3 tests/export/generate.py [--out DIR]
Only case folders (those holding a model.onnx) are replaced; the cases are committed, so the
tests need no torch. Export output is not byte-stable across torch versions: regenerate with the
same Debian torch.
"""
import argparse
import io
import os
import shutil
import warnings
import zlib

import numpy as np
import onnx
import torch
from onnx import numpy_helper

OPSETS = (11, 13, 17)


class Fn(torch.nn.Module):
    """A module whose forward is f."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *xs):
        return self.f(*xs)


def randn(*shape):
    return lambda g: torch.randn(*shape, generator=g)


def special(*shape):
    """randn with NaN, infinities and zeros of both signs among the values."""
    def make(g):
        x = torch.randn(*shape, generator=g).flatten()
        x[:6] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0])
        return x.view(*shape)
    return make


def scalar(v):
    """A rank-0 input (what Clip's bounds must be)."""
    return lambda g: torch.tensor(v)


def inputs(*makers):
    return lambda g: tuple(m(g) for m in makers)


def uniform(lo, hi, *shape):
    return lambda g: torch.rand(*shape, generator=g) * (hi - lo) + lo


def randint(lo, hi, dtype, *shape):
    return lambda g: torch.randint(lo, hi, shape, generator=g, dtype=dtype)


# name, forward, inputs. Each module is exported at every opset in OPSETS.
MODULES = [
    ("max_of_two", lambda x, y: torch.max(x, y), inputs(randn(2, 3), randn(2, 3))),
    ("maximum_broadcast", lambda x, y: torch.maximum(x, y), inputs(randn(2, 3), randn(3))),
    ("maximum_with_zero", lambda x: torch.maximum(x, torch.tensor(0.0)), inputs(randn(3, 4))),
    ("max_all", lambda x: torch.max(x), inputs(randn(3, 4))),
    ("max_dim", lambda x: torch.max(x, dim=1)[0], inputs(randn(3, 4))),
    ("argmax_all", lambda x: torch.argmax(x), inputs(randn(3, 4))),
    ("argmax_dim", lambda x: torch.argmax(x, dim=1), inputs(randn(3, 4))),
    ("argmax_dim_keepdim", lambda x: torch.argmax(x, dim=0, keepdim=True), inputs(randn(3, 4))),
    ("clamp_min", lambda x: torch.clamp(x, min=0.0), inputs(randn(3, 4))),
    ("clamp_min_tensor", lambda x, y: torch.clamp(x, min=y), inputs(randn(3, 4), randn(3, 4))),
    # Clip as PyTorch writes it: bounds as Constants (or graph inputs), one of them or both
    ("clamp_max", lambda x: torch.clamp(x, max=0.25), inputs(randn(3, 4))),
    ("clamp_both", lambda x: torch.clamp(x, -0.5, 0.75), inputs(randn(2, 3, 4))),
    ("clamp_min_gt_max", lambda x: torch.clamp(x, min=1.0, max=-1.0), inputs(randn(3, 4))),
    ("clamp_special_values", lambda x: torch.clamp(x, -1.0, 1.0), inputs(special(4, 5))),
    ("clamp_scalar_tensor_bounds", lambda x: torch.clamp(x, torch.tensor(-0.5), torch.tensor(0.5)),
     inputs(randn(3, 4))),
    ("clamp_bounds_as_inputs", lambda x, lo, hi: torch.clamp(x, lo, hi), inputs(randn(3, 4), scalar(-0.4), scalar(0.3))),
    ("clamp_min_method", lambda x: x.clamp_min(0.1), inputs(randn(3, 4))),
    ("clamp_max_method", lambda x: x.clamp_max(-0.1), inputs(randn(3, 4))),
    ("clamp_int32", lambda x: torch.clamp(x, -3, 4), inputs(randint(-10, 10, torch.int32, 3, 4))),
    ("relu6", lambda x: torch.nn.functional.relu6(x), inputs(special(3, 4))),
    ("hardtanh", lambda x: torch.nn.functional.hardtanh(x, -0.3, 0.6), inputs(randn(3, 4))),
    ("view", lambda x: x.view(-1, 2), inputs(randn(2, 3, 4))),
    ("view_then_max", lambda x, y: torch.max(x.view(4, 6), y), inputs(randn(2, 3, 4), randn(4, 6))),
    ("flatten", lambda x: torch.flatten(x, 1), inputs(randn(2, 3, 4))),
    ("flatten_all", lambda x: torch.flatten(x), inputs(randn(2, 3, 4))),
    ("squeeze", lambda x: x.squeeze(1), inputs(randn(3, 1, 4))),
    ("squeeze_all", lambda x: x.squeeze(), inputs(randn(1, 3, 1, 4))),
    ("unsqueeze", lambda x: x.unsqueeze(0), inputs(randn(3, 4))),
    ("unsqueeze_negative", lambda x: x.unsqueeze(-1), inputs(randn(3, 4))),
    ("argmax_of_flattened_max", lambda x, y: torch.argmax(torch.flatten(torch.maximum(x, y), 1), dim=1),
     inputs(randn(2, 3, 4), randn(2, 3, 4))),
    ("unsqueeze_max_squeeze", lambda x, y: torch.max(x.unsqueeze(0), y).squeeze(0), inputs(randn(3, 4), randn(1, 3, 4))),
    # Casts (float -> integer inputs stay in the target's range, where PyTorch's cast is defined)
    ("cast_argmax_to_int32", lambda x: torch.argmax(x, dim=1).to(torch.int32), inputs(randn(3, 5))),
    ("cast_half_maximum", lambda x, y: torch.maximum(x.half(), y.half()).float(),
     inputs(uniform(-100, 100, 2, 3, 4), uniform(-100, 100, 2, 3, 4))),
    ("cast_to_bfloat16", lambda x: x.to(torch.bfloat16), inputs(uniform(-100, 100, 4, 6))),
    ("cast_float_to_ints", lambda x: (x.to(torch.int8), x.int(), x.long(), x.to(torch.uint8), x.bool()),
     inputs(uniform(0, 120, 3, 7))),
    ("cast_ints_to_float", lambda i: (i.float(), i.double(), i.half()),
     inputs(randint(-2 ** 40, 2 ** 40, torch.int64, 2, 9))),
    ("cast_view_then_half", lambda x: x.view(-1, 2).to(torch.float16), inputs(uniform(-100, 100, 3, 4))),
    ("cast_max_of_casts", lambda i, h: torch.max(i.float(), h.float()),
     inputs(randint(-100, 100, torch.int32, 5), lambda g: (torch.randn(5, generator=g) * 40).half())),
    ("cast_double_round_trip", lambda x: x.double().float().half(), inputs(uniform(-100, 100, 8))),
    # the min/max family as PyTorch exports it: ReduceMax/ReduceMin (+ ArgMax/ArgMin for the indices), Min
    ("max_dim_values_indices", lambda x: torch.max(x, dim=1), inputs(randn(3, 5))),
    ("max_dim_keepdim_values_indices", lambda x: torch.max(x, dim=-1, keepdim=True), inputs(randn(2, 3, 4))),
    ("min_dim_values_indices", lambda x: torch.min(x, dim=0), inputs(randn(4, 3))),
    ("min_dim_keepdim_values_indices", lambda x: torch.min(x, dim=1, keepdim=True), inputs(randn(2, 3, 4))),
    ("amax", lambda x: torch.amax(x, dim=(0, 2)), inputs(randn(2, 3, 4))),
    ("amax_keepdim", lambda x: torch.amax(x, dim=-1, keepdim=True), inputs(randn(2, 3, 4))),
    ("amin", lambda x: torch.amin(x, dim=1), inputs(randn(2, 3, 4))),
    ("amin_all_dims", lambda x: torch.amin(x, dim=(0, 1, 2)), inputs(randn(2, 3, 4))),
    ("min_all", lambda x: torch.min(x), inputs(randn(3, 4))),
    ("min_of_two", lambda x, y: torch.min(x, y), inputs(randn(2, 3), randn(2, 3))),
    ("minimum_broadcast", lambda x, y: torch.minimum(x, y), inputs(randn(2, 3), randn(3))),
    ("argmin_all", lambda x: torch.argmin(x), inputs(randn(3, 4))),
    ("argmin_dim", lambda x: torch.argmin(x, dim=1), inputs(randn(3, 4))),
    ("argmin_dim_keepdim", lambda x: torch.argmin(x, dim=0, keepdim=True), inputs(randn(3, 4))),
]
# Modules an opset cannot express: bfloat16 Cast comes with opset 13.
FROM_OPSET = {"cast_to_bfloat16": 13}

# Shape arithmetic as exporters write it: Shape, Slice, Concat (folded at load when shapes are static).
MODULES += [
    ("reshape_flat", lambda x: x.reshape(-1), inputs(randn(2, 3, 4))),
    ("view_flat", lambda x: x.view(-1), inputs(randn(2, 3, 4))),
    ("view_batch", lambda x: x.view(x.size(0), -1), inputs(randn(2, 3, 4))),
    ("flatten_from_shape", lambda x: x.reshape(x.shape[:-2] + (-1,)), inputs(randn(2, 3, 4, 5))),
    ("cat", lambda x, y: torch.cat((x, y), 1), inputs(randn(2, 3), randn(2, 5))),
    ("cat_negative", lambda x, y, z: torch.cat((x, y, z), -1), inputs(randn(2, 3, 1), randn(2, 3, 2), randn(2, 3, 3))),
    ("slice_step", lambda x: x[1:, ::2], inputs(randn(4, 7))),
    ("slice_negative_index", lambda x: x[:, -3:-1], inputs(randn(3, 6))),
    ("flip", lambda x: torch.flip(x, [1]), inputs(randn(3, 5))),
    ("cat_slices_max", lambda x: torch.max(torch.cat((x[:, :2], x[:, 2:]), 0), x.reshape(4, 2)),
     inputs(randn(2, 4))),
]

# the layout ops of issue 21: F.pad in every mode (Pad), torch.split (Split), expand_as (Expand),
# repeat (Tile). (x.expand(2, 3, 4) exports its shape through Mul, Equal and Where of constants,
# chunk through Shape arithmetic, which minnx does not fold at load; arange of a known size is
# folded by the exporter itself. F.pad's circular mode is left out: torch 1.13 exports it as
# Slice + Concat with the two sides' pads swapped, so the graph disagrees with PyTorch's output.)
F = torch.nn.functional
MODULES += [
    ("pad_constant", lambda x: F.pad(x, (1, 2, 0, 1), value=0.5), inputs(randn(2, 3, 4))),
    ("pad_constant_crop", lambda x: F.pad(x, (-1, 2, 1, -1)), inputs(randn(2, 3, 4))),
    ("pad_reflect", lambda x: F.pad(x, (2, 1), mode="reflect"), inputs(randn(1, 3, 5))),
    ("pad_reflect_2d", lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect"), inputs(randn(1, 2, 4, 5))),
    ("pad_replicate", lambda x: F.pad(x, (1, 2, 2, 1), mode="replicate"), inputs(randn(1, 2, 3, 4))),
    ("split_size", lambda x: torch.split(x, 2, dim=1), inputs(randn(3, 5))),
    ("split_sizes", lambda x: torch.split(x, [1, 3], dim=0), inputs(randn(4, 2))),
    ("expand_as", lambda x, y: x.expand_as(y) + y, inputs(randn(1, 4), randn(3, 4))),
    ("repeat", lambda x: x.repeat(2, 1, 3), inputs(randn(2, 3))),
    ("repeat_4d", lambda x: x.repeat(1, 2, 2, 1), inputs(randn(1, 2, 2, 3))),
]


def prelu(n, weights):
    """torch.nn.PReLU with its slope(s) set: one shared, or one per channel (dim 1)."""
    m = torch.nn.PReLU(n)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(weights))
    return m


# PReLU: PRelu with the slope as an initializer ([C] reshaped to [C, 1, ...] from opset 9's export on)
MODULES += [
    ("prelu", prelu(1, [0.25]), inputs(special(2, 3, 4, 5))),
    ("prelu_channels", prelu(3, [0.1, -0.5, 2.0]), inputs(special(2, 3, 4, 5))),
    ("prelu_channels_2d", prelu(4, [0.5, -1.0, 0.0, 3.0]), inputs(randn(3, 4))),
]


class LoopOverRows(torch.nn.Module):
    """A Python for loop over x's first dim, scripted: exported as a Loop whose trip count is
    x.size(0) (Shape -> Gather) and whose body reads x[i] (Gather at the iteration number)."""

    def forward(self, x):
        y = torch.zeros_like(x[0])
        for i in range(x.size(0)):
            y = y * 0.5 + x[i]
        return y


class LoopTwoCarried(torch.nn.Module):
    """Two carried values over w's rows, scripted (a loop over a literal range(3) is unrolled)."""

    def forward(self, x, w):
        h = x
        s = torch.zeros_like(x)
        for i in range(w.size(0)):
            h = torch.relu(h * w[i] + x)
            s = s + h
        return h, s


# Loops as torch.jit.script exports them (a traced module would unroll them).
MODULES += [
    ("loop_script_rows", torch.jit.script(LoopOverRows()), inputs(randn(5, 4))),
    ("loop_script_two_carried", torch.jit.script(LoopTwoCarried()), inputs(randn(2, 3), randn(4, 2, 3))),
]


def seeded_module(name, make):
    """A torch.nn module (its weights drawn from a generator seeded by name)."""
    torch.manual_seed(zlib.crc32(name.encode()))
    return make()


# Transposed convolutions as PyTorch exports them (ConvTranspose with pads, output_padding, group,
# dilations, its weights as initializers).
CONVT_MODULES = [
    ("convtranspose1d_stride_padding", lambda: torch.nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1, output_padding=1),
     inputs(randn(2, 4, 7))),
    ("convtranspose2d_stride", lambda: torch.nn.ConvTranspose2d(3, 5, 3, stride=2), inputs(randn(1, 3, 5, 4))),
    ("convtranspose2d_padding_output_padding", lambda: torch.nn.ConvTranspose2d(4, 6, (3, 2), stride=(3, 2),
                                                                                padding=(1, 0), output_padding=(2, 1)),
     inputs(randn(2, 4, 4, 5))),
    ("convtranspose2d_groups_no_bias", lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2,
                                                                        bias=False), inputs(randn(1, 4, 5, 5))),
    ("convtranspose2d_depthwise", lambda: torch.nn.ConvTranspose2d(8, 8, 4, stride=2, padding=1, groups=8),
     inputs(randn(1, 8, 6, 6))),
    ("convtranspose2d_dilation", lambda: torch.nn.ConvTranspose2d(2, 3, 3, stride=1, padding=2, dilation=2,
                                                                  output_padding=1), inputs(randn(1, 2, 5, 6))),
    ("convtranspose3d_stride_padding", lambda: torch.nn.ConvTranspose3d(2, 3, (2, 3, 3), stride=(1, 2, 2),
                                                                        padding=(0, 1, 1), output_padding=(0, 1, 0)),
     inputs(randn(1, 2, 3, 4, 4))),
]
MODULES += [(name, seeded_module(name, make), ins) for name, make, ins in CONVT_MODULES]


def trained(module):
    """A module in eval mode whose learned values and running statistics are drawn from a seed
    of its own (a fresh module's are ones, zeros and unit variances, which hide mistakes)."""
    g = torch.Generator().manual_seed(zlib.crc32(repr(module).encode()))
    with torch.no_grad():
        for name, t in list(module.named_parameters()) + list(module.named_buffers()):
            if name.endswith("running_var"):
                t.copy_(torch.rand(t.shape, generator=g) * 1.5 + 0.25)
            elif t.is_floating_point():
                t.copy_(torch.randn(t.shape, generator=g))
    return module.eval()


# Normalizations (inference): BatchNormalization, InstanceNormalization, and LayerNormalization from
# opset 17 (before it the exporter writes ReduceMean, Sub, Pow, Sqrt, Div... instead).
nn = torch.nn
MODULES += [
    ("batchnorm2d", trained(nn.BatchNorm2d(3)), inputs(randn(2, 3, 5, 4))),
    ("batchnorm1d", trained(nn.BatchNorm1d(4)), inputs(randn(3, 4, 6))),
    ("batchnorm1d_2d_input", trained(nn.BatchNorm1d(5)), inputs(randn(4, 5))),
    ("batchnorm3d", trained(nn.BatchNorm3d(2)), inputs(randn(1, 2, 3, 4, 5))),
    # eval mode: the exporter folds the BatchNorm into the Conv's weights
    ("conv_batchnorm_relu", trained(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU())),
     inputs(randn(1, 3, 6, 6))),
    ("instancenorm2d", trained(nn.InstanceNorm2d(3)), inputs(randn(2, 3, 4, 5))),
    ("instancenorm2d_affine", trained(nn.InstanceNorm2d(3, affine=True)), inputs(randn(2, 3, 4, 5))),
    ("instancenorm1d_affine", trained(nn.InstanceNorm1d(4, affine=True)), inputs(randn(2, 4, 9))),
    ("layernorm", trained(nn.LayerNorm(6)), inputs(randn(2, 3, 6))),
    ("layernorm_two_dims", trained(nn.LayerNorm([3, 6], eps=1e-3)), inputs(randn(2, 3, 6))),
    # (nn.LayerNorm without elementwise_affine: torch 1.13's exporter writes Scale as "", which its own
    # checker rejects)
]
for _name in ("layernorm", "layernorm_two_dims"):
    FROM_OPSET[_name] = 17


class Recurrent(torch.nn.Module):
    """nn.RNN, nn.GRU or nn.LSTM given its initial state(s) as inputs; returns the output and the
    final state(s). (Without them, torch 1.13 writes the zeros' shape through Shape and Gather of
    X, which minnx folds only when X's dims are static: given, the graph is the recurrent node and
    the layout around it.)"""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x, h0, c0=None):
        if c0 is not None:
            y, (h, c) = self.net(x, (h0, c0))
            return y, h, c
        y, h = self.net(x, h0)
        return y, h


def recurrent(kind, layers, bidirectional, batch_first, seq=4, batch=3, inp=5, hid=6, **kw):
    """(module maker, inputs) for a recurrent layer: X, h0 (and c0 for an LSTM), seeded."""
    net = lambda: Recurrent(getattr(nn, kind)(inp, hid, num_layers=layers, bidirectional=bidirectional,
                                              batch_first=batch_first, **kw)).eval()
    states = layers * (2 if bidirectional else 1)
    xs = (batch, seq, inp) if batch_first else (seq, batch, inp)
    makers = [randn(*xs), randn(states, batch, hid)] + ([randn(states, batch, hid)] if kind == "LSTM" else [])
    return net, inputs(*makers)


# Recurrent nets: RNN (tanh and relu), GRU (exported with linear_before_reset=1), LSTM; one and two
# layers, bidirectional, batch_first.
RECURRENT_MODULES = []
for _kind in ("LSTM", "GRU", "RNN"):
    for _layers, _bi, _bf in ((1, False, False), (2, False, False), (1, True, False), (2, True, False),
                              (1, False, True), (2, True, True)):
        _name = "%s_%dlayer%s%s" % (_kind.lower(), _layers, "_bidirectional" if _bi else "", "_batch_first" if _bf else "")
        RECURRENT_MODULES.append((_name,) + recurrent(_kind, _layers, _bi, _bf))
RECURRENT_MODULES.append(("rnn_relu_2layer_bidirectional",) + recurrent("RNN", 2, True, False, nonlinearity="relu"))
RECURRENT_MODULES.append(("lstm_no_bias",) + recurrent("LSTM", 1, False, False, bias=False))
MODULES += [(name, seeded_module(name, make), ins) for name, make, ins in RECURRENT_MODULES]

# Resize, as F.interpolate exports it: nearest, bilinear, bicubic, align_corners True and False, by scale
# factor and by size, up and down (torch 1.13 writes Resize with constant scales or sizes).
F = torch.nn.functional
MODULES += [
    ("interpolate_nearest_scale", lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest"), inputs(randn(1, 2, 3, 4))),
    ("interpolate_nearest_size", lambda x: F.interpolate(x, size=(5, 7), mode="nearest"), inputs(randn(1, 2, 3, 4))),
    ("interpolate_nearest_down", lambda x: F.interpolate(x, size=(2, 3), mode="nearest"), inputs(randn(1, 2, 5, 7))),
    ("interpolate_bilinear_scale", lambda x: F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False),
     inputs(randn(1, 2, 3, 4))),
    ("interpolate_bilinear_align", lambda x: F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=True),
     inputs(randn(1, 2, 3, 4))),
    ("interpolate_bilinear_size", lambda x: F.interpolate(x, size=(5, 6), mode="bilinear", align_corners=False),
     inputs(randn(2, 3, 4, 4))),
    ("interpolate_bilinear_size_align", lambda x: F.interpolate(x, size=(5, 6), mode="bilinear", align_corners=True),
     inputs(randn(2, 3, 4, 4))),
    ("interpolate_bilinear_down", lambda x: F.interpolate(x, size=(3, 2), mode="bilinear", align_corners=False),
     inputs(randn(1, 2, 6, 5))),
    ("interpolate_bicubic_scale", lambda x: F.interpolate(x, scale_factor=2.0, mode="bicubic", align_corners=False),
     inputs(randn(1, 2, 4, 4))),
    ("interpolate_bicubic_align", lambda x: F.interpolate(x, scale_factor=2.0, mode="bicubic", align_corners=True),
     inputs(randn(1, 2, 4, 4))),
    ("interpolate_bicubic_size", lambda x: F.interpolate(x, size=(7, 5), mode="bicubic", align_corners=False),
     inputs(randn(1, 1, 4, 6))),
    ("interpolate_linear_1d", lambda x: F.interpolate(x, scale_factor=3.0, mode="linear", align_corners=False),
     inputs(randn(2, 3, 5))),
    ("upsample_nearest_module", nn.Upsample(scale_factor=2, mode="nearest"), inputs(randn(1, 3, 4, 4))),
]


def tensor_file(path, t):
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: its bits, typed bfloat16
        p = numpy_helper.from_array(np.array(t.view(torch.int16).numpy().view(np.uint16), order="C"))
        p.data_type = onnx.TensorProto.BFLOAT16
    else:
        p = numpy_helper.from_array(np.array(t.numpy(), order="C"))  # keeps rank 0
    with open(path, "wb") as fh:
        fh.write(p.SerializeToString())


def export(out, name, forward, make_inputs, opset):
    g = torch.Generator().manual_seed(zlib.crc32(name.encode()))
    xs = make_inputs(g)
    module = (forward if isinstance(forward, torch.nn.Module) else Fn(forward)).eval()
    with torch.no_grad():
        ys = module(*xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, xs, buf, opset_version=opset,
                          input_names=[f"x{i}" for i in range(len(xs))],
                          output_names=[f"y{i}" for i in range(len(ys))])
    d = os.path.join(out, f"{name}_opset{opset}")
    os.makedirs(os.path.join(d, "test_data_set_0"))
    with open(os.path.join(d, "model.onnx"), "wb") as fh:
        fh.write(buf.getvalue())
    for i, x in enumerate(xs):
        tensor_file(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), x)
    for i, y in enumerate(ys):
        tensor_file(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), y)
    ops = sorted({n.op_type for n in onnx.load_from_string(buf.getvalue()).graph.node})
    print(f"{name}_opset{opset}: {' '.join(ops)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases"))
    ap.add_argument("--only", default="", help="(re)write only the modules whose name starts with this")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for entry in sorted(os.listdir(args.out)):
        if os.path.isfile(os.path.join(args.out, entry, "model.onnx")) and entry.startswith(args.only):
            shutil.rmtree(os.path.join(args.out, entry))
    torch.manual_seed(0)
    for name, forward, make_inputs in MODULES:
        if not name.startswith(args.only):
            continue
        for opset in OPSETS:
            if opset >= FROM_OPSET.get(name, 0):
                export(args.out, name, forward, make_inputs, opset)


if __name__ == "__main__":
    main()
