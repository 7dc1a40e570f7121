"""The static view's CUDA graphs part (issue 28 item 3), on the training_step golden (a real engine run) given
``cudagraphs`` rows as the schema writes them: on the CPU (the forward skipped with inductor's reason, its backward
with it) and on a GPU (recorded, re-recorded with its reason, replays and eager runs with --profile).

Each row inside its frame with inductor's words, what they mean and the counts; a frame without rows gets nothing;
the header's one-line summary says it for the whole run; hostile strings escaped. The same content as the frame
title's row in the JupyterLab view (labextension/tests/cudagraphs.spec.ts).
"""

from __future__ import annotations

import html
import json
import re

import pytest
from kernel_nb import REPO

pytest.importorskip("torch")

from compiler.schema import validate_report as validate
from kernel_ext.static_html import render

XSS = "<script>alert(1)</script>"
CPU_REASON = "skipping cudagraphs due to multiple devices: "


def _row(**over):
    row = {
        "compile_id": "0/0",
        "kind": "forward",
        "graph_id": 2,
        "status": "skipped",
        "reason": CPU_REASON,
        "skipped_at": "compile",
        "from_forward": False,
        "explanation": "the graph runs no CUDA code: CUDA graphs record CUDA work only",
        "partitions": None,
        "recordings": 0,
        "rerecord_reasons": [],
        "warmups": 0,
        "calls": None,
        "replays": None,
        "eager_runs": None,
    }
    row.update(over)
    return row


def _report(rows):
    report = json.loads((REPO / "tests/goldens/training_step.report.json").read_text())
    report["schema_version"]["minor"] = max(report["schema_version"]["minor"], 8)
    report["cudagraphs"] = rows
    validate(report)
    return report


def _frame_html(page: str, compile_id: str) -> str:
    """The part of the page between frame ``compile_id``'s title and the next frame."""
    start = page.index(f"<b>[{compile_id}]</b>", page.index('class="dx-frame"'))
    end = page.find('class="dx-frame"', start)
    return page[start : end if end != -1 else len(page)]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_a_cpu_run_names_inductors_reason_in_the_frame() -> None:
    rows = [_row(), _row(kind="backward", graph_id=3, from_forward=True, explanation="decided with its forward")]
    page = render(_report(rows))
    frame = _frame_html(page, "0/0")
    assert "dx-cudagraphs" in frame and "dx-warn dx-cudagraphs" in frame
    text = _text(frame)
    assert f"forward: skipped: inductor says {CPU_REASON.strip()}" in text
    assert "backward: skipped with its forward: inductor says" in text
    assert "CUDA graphs record CUDA work only" in text
    assert "dx-cudagraphs" not in _frame_html(page, "1/0")
    assert "CUDA graphs: 2 skipped (no CUDA device)" in _text(page)


def test_a_gpu_run_shows_recordings_reasons_and_replays() -> None:
    rows = [
        _row(status="recorded", reason=None, skipped_at=None, partitions=1, recordings=1, warmups=1, explanation=None),
        _row(
            kind="backward",
            graph_id=3,
            status="rerecorded",
            reason=None,
            skipped_at=None,
            partitions=2,
            recordings=3,
            rerecord_reasons=["static input data pointer changed.\ninput name: primals_1"],
            calls=10,
            replays=7,
            eager_runs=1,
            explanation="recorded again",
        ),
    ]
    page = render(_report(rows))
    frame = _frame_html(page, "0/0")
    assert "dx-warn dx-cudagraphs" not in frame
    text = _text(frame)
    assert "forward: recorded (1 recording)" in text
    assert "backward: re-recorded (3 recordings, 2 partitions) · 7 replays / 1 eager run of 10 calls" in text
    assert "recorded again because: static input data pointer changed." in text
    assert "CUDA graphs: 1 recorded, 1 re-recorded · 7 replays / 1 eager run" in _text(page)


def test_report_strings_stay_text() -> None:
    page = render(_report([_row(reason=XSS, explanation=XSS, rerecord_reasons=[XSS])]))
    assert XSS not in page and html.escape(XSS) in page
