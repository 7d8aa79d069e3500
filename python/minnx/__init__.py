"""minnx for Python: the C library through ctypes, with numpy arrays.

    sess = minnx.InferenceSession("model.onnx")          # or the model's bytes
    [y] = sess.run(None, {"a": a, "b": b})               # a list of numpy arrays

Like ONNX Runtime's InferenceSession, so that its code ports by changing the
import: InferenceSession(path_or_bytes, sess_options=None, providers=None,
provider_options=None) takes a minnx.SessionOptions (ONNX Runtime's names;
intra_op_num_threads is the threads a run uses, README says what the others
do) and the providers list, where "CPUExecutionProvider" is the one there is;
get_inputs()/get_outputs() describe the graph's inputs and outputs (name,
shape with dim_param names or None, type as "tensor(float)"), run(output_names
or None, feeds) returns the outputs asked for, in that order; get_modelmeta(),
get_providers(), get_provider_options() and get_session_options() answer as
there. Errors are minnx.Error subclasses carrying the library's status name
(e.g. "shape") and its message; bad arguments raise ValueError or TypeError.

Inputs: a C-contiguous array in native byte order is bound as it is (no copy;
the session reads it while run() runs). Any other array (a slice with
strides, Fortran order, byte-swapped) is first copied into a contiguous
native one. float16 is numpy's float16. bfloat16 has no numpy dtype: inputs
and outputs are uint16 arrays of the bit patterns, unless ml_dtypes is
importable, whose bfloat16 dtype is then accepted and returned.

The GIL: the library is loaded with ctypes.CDLL, which releases the GIL for
the duration of every call, so other Python threads run while a session
runs. One session runs one call at a time (a lock serializes run() on it);
sessions on one model may run on many threads at once.
"""
import ctypes
import mmap
import os
import threading

import numpy as np

from ._capi import ErrorStruct, MAX_RANK, Tensor, lib
from ._metadata import ModelMetadata, read_metadata
from ._options import CPU, ExecutionMode, GraphOptimizationLevel, SessionOptions, check_providers

__all__ = ["InferenceSession", "SessionOptions", "GraphOptimizationLevel", "ExecutionMode", "ModelMetadata",
           "get_available_providers", "NodeArg", "Error", "ArgumentError", "NoMemoryError", "FileError", "ParseError",
           "ModelError", "UnsupportedError", "DtypeError", "ShapeError", "LimitError", "FeatureError",
           "get_version", "__version__"]


def get_version():
    """The loaded library's version, e.g. "0.1.0"."""
    return lib.minnx_version().decode()


__version__ = get_version()


def get_available_providers():
    """ONNX Runtime's list of execution providers: minnx has the CPU one."""
    return [CPU]


class Error(Exception):
    """A minnx failure: status is the C status name ("shape", "type", ...), message its text."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class ArgumentError(Error):
    """MINNX_E_ARG: an unknown input or output name, an unbound input, a bad argument."""


class NoMemoryError(Error):
    """MINNX_E_NOMEM."""


class FileError(Error):
    """MINNX_E_IO: the model file cannot be read."""


class ParseError(Error):
    """MINNX_E_PARSE: bytes that are not an ONNX model."""


class ModelError(Error):
    """MINNX_E_MODEL: a model that breaks a structural rule."""


class UnsupportedError(Error):
    """MINNX_E_UNSUPPORTED: an operator (or version) minnx does not implement."""


class DtypeError(Error):
    """MINNX_E_TYPE: a dtype not allowed where it is used (an input array's included)."""


class ShapeError(Error):
    """MINNX_E_SHAPE: shapes that do not fit."""


class LimitError(Error):
    """MINNX_E_LIMIT: a size beyond minnx's limits."""


class FeatureError(Error):
    """MINNX_E_FEATURE: a model feature minnx does not support."""


# Index = the C status number.
_ERRORS = [None, ArgumentError, NoMemoryError, FileError, ParseError, ModelError, UnsupportedError, DtypeError,
           ShapeError, LimitError, FeatureError]


def _status_name(code):
    return lib.minnx_status_name(code).decode()


def _raise(err):
    cls = _ERRORS[err.status] if 0 < err.status < len(_ERRORS) else Error
    raise cls(_status_name(err.status), err.message.decode(errors="replace"))


def _fail(cls, code, message):
    raise cls(_status_name(code), message)


try:  # a real bfloat16 dtype, when the machine has one
    from ml_dtypes import bfloat16 as _bfloat16
    _BF16 = np.dtype(_bfloat16)
except ImportError:
    _BF16 = None

# C dtype number -> numpy dtype (bfloat16 as its bit patterns unless ml_dtypes is there).
_NUMPY = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64, 9: np.bool_,
          10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64, 16: _BF16 or np.uint16}
