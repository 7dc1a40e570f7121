"""The FX graph viewer in a real JupyterLab + kernel + chromium: zoom, pan, fit, minimap, search, AOT pictures.

Two ``%%dynamo`` cells run in a real kernel:
- a ``torch.nn.TransformerEncoderLayer`` in eval mode under ``no_grad`` (the fast path: Dynamo's graph is the
  17-node layer of issue 11, a wide row of parameters over one op), backend eager;
- a training step of a small MLP with backend ``aot_eager``, whose frame has AOTAutograd's joint, forward and
  backward graphs.

On the layer it checks that the first view shows the layer's op, that after fit every node's box lies inside
the viewport, that the +/− buttons, the keys and ctrl + wheel change the scale (the point under the pointer
staying put) while a plain wheel does not, that dragging pans and a click still selects, that keys given to
the focused picture never reach the notebook (``0 0`` would restart the kernel), that the minimap appears
once zoomed in and a click on it moves the view, that typing a node's name (no Enter) highlights it, dims the
rest and centres it (box centre within 10 % of the viewport's), that Enter/↑ step through hits and Escape
clears, and that the SVG export of a zoomed view is still the whole graph. On the training step it draws the
AOT forward graph as a picture. Screenshots land in artifacts/browser/viewer/.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"
SVG_NS = "{http://www.w3.org/2000/svg}"

LAYER_CELL = """%%dynamo --backend eager
import torch
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True).eval()

def encode(x):
    with torch.no_grad():
        return layer(x)

y = encode(torch.randn(2, 8, 16))
"""

TRAIN_CELL = """%%dynamo --backend aot_eager
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

