"""Cells that run as plain Python run under %%dynamo in a real kernel (issue 23): a coroutine and a cell that resets
Dynamo. The kernel stays alive, the cell's variables are kept, and the report says what happened."""

from __future__ import annotations

import pytest
from kernel_nb import cell, code, execute, last_json, outputs, reports

pytestmark = pytest.mark.kernel

ASYNC = """%%dynamo --backend eager
import asyncio
from concurrent.futures import ThreadPoolExecutor

def f(x):
    return torch.sin(x) + 1

async def main():
    await asyncio.sleep(0)
    y = f(torch.ones(4))
    await asyncio.sleep(0)
    return y * 2

with ThreadPoolExecutor(1) as runner:  # the kernel's own event loop is running here: a thread gets its own
    out = runner.submit(asyncio.run, main()).result()
"""

RESET = """%%dynamo --backend eager
torch._dynamo.reset()
def g(x):
    return torch.cos(x) * 2
z = g(torch.zeros(3))
"""

CHECK = "import json\nprint(json.dumps({'out': out.tolist(), 'z': z.tolist(), 'pid_alive': True}))"


@pytest.fixture(scope="module")
def nb(kernel_name):
    return execute(
        [
            code("%load_ext kernel_ext\nimport torch", name="setup"),
            code(ASYNC, name="async"),
            code(RESET, name="reset"),
            code(CHECK, name="check"),
        ],
        kernel_name,
    )


def _report(c) -> dict:
    (rep,) = reports(c)
    return rep.data["application/vnd.dynamo-explorer.report.v1+json"]


def test_the_kernel_lives_on_and_keeps_what_the_cells_made(nb):
    assert not any(outputs(c, "error") for c in nb.cells)
    assert last_json(cell(nb, "check")) == {
        "out": [pytest.approx(2 * (1 + 0.8414709848078965))] * 4,
        "z": [2.0, 2.0, 2.0],
        "pid_alive": True,
    }


def test_the_coroutine_ran_plain_and_the_report_says_why(nb):
    report = _report(cell(nb, "async"))
    assert report["frames"] == [] and report["error"] is None
    main = next(c for c in report["callees"] if c["name"] == "main")
    assert not main["compiled"] and main["why"].startswith("a coroutine function (async def)")


def test_the_reset_is_in_the_report_with_its_line(nb):
    c = cell(nb, "reset")
    report = _report(c)
    (reset,) = report["resets"]
    assert reset["line"] == 2 and "reset Dynamo" in reset["message"]
    assert [f["code"]["name"] for f in report["frames"]] == ["g"]
    (plain,) = [o for o in outputs(c, "display_data") if "text/plain" in o.data]
    assert "reset Dynamo at line 2" in plain.data["text/plain"]
