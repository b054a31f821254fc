#!/usr/bin/env python3
"""Fills in Paddle 2.6.2's answers for ragtag's cases on Paddle's sequence ops.

usage: target/paddle-venv/bin/python tools/paddle_answers.py [--check] tests/paddle/*.jsonl

Each line of a cases file is a JSON object with an "id", a "from" (the Paddle unit test or
docstring the case comes from, e.g. "test_seq_pool.py::TestSeqMaxPool2D" or
"sequence_lod.py::sequence_pool docstring, Case 2"), optionally "about", and a "program": the
Paddle 1.x / 2.x code a user types into ragtag, e.g.

    x = fluid.create_lod_tensor(np.array([[1.], [2.], [3.]], dtype='float32'), [[1, 2]], fluid.CPUPlace())
    fluid.layers.sequence_pool(x, 'sum')

This script runs that same program with real Paddle, one top-level statement at a time, and
writes what each statement shows into the case's "expected" list, in the JSON form of
`ragtag run --format json`:

- a LoDTensor shows {"kind": "lod", "dtype", "shape", "lod", "value"} (the LoD as offsets,
  [] when the tensor has none);
- a tuple shows {"kind": "tuple", "value": [...]}, a list {"kind": "list", "value": ...};
- an exception shows {"kind": "error", "error": CLASS, "message": ...} (Paddle's own message,
  cut to its first sentence) and ends the program.

Paddle 2.6 runs the sequence ops only in a static graph and has no `paddle.fluid`, so the
names a program calls are a thin layer over Paddle's own functions (`build_shim` below): each
call of a sequence op builds a fresh `paddle.static.Program`, turns every LoDTensor argument
into a `paddle.static.data(..., lod_level=N)` placeholder fed that tensor (shape [None, ...]
for a tensor with LoD, its own shape for one without), calls the real
`paddle.static.nn.sequence_*` (or appends the registered `lod_reset` op, as Paddle 1.x's
`fluid.layers.lod_reset` / `lod_append` did), runs it with an Executor and fetches with
`return_numpy=False`, so the output keeps its LoD and can be fed to the next call. A
LoDTensor thus stands for a Variable of the graph: a tensor without LoD (a pad value,
offsets) is made by `fluid.layers.assign(np.array(...))` or `paddle.assign(...)`, as in
Paddle's examples, while a NumPy array passed where Paddle wants a Variable stays an array
and Paddle rejects it. Nothing in an answer is written by hand.

Paddle does not check every input: an index past a row can abort its process or hang it in
its crash handler. Programs therefore run in a worker process, restarted after a crash; such
a case's answer is {"kind": "error", "error": "crash", ...}, which ragtag never matches (it
raises instead), so those cases are listed in tests/paddle/known_differences.txt.

Files are rewritten in place (one case per line, keys in a stable order). With --check
nothing is written; the script exits 1 when a stored answer differs from Paddle's. cargo test
replays the stored answers without Paddle (tests/paddle_cases.rs).

Needs Paddle:
    python3 -m venv target/paddle-venv
    target/paddle-venv/bin/pip install 'paddlepaddle==2.6.2' 'numpy<2'
"""
import math
import os
import re
import sys
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_answers  # noqa: E402

os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("FLAGS_call_stack_level", "0")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

paddle.enable_static()
LoDTensor = paddle.base.core.LoDTensor
PLACE = paddle.CPUPlace()

KEY_ORDER = ["id", "from", "about", "program", "expected"]


# ---------------------------------------------------------------------------------------
# Running one op as a static program.

