#!/usr/bin/env python3
"""Records what TensorFlow prints for each code cell of the ragged-tensor guide notebook.

usage: tools/guide_answers.py NOTEBOOK OUT.jsonl

Runs the notebook's code cells in order in one namespace with real TensorFlow, as Jupyter
would, and writes one JSON line per code cell: {"cell": N, "output": TEXT}. TEXT is what the
cell printed, followed by the repr of its value when the cell ends in an expression whose
value is not None (what Jupyter shows as the cell's result, in text form). A cell that raises
ends with "<ExceptionClass>\n" instead of a traceback. tests/guide_notebook.rs compares
ragtag's output for each cell with these, without TensorFlow.

Needs TensorFlow (see tools/tf_answers.py); run with that Python:
  /tmp/tf/bin/python tools/guide_answers.py ../shared/seeds/003_6b90ffbde28121d8.txt \\
      tests/guide_notebook_tf.jsonl
"""
import ast
import contextlib
import io
import json
import os
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
warnings.filterwarnings("ignore")

import tensorflow as tf  # noqa: E402,F401


def cells(path):
    nb = json.load(open(path))
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            src = c["source"]
            yield "".join(src) if isinstance(src, list) else src


def run_cell(source, env):
    out = io.StringIO()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "<SyntaxError>\n"
    body, last = tree.body, None
    if body and isinstance(body[-1], ast.Expr):
        body, last = body[:-1], body[-1]
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(ast.Module(body, type_ignores=[]), "<cell>", "exec"), env)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), env)
                if value is not None:
                    print(repr(value))
        except Exception as e:  # the cell's answer, not a failure of this script
            print("<%s>" % type(e).__name__)
    return out.getvalue()


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    env = {"__name__": "__main__"}
    lines = []
    for i, source in enumerate(cells(argv[0])):
        lines.append(json.dumps({"cell": i, "output": run_cell(source, env)}, ensure_ascii=False))
    with open(argv[1], "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d cells" % (argv[1], len(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
