#!/usr/bin/python3
"""Generate minnx's bad-input suite: models and input files that minnx must refuse.

Every case is a folder  cases/<name>/  holding  model.onnx  (any bytes), any input or external
data files it needs, and a text file  expect  of three lines:
    1. the exit status the CLI must give (2: refused at load, 3: at run; 0 for the few controls)
    2. an extended regex the one stderr line after "minnx: error: " must match (for status 0:
       a regex stdout must match), naming the cause
    3. the CLI arguments, run inside the case folder (default: run model.onnx)
check.sh runs one case.  decoy/secret.bin sits outside every case folder and holds exactly the
bytes the external-data cases ask for: if minnx ever read it, those cases would load and fail.

Run with Debian's python3 (python3-onnx):  /usr/bin/python3 tests/bad/generate.py [--out DIR]
The output is deterministic (fixed seeds, no timestamps); tests/bad/regenerate.sh checks that
the committed data is exactly what this script writes.  onnx.checker is deliberately not used.
"""
import argparse
import os
import random
import shutil
import struct

from google.protobuf.message import DecodeError
from onnx import AttributeProto, ModelProto, TensorProto, TypeProto, ValueInfoProto, helper

OV = "org.openvinotoolkit"
F = TensorProto.FLOAT
DECOY = "../../decoy/secret.bin"  # from a case folder
W_VALUES = [5.0, -1.0, 2.5, 0.0, 7.0, -3.0]  # the [2,3] initializer w; also the decoy's bytes
W_BYTES = struct.pack("<6f", *W_VALUES)

cases = {}


def case(name, data, status, regex, args="run model.onnx", files=None, links=None):
    assert name not in cases, name
    cases[name] = (data if isinstance(data, bytes) else data.SerializeToString(), status, regex, args,
                   files or {}, links or {})


def vi(name, dtype=F, shape=(2, 3)):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs=None, outputs=None, inits=(), opsets=(("", 13),), **graph_fields):
    inputs = [vi("a"), vi("b")] if inputs is None else inputs
    outputs = [ValueInfoProto(name="y")] if outputs is None else outputs
    g = helper.make_graph(nodes, "bad", inputs, outputs, initializer=list(inits))
    for k, v in graph_fields.items():
        getattr(g, k).extend(v)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets],
                          producer_name="minnx-bad")
    m.ir_version = 8
    return m


def max_model(**kw):
    return model([helper.make_node("Max", ["a", "b"], ["y"])], **kw)


def tensor(name, dtype, dims, values):
    return helper.make_tensor(name, dtype, dims, values)


def raw_tensor(name, dtype, dims, raw):
    t = TensorProto(name=name, data_type=dtype, dims=dims)
    t.raw_data = raw
    return t


def pb(t):
    return t.SerializeToString()


def a_pb(dtype=F, dims=(2, 3)):
    n = 1
    for d in dims:
        n *= d
    return pb(helper.make_tensor("a", dtype, dims, [1] * n))


# ---- wire format: bytes that are not a well-formed ModelProto ----

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def truncations():
    """A valid Max + ArgMax model cut at every 7th byte and one short of its end. Where Python's
    protobuf still parses the prefix (a cut between fields), the cause is what is missing."""
    m = model([helper.make_node("Max", ["a", "b"], ["m"]), helper.make_node("ArgMax", ["m"], ["y"], axis=1)],
              outputs=[vi("y", TensorProto.INT64, (2, 1))])
    base = m.SerializeToString()
    for n in list(range(1, len(base), 7)) + [len(base) - 1]:
        try:
            cut = ModelProto()
            cut.ParseFromString(base[:n])
            regex = "no graph" if not cut.HasField("graph") else "is not imported"
        except DecodeError:
            regex = "not a valid ONNX model: the protobuf has"
        case(f"wire-truncated-at-{n:03d}", base[:n], 2, regex)


def wire_cases():
    case("wire-empty", b"", 2, "no graph")
    truncations()
    for seed, size in ((1, 16), (2, 100), (3, 1000), (4, 4096)):
        r = random.Random(seed)
        case(f"wire-random-{size}-bytes", bytes(r.randrange(256) for _ in range(size)), 2,
             "protobuf|no graph")
    graph = max_model().graph.SerializeToString()
    ir = key(1, 0) + varint(8)
    case("wire-huge-length-prefix", ir + key(7, 2) + varint(1 << 62) + graph, 2, "length prefix beyond the end")
    case("wire-length-past-end-by-one", ir + key(7, 2) + varint(len(graph) + 1) + graph, 2,
         "length prefix beyond the end")
    case("wire-length-prefix-11-bytes", ir + key(7, 2) + b"\xff" * 10 + b"\x01" + graph, 2, "too long")
    case("wire-graph-as-varint", ir + key(7, 0) + varint(5), 2, "submessage field with a varint wire type")
    case("wire-graph-as-fixed64", ir + key(7, 1) + b"\0" * 8, 2, "submessage field with a fixed-size wire type")
    case("wire-start-group", ir + key(7, 3) + graph, 2, "group or unknown wire type")
    case("wire-end-group", ir + key(7, 4), 2, "group or unknown wire type")
    case("wire-wire-type-7", ir + key(7, 7), 2, "group or unknown wire type")
    case("wire-field-number-0", key(0, 2) + varint(0) + ir, 2, "field number out of range")
    case("wire-truncated-varint", key(1, 0) + b"\x80", 2, "varint that is truncated")
    case("wire-truncated-fixed32", key(99, 5) + b"\0\0", 2, "truncated fixed-size field")
    case("wire-nested-length-past-parent", ir + key(7, 2) + varint(4) + key(1, 2) + varint(50) + b"xx", 2,
         "length prefix beyond the end of its message in GraphProto")
    # 200 graphs, each in an attribute of a node of the one above
    g = helper.make_graph([], "leaf", [], [])
    for _ in range(200):
        n = helper.make_node("If", ["c"], ["z"], then_branch=g)
        g = helper.make_graph([n], "g", [], [])
    case("wire-nested-graphs-200", model(list(g.node)), 2, "nests messages more than 32 deep")
    # a value_info whose type is a sequence of sequences of ... 40 deep
    t = TypeProto()
    t.tensor_type.elem_type = F
    for _ in range(40):
        s = TypeProto()
        s.sequence_type.elem_type.CopyFrom(t)
        t = s
    deep = helper.make_value_info("deep", t)
    case("wire-nested-types-40", max_model(value_info=[deep]), 2, "nests messages more than 32 deep")


# ---- structure ----