_NUMPY = {k: np.dtype(v) for k, v in _NUMPY.items()}
_BY_NUMPY = {v: k for k, v in _NUMPY.items() if k != 16}
if _BF16 is not None:
    _BY_NUMPY[_BF16] = 16
_BFLOAT16, _UINT16 = 16, 4


class NodeArg:
    """A graph input or output: name, shape (ints, dim_param names, or None), type ("tensor(float)")."""

    def __init__(self, name, shape, type_):
        self.name, self.shape, self.type = name, shape, type_

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


def _tensor_shape(t):
    return None if t.rank < 0 else [None if d < 0 else int(d) for d in t.dims[:t.rank]]


def contiguous_input(array):
    """The array as minnx reads it: the same object when it is C-contiguous in
    native byte order (bound without a copy), else a contiguous native copy."""
    a = np.asarray(array)
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def _session_threads(sess_options, threads):
    """The threads a session runs on, from threads= (minnx's own keyword) or
    sess_options.intra_op_num_threads (0, its default: the calling thread
    only, as minnx starts no thread unasked; ONNX Runtime's 0 is one per core)."""
    if sess_options is not None and not isinstance(sess_options, SessionOptions):
        raise TypeError(f"sess_options must be a minnx.SessionOptions, not {type(sess_options).__name__}")
    intra = sess_options.intra_op_num_threads if sess_options is not None else 0
    if threads is None:
        return intra or 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads={threads}: a session runs on 1 or more threads (None: 1, the calling one)")
    if intra and intra != threads:
        raise ValueError(f"threads={threads} but sess_options.intra_op_num_threads={intra}: give one of them")
    return threads


