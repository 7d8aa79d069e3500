"""minnx's own cases for the layout ops (ops/tensor/): Transpose, Gather, Dropout, ...

Every version x every dtype it allows x each rule, with the expected outputs from numpy
(np.transpose, np.take, ...), never from minnx; and the models minnx must refuse.  generate.py
imports this module and lists its generators (all_cases)."""
import numpy as np
from onnx import helper

from generate import (ALL, BF16, BOOL, F16, F32, F64, I16, I32, I64, NO_BF16, U8, Case, Value, any_values,
                      from_num, i64, node, rand, seeded, tensor_proto)

TRANSPOSE_TYPES = {1: NO_BF16, 13: ALL, 21: ALL}  # 21 adds only dtypes minnx lacks
GATHER_TYPES = {1: NO_BF16, 11: NO_BF16, 13: ALL}
COS_TYPES = {9: NO_BF16, 20: ALL, 21: ALL}  # 20 adds bfloat16 (and float8s), 21 only dtypes minnx lacks
DROPOUT_TYPES = {1: [F16, F32, F64], 6: [F16, F32, F64], 7: [F16, F32, F64], 10: [F16, F32, F64],
                 12: [F16, F32, F64], 13: [F16, F32, F64, BF16]}


def one(name, op, opset, ins, outs, inits=(), **attrs):
    """A single node `op` over the graph inputs and initializers given."""
    names = [v.name for v in ins] + [v.name for v in inits]
    return Case(name, [node(op, names, [v.name for v in outs], **attrs)], {"": opset}, list(ins),
                list(outs), list(inits))


def refused(name, keyword, op, opset, ins, inits=(), stage="load", out_dt=F32, names=None, n_out=1, **attrs):
    nm = names if names is not None else [v.name for v in ins] + [v.name for v in inits]
    outs = [Value("y" if k == 0 else f"y{k}", out_dt, None, shape=None) for k in range(n_out)]
    return Case(name, [node(op, nm, [v.name for v in outs], **attrs)], {"": opset}, list(ins), outs,
                list(inits), error=(stage, keyword))


# ---------------------------------------------------------------------------------------------
# transpose_

def transpose_case(name, opset, dt, x, perm=None, const=False):
    want = np.transpose(x, perm)
    attrs = {} if perm is None else {"perm": list(perm)}
    xv = Value("x", dt, x)
    if const:  # an initializer: folded at load
        return Case(name, [node("Transpose", ["c"], ["y"], **attrs)], {"": opset}, [], [Value("y", dt, want)],
                    [Value("c", dt, x)])
    return one(name, "Transpose", opset, [xv], [Value("y", dt, want)], **attrs)


def gen_transpose():
    for ver, types in TRANSPOSE_TYPES.items():
        for dt in types:
            name = f"transpose_v{ver}_{dt.name}"
            yield transpose_case(name, ver, dt, any_values(dt, (2, 3, 4), seeded(name)), (1, 2, 0))
            yield transpose_case(name + "_default", ver, dt, any_values(dt, (3, 5), seeded(name + "d")))
    rng = seeded("transpose_rules")
    # the loop shapes: tiles (2-D, last two axes, NCHW <-> NHWC) with remainders, the walk,
    # one block (dims of 1 moved), the identity (a view), scalars, empty tensors, rank 6
    for label, shape, perm in (
            ("2d_tiles", (33, 70), (1, 0)), ("last_two", (3, 17, 40), (0, 2, 1)),
            ("nchw_nhwc", (2, 5, 7, 9), (0, 2, 3, 1)), ("nhwc_nchw", (2, 7, 9, 5), (0, 3, 1, 2)),
            ("walk_3d", (4, 5, 6), (2, 0, 1)), ("walk_inner_block", (3, 4, 5), (1, 0, 2)),
            ("walk_rank6", (2, 1, 3, 2, 2, 3), (5, 3, 1, 0, 4, 2)), ("ones_moved", (1, 6, 1, 4), (2, 0, 1, 3)),
            ("identity", (2, 3, 4), (0, 1, 2)), ("identity_rank1", (5,), (0,)), ("default_rank1", (5,), None),
            ("scalar", (), None), ("scalar_empty_perm", (), ()), ("empty", (0, 3, 2), (2, 0, 1)),
            ("empty_last", (3, 0), None), ("default_rank4", (2, 3, 4, 5), None)):
        for dt in (F32, U8, F64):
            x = rand(dt, shape, rng)
            yield transpose_case(f"transpose_{label}_{dt.name}", 13, dt, x, perm)
    for dt in (F16, BOOL, I64):
        x = any_values(dt, (3, 4, 5), rng)
        yield transpose_case(f"transpose_const_{dt.name}", 13, dt, x, (2, 0, 1), const=True)
    yield transpose_case("transpose_const_identity", 13, F32, rand(F32, (2, 3), rng), (0, 1), const=True)
    # the view feeding another node, and two Transposes that cancel
    x = rand(F32, (2, 3), rng)
    yield Case("transpose_identity_then_transpose",
               [node("Transpose", ["x"], ["t"], perm=[0, 1]), node("Transpose", ["t"], ["y"], perm=[1, 0])],
               {"": 13}, [Value("x", F32, x)], [Value("y", F32, x.T.copy())])


