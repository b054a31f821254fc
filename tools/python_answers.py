#!/usr/bin/env python3
"""Fills in CPython's answers for ragtag's Python differential test (tests/python/*.jsonl).

usage: python3 tools/python_answers.py [--check] [CASES.jsonl ...]

Without files, every tests/python/*.jsonl is answered. Each line of a cases file is a JSON
object with an "id", "features" (tags naming what the program uses, e.g. ["fstring",
"format-spec"]), a "program" in Python (which ragtag must run as CPython does) and
optionally "about". This script runs the program with this interpreter (plain CPython 3.11,
no TensorFlow), one top-level statement at a time, and writes what each statement shows into
the case's "expected" list, in the JSON form of `ragtag run --format json`, as
tools/tf_answers.py does for the TensorFlow cases:

- a bare expression statement shows its value (None included, as {"kind": "none"}, except
  the None of a `print(...)` call);
- `print(...)` shows {"kind": "print", "text": ...} with the text it wrote (consecutive prints
  join into one);
- an uncaught exception shows {"kind": "error", "error": CLASS} and ends the program; a
  program that does not compile shows only {"kind": "error", "error": "SyntaxError"}.

Files are rewritten in place (one case per line, keys in a stable order). With --check nothing
is written; the script exits 1 when any stored answer differs from CPython's. cargo test
replays the stored answers without Python (tests/python_cases.rs); the cases whose answer
ragtag does not give yet are listed, each with its reason, in tests/python/known_differences.txt.
"""
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_answers  # noqa: E402

KEY_ORDER = ["id", "features", "about", "program", "expected"]

if sys.version_info[:2] != (3, 11):
    sys.exit("CPython 3.11 is the specification; this is %s" % sys.version.split()[0])


def scalar(x):
    """One element of a list as JSON: floats' NaN and infinities as strings."""
    if isinstance(x, bool):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, (int, str)) or x is None:
        return x
    if isinstance(x, (list, tuple)):
        # A container that holds itself shows as ragtag prints it: [...] or (...).
        if id(x) in ACTIVE:
            return "[...]" if isinstance(x, list) else "(...)"
        ACTIVE.add(id(x))
        try:
            return [plain(v) for v in x]
        finally:
            ACTIVE.discard(id(x))
    return show(x)


ACTIVE = set()


def plain(v):
    """A value inside a Python list."""
    if isinstance(v, dict):
        return show(v)
    return scalar(v)


def show(v):
    """The JSON object ragtag shows for a value."""
    if v is None:
        return {"kind": "none"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": scalar(v)}
    if isinstance(v, str):
        return {"kind": "str", "value": v}
    if isinstance(v, list):
        return {"kind": "list", "value": scalar(v)}
    if isinstance(v, tuple):
        return {"kind": "tuple", "value": [show(x) for x in v]}
    if isinstance(v, dict):
        if id(v) in ACTIVE:
            return "{...}"
        ACTIVE.add(id(v))
        try:
            return {"kind": "dict", "value": {str(k): show(x) for k, x in v.items()}}
        finally:
            ACTIVE.discard(id(v))
    return {"kind": "object", "type": type(v).__name__, "value": repr(v)}


def answers(program):
    """Runs `program` statement by statement; what each shows."""
    return case_answers.answers(program, show)


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files:
        here = os.path.dirname(os.path.abspath(__file__))
        files = sorted(glob.glob(os.path.join(here, "..", "tests", "python", "*.jsonl")))
    ids = set()

    def validate(path, case):
        if case["id"] in ids:
            sys.exit("%s: duplicate id %s" % (path, case["id"]))
        ids.add(case["id"])
        if not case.get("features"):
            sys.exit("%s: %s has no features" % (path, case["id"]))

    return case_answers.rewrite(files, check, answers, KEY_ORDER, validate)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