def in_program(fn):
    """`fn` (a Paddle static-graph function) as an eager call on LoDTensors and arrays."""

    def call(*args, **kwargs):
        main, startup = paddle.static.Program(), paddle.static.Program()
        feed = {}

        def placeholder(v):
            if isinstance(v, LoDTensor):
                data, levels = np.array(v), len(v.lod())
            elif isinstance(v, (list, tuple)) and any(isinstance(x, LoDTensor) for x in v):
                return type(v)(placeholder(x) for x in v)
            else:
                return v
            name = "in%d" % len(feed)
            # A LoD tensor's row count varies from batch to batch, so its placeholder leaves
            # it open (shape=[None, ...], as Paddle's examples declare sequences); a plain
            # tensor (a pad value, offsets, lengths) is declared with its own shape.
            shape = [-1] + list(data.shape[1:]) if levels else list(data.shape)
            var = paddle.static.data(name, shape=shape, dtype=data.dtype, lod_level=levels)
            feed[name] = v
            return var

        with paddle.static.program_guard(main, startup):
            args = [placeholder(a) for a in args]
            kwargs = {k: placeholder(v) for k, v in kwargs.items()}
            out = fn(*args, **kwargs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        exe = paddle.static.Executor(PLACE)
        got = exe.run(main, feed=feed, fetch_list=outs, return_numpy=False)
        return tuple(got) if isinstance(out, (tuple, list)) else got[0]

    call.__name__ = getattr(fn, "__name__", "op")
    return call


def lod_reset(x, y=None, target_lod=None):
    """Paddle 1.x's fluid.layers.lod_reset: appends the registered lod_reset op."""
    helper = LayerHelper("lod_reset", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if y is not None:
        helper.append_op(type="lod_reset", inputs={"X": x, "Y": y}, outputs={"Out": out})
    elif target_lod is not None:
        helper.append_op(type="lod_reset", inputs={"X": x},
                         attrs={"target_lod": target_lod}, outputs={"Out": out})
    else:
        raise ValueError("y and target_lod should not be both none.")
    return out


def lod_append(x, level):
    """Paddle 1.x's fluid.layers.lod_append: lod_reset with append=True."""
    from collections.abc import Iterable
    if x is None:
        raise ValueError("Input(x) can't be None.")
    if not isinstance(level, Iterable) and not isinstance(level, paddle.static.Variable):
        raise ValueError("Input(level) must be list, tuple or Variable.")
    helper = LayerHelper("lod_append", **locals())
    attrs = {"append": True}
    inputs = {"X": x}
    if isinstance(level, paddle.static.Variable):
        inputs["Y"] = level
    else:
        attrs["target_lod"] = level
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="lod_reset", inputs=inputs, attrs=attrs, outputs={"Out": out})
    return out


SEQUENCE_OPS = [
    "sequence_pool", "sequence_first_step", "sequence_last_step", "sequence_softmax",
    "sequence_concat", "sequence_slice", "sequence_expand", "sequence_expand_as",
    "sequence_pad", "sequence_unpad", "sequence_reverse", "sequence_reshape",
    "sequence_enumerate", "sequence_scatter",
]


def namespace(**names):
    return types.SimpleNamespace(**names)


def build_shim():
    """The names a case's program sees: `np`, `fluid`, `paddle` (and `paddle.fluid`)."""
    static_nn = {n: in_program(getattr(paddle.static.nn, n)) for n in SEQUENCE_OPS}
    sequence_mask = in_program(paddle.nn.functional.sequence_mask)
    assign = in_program(paddle.assign)
    layers = namespace(**static_nn, sequence_mask=sequence_mask, assign=assign,
                       lod_reset=in_program(lod_reset), lod_append=in_program(lod_append))
    fluid = namespace(
        layers=layers,
        create_lod_tensor=paddle.base.create_lod_tensor,
        CPUPlace=paddle.CPUPlace,
        LoDTensor=LoDTensor,
    )
    shim_paddle = namespace(
        fluid=fluid,
        static=namespace(nn=namespace(**static_nn, sequence_mask=sequence_mask)),
        nn=namespace(functional=namespace(sequence_mask=sequence_mask)),
        assign=assign,
        CPUPlace=paddle.CPUPlace,
    )
    return {"np": np, "numpy": np, "fluid": fluid, "paddle": shim_paddle}


# ---------------------------------------------------------------------------------------
# What a statement shows.

def scalar(x):
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, (list, tuple)):
        return [scalar(v) for v in x]
    if isinstance(x, np.ndarray):
        return [scalar(v) for v in x.tolist()] if x.ndim else scalar(x.item())
    return repr(x)


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
    if isinstance(v, LoDTensor):
        data = np.array(v)
        return {"kind": "lod", "dtype": data.dtype.name, "shape": list(data.shape),
                "lod": [list(level) for level in v.lod()], "value": scalar(data)}
    if isinstance(v, np.ndarray):
        return {"kind": "ndarray", "dtype": v.dtype.name, "shape": list(v.shape),
                "value": scalar(v)}
    if isinstance(v, list):
        return {"kind": "list", "value": scalar(v)}
    if isinstance(v, tuple):
        return {"kind": "tuple", "value": [show(x) for x in v]}
    return {"kind": "object", "type": type(v).__name__}


