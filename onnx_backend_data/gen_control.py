"""if_ (ops/controlflow/if.c): If 1, 11, 13, 16, 19, 21, each version with each branch taken; branches
reading outer values (graph inputs, initializers, values computed before the If), a branch whose
output is an outer value itself, an inner name shadowing an outer one, several outputs of different
dtypes, nested Ifs (a branch holding an If reading the outermost scope), a cond computed in the
graph; and the refusals: branches of different dtypes or shapes, a branch with the wrong number of
outputs, a branch output that does not exist, an outer name defined nowhere, nesting deeper than
minnx's 6, a cycle through a branch reading the If's own output, a cond of two elements or of
float, a missing else_branch.

References are numpy's (float64 where arithmetic happens, rounded once to float32: each case's
branches do one IEEE operation per element, so the results are numpy's bits)."""
import numpy as np
from onnx import TensorProto, ValueInfoProto, helper

from generate import BOOL, F32, I64, Case, Value, node, rand, refused, seeded

VERSIONS = (1, 11, 13, 16, 19, 21)


def vi(name, elem=TensorProto.FLOAT, shape=None):
    if elem is None:  # no type at all: an exporter's untyped subgraph output
        return ValueInfoProto(name=name)
    return helper.make_tensor_value_info(name, elem, shape)


def branch(name, nodes, outs, inits=()):
    """A subgraph: nodes, outputs (name, elem type, shape), no inputs of its own."""
    return helper.make_graph(nodes, name, [], [vi(*o) for o in outs], initializer=list(inits))


def if_node(cond, then_g, else_g, outs, name=None):
    return helper.make_node("If", [cond], list(outs), name=name or f"if_{outs[0]}", then_branch=then_g,
                            else_branch=else_g)


def f32(a):
    return np.asarray(a, np.float64).astype(np.float32)


def gen_versions():
    for ver in VERSIONS:
        for taken in (True, False):
            name = f"if_v{ver}_{'then' if taken else 'else'}"
            rng = seeded(name)
            x = f32(rng.standard_normal((2, 3)))
            y = f32(rng.standard_normal((2, 3)))
            then_g = branch("then", [node("Add", ["x", "y"], ["t"])], [("t", TensorProto.FLOAT, [2, 3])])
            else_g = branch("else", [node("Sub", ["x", "y"], ["e"])], [("e", TensorProto.FLOAT, [2, 3])])
            want = f32(x.astype(np.float64) + y) if taken else f32(x.astype(np.float64) - y)
            yield Case(name, [if_node("c", then_g, else_g, ["z"])], {"": ver},
                       [Value("c", BOOL, np.array([taken])), Value("x", F32, x), Value("y", F32, y)],
                       [Value("z", F32, want)])


def gen_scopes():
    rng = seeded("if_scopes")
    x = f32(rng.standard_normal((4,)))
    w = f32(rng.standard_normal((4,)))
    # an initializer read by a branch (a constant inside it: the branch's node folds on it... or runs)
    for taken in (True, False):
        name = f"if_outer_init_{'then' if taken else 'else'}"
        then_g = branch("then", [node("Mul", ["x", "w"], ["t"])], [("t", TensorProto.FLOAT, [4])])
        else_g = branch("else", [node("Neg", ["w"], ["e"])], [("e", TensorProto.FLOAT, [4])])
        want = f32(x.astype(np.float64) * w) if taken else -w
        yield Case(name, [if_node("c", then_g, else_g, ["z"])], {"": 13},
                   [Value("c", BOOL, np.array(taken)), Value("x", F32, x)], [Value("z", F32, want)],
                   inits=[Value("w", F32, w)])
    # a value computed before the If, read by a branch; a branch whose output is an outer value
    for taken in (True, False):
        name = f"if_outer_computed_{'then' if taken else 'else'}"
        then_g = branch("then", [], [("s", TensorProto.FLOAT, [4])])  # the outer value itself
        else_g = branch("else", [node("Add", ["s", "x"], ["e"])], [("e", TensorProto.FLOAT, [4])])
        s = f32(x.astype(np.float64) * x)
        want = s if taken else f32(s.astype(np.float64) + x)
        yield Case(name, [node("Mul", ["x", "x"], ["s"]), if_node("c", then_g, else_g, ["z"])], {"": 13},
                   [Value("c", BOOL, np.array([taken])), Value("x", F32, x)], [Value("z", F32, want)])
    # an inner name shadowing an outer one: the branch's own "s" is read, not the outer "s"
    name = "if_shadow"
    then_g = branch("then", [node("Neg", ["x"], ["s"]), node("Add", ["s", "x"], ["t"])],
                    [("t", TensorProto.FLOAT, [4])])
    else_g = branch("else", [node("Sub", ["s", "x"], ["e"])], [("e", TensorProto.FLOAT, [4])])
    yield Case(name, [node("Mul", ["x", "x"], ["s"]), if_node("c", then_g, else_g, ["z"])], {"": 13},
               [Value("c", BOOL, np.array([True])), Value("x", F32, x)],
               [Value("z", F32, f32(-x.astype(np.float64) + x))])


