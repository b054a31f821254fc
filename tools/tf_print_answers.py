#!/usr/bin/env python3
"""Fills in TensorFlow's answers for cases that call `tf.print`.

usage: tools/tf_print_answers.py [--check] CASES.jsonl ...

As tools/tf_answers.py, except that `tf.print` writes to standard output (ragtag's default)
and what it writes there is recorded as a print, as ragtag's `run --format json` shows it.
TensorFlow's print kernel writes from C++, so this script catches file descriptor 1 around
each call. Run it with the Python of a TensorFlow 2.21 virtualenv.
"""
import ctypes
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_answers  # noqa: E402
import tf_answers  # noqa: E402

tf = tf_answers.tf
_real_print = tf.print
_libc = ctypes.CDLL(None)


def captured_print(*inputs, **kwargs):
    """tf.print to standard output, recorded through the case's own `print`."""
    kwargs["output_stream"] = sys.stdout
    end = kwargs.pop("end", "\n")
    record = sys._getframe(1).f_globals["print"]
    sys.stdout.flush()
    _libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            _real_print(*inputs, end=end, **kwargs)
            _libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("utf-8", errors="backslashreplace")
    record(text, end="")


tf.print = captured_print


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    return case_answers.rewrite(files, check, tf_answers.answers, tf_answers.KEY_ORDER)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
