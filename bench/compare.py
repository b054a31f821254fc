#!/usr/bin/env python3
"""Prints the comparison table of bench/compare.sh from the anchors' JSON, ragtag's JSON and
the peak RSS (KiB) of ragtag's benchmark."""

import json
import math
import os
import platform
import sys


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    anchors = json.load(open(sys.argv[1]))
    ours = json.load(open(sys.argv[2]))
    rss_kib = int(open(sys.argv[3]).read().split()[-1])
    # Further anchors (bench/anchors_sequence.py's, once per interpreter) add their figures.
    for path in sys.argv[4:]:
        for op, who in json.load(open(path))["seconds"].items():
            anchors["seconds"].setdefault(op, {}).update(who)
    n = anchors["N"]
    total = anchors.get("total_values", 10 * n)
    # The benchmark's input: int64 values, int64 row lengths and the [N, 1] int64 column.
    input_bytes = 8 * total + 8 * n + 8 * n
    flat = {"add_scalar": "stream_add_flat_values", "add_same_shape": "stream_add_flat_values",
            "reduce_sum_axis1": "stream_sum_flat_values", "reduce_max_axis1": "stream_sum_flat_values",
            "slice_first2": "stream_sum_flat_values", "slice_last1": "stream_sum_flat_values"}
    rows, ratios = [], []
    for op, who in ours["seconds"].items():
        r = who["ragtag"]
        a = anchors["seconds"].get(op, {})
        tf, ak, pd = a.get("tensorflow"), a.get("awkward"), a.get("paddle")
        np_key = flat.get(op)
        npv = anchors["seconds"].get(np_key, {}).get("numpy") if np_key else None
        best = min([v for v in (tf, ak, pd) if v is not None], default=None)
        ratio = r / best if best else None
        if ratio is not None:
            ratios.append(ratio)
        rows.append((op, tf, ak, pd, npv, r, ratio))
    unit = lambda op: "µs" if op.endswith("_us") else "s"
    def fmt(v, op):
        if v is None:
            return "–"
        if unit(op) == "µs":
            return f"{v:.1f}"
        return f"{v:.4f}" if v >= 0.0001 else f"{v:.1e}"
    ratio_fmt = lambda x: "–" if x is None else (f"{x:.2f}" if x >= 0.01 else f"{x:.3f}")
    print(f"N = {n:,} rows, {total:,} int64 values; {os.cpu_count()} cores, {cpu()}; "
          f"{platform.system()} {platform.release()}")
    print()
    print("| op | TensorFlow | Awkward | Paddle | NumPy flat pass | ragtag | ragtag ÷ best |")
    print("|---|---|---|---|---|---|---|")
    for op, tf, ak, pd, npv, r, ratio in rows:
        name = op[:-3] + " (µs)" if unit(op) == "µs" else op
        print(f"| {name} | {fmt(tf, op)} | {fmt(ak, op)} | {fmt(pd, op)} | {fmt(npv, op)} | {fmt(r, op)} | "
              f"{ratio_fmt(ratio)} |")
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print()
    print(f"Geometric mean of ragtag ÷ best anchor over {len(ratios)} ops: {geo:.2f}")
    print(f"Peak RSS of ragtag's benchmark: {rss_kib / 1024:.0f} MiB, "
          f"{rss_kib * 1024 / input_bytes:.1f}× its input data ({input_bytes / 2**20:.0f} MiB: "
          f"values, row lengths and the column)")


if __name__ == "__main__":
    main()
