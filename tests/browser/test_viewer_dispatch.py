"""The Dispatch pane (issue 13 item 3) in a real JupyterLab + kernel + chromium.

A ``%%dynamo`` cell calls ``scale`` with a float32 tensor, a float64 one, then float32 again: two cache entries,
the float32 one moved back to the front by the last call. It checks, against the report the cell wrote:
- the pane draws the call box, then the entries in the order of ``report.dispatch`` (the cache's own order),
  each with its distinguishing TENSOR_MATCH dtype, then the fallback box (recompile);
- clicking an entry's id selects its frame in the whole explorer (the frame title) and marks the entry;
- the Python toggle shows the ``transformed_scale`` text with the guards in the same order.
A screenshot lands in artifacts/browser/dispatch/.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
OUT = ARTIFACTS / "dispatch"

CELL = """%%dynamo --backend eager
import torch

def scale(x):
    return x * 2 + 1

a = scale(torch.randn(4))
b = scale(torch.randn(4, dtype=torch.float64))
c = scale(torch.randn(4))
"""


def _ready(page) -> None:
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)


def test_the_dispatch_of_a_recompiled_function_and_its_entries_select_their_frames(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "dispatch.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "dispatch.ipynb")
    labserver.run_all(page)
    _ready(page)
    report = page.evaluate(labserver.REPORT_JS)
    assert report is not None, "the %%dynamo cell produced no report output"
    (d,) = [d for d in report["dispatch"] if d["code"]["name"] == "scale"]
    order = [e["compile_id"] for e in d["entries"]]
    first, second = [f["compile_id"] for f in report["frames"] if f["code"]["name"] == "scale"]
    assert order == [first, second]  # the last call matched the float32 entry: it moved to the front

    root = page.locator(ROOT)
    root.locator(f'[data-pane="frames"] [data-compile-id="{second}"]').click()
    _ready(page)
    pane = root.locator('[data-pane="dispatch"]')
    pane.scroll_into_view_if_needed()
    assert pane.locator(".jp-DynamoExplorer-paneTitleText").inner_text() == "Dispatch of scale"
    assert pane.locator(".jp-DynamoExplorer-dispatchCall").inner_text() == "call scale(x)"
    entries = pane.locator(".jp-DynamoExplorer-dispatchEntry")
    assert entries.evaluate_all("els => els.map(e => e.dataset.compileId)") == order
    assert pane.locator(".jp-DynamoExplorer-dispatchEntry.jp-mod-selected").get_attribute("data-compile-id") == second
    guards = entries.evaluate_all(
        "els => els.map(e => Array.from(e.querySelectorAll('.jp-DynamoExplorer-dispatchGuard code')).map(c => c.textContent))"
    )
    assert guards == [["L['x'] dtype torch.float32"], ["L['x'] dtype torch.float64"]]
    # the boxes stack top to bottom: call, entries in order, fallback
    tops = pane.locator(
        ".jp-DynamoExplorer-dispatchCall, .jp-DynamoExplorer-dispatchEntry, .jp-DynamoExplorer-dispatchFallback"
    ).evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    assert tops == sorted(tops) and len(tops) == 4
    assert pane.locator(".jp-DynamoExplorer-dispatchFallback").get_attribute("data-action") == "recompile"
    pane.screenshot(path=str(OUT / "dispatch-flow.png"))

    pane.locator(f'.jp-DynamoExplorer-dispatchEntry[data-compile-id="{first}"] button.jp-DynamoExplorer-dispatchId').click()
    _ready(page)
    assert root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id") == first
    assert pane.locator(".jp-DynamoExplorer-dispatchEntry.jp-mod-selected").get_attribute("data-compile-id") == first

    pane.locator('[data-value="text"]').click()
    _ready(page)
    text = pane.locator(".jp-DynamoExplorer-dispatchText").inner_text()
    assert text.startswith("def transformed_scale(x):")
    ids = [cid.replace("/", "_") for cid in order]
    assert (
        text.index(f"__guard_{ids[0]}_for_scale")
        < text.index(f"__guard_{ids[1]}_for_scale")
        < text.index("__compile_and_run_scale")
    )
    pane.screenshot(path=str(OUT / "dispatch-text.png"))
