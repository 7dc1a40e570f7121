"""``with explore.capture(**torch_compile_kwargs) as ex:``: a with-block's body run under the explorer.

For code that is not one call (a few lines of a script, a marimo cell, a test):

    with explore.capture(backend="eager") as ex:
        model = Net()
        out = step(model, x)        # step is compiled as torch.compile(step) would compile it
    ex.report                       # ex displays as the explorer

Contents:
- ``Capture``: the context manager ``explore.capture()`` returns. ``__enter__`` reads the body's source (the file
  or notebook cell the ``with`` is written in, from ``linecache``: IPython keeps its cells there), runs it as a
  ``%%dynamo`` cell would (``compiler.run_cell``, scope ``auto``) in the namespace the block is written in, then
  has the interpreter skip the body (it ran once, under the explorer). ``__exit__`` ends that skip.
- ``CaptureError``: the block cannot be run this way; the message names the fix.

[Note: skipping a with-block's body] A context manager cannot skip its body by itself. ``__enter__`` sets a trace
function on the calling frame (``frame.f_trace``, with a no-op ``sys.settrace`` so that CPython calls it); at the
body's first line event it puts the thread's previous trace function back and raises ``_BodyRan``, which
``__exit__`` swallows: execution goes on after the block. What the body did (its assignments, its prints) was
done by the run, in the same namespace. It needs the body on lines of its own (a body on the ``with`` line has
no line event before it runs) and a frame whose names live in its globals (a cell's or a script's top level: a
function's locals cannot be written from outside on Python 3.11 and 3.12); both are one-line errors otherwise.
The body's exception propagates from the ``with`` line, its report kept as ``explore.last``.
"""

from __future__ import annotations

import ast
import linecache
import sys
import textwrap
from types import FrameType
from typing import Any

__all__ = ["Capture", "CaptureError"]


class CaptureError(RuntimeError):
    """``explore.capture()`` cannot run this block; the message says what to do instead."""


class _BodyRan(BaseException):
    """Raised at the body's first line to skip it ([Note: skipping a with-block's body]); never seen by the user."""


class Capture:
    """The context manager of ``explore.capture()`` (see the module docstring)."""

    def __init__(self, explore: Any, options: Any) -> None:
        self._explore = explore
        self._options = options
        self._previous_trace: Any = None
        self._armed = False

    def __enter__(self) -> Any:
        from compiler import run_cell

        from .exploration import Exploration
        from .parts import keep as keep_parts

        if self._armed:
            raise CaptureError("explore.capture(): this block is already running; use one explore.capture() per with")
        frame = sys._getframe(1)
        source = body_source(frame)
        label = _label_file()
        run = run_cell(source, frame.f_globals, self._options, filename=frame.f_code.co_filename, label_file=label)
        keep_parts(run.parts)
        exploration = Exploration(run.report, None)
        self._explore.last = exploration
        if run.exception is not None:
            __tracebackhide__ = True  # IPython and pytest start the traceback at the user's frames
            run.exception.add_note("dynamo-explorer: the compile report of this block is explore.last")
            raise run.exception
        self._arm(frame)
        return exploration

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> bool:
        self._disarm()
        return kind is _BodyRan

    def _arm(self, frame: FrameType) -> None:
        """[Note: skipping a with-block's body]"""
        self._previous_trace = sys.gettrace()
        self._armed = True

        def at_first_line(traced: FrameType, event: str, arg: Any) -> Any:
            if event != "line":
                return at_first_line
            self._disarm(traced)
            raise _BodyRan

        sys.settrace(_no_trace)
        frame.f_trace = at_first_line

    def _disarm(self, frame: FrameType | None = None) -> None:
        if not self._armed:
            return
        self._armed = False
        if frame is not None:
            frame.f_trace = None
        sys.settrace(self._previous_trace)
        self._previous_trace = None


def _no_trace(frame: FrameType, event: str, arg: Any) -> None:
    """The global trace function while a body is skipped: it traces no new frame."""
    return None


def _label_file() -> Any:
    """``In [2]`` for a notebook cell's file when this runs in IPython, else None (the file's own name is shown)."""
    shell = _shell()
    if shell is None:
        return None
    from .magic import cell_label

    return lambda name: cell_label(shell, name)


def _shell() -> Any:
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()


def body_source(frame: FrameType) -> str:
    """The source of the body of the ``with explore.capture(...)`` that ``frame`` is entering: its lines at their
    own line numbers (blank lines before them), so that the report's and a traceback's lines are the file's."""
    if frame.f_locals is not frame.f_globals:
        raise CaptureError(
            "explore.capture() runs a with-block written at a cell's or a script's top level; "
            f"inside {frame.f_code.co_name}() explore the function instead: explore({frame.f_code.co_name}, ...)(*args)"
        )
    filename = frame.f_code.co_filename
    text = "".join(linecache.getlines(filename, frame.f_globals))
    try:
        tree = ast.parse(text) if text else None
    except SyntaxError:
        tree = None
    block = _enclosing_with(tree, frame.f_lineno) if tree is not None else None
    if block is None:
        raise CaptureError(
            f"explore.capture(): the source of {filename} is not available here, so the block cannot be run; "
            "put the code in a function and use explore(fn, ...)(*args)"
        )
    first, last = block.body[0], block.body[-1]
    if first.lineno <= (block.items[-1].context_expr.end_lineno or block.lineno):
        raise CaptureError("explore.capture(): put the with-block's body on lines of its own, below the with line")
    jumps = _jumps(block.body)
    if jumps:
        word = "break" if isinstance(jumps[0], ast.Break) else "continue"
        raise CaptureError(
            f"explore.capture(): the block's `{word}` (line {jumps[0].lineno}) belongs to the loop around the with, "
            "which a block run on its own cannot leave; put the with around the whole loop"
        )
    lines = text.splitlines(True)[first.lineno - 1 : last.end_lineno]
    body = textwrap.dedent("".join(lines))
    try:
        ast.parse(body)
    except SyntaxError:  # a multi-line string less indented than the code: keep the indentation under an `if`
        return "\n" * (first.lineno - 2) + "if True:\n" + "".join(lines)
    return "\n" * (first.lineno - 1) + body


def _jumps(body: list[ast.stmt]) -> list[ast.stmt]:
    """The ``break`` and ``continue`` statements of ``body`` that are not inside a loop of its own."""
    found: list[ast.stmt] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            found.append(node)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(node.orelse)  # a loop's else belongs to the enclosing loop; its body does not
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda n: n.lineno)


def _enclosing_with(tree: ast.AST, line: int) -> ast.With | None:
    """The innermost ``with`` statement whose header spans ``line`` and calls something named ``capture``."""
    found = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.With) or not node.items:
            continue
        header_end = node.items[-1].context_expr.end_lineno or node.lineno
        if not node.lineno <= line <= header_end:
            continue
        innermost = found is None or node.lineno >= found.lineno
        if innermost and any(_calls_capture(item.context_expr) for item in node.items):
            found = node
    return found


def _calls_capture(expr: ast.expr) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "capture"
