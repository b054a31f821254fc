#!/usr/bin/env bash
# The kernel against Jupyter's own client libraries: jupyter_kernel_test's protocol tests and
# the guide notebook executed by nbclient, compared with its stored outputs.
#
#   tests/jupyter/run_kernel_tests.sh                  # builds and tests target/debug/ragtag
#   RAGTAG_BIN=target/release/ragtag tests/jupyter/run_kernel_tests.sh   # an existing binary
#
# Creates a virtualenv (target/jupyter-venv unless RAGTAG_JUPYTER_VENV names another), installs
# tests/jupyter/requirements.txt into it and installs the binary's kernelspec there. Jupyter's
# data, config and runtime directories point into the virtualenv, so a kernelspec or setting of
# the user's cannot change the result. Exits non-zero when anything fails; the last line is
# `jupyter: N passed, N failed, N skipped`.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

fail() {
    echo "$*" >&2
    echo "jupyter: 0 passed, 1 failed"
    exit 1
}

# shellcheck source=tests/jupyter/env.sh
. "$root/tests/jupyter/env.sh"
jupyter_env "$root/tests/jupyter/requirements.txt" || fail "the Jupyter environment could not be set up"

# Each part ends with its own `name: N passed, N failed[, N skipped]` line.
passed=0 failed=0 skipped=0 status=0
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
tally() {
    local line p f s
    line="$(grep -E '^[a-z_]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
    if [ -z "$line" ]; then
        failed=$((failed + 1))
        return
    fi
    p="$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")"
    f="$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")"
    s="$(sed -nE 's/.* ([0-9]+) skipped.*/\1/p' <<<"$line")"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}

echo "---- jupyter_kernel_test (protocol conformance)"
(cd "$root/tests/jupyter" && "$py" test_ragtag_kernel.py) 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tally

echo "---- examples/ragged_guide.ipynb (nbclient, compared with stored outputs)"
# The guide draws unseeded random numbers; the kernel starts from the transcripts' fixed seed
# so that they match the stored outputs.
RAGTAG_REPRODUCIBLE=1 "$py" "$root/tests/jupyter/run_notebook.py" "$root/examples/ragged_guide.ipynb" 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tally

[ "$failed" -eq 0 ] || status=1
echo "jupyter: $passed passed, $failed failed, $skipped skipped"
exit $status
