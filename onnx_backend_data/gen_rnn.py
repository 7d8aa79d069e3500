"""rnn_ (ops/rnn/rnn.c): RNN 1, 7, 14, GRU 1, 3, 7, 14 and LSTM 1, 7, 14, every version x dtype
(float16, float, double), and per attribute: the directions, every activation function with and
without its alpha and beta, clip, sequence_lens (0 and full lengths among them), layout 1,
peepholes, input_forget, linear_before_reset, hidden_size taken from R, absent optional inputs and
outputs, the legacy output_sequence; and the refusals (shapes of W, R, B, P, initial_h; hidden_size
against R; unknown or miscounted activations; leftover activation_alpha; bad direction, layout,
clip; dtypes; attributes a version does not have; a sequence length out of range at run time).

The reference is float64 (numpy's elementwise operations, each matrix-vector row summed by math.fsum
and the activations by Python's math, so that no BLAS or SIMD code path of the machine changes a bit;
the spec's equations, rnn.h's reading of them: clip before each
gate's activation, LSTM's input_forget as f = 1 - i, a sequence's steps from its length on zero in
Y), rounded once into the dtype, compared within the tolerance of an inexact op."""
import math

import numpy as np

from generate import F16, F32, F64, I32, BF16, Case, Value, node, refused, seeded

VERSIONS = {"RNN": (1, 7, 14), "GRU": (1, 3, 7, 14), "LSTM": (1, 7, 14)}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
# alpha and beta each function takes, with their defaults (rnn.h)
TAKES = {"affine": (1.0, 0.0), "leakyrelu": (0.01, None), "thresholdedrelu": (1.0, None),
         "scaledtanh": (1.0, 1.0), "hardsigmoid": (0.2, 0.5), "elu": (1.0, None)}
ALL_ACTS = ["Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid",
            "Elu", "Softsign", "Softplus"]


def f32(v):
    return float(np.float32(v))


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def act1(n, x, a, b):
    """One activation on one float64 value (Python's math: the same bits on every machine, where numpy's
    float64 tanh and exp follow the CPU's SIMD code path)."""
    if n == "relu":
        return max(x, 0.0)
    if n == "tanh":
        return math.tanh(x)
    if n == "sigmoid":
        return sigmoid(x)
    if n == "affine":
        return a * x + b
    if n == "leakyrelu":
        return x if x >= 0 else a * x
    if n == "thresholdedrelu":
        return x if x >= a else 0.0
    if n == "scaledtanh":
        return a * math.tanh(b * x)
    if n == "hardsigmoid":
        return min(max(a * x + b, 0.0), 1.0)
    if n == "elu":
        return x if x >= 0 else a * math.expm1(x)
    if n == "softsign":
        return x / (1.0 + abs(x))
    assert n == "softplus"
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def act(name, x, a, b):
    return np.array([act1(name.lower(), float(v), a, b) for v in x])


def mv(m, v):
    """m @ v, each row's sum correctly rounded (math.fsum of the products): no BLAS, whose order
    depends on the machine."""
    return np.array([math.fsum(row * v) for row in m])


def resolve(acts, alphas, betas):
    """(name, alpha, beta) per activation: the values consumed in order by the functions taking them."""
    al, be, out = list(alphas or []), list(betas or []), []
    for n in acts:
        da, db = TAKES.get(n.lower(), (None, None))
        a = f32(al.pop(0)) if da is not None and al else f32(da or 0.0)
        b = f32(be.pop(0)) if db is not None and be else f32(db or 0.0)
        out.append((n, a, b))
    return out


