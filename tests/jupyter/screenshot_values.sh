#!/usr/bin/env bash
# Values that are not tensors and the cell magics in a real JupyterLab (screenshot.py --plain;
# every cell must run without error): a dict of tensors, a set, an instance with its
# __repr__, %%timeit, help(tf.ragged.constant) and draw(a, b), shot to target/jupyterlab-values.png and
# target/jupyterlab-values-dark.png.
#
#   RAGTAG_BIN=target/release/ragtag tests/jupyter/screenshot_values.sh
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
    --plain --notebook "$root/tests/jupyter/values_notebook.ipynb" --out "$root/target/jupyterlab-values.png"
