#!/usr/bin/env bash
# ragtag in evcxr, the Rust REPL: installs evcxr_repl (once per machine, into a cache outside
# the clone), then feeds it a session that adds ragtag as a dependency, evaluates ragged
# tensors through ragtag::Session and checks what evcxr prints. Ends with
# `evcxr: N passed, N failed`.
#
#   bash tests/evcxr/run.sh              # every check
#   CI=true bash tests/evcxr/run.sh      # the short form: the display checks only
#   bash tests/evcxr/run.sh --install    # only install evcxr_repl if it is missing
#
# The cache is ${RAGTAG_EVCXR_ROOT:-$HOME/.cache/ragtag/evcxr}: bin/evcxr (cargo install
# --root), build/ (cargo install's target directory, so a new version reuses what it can),
# work/ (evcxr's EVCXR_TMPDIR: the crate it compiles cells in, whose target/ keeps ragtag's
# dependencies built between runs) and config/ (EVCXR_CONFIG_DIR: only an evcxr.toml that
# builds unoptimised, quicker for these small cells, so a user's own evcxr start-up files do
# not change what is checked).
#
# evcxr calls `evcxr_display` on a cell's last expression; ragtag's prints the HTML table and
# the plain-text table, each between evcxr's EVCXR_BEGIN_CONTENT / EVCXR_END_CONTENT markers.
# evcxr reads both blocks and evcxr_repl prints only the text/plain one (notebooks show the
# HTML), so the checks are: the plain table is printed, no marker and no HTML leaks into the
# output (evcxr read every block), and the HTML block itself, as evcxr_display writes it, is
# printed to stderr by the session through ragtag::render::evcxr::content.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${RAGTAG_EVCXR_ROOT:-$HOME/.cache/ragtag/evcxr}"
# The evcxr release this test is written against (its marker format and its REPL's output).
version=0.22.0
passed=0 failed=0
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

finish() {
    echo "evcxr: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
# check NAME FILE TEXT: FILE has a line containing TEXT.
check() {
    if grep -qF -- "$3" "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: no line with: $3" >&2
    fi
}
# check_not NAME FILE TEXT: FILE has no line containing TEXT.
check_not() {
    if grep -qF -- "$3" "$2"; then
        failed=$((failed + 1))
        echo "FAIL: $1: a line has: $3" >&2
        grep -nF -- "$3" "$2" | head -n 3 >&2
    else
        passed=$((passed + 1))
    fi
}

evcxr="$cache/bin/evcxr"
# evcxr_repl links rust-analyzer's crates, most of its build. Only the REPL's own speed
# depends on their optimisation, and these checks barely use it (they type their variables,
# so no type is inferred): opt-level 1 instead of release's 3 builds quicker.
# Without default features it leaves out mimalloc, its allocator (a C build).
if ! "$evcxr" --version 2>/dev/null | grep -qF "$version"; then
    echo "installing evcxr_repl $version into $cache (once per machine; many minutes)"
    mkdir -p "$cache"
    if ! nice -n 10 cargo install evcxr_repl --version "$version" --locked --quiet \
        --no-default-features --config 'profile.release.opt-level=1' \
        --root "$cache" --target-dir "$cache/build"; then
        echo "FAIL: cargo install evcxr_repl $version" >&2
        failed=1
        finish
    fi
fi
"$evcxr" --version
# --install: only make sure it is installed (CI starts this early, beside other parts).
[ "${1:-}" = --install ] && exit 0

mkdir -p "$cache/work" "$cache/config"
printf '[evcxr]\nopt_level = "0"\n' >"$cache/config/evcxr.toml"
export EVCXR_TMPDIR="$cache/work" EVCXR_CONFIG_DIR="$cache/config" NO_COLOR=1
# Cells are loaded with dlopen and find Rust's libstd through a relative RUNPATH that rustc
# writes from deps/, one directory deeper than where evcxr loads them from; under evcxr's
# default /tmp directory that lands on / by luck, under this cache it misses ("dlopen
# failed"). The toolchain's library directory on the search path finds libstd anyway.
export LD_LIBRARY_PATH="$(rustc --print target-libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# One input per line, as evcxr_repl reads them. Variables carry explicit types: evcxr infers
# a variable's type with rust-analyzer, which needs the rust-src component; with the type
# written out, the session works without it.
cells="$log/cells.txt"
cat >"$cells" <<CELLS
:dep ragtag = { path = "$root", default-features = false }
let mut s: ragtag::Session = ragtag::Session::new();
s.run("rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])").unwrap(); s.get("rt").map(|v| v.type_name())
s.eval("rt").unwrap()
eprintln!("{}", ragtag::render::evcxr::content(&s.eval("rt").unwrap(), &ragtag::render::evcxr::options()));
CELLS
if [ "${CI:-}" != true ]; then
    cat >>"$cells" <<'CELLS'
s.eval("rt[:, -2:] * 10").unwrap()
s.eval("rt[7]").unwrap_err().to_string()
use ragtag::EvcxrDisplay;
ragtag::engine::Ragged::new(vec![ragtag::engine::RowPartition::from_row_lengths(&[1, 2], None).unwrap()], ragtag::engine::Tensor::from_i64(vec![7, 8, 9])).unwrap()
CELLS
fi

# Compiling ragtag inside evcxr takes minutes the first time, seconds afterwards.
if ! (cd "$log" && "$evcxr" --disable-readline --opt 0 <"$cells" >"$log/out.txt" 2>"$log/err.txt"); then
    echo "FAIL: evcxr_repl exited with an error" >&2
    failed=$((failed + 1))
fi
echo "---- evcxr_repl's output ----"
cat "$log/out.txt"
echo "---- its standard error ----"
cat "$log/err.txt"
echo "----"

out="$log/out.txt" err="$log/err.txt"
# The name run() defined, seen from Rust.
check "a name defined by run()" "$out" 'Some("RaggedTensor")'
# s.eval("rt") shown by evcxr_display: the plain-text table.
check "the table's header" "$out" "RaggedTensor  dtype=int32  shape=[3, None(0..3)]  ragged_rank=1  values=5"
check "the table's last row" "$out" "│   2 ┆   2 ┆ 4 ┆ 5 ┆ · │"
# evcxr read both blocks: neither its markers nor the HTML reached the output.
check_not "markers read by evcxr" "$out" "EVCXR_"
check_not "the HTML block read by evcxr" "$out" "ragtag-display"
# The HTML, between evcxr's markers, as evcxr_display writes it.
check "the HTML block opens" "$err" "EVCXR_BEGIN_CONTENT text/html"
check "the HTML table" "$err" '<div class="ragtag-display"'
check "the HTML header" "$err" '<span style="font-weight:700">RaggedTensor</span>'
check "the plain block opens" "$err" "EVCXR_BEGIN_CONTENT text/plain"
check "the blocks close" "$err" "EVCXR_END_CONTENT"
check_not "no compilation error" "$err" "error["
if [ "${CI:-}" != true ]; then
    check "an expression on a session name" "$out" "│   0 ┆   2 ┆ 20 ┆ 30 │"
    check "an error as Python's class" "$out" '"IndexError: Row key 7 out of bounds'
    check "an engine tensor built in Rust" "$out" "│   1 ┆   2 ┆ 8 ┆ 9 │"
fi
finish