def structure_cases():
    mx = helper.make_node
    m = max_model()
    m.ClearField("graph")
    case("struct-no-graph", m, 2, "no graph")
    case("struct-undefined-input", model([mx("Max", ["a", "ghost"], ["y"])]), 2, "input 'ghost' is not defined")
    case("struct-cycle", model([mx("Max", ["a", "y2"], ["y1"]), mx("Max", ["y1", "b"], ["y2"]),
                                mx("Max", ["y2", "a"], ["y"])]), 2, "cycle")
    case("struct-self-loop", model([mx("Max", ["a", "y"], ["y"])]), 2, "cycle")
    case("struct-duplicate-inputs", max_model(inputs=[vi("a"), vi("a")]), 2, "graph input 'a' is listed twice")
    case("struct-duplicate-node-outputs", model([mx("Max", ["a", "b"], ["y"]), mx("Max", ["a", "b"], ["y"])]), 2,
         "output 'y' is already defined")
    case("struct-output-shadows-input", model([mx("Max", ["a", "b"], ["a"])],
                                              outputs=[vi("a")]), 2, "output 'a' is already defined")
    w = tensor("w", F, [2, 3], W_VALUES)
    case("struct-duplicate-initializers", max_model(inits=[w, w]), 2, "'w' is defined more than once")
    case("struct-input-listed-twice", max_model(inputs=[vi("a"), vi("b"), vi("w"), vi("w")], inits=[w]), 2,
         "'w' is listed twice")
    case("struct-input-without-type", max_model(inputs=[vi("a"), ValueInfoProto(name="b")]), 2,
         "graph input 'b' has no tensor type")
    case("struct-input-with-empty-type", max_model(inputs=[vi("a"), helper.make_value_info("b", TypeProto())]), 2,
         "graph input 'b' has no tensor type")
    seq = helper.make_tensor_sequence_value_info("b", F, [2, 3])
    case("struct-input-sequence-type", max_model(inputs=[vi("a"), seq]), 2, "graph input 'b' has no tensor type")
    case("struct-input-without-elem-type", max_model(inputs=[vi("a"), vi("b", 0)]), 2, "no element type")
    case("struct-input-dtype-string", max_model(inputs=[vi("a"), vi("b", TensorProto.STRING)]), 2,
         "dtype string")
    case("struct-input-dtype-99", max_model(inputs=[vi("a"), vi("b", 99)]), 2, "dtype unknown dtype \\(99\\)")
    case("struct-input-dtype-float8", max_model(inputs=[vi("a"), vi("b", 17)]), 2, "dtype float8e4m3fn \\(17\\)")
    case("struct-input-empty-name", model([mx("Max", ["a", "a"], ["y"])], inputs=[vi("a"), vi("")]), 2,
         "empty name")
    case("struct-node-input-empty", model([mx("Max", ["a", ""], ["y"])]), 2, "input 1 is empty")
    case("struct-node-output-empty", model([mx("Max", ["a", "b"], [""])]), 2, "not produced")
    case("struct-node-without-outputs", model([mx("Max", ["a", "b"], []), mx("Max", ["a", "b"], ["y"])]), 2,
         "exactly one named output")
    case("struct-argmax-two-outputs", model([mx("ArgMax", ["a"], ["y", "z"], axis=1)]), 2,
         "exactly one named output")
    case("struct-op-type-empty", model([mx("", ["a", "b"], ["y"])]), 2, "operator '' of domain 'ai.onnx'")
    case("struct-unknown-op", model([mx("Det", ["a"], ["y"])]), 2, "operator 'Det' .*not implemented")
    case("struct-unknown-op-in-chain", model([mx("Max", ["a", "b"], ["m"]), mx("Det", ["m"], ["y"])]), 2,
         "'Det'.*not implemented")
    case("struct-graph-output-undefined", max_model(outputs=[vi("nowhere")]), 2,
         "graph output 'nowhere' is not produced")
    case("struct-graph-output-empty-name", max_model(outputs=[vi("")]), 2, "graph output '' is not produced")
    case("struct-domain-not-imported", model([mx("Maximum", ["a", "b"], ["y"], domain=OV)]), 2,
         "domain 'org.openvinotoolkit' is not imported")
    m = max_model()
    m.opset_import[0].ClearField("version")
    case("struct-opset-without-version", m, 2, "no valid version")
    case("struct-opset-version-0", max_model(opsets=(("", 0),)), 2, "no valid version")
    case("struct-opset-version-negative", max_model(opsets=(("", -5),)), 2, "no valid version")
    case("struct-opset-imported-twice", max_model(opsets=(("", 13), ("ai.onnx", 12))), 2, "imported twice")
    case("struct-opsets-65", max_model(opsets=[("", 13)] + [(f"d{i}", 1) for i in range(64)]), 2,
         "65 opsets, above minnx's maximum 64")
    n = mx("ArgMax", ["a"], ["y"], axis=1)
    n.attribute.add().CopyFrom(helper.make_attribute("axis", 0))
    case("struct-attribute-twice", model([n]), 2, "attribute 'axis' twice")
    n = mx("ArgMax", ["a"], ["y"])
    n.attribute.add().CopyFrom(helper.make_attribute("", 1))
    case("struct-attribute-without-name", model([n]), 2, "attribute without a name")
    n = mx("ArgMax", ["a"], ["y"])
    a = n.attribute.add()
    a.name, a.ref_attr_name, a.type = "axis", "outer_axis", AttributeProto.INT
    case("struct-attribute-ref-attr-name", model([n]), 2, "refers to a function attribute")
    n = mx("ArgMax", ["a"], ["y"])
    a = n.attribute.add()
    a.name, a.type = "axis", AttributeProto.SPARSE_TENSOR
    case("struct-attribute-sparse-type", model([n]), 2, "type minnx does not support")
    n = mx("Max", ["a", "b"], ["y"])
    for i in range(65):
        n.attribute.add().CopyFrom(helper.make_attribute(f"x{i}", i))
    case("struct-attributes-65", model([n]), 2, "65 attributes, above minnx's maximum 64")
    n = mx("Maximum", ["a", "b"], ["y"], domain=OV)
    n.attribute.add().CopyFrom(helper.make_attribute("auto_broadcast", b"nu\0mpy"))
    case("struct-string-attribute-with-nul", model([n], opsets=(("", 13), (OV, 1))), 2, "NUL byte")
    sp = helper.make_sparse_tensor(tensor("v", F, [1], [1.0]), tensor("i", TensorProto.INT64, [1], [0]), [3])
    case("struct-sparse-initializer", max_model(sparse_initializer=[sp]), 2, "sparse initializers")


# ---- initializers (TensorProto rules) ----

def initializer_cases():
    def with_w(t, regex, name=None):
        m = model([helper.make_node("Max", ["a", "w"], ["y"])], inputs=[vi("a")], inits=[t])
        case(name, m, 2, regex)

    with_w(TensorProto(name="w", dims=[2, 3], float_data=W_VALUES), "tensor 'w' has no data_type",
           "init-no-data-type")
    t = tensor("", F, [2, 3], W_VALUES)
    m = model([helper.make_node("Max", ["a", "a"], ["y"])], inputs=[vi("a")], inits=[t])
    case("init-empty-name", m, 2, "empty name")
    with_w(raw_tensor("w", F, [2, 3], W_BYTES[:-1]), "raw_data has 23 bytes, its shape needs 24",
           "init-raw-data-short")
    with_w(raw_tensor("w", F, [2, 3], W_BYTES + b"\0"), "raw_data has 25 bytes", "init-raw-data-long")
    t = raw_tensor("w", F, [2, 3], W_BYTES)
    t.float_data.extend(W_VALUES)
    with_w(t, "both raw_data and float_data", "init-raw-and-typed")
    with_w(TensorProto(name="w", data_type=F, dims=[2, 3], int64_data=[1] * 6), "carries int64_data",
           "init-wrong-typed-field")
    with_w(TensorProto(name="w", data_type=F, dims=[2, 3], float_data=[1.0] * 5), "float_data has 5 values",
           "init-typed-count-short")
    t = TensorProto(name="w", data_type=TensorProto.INT8, dims=[2, 3], int32_data=[1, 2, 300, 4, 5, 6])
    m = model([helper.make_node("Max", ["a", "w"], ["y"])], inputs=[vi("a", TensorProto.INT8)], inits=[t])
    case("init-int8-value-300", m, 2, "does not fit dtype int8")
    with_w(TensorProto(name="w", data_type=TensorProto.STRING, dims=[1], string_data=[b"x"]), "dtype string",
           "init-string-dtype")
    with_w(TensorProto(name="w", data_type=F, dims=[1], float_data=[1.0], string_data=[b"x"]),
           "carries string_data", "init-string-data-on-float")
    with_w(raw_tensor("w", F, [2, -3], b""), "negative dim -3", "init-negative-dim")
    with_w(raw_tensor("w", F, [1] * 9, W_BYTES[:4]), "rank 9, above minnx's maximum 8", "init-rank-9")
    with_w(raw_tensor("w", F, [2**63 - 1, 2**63 - 1], b""), "element count overflows", "init-dims-overflow")
    with_w(raw_tensor("w", F, [2**40], b""), "raw_data has 0 bytes, its shape needs 4398046511104",
           "init-dims-4-tib-without-data")
    t = raw_tensor("w", F, [2, 3], W_BYTES)
    t.segment.begin, t.segment.end = 0, 6
    with_w(t, "segmented", "init-segment")
    t = TensorProto()  # Python refuses the enum value 7; the wire does not
    t.ParseFromString(raw_tensor("w", F, [2, 3], W_BYTES).SerializeToString() + key(14, 0) + varint(7))
    with_w(t, "unknown data_location 7", "init-data-location-7")
    t = tensor("w", TensorProto.INT32, [2, 3], [1] * 6)
    m = max_model(inputs=[vi("a"), vi("b"), vi("w")], inits=[t])
    case("init-input-declared-float-initializer-int32", m, 2, "'w' is declared float but its initializer is int32")


# ---- operator version, dtype and shape rules ----

