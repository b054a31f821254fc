#!/usr/bin/env bash
# Writes fuzz/seeds-files: small valid files of every format the `files` target reads, each
# prefixed with the byte that picks its reader (the order of READERS in
# fuzz_targets/files.rs: npy 0, npz 1, parquet 2, arrow 3, json 4, jsonl 5), made by
# ragtag's own writers. Run after a format gains a feature:
#
#   bash fuzz/make_file_seeds.sh [path/to/ragtag]     # default: target/release/ragtag
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=$(realpath "${1:-target/release/ragtag}")
out=$(realpath fuzz)/seeds-files
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out" && mkdir -p "$out"
cd "$work"
"$bin" -c "
rt = tf.ragged.constant([[1, 2, 3], [], [4]])
ft = tf.ragged.constant([[[1.5, 2.0]], [[3.0, 4.5], [5.0, 6.0]]], ragged_rank=1)
st = tf.ragged.constant([['a', 'bc'], ['d'], []])
np.save('ints.npy', tf.constant([[1, 2], [3, 4]]))
np.save('floats.npy', tf.constant([1.5, -2.0, float('nan')]))
np.save('bools.npy', tf.constant([True, False]))
np.savez('ragged.npz', values=rt.flat_values, row_splits=rt.row_splits)
np.savez_compressed('packed.npz', a=tf.range(10), b=tf.constant([[1.0]]))
ak.to_parquet(rt, 'ints.parquet')
ak.to_parquet(st, 'strings.parquet')
ak.to_parquet(ft, 'floats.parquet')
ragtag.write_arrow(rt, 'ints.arrow')
ragtag.write_arrow(st, 'strings.arrow')
ragtag.write_json(rt, 'ints.json')
ragtag.write_json(st, 'strings.json')
ragtag.write_jsonl(ft, 'floats.jsonl')
ragtag.write_jsonl(st, 'strings.jsonl')
" >/dev/null
# Parquet files whose metadata and page headers lie (tests/formats/hostile_parquet.py).
python3 "$root/tests/formats/hostile_parquet.py" strings.parquet hostile >/dev/null
for f in hostile/*.parquet; do mv "$f" "lie_$(basename "$f")"; done
rmdir hostile
pick() { case "$1" in npy) echo 0;; npz) echo 1;; parquet) echo 2;; arrow) echo 3;; json) echo 4;; jsonl) echo 5;; esac; }
for f in *; do
    ext=${f##*.}
    { printf "\\x$(printf %02x "$(pick "$ext")")"; cat "$f"; } > "$out/$f"
done
ls "$out"