def reference(op, x, w, r, b, lens, h0, c0, p, dirs, reverse, acts, clip, lbr, input_forget, layout):
    """float64 arrays in the ONNX layout of `layout`; returns Y, Y_h, Y_c (float64)."""
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    seq, batch, _ = x.shape
    hid = r.shape[2]
    g = GATES[op]
    per = len(DEFAULT_ACTS[op])
    y = np.zeros((seq, dirs, batch, hid))
    yh = np.zeros((dirs, batch, hid))
    yc = np.zeros((dirs, batch, hid))
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    for d in range(dirs):
        fa = [(lambda v, n=n, a=a, bb=bb: act(n, v, a, bb)) for n, a, bb in acts[d * per:(d + 1) * per]]
        rev = d == 1 if dirs == 2 else reverse
        wb = b[d, :g * hid] if b is not None else np.zeros(g * hid)
        rb = b[d, g * hid:] if b is not None else np.zeros(g * hid)
        for n in range(batch):
            ln = seq if lens is None else int(lens[n])
            h = h0[d, n].copy() if h0 is not None else np.zeros(hid)
            c = c0[d, n].copy() if c0 is not None else np.zeros(hid)
            for k in range(ln):
                t = ln - 1 - k if rev else k
                xw = mv(w[d], x[t, n])
                if op == "RNN":
                    h = fa[0](cl(xw + mv(r[d], h) + wb + rb))
                elif op == "GRU":
                    H = hid
                    z = fa[0](cl(xw[:H] + mv(r[d, :H], h) + wb[:H] + rb[:H]))
                    rr = fa[0](cl(xw[H:2 * H] + mv(r[d, H:2 * H], h) + wb[H:2 * H] + rb[H:2 * H]))
                    if lbr:
                        pre = xw[2 * H:] + rr * (mv(r[d, 2 * H:], h) + rb[2 * H:]) + wb[2 * H:]
                    else:
                        pre = xw[2 * H:] + mv(r[d, 2 * H:], rr * h) + wb[2 * H:] + rb[2 * H:]
                    hh = fa[1](cl(pre))
                    h = (1 - z) * hh + z * h
                else:
                    H = hid
                    pre = xw + mv(r[d], h) + wb + rb
                    pi = p[d, :H] if p is not None else 0.0
                    po = p[d, H:2 * H] if p is not None else 0.0
                    pf = p[d, 2 * H:] if p is not None else 0.0
                    i = fa[0](cl(pre[:H] + pi * c))
                    f = 1.0 - i if input_forget else fa[0](cl(pre[2 * H:3 * H] + pf * c))
                    cc = fa[1](cl(pre[3 * H:]))
                    c = f * c + i * cc
                    o = fa[0](cl(pre[H:2 * H] + po * c))
                    h = o * fa[2](c)
                y[t, d, n] = h
            yh[d, n] = h
            yc[d, n] = c
    if layout:
        return y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2), yc.transpose(1, 0, 2)
    return y, yh, yc


def store(dt, v):
    return np.asarray(v, np.float64).astype(dt.np)


