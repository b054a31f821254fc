#!/usr/bin/env bash
# The loops of bench/python_loops/ counted in machine instructions per pass, ragtag beside
# CPython, with valgrind's callgrind: a count does not move with the machine's load the way
# a time does, so a change to the interpreter can be judged on a busy machine. Each program
# runs with 10^5 passes instead of 10^6 (valgrind is ~50x slower); the start-up's count (an
# empty program) is subtracted. Instructions are not time: an atomic reference count or a
# lock costs one instruction and tens of cycles, so read this beside bench/python_loops.sh.
# The atomics columns count those instructions per pass (valgrind's bus events: every
# `lock`-prefixed instruction, each an atomic reference count change or a lock taken).
#
#   bench/python_loops_instructions.sh [PYTHON]      # needs valgrind
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
py=$("${1:-python3}" -c 'import sys; print(sys.executable)')
bin=target/release/ragtag
[ -x "$bin" ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# "instructions atomics" of one run.
count() {
    valgrind --tool=callgrind --collect-bus=yes --callgrind-out-file="$work/out" "$@" 2>&1 > /dev/null \
        | sed -n 's/.*Collected *: *//p'
}
: > "$work/empty.py"
read -r c0 ca0 <<< "$(count "$py" "$work/empty.py")"
read -r r0 ra0 <<< "$(count "$bin" run "$work/empty.py")"
passes=100000
echo "CPython: $("$py" --version 2>&1); instructions per pass (start-up subtracted)"
printf '%-16s %10s %10s %8s %16s %15s\n' program cpython ragtag ratio cpython_atomics ragtag_atomics
for f in bench/python_loops/*.py; do
    name=$(basename "$f" .py)
    sed 's/1000000/100000/g' "$f" > "$work/$name.py"
    read -r ci ca <<< "$(count "$py" "$work/$name.py")"
    read -r ri ra <<< "$(count "$bin" run "$work/$name.py")"
    c=$(( (ci - c0) / passes ))
    r=$(( (ri - r0) / passes ))
    per() { awk "BEGIN{printf \"%.1f\", ($1 - $2) / $passes}"; }
    printf '%-16s %10s %10s %8s %16s %15s\n' "$name" "$c" "$r" "$(awk "BEGIN{printf \"%.2f\", $r / $c}")" \
        "$(per "$ca" "$ca0")" "$(per "$ra" "$ra0")"
done
