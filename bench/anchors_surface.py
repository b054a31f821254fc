#!/usr/bin/env python3
"""The everyday TensorFlow operations that do real work, timed in TensorFlow and NumPy and, from
the same code, in ragtag.

    python bench/anchors_surface.py [N]            # the anchors' figures, as JSON
    python bench/anchors_surface.py --ragtag [N]   # the same program for `ragtag run -`
    python bench/anchors_surface.py --only pad_dense,matmul_500 [--ragtag] [N]   # some ops

The data is the shared workload's (N rows, lengths uniform in 0..=20, int64 values uniform in
-1000..1000, drawn from NumPy's default_rng(0), which ragtag reproduces) plus a dense
[1000, 10000] int64 tensor and two [500, 500] float32 matrices from the same generator.
Each operation is one line of TensorFlow code, run as it is in TensorFlow and in ragtag, and
where NumPy has the operation, one line of NumPy code. Each figure is the best of 5 runs after
one warm-up, in seconds. Output: {"N": …, "seconds": {op: {"tensorflow": s, "numpy": s}}}, or
with --ragtag the program that prints {"seconds": {op: {"ragtag": s}}}.
"""
import json
import os
import sys
import time

SETUP = """\
rng = np.random.default_rng(0)
lengths = rng.integers(0, 21, N)
values = rng.integers(-1000, 1000, int(np.sum(lengths)))
rt = tf.RaggedTensor.from_row_lengths(values, lengths)
vt = tf.constant(values)
rows = rt.value_rowids()
ids = tf.constant(rng.integers(0, 1000, int(np.sum(lengths))))
dense_np = rng.integers(-1000, 1000, (1000, 10000))
dense = tf.constant(dense_np)
a_np = rng.random((500, 500)).astype(np.float32)
b_np = rng.random((500, 500)).astype(np.float32)
a = tf.constant(a_np)
b = tf.constant(b_np)
st = tf.cast(rt, tf.float32).to_sparse()
m = tf.constant(rng.random((int(st.dense_shape[1]), 16)).astype(np.float32))
sorted_vt = tf.sort(vt)
sorted_np = np.sort(values)
queries_np = rng.integers(-1000, 1000, N)
queries = tf.constant(queries_np)
"""

# (key, TensorFlow code (run by ragtag too), NumPy code or None)
OPS = [
    ("sort_flat", "tf.sort(vt)", "np.sort(values)"),
    ("argsort_flat", "tf.argsort(vt, stable=True)", "np.argsort(values, kind='stable')"),
    ("top_k_rows", "tf.math.top_k(dense, k=10)", None),
    ("unique", "tf.unique(vt)", "np.unique(values)"),
    ("cumsum_ragged_axis1", "tf.cumsum(rt, axis=1)", None),
    ("split_dense", "tf.split(dense, 10, axis=1)", "[x.copy() for x in np.split(dense_np, 10, axis=1)]"),
    ("unstack_dense", "tf.unstack(dense)", "[x.copy() for x in dense_np]"),
    ("pad_dense", "tf.pad(dense, [[1, 1], [2, 2]])", "np.pad(dense_np, ((1, 1), (2, 2)))"),
    ("sequence_mask", "tf.sequence_mask(lengths)", "np.arange(20) < lengths[:, None]"),
    ("bincount", "tf.math.bincount(vt + 1000)", "np.bincount(values + 1000)"),
    ("segment_sum", "tf.math.segment_sum(vt, rows)", None),
    ("unsorted_segment_sum", "tf.math.unsorted_segment_sum(vt, ids, 1000)", None),
    ("matmul_500", "tf.matmul(a, b)", "a_np @ b_np"),
    ("einsum_500", "tf.einsum('ij,jk->ik', a, b)", "np.einsum('ij,jk->ik', a_np, b_np, optimize=True)"),
    ("sparse_dense_matmul", "tf.sparse.sparse_dense_matmul(st, m)", None),
    ("searchsorted", "tf.searchsorted(sorted_vt, queries)", "np.searchsorted(sorted_np, queries_np)"),
]

BEST = """\
def best(f):
    f()
    t = 1e9
    for _ in range(5):
        start = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - start)
    return t
"""


def ragtag_program(n, ops):
    lines = ["import json", "import time", "N = %d" % n, SETUP, BEST, "seconds = {}"]
    for key, tf_code, _ in ops:
        lines.append("seconds[%r] = {'ragtag': best(lambda: %s)}" % (key, tf_code))
    lines.append("print(json.dumps({'seconds': seconds}))")
    return "\n".join(lines) + "\n"


def main(argv):
    ragtag = "--ragtag" in argv
    args = [a for a in argv if a != "--ragtag"]
    ops = OPS
    if "--only" in args:
        i = args.index("--only")
        keys = args[i + 1].split(",") if i + 1 < len(args) else []
        unknown = [k for k in keys if k not in {op[0] for op in OPS}]
        if unknown or not keys:
            sys.exit("--only takes a comma-separated list of: " + ", ".join(op[0] for op in OPS))
        ops = [op for op in OPS if op[0] in keys]
        del args[i : i + 2]
    n = int(args[0]) if args else 1_000_000
    if ragtag:
        sys.stdout.write(ragtag_program(n, ops))
        return
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    scope = {"np": np, "tf": tf, "N": n, "time": time}
    exec(SETUP, scope)
    exec(BEST, scope)
    best = scope["best"]
    seconds = {}
    for key, tf_code, np_code in ops:
        seconds[key] = {"tensorflow": best(eval("lambda: " + tf_code, scope))}
        if np_code is not None:
            seconds[key]["numpy"] = best(eval("lambda: " + np_code, scope))
    json.dump({"N": n, "seconds": seconds}, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