def err_transpose():
    x = rand(F32, (2, 3, 4), seeded("transpose_err"))
    X = [Value("x", F32, x)]
    yield refused("transpose_err_perm_short", "rank", "Transpose", 13, X, perm=[1, 0])
    yield refused("transpose_err_perm_long", "rank", "Transpose", 13, X, perm=[0, 1, 2, 3])
    yield refused("transpose_err_perm_out_of_range", "axis", "Transpose", 13, X, perm=[0, 1, 3])
    yield refused("transpose_err_perm_negative", "axis", "Transpose", 13, X, perm=[0, 1, -1])
    yield refused("transpose_err_perm_twice", "twice", "Transpose", 13, X, perm=[0, 1, 1])
    yield refused("transpose_err_perm_float", "attribute", "Transpose", 13, X, perm=[0.0, 1.0, 2.0])
    yield refused("transpose_err_unknown_attribute", "attribute", "Transpose", 13, X, axis=1)
    yield refused("transpose_err_v1_bfloat16", "dtype", "Transpose", 1, [Value("x", BF16, from_num(BF16, x))],
                  out_dt=BF16)
    yield refused("transpose_err_two_inputs", "inputs", "Transpose", 13, X + [Value("x1", F32, x)])


# ---------------------------------------------------------------------------------------------
# gather_

def gather_case(name, opset, dt, x, idx, axis=None, tind=I64, const=False):
    want = np.take(x, idx, axis=0 if axis is None else axis)
    attrs = {} if axis is None else {"axis": axis}
    iv = Value("i", tind, np.array(idx, tind.np))
    if const:
        return Case(name, [node("Gather", ["x", "i"], ["y"], **attrs)], {"": opset}, [], [Value("y", dt, want)],
                    [Value("x", dt, x), iv])
    return one(name, "Gather", opset, [Value("x", dt, x), iv], [Value("y", dt, want)], **attrs)


def gen_gather():
    for ver, types in GATHER_TYPES.items():
        for dt in types:
            name = f"gather_v{ver}_{dt.name}"
            x = any_values(dt, (3, 4), seeded(name))
            yield gather_case(name, ver, dt, x, [2, 0, 2])
            yield gather_case(name + "_axis1_int32", ver, dt, x, [[3, 1], [0, 0]], axis=1, tind=I32)
    rng = seeded("gather_rules")
    x = rand(F32, (2, 3, 4), rng)
    for axis in (0, 1, 2, -1, -2, -3):
        for label, idx in (("scalar", 1), ("vec", [1, 0, 1]), ("mat", [[0, 1], [1, 1]]), ("empty", np.zeros(0, np.int64))):
            yield gather_case(f"gather_axis_{'m' if axis < 0 else ''}{abs(axis)}_{label}", 13, F32, x, idx, axis)
    for ver in (11, 13):
        yield gather_case(f"gather_v{ver}_negative", ver, F32, x, [-1, -2, 0, -3], axis=1)
        yield gather_case(f"gather_v{ver}_negative_int32", ver, F32, x, [-4, 3], axis=2, tind=I32)
    yield gather_case("gather_empty_data", 13, F32, np.zeros((0, 3), np.float32), np.zeros(0, np.int64))
    yield gather_case("gather_rank1_data_scalar_index", 13, F64, rand(F64, (5,), rng), 4)
    yield gather_case("gather_long_rows", 13, U8, rand(U8, (5, 300), rng), [4, 0, 4, 2], axis=0)
    yield gather_case("gather_last_axis_int16", 13, I16, rand(I16, (3, 7), rng), [6, 0, -7], axis=-1)
    for dt in (F32, I64, BOOL):
        yield gather_case(f"gather_const_{dt.name}", 13, dt, any_values(dt, (4, 3), rng), [3, -1, 0], axis=0, const=True)
    # the embedding lookup exporters write: indices a graph input, the table an initializer
    table = rand(F32, (10, 4), rng)
    yield Case("gather_embedding", [node("Gather", ["w", "i"], ["y"])], {"": 13}, [Value("i", I64, i64([[1, 9], [0, 1]]))],
               [Value("y", F32, np.take(table, [[1, 9], [0, 1]], axis=0))], [Value("w", F32, table)])


