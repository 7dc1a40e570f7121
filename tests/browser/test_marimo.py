"""``explore(fn)(*args)`` in marimo: the explorer draws as a widget (issue 24).

marimo has no cell magics; a marimo notebook calls the Python API and shows the exploration as a cell's last
expression. marimo's server (``marimo run``, headless, no token) runs the notebook, and headless Chromium must
show the full explorer (marimo draws the anywidget inside a shadow root: Playwright's CSS locators pierce it):
every pane, the frame navigator with a click that selects the resume frame, the FX graph as SVG, the light-theme
values on the root (marimo has no ``--jp-*`` variables), and no request leaving 127.0.0.1.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import labserver
import pytest
from labserver import ARTIFACTS, REPO

from compiler.schema import PANES

pytestmark = pytest.mark.browser

ROOT = '.jp-DynamoExplorer[data-host="widget"]'

NOTEBOOK = """import marimo

app = marimo.App()


@app.cell
def _():
    import torch
    from kernel_ext import explore

    def toy_example(a, b):
        x = a / (torch.abs(a) + 1)
        if b.sum() < 0:
            b = b * -1
        return x * b

    ex = explore(toy_example, backend="eager")(torch.randn(10), -torch.ones(10))
    ex
    return (ex,)


if __name__ == "__main__":
    app.run()
"""


@pytest.fixture
def marimo_app(tmp_path):
    try:
        import marimo  # noqa: F401
    except ImportError:
        missing = "marimo is missing: pip install -e '.[test]'"
        pytest.fail(missing) if labserver.IN_CI else pytest.skip(missing)
    (tmp_path / "nb.py").write_text(NOTEBOOK)
    port = labserver.free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "MARIMO_SKIP_UPDATE_CHECK": "1"}
    log = open(tmp_path / "marimo.log", "wb")  # noqa: SIM115 - the server writes to it until the end
    cmd = [sys.executable, "-m", "marimo", "run", "nb.py", "--headless", "--no-token", "-p", str(port), "--host", "127.0.0.1"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"marimo did not start: {(tmp_path / 'marimo.log').read_text()[-3000:]}") from None
                time.sleep(0.3)
        yield url, tmp_path / "marimo.log"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()


def test_explore_draws_the_explorer_in_marimo(marimo_app, page):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    url, log = marimo_app
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    root = page.locator(f'{ROOT}[data-status="ready"]')
    try:
        root.wait_for(timeout=240_000)
    except PlaywrightTimeout:
        pytest.fail(f"no explorer drawn; marimo's log (it shows a cell's exception only there):\n{log.read_text()[-3000:]}")
    for name in PANES:
        assert root.locator(f'[data-pane="{name}"]').count() == 1, name
    assert "jp-DynamoExplorer-standalone" in root.get_attribute("class")  # marimo has no --jp-* theme
    nav = root.locator('[data-pane="frames"]')
    assert "toy_example" in nav.inner_text()
    assert root.locator('[data-pane="fx-graph"] svg g.node[data-node]').count() > 0
    resume = nav.locator("[data-compile-id]").nth(1)  # toy_example's resume function, after the break
    compile_id = resume.get_attribute("data-compile-id")
    resume.click()
    root.locator(f'.jp-DynamoExplorer-frameTitle[data-compile-id="{compile_id}"]').wait_for(timeout=30_000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "marimo.png"))
    assert [u for u in requests if not u.startswith(("http://127.0.0.1", "data:", "blob:"))] == []
    assert page.errors == [], page.errors
