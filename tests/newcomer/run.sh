#!/usr/bin/env bash
# A newcomer's first hour, scripted: a fresh clone of this repository, the README's set-up
# (`cargo install --path .` puts `ragtag` on PATH), then `ragtag` from PATH fed the guide's
# embedding cells; the output is checked. Ends with `newcomer: N passed, N failed`.
#
#   bash tests/newcomer/run.sh                      # release, as the README installs it
#   RAGTAG_NEWCOMER_DEBUG=1 bash tests/newcomer/run.sh   # a debug build (quicker to make)
#
# The install is of the committed HEAD: from this checkout when it is exactly HEAD (nothing
# changed, nothing untracked outside fuzz/ — as in CI, which runs on a fresh clone), else from a fresh clone
# of it. Either way the build shares this checkout's target/ directory, so what is already
# built is not built again; installing from this checkout also reuses ragtag's own crates
# (cargo counts a clone elsewhere as other packages and rebuilds all four).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {
    if grep -qF -- "$2" <<<"$3"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: the output has no line with: $2" >&2
    fi
}
finish() {
    echo "newcomer: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# fuzz/ is a workspace of its own that the install does not build; CI's fuzz build, running
# beside this, may add to its corpus.
if [ -z "$(git -C "$root" status --porcelain -- . ':(exclude)fuzz')" ]; then
    cd "$root" || { failed=1; finish; }
else
    git clone --quiet "$root" "$work/ragtag" || { failed=1; finish; }
    cd "$work/ragtag" || { failed=1; finish; }
fi
profile=()
[ "${RAGTAG_NEWCOMER_DEBUG:-0}" = 1 ] && profile=(--debug)
# The README's set-up line, with the install kept inside the scratch directory.
if ! cargo install --quiet --locked --path . --root "$work/home" --target-dir "$root/target" \
    "${profile[@]}"; then
    failed=1
    finish
fi
export PATH="$work/home/bin:$PATH"
[ "$(command -v ragtag)" = "$work/home/bin/ragtag" ] && passed=$((passed + 1)) \
    || { failed=$((failed + 1)); echo "FAIL: ragtag is not the one on PATH" >&2; }

# The README's own usage lines.
out="$(ragtag -c 'tf.ragged.constant([[1, 2], [3]]) + 1' 2>&1)"
check "ragtag -c" "RaggedTensor  dtype=int32  shape=[2, None(1..2)]" "$out"
out="$(echo 'print(tf.ragged.constant([[1, 2], [3]]))' | ragtag run - 2>&1)"
check "ragtag run -" "<tf.RaggedTensor [[1, 2], [3]]>" "$out"

# The guide's embedding cells (examples/guide/ragged_guide.rtt), typed into `ragtag` at 80
# columns: the word embeddings show one row per word, its 4 values in aligned columns.
out="$(COLUMNS=80 RAGTAG_REPRODUCIBLE=1 ragtag 2>&1 <<'CELLS'
queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'],
                              ['Pause'],
                              ['Will', 'it', 'rain', 'later', 'today']])
num_buckets = 1024
embedding_size = 4
embedding_table = tf.Variable(
    tf.random.truncated_normal([num_buckets, embedding_size],
                       stddev=1.0 / math.sqrt(embedding_size)))
word_buckets = tf.strings.to_hash_bucket_fast(queries, num_buckets)
word_embeddings = tf.nn.embedding_lookup(embedding_table, word_buckets)
word_embeddings
marker = tf.fill([queries.nrows(), 1], '#')
padded = tf.concat([marker, queries, marker], axis=1)
bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator='+')
bigram_buckets = tf.strings.to_hash_bucket_fast(bigrams, num_buckets)
bigram_embeddings = tf.nn.embedding_lookup(embedding_table, bigram_buckets)
all_embeddings = tf.concat([word_embeddings, bigram_embeddings], axis=1)
avg_embedding = tf.reduce_mean(all_embeddings, axis=1)
print(avg_embedding)
CELLS
)"
check "word embeddings" "RaggedTensor  dtype=float32  shape=[3, None(1..5), 4]" "$out"
check "aligned vectors" "| 0 | 0 |  0.09564427 | -0.02414814 |  0.09699403 | -0.14650689 |" "$out"
check "average" "[[ 0.20417917  0.1178929  -0.12044761  0.05913316]" "$out"
check "average shape" "shape=(3, 4), dtype=float32)" "$out"
# Every table line fits the 80 columns (print's text form is TensorFlow's, as wide as
# TensorFlow makes it).
widest="$(grep -E '^[+|]' <<<"$out" | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')"
if [ "$widest" -gt 0 ] && [ "$widest" -le 80 ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "FAIL: the widest table line has $widest columns at COLUMNS=80" >&2
fi
finish
