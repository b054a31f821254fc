#!/usr/bin/env python3
"""Seeded random programs over ragtag's op families, for the differential test.

usage: tools/random_programs.py [--seed N] [--per-family N] OUT_DIR

Writes OUT_DIR/<family>.jsonl: each line a case {"id", "from", "program"} whose program builds
random inputs (dense and ragged tensors of random ragged rank and dtype, with empty rows and
uniform inner dimensions) and applies one op of the family to them, with arguments that are
sometimes invalid on purpose (out-of-range axes, mismatched shapes, wrong dtypes). The same
seed always gives the same programs. Then `tools/tf_answers.py OUT_DIR/*.jsonl` (with
TensorFlow installed) fills in TensorFlow's answers, and cargo test replays them
(tests/conformance.rs). tests/tf_random holds the programs of the default seed.
"""
import json
import os
import random
import sys

WORDS = ["a", "bc", "the", "fish", "so", "long", "", "xyz", "Hi", "ok"]
NUMERIC = ["int32", "int64", "float32", "float64"]
ALL = NUMERIC + ["string", "bool"]


class Gen:
    def __init__(self, rng):
        self.r = rng

    # ------------------------------------------------------------------ values
    def scalar(self, dtype):
        r = self.r
        if dtype.startswith("int"):
            return repr(r.randint(-9, 9))
        if dtype.startswith("float"):
            return repr(round(r.uniform(-5, 5), r.choice([0, 1, 2])))
        if dtype == "string":
            return repr(r.choice(WORDS))
        return r.choice(["True", "False"])

    def nested(self, dtype, depth, inner):
        """A nested list literal `depth` levels of ragged rows deep, each leaf a scalar or (when
        `inner` is a list of sizes) a uniform block of that shape."""
        r = self.r
        if depth == 0:
            return self.block(dtype, inner)
        n = r.choice([0, 1, 2, 2, 3, 3, 4])
        return "[" + ", ".join(self.nested(dtype, depth - 1, inner) for _ in range(n)) + "]"

    def block(self, dtype, inner):
        if not inner:
            return self.scalar(dtype)
        return "[" + ", ".join(self.block(dtype, inner[1:]) for _ in range(inner[0])) + "]"

    def ragged(self, dtype=None, ragged_rank=None, inner=None):
        """Source of a ragged tensor: (expression, dtype, ragged_rank, rank)."""
        r = self.r
        dtype = dtype or r.choice(ALL)
        rr = ragged_rank or r.choice([1, 1, 1, 2, 2, 3])
        if inner is None:
            inner = r.choice([[], [], [], [1], [2], [2, 1]])
        lit = "[" + ", ".join(self.nested(dtype, rr, inner) for _ in range(r.randint(1, 4))) + "]"
        args = "%s, dtype=tf.%s" % (lit, dtype)
        if inner:
            args += ", ragged_rank=%d" % rr
        return "tf.ragged.constant(%s)" % args, dtype, rr, rr + 1 + len(inner)

    def dense(self, dtype=None, rank=None):
        r = self.r
        dtype = dtype or r.choice(ALL)
        rank = rank if rank is not None else r.choice([1, 1, 2, 2, 3])
        shape = [r.choice([0, 1, 2, 3, 3, 4]) for _ in range(rank)]
        lit = self.block(dtype, shape)
        return "tf.constant(%s, dtype=tf.%s)" % (lit, dtype), dtype, shape

    def axis(self, rank):
        r = self.r
        return r.choice(list(range(-rank, rank)) + [rank])  # one out of range

    def tensor(self, dtype=None):
        """A dense or ragged tensor: (expression, dtype, rank)."""
        if self.r.random() < 0.6:
            src, dt, _, rank = self.ragged(dtype)
            return src, dt, rank
        src, dt, shape = self.dense(dtype)
        return src, dt, len(shape)

    # ------------------------------------------------------------------ families
    def elementwise(self):
        r = self.r
        x, dt, _ = self.tensor(r.choice(NUMERIC + ["bool", "string"]))
        if dt == "bool":
            op = r.choice(["tf.math.logical_not(x)", "tf.math.logical_and(x, x)",
                           "tf.math.logical_or(x, tf.math.logical_not(x))", "tf.cast(x, tf.int32)"])
        elif dt == "string":
            op = r.choice(["tf.strings.length(x)", "tf.strings.upper(x)",
                           "tf.strings.join([x, x], separator='-')", "x == x"])
        else:
            unary = ["tf.abs(x)", "tf.math.negative(x)", "tf.math.square(x)", "tf.math.sign(x)",
                     "x * 2", "x + x", "x - 1", "tf.maximum(x, 0)", "tf.minimum(x, x)",
                     "x > 0", "tf.equal(x, x)", "tf.cast(x, tf.float64)", "x // 2", "x % 3"]
            if dt.startswith("float"):
                unary += ["tf.math.floor(x)", "tf.math.ceil(x)", "tf.math.round(x)",
                          "tf.math.exp(x)", "tf.math.sqrt(tf.abs(x))", "x / 2",
                          "tf.math.sin(x)", "tf.math.is_nan(x)", "tf.math.reciprocal(x + 10)"]
            op = r.choice(unary)
        return "x = %s\n%s\n" % (x, op)

    def reduce(self):
        r = self.r
        dt = r.choice(NUMERIC + ["bool"])
        x, dt, rank = self.tensor(dt)
        if dt == "bool":
            fn = r.choice(["reduce_any", "reduce_all"])
        else:
            fn = r.choice(["reduce_sum", "reduce_prod", "reduce_max", "reduce_min",
                           "reduce_mean"])
        axis = r.choice([None, self.axis(rank), self.axis(rank)])
        arg = "" if axis is None else ", axis=%d" % axis
        return "x = %s\ntf.%s(x%s)\n" % (x, fn, arg)

    def segment(self):
        r = self.r
        x, dt, shape = self.dense(r.choice(NUMERIC), rank=r.choice([1, 2]))
        n = shape[0]
        if r.random() < 0.5:
            ids = sorted(r.randint(0, 3) for _ in range(n))
            fn = r.choice(["segment_sum", "segment_max", "segment_min", "segment_mean",
                           "segment_prod"])
            return "x = %s\ntf.math.%s(x, %r)\n" % (x, fn, ids)
        ids = [r.randint(-1 if r.random() < 0.1 else 0, 3) for _ in range(n)]
        fn = r.choice(["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
                       "unsorted_segment_prod"])
        return "x = %s\ntf.math.%s(x, %r, num_segments=4)\n" % (x, fn, ids)

    def one_hot(self):
        r = self.r
        if r.random() < 0.6:
            ids, _, _, _ = self.ragged("int32", inner=[])
        else:
            ids, _, _ = self.dense("int32", rank=r.choice([1, 2]))
        depth = r.randint(1, 5)
        extra = r.choice(["", ", on_value=5, off_value=-1", ", dtype=tf.float64", ", axis=-1"])
        return "ids = tf.abs(%s)\ntf.one_hot(ids, %d%s)\n" % (ids, depth, extra)

    def gather(self):
        r = self.r
        x, dt, rank = self.tensor()
        idx = [r.choice([0, 0, 1]) for _ in range(r.randint(0, 4))]
        if idx and r.random() < 0.15:
            idx[-1] = r.choice([-1, 9])  # out of range: an error
        if r.random() < 0.3:
            idx = [idx, [r.randint(0, 2)] * len(idx)]
        return "x = %s\ntf.gather(x, %r)\n" % (x, idx)

    def getitem(self):
        r = self.r
        x, dt, rank = self.tensor()
        i = lambda: r.choice([-2, -1, 0, 0, 1, 1, 2, 5])  # noqa: E731
        s = lambda: r.choice(["", str(i())])  # noqa: E731
        forms = ["x[%d]" % i(), "x[%s:%s]" % (s(), s()), "x[:, %d]" % i(),
                 "x[:, %s:%s]" % (s(), s()), "x[..., %d]" % i(), "x[%d, %d]" % (i(), i()),
                 "x[:, :, %d]" % i(), "x[::%d]" % r.choice([1, 2, -1])]
        return "x = %s\n%s\n" % (x, r.choice(forms))

    def concat(self):
        r = self.r
        dt = r.choice(ALL)
        a, _, rr, rank = self.ragged(dt, ragged_rank=1, inner=[])
        b, _, _, _ = self.ragged(dt, ragged_rank=1, inner=[])
        fn = r.choice(["concat", "stack"])
        axis = r.choice([0, 0, 1, 1, -1, 2])
        return "a = %s\nb = %s\ntf.%s([a, b], axis=%d)\n" % (a, b, fn, axis)

    def tile(self):
        r = self.r
        x, dt, rank = self.tensor()
        mult = [r.randint(0, 3) for _ in range(rank if r.random() < 0.9 else rank + 1)]
        return "x = %s\ntf.tile(x, %r)\n" % (x, mult)

    def mask(self):
        r = self.r
        x, dt, rr, rank = self.ragged(inner=[])
        return ("x = %s\nm = tf.math.equal(tf.strings.length(tf.strings.as_string(x)) %% 2, 0)"
                if dt not in ("string", "bool") else "x = %s\nm = tf.ones_like(x, tf.bool)") % x + \
            "\ntf.ragged.boolean_mask(x, m)\n"

    def where(self):
        r = self.r
        x, dt, rr, rank = self.ragged(r.choice(NUMERIC), inner=[])
        if r.random() < 0.5:
            return "x = %s\ntf.where(x > 0, x, x * 10)\n" % x
        return "x = %s\ntf.where(x > 0)\n" % x

    def partition(self):
        r = self.r
        x, dt, rr, rank = self.ragged()
        op = r.choice(["x.row_lengths()", "x.row_splits", "x.value_rowids()", "x.nrows()",
                       "x.bounding_shape()", "x.row_starts()", "x.row_limits()",
                       "x.nested_row_lengths()", "x.flat_values", "x.values", "x.shape",
                       "x.ragged_rank", "x.to_tensor()", "x.to_tensor(default_value=%s)"
                       % self.scalar(dt), "x.row_lengths(axis=%d)" % r.randint(1, rank)])
        return "x = %s\n%s\n" % (x, op)

    def from_tensor(self):
        r = self.r
        x, dt, shape = self.dense(r.choice(NUMERIC), rank=r.choice([2, 3]))
        extra = r.choice(["", ", padding=0", ", ragged_rank=%d" % r.randint(1, len(shape) - 1),
                          ", lengths=%r" % [r.randint(0, 3) for _ in range(shape[0])]])
        return "x = %s\ntf.RaggedTensor.from_tensor(x%s)\n" % (x, extra)

    def sparse(self):
        r = self.r
        x, dt, rr, rank = self.ragged(r.choice(NUMERIC + ["string"]), inner=[])
        op = r.choice(["st", "tf.sparse.to_dense(st)", "tf.sparse.reorder(st)",
                       "tf.RaggedTensor.from_sparse(st)", "tf.sparse.reduce_sum(st, axis=%d)"
                       % r.randint(-1, 1), "tf.sparse.add(st, st)", "st.dense_shape",
                       "tf.sparse.from_dense(tf.sparse.to_dense(st))"])
        if dt == "string" and ("reduce_sum" in op or "add" in op):
            op = "tf.sparse.to_dense(st, default_value='?')"
        if rank != 2 and "from_sparse" in op:
            op = "st.indices"
        return "x = %s\nst = x.to_sparse()\n%s\n" % (x, op)

    def strings(self):
        r = self.r
        x, _, rr, rank = self.ragged("string", ragged_rank=1, inner=[])
        op = r.choice(["tf.strings.reduce_join(x, axis=-1)",
                       "tf.strings.reduce_join(x, axis=1, separator=' ')",
                       "tf.strings.substr(x, 0, 2)", "tf.strings.length(x)",
                       "tf.strings.ngrams(x, 2)", "tf.strings.ngrams(x, 2, separator='|')",
                       "tf.strings.split(tf.strings.reduce_join(x, axis=1, separator=' '))",
                       "tf.strings.join([x, x])", "tf.strings.upper(x)"])
        return "x = %s\n%s\n" % (x, op)

    def map_fn(self):
        r = self.r
        x, dt, rr, rank = self.ragged(r.choice(NUMERIC), ragged_rank=1, inner=[])
        op = r.choice([
            "tf.map_fn(tf.reduce_sum, x, fn_output_signature=tf.%s)" % dt,
            "tf.map_fn(lambda r: r * 2, x)",
            "tf.ragged.map_flat_values(tf.math.square, x)",
            "tf.ragged.map_flat_values(lambda v: v + 1, x)",
        ])
        return "x = %s\n%s\n" % (x, op)

    def ordering(self):
        """Sorting, arg-extremes, running sums and unique values, dense and ragged."""
        r = self.r
        if r.random() < 0.5:
            x, dt, shape = self.dense(r.choice(NUMERIC), rank=r.choice([1, 2, 2]))
            rank = len(shape)
        else:
            x, dt, rr, rank = self.ragged(r.choice(NUMERIC), ragged_rank=1, inner=[])
        ax = self.axis(rank)
        op = r.choice([
            "tf.sort(x, axis=%d)" % ax, "tf.sort(x, direction='DESCENDING')",
            "tf.argsort(x, axis=%d, stable=True)" % ax, "tf.math.argmax(x, axis=%d)" % ax,
            "tf.math.argmin(x)", "tf.math.cumsum(x, axis=%d)" % ax,
            "tf.math.cumsum(x, axis=%d, exclusive=True, reverse=True)" % ax,
            "tf.math.cumprod(x)", "tf.unique(tf.reshape(x, [-1]))",
            "tf.math.top_k(x, k=%d)" % r.randint(0, 3),
        ])
        return "x = %s\n%s\n" % (x, op)

    def reshaping(self):
        """Transposes, splits, unstacks, pads, reversals and masks from lengths."""
        r = self.r
        x, dt, shape = self.dense(r.choice(ALL), rank=r.choice([1, 2, 2, 3]))
        rank = len(shape)
        ax = self.axis(rank)
        perm = list(range(rank))
        r.shuffle(perm)
        lengths = [r.randint(0, 4) for _ in range(r.randint(0, 4))]
        op = r.choice([
            "tf.transpose(x)", "tf.transpose(x, perm=%r)" % perm,
            "tf.split(x, %d, axis=%d)" % (r.choice([1, 2, 3]), ax),
            "tf.unstack(x, axis=%d)" % ax,
            "tf.pad(x, %r)" % [[r.randint(0, 2), r.randint(0, 2)] for _ in range(rank)],
            "tf.reverse(x, axis=[%d])" % ax,
            "tf.sequence_mask(%r, maxlen=%s)" % (lengths, r.choice(["None", "3", "5"])),
            "tf.expand_dims(x, axis=%d)" % ax, "tf.squeeze(x)",
        ])
        return "x = %s\n%s\n" % (x, op)

    def contract(self):
        """einsum, tensordot, matvec and the norms, on small float matrices."""
        r = self.r
        dt = r.choice(["float32", "float64"])
        n, m, k = r.randint(1, 3), r.randint(1, 3), r.randint(1, 3)
        a = "tf.constant(%s, dtype=tf.%s)" % (self.block(dt, [n, m]), dt)
        b = "tf.constant(%s, dtype=tf.%s)" % (self.block(dt, [m, k]), dt)
        v = "tf.constant(%s, dtype=tf.%s)" % (self.block(dt, [m]), dt)
        op = r.choice([
            "tf.einsum('ij,jk->ik', a, b)", "tf.einsum('ij->ji', a)", "tf.einsum('ij->', a)",
            "tf.einsum('ij,j->i', a, v)", "tf.tensordot(a, b, axes=1)",
            "tf.tensordot(a, a, axes=[[0], [0]])", "tf.linalg.matvec(a, v)",
            "tf.norm(a)", "tf.norm(a, ord=1, axis=%d)" % r.choice([0, 1, -1]),
            "tf.clip_by_norm(a, 1.0)", "tf.einsum('ij,jk->ik', a, a)",
        ])
        return "a = %s\nb = %s\nv = %s\n%s\n" % (a, b, v, op)

    def control(self):
        """Eager control flow calling lambdas: cond, while_loop, scan, the folds."""
        r = self.r
        x, dt, shape = self.dense(r.choice(["int32", "float32"]), rank=1)
        op = r.choice([
            "tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2, lambda: x - 1)",
            "tf.while_loop(lambda i, s: i < %d, lambda i, s: (i + 1, s + i), [0, 0])"
            % r.randint(0, 5),
            "tf.scan(lambda acc, v: acc + v, x)", "tf.foldl(lambda acc, v: acc + v, x)",
            "tf.foldr(lambda acc, v: acc * 2 + v, x)",
            "tf.switch_case(%d, [lambda: x, lambda: x + 1])" % r.randint(-1, 2),
            "tf.vectorized_map(lambda v: v * v, x)",
        ])
        return "x = %s\n%s\n" % (x, op)

    def random_seeded(self):
        """TensorFlow's random numbers under a global seed, an op seed, or stateless seeds."""
        r = self.r
        shape = [r.randint(0, 3) for _ in range(r.randint(1, 2))]
        dt = r.choice(["float32", "float64"])
        seed = r.randint(0, 1000)
        op = r.choice([
            "tf.random.uniform(%r, dtype=tf.%s)" % (shape, dt),
            "tf.random.uniform(%r, seed=%d)" % (shape, r.randint(0, 99)),
            "tf.random.normal(%r, dtype=tf.%s)" % (shape, dt),
            "tf.random.uniform(%r, minval=0, maxval=%d, dtype=tf.int32)" % (shape, r.randint(1, 9)),
            "tf.random.stateless_uniform(%r, seed=[%d, %d])" % (shape, seed, r.randint(0, 9)),
            "tf.random.stateless_normal(%r, seed=[%d, 0])" % (shape, seed),
        ])
        return "tf.random.set_seed(%d)\n%s\n" % (seed, op)


FAMILIES = ["elementwise", "reduce", "segment", "one_hot", "gather", "getitem", "concat", "tile",
            "mask", "where", "partition", "from_tensor", "sparse", "strings", "map_fn",
            "ordering", "reshaping", "contract", "control", "random_seeded"]


def main(argv):
    seed, per = 2021, 20
    args = list(argv)
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if "--per-family" in args:
        i = args.index("--per-family")
        per = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__)
        return 2
    out = args[0]
    os.makedirs(out, exist_ok=True)
    for family in FAMILIES:
        rng = random.Random("%d-%s" % (seed, family))
        gen = Gen(rng)
        lines = []
        for n in range(per):
            program = getattr(gen, family)()
            case = {"id": "random-%s-%d" % (family, n), "from": "tools/random_programs.py --seed %d" % seed,
                    "program": program}
            lines.append(json.dumps(case, ensure_ascii=False))
        with open(os.path.join(out, family + ".jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