def err_gather():
    x = rand(F32, (3, 4), seeded("gather_err"))
    X = Value("x", F32, x)
    I = lambda *v: Value("i", I64, i64(list(v)))
    yield refused("gather_err_axis_out_of_range", "axis", "Gather", 13, [X, I(0)], axis=2)
    yield refused("gather_err_axis_below_range", "axis", "Gather", 13, [X, I(0)], axis=-3)
    yield refused("gather_err_scalar_data", "rank", "Gather", 13, [Value("x", F32, np.float32(1)), I(0)])
    yield refused("gather_err_float_indices", "dtype", "Gather", 13, [X, Value("i", F32, np.zeros(2, np.float32))])
    yield refused("gather_err_int16_indices", "dtype", "Gather", 13, [X, Value("i", I16, np.zeros(2, np.int16))])
    yield refused("gather_err_v11_bfloat16", "dtype", "Gather", 11, [Value("x", BF16, from_num(BF16, x)), I(0)],
                  out_dt=BF16)
    yield refused("gather_err_one_input", "inputs", "Gather", 13, [X])
    # indices out of range: in a graph input, the run fails naming the node and reads nothing outside
    yield refused("gather_err_run_index_high", "index", "Gather", 13, [X, I(0, 3)], stage="run")
    yield refused("gather_err_run_index_low", "index", "Gather", 13, [X, I(-4)], stage="run")
    yield refused("gather_err_run_int32_high", "index", "Gather", 13, [X, Value("i", I32, np.array([4], np.int32))],
                  stage="run", axis=1)
    yield refused("gather_err_run_v1_negative", "index", "Gather", 1, [X, I(-1)], stage="run")
    yield refused("gather_err_run_empty_axis", "index", "Gather", 13,
                  [Value("x", F32, np.zeros((0, 2), np.float32)), I(0)], stage="run")
    yield refused("gather_err_run_int64_min", "index", "Gather", 13, [X, I(-2 ** 63)], stage="run")
    # in an initializer: refused at load
    yield refused("gather_err_const_index_high", "index", "Gather", 13, [], inits=[X, I(3)])
    yield refused("gather_err_const_index_v1_negative", "index", "Gather", 1, [], inits=[X, I(-1)])
    # the table constant, the indices data: the run checks them
    yield refused("gather_err_run_table_const", "index", "Gather", 13, [I(10)], inits=[X], names=["x", "i"], stage="run")


# ---------------------------------------------------------------------------------------------
# dropout_: inference: the output is the input, the mask all kept (true; ones of T before 10)

def dropout_case(name, opset, dt, x, mask=False, extra_ins=(), inits=(), names=None, **attrs):
    outs = [Value("y", dt, x)]
    if mask:
        outs.append(Value("z", BOOL, np.ones(x.shape, bool)) if opset >= 10 else
                    Value("z", dt, np.ones(x.shape, dt.np) if dt is not BF16 else np.full(x.shape, 0x3f80, np.uint16)))
    ins = [Value("x", dt, x)] + list(extra_ins)
    nm = names or [v.name for v in ins] + [v.name for v in inits]
    return Case(name, [node("Dropout", nm, [v.name for v in outs], **attrs)], {"": opset}, ins, outs, list(inits))


