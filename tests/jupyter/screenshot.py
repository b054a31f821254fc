"""The guide notebook in a real JupyterLab, driven by a headless Chromium.

Copies the notebook into a fresh directory with its outputs cleared and a few cells that
display values as tables put first, starts `jupyter lab` on a free loopback port with a token,
opens the notebook, runs every cell, waits until each has run, checks the page and saves a
screenshot. Checks: every code cell ran; output areas hold ragtag's HTML tables (a `<table>`
under a header naming `RaggedTensor` and `ragged_rank`); explain() shows HTML tables too;
draw() shows its SVG picture; help() prints its page into the cell's output; no cell shows an
error it does not expect. The page is shot twice, in JupyterLab's light theme and in its dark
theme (`-dark` beside the first). The last line is `screenshot: N passed, N failed`.

Run by tests/jupyter/screenshot.sh, which sets up the virtualenv and the kernelspec.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright

# Shown first, so the screenshot has tables in view; the guide itself mostly prints.
TABLE_CELLS = [
    "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])\ndigits + 3",
    "draw(digits)",
    "help(tf.ragged.constant)",
    'tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])',
    "tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])",
    "explain(digits)",
]
INTRO = (
    "A few values displayed as tables (added for this screenshot), then the guide's cells."
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(notebook, workdir, plain=False):
    """Writes the notebook to run into `workdir` (the table cells put first unless `plain`);
    returns (file name, code cell count)."""
    with open(notebook, encoding="utf-8") as f:
        nb = json.load(f)
    extra = [] if plain else [{"cell_type": "markdown", "id": "shot-intro", "metadata": {}, "source": INTRO}]
    for i, code in enumerate([] if plain else TABLE_CELLS):
        extra.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"shot-{i}",
                "metadata": {},
                "outputs": [],
                "source": code,
            }
        )
    nb["cells"][1:1] = extra
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    name = "ragged_guide.ipynb"
    with open(os.path.join(workdir, name), "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
    codes = [c for c in nb["cells"] if c["cell_type"] == "code"]
    return name, len(codes)


def start_lab(workdir, port, token):
    """Starts JupyterLab serving `workdir`, with its settings and workspaces inside it."""
    config = os.path.join(workdir, ".config")
    # No news or update announcements: nothing to fetch, and no toast over the notebook.
    os.makedirs(os.path.join(config, "labconfig"))
    with open(os.path.join(config, "labconfig", "page_config.json"), "w") as f:
        json.dump({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}, f)
    # Every cell in the page, not only those in view, so the checks see every output.
    tracker = os.path.join(workdir, ".settings", "@jupyterlab", "notebook-extension")
    os.makedirs(tracker)
    with open(os.path.join(tracker, "tracker.jupyterlab-settings"), "w") as f:
        json.dump({"windowingMode": "none"}, f)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=config)
    log = open(os.path.join(workdir, ".lab.log"), "w")
    args = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--port-retries=0",
        # The machine's user may be root (CI, containers); the server is on loopback only.
        "--allow-root",
        # Nothing is looked up on PyPI for the extension manager.
        "--LabApp.extension_manager=readonly",
        "--ServerApp.terminals_enabled=False",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={workdir}",
        f"--LabApp.user_settings_dir={os.path.join(workdir, '.settings')}",
        f"--LabApp.workspaces_dir={os.path.join(workdir, '.workspaces')}",
    ]
    proc = subprocess.Popen(args, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited ({proc.returncode}); see {log.name}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                return proc, url
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("jupyter lab did not answer within 120 s")
            time.sleep(0.3)


def stop_lab(proc):
    # SIGTERM lets the server shut its kernels down cleanly.
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# Per code cell: its prompt (`[3]:`, `[*]:`, `[ ]:`) and whether it shows an error.
CELL_STATES = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-CodeCell')).map(c => {
    const p = c.querySelector('.jp-InputArea-prompt');
    return {prompt: p ? p.textContent.trim() : '',
            error: !!c.querySelector('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')};
})"""

# Output areas that show an SVG picture (JupyterLab renders image/svg+xml as an <img> or inline).
PICTURES = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
    .filter(o => o.querySelector('.jp-RenderedSVG, img[src^="data:image/svg+xml"], svg.ragtag'))
    .map(o => o.innerHTML.length)"""

# Output areas that hold a ragtag table: a <table> under the value's header annotation.
RAGTAG_TABLES = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
    .filter(o => o.querySelector('.ragtag-display table'))
    .map(o => o.textContent)"""


