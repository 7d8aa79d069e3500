#!/usr/bin/python3
"""Whole real models, exported by Debian's python3-torch 1.13 (torchvision 0.14) with random weights
(seeded), at opsets 13 and 17, with a static batch and with a dynamic one (dynamic_axes), each in the
ONNX backend test-case layout:
    OUT/<model>_opset<N>_<static|dynamic>/model.onnx
        test_data_set_<k>/input_0.pb, output_0.pb   (PyTorch's own outputs, never minnx's)
        tolerance                                    ("1e-4 1e-3": |got - ref| <= 1e-4 + 1e-3 |ref|)
A static case has one data set at batch 1; a dynamic one three, at batches 1, 2 and 7 (`minnx test`
runs them in one session, which plans again for each new batch). Nothing is committed: tests/models/run.py calls this into the build tree, once per hash of
this file (the cache), and runs the cases with `minnx test`.

The models: LeNet-5; an MNIST MLP ending in softmax; ARM's DS-CNN keyword spotter (Zhang et al.,
"Hello Edge: Keyword Spotting on Microcontrollers", 2017, and ARM-software/ML-KWS-for-MCU: a 10x4
stride-2 convolution of 64 filters, then depthwise-separable blocks of a 3x3 depthwise and a 1x1
pointwise convolution with batch norm and ReLU, an average pool over the whole map and a linear
layer to 12 classes; input 1x1x49x10, 49 frames of 10 MFCCs); a Conv1d classifier of 3-axis sensor
windows (128 samples, 6 activities); torchvision's SqueezeNet 1.1, MobileNet v2 and ResNet-18.
    /usr/bin/python3 tests/models/generate.py --out DIR [--only NAME...]
"""
import argparse
import io
import os
import shutil
import sys
import warnings
import zlib

import numpy as np
import torch
import torchvision
from onnx import numpy_helper

OPSETS = (13, 17)
TOLERANCE = "1e-4 1e-3\n"  # |got - ref| <= 1e-4 + 1e-3 |ref| (ATOL RTOL, tools/files.h)
DYNAMIC_BATCHES = (1, 2, 7)
LOGIT_STD = 4.0


