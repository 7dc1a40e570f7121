"""The FX picture's export buttons in a real JupyterLab + chromium.

A saved notebook holds the toy_example golden report as an output (no kernel runs). Clicking "SVG" in the
FX graph pane must download ``graph_<compile id>_<kind>.svg``: a standalone SVG document with one box per
FX node and the page's colours inlined (no CSS variable left, the label colour the page computes). Clicking
"PNG" must download a PNG (its magic bytes) drawn at twice the picture's natural size, whatever the zoom. Both
files land in artifacts/browser/export/.
"""

from __future__ import annotations

import json
import shutil
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ROOT = ".jp-DynamoExplorer"


def _notebook(path: Path, report: dict) -> None:
    output = {"output_type": "display_data", "metadata": {}, "data": {labserver.MIME: report, "text/plain": "toy_example"}}
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "source": "# toy_example", "outputs": [output]}
    metadata = {
        "kernelspec": {"name": labserver.KERNEL, "display_name": "Dynamo Explorer (browser tests)", "language": "python"},
        "language_info": {"name": "python"},
    }
    path.write_text(json.dumps({"cells": [cell], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}))


def _style(el: ET.Element) -> dict[str, str]:
    pairs = (d.split(":", 1) for d in (el.get("style") or "").split(";") if ":" in d)
    return {k.strip(): v.strip() for k, v in pairs}


def _download(page, fx, kind: str, filename: str, out: Path) -> bytes:
    """Click the FX pane's export button ``kind``; the download's bytes (a copy is kept in ``out``)."""
    with page.expect_download() as info:
        fx.locator(f'button[data-export="{kind}"]').click()
    download = info.value
    assert download.failure() is None
    assert download.suggested_filename == filename
    shutil.copyfile(download.path(), out / filename)
    return Path(download.path()).read_bytes()


def test_fx_picture_downloads_as_svg_and_png(lab, page):
    report = json.loads((labserver.REPO / "tests" / "goldens" / "toy_example.report.json").read_text())
    _notebook(lab.root / "export.ipynb", report)
    page.goto(f"{lab.url}/lab/tree/export.ipynb?token={lab.token}")
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=120_000)
    fx = page.locator(f'{ROOT} [data-pane="fx-graph"]')
    graph = next(g for g in report["graphs"] if g["id"] == int(fx.get_attribute("data-graph-id")))
    siblings = [g for g in report["graphs"] if g["compile_id"] == graph["compile_id"] and g["kind"] == "dynamo"]
    assert len(siblings) == 1
    stem = f"graph_{graph['compile_id'].replace('/', '_')}_{graph['kind']}"
    out = ARTIFACTS / "export"
    out.mkdir(parents=True, exist_ok=True)

    data = _download(page, fx, "svg", f"{stem}.svg", out)
    assert len(data) > 0 and data.startswith(b"<?xml")
    svg = ET.fromstring(data)
    assert svg.tag == f"{SVG_NS}svg"
    assert svg.get("viewBox") == fx.locator(".jp-DynamoExplorer-picture svg").get_attribute("viewBox")
    drawn = [g.get("data-node") for g in svg.iter(f"{SVG_NS}g") if "node" in (g.get("class") or "").split()]
    assert sorted(drawn) == sorted(n["name"] for n in graph["nodes"])
    assert b"var(--" not in data  # colours are resolved, not theme variables a standalone file cannot resolve
    labels = [t for t in svg.iter(f"{SVG_NS}text")]
    assert labels and all(_style(t).get("fill") for t in labels)
    page_fill = fx.locator(".jp-DynamoExplorer-picture svg g.node text").first.evaluate("t => getComputedStyle(t).fill")
    first_node = next(g for g in svg.iter(f"{SVG_NS}g") if "node" in (g.get("class") or "").split())
    assert _style(first_node.find(f"{SVG_NS}text")).get("fill") == page_fill
    background = next(iter(svg))
    assert background.tag == f"{SVG_NS}rect" and background.get("fill")

    png = _download(page, fx, "png", f"{stem}.png", out)
    assert png.startswith(PNG_MAGIC)
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    # the picture's natural size (its width/height attributes): the viewer may show it zoomed
    box = fx.locator(".jp-DynamoExplorer-picture svg").evaluate(
        "s => ({width: s.width.baseVal.value, height: s.height.baseVal.value})"
    )
    assert width > 0 and height > 0
    assert abs(width - 2 * box["width"]) <= 2 and abs(height - 2 * box["height"]) <= 2, (width, height, box)
    assert page.errors == [], page.errors
