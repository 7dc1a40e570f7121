"""Every golden report, opened as a saved (untrusted) notebook output in a real JupyterLab.

The notebook holds each tests/goldens/*.report.json as a display_data output, as a saved
``%%dynamo`` notebook does (one of them also in its stored form, ``compiler.encoding``: gzip + base64, as
a big report is saved); no kernel runs. Each output must reach ``data-status="ready"`` with every
pane, an SVG for each frame graph, no error in the page; a screenshot of each lands in
artifacts/browser/goldens/.
"""

from __future__ import annotations

import json

import labserver
import pytest
from labserver import ARTIFACTS

from compiler.encoding import encode_report
from compiler.schema import PANES  # every pane of the report view, in display order: all are drawn for any report

pytestmark = pytest.mark.browser

GOLDENS = sorted((labserver.REPO / "tests" / "goldens").glob("*.report.json"))


def test_there_are_goldens():
    assert GOLDENS, "no tests/goldens/*.report.json: run tests/goldens/regenerate.py"


def _notebook(path, reports):
    cells = []
    for name, _, report in reports:
        cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "source": f"# {name}",
                "outputs": [
                    {"output_type": "display_data", "metadata": {}, "data": {labserver.MIME: report, "text/plain": name}}
                ],
            }
        )
    metadata = {
        "kernelspec": {"name": labserver.KERNEL, "display_name": "Dynamo Explorer (browser tests)", "language": "python"},
        "language_info": {"name": "python"},
    }
    nb = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def test_saved_outputs_render(lab, page):
    assert GOLDENS, "no golden reports in tests/goldens"
    reports = [(p.name.removesuffix(".report.json"), json.loads(p.read_text())) for p in GOLDENS]
    reports = [(name, report, report) for name, report in reports]
    stored = next(report for name, report, _ in reports if name == "training_step")
    reports.append(("training_step, stored encoded", stored, encode_report(stored, above=0)))
    _notebook(lab.root / "goldens.ipynb", reports)
    page.goto(f"{lab.url}/lab/tree/goldens.ipynb?token={lab.token}")
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-DynamoExplorer[data-status=\"ready\"]').length === n",
        arg=len(reports),
        timeout=120_000,
    )
    out = ARTIFACTS / "goldens"
    out.mkdir(parents=True, exist_ok=True)
    roots = page.locator(".jp-DynamoExplorer")
    assert roots.count() == len(reports)
    for i, (name, report, _) in enumerate(reports):
        root = roots.nth(i)
        assert root.locator(".jp-DynamoExplorer-unsupported").count() == 0, name
        for pane in PANES:
            assert root.locator(f'[data-pane="{pane}"]').count() == 1, (name, pane)
        assert root.locator('[data-count="frames"]').inner_text() == str(len(report["frames"]))
        shown = root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id")
        frame = next((f for f in report["frames"] if f["compile_id"] == shown), None)
        if frame and any(g["kind"] == "dynamo" and g["id"] in frame["graph_ids"] for g in report["graphs"]):
            assert root.locator('[data-pane="fx-graph"] svg g.node').count() > 0, name
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(out / f"{name.replace(', ', '_').replace(' ', '_')}.png"))
    assert page.errors == [], page.errors
