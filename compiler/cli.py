"""``dynamo-explorer``: run a script's top-level code as one cell and write its compile report.

    dynamo-explorer run SCRIPT.py [--backend B] [--scope auto|calls|cell|all-frames] [--fullgraph]
                                  [--dynamic | --no-dynamic] [--mode M] [--recompile-limit N]
                                  [--decompile user|all|none] [--json OUT.json] [--html OUT.html]
    dynamo-explorer run --nproc N SCRIPT.py [...]: every rank under torchrun, one report   (compiler/nproc.py)
    dynamo-explorer open PATH... [--rank N] [--json OUT.json] [--html OUT.html]   (compiler/open_cli.py)

Outputs: ``--json`` (the report as compact JSON) and/or ``--html`` (the explorer as one self-contained page,
``kernel_ext.export``; declared once in ``compiler.options.OUTPUTS``, as the magic's). With neither, the run prints
its summary to the terminal (``compiler.terminal``: the frames, each graph break with its line and reason, each
recompile with the guard that failed) and writes nothing.

Exit status: 0 success; 1 the script raised (the report is still written, with ``error`` filled in), or the
page could not be made after the run; 2 bad usage, an output that cannot be written, an unbuilt standalone
renderer or a syntax error (one line naming the fix, no Python traceback), all before the script runs. A
``SystemExit`` of the script ends the CLI as it ends ``python SCRIPT.py``, without a traceback and with the
report written: ``sys.exit(3)`` exits 3, ``sys.exit("msg")`` prints msg to stderr and exits 1, ``sys.exit()`` 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import types
from collections.abc import Sequence
from typing import Any, NoReturn

from .encoding import write_report
from .options import add_arguments, unwritable

__all__ = ["main", "write_report"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse's own contract)
        self.exit(2, f"dynamo-explorer: error: {message} (see dynamo-explorer run --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dynamo-explorer", description="Explore what TorchDynamo does to a Python script.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser(
        "run",
        help="run SCRIPT.py under TorchDynamo and print what it compiled; --json and/or --html write its whole report",
    )
    run.add_argument("script", help="the Python script; its top-level code runs as one cell")
    run.add_argument("--json", metavar="OUT.json", help="where to write the report as JSON (without --json or --html: a summary)")
    run.add_argument(
        "--nproc",
        type=int,
        metavar="N",
        help="run the script under torchrun on N processes (torch.distributed.run --standalone), capture every rank "
        "and write one report: rank 0's, beside every rank's compiles and where the ranks first diverge",
    )
    add_arguments(run.add_argument, "dynamo-explorer run s.py --json r.json")
    opened = sub.add_parser(
        "open",
        help="read a torch.compile structured trace (the directory TORCH_TRACE named, or its log files) and write its "
        "report as JSON (--json) and/or HTML (--html); with neither, print what each log holds and the report's summary",
    )
    opened.add_argument("paths", nargs="+", metavar="PATH", help="a TORCH_TRACE directory, or log files")
    opened.add_argument("--rank", type=int, help="the rank to write, when the trace holds several")
    opened.add_argument("--json", metavar="OUT.json", help="where to write the report as JSON")
    opened.add_argument("--html", metavar="OUT.html", help="where to write the explorer as one self-contained page")
    return parser


def main(argv: Sequence[str] | None = None, who: str = "") -> int:
    """``who``: what the summary line starts with (``rank 1: `` for a rank of ``run --nproc``, whose ranks write to one
    terminal at once: the line is written in one piece)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "open":
        from .open_cli import open_main

        return open_main(args, parser)
    outputs = [(flag, path) for flag, path in (("--json", args.json), ("--html", args.html)) if path is not None]
    if args.json is not None and args.html is not None and os.path.abspath(args.json) == os.path.abspath(args.html):
        parser.error("--json and --html name the same file; give each its own path")
    from .errors import UsageError
    from .options import RunOptions  # validated once, by run_cell, before the script runs

    try:
        with open(args.script, encoding="utf-8") as fh:
            source = fh.read()
    except OSError as exc:
        print(f"dynamo-explorer: error: cannot read {args.script}: {exc.strerror}", file=sys.stderr)
        return 2
    for flag, path in outputs:  # say so before the script runs, not after minutes of compiling
        problem = unwritable(path, flag)
        if problem is not None:
            print(f"dynamo-explorer: error: cannot write the report to {path}: {problem}", file=sys.stderr)
            return 2
    if args.html is not None:
        from kernel_ext.export import renderer_problem

        problem = renderer_problem()
        if problem is not None:
            print(f"dynamo-explorer: error: --html: {problem}", file=sys.stderr)
            return 2
    options = RunOptions.from_args(args)
    if args.nproc is not None:
        if args.nproc < 1:
            parser.error(f"--nproc needs a number of processes of 1 or more, got {args.nproc}")
        from .nproc import run_nproc

        return run_nproc(args.nproc, args.script, list(argv if argv is not None else sys.argv[1:])[1:], args.json, args.html)
    from .options import check_name
    from .try_fix import notice as try_notice

    if options.try_fix is not None:
        try:
            check_name(options.try_fix)
        except UsageError as exc:
            print(f"dynamo-explorer: error: {exc}", file=sys.stderr)
            return 2
    from .baseline import NOTICE
    from .runner import run_cell
    from .summary import one_line

    filename = os.path.abspath(args.script)
    # A real ``__main__`` module, as ``python SCRIPT.py`` has: Dynamo reads a global of a decorated
    # function (``@torch.no_grad()``) through ``sys.modules[fn.__module__]``.
    main = types.ModuleType("__main__")
    main.__file__ = filename
    saved_main = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    sys.path.insert(0, os.path.dirname(filename))
    saved_argv = sys.argv
    sys.argv = [args.script]  # as ``python SCRIPT.py`` gives it: the script's own path, no arguments
    if options.compare_eager:
        print(f"dynamo-explorer: {NOTICE}", file=sys.stderr)
    if options.try_fix is not None:  # [Note: try a fix]: the CLI has no earlier run, the script runs twice
        print(f"dynamo-explorer: {try_notice(options.try_fix, None)}", file=sys.stderr)
    stdout = sys.stdout
    sys.stdout = watched = _LastLine(stdout)  # type: ignore[assignment]
    try:
        run = run_cell(source, main.__dict__, options, filename=filename)
    except SyntaxError as exc:
        print(f"dynamo-explorer: error: {args.script}:{exc.lineno}: syntax error: {exc.msg}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"dynamo-explorer: error: {args.script}: {exc}", file=sys.stderr)
        return 2
    finally:
        if sys.stdout is watched:
            sys.stdout = stdout
        sys.argv = saved_argv
        sys.path.remove(os.path.dirname(filename))
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
    if args.json is not None:
        write_report(run.report, args.json)
    if not watched.at_line_start:
        print()  # the script's last line had no newline: the summary starts a line of its own
    if outputs:
        sys.stdout.write(f"{who}{one_line(run.report)}\n")  # one write: the ranks of --nproc share a terminal
    else:
        from .terminal import print_summary

        print_summary(run.report, title=f"{who}{args.script}")
    sys.stdout.flush()
    status = 0
    if args.html is not None:
        from kernel_ext.export import ExportError, write_html, written

        try:
            write_html(run.report, args.html)
        except (ExportError, OSError) as exc:
            print(f"dynamo-explorer: error: the HTML report was not written to {args.html}: {exc}", file=sys.stderr)
            status = 1
        else:
            print(f"dynamo-explorer: {written(args.html)}")
    if isinstance(run.exception, SystemExit):
        return exit_status(run.exception) or status
    if run.exception is not None:
        traceback.print_exception(run.exception)
        return 1
    return status


class _LastLine:
    """``sys.stdout`` while the script runs, remembering whether what it wrote last ended a line."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.at_line_start = True

    def write(self, text: str) -> int:
        if text:
            self.at_line_start = text.endswith("\n")
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def exit_status(exc: SystemExit) -> int:
    """The status the interpreter gives an uncaught ``SystemExit`` (and what it prints): ``None`` is 0, an
    int is itself, anything else is printed to stderr and is 1."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