def rule_cases():
    mx = helper.make_node
    I32, U64, BF16, BOOL = TensorProto.INT32, TensorProto.UINT64, TensorProto.BFLOAT16, TensorProto.BOOL
    bc = [vi("a"), vi("b", F, (3,))]
    for opset in (1, 6, 7):
        case(f"rule-max-opset{opset}-broadcast", max_model(inputs=bc, opsets=(("", opset),)), 2,
             "differ and this version does not broadcast")
    case("rule-max-opset8-int32", max_model(inputs=[vi("a", I32), vi("b", I32)], opsets=(("", 8),)), 2,
         "dtype int32, which this version does not allow")
    case("rule-max-opset11-uint64", max_model(inputs=[vi("a", U64), vi("b", U64)], opsets=(("", 11),)), 2,
         "dtype uint64")
    case("rule-max-opset12-bfloat16", max_model(inputs=[vi("a", BF16), vi("b", BF16)], opsets=(("", 12),)), 2,
         "dtype bfloat16")
    case("rule-max-bool", max_model(inputs=[vi("a", BOOL), vi("b", BOOL)]), 2, "dtype bool")
    case("rule-max-mixed-dtypes", max_model(inputs=[vi("a"), vi("b", TensorProto.DOUBLE)]), 2,
         "mix dtypes float and double")
    case("rule-max-no-inputs", model([mx("Max", [], ["y"])]), 2, "0 inputs; it takes at least 1")
    case("rule-max6-consumed-inputs", model([mx("Max", ["a", "b"], ["y"], consumed_inputs=[0, 0])],
                                            opsets=(("", 6),)), 2, "'consumed_inputs' is not allowed")
    case("rule-max1-consumed-inputs-int", model([mx("Max", ["a", "b"], ["y"], consumed_inputs=0)],
                                                opsets=(("", 1),)), 2, "'consumed_inputs' has the wrong type")
    case("rule-max13-unknown-attribute", model([mx("Max", ["a", "b"], ["y"], alpha=1.0)]), 2,
         "'alpha' is not allowed")
    case("rule-max-shapes-3-and-4", max_model(inputs=[vi("a", F, (3,)), vi("b", F, (4,))]), 2,
         "shapes \\[3\\] and \\[4\\] are not broadcast-compatible")
    case("rule-max-shapes-three-way", model([mx("Max", ["a", "b", "c"], ["y"])],
                                            inputs=[vi("a", F, (2, 1)), vi("b", F, (1, 3)), vi("c", F, (4, 1))]),
         2, "\\[2,1\\] and \\[4,1\\] are not broadcast-compatible")
    case("rule-max-zero-vs-two", max_model(inputs=[vi("a", F, (0,)), vi("b", F, (2,))]), 2, "not broadcast")

    def argmax(attrs, dtype=F, shape=(2, 3), opset=13):
        return model([mx("ArgMax", ["a"], ["y"], **attrs)], inputs=[vi("a", dtype, shape)], opsets=(("", opset),))

    case("rule-argmax1-negative-axis", argmax({"axis": -1}, opset=1), 2, "axis -1 is out of range \\[0, 1\\]")
    case("rule-argmax10-negative-axis", argmax({"axis": -1}, opset=10), 2, "axis -1 is out of range")
    case("rule-argmax11-axis-2", argmax({"axis": 2}, opset=11), 2, "axis 2 is out of range \\[-2, 1\\]")
    case("rule-argmax-axis-int64-min", argmax({"axis": -2**63}), 2, "axis -9223372036854775808 is out of range")
    case("rule-argmax-axis-int64-max", argmax({"axis": 2**63 - 1}), 2, "axis 9223372036854775807 is out of range")
    case("rule-argmax-keepdims-2", argmax({"keepdims": 2}), 2, "keepdims is 2; it must be 0 or 1")
    case("rule-argmax11-select-last-index", argmax({"select_last_index": 1}, opset=11), 2,
         "'select_last_index' is not allowed")
    case("rule-argmax12-select-last-index-5", argmax({"select_last_index": 5}, opset=12), 2,
         "select_last_index is 5")
    case("rule-argmax-axis-float", argmax({"axis": 1.0}), 2, "'axis' has the wrong type")
    case("rule-argmax-axis-ints", argmax({"axis": [1]}), 2, "'axis' has the wrong type")
    case("rule-argmax-bool", argmax({}, BOOL), 2, "dtype bool")
    case("rule-argmax12-bfloat16", argmax({}, BF16, opset=12), 2, "dtype bfloat16")
    case("rule-argmax-rank-0", argmax({}, F, ()), 2, "out of range .* rank 0")
    case("rule-argmax-axis-of-size-0", argmax({"axis": 1}, F, (2, 0)), 2, "axis 1 has size 0")
    case("rule-argmax-two-inputs", model([mx("ArgMax", ["a", "b"], ["y"])]), 2, "2 inputs; it takes exactly 1")
    ov = (("", 13), (OV, 1))
    case("rule-maximum-auto-broadcast-pdpd", model([mx("Maximum", ["a", "b"], ["y"], domain=OV,
                                                      auto_broadcast="pdpd")], opsets=ov), 2,
         "auto_broadcast is 'pdpd'")
    case("rule-maximum-three-inputs", model([mx("Maximum", ["a", "b", "a"], ["y"], domain=OV)], opsets=ov), 2,
         "3 inputs; it takes exactly 2")
    case("rule-maximum-none-shapes", model([mx("Maximum", ["a", "b"], ["y"], domain=OV, auto_broadcast="none")],
                                           inputs=bc, opsets=ov), 2, "differ and this version does not broadcast")
    case("rule-maximum-in-default-domain", model([mx("Maximum", ["a", "b"], ["y"])]), 2,
         "'Maximum' of domain 'ai.onnx' is not implemented")
    case("rule-maximum-opset-0", model([mx("Maximum", ["a", "b"], ["y"], domain=OV)], opsets=(("", 13), (OV, 0))),
         2, "no valid version")
    case("rule-output-declared-int32", max_model(outputs=[vi("y", I32)]), 2,
         "'y' is declared int32 but the node gives float")
    case("rule-output-declared-shape", max_model(outputs=[vi("y", F, (3, 2))]), 2,
         "'y' is declared with shape \\[3,2\\] but the node gives \\[2,3\\]")
    case("rule-argmax-output-declared-float", model([mx("ArgMax", ["a"], ["y"])], inputs=[vi("a")],
                                                    outputs=[vi("y", F, None)]), 2, "declared float but the node gives int64")


# ---- the min side and the reductions: the same rules, and the reductions' own ----

