#!/usr/bin/env bash
# A small notebook in a real JupyterLab (screenshot.py --plain; every cell must run without
# error): a
# dict of tensors, help(tf.ragged.constant), draw(a, b) and %timeit, shot in the light and
# dark themes to target/jupyterlab-small.png and target/jupyterlab-small-dark.png.
#
#   RAGTAG_BIN=target/release/ragtag tests/jupyter/screenshot_small.sh
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
chromium="${RAGTAG_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || { echo "no Chromium at $chromium (tests/jupyter/screenshot.sh installs it)"; exit 1; }

# shellcheck source=tests/jupyter/env.sh
. "$root/tests/jupyter/env.sh"
jupyter_env "$root/tests/jupyter/requirements.txt" "$root/tests/jupyter/requirements-lab.txt" \
    || { echo "screenshot: 0 passed, 1 failed"; exit 1; }

exec "$py" "$root/tests/jupyter/screenshot.py" --chromium "$chromium" \
    --plain --notebook "$root/tests/jupyter/small_notebook.ipynb" --out "$root/target/jupyterlab-small.png"
