"""Writes .npy/.npz and JSON Lines files with NumPy, Awkward Array and Python's json into the
directory given, and prints a JSON manifest of what each holds, for tests/formats_numpy.rs
and tests/formats_json.rs to check ragtag's readers against.

Each manifest entry: {"file", "shape", "dtype" (ragtag's dtype), "values" (flat, row-major)}
for an array; "hex" instead of "values" for bytes arrays; {"file", "arrays": {name: entry}}
for an archive; {"file", "error": class} for a file ragtag must refuse; {"file", "field",
"rows"} for JSON Lines (the nested rows as Python lists).
"""

import json
import os
import sys

import awkward as ak
import numpy as np

out = sys.argv[1]
manifest = []


def path(name):
    return os.path.join(out, name)


def describe(arr, dtype):
    entry = {"shape": list(arr.shape), "dtype": dtype}
    flat = np.ascontiguousarray(arr).reshape(-1)
    if arr.dtype.kind == "S":
        entry["hex"] = [bytes(b).hex() for b in flat]
    else:
        entry["values"] = [v.item() if hasattr(v, "item") else v for v in flat]
        if arr.dtype.kind == "f":
            entry["values"] = [float(v) for v in entry["values"]]
    return entry


def npy(name, arr, dtype, **save):
    np.save(path(name), arr, **save)
    manifest.append({"file": name, **describe(arr, dtype)})


rng = np.random.default_rng(15)
for np_dtype, ragtag_dtype in [
    ("bool", "bool"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("uint8", "uint8"),
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("float16", "float16"),
    ("float32", "float32"),
    ("float64", "float64"),
]:
    info = np.iinfo(np_dtype) if np_dtype[0] in "iu" else None
    if np_dtype == "bool":
        arr = rng.integers(0, 2, size=(2, 3)).astype(bool)
    elif info is not None:
        hi = int(info.max)
        arr = np.array([[int(info.min), 0, 1], [hi, 7, int(info.min) + 1]], dtype=np_dtype)
    else:
        arr = (rng.standard_normal((2, 3)) * 1000).astype(np_dtype)
        arr[0, 0] = np.finfo(np_dtype).max
        arr[0, 1] = np.finfo(np_dtype).tiny
    npy(f"{np_dtype}.npy", arr, ragtag_dtype)

# Shapes: 0-d, 1-d, 3-d, empty.
npy("scalar.npy", np.array(3.25), "float64")
npy("vector.npy", np.arange(10, dtype=np.int64), "int64")
npy("cube.npy", np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 8, "float32")
npy("empty.npy", np.zeros((0, 3), dtype=np.int32), "int32")

# Fortran order and big-endian data.
fortran = np.asfortranarray(np.arange(24, dtype=np.int64).reshape(2, 3, 4) * 3 - 5)
npy("fortran.npy", fortran, "int64")
npy("fortran_f32.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(3, 2) + 0.5), "float32")
npy("big_endian_i4.npy", np.array([[1, -2], [300000, -4]], dtype=">i4"), "int32")
npy("big_endian_f8.npy", np.array([0.1, -1e300, 2.5], dtype=">f8"), "float64")
npy("big_endian_fortran.npy", np.asfortranarray(np.arange(6, dtype=">u2").reshape(2, 3)), "uint16")

# Strings: NumPy's str (<U, UTF-32) and bytes (|S), trailing NULs stripped.
npy("unicode.npy", np.array(["", "héllo", "✓ ok", "a"]), "string")
npy("unicode_2d.npy", np.array([["ab", "c"], ["déf", ""]]), "string")
npy("bytes.npy", np.array([b"", b"ab", b"\x00x", b"xyz"]), "string")
npy("unicode_big.npy", np.array(["big", "ünïcode"], dtype=">U7"), "string")

# The ragged pair, and an archive of several dtypes, stored and compressed.
values = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32)
row_splits = np.array([0, 3, 3, 7, 8], dtype=np.int64)
np.savez(path("pair.npz"), values=values, row_splits=row_splits)
manifest.append({
    "file": "pair.npz",
    "arrays": {
        "values": describe(values, "int32"),
        "row_splits": describe(row_splits, "int64"),
    },
})
mixed = {"ids": np.arange(5), "names": np.array(["x", "yy"]), "flags": np.array([True, False])}
np.savez_compressed(path("mixed.npz"), **mixed)
manifest.append({
    "file": "mixed.npz",
    "arrays": {
        "ids": describe(mixed["ids"], "int64"),
        "names": describe(mixed["names"], "string"),
        "flags": describe(mixed["flags"], "bool"),
    },
})
np.savez(path("positional.npz"), np.array([1.5]), np.array([[2, 3]]))
manifest.append({
    "file": "positional.npz",
    "arrays": {
        "arr_0": describe(np.array([1.5]), "float64"),
        "arr_1": describe(np.array([[2, 3]]), "int64"),
    },
})

# Files ragtag refuses, each with a clear error class.
np.save(path("object.npy"), np.array([[1, 2], [3]], dtype=object), allow_pickle=True)
manifest.append({"file": "object.npy", "error": "ValueError"})
np.save(path("complex.npy"), np.array([1 + 2j]))
manifest.append({"file": "complex.npy", "error": "TypeError"})
np.save(path("datetime.npy"), np.array(["2024-01-01"], dtype="datetime64[D]"))
manifest.append({"file": "datetime.npy", "error": "TypeError"})
npy("huge_uint64.npy", np.array([2**64 - 1], dtype=np.uint64), "uint64")
np.save(path("structured.npy"), np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")]))
manifest.append({"file": "structured.npy", "error": "ValueError"})

# JSON Lines: bare rows, records with a field, and Awkward Array's own writer.
rows = [[1, 2, 3], [], [4, 5]]
with open(path("rows.jsonl"), "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
manifest.append({"file": "rows.jsonl", "field": None, "rows": rows, "dtype": "int32"})
records = [
    {"id": 1, "tokens": ["the", "cat"], "score": 0.5},
    {"id": 2, "tokens": [], "score": 1e-7},
    {"id": 3, "tokens": ["a", "b", "ç"], "score": -2.25},
]
with open(path("records.jsonl"), "w") as f:
    for r in records:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
        f.write("\n")
manifest.append({"file": "records.jsonl", "field": "tokens", "rows": [r["tokens"] for r in records], "dtype": "string"})
manifest.append({"file": "records.jsonl", "field": "score", "rows": [r["score"] for r in records], "dtype": "float32"})
nested = ak.Array([[[1.5, 2.5], []], [], [[3.0], [4.0, 5.0, 6.0]]])
ak.to_json(nested, path("awkward.jsonl"), line_delimited=True)
manifest.append({"file": "awkward.jsonl", "field": None, "rows": ak.to_list(nested), "dtype": "float32"})
ak.to_json(nested, path("awkward.json"))
manifest.append({"file": "awkward.json", "field": None, "rows": ak.to_list(nested), "dtype": "float32", "whole": True})
points = ak.Array([{"x": [1, 2]}, {"x": []}, {"x": [3]}])
ak.to_json(points, path("awkward_records.jsonl"), line_delimited=True)
manifest.append({"file": "awkward_records.jsonl", "field": "x", "rows": ak.to_list(points["x"]), "dtype": "int32"})
with open(path("nulls.jsonl"), "w") as f:
    f.write(json.dumps({"t": [1, None]}) + "\n" + json.dumps({"t": [None, None]}) + "\n")
manifest.append({"file": "nulls.jsonl", "field": "t", "error": "ValueError"})

json.dump(manifest, sys.stdout)
