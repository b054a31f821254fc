#!/usr/bin/env python3
"""Prints the file benchmark's table (bench/compare.sh): bench/anchors_files.py's figures
(pyarrow, Awkward Array, NumPy) beside ragtag's (bench/files.rag), with ragtag ÷ the best."""

import json
import math
import sys




def main():
    anchors = json.load(open(sys.argv[1]))
    ours = json.load(open(sys.argv[2]))
    n = anchors["N"]
    print(f"Files: {n:,} int64 values; a list<string> column of {n // 10:,} rows "
          f"(~{n // 2:,} words)")
    print()
    print("| op | pyarrow | Awkward | NumPy | ragtag | ragtag ÷ best |")
    print("|---|---|---|---|---|---|")
    ratios = []
    fmt = lambda v: "–" if v is None else f"{v:.4f}"
    for op, who in ours["seconds"].items():
        r = who["ragtag"]
        a = anchors["seconds"].get(op, {})
        pa, ak, np_ = a.get("pyarrow"), a.get("awkward"), a.get("numpy")
        best = min([v for v in (pa, ak, np_) if v is not None], default=None)
        ratio = r / best if best else None
        if ratio is not None:
            ratios.append(ratio)
        print(f"| {op} | {fmt(pa)} | {fmt(ak)} | {fmt(np_)} | {fmt(r)} | "
              f"{'–' if ratio is None else f'{ratio:.2f}'} |")
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print()
    print(f"Geometric mean of ragtag ÷ best over {len(ratios)} file ops: {geo:.2f}")


if __name__ == "__main__":
    main()