def minmax_rule_cases():
    mx = helper.make_node
    I16, I32, I64, BOOL = TensorProto.INT16, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL
    ov = (("", 13), (OV, 1))
    case("rule-min-opset7-broadcast", model([mx("Min", ["a", "b"], ["y"])], inputs=[vi("a"), vi("b", F, (3,))],
                                            opsets=(("", 7),)), 2, "differ and this version does not broadcast")
    case("rule-min-opset8-int32", model([mx("Min", ["a", "b"], ["y"])], inputs=[vi("a", I32), vi("b", I32)],
                                        opsets=(("", 8),)), 2, "dtype int32, which this version does not allow")
    case("rule-min-shapes-3-and-4", model([mx("Min", ["a", "b"], ["y"])], inputs=[vi("a", F, (3,)), vi("b", F, (4,))]),
         2, "shapes \\[3\\] and \\[4\\] are not broadcast-compatible")
    case("rule-argmin11-select-last-index", model([mx("ArgMin", ["a"], ["y"], select_last_index=1)],
                                                  inputs=[vi("a")], opsets=(("", 11),)), 2,
         "'select_last_index' is not allowed")
    case("rule-argmin-axis-2", model([mx("ArgMin", ["a"], ["y"], axis=2)], inputs=[vi("a")]), 2,
         "ArgMin-13.*axis 2 is out of range \\[-2, 1\\]")
    case("rule-argmin-axis-of-size-0", model([mx("ArgMin", ["a"], ["y"], axis=1)], inputs=[vi("a", F, (2, 0))]), 2,
         "axis 1 has size 0")
    case("rule-minimum-auto-broadcast-pdpd", model([mx("Minimum", ["a", "b"], ["y"], domain=OV,
                                                      auto_broadcast="pdpd")], opsets=ov), 2, "auto_broadcast is 'pdpd'")
    case("rule-minimum-three-inputs", model([mx("Minimum", ["a", "b", "a"], ["y"], domain=OV)], opsets=ov), 2,
         "3 inputs; it takes exactly 2")

    def reduce(op="ReduceMax", opset=13, dtype=F, shape=(2, 3), axes=None, axes_input=None, inits=(), **attrs):
        ins = ["a"] + ([axes_input] if axes_input else [])
        if axes is not None:
            attrs["axes"] = axes
        inputs = [vi("a", dtype, shape)] + ([vi(axes_input, I64, (1,))] if axes_input == "g" else [])
        return model([mx(op, ins, ["y"], **attrs)], inputs=inputs, inits=inits, opsets=(("", opset),))

    axes = lambda *v: tensor("k", I64, [len(v)], list(v))
    case("rule-reducemax-axis-3", reduce(axes=[3]), 2, "ReduceMax-13.*axis 3 \\(axes\\[0\\]\\) is out of range")
    case("rule-reducemin-axis-int64-min", reduce("ReduceMin", axes=[-2**63]), 2, "axis -9223372036854775808")
    case("rule-reducemax1-negative-axis", reduce(opset=1, axes=[-1]), 2, "axis -1 \\(axes\\[0\\]\\) is out of range \\[0, 1\\]")
    case("rule-reducemax-repeated-axis", reduce(axes=[1, -1]), 2, "axis 1 is given twice")
    case("rule-reducemin18-repeated-axis-input", reduce("ReduceMin", 18, axes_input="k", inits=[axes(0, 0)]), 2,
         "axis 0 is given twice")
    case("rule-reducemax18-axis-input-out-of-range", reduce(opset=18, axes_input="k", inits=[axes(7)]), 2,
         "axis 7 \\(axes\\[0\\]\\) is out of range \\[-2, 1\\]")
    computed = model([mx("ArgMax", ["s"], ["k"]), mx("ReduceMax", ["a", "k"], ["y"])],
                     inputs=[vi("a"), vi("s", F, (1,))], opsets=(("", 18),))
    case("rule-reducemax18-axes-computed", computed, 2, "input 1 \\(axes\\) is computed at run time")
    case("rule-reducemin18-axes-int32", reduce("ReduceMin", 18, axes_input="k", inits=[tensor("k", I32, [1], [0])]),
         2, "dtype int32")
    case("rule-reducemax18-axes-rank-2", reduce(opset=18, axes_input="k", inits=[tensor("k", I64, [1, 1], [0])]), 2,
         "axes input has rank 2; its shape must be 1-D")
    case("rule-reducemax18-axes-attribute", reduce(opset=18, axes=[0]), 2, "'axes' is not allowed")
    case("rule-reducemax13-noop", reduce(noop_with_empty_axes=1), 2, "'noop_with_empty_axes' is not allowed")
    case("rule-reducemin-keepdims-2", reduce("ReduceMin", keepdims=2), 2, "keepdims is 2; it must be 0 or 1")
    case("rule-reducemax18-noop-5", reduce(opset=18, noop_with_empty_axes=5), 2, "noop_with_empty_axes is 5")
    case("rule-reducemax18-bool", reduce(opset=18, dtype=BOOL), 2, "dtype bool, which this version does not allow")
    case("rule-reducemin-int16", reduce("ReduceMin", dtype=I16), 2, "dtype int16")
    case("rule-reducemax-axes-float", reduce(axes=1.0), 2, "'axes' has the wrong type")
    case("rule-reducemax-rank-0-axis", reduce(shape=(), axes=[0]), 2, "out of range .* rank 0")
    # an empty set per output element, with 2^59 of them: refused as too large, never a long loop
    case("size-reducemax-empty-sets-2-to-59", reduce(shape=(2**59, 0), axes=[1]), 2, "out of memory|too large")
    # no elements in, none out, 2^40 rows of them: runs at once
    empty = (2**40, 3, 0)
    case("size-control-reducemin-empty-2-to-40-rows", reduce("ReduceMin", shape=empty, axes=[1]), 0,
         "^y: float \\[1099511627776,1,0\\]", args="run model.onnx -i a=a.pb",
         files={"a.pb": pb(raw_tensor("a", F, empty, b""))})


def clip_rule_cases():
    mx = helper.make_node
    I32, D = TensorProto.INT32, TensorProto.DOUBLE

    def clip(opset=13, ins=("a",), inputs=None, inits=(), **attrs):
        return model([mx("Clip", list(ins), ["y"], **attrs)], inputs=inputs or [vi("a")], inits=inits,
                     opsets=(("", opset),))

    case("rule-clip-min-shape-1", clip(ins=("a", "lo"), inits=[tensor("lo", F, [1], [0.0])]), 2,
         "Clip-13.*input 'min' must be a scalar \\(rank 0, one value\\); its shape is \\[1\\]")
    case("rule-clip11-max-shape-2x3", clip(11, ("a", "", "b"), inputs=[vi("a"), vi("b")]), 2,
         "Clip-11.*input 'max' must be a scalar.*shape is \\[2,3\\]")
    # a bound whose shape comes with the tensor fed: refused when it is bound
    case("rule-clip-bound-fed-shape-2", clip(ins=("a", "lo"), inputs=[vi("a"), vi("lo", F, None)]), 3,
         "input 'min' must be a scalar.*shape is \\[2\\]", args="run model.onnx -i a=a.pb -i lo=lo.pb",
         files={"a.pb": a_pb(), "lo.pb": pb(tensor("lo", F, [2], [0.0, 1.0]))})
    case("rule-clip11-int32", clip(11, inputs=[vi("a", I32)]), 2, "dtype int32, which this version does not allow")
    case("rule-clip-min-double-for-float", clip(ins=("a", "lo"), inits=[tensor("lo", D, [], [0.0])]), 2,
         "mix dtypes")
    case("rule-clip6-min-as-input", clip(6, ("a", "a")), 2, "2 inputs; it takes exactly 1")
    case("rule-clip6-min-ints", clip(6, min=[1, 2]), 2, "'min' has the wrong type")
    case("rule-clip13-min-attribute", clip(13, min=0.0), 2, "'min' is not allowed")
    # 2^59 floats: refused as too large, never a long loop; no elements at all: runs at once
    case("size-clip-2-to-59", clip(inputs=[vi("a", F, (2**59,))]), 2, "out of memory|too large")
    empty = (2**40, 0)
    case("size-control-clip-empty-2-to-40-rows", clip(ins=("a", "", "hi"), inputs=[vi("a", F, empty)],
                                                      inits=[tensor("hi", F, [], [1.0])]), 0,
         "^y: float \\[1099511627776,0\\]", args="run model.onnx -i a=a.pb",
         files={"a.pb": pb(raw_tensor("a", F, empty, b""))})


# ---- hostile sizes ----

def size_cases():
    big = [vi("a", F, (2**63 - 1,)), vi("b", F, (2**63 - 1,))]
    case("size-input-int64-max", max_model(inputs=big), 2, "too large")
    case("size-input-product-overflows", max_model(inputs=[vi("a", F, (2**32, 2**32)), vi("b", F, (2**32, 2**32))]),
         2, "too large")
    case("size-input-2-to-64-bytes", max_model(inputs=[vi("a", F, (2**31, 2**31)), vi("b", F, (2**31, 2**31))]),
         2, "too large")
    case("size-broadcast-overflows", max_model(inputs=[vi("a", F, (2**32, 1)), vi("b", F, (1, 2**32))]), 2,
         "too large")
    case("size-input-rank-9", max_model(inputs=[vi("a", F, (1,) * 9), vi("b", F, (1,) * 9)]), 2,
         "rank 9, above minnx's maximum 8")
    case("size-input-negative-dim", max_model(inputs=[vi("a", F, (2, -3)), vi("b")]), 2, "negative dim -3")
    case("size-info-int64-max", max_model(inputs=big), 2, "too large", args="info model.onnx")
    # 2^61 bytes: more than any address space, so the allocation fails on every machine
    huge = [vi("a", F, (2**59,)), vi("b", F, (2**59,))]
    case("size-arena-2-to-61-bytes", max_model(inputs=huge), 2, "out of memory for an arena of 2305843009213693952 bytes")
    t = TensorProto(name="w", data_type=F, dims=[2**59], data_location=TensorProto.EXTERNAL)
    e = t.external_data.add()
    e.key, e.value = "location", "w.bin"
    m = model([helper.make_node("Max", ["a", "w"], ["y"])], inputs=[vi("a", F, (2**59,))], inits=[t])
    case("size-external-initializer-2-to-61-bytes", m, 2, "out of memory for tensor 'w'", files={"w.bin": W_BYTES})
    # more nodes than a fixed array of 200 holds: a chain of 300 Max loads and runs
    nodes = [helper.make_node("Max", ["a" if i == 0 else f"m{i - 1}", "b"], [f"m{i}" if i < 299 else "y"])
             for i in range(300)]
    case("size-control-300-node-chain", model(nodes), 0, "^ \\[3, 4, 5\\]\\]$",
         args="run model.onnx -i a=a.pb -i b=b.pb --print",
         files={"a.pb": a_pb(), "b.pb": pb(helper.make_tensor("b", F, [2, 3], [0, 1, 2, 3, 4, 5]))})
    # no elements, but 2^40 rows of them: runs at once (a kernel once looped over the empty rows)
    empty = (2**40, 3, 0)
    m = model([helper.make_node("ArgMax", ["a"], ["y"], axis=1)], inputs=[vi("a", F, empty)])
    case("size-control-empty-tensor-2-to-40-rows", m, 0, "^y: int64 \\[1099511627776,1,0\\]",
         args="run model.onnx -i a=a.pb", files={"a.pb": pb(raw_tensor("a", F, empty, b""))})
    # a dim_param bound at run time to sizes that disagree: a run error
    sym = [vi("a", F, ("N",)), vi("b", F, ("N",))]
    files = {"a.pb": pb(helper.make_tensor("a", F, [2], [1, 2])), "b.pb": pb(helper.make_tensor("b", F, [3], [1, 2, 3]))}
    case("size-dim-param-disagrees-at-run", max_model(inputs=sym), 3, "dim 0 is 3 but the same symbolic dim is 2",
         args="run model.onnx -i a=a.pb -i b=b.pb", files=files)


