"""``dynamo-explorer open PATH...``: a report read from torch's structured trace (compiler/trace/), nothing run.

It prints one line per log (its rank, its file, what it compiled) and, for several ranks, their first divergence;
``--json``/``--html`` write the report: the one log's, or for several ranks the lowest rank's (``--rank N``: that
rank's) with every rank's compiles side by side (``compiler/ranks.py``). Exit status: 0 done; 2 a path that is no
trace, a rank the trace does not hold, an output that cannot be written (one line naming the fix).
"""

from __future__ import annotations

import argparse
import os
import sys

from .options import unwritable

__all__ = ["open_main"]


def _error(message: str) -> int:
    print(f"dynamo-explorer: error: {message}", file=sys.stderr)
    return 2


def open_main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    outputs = [(flag, path) for flag, path in (("--json", args.json), ("--html", args.html)) if path is not None]
    if args.json is not None and args.html is not None and os.path.abspath(args.json) == os.path.abspath(args.html):
        parser.error("--json and --html name the same file; give each its own path")
    for flag, path in outputs:
        problem = unwritable(path, flag)
        if problem is not None:
            return _error(f"cannot write the report to {path}: {problem}")
    if args.html is not None:
        from kernel_ext.export import renderer_problem

        problem = renderer_problem()
        if problem is not None:
            return _error(f"--html: {problem}")
    from .summary import one_line
    from .trace import TraceNotFound, read_trace, trace_report

    try:
        opened = read_trace(args.paths)
        report = trace_report(opened, args.rank)
    except TraceNotFound as exc:
        return _error(str(exc))
    for o in opened:
        who = f"rank {o.log.rank}" if o.log.rank is not None else "process"
        print(f"{who}: {o.log.path}: {one_line(o.report).removeprefix('dynamo: ')}")
        if not o.report["frames"]:
            held = o.report["trace"]["missing"][0]
            print(f"  no torch.compile frame in it: {held['why']}")
    divergence = (report.get("ranks") or {}).get("divergence")
    if report.get("ranks"):
        print(f"ranks: {'first divergence: ' + divergence['summary'] if divergence else 'every rank compiled alike'}")
    status = 0
    if not outputs:
        from .terminal import print_summary

        print()
        print_summary(report, title=" ".join(args.paths) + (f", rank {args.rank}" if args.rank is not None else ""))
    if args.json is not None:
        from .encoding import write_report

        write_report(report, args.json)
        print(f"dynamo-explorer: wrote {args.json}")
    if args.html is not None:
        from kernel_ext.export import ExportError, write_html_pages, written

        try:  # several ranks: a page a rank, each linking the others
            pages = write_html_pages(report, args.html, {o.log.rank: o.report for o in opened if o.log.rank is not None})
        except (ExportError, OSError) as exc:
            print(f"dynamo-explorer: error: the HTML report was not written to {args.html}: {exc}", file=sys.stderr)
            status = 1
        else:
            for page in pages:
                print(f"dynamo-explorer: {written(page)}")
    return status
