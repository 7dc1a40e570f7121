"""``dynamo-explorer open PATH...``: a report read from torch's structured trace (``compiler.trace``), nothing run.

It prints one line per log (its rank, its file, what it compiled) and, for several ranks, their first divergence;
``--json``/``--html`` write the report: the one log's, or for several ranks the lowest rank's (``--rank N``: that
rank's) with every rank's compiles side by side (``compiler.ranks``), through ``kernel_ext.outputs`` as ``run``'s. Exit status: 0 done; 2 a path that is no
trace, a rank the trace does not hold, an output that cannot be written (one line naming the fix).
"""

from __future__ import annotations

import argparse
import contextlib

from kernel_ext.outputs import Outputs

from .say import error, say

__all__ = ["open_main"]


def open_main(args: argparse.Namespace, outputs: Outputs) -> int:
    problem = outputs.problem()
    if problem is not None:
        return error(problem)
    from compiler.summary import one_line
    from compiler.trace import TraceNotFound, read_trace, trace_report
    from compiler.trace.parts import PageTrees

    with PageTrees() if outputs.html else contextlib.nullcontext() as trees:
        try:  # a page holds what a report left in its log, compressed as the log is read
            opened = read_trace(args.paths, trees)
            report = trace_report(opened, args.rank)
        except TraceNotFound as exc:
            return error(str(exc))
        parts = trees.parts(o.report for o in opened) if trees is not None else None
    for o in opened:
        who = f"rank {o.log.rank}" if o.log.rank is not None else "process"
        print(f"{who}: {o.log.path}: {one_line(o.report).removeprefix('dynamo: ')}")
        if not o.report["frames"]:
            held = o.report["trace"]["missing"][0]
            print(f"  no torch.compile frame in it: {held['why']}")
    divergence = (report.get("ranks") or {}).get("divergence")
    if report.get("ranks"):
        print(f"ranks: {'first divergence: ' + divergence['summary'] if divergence else 'every rank compiled alike'}")
    if not outputs:
        from .terminal import print_summary

        print()
        print_summary(report, title=" ".join(args.paths) + (f", rank {args.rank}" if args.rank is not None else ""))
    ranks = {o.log.rank: o.report for o in opened if o.log.rank is not None}  # several ranks: a page a rank
    return 0 if outputs.write(report, say=say, ranks=ranks, parts=parts, complain=error) else 1
