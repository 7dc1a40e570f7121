"""The explorer as a widget (anywidget on ipywidgets), for the frontends our JupyterLab extension is not in.

VS Code, Colab, marimo, Voilà, and JupyterLab or Notebook 7 without the extension have ipywidgets; an
``ExplorerWidget`` draws the same explorer there, from the ES module ``npm run build`` writes
(``labextension/src/hosts/anywidget.ts`` -> ``kernel_ext/standalone/widget.js``, shipped in the wheel) with the
standalone page's CSS. anywidget sends the module's text through the widget's comm: nothing is fetched.

Contents:
- ``ExplorerWidget(payload, summary, cell)``: one report's widget. ``payload`` is what the output's MIME entry
  holds (the report, or its stored form for a big one). It is not a synced trait: a view asks for it
  (``{"kind": "report?"}``) and gets ``{"kind": "report", "report": payload, "cell": cell}``, so a notebook saved
  with its widget state does not carry the report a second time. ``cell``: the ``%%dynamo`` cell's text (None
  for ``explore()``); with it a view's Try it asks ``{"kind": "run", "source": the cell with --try NAME}``, and the
  kernel runs it and answers ``{"kind": "ran", "source", "report", "stdout", "stderr", "error"}``. A part the report
  holds in part (``report["parts_cut"]``): ``{"kind": "part?", "key"}`` -> ``{"kind": "part", "key", "part", "error"}``
  (kernel_ext/parts.py).
- The live progress line is the same widget (kernel_ext/progress.py): ``progress_widget(text)`` makes it pending
  (``pending`` True, ``summary`` the line, updated as the run goes: a view shows it and asks nothing, since the
  kernel answers no comm message while the cell runs), and ``ExplorerWidget.show(payload, summary, cell)`` ends it:
  every view drawn then gets ``{"kind": "report", ...}`` pushed, and a view drawn later asks as usual.
- ``run_dynamo_cell(source)``: that run.
- ``widget_view(payload, summary, anywhere=False, cell=None, widget=None)``: the ``application/vnd.jupyter.widget-view+json``
  entry of a new widget (or of the progress line's), or None where no widget can be drawn (no kernel to talk to, the
  module not built, anywidget missing); ``view_of(widget)``: a widget's entry.
- ``WIDGET_VIEW``: that MIME type.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

__all__ = ["WIDGET_VIEW", "widget_view"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_ESM = Path(__file__).resolve().parent / "standalone" / "widget.js"


@functools.cache
def _explorer_widget() -> type:
    """The widget class, made on first use (anywidget and ipywidgets are imported then, not with the package)."""
    import anywidget
    import traitlets

    from .export import BUNDLE_CSS, theme_rule
    from .parts import answer as answer_part

    class ExplorerWidget(anywidget.AnyWidget):
        """One ``%%dynamo`` report drawn by the explorer's own view (see the module docstring)."""

        _esm = _ESM
        _css = theme_rule() + "\n" + BUNDLE_CSS.read_text(encoding="utf-8")
        summary = traitlets.Unicode("").tag(sync=True)
        #: the run is still compiling: ``summary`` is its progress line, and the report comes with ``show``
        pending = traitlets.Bool(False).tag(sync=True)

        def __init__(self, payload: Any, summary: str, cell: str | None = None, pending: bool = False) -> None:
            super().__init__(summary=summary, pending=pending)
            self._payload = payload
            self._cell = cell
            self.on_msg(self._answer)

        def show(self, payload: Any, summary: str, cell: str | None) -> None:
            """The run is over: its report takes the progress line's place in every view drawn now."""
            self._payload, self._cell = payload, cell
            self.summary, self.pending = summary, False
            self.send({"kind": "report", "report": payload, "cell": cell})

        def _answer(self, _widget: Any, content: Any, _buffers: Any) -> None:
            kind = content.get("kind") if isinstance(content, dict) else None
            if kind == "report?" and not self.pending:
                self.send({"kind": "report", "report": self._payload, "cell": self._cell})
            elif kind == "run" and isinstance(content.get("source"), str):
                self.send({"kind": "ran", "source": content["source"], **run_dynamo_cell(content["source"])})
            elif kind == "part?":
                self.send({"kind": "part", **answer_part(content.get("key"))})

    return ExplorerWidget


def run_dynamo_cell(source: str) -> dict[str, Any]:
    """Run a ``%%dynamo`` cell's text in this kernel for a widget's Try it: ``{"report": payload or None, "stdout",
    "stderr", "error": one line or None}``. The cell runs as the magic runs it (``--try NAME`` re-runs it with that
    fix, [Note: try a fix]), with ``--quiet``: its report goes back to the widget that asked, not to an output."""
    from IPython import get_ipython
    from IPython.utils.capture import capture_output

    from compiler.encoding import encode_report

    shell = get_ipython()
    first, _, body = source.partition("\n")
    if shell is None or not first.lstrip().startswith("%%dynamo"):
        return {"report": None, "stdout": "", "stderr": "", "error": "not a %%dynamo cell: nothing was run"}
    line = first.lstrip().removeprefix("%%dynamo").strip()
    name = f"_dynamo_explorer_widget_run_{id(source)}"
    error = None
    with capture_output(display=False) as captured:
        try:
            shell.run_cell_magic("dynamo", f"{line} --quiet --out {name}", body)
        except Exception as exc:  # noqa: BLE001 - a bad option (UsageError) or the magic's own failure, said in one line
            error = f"{type(exc).__name__}: {exc}"
    report = shell.user_ns.pop(name, None)
    return {
        "report": encode_report(dict(report)) if report is not None else None,
        "stdout": captured.stdout,
        "stderr": captured.stderr,
        "error": error,
    }


def _kernel_present() -> bool:
    """Is this code running in a Jupyter kernel (a comm can reach a frontend)? A terminal IPython is not."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def widget_view(
    payload: Any, summary: str, anywhere: bool = False, cell: str | None = None, widget: Any = None
) -> dict[str, Any] | None:
    """The widget-view entry of a new ``ExplorerWidget`` for ``payload`` (or of ``widget``, the progress line's,
    which then shows it), or None where none can be drawn: the module is not built, anywidget is missing, or
    (unless ``anywhere``: a frontend asked for a display, as marimo does, with no IPython kernel) this is not a
    Jupyter kernel."""
    if widget is not None:
        widget.show(payload, summary, cell)
        return view_of(widget)
    if not _ESM.is_file() or not (anywhere or _kernel_present()):
        return None
    try:
        widget = _explorer_widget()(payload, summary, cell)
    except ImportError:  # anywidget not installed (a minimal environment): the other views remain
        return None
    return view_of(widget)


def progress_widget(text: str) -> Any:
    """A pending ``ExplorerWidget`` showing the progress line ``text`` (``summary``), or None where no widget can
    be drawn; ``widget_view(..., widget=it)`` later shows the run's report in it."""
    if not _ESM.is_file() or not _kernel_present():
        return None
    try:
        return _explorer_widget()(None, text, None, pending=True)
    except ImportError:
        return None


def view_of(widget: Any) -> dict[str, Any]:
    """The widget-view entry that draws ``widget``."""
    data, _metadata = widget._repr_mimebundle_()
    return data[WIDGET_VIEW]
