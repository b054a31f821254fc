#!/usr/bin/env python3
"""The small-N regression guard: instruction counts of the benchmark's operations at 10,000
rows and of the three small interactive inputs, counted by valgrind's callgrind (the same
count for the same binary and inputs whatever else the machine is doing, unlike seconds), and
compared with the counts stored in bench/instructions.json.

An operation fails when it takes more than TOLERANCE times its stored count: a gross
slowdown (an accidental copy per row, a quadratic loop, a lost fast path), not noise, which
is below 1 %. A count below half the stored one is reported so the file can be refreshed.

    python3 bench/instructions.py [--bless] [--binary target/release/examples/small_ops]

--bless rewrites bench/instructions.json with this run's counts (after a change meant to
alter them). The closing line is `instructions: N passed, N failed`.
"""

import argparse
import json
import os
import re
import subprocess
import sys

TOLERANCE = 2.0
HERE = os.path.dirname(os.path.abspath(__file__))
STORED = os.path.join(HERE, "instructions.json")


def collected(binary, op, repeats):
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, op, str(repeats)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"{op}: exit {out.returncode}\n{out.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"{op}: no callgrind total in\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bless", action="store_true")
    parser.add_argument("--binary", default="target/release/examples/small_ops")
    args = parser.parse_args()
    ops = subprocess.run([args.binary, "list"], capture_output=True, text=True, check=True).stdout.split()
    base = collected(args.binary, "setup", 1)
    counts = {}
    for op in ops:
        # The small inputs cost little beside the set-up: repeat them so the difference is
        # far above the noise.
        repeats = 20 if op.startswith("small_") else 3
        counts[op] = (collected(args.binary, op, repeats) - base) // repeats
    if args.bless:
        with open(STORED, "w") as f:
            json.dump({"tolerance": TOLERANCE, "instructions": counts}, f, indent=1)
            f.write("\n")
        print(f"wrote {STORED}")
    stored = json.load(open(STORED))["instructions"]
    passed = failed = 0
    print(f"{'operation':<24} {'stored':>12} {'now':>12} {'now/stored':>10}")
    for op, now in counts.items():
        was = stored.get(op)
        if was is None:
            print(f"{op:<24} {'-':>12} {now:>12}  not in {os.path.basename(STORED)}: run --bless")
            failed += 1
            continue
        ratio = now / max(was, 1)
        verdict = ""
        if ratio > TOLERANCE:
            verdict = f"  FAILED: more than {TOLERANCE}x the stored count"
            failed += 1
        else:
            passed += 1
            if ratio < 0.5:
                verdict = "  (faster: refresh with --bless)"
        print(f"{op:<24} {was:>12} {now:>12} {ratio:>10.2f}{verdict}")
    print(f"instructions: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