def gen_multi():
    rng = seeded("if_multi")
    x = f32(rng.standard_normal((3, 2)))
    k = np.array([5, -7, 9], np.int64)
    for taken in (True, False):
        name = f"if_two_outputs_{'then' if taken else 'else'}"
        then_g = branch("then", [node("Relu", ["x"], ["a"]), node("Neg", ["k"], ["b"])],
                        [("a", TensorProto.FLOAT, [3, 2]), ("b", TensorProto.INT64, [3])])
        else_g = branch("else", [node("Abs", ["x"], ["a2"]), node("Identity", ["k"], ["b2"])],
                        [("a2", TensorProto.FLOAT, [3, 2]), ("b2", TensorProto.INT64, [3])])
        ya = np.maximum(x, 0).astype(np.float32) if taken else np.abs(x)
        yb = -k if taken else k
        yield Case(name, [if_node("c", then_g, else_g, ["ya", "yb"])], {"": 13},
                   [Value("c", BOOL, np.array([taken])), Value("x", F32, x), Value("k", I64, k)],
                   [Value("ya", F32, ya), Value("yb", I64, yb)])


def gen_nested():
    rng = seeded("if_nested")
    x = f32(rng.standard_normal((2, 2)))
    for c1 in (True, False):
        for c2 in (True, False):
            name = f"if_nested_{int(c1)}{int(c2)}"
            inner_then = branch("inner_then", [node("Add", ["x", "x"], ["it"])], [("it", TensorProto.FLOAT, [2, 2])])
            inner_else = branch("inner_else", [node("Mul", ["x", "x"], ["ie"])], [("ie", TensorProto.FLOAT, [2, 2])])
            then_g = branch("then", [if_node("c2", inner_then, inner_else, ["t"], name="inner_if")],
                            [("t", TensorProto.FLOAT, [2, 2])])
            else_g = branch("else", [node("Neg", ["x"], ["e"])], [("e", TensorProto.FLOAT, [2, 2])])
            xd = x.astype(np.float64)
            want = (f32(xd + xd) if c2 else f32(xd * xd)) if c1 else -x
            yield Case(name, [if_node("c1", then_g, else_g, ["z"])], {"": 13},
                       [Value("c1", BOOL, np.array([c1])), Value("c2", BOOL, np.array([c2])), Value("x", F32, x)],
                       [Value("z", F32, want)])


def gen_computed_cond():
    for a_, b_ in ((3.0, 1.0), (1.0, 3.0)):
        name = f"if_cond_greater_{'then' if a_ > b_ else 'else'}"
        rng = seeded(name)
        x = f32(rng.standard_normal((5,)))
        then_g = branch("then", [node("Add", ["x", "a"], ["t"])], [("t", TensorProto.FLOAT, [5])])
        else_g = branch("else", [node("Sub", ["x", "b"], ["e"])], [("e", TensorProto.FLOAT, [5])])
        a = np.array([a_], np.float32)
        b = np.array([b_], np.float32)
        want = f32(x.astype(np.float64) + a) if a_ > b_ else f32(x.astype(np.float64) - b)
        yield Case(name, [node("Greater", ["a", "b"], ["c"]), if_node("c", then_g, else_g, ["z"])], {"": 13},
                   [Value("a", F32, a), Value("b", F32, b), Value("x", F32, x)], [Value("z", F32, want)])


