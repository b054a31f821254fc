"""Writes Parquet files whose metadata lies, from one valid file, for tests/formats_parquet.rs.

Usage: hostile_parquet.py VALID.parquet OUT_DIR. Standard library only. The file's footer
and page headers (Thrift's compact protocol) are decoded into plain lists, changed, and the
file is laid out again with its page offsets and sizes updated, so each lie is the only
thing wrong with it. Written, one file per lie (NAME.parquet):

- rows_1e9, rows_2e62: the file, its row group and its columns claim 10^9 or 2^62 rows;
- column_values_huge: a column chunk claims 2^62 values;
- page_size_2g: a data page claims to uncompress to 2^31 - 1 bytes;
- page_values_2g: a data page claims 2^31 - 1 values;
- dictionary_2g: a dictionary page claims 2^31 - 1 entries and 2^31 - 1 bytes;
- negative_offset: a column chunk starts at byte -5;
- offset_past_end: a column chunk starts past the end of the file;
- uncompressed_tiny: a column chunk claims 10 uncompressed bytes (hiding its real size from
  a budget check that trusts it).
"""

import os
import struct
import sys

# Thrift compact protocol types.
TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(1, 13)


class Reader:
    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def zigzag(self):
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind):
        if kind in (TRUE, FALSE):
            # Inside a collection a bool is a byte of its own.
            return self.byte() == 1
        if kind == BYTE:
            return self.byte()
        if kind in (I16, I32, I64):
            return self.zigzag()
        if kind == DOUBLE:
            self.pos += 8
            return struct.unpack("<d", self.data[self.pos - 8:self.pos])[0]
        if kind == BINARY:
            n = self.varint()
            self.pos += n
            return bytes(self.data[self.pos - n:self.pos])
        if kind in (LIST, SET):
            head = self.byte()
            size, elem = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            return [elem, [self.value(elem) for _ in range(size)]]
        if kind == MAP:
            size = self.varint()
            if size == 0:
                return [0, 0, []]
            types = self.byte()
            k, v = types >> 4, types & 0x0F
            return [k, v, [(self.value(k), self.value(v)) for _ in range(size)]]
        if kind == STRUCT:
            return self.struct()
        raise ValueError(f"unknown thrift type {kind}")

    def struct(self):
        fields = []
        last = 0
        while True:
            head = self.byte()
            if head == 0:
                return fields
            delta, kind = head >> 4, head & 0x0F
            fid = last + delta if delta else self.zigzag()
            last = fid
            if kind in (TRUE, FALSE):
                fields.append([fid, kind, kind == TRUE])
            else:
                fields.append([fid, kind, self.value(kind)])


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return varint((n << 1) ^ (n >> 63))


def encode_value(kind, v):
    if kind in (TRUE, FALSE):
        return bytes([1 if v else 2])
    if kind == BYTE:
        return bytes([v & 0xFF])
    if kind in (I16, I32, I64):
        return zigzag(v)
    if kind == DOUBLE:
        return struct.pack("<d", v)
    if kind == BINARY:
        return varint(len(v)) + v
    if kind in (LIST, SET):
        elem, items = v
        head = bytes([(len(items) << 4) | elem]) if len(items) < 15 else bytes([0xF0 | elem]) + varint(len(items))
        return head + b"".join(encode_value(elem, x) for x in items)
    if kind == MAP:
        k, val, items = v
        if not items:
            return b"\x00"
        return varint(len(items)) + bytes([(k << 4) | val]) + b"".join(
            encode_value(k, a) + encode_value(val, b) for a, b in items)
    if kind == STRUCT:
        return encode_struct(v)
    raise ValueError(kind)


def encode_struct(fields):
    out = bytearray()
    last = 0
    for fid, kind, v in fields:
        if kind in (TRUE, FALSE):
            kind = TRUE if v else FALSE
        delta = fid - last
        if 0 < delta <= 15:
            out.append((delta << 4) | kind)
        else:
            out.append(kind)
            out += zigzag(fid)
        last = fid
        if kind not in (TRUE, FALSE):
            out += encode_value(kind, v)
    out.append(0)
    return bytes(out)


def field(fields, fid):
    for f in fields:
        if f[0] == fid:
            return f
    return None


