#!/usr/bin/env python3
"""Writes crates/lang/src/eval/builtins/python/str_tables.rs: the Unicode character classes
behind Python's str predicates (isalpha, isdecimal, isdigit, isnumeric, isprintable), as
CPython 3.11 (Unicode 14.0) has them.

usage: python3 tools/str_tables.py
"""
import os
import sys
import unicodedata

if sys.version_info[:2] != (3, 11):
    sys.exit("CPython 3.11 is the specification; this is %s" % sys.version.split()[0])

OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..", "crates", "lang", "src", "eval", "builtins", "python", "str_tables.rs",
)

TABLES = [
    ("ALPHA", "letters (categories Lu, Ll, Lt, Lm, Lo): `str.isalpha`", str.isalpha),
    ("DECIMAL", "decimal digits (category Nd): `str.isdecimal`", str.isdecimal),
    ("DIGIT", "digits (Numeric_Type Decimal or Digit): `str.isdigit`", str.isdigit),
    ("NUMERIC", "numeric characters (any Numeric_Type): `str.isnumeric`", str.isnumeric),
    (
        "UNPRINTABLE",
        "characters repr escapes (categories C* and Z* but the space): `str.isprintable`",
        lambda c: not c.isprintable(),
    ),
]


def ranges(pred):
    out, start = [], None
    for i in range(sys.maxunicode + 2):
        ok = i <= sys.maxunicode and pred(chr(i))
        if ok and start is None:
            start = i
        if not ok and start is not None:
            out.append((start, i - 1))
            start = None
    return out


def main():
    lines = [
        "//! Unicode character classes of Python's str predicates, as CPython 3.11 (Unicode %s)"
        % unicodedata.unidata_version,
        "//! has them. Written by tools/str_tables.py from CPython's own unicodedata; do not edit.",
        "",
        "// Each table is sorted inclusive ranges, flattened: start, end, start, end, …",
    ]
    for name, doc, pred in TABLES:
        flat = [x for r in ranges(pred) for x in r]
        lines.append("")
        lines.append("/// The %s." % doc)
        lines.append("#[rustfmt::skip]")
        lines.append("pub(super) static %s: &[u32] = &[" % name)
        for k in range(0, len(flat), 12):
            lines.append("    " + " ".join("0x%X," % x for x in flat[k : k + 12]))
        lines.append("];")
    lines += [
        "",
        "/// Whether `c` is in a table of ranges.",
        "pub(super) fn within(table: &[u32], c: char) -> bool {",
        "    let c = c as u32;",
        "    // The number of range bounds at or below `c`: odd inside a range.",
        "    let below = table.partition_point(|&b| b <= c);",
        "    below % 2 == 1 || (below > 0 && table[below - 1] == c)",
        "}",
    ]
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