def gen_known_cond():
    """A cond known before the run: only the branch it takes is inferred and planned, so the branches may
    give different shapes, and the other one may fail on the shapes bound (Silero VAD's If on its sample
    rate, and its nested Ifs on Shape(x)[0] == 1)."""
    rng = seeded("if_known")
    x = f32(rng.standard_normal((2,)))
    # the cond a graph input: [4] or [2]
    for taken in (True, False):
        name = f"if_known_input_{'then' if taken else 'else'}"
        then_g = branch("then", [node("Concat", ["x", "x"], ["t"], axis=0)], [("t", TensorProto.FLOAT, [4])])
        else_g = branch("else", [node("Neg", ["x"], ["e"])], [("e", TensorProto.FLOAT, [2])])
        want = np.concatenate([x, x]) if taken else -x
        yield Case(name, [if_node("c", then_g, else_g, ["z"])], {"": 13},
                   [Value("c", BOOL, np.array([taken])), Value("x", F32, x)], [Value("z", F32, want, shape=None)])
    # Equal(sr, 16000) -> If, sr an int64 graph input, x [1, n]: then reshapes x to [2, -1] (n even), else
    # to [3, -1] (n a multiple of 3); the runs bind 16000 with n = 4 (else would fail: 4 is no multiple of
    # 3), 8000 with n = 9 (then would fail), 16000 with n = 8: each run plans the branch its sr picks
    def sr_case(sr, n):
        xs = f32(seeded(f"if_known_sr_{sr}_{n}").standard_normal((1, n)))
        return [np.array(sr, np.int64), xs], [xs.reshape(2 if sr == 16000 else 3, -1)]
    then_g = branch("then", [node("Reshape", ["x", "two"], ["t"])], [("t", TensorProto.FLOAT, None)],
                    inits=[helper.make_tensor("two", TensorProto.INT64, [2], [2, -1])])
    else_g = branch("else", [node("Reshape", ["x", "three"], ["e"])], [("e", TensorProto.FLOAT, None)],
                    inits=[helper.make_tensor("three", TensorProto.INT64, [2], [3, -1])])
    (sr0, x0), (y0,) = sr_case(16000, 4)
    more = [sr_case(8000, 9), sr_case(16000, 8)]
    yield Case("if_known_sr", [node("Equal", ["sr", "rate"], ["c"]), if_node("c", then_g, else_g, ["z"])], {"": 13},
               [Value("sr", I64, sr0), Value("x", F32, x0, shape=[1, "n"])], [Value("z", F32, y0, shape=None)],
               inits=[Value("rate", I64, np.array(16000, np.int64))], more=more)
    # Shape(x)[0] == 1 -> If: Squeeze the first axis, else x itself (whose rank differs); then an If
    # nested in the taken branch with the same test on an outer value, and branch outputs left untyped
    # (as the exporter leaves Silero's): their types come from inferring the branch
    def squeeze_ifs(outer):
        inner_then = branch("inner_then", [node("Squeeze", [outer, "zero"], ["it"])], [("it", None, None)],
                            inits=[helper.make_tensor("zero", TensorProto.INT64, [1], [0])])
        inner_else = branch("inner_else", [node("Identity", [outer], ["ie"])], [("ie", None, None)])
        return [node("Shape", [outer], [outer + "_sh"]), node("Gather", [outer + "_sh", "i0"], [outer + "_d0"], axis=0),
                node("Equal", [outer + "_d0", "one"], [outer + "_c"]),
                if_node(outer + "_c", inner_then, inner_else, [outer + "_sq"], name="if_" + outer)]
    def sq_ref(v):
        return v[0] if v.shape[0] == 1 else v
    def nested_case(b, n):
        xs = f32(seeded(f"if_known_squeeze_{b}_{n}").standard_normal((b, n)))
        return [xs], [f32(sq_ref(xs).astype(np.float64) * 2)]
    outer_then = branch("outer_then", squeeze_ifs("x") + [node("Add", ["x_sq", "x_sq"], ["t"])],
                        [("t", None, None)])
    outer_else = branch("outer_else", [node("Add", ["x", "x"], ["e"])], [("e", None, None)])
    (x0,), (y0,) = nested_case(1, 3)
    yield Case("if_known_shape_nested",
               [node("Shape", ["x"], ["sh"]), node("Size", ["sh"], ["rk"]), node("Equal", ["rk", "two_i"], ["c"]),
                if_node("c", outer_then, outer_else, ["z"])], {"": 13},
               [Value("x", F32, x0, shape=["b", "n"])], [Value("z", F32, y0, shape=None)],
               inits=[Value("i0", I64, np.array(0, np.int64)), Value("one", I64, np.array(1, np.int64)),
                      Value("two_i", I64, np.array(2, np.int64))],
               more=[nested_case(2, 3), nested_case(1, 5)])


def gen_refused():
    x = np.ones((2,), np.float32)
    ins = [Value("c", BOOL, np.array([True])), Value("x", F32, x)]
    ok = branch("ok", [node("Neg", ["x"], ["o"])], [("o", TensorProto.FLOAT, [2])])

    def case(name, keyword, then_g, else_g=ok, nodes=(), cond="c", inputs=ins, outs=("y",)):
        return refused(name, "load", keyword, list(nodes) + [if_node(cond, then_g, else_g, list(outs))], {"": 13},
                       inputs)

    yield case("if_err_dtypes", "dtype",
               branch("t", [node("Cast", ["x"], ["t"], to=TensorProto.INT64)], [("t", TensorProto.INT64, [2])]))
    # branches of different shapes under a cond known only when the run computes it (from float data)
    fins = [Value("a", F32, np.array([3.0], np.float32)), Value("b", F32, np.array([1.0], np.float32)), Value("x", F32, x)]
    yield case("if_err_shapes", "shape",
               branch("t", [node("Concat", ["x", "x"], ["t"], axis=0)], [("t", TensorProto.FLOAT, [4])]),
               nodes=[node("Greater", ["a", "b"], ["g"])], cond="g", inputs=fins)
    yield case("if_err_output_count", "outputs",
               branch("t", [node("Neg", ["x"], ["t"]), node("Abs", ["x"], ["u"])],
                      [("t", TensorProto.FLOAT, [2]), ("u", TensorProto.FLOAT, [2])]))
    yield case("if_err_missing_output", "output", branch("t", [node("Neg", ["x"], ["t"])], [("nowhere", TensorProto.FLOAT, [2])]))
    yield case("if_err_unknown_outer", "defined", branch("t", [node("Neg", ["ghost"], ["t"])], [("t", TensorProto.FLOAT, [2])]))
    yield case("if_err_cycle", "cycle", branch("t", [node("Neg", ["y"], ["t"])], [("t", TensorProto.FLOAT, [2])]))
    yield case("if_err_cond_elements", "element", ok, inputs=[Value("c", BOOL, np.array([True, False])), Value("x", F32, x)])
    yield case("if_err_cond_dtype", "dtype", ok, inputs=[Value("c", F32, np.array([1.0], np.float32)), Value("x", F32, x)])
    yield refused("if_err_no_else", "load", "attribute",
                  [helper.make_node("If", ["c"], ["y"], name="if_y", then_branch=ok)], {"": 13}, ins)
    g = ok
    for depth in range(7):  # 7 Ifs, one in the other's then_branch: 7 levels of subgraphs
        g = branch(f"d{depth}", [if_node("c", g, ok, [f"r{depth}"], name=f"if_{depth}")],
                   [(f"r{depth}", TensorProto.FLOAT, [2])])
    yield case("if_err_too_deep", "deeper", g)


