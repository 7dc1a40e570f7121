"""The tour notebook (notebooks/01_tour.ipynb) runs headless in a real kernel, every cell green.

Each %%dynamo cell shows exactly one report bundle, and the reports teach what the markdown says
they do: the toy_example break at its `if` line, the dtype recompile, the .item() break, the
dynamic size symbol, and inductor's output code. Saved, the executed tour holds no empty or spent
output, and `jupyter nbconvert --to html` converts it without a warning.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import nbformat
import pytest
from kernel_nb import MIME, REPO, execute, outputs, reports

pytestmark = pytest.mark.kernel

TOUR = REPO / "notebooks" / "01_tour.ipynb"


@pytest.fixture(scope="module")
def tour(kernel_name):
    nb = nbformat.read(TOUR, as_version=4)
    execute(None, kernel_name, nb=nb, store_widget_state=False)  # as docs/frontends.md says to for nbconvert
    magic = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("%%dynamo")]
    return nb, [reports(c)[0].data[MIME] if reports(c) else None for c in magic]


def test_tour_is_committed_without_outputs():
    nb = nbformat.read(TOUR, as_version=4)
    nbformat.validate(nb)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


def test_tour_runs_green_with_one_report_per_magic_cell(tour):
    nb, reps = tour
    assert len(reps) == 5 and all(reps)
    for c in nb.cells:
        if c.cell_type == "code":
            assert outputs(c, "error") == [], c.outputs
            if c.source.startswith("%%dynamo"):
                assert len(reports(c)) == 1


def _frames(report, name):
    return [f for f in report["frames"] if f["code"]["name"] == name]


def test_tour_reports_show_what_the_text_says(tour):
    toy, dtype, item, sizes, inductor = tour[1]
    assert [b["line"] for f in _frames(toy, "toy_example") for b in f["graph_breaks"]] == [4]
    assert any(f["code"]["is_resume"] for f in toy["frames"])
    reasons = [r["reason"] for f in _frames(dtype, "scale") for r in f["recompile_reasons"]]
    assert any("dtype" in r.lower() or "double" in r.lower() for r in reasons), reasons
    assert any("item()" in b["gb_type"] + b["reason"] for f in _frames(item, "normalize") for b in f["graph_breaks"])
    assert len(_frames(sizes, "double")) == 2
    assert any("size()" in s["source"] for s in sizes["symbols"]), sizes["symbols"]
    assert inductor["backend"] == "inductor" and inductor["output_code"]
    assert any(k["language"] == "cpp" for o in inductor["output_code"] for k in o["kernels"])


def test_saved_tour_has_no_empty_output_and_converts_to_html_without_a_warning(tour, tmp_path):
    nb, _ = tour
    path = tmp_path / "tour.ipynb"
    nbformat.write(nb, path)
    saved = nbformat.read(path, as_version=4)
    for c in saved.cells:
        for o in c.get("outputs", []):
            if o.output_type in ("display_data", "execute_result"):
                assert o.data, f"an output with empty data in {c.source[:40]!r}"
                assert not re.match(r"dynamo: \d+ frames? compiled so far", o.data.get("text/plain", "")), "a spent progress line"
    assert "widgets" not in saved.metadata  # executed without widget state: nbconvert shows the static views
    proc = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(path)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "not able to be represented" not in proc.stderr
    assert [line for line in proc.stderr.splitlines() if "WARN" in line or "ERROR" in line] == [], proc.stderr
    page = (tmp_path / "tour.html").read_text(encoding="utf-8")
    assert page.count('<div class="dx-report">') == 5  # each %%dynamo cell's static view
    if shutil.which("dot"):  # .ci/run installs Graphviz: each cell's FX pictures
        assert page.count('<div class="dx-fx"><svg') >= 5
    else:
        assert page.count('class="dx-meta dx-nodot"') == 5
