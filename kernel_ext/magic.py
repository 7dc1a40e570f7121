"""The ``%%dynamo`` cell magic: run a cell through the real TorchDynamo and show what it did.

Contents:
- ``DynamoMagics``: the magics class; ``dynamo`` is the cell magic. Its options are declared
  with ``magic_arguments``, so ``%%dynamo?`` prints them with an example each, as plain text
  (``PlainHelpFormatter``: no reStructuredText ``::`` blocks or ``<METAVAR>`` brackets).
- ``StrictCaptureError``: raised (shown) by ``--strict`` when the capture had problems.

The magic is thin: it parses options, registers the cell text with IPython's compiler cache
(so tracebacks and every reported line are notebook lines), calls ``compiler.run_cell``, shows
one raw bundle (``kernel_ext.display``), writes the standalone page for ``--html``
(``kernel_ext.export``) and returns the cell's last value for ``Out[n]``.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys

from IPython.core.displayhook import DisplayHook
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, kwds, magic_arguments, parse_argstring
from IPython.display import display

from compiler import RunOptions, run_cell
from compiler.errors import UsageError as EngineUsageError
from compiler.options import add_arguments
from compiler.trace.parts import PageBlob

from .display import CompileReport, bundle
from .outputs import Outputs
from .parts import EVERY_PART
from .parts import held as held_parts
from .parts import keep as keep_parts
from .parts import shown as parts_shown
from .progress import ProgressLine

__all__ = ["DynamoMagics", "PlainHelpFormatter", "StrictCaptureError"]


class PlainHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``%%dynamo?`` as plain text. IPython's ``MagicHelpFormatter`` writes reStructuredText for Sphinx (the
    usage line in a ``::`` block, ``<OUT.html>`` around a metavar that is not a plain name), which the ``?``
    pager shows as it is; this one dedents the docstring (its first line too) and writes ``Usage: %%dynamo [...]``."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return super()._fill_text(inspect.cleandoc(text), width, indent)

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        super().add_usage(usage, actions, groups, "Usage: %%")


class StrictCaptureError(RuntimeError):
    """``%%dynamo --strict``: the capture itself reported problems (report ``diagnostics``)."""


def _run_arguments(func):
    """The run options and outputs of ``compiler.options`` (``OPTIONS``, ``OUTPUTS``: ``--html``) as magic
    arguments (declared once, shared with the CLI)."""
    decorators: list = []
    add_arguments(lambda *a, **k: decorators.append(argument(*a, **k)), "%%dynamo")
    for decorate in reversed(decorators):  # the first option is listed first in %%dynamo?
        func = decorate(func)
    return func


@magics_class
class DynamoMagics(Magics):
    """Holds the ``%%dynamo`` cell magic."""

    @property
    def _shell(self) -> InteractiveShell:
        """The shell the extension was loaded into (``Magics.shell`` is optional only before that)."""
        assert self.shell is not None, "load the extension with %load_ext kernel_ext"
        return self.shell

    @line_magic
    def dynamo_open(self, line: str) -> None:
        """Show the explorer of a torch.compile structured trace: %dynamo_open PATH... [--rank N]

        PATH is the directory TORCH_TRACE named (TORCH_TRACE=/tmp/trace python train.py), or its
        log files. A multi-rank trace shows the lowest rank (--rank N: that rank) beside every rank's
        compiles and where the ranks first diverge. Nothing runs: every pane shows what the trace
        records, and the header says what a trace does not hold. The Python API is
        kernel_ext.open_trace(PATH, rank=None).

        Example (after %load_ext kernel_ext):

            %dynamo_open /tmp/trace
        """
        from IPython.display import display

        from .open_trace import TraceError, open_trace, parse_open_line

        try:
            paths, rank = parse_open_line(line)
            display(open_trace(*paths, rank=rank))
        except TraceError as exc:
            raise UsageError(f"%dynamo_open: {exc}") from None

    @line_magic
    def dynamo_diff(self, line: str) -> None:
        """Show what changed between two runs: %dynamo_diff A B

        A and B are each a report kept with %%dynamo --out NAME (or explore()'s result: the name of
        the variable), a report's JSON (dynamo-explorer run --json) or a TORCH_TRACE directory. Their
        compiles are paired by function (never by line); the first difference is said in one line,
        then every compile that differs: graph breaks, recompiles, graph ops, guards, dynamic-shape
        symbols, kernels, and what compiling cost. The Python API is explore.diff(a, b).

        Example (after %load_ext kernel_ext):

            %dynamo_diff rep_v1 rep_v2
        """
        from IPython.display import display

        from .comparison import ComparisonError, compare, parse_diff_line

        try:
            sides, names = parse_diff_line(line, self._shell.user_ns)
            display(compare(*sides, names=names))
        except ComparisonError as exc:
            raise UsageError(f"%dynamo_diff: {exc}") from None

    @magic_arguments()
    @kwds(formatter_class=PlainHelpFormatter)
    @_run_arguments
    @argument(
        "--out",
        default=None,
        metavar="NAME",
        help="Store the report in the variable NAME (a dict; showing it shows the explorer "
        "again), as %%%%capture does. Example: %%%%dynamo --out rep",
    )
    @argument(
        "--quiet",
        action="store_true",
        help="Run and capture, but show no report (prints and Out[n] stay); combine with "
        "--out. Example: %%%%dynamo --quiet --out rep",
    )
    @argument(
        "--all-parts",
        action="store_true",
        help="The output holds at once the whole of all the report holds in part (every guard, the whole guard "
        "tree, listing and graph code), not its first 4 MB (the rest comes once JupyterLab draws it): for a "
        "notebook run by nbclient or papermill, which nobody draws. Example: %%%%dynamo --all-parts",
    )
    @argument(
        "--strict",
        action="store_true",
        help="Problems of the capture itself (report diagnostics) fail the cell. Example: %%%%dynamo --strict",
    )
    @cell_magic
    def dynamo(self, line: str, cell: str):
        """Run the cell through the real TorchDynamo and show everything it compiled.

        The cell behaves like a plain cell: its variables land in the namespace, its prints
        show in order, its last expression is Out[n] and a traceback shows the cell's lines.
        Its output adds an explorer of every frame Dynamo compiled ([0/0], [1/0], ...):
        original vs modified bytecode, guards, graph breaks with explanations and hints,
        recompiles, FX graphs, AOT graphs, inductor output code and dynamic-shape symbols.

        What is compiled is what torch.compile would compile had you wrapped each function and
        nn.Module the cell calls: `out = step(x)` compiles `step` as torch.compile(step) does
        (resume functions after a break, recompiles and all); imports, model construction and
        library calls such as `model.generate(...)` run as plain Python (wrap them in a function
        to compile them). A cell that calls nothing of its own is compiled as one frame. The
        report's header says which callees were compiled and why (scope_reason).

        Example (after %load_ext kernel_ext):

            %%dynamo --backend eager
            def toy_example(a, b):
                x = a / (torch.abs(a) + 1)
                if b.sum() < 0:
                    b = b * -1
                return x * b
            for _ in range(100):
                out = toy_example(torch.randn(10), torch.randn(10))
        """
        args = _parse(self.dynamo, line)
        options = _options(args)
        shell = self._shell
        # Line 1 of the notebook cell is the %%dynamo line: prepend it as a blank line so that
        # line N of `source` is notebook line N in tracebacks, linecache and the report.
        source = "\n" + cell
        filename = shell.compile.cache(source, _cell_number(shell), raw_code=source)
        before, before_from = self._before(cell, options)  # [Note: try a fix] in compiler/try_fix.py
        progress = None if args.quiet else ProgressLine.for_shell(shell)
        run = None
        try:
            run = run_cell(
                source,
                shell.user_ns,
                options,
                filename=filename,
                on_progress=progress,
                label_file=lambda name: cell_label(shell, name),
                before=before,
                before_from=before_from,
                say=lambda line: print(f"%%dynamo {line}"),  # the options are validated there, then this is said
            )
        except EngineUsageError as exc:
            raise UsageError(f"%%dynamo: {exc}") from None
        except SyntaxError as exc:
            shell.showsyntaxerror()
            self._mark_failed(exc)
            return None
        finally:
            if progress is not None:
                progress.stop()
                if run is None:  # no report will replace the line: it says so rather than stay spent
                    progress.finish(None)
        report = CompileReport(run.report)
        stored = keep_parts(run.parts)
        self._remember(cell, options, run.report)
        if args.out:
            shell.user_ns[args.out] = report
        if not args.quiet:
            # [Note: the report takes the progress line's place] (kernel_ext/progress.py)
            source_line = f"%%dynamo {line}".rstrip()
            widget = progress.widget if progress else None  # the output holds the parts: a saved notebook loads them
            held = held_parts(stored, budget=EVERY_PART if args.all_parts else None)
            shown = bundle(report, cell=source_line + "\n" + cell, progress=widget, parts=held)
            if progress is not None and progress.finish(shown):
                display_id = progress.display_id
            else:
                display_id = display(shown, raw=True, display_id=True).display_id
            # the parts past 4 MB go into the output once it is drawn ([Note: an output completed once drawn])
            parts_shown(stored, held, display_id, shown)
        html = os.path.abspath(args.html) if args.html is not None else None  # said where it is, in one line
        Outputs(html=html).write(  # (stderr when the page cannot be made)
            report,
            say=lambda line: print(f"%%dynamo: {line}"),
            complain=lambda line: print(f"%%dynamo: {line}", file=sys.stderr),
            # the page holds every guard, each part as the kernel stored it (not compressed again)
            parts={key: PageBlob(stored[key]) if key in stored else whole for key, whole in run.parts.items()},
        )
        if run.exception is not None:
            self._show_exception(run.exception)
            return None
        if args.strict and report.get("diagnostics"):
            problems = "; ".join(f"{d['kind']}: {d['message']}" for d in report["diagnostics"])
            err = StrictCaptureError(
                f"--strict: the capture reported {len(report['diagnostics'])} "
                f"problem(s): {problems}. Drop --strict to accept a partial report."
            )
            self._shell.showtraceback((StrictCaptureError, err, None), tb_offset=0)
            self._mark_failed(err)
            return None
        # A trailing `;` hides Out[n], as in a plain cell. (Not @output_can_be_silenced: IPython
        # then tokenizes the cell after the magic returns, which fails on a cell with a syntax error.)
        return None if DisplayHook.semicolon_at_end_of_expression(cell) else run.value

    def _before(self, cell: str, options: RunOptions) -> tuple[dict | None, str | None]:
        """``--try``: the report of this cell's previous run with the same options in this kernel, and where it
        came from; ``(None, None)`` when there is none (the engine then runs the cell first as it is)."""
        if options.try_fix is None:
            return None, None
        hit = _last_runs(self).get(_run_key(cell, options))
        if hit is None:
            return None, None
        report, number = hit
        return report, f"the cell's previous run in this kernel (In [{number}])"

    def _remember(self, cell: str, options: RunOptions, report: dict) -> None:
        """Keep the last reports of plain runs (no --try), one per cell text and options, for ``--try``."""
        if options.try_fix is not None:
            return
        runs = _last_runs(self)
        key = _run_key(cell, options)
        runs.pop(key, None)
        runs[key] = (report, _cell_number(self._shell))
        while len(runs) > _KEEP_RUNS:
            runs.pop(next(iter(runs)))

    def _show_exception(self, exc: BaseException) -> None:
        """Show the cell's exception as IPython shows a plain cell's: ``run_cell`` already starts its
        traceback at the cell's own frames (``runner._trim_traceback``)."""
        self._shell.showtraceback((type(exc), exc, exc.__traceback__), tb_offset=0)
        self._mark_failed(exc)

    def _mark_failed(self, exc: BaseException) -> None:
        """Make the execution fail (execute_reply 'error', Run All stops) as a plain cell would.

        The traceback is already shown; letting ``exc`` propagate would show a second one
        through the magic's frames.
        """
        result = getattr(self._shell.displayhook, "exec_result", None)
        if result is not None and result.error_in_exec is None:
            result.error_in_exec = exc