def gen_control():
    yield from gen_loop()
    yield from gen_versions()
    yield from gen_scopes()
    yield from gen_multi()
    yield from gen_nested()
    yield from gen_computed_cond()
    yield from gen_known_cond()
    yield from gen_refused()


# ---------------------------------------------------------------------------------------------
# loop_ (ops/controlflow/loop.c): Loop 1, 11, 13, 16, 19, 21. References are Python loops over numpy
# computing what the body computes (float64 where arithmetic happens, rounded once to the dtype:
# each body step is one IEEE operation per element, so the results are numpy's bits).

from generate import BF16, F16, F64, I8, I32, U8, to_num, from_num  # noqa: E402


def body_graph(name, nodes, ins, outs, inits=()):
    """A Loop body: declared inputs (name, elem, shape) and outputs."""
    return helper.make_graph(nodes, name, [vi(*i) for i in ins], [vi(*o) for o in outs], initializer=list(inits))


def loop_node(ins, outs, body, name=None):
    return helper.make_node("Loop", list(ins), list(outs), name=name or f"loop_{outs[0]}", body=body)


def i64(v):
    return np.array(v, np.int64)


def acc_body(with_scan=True, elem=TensorProto.FLOAT, shape=(3,)):
    """acc' = acc + a (a read from the enclosing graph); scan = acc'; cond' = cond."""
    nodes = [node("Identity", ["cond_in"], ["cond_out"]), node("Add", ["acc_in", "a"], ["acc_out"])]
    outs = [("cond_out", TensorProto.BOOL, []), ("acc_out", elem, list(shape))]
    if with_scan:
        nodes.append(node("Identity", ["acc_out"], ["scan"]))
        outs.append(("scan", elem, list(shape)))
    return body_graph("body", nodes, [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []),
                                      ("acc_in", elem, list(shape))], outs)


def acc_ref(acc, a, m):
    rows = []
    for _ in range(max(m, 0)):
        acc = f32(acc.astype(np.float64) + a)
        rows.append(acc)
    return acc, np.array(rows, np.float32).reshape((max(m, 0),) + acc.shape)


def gen_loop_versions():
    for ver in VERSIONS:
        name = f"loop_v{ver}_const_m"
        rng = seeded(name)
        acc0 = f32(rng.standard_normal(3))
        a = f32(rng.standard_normal(3))
        fin, scan = acc_ref(acc0, a, 4)
        yield Case(name, [loop_node(["M", "c", "acc0"], ["acc", "scan_all"], acc_body())], {"": ver},
                   [Value("c", BOOL, np.array(True)), Value("acc0", F32, acc0), Value("a", F32, a)],
                   [Value("acc", F32, fin), Value("scan_all", F32, scan)], inits=[Value("M", I64, i64(4))])


def gen_loop_trip_counts():
    rng = seeded("loop_trip")
    acc0 = f32(rng.standard_normal(3))
    a = f32(rng.standard_normal(3))
    # M a graph input (no cond): each run plans the scan output with the M bound, here 3 then 5 and 0
    fin, scan = acc_ref(acc0, a, 3)
    more = []
    for m in (5, 0):
        f2, s2 = acc_ref(acc0, a, m)
        more.append(([i64(m), acc0, a], [f2, s2]))
    yield Case("loop_m_input", [loop_node(["M", "", "acc0"], ["acc", "scan_all"], acc_body())], {"": 13},
               [Value("M", I64, i64(3)), Value("acc0", F32, acc0), Value("a", F32, a)],
               [Value("acc", F32, fin), Value("scan_all", F32, scan, shape=["rows", 3])], more=more)
    # zero and negative trip counts: the initial values, no rows
    for m, tag in ((0, "zero"), (-2, "negative")):
        fin, scan = acc_ref(acc0, a, m)
        yield Case(f"loop_m_{tag}", [loop_node(["M", "", "acc0"], ["acc", "scan_all"], acc_body())], {"": 13},
                   [Value("acc0", F32, acc0), Value("a", F32, a)],
                   [Value("acc", F32, fin), Value("scan_all", F32, scan)], inits=[Value("M", I64, i64(m))])
    # M of shape [1] (ONNX Runtime takes one element either way), cond false: no iteration
    yield Case("loop_cond_false", [loop_node(["M", "c", "acc0"], ["acc"], acc_body(with_scan=False))], {"": 13},
               [Value("c", BOOL, np.array([False])), Value("acc0", F32, acc0), Value("a", F32, a)],
               [Value("acc", F32, acc0)], inits=[Value("M", I64, i64([3]))])