# ---- external data: confined to the model's folder ----

def ext_model(entries, raw=None):
    t = TensorProto(name="w", data_type=F, dims=[2, 3], data_location=TensorProto.EXTERNAL)
    for k, v in entries:
        e = t.external_data.add()
        e.key, e.value = k, v
    if raw is not None:
        t.raw_data = raw
    return model([helper.make_node("Max", ["a", "w"], ["y"])], inputs=[vi("a")], inits=[t])


def external_cases():
    ok_args = "run model.onnx -i a=a.pb --print"
    inputs = {"a.pb": a_pb()}
    case("ext-control-inside-folder", ext_model([("location", "w.bin")]), 0,
         "^ \\[1, 7, 1\\]\\]$", args=ok_args, files={**inputs, "w.bin": W_BYTES})
    case("ext-control-subfolder-offset", ext_model([("location", "sub/w.bin"), ("offset", "8"), ("length", "24")]),
         0, "^ \\[1, 7, 1\\]\\]$", args=ok_args,
         files={**inputs, "sub/w.bin": b"\0" * 8 + W_BYTES})

    def escape(name, location, regex, files=None, links=None, status=2):
        case(name, ext_model([("location", location)]), status, regex, args=ok_args, files={**inputs, **(files or {})},
             links=links)

    escape("ext-dotdot-to-decoy", DECOY, "location '\\.\\./\\.\\./decoy/secret.bin' goes up out of the model's folder")
    escape("ext-dotdot-in-the-middle", "sub/../../../decoy/secret.bin", "goes up out of the model's folder",
           files={"sub/x": b""})
    escape("ext-absolute-path-to-decoy", "/proc/self/cwd/" + DECOY, "is an absolute path")
    escape("ext-absolute-etc-passwd", "/etc/passwd", "is an absolute path")
    escape("ext-symlink-to-decoy", "link.bin", "'link.bin' is a symbolic link", links={"link.bin": DECOY})
    escape("ext-symlinked-folder", "up/secret.bin", "'up' is a symbolic link", links={"up": "../../decoy"})
    escape("ext-symlink-inside-folder", "inside.bin", "'inside.bin' is a symbolic link",
           files={"w.bin": W_BYTES}, links={"inside.bin": "w.bin"})
    escape("ext-location-empty", "", "location '' is empty")
    escape("ext-location-missing-file", "missing.bin", "cannot open 'missing.bin'")
    escape("ext-location-is-folder", "sub", "'sub' is not a regular file", files={"sub/x": b""})
    escape("ext-location-trailing-slash", "w.bin/", "w.bin", files={"w.bin": W_BYTES})
    escape("ext-file-too-short", "w.bin", "has 20 bytes; the tensor needs 24", files={"w.bin": W_BYTES[:20]})

    def entries(name, ents, regex, raw=None):
        case(name, ext_model(ents, raw), 2, regex, args=ok_args, files={**inputs, "w.bin": W_BYTES})

    entries("ext-offset-past-end", [("location", "w.bin"), ("offset", "100")], "has 24 bytes; the tensor needs 24 at offset 100")
    entries("ext-offset-plus-length-past-end", [("location", "w.bin"), ("offset", "1")], "needs 24 at offset 1")
    entries("ext-length-not-the-tensor-size", [("location", "w.bin"), ("length", "20")],
            "length is 20 bytes, its shape needs 24")
    entries("ext-offset-overflows", [("location", "w.bin"), ("offset", str(2**64 - 1))], "overflows")
    entries("ext-offset-2-to-64", [("location", "w.bin"), ("offset", str(2**64))], "bad value")
    entries("ext-offset-not-a-number", [("location", "w.bin"), ("offset", "12abc")], "'offset' has a bad value '12abc'")
    entries("ext-offset-negative", [("location", "w.bin"), ("offset", "-4")], "bad value '-4'")
    entries("ext-length-empty", [("location", "w.bin"), ("length", "")], "'length' has a bad value")
    entries("ext-no-location", [("offset", "0")], "gives no location")
    entries("ext-location-twice", [("location", "w.bin"), ("location", DECOY)], "'location' has a bad value")
    entries("ext-unknown-key-basepath", [("location", "secret.bin"), ("basepath", "../../decoy")],
            "unknown key 'basepath'")
    entries("ext-with-raw-data", [("location", "w.bin")], "both external data and raw_data", raw=W_BYTES)
    t = TensorProto(name="a", data_type=F, dims=[2, 3], data_location=TensorProto.EXTERNAL)
    e = t.external_data.add()
    e.key, e.value = "location", DECOY
    case("ext-in-an-input-pb", max_model(), 2, "tensor 'a' uses external data, which minnx reads only for a model's initializers",
         args="run model.onnx -i a=a.pb -i b=b.pb", files={"a.pb": pb(t), "b.pb": a_pb()})


# ---- input files that do not fit the model ----

