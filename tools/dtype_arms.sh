#!/usr/bin/env bash
# Counts the per-dtype match arms of the engine: lines that name one dtype's variant of
# Buffer, Builder or Scalar, or match on one DType. Adding a dtype touches each such line,
# so the count is how far a new dtype reaches. Test code (tests.rs, *_tests.rs and what
# follows a file's #[cfg(test)]) is counted apart.
#   tools/dtype_arms.sh                # crates/engine/src: totals, then the files with most
#   tools/dtype_arms.sh DIR [--files]  # another tree; --files lists every file
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-crates/engine/src}
pattern='(Buffer|Builder|Scalar)::(Bool|I32|I64|F32|F64|Str)([^A-Za-z0-9_]|$)|DType::(Bool|Int32|Int64|Float32|Float64|String)[[:space:]]*(=>|[|])'
find "$dir" -name '*.rs' -print0 | sort -z | xargs -0 awk -v pat="$pattern" '
    FNR == 1 { test = (FILENAME ~ /(^|\/)(tests|[a-z_]*_tests)\.rs$/) }
    /#\[cfg\(test\)\]/ { test = 1 }
    $0 ~ pat { if (test) { t[FILENAME]++; tt++ } else { c[FILENAME]++; cc++ } }
    END {
        printf "per-dtype arms in %s: %d (%d in code, %d in tests)\n", dir, cc + tt, cc, tt
        for (f in c) printf "%6d  %s\n", c[f], f | "sort -nr"
    }' dir="$dir" | { if [ "${2:-}" = --files ]; then cat; else head -16; fi; }