def while_body():
    """x' = x * 2; cond' = x' < limit (limit read from the enclosing graph)."""
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    return body_graph("body", [node("Mul", ["x_in", "two"], ["x_out"]), node("Less", ["x_out", "limit"], ["cond_out"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("x_in", TensorProto.FLOAT, [1])],
                      [("cond_out", TensorProto.BOOL, [1]), ("x_out", TensorProto.FLOAT, [1])], inits=[two])


def gen_loop_conds():
    # cond only (a while loop): runs until x >= limit
    for start, limit in ((1.5, 100.0), (0.75, 1.0), (200.0, 100.0)):
        name = f"loop_while_{str(start).replace('.', 'p')}"
        x, c = np.float32(start), True
        while c:  # the first test is the cond input (true), then the body's
            x = np.float32(np.float64(x) * 2)
            c = bool(x < np.float32(limit))
        yield Case(name, [loop_node(["", "c", "x0"], ["x"], while_body())], {"": 13},
                   [Value("c", BOOL, np.array(True)), Value("x0", F32, np.array([start], np.float32)),
                    Value("limit", F32, np.array([limit], np.float32))], [Value("x", F32, np.array([x], np.float32))])
    # M and cond: int32 s' = s + 3 while s' < 20, at most M times; a counter carried too (int64 k' = k + i)
    for m in (3, 10):
        name = f"loop_m_and_cond_{m}"
        three = helper.make_tensor("three", TensorProto.INT32, [], [3])
        twenty = helper.make_tensor("twenty", TensorProto.INT32, [], [20])
        body = body_graph("body", [node("Add", ["s_in", "three"], ["s_out"]), node("Less", ["s_out", "twenty"], ["cond_out"]),
                                   node("Add", ["k_in", "i"], ["k_out"])],
                          [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("s_in", TensorProto.INT32, []),
                           ("k_in", TensorProto.INT64, [])],
                          [("cond_out", TensorProto.BOOL, []), ("s_out", TensorProto.INT32, []), ("k_out", TensorProto.INT64, [])],
                          inits=[three, twenty])
        s, k, i, c = 1, 100, 0, True
        while i < m and c:
            s += 3
            c = s < 20
            k += i
            i += 1
        yield Case(name, [loop_node(["M", "c", "s0", "k0"], ["s", "k"], body)], {"": 13},
                   [Value("c", BOOL, np.array(True)), Value("s0", I32, np.array(1, np.int32)), Value("k0", I64, i64(100))],
                   [Value("s", I32, np.array(s, np.int32)), Value("k", I64, i64(k))], inits=[Value("M", I64, i64(m))])
    # M and cond with scan outputs, cond staying true: all M rows
    rng = seeded("loop_m_cond_scan")
    acc0 = f32(rng.standard_normal(3))
    a = f32(rng.standard_normal(3))
    fin, scan = acc_ref(acc0, a, 4)
    yield Case("loop_m_cond_scan", [loop_node(["M", "c", "acc0"], ["acc", "scan_all"], acc_body())], {"": 13},
               [Value("c", BOOL, np.array(True)), Value("acc0", F32, acc0), Value("a", F32, a)],
               [Value("acc", F32, fin), Value("scan_all", F32, scan)], inits=[Value("M", I64, i64(4))])


def gen_loop_dtypes():
    """A carried value of each dtype (d read from the enclosing graph), and its scan: v' = v + d
    (integers wrap), Neg for bfloat16, Not for bool; Loop-16 (bfloat16 allowed)."""
    for dt in (F64, F16, BF16, I8, U8, I32, I64, BOOL):
        name = f"loop_dtype_{dt.name}"
        rng = seeded(name)
        m = 3
        d = None
        if dt is BOOL:
            v0 = np.array([True, False, True])
            step = [node("Not", ["v_in"], ["v_out"])]
        elif dt is BF16:
            v0 = from_num(BF16, rng.standard_normal(4))
            step = [node("Neg", ["v_in"], ["v_out"])]
        else:
            v0 = from_num(dt, rng.standard_normal(4)) if dt.is_float else rand(dt, (4,), rng)
            d = from_num(dt, rng.standard_normal(4)) if dt.is_float else rand(dt, (4,), rng)
            step = [node("Add", ["v_in", "d"], ["v_out"])]
        body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"])] + step + [node("Identity", ["v_out"], ["scan"])],
                          [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("v_in", dt.onnx, [len(v0)])],
                          [("cond_out", TensorProto.BOOL, []), ("v_out", dt.onnx, [len(v0)]), ("scan", dt.onnx, [len(v0)])])
        v, rows = v0, []
        for _ in range(m):
            if dt is BOOL:
                v = np.logical_not(v)
            elif dt is BF16:
                v = (v ^ np.uint16(0x8000)).astype(np.uint16)
            elif dt.is_float:
                v = (v.astype(np.float64) + d.astype(np.float64)).astype(dt.np)
            else:  # two's complement wrap: add the bit patterns as uint64, keep the low bits
                v = (v.astype(np.int64).view(np.uint64) + d.astype(np.int64).view(np.uint64)).astype(dt.np)
            rows.append(v)
        ins = [Value("v0", dt, v0)] + ([Value("d", dt, d)] if d is not None else [])
        yield Case(name, [loop_node(["M", "", "v0"], ["v", "scan_all"], body)], {"": 16}, ins,
                   [Value("v", dt, v), Value("scan_all", dt, np.array(rows, dt.np))], inits=[Value("M", I64, i64(m))])


def gen_loop_iteration():
    # the body reads its iteration number: Gather of a table at i (carried sum), and Cast(i) as a scan output
    rng = seeded("loop_iteration")
    table = f32(rng.standard_normal((5, 2)))
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Gather", ["table", "i"], ["row"], axis=0),
                               node("Add", ["acc_in", "row"], ["acc_out"]), node("Cast", ["i"], ["fi"], to=TensorProto.FLOAT)],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [2])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [2]), ("fi", TensorProto.FLOAT, [])])
    acc = np.zeros(2, np.float32)
    for i in range(5):
        acc = f32(acc.astype(np.float64) + table[i])
    yield Case("loop_iteration_gather", [loop_node(["M", "", "acc0"], ["acc", "iters"], body)], {"": 13},
               [Value("acc0", F32, np.zeros(2, np.float32))],
               [Value("acc", F32, acc), Value("iters", F32, np.arange(5, dtype=np.float32))],
               inits=[Value("M", I64, i64(5)), Value("table", F32, table)])
    # Slice of a constant at [i, i + 1) (test_loop11's pattern), the scan output the iteration number itself
    one = helper.make_tensor("one", TensorProto.INT64, [1], [1])
    zero = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Unsqueeze", ["i", "zero"], ["st"]),
                               node("Add", ["st", "one"], ["en"]), node("Slice", ["table", "st", "en"], ["sl"]),
                               node("Add", ["acc_in", "sl"], ["acc_out"]), node("Identity", ["i"], ["it"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [1, 2])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [1, 2]), ("it", TensorProto.INT64, [])],
                      inits=[one, zero])
    acc = np.zeros((1, 2), np.float32)
    for i in range(4):
        acc = f32(acc.astype(np.float64) + table[i:i + 1])
    yield Case("loop_iteration_slice", [loop_node(["M", "c", "acc0"], ["acc", "iters"], body)], {"": 13},
               [Value("c", BOOL, np.array(True)), Value("acc0", F32, np.zeros((1, 2), np.float32))],
               [Value("acc", F32, acc), Value("iters", I64, np.arange(4, dtype=np.int64))],
               inits=[Value("M", I64, i64(4)), Value("table", F32, table)])


