#!/usr/bin/env bash
# The small-N regression guard (bench/instructions.py): builds the workload example in
# release mode and compares callgrind's instruction counts with bench/instructions.json.
#   bench/instructions.sh            # check
#   bench/instructions.sh --bless    # store this run's counts
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq --no-install-recommends valgrind) >/dev/null 2>&1 || true
    fi
    command -v valgrind >/dev/null 2>&1 || { echo "valgrind is missing (apt-get install valgrind)"; echo "instructions: 0 passed, 1 failed"; exit 1; }
fi
cargo build --release --quiet --example small_ops
python3 bench/instructions.py "$@"
