"""Hostile user strings in a real ``%%dynamo`` run stay text in the browser.

The cell puts ``<script>`` and ``<img onerror>`` into its source (a comment), a dict key that ends up
in guards, a function's code name (the frame navigator) and the exception it raises. No dialog may
open, the page title must not change, no script/img element may appear in the explorer, and the
strings must be visible as text.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

HOSTILE = r"""%%dynamo --backend eager
import torch
# <script>alert('comment')</script>
KEY = "<img src=x onerror=\"document.title='pwned-key'\">"

def f(x, d):
    y = x + d[KEY]
    return y * 2

f.__code__ = f.__code__.replace(co_name="<img src=x onerror=alert('name')>")
f(torch.ones(3), {KEY: torch.ones(3)})
raise ValueError("<script>alert('exc')</script><img src=x onerror=\"document.title='pwned-exc'\">")
"""

ROOT = ".jp-DynamoExplorer"


def test_hostile_strings_render_as_text(lab, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "xss.ipynb", ["%load_ext kernel_ext", HOSTILE])
    labserver.open_notebook(page, lab, "xss.ipynb")
    title = page.title()
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    page.wait_for_timeout(1000)  # give any injected handler time to fire
    root = page.locator(ROOT)

    assert page.dialogs == []
    assert page.title() == title
    assert page.evaluate("() => document.title.includes('pwned')") is False
    assert root.locator("script, img, iframe, object, embed").count() == 0
    handlers = root.evaluate(
        "r => Array.from(r.querySelectorAll('*')).flatMap(e => Array.from(e.attributes).filter(a => a.name.startsWith('on')).map(a => e.tagName + ' ' + a.name))"
    )
    assert handlers == []

    text = root.inner_text()
    assert "<script>alert('comment')</script>" in root.locator('[data-pane="source"]').inner_text()
    assert "<img src=x onerror=alert('name')>" in root.locator('[data-pane="frames"]').inner_text()
    assert "ValueError" in text and "<script>alert('exc')</script>" in text
    guards = root.locator('[data-pane="guards"]').inner_text()
    assert "<img src=x onerror=" in guards
    root.screenshot(path=str(ARTIFACTS / "xss.png"))
    assert page.errors == [], page.errors
