"""One-line text summary of a report: the ``text/plain`` of every bundle and the CLI's output.

Example: ``dynamo: 3 frames · 3 graphs · 1 graph break (line 4) · 1 recompile · 12.3 s compile``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["counts", "one_line"]


def counts(report: dict[str, Any]) -> dict[str, int]:
    frames = report.get("frames", [])
    return {
        "frames": len(frames),
        "graphs": sum(1 for g in report.get("graphs", []) if g["kind"] == "dynamo"),
        "graph_breaks": sum(len(f["graph_breaks"]) for f in frames),
        "recompiles": sum(1 for f in frames if f["recompile_reasons"]),
        "guards": sum(len(f["guards"]) for f in frames),
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def one_line(report: dict[str, Any]) -> str:
    c = counts(report)
    parts = [_plural(c["frames"], "frame"), _plural(c["graphs"], "graph")]
    if c["graph_breaks"]:
        lines = sorted(
            {b["line"] for f in report["frames"] for b in f["graph_breaks"] if b["line"] is not None and f["code"]["in_cell"]}
        )
        where = f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines[:5]))})" if lines else ""
        parts.append(_plural(c["graph_breaks"], "graph break") + where)
    if c["recompiles"]:
        parts.append(_plural(c["recompiles"], "recompile"))
    compile_s = report.get("timings", {}).get("compile_s") or 0.0
    if compile_s:
        parts.append(f"{compile_s:.1f} s compile")
    err = report.get("error")
    if err:
        at = f" at line {err['line']}" if err.get("line") else ""
        parts.append(f"raised {err['type']}{at}")
    return "dynamo: " + " · ".join(parts)
