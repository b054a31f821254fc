"""Reads the JSON Lines files named on the command line with Python's json module and
prints a JSON object: for each file, the list of its lines' values (floats printed with
Python's repr, so tests/formats_json.rs sees exactly what Python read)."""

import json
import sys

result = {}
for name in sys.argv[1:]:
    with open(name, encoding="utf-8") as f:
        result[name] = [json.loads(line) for line in f if line.strip()]
json.dump(result, sys.stdout, ensure_ascii=False)
