"""Reports read from torch's structured trace (``TORCH_TRACE=DIR``: one log per process or rank) instead of a run.

- ``reader``: the logs of a path and their events, streamed (``trace_logs``, ``read_events``);
- ``build``: one log's events into a ``CompileReport``, pane by pane, with the live collectors' own parsers;
- ``read_trace(paths)``: every log's report as the schema's dict, validated, by rank;
- ``parts``: what a report left in its log (a big guard tree), read when a view asks.

Used by ``dynamo-explorer open`` (dynamo_explorer/cli.py), ``%dynamo_open`` and ``open_trace`` (kernel_ext).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .build import report_from_log
from .parts import PageTrees
from .reader import TraceLog, TraceNotFound, trace_logs

__all__ = ["OpenedLog", "TraceNotFound", "read_trace", "trace_report"]


@dataclass
class OpenedLog:
    log: TraceLog
    report: dict[str, Any]


def read_trace(paths: list[str], trees: PageTrees | None = None) -> list[OpenedLog]:
    """The report of each log under ``paths`` (files or ``TORCH_TRACE`` directories), by rank. A log that holds no
    compile still gives a report (no frames): the process compiled nothing, or crashed before. A big guard tree
    stays in its log (``parts_cut``; ``parts.resolve`` reads every one into a report) and goes to ``trees``, where
    given, compressed for a page as the log is read."""
    from ..schema import report_errors

    out = []
    for log in trace_logs(paths):
        report = report_from_log(log, trees).to_json()
        problems = report_errors(report)
        for problem in problems:
            report["diagnostics"].append({"kind": "schema_mismatch", "message": problem, "compile_id": None})
        out.append(OpenedLog(log, report))
    return out


def trace_report(opened: list[OpenedLog], rank: int | None = None) -> dict[str, Any]:
    """The report of ``opened``: one log's, or, for several ranks, rank ``rank``'s (the lowest by default) with every
    rank's compiles and their first divergence (``compiler.ranks.merge``). ``rank`` must be one the logs hold."""
    ranks = [o.log.rank for o in opened]
    if rank is not None and rank not in ranks:
        raise TraceNotFound(
            f"rank {rank}: the trace holds ranks {sorted(r for r in ranks if r is not None) or 'none (one process)'}"
        )
    if len(opened) == 1:
        return opened[0].report
    if None in ranks or len(set(ranks)) != len(ranks):
        raise TraceNotFound(
            f"{len(opened)} logs that are not one rank each (ranks {ranks}): open one log at a time, or the directory of one job"
        )
    from ..ranks import merge

    return merge(
        {o.log.rank: o.report for o in opened if o.log.rank is not None},
        {o.log.rank: o.log.path for o in opened if o.log.rank is not None},
        rank,
    )