def set_field(fields, fid, kind, value):
    f = field(fields, fid)
    if f is None:
        fields.append([fid, kind, value])
        fields.sort(key=lambda f: f[0])
    else:
        f[2] = value


class File:
    """A Parquet file as its footer and, per column chunk, its pages (header, body)."""

    def __init__(self, data):
        assert data[:4] == b"PAR1" and data[-4:] == b"PAR1", "not a Parquet file"
        n = struct.unpack("<I", data[-8:-4])[0]
        self.meta = Reader(data, len(data) - 8 - n).struct()
        self.chunks = []  # [(column chunk fields, [(header, body)])]
        for rg in field(self.meta, 4)[2][1]:
            for cc in field(rg, 1)[2][1]:
                md = field(cc, 3)[2]
                start = min(field(md, f)[2] for f in (9, 11) if field(md, f) is not None)
                end = start + field(md, 7)[2]
                r = Reader(data, start)
                pages = []
                while r.pos < end:
                    header = r.struct()
                    size = field(header, 3)[2]
                    pages.append((header, bytes(data[r.pos:r.pos + size])))
                    r.pos += size
                self.chunks.append((cc, pages))

    def columns(self):
        return [field(cc, 3)[2] for cc, _ in self.chunks]

    def bytes(self):
        out = bytearray(b"PAR1")
        for cc, pages in self.chunks:
            md = field(cc, 3)[2]
            start = len(out)
            first_data = True
            for header, body in pages:
                if field(header, 1)[2] == 2:
                    set_field(md, 11, I64, len(out))
                elif first_data:
                    set_field(md, 9, I64, len(out))
                    first_data = False
                out += encode_struct(header) + body
            set_field(md, 7, I64, len(out) - start)
        footer = encode_struct(self.meta)
        return bytes(out + footer + struct.pack("<I", len(footer)) + b"PAR1")


def variants(data):
    def rows(n):
        f = File(data)
        set_field(f.meta, 3, I64, n)
        for rg in field(f.meta, 4)[2][1]:
            set_field(rg, 3, I64, n)
        for md in f.columns():
            set_field(md, 5, I64, n)
        return f.bytes()

    yield "rows_1e9", rows(10**9)
    yield "rows_2e62", rows(2**62)

    f = File(data)
    set_field(f.columns()[0], 5, I64, 2**62)
    yield "column_values_huge", f.bytes()

    def page(kind, change):
        f = File(data)
        for _, pages in f.chunks:
            for header, _ in pages:
                if field(header, 1)[2] == kind:
                    change(header)
                    return f.bytes()
        raise SystemExit(f"the file has no page of type {kind}")

    big = 2**31 - 1
    yield "page_size_2g", page(0, lambda h: set_field(h, 2, I32, big))
    yield "page_values_2g", page(0, lambda h: set_field(field(h, 5)[2], 1, I32, big))

    def dictionary(h):
        set_field(h, 2, I32, big)
        set_field(field(h, 7)[2], 1, I32, big)

    yield "dictionary_2g", page(2, dictionary)

    def footer(change):
        """The file laid out as it is, with only its footer changed."""
        out = File(data).bytes()
        meta = File(out).meta
        body = out[:len(out) - 8 - len(encode_struct(meta))]
        for rg in field(meta, 4)[2][1]:
            for cc in field(rg, 1)[2][1]:
                change(field(cc, 3)[2])
                break
        m = encode_struct(meta)
        return body + m + struct.pack("<I", len(m)) + b"PAR1"

    def start_at(offset):
        def change(md):
            set_field(md, 9, I64, offset)
            if field(md, 11) is not None:
                set_field(md, 11, I64, offset)
        return change

    yield "negative_offset", footer(start_at(-5))
    yield "offset_past_end", footer(start_at(10**12))
    yield "uncompressed_tiny", footer(lambda md: set_field(md, 6, I64, 10))


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    data = open(src, "rb").read()
    # Laid out again without a lie, the file must decode to the same metadata.
    assert File(File(data).bytes()).meta == File(data).meta
    for name, blob in variants(data):
        with open(os.path.join(out, name + ".parquet"), "wb") as fh:
            fh.write(blob)
        print(name)


if __name__ == "__main__":
    main()
