"""The compile-time chart (issue 12 item 6) in a real JupyterLab + kernel + chromium.

One ``%%dynamo --backend aot_eager`` cell runs a training step: the frame's compile (tracing, a restart at
``loss.backward()``, the backend with AOTAutograd inside, guards) and the lazy backward compile AOTAutograd
runs at the first ``backward()``. It checks, against the report the cell wrote:
- the compile-time pane draws one bar per phase, each inside the bar of the phase it ran in (pixels), in the
  row below it, and widths to scale (pixels per ms the same for every bar of a few pixels or more);
- the two compiles are the top row, the backward one after a gap;
- hovering a bar shows its readable label, Dynamo's name, its time and its share of the frame's compile;
- the keyboard: Tab reaches the chart (one tab stop), arrow keys walk the bars, Enter zooms to a bar (it
  spans the width), Escape zooms out;
- axe-core's ``color-contrast`` rule (WCAG AA) finds no violation in the pane in JupyterLab Light and Dark.
Screenshots of both themes land in artifacts/browser/compile_time/.
"""

from __future__ import annotations

import re

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
AXE = labserver.REPO / "node_modules" / "axe-core" / "axe.min.js"
OUT = ARTIFACTS / "compile_time"

CELL = """%%dynamo --backend aot_eager
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

def train_step(x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss

loss = train_step(torch.randn(4, 8), torch.randn(4, 1))
"""

BARS_JS = """pane => Array.from(pane.querySelectorAll('.jp-DynamoExplorer-chartBar')).map(el => {
    const r = el.getBoundingClientRect();
    return {index: +el.dataset.index, parent: el.dataset.parent === '' ? null : +el.dataset.parent,
            depth: +el.dataset.depth, ms: +el.dataset.ms, name: el.dataset.name,
            instant: el.classList.contains('jp-mod-instant'), left: r.left, right: r.right, top: r.top, width: r.width};
})"""

AXE_RUN = """async el => {
    const result = await axe.run(el, {runOnly: {type: 'rule', values: ['color-contrast']}});
    return result.violations.flatMap(v => v.nodes.map(n => {
        const d = (n.any[0] || {}).data || {};
        return `${n.html.slice(0, 100)}: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio}`;
    }));
}"""


def _ready(page) -> None:
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)


def test_the_compile_time_chart_of_a_training_step(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "compile_time.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "compile_time.ipynb")
    labserver.run_all(page)
    _ready(page)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    frame = next(f for f in report["frames"] if f["code"]["name"] == "train_step")
    phases = frame["phases"]
    root = page.locator(ROOT)
    root.locator(f'[data-pane="frames"] [data-compile-id="{frame["compile_id"]}"]').click()
    _ready(page)
    pane = root.locator('[data-pane="compile-time"]')
    pane.scroll_into_view_if_needed()
    title = pane.locator(".jp-DynamoExplorer-paneTitleText").inner_text()
    assert title.startswith(f"Compile time of [{frame['compile_id']}]"), title

    # One bar per phase, each inside its parent (pixels) and one row below it; widths to scale.
    bars = pane.evaluate(BARS_JS)
    assert [b["index"] for b in bars] == list(range(len(phases)))
    assert [b["name"] for b in bars] == [p["name"] for p in phases]
    by_index = {b["index"]: b for b in bars}
    for b in bars:
        if b["parent"] is None:
            continue
        up = by_index[b["parent"]]
        assert b["depth"] == up["depth"] + 1 and b["top"] > up["top"], (b, up)
        assert b["left"] >= up["left"] - 1 and (b["instant"] or b["right"] <= up["right"] + 1), (b, up)
    wide = [b for b in bars if not b["instant"] and b["width"] >= 8]
    per_ms = [b["width"] / b["ms"] for b in wide]
    assert len(wide) >= 5 and max(per_ms) / min(per_ms) < 1.1, [(b["name"], b["width"], b["ms"]) for b in wide]
    top = [b for b in bars if b["parent"] is None]
    assert [b["name"] for b in top] == ["dynamo", "backward._backward_impl"]
    assert top[1]["left"] > top[0]["right"], "the backward compile comes after the forward's, past a gap"
    assert pane.locator(".jp-DynamoExplorer-chartGap").count() == 1
    aot = next(b for b in bars if b["name"] == "create_aot_dispatcher_function")
    backend = next(b for b in bars if b["name"] == "OutputGraph.call_user_compiler")
    assert aot["parent"] == backend["index"]

    # Hover: label, Dynamo's name, time, share of the compile.
    pane.locator(f'.jp-DynamoExplorer-chartBar[data-index="{backend["index"]}"]').hover()
    tip = pane.locator('[role="tooltip"]')
    assert tip.is_visible()
    text = tip.inner_text()
    assert "backend compile" in text and "OutputGraph.call_user_compiler (backend_compile)" in text, text
    total = sum(p["ms"] for p in phases if p["parent"] is None)
    share = 100 * phases[backend["index"]]["ms"] / total
    assert re.search(r" m?s · (\d+(\.\d)?)% of this frame's compile", text), text
    assert abs(float(re.search(r"(\d+(?:\.\d)?)% of this", text)[1]) - share) <= 0.6, (text, share)
    pane.screenshot(path=str(OUT / "hover.png"))
    page.mouse.move(0, 0)
    assert tip.is_hidden()

    # Keyboard: Tab from the zoom bar reaches the chart's one tab stop; arrows walk, Enter zooms, Escape out.
    pane.locator(".jp-DynamoExplorer-chartCrumb").first.focus()
    page.keyboard.press("Tab")
    focused = lambda: page.evaluate("() => document.activeElement.dataset.name || null")  # noqa: E731
    assert focused() == "dynamo"
    page.keyboard.press("ArrowDown")
    assert focused() == "_compile.compile_inner"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    assert focused() == "backward._backward_impl"
    assert tip.is_visible() and "backward compile (at the first backward)" in tip.inner_text()
    page.keyboard.press("ArrowLeft")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    assert focused() == "bytecode_tracing"
    page.keyboard.press("Enter")
    zoomed = pane.locator(".jp-DynamoExplorer-chartBar.jp-mod-zoomed")
    assert zoomed.get_attribute("data-name") == "bytecode_tracing"
    rows = pane.locator(".jp-DynamoExplorer-chartRows").bounding_box()
    box = zoomed.bounding_box()
    assert abs(box["x"] - rows["x"]) <= 1 and abs(box["width"] - rows["width"]) <= 2, (box, rows)
    assert pane.locator(".jp-DynamoExplorer-chartCrumb").count() >= 4
    page.keyboard.press("Escape")
    assert pane.locator(".jp-DynamoExplorer-chartBar.jp-mod-zoomed").count() == 0
    assert focused() == "bytecode_tracing"

    # Contrast in both themes.
    assert AXE.is_file(), "axe-core is missing from node_modules: npm install"
    page.add_script_tag(content=AXE.read_text())
    failures = []
    for theme, light in (("JupyterLab Light", "true"), ("JupyterLab Dark", "false")):
        page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
        page.wait_for_function("l => document.body.dataset.jpThemeLight === l", arg=light)
        page.wait_for_timeout(500)
        pane.scroll_into_view_if_needed()
        failures += [f"{theme}: {v}" for v in pane.evaluate(AXE_RUN)]
        pane.screenshot(path=str(OUT / f"compile_time_{'light' if light == 'true' else 'dark'}.png"))
    assert failures == [], "\n".join(failures)
    assert page.errors == [], page.errors
