#!/usr/bin/env python3
"""Fills in TensorFlow's answers for ragtag test cases.

usage: tools/tf_answers.py [--check] CASES.jsonl ...

Each line of a cases file is a JSON object with an "id", a "from" (the TensorFlow test it comes
from, e.g. "ragged_getitem_test.py::testWithRaggedRank1"), a "program" in ragtag's language and
optionally "about". The program is Python, so this script runs it with real TensorFlow (and
NumPy as `np`), one top-level statement at a time, and writes what each statement shows into
the case's "expected" list, in the JSON form of `ragtag run --format json` (DESIGN.md):

- a bare expression statement shows its value (None included, as {"kind": "none"}, except
  the None of a `print(...)` call);
- `print(...)` shows {"kind": "print", "text": ...} with the text it wrote (consecutive prints
  join into one);
- an uncaught exception shows {"kind": "error", "error": CLASS} and ends the program.

Files are rewritten in place (one case per line, keys in a stable order). With --check nothing
is written; the script exits 1 when any stored answer differs from TensorFlow's. cargo test
replays the stored answers without TensorFlow (tests/conformance.rs).

Needs TensorFlow: `python3 -m venv /tmp/tf && /tmp/tf/bin/pip install tensorflow==2.21.0`,
then run this script with /tmp/tf/bin/python.
"""
import math
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_answers  # noqa: E402

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

KEY_ORDER = ["id", "from", "about", "program", "expected"]


def scalar(x):
    """One element as JSON: floats' NaN and infinities as strings, bytes as text."""
    if isinstance(x, (bytes, np.bytes_)):
        return bytes(x).decode("utf-8", errors="backslashreplace")
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return [scalar(v) for v in x]
    if isinstance(x, np.ndarray):
        return [scalar(v) for v in x.tolist()] if x.ndim else scalar(x.item())
    if isinstance(x, tf.RaggedTensor):
        return scalar(x.to_list())
    if tf.is_tensor(x):
        return scalar(x.numpy())
    return repr(x)


def shape_list(shape):
    return None if shape.rank is None else shape.as_list()


def plain(v):
    """A value inside a Python list or dict."""
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (tf.SparseTensor, tf.TensorShape, tf.DType, dict)):
        return show(v)  # ragtag shows these inside a list as their own objects
    return scalar(v)


def show(v):
    """The JSON object ragtag shows for a value."""
    if v is None:
        return {"kind": "none"}
    if isinstance(v, (bool, np.bool_)) and not isinstance(v, np.ndarray):
        return {"kind": "bool", "value": bool(v)}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": scalar(v)}
    if isinstance(v, str):
        return {"kind": "str", "value": v}
    if isinstance(v, bytes):
        return {"kind": "bytes", "value": scalar(v)}
    if isinstance(v, tf.RaggedTensor):
        return {"kind": "ragged", "dtype": v.dtype.name, "shape": shape_list(v.shape),
                "ragged_rank": v.ragged_rank, "value": scalar(v.to_list())}
    if isinstance(v, tf.SparseTensor):
        return {"kind": "sparse", "dtype": v.dtype.name, "indices": scalar(v.indices),
                "values": scalar(v.values), "dense_shape": scalar(v.dense_shape)}
    if isinstance(v, tf.TensorShape):
        return {"kind": "shape", "value": shape_list(v)}
    if isinstance(v, tf.DType):
        return {"kind": "dtype", "value": v.name}
    if tf.is_tensor(v):
        return {"kind": "tensor", "dtype": v.dtype.name, "shape": shape_list(v.shape),
                "value": scalar(v.numpy())}
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        dtype = "object" if a.dtype == object else a.dtype.name
        if a.dtype.kind == "S":
            dtype = "bytes"
        return {"kind": "ndarray", "dtype": dtype, "shape": list(a.shape), "value": scalar(a)}
    if isinstance(v, list):
        return {"kind": "list", "value": plain(v)}
    if isinstance(v, tuple):
        return {"kind": "tuple", "value": [show(x) for x in v]}
    if isinstance(v, dict):
        return {"kind": "dict", "value": {str(k): show(x) for k, x in v.items()}}
    return {"kind": "object", "type": type(v).__name__}


def answers(program):
    """Runs `program` statement by statement; what each shows."""
    return case_answers.answers(program, show, {"tf": tf, "np": np})


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files:
        print(__doc__)
        return 2
    return case_answers.rewrite(files, check, answers, KEY_ORDER)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