def input_cases():
    files = {"a.pb": a_pb(), "b.pb": a_pb()}
    args = "run model.onnx -i a=a.pb -i b=x.pb"

    def bad_b(name, data, regex, status=2, a=args):
        case(name, max_model(), status, regex, args=a, files={**files, "x.pb": data})

    bad_b("input-dtype-int8-for-float", a_pb(TensorProto.INT8), "'b' is declared float but the tensor given is int8")
    bad_b("input-dtype-double-for-float", a_pb(TensorProto.DOUBLE), "declared float but the tensor given is double")
    bad_b("input-shape-3x2-for-2x3", a_pb(F, (3, 2)), "declared with shape \\[2,3\\] but the tensor given has shape \\[3,2\\]")
    bad_b("input-rank-1-for-rank-2", a_pb(F, (6,)), "shape \\[6\\]")
    bad_b("input-scalar-for-2x3", a_pb(F, ()), "shape \\[\\]")
    full = a_pb()
    bad_b("input-pb-truncated", full[:len(full) // 2], "not a valid TensorProto")
    bad_b("input-pb-garbage", b"\xff" * 12, "not a valid TensorProto")
    bad_b("input-pb-empty", b"", "has no data_type")
    bad_b("input-pb-rank-9", pb(raw_tensor("b", F, [1] * 9, b"\0" * 4)), "rank 9")
    bad_b("input-pb-dims-overflow", pb(raw_tensor("b", F, [2**62, 2**62], b"")), "element count overflows")
    bad_b("input-pb-negative-dim", pb(raw_tensor("b", F, [-2, 3], b"")), "negative dim")
    bad_b("input-pb-raw-data-short", pb(raw_tensor("b", F, [2, 3], W_BYTES[:20])), "raw_data has 20 bytes")
    bad_b("input-pb-no-data-type", pb(TensorProto(name="b", dims=[2, 3], float_data=W_VALUES)), "no data_type")
    bad_b("input-pb-string", pb(TensorProto(name="b", data_type=TensorProto.STRING, dims=[1], string_data=[b"s"])),
          "dtype string")
    def npy(descr="<f4", order="False", shape="(2, 3)", magic=b"\x93NUMPY"):
        h = f"{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}".encode()
        return magic + b"\x01\x00" + struct.pack("<H", len(h)) + h

    for name, data, regex in (
            ("input-npy-bad-magic", npy(magic=b"\x93NUMPX") + W_BYTES, "bad magic"),
            ("input-npy-truncated-header", npy()[:20], "truncated .npy header"),
            ("input-npy-short-data", npy() + W_BYTES[:20], "data size does not match its shape"),
            ("input-npy-huge-shape", npy(shape="(99999999999999999999,)"), "shape is too large"),
            ("input-npy-product-overflows", npy(shape="(4294967296, 4294967296)"), "shape is too large"),
            ("input-npy-rank-9", npy(shape="(1,1,1,1,1,1,1,1,1)") + W_BYTES[:4], "too high a rank"),
            ("input-npy-big-endian", npy(descr=">f4") + W_BYTES, "not a little-endian numeric type"),
            ("input-npy-fortran-order", npy(order="True") + W_BYTES, "Fortran order"),
            ("input-npy-int8-for-float", npy(descr="|i1") + W_BYTES[:6], "declared float but the tensor given is int8")):
        case(name, max_model(), 2, regex, args="run model.onnx -i a=a.pb -i b=x.npy", files={**files, "x.npy": data})
    case("input-unknown-name", max_model(), 2, "no input named 'c'", args="run model.onnx -i a=a.pb -i c=b.pb",
         files=files)
    case("input-not-bound", max_model(), 2, "input 'b' is not bound", args="run model.onnx -i a=a.pb", files=files)
    case("input-missing-file", max_model(), 2, "cannot read 'nothing.pb'", args="run model.onnx -i a=a.pb -i b=nothing.pb",
         files=files)
    case("input-without-name", max_model(), 2, "NAME=FILE", args="run model.onnx -i a.pb", files=files)


def cast_cases():
    """Cast's `to`: missing, naming no type, of the wrong attribute type, a type minnx does not hold."""
    mx = helper.make_node
    one = [vi("a")]

    def cast(name, opset, regex, **attrs):
        case(name, model([mx("Cast", ["a"], ["y"], **attrs)], inputs=one, opsets=(("", opset),)), 2, regex)
    cast("cast-to-missing", 13, "\\(Cast-13\\): the required attribute 'to' is missing")
    cast("cast-to-zero", 13, "attribute 'to' is 0, not a TensorProto data type", to=0)
    cast("cast-to-int64-max", 13, "attribute 'to' is 9223372036854775807, not a TensorProto data type", to=2 ** 63 - 1)
    cast("cast-to-int64-min", 13, "attribute 'to' is -9223372036854775808, not a TensorProto data type", to=-2 ** 63)
    cast("cast-to-string", 13, "attribute 'to' is string \\(8\\), a dtype minnx does not support", to=8)
    cast("cast19-to-float8e5m2", 19, "attribute 'to' is float8e5m2 \\(19\\), a dtype minnx does not support", to=19)
    cast("cast1-to-lowercase-name", 1, "attribute 'to' is \"float\", not the name", to="float")
    cast("cast1-to-empty-name", 1, "attribute 'to' is \"\", not the name", to="")
    cast("cast13-to-as-float", 13, "attribute 'to' has the wrong type", to=1.0)
    cast("cast13-to-as-ints", 13, "attribute 'to' has the wrong type", to=[1, 10])


def write(out):
    shutil.rmtree(os.path.join(out, "cases"), ignore_errors=True)
    os.makedirs(os.path.join(out, "decoy"), exist_ok=True)
    with open(os.path.join(out, "decoy", "secret.bin"), "wb") as f:
        f.write(W_BYTES)
    for name, (data, status, regex, args, files, links) in sorted(cases.items()):
        d = os.path.join(out, "cases", name)
        os.makedirs(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(data)
        with open(os.path.join(d, "expect"), "w") as f:
            f.write(f"{status}\n{regex}\n{args}\n")
        for rel, content in sorted(files.items()):
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), "wb") as f:
                f.write(content)
        for rel, target in sorted(links.items()):
            os.symlink(target, os.path.join(d, rel))


def contract_cases():
    """The op contract: tensor attributes (Constant's value, hostile sparse indices), constant
    folding, views of views and views as graph outputs, shapes given by data."""
    mx = helper.make_node
    I64 = TensorProto.INT64

    def const(name, regex, status=2, **attrs):
        case(name, model([mx("Constant", [], ["y"], **attrs)], inputs=[]), status, regex)

    const("contract-constant-value-raw-short", "attribute 'value': tensor 'value': raw_data has 8 bytes, its shape needs 12",
          value=raw_tensor("t", F, [3], b"\0" * 8))
    const("contract-constant-value-string", "attribute 'value': tensor 'value' has dtype string",
          value=helper.make_tensor("t", TensorProto.STRING, [1], [b"x"]))
    const("contract-constant-value-strings-attr", "holds strings", value_strings=[b"a"])
    const("contract-constant-value-rank-9", "rank 9, above minnx's maximum 8", value=raw_tensor("t", F, [1] * 9, b"\0" * 4))
    const("contract-constant-value-count-overflows", "element count overflows",
          value=raw_tensor("t", F, [2**62, 2**62], b""))
    const("contract-constant-value-2-to-40-floats", "raw_data has 0 bytes", value=raw_tensor("t", F, [2**40], b""))
    n = mx("Constant", [], ["y"])
    a = n.attribute.add()
    a.name, a.type = "value", AttributeProto.TENSOR
    case("contract-constant-tensor-type-without-tensor", model([n], inputs=[]), 2, "holds no tensor")
    const("contract-constant-two-values", "exactly one", value_int=1, value_float=2.0)

    def sparse(name, regex, values, indices, dims):
        const(name, regex, sparse_value=helper.make_sparse_tensor(values, indices, dims))

    v1 = helper.make_tensor("v", F, [1], [1.0])
    v2 = helper.make_tensor("v", F, [2], [1.0, 2.0])
    sparse("contract-sparse-index-past-end", "index 6 of value 0 is out of range \\[0, 6\\)", v1,
           helper.make_tensor("i", I64, [1], [6]), [2, 3])
    sparse("contract-sparse-index-negative", "index -1 of value 0 is out of range", v1,
           helper.make_tensor("i", I64, [1], [-1]), [2, 3])
    sparse("contract-sparse-index-int64-max", "out of range", v1, helper.make_tensor("i", I64, [1], [2**63 - 1]), [2, 3])
    sparse("contract-sparse-coord-past-dim", "index 3 of value 0 is out of range \\[0, 3\\)", v1,
           helper.make_tensor("i", I64, [1, 2], [1, 3]), [2, 3])
    sparse("contract-sparse-repeated", "ascend without repeats", v2, helper.make_tensor("i", I64, [2], [4, 4]), [2, 3])
    sparse("contract-sparse-descending", "ascend without repeats", v2, helper.make_tensor("i", I64, [2], [4, 1]), [2, 3])
    sparse("contract-sparse-more-values-than-indices", "values must be \\[NNZ\\]", v2,
           helper.make_tensor("i", I64, [1], [0]), [2, 3])
    sparse("contract-sparse-coords-wrong-width", "values must be", v1, helper.make_tensor("i", I64, [1, 3], [0, 0, 0]), [2, 3])
    sparse("contract-sparse-int32-indices", "values must be", v1, helper.make_tensor("i", TensorProto.INT32, [1], [0]), [2, 3])
    sparse("contract-sparse-dense-overflows", "element count overflows", v1, helper.make_tensor("i", I64, [1], [0]),
           [2**62, 2**62])
    sparse("contract-sparse-negative-dim", "negative dim", v1, helper.make_tensor("i", I64, [1], [0]), [-2, 3])
    sparse("contract-sparse-values-truncated", "raw_data has 3 bytes", raw_tensor("v", F, [1], b"\0\0\0"),
           helper.make_tensor("i", I64, [1], [0]), [2, 3])
    sp = helper.make_sparse_tensor(v1, helper.make_tensor("i", I64, [1], [0]), [2])
    sp.ClearField("indices")
    const("contract-sparse-without-indices", "lacks its values or indices", sparse_value=sp)
    # a shape computed by a node: refused at load naming the node
    shape = helper.make_tensor("s", I64, [2], [3, 2])
    case("contract-reshape-shape-computed", model([mx("Max", ["s", "s"], ["t"]), mx("Reshape", ["a", "t"], ["y"])],
                                                  inputs=[vi("a")], inits=[shape]),
         2, "node 'y' \\(Reshape-13\\): input 1 \\(shape\\) is computed at run time")
    # a shape given as a graph input: known when bound; a bad one is a run error
    ins = [vi("a"), vi("s", I64, (2,))]
    files = {"a.pb": a_pb(), "s.pb": pb(helper.make_tensor("s", I64, [2], [4, 2]))}
    case("contract-reshape-shape-input-bad-count", model([mx("Reshape", ["a", "s"], ["y"])], inputs=ins), 3,
         "the input has 6 elements but the shape 8", args="run model.onnx -i a=a.pb -i s=s.pb", files=files)
    files = {"a.pb": a_pb(), "s.pb": pb(helper.make_tensor("s", I64, [2], [-1, 3]))}
    case("contract-control-reshape-shape-input", model([mx("Reshape", ["a", "s"], ["y"])], inputs=ins), 0,
         "^y: float \\[2,3\\] =$", args="run model.onnx -i a=a.pb -i s=s.pb --print", files=files)
    # views: of views, as graph outputs, of inputs and of folded constants
    ax = helper.make_tensor("ax", I64, [1], [0])
    nodes = [mx("Identity", ["a"], ["i"]), mx("Unsqueeze", ["i", "ax"], ["u"]), mx("Squeeze", ["u", "ax"], ["q"]),
             mx("Flatten", ["q"], ["y"], axis=0)]
    case("contract-control-view-of-views-is-output", model(nodes, inputs=[vi("a")], outputs=[vi("y", F, (1, 6))],
                                                            inits=[ax]), 0,
         "^\\[\\[0, 1, 2, 3, 4, 5\\]\\]$", args="run model.onnx -i a=b.pb --print",
         files={"b.pb": pb(helper.make_tensor("a", F, [2, 3], [0, 1, 2, 3, 4, 5]))})
    nodes = [mx("Constant", [], ["c"], value=helper.make_tensor("v", F, [6], [9, 8, 7, 6, 5, 4])),
             mx("Reshape", ["c", "s"], ["y"])]
    case("contract-control-view-of-constant-is-output", model(nodes, inputs=[], inits=[shape]), 0,
         "^ \\[5, 4\\]\\]$", args="run model.onnx --print")
    nodes = [mx("Reshape", ["a", "s"], ["r"]), mx("Reshape", ["r", "s2"], ["y"])]
    case("contract-view-of-view-shape-mismatch", model(nodes, inputs=[vi("a")],
                                                      inits=[shape, helper.make_tensor("s2", I64, [1], [5])]),
         2, "the input has 6 elements but the shape 5")
    case("contract-view-declared-output-shape", model([mx("Identity", ["a"], ["y"])], inputs=[vi("a")],
                                                      outputs=[vi("y", F, (3, 2))]),
         2, "'y' is declared with shape \\[3,2\\] but the node gives \\[2,3\\]")
    # a folded output checked against its declared shape before its bytes are made: 4 TiB otherwise
    one = helper.make_tensor("c", F, [1], [1.0])
    huge = helper.make_tensor("r", I64, [1], [1 << 40])
    for op in ("Tile", "Expand"):
        case(f"contract-fold-{op.lower()}-declared-shape-first",
             model([mx(op, ["c", "r"], ["y"])], inputs=[], outputs=[vi("y", F, (4,))], inits=[one, huge]),
             2, "'y' is declared with shape \\[4\\] but the node gives \\[1099511627776\\]")
    case("contract-input-optional-type", max_model(inputs=[vi("a"), helper.make_value_info(
        "b", helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2, 3])))]), 2,
         "graph input 'b' has no tensor type but an optional")


