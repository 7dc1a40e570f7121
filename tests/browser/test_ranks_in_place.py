"""A multi-rank trace opened in a notebook, another rank shown in place, in a real JupyterLab + kernel + chromium.

Two ranks' structured traces are written by real runs (``TORCH_TRACE``; rank 1 calls its compiled function with a
second shape, so it recompiles and rank 0 does not). ``%dynamo_open`` shows rank 0's report with both ranks beside
it; clicking rank 1's name in the ranks table asks the kernel for rank 1's report (the comm our renderer opens,
kernel_ext/parts.py) and draws it in the same output: the header now says rank 1 is shown, the frames are rank 1's,
and rank 0's name brings rank 0 back. A screenshot lands in artifacts/browser/ranks_in_place.png.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

ROOT = ".jp-DynamoExplorer"

PROGRAM = """\
import torch


@torch.compile(backend="eager")
def step(x):
    return torch.sin(x) * 2


step(torch.ones(4))
{more}
"""


def _rank_log(job: Path, rank: int, more: str, tmp: Path) -> None:
    """Rank ``rank``'s log in ``job``, written by a real run of PROGRAM under TORCH_TRACE."""
    out = tmp / f"trace{rank}"
    env = {**os.environ, "TORCH_TRACE": str(out)}
    subprocess.run([sys.executable, "-c", PROGRAM.format(more=more)], env=env, check=True, timeout=300)
    (log,) = out.glob("*.log")
    log.rename(job / f"dedicated_log_torch_trace_rank_{rank}_job.log")


def _shown(root, rank: int) -> None:
    root.locator(f'tr[data-rank="{rank}"] td', has_text=f"rank {rank} (shown)").first.wait_for(timeout=60_000)


def test_another_rank_is_shown_in_place(lab, page, tmp_path):
    job = tmp_path / "job"
    job.mkdir()
    _rank_log(job, 0, "", tmp_path)
    _rank_log(job, 1, "step(torch.ones(7))", tmp_path)
    labserver.write_notebook(lab.root / "ranks.ipynb", ["%load_ext kernel_ext", f"%dynamo_open {job}"])
    labserver.open_notebook(page, lab, "ranks.ipynb")
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)
    root = page.locator(ROOT)
    assert root.count() == 1
    header = root.locator('[data-pane="header"]')
    _shown(header, 0)
    frames = header.locator('[data-count="frames"]')
    assert frames.inner_text() == "1"  # rank 0 compiled once

    header.locator('tr[data-rank="1"] button').click()
    _shown(header, 1)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=60_000)
    assert root.count() == 1, "shown in place, not below"
    assert frames.inner_text() == "2"  # rank 1 recompiled
    assert "rank 1" in root.locator('[data-banner="trace"]').inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "ranks_in_place.png"))

    header.locator('tr[data-rank="0"] button').click()  # and back
    _shown(header, 0)
    assert frames.inner_text() == "1"
    assert page.errors == [], page.errors
