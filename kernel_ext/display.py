"""What ``%%dynamo`` shows and stores: one raw MIME bundle per run, and the ``--out`` object.

Contents:
- ``bundle(report)``: ``{MIME_TYPE: report, widget view, "text/html": static view, "text/plain": one line}`` (and,
  from ``%%dynamo``, ``PARTS_MIME_TYPE``: what the report holds only in part, compressed),
  sent in place of the live progress line (its display updated to the bundle, see progress.py:
  [Note: the report takes the progress line's place]), or with ``display(bundle, raw=True)`` when there
  is no line. Each frontend draws the richest entry it can: JupyterLab and Notebook 7 with our extension the
  first (its renderer ranks above the widget's), every other frontend with ipywidgets (VS Code, Colab,
  marimo, JupyterLab without the extension) the widget (``kernel_ext.widget``; in a kernel only), nbconvert,
  GitHub and nbviewer the HTML, consoles the one-liner. A big report goes in its
  stored form (``compiler.encoding``: gzip + base64 above 256 KB of JSON; a tenth of the size).
- ``CompileReport``: the report as ``--out NAME`` stores it: a plain JSON-ready dict that shows
  the same bundle again when it is the last expression of a cell.
"""

from __future__ import annotations

import html
from typing import Any

from compiler import MIME_TYPE
from compiler.encoding import encode_report
from compiler.schema import PARTS_MIME_TYPE
from compiler.summary import one_line

from .static_html import render
from .widget import WIDGET_VIEW, widget_view

__all__ = ["CompileReport", "bundle"]


def bundle(
    report: dict, widget: bool | None = None, cell: str | None = None, progress: Any = None, parts: dict | None = None
) -> dict:
    """The raw display bundle for ``report`` (a schema-valid compile report dict). ``widget``: add the explorer as a
    widget (True: wherever anywidget can draw, as in marimo; None: when running in a Jupyter kernel; False: no).
    ``cell``: the ``%%dynamo`` cell's text, which the widget's Try it runs again with a fix. ``progress``: the
    progress line's widget (progress.py), which then shows the report instead of a new widget. ``parts``: what the
    report holds only in part, as the kernel keeps it (``parts.held``), carried beside it under ``PARTS_MIME_TYPE``
    so that a saved notebook loads it without a kernel."""
    try:
        page = render(report)
    except Exception as exc:  # noqa: BLE001 - the fallback view must never cost the user their cell's result
        page = (
            "<pre>Dynamo Explorer: the static view of this report failed "
            f"({html.escape(type(exc).__name__)}: {html.escape(str(exc))}); the report itself is "
            "complete (open it in JupyterLab, or keep it with --out).</pre>"
        )
    payload = encode_report(dict(report))
    summary = one_line(report)
    shown: dict = {MIME_TYPE: payload, "text/html": page, "text/plain": summary}
    if parts:
        shown[PARTS_MIME_TYPE] = parts
    if widget is not False:
        try:
            view = widget_view(payload, summary, anywhere=bool(widget), cell=cell, widget=progress)
        except Exception:  # noqa: BLE001 - the widget is one more view: a frontend's comm failing must not cost the report
            view = None
        if view is not None:
            shown[WIDGET_VIEW] = view
    return shown


class CompileReport(dict):
    """One ``%%dynamo`` run's compile report (``compiler/schema/compile_report.v1.schema.json``).

    It is the report dict itself (``rep["frames"]``, ``json.dumps(rep)`` work); typing its name
    as the last line of a cell shows the explorer again.
    """

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return bundle(self)

    def __repr__(self) -> str:
        return f"<CompileReport {one_line(self)}>"
