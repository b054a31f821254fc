#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus and dictionary from the project's own programs.

Seeds: every input of every golden transcript (tests/, examples/), every conformance
program, every program of the Python differential test (tests/python), and every builtin's
runnable examples. Dictionary: the language's keywords,
operators and punctuation, and every builtin's full path and last name.

    python3 fuzz/make_seeds.py      # from the repository root; rewrites fuzz/seeds, fuzz/ragtag.dict
"""
import hashlib
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
BUILTINS = ROOT / "crates" / "lang" / "src" / "eval" / "builtins"


def transcript_inputs(path):
    """The inputs of a .rtt transcript: `>>> ` lines and their `... ` continuations."""
    inputs, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(">>>"):
            if current is not None:
                inputs.append("\n".join(current))
            current = [line[4:] if line.startswith(">>> ") else line[3:]]
        elif line.startswith("...") and current is not None:
            current.append(line[4:] if line.startswith("... ") else line[3:])
        elif current is not None:
            inputs.append("\n".join(current))
            current = None
    if current is not None:
        inputs.append("\n".join(current))
    return inputs


def builtin_examples():
    """The string literals inside `.examples(&[ … ])` of the builtin tables."""
    out = []
    for path in sorted(BUILTINS.rglob("*.rs")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"\.examples\(&\[(.*?)\]\)", text, re.S):
            for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', block):
                try:
                    out.append(bytes(lit, "utf-8").decode("unicode_escape"))
                except UnicodeDecodeError:  # a Rust escape (`\u{e9}`): keep it as written
                    out.append(lit)
    return out


def builtin_names():
    names = set()
    for path in BUILTINS.rglob("*.rs"):
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r'Builtin::\w+\(\s*"([A-Za-z_][\w.]*)"', text):
            names.add(name)
            names.add(name.rsplit(".", 1)[-1])
    return sorted(names)


def escape(token):
    r"""A dictionary entry's text: libFuzzer reads \\, \" and \xNN escapes."""
    out = []
    for ch in token:
        if ch == "\\" or ch == '"':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\x{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


def main():
    programs = []
    for rtt in sorted(ROOT.glob("tests/**/*.rtt")) + sorted(ROOT.glob("examples/**/*.rtt")):
        inputs = [i for i in transcript_inputs(rtt) if not i.startswith(":")]
        programs.extend(inputs)
    jsonls = sorted((ROOT / "tests" / "conformance").glob("*.jsonl"))
    jsonls += sorted((ROOT / "tests" / "python").glob("*.jsonl"))
    for jsonl in jsonls:
        for line in jsonl.read_text(encoding="utf-8").splitlines():
            if line.strip():
                programs.append(json.loads(line)["program"])
    programs.extend(builtin_examples())
    SEEDS.mkdir(parents=True, exist_ok=True)
    for old in SEEDS.iterdir():
        old.unlink()
    kept = 0
    for p in programs:
        data = p.encode("utf-8")
        if not data.strip() or len(data) > 4096:
            continue
        (SEEDS / hashlib.sha1(data).hexdigest()).write_bytes(data)
        kept += 1
    tokens = [
        "False", "None", "True", "and", "as", "assert", "def", "elif", "else", "except",
        "finally", "for", "from", "if", "import", "in", "is", "lambda", "not", "or", "pass",
        "raise", "return", "try", "while", "with", "yield", "global", "nonlocal",
        "+", "-", "*", "/", "//", "%", "**", "@", "<", ">", "<=", ">=", "==", "!=", "=",
        "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "...", "->", "\n", "\n    ",
        "'", '"', "'''", "#", "\\", "0", "1", "-1", "2**62", "10**12", "1e308", "nan", "inf",
        "9223372036854775807", "-9223372036854775808", "0.5", "'a'", "b'x'",
        "tf.", "np.", "fluid.", "tf.int32", "tf.int64", "tf.float32", "tf.float64",
        "tf.string", "tf.bool", "axis=", "dtype=", "shape=", "nrows=", "ragged_rank=",
        "row_splits=", "values=", "indices=", "dense_shape=", "[:, ", "[::-1]",
        # Augmented assignment and shifts.
        "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>=",
        "<<", ">>",
        # f-strings and the format-spec mini-language.
        "f'", 'f"', "rf'", "f'''", "{{", "}}", "{x}", "{x=}", "{x!r}", "{x!s}", "{x!a}",
        ":>10", ":<", ":^", ":=", ":+", ":,", ":_", ":#x", ":08.3f", ":.2e", ":g", ":.1%",
        ":{w}", ":{w}.{p}f", ":c", ":b", ":o", ":X", ":n", "%s", "%d", "%5.2f", "%(name)s",
        "%*d", "%%", "'{0}{1}'.format", "'{name}'.format", "{0[1]}", "{0.real}", "format(",
        # Parameters, unpacking and scopes.
        "*args", "**kwargs", "(*", "(**", ", *", ", **", ", /", "*, ", "[*", "{**", "a, *b",
        "*a, b", "global ", "nonlocal ", "key=", "reverse=", "default=", "strict=",
        # match statements and the standard modules.
        "match", "case", "match x:\n    case ", "case _:", "case [a, *rest]:", "case {'k': v, **kw}:",
        "case int(n) if n > 0:", "case Point(x=0, y=y):", " | ", " as ", "__match_args__",
        "__next__", "__iter__", "StopIteration", "import random", "import json", "import string",
        "import time", "import sys", "random.seed(0)", "json.dumps(", "json.loads(", "indent=",
        "sort_keys=", "separators=", "ensure_ascii=", "sys.stdout.write(",
        # Classes, context managers, generators and the other statements.
        "class ", "class A:\n    ", "class B(A):", "def __init__(self", "self.", "super().",
        "__repr__", "__str__", "__eq__", "__lt__", "__hash__", "__len__", "__getitem__",
        "__setitem__", "__contains__", "__call__", "__enter__", "__exit__", "__add__",
        "__post_init__", "@property", "@staticmethod", "@classmethod", "@dataclass",
        "@dataclass(frozen=True, order=True)", "field(default_factory=list)", "del ", "break",
        "continue", "yield from ", "with open(", " as fh:", "except ValueError as e:",
        "raise ValueError('x') from e", "assert x, 'msg'", "(y := ", "lambda x: ",
        " for x in ", " if ", " else ", "b''", "rb'", "0x", "0o", "0b", "1_000", "2**100",
        "list[int]", "dict[str, int]", "id(", "globals()", "locals()", "import dataclasses",
        "from dataclasses import dataclass, field", "import itertools", "import functools",
        "import collections", "import math", "import operator",
    ]
    tokens += builtin_names()
    with open(ROOT / "fuzz" / "ragtag.dict", "w", encoding="utf-8") as f:
        f.write("# The language's tokens and every builtin's name (fuzz/make_seeds.py).\n")
        for t in dict.fromkeys(tokens):
            f.write('"' + escape(t) + '"\n')
    print(f"{kept} seeds, {len(set(tokens))} dictionary tokens")


if __name__ == "__main__":
    main()
