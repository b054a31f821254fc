#!/usr/bin/env bash
# The comparison: the shared workload (../shared/bench/anchors.py) timed in TensorFlow,
# Awkward Array and NumPy, and ragtag's side (`cargo bench --bench engine`), in one run, printed
# as one table: op, TensorFlow, Awkward, NumPy, ragtag, ragtag ÷ best anchor, with the
# geometric mean, the machine, and the peak memory of ragtag's benchmark beside the bytes of
# its input data; then the file, operation and Python-loop comparisons. Asserts nothing;
# the README shows its latest tables.
#
#   bench/compare.sh [N]                 # N rows (default 1,000,000)
#   ANCHORS_PYTHON=/path/to/python bench/compare.sh   # an interpreter that already has them
#   PADDLE_PYTHON=/path/to/python bench/compare.sh    # one with paddlepaddle 2.6 (default:
#                                                     # target/paddle-venv, when it exists)
#
# Without ANCHORS_PYTHON it makes a virtual environment at target/anchors-venv with
# bench/requirements-anchors.txt (TensorFlow is a large download the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
anchors=${RAGTAG_ANCHORS:-../shared/bench/anchors.py}
[ -f "$anchors" ] || { echo "no anchors script at $anchors (set RAGTAG_ANCHORS)" >&2; exit 1; }
py=${ANCHORS_PYTHON:-}
if [ -z "$py" ]; then
    venv=target/anchors-venv
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r bench/requirements-anchors.txt
    py=$venv/bin/python
fi
out=target/compare
mkdir -p "$out"
echo "anchors: $("$py" --version) running $anchors $n" >&2
"$py" "$anchors" "$n" > "$out/anchors.json" 2> "$out/anchors.log" || { cat "$out/anchors.log" >&2; exit 1; }
# ragtag's own anchors for Paddle's sequence ops: TensorFlow's and Awkward's counterparts in
# the same interpreter, Paddle's own ops in PADDLE_PYTHON's (Paddle 2.6 needs NumPy < 2), when
# there is one.
extra=("$out/anchors-sequence.json")
"$py" bench/anchors_sequence.py "$n" > "$out/anchors-sequence.json" 2>> "$out/anchors.log" \
    || { cat "$out/anchors.log" >&2; exit 1; }
paddle_py=${PADDLE_PYTHON:-target/paddle-venv/bin/python}
if [ -x "$paddle_py" ]; then
    echo "paddle: $("$paddle_py" --version) running bench/anchors_sequence.py $n" >&2
    "$paddle_py" bench/anchors_sequence.py "$n" > "$out/anchors-paddle.json" 2>> "$out/anchors.log" \
        && extra+=("$out/anchors-paddle.json")
fi
cargo bench --quiet --bench engine --no-run
bench=$(cargo bench --bench engine --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "engine" and m.get("executable"):
        print(m["executable"])')
echo "ragtag: $bench $n" >&2
/usr/bin/time -f '%M' -o "$out/ragtag-maxrss-kb" "$bench" "$n" > "$out/ragtag.json"
python3 bench/compare.py "$out/anchors.json" "$out/ragtag.json" "$out/ragtag-maxrss-kb" "${extra[@]}"

# The file benchmark: Parquet, Arrow IPC and .npy read and written by pyarrow, Awkward Array
# and NumPy (bench/anchors_files.py, in FORMATS_PYTHON's environment, default
# target/formats-venv), then by ragtag's release binary reading the same files
# (bench/files.rag). Skipped without pyarrow.
formats_py=${FORMATS_PYTHON:-target/formats-venv/bin/python}
if [ -x "$formats_py" ] && "$formats_py" -c 'import pyarrow' 2>/dev/null; then
    files=$out/files
    echo "files: $("$formats_py" --version) running bench/anchors_files.py $((n * 10))" >&2
    "$formats_py" bench/anchors_files.py "$files" $((n * 10)) > "$out/anchors-files.json"
    cargo build --release --quiet
    { echo "folder = '$files'"; cat bench/files.rag; } | target/release/ragtag run - > "$out/ragtag-files.json"
    echo
    python3 bench/compare_more.py "Files: $((n * 10)) int64 values; a list<string> column of $n rows" \
        "$out/anchors-files.json" "$out/ragtag-files.json"
    rm -rf "$files"
else
    echo "files: no pyarrow at $formats_py (FORMATS_PYTHON); the file benchmark is skipped" >&2
fi

# The everyday TensorFlow operations that do real work (sort, unique, top_k, pad, split,
# segment sums, matmul, einsum, searchsorted …): one line of TensorFlow code each, run by
# TensorFlow and NumPy in the anchors' interpreter and by ragtag's release binary
# (bench/anchors_surface.py writes both programs).
echo "surface: running bench/anchors_surface.py $n" >&2
cargo build --release --quiet
"$py" bench/anchors_surface.py "$n" > "$out/anchors-surface.json" 2>> "$out/anchors.log"
python3 bench/anchors_surface.py --ragtag "$n" | target/release/ragtag run - > "$out/ragtag-surface.json"
echo
python3 bench/compare_more.py "Operations: $n ragged rows, a [1000, 10000] int64 tensor, [500, 500] float32 matrices" \
    "$out/anchors-surface.json" "$out/ragtag-surface.json"

# The Python-level loops around the tensors, beside CPython in the same run
# (bench/python_loops.sh: 10⁶ passes each, best of three whole-process runs).
echo
echo "Python loops: ragtag beside CPython (bench/python_loops.sh)"
bench/python_loops.sh