def error_message(e):
    """Paddle's message without its C++ traceback and hints: the first sentence that says
    what was wrong, with Paddle's error kind, e.g. "(InvalidArgument) ...". """
    text = str(e)
    # A C++ error names its kind after the traceback: at run time below "Error Message
    # Summary:", when the op is added to the program below "In user code:" and the stack.
    kind = re.search(r"^\s*(InvalidArgument|NotFound|OutOfRange|AlreadyExists|"
                     r"ResourceExhausted|PreconditionNotMet|PermissionDenied|"
                     r"ExecutionTimeout|Unimplemented|Unavailable|Fatal|External)"
                     r"Error: ", text, re.M)
    if kind:
        text = "(%s) %s" % (kind.group(1), text[kind.end():])
    text = text.split("\n  [Hint", 1)[0].split(" [Hint", 1)[0]
    text = re.sub(r"\s*\(at /paddle/[^)]*\)", "", text)
    return " ".join(text.split())[:400]


def error_shown(e):
    """An uncaught exception: its class and Paddle's message."""
    return {"kind": "error", "error": type(e).__name__, "message": error_message(e)}


def answers(program):
    """Runs `program` statement by statement with the shim; what each shows."""
    return case_answers.answers(program, show, build_shim(), error_shown)


def validate(path, case):
    for key in ("id", "from", "program"):
        if key not in case:
            sys.exit("%s: a case lacks %r: %s" % (path, key, case))


# ---------------------------------------------------------------------------------------
# Paddle does not check everything it reads: an index out of range can corrupt memory and
# abort the process ("double free or corruption"). So the programs run in a worker process
# that the script restarts when it dies, and such a case records how it died.

SECONDS_PER_CASE = 60  # a case builds and runs a few small programs: seconds, never a minute


class Worker:
    def __init__(self):
        self.proc = None

    def start(self):
        import subprocess
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True)

    def answers(self, program):
        import select
        import json
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        self.proc.stdin.write(json.dumps(program) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], SECONDS_PER_CASE)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        self.proc.kill()
        self.proc.wait()
        self.proc = None
        # Whether it aborted at once or hung in its crash handler varies from run to run,
        # so the answer does not say.
        return [{"kind": "error", "error": "crash",
                 "message": "Paddle's process died or hung: it does not check this input"}]


def worker():
    """Answers programs read from stdin, one JSON string a line, as JSON lines."""
    import json
    # Paddle's C++ side writes to file descriptor 1 too: keep the answers on their own.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        out.write(json.dumps(answers(json.loads(line))) + "\n")
        out.flush()


def main(argv):
    if argv == ["--worker"]:
        worker()
        return 0
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files:
        print(__doc__)
        return 2
    w = Worker()
    return case_answers.rewrite(files, check, w.answers, KEY_ORDER, validate)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