def gen_loop_scopes():
    rng = seeded("loop_scopes")
    x = f32(rng.standard_normal(4))
    w = f32(rng.standard_normal(4))
    # the body reads a graph input, an initializer and a value computed before the Loop: acc' = (acc + t) - w
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Add", ["acc_in", "t"], ["u"]),
                               node("Sub", ["u", "w"], ["acc_out"]), node("Mul", ["u", "x"], ["p"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [4])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [4]), ("p", TensorProto.FLOAT, [4])])
    t = f32(x.astype(np.float64) * x)
    acc, rows = np.zeros(4, np.float32), []
    for _ in range(3):
        u = f32(acc.astype(np.float64) + t)
        acc = f32(u.astype(np.float64) - w)
        rows.append(f32(u.astype(np.float64) * x))
    yield Case("loop_captures", [node("Mul", ["x", "x"], ["t"]), loop_node(["M", "", "acc0"], ["acc", "ps"], body)], {"": 13},
               [Value("x", F32, x), Value("acc0", F32, np.zeros(4, np.float32))],
               [Value("acc", F32, acc), Value("ps", F32, np.array(rows, np.float32))],
               inits=[Value("M", I64, i64(3)), Value("w", F32, w)])
    # two carried values swapped each iteration (a body whose outputs are its inputs)
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("p_in", TensorProto.FLOAT, [4]),
                       ("q_in", TensorProto.FLOAT, [4])],
                      [("cond_out", TensorProto.BOOL, []), ("q_in", TensorProto.FLOAT, [4]), ("p_in", TensorProto.FLOAT, [4])])
    for m in (2, 3):
        p, q = (x, w) if m % 2 == 0 else (w, x)
        yield Case(f"loop_swap_{m}", [loop_node(["M", "", "x", "w"], ["p", "q"], body)], {"": 13},
                   [Value("x", F32, x), Value("w", F32, w)], [Value("p", F32, p), Value("q", F32, q)],
                   inits=[Value("M", I64, i64(m))])


