"""The "Why is it slow" pane (issue 12 items 1-3) in a real JupyterLab + kernel + chromium.

One ``%%dynamo --profile --compare-eager`` cell runs a step with a graph break twenty times. Against the report
the cell wrote, it checks:
- the pane sits right under the header; the run split is one bar whose parts' widths (pixels) are the parts'
  shares of the run, with a legend in ms and %;
- the speedup line (compiled vs eager, compile not included) and the payback line say the report's numbers;
- the graphs are ranked by total time; a click on a row opens that graph in the FX pane (its frame selected),
  and its graph link does the same from the keyboard (Tab focus, Enter);
- the eager-time table names the graph break with its line, and its link highlights that line in the source;
- the coverage table holds the report's graph_calls, captured_ops, total_ops, pct_ops for the cell;
- the frames pane badges each frame with its cache entry's hits;
- axe-core's ``color-contrast`` rule (WCAG AA) finds no violation in the pane and the frames pane in JupyterLab
  Light and Dark.
Screenshots of both themes land in artifacts/browser/profile/.
"""

from __future__ import annotations

import math

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
AXE = labserver.REPO / "node_modules" / "axe-core" / "axe.min.js"
OUT = ARTIFACTS / "profile"

CELL = """%%dynamo --backend eager --profile --compare-eager
import torch
torch.manual_seed(0)

def step(x, w):
    y = torch.tanh(x @ w)
    if y.sum() > 0:
        y = y * -1
    for _ in range(6):
        y = torch.relu(y @ w) + y
    return y

w = torch.randn(128, 128) / 12
for _ in range(20):
    out = step(torch.randn(32, 128), w)
"""

AXE_RUN = """async el => {
    const result = await axe.run(el, {runOnly: {type: 'rule', values: ['color-contrast']}});
    return result.violations.flatMap(v => v.nodes.map(n => {
        const d = (n.any[0] || {}).data || {};
        return `${n.html.slice(0, 100)}: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio}`;
    }));
}"""

PARTS_JS = """pane => {
    const bar = pane.querySelector('.jp-DynamoExplorer-splitBar');  // inside its border
    return {bar: bar.clientWidth, parts: Array.from(pane.querySelectorAll('.jp-DynamoExplorer-splitPart'),
        el => ({part: el.dataset.part, width: el.getBoundingClientRect().width}))};
}"""

CELLS_JS = "tr => Array.from(tr.querySelectorAll('td'), td => td.textContent)"


def _ready(page) -> None:
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)


def _pct(share: float) -> str:
    """formatPct in profileModel.ts."""
    pct = share * 100
    if pct <= 0:
        return "0%"
    if pct < 0.1:
        return "<0.1%"
    return f"{pct:.1f}%" if pct < 10 else f"{round(pct)}%"


