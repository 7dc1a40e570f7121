"""FX node <-> inductor kernel navigation and the linked code pane, in a real JupyterLab + kernel + chromium.

One ``%%dynamo`` cell runs a Linear + ReLU model through a function with the inductor backend (CPU, no grad:
one inference graph, one C++ kernel and one extern ``addmm``). It checks that the inductor tab opens on its
kernels (an index, the imports and setup folded into one row that expands, the first kernel right below),
that a node's kernel link in the FX details opens the inductor tab with that kernel highlighted and in view (the
C++ kernel of the ReLU, the extern ``addmm`` call of the Linear), that a node link in a kernel's title selects
that node in the FX picture, and that hovering a row of the graph code highlights the matching source line.
A screenshot lands in artifacts/browser/viewer/.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"

CELL = """%%dynamo --backend inductor
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU())

def predict(x):
    return model(x)

with torch.no_grad():
    y = predict(torch.randn(4, 8))
"""

IN_VIEW_JS = """el => {
    const box = el.closest('.jp-DynamoExplorer-tabContent').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.bottom - 10;
}"""


def _ready(page) -> None:
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=120_000)


def test_node_kernel_navigation_and_linked_code(lab, page):
    shots = ARTIFACTS / "viewer"
    shots.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "kernels.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "kernels.ipynb")
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    frame = next(f for f in report["frames"] if f["code"]["name"] == "predict")
    dynamo = next(g for g in report["graphs"] if g["compile_id"] == frame["compile_id"] and g["kind"] == "dynamo")
    relu = next(n for n in dynamo["nodes"] if "relu" in n["target"])
    linear = next(n for n in dynamo["nodes"] if "linear" in n["target"])
    (code,) = [o for o in report["output_code"] if o["compile_id"] == frame["compile_id"]]
    relu_kernel = next(k["name"] for k in code["kernels"] if relu["name"] in k["nodes"])
    assert relu_kernel.startswith("cpp_fused_") and "relu" in relu_kernel
    root = page.locator(ROOT)
    fx = root.locator('[data-pane="fx-graph"]')
    pane = root.locator('[data-pane="code"]')

    # Hovering a row of the Dynamo graph code (the tab opened first) highlights the source line of its node.
    row = pane.locator(".jp-DynamoExplorer-row", has_text=f"{relu['name']}: ").first
    row.scroll_into_view_if_needed()
    row.hover()
    source_row = root.locator(f'[data-pane="source"] .jp-DynamoExplorer-row[data-line="{relu["line"]}"]')
    assert "jp-mod-linked" in source_row.get_attribute("class")
    page.mouse.move(0, 0)

    # A node's kernel link: the inductor tab, on the ReLU's C++ kernel, highlighted and in view.
    fx.locator(f'svg g.node[data-node="{relu["name"]}"]').click()
    fx.locator(f'.jp-DynamoExplorer-nodeDetails [data-kernel="{relu_kernel}"]').click()
    _ready(page)
    tab = pane.locator('button[data-tab^="output-"]')
    assert tab.get_attribute("aria-selected") == "true"
    section = pane.locator(f'section[data-kernel="{relu_kernel}"]')
    assert "jp-mod-target" in section.get_attribute("class")
    assert section.evaluate(IN_VIEW_JS)
    # The tab opens on its kernels: an index naming both kernels, the setup folded, the first kernel next.
    index = pane.locator(".jp-DynamoExplorer-kernelIndex li")
    assert index.evaluate_all("els => els.map(e => e.dataset.kernel)") == [c["kernel"] for c in code["calls"]]
    assert {"extern_kernels.addmm", relu_kernel} <= {c["kernel"] for c in code["calls"]}
    fold = pane.locator('.jp-DynamoExplorer-codeFold[data-fold="setup"]')
    assert fold.locator(".jp-DynamoExplorer-codeFoldBody").is_hidden()
    assert fold.locator(".jp-DynamoExplorer-codeFoldToggle").inner_text().startswith("imports and setup")
    page.screenshot(path=str(shots / "inductor-kernels.png"))
    pane.locator(".jp-DynamoExplorer-tabContent").evaluate("el => { el.scrollTop = 0; }")
    pane.screenshot(path=str(shots / "inductor-tab-top.png"))
    fold.locator(".jp-DynamoExplorer-codeFoldToggle").click()
    assert fold.locator(".jp-DynamoExplorer-codeFoldBody").is_visible()
    assert "import torch" in fold.locator(".jp-DynamoExplorer-codeFoldBody").inner_text()

    # The Linear's kernel is the extern addmm: the link shows its call, highlighted and in view.
    fx.locator(f'svg g.node[data-node="{linear["name"]}"]').click()
    fx.locator('.jp-DynamoExplorer-nodeDetails [data-kernel="extern_kernels.addmm"]').click()
    _ready(page)
    call = pane.locator(".jp-DynamoExplorer-row.jp-mod-target")
    assert call.get_attribute("data-call") == "extern_kernels.addmm"
    assert "extern_kernels.addmm(" in call.inner_text()
    assert call.locator(f'[data-node="{linear["name"]}"]').count() == 1  # the call names the node it computes
    assert call.evaluate(IN_VIEW_JS)
    assert "jp-mod-target" not in section.get_attribute("class")

    # A node link in a kernel's title selects that node in the FX picture.
    section.locator(f'.jp-DynamoExplorer-kernelTitle [data-node="{relu["name"]}"]').click()
    _ready(page)
    selected = fx.locator(f'svg g.node[data-node="{relu["name"]}"]')
    page.wait_for_function("el => el.classList.contains('jp-mod-selected')", arg=selected.element_handle(), timeout=10_000)
    assert fx.locator(".jp-DynamoExplorer-detailsTitle").inner_text() == relu["name"]
