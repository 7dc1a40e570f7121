"""The ``text/plain`` line of every bundle (``compiler.summary.one_line``), on golden reports given known times.

A break met by several compiles is counted once among the distinct ones; with ``--profile`` and ``--compare-eager``
the line ends with the run split, the captured-op coverage and the speedup (the same fixtures as the renderer's
breakList.spec.ts and profile.spec.ts).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from compiler.summary import one_line

GOLDENS = Path(__file__).resolve().parents[1] / "goldens"

EXPLICIT = {
    "gb_id": "GB0025",
    "gb_type": "Call to `torch._dynamo.graph_break()`",
    "reason": "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break.",
    "explanation": "User-inserted graph break. Message: None",
    "hints": ["Remove the `torch._dynamo.graph_break()` call."],
    "doc_url": "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html",
    "context": None,
    "filename": "<cell>",
    "line": 9,
    "user_stack": [],
}


def _two_breaks(profile: dict | None = None) -> dict:
    """toy_example with [0/0] recompiled as [0/1] (the same break, met by two compiles) and an explicit break
    in the resume function [1/0] on line 9."""
    report = json.loads((GOLDENS / "toy_example.report.json").read_text())
    again = copy.deepcopy(report["frames"][0])
    again["compile_id"] = "0/1"
    again["recompile_reasons"] = [
        {"failed_compile_id": "0/0", "reason": "tensor 'a' dtype mismatch. expected Float, actual Double"}
    ]
    report["frames"].append(again)
    report["frames"][1]["graph_breaks"].append(copy.deepcopy(EXPLICIT))
    if profile is not None:
        report["profile"] = profile
    return report


def _timed() -> dict:
    """toy_profile with the times profile.spec.ts sets: 30 ms in graphs, 20 ms eager, 950 ms compiling;
    graph 1 the most, then 0, then 2; the break of [0/0] the most eager time; eager 10 ms vs compiled 4 ms."""
    report = json.loads((GOLDENS / "toy_profile.report.json").read_text())
    p = report["profile"]
    p.update(wall_ms=1000, compiled_ms=30, eager_ms=20, compile_ms=950, cache_lookups=10, cache_lookup_ms=0.5)
    for g in p["graphs"]:
        g["total_ms"] = {0: 6, 1: 20, 2: 4}[g["graph_id"]]
        g["mean_ms"] = g["total_ms"] / g["calls"]
        # the first call holds a quarter of the time (all of it when it is the only one), the calls after it the rest
        g["first_call"] = _calls(host_ms=g["total_ms"] / 4 if g["calls"] > 1 else g["total_ms"])
        g["steady"] = _calls(calls=g["calls"] - 1, host_ms=g["total_ms"] * 3 / 4) if g["calls"] > 1 else None
    ms = {"graph_break": 12, "outside": 6.5, "1/0": 1, "2/0": 0.5}
    for e in p["eager"]:
        e["ms"] = ms[e["compile_id"]] if e["cause"] == "frame" else ms[e["cause"]]
    p["coverage"]["pct_time"] = 0.6
    for e in p["entries"]:
        e.update(total_ms=2, self_ms=1.5, graph_ms=1, eager_ms=0.5, cache_lookup_ms=0.05)
    report["eager_baseline"].update(eager_ms=10, compiled_ms=4, compile_ms=600, speedup=2.5)
    report["eager_baseline"]["functions"][0].update(eager_ms=9, compiled_ms=3.5, speedup=9 / 3.5)
    return report


def _calls(**extra: float | None) -> dict:
    out: dict = {"calls": 1, "host_ms": 0, "compile_ms": 0, "device_ms": None, "kernels": 0}
    return out | {"compile_device_ms": None, "compile_kernels": 0} | extra


def test_text_plain_counts_a_break_met_by_several_compiles_once_among_the_distinct():
    assert one_line(_two_breaks()).startswith(
        "dynamo: 4 frames · 3 graphs · 3 graph breaks (2 distinct; lines 8, 9) · 1 recompile"
    )
    toy = json.loads((GOLDENS / "toy_example.report.json").read_text())
    assert "1 graph break (line 8)" in one_line(toy)


def test_text_plain_ends_with_the_run_split_coverage_and_speedup():
    assert one_line(_timed()) == (
        "dynamo: 3 frames · 3 graphs · 1 graph break (line 8) · run 30.0 ms compiled / 20.0 ms eager / 950 ms compile"
        " · 69% of ops captured · 2.50× vs eager"
    )
    toy = json.loads((GOLDENS / "toy_example.report.json").read_text())
    assert one_line(toy) == "dynamo: 3 frames · 3 graphs · 1 graph break (line 8)"