def gen_loop_nesting():
    rng = seeded("loop_nesting")
    x = f32(rng.standard_normal(3))
    # a Loop in an If's branch (M an initializer of the main graph, read through the branch)
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Add", ["v_in", "v_in"], ["v_out"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("v_in", TensorProto.FLOAT, [3])],
                      [("cond_out", TensorProto.BOOL, []), ("v_out", TensorProto.FLOAT, [3])])
    then_g = branch("then", [loop_node(["M", "", "x"], ["t"], body, name="inner_loop")], [("t", TensorProto.FLOAT, [3])])
    else_g = branch("else", [node("Neg", ["x"], ["e"])], [("e", TensorProto.FLOAT, [3])])
    for taken in (True, False):
        want = f32(x.astype(np.float64) * 8) if taken else -x
        yield Case(f"loop_in_if_{'then' if taken else 'else'}", [if_node("c", then_g, else_g, ["z"])], {"": 13},
                   [Value("c", BOOL, np.array(taken)), Value("x", F32, x)], [Value("z", F32, want)],
                   inits=[Value("M", I64, i64(3))])
    # an If in a Loop's body, its cond computed from the iteration number: v + 1 on iterations 0 and 1, v * 2 after
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    lim = helper.make_tensor("lim", TensorProto.INT64, [], [2])
    then_g = branch("then", [node("Add", ["v_in", "one"], ["bt"])], [("bt", TensorProto.FLOAT, [3])])
    else_g = branch("else", [node("Mul", ["v_in", "two"], ["be"])], [("be", TensorProto.FLOAT, [3])])
    body = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Less", ["i", "lim"], ["early"]),
                               if_node("early", then_g, else_g, ["v_out"], name="inner_if")],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("v_in", TensorProto.FLOAT, [3])],
                      [("cond_out", TensorProto.BOOL, []), ("v_out", TensorProto.FLOAT, [3])], inits=[one, two, lim])
    v = x
    for i in range(4):
        v = f32(v.astype(np.float64) + 1) if i < 2 else f32(v.astype(np.float64) * 2)
    yield Case("loop_if_in_body", [loop_node(["M", "", "x"], ["v"], body)], {"": 13}, [Value("x", F32, x)],
               [Value("v", F32, v)], inits=[Value("M", I64, i64(4))])
    # a Loop in a Loop's body: the inner one adds x three times to the carried value, the outer runs it twice
    inner = body_graph("inner", [node("Identity", ["ci"], ["co"]), node("Add", ["w_in", "x"], ["w_out"])],
                       [("j", TensorProto.INT64, []), ("ci", TensorProto.BOOL, []), ("w_in", TensorProto.FLOAT, [3])],
                       [("co", TensorProto.BOOL, []), ("w_out", TensorProto.FLOAT, [3])])
    outer = body_graph("outer", [node("Identity", ["cond_in"], ["cond_out"]),
                                 loop_node(["N", "", "v_in"], ["v_out"], inner, name="inner_loop")],
                       [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("v_in", TensorProto.FLOAT, [3])],
                       [("cond_out", TensorProto.BOOL, []), ("v_out", TensorProto.FLOAT, [3])])
    v = np.zeros(3, np.float32)
    for _ in range(2 * 3):
        v = f32(v.astype(np.float64) + x)
    yield Case("loop_in_loop", [loop_node(["M", "", "v0"], ["v"], outer)], {"": 13},
               [Value("x", F32, x), Value("v0", F32, np.zeros(3, np.float32))], [Value("v", F32, v)],
               inits=[Value("M", I64, i64(2)), Value("N", I64, i64(3))])