def train_step(x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss

loss = train_step(torch.randn(4, 8), torch.randn(4, 1))
"""

REPORTS_JS = f"""() => {{
    const out = [];
    for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {{
        const outputs = cell.model.outputs;
        for (let i = 0; outputs && i < outputs.length; i++) {{
            const data = outputs.get(i).data;
            if (data['{labserver.MIME}']) out.push(data['{labserver.MIME}']);
        }}
    }}
    return out;
}}"""


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _inside(outer: dict, inner: dict, slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


class Viewer:
    """The FX pane of one explorer, with the waits its animations need."""

    def __init__(self, page, root):
        self.page = page
        self.fx = root.locator('[data-pane="fx-graph"]')
        self.viewport = self.fx.locator(".jp-DynamoExplorer-viewport")
        self.search = self.fx.locator("input.jp-DynamoExplorer-search")

    def scale(self) -> float:
        return float(self.viewport.get_attribute("data-scale"))

    def settle(self) -> None:
        """Wait until the pane is drawn and no eased move is running."""
        self.page.wait_for_function(
            "fx => fx.dataset.state === 'drawn' && !fx.querySelector('.jp-DynamoExplorer-stage.jp-mod-animate')",
            arg=self.fx.element_handle(),
        )
        self.page.wait_for_timeout(50)

    def box(self) -> dict:
        return self.viewport.bounding_box()

    def node(self, name: str):
        return self.fx.locator(f'svg g.node[data-node="{name}"]')

    def node_boxes(self) -> dict[str, dict]:
        return dict(
            self.fx.locator("svg g.node[data-node]").evaluate_all(
                """els => els.map(e => {
                    const r = e.getBoundingClientRect();
                    return [e.dataset.node, {x: r.x, y: r.y, width: r.width, height: r.height}];
                })"""
            )
        )

    def zoom(self, which: str) -> None:
        self.fx.locator(f'button[data-zoom="{which}"]').click()
        self.settle()


def _assert_centred(viewer: Viewer, name: str) -> None:
    vx, vy = _centre(viewer.box())
    nx, ny = _centre(viewer.node(name).bounding_box())
    vp = viewer.box()
    assert abs(nx - vx) <= 0.1 * vp["width"] and abs(ny - vy) <= 0.1 * vp["height"], (name, (nx, ny), (vx, vy))


def test_graph_viewer(lab, page):
    out = ARTIFACTS / "viewer"
    out.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "viewer.ipynb", ["%load_ext kernel_ext", LAYER_CELL, TRAIN_CELL])
    labserver.open_notebook(page, lab, "viewer.ipynb")
    labserver.run_all(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-DynamoExplorer[data-status=\"ready\"]').length === 2", timeout=300_000
    )
    layer_report, train_report = page.evaluate(REPORTS_JS)
    roots = page.locator(ROOT)
    v = Viewer(page, roots.nth(0))
    v.fx.scroll_into_view_if_needed()
    v.settle()

    graph = next(g for g in layer_report["graphs"] if g["kind"] == "dynamo")
    names = [n["name"] for n in graph["nodes"]]
    assert len(names) == 17, names  # the layer of issue 11: 12 parameters, the input, the op, grad mode twice, output
    assert sorted(v.node_boxes()) == sorted(names)
    op = max(
        (n for n in graph["nodes"] if n["op"] not in ("placeholder", "get_attr")),
        key=lambda n: sum(n["name"] in m["users"] for m in graph["nodes"]),
    )
    assert op["target"].endswith("_transformer_encoder_layer_fwd")

    # The first view: readable (never below half size) and on the layer's op, not on a corner of inputs.
    first = v.scale()
    assert first >= 0.5 - 1e-3 or all(_inside(v.box(), b) for b in v.node_boxes().values()), first
    assert _inside(v.box(), v.node(op["name"]).bounding_box())
    page.screenshot(path=str(out / "layer_first_view.png"), clip=v.fx.bounding_box())

    # Fit: every node's box inside the viewport.
    v.zoom("fit")
    fitted = v.scale()
    boxes = v.node_boxes()
    assert all(_inside(v.box(), b) for b in boxes.values()), [n for n, b in boxes.items() if not _inside(v.box(), b)]
    assert v.fx.locator(".jp-DynamoExplorer-minimap").is_hidden()  # everything is in view: no overview needed
    v.fx.screenshot(path=str(out / "layer_fit.png"))

    # Zoom with the buttons, the keys (focus on the picture) and ctrl + wheel; a plain wheel scrolls the page.
    v.zoom("in")
    assert v.scale() == pytest.approx(fitted * 1.25, rel=0.01)
    v.viewport.focus()
    page.keyboard.press("Minus")
    v.settle()
    assert v.scale() == pytest.approx(fitted, rel=0.01)
    page.keyboard.press("Equal")
    page.keyboard.press("Equal")
    v.settle()
    assert v.scale() == pytest.approx(fitted * 1.25**2, rel=0.01)
    page.keyboard.press("0")
    page.keyboard.press("0")  # JupyterLab's "restart the kernel" in command mode: the picture keeps it
    v.settle()
    assert v.scale() == pytest.approx(fitted, rel=0.01)
    page.wait_for_timeout(300)
    assert page.locator(".jp-Dialog").count() == 0, "a key given to the picture reached the notebook"

    target = v.node(op["name"])
    px, py = _centre(target.bounding_box())
    page.mouse.move(px, py)
    before = v.scale()
    page.mouse.wheel(0, 120)  # no ctrl: the notebook scrolls, the picture keeps its scale
    page.wait_for_timeout(100)
    assert v.scale() == before
    target.scroll_into_view_if_needed()
    px, py = _centre(target.bounding_box())
    page.mouse.move(px, py)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_timeout(100)
    assert v.scale() > before * 1.1
    qx, qy = _centre(target.bounding_box())
    assert abs(qx - px) < 3 and abs(qy - py) < 3, "ctrl + wheel zooms at the pointer"

    # Drag pans; a click that does not move still selects the node.
    start = target.bounding_box()
    vb = v.box()
    page.mouse.move(vb["x"] + 20, vb["y"] + vb["height"] - 20)
    page.mouse.down()
    page.mouse.move(vb["x"] + 60, vb["y"] + vb["height"] - 40, steps=5)
    page.mouse.move(vb["x"] + 100, vb["y"] + vb["height"] - 60, steps=5)
    page.mouse.up()
    moved = target.bounding_box()
    assert moved["x"] - start["x"] == pytest.approx(80, abs=2) and moved["y"] - start["y"] == pytest.approx(-40, abs=2)
    v.zoom("fit")
    v.node(names[0]).click()
    assert v.fx.locator(".jp-DynamoExplorer-detailsTitle").inner_text() == names[0]

    # The minimap: shown once the picture no longer fits; a click on it centres the view there.
    for _ in range(4):
        v.zoom("in")
    minimap = v.fx.locator(".jp-DynamoExplorer-minimap")
    assert minimap.is_visible()
    frame = v.fx.locator(".jp-DynamoExplorer-minimapFrame")
    mb = minimap.bounding_box()
    click = (mb["x"] + mb["width"] * 0.75, mb["y"] + mb["height"] * 0.5)
    page.mouse.click(*click)
    v.settle()
    fcx, fcy = _centre(frame.bounding_box())
    assert abs(fcx - click[0]) < 3 and abs(fcy - click[1]) < 3, ((fcx, fcy), click)
    v.fx.screenshot(path=str(out / "layer_zoomed_minimap.png"))

    # The SVG export of a zoomed view is the whole graph.
    with page.expect_download() as info:
        v.fx.locator('button[data-export="svg"]').click()
    exported = ET.fromstring(Path(info.value.path()).read_bytes())
    drawn = [g.get("data-node") for g in exported.iter(f"{SVG_NS}g") if "node" in (g.get("class") or "").split()]
    assert sorted(drawn) == sorted(names)
    assert exported.get("viewBox") == v.fx.locator(".jp-DynamoExplorer-picture svg").get_attribute("viewBox")

    # Search as you type: the hit is highlighted, the rest dimmed, and it is centred (no Enter).
    v.zoom("fit")
    far = "g_layer_modules_linear2_parameters_bias_"
    assert far in names
    v.search.click()
    v.search.press_sequentially(far, delay=10)
    page.wait_for_function(
        "el => el.classList.contains('jp-mod-hit') && el.classList.contains('jp-mod-selected')",
        arg=v.node(far).element_handle(),
    )
    v.settle()
    assert "jp-mod-searching" in v.fx.locator(".jp-DynamoExplorer-picture svg").get_attribute("class")
    assert v.fx.locator("svg g.node.jp-mod-hit").count() == 1
    dimmed = v.node(names[0]).evaluate("e => getComputedStyle(e).opacity")
    assert float(dimmed) < 1
    _assert_centred(v, far)
    assert v.fx.locator(".jp-DynamoExplorer-detailsTitle").inner_text() == far
    v.fx.screenshot(path=str(out / "layer_search.png"))

    # Enter / ↑ step through the hits; Escape clears the search.
    v.search.fill("")
    v.search.press_sequentially("norm", delay=10)
    hits = [n for n in names if "norm" in n]
    assert len(hits) == 4
    page.wait_for_function("el => el.classList.contains('jp-mod-selected')", arg=v.node(hits[0]).element_handle())
    count = v.fx.locator(".jp-DynamoExplorer-searchCount")
    assert count.inner_text() == "1 / 4"
    assert v.fx.locator("svg g.node.jp-mod-hit").count() == 4
    assert v.fx.locator(".jp-DynamoExplorer-searchResults button").count() == 4  # the result chips stay
    v.search.press("Enter")
    v.search.press("Enter")
    assert count.inner_text() == "3 / 4"
    v.settle()
    assert "jp-mod-selected" in v.node(hits[2]).get_attribute("class")
    _assert_centred(v, hits[2])
    v.search.press("ArrowUp")
    assert count.inner_text() == "2 / 4"
    v.search.press("Escape")
    assert v.search.input_value() == ""
    assert v.fx.locator("svg g.node.jp-mod-hit").count() == 0
    assert "jp-mod-searching" not in (v.fx.locator(".jp-DynamoExplorer-picture svg").get_attribute("class") or "")
    assert page.locator(".jp-Dialog").count() == 0

    # AOT graphs as pictures: the training step's frame lists its joint, forward and backward graphs.
    t = Viewer(page, roots.nth(1))
    t.fx.scroll_into_view_if_needed()
    t.settle()
    labels = t.fx.locator(".jp-DynamoExplorer-graphButtons button").all_inner_texts()
    assert labels[0] == "dynamo" and {"joint", "forward", "backward"} <= set(labels), labels
    shown = t.fx.get_attribute("data-graph-id")
    compile_id = next(g["compile_id"] for g in train_report["graphs"] if str(g["id"]) == shown)
    forward = next(g for g in train_report["graphs"] if g["kind"] == "aot_forward" and g["compile_id"] == compile_id)
    t.fx.locator(".jp-DynamoExplorer-graphButtons button", has_text="forward").click()
    page.wait_for_function("el => el.dataset.graphKind === 'aot_forward'", arg=t.fx.element_handle())
    t.settle()
    boxes = t.node_boxes()
    assert sorted(boxes) == sorted(n["name"] for n in forward["nodes"])
    assert any(n["target"].startswith("torch.ops.aten.") for n in forward["nodes"])
    assert "aten." in (t.fx.locator(".jp-DynamoExplorer-picture svg").text_content() or "")
    t.zoom("fit")
    assert all(_inside(t.box(), b) for b in t.node_boxes().values())
    t.fx.screenshot(path=str(out / "training_aot_forward.png"))
    assert page.errors == [], page.errors
