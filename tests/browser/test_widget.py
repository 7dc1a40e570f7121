"""The explorer as a widget, in a real JupyterLab where our extension is disabled (issue 24).

A user (or an admin) turned the labextension off with ``jupyter labextension disable dynamo-explorer``: JupyterLab
then has ipywidgets and anywidget, not our renderer. ``%%dynamo`` on the toy_example must still draw the full
explorer, through the widget view its output carries: every pane, the frame navigator, the FX graph as SVG, a
frame selected by a click, with the module and the report coming through the kernel (no request leaves
127.0.0.1); Try it on a second cell's fix runs that cell again in the kernel and draws its report below; a third
report holds its guards only in part (caps lowered in the kernel), and "Load all" brings them through the widget's
comm. Then the notebook is saved, its kernel shut down and the notebook opened again: JupyterLab's widget
renderer says the model is gone (docs/frontends.md says what to do). A screenshot lands in artifacts/browser/widget.png.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

from compiler.schema import PANES
from kernel_ext.widget import WIDGET_VIEW
from tests.goldens.cases import TOY_EXAMPLE_CELL

pytestmark = pytest.mark.browser

ROOT = '.jp-DynamoExplorer[data-host="widget"]'
ITEM_CELL = (
    "%%dynamo --backend eager\nimport torch\n\ndef normalize(x):\n    return x / x.sum().item()\n\ny = normalize(torch.ones(4))\n"
)

CAPS_CELL = "from compiler.collectors.guards import guards\nguards.MAX_GUARDS_PER_FRAME = 2"
CUT_CELL = "%%dynamo --backend eager\ndef double(x):\n    return x * 2\n\nz = double(torch.ones(3))\n"


def test_without_the_extension_the_widget_draws_the_explorer(lab_without_extension, page):
    lab = lab_without_extension
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    cells = ["%load_ext kernel_ext", TOY_EXAMPLE_CELL, ITEM_CELL, CAPS_CELL, CUT_CELL]
    labserver.write_notebook(lab.root / "widget.ipynb", cells)
    labserver.open_notebook(page, lab, "widget.ipynb")
    plugins = page.evaluate("() => window.jupyterapp.listPlugins()")
    assert "anywidget:plugin" in plugins
    assert not [p for p in plugins if p.startswith("dynamo-explorer")], "our extension is disabled here"

    labserver.run_all(page)
    page.wait_for_function(f"() => document.querySelectorAll('{ROOT}[data-status=\"ready\"]').length === 3", timeout=300_000)
    root = page.locator(ROOT).first
    assert page.evaluate(labserver.PREFERRED_JS) == WIDGET_VIEW
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None

    for name in PANES:
        assert root.locator(f'[data-pane="{name}"]').count() == 1, name
    nav = root.locator('[data-pane="frames"]')
    assert "toy_example" in nav.inner_text()
    graph = next(g for g in report["graphs"] if g["compile_id"] == "0/0" and g["kind"] == "dynamo")
    assert root.locator('[data-pane="fx-graph"] svg g.node[data-node]').count() == len(graph["nodes"])
    # JupyterLab's theme reaches the view (its --jp-* variables): no light-theme fallback class here
    assert "jp-DynamoExplorer-standalone" not in (root.get_attribute("class") or "")

    resume = next(f for f in report["frames"] if f["code"]["is_resume"])
    nav.locator(f'[data-compile-id="{resume["compile_id"]}"]').click()
    page.wait_for_selector(f'{ROOT}[data-status="ready"]')
    assert root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id") == resume["compile_id"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "widget.png"))

    # Try it, with no notebook API to insert a cell: the kernel runs the cell again with the fix, through the
    # widget's comm, and the run's report is drawn below the explorer that asked.
    item = page.locator(ROOT).nth(1)
    card = item.locator('[data-pane="try-fix"] [data-fix="capture_scalar_outputs"]')
    card.locator('button[data-action="try"]').click()
    assert "below this explorer" in card.inner_text()
    card.locator('button[data-action="confirm"]').click()
    run = page.locator('.jp-DynamoExplorer-widgetRun[data-state="done"]')
    run.wait_for(timeout=300_000)
    assert run.locator(".jp-DynamoExplorer-tryLine").first.inner_text() == (
        "%%dynamo --backend eager --try capture_scalar_outputs"
    )
    below = run.locator(f'{ROOT}[data-status="ready"]')
    below.wait_for(timeout=60_000)
    assert "capture_scalar_outputs applied" in below.locator('[data-pane="try-fix"]').inner_text()
    run.screenshot(path=str(ARTIFACTS / "widget_try_it.png"))

    # the third report holds [0/0]'s guards only in part: the whole comes through the widget's comm
    guards = page.locator(ROOT).last.locator('[data-pane="guards"]')
    line = guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]')
    assert "The report holds the first 2 of" in line.inner_text()
    line.locator("button").click()
    guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]').wait_for(state="detached", timeout=60_000)
    count = int(guards.locator(".jp-DynamoExplorer-paneTitleText").inner_text().rsplit("(", 1)[1].rstrip(")"))
    assert count > 2
    assert [u for u in requests if not u.startswith(("http://127.0.0.1", "data:", "blob:"))] == []
    assert page.errors == [], page.errors

    # Saved (JupyterLab saves no widget state by default) and opened again with a new kernel: the widget's model
    # is gone with the old kernel, and JupyterLab's widget renderer says so; docs/frontends.md tells the user to run the
    # cell again there (or to enable the extension, which draws the report saved in the output).
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_timeout(1000)
    lab.reset()
    page.reload()
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget", timeout=120_000)
    gone = page.locator('.jp-OutputArea-output:has-text("Error displaying widget: model not found")')
    gone.first.wait_for(timeout=120_000)
    assert gone.count() == 3  # the three %%dynamo outputs (the Try it run was drawn inside the widget, not saved)
