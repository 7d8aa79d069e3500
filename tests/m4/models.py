#!/usr/bin/python3
"""Real models as Cortex-M4 firmware (issue 22): LeNet-5 and ARM's DS-CNN keyword spotter from the
exported corpus (tests/models/generate.py: random weights, PyTorch's outputs as references), each
built into a firmware of its own (tests/m4/model.c) with a minnx of exactly the model's operators
(`minnx ops`), run on qemu's MPS2 AN386 as tests/m4's firmware is.

    models.py check HOST_BUILD WORK NAME [CMAKE_ARG...]
        HOST_BUILD: an x86-64 build of minnx (its `minnx` tool, and HOST_BUILD/models, the corpus its
        `ctest -L models` exported); WORK: where NAME's files and build go; CMAKE_ARG: passed on to the
        firmware's cross build (the toolchain file, MINNX_PROTOBUF_C_SOURCE, ...).
    models.py table WORK NAME...
        the README's table of the firmware's figures, from what check left in WORK.

check, for NAME's static export at opset 17:
  1. pads the model so that every initializer's raw_data starts at a multiple of 16 bytes (each
     tensor's doc_string, written before its raw_data: protobuf's fields may come in any order), so
     that weights_in_place reads every weight where it lies (a float must start at a multiple of 4);
     the padded model decodes to the same model but for those doc_strings, and `minnx info` must show
     the weights gone from the region;
  2. on the host: `minnx ops` (the build's MINNX_OPS), `minnx info` (the buffer's size, weights in
     place), and `minnx test --digest` on the padded model with the corpus's data set (the x86-64
     digest, and a pass within the tolerance there too);
  3. writes the model's bytes, its input and PyTorch's output as C sources, cross-builds the firmware
     (MinSizeRel, MINNX_OPS = the model's ops, no file I/O, no messages, float only, the size-first
     kernels) and runs it: its line must say PASS (every output within |got - ref| <= 1e-4 +
     1e-3 |ref| of PyTorch's) and give the x86-64 digest (the same bits).
Exit status 0 when all of that holds, 77 (CTest's skip) when the host build has no exported corpus
(the `models/generate` ctest of a host build makes it), 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77
ALIGN = 16
CASE = "{name}_opset17_static"
CROSS = ["-DCMAKE_BUILD_TYPE=MinSizeRel", "-DMINNX_WERROR=ON", "-DBUILD_TESTING=ON", "-DMINNX_FILE_IO=OFF",
         "-DMINNX_MESSAGES=OFF", "-DMINNX_DTYPES=float", "-DMINNX_SMALL_KERNELS=ON"]
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-monitor", "none", "-serial", "none",
        "-semihosting-config", "enable=on,target=native", "-kernel"]
LINE = re.compile(r"^(PASS|FAIL) (\w+)(?:: (.*)| load=(\d+) kept=(\d+) session=(\d+) stack_load=(\d+) stack_run=(\d+) "
                  r"max_abs_err_e9=(\d+) worst_e6=(\d+) digest=([0-9a-f]{16}))$", re.M)


# ---- the model's bytes, with every initializer's raw_data aligned ---------------------------------------

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def len_field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def padded_model(model):
    """The model's bytes with each raw_data initializer written as its other fields, a doc_string of
    0 to ALIGN - 1 pad bytes, then raw_data, the pads chosen so that each raw_data starts at a multiple of
    ALIGN (a pass more when a length's varint grows); and the bytes of raw_data in all."""
    import onnx
    graph = onnx.GraphProto()
    graph.CopyFrom(model.graph)
    inits = list(graph.initializer)
    del graph.initializer[:]
    graph_head = graph.SerializeToString()
    rest = onnx.ModelProto()
    rest.CopyFrom(model)
    rest.ClearField("graph")
    model_head = rest.SerializeToString()
    heads, raws = [], []
    for t in inits:
        h = onnx.TensorProto()
        h.CopyFrom(t)
        raws.append(h.raw_data if h.HasField("raw_data") else None)
        h.ClearField("raw_data")
        h.ClearField("doc_string")
        heads.append(h.SerializeToString())
    pads = [0] * len(inits)

    def layout():
        tensors, starts = [], []
        for head, raw, pad in zip(heads, raws, pads):
            if raw is None:
                tensors.append(head)
                starts.append(None)
                continue
            b = head + len_field(12, b"p" * pad)  # the doc_string, before raw_data
            starts.append(len(b) + len(varint(9 << 3 | 2)) + len(varint(len(raw))))
            tensors.append(b + len_field(9, raw))
        graph_bytes = graph_head + b"".join(len_field(5, t) for t in tensors)
        at = len(model_head) + len(varint(7 << 3 | 2)) + len(varint(len(graph_bytes))) + len(graph_head)
        offsets = []
        for t, s in zip(tensors, starts):
            at += len(varint(5 << 3 | 2)) + len(varint(len(t)))
            offsets.append(None if s is None else at + s)
            at += len(t)
        return model_head + len_field(7, graph_bytes), offsets

    for _ in range(8):
        for i in range(len(inits)):
            if raws[i] is None:
                continue
            off = layout()[1][i]
            pads[i] = (pads[i] + (-off) % ALIGN) % ALIGN  # raw_data moves as the pad grows (2 + pad bytes)
        data, offsets = layout()
        if all(o is None or o % ALIGN == 0 for o in offsets):
            break
    else:
        raise SystemExit("could not align the initializers' raw_data")
    back = onnx.ModelProto.FromString(data)
    for t in back.graph.initializer:
        t.ClearField("doc_string")
    same = onnx.ModelProto()
    same.CopyFrom(model)
    for t in same.graph.initializer:
        t.ClearField("doc_string")
    if back.SerializeToString() != same.SerializeToString():
        raise SystemExit("the padded model does not decode to the model")
    raw_bytes = sum(len(r) for r in raws if r is not None)
    return data, raw_bytes


# ---- C sources ---------------------------------------------------------------------------------------------

def c_bytes(name, data):
    rows = ",\n  ".join(",".join("0x%02x" % b for b in data[i:i + 16]) for i in range(0, len(data), 16))
    return ("/* generated by tests/m4/models.py */\n#include <stddef.h>\n"
            "/* const: the bytes stay in flash; aligned, so that aligned offsets are aligned addresses */\n"
            "_Alignas(%d) const unsigned char %s[] = {\n  %s};\nconst size_t %s_size = %d;\n"
            % (ALIGN, name, rows, name, len(data)))


def c_floats(name, values):
    rows = ",\n  ".join(", ".join(float(v).hex() + "f" for v in values[i:i + 6]) for i in range(0, len(values), 6))
    return "const float %s[] = {\n  %s};\nconst size_t %s_count = %d;\n" % (name, rows, name, len(values))


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode:
        print("failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout[-3000:]))
        raise SystemExit(1)
    return r.stdout


def check(host, work, name, cmake_args):
    import onnx
    from onnx import numpy_helper
    case = CASE.format(name=name)
    src = os.path.join(host, "models", "cases", case)
    minnx = os.path.join(host, "minnx")
    if not os.path.isfile(os.path.join(src, "model.onnx")):
        print("SKIP %s: no exported corpus in %s (the host build's ctest models/generate exports it)" % (name, src))
        return SKIP
    if not os.access(minnx, os.X_OK):
        print("SKIP %s: no minnx tool in the host build %s" % (name, host))
        return SKIP
    top = os.path.join(work, name)
    gen = os.path.join(top, "gen")
    cases = os.path.join(top, "host_case")
    for d in (gen, cases):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)

    # 1. the model, padded for weights in place
    model = onnx.load(os.path.join(src, "model.onnx"))
    data, raw_bytes = padded_model(model)
    padded = os.path.join(cases, case, "model.onnx")
    shutil.copytree(src, os.path.join(cases, case))
    with open(padded, "wb") as fh:
        fh.write(data)

    # 2. the host's figures and digest
    ops = run([minnx, "ops", padded]).strip()
    info = run([minnx, "info", padded])
    sizes = {}
    for kind, line in (("copied", r"caller memory: "), ("in_place", r"caller memory, weights in place: ")):
        m = re.search(line + r"model (\d+) bytes to load \((\d+) kept\), session (\d+) bytes\n", info)
        if not m:
            print("FAIL %s: minnx info printed no caller-memory figures:\n%s" % (name, info))
            return 1
        sizes[kind] = [int(x) for x in m.groups()]
    if sizes["copied"][1] - sizes["in_place"][1] < raw_bytes:
        print("FAIL %s: with the weights in place the model keeps %d bytes, %d without: not all of the %d bytes of "
              "weights stayed in place" % (name, sizes["in_place"][1], sizes["copied"][1], raw_bytes))
        return 1
    out = run([minnx, "test", cases, "--digest"])
    m = re.search(r"^PASS %s .*digest=([0-9a-f]{16})$" % case, out, re.M)
    if not m:
        print("FAIL %s: the x86-64 build does not pass the padded model:\n%s" % (name, out))
        return 1
    host_digest = m.group(1)
    print("x86-64: %s" % m.group(0))

    # 3. the firmware
    x = numpy_helper.to_array(onnx.load_tensor(os.path.join(src, "test_data_set_0", "input_0.pb")))
    y = numpy_helper.to_array(onnx.load_tensor(os.path.join(src, "test_data_set_0", "output_0.pb")))
    if x.dtype.name != "float32" or y.dtype.name != "float32":
        print("FAIL %s: the firmware takes a float input and output" % name)
        return 1
    load, kept, session = sizes["in_place"]
    with open(os.path.join(gen, "model_bytes.c"), "w") as fh:
        fh.write(c_bytes("fw_model", data))
    with open(os.path.join(gen, "model_io.c"), "w") as fh:
        fh.write("/* generated by tests/m4/models.py: the input and PyTorch's output for it */\n#include <stddef.h>\n")
        fh.write(c_floats("fw_input", x.ravel().tolist()) + c_floats("fw_reference", y.ravel().tolist()))
    with open(os.path.join(gen, "fw_model.h"), "w") as fh:
        fh.write("/* generated by tests/m4/models.py from %s (padded) and `minnx info` on the host */\n"
                 "#include <stddef.h>\n#define FW_NAME \"%s\"\n#define FW_LOAD_BYTES %d\n#define FW_KEPT_BYTES %d\n"
                 "#define FW_SESSION_BYTES %d\n#define FW_INPUT_RANK %d\n#define FW_INPUT_DIMS {%s}\n"
                 "extern const unsigned char fw_model[];\nextern const size_t fw_model_size;\n"
                 "extern const float fw_input[], fw_reference[];\nextern const size_t fw_input_count, fw_reference_count;\n"
                 % (case, name, load, kept, session, x.ndim, ", ".join(str(d) for d in x.shape)))
    build = os.path.join(top, "build")
    run(["cmake", "-S", ROOT, "-B", build, *CROSS, "-DMINNX_OPS=" + ops, "-DMINNX_M4_MODEL=" + gen, *cmake_args])
    run(["cmake", "--build", build, "-j2", "--target", "m4_model"])
    elf = os.path.join(build, "tests", "m4", "m4_model")
    r = subprocess.run(QEMU + [elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    got = r.stderr + r.stdout  # qemu writes the semihosting console to stderr
    with open(os.path.join(top, "result.txt"), "w") as fh:
        fh.write("ops=%s raw_bytes=%d host_digest=%s\n%s" % (ops, raw_bytes, host_digest, got))
    m = LINE.search(got)
    print("cortex-m4 (MINNX_OPS=%s): %s" % (ops, m.group(0) if m else got.strip()))
    if not m or m.group(1) != "PASS" or r.returncode:
        print("FAIL %s: the firmware did not pass (exit %d)" % (name, r.returncode))
        return 1
    if m.group(11) != host_digest:
        print("FAIL %s: the Cortex-M4's digest %s is not x86-64's %s" % (name, m.group(11), host_digest))
        return 1
    print("PASS %s: within tolerance of PyTorch (max |got - ref| <= %.3g), the same bits as x86-64 (digest %s)"
          % (name, int(m.group(9)) * 1e-9, host_digest))
    return 0


# ---- the figures -------------------------------------------------------------------------------------------

PLACE = re.compile(r"^\s*0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")


def map_sizes(path):
    """Bytes by origin and kind from GNU ld's link map: what --gc-sections kept (as tests/size/sizes.py reads
    it). Origins: minnx (libminnx.a), model (the model's bytes), io (the input and reference), rest (the
    firmware's own code, startup, semihosting, the digest, the C library). Kinds: flash (.text, .rodata,
    .data's initial values), data, bss."""
    out = {}
    section = None
    in_map = False
    for line in open(path):
        if line.startswith("Linker script and memory map"):
            in_map = True
            continue
        if not in_map or not line.startswith(" ") or line.startswith(" *fill*"):
            continue
        m = re.match(r"^ (\S+)(.*)$", line)
        if m and not line.startswith("  "):
            section, rest = m.group(1), m.group(2)
            if not rest.strip():
                continue
            line = rest
        placed = PLACE.match(line)
        if not placed or section is None or placed.group(2).startswith("0x"):
            continue
        size, where = int(placed.group(1), 16), placed.group(2).strip()
        if " " in where:
            continue
        if section.startswith((".text", ".rodata")):
            kinds = ("flash",)
        elif section.startswith(".data"):
            kinds = ("flash", "data")
        elif section.startswith(".bss") or section == "COMMON":
            kinds = ("bss",)
        else:
            continue
        origin = ("minnx" if "libminnx.a(" in where else "model" if "model_bytes.c" in where
                  else "io" if "model_io.c" in where else "rest")
        for k in kinds:
            out[(origin, k)] = out.get((origin, k), 0) + size
    return out


def table(work, names):
    print("| model | ops | flash: code (minnx) | flash: model | load region | model kept | session region | "
          "static RAM | stack, load | stack, run |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name in names:
        top = os.path.join(work, name)
        with open(os.path.join(top, "result.txt")) as fh:
            text = fh.read()
        ops = re.search(r"^ops=(\S+)", text, re.M).group(1)
        m = LINE.search(text)
        if not m or m.group(1) != "PASS":
            sys.exit("%s: no PASS line in %s/result.txt" % (name, top))
        s = map_sizes(os.path.join(top, "build", "tests", "m4", "m4_model.map"))
        g = lambda o, k: s.get((o, k), 0)
        code = g("minnx", "flash") + g("rest", "flash")
        ram = sum(g(o, k) for o in ("minnx", "rest", "model", "io") for k in ("data", "bss"))
        print("| %s | %s | %d (%d) | %d | %d | %d | %d | %d | %s | %s |"
              % (name, ops.replace(";", ", "), code, g("minnx", "flash"), g("model", "flash"), int(m.group(4)),
                 int(m.group(5)), int(m.group(6)), ram, m.group(7), m.group(8)))
    print("(flash: code = .text + .rodata + .data's initial values of everything but the model's bytes and the "
          "compiled-in input and reference; static RAM = .data + .bss, the buffer included)")


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "check":
        return check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if len(sys.argv) >= 4 and sys.argv[1] == "table":
        return table(sys.argv[2], sys.argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