def _parse(magic, line: str):
    """Parse the magic line; a bad option is a one-line UsageError."""
    try:
        args = parse_argstring(magic, line)
    except UsageError as exc:
        raise UsageError(f"%%dynamo: {exc}. See %%dynamo? for the options.") from None
    if args.out is not None and not args.out.isidentifier():
        raise UsageError(f"%%dynamo: --out needs a Python variable name, got {args.out!r}; e.g. --out rep")
    # IPython splits the magic line without removing quotes: --html "my report.html" arrives quoted.
    if args.html is not None and len(args.html) >= 2 and args.html[0] == args.html[-1] and args.html[0] in "'\"":
        args.html = args.html[1:-1]
    problem = Outputs(html=args.html).problem()  # refused before the cell runs, not after minutes of compiling
    if problem is not None:
        raise UsageError(f"%%dynamo: {problem}")
    return args


def cell_label(shell, filename: str) -> str | None:
    """``In [2]`` when ``filename`` is the file IPython compiled notebook cell 2 under, else None.

    IPython keeps the map (``CachingCompiler.format_code_name``, the "Cell In[2], line 9" of its
    tracebacks); a cell run again under the same text keeps one file, named by its latest number.
    """
    named = shell.compile.format_code_name(filename) if hasattr(shell.compile, "format_code_name") else None
    if not named:
        return None
    number = named[1].removeprefix("In[").removesuffix("]")
    return f"In [{number}]"


def _cell_number(shell) -> int:
    """The running cell's In[n] (the shell's counter already points at the next cell)."""
    result = getattr(shell.displayhook, "exec_result", None)
    count = getattr(result, "execution_count", None)
    return count if count is not None else shell.execution_count


#: How many plain runs' reports the magic keeps for --try (one per cell text and options, the latest ones).
_KEEP_RUNS = 8


def _last_runs(magics: DynamoMagics) -> dict:
    """The session's kept reports: ``{(cell, options without try_fix): (report, In [n])}``."""
    runs = getattr(magics, "_try_before", None)
    if runs is None:
        runs = {}
        setattr(magics, "_try_before", runs)  # noqa: B010 - the session's store, made on first use
    return runs


def _run_key(cell: str, options: RunOptions) -> tuple:
    """A plain run and a --try run of the same cell with the same other options share this key."""
    return (cell, tuple(sorted((k, repr(v)) for k, v in options.to_json().items() if k != "try_fix")))


def _options(args) -> RunOptions:
    """The engine options for parsed magic arguments (``run_cell`` validates them before anything runs)."""
    return RunOptions.from_args(args)
