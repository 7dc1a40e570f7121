"""Try a fix (issue 13 item 4) in a real JupyterLab with a real kernel, in headless chromium.

A ``%%dynamo --backend eager`` cell breaks its graph at ``.item()``. Its Try a fix pane offers
capture_scalar_outputs with a Try it button (the notebook host of notebookFix.ts is there); the button first says
that the cell runs again and shows the exact line; once confirmed, a new cell appears right below with the same body
and ``%%dynamo --backend eager --try capture_scalar_outputs``, runs in the kernel, and its own report shows the
before/after table: one graph break before (the cell's previous run in this kernel), none after. The original cell
is left as it was. axe-core's ``color-contrast`` rule (WCAG AA) finds no violation in either pane (the confirm
notice, the table) in JupyterLab Light and Dark. Screenshots go to artifacts/browser/try_fix/.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

BODY = """import torch

def normalize(x):
    total = x.sum().item()
    return x / total

z = normalize(torch.rand(5) + 1)
"""
CELL = "%%dynamo --backend eager\n" + BODY
TRY_LINE = "%%dynamo --backend eager --try capture_scalar_outputs"
OUT = ARTIFACTS / "try_fix"
AXE = labserver.REPO / "node_modules" / "axe-core" / "axe.min.js"
AXE_RUN = """async els => {
    const out = [];
    for (const el of els) {
        const result = await axe.run(el, {runOnly: {type: 'rule', values: ['color-contrast']}});
        out.push(...result.violations.flatMap(v => v.nodes.map(n => {
            const d = (n.any[0] || {}).data || {};
            return `${n.html.slice(0, 100)}: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio}`;
        })));
    }
    return out;
}"""

#: The code cells of the notebook, by position.
CELLS = ".jp-Notebook .jp-CodeCell"
CARD = '[data-pane="try-fix"] li[data-fix="capture_scalar_outputs"]'


def _ready(page, index: int) -> None:
    """Wait until code cell ``index`` shows a drawn report."""
    page.wait_for_function(
        """([i]) => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[i];
            const root = cell && cell.querySelector('.jp-DynamoExplorer');
            return !!root && root.dataset.status === 'ready';
        }""",
        arg=[index],
        timeout=300_000,
    )


def _sources(page) -> list[str]:
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.map(c => c.model.sharedModel.getSource())")


def test_try_a_fix_runs_the_cell_again_below_with_the_fix(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "try_fix.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "try_fix.ipynb")
    labserver.run_all(page)
    _ready(page, 1)

    original = page.locator(CELLS).nth(1)
    card = original.locator(CARD)
    card.wait_for()
    assert "torch._dynamo.config.capture_scalar_outputs" in card.inner_text()
    target = card.locator(".jp-DynamoExplorer-fixTargets button").first
    assert target.inner_text().startswith("graph break in [")
    try_button = card.locator('button[data-action="try"]')
    try_button.wait_for(timeout=30_000)  # the notebook host offers the run: the button, not the line to copy
    assert card.locator('[data-action="copy-line"]').count() == 0

    # Try it says plainly that the cell runs again, with the exact line, before anything runs
    try_button.click()
    confirm = card.locator(".jp-DynamoExplorer-tryConfirm")
    confirm.wait_for()
    assert "This runs the cell again" in confirm.inner_text()
    assert confirm.locator(".jp-DynamoExplorer-tryLine").inner_text() == TRY_LINE
    assert len(_sources(page)) == 2
    card.screenshot(path=str(OUT / "confirm.png"))
    card.locator('button[data-action="confirm"]').click()

    # a new cell right below, with the same body and --try on the same magic line, run in the kernel
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.widgets.length === 3", timeout=30_000)
    sources = _sources(page)
    assert sources[1] == CELL, "the original cell is left as it was"
    assert sources[2] == TRY_LINE + "\n" + BODY
    card.locator('[data-state="running"]').wait_for(timeout=30_000)
    _ready(page, 2)

    after = page.locator(CELLS).nth(2).locator('[data-pane="try-fix"]')
    result = after.locator('[data-section="try-result"]')
    result.wait_for()
    assert result.get_attribute("data-applied") == "capture_scalar_outputs"
    breaks = result.locator('tr[data-key="graph_breaks"]')
    assert breaks.get_attribute("data-change") == "better"
    assert [breaks.locator("td").nth(i).inner_text() for i in range(2)] == ["1", "0"]
    assert "previous run in this kernel" in result.inner_text()
    assert "capture_scalar_outputs" in result.inner_text()
    # the new cell's explorer itself: no graph break left
    cards = page.locator(CELLS).nth(2).locator('[data-pane="graph-breaks"] .jp-DynamoExplorer-break')
    assert cards.count() == 0
    result.screenshot(path=str(OUT / "before_after.png"))

    # contrast of the confirm notice (opened again) and of the before/after table, in both themes
    assert AXE.is_file(), "axe-core is missing from node_modules: npm install"
    card.locator('button[data-action="dismiss"]').click()
    card.locator('button[data-action="try"]').click()
    confirm.wait_for()
    page.add_script_tag(content=AXE.read_text())
    failures = []
    for theme, light in (("JupyterLab Light", "true"), ("JupyterLab Dark", "false")):
        page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
        page.wait_for_function("l => document.body.dataset.jpThemeLight === l", arg=light)
        page.wait_for_timeout(500)
        panes = page.locator('[data-pane="try-fix"]')
        failures += [f"{theme}: {v}" for v in panes.evaluate_all(AXE_RUN)]
        if light == "false":
            result.screenshot(path=str(OUT / "before_after_dark.png"))
    assert failures == [], "\n".join(failures)
    assert page.errors == [], page.errors


def test_try_a_fix_in_notebook7(notebook7, browser):
    # Notebook 7 has the same notebook tracker: the same button inserts and runs the cell below
    context = browser.new_context(viewport={"width": 1280, "height": 1800})
    page = context.new_page()
    errors: list[tuple[str, str]] = []
    page.on("pageerror", lambda e: errors.append((str(e), e.stack or "")))
    try:
        labserver.write_notebook(notebook7.root / "try_fix7.ipynb", ["%load_ext kernel_ext", CELL])
        labserver.open_notebook(page, notebook7, "try_fix7.ipynb")
        labserver.run_all(page)
        _ready(page, 1)
        card = page.locator(CELLS).nth(1).locator(CARD)
        card.locator('button[data-action="try"]').click()
        card.locator('button[data-action="confirm"]').click()
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.widgets.length === 3", timeout=30_000)
        assert _sources(page)[2] == TRY_LINE + "\n" + BODY
        _ready(page, 2)
        breaks = page.locator(CELLS).nth(2).locator('[data-section="try-result"] tr[data-key="graph_breaks"]')
        assert breaks.get_attribute("data-change") == "better"
        assert [e for e in errors if "dynamo-explorer" in e[1]] == [], errors
    finally:
        context.close()
