"""ctypes declarations of the C API (include/minnx.h) that the package uses.

The library is found through MINNX_LIBRARY (a path) when set, else through
_location.py, which the build writes beside this file (build tree) and the
install rules write again (installed tree), naming the library relative to
this folder.
"""
import ctypes
import os

MAX_RANK = 8


class Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int), ("dims", ctypes.c_int64 * MAX_RANK),
                ("data", ctypes.c_void_p), ("nbytes", ctypes.c_size_t)]


class ErrorStruct(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("message", ctypes.c_char * 256)]


def _library_path():
    path = os.environ.get("MINNX_LIBRARY")
    if path:
        return path
    from . import _location
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), _location.LIBRARY))


def _load():
    # CDLL (not PyDLL): ctypes releases the GIL around every call into it.
    lib = ctypes.CDLL(_library_path())
    p, sz, i, cp = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_char_p
    err = ctypes.POINTER(ErrorStruct)
    tensor = ctypes.POINTER(Tensor)
    signatures = {
        "minnx_version": (cp, []),
        "minnx_status_name": (cp, [i]),
        "minnx_dtype_name": (cp, [i]),
        "minnx_model_load_file": (i, [cp, p, ctypes.POINTER(p), err]),
        "minnx_model_load_buffer": (i, [cp, sz, p, ctypes.POINTER(p), err]),
        "minnx_model_free": (None, [p]),
        "minnx_model_input_count": (sz, [p]),
        "minnx_model_output_count": (sz, [p]),
        "minnx_model_input_name": (cp, [p, sz]),
        "minnx_model_output_name": (cp, [p, sz]),
        "minnx_model_input_info": (i, [p, sz, tensor]),
        "minnx_model_value_dim_param": (cp, [p, sz, i]),
        "minnx_model_value_count": (sz, [p]),
        "minnx_model_value_info": (i, [p, sz, ctypes.POINTER(cp), tensor]),
        "minnx_session_create": (i, [p, ctypes.POINTER(p), err]),
        "minnx_session_free": (None, [p]),
        "minnx_session_set_threads": (i, [p, sz, err]),
        "minnx_session_threads": (sz, [p]),
        "minnx_session_bind_input": (i, [p, sz, tensor, err]),
        "minnx_session_run": (i, [p, err]),
        "minnx_session_output": (i, [p, sz, tensor]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


lib = _load()