class InferenceSession:
    """A model loaded from a path or from bytes, with one session on it."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, *, threads=None):
        threads = _session_threads(sess_options, threads)
        self._providers = check_providers(providers, provider_options)
        self._options = sess_options._copy() if sess_options is not None else SessionOptions()
        if threads > 1:  # (threads= given alone): the options say it too
            self._options.intra_op_num_threads = threads
        self._metadata = None
        self._model = ctypes.c_void_p()
        self._session = ctypes.c_void_p()
        self._lock = threading.Lock()
        err = ErrorStruct()
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
            self._source = data  # (kept for get_modelmeta: for bytes, the caller's own object)
            st = lib.minnx_model_load_buffer(data, len(data), None, ctypes.byref(self._model), ctypes.byref(err))
        elif isinstance(path_or_bytes, (str, os.PathLike)):
            self._source = os.fspath(path_or_bytes)
            st = lib.minnx_model_load_file(os.fsencode(path_or_bytes), None, ctypes.byref(self._model),
                                           ctypes.byref(err))
        else:
            raise TypeError(f"InferenceSession takes a path or bytes, not {type(path_or_bytes).__name__}")
        if st:
            _raise(err)
        if lib.minnx_session_create(self._model, ctypes.byref(self._session), ctypes.byref(err)) or (
                threads > 1 and lib.minnx_session_set_threads(self._session, threads, ctypes.byref(err))):
            self.close()
            _raise(err)
        self._inputs = [self._input_arg(i) for i in range(lib.minnx_model_input_count(self._model))]
        self._outputs = [self._output_arg(i) for i in range(lib.minnx_model_output_count(self._model))]
        self._input_index = {a.name: i for i, a in enumerate(self._inputs)}
        self._output_index = {a.name: i for i, a in enumerate(self._outputs)}

    def _value_arg(self, name):
        """A NodeArg from the value's inferred dtype and shape, dims unknown
        at load named by the model's dim_param where it declares one."""
        t = Tensor()
        vname = ctypes.c_char_p()
        for v in range(lib.minnx_model_value_count(self._model)):
            lib.minnx_model_value_info(self._model, v, ctypes.byref(vname), ctypes.byref(t))
            if vname.value == name:
                break
        shape = _tensor_shape(t)
        for d in range(len(shape or [])):
            param = lib.minnx_model_value_dim_param(self._model, v, d)
            if shape[d] is None and param is not None:
                shape[d] = param.decode()
        return NodeArg(name.decode(), shape, self._type(t.dtype))

    def _input_arg(self, i):
        return self._value_arg(lib.minnx_model_input_name(self._model, i))

    def _output_arg(self, i):
        return self._value_arg(lib.minnx_model_output_name(self._model, i))

    @staticmethod
    def _type(dtype):
        return f"tensor({lib.minnx_dtype_name(dtype).decode()})"

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_providers(self):
        """The execution providers the session uses: ["CPUExecutionProvider"]."""
        return list(self._providers)

    def get_provider_options(self):
        """Each provider's options, by name, as ONNX Runtime gives them: the CPU provider has none here."""
        return {p: {} for p in self._providers}

    def get_session_options(self):
        """A copy of the options the session was made with (intra_op_num_threads: the threads it runs on,
        when more than one); changing it changes nothing in the session."""
        return self._options._copy()

    def get_modelmeta(self):
        """The model's ModelMetadata, read from its bytes when first asked (from a path: the file, again)."""
        if self._metadata is None:
            if isinstance(self._source, bytes):
                self._metadata = read_metadata(self._source)
            else:
                with open(self._source, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                    self._metadata = read_metadata(m)
        return self._metadata

    @property
    def threads(self):
        """The threads this session's runs split their work over (1: the calling one)."""
        return lib.minnx_session_threads(self._session)

    def close(self):
        """Releases the session and the model (also done when the object is collected)."""
        if getattr(self, "_session", None):
            lib.minnx_session_free(self._session)
            self._session = None
        if getattr(self, "_model", None):
            lib.minnx_model_free(self._model)
            self._model = None

    def __del__(self):
        self.close()

    def _bind(self, index, array, err):
        arg = self._inputs[index]
        a = contiguous_input(array)
        dtype = _BY_NUMPY.get(a.dtype)
        if dtype is None:
            _fail(DtypeError, 7, f"input '{arg.name}': numpy dtype {a.dtype} has no ONNX counterpart minnx handles")
        if dtype == _UINT16 and arg.type == "tensor(bfloat16)":
            dtype = _BFLOAT16  # bfloat16 as its bit patterns
        if a.ndim > MAX_RANK:
            _fail(LimitError, 9, f"input '{arg.name}': rank {a.ndim}, above minnx's maximum {MAX_RANK}")
        t = Tensor(dtype, a.ndim, (ctypes.c_int64 * MAX_RANK)(*a.shape), a.ctypes.data, a.nbytes)
        if lib.minnx_session_bind_input(self._session, index, ctypes.byref(t), ctypes.byref(err)):
            _raise(err)
        return a

    def run(self, output_names, input_feed, run_options=None):
        """Binds input_feed ({name: array}), runs, returns the outputs named (None: all) as new arrays."""
        if run_options is not None:
            raise ValueError("minnx has no run options")
        if output_names is None:
            wanted = list(range(len(self._outputs)))
        else:
            wanted = []
            for name in output_names:
                if name not in self._output_index:
                    _fail(ArgumentError, 1, f"the model has no output named '{name}' (outputs: "
                          f"{', '.join(a.name for a in self._outputs)})")
                wanted.append(self._output_index[name])
        for name in input_feed:
            if name not in self._input_index:
                _fail(ArgumentError, 1, f"the model has no input named '{name}' (inputs: "
                      f"{', '.join(a.name for a in self._inputs)})")
        missing = [a.name for a in self._inputs if a.name not in input_feed]
        if missing:
            _fail(ArgumentError, 1, f"no value given for input(s) {', '.join(missing)}")
        with self._lock:
            if not self._session:
                raise ValueError("the session is closed")
            err = ErrorStruct()
            # The arrays bound stay referenced here until the run has returned.
            bound = [self._bind(self._input_index[n], a, err) for n, a in input_feed.items()]
            if lib.minnx_session_run(self._session, ctypes.byref(err)):
                _raise(err)
            del bound
            return [self._output(k) for k in wanted]

    def _output(self, k):
        t = Tensor()
        lib.minnx_session_output(self._session, k, ctypes.byref(t))
        out = np.empty([int(d) for d in t.dims[:t.rank]], dtype=_NUMPY[t.dtype])
        if t.nbytes:
            ctypes.memmove(out.ctypes.data, t.data, t.nbytes)
        return out
