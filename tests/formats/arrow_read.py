"""Prints a Parquet or Arrow IPC file as pyarrow reads it, as JSON.

Usage: arrow_read.py FILE. Prints {"column": {"values": [...], "type": "..."}} for every
column, so that tests/formats_parquet.rs can check that files ragtag writes read back in
pyarrow unchanged.
"""

import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

path = sys.argv[1]
if path.endswith(".parquet"):
    table = pq.read_table(path)
else:
    with open(path, "rb") as f:
        magic = f.read(6)
    if magic == b"ARROW1":
        table = pa.ipc.open_file(path).read_all()
    else:
        table = pa.ipc.open_stream(path).read_all()


def plain(v):
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


out = {
    name: {
        "values": plain(table.column(name).to_pylist()),
        "type": str(table.schema.field(name).type),
    }
    for name in table.column_names
}
print(json.dumps(out))
