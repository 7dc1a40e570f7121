"""Refresh the README's screenshots: ``.venv/bin/python docs/screenshots.py`` (needs the built extension and
/usr/bin/chromium; about two minutes).

It runs real ``%%dynamo`` cells in a real JupyterLab (the browser tests' server, tests/browser/labserver.py)
and saves, under docs/images/:
- ``explorer.png``: the whole explorer on the toy_example (light theme);
- ``bytecode.png``: original vs modified bytecode, aligned by source line, Dynamo's glue folded;
- ``fx-graph.png``: the FX graph of a ``torch.nn.TransformerEncoderLayer`` (training mode: the layer's own ops,
  not the fused inference kernel), fitted to the view, with its minimap;
- ``guards.png``: the guards of a dtype recompile: the failed guard, input guards first, the recompile timeline;
- ``explorer-dark.png``: the toy_example in JupyterLab Dark.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO))

import labserver  # noqa: E402

from tests.goldens.cases import CASES, TOY_EXAMPLE_CELL  # noqa: E402

OUT = REPO / "docs" / "images"
ROOT = ".jp-DynamoExplorer"
WIDTH, HEIGHT = 1500, 2600  # tall: JupyterLab scrolls the notebook, and a shot shows what is on screen

LAYER_CELL = """%%dynamo --backend eager
import torch
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
def encode(x):
    return layer(x)
y = encode(torch.randn(2, 5, 16))
"""

RECOMPILE_CELL = "%%dynamo --backend eager\n" + CASES["recompile_dtype"]["source"]


def _explorers(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('{ROOT}[data-status=\"ready\"]').length >= {count}", timeout=600_000)


def _shoot(locator, name: str) -> None:
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(OUT / name))
    print(f"wrote {(OUT / name).relative_to(REPO)}")


def _theme(page, theme: str) -> None:
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{ theme: '{theme}' }})")
    page.wait_for_function(f"() => document.body.dataset.jpThemeName === '{theme}'", timeout=60_000)
    page.wait_for_timeout(500)


def main() -> None:
    from playwright.sync_api import sync_playwright

    problem = labserver.labextension_problem() or labserver.browser_missing()
    if problem:
        raise SystemExit(f"screenshots: {problem}")
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = labserver.LabServer(Path(tmp)).start()
        try:
            with sync_playwright() as pw:
                browser = labserver.launch_chromium(pw)
                page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
                labserver.write_notebook(
                    server.root / "shots.ipynb", ["%load_ext kernel_ext", TOY_EXAMPLE_CELL, LAYER_CELL, RECOMPILE_CELL]
                )
                labserver.open_notebook(page, server, "shots.ipynb")
                labserver.run_all(page)
                _explorers(page, 3)
                toy, layer, recompile = (page.locator(ROOT).nth(i) for i in range(3))
                _shoot(toy, "explorer.png")
                _shoot(toy.locator(".jp-DynamoExplorer-columns").first, "bytecode.png")
                _shoot(layer.locator('[data-pane="fx-graph"]'), "fx-graph.png")
                recompile.locator('[data-pane="frames"] [data-compile-id][data-status="recompile"]').first.click()
                page.wait_for_timeout(500)
                _shoot(recompile.locator('[data-pane="guards"]'), "guards.png")
                _theme(page, "JupyterLab Dark")
                _shoot(toy, "explorer-dark.png")
                browser.close()
        finally:
            left = server.stop()
            if left:
                print(f"processes of the JupyterLab server still alive: {left}", file=sys.stderr)


if __name__ == "__main__":
    main()