def rnn_case(name, op, ver, dt=F32, seq=3, batch=2, inp=4, hid=3, direction=None, acts=None, alphas=None,
             betas=None, clip=None, lens=None, layout=0, bias=True, h0=True, c0=False, peep=False, input_forget=None,
             lbr=None, outs=("Y", "Y_h", "Y_c"), hidden_attr=True, output_sequence=None, wscale=0.6, xscale=1.5):
    rng = seeded(name)
    g = GATES[op]
    dirs = 2 if direction == "bidirectional" else 1
    xs = (batch, seq, inp) if layout else (seq, batch, inp)
    ss = (batch, dirs, hid) if layout else (dirs, batch, hid)
    x = store(dt, rng.uniform(-xscale, xscale, size=xs))
    w = store(dt, rng.uniform(-wscale, wscale, size=(dirs, g * hid, inp)))
    r = store(dt, rng.uniform(-wscale, wscale, size=(dirs, g * hid, hid)))
    bv = store(dt, rng.uniform(-0.5, 0.5, size=(dirs, 2 * g * hid))) if bias else None
    hv = store(dt, rng.uniform(-1, 1, size=ss)) if h0 else None
    cv = store(dt, rng.uniform(-1, 1, size=ss)) if c0 else None
    pv = store(dt, rng.uniform(-0.5, 0.5, size=(dirs, 3 * hid))) if peep else None
    lv = np.array(lens, np.int32) if lens is not None else None
    per = len(DEFAULT_ACTS[op])
    names = acts if acts is not None else DEFAULT_ACTS[op] * dirs
    if op == "RNN" and dirs == 1 and acts is not None and len(acts) == 2:
        names = acts[:1]
    resolved = resolve(names, alphas, betas)
    f = lambda a: None if a is None else a.astype(np.float64)
    y, yh, yc = reference(op, f(x), f(w), f(r), f(bv), lv, f(hv), f(cv), f(pv), dirs, direction == "reverse",
                          resolved, None if clip is None else f32(clip), lbr, input_forget, layout)
    attrs = {}
    if hidden_attr:
        attrs["hidden_size"] = hid
    for k, v in (("direction", direction), ("activations", acts), ("activation_alpha", alphas),
                 ("activation_beta", betas), ("clip", clip), ("linear_before_reset", lbr),
                 ("input_forget", input_forget), ("output_sequence", output_sequence)):
        if v is not None:
            attrs[k] = v
    if layout:
        attrs["layout"] = layout
    inputs, inits = [Value("x", dt, x)], [Value("w", dt, w), Value("r", dt, r)]
    names_in = ["x", "w", "r", "b" if bias else ""]
    if bias:
        inits.append(Value("b", dt, bv))
    tail = []
    if lv is not None:
        inputs.append(Value("seq_lens", I32, lv))
        tail.append("seq_lens")
    else:
        tail.append("")
    if h0:
        inputs.append(Value("h0", dt, hv))
    tail.append("h0" if h0 else "")
    if op == "LSTM":
        if c0:
            inputs.append(Value("c0", dt, cv))
        tail.append("c0" if c0 else "")
        if peep:
            inits.append(Value("p", dt, pv))
        tail.append("p" if peep else "")
    ins = names_in + tail
    while ins and ins[-1] == "":
        ins.pop()
    out_vals, out_names = [], []
    for k, (label, v) in enumerate((("Y", y), ("Y_h", yh), ("Y_c", yc))):
        if k == 2 and op != "LSTM":
            break
        if label in outs:
            nm = {"Y": "y", "Y_h": "y_h", "Y_c": "y_c"}[label]
            out_vals.append(Value(nm, dt, store(dt, v)))
            out_names.append(nm)
        else:
            out_names.append("")
    while out_names and out_names[-1] == "":
        out_names.pop()
    n = node(op, ins, out_names, **attrs)
    n.name = f"{op.lower()}_node"
    return Case(name, [n], {"": ver}, inputs, out_vals, inits)


def gen_versions():
    for op, vers in VERSIONS.items():
        for ver in vers:
            for dt in (F16, F32, F64):
                nm = f"rnn_{op.lower()}_v{ver}_{dt.name}"
                kw = {"c0": True} if op == "LSTM" else {}
                yield rnn_case(nm, op, ver, dt, **kw)
                yield rnn_case(nm + "_bidirectional", op, ver, dt, direction="bidirectional", seq=4, **kw)
        for ver in vers:
            if ver == 1 or (op == "GRU" and ver == 3):
                yield rnn_case(f"rnn_{op.lower()}_v{ver}_output_sequence", op, ver, output_sequence=1)