def gen_dropout():
    for ver, types in DROPOUT_TYPES.items():
        for dt in types:
            name = f"dropout_v{ver}_{dt.name}"
            x = rand(dt, (2, 3, 4), seeded(name))
            yield dropout_case(name, ver, dt, x)
            yield dropout_case(name + "_mask", ver, dt, x, mask=True)
    rng = seeded("dropout_rules")
    x = rand(F32, (3, 5), rng)
    yield dropout_case("dropout_v1_is_test", 1, F32, x, mask=True, is_test=1, ratio=0.3)
    yield dropout_case("dropout_v6_is_test_0", 6, F32, x, is_test=0)
    yield dropout_case("dropout_v7_ratio", 7, F32, x, mask=True, ratio=0.9)
    yield dropout_case("dropout_v10_ratio", 10, F64, rand(F64, (4,), rng), mask=True, ratio=0.1)
    r = Value("r", F32, np.array(0.75, np.float32))
    t0 = Value("t", BOOL, np.array(False))
    yield dropout_case("dropout_v12_ratio_input", 12, F32, x, mask=True, extra_ins=[r])
    yield dropout_case("dropout_v13_ratio_init", 13, F32, x, mask=True, inits=[r])
    yield dropout_case("dropout_v13_ratio_double", 13, F16, rand(F16, (2, 2), rng), mask=True,
                       inits=[Value("r", F64, np.array(0.5))])
    yield dropout_case("dropout_v13_training_false_init", 13, F32, x, mask=True, inits=[r, t0])
    yield dropout_case("dropout_v13_training_false_input", 13, F32, x, mask=True, extra_ins=[r, t0])
    yield dropout_case("dropout_v13_training_omitted_ratio", 13, F32, x, inits=[t0], names=["x", "", "t"])
    yield dropout_case("dropout_v13_seed", 13, F32, x, mask=True, seed=7)
    yield dropout_case("dropout_scalar", 13, F32, np.array(2.5, np.float32), mask=True)
    yield dropout_case("dropout_empty", 13, F32, np.zeros((0, 3), np.float32), mask=True)
    # a view feeding another node (the exporters' Dropout before a Gemm or a Transpose)
    yield Case("dropout_then_transpose", [node("Dropout", ["x"], ["d"]), node("Transpose", ["d"], ["y"])], {"": 13},
               [Value("x", F32, x)], [Value("y", F32, x.T.copy())])


def err_dropout():
    x = rand(F32, (2, 3), seeded("dropout_err"))
    X = Value("x", F32, x)
    r = Value("r", F32, np.array(0.5, np.float32))
    t1 = Value("t", BOOL, np.array(True))
    yield refused("dropout_err_training_true_init", "training", "Dropout", 13, [X], inits=[r, t1])
    yield refused("dropout_err_training_true_input", "training", "Dropout", 13, [X, r, t1], stage="run")
    yield refused("dropout_err_v12_training_true", "training", "Dropout", 12, [X], inits=[r, t1])
    yield refused("dropout_err_ratio_rank1", "rank", "Dropout", 13, [X, Value("r", F32, np.array([0.5], np.float32))])
    yield refused("dropout_err_training_rank1", "rank", "Dropout", 13, [X], inits=[r, Value("t", BOOL, np.array([False]))])
    yield refused("dropout_err_int32", "dtype", "Dropout", 13, [Value("x", I32, np.zeros(3, np.int32))], out_dt=I32)
    yield refused("dropout_err_v12_bfloat16", "dtype", "Dropout", 12, [Value("x", BF16, from_num(BF16, x))], out_dt=BF16)
    yield refused("dropout_err_ratio_int", "dtype", "Dropout", 13, [X, Value("r", I64, i64(1))])
    yield refused("dropout_err_v7_is_test", "attribute", "Dropout", 7, [X], is_test=1)
    yield refused("dropout_err_v10_seed", "attribute", "Dropout", 10, [X], seed=1)
    yield refused("dropout_err_v12_ratio_attribute", "attribute", "Dropout", 12, [X], ratio=0.5)
    yield Case("dropout_err_training_computed",
               [node("Not", ["f"], ["t"]), node("Dropout", ["x", "", "t"], ["y"])], {"": 13}, [X],
               [Value("y", F32, None, shape=None)], [Value("f", BOOL, np.array(False))], error=("load", "constant"))


# ---------------------------------------------------------------------------------------------
# constantofshape_

