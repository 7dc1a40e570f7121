"""The step-through pane (issue 13 item 2) in a real JupyterLab + kernel + chromium.

One ``%%dynamo --backend eager --trace-steps f`` cell runs ``f``, which inlines ``helper`` and breaks at
``print``. Against the report the cell wrote, it checks that the pane steps forward and back with its buttons
and with the keys (→ / j, ← / k, Home, End) once it has focus, that the highlighted source line, bytecode row
and FX nodes change together with each step, that an inlined step shows the call stack, and that the break
step is marked. A screenshot lands in artifacts/browser/trace_steps/.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

from tests.engine.test_trace_steps import PROGRAM

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
OUT = ARTIFACTS / "trace_steps"

CELL = "%%dynamo --backend eager --trace-steps f" + PROGRAM  # line N of the cell is line N of the engine test's program

STATE_JS = """pane => ({
    step: pane.dataset.step,
    line: pane.querySelector('.jp-DynamoExplorer-traceSource .jp-mod-current')?.dataset.line ?? null,
    offset: pane.querySelector('.jp-DynamoExplorer-traceBytecode .jp-mod-current')?.dataset.offset ?? null,
    nodes: Array.from(pane.querySelectorAll('.jp-DynamoExplorer-traceNodes [data-node]')).map(n => n.dataset.node),
    crumbs: pane.querySelector('.jp-DynamoExplorer-traceCrumbs')?.textContent ?? '',
    brk: pane.classList.contains('jp-mod-break'),
})"""


def test_step_through_a_frame(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "trace_steps.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "trace_steps.ipynb")
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    trace = report["trace_steps"]
    steps = trace["steps"]
    assert trace["code_name"] == "f" and len(steps) > 20
    pane = page.locator(f'{ROOT} [data-pane="trace-steps"]')
    pane.scroll_into_view_if_needed()

    def state() -> dict:
        return pane.evaluate(STATE_JS)

    def expected(i: int) -> dict:
        s = steps[i]
        return {"step": str(i), "line": str(s["line"]), "offset": str(s["offset"]), "nodes": [n["name"] for n in s["fx_nodes"]]}

    def shown(i: int) -> None:
        got = state()
        assert {k: got[k] for k in ("step", "line", "offset", "nodes")} == expected(i)

    shown(0)
    pane.locator('button[data-action="forward"]').click()
    shown(1)
    pane.locator('button[data-action="back"]').click()
    shown(0)
    # keys once the pane has focus: to the step that adds `sin` inside the inlined helper
    pane.focus()
    sin = next(i for i, s in enumerate(steps) if any(n["name"] == "sin" for n in s["fx_nodes"]))
    for _ in range(sin):
        page.keyboard.press("ArrowRight")
    shown(sin)
    assert state()["nodes"] == ["sin"] and state()["crumbs"].startswith("f:") and "› helper:" in state()["crumbs"]
    page.keyboard.press("j")
    shown(sin + 1)
    page.keyboard.press("k")
    page.keyboard.press("ArrowLeft")
    shown(sin - 1)
    page.keyboard.press("End")
    shown(len(steps) - 1)
    page.keyboard.press("Home")
    shown(0)
    # the graph break: the next-break button lands on it, marked, with what Dynamo does there
    pane.locator('button[data-action="break"]').click()
    brk = next(i for i, s in enumerate(steps) if s["graph_break"])
    shown(brk)
    assert state()["brk"] and steps[brk]["graph_break"]["action"] == "restart"
    assert "restarts the analysis" in pane.locator(".jp-DynamoExplorer-traceBreakHead").inner_text()
    pane.screenshot(path=str(OUT / "break.png"))