def gen_attrs():
    for op in VERSIONS:
        lo = op.lower()
        c0 = op == "LSTM"
        yield rnn_case(f"rnn_{lo}_reverse", op, 14, direction="reverse", c0=c0)
        yield rnn_case(f"rnn_{lo}_forward_named", op, 7, direction="forward", c0=c0)
        yield rnn_case(f"rnn_{lo}_defaults", op, 14, bias=False, h0=False)
        yield rnn_case(f"rnn_{lo}_no_hidden_size", op, 14, hidden_attr=False)
        yield rnn_case(f"rnn_{lo}_clip", op, 14, clip=0.7, wscale=1.5, xscale=3.0, c0=c0)
        yield rnn_case(f"rnn_{lo}_clip_bidirectional_f64", op, 14, F64, clip=1.25, wscale=1.5, xscale=3.0,
                       direction="bidirectional", c0=c0)
        for d in ("forward", "reverse", "bidirectional"):
            yield rnn_case(f"rnn_{lo}_seq_lens_{d}", op, 14, seq=5, batch=4, direction=d, lens=[5, 0, 3, 1], c0=c0)
        yield rnn_case(f"rnn_{lo}_seq_lens_f16", op, 7, F16, seq=4, batch=3, lens=[2, 4, 1], c0=c0)
        yield rnn_case(f"rnn_{lo}_layout1", op, 14, layout=1, c0=c0)
        yield rnn_case(f"rnn_{lo}_layout1_bidirectional_seq_lens", op, 14, layout=1, direction="bidirectional",
                       seq=4, batch=3, lens=[4, 2, 3], c0=c0)
        yield rnn_case(f"rnn_{lo}_only_y", op, 14, outs=("Y",), c0=c0)
        yield rnn_case(f"rnn_{lo}_only_y_h", op, 14, outs=("Y_h",), c0=c0)
        yield rnn_case(f"rnn_{lo}_one_step", op, 14, seq=1, batch=1, c0=c0)
        yield rnn_case(f"rnn_{lo}_wide", op, 14, seq=6, batch=16, inp=10, hid=12, direction="bidirectional",
                       c0=c0, wscale=0.3)
        yield rnn_case(f"rnn_{lo}_input_size1", op, 14, inp=1)
    # LSTM's own
    yield rnn_case("rnn_lstm_only_y_c", "LSTM", 14, outs=("Y_c",), c0=True)
    yield rnn_case("rnn_lstm_y_and_y_c", "LSTM", 14, outs=("Y", "Y_c"), c0=True)
    for ver in VERSIONS["LSTM"]:
        yield rnn_case(f"rnn_lstm_v{ver}_peepholes", "LSTM", ver, peep=True, c0=True)
        yield rnn_case(f"rnn_lstm_v{ver}_input_forget", "LSTM", ver, input_forget=1, c0=True)
    yield rnn_case("rnn_lstm_peepholes_bidirectional_f64", "LSTM", 14, F64, peep=True, c0=True,
                   direction="bidirectional")
    yield rnn_case("rnn_lstm_peepholes_f16", "LSTM", 14, F16, peep=True, c0=True)
    yield rnn_case("rnn_lstm_input_forget_peepholes_clip", "LSTM", 14, peep=True, c0=True, input_forget=1, clip=0.9,
                   wscale=1.5, xscale=3.0)
    yield rnn_case("rnn_lstm_input_forget0", "LSTM", 14, input_forget=0, c0=True)
    # GRU's own
    for ver in (3, 7, 14):
        yield rnn_case(f"rnn_gru_v{ver}_linear_before_reset", "GRU", ver, lbr=1)
    yield rnn_case("rnn_gru_linear_before_reset_bidirectional_f16", "GRU", 14, F16, lbr=1, direction="bidirectional")
    yield rnn_case("rnn_gru_linear_before_reset_f64_seq_lens", "GRU", 14, F64, lbr=1, seq=4, batch=3, lens=[1, 4, 0])
    yield rnn_case("rnn_gru_linear_before_reset0", "GRU", 14, lbr=0)


def gen_activations():
    for a in ALL_ACTS:
        lo = a.lower()
        yield rnn_case(f"rnn_act_rnn_{lo}", "RNN", 14, acts=[a], wscale=0.8)
        if a.lower() in TAKES:
            da, db = TAKES[a.lower()]
            alphas = [0.35 if lo != "thresholdedrelu" else 0.2]
            betas = [0.6] if db is not None else None
            yield rnn_case(f"rnn_act_rnn_{lo}_alpha_beta", "RNN", 14, acts=[a], alphas=alphas, betas=betas)
    yield rnn_case("rnn_act_rnn_default_pair", "RNN", 14, acts=["Relu", "Tanh"])  # the default's length, one direction
    yield rnn_case("rnn_act_rnn_bidirectional", "RNN", 14, direction="bidirectional", acts=["Softsign", "Elu"],
                   alphas=[0.5])
    yield rnn_case("rnn_act_lowercase", "GRU", 14, acts=["sigmoid", "TANH"])
    # alphas and betas consumed in order across functions and directions
    yield rnn_case("rnn_act_gru_bidirectional", "GRU", 14, direction="bidirectional",
                   acts=["HardSigmoid", "ScaledTanh", "Sigmoid", "LeakyRelu"], alphas=[0.3, 0.9, 0.05],
                   betas=[0.45, 1.2])
    yield rnn_case("rnn_act_gru_partial_alphas", "GRU", 14, acts=["HardSigmoid", "Affine"], alphas=[0.25])
    yield rnn_case("rnn_act_lstm", "LSTM", 14, acts=["HardSigmoid", "Softsign", "Softplus"], c0=True)
    yield rnn_case("rnn_act_lstm_bidirectional", "LSTM", 14, direction="bidirectional", c0=True,
                   acts=["Sigmoid", "Tanh", "Relu", "HardSigmoid", "Elu", "ScaledTanh"], alphas=[0.1, 0.7, 0.8],
                   betas=[0.55, 1.1])
    yield rnn_case("rnn_act_lstm_v1_f64", "LSTM", 1, F64, acts=["Sigmoid", "Affine", "ThresholdedRelu"],
                   alphas=[0.9, -0.2], betas=[0.1], c0=True)


