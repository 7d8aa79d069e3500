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
from onnx import TensorProto, helper

from generate import BOOL, F32, I64, Case, Value, node, refused, seeded

VERSIONS = (1, 11, 13, 16, 19, 21)


def vi(name, elem=TensorProto.FLOAT, shape=None):
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


def gen_refused():
    x = np.ones((2,), np.float32)
    ins = [Value("c", BOOL, np.array([True])), Value("x", F32, x)]
    ok = branch("ok", [node("Neg", ["x"], ["o"])], [("o", TensorProto.FLOAT, [2])])

    def case(name, keyword, then_g, else_g=ok, nodes=(), cond="c", inputs=ins, outs=("y",)):
        return refused(name, "load", keyword, list(nodes) + [if_node(cond, then_g, else_g, list(outs))], {"": 13},
                       inputs)

    yield case("if_err_dtypes", "dtype",
               branch("t", [node("Cast", ["x"], ["t"], to=TensorProto.INT64)], [("t", TensorProto.INT64, [2])]))
    yield case("if_err_shapes", "shape",
               branch("t", [node("Concat", ["x", "x"], ["t"], axis=0)], [("t", TensorProto.FLOAT, [4])]))
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
    yield from gen_versions()
    yield from gen_scopes()
    yield from gen_multi()
    yield from gen_nested()
    yield from gen_computed_cond()
    yield from gen_refused()
