"""minnx's own cases for shapes known at bind (issue 22): graphs whose shapes are computed from a
symbolic dim of a graph input (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as
torch.onnx.export writes `x.view(x.size(0), -1)` under dynamic_axes, and the chains of Slice, Mul,
Add, Div, Equal, Where, Cast, ConstantOfShape, Range, Expand, Squeeze exporters write over shapes).
Each good case has data sets at several batch sizes (test_data_set_<k>: minnx test runs each in a
session of its own, tests/unit/test_bindshape.c all of them in one session); the expected outputs
are numpy's (reshapes, broadcasts and arange of the input, never minnx's).  The refused cases: a
shape computed from tensor data (at load, naming the node), a batch for which a Reshape is
impossible and an index out of range, both found when the inputs are bound (at run)."""
import numpy as np
from onnx import TensorProto, helper

from generate import F32, I64, Case, Value, i64, node, seeded

BATCHES = (1, 2, 7)


def v(name, dt, data):
    return Value(name, dt, data)


def sym(name, dt, data, dims):
    """A graph input or output declared with dims (strings: dim_params)."""
    return Value(name, dt, data, shape=list(dims))


def case(name, nodes, inits, opset, make, tail=(6,), dims_in=("N", 2, 3), out_dims=None, out_dt=F32,
         batches=BATCHES, outs=("y",)):
    """A case over x: float32 [N, 2, 3]; make(x) gives the expected outputs (a tuple)."""
    rng = seeded(name)
    sets = []
    for b in batches:
        x = rng.uniform(-10, 10, size=(b,) + tuple(d for d in dims_in[1:])).astype(np.float32)
        sets.append(([x], list(make(x))))
    x0, y0 = sets[0]
    ins = [sym("x", F32, x0[0], dims_in)]
    od = out_dims or [("N",) + tuple(tail)] * len(outs)
    dts = out_dt if isinstance(out_dt, tuple) else (out_dt,) * len(outs)
    outputs = [sym(o, dts[k], y0[k], od[k]) for k, o in enumerate(outs)]
    return Case(name, nodes, {"": opset}, ins, outputs, list(inits), more=sets[1:])


def batch_of(prefix="b"):
    """Shape(x) -> Gather(0) -> Unsqueeze: the batch as a 1-D int64 [N]."""
    return [node("Shape", ["x"], [f"{prefix}_s"]),
            node("Gather", [f"{prefix}_s", "zero"], [f"{prefix}_n"], axis=0),
            node("Unsqueeze", [f"{prefix}_n", "axes0"], [f"{prefix}_u"])]