def run_notebook(page, url, token, name, code_cells, timeout):
    page.goto(f"{url}/lab/tree/{name}?token={token}&reset", wait_until="domcontentloaded")
    # Ready when the notebook is shown and its kernel has started (status bar says Idle).
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=timeout * 1000)
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('.jp-StatusBar-TextItem'))
                 .some(e => /ragtag \\| Idle/.test(e.textContent))""",
        timeout=timeout * 1000,
    )
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # Every code cell gets a numbered prompt once it has run.
    page.wait_for_function(
        f"""() => {{
            const ps = ({CELL_STATES})();
            return ps.length === {code_cells} && ps.every(c => /^\\[\\d+\\]:$/.test(c.prompt));
        }}""",
        timeout=timeout * 1000,
    )
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('.jp-StatusBar-TextItem'))
                 .some(e => /ragtag \\| Idle/.test(e.textContent))""",
        timeout=timeout * 1000,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebook", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--timeout", type=int, default=180, help="seconds for each wait")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="run the notebook as it is (no table cells first; their checks left out)",
    )
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="ragtag-lab-")
    profile = tempfile.mkdtemp(prefix="ragtag-chromium-")
    token = os.urandom(16).hex()
    checks = []

    def check(name, ok, detail=""):
        checks.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")

    lab = None
    try:
        name, code_cells = prepare(args.notebook, workdir, args.plain)
        lab, url = start_lab(workdir, free_port(), token)
        print(f"jupyter lab at {url} serving {workdir}")
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=args.chromium,
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 1600},
            )
            try:
                page = context.pages[0] if context.pages else context.new_page()
                try:
                    run_notebook(page, url, token, name, code_cells, args.timeout)
                    check(f"all {code_cells} code cells ran", True)
                except Exception as e:
                    states = page.evaluate(CELL_STATES)
                    pending = [i for i, c in enumerate(states) if not c["prompt"][1:-2].isdigit()]
                    check("all code cells ran", False, f"{type(e).__name__}; not run: {pending}")
                tables = page.evaluate(RAGTAG_TABLES)
                annotated = [t for t in tables if "RaggedTensor" in t and "ragged_rank" in t]
                check(
                    "ragtag tables in output areas",
                    len(annotated) >= (1 if args.plain else 3),
                    f"{len(tables)} with a table, {len(annotated)} headed RaggedTensor … ragged_rank",
                )
                if not args.plain:
                    explained = [t for t in tables if "row_splits" in t and "value_rowids" in t]
                    check("explain() renders as HTML tables", len(explained) >= 1)
                pictures = page.evaluate(PICTURES)
                check("draw() shows an SVG picture", len(pictures) >= 1, f"{len(pictures)} pictures")
                body = page.evaluate("() => document.body.innerText")
                check(
                    "help() prints its page",
                    "tf.ragged.constant(pylist" in body and "Examples" in body,
                )
                errors = [i for i, c in enumerate(page.evaluate(CELL_STATES)) if c["error"]]
                # The table cells come first and must not fail.
                check("the table cells ran without error",
                      not [i for i in errors if args.plain or i < len(TABLE_CELLS)],
                      f"cells with errors: {errors}")
                # Scroll back to the top of the notebook for the picture.
                page.evaluate(
                    """() => document.querySelectorAll('.jp-WindowedPanel-outer, .jp-Notebook')
                              .forEach(e => { e.scrollTop = 0; })"""
                )
                page.wait_for_timeout(500)
                os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
                page.screenshot(path=args.out)
                check("screenshot saved", os.path.getsize(args.out) > 10_000, args.out)
                # The same page in the dark theme: the picture's colours follow it.
                page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
                page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
                page.locator(".lm-Menu-itemLabel", has_text="JupyterLab Dark").first.click()
                page.wait_for_function(
                    "() => document.body.dataset.jpThemeLight === 'false'",
                    timeout=args.timeout * 1000,
                )
                page.wait_for_timeout(1000)
                dark = args.out[: -len(".png")] + "-dark.png" if args.out.endswith(".png") else args.out + "-dark"
                page.screenshot(path=dark)
                check("dark-theme screenshot saved", os.path.getsize(dark) > 10_000, dark)
            finally:
                context.close()
    except Exception as e:
        check("JupyterLab session", False, f"{type(e).__name__}: {e}")
    finally:
        if lab is not None:
            stop_lab(lab)
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    passed = sum(checks)
    print(f"screenshot: {passed} passed, {len(checks) - passed} failed")
    sys.exit(0 if all(checks) else 1)


if __name__ == "__main__":
    main()
