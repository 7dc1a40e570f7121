"""Small helpers for the engine tests: run a cell with a fresh namespace, find frames by name."""

from __future__ import annotations

from typing import Any

from compiler import RunOptions, run_cell, validate_report


def run(source: str, ns: dict[str, Any] | None = None, collectors: Any = None, **options: Any):
    """Run ``source`` through the real engine (eager backend unless given) and validate strictly."""
    options.setdefault("backend", "eager")
    result = run_cell(source, ns if ns is not None else {"__name__": "__main__"}, RunOptions(**options), collectors=collectors)
    validate_report(result.report)
    assert not [d for d in result.report["diagnostics"] if d["kind"] in ("collector_failed", "schema_mismatch")], result.report[
        "diagnostics"
    ]
    return result


def frames_named(report: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [f for f in report["frames"] if f["code"]["name"] == name]
