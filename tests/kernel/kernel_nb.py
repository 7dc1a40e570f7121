"""Helpers for the kernel tests: build a notebook, execute it in a real kernel, read outputs.

Contents:
- ``REPO``, ``MIME``, ``WIDGET_VIEW``, ``BUNDLE``: the repository root, the report MIME type, the widget view's, and
  the MIME types of a ``%%dynamo`` output.
- ``code(source, name=None, raises=False)``: a code cell; ``name`` finds it again, ``raises``
  tags it ``raises-exception`` (nbclient then records the error instead of stopping).
- ``execute(cells, kernel_name, timeout, store_widget_state=True)``: run the cells in one fresh kernel with nbclient;
  returns the executed notebook. Each cell's execute_reply is kept in ``cell.metadata["reply"]``, and
  the display messages it sent, in order, in ``cell.metadata["displays"]``: ``[msg_type, display_id,
  MIME types, first line of text/plain, the widget view's model id or None]`` (the display id is transient: the
  saved outputs lack it).
- ``cell(nb, name)``, ``outputs(cell, type)``, ``stream(cell, name)``, ``reports(cell)``,
  ``error(cell)``, ``result(cell)``, ``last_json(cell)``: readers for the executed notebook.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[2]
MIME = "application/vnd.dynamo-explorer.report.v1+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: what a %%dynamo output carries: the report, the explorer as a widget, the static view, the one-line summary
BUNDLE = {MIME, WIDGET_VIEW, "text/html", "text/plain"}
# every %%dynamo option; %%dynamo? must show an example of each (--no-dynamic in --dynamic's)
MAGIC_OPTIONS = (
    "--backend",
    "--mode",
    "--dynamic",
    "--no-dynamic",
    "--fullgraph",
    "--override-compile-options",
    "--scope",
    "--recompile-limit",
    "--decompile",
    "--out",
    "--html",
    "--quiet",
    "--strict",
)


def code(source: str, name: str | None = None, raises: bool = False):
    meta = {}
    if name:
        meta["name"] = name
    if raises:
        meta["tags"] = ["raises-exception"]
    return nbformat.v4.new_code_cell(source, metadata=meta)


def markdown(source: str):
    return nbformat.v4.new_markdown_cell(source)


def execute(cells, kernel_name: str, timeout: int = 600, nb=None, store_widget_state: bool = True):
    """Execute ``cells`` (or ``nb``) in one new kernel, working directory = the repository. ``store_widget_state``:
    nbclient's own default (True, as papermill), or False as docs/frontends.md tells users who convert notebooks to
    HTML (nbconvert then shows each output's ``text/html`` rather than a widget it would fetch code for)."""
    if nb is None:
        nb = nbformat.v4.new_notebook(cells=list(cells))

    def keep_reply(cell, cell_index, execute_reply):
        cell.metadata["reply"] = execute_reply["content"]

    client = _RecordingClient(
        nb,
        kernel_name=kernel_name,
        timeout=timeout,
        allow_errors=False,
        resources={"metadata": {"path": str(REPO)}},
        on_cell_executed=keep_reply,
        store_widget_state=store_widget_state,
    )
    client.execute()
    return nb


class _RecordingClient(NotebookClient):
    """nbclient, keeping each cell's display messages (``display_data``, ``update_display_data``, ``clear_output``)."""

    def process_message(self, msg, cell, cell_index):
        kind = msg["msg_type"]
        if kind in ("display_data", "update_display_data", "clear_output"):
            content = msg["content"]
            data = content.get("data") or {}
            text = str(data.get("text/plain", "")).split("\n", 1)[0]
            model = (data.get(WIDGET_VIEW) or {}).get("model_id")
            entry = [kind, (content.get("transient") or {}).get("display_id"), sorted(data), text, model]
            cell.metadata.setdefault("displays", []).append(entry)
        return super().process_message(msg, cell, cell_index)


def cell(nb, name: str):
    matches = [c for c in nb.cells if c.metadata.get("name") == name]
    assert len(matches) == 1, f"no single cell named {name!r}"
    return matches[0]


def outputs(c, output_type: str) -> list:
    return [o for o in c.outputs if o.output_type == output_type]


def stream(c, name: str = "stdout") -> str:
    return "".join(o.text for o in c.outputs if o.output_type == "stream" and o.name == name)


def reports(c) -> list:
    """The display_data outputs that carry a compile report."""
    return [o for o in outputs(c, "display_data") if MIME in o.data]


def error(c):
    errs = outputs(c, "error")
    assert len(errs) == 1, f"expected one error output, got {c.outputs}"
    return errs[0]


def result(c):
    res = outputs(c, "execute_result")
    return res[0] if res else None


def last_json(c):
    """The last stdout line of a cell, parsed as JSON (cells print their checks as JSON)."""
    lines = [line for line in stream(c).splitlines() if line.strip()]
    assert lines, f"cell printed nothing: {c.outputs}"
    return json.loads(lines[-1])
