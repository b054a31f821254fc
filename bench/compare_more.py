#!/usr/bin/env python3
"""Prints one of bench/compare.sh's further tables: an anchors' JSON (bench/anchors_files.py's
or bench/anchors_surface.py's, {"N", "seconds": {op: {framework: s}}}) beside ragtag's
({"seconds": {op: {"ragtag": s}}}), one column per framework that has a figure, with
ragtag ÷ the best.

    python3 bench/compare_more.py TITLE ANCHORS.json RAGTAG.json
"""

import json
import math
import sys

NAMES = {"tensorflow": "TensorFlow", "awkward": "Awkward", "numpy": "NumPy", "pyarrow": "pyarrow"}


def main():
    title = sys.argv[1]
    anchors = json.load(open(sys.argv[2]))["seconds"]
    ours = json.load(open(sys.argv[3]))["seconds"]
    frameworks = [f for f in NAMES if any(f in who for who in anchors.values())]
    fmt = lambda v: "–" if v is None else (f"{v:.4f}" if v >= 0.0001 else f"{v:.1e}")
    print(title)
    print()
    print("| op | " + " | ".join(NAMES[f] for f in frameworks) + " | ragtag | ragtag ÷ best |")
    print("|---" * (len(frameworks) + 3) + "|")
    ratios = []
    for op, who in ours.items():
        r = who["ragtag"]
        figures = [anchors.get(op, {}).get(f) for f in frameworks]
        best = min([v for v in figures if v is not None], default=None)
        ratio = r / best if best else None
        if ratio is not None:
            ratios.append(ratio)
        shown = "–" if ratio is None else (f"{ratio:.2f}" if ratio >= 0.01 else f"{ratio:.3f}")
        print(f"| {op} | " + " | ".join(fmt(v) for v in figures) + f" | {fmt(r)} | {shown} |")
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print()
    print(f"Geometric mean of ragtag ÷ best over {len(ratios)} ops: {geo:.2f}")


if __name__ == "__main__":
    main()
