#!/usr/bin/env bash
# The Python-level loops people write around tensors, timed in ragtag and CPython in the
# same run: each program in bench/python_loops/ runs in both (best of 3 wall-clock runs of
# the whole process, start-up included), their outputs must agree, and the table shows
# ragtag ÷ CPython. Asserts nothing beyond equal outputs; the README shows its latest table.
#
#   bench/python_loops.sh [PYTHON]       # default python3 (CPython 3.11 is the reference)
#
# PYTHON is resolved to the interpreter binary itself (`sys.executable`): a version manager's
# `python3` is often a shell shim (pyenv's costs 60-100 ms a start) whose time is not
# CPython's. The empty row times each one's start-up alone.
set -euo pipefail
cd "$(dirname "$0")/.."
py=$("${1:-python3}" -c 'import sys; print(sys.executable)')
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
empty=$(mktemp --suffix=.py)
trap 'rm -f "$empty"' EXIT
c=$(best "$py" "$empty")
r=$(best "$bin" run "$empty")
printf '%-16s %10s %10s %8s\n' "(empty)" "$c" "$r" "$(awk "BEGIN{printf \"%.2f\", $r / ($c > 0 ? $c : 0.01)}")"
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
