"""Fixtures for the browser tests: a JupyterLab server and a chromium page.

Contents:
- ``lab``: a ``labserver.LabServer`` started in a temp dir once per test process (a server start is 15-28 s on
  CI's 2 cores; each test module started its own), ``reset()`` after each test (no session, kernel, workspace
  or changed setting carries over), stopped by PID at the end with an assertion that none of its processes
  is left. ``notebook7``: the same for Notebook 7 (``LabServer(app="notebook")``); ``lab_without_extension``:
  a JupyterLab where our labextension is disabled, as a user or an admin does (the widget draws there).
- ``browser`` (module): headless /usr/bin/chromium. Not for the session: playwright's sync API keeps an asyncio
  loop running on the worker's main thread while it is open, and the tests that follow the browser suite on that
  worker (an ``asyncio.run`` in a golden cell) would find it. A missing browser skips locally and FAILS in CI
  (env CI=true), as does an unbuilt renderer.
- ``page``: a fresh page that records dialogs (``page.dialogs``) and page errors (``page.errors``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import labserver


def _unavailable(reason: str):
    if labserver.IN_CI:
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _server(tmp_path_factory, app: str, disabled: tuple[str, ...] = ()):
    problem = labserver.labextension_problem()
    if problem:
        _unavailable(problem)
    server = labserver.LabServer(tmp_path_factory.mktemp(app), app=app, disabled=disabled).start()
    try:
        yield server
    finally:
        left = server.stop()
        assert left == [], f"processes of the jupyter {app} server still alive: {left}"


@pytest.fixture(scope="session")
def _lab_server(tmp_path_factory):
    yield from _server(tmp_path_factory, "lab")


@pytest.fixture(scope="session")
def _notebook7_server(tmp_path_factory):
    try:
        import notebook
    except ImportError:
        _unavailable("Notebook 7 is missing: pip install -e '.[test]' (notebook>=7)")
    if int(notebook.__version__.split(".")[0]) < 7:
        _unavailable(f"notebook {notebook.__version__} is installed; the tests need Notebook 7")
    yield from _server(tmp_path_factory, "notebook")


@pytest.fixture(scope="session")
def _lab_without_extension_server(tmp_path_factory):
    yield from _server(tmp_path_factory, "lab", disabled=(labserver.LABEXTENSION,))


@pytest.fixture
def lab_without_extension(_lab_without_extension_server):
    yield _lab_without_extension_server
    _lab_without_extension_server.reset()


@pytest.fixture
def lab(_lab_server):
    yield _lab_server
    _lab_server.reset()


@pytest.fixture
def notebook7(_notebook7_server):
    yield _notebook7_server
    _notebook7_server.reset()


@pytest.fixture(scope="module")
def browser():
    problem = labserver.browser_missing()
    if problem:
        _unavailable(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = labserver.launch_chromium(pw)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1500, "height": 2200})
    pg = context.new_page()
    pg.dialogs = []
    pg.errors = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    try:
        yield pg
    finally:
        context.close()