def shape_op_cases():
    """Shape, Slice, Concat: hostile starts/ends/steps (INT64 extremes, step 0), lists bound at
    run, sizes that overflow."""
    mx = helper.make_node
    I64 = TensorProto.INT64
    ins = [vi("a"), vi("s", I64, (1,)), vi("e", I64, (1,)), vi("x", I64, (1,)), vi("t", I64, (1,))]
    slice_node = mx("Slice", ["a", "s", "e", "x", "t"], ["y"])

    def bound(name, status, regex, s, e, axis, t, printed=False):
        files = {"a.pb": pb(helper.make_tensor("a", F, [2, 3], [0, 1, 2, 3, 4, 5]))}
        for k, v in (("s", s), ("e", e), ("x", axis), ("t", t)):
            files[k + ".pb"] = pb(helper.make_tensor(k, I64, [1], [v]))
        args = "run model.onnx -i a=a.pb -i s=s.pb -i e=e.pb -i x=x.pb -i t=t.pb" + (" --print" if printed else "")
        case(name, model([slice_node], inputs=ins), status, regex, args=args, files=files)

    bound("shape-slice-step-zero-bound", 3, "node 'y' \\(Slice-13\\): steps\\[0\\] is 0", 0, 2, 1, 0)
    bound("shape-slice-axis-bound-out-of-range", 3, "axis 5 is out of range", 0, 2, 5, 1)
    bound("shape-control-slice-int64-extremes", 0, "^ \\[5, 4, 3\\]\\]$",
          2**63 - 1, -2**63, 1, -1, printed=True)
    bound("shape-control-slice-step-int64-min", 0, "^ \\[5\\]\\]$", -1, -2**63, 1, -2**63,
          printed=True)
    bound("shape-control-slice-start-int64-min", 0, "^y: float \\[2,0\\] =$", -2**63, -2**63, 1, 1, printed=True)
    nine = helper.make_tensor("s", I64, [9], [0] * 9)
    case("shape-slice-nine-starts", model([mx("Slice", ["a", "s", "s"], ["y"])], inputs=[vi("a")], inits=[nine]), 2,
         "'starts' has 9 entries, more than minnx's maximum rank 8")
    big = [vi("a", F, (2**62,)), vi("b", F, (2**62,))]
    case("shape-concat-dim-overflows", model([mx("Concat", ["a", "b", "a"], ["y"], axis=0)], inputs=big), 2,
         "node 'y' \\(Concat-13\\): the output's dim 0 overflows int64")
    case("shape-concat-no-axis", model([mx("Concat", ["a", "b"], ["y"])]), 2, "attribute axis is required")
    case("shape-shape-start-not-int", model([mx("Shape", ["a"], ["y"], start=1.5)], inputs=[vi("a")],
                                            opsets=(("", 15),)), 2, "attribute 'start' has the wrong type")
    case("shape-control-shape-folds", model([mx("Shape", ["a"], ["y"], start=-1)], inputs=[vi("a", F, (2**40, 3))],
                                            opsets=(("", 15),)), 0, "y: int64 \\[1\\]", args="info model.onnx")