def gen_bindshape():
    cases = []
    zero, axes0, minus1 = v("zero", I64, i64(0)), v("axes0", I64, i64([0])), v("minus1", I64, i64([-1]))
    # x.view(x.size(0), -1): LeNet's flatten under a dynamic batch
    nodes = batch_of() + [node("Concat", ["b_u", "minus1"], ["shape"], axis=0),
                          node("Reshape", ["x", "shape"], ["y"])]
    cases.append(case("bindshape_view_batch", nodes, [zero, axes0, minus1], 13, lambda x: (x.reshape(x.shape[0], -1),)))
    # the same with Unsqueeze-11 (axes an attribute) and Reshape-5
    nodes11 = [node("Shape", ["x"], ["b_s"]), node("Gather", ["b_s", "zero"], ["b_n"], axis=0),
               node("Unsqueeze", ["b_n"], ["b_u"], axes=[0]), node("Concat", ["b_u", "minus1"], ["shape"], axis=0),
               node("Reshape", ["x", "shape"], ["y"])]
    cases.append(case("bindshape_view_batch_v11", nodes11, [zero, minus1], 11, lambda x: (x.reshape(x.shape[0], -1),)))
    # Slice, Squeeze-13 (a [1] into a scalar), Mul: [N, H*W] from Shape's slices
    one, two, three = v("one", I64, i64([1])), v("two", I64, i64([2])), v("three", I64, i64([3]))
    nodes = batch_of() + [node("Slice", ["b_s", "one", "two"], ["h"]), node("Squeeze", ["h", "axes0"], ["hs"]),
                          node("Slice", ["b_s", "two", "three"], ["w"]), node("Squeeze", ["w", "axes0"], ["ws"]),
                          node("Mul", ["hs", "ws"], ["hw"]), node("Unsqueeze", ["hw", "axes0"], ["hw1"]),
                          node("Concat", ["b_u", "hw1"], ["shape"], axis=0), node("Reshape", ["x", "shape"], ["y"])]
    cases.append(case("bindshape_slice_mul", nodes, [zero, axes0, one, two, three], 13,
                      lambda x: (x.reshape(x.shape[0], 6),)))
    # Div and Add over int64 scalars: Reshape(x, [N * 6 / 3, H + 1]) -> [2N, 3]
    six, three_s, one_s, two_s = v("six", I64, i64(6)), v("three_s", I64, i64(3)), v("one_s", I64, i64(1)), v("two_s", I64, i64(2))
    nodes = [node("Shape", ["x"], ["s"]), node("Gather", ["s", "zero"], ["n"], axis=0),
             node("Mul", ["n", "six"], ["n6"]), node("Div", ["n6", "three_s"], ["rows"]),
             node("Gather", ["s", "one_s"], ["h"], axis=0), node("Add", ["h", "one_s"], ["cols"]),
             node("Unsqueeze", ["rows", "axes0"], ["r1"]), node("Unsqueeze", ["cols", "axes0"], ["c1"]),
             node("Concat", ["r1", "c1"], ["shape"], axis=0), node("Reshape", ["x", "shape"], ["y"])]
    cases.append(case("bindshape_div_add", nodes, [zero, six, three_s, one_s, two_s, axes0], 13,
                      lambda x: (x.reshape(2 * x.shape[0], 3),), out_dims=[("M", 3)]))
    # Equal/Where (torch's expand_as with -1 kept) and Expand: b [1,1,6] to [N,1,6]
    bvals = v("bias", F32, np.arange(6, dtype=np.float32).reshape(1, 1, 6) - 2.5)
    keep, ones3, m1 = v("keep", I64, i64([-1, 1])), v("ones3", I64, i64([1, 1, 1])), v("m1", I64, i64(-1))
    # and an Expand of x itself to [2, N, 2, 3], which runs (its shape read at bind)
    two1, tail23 = v("two1", I64, i64([2])), v("tail23", I64, i64([2, 3]))
    nodes = batch_of() + [node("Concat", ["b_u", "keep"], ["t"], axis=0), node("Equal", ["t", "m1"], ["eq"]),
                          node("Where", ["eq", "ones3", "t"], ["shape"]), node("Expand", ["bias", "shape"], ["y"]),
                          node("Concat", ["two1", "b_u", "tail23"], ["t2"], axis=0), node("Expand", ["x", "t2"], ["y1"])]
    cases.append(case("bindshape_where_expand", nodes, [zero, axes0, keep, ones3, m1, bvals, two1, tail23], 13,
                      lambda x: (np.broadcast_to(bvals.data, (x.shape[0], 1, 6)).copy(),
                                 np.broadcast_to(x, (2,) + x.shape).copy()),
                      out_dims=[("N", 1, 6), (2, "N", 2, 3)], outs=("y", "y1")))
    # ConstantOfShape, Range and Cast over the batch: ones [N, 3] * 1.5, arange(N) as float, Size(x)
    val = helper.make_tensor("value", TensorProto.FLOAT, [1], [1.5])
    three1, start, delta = v("three1", I64, i64([3])), v("start", I64, i64(0)), v("delta", I64, i64(1))
    nodes = batch_of() + [node("Concat", ["b_u", "three1"], ["cs"], axis=0),
                          node("ConstantOfShape", ["cs"], ["y"], value=val),
                          node("Range", ["start", "b_n", "delta"], ["r"]),
                          node("Cast", ["r"], ["y1"], to=TensorProto.FLOAT),
                          node("Size", ["x"], ["y2"])]
    cases.append(case("bindshape_fill_range_cast", nodes, [zero, axes0, three1, start, delta], 13,
                      lambda x: (np.full((x.shape[0], 3), 1.5, np.float32), np.arange(x.shape[0]).astype(np.float32),
                                 np.array(x.size, np.int64)),
                      out_dims=[("N", 3), ("N",), ()], out_dt=(F32, F32, I64), outs=("y", "y1", "y2")))
    # a Shape of a computed tensor (only its shape is read) feeding a Reshape of that tensor
    nodes = [node("Relu", ["x"], ["rx"]), node("Shape", ["rx"], ["s"]), node("Gather", ["s", "zero"], ["n"], axis=0),
             node("Unsqueeze", ["n", "axes0"], ["u"]), node("Concat", ["u", "minus1"], ["shape"], axis=0),
             node("Reshape", ["rx", "shape"], ["y"])]
    cases.append(case("bindshape_shape_of_computed", nodes, [zero, axes0, minus1], 13,
                      lambda x: (np.maximum(x, 0).reshape(x.shape[0], -1),)))
    # refused: a shape computed from tensor data (ReduceMax of x, cast to int64), at load
    nodes = [node("Shape", ["x"], ["s"]), node("ReduceMax", ["x"], ["mx"], keepdims=0),
             node("Cast", ["mx"], ["mi"], to=TensorProto.INT64), node("Mul", ["s", "mi"], ["shape"]),
             node("Reshape", ["x", "shape"], ["y"])]
    x = seeded("bindshape_err_shape_from_data").uniform(-1, 1, size=(2, 2, 3)).astype(np.float32)
    cases.append(Case("bindshape_err_shape_from_data", nodes, {"": 13}, [sym("x", F32, x, ("N", 2, 3))],
                      [Value("y", F32, None, shape=None)], [], error=("load", "constant")))
    # refused at bind: [N / 2, 12] is no reshape of [N, 2, 3] for an odd N
    nodes = [node("Shape", ["x"], ["s"]), node("Gather", ["s", "zero"], ["n"], axis=0),
             node("Div", ["n", "two_s"], ["h"]), node("Unsqueeze", ["h", "axes0"], ["u"]),
             node("Concat", ["u", "twelve"], ["shape"], axis=0), node("Reshape", ["x", "shape"], ["y"])]
    x = seeded("bindshape_err_reshape_odd").uniform(-1, 1, size=(3, 2, 3)).astype(np.float32)
    cases.append(Case("bindshape_err_reshape_odd", nodes, {"": 13}, [sym("x", F32, x, ("N", 2, 3))],
                      [Value("y", F32, None, shape=None)], [zero, two_s, axes0, v("twelve", I64, i64([12]))],
                      error=("run", "shape")))
    # refused at bind: Gather of dim 5 of a rank-3 shape
    nodes = [node("Shape", ["x"], ["s"]), node("Gather", ["s", "five"], ["n"], axis=0),
             node("Unsqueeze", ["n", "axes0"], ["u"]), node("Concat", ["u", "minus1"], ["shape"], axis=0),
             node("Reshape", ["x", "shape"], ["y"])]
    x = seeded("bindshape_err_gather_index").uniform(-1, 1, size=(2, 2, 3)).astype(np.float32)
    cases.append(Case("bindshape_err_gather_index", nodes, {"": 13}, [sym("x", F32, x, ("N", 2, 3))],
                      [Value("y", F32, None, shape=None)], [v("five", I64, i64(5)), axes0, minus1],
                      error=("run", "index")))
    return cases
