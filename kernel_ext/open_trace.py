"""A structured trace (``TORCH_TRACE=DIR``) in a notebook or a script: ``open_trace(PATH)`` and ``%dynamo_open PATH``.

    from kernel_ext import open_trace
    ex = open_trace("/tmp/trace")           # a TORCH_TRACE directory or log files; rank=N: that rank's report
    ex.report                               # the compile report, scope 'trace' (compiler/trace/)
    ex                                      # the last expression of a cell: the explorer

    %dynamo_open /tmp/trace --rank 1        # the same, shown (after %load_ext kernel_ext)

Nothing runs: the report is what the trace records (``report.trace`` says which log and what it does not hold); a
multi-rank trace gives the lowest rank's report (or ``rank``'s) with every rank's compiles and their first
divergence (``report.ranks``); a part a report left in its log (a big guard tree, ``PartCut.log``) is read when the
view asks for it (``kernel_ext/parts.py``); every rank's report is kept in the process (``kernel_ext/parts.py``, like a run's
parts: the last few opens), so that the ranks view shows another rank in place. A path that holds no trace, or a rank
it does not hold, is a one-line ``TraceError``.
"""

from __future__ import annotations

import os
import shlex
import uuid
from typing import Any

from .exploration import Exploration

__all__ = ["TraceError", "open_trace", "parse_open_line"]


class TraceError(ValueError):
    """``open_trace`` was given no trace, or a rank the trace does not hold (the message names the fix)."""


def open_trace(*paths: str | os.PathLike[str], rank: int | None = None) -> Exploration:
    """The report of the log ``paths`` hold (of ``rank`` among several), as ``explore`` returns one (``.value`` is None)."""
    from compiler.trace import TraceNotFound, read_trace, trace_report

    if not paths:
        raise TraceError("open_trace needs a path: the directory TORCH_TRACE named, or its log files")
    try:
        opened = read_trace([os.fspath(p) for p in paths])
        report = trace_report(opened, rank)
    except TraceNotFound as exc:
        raise TraceError(str(exc)) from None
    from compiler.trace.parts import loaders

    from . import parts

    parts.keep({key: load for o in opened for key, load in loaders(o.report).items()})  # a big guard tree: in its log
    if report.get("ranks"):
        report = _keep_ranks(report, {o.log.rank: o.report for o in opened if o.log.rank is not None})
    return Exploration(report, None)


def _keep_ranks(report: dict[str, Any], reports: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Keep every rank's report in this process (``kernel_ext/parts.py``, as a run's parts: a view asks for one by
    its key), each rank's ``part`` naming its key, so that the ranks view shows another rank in place; returns the
    shown rank's report."""
    from compiler.ranks import rank_reports

    from . import parts

    token = uuid.uuid4().hex[:12]
    keys = {r: f"rank:{token}:{r}" for r in reports}
    keyed = rank_reports(report, reports, "part", keys)
    parts.keep({keys[r]: page for r, page in keyed.items()})
    return keyed[report["ranks"]["shown_rank"]]


def parse_open_line(line: str) -> tuple[list[str], int | None]:
    """``PATH... [--rank N]`` of ``%dynamo_open``'s line, quotes as a shell reads them."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise TraceError(f"cannot read the line: {exc}") from None
    rank = None
    paths = []
    it = iter(words)
    for word in it:
        if word == "--rank" or word.startswith("--rank="):
            value = word.partition("=")[2] or next(it, "")
            if not value.lstrip("-").isdigit():
                raise TraceError(f"--rank needs a number, got {value!r}; e.g. --rank 0")
            rank = int(value)
        elif word.startswith("--"):
            raise TraceError(f"unknown option {word}; the line is PATH... [--rank N]")
        else:
            paths.append(word)
    return paths, rank