def product_cases():
    """MatMul and Gemm: operands that do not multiply, C that does not broadcast by the version's
    rule, wrong ranks, integer scales that are not whole; hostile sizes refused, never a long loop."""
    mx = helper.make_node
    I32 = TensorProto.INT32

    def matmul(a, b, opset=13, dtype=F):
        return model([mx("MatMul", ["a", "b"], ["y"])], inputs=[vi("a", dtype, a), vi("b", dtype, b)],
                     opsets=(("", opset),))

    def gemm(a, b, c=None, opset=13, dtype=F, **attrs):
        ins = [vi("a", dtype, a), vi("b", dtype, b)] + ([vi("c", dtype, c)] if c is not None else [])
        return model([mx("Gemm", ["a", "b", "c"][:len(ins)], ["y"], **attrs)], inputs=ins, opsets=(("", opset),))

    case("product-matmul-k-mismatch", matmul((2, 3), (4, 5)), 2,
         "node 'y' \\(MatMul-13\\): the shapes \\[2,3\\] and \\[4,5\\] do not multiply: A's last dim 3 is not B's "
         "second to last dim 4")
    case("product-matmul-vector-k-mismatch", matmul((3,), (4,)), 2, "MatMul-13.*A's last dim 3 is not B's dim 4")
    case("product-matmul-scalar", matmul((), (3, 4)), 2, "MatMul-13.*inputs of rank >= 1; the shapes are \\[\\] and")
    case("product-matmul-batch", matmul((2, 3, 4), (3, 4, 5)), 2,
         "MatMul-13.*the batch dims of the shapes \\[2,3,4\\] and \\[3,4,5\\] do not broadcast")
    case("product-matmul1-int32", matmul((2, 3), (3, 4), opset=1, dtype=I32), 2,
         "dtype int32, which this version does not allow")
    case("product-gemm-k-mismatch", gemm((2, 3), (4, 5), (2, 5), transB=1), 2,
         "node 'y' \\(Gemm-13\\): the shapes \\[2,3\\] and \\[4,5\\] \\(transA 0, transB 1\\) do not multiply: "
         "K is 3 and 5")
    case("product-gemm-rank-3", gemm((2, 3, 4), (4, 5)), 2, "Gemm-13.*A and B must be 2-D; their shapes are \\[2,3,4\\]")
    case("product-gemm-vector", gemm((3,), (3, 5)), 2, "Gemm-13.*A and B must be 2-D")
    case("product-gemm-c-rows", gemm((2, 3), (3, 5), (3, 5)), 2,
         "Gemm-13.*C's shape \\[3,5\\] does not broadcast to the product's \\[2,5\\]")
    case("product-gemm-c-rank-3", gemm((2, 3), (3, 5), (1, 2, 5)), 2, "Gemm-13.*C's shape \\[1,2,5\\] does not broadcast")
    case("product-gemm6-c-vector-no-broadcast", gemm((2, 3), (3, 5), (5,), opset=6), 2,
         "Gemm-6.*C's shape \\[5\\] does not broadcast to the product's \\[2,5\\] \\(broadcast=0: C must be \\[M, N\\]\\)")
    case("product-gemm6-c-column", gemm((2, 3), (3, 5), (2, 1), opset=6, broadcast=1), 2,
         "Gemm-6.*C's shape \\[2,1\\] does not broadcast.*one element or a suffix")
    case("product-gemm9-no-c", gemm((2, 3), (3, 5), opset=9), 2, "2 inputs")
    case("product-gemm7-broadcast-attribute", gemm((2, 3), (3, 5), (5,), opset=7, broadcast=1), 2,
         "'broadcast' is not allowed")
    case("product-gemm-int-alpha-half", gemm((2, 3), (3, 5), (5,), dtype=I32, alpha=0.5), 2,
         "Gemm-13.*attribute alpha is 0.5; for int32 it must be a whole number")
    case("product-gemm7-int32", gemm((2, 3), (3, 5), (5,), opset=7, dtype=I32), 2,
         "dtype int32, which this version does not allow")
    case("size-matmul-2-to-40", matmul((2**20, 2**20), (2**20, 2**20)), 2, "out of memory|too large")


# ---- Loop bodies (ops/controlflow/loop.c) ----

def loop_cases():
    mx = helper.make_node
    B, I64 = TensorProto.BOOL, TensorProto.INT64
    ins = [vi("i", I64, ()), vi("c", B, ()), vi("v", F, (2, 3))]
    m3 = tensor("m", I64, [], [3])
    files = {"a.pb": a_pb()}
    args = "run model.onnx -i a=a.pb"

    def loop(name, body, regex, status=2, inputs=("m", "", "a"), outs=("y",), attr="body"):
        node = mx("Loop", list(inputs), list(outs), **({attr: body} if attr else {}))
        case(name, model([node], inputs=[vi("a")], inits=[m3, tensor("t", B, [], [1])]), status, regex, args=args,
             files=files)

    ok_nodes = [mx("Identity", ["c"], ["co"]), mx("Neg", ["v"], ["vo"])]
    outs = [vi("co", B, ()), vi("vo")]
    loop("loop-body-no-outputs", helper.make_graph(ok_nodes, "b", ins, []), "body gives 0 outputs")
    loop("loop-body-one-output-short", helper.make_graph(ok_nodes, "b", ins, outs[:1]), "body gives 1 outputs")
    loop("loop-body-no-inputs", helper.make_graph([mx("Identity", ["a"], ["vo"]), mx("Constant", [], ["co"],
                                                  value=tensor("t", B, [], [1]))], "b", [], outs),
         "body has 0 inputs")
    loop("loop-body-cond-int64", helper.make_graph([mx("Cast", ["c"], ["co"], to=I64), mx("Neg", ["v"], ["vo"])], "b", ins,
                                                   [vi("co", I64, ()), vi("vo")]), "cond\\) has dtype int64")
    loop("loop-body-cond-two-elements", helper.make_graph([mx("Concat", ["c2", "c2"], ["co"], axis=0), mx("Neg", ["v"], ["vo"]),
                                                          mx("Unsqueeze", ["c", "z"], ["c2"])], "b", ins,
                                                         [vi("co", B, (2,)), vi("vo")], initializer=[tensor("z", I64, [1], [0])]),
         "one element")
    loop("loop-body-carried-int64", helper.make_graph([mx("Identity", ["c"], ["co"]), mx("Cast", ["v"], ["vo"], to=I64)], "b",
                                                      ins, [vi("co", B, ()), vi("vo", I64)]), "dtype int64; it comes in as float")
    loop("loop-body-iteration-declared-float", helper.make_graph(ok_nodes, "b", [vi("i", F, ()), ins[1], ins[2]], outs),
         "declared with dtype float")
    loop("loop-body-output-undefined", helper.make_graph(ok_nodes, "b", ins, [outs[0], vi("ghost")]), "ghost")
    loop("loop-neither-m-nor-cond", helper.make_graph(ok_nodes, "b", ins, outs), "infinite loop", inputs=("", "", "a"))
    loop("loop-no-body", helper.make_graph(ok_nodes, "b", ins, outs), "'body' is required", attr=None)
    loop("loop-scan-without-m", helper.make_graph(ok_nodes + [mx("Identity", ["vo"], ["so"])], "b", ins, outs + [vi("so")]),
         "scan outputs but no M", inputs=("", "t", "a"), outs=("y", "s"))
    # a body that never sets cond false and no M: the run stops at minnx's maximum of iterations
    node = mx("Loop", ["", "t", "a"], ["y"], body=helper.make_graph(ok_nodes, "b", ins, outs))
    case("loop-run-endless", model([node], inputs=[vi("a")], inits=[tensor("t", B, [], [1])]), 3,
         "maximum of 1048576 iterations", args=args, files=files)


# ---- If whose cond is known before the run (ops/controlflow/if.c) ----

def if_cases():
    mx = helper.make_node
    B, I64 = TensorProto.BOOL, TensorProto.INT64
    c_true = pb(tensor("c", B, [], [1]))

    def known_if(name, then_nodes, then_out, regex, a_dims=(2, 3), a_shape=(2, 3), inits=()):
        then_g = helper.make_graph(then_nodes, "t", [], [ValueInfoProto(name=then_out)], initializer=list(inits))
        else_g = helper.make_graph([mx("Neg", ["a"], ["e"])], "e", [], [ValueInfoProto(name="e")])
        node = mx("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)
        case(name, model([node], inputs=[vi("c", B, ()), vi("a", F, a_shape)]), 3, regex,
             args="run model.onnx -i c=c.pb -i a=a.pb", files={"c.pb": c_true, "a.pb": a_pb(dims=a_dims)})

    # the cond (a graph input) picks then_branch, which cannot reshape [2, 3] to [4, -1]: only the taken
    # branch is planned, when the run binds c, and its failure fails that run naming both nodes
    known_if("if-known-taken-branch-fails", [mx("Reshape", ["a", "s"], ["t"])], "t", "then_branch.*Reshape",
             inits=[tensor("s", I64, [2], [4, -1])])
    # then_branch computes, when the inputs are bound, a value of 2,048 bytes (ConstantOfShape of the
    # bound [16, 32]): more than the 1,024 bytes an If keeps for them
    known_if("if-known-bind-bytes", [mx("Shape", ["a"], ["sh"]), mx("ConstantOfShape", ["sh"], ["k"]),
                                     mx("Add", ["a", "k"], ["t"])], "t", "1024 bytes",
             a_dims=(16, 32), a_shape=("n", "m"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
    out = p.parse_args().out
    wire_cases()
    structure_cases()
    initializer_cases()
    rule_cases()
    minmax_rule_cases()
    clip_rule_cases()
    size_cases()
    external_cases()
    input_cases()
    contract_cases()
    cast_cases()
    shape_op_cases()
    product_cases()
    loop_cases()
    if_cases()
    write(out)
    print(f"{len(cases)} cases in {out}")


if __name__ == "__main__":
    main()
