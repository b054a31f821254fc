#!/usr/bin/env python3
"""The anchors of ragtag's file benchmark: reading and writing Parquet, Arrow IPC and .npy in
pyarrow, Awkward Array and NumPy, on files this script writes into DIR for ragtag to read too.

    python bench/anchors_files.py DIR [N]     (N values, default 10,000,000)

Workload (bench/files.rag times the same keys in ragtag):
  values   an int64 column of N values uniform in -1000..1000 (flat)
  words    a list<string> column of N / 10 rows, lengths uniform in 0..=10, words drawn from
           a 1,000-word vocabulary of 3 to 10 letters
  parquet_read_int64     pyarrow.parquet.read_table → NumPy  · ak.from_parquet
  parquet_write_int64    pyarrow.parquet.write_table          · ak.to_parquet
  parquet_read_strings   pyarrow.parquet.read_table            · ak.from_parquet
  parquet_write_strings  pyarrow.parquet.write_table          · ak.to_parquet
  arrow_read_int64       pyarrow.ipc file reader → NumPy (memory-mapped files are not used)
  arrow_write_int64      pyarrow.ipc file writer
  npy_read_int64         np.load
  npy_write_int64        np.save
Each figure is the best of 5 runs after one warm-up, in seconds. The files ragtag reads are
the ones written here with each library's defaults (Parquet: snappy, one row group per
1,048,576 rows as pyarrow chooses). Output: {"N": …, "seconds": {op: {"pyarrow": s,
"awkward": s, "numpy": s}}}.

Needs pyarrow, awkward and NumPy (tests/formats/requirements.txt; target/formats-venv).
"""
import json
import os
import sys

import numpy as np
from timing import best
import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet as pq

try:
    import awkward as ak
except ImportError:
    ak = None


def main():
    out_dir = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(0)
    values = rng.integers(-1000, 1000, n).astype(np.int64)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocab = ["".join(rng.choice(letters, k)) for k in rng.integers(3, 11, 1000)]
    lengths = rng.integers(0, 11, n // 10)
    flat = np.array(vocab, dtype=object)[rng.integers(0, 1000, int(lengths.sum()))]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    words = pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, type=pa.string()))
    ints = pa.table({"values": values})
    strs = pa.table({"words": words})
    path = lambda name: os.path.join(out_dir, name)
    pq.write_table(ints, path("values.parquet"))
    pq.write_table(strs, path("words.parquet"))
    with pa.OSFile(path("values.arrow"), "wb") as sink, pa.ipc.new_file(sink, ints.schema) as w:
        w.write_table(ints)
    np.save(path("values.npy"), values)

    seconds = {}
    put = lambda op, who, t: seconds.setdefault(op, {}).__setitem__(who, t)
    scratch = path("scratch")
    put("parquet_read_int64", "pyarrow",
        best(lambda: pq.read_table(path("values.parquet")).column(0).to_numpy()))
    put("parquet_write_int64", "pyarrow", best(lambda: pq.write_table(ints, scratch)))
    put("parquet_read_strings", "pyarrow", best(lambda: pq.read_table(path("words.parquet"))))
    put("parquet_write_strings", "pyarrow", best(lambda: pq.write_table(strs, scratch)))

    def read_arrow():
        with pa.OSFile(path("values.arrow"), "rb") as f:
            return pa.ipc.open_file(f).read_all().column(0).to_numpy()

    def write_arrow():
        with pa.OSFile(scratch, "wb") as sink, pa.ipc.new_file(sink, ints.schema) as w:
            w.write_table(ints)

    put("arrow_read_int64", "pyarrow", best(read_arrow))
    put("arrow_write_int64", "pyarrow", best(write_arrow))
    put("npy_read_int64", "numpy", best(lambda: np.load(path("values.npy"))))
    put("npy_write_int64", "numpy", best(lambda: np.save(scratch + ".npy", values)))
    if ak is not None:
        a_ints = ak.from_parquet(path("values.parquet"))
        a_strs = ak.from_parquet(path("words.parquet"))
        put("parquet_read_int64", "awkward", best(lambda: ak.from_parquet(path("values.parquet"))))
        put("parquet_write_int64", "awkward", best(lambda: ak.to_parquet(a_ints, scratch)))
        put("parquet_read_strings", "awkward", best(lambda: ak.from_parquet(path("words.parquet"))))
        put("parquet_write_strings", "awkward", best(lambda: ak.to_parquet(a_strs, scratch)))
    for leftover in (scratch, scratch + ".npy"):
        if os.path.exists(leftover):
            os.remove(leftover)
    json.dump({"N": n, "seconds": seconds}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
