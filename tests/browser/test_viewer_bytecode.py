"""The bytecode panes and the pane layout in a real JupyterLab (headless chromium), on the toy_example golden.

The notebook holds tests/goldens/toy_example.report.json as a saved display_data output (no kernel runs).
At a 1,168 px explorer the checks are: every argument readable (no cell cut: ``LOAD_GLOBAL torch`` in full,
the modified code's call rows too), Dynamo's glue folded into labelled rows that expand by click and by
keyboard, the original and modified rows of one source line at the same height (also after a fold opens,
and scrolled together), a pane maximised and restored (button and Escape), the splitter and the height
handle dragged. Then, at 760 px (a narrow notebook column) and in Notebook 7, the arguments are still there.
Screenshots land in artifacts/browser/bytecode/.
"""

from __future__ import annotations

import json

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
EXPLORER_WIDTH = 1168
GOLDEN = labserver.REPO / "tests" / "goldens" / "toy_example.report.json"
OUT = ARTIFACTS / "bytecode"


def _notebook(path, report) -> None:
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "source": "# toy_example",
        "outputs": [{"output_type": "display_data", "metadata": {}, "data": {labserver.MIME: report, "text/plain": "toy"}}],
    }
    metadata = {
        "kernelspec": {"name": labserver.KERNEL, "display_name": "Dynamo Explorer (browser tests)", "language": "python"},
        "language_info": {"name": "python"},
    }
    path.write_text(json.dumps({"cells": [cell], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}))


def _open(page, lab, report, width: int):
    """Open the saved output with the explorer `width` px wide; return the root locator."""
    _notebook(lab.root / "bytecode.ipynb", report)
    page.goto(f"{lab.url}/lab/tree/bytecode.ipynb?token={lab.token}")
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=120_000)
    page.evaluate("() => { const s = window.jupyterapp.shell; if (!s.leftCollapsed) { s.collapseLeft(); } }")
    root = page.locator(ROOT)
    # The viewport is what a user changes: widen or narrow it until the explorer has the width asked for.
    for _ in range(4):
        now = root.evaluate("el => el.getBoundingClientRect().width")
        if abs(now - width) < 1:
            break
        size = page.viewport_size
        page.set_viewport_size({"width": int(size["width"] + width - now), "height": size["height"]})
        page.wait_for_timeout(200)
    assert abs(root.evaluate("el => el.getBoundingClientRect().width") - width) < 1
    return root


def _aligned(page) -> None:
    page.wait_for_function(
        f"""() => ['original-bytecode', 'modified-bytecode'].every(p =>
            document.querySelector('{ROOT} [data-pane="' + p + '"] .jp-DynamoExplorer-paneBody').dataset.align === 'on')"""
    )
    page.wait_for_timeout(100)  # the aligner runs in an animation frame after each change


CLIPPED_JS = """pane => Array.from(pane.querySelectorAll('.jp-DynamoExplorer-argrepr'))
    .filter(c => c.offsetParent !== null && c.scrollWidth > c.clientWidth + 1)
    .map(c => c.textContent)"""


def _top(locator) -> float:
    return locator.evaluate("el => el.getBoundingClientRect().top")