def gen_loop_refused():
    acc0 = np.ones(3, np.float32)
    a = np.ones(3, np.float32)
    ins = [Value("c", BOOL, np.array(True)), Value("acc0", F32, acc0), Value("a", F32, a)]
    M = [Value("M", I64, i64(3))]

    def case(name, stage, keyword, loop_ins, body, outs=("y",), nodes=(), inputs=ins, inits=M, opset=13):
        c = refused(name, stage, keyword, list(nodes) + [loop_node(loop_ins, list(outs), body)], {"": opset}, inputs)
        c.inits = list(inits)
        return c

    yield case("loop_err_infinite", "load", "infinite", ["", "", "acc0"], acc_body(with_scan=False))
    yield case("loop_err_scan_without_m", "load", "scan", ["", "c", "acc0"], acc_body(), outs=("y", "s"))
    grow = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Concat", ["acc_in", "acc_in"], ["acc_out"], axis=0)],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [6])])
    yield case("loop_err_carried_shape", "load", "shape", ["M", "c", "acc0"], grow)
    yield case("loop_err_body_inputs", "load", "inputs", ["M", "c", "acc0"],
               body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Neg", ["a"], ["acc_out"])],
                          [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, [])],
                          [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [3])]))
    yield case("loop_err_body_outputs", "load", "outputs", ["M", "c", "acc0"], acc_body(with_scan=True))
    cast = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Cast", ["acc_in"], ["acc_out"], to=TensorProto.INT64)],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.INT64, [3])])
    yield case("loop_err_carried_dtype", "load", "dtype", ["M", "c", "acc0"], cast)
    fcond = body_graph("body", [node("Cast", ["cond_in"], ["cond_out"], to=TensorProto.FLOAT), node("Neg", ["acc_in"], ["acc_out"])],
                       [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                       [("cond_out", TensorProto.FLOAT, []), ("acc_out", TensorProto.FLOAT, [3])])
    yield case("loop_err_cond_out_dtype", "load", "dtype", ["M", "c", "acc0"], fcond)
    wrong_i = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Neg", ["acc_in"], ["acc_out"])],
                         [("i", TensorProto.FLOAT, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                         [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [3])])
    yield case("loop_err_iteration_dtype", "load", "dtype", ["M", "c", "acc0"], wrong_i)
    yield case("loop_err_m_elements", "load", "element", ["M", "c", "acc0"], acc_body(with_scan=False),
               inits=[Value("M", I64, i64([3, 4]))])
    yield case("loop_err_missing_body_output", "load", "output", ["M", "c", "acc0"],
               body_graph("body", [node("Identity", ["cond_in"], ["cond_out"])],
                          [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                          [("cond_out", TensorProto.BOOL, []), ("nowhere", TensorProto.FLOAT, [3])]))
    # bfloat16 carried values from 16 only
    bf = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Neg", ["v_in"], ["v_out"])],
                    [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("v_in", TensorProto.BFLOAT16, [2])],
                    [("cond_out", TensorProto.BOOL, []), ("v_out", TensorProto.BFLOAT16, [2])])
    c = case("loop_err_v13_bfloat16", "load", "dtype", ["M", "", "v0"], bf,
             inputs=[Value("v0", BF16, from_num(BF16, np.array([1.0, -2.0])))])
    c.outputs = [Value("y", BF16, None, shape=None)]
    yield c
    # a sequence carried value (Loop-13 allows them; minnx holds tensors)
    seq_t = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [3]))
    seq_body = helper.make_graph([node("Identity", ["cond_in"], ["cond_out"]), node("Identity", ["s_in"], ["s_out"])], "body",
                                 [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []),
                                  helper.make_value_info("s_in", seq_t)],
                                 [vi("cond_out", TensorProto.BOOL, []), helper.make_value_info("s_out", seq_t)])
    yield case("loop_err_sequence", "load", "sequence", ["M", "c", "acc0"], seq_body)
    # M computed from tensor data with scan outputs: its rows cannot be planned
    yield case("loop_err_m_from_data", "load", "constant", ["m2", "c", "acc0"], acc_body(), outs=("y", "s"),
               nodes=[node("Cast", ["a0"], ["m2"], to=TensorProto.INT64)],
               inputs=ins + [Value("a0", F32, np.array(3.0, np.float32))], inits=[])
    # cond ends the loop before M with scan outputs: the run fails
    stop = body_graph("body", [node("Less", ["i", "lim"], ["cond_out"]), node("Add", ["acc_in", "a"], ["acc_out"]),
                               node("Identity", ["acc_out"], ["scan"])],
                      [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                      [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [3]), ("scan", TensorProto.FLOAT, [3])],
                      inits=[helper.make_tensor("lim", TensorProto.INT64, [], [1])])
    yield case("loop_err_cond_ends_scan", "run", "cond", ["M", "c", "acc0"], stop, outs=("y", "s"))
    # a cond that stays true without M: the run stops at minnx's maximum
    yield case("loop_err_endless", "run", "maximum", ["", "c", "acc0"], acc_body(with_scan=False))
    # a body whose shapes change with the iteration number (Slice [0, i + 1) of a constant)
    one = helper.make_tensor("one", TensorProto.INT64, [1], [1])
    zero = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
    grow_i = body_graph("body", [node("Identity", ["cond_in"], ["cond_out"]), node("Unsqueeze", ["i", "zero"], ["st"]),
                                 node("Add", ["st", "one"], ["en"]), node("Slice", ["a", "zero", "en"], ["sl"]),
                                 node("ReduceSum", ["sl"], ["r"], keepdims=0), node("Add", ["acc_in", "r"], ["acc_out"])],
                        [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("acc_in", TensorProto.FLOAT, [3])],
                        [("cond_out", TensorProto.BOOL, []), ("acc_out", TensorProto.FLOAT, [3])], inits=[one, zero])
    yield case("loop_err_iteration_shape", "run", "iteration", ["M", "c", "acc0"], grow_i)


def gen_loop():
    yield from gen_loop_versions()
    yield from gen_loop_trip_counts()
    yield from gen_loop_conds()
    yield from gen_loop_dtypes()
    yield from gen_loop_iteration()
    yield from gen_loop_scopes()
    yield from gen_loop_nesting()
    yield from gen_loop_refused()
