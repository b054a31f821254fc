#!/usr/bin/env bash
# The Python-level loops people write around tensors, timed in ragtag and CPython in the
# same run: each program in bench/python_loops/ runs in both (best of 3 wall-clock runs of
# the whole process, start-up included), their outputs must agree, and the table shows
# ragtag ÷ CPython. Asserts nothing beyond equal outputs; the README shows its latest table.
#
#   bench/python_loops.sh [PYTHON]       # default python3 (CPython 3.11 is the reference)
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-python3}
bin=target/release/ragtag
[ -x "$bin" ] || cargo build --release --quiet
best() {
    local t best=
    for _ in 1 2 3; do
        t=$( { /usr/bin/time -f '%e' "$@" > /dev/null; } 2>&1 | tail -1)
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    echo "$best"
}
echo "CPython: $("$py" --version 2>&1); machine: $(nproc) cores"
printf '%-16s %10s %10s %8s\n' program cpython_s ragtag_s ratio
for f in bench/python_loops/*.py; do
    name=$(basename "$f" .py)
    want=$("$py" "$f")
    got=$("$bin" run "$f")
    if [ "$want" != "$got" ]; then
        echo "$name: outputs differ: CPython '$want', ragtag '$got'" >&2
        exit 1
    fi
    c=$(best "$py" "$f")
    r=$(best "$bin" run "$f")
    printf '%-16s %10s %10s %8s\n' "$name" "$c" "$r" "$(awk "BEGIN{printf \"%.2f\", $r / ($c > 0 ? $c : 0.01)}")"
done
