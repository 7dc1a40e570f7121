"""Static HTML view of a compile report, for frontends without the JupyterLab extension.

VS Code, nbconvert HTML, GitHub and nbviewer show the ``text/html`` part of the ``%%dynamo``
bundle. This module turns a report dict (``compiler/schema/compile_report.v1.schema.json``)
into that HTML. It is a pure function of the report: no IPython, no torch, no script.

Contents:
- ``render(report) -> str``: the whole view, its sections in the order of the report view's panes
  (``compiler.schema.PANES``, the schema's ``x-dynamo-explorer.panes``, which the JupyterLab renderer
  also follows).
- ``SECTIONS``: pane name -> ``StaticSection``, how this view shows that pane: a part drawn once for the
  report (``report``: header, frames, dynamic shapes, graphs, output code) and/or a part drawn inside each
  frame's ``<details>`` (``frame``: source, bytecode, guards, graph breaks), the frame parts in pane order
  too, with consecutive ``column`` parts side by side. ``ABSENT``: panes this view leaves out, each with its
  reason (none today); a test checks that every pane is in one of the two.
- Section helpers ``_header``, ``_banners``, ``_logs``, ``_frames_table``, ``_frame``, ``_source``,
  ``_bytecode``, ``_guards``, ``_shapes``, ``_breaks``, ``_graph``, ``_output_code``.

[Note: escaping] Every string that comes from the report (user code, names, messages, bytecode
argreprs, FX targets) goes through ``_e`` (``html.escape`` with quotes). Links are emitted only
for ``http(s)://`` URLs. Nothing else from the report reaches the markup unescaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compiler.schema import PANE_TITLES, PANES
from compiler.summary import one_line

__all__ = ["ABSENT", "MAX_PRE_CHARS", "MAX_ROWS", "SECTIONS", "StaticSection", "render"]

#: Tables longer than this are cut (the JupyterLab extension shows everything).
MAX_ROWS = 400
# Code blocks (guard trees, readable graphs, output code) of a 10,000-node model run to megabytes;
# the static view keeps the start of each, the report (JupyterLab view, --out) keeps all of it.
MAX_PRE_CHARS = 100_000

_STATUS_LABEL = {
    "ok": "ok",
    "graph_break": "graph break",
    "recompile": "recompile",
    "skipped": "skipped",
    "error": "error",
    "empty": "empty",
}

_CSS = """
.dx-report{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:var(--jp-ui-font-size1,13px);
 color:var(--jp-ui-font-color1,#1f1f1f);line-height:1.35}
.dx-report h4{margin:10px 0 4px;font-size:var(--jp-ui-font-size2,14px)}
.dx-report h5{margin:6px 0 2px;font-size:var(--jp-ui-font-size1,13px)}
.dx-report pre,.dx-report code,.dx-mono{font-family:var(--jp-code-font-family,monospace);
 font-size:var(--jp-code-font-size,12px)}
.dx-report pre{margin:2px 0;padding:4px 6px;background:var(--jp-layout-color2,#f3f3f3);overflow:auto;max-height:420px}
.dx-report table{border-collapse:collapse;margin:2px 0}
.dx-report th,.dx-report td{border:1px solid var(--jp-border-color2,#d0d0d0);padding:1px 6px;text-align:left;
 vertical-align:top}
.dx-report th{background:var(--jp-layout-color2,#eee)}
.dx-report summary{cursor:pointer}
.dx-meta{color:var(--jp-ui-font-color2,#555)}
.dx-side{display:flex;gap:10px;flex-wrap:wrap}
.dx-side>div{flex:1 1 340px;min-width:0;max-height:480px;overflow:auto}
.dx-banner{padding:4px 8px;margin:4px 0;border-left:4px solid}
.dx-error{background:var(--jp-error-color3,#fde0e0);border-color:var(--jp-error-color1,#d32f2f)}
.dx-warn{background:var(--jp-warn-color3,#fff2cc);border-color:var(--jp-warn-color1,#f57c00)}
.dx-badge{padding:0 5px;border-radius:3px;white-space:nowrap}
.dx-s-ok{background:var(--jp-success-color3,#d4edda)}
.dx-s-graph_break{background:var(--jp-warn-color3,#fff2cc)}
.dx-s-recompile{background:var(--jp-info-color3,#dbeafe)}
.dx-s-skipped,.dx-s-empty{background:var(--jp-layout-color3,#e0e0e0)}
.dx-s-error{background:var(--jp-error-color3,#fde0e0)}
.dx-break{margin:4px 0 8px;padding:4px 8px;border-left:4px solid var(--jp-warn-color1,#f57c00)}
.dx-ref{color:var(--jp-brand-color1,#1565c0)}
.dx-report td .dx-mono{white-space:pre-wrap;overflow-wrap:anywhere}
"""


def _e(value: Any) -> str:
    """Escape anything for HTML text or a quoted attribute ([Note: escaping])."""
    return html.escape("" if value is None else str(value), quote=True)


def _link(url: Any, text: str) -> str:
    """An <a> for http(s) URLs only; anything else is shown as escaped text."""
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        return f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{_e(text)}</a>'
    return _e(url) if url else ""


def _table(head: list[str], rows: list[list[str]], what: str) -> str:
    """A table of already-escaped cells; cut at MAX_ROWS with a visible note."""
    if not rows:
        return f'<div class="dx-meta">no {_e(what)}</div>'
    shown = rows[:MAX_ROWS]
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in shown]
    out.append("</tbody></table>")
    if len(rows) > MAX_ROWS:
        out.append(
            f'<div class="dx-meta">… {len(rows) - MAX_ROWS} more {_e(what)} not shown here '
            "(the JupyterLab extension shows all).</div>"
        )
    return "".join(out)


def _pre(text: Any) -> str:
    text = "" if text is None else str(text)
    if len(text) <= MAX_PRE_CHARS:
        return f"<pre>{_e(text)}</pre>"
    cut = text.rfind("\n", 0, MAX_PRE_CHARS)
    cut = cut if cut > 0 else MAX_PRE_CHARS
    return (
        f"<pre>{_e(text[:cut])}</pre>"
        f'<div class="dx-meta">… {len(text) - cut} more characters not shown here (the JupyterLab view and '
        "<code>--out</code> keep all of it)</div>"
    )


def _details(summary: str, body: str, open_: bool = False) -> str:
    return f"<details{' open' if open_ else ''}><summary>{summary}</summary>{body}</details>"


def _badge(status: str) -> str:
    return f'<span class="dx-badge dx-s-{_e(status)}">{_e(_STATUS_LABEL.get(status, status))}</span>'


class _Cell:
    """Where a line is, for people: the cell's line with its text, or an earlier cell's (``In [2], line 9``)
    or a file's (``transformers/generation/utils.py:2412``), labelled from the report's ``sources``."""

    def __init__(self, report: dict) -> None:
        cell = report.get("cell") or {}
        self.filename = cell.get("filename")
        self.lines = (cell.get("source") or "").splitlines()
        self.sources = {s.get("filename"): s for s in report.get("sources") or []}

    def where(self, filename: Any, line: Any) -> str:
        if line is None:
            return ""
        if filename in (None, self.filename):
            text = f"line {_e(line)}"
            if isinstance(line, int) and 0 < line <= len(self.lines):
                text += f": <code>{_e(self.lines[line - 1].strip())}</code>"
            return text
        text = _e(self.place(filename, line))
        code = self.line_text(filename, line)
        return text + (f": <code>{_e(code.strip())}</code>" if code and code.strip() else "")

    def place(self, filename: Any, line: Any) -> str:
        source = self.sources.get(filename)
        if source is None:
            return f"{filename}:{line}"
        if source.get("kind") in ("cell", "notebook-cell"):
            return f"{source.get('label')}, line {line}"
        return f"{source.get('label')}:{line}"

    def label_paths(self, text: Any) -> Any:
        """Code text with notebook cells' file names replaced by their labels (``In [2], line 9``)."""
        if not isinstance(text, str):
            return text
        for name, source in self.sources.items():
            label = str(source.get("label"))
            if source.get("kind") in ("cell", "notebook-cell") and name and name != label and name in text:
                text = re.sub(re.escape(name) + r"(?::(\d+))?", _labelled(label), text)
        return text

    def line_text(self, filename: Any, line: Any) -> str | None:
        found = self._excerpt_at(filename, line)
        return found[2][line - found[1]] if found else None

    def excerpt(self, filename: Any, line: Any) -> tuple[str, str] | None:
        """``(title, numbered text)`` of the excerpt holding ``line`` of a file other than the cell."""
        found = self._excerpt_at(filename, line)
        if found is None:
            return None
        source, first, lines = found
        width = len(str(first + len(lines) - 1))
        numbered = "\n".join(f"{first + i:>{width}}  {text}" for i, text in enumerate(lines))
        kind = " (library, read-only)" if source.get("kind") == "library" else ""
        return f"source: {source.get('label')}{kind}", numbered

    def _excerpt_at(self, filename: Any, line: Any) -> tuple[dict, int, list[str]] | None:
        """``(source, first line, lines)`` of the excerpt of ``filename`` that holds ``line``."""
        source = self.sources.get(filename) or {}
        for ex in source.get("excerpts") or []:
            lines = str(ex.get("text", "")).split("\n")
            first = ex.get("first_line", 1)
            if isinstance(line, int) and first <= line < first + len(lines):
                return source, first, lines
        return None


def _labelled(label: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement: ``FILE:9`` -> ``In [2], line 9``, ``FILE`` -> ``In [2]``."""
    return lambda m: f"{label}, line {m[1]}" if m[1] else label


def render(report: dict) -> str:
    """Return the self-contained static HTML view of ``report`` (see module docstring)."""
    cell = _Cell(report)
    parts = [f'<div class="dx-report"><style>{_CSS}</style>']
    for pane in PANES:
        section = SECTIONS.get(pane)
        if section is not None and section.report is not None:
            parts.append(section.report(report, cell))
    parts.append("</div>")
    return "".join(parts)


def _header_section(report: dict, cell: _Cell) -> str:
    return _header(report) + _banners(report, cell) + _logs(report)


def _frames_section(report: dict, cell: _Cell) -> str:
    frames = report.get("frames") or []
    parts = [f"<h4>{_e(PANE_TITLES['frames'])} ({len(frames)})</h4>", _frames_table(frames, cell)]
    open_all = len(frames) <= 4
    parts += [_frame(frame, cell, open_all or frame.get("status") != "ok") for frame in frames]
    return "".join(parts)


def _graphs_section(report: dict, cell: _Cell) -> str:
    graphs = report.get("graphs") or []
    if not graphs:
        return ""
    return f"<h4>Graphs ({len(graphs)})</h4>" + "".join(_graph(g, cell) for g in graphs)


def _output_code_section(report: dict, cell: _Cell) -> str:
    if not report.get("output_code"):
        return ""
    return "<h4>Inductor output code</h4>" + "".join(_output_code(o, cell) for o in report["output_code"])


def _logs(report: dict) -> str:
    logs = report.get("logs") or []
    if not logs:
        return ""
    rows = [
        [_e(r.get("level")), _e(r.get("compile_id") or ""), _e(r.get("logger")), f"<pre>{_e(r.get('message'))}</pre>"]
        for r in logs
    ]
    return _details(f"<b>torch logs ({len(logs)})</b>", _table(["level", "compile id", "logger", "message"], rows, "log records"))


def _header(report: dict) -> str:
    opts = report.get("options") or {}
    timings = report.get("timings") or {}
    flags = [f"{k}={v}" for k, v in opts.items() if k not in ("backend", "scope") and v not in (None, False)]
    meta = [
        f"backend <b>{_e(report.get('backend'))}</b>",
        f'scope <b>{_e(report.get("scope"))}</b> <span class="dx-meta">({_e(report.get("scope_reason"))})</span>',
        f"device {_e(report.get('device'))}",
        f"torch {_e(report.get('torch_version'))} · Python {_e(report.get('python_version'))}",
    ]
    if flags:
        meta.append("options " + _e(", ".join(flags)))
    if timings:
        meta.append(f"wall {float(timings.get('wall_s', 0)):.2f} s, compile {float(timings.get('compile_s', 0)):.2f} s")
    return f'<div><b>Dynamo Explorer</b> · {_e(one_line(report))}</div><div class="dx-meta">{" · ".join(meta)}</div>'


def _banners(report: dict, cell: _Cell) -> str:
    out = []
    err = report.get("error")
    if err:
        where = cell.where(None, err.get("line"))
        out.append(
            f'<div class="dx-banner dx-error"><b>{_e(err.get("type"))}</b>: '
            f'<span class="dx-mono">{_e(err.get("message"))}</span>'
            f"{' — ' + where if where else ''}</div>"
        )
    for d in report.get("diagnostics") or []:
        cid = f" [{_e(d['compile_id'])}]" if d.get("compile_id") else ""
        out.append(f'<div class="dx-banner dx-warn">capture: <b>{_e(d.get("kind"))}</b>{cid}: {_e(d.get("message"))}</div>')
    return "".join(out)


def _frames_table(frames: list[dict], cell: _Cell) -> str:
    rows = []
    for f in frames:
        code = f.get("code") or {}
        name = _e(code.get("name"))
        if code.get("is_resume"):
            name += ' <span class="dx-meta">(resume'
            name += f" of [{_e(f['parent_compile_id'])}])</span>" if f.get("parent_compile_id") else ")</span>"
        attempt = f"_{_e(f['attempt'])}" if f.get("attempt") else ""
        rows.append(
            [
                f"<b>[{_e(f.get('compile_id'))}{attempt}]</b>",
                name,
                cell.where(code.get("filename"), code.get("firstlineno"))
                if code.get("in_cell")
                else _e(cell.place(code.get("filename"), code.get("firstlineno"))),
                _badge(str(f.get("status"))),
                _e(len(f.get("graph_ids") or [])),
                _e(len(f.get("graph_breaks") or [])),
                _e(len(f.get("guards") or [])),
                "<br>".join(_e(r.get("reason")) for r in f.get("recompile_reasons") or []),
            ]
        )
    return _table(
        ["compile id", "code", "defined at", "status", "graphs", "breaks", "guards", "recompiled because"], rows, "frames"
    )


def _frame(frame: dict, cell: _Cell, open_: bool) -> str:
    """One frame's ``<details>``: its head (recompile reasons, compile failure), then the frame part of each
    pane in ``PANES`` order; consecutive ``column`` parts sit side by side, their ``below`` parts follow."""
    code = frame.get("code") or {}
    body = [_frame_head(frame)]
    side: list[str] = []
    below: list[str] = []

    def flush() -> None:
        if side:
            body.append('<div class="dx-side">' + "".join(side) + "</div>")
        body.extend(below)
        side.clear()
        below.clear()

    for pane in PANES:
        section = SECTIONS.get(pane)
        if section is None or section.frame is None:
            continue
        if section.column:
            side.append(f"<div>{section.frame(frame, cell)}</div>")
            if section.below is not None:
                below.append(section.below(frame, cell))
        else:
            flush()
            body.append(section.frame(frame, cell))
    flush()
    time_s = frame.get("compile_time_s")
    title = f"<b>[{_e(frame.get('compile_id'))}]</b> {_e(code.get('name'))} {_badge(str(frame.get('status')))}" + (
        f' <span class="dx-meta">{float(time_s):.2f} s</span>' if time_s is not None else ""
    )
    return f'<div class="dx-frame">{_details(title, "".join(body), open_)}</div>'


def _frame_head(frame: dict) -> str:
    """What the frame's title says in the JupyterLab view: why it was recompiled, why its compile failed."""
    out = []
    for r in frame.get("recompile_reasons") or []:
        prev = f" (guard of [{_e(r['failed_compile_id'])}] failed)" if r.get("failed_compile_id") else ""
        out.append(f'<div class="dx-banner dx-warn">recompile{prev}: <span class="dx-mono">{_e(r.get("reason"))}</span></div>')
    if frame.get("fail_type") or frame.get("fail_reason"):
        reason = str(frame.get("fail_reason") or "")
        out.append(
            '<div class="dx-banner dx-error">'
            + _details(
                f"compile failed: <b>{_e(frame.get('fail_type'))}</b>: {_e(reason.splitlines()[0] if reason else '')}",
                _pre(reason),
            )
            + "</div>"
        )
    return "".join(out)


def _source(frame: dict, cell: _Cell) -> str:
    """The excerpt of an earlier cell or a file a frame's code lives in (the cell's own code is not repeated)."""
    code = frame.get("code") or {}
    excerpt = None if code.get("in_cell") else cell.excerpt(code.get("filename"), code.get("firstlineno"))
    return "" if excerpt is None else _details(_e(excerpt[0]), _pre(excerpt[1]))


def _original_bytecode(frame: dict, cell: _Cell) -> str:
    return f"<h5>{_e(PANE_TITLES['original-bytecode'])}</h5>{_bytecode(frame.get('original_bytecode') or [])}"


def _modified_bytecode(frame: dict, cell: _Cell) -> str:
    return f"<h5>{_e(PANE_TITLES['modified-bytecode'])}</h5>{_bytecode(frame.get('modified_bytecode') or [])}"


def _decompiled(frame: dict, cell: _Cell) -> str:
    if frame.get("decompiled_source"):
        return _details("decompiled modified code (depyf)", _pre(frame["decompiled_source"]))
    if frame.get("decompile_error"):
        return f'<div class="dx-meta">No decompiled source: {_e(frame["decompile_error"])}.</div>'
    return ""


def _bytecode(rows: list[dict]) -> str:
    out = []
    for ins in rows:
        ref = ins.get("ref")
        note = ""
        if ref:
            if ref.get("graph_id") is not None:
                note = f' <span class="dx-ref">→ graph {_e(ref["graph_id"])}</span>'
            elif ref.get("compile_id"):
                note = f' <span class="dx-ref">→ frame [{_e(ref["compile_id"])}]</span>'
        target = ins.get("jump_target")
        target = "" if target is None or f"to {target}" in str(ins.get("argrepr")) else f" → {_e(target)}"
        out.append(
            [
                _e("" if ins.get("line") is None else ins["line"]),
                ("&gt;&gt; " if ins.get("is_jump_target") else "") + _e(ins.get("offset")),
                f'<span class="dx-mono">{_e(ins.get("opname"))}</span>',
                f'<span class="dx-mono">{_e(ins.get("argrepr"))}</span>{target}{note}',
            ]
        )
    return _table(["line", "offset", "opname", "argument"], out, "instructions")


def _guards(frame: dict, cell: _Cell) -> str:
    rows = [
        [
            _e(g.get("type")),
            f'<span class="dx-mono">{_e(g.get("source"))}</span>',
            "<br>".join(f'<span class="dx-mono">{_e(c)}</span>' for c in g.get("code") or []),
            _e("" if g.get("line") is None else g["line"]),
        ]
        for g in frame.get("guards") or []
    ]
    out = f"<h5>{_e(PANE_TITLES['guards'])} ({len(rows)})</h5>" + _table(["type", "source", "checks", "line"], rows, "guards")
    if frame.get("guard_tree"):
        out += _details("guard tree (as TORCH_LOGS=guards prints it)", _pre(cell.label_paths(frame["guard_tree"])))
    return out


def _breaks(frame: dict, cell: _Cell) -> str:
    out = []
    for b in frame.get("graph_breaks") or []:
        gb = f" ({_e(b['gb_id'])})" if b.get("gb_id") else ""
        parts = [f"<b>graph break{gb}: {_e(b.get('gb_type'))}</b> at {cell.where(b.get('filename'), b.get('line'))}"]
        if b.get("reason") and b.get("reason") != b.get("gb_type"):
            parts.append(f'<div>reason: <span class="dx-mono">{_e(b["reason"])}</span></div>')
        if b.get("explanation"):
            parts.append(f"<div>explanation: {_e(b['explanation'])}</div>")
        hints = b.get("hints") or []
        if hints:
            parts.append("<div>hints:<ul>" + "".join(f"<li>{_e(h)}</li>" for h in hints) + "</ul></div>")
        if b.get("doc_url"):
            parts.append(f"<div>{_link(b['doc_url'], 'documentation')}</div>")
        stack = b.get("user_stack") or []
        if stack:
            rows = [[_e(s.get("name")), cell.where(s.get("filename"), s.get("line"))] for s in stack]
            parts.append(_details("user stack", _table(["function", "where"], rows, "stack frames")))
        out.append(f'<div class="dx-break">{"".join(parts)}</div>')
    return "".join(out)


def _graph(graph: dict, cell: _Cell) -> str:
    nodes = graph.get("nodes") or []
    title = (
        f"<b>graph {_e(graph.get('id'))}</b> {_e(graph.get('kind'))} [{_e(graph.get('compile_id'))}]"
        + (f" {_e(graph['name'])}" if graph.get("name") else "")
        + f" · {len(nodes)} nodes"
    )
    if graph.get("kind") not in ("dynamo", "dynamo_partial"):
        return _details(title, _pre(cell.label_paths(graph.get("code"))))
    rows = [
        [
            _e(n.get("name")),
            _e(n.get("op")),
            f'<span class="dx-mono">{_e(n.get("target"))}</span>',
            f'<span class="dx-mono">{_e(n.get("args"))}</span>',
            f'<span class="dx-mono">{_e(n.get("kwargs"))}</span>',
            _e("" if n.get("shape") is None else list(n["shape"])),
            _e(n.get("dtype") or ""),
            cell.where(n.get("filename"), n.get("line")),
        ]
        for n in nodes
    ]
    body = _table(["name", "op", "target", "args", "kwargs", "shape", "dtype", "source"], rows, "nodes")
    body += _details("readable code", _pre(cell.label_paths(graph.get("code"))))
    return _details(title, body, open_=True)


def _output_code(out: dict, cell: _Cell) -> str:
    kernels = "".join(
        _details(f"kernel {_e(k.get('name'))} ({_e(k.get('language'))})", _pre(cell.label_paths(k.get("source"))))
        for k in out.get("kernels") or []
    )
    return _details(
        f"[{_e(out.get('compile_id'))}] {_e(out.get('kind'))} · {len(out.get('kernels') or [])} kernels",
        kernels + _details("wrapper", _pre(cell.label_paths(out.get("source")))),
    )


def _shapes(report: dict, cell: _Cell) -> str:
    symbols = report.get("symbols") or []
    guards = report.get("shape_guards") or []
    if not symbols and not guards:
        return ""
    file_of = {f.get("compile_id"): (f.get("code") or {}).get("filename") for f in report.get("frames") or []}
    rows = [
        [
            _e(s.get("compile_id")),
            f'<span class="dx-mono">{_e(s.get("symbol"))}</span>',
            f'<span class="dx-mono">{_e(s.get("source"))}</span>',
            _e(s.get("value")),
            _e(s.get("range")),
            cell.where(file_of.get(s.get("compile_id")), s.get("line")),
        ]
        for s in symbols
    ]
    head = ["compile id", "symbol", "source", "value", "range", "line"]
    out = "<h4>Dynamic shapes</h4>" + _table(head, rows, "symbols")
    grows = [
        [
            _e(g.get("compile_id")),
            f'<span class="dx-mono">{_e(g.get("expr"))}</span>',
            cell.where(file_of.get(g.get("compile_id")), g.get("line")),
        ]
        for g in guards
    ]
    table = _table(["compile id", "guard", "line"], grows, "shape guards")
    return out + _details(f"shape guards ({len(guards)})", table)


@dataclass(frozen=True)
class StaticSection:
    """How the static view shows one pane of the report view."""

    #: drawn once for the whole report, at the pane's place in ``PANES``
    report: Callable[[dict, _Cell], str] | None = None
    #: drawn inside each frame's ``<details>``, at the pane's place in ``PANES``
    frame: Callable[[dict, _Cell], str] | None = None
    #: the frame part sits side by side with the column parts next to it (original / modified bytecode)
    column: bool = False
    #: drawn after that row of columns (the modified bytecode's decompiled code)
    below: Callable[[dict, _Cell], str] | None = None


#: Pane name (``compiler.schema.PANES``) -> how this view shows it; ``render`` follows ``PANES``' order.
SECTIONS: dict[str, StaticSection] = {
    "header": StaticSection(report=_header_section),
    "frames": StaticSection(report=_frames_section),
    "source": StaticSection(frame=_source),
    "original-bytecode": StaticSection(frame=_original_bytecode, column=True),
    "modified-bytecode": StaticSection(frame=_modified_bytecode, column=True, below=_decompiled),
    "guards": StaticSection(frame=_guards, report=_shapes),
    "graph-breaks": StaticSection(frame=_breaks),
    "fx-graph": StaticSection(report=_graphs_section),
    "code": StaticSection(report=_output_code_section),
}

#: Panes the static view leaves out on purpose, each with the reason (a test requires one or the other).
ABSENT: dict[str, str] = {}
