"""``dynamo-explorer``: the command line, a front end of the engine (``compiler``) beside the ``%%dynamo`` magic.

    dynamo-explorer run SCRIPT.py [--backend B] [--scope auto|calls|cell|all-frames] [--fullgraph]
                                  [--dynamic | --no-dynamic] [--mode M] [--recompile-limit N]
                                  [--decompile user|all|none] [--json OUT.json] [--html OUT.html]
    dynamo-explorer run --nproc N SCRIPT.py [...]: every rank under torchrun, one report   (nproc.py)
    dynamo-explorer open PATH... [--rank N] [--json OUT.json] [--html OUT.html]   (open_cmd.py)
    dynamo-explorer diff A B [--json OUT.json] [--html OUT.html]: what changed between two runs (diff_cmd.py)

``run`` runs a script's top-level code as one cell (``compiler.run_cell``). Outputs: ``--json`` (the report as
compact JSON) and/or ``--html`` (the explorer as one self-contained page), checked before the run and written after
it by ``kernel_ext.outputs`` (as the magic's; the flags declared once in ``compiler.options.OUTPUTS``). With neither,
the run prints its summary to the terminal (``terminal.py``: the frames, each graph break with its line and reason,
each recompile with the guard that failed) and writes nothing.

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

from compiler.options import add_arguments
from kernel_ext.outputs import Outputs

from .say import error, say

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse's own contract)
        self.exit(2, f"dynamo-explorer: error: {message} (see {self.prog} --help)\n")


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
    diff = sub.add_parser(
        "diff",
        help="compare two runs (each a report written by run/open --json, or a TORCH_TRACE directory or log): the first "
        "difference and every compile that differs; exit 0 the same compile story, 1 different, 2 trouble",
    )
    diff.add_argument("a", metavar="A", help="the older run: a report (.json) or a TORCH_TRACE directory or log")
    diff.add_argument("b", metavar="B", help="the newer run, read as A")
    diff.add_argument("--json", metavar="OUT.json", help="where to write the diff as JSON")
    diff.add_argument("--html", metavar="OUT.html", help="where to write the diff as one self-contained page")
    return parser


def main(argv: Sequence[str] | None = None, who: str = "", quiet_outputs: bool = False) -> int:
    """The command line; a reader that stops reading (``dynamo-explorer diff A B | head``) ends it quietly, as
    ``grep`` and ``diff`` end (Python's recipe for SIGPIPE: stdout to devnull, so the exit flush cannot fail)."""
    try:
        return _main(argv, who, quiet_outputs)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _main(argv: Sequence[str] | None, who: str, quiet_outputs: bool) -> int:
    """``who``: what the summary line starts with (``rank 1: `` for a rank of ``run --nproc``, whose ranks write to one
    terminal at once: the line is written in one piece); ``quiet_outputs``: say nothing of the files written (a rank's
    report, written for ``--nproc`` to merge)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    outputs = Outputs(json=args.json, html=args.html)
    if args.command == "open":
        from .open_cmd import open_main

        return open_main(args, outputs)
    if args.command == "diff":
        from .diff_cmd import diff_main

        return diff_main(args, outputs)
    from compiler.errors import UsageError
    from compiler.options import RunOptions  # validated once, by run_cell, before the script runs

    try:
        with open(args.script, encoding="utf-8") as fh:
            source = fh.read()
    except OSError as exc:
        return error(f"cannot read {args.script}: {exc.strerror}")
    problem = outputs.problem()  # said before the script runs, not after minutes of compiling
    if problem is not None:
        return error(problem)
    options = RunOptions.from_args(args)
    if args.nproc is not None:
        if args.nproc < 1:
            parser.error(f"--nproc needs a number of processes of 1 or more, got {args.nproc}")
        from .nproc import run_nproc

        return run_nproc(args.nproc, args.script, list(argv if argv is not None else sys.argv[1:])[1:], outputs)
    from compiler.runner import run_cell
    from compiler.summary import one_line

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
    stdout = sys.stdout
    sys.stdout = watched = _LastLine(stdout)  # type: ignore[assignment]
    try:
        # validated there, once; what must be said before the run (the script runs twice) is said on stderr
        run = run_cell(
            source, main.__dict__, options, filename=filename, say=lambda line: print(f"dynamo-explorer: {line}", file=sys.stderr)
        )
    except SyntaxError as exc:
        return error(f"{args.script}:{exc.lineno}: syntax error: {exc.msg}")
    except UsageError as exc:
        return error(f"{args.script}: {exc}")
    finally:
        if sys.stdout is watched:
            sys.stdout = stdout
        sys.argv = saved_argv
        sys.path.remove(os.path.dirname(filename))
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
    if not watched.at_line_start:
        print()  # the script's last line had no newline: the summary starts a line of its own
    if outputs:
        sys.stdout.write(f"{who}{one_line(run.report)}\n")  # one write: the ranks of --nproc share a terminal
    else:
        from .terminal import print_summary

        print_summary(run.report, title=f"{who}{args.script}")
    sys.stdout.flush()
    written = outputs.write(run.report, say=(lambda line: None) if quiet_outputs else say, complain=error, parts=run.parts)
    status = 0 if written else 1
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
