"""One-line text summary of a report: the ``text/plain`` of every bundle and the CLI's output.

Example: ``dynamo: 3 frames · 3 graphs · 1 graph break (line 4) · 1 recompile · 12.3 s compile``; a break met by
several compiles is counted once among the distinct ones: ``4 graph breaks (2 distinct; lines 6, 8)``. With
``--profile`` the line ends with the run split and the captured-op coverage, with ``--compare-eager`` the
speedup: ``· run 30.0 ms compiled / 20.0 ms eager / 950 ms compile · 69% of ops captured · 2.50× vs eager``.
With ``--try`` it adds the before -> after counts, and the runnable fixes on offer are named:
``· tried capture_scalar_outputs: graph breaks 1 → 0, recompiles 1 → 1, graphs 4 → 3 · fixes: dynamic (--try NAME)``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["counts", "fixes_line", "one_line", "profile_line", "try_line"]


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
        where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines[:5]))}" if lines else ""
        # the same break met by several compiles (a recompile, a resume function) is one thing to fix
        distinct = len(
            {(b["gb_type"], b["filename"], b["line"], b["reason"]) for f in report["frames"] for b in f["graph_breaks"]}
        )
        said = [f"{distinct} distinct"] if distinct < c["graph_breaks"] else []
        said += [where] if where else []
        parts.append(_plural(c["graph_breaks"], "graph break") + (f" ({'; '.join(said)})" if said else ""))
    if c["recompiles"]:
        parts.append(_plural(c["recompiles"], "recompile"))
    compile_s = report.get("timings", {}).get("compile_s") or 0.0
    if compile_s:
        parts.append(f"{compile_s:.1f} s compile")
    err = report.get("error")
    if err:
        at = f" at line {err['line']}" if err.get("line") else ""
        parts.append(f"raised {err['type']}{at}")
    profiled = profile_line(report)
    if profiled:
        parts.append(profiled)
    parts += [p for p in (try_line(report), fixes_line(report)) if p]
    return "dynamo: " + " · ".join(parts)


def try_line(report: dict[str, Any]) -> str:
    """``--try``: before -> after in a few words, e.g. 'tried capture_scalar_outputs: graph breaks 1 -> 0,
    recompiles 1 -> 1, graphs 4 -> 3'; '' without --try."""
    tried = report.get("try_fix")
    if not isinstance(tried, dict):
        return ""
    before, after = tried["before"], tried["after"]
    changes = [f"{label} {before[k]} → {after[k]}" for k, label in _OUTCOME]
    if (before.get("compiled_ms") is not None) and (after.get("compiled_ms") is not None):
        changes.append(f"compiled {format_ms(before['compiled_ms'])} → {format_ms(after['compiled_ms'])}")
    if bool(before.get("error")) != bool(after.get("error")):
        changes.append(f"error {'yes' if before.get('error') else 'no'} → {'yes' if after.get('error') else 'no'}")
    return f"tried {tried['fix']['name']}: " + ", ".join(changes)


_OUTCOME = (("graph_breaks", "graph breaks"), ("recompiles", "recompiles"), ("graphs", "graphs"))


def fixes_line(report: dict[str, Any]) -> str:
    """The runnable fixes on offer, e.g. 'fixes: capture_scalar_outputs, dynamic (--try NAME)'; '' when none."""
    names = [f["name"] for f in report.get("fixes") or [] if f.get("runnable")]
    if not names:
        return ""
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return f"fixes: {shown} (--try NAME)"


def format_ms(ms: float) -> str:
    """Milliseconds for people, as the views write them (breakList.ts ``formatMs``): '0.42 ms', '12.3 ms',
    '845 ms', '1.24 s'. The static view uses it too."""
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{round(ms)} ms"
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms"


def profile_line(report: dict[str, Any]) -> str:
    """The run split and the captured-op coverage (``--profile``) and the speedup over eager
    (``--compare-eager``) in a few words; '' when the report has neither."""
    parts = []
    profile = report.get("profile")
    if isinstance(profile, dict):
        split = " / ".join(f"{format_ms(float(profile.get(f'{k}_ms') or 0))} {k}" for k in ("compiled", "eager", "compile"))
        parts.append(f"run {split}")
        coverage = profile.get("coverage") or {}
        if coverage.get("total_ops"):
            parts.append(f"{round(100 * float(coverage.get('pct_ops') or 0))}% of ops captured")
    baseline = report.get("eager_baseline")
    if isinstance(baseline, dict) and baseline.get("speedup"):
        parts.append(f"{float(baseline['speedup']):.2f}× vs eager")
    return " · ".join(parts)
