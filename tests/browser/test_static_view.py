"""The static view (``kernel_ext/static_html.py``) as nbconvert's HTML shows it, in headless chromium.

A notebook whose outputs are ``%%dynamo`` bundles of golden reports (``kernel_ext.display.bundle``) is
converted with ``jupyter nbconvert --to html`` (the lab template, and the classic one nbviewer-style pages
use), and the page is opened from disk. Both templates right-align every table cell of an HTML output
(``.jp-RenderedHTMLCommon td`` / ``.rendered_html td``); the view's text columns must read left-aligned.
The FX pictures must be drawn (a real size on the page), and each graph-break line of the cell source marked,
with the break's reason in its tooltip. Screenshots go to artifacts/browser/static_*.png.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import nbformat
import pytest
from labserver import ARTIFACTS, REPO

from kernel_ext.display import bundle

pytestmark = pytest.mark.browser

GOLDENS = ("toy_example", "dynamic_sizes")


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("static")
    nb = nbformat.v4.new_notebook()
    for name in GOLDENS:
        report = json.loads((REPO / "tests" / "goldens" / f"{name}.report.json").read_text(encoding="utf-8"))
        output = nbformat.v4.new_output("display_data", data=bundle(report))
        nb.cells.append(nbformat.v4.new_code_cell(f"%%dynamo  # {name}", outputs=[output], execution_count=1))
    path = tmp / "static.ipynb"
    nbformat.write(nb, path)
    pages = {}
    for template in ("lab", "classic"):
        out = tmp / f"static-{template}"
        cmd = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--template", template, str(path)]
        proc = subprocess.run([*cmd, "--output", str(out)], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert "WARNING" not in proc.stderr, proc.stderr
        pages[template] = out.with_suffix(".html")
    return pages


@pytest.mark.parametrize("template", ["lab", "classic"])
def test_nbconvert_page_shows_left_aligned_columns_pictures_and_marks(converted, browser, template):
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    page = context.new_page()
    try:
        page.goto(converted[template].as_uri())
        reports = page.locator(".dx-report")
        assert reports.count() == len(GOLDENS)
        aligns = page.locator(".dx-report td, .dx-report th").evaluate_all("els => els.map(e => getComputedStyle(e).textAlign)")
        assert aligns and set(aligns) == {"left"}, sorted(set(aligns))
        marks = page.locator(".dx-report .dx-src .dx-mark")
        assert marks.count() >= 1
        assert "Data-dependent branching" in marks.first.get_attribute("title")
        if shutil.which("dot"):
            boxes = page.locator(".dx-report .dx-fx svg").evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
            )
            assert boxes and all(w > 50 and h > 50 for w, h in boxes), boxes
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        reports.first.screenshot(path=str(ARTIFACTS / f"static_{template}.png"))
    finally:
        context.close()
