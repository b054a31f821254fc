"""The Python side of the Parquet read benchmark (examples/parquet_bench.rs).

Usage:
  parquet_bench.py write PATH ROWS   writes a list<int64> column "tokens" of ROWS rows with
                                     0 to 20 values each (10 on average), as pyarrow writes
                                     by default (snappy), and prints the number of values
  parquet_bench.py time PATH RUNS    prints the best time in seconds of RUNS reads with
                                     pyarrow.parquet.read_table + ak.from_arrow

awkward's from_arrow asks pyarrow for pandas dtypes, which with pyarrow 22 needs pandas
installed; the benchmark installs it when it is missing (tests do not need it).
"""

import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

mode, path = sys.argv[1], sys.argv[2]
if mode == "write":
    rows = int(sys.argv[3])
    rng = np.random.default_rng(15)
    lengths = rng.integers(0, 21, rows)
    offsets = np.zeros(rows + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    values = pa.array(rng.integers(0, 50_000, int(offsets[-1])), pa.int64())
    tokens = pa.ListArray.from_arrays(pa.array(offsets), values)
    pq.write_table(pa.table({"tokens": tokens}), path)
    print(int(offsets[-1]))
else:
    import awkward as ak

    runs = int(sys.argv[3])
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        array = ak.from_arrow(pq.read_table(path))
        best = min(best, time.perf_counter() - start)
        del array
    print(best)
