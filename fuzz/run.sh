#!/usr/bin/env bash
# Runs one fuzz target for a while on this machine's stable toolchain and prints a closing
# line `fuzz_TARGET: 1 passed, 0 failed` (or `0 passed, 1 failed` when it found a crash).
#
#   bash fuzz/run.sh parse 60        # target, seconds
#   bash fuzz/run.sh eval 1800
#   bash fuzz/run.sh files 60        # the readers, on mutated files
#   bash fuzz/run.sh build           # only build every target (one cargo build), run none
#   bash fuzz/run.sh merge eval      # fold fuzz/seeds into fuzz/corpus/eval (see below)
#
# `build` lets CI build the instrumented targets while other parts run; a run after it finds
# them built (the same flags, so cargo has nothing left to do).
#
# New inputs that reach new code go to fuzz/corpus/TARGET (kept in the repository); the
# project's own programs in fuzz/seeds start every run but CI's (CI=true): CI replays the
# corpus alone, which `merge` keeps holding whatever the seeds reach (run it after
# fuzz/make_seeds.py changes the seeds); fuzz/ragtag.dict holds the language's tokens. A crash leaves its input in fuzz/artifacts/TARGET: replay it with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-…`.
#
# cargo-fuzz needs nightly features; RUSTC_BOOTSTRAP=1 unlocks them on the stable toolchain.
set -uo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET SECONDS, or fuzz/run.sh build}
seconds=${2:-60}
export RUSTC_BOOTSTRAP=1
# cargo-fuzz only drives cargo and libFuzzer, so its own build needs no optimisation: the
# debug install builds quicker.
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked --quiet --debug || { echo "fuzz_$target: 0 passed, 1 failed"; exit 1; }
fi
# -O is cargo-fuzz's default (a release build with line tables, without debug assertions);
# it is written out so that `build` and `run` ask for the very same build.
# RAGTAG_FUZZ_TARGET_DIR puts the instrumented build elsewhere than fuzz/target: CI keeps it
# in a per-machine cache, so a fresh clone rebuilds only ragtag's own crates, not the
# instrumented dependencies (arrow and parquet among them) every time.
build_dir=(--target-dir "${RAGTAG_FUZZ_TARGET_DIR:-fuzz/target}")
if [ "$target" = build ]; then
    cargo fuzz build -O "${build_dir[@]}"
    exit
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# libFuzzer's merge keeps the smallest set of inputs that reaches every feature the corpus
# and the seeds reach together; it replaces the corpus. (The eval target writes files into
# the working directory, as a user's program would: the merge says when it left any.)
if [ "$target" = merge ]; then
    target=${2:?usage: fuzz/run.sh merge TARGET}
    seeds=fuzz/seeds
    [ "$target" = files ] && seeds=fuzz/seeds-files
    merged=$(mktemp -d)
    before=$(git status --porcelain --untracked-files=all -- . ':!fuzz' | wc -l)
    cargo fuzz run -O "${build_dir[@]}" "$target" "$merged" "fuzz/corpus/$target" "$seeds" -- \
        -merge=1 -timeout=10 -detect_leaks=0 -malloc_limit_mb=1024 -rss_limit_mb=4096 \
        -max_len=4096 2>&1 | grep -E '^MERGE-OUTER' | tail -3
    rc=${PIPESTATUS[0]}
    if [ "$rc" -eq 0 ]; then
        rm -rf "fuzz/corpus/$target"
        mv "$merged" "fuzz/corpus/$target"
        echo "fuzz/corpus/$target: $(ls "fuzz/corpus/$target" | wc -l) inputs"
    fi
    after=$(git status --porcelain --untracked-files=all -- . ':!fuzz' | wc -l)
    [ "$after" -eq "$before" ] || echo "the eval target left files in the working directory: git status"
    exit "$rc"
fi
mkdir -p "fuzz/corpus/$target"
# -timeout: an input running this long counts as a hang (the eval target interrupts each
#   input after half a second, so only an input that ignores interrupts gets here);
# -malloc_limit_mb: one allocation this large is a crash, so an allocation that skips the
#   memory budget (64 MiB per operation in the eval target) is found;
# -rss_limit_mb: the whole process may not grow past this;
# -detect_leaks=0: a reference cycle (a list that holds itself, closures kept in a list in
#   the function that made them) lives until the session ends, as README's "Limits and
#   safety" says: values are reference counted with no cycle collector, so LeakSanitizer
#   would report every such program; memory growth is still bounded by -rss_limit_mb.
# The `files` target starts from small valid files of every format (fuzz/seeds-files, made
# by fuzz/make_file_seeds.sh); the others from programs, with the language's tokens.
if [ "$target" = files ]; then
    start=(fuzz/seeds-files) dict=()
elif [ -n "${CI:-}" ]; then
    start=() dict=(-dict=fuzz/ragtag.dict)
else
    start=(fuzz/seeds) dict=(-dict=fuzz/ragtag.dict)
fi
cargo fuzz run -O "${build_dir[@]}" "$target" "fuzz/corpus/$target" ${start[@]+"${start[@]}"} -- \
    "${dict[@]}" -max_total_time="$seconds" -timeout=10 -detect_leaks=0 \
    -malloc_limit_mb=1024 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
    2>&1 | tee "target/fuzz-$target.log" | grep -E '^(#[0-9]+.*(DONE|pulse)|==|SUMMARY|stat::|Done|.*(panicked|ERROR|crash-|timeout-|oom-))' | tail -40
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ]; then
    echo "fuzz_$target: 1 passed, 0 failed"
else
    echo "fuzz_$target: 0 passed, 1 failed"
fi
exit "$rc"
