# Sourced by the scripts beside it: a Python virtualenv with Jupyter, isolated from the user's
# Jupyter set-up, and ragtag's kernelspec installed in it.
#
# In: root (the repository), RAGTAG_BIN (optional; else target/debug/ragtag, built here),
#     RAGTAG_JUPYTER_VENV (optional; else target/jupyter-venv), and the requirement files
#     to install as arguments of jupyter_env.
# Out: venv, py, bin (absolute), the JUPYTER_* variables exported. Returns non-zero on failure.

jupyter_env() {
    venv="${RAGTAG_JUPYTER_VENV:-$root/target/jupyter-venv}"
    py="$venv/bin/python"
    bin="${RAGTAG_BIN:-}"
    if [ -z "$bin" ]; then
        cargo build --quiet --bin ragtag || { echo "cargo build failed" >&2; return 1; }
        bin="$root/target/debug/ragtag"
    fi
    [ -x "$bin" ] || { echo "no ragtag binary at $bin" >&2; return 1; }
    bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

    if [ ! -x "$py" ]; then
        # Debian's python3 has no venv module without python3-venv; virtualenv from PyPI
        # does the same job.
        python3 -m venv "$venv" 2>/dev/null || {
            rm -rf "$venv"
            PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check \
                --user virtualenv \
                && python3 -m virtualenv --quiet "$venv"
        } || {
            echo "cannot create a virtualenv (on Debian: apt-get install -y python3-venv)" >&2
            return 1
        }
    fi
    local req
    for req in "$@"; do
        "$py" -m pip install --quiet --disable-pip-version-check -r "$req" || {
            echo "pip install -r $req failed" >&2
            return 1
        }
    done

    # Jupyter's own directories inside the virtualenv: a kernelspec, setting or workspace of
    # the user's cannot change what the tests see.
    export JUPYTER_DATA_DIR="$venv/share/jupyter"
    export JUPYTER_CONFIG_DIR="$venv/etc/jupyter"
    export JUPYTER_RUNTIME_DIR="$venv/share/jupyter/runtime"
    export JUPYTER_PLATFORM_DIRS=1
    export IPYTHONDIR="$venv/etc/ipython"
    unset JUPYTER_PATH JUPYTER_CONFIG_PATH
    mkdir -p "$JUPYTER_RUNTIME_DIR" "$JUPYTER_CONFIG_DIR"

    "$bin" jupyter install --prefix "$venv" >/dev/null || {
        echo "ragtag jupyter install failed" >&2
        return 1
    }
    # The list is read whole before it is searched: `grep -q` stops reading at the first
    # match, and under pipefail the lister's broken pipe would fail the check.
    local specs
    specs="$("$venv/bin/jupyter" kernelspec list)" || {
        echo "jupyter kernelspec list failed" >&2
        return 1
    }
    grep -qw ragtag <<<"$specs" || {
        echo "jupyter does not list the ragtag kernel" >&2
        return 1
    }
    echo "kernel: $bin (kernelspec in $venv)"
}
