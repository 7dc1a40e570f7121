"""Compare a Dynamo Explorer report with the plain ``torch.compile`` reference of the same script.

``differences(report, reference)`` lists every way the report's story differs from what Dynamo
counted under ``torch.compile`` (tests/zoo/reference.py): the compiled frames (compile id and code
name, recompiles included), the Dynamo graphs (``stats.unique_graphs``), the graph breaks (GB id,
file and line, and the script's lines on the break's user stack) and Dynamo's own ``frames``/``graph_break``/``resumes`` counters. Empty: same story.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

COUNTERS = ("frames", "graph_break", "resumes")


def summary(report: dict[str, Any]) -> dict[str, Any]:
    frames = [[f["compile_id"], f["code"]["name"]] for f in report["frames"]]
    script = report["cell"]["filename"]
    breaks = [
        [b["gb_id"], b["filename"], b["line"], sorted({s["line"] for s in b["user_stack"] if s["filename"] == script})]
        for f in report["frames"]
        for b in f["graph_breaks"]
    ]
    graphs = sum(1 for g in report["graphs"] if g["kind"] == "dynamo")
    return {
        "frames": frames,
        "graphs": graphs,
        "breaks": breaks,
        "recompiles": sum(1 for cid, _ in frames if not cid.endswith("/0")),
    }


def differences(report: dict[str, Any], reference: dict[str, Any], host_frames: bool = True) -> list[str]:
    """``host_frames=False``: skip ``counters['frames']``, which also counts frames Dynamo only looked
    at and skipped, and so depends on the host's own Python (a kernel shows a warning through
    ipykernel's streams: 26 frames where a script process runs 9). The compiled frames still count."""
    out = []
    mine = summary(report)
    ref_frames = [[cid, name] for cid, name, *_ in reference["metrics"]]
    if mine["frames"] != ref_frames:
        out.append(f"frames: report {mine['frames']} != torch.compile {ref_frames}")
    ref_graphs = reference["counters"].get("stats", {}).get("unique_graphs", 0)
    if mine["graphs"] != ref_graphs:
        out.append(f"graphs: report {mine['graphs']} != torch.compile stats.unique_graphs {ref_graphs}")

    def key(b: list) -> tuple:  # (GB id, file, line, the script's lines on the break's user stack)
        return b[0], b[1], b[2], tuple(b[3])

    if Counter(map(key, mine["breaks"])) != Counter(map(key, reference["breaks"])):
        out.append(
            f"graph breaks: report {sorted(map(key, mine['breaks']))} != torch.compile {sorted(map(key, reference['breaks']))}"
        )
    counters = report.get("dynamo_counters", {})
    for cat in COUNTERS:
        if cat == "frames" and not host_frames:
            continue
        if counters.get(cat, {}) != reference["counters"].get(cat, {}):
            out.append(f"counters[{cat!r}]: report {counters.get(cat, {})} != torch.compile {reference['counters'].get(cat, {})}")
    if counters.get("stats", {}).get("unique_graphs", 0) != ref_graphs:
        out.append("counters['stats']['unique_graphs'] differ")
    return out