def err_rnn(name, keyword, op, ver, shapes, dts=None, stage="load", outs=("y",), **attrs):
    """Inputs of the given shapes (None: omitted), all graph inputs."""
    rng = seeded(name)
    ins, names = [], []
    for k, s in enumerate(shapes):
        if s is None:
            names.append("")
            continue
        dt = (dts or {}).get(k, I32 if k == 4 else F32)
        nm = f"in{k}"
        if dt is I32:
            data = rng.integers(0, 3, size=s).astype(np.int32)
        elif dt is BF16:
            data = rng.integers(0, 1 << 15, size=s).astype(np.uint16)
        else:
            data = rng.uniform(-1, 1, size=s).astype(dt.np)
        ins.append(Value(nm, dt, data))
        names.append(nm)
    return refused(name, stage, keyword, [node(op, names, list(outs), **attrs)], {"": ver}, ins,
                   (dts or {}).get(0, F32))


def gen_rnn_err():
    X, H = (3, 2, 4), 3
    lstm = lambda: [X, (1, 4 * H, 4), (1, 4 * H, H)]
    yield err_rnn("rnn_err_lstm_w_shape", "shape", "LSTM", 14, [X, (1, 3 * H, 4), (1, 4 * H, H)], hidden_size=H)
    yield err_rnn("rnn_err_lstm_w_input_shape", "shape", "LSTM", 14, [X, (1, 4 * H, 5), (1, 4 * H, H)], hidden_size=H)
    yield err_rnn("rnn_err_gru_r_shape", "shape", "GRU", 14, [X, (1, 3 * H, 4), (1, 3 * H, H + 1)], hidden_size=H)
    yield err_rnn("rnn_err_rnn_b_shape", "shape", "RNN", 14, [X, (1, H, 4), (1, H, H), (1, H)], hidden_size=H)
    yield err_rnn("rnn_err_rnn_directions_shape", "shape", "RNN", 14, [X, (1, H, 4), (1, H, H)], hidden_size=H,
                  direction="bidirectional")
    yield err_rnn("rnn_err_lstm_hidden_size_shape", "shape", "LSTM", 14, lstm(), hidden_size=H + 1)
    yield err_rnn("rnn_err_lstm_p_shape", "shape", "LSTM", 14, lstm() + [None, None, None, None, (1, 4 * H)],
                  hidden_size=H)
    yield err_rnn("rnn_err_gru_initial_h_shape", "shape", "GRU", 14,
                  [X, (1, 3 * H, 4), (1, 3 * H, H), None, None, (1, 3, H)], hidden_size=H)
    yield err_rnn("rnn_err_gru_layout1_initial_h_shape", "shape", "GRU", 14,
                  [X, (1, 3 * H, 4), (1, 3 * H, H), None, None, (1, 2, H)], hidden_size=H, layout=1)
    yield err_rnn("rnn_err_rnn_x_rank_shape", "shape", "RNN", 14, [(3, 4), (1, H, 4), (1, H, H)], hidden_size=H)
    yield err_rnn("rnn_err_rnn_hidden_size_zero_attribute", "attribute", "RNN", 14, [X, (1, 0, 4), (1, 0, 0)],
                  hidden_size=0)
    yield err_rnn("rnn_err_lstm_unknown_activation_attribute", "attribute", "LSTM", 14, lstm(), hidden_size=H,
                  activations=["Sigmoid", "Tanh", "Swish"])
    yield err_rnn("rnn_err_lstm_activation_nul_byte_attribute", "attribute", "LSTM", 14, lstm(), hidden_size=H,
                  activations=[b"Sigmoid", b"Ta\x00nh", b"Tanh"])
    yield err_rnn("rnn_err_gru_activation_count_attribute", "attribute", "GRU", 14,
                  [X, (1, 3 * H, 4), (1, 3 * H, H)], hidden_size=H, activations=["Sigmoid", "Tanh", "Tanh"])
    yield err_rnn("rnn_err_rnn_alpha_left_over_attribute", "attribute", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  hidden_size=H, activations=["Tanh"], activation_alpha=[0.5])
    yield err_rnn("rnn_err_rnn_beta_left_over_attribute", "attribute", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  hidden_size=H, activations=["Elu"], activation_alpha=[0.5], activation_beta=[0.5])
    yield err_rnn("rnn_err_rnn_direction_attribute", "attribute", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  hidden_size=H, direction="backward")
    yield err_rnn("rnn_err_gru_v1_direction_foward_attribute", "attribute", "GRU", 1,
                  [X, (1, 3 * H, 4), (1, 3 * H, H)], outs=("y", "y_h"), hidden_size=H, direction="foward")
    yield err_rnn("rnn_err_lstm_layout2_attribute", "attribute", "LSTM", 14, lstm(), hidden_size=H, layout=2)
    yield err_rnn("rnn_err_lstm_v7_layout_attribute", "attribute", "LSTM", 7, lstm(), hidden_size=H, layout=0)
    yield err_rnn("rnn_err_gru_v1_linear_before_reset_attribute", "attribute", "GRU", 1,
                  [X, (1, 3 * H, 4), (1, 3 * H, H)], outs=("y", "y_h"), hidden_size=H, linear_before_reset=1)
    yield err_rnn("rnn_err_lstm_v7_output_sequence_attribute", "attribute", "LSTM", 7, lstm(), hidden_size=H,
                  output_sequence=1)
    yield err_rnn("rnn_err_rnn_input_forget_attribute", "attribute", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  hidden_size=H, input_forget=1)
    yield err_rnn("rnn_err_rnn_clip_negative_attribute", "attribute", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  hidden_size=H, clip=-1.0)
    yield err_rnn("rnn_err_rnn_int32_dtype", "dtype", "RNN", 14, [X, (1, H, 4), (1, H, H)],
                  dts={0: I32, 1: I32, 2: I32}, hidden_size=H)
    yield err_rnn("rnn_err_lstm_bfloat16_dtype", "dtype", "LSTM", 14, lstm(), dts={0: BF16, 1: BF16, 2: BF16},
                  hidden_size=H)
    yield err_rnn("rnn_err_gru_mixed_dtype", "dtype", "GRU", 14, [X, (1, 3 * H, 4), (1, 3 * H, H)],
                  dts={1: F64}, hidden_size=H)
    yield err_rnn("rnn_err_gru_v1_no_y_h_output", "output", "GRU", 1, [X, (1, 3 * H, 4), (1, 3 * H, H)],
                  hidden_size=H)
    # sequence lengths read at run time: out of range fails the run, naming the node
    for nm, lens in (("above", [3, 4]), ("negative", [-1, 2])):
        rng = seeded("rnn_err_seq_lens_" + nm)
        ins = [Value("x", F32, rng.uniform(-1, 1, size=X).astype(np.float32)),
               Value("w", F32, rng.uniform(-1, 1, size=(1, H, 4)).astype(np.float32)),
               Value("r", F32, rng.uniform(-1, 1, size=(1, H, H)).astype(np.float32)),
               Value("lens", I32, np.array(lens, np.int32))]
        yield refused(f"rnn_err_seq_lens_{nm}_index", "run", "index",
                      [node("RNN", ["x", "w", "r", "", "lens"], ["y"], hidden_size=H)], {"": 14}, ins)


def gen_rnn():
    yield from gen_versions()
    yield from gen_attrs()
    yield from gen_activations()
    yield from gen_rnn_err()
