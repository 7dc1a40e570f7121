"""``%%dynamo --try NAME`` in a real kernel (issue 13 item 4): the before is the cell's previous run.

A cell with an ``.item()`` break runs plain, then the same cell runs with ``--try capture_scalar_outputs``: the
magic says first that the cell runs again, the cell runs once more (not twice), and the report's
``try_fix.before_from`` names the previous run's ``In [n]``. A cell never run before runs twice, as it says.
"""

from __future__ import annotations

import json

import pytest
from kernel_nb import MIME, cell, code, execute, reports, stream

pytestmark = pytest.mark.kernel

BODY = "def normalize(x):\n    total = x.sum().item()\n    return x / total\nprint('ran')\nz = normalize(torch.rand(5) + 1)\n"


@pytest.fixture(scope="module")
def nb(kernel_name):
    cells = [
        code("%load_ext kernel_ext\nimport json, torch", name="setup"),
        code("%%dynamo --backend eager --out plain\n" + BODY, name="plain"),
        code("%%dynamo --backend eager --out plain --try capture_scalar_outputs\n" + BODY, name="tried"),
        code("%%dynamo --backend eager --out fresh --try capture_scalar_outputs\n" + BODY + "w = 1\n", name="fresh"),
        code("%%dynamo --backend eager --try speed_up\n" + BODY, name="unknown", raises=True),
        code("%%dynamo --backend eager --try dynamic\n" + BODY, name="not_offered", raises=True),
        code("print(json.dumps({'torch_config': torch._dynamo.config.capture_scalar_outputs}))", name="after"),
    ]
    return execute(cells, kernel_name)


def test_the_previous_run_is_the_before_and_the_cell_runs_once_more(nb):
    tried = cell(nb, "tried")
    out = stream(tried).splitlines()
    notice = next(i for i, ln in enumerate(out) if "--try capture_scalar_outputs: this cell RUNS AGAIN" in ln)
    assert notice < out.index("ran") and out.count("ran") == 1
    plain_number = cell(nb, "plain").execution_count
    report = reports(tried)[-1].data[MIME]
    fix = report["try_fix"]
    assert fix["before_from"] == f"the cell's previous run in this kernel (In [{plain_number}])"
    assert fix["before"]["graph_breaks"] == 1 and fix["after"]["graph_breaks"] == 0
    assert report["options"]["try_fix"] == "capture_scalar_outputs"


def test_a_cell_not_run_before_runs_twice_and_says_so(nb):
    out = stream(cell(nb, "fresh")).splitlines()
    assert "RUNS TWICE" in out[0] and out.count("ran") == 2
    assert reports(cell(nb, "fresh"))[-1].data[MIME]["try_fix"]["before_from"].startswith("a run of the cell as it is")


def test_bad_names_are_refused_before_the_cell_runs(nb):
    for name, needle in (("unknown", "unknown fix 'speed_up'"), ("not_offered", "offers no fix 'dynamic'")):
        c = cell(nb, name)
        said = stream(c, "stderr")
        assert said.startswith("UsageError: %%dynamo: --try") and needle in said and len(said.splitlines()) == 1
        assert "ran" not in stream(c).splitlines()


def test_config_is_back_after_the_runs(nb):
    assert json.loads(stream(cell(nb, "after")))["torch_config"] is False