class LeNet5(torch.nn.Module):
    """LeCun et al. 1998 as commonly written today: ReLU, max pooling, a 32x32 input."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 6, 5)
        self.c3 = torch.nn.Conv2d(6, 16, 5)
        self.f5 = torch.nn.Linear(16 * 5 * 5, 120)
        self.f6 = torch.nn.Linear(120, 84)
        self.f7 = torch.nn.Linear(84, 10)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.c1(x)), 2)
        x = torch.nn.functional.max_pool2d(torch.relu(self.c3(x)), 2)
        x = x.view(x.size(0), -1)  # as tutorials write it: Shape -> Gather -> ... -> Reshape
        x = torch.relu(self.f5(x))
        x = torch.relu(self.f6(x))
        return self.f7(x)


class MnistMlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                       torch.nn.Linear(256, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10),
                                       torch.nn.Softmax(dim=1))

    def forward(self, x):
        return self.net(x)


def conv_bn_relu(cin, cout, kernel, stride=1, padding=0, groups=1):
    return [torch.nn.Conv2d(cin, cout, kernel, stride, padding, groups=groups, bias=False),
            torch.nn.BatchNorm2d(cout), torch.nn.ReLU()]


class DsCnn(torch.nn.Module):
    """ARM's DS-CNN (the small one: 64 channels, 4 depthwise-separable blocks). TensorFlow's 'SAME'
    padding of the first 10x4 stride-2 convolution (4 above, 5 below) is written as PyTorch's
    symmetric (5, 1), which gives the same 25x5 map."""

    def __init__(self, channels=64, blocks=4, classes=12):
        super().__init__()
        layers = conv_bn_relu(1, channels, (10, 4), 2, (5, 1))
        for _ in range(blocks):
            layers += conv_bn_relu(channels, channels, 3, 1, 1, groups=channels)  # depthwise
            layers += conv_bn_relu(channels, channels, 1)  # pointwise
        self.features = torch.nn.Sequential(*layers)
        # count_include_pad=False: there is no padding either way, but with the default torch 1.13 writes
        # a Pad of zeros before the AveragePool
        self.pool = torch.nn.AvgPool2d((25, 5), count_include_pad=False)
        self.fc = torch.nn.Linear(channels, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


class SensorConv1d(torch.nn.Module):
    """A human-activity classifier over windows of 128 samples of a 3-axis accelerometer."""

    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Conv1d(3, 16, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool1d(2),
                                       torch.nn.Conv1d(16, 32, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool1d(2),
                                       torch.nn.Conv1d(32, 64, 3, padding=1), torch.nn.ReLU(),
                                       torch.nn.AdaptiveAvgPool1d(1), torch.nn.Flatten(), torch.nn.Linear(64, 6))

    def forward(self, x):
        return self.net(x)


def randomize_batch_norms(model, g):
    """Running statistics as a trained model has them (fresh ones are 0 and 1: an identity)."""
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
            n = m.num_features
            m.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(n, generator=g) * 0.5 + 0.75)
            m.weight.data.copy_(torch.rand(n, generator=g) * 0.5 + 0.75)
            m.bias.data.copy_(torch.randn(n, generator=g) * 0.1)
    return model


def scale_logits(model, probe):
    """Scales the last linear layer (SqueezeNet's: a 1x1 convolution) so that its outputs (the logits)
    have a standard deviation of LOGIT_STD on the probe, as a trained classifier's have: with random
    weights they are ~0.1, at which the tolerance's 1e-4 absolute term would be 0.1% of every output."""
    last = [m for m in model.modules() if isinstance(m, (torch.nn.Linear, torch.nn.Conv2d))][-1]
    seen = []
    hook = last.register_forward_hook(lambda m, i, o: seen.append(o))
    with torch.no_grad():
        model(probe)
        hook.remove()
        k = LOGIT_STD / float(seen[0].std())
        last.weight.mul_(k)
        last.bias.mul_(k)


# name, the module (built under the seed), the shape of one input sample.
MODELS = [
    ("lenet5", LeNet5, (1, 32, 32)),
    ("mnist_mlp", MnistMlp, (1, 28, 28)),
    ("ds_cnn", DsCnn, (1, 49, 10)),
    ("sensor_conv1d", SensorConv1d, (3, 128)),
    ("squeezenet1_1", lambda: torchvision.models.squeezenet1_1(weights=None), (3, 224, 224)),
    ("mobilenet_v2", lambda: torchvision.models.mobilenet_v2(weights=None), (3, 224, 224)),
    ("resnet18", lambda: torchvision.models.resnet18(weights=None), (3, 224, 224)),
]


def tensor_file(path, t):
    with open(path, "wb") as fh:
        fh.write(numpy_helper.from_array(np.ascontiguousarray(t.numpy())).SerializeToString())


def export(out, name, make, sample, opset, dynamic):
    seed = zlib.crc32(name.encode())
    torch.manual_seed(seed)  # the weights' initializers draw from the global generator
    g = torch.Generator().manual_seed(seed)
    model = randomize_batch_norms(make(), g).eval()
    batches = DYNAMIC_BATCHES if dynamic else (1,)
    xs = [torch.randn(b, *sample, generator=g) for b in batches]
    scale_logits(model, torch.randn(4, *sample, generator=g))
    with torch.no_grad():
        ys = [model(x) for x in xs]
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (xs[0],), buf, opset_version=opset, input_names=["input"], output_names=["output"],
                          dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}} if dynamic else None)
    d = os.path.join(out, f"{name}_opset{opset}_{'dynamic' if dynamic else 'static'}")
    os.makedirs(d)
    with open(os.path.join(d, "model.onnx"), "wb") as fh:
        fh.write(buf.getvalue())
    with open(os.path.join(d, "tolerance"), "w") as fh:
        fh.write(TOLERANCE)
    for k, (x, y) in enumerate(zip(xs, ys)):
        s = os.path.join(d, f"test_data_set_{k}")
        os.makedirs(s)
        tensor_file(os.path.join(s, "input_0.pb"), x)
        tensor_file(os.path.join(s, "output_0.pb"), y)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help="model names (default: all)")
    args = ap.parse_args()
    torch.set_num_threads(1)  # PyTorch's references: one order of sums, whatever the machine
    names = args.only or [m[0] for m in MODELS]
    unknown = set(names) - {m[0] for m in MODELS}
    if unknown:
        sys.exit(f"unknown models: {', '.join(sorted(unknown))}")
    os.makedirs(args.out, exist_ok=True)
    for name, make, sample in MODELS:
        if name not in names:
            continue
        for opset in OPSETS:
            for dynamic in (False, True):
                d = os.path.join(args.out, f"{name}_opset{opset}_{'dynamic' if dynamic else 'static'}")
                if os.path.isdir(d):
                    shutil.rmtree(d)
                export(args.out, name, make, sample, opset, dynamic)
        print(f"exported {name}", flush=True)


if __name__ == "__main__":
    main()