def test_bytecode_panes(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    report = json.loads(GOLDEN.read_text())
    frame = report["frames"][0]
    root = _open(page, lab, report, EXPLORER_WIDTH)
    original = root.locator('[data-pane="original-bytecode"]')
    modified = root.locator('[data-pane="modified-bytecode"]')
    o_body = original.locator(".jp-DynamoExplorer-paneBody")
    m_body = modified.locator(".jp-DynamoExplorer-paneBody")

    # 1. Arguments readable: `LOAD_GLOBAL torch` in full, nothing cut in either pane, no sideways scrolling.
    ins = next(i for i in frame["original_bytecode"] if i["opname"] == "LOAD_GLOBAL" and i["argrepr"].endswith("torch"))
    torch_row = original.locator(f'.jp-DynamoExplorer-row[data-offset="{ins["offset"]}"]')
    assert torch_row.locator(".jp-DynamoExplorer-opname").inner_text() == "LOAD_GLOBAL"
    arg = torch_row.locator(".jp-DynamoExplorer-argrepr")
    assert arg.inner_text() == ins["argrepr"]  # 'NULL + torch' on Python 3.11, all of it
    assert arg.get_attribute("title") == ins["argrepr"]
    assert arg.evaluate("c => c.scrollWidth <= c.clientWidth")
    assert arg.evaluate(
        "c => { const r = c.getBoundingClientRect(), b = c.closest('.jp-DynamoExplorer-paneBody').getBoundingClientRect(); return r.right <= b.right + 1; }"
    )
    for pane in (original, modified):
        assert pane.evaluate(CLIPPED_JS) == []
        assert pane.locator(".jp-DynamoExplorer-paneBody").evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    root.screenshot(path=str(OUT / "folded_aligned.png"))

    # 2. The glue is folded: 8 rows for 179 instructions, the graph and resume links on the labelled rows.
    assert modified.locator(".jp-DynamoExplorer-row:visible").count() == 8
    graph_call = modified.locator('[data-fold="graph-call"]')
    assert "call graph" in graph_call.inner_text() and "→ graph 0" in graph_call.inner_text()
    assert modified.locator('[data-fold="resume-call"] a[data-ref-kind="resume"]').count() == 2

    # 3. Aligned by source line: the first row of line 8 at the same height in both panes.
    _aligned(page)
    line8 = '.jp-DynamoExplorer-bytecode > .jp-DynamoExplorer-row[data-line-key="cell:8"]'
    assert abs(_top(original.locator(line8).first) - _top(modified.locator(line8).first)) < 1.5

    # 4. A fold expands on click: its 23 instructions show, and the alignment follows.
    button = graph_call.locator("button")
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    members = modified.locator('[data-fold-body="graph-call"] .jp-DynamoExplorer-row')
    assert members.count() == 23
    assert members.first.is_visible()
    assert "record_pregraph_bytecode_enter" in modified.locator('[data-fold-body="graph-call"]').inner_text()
    _aligned(page)
    o_body.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    page.wait_for_function(
        """([a, b]) => Math.abs(document.querySelector(a).scrollTop - document.querySelector(b).scrollTop) < 1""",
        arg=[
            f'{ROOT} [data-pane="original-bytecode"] .jp-DynamoExplorer-paneBody',
            f'{ROOT} [data-pane="modified-bytecode"] .jp-DynamoExplorer-paneBody',
        ],
    )
    assert abs(_top(original.locator(line8).first) - _top(modified.locator(line8).first)) < 1.5
    root.screenshot(path=str(OUT / "expanded_aligned.png"))
    o_body.evaluate("b => { b.scrollTop = 0; }")

    # ... and by keyboard: Enter on the focused resume row's button.
    resume_button = modified.locator('[data-fold="resume-call"] button').first
    resume_button.focus()
    page.keyboard.press("Enter")
    assert resume_button.get_attribute("aria-expanded") == "true"
    assert modified.locator('[data-fold-body="resume-call"] .jp-DynamoExplorer-row:visible').count() > 20

    # Space folds the graph call again.
    button.focus()
    page.keyboard.press(" ")
    assert button.get_attribute("aria-expanded") == "false"
    assert not members.first.is_visible()

    # Alignment off: no spacer left, line 8 no longer level (3 modified rows of line 6, 11 original of lines 6-7).
    modified.locator('[data-action="align"]').click()
    page.wait_for_function(
        f"() => document.querySelector('{ROOT} [data-pane=\"modified-bytecode\"] .jp-DynamoExplorer-paneBody').dataset.align === 'off'"
    )
    assert root.locator(".jp-DynamoExplorer-alignSpacer").count() == 0
    assert abs(_top(original.locator(line8).first) - _top(modified.locator(line8).first)) > 5
    modified.locator('[data-action="align"]').click()
    _aligned(page)

    # 5. Maximise a pane, restore with Escape; maximise again, restore with the button.
    maximise = modified.locator('[data-action="maximise"]')
    maximise.click()
    assert root.get_attribute("data-maximised") == "modified-bytecode"
    assert not root.locator('[data-pane="source"]').is_visible()
    assert not original.is_visible()
    assert not root.locator('[data-pane="frames"]').is_visible()
    width = modified.evaluate("el => el.getBoundingClientRect().width")
    assert width > 0.9 * EXPLORER_WIDTH
    assert m_body.evaluate("b => b.getBoundingClientRect().height") > 360  # every modified row shown taller
    root.screenshot(path=str(OUT / "maximised.png"))
    page.keyboard.press("Escape")
    assert root.get_attribute("data-maximised") is None
    assert root.locator('[data-pane="source"]').is_visible() and original.is_visible()
    maximise.click()
    assert root.get_attribute("data-maximised") == "modified-bytecode"
    assert maximise.get_attribute("aria-pressed") == "true"
    maximise.click()
    assert root.get_attribute("data-maximised") is None
    # every pane with a header has the button
    assert root.locator('[data-action="maximise"]').count() == root.locator(".jp-DynamoExplorer-pane").count()

    # 6. Drag the splitter between the bytecode panes, then the height handle under the row.
    splitter = root.locator('[data-row="code"] > .jp-DynamoExplorer-splitter').nth(1)
    before = original.evaluate("el => el.getBoundingClientRect().width")
    box = splitter.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 40)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + 40, steps=5)
    page.mouse.up()
    after = original.evaluate("el => el.getBoundingClientRect().width")
    assert abs(after - before - 80) < 3, (before, after)
    handle = root.locator('[data-row="code"] + .jp-DynamoExplorer-heightHandle')
    height = o_body.evaluate("b => b.getBoundingClientRect().height")
    box = handle.bounding_box()
    page.mouse.move(box["x"] + 100, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 100, box["y"] + box["height"] / 2 + 150, steps=5)
    page.mouse.up()
    assert abs(o_body.evaluate("b => b.getBoundingClientRect().height") - height - 150) < 3
    _aligned(page)
    assert abs(_top(original.locator(line8).first) - _top(modified.locator(line8).first)) < 1.5
    root.screenshot(path=str(OUT / "resized.png"))

    # The hover link from a folded row reaches the source line and the original rows of its line.
    modified.locator('[data-fold="resume-call"]').first.hover()
    assert "jp-mod-linked" in root.locator('[data-pane="source"] [data-line="8"]').get_attribute("class")
    assert original.locator(".jp-DynamoExplorer-row.jp-mod-linked").count() == sum(
        1 for i in frame["original_bytecode"] if i["line"] == 8
    )
    assert page.errors == [], page.errors