def cos_case(name, opset, shape, value=None, how="init"):
    """value: (dtype, storage-form scalar) or None (float 0); how: init, input (bound at run), constant."""
    dt, v = value if value is not None else (F32, np.float32(0))
    want = np.full(shape, v, dt.np)
    attrs = {} if value is None else {"value": tensor_proto(Value("value", dt, np.array([v], dt.np)))}
    s = Value("s", I64, i64(list(shape)))
    if how == "input":
        return one(name, "ConstantOfShape", opset, [s], [Value("y", dt, want)], **attrs)
    if how == "constant":
        return Case(name, [helper.make_node("Constant", [], ["s"], value=tensor_proto(s)),
                           node("ConstantOfShape", ["s"], ["y"], **attrs)], {"": opset}, [], [Value("y", dt, want)])
    return Case(name, [node("ConstantOfShape", ["s"], ["y"], **attrs)], {"": opset}, [], [Value("y", dt, want)], [s])


def gen_constant_of_shape():
    for ver, types in COS_TYPES.items():
        for dt in types:
            rng = seeded(f"constantofshape_v{ver}_{dt.name}")
            v = any_values(dt, (1,), rng)[0]
            yield cos_case(f"constantofshape_v{ver}_{dt.name}", ver, (2, 3), (dt, v))
    yield cos_case("constantofshape_default_float_zero", 9, (3, 1, 2))
    yield cos_case("constantofshape_scalar", 20, (), (I64, np.int64(-7)))
    yield cos_case("constantofshape_empty", 20, (4, 0), (F64, np.float64(1.5)))
    yield cos_case("constantofshape_rank6", 21, (1, 2, 1, 3, 1, 2), (U8, np.uint8(255)))
    yield cos_case("constantofshape_shape_input", 9, (2, 5), (I32, np.int32(-1)), how="input")
    yield cos_case("constantofshape_shape_constant", 21, (3,), (F16, np.float16(-0.0)), how="constant")
    yield cos_case("constantofshape_long", 9, (70, 33), (I16, np.int16(12345)))
    yield cos_case("constantofshape_nan", 9, (5,), (F32, np.float32("nan")))


def err_constant_of_shape():
    s = Value("s", I64, i64([2, 3]))
    val = lambda dt, a: tensor_proto(Value("value", dt, np.array(a, dt.np)))
    yield refused("constantofshape_err_negative_dim", "shape", "ConstantOfShape", 9, [], inits=[Value("s", I64, i64([2, -1]))])
    yield refused("constantofshape_err_shape_rank2", "rank", "ConstantOfShape", 9, [], inits=[Value("s", I64, i64([[2, 3]]))])
    yield refused("constantofshape_err_shape_int32", "dtype", "ConstantOfShape", 9, [],
                  inits=[Value("s", I32, np.array([2], np.int32))])
    yield refused("constantofshape_err_value_two", "shape", "ConstantOfShape", 9, [], inits=[s], value=val(F32, [1, 2]))
    yield refused("constantofshape_err_value_rank2", "rank", "ConstantOfShape", 9, [], inits=[s], value=val(F32, [[1]]))
    yield refused("constantofshape_err_v9_bfloat16", "dtype", "ConstantOfShape", 9, [], inits=[s],
                  value=tensor_proto(Value("value", BF16, np.array([0x3f80], np.uint16))))
    yield refused("constantofshape_err_value_float", "attribute", "ConstantOfShape", 9, [], inits=[s], value=1.0)
    yield refused("constantofshape_err_too_many_dims", "maximum", "ConstantOfShape", 9, [], inits=[Value("s", I64, i64([1] * 9))])
    yield refused("constantofshape_err_negative_bound", "shape", "ConstantOfShape", 9, [Value("s", I64, i64([-2]))], stage="run")
    yield Case("constantofshape_err_computed", [node("Max", ["a", "b"], ["s"]), node("ConstantOfShape", ["s"], ["y"])],
               {"": 13}, [], [Value("y", F32, None, shape=None)], [Value("a", I64, i64([1])), Value("b", I64, i64([2]))],
               error=("load", "constant"))


def gen_layout():
    yield from gen_transpose()
    yield from err_transpose()
    yield from gen_gather()
    yield from err_gather()
    yield from gen_dropout()
    yield from err_dropout()
    yield from gen_constant_of_shape()
    yield from err_constant_of_shape()
