"""Two runs compared in a notebook or a script: ``explore.diff(a, b)`` and ``%dynamo_diff A B`` (``compiler.diff``).

    from kernel_ext import explore
    d = explore.diff(rep_v1, rep_v2)   # each a %%dynamo --out report, explore()'s result, a report dict, or a path
    d.same_story, d.first_difference, d.diff   # the diff itself (compiler/schema/compile_diff.v1.schema.json)
    d                                  # the last expression of a cell: the diff, shown

    %dynamo_diff rep_v1 /tmp/trace     # the same, shown: names of the notebook's variables, report files, traces

A side is a report (a ``%%dynamo --out`` name, ``explore(fn)(...)``'s ``Exploration``, a report dict) or a path (a
report's JSON, a ``TORCH_TRACE`` directory or log). Shown as ``dynamo-explorer diff`` prints it (``text/plain``),
as its static summary (``text/html``, ``diff_html.py``), as the diff itself under its MIME type
(``application/vnd.dynamo-explorer.diff.v1+json``, which our JupyterLab extension draws as the diff view) and, in a
Jupyter kernel, as the explorer's widget drawing the same view (``widget.py``: every frontend with ipywidgets). A side that is none of these is a one-line ``ComparisonError``.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

__all__ = ["Comparison", "ComparisonError", "compare", "parse_diff_line"]


class ComparisonError(ValueError):
    """A side that is no report and no path to one (the message names the fix)."""


class Comparison:
    """Two runs compared: ``diff`` (the schema's ``CompileDiff``), ``same_story``, ``first_difference``."""

    def __init__(self, diff: dict[str, Any]) -> None:
        self.diff = diff

    @property
    def same_story(self) -> bool:
        return bool(self.diff["same_story"])

    @property
    def first_difference(self) -> str | None:
        return self.diff["first_difference"]

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from compiler.schema import DIFF_MIME_TYPE

        from .diff_html import render
        from .widget import WIDGET_VIEW, widget_view

        shown = {DIFF_MIME_TYPE: self.diff, "text/html": render(self.diff), "text/plain": self.text()}
        try:  # the diff view as a widget, for the frontends without our extension (None where none can be drawn)
            view = widget_view(self.diff, self.first_difference or "the same compile story")
        except Exception:  # noqa: BLE001 - the widget is one more view: a frontend's comm failing must not cost the diff
            view = None
        if view is not None:
            shown[WIDGET_VIEW] = view
        return shown

    def text(self) -> str:
        """The diff as ``dynamo-explorer diff`` prints it."""
        from compiler.diff.text import diff_text

        return diff_text(self.diff)

    def __repr__(self) -> str:
        said = self.first_difference or "the same compile story"
        return f"<Comparison {said}>"


def _report(side: Any, name: str) -> tuple[dict[str, Any], str]:
    """A side's report and how to name it."""
    from compiler.diff import SideError, load_side

    report = getattr(side, "report", side)  # an Exploration
    if isinstance(report, dict):
        if "frames" not in report or "schema_version" not in report:
            raise ComparisonError(f"{name} is a dict but no compile report; give a %%dynamo --out report or a path")
        return report, name
    if isinstance(side, (str, os.PathLike)):
        path = os.fspath(side)
        try:
            return load_side(path), path
        except SideError as exc:
            raise ComparisonError(str(exc)) from None
    raise ComparisonError(
        f"{name} is a {type(side).__name__}; give a %%dynamo --out report, explore()'s result, a report's JSON or a TORCH_TRACE directory"
    )


def compare(a: Any, b: Any, names: tuple[str, str] = ("A", "B")) -> Comparison:
    """``b`` against ``a`` (see the module's docstring)."""
    from compiler.diff import diff_reports

    (ra, na), (rb, nb) = _report(a, names[0]), _report(b, names[1])
    return Comparison(diff_reports(ra, rb, (na, nb)))


def parse_diff_line(line: str, namespace: dict[str, Any]) -> tuple[tuple[Any, Any], tuple[str, str]]:
    """``%dynamo_diff A B``'s two sides: a name the notebook defines is that object, anything else a path."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise ComparisonError(f"cannot read the line: {exc}") from None
    if len(words) != 2:
        raise ComparisonError(
            f"needs two sides, got {len(words)}: %dynamo_diff A B, each a --out name, a report's JSON or a TORCH_TRACE directory"
        )
    sides = tuple(namespace[w] if w.isidentifier() and w in namespace else w for w in words)
    return (sides[0], sides[1]), (words[0], words[1])