def test_narrow_explorer_keeps_arguments(lab, page):
    """At 760 px (a narrow notebook column) the navigator goes above the panes and arguments still show."""
    OUT.mkdir(parents=True, exist_ok=True)
    report = json.loads(GOLDEN.read_text())
    root = _open(page, lab, report, 760)
    original = root.locator('[data-pane="original-bytecode"]')
    nav = root.locator(".jp-DynamoExplorer-nav").bounding_box()
    main = root.locator(".jp-DynamoExplorer-main").bounding_box()
    assert nav["y"] + nav["height"] <= main["y"] + 1  # stacked
    ins = next(
        i for i in report["frames"][0]["original_bytecode"] if i["opname"] == "LOAD_GLOBAL" and i["argrepr"].endswith("torch")
    )
    torch_arg = original.locator(f'.jp-DynamoExplorer-row[data-offset="{ins["offset"]}"] .jp-DynamoExplorer-argrepr')
    assert torch_arg.is_visible() and torch_arg.inner_text() == ins["argrepr"]
    for name in ("original-bytecode", "modified-bytecode"):
        pane = root.locator(f'[data-pane="{name}"]')
        assert pane.evaluate(CLIPPED_JS) == [], name
        assert pane.locator(".jp-DynamoExplorer-paneBody").evaluate("b => b.scrollWidth <= b.clientWidth + 1"), name
    root.screenshot(path=str(OUT / "narrow.png"))
    assert page.errors == [], page.errors


def test_notebook7_keeps_arguments(lab, page):
    """In Notebook 7 (its own page, a narrower column than JupyterLab's) the argument column stays."""
    OUT.mkdir(parents=True, exist_ok=True)
    report = json.loads(GOLDEN.read_text())
    _notebook(lab.root / "bytecode_nb7.ipynb", report)
    # Notebook 7.6 raises one error of its own while loading settings here (notebook_core: "reading 'schema'");
    # only errors from this extension's code count.
    ours: list[str] = []
    page.on("pageerror", lambda e: ours.append(str(e)) if "dynamo-explorer" in (e.stack or "") else None)
    page.set_viewport_size({"width": 1280, "height": 1600})
    page.goto(f"{lab.url}/notebooks/bytecode_nb7.ipynb?token={lab.token}")
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=120_000)
    root = page.locator(ROOT)
    ins = next(
        i for i in report["frames"][0]["original_bytecode"] if i["opname"] == "LOAD_GLOBAL" and i["argrepr"].endswith("torch")
    )
    torch_arg = root.locator(
        f'[data-pane="original-bytecode"] .jp-DynamoExplorer-row[data-offset="{ins["offset"]}"] .jp-DynamoExplorer-argrepr'
    )
    assert torch_arg.is_visible() and torch_arg.inner_text() == ins["argrepr"]
    for name in ("original-bytecode", "modified-bytecode"):
        pane = root.locator(f'[data-pane="{name}"]')
        assert pane.evaluate(CLIPPED_JS) == [], name
        assert pane.locator(".jp-DynamoExplorer-paneBody").evaluate("b => b.scrollWidth <= b.clientWidth + 1"), name
    root.screenshot(path=str(OUT / "notebook7.png"))
    assert ours == [], ours
