"""The explorer in a real Notebook 7 (``jupyter notebook`` >= 7) + kernel + headless chromium.

Notebook 7 loads the same prebuilt extension as JupyterLab, in another shell: one notebook per page at
``/notebooks/<path>``, a centred document of its own default width. A ``%%dynamo`` cell is run there and
the explorer must be complete: every pane of ``compiler.schema.PANES`` drawn, ``data-status="ready"``,
and the bytecode's argument column readable (issue 11: "In Notebook 7 the column disappears"). A
screenshot goes to artifacts/browser/notebook7.png.
"""

from __future__ import annotations

import labserver
import pytest
from labserver import ARTIFACTS

from compiler.schema import PANES
from tests.goldens.cases import TOY_EXAMPLE_CELL

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
#: a laptop screen: Notebook 7 keeps its default document width (no "full width" setting)
VIEWPORT = {"width": 1280, "height": 1600}


@pytest.fixture
def nb7_page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append((str(e), e.stack or "")))
    try:
        yield page
    finally:
        context.close()


def test_notebook7_runs_a_dynamo_cell_and_draws_every_pane(notebook7, nb7_page):
    page = nb7_page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # the report holds 2 guards, the output none of its parts when first shown: Notebook 7 completes it once drawn
    setup = (
        "%load_ext kernel_ext\nfrom compiler.collectors.guards import guards\nfrom kernel_ext import parts\n"
        "guards.MAX_GUARDS_PER_FRAME = 2\nparts.OUTPUT_PARTS_BYTES = 0"
    )
    labserver.write_notebook(notebook7.root / "toy7.ipynb", [setup, TOY_EXAMPLE_CELL])
    labserver.open_notebook(page, notebook7, "toy7.ipynb")
    assert "/notebooks/toy7.ipynb" in page.url
    # Notebook 7's own shell, not JupyterLab's
    assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    root = page.locator(ROOT)
    assert root.count() == 1
    # drawn by our extension's renderer, not the widget view the same output carries (ours ranks above it)
    assert page.evaluate(labserver.PREFERRED_JS) == labserver.MIME
    assert root.get_attribute("data-host") is None

    for name in PANES:
        assert root.locator(f'[data-pane="{name}"]').count() == 1, name
    # [Note: an output completed once drawn]: the kernel writes the parts into the output; the same view stays
    report = page.evaluate(labserver.REPORT_JS)
    lacking = sum(1 for c in report["parts_cut"] if not c.get("log"))
    assert lacking > 0
    page.wait_for_function("([r, n]) => r.dataset.partsHeld === String(n)", arg=[root.element_handle(), lacking], timeout=30_000)
    assert root.count() == 1 and root.get_attribute("data-status") == "ready"

    # The bytecode's argument column: every argument that has text is drawn with a real width, inside its pane.
    for kind in ("original-bytecode", "modified-bytecode"):
        pane = root.locator(f'[data-pane="{kind}"]')
        pane.scroll_into_view_if_needed()
        box = pane.bounding_box()
        assert box and box["width"] > 150, (kind, box)
        args = pane.locator(".jp-DynamoExplorer-row .jp-DynamoExplorer-argrepr").evaluate_all(
            """els => els.filter(e => e.textContent.trim()).slice(0, 40).map(e => {
                const r = e.getBoundingClientRect();
                return {text: e.textContent, x: r.x, width: r.width, visible: getComputedStyle(e).visibility};
            })"""
        )
        assert args, f"{kind}: no argument with text"
        for arg in args:
            assert arg["visible"] == "visible" and arg["width"] >= 20, (kind, arg)
            assert box["x"] <= arg["x"] < box["x"] + box["width"] - 20, (kind, arg, box)  # starts inside the pane
    root.screenshot(path=str(ARTIFACTS / "notebook7.png"))
    assert [e for e in page.errors if "dynamo-explorer" in e[1]] == [], page.errors  # none from the renderer
    # Notebook 7.6 itself throws one error while it loads any notebook, also without this extension installed:
    # its shortcuts plugin reads the settings schema of a plugin its registry does not hold
    assert [e for e in page.errors if not _notebook7_own(e)] == [], page.errors


def _notebook7_own(error: tuple[str, str]) -> bool:
    message, stack = error
    return message == "Cannot read properties of undefined (reading 'schema')" and "/static/notebook/notebook_core." in stack
