#!/usr/bin/env python3
"""ragtag's own anchors for Paddle's sequence ops, beside the shared workload's anchors.

The rows are the shared workload's (N sequences, lengths uniform in 0..=20, values uniform in
-1000..1000), as float32: Paddle's sequence ops take float data of shape [total, 1] with a
1-level LoD. Each op is timed in the framework that runs here:

  sequence_pool_sum   Paddle: static.nn.sequence_pool(x, 'sum')
                      TensorFlow: reduce_sum(rt, axis=1)      Awkward: ak.sum(a, axis=1)
  sequence_pool_max   Paddle: static.nn.sequence_pool(x, 'max')
                      TensorFlow: reduce_max(rt, axis=1)      Awkward: ak.max(a, axis=1)
  sequence_pad        Paddle: static.nn.sequence_pad(x, 0.0)   (the batch and the lengths)
                      TensorFlow: rt.to_tensor(), rt.row_lengths()
                      Awkward: ak.fill_none(ak.pad_none(a, max, axis=1), 0), ak.num(a)

TensorFlow and Awkward Array come from the anchors' environment; Paddle 2.6 needs NumPy < 2,
so it runs in an environment of its own (bench/compare.sh runs this script a second time with
PADDLE_PYTHON). Each figure is the best of 5 runs after one warm-up, in seconds, as the shared
anchors measure. Output: {"N": …, "seconds": {op: {"tensorflow": s, "awkward": s}}} or
{op: {"paddle": s}} — whichever frameworks import.

    python bench/anchors_sequence.py [N]
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
from timing import best  # noqa: E402


def tensorflow(lengths, vals, seconds):
    try:
        import tensorflow as tf
    except ImportError:
        return
    rt = tf.RaggedTensor.from_row_lengths(tf.constant(vals), tf.constant(lengths))
    put = lambda op, t: seconds.setdefault(op, {}).__setitem__("tensorflow", t)
    put("sequence_pool_sum", best(lambda: tf.reduce_sum(rt, axis=1).numpy()))
    put("sequence_pool_max", best(lambda: tf.reduce_max(rt, axis=1).numpy()))
    put("sequence_pad", best(lambda: (rt.to_tensor().numpy(), rt.row_lengths().numpy())))


def awkward(lengths, vals, seconds):
    try:
        import awkward as ak
    except ImportError:
        return
    a = ak.unflatten(vals, lengths)
    longest = int(lengths.max())
    put = lambda op, t: seconds.setdefault(op, {}).__setitem__("awkward", t)
    put("sequence_pool_sum", best(lambda: ak.sum(a, axis=1)))
    put("sequence_pool_max", best(lambda: ak.fill_none(ak.max(a, axis=1), 0)))
    put("sequence_pad", best(lambda: (
        ak.to_numpy(ak.fill_none(ak.pad_none(a, longest, axis=1, clip=True), 0)),
        ak.to_numpy(ak.num(a)))))


def paddle(lengths, vals, seconds):
    try:
        import paddle
    except ImportError:
        return
    paddle.enable_static()
    place = paddle.CPUPlace()
    x_lod = paddle.base.create_lod_tensor(vals.reshape(-1, 1), [lengths.tolist()], place)
    exe = paddle.static.Executor(place)
    for op, build in [
        ("sequence_pool_sum", lambda x: [paddle.static.nn.sequence_pool(x, "sum")]),
        ("sequence_pool_max", lambda x: [paddle.static.nn.sequence_pool(x, "max")]),
        ("sequence_pad", lambda x: list(paddle.static.nn.sequence_pad(
            x, paddle.assign(np.zeros([1], np.float32))))),
    ]:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 1], "float32", lod_level=1)
            fetch = build(x)
        exe.run(startup)
        run = lambda: exe.run(main, feed={"x": x_lod}, fetch_list=fetch, return_numpy=False)
        seconds.setdefault(op, {})["paddle"] = best(run)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 21, n).astype(np.int64)
    vals = rng.integers(-1000, 1000, int(lengths.sum())).astype(np.float32)
    seconds = {}
    for framework in (tensorflow, awkward, paddle):
        framework(lengths, vals, seconds)
    json.dump({"N": n, "seconds": seconds}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