def test_why_is_it_slow(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "profile.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "profile.ipynb")
    labserver.run_all(page)
    _ready(page)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    profile, baseline = report["profile"], report["eager_baseline"]
    assert profile and baseline, "no profile or eager baseline in the report"
    root = page.locator(ROOT)
    pane = root.locator('[data-pane="profile"]')
    assert (
        page.evaluate("() => document.querySelector('[data-pane=\"profile\"]').previousElementSibling.dataset.pane") == "header"
    )

    # The run split: one bar, each part as wide as its share of the run.
    split = pane.evaluate(PARTS_JS)
    total = profile["compiled_ms"] + profile["eager_ms"] + profile["compile_ms"]
    assert [p["part"] for p in split["parts"]] == ["compiled", "eager", "compile"]
    for p in split["parts"]:
        expected = split["bar"] * profile[f"{p['part']}_ms"] / total
        assert abs(p["width"] - expected) <= 1.5, (p, expected, split["bar"])
    legend = pane.locator(".jp-DynamoExplorer-splitLegend li")
    for i, key in enumerate(("compiled", "eager", "compile")):
        assert f"({_pct(profile[f'{key}_ms'] / total)})" in legend.nth(i).inner_text()
    assert f"incl. {profile['cache_lookups']} cache lookup" in legend.nth(1).inner_text()

    # Did it help: the speedup over eager and when the compile pays back.
    speedup = pane.locator('[data-section="speedup"]')
    line = speedup.locator(".jp-DynamoExplorer-speedupLine").inner_text()
    assert line.startswith("compiled run ") and " vs eager " in line and "not included)" in line, line
    assert f"{baseline['speedup']:.2f}×" in line or f"{baseline['speedup']:.1f}×" in line, (line, baseline["speedup"])
    saved = baseline["eager_ms"] - baseline["compiled_ms"]
    runs = speedup.locator("[data-runs]").get_attribute("data-runs")
    if saved > 0:
        assert runs == str(max(1, math.ceil(baseline["compile_ms"] / saved)))
    else:
        assert runs == "" and "never pays back" in speedup.inner_text()

    # Graphs ranked by time; a click on a row opens it in the FX pane.
    graphs = pane.locator('[data-section="graphs"] tbody tr')
    ranked = sorted(profile["graphs"], key=lambda g: (-g["total_ms"], -g["calls"]))
    assert [graphs.nth(i).get_attribute("data-graph-id") for i in range(graphs.count())] == [str(g["graph_id"]) for g in ranked]
    fx = root.locator('[data-pane="fx-graph"]')
    title = root.locator(".jp-DynamoExplorer-frameTitle")
    for g in ranked:
        if str(g["graph_id"]) != fx.get_attribute("data-graph-id"):
            break
    row = pane.locator(f'[data-section="graphs"] tbody tr[data-graph-id="{g["graph_id"]}"]')
    row.locator("td").nth(3).click()
    _ready(page)
    assert fx.get_attribute("data-graph-id") == str(g["graph_id"])
    assert title.get_attribute("data-compile-id") == g["compile_id"]
    assert "jp-mod-current" in (row.get_attribute("class") or "")
    pane.screenshot(path=str(OUT / "after_click.png"))
    # the same from the keyboard: the graph link of another row, focused with Tab, opened with Enter
    other = next(x for x in ranked if x["graph_id"] != g["graph_id"])
    link = pane.locator(f'button[data-graph-id="{other["graph_id"]}"]')
    link.evaluate("el => el.previousElementSibling.focus()")  # the row's frame link, just before it
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.graphId") == str(other["graph_id"])
    page.keyboard.press("Enter")
    _ready(page)
    assert fx.get_attribute("data-graph-id") == str(other["graph_id"])

    # Eager time by cause: the graph break, named with its line; its link shows that line.
    brk = next(e for e in profile["eager"] if e["cause"] == "graph_break")
    frame = next(f for f in report["frames"] if f["compile_id"] == brk["compile_id"])
    gb = frame["graph_breaks"][brk["break_index"]]
    row = pane.locator(f'[data-section="eager"] tbody tr[data-cause="graph_break"][data-compile-id="{brk["compile_id"]}"]')
    cells = row.evaluate(CELLS_JS)
    assert gb["gb_type"] in cells[2] and f"line {gb['line']}" in cells[2], cells
    row.locator(f'[data-jump="{gb["line"]}"]').click()
    _ready(page)
    assert title.get_attribute("data-compile-id") == brk["compile_id"]
    source_row = root.locator(f'[data-pane="source"] [data-line="{gb["line"]}"]')
    assert "jp-mod-selected" in (source_row.get_attribute("class") or "")

    # Coverage: Update 5's numbers for the cell.
    cov = profile["coverage"]
    cell_row = pane.locator('[data-section="coverage"] tbody tr[data-scope="cell"]').evaluate(CELLS_JS)
    assert cell_row[:5] == [
        "cell",
        str(cov["graph_calls"]),
        str(cov["captured_ops"]),
        str(cov["total_ops"]),
        _pct(cov["pct_ops"]),
    ]
    assert cov["captured_ops"] > 0 and cov["total_ops"] >= cov["captured_ops"]

    # The frames pane: hits per cache entry.
    for entry in profile["entries"]:
        badge = root.locator(f'[data-pane="frames"] [data-compile-id="{entry["compile_id"]}"] .jp-DynamoExplorer-hits')
        assert badge.get_attribute("data-hits") == str(entry["hits"])

    # Maximised, the pane fills the view (the frame's panes hidden); Escape restores it.
    pane.locator(".jp-DynamoExplorer-maximise").click()
    assert root.get_attribute("data-maximised") == "profile"
    assert pane.is_visible() and fx.is_hidden()
    page.keyboard.press("Escape")
    assert root.get_attribute("data-maximised") is None and fx.is_visible()

    # Contrast in both themes.
    assert AXE.is_file(), "axe-core is missing from node_modules: npm install"
    page.add_script_tag(content=AXE.read_text())
    frames = root.locator('[data-pane="frames"]')
    failures = []
    for theme, light in (("JupyterLab Light", "true"), ("JupyterLab Dark", "false")):
        page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
        page.wait_for_function("l => document.body.dataset.jpThemeLight === l", arg=light)
        page.wait_for_timeout(500)
        pane.scroll_into_view_if_needed()
        pane.locator('details[data-section="method"] summary').click()  # the method text too
        failures += [f"{theme}: {v}" for v in pane.evaluate(AXE_RUN)]
        failures += [f"{theme} (frames): {v}" for v in frames.evaluate(AXE_RUN)]
        pane.screenshot(path=str(OUT / f"profile_{'light' if light == 'true' else 'dark'}.png"))
        frames.screenshot(path=str(OUT / f"frames_{'light' if light == 'true' else 'dark'}.png"))
        pane.locator('details[data-section="method"] summary').click()
    assert failures == [], "\n".join(failures)
    assert page.errors == [], page.errors
