#!/usr/bin/env bash
# The guide notebook in a real JupyterLab, run by a headless Chromium: every cell runs on the
# ragtag kernel, the page must show ragtag's annotated HTML tables, a draw() picture and a help()
# page (printed in its cell) in its output areas; screenshots in the light and dark
# themes are saved to target/jupyterlab-guide.png and target/jupyterlab-guide-dark.png.
#
#   tests/jupyter/screenshot.sh                 # builds and uses target/debug/ragtag
#   RAGTAG_BIN=target/release/ragtag tests/jupyter/screenshot.sh
#
# Needs Chromium at /usr/bin/chromium (Debian: apt-get install -y chromium; installed here
# when missing and running as root). Installs JupyterLab and Playwright into the virtualenv
# that tests/jupyter/run_kernel_tests.sh uses. The last line is `screenshot: N passed, N failed`.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

fail() {
    echo "$*" >&2
    echo "screenshot: 0 passed, 1 failed"
    exit 1
}

chromium="${RAGTAG_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
            >/dev/null || fail "apt-get install chromium failed"
    else
        fail "no Chromium at $chromium (apt-get install -y chromium)"
    fi
fi

# shellcheck source=tests/jupyter/env.sh
. "$root/tests/jupyter/env.sh"
jupyter_env "$root/tests/jupyter/requirements.txt" "$root/tests/jupyter/requirements-lab.txt" \
    || fail "the Jupyter environment could not be set up"

exec "$py" "$root/tests/jupyter/screenshot.py" --chromium "$chromium" \
    --notebook "$root/examples/ragged_guide.ipynb" --out "$root/target/jupyterlab-guide.png"
