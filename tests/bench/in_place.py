#!/usr/bin/python3
"""Weights in place: load time and peak RSS of `minnx_model_load_file` on a model with one large
float32 initializer (256 MiB by default), without and with minnx_load_options.weights_in_place.

Without the option the file is read into memory and the initializer copied out of it; with it the
file is mapped and the initializer used where it is (its raw_data is placed at a 64-byte offset
of the file, padding the model's doc_string). Each load runs in a process of its own
(tests/bench/load.c, built as tests/bench_load), so that each peak RSS is its own.

    /usr/bin/python3 tests/bench/in_place.py [--program build/tests/bench_load] [--work DIR]
                                             [--mib 256] [--repeat 3]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper


def write_model(path, mib):
    n = mib * (1 << 20) // 4
    w = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    init = helper.make_tensor("W", TensorProto.FLOAT, [n], w.tobytes(), raw=True)
    node = helper.make_node("Max", ["x", "W"], ["y"])
    graph = helper.make_graph([node], "in_place", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])], [init])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    marker = w[:16].tobytes()
    for pad in range(256):
        model.doc_string = "p" * pad
        data = model.SerializeToString()
        at = data.find(marker)
        if at % 64 == 0:
            break
    else:
        sys.exit("could not place raw_data at a 64-byte offset")
    with open(path, "wb") as f:
        f.write(data)


def load(program, path, in_place):
    out = subprocess.run([program, path] + (["--in-place"] if in_place else []), check=True, capture_output=True,
                         text=True).stdout
    return dict(kv.split("=") for kv in out.split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", default="build/tests/bench_load")
    ap.add_argument("--work")
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="minnx_in_place_")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "model.onnx")
    write_model(path, a.mib)
    print("model: %s, %d bytes (one %d MiB float32 initializer)" % (path, os.path.getsize(path), a.mib))
    print("| load | time (ms, median of %d) | peak RSS (MiB) | model bytes |" % a.repeat)
    print("|---|--:|--:|--:|")
    for in_place in (False, True):
        runs = [load(a.program, path, in_place) for _ in range(a.repeat)]
        ms = sorted(float(r["load_ms"]) for r in runs)[len(runs) // 2]
        rss = max(int(r["peak_rss_kib"]) for r in runs) / 1024
        print("| %s | %.1f | %.1f | %s |" % ("weights in place (mapped)" if in_place else "copied (read)", ms, rss,
                                            runs[0]["model_bytes"]))
    if not a.work:
        os.remove(path)
        os.rmdir(work)


if __name__ == "__main__":
    main()
