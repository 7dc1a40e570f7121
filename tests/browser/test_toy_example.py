"""The acceptance scenario in a real JupyterLab + kernel + chromium: ``%%dynamo`` on the toy_example.

It checks the panes, the frame navigator (toy_example with its resume function nested), the FX graph
drawn as SVG with one box per node, hover linking from a source line to bytecode rows and FX nodes, the
graph break at the ``if`` line with its explanation, and saves light and dark screenshots under
artifacts/browser/.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

from compiler.schema import PANES  # every pane of the report view, in display order: all are drawn for any report
from tests.goldens.cases import TOY_EXAMPLE_CELL

pytestmark = pytest.mark.browser

TOY = TOY_EXAMPLE_CELL

ROOT = ".jp-DynamoExplorer"


def source_row(page, text: str):
    return page.locator(f'{ROOT} [data-pane="source"] .jp-DynamoExplorer-row', has_text=text).first


def test_toy_example_explorer(lab, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "toy.ipynb", ["%load_ext kernel_ext", TOY])
    labserver.open_notebook(page, lab, "toy.ipynb")
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    root = page.locator(ROOT)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    # Our renderer draws it, not the widget view the same output carries (it ranks above ipywidgets').
    assert page.evaluate(labserver.PREFERRED_JS) == labserver.MIME
    assert root.get_attribute("data-host") is None

    for name in PANES:
        assert root.locator(f'[data-pane="{name}"]').count() == 1, name

    # Frame navigator: toy_example first, its resume function(s) nested under it.
    nav = root.locator('[data-pane="frames"]')
    assert "toy_example" in nav.inner_text()
    resumes = [f for f in report["frames"] if f["code"]["is_resume"]]
    assert resumes, "the toy_example graph break must produce a resume function"
    for frame in resumes:
        chip = nav.locator(f'[data-compile-id="{frame["compile_id"]}"]')
        assert chip.count() == 1
        nested_under = chip.locator("xpath=ancestor::li[2]").locator(".jp-DynamoExplorer-treeRow").first.inner_text()
        assert "toy_example" in nested_under
    assert nav.locator('[data-compile-id="0/0"]').get_attribute("data-status") == "graph_break"
    assert "data-dependent" in nav.locator('[data-compile-id="0/0"]').inner_text()

    # FX graph of [0/0] drawn as SVG, one box per node.
    graph = next(g for g in report["graphs"] if g["compile_id"] == "0/0" and g["kind"] == "dynamo")
    svg_nodes = root.locator('[data-pane="fx-graph"] svg g.node[data-node]')
    assert svg_nodes.count() == len(graph["nodes"])
    assert sorted(svg_nodes.evaluate_all("els => els.map(e => e.getAttribute('data-node'))")) == sorted(
        n["name"] for n in graph["nodes"]
    )

    # Original and modified bytecode side by side.
    original = root.locator('[data-pane="original-bytecode"]')
    modified = root.locator('[data-pane="modified-bytecode"]')
    ob, mb = original.bounding_box(), modified.bounding_box()
    assert abs(ob["y"] - mb["y"]) < 2 and mb["x"] > ob["x"] + ob["width"] - 2
    assert modified.locator('a[data-ref-kind="compiled_fn"]').count() >= 1

    # Hover linking: the line `x = a / ...` lights its bytecode rows and FX nodes.
    source_row(page, "x = a / (torch.abs(a) + 1)").hover()
    line = int(source_row(page, "x = a / (torch.abs(a) + 1)").get_attribute("data-line"))
    frame0 = report["frames"][0]
    expected_rows = sum(1 for i in frame0["original_bytecode"] if i["line"] == line)
    assert expected_rows > 0
    assert original.locator(".jp-DynamoExplorer-row.jp-mod-linked").count() == expected_rows
    assert root.locator('[data-pane="fx-graph"] svg g.node.jp-mod-linked').count() == sum(
        1 for n in graph["nodes"] if n["line"] == line
    )
    page.screenshot(path=str(ARTIFACTS / "toy_example_hover.png"), full_page=False)

    # The graph break at the `if` line: marked in the gutter, explained, and a click jumps to it.
    if_row = source_row(page, "if b.sum() < 0:")
    assert "jp-mod-break" in if_row.get_attribute("class")
    assert if_row.locator('[data-mark="break"]').count() == 1
    breaks = root.locator('[data-pane="graph-breaks"]')
    gb = frame0["graph_breaks"][0]
    assert gb["explanation"] and gb["explanation"] in breaks.inner_text()
    breaks.locator(f'[data-jump="{gb["line"]}"]').first.click()
    page.wait_for_selector(f'{ROOT}[data-status="ready"]')
    assert "jp-mod-selected" in if_row.get_attribute("class")

    # A resume link in the modified bytecode opens the resume frame.
    resume_link = modified.locator('a[data-ref-kind="resume"]').first
    target = resume_link.get_attribute("data-compile-id")
    resume_link.click()
    page.wait_for_selector(f'{ROOT}[data-status="ready"]')
    assert root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id") == target
    assert root.locator('[data-pane="fx-graph"] svg g.node').count() > 0

    nav.locator('[data-compile-id="0/0"]').click()
    page.wait_for_selector(f'{ROOT}[data-status="ready"]')
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "toy_example.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    page.wait_for_timeout(500)
    root.screenshot(path=str(ARTIFACTS / "toy_example_dark.png"))
    assert page.errors == [], page.errors
