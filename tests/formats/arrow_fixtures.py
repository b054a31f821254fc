"""Writes the Parquet and Arrow IPC files tests/formats_parquet.rs reads with ragtag.

Usage: arrow_fixtures.py OUT_DIR. Each file holds columns of the kinds other tools write
(pyarrow's List, LargeList, nested lists, FixedSizeList, strings, structs, nulls, several
row groups, snappy and zstd; Awkward Array's records). OUT_DIR/expected.json maps
"file:column" to the column's values as Python lists (pyarrow's to_pylist) and its Arrow
type, which the test compares with what ragtag reads.
"""

import json
import os
import sys

import awkward as ak
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

out = sys.argv[1]
expected = {}


def record(name, table):
    for col in table.column_names:
        expected[f"{name}:{col}"] = {
            "values": table.column(col).to_pylist(),
            "type": str(table.schema.field(col).type),
        }


def parquet(name, table, **kw):
    pq.write_table(table, os.path.join(out, name), **kw)
    record(name, table)


lists = pa.table(
    {
        "tokens": pa.array([[1, 2, 3], [], [4, 5], [6]], pa.list_(pa.int64())),
        "large": pa.array([[1], [2, 3], [], [4, 5, 6]], pa.large_list(pa.int32())),
        "nested": pa.array(
            [[[1, 2], [3]], [], [[]], [[4], [5, 6, 7]]], pa.list_(pa.list_(pa.int64()))
        ),
        "deep": pa.array(
            [[[[1.5]]], [[[2.5, 3.5]], []], [], [[[4.5], []]]],
            pa.list_(pa.list_(pa.list_(pa.float64()))),
        ),
        "score": pa.array([0.5, 1.5, 2.5, 3.5], pa.float32()),
    }
)
# Two rows per row group: the reader joins two chunks.
parquet("lists_snappy.parquet", lists, compression="snappy", row_group_size=2)
parquet("lists_zstd.parquet", lists, compression="zstd", row_group_size=3)
parquet("lists_gzip.parquet", lists, compression="gzip")
parquet("lists_lz4.parquet", lists, compression="lz4")

fixed = pa.table(
    {
        "xyz": pa.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], pa.list_(pa.float32(), 3)),
        "grid": pa.array(
            [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], pa.list_(pa.list_(pa.int64(), 2), 2)
        ),
        "points": pa.array(
            [[[1, 2], [3, 4], [5, 6]], [[7, 8]]], pa.list_(pa.list_(pa.int32(), 2))
        ),
        "pairs_of_lists": pa.array(
            [[[1], [2, 3]], [[], [4]]], pa.list_(pa.list_(pa.int64()), 2)
        ),
    }
)
parquet("fixed.parquet", fixed)

strings = pa.table(
    {
        "word": pa.array(["to", "be", "", "naïve"], pa.string()),
        "large_word": pa.array(["a", "bb", "ccc", "dddd"], pa.large_string()),
        "blob": pa.array([b"\x00\x01", b"", b"\xff", b"ok"], pa.binary()),
        "sentences": pa.array(
            [["the", "cat"], [], ["sat"], ["on", "the", "mat"]], pa.list_(pa.string())
        ),
        "category": pa.array(["x", "y", "x", "x"]).dictionary_encode(),
    }
)
parquet("strings.parquet", strings)

numbers = pa.table(
    {
        "i8": pa.array([-1, 2], pa.int8()),
        "i16": pa.array([-300, 300], pa.int16()),
        "u8": pa.array([0, 255], pa.uint8()),
        "u16": pa.array([0, 65535], pa.uint16()),
        "u32": pa.array([0, 4294967295], pa.uint32()),
        "u64": pa.array([0, 2**40], pa.uint64()),
        "f16": pa.array([0.5, -2.0], pa.float16()),
        "flag": pa.array([True, False], pa.bool_()),
    }
)
parquet("numbers.parquet", numbers)
expected["numbers.parquet:f16"]["values"] = [0.5, -2.0]

docs = pa.table(
    {
        "doc": pa.array(
            [
                {"id": 1, "tokens": [10, 11]},
                {"id": 2, "tokens": []},
                {"id": 3, "tokens": [12]},
            ],
            pa.struct([("id", pa.int64()), ("tokens", pa.list_(pa.int64()))]),
        ),
        "lang": pa.array(["en", "fr", "en"]),
    }
)
parquet("struct.parquet", docs)
for field in ["id", "tokens"]:
    expected[f"struct.parquet:doc.{field}"] = {
        "values": [d[field] for d in docs.column("doc").to_pylist()],
        "type": str(docs.schema.field("doc").type.field(field).type),
    }

nulls = pa.table(
    {
        # 2 null rows and 3 null values (one under each of rows 0 and 4, two in row 4).
        "tokens": pa.array(
            [[1, None], None, [3], None, [None, None, 4]], pa.list_(pa.int64())
        ),
        "word": pa.array(["a", None, "c", "d", None]),
        "doc": pa.array(
            [{"n": 1}, None, {"n": 3}, {"n": None}, {"n": 5}], pa.struct([("n", pa.int64())])
        ),
        "xyz": pa.array([[1, 2], None, [5, 6], [7, None], [9, 10]], pa.list_(pa.int64(), 2)),
    }
)
parquet("nulls.parquet", nulls, row_group_size=2)

unsupported = pa.table({"when": pa.array([0, 1], pa.timestamp("s"))})
parquet("unsupported.parquet", unsupported)

# Awkward Array's own writer: a record array (struct columns flattened by ak.to_parquet).
events = ak.Array(
    [
        {"pt": [1.5, 2.5], "name": "a", "hits": [[1], [2, 3]]},
        {"pt": [], "name": "b", "hits": []},
        {"pt": [3.5], "name": "c", "hits": [[4, 5, 6]]},
    ]
)
ak.to_parquet(events, os.path.join(out, "awkward.parquet"))
record("awkward.parquet", ak.to_arrow_table(events))
# A plain (non-record) jagged array: Awkward names its one column "".
ak.to_parquet(ak.Array([[1, 2, 3], [], [4]]), os.path.join(out, "awkward_jagged.parquet"))
expected["awkward_jagged.parquet:"] = {"values": [[1, 2, 3], [], [4]], "type": "list"}

# Arrow IPC: a file and a stream of three record batches, the second a slice of a larger
# batch (its list offsets do not start at 0 in memory).
big = pa.record_batch([pa.array([[9], [1, 2], [], [3, 4, 5], [8]], pa.list_(pa.int64()))], ["tokens"])
batches = [
    pa.record_batch([pa.array([[0, 1]], pa.list_(pa.int64()))], ["tokens"]),
    big.slice(1, 3),
    pa.record_batch([pa.array([[6]], pa.list_(pa.int64()))], ["tokens"]),
]
table = pa.Table.from_batches(batches)
with ipc.new_file(os.path.join(out, "chunks.arrow"), table.schema) as w:
    for b in batches:
        w.write_batch(b)
record("chunks.arrow", table)
with ipc.new_stream(os.path.join(out, "chunks.arrows"), table.schema) as w:
    for b in batches:
        w.write_batch(b)
record("chunks.arrows", table)
feather.write_feather(lists, os.path.join(out, "lists.feather"), compression="zstd")
record("lists.feather", lists)

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f, default=lambda o: o.hex() if isinstance(o, bytes) else str(o))
