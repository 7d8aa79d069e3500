"""ONNX Runtime's session arguments, as minnx takes them: SessionOptions, the
two enums its fields use, and the providers list.

An option either maps onto minnx (intra_op_num_threads), or is accepted and
has no effect because minnx already does what it asks or it only tunes ONNX
Runtime's own machinery (graph optimizations, inter-op threads, arenas,
logging), or is refused with ValueError when a value asks for something minnx
does not do (profiling, saving an optimized model). An attribute ONNX Runtime
does not have either raises AttributeError, as there.
"""
import enum


class GraphOptimizationLevel(enum.IntEnum):
    """ONNX Runtime's levels (and numbers). minnx rewrites no graph (it folds
    Constant nodes, always): every level is accepted and has no effect."""
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(enum.IntEnum):
    """ONNX Runtime's modes. minnx runs nodes one after the other (threads split
    a node's work): ORT_PARALLEL is accepted and runs sequentially, as ONNX
    Runtime itself may."""
    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


def _count(name):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"SessionOptions.{name} must be an int, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"SessionOptions.{name}={v}: 0 (the default) or a number of threads")
        return v
    return check


def _kind(name, cls):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"SessionOptions.{name} must be a {cls.__name__}, not {type(v).__name__}")
        try:
            return cls(v)
        except ValueError:
            raise ValueError(f"SessionOptions.{name}={v}: not a {cls.__name__} "
                             f"({', '.join(f'{m.name}={m.value}' for m in cls)})") from None
    return check


def _flag(name):
    def check(v):
        if not isinstance(v, bool):
            raise TypeError(f"SessionOptions.{name} must be a bool, not {type(v).__name__}")
        return v
    return check


def _int(name):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"SessionOptions.{name} must be an int, not {type(v).__name__}")
        return v
    return check


def _text(name):
    def check(v):
        if not isinstance(v, str):
            raise TypeError(f"SessionOptions.{name} must be a str, not {type(v).__name__}")
        return v
    return check


def _refused_unless(name, allowed, why):
    def check(v):
        v = _flag(name)(v) if isinstance(allowed, bool) else _text(name)(v)
        if v != allowed:
            raise ValueError(f"SessionOptions.{name}={v!r}: {why}")
        return v
    return check


# name: (default, check). README's "Python" section lists what each does in minnx.
_OPTIONS = {
    "intra_op_num_threads": (0, _count("intra_op_num_threads")),
    "inter_op_num_threads": (0, _count("inter_op_num_threads")),
    "graph_optimization_level": (GraphOptimizationLevel.ORT_ENABLE_ALL,
                                 _kind("graph_optimization_level", GraphOptimizationLevel)),
    "execution_mode": (ExecutionMode.ORT_SEQUENTIAL, _kind("execution_mode", ExecutionMode)),
    "enable_cpu_mem_arena": (True, _flag("enable_cpu_mem_arena")),
    "enable_mem_pattern": (True, _flag("enable_mem_pattern")),
    "use_deterministic_compute": (False, _flag("use_deterministic_compute")),
    "log_severity_level": (2, _int("log_severity_level")),
    "log_verbosity_level": (0, _int("log_verbosity_level")),
    "logid": ("", _text("logid")),
    "enable_profiling": (False, _refused_unless("enable_profiling", False, "minnx has no profiler")),
    "profile_file_prefix": ("onnxruntime_profile_", _text("profile_file_prefix")),
    "optimized_model_filepath": ("", _refused_unless("optimized_model_filepath", "",
                                                     "minnx rewrites no graph, so it has no optimized model to save")),
}


class SessionOptions:
    """ONNX Runtime's SessionOptions: the same attribute names, defaults and
    types; each value is checked when it is set."""
    __slots__ = tuple(_OPTIONS)

    def __init__(self):
        for name, (default, _) in _OPTIONS.items():
            object.__setattr__(self, name, default)

    def __setattr__(self, name, value):
        if name not in _OPTIONS:
            raise AttributeError(f"SessionOptions has no option {name!r} (minnx takes: {', '.join(_OPTIONS)})")
        object.__setattr__(self, name, _OPTIONS[name][1](value))

    def _copy(self):
        c = SessionOptions()
        for name in _OPTIONS:
            object.__setattr__(c, name, getattr(self, name))
        return c

    def __repr__(self):
        changed = [f"{n}={getattr(self, n)!r}" for n, (d, _) in _OPTIONS.items() if getattr(self, n) != d]
        return f"SessionOptions({', '.join(changed)})"


CPU = "CPUExecutionProvider"


def check_providers(providers, provider_options):
    """ONNX Runtime's providers (names, or (name, options) tuples) and
    provider_options (one dict per provider): the CPU provider alone is
    accepted, with no options. Returns the providers the session uses."""
    if providers is None:
        if provider_options is not None:
            raise ValueError("provider_options given without providers")
        return [CPU]
    if isinstance(providers, (str, bytes)):
        raise TypeError("providers is a list of provider names or (name, options) tuples, not a str")
    providers = list(providers)
    names, options = [], []
    for p in providers:
        if isinstance(p, tuple):
            if len(p) != 2 or not isinstance(p[0], str) or not isinstance(p[1], dict):
                raise ValueError(f"provider {p!r}: a tuple is (name, options dict)")
            names.append(p[0])
            options.append(p[1])
        elif isinstance(p, str):
            names.append(p)
            options.append({})
        else:
            raise TypeError(f"provider {p!r}: a name or a (name, options) tuple, not {type(p).__name__}")
    if provider_options is not None:
        if any(isinstance(p, tuple) for p in providers):
            raise ValueError("providers holds (name, options) tuples: provider_options must then be None")
        provider_options = list(provider_options)
        if len(provider_options) != len(names):
            raise ValueError(f"{len(names)} providers but {len(provider_options)} provider_options: one dict each")
        options = provider_options
    for name, opts in zip(names, options):
        if name != CPU:
            raise ValueError(f"provider {name!r} is not available in minnx: it runs on the CPU only "
                             f"(providers: ['{CPU}'])")
        if not isinstance(opts, dict):
            raise TypeError(f"{CPU}'s options must be a dict, not {type(opts).__name__}")
        if opts:
            raise ValueError(f"{CPU} options {sorted(opts)}: minnx takes none (threads: "
                             f"SessionOptions.intra_op_num_threads)")
    return [CPU]  # (an empty list too: ONNX Runtime's default, its CPU provider, when no other is built)
