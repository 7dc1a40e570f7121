"""Static HTML view of a compile report, for frontends without the JupyterLab extension.

VS Code, nbconvert HTML, GitHub and nbviewer show the ``text/html`` part of the ``%%dynamo``
bundle. This module turns a report dict (``compiler/schema/compile_report.v1.schema.json``)
into that HTML. It is a function of the report: no IPython, no torch, no script; the one thing it
runs is Graphviz's ``dot``, to draw the small FX pictures.

[Note: a lean summary] The notebook output already holds the whole report (the JSON part, which
the JupyterLab and Notebook 7 renderer and ``--html`` show in full); the HTML is what a reader
without the extension sees, so it summarises instead of copying: the cell's source with its graph
breaks marked, the frames, each frame's original bytecode (dis-style text) beside what Dynamo's
modified code does (the calls of graphs and resume functions, the decompiled source or one line on
why there is none), the leading guards, the graph breaks (one line each in their frame; in full once, in
the action list: each distinct break, most costly first, with its remedy), a small picture of each FX graph
(an SVG drawn by Graphviz's ``dot`` when the graph has at most ``MAX_PICTURE_NODES`` nodes; one line
otherwise, or when ``dot`` is not installed), dynamic-shape symbols, and one line per AOT graph and
inductor output. Guard trees, modified bytecode listings, node tables and generated code stay in
the report only. Sizes per tour cell: BENCHMARKS.md §4.

Contents:
- ``render(report) -> str``: the whole view, its sections in the order of the report view's panes
  (``compiler.schema.PANES``, the schema's ``x-dynamo-explorer.panes``, which the JupyterLab renderer
  also follows).
- ``SECTIONS``: pane name -> ``StaticSection``, how this view shows that pane: a part drawn once for the
  report (``report``: header, "why is it slow" (``static_profile.py``), frames, cell source, dynamic shapes,
  the graph-break action list, the fixes on offer and a ``--try`` run's before/after table
  (``static_try_fix.py``), graphs, output code) and/or a part drawn
  inside each frame's ``<details>`` (``frame``: source excerpt, bytecode, guards, graph breaks, the inline / skip
  decisions of ``static_decisions.py``, the compile-time chart of ``static_chart.py``), the frame parts in pane order too, with consecutive ``column`` parts side by
  side. ``ABSENT``: panes this view leaves out, each with its reason (none today); a test checks that every
  pane is in one of the two.
- ``fx_picture(graph) -> str``: the inline SVG of one FX graph (``dot``), sanitised; raises ``NoDot``
  when Graphviz is not installed.

[Note: escaping] Every string that comes from the report (user code, names, messages, bytecode
argreprs, FX targets) goes through ``_e`` (``html.escape`` with quotes). Links are emitted only
for ``http(s)://`` URLs. The SVG that ``dot`` writes is parsed and written again from an allow-list
of SVG elements and attributes, its text escaped by ``_e``. Nothing else from the report reaches the
markup unescaped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compiler.schema import PANE_TITLES, PANES
from compiler.summary import RUNS_PLAIN, callee_text, format_ms, one_line

from .static_chart import CHART_CSS, compile_time_section
from .static_chart import escape as _e
from .static_cudagraphs import cudagraphs_frame
from .static_decisions import DECISIONS_CSS, decisions_section
from .static_dispatch import dispatch_section
from .static_profile import profile_section
from .static_ranks import ranks_section
from .static_trace_steps import TRACE_STEPS_CSS, trace_steps_section
from .static_try_fix import try_fix_section

__all__ = [
    "ABSENT",
    "MAX_PICTURE_NODES",
    "MAX_PRE_CHARS",
    "MAX_ROWS",
    "NO_DOT",
    "SECTIONS",
    "NoDot",
    "StaticSection",
    "fx_picture",
    "render",
]

#: Tables longer than this are cut (the JupyterLab extension shows everything).
MAX_ROWS = 400
#: Code blocks (decompiled code, a failure's text, a graph's code when it has no picture) keep their start.
MAX_PRE_CHARS = 8_000
#: Bytecode instructions listed per frame; guards shown per frame (inputs first); log records shown.
MAX_INSTRUCTIONS = 150
MAX_GUARDS = 12
MAX_LOGS = 20
#: FX graphs drawn as a picture: at most this many nodes each, at most this many pictures per report.
MAX_PICTURE_NODES = 60
MAX_PICTURES = 20
#: A cell source longer than this shows only the lines around its marks.
MAX_SOURCE_LINES = 300

#: The one line shown instead of the pictures when Graphviz's ``dot`` cannot be run.
NO_DOT = (
    "No FX pictures here: they are drawn by Graphviz's <code>dot</code> program, which is not installed "
    "(<code>apt install graphviz</code>, <code>brew install graphviz</code> or <code>conda install graphviz</code>); "
    "the JupyterLab view draws them without it."
)

_STATUS_LABEL = {
    "ok": "ok",
    "graph_break": "graph break",
    "recompile": "recompile",
    "skipped": "skipped",
    "error": "error",
    "empty": "empty",
}

# text-align needs !important: JupyterLab's and nbconvert's `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td`
# (two classes) right-aligns every cell of an HTML output
_CSS = """
.dx-report{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:var(--jp-ui-font-size1,13px);
 color:var(--jp-ui-font-color1,#1f1f1f);line-height:1.35}
.dx-report h4{margin:10px 0 4px;font-size:var(--jp-ui-font-size2,14px)}
.dx-report h5{margin:6px 0 2px;font-size:var(--jp-ui-font-size1,13px)}
.dx-report pre,.dx-report code,.dx-mono{font-family:var(--jp-code-font-family,monospace);
 font-size:var(--jp-code-font-size,12px)}
.dx-report pre{margin:2px 0;padding:4px 6px;background:var(--jp-layout-color2,#f3f3f3);overflow:auto;max-height:420px}
.dx-report table{border-collapse:collapse;margin:2px 0}
.dx-report th,.dx-report td{border:1px solid var(--jp-border-color2,#d0d0d0);padding:1px 6px;text-align:left!important;
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
.dx-breaks{padding-left:22px}
.dx-ref{color:var(--jp-brand-color1,#1565c0)}
.dx-report td .dx-mono{white-space:pre-wrap;overflow-wrap:anywhere}
.dx-report td .dx-nowrap{white-space:nowrap}
.dx-report .dx-src .dx-hit{background:var(--jp-warn-color3,#fff2cc)}
.dx-mark{color:var(--jp-warn-color0,#b45309);font-weight:bold;cursor:help}
.dx-fx{color:var(--jp-ui-font-color1,#222);max-width:100%;overflow:auto}
.dx-fx svg{max-width:100%;height:auto}
.dx-fx text{fill:currentColor;font-family:var(--jp-ui-font-family,sans-serif)}
.dx-fx .graph>polygon{fill:none}
.dx-fx .node polygon,.dx-fx .node ellipse{fill:var(--jp-layout-color1,#fff);stroke:currentColor}
.dx-fx .edge path{stroke:currentColor}
.dx-fx .edge polygon{fill:currentColor;stroke:currentColor}
"""


def _link(url: Any, text: str) -> str:
    """An <a> for http(s) URLs only; anything else is shown as escaped text."""
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        return f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{_e(text)}</a>'
    return _e(url) if url else ""


def _table(head: list[str], rows: list[list[str]], what: str, limit: int = MAX_ROWS) -> str:
    """A table of already-escaped cells; cut at ``limit`` rows with a visible note."""
    if not rows:
        return f'<div class="dx-meta">no {_e(what)}</div>'
    shown = rows[:limit]
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in shown]
    out.append("</tbody></table>")
    if len(rows) > limit:
        out.append(f'<div class="dx-meta">… {len(rows) - limit} more {_e(what)}: {_FULL_VIEW}</div>')
    return "".join(out)


_FULL_VIEW = "the report itself holds them (JupyterLab or Notebook 7 with dynamo-explorer, or <code>--html</code>)"


def _pre(text: Any, limit: int = MAX_PRE_CHARS) -> str:
    text = "" if text is None else str(text)
    if len(text) <= limit:
        return f"<pre>{_e(text)}</pre>"
    cut = text.rfind("\n", 0, limit)
    cut = cut if cut > 0 else limit
    return (
        f"<pre>{_e(text[:cut])}</pre>"
        f'<div class="dx-meta">… {len(text) - cut} more characters not shown here (the JupyterLab view and '
        "<code>--out</code> keep all of it)</div>"
    )


def _plain_line(text: Any, limit: int = 200) -> str:
    """The first non-empty line of ``text``, at most ``limit`` characters (not escaped)."""
    first = next((line.strip() for line in str(text or "").splitlines() if line.strip()), "")
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _one_line(text: Any, limit: int = 200) -> str:
    """``_plain_line``, escaped."""
    return _e(_plain_line(text, limit))


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
        self.report = report  # what a frame's part reads of the whole report (symbols, other frames, diagnostics)

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
    parts = [f'<div class="dx-report"><style>{_CSS}{CHART_CSS}{DECISIONS_CSS}{TRACE_STEPS_CSS}</style>']
    for pane in PANES:
        section = SECTIONS.get(pane)
        if section is not None and section.report is not None:
            parts.append(section.report(report, cell))
    parts.append(
        f'<div class="dx-meta">A static summary of the report; every bytecode row, guard tree, graph and kernel: {_FULL_VIEW}.</div>'
    )
    parts.append("</div>")
    return "".join(parts)


def _header_section(report: dict, cell: _Cell) -> str:
    return _header(report) + ranks_section(report) + _banners(report, cell) + _logs(report)


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
    out = [f"<h4>Graphs ({len(graphs)})</h4>"]
    pictures = _Pictures()
    lines = []
    for g in graphs:
        if g.get("kind") in ("dynamo", "dynamo_partial"):
            out.append(_graph(g, cell, pictures))
        elif str(g.get("kind")).startswith("aot_"):
            lines.append(f"<li>{_graph_title(g)}</li>")
    if pictures.no_dot:
        out.insert(1, f'<div class="dx-meta dx-nodot">{NO_DOT}</div>')
    out += [_ddp_split(split) for split in report.get("ddp_splits") or []]
    if lines:
        out.append(f"<div>AOT graphs:<ul>{''.join(lines)}</ul></div>")
    return "".join(out)


def _ddp_split(split: dict) -> str:
    """One line per piece of a graph DDPOptimizer split ([Note: DDP splits] in compiler/collectors/ddp_splits.py)."""
    cap = split.get("bucket_cap_bytes")
    pieces = split.get("submodules") or []
    head = (
        f"[{_e(split.get('compile_id'))}] DDPOptimizer split the Dynamo graph at DDP's bucket boundaries"
        + (f" (bucket cap {_e(_bytes(cap))})" if cap else "")
        + f" into {len(pieces)} pieces, each compiled by the backend on its own (split graph {_e(split.get('graph_id'))}):"
    )
    rows = [
        f"<li>{_e(p.get('name'))}: graph {_e(p.get('graph_id'))} · {len(p.get('parameters') or [])} parameters · "
        f"{_e(_bytes(p.get('bytes') or 0))}</li>"
        for p in pieces
    ]
    return f"<div>{head}<ul>{''.join(rows)}</ul></div>"


def _bytes(n: int) -> str:
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def _output_code_section(report: dict, cell: _Cell) -> str:
    outputs = report.get("output_code") or []
    if not outputs:
        return ""
    items = []
    for o in outputs:
        kernels = o.get("kernels") or []
        names = ", ".join(f"{_e(k.get('name'))} ({_e(k.get('language'))})" for k in kernels[:8])
        more = f", … {len(kernels) - 8} more" if len(kernels) > 8 else ""
        lines = len(str(o.get("source") or "").splitlines())
        items.append(
            f"<li>[{_e(o.get('compile_id'))}] {_e(o.get('kind'))}: {lines} lines of wrapper, "
            f"{len(kernels)} kernel{'s' if len(kernels) != 1 else ''}{': ' + names + more if names else ''}</li>"
        )
    return f"<h4>Inductor output code</h4><ul>{''.join(items)}</ul>"


def _logs(report: dict) -> str:
    logs = report.get("logs") or []
    if not logs:
        return ""
    rows = [
        [
            _e(r.get("level")),
            _e(r.get("compile_id") or ""),
            _e(r.get("logger")),
            f'<span class="dx-mono">{_one_line(r.get("message"), 300)}</span>',
        ]
        for r in logs
    ]
    table = _table(["level", "compile id", "logger", "message (first line)"], rows, "log records", MAX_LOGS)
    return _details(f"<b>torch logs ({len(logs)})</b>", table)


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
    callees = report.get("callees") or []
    compiled = [callee_text(c) for c in callees if c.get("compiled")]
    plain = [callee_text(c) for c in callees if not c.get("compiled") and RUNS_PLAIN in (c.get("why") or "")]
    rows = [
        f'{label} <span class="dx-mono">{_e(" · ".join(items))}</span>'
        for label, items in (("compiled", compiled), ("ran plain", plain))
        if items
    ]
    trace = report.get("trace")
    if trace:  # read from a structured trace: which log, and what it does not hold
        missing = "; ".join(f"{m['what']}" for m in trace.get("missing") or [])
        caches = Counter(f"{c['cache']} {c['status']}" for c in trace.get("caches") or [])
        rows.append(
            f"read from the structured trace {_e(', '.join(log['path'] for log in trace.get('logs') or []))}"
            + (f" (rank {trace['rank']})" if trace.get("rank") is not None else "")
            + (f" · caches: {_e(', '.join(f'{n} {k}' for k, n in caches.items()))}" if caches else "")
            + (f" · not in the trace: {_e(missing)}" if missing else "")
        )
    what = f'<div class="dx-meta">{" · ".join(rows)}</div>' if rows else ""
    return f'<div><b>Dynamo Explorer</b> · {_e(one_line(report))}</div><div class="dx-meta">{" · ".join(meta)}</div>{what}'


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
    for r in report.get("resets") or []:
        out.append(f'<div class="dx-banner">torch._dynamo.reset(): {_e(r.get("message"))}</div>')
    carried = [
        f"[{_e(f.get('compile_id'))}] {_e((f.get('code') or {}).get('name'))}: "
        + "; ".join(_dynamic_text(d) for d in f.get("automatic_dynamic") or [] if d.get("marked_in") is None)
        for f in report.get("frames") or []
        if any(d.get("marked_in") is None for d in f.get("automatic_dynamic") or [])
    ]
    if carried:
        out.append(
            '<div class="dx-banner">Dynamic from an earlier run: Dynamo\'s automatic dynamic shapes remember, per '
            "code and for the whole process, which inputs changed size, so these frames started symbolic and the "
            "recompile an earlier run went through does not happen again (run with --fresh to start this code from "
            "a clean slate): " + " · ".join(carried) + "</div>"
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
    body = [_frame_head(frame, cell)]
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


def _frame_head(frame: dict, cell: _Cell) -> str:
    """What the frame's title and the guards pane's reasons say in the JupyterLab view: why it was recompiled
    (each old entry's reason and every guard of it that failed), the automatic-dynamic decision that led to,
    why its compile failed."""
    out = []
    for r in frame.get("recompile_reasons") or []:
        prev = f" (guard of [{_e(r['failed_compile_id'])}] failed)" if r.get("failed_compile_id") else ""
        out.append(
            f'<div class="dx-banner dx-warn">recompile{prev}: <span class="dx-mono">{_e(r.get("reason"))}</span>'
            f"{_failures(frame, r, cell)}</div>"
        )
    marked = [d for d in frame.get("automatic_dynamic") or [] if d.get("marked_in") == frame.get("compile_id")]
    if marked:
        said = "; ".join(
            _dynamic_text(d) + (f", was {_e(d['was'])}" if d.get("was") else "") + _decision(frame, d, cell) for d in marked
        )
        out.append(f'<div class="dx-banner">automatic dynamic: this compile marked {said}</div>')
    if frame.get("fail_type") or frame.get("fail_reason"):
        reason = str(frame.get("fail_reason") or "")
        out.append(
            '<div class="dx-banner dx-error">'
            + _details(f"compile failed: <b>{_e(frame.get('fail_type'))}</b>: {_one_line(reason)}", _pre(reason))
            + "</div>"
        )
    return "".join(out)


def _failures(frame: dict, reason: dict, cell: _Cell) -> str:
    """Every guard of the old entry that failed (``recompile_reasons[].failures``, minor 6) as a table: guard,
    value and what failed, expected, actual, line; the one Dynamo's reason names is marked. Nothing for an
    older report; the note when the list is empty or incomplete."""
    failures = reason.get("failures")
    if failures is None:
        return ""
    rows = []
    for f in failures:
        what = _failure_what(f)
        mark = ' <span class="dx-meta">(Dynamo\'s reason)</span>' if f.get("in_reason") else ""
        named = f.get("source") and str(f.get("source")) not in what  # the check names its value: once is enough
        source = f'<span class="dx-mono dx-nowrap">{_e(f.get("source"))}</span> ' if named else ""
        rows.append(
            [
                _e(f.get("guard_type")) + mark,
                f'{source}<span class="dx-meta">{_e(what)}</span>',
                f'<span class="dx-mono">{_e(f.get("expected"))}</span>',
                f'<span class="dx-mono">{_e(f.get("actual") if f.get("actual") is not None else "?")}</span>',
                cell.where((frame.get("code") or {}).get("filename"), f.get("line")),
            ]
        )
    out = ""
    if rows:
        old = f"[{_e(reason['failed_compile_id'])}]" if reason.get("failed_compile_id") else "the old entry"
        n = len(rows)
        out += f'<div class="dx-meta">{n} guard{"s" if n != 1 else ""} of {old} failed for this call:</div>'
        out += _table(["guard", "value", "expected", "actual", "line"], rows, "failing guards")
    if reason.get("failures_note"):
        out += f'<div class="dx-meta">{_e(reason["failures_note"])}</div>'
    return out


def _failure_what(f: dict) -> str:
    """What failed, in a few words (``labextension/src/guardsModel.ts`` ``failureWhat``): ``dtype mismatch``,
    ``grad_mode changed``, ``is another object`` (ID_MATCH), ``has another type`` (TYPE_MATCH), else the check."""
    if f.get("property"):
        return f"{f['property']} {'mismatch' if f.get('guard_type') == 'TENSOR_MATCH' else 'changed'}"
    return {"ID_MATCH": "is another object", "TYPE_MATCH": "has another type"}.get(
        str(f.get("guard_type")), str(f.get("check") or "")
    )


def _decision(frame: dict, d: dict, cell: _Cell) -> str:
    """What led this compile to mark input ``d`` dynamic, and the symbols it compiled with, escaped:
    `` — after [0/0]: size mismatch on L['x']; [0/1] compiled with s77 = L['x'].size()[0]``
    (``labextension/src/guardsModel.ts`` ``dynamicDecisions``)."""
    source = d.get("source")
    found: tuple[dict, dict] | None = None
    for r in frame.get("recompile_reasons") or []:
        for f in r.get("failures") or []:
            if f.get("source") == source and (found is None or (f.get("in_reason") and not found[1].get("in_reason"))):
                found = (r, f)
    reason = found[0] if found else next(iter(frame.get("recompile_reasons") or []), None)
    parts = []
    if reason is not None:
        what = ""
        if found:
            f = found[1]
            plain = f.get("property") or f.get("guard_type") in ("ID_MATCH", "TYPE_MATCH")
            what = f"{_failure_what(f)} on {source}" if plain else f"{f.get('check')} failed"
        after = f"after [{reason['failed_compile_id']}]" if reason.get("failed_compile_id") else "after a recompile"
        parts.append(f"{after}: {what}" if what else after)
    cid = frame.get("compile_id")
    symbols = [
        f"{s.get('symbol')} = {s.get('source')}"
        for s in cell.report.get("symbols") or []
        if s.get("compile_id") == cid and (s.get("source") == source or str(s.get("source")).startswith(f"{source}.size()["))
    ]
    if symbols:
        parts.append(f"[{cid}] compiled with {', '.join(symbols)}")
    return f" — {_e('; '.join(parts))}" if parts else ""


def _dynamic_text(d: dict) -> str:
    """One input automatic dynamic holds dynamic, escaped: ``L['x'] dim 0 (size (?, 3))``, ``L['n'] (any value)``."""
    if d.get("kind") == "scalar":
        return f'<span class="dx-mono">{_e(d.get("source"))}</span> (any value)'
    dims = d.get("dims") or []
    where = "dim " + ", ".join(str(int(x)) for x in dims) if dims else "every dim"
    return f'<span class="dx-mono">{_e(d.get("source"))}</span> {where} ({_e(d.get("now"))})'


def _cell_source(report: dict, cell: _Cell) -> str:
    """The cell's source, numbered as the report numbers it, each graph-break line marked (the break's
    reason in its ``title`` and in a numbered note under the listing); the line that raised too."""
    marks: dict[int, list[tuple[int, str]]] = {}
    notes: list[str] = []
    seen: dict[tuple, int] = {}
    for frame in report.get("frames") or []:
        for b in frame.get("graph_breaks") or []:
            line, inside = b.get("line"), False
            if b.get("filename") not in (None, cell.filename):  # the break is in a callee: mark the cell's call
                calls = [s for s in b.get("user_stack") or [] if s.get("filename") == cell.filename]
                line, inside = (calls[-1].get("line") if calls else None), True
            key = (line, b.get("filename"), b.get("line"), b.get("gb_type"), b.get("reason"))
            if key in seen:
                notes[seen[key] - 1] += f", [{_e(frame.get('compile_id'))}]"
                continue
            why = str(b.get("gb_type") or "graph break")
            if b.get("reason") and b.get("reason") != b.get("gb_type"):
                why += f": {str(b['reason']).splitlines()[0]}"
            where = f" (in {cell.place(b.get('filename'), b.get('line'))})" if inside else ""
            explained = _plain_line(b.get("explanation"), 160).rstrip(".")
            at = f"line {line}: " if isinstance(line, int) else ""
            notes.append(
                f"{_e(at)}<b>{_e(why)}</b>{_e(where)}"
                + (f" ({_e(b['gb_id'])})" if b.get("gb_id") else "")
                + (f". {_e(explained)}." if explained else "")
                + f" [{_e(frame.get('compile_id'))}]"
            )
            seen[key] = len(notes)
            if isinstance(line, int):
                title = f"graph break {len(notes)}: {why}{where}" + (f". {explained}." if explained else "")
                marks.setdefault(line, []).append((len(notes), title))
    err = report.get("error") or {}
    if isinstance(err.get("line"), int):
        marks.setdefault(err["line"], []).append((0, f"{err.get('type')}: {err.get('message')}"))
    lines = cell.lines
    first = next((i for i, text in enumerate(lines) if text.strip()), len(lines))
    numbers = list(range(first + 1, len(lines) + 1))
    if len(numbers) > MAX_SOURCE_LINES:  # a long script: the lines around each mark (none: no listing)
        near = {n for m in marks for n in range(m - 3, m + 4)}
        numbers = [n for n in numbers if n in near]
    if not numbers:
        return ""
    width = len(str(max(numbers)))
    out, previous = [], first  # the line before the first one listed: a window further down starts with "…"
    for n in numbers:
        if n != previous + 1:
            out.append('<span class="dx-meta">…</span>')
        previous = n
        text = f"{n:>{width}}  {lines[n - 1]}".rstrip()
        here = marks.get(n)
        if not here:
            out.append(_e(text))
            continue
        tags = " ".join(
            f'<span class="dx-mark" title="{_e(title)}">◀ {"graph break " + str(i) if i else _e(title.split(":")[0])}</span>'
            for i, title in here
        )
        out.append(f'<span class="dx-hit">{_e(text)}</span>  {tags}')
    body = f'<pre class="dx-src">{chr(10).join(out)}</pre>'
    if notes:
        body += "<ol>" + "".join(f"<li>{n}</li>" for n in notes) + "</ol>"
    return f"<h4>{_e(PANE_TITLES['source'])}</h4>{body}"


def _source(frame: dict, cell: _Cell) -> str:
    """The excerpt of an earlier cell or a file a frame's code lives in (the cell's own code is not repeated)."""
    code = frame.get("code") or {}
    excerpt = None if code.get("in_cell") else cell.excerpt(code.get("filename"), code.get("firstlineno"))
    return "" if excerpt is None else _details(_e(excerpt[0]), _pre(excerpt[1]))


def _original_bytecode(frame: dict, cell: _Cell) -> str:
    return f"<h5>{_e(PANE_TITLES['original-bytecode'])}</h5>{_listing(frame.get('original_bytecode') or [])}"


def _modified_bytecode(frame: dict, cell: _Cell) -> str:
    """What the modified code does, not its listing: the graphs and resume functions it calls, in order."""
    rows = frame.get("modified_bytecode") or []
    calls = []
    for ins in rows:
        ref = ins.get("ref") or {}
        if ref.get("graph_id") is not None:
            calls.append(
                f'<li>calls <span class="dx-ref">graph {_e(ref["graph_id"])}</span> <code>{_e(ref.get("name"))}</code></li>'
            )
        elif ref.get("kind") == "resume" or ref.get("compile_id"):
            target = f"[{_e(ref['compile_id'])}]" if ref.get("compile_id") else "a resume function"
            calls.append(f'<li>calls <span class="dx-ref">{target}</span> <code>{_e(ref.get("name"))}</code></li>')
    head = f'<div class="dx-meta">{len(rows)} instructions (Dynamo\'s glue included)</div>' if rows else ""
    body = f"<ul>{''.join(calls)}</ul>" if calls else ""
    return f"<h5>{_e(PANE_TITLES['modified-bytecode'])}</h5>{head}{body}"


def _decompiled(frame: dict, cell: _Cell) -> str:
    if frame.get("decompiled_source"):
        return _details("decompiled modified code (depyf)", _pre(frame["decompiled_source"]))
    if frame.get("decompile_error"):  # one line, whatever depyf wrote (older reports hold its raw text)
        why = _plain_line(frame["decompile_error"], 200).removesuffix("; read the bytecode listing")
        return f'<div class="dx-meta">No decompiled source: {_e(why)} (the listing is in the JupyterLab view).</div>'
    return ""


def _listing(rows: list[dict]) -> str:
    """Bytecode as ``dis`` prints it (line, offset, opname, argument), as text: a third of a table's bytes."""
    if not rows:
        return '<div class="dx-meta">no instructions</div>'
    shown = rows[:MAX_INSTRUCTIONS]
    width = max(len(str(ins.get("offset"))) for ins in shown)
    name_width = min(max(len(str(ins.get("opname"))) for ins in shown), 24)
    out, last_line = [], None
    for ins in shown:
        line = ins.get("line")
        number = "" if line is None or line == last_line else str(line)
        last_line = line if line is not None else last_line
        jump = ">>" if ins.get("is_jump_target") else ""
        target = ins.get("jump_target")
        arg = str(ins.get("argrepr") or "")
        if target is not None and f"to {target}" not in arg:
            arg += f" → {target}"
        text = f"{number:>4} {jump:>2} {ins.get('offset')!s:>{width}} {ins.get('opname')!s:<{name_width}} {arg}".rstrip()
        out.append(_e(text))
    more = ""
    if len(rows) > len(shown):
        more = f'<div class="dx-meta">… {len(rows) - len(shown)} more instructions: {_FULL_VIEW}</div>'
    return f"<pre>{chr(10).join(out)}</pre>{more}"


def _guards(frame: dict, cell: _Cell) -> str:
    """The input guards (``L['x']``: what a call must match) as a table; the rest (globals, global state)
    counted by type in one line."""
    guards = frame.get("guards") or []
    inputs = [g for g in guards if str(g.get("source") or "").startswith("L[")]
    rows = [
        [
            _e(g.get("type")),
            f'<span class="dx-mono dx-nowrap">{_e(g.get("source"))}</span>',
            f'<span class="dx-mono">{_one_line((g.get("code") or [""])[0], 160)}</span>',
        ]
        for g in inputs
    ]
    out = f"<h5>{_e(PANE_TITLES['guards'])} ({len(guards)})</h5>" + _guard_diff(frame, cell)
    if rows:
        out += _table(["type", "input", "check"], rows, "input guards", MAX_GUARDS)
    rest: dict[str, int] = {}
    for g in guards:
        if g not in inputs:
            rest[str(g.get("type"))] = rest.get(str(g.get("type")), 0) + 1
    if rest:
        kinds = ", ".join(f"{n} {t}" if n > 1 else t for t, n in rest.items())
        out += f'<div class="dx-meta">{"and " if rows else ""}{sum(rest.values())} on globals and global state: {_e(kinds)}</div>'
    return out


def diff_guards(before: list[dict], after: list[dict]) -> dict[str, Any]:
    """Two compiles' guards, diffed as the JupyterLab view does (``labextension/src/guardsModel.ts``
    ``diffGuards``): guards match by kind and source; the same checks are unchanged, other checks make a
    changed guard (``(before, after, removed checks, added checks)``), a guard of one compile only is removed or
    added. Returns ``{"changed", "removed", "added", "unchanged"}``."""

    def key(g: dict) -> tuple[str, str]:
        return (str(g.get("type")), str(g.get("source")))

    pending: dict[tuple[str, str], list[dict]] = {}
    for g in before:
        pending.setdefault(key(g), []).append(g)
    unchanged, unmatched = 0, []
    for g in after:
        same = next((i for i, b in enumerate(pending.get(key(g), [])) if b.get("code") == g.get("code")), None)
        if same is None:
            unmatched.append(g)
        else:
            pending[key(g)].pop(same)
            unchanged += 1
    changed, added = [], []
    for g in unmatched:
        left = pending.get(key(g)) or []
        if left:
            b = left.pop(0)
            was, now = b.get("code") or [], g.get("code") or []
            changed.append((b, g, [c for c in was if c not in now], [c for c in now if c not in was]))
        else:
            added.append(g)
    removed = [g for g in before if any(g is p for p in pending.get(key(g), []))]
    return {"changed": changed, "removed": removed, "added": added, "unchanged": unchanged}


def _guard_diff(frame: dict, cell: _Cell) -> str:
    """The guards of a recompile against those of the compile whose guard failed, folded under its counts; the
    guards that failed are marked, and a compile whose guards were cut says so."""
    reasons = frame.get("recompile_reasons") or []
    frames = {f.get("compile_id"): f for f in cell.report.get("frames") or []}
    previous = next((frames[r["failed_compile_id"]] for r in reasons if r.get("failed_compile_id") in frames), None)
    if previous is None or previous is frame:
        return ""
    diff = diff_guards(previous.get("guards") or [], frame.get("guards") or [])
    failed = [
        g
        for g in previous.get("guards") or []
        for r in reasons
        if r.get("failed_compile_id") == previous.get("compile_id")
        for f in r.get("failures") or []
        if g.get("source") == f.get("source")
        and (f.get("check") in (g.get("code") or []) or (f.get("property") and g.get("type") == f.get("guard_type")))
    ]

    def text(g: dict) -> str:
        return f"{g.get('type')} {g.get('source')}: {' ; '.join(g.get('code') or [])}"

    def mark(g: dict) -> str:
        return "   ◀ failed" if any(g is x for x in failed) else ""

    lines = []
    for before, after, gone, new in diff["changed"]:
        lines.append(f"~ {after.get('type')} {after.get('source')}{mark(before)}")
        lines += [f"  - {c}" for c in gone] + [f"  + {c}" for c in new]
    lines += [f"- {text(g)}{mark(g)}" for g in diff["removed"]]
    lines += [f"+ {text(g)}" for g in diff["added"]]
    counts = [f"{len(diff[k])} {k}" for k in ("changed", "removed", "added") if diff[k]] + [f"{diff['unchanged']} unchanged"]
    cut = [
        str(d.get("message"))
        for d in cell.report.get("diagnostics") or []
        if d.get("kind") == "truncated" and d.get("compile_id") in (previous.get("compile_id"), frame.get("compile_id"))
    ]
    note = f'<div class="dx-meta">incomplete: {_e("; ".join(cut))}</div>' if cut else ""
    summary = f"diff vs guards of [{_e(previous.get('compile_id'))}]: {_e(', '.join(counts))}"
    return _details(summary, (_pre("\n".join(lines)) if lines else "") + note)


def _breaks(frame: dict, cell: _Cell) -> str:
    """A frame's graph breaks, one line each; their reasons and remedies are in the action list (``_break_list``)."""
    out = []
    for b in frame.get("graph_breaks") or []:
        gb = f" ({_e(b['gb_id'])})" if b.get("gb_id") else ""
        out.append(
            f'<div class="dx-break"><b>graph break{gb}: {_e(b.get("gb_type"))}</b> at {cell.where(b.get("filename"), b.get("line"))}'
            ' <span class="dx-meta">(what to do: the graph-break list)</span></div>'
        )
    return "".join(out)


def _break_rows(report: dict) -> list[dict[str, Any]]:
    """The graph-break action list of a report, as ``labextension/src/breakList.ts`` builds it: one row per
    distinct break across all frames and compiles (the same gb_type, file, line and reason), most costly
    first (the eager time ``--profile`` attributes to it, then how many times it ran, then how many compiles
    met it; ties in first-met order). Each row: ``gb`` (the first record), ``frames`` (compile ids, each once),
    ``count`` (records), ``ran`` (the sum of its frames' cache-entry hits, or None without a profile),
    ``eager`` (``[ms, ops, calls]`` or None)."""
    profile = report.get("profile") or {}
    hits: dict[str, float] = {}
    for e in profile.get("entries") or []:
        if isinstance(e, dict) and isinstance(e.get("compile_id"), str) and isinstance(e.get("hits"), (int, float)):
            hits[e["compile_id"]] = hits.get(e["compile_id"], 0) + e["hits"]
    eager: dict[tuple[str, int], list[float]] = {}
    for e in profile.get("eager") or []:
        if not isinstance(e, dict) or e.get("cause") != "graph_break":
            continue
        if isinstance(e.get("compile_id"), str) and isinstance(e.get("break_index"), int):
            cost = eager.setdefault((e["compile_id"], e["break_index"]), [0.0, 0.0, 0.0])
            for i, name in enumerate(("ms", "ops", "calls")):
                cost[i] += float(e.get(name) or 0)
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    for frame in report.get("frames") or []:
        cid = frame.get("compile_id")
        for i, b in enumerate(frame.get("graph_breaks") or []):
            key = (b.get("gb_type"), b.get("filename"), b.get("line"), b.get("reason"))
            row = rows.setdefault(key, {"gb": b, "frames": [], "count": 0, "ran": None, "eager": None})
            row["count"] += 1
            spent = eager.get((cid, i))
            if spent is not None:
                row["eager"] = [a + c for a, c in zip(row["eager"] or [0.0, 0.0, 0.0], spent, strict=True)]
            if cid not in row["frames"]:
                row["frames"].append(cid)
                if cid in hits:
                    row["ran"] = (row["ran"] or 0) + hits[cid]
    return sorted(
        rows.values(),
        key=lambda r: (-(r["eager"][0] if r["eager"] else -1), -(r["ran"] if r["ran"] is not None else -1), -len(r["frames"])),
    )


def _break_list(report: dict, cell: _Cell) -> str:
    """The graph-break action list (``_break_rows``): each distinct break once, most costly first, with where it
    is, how many compiles met it, how many times it ran and its eager cost (``--profile``), its reason and remedy."""
    rows = _break_rows(report)
    if not rows:
        return ""
    total = sum(r["count"] for r in rows)
    cell_label = str((cell.sources.get(cell.filename) or {}).get("label") or "")
    in_n = cell_label if re.fullmatch(r"In \[\d*\]", cell_label) else ""
    order = "most eager time first" if report.get("profile") else "most compiles first"
    items = []
    for r in rows:
        b = r["gb"]
        gb = f" ({_e(b['gb_id'])})" if b.get("gb_id") else ""
        where = cell.where(b.get("filename"), b.get("line"))
        if in_n and where and b.get("filename") in (None, cell.filename):
            where = f"{_e(in_n)}, {where}"
        cost = [f"{len(r['frames'])} compile{'s' if len(r['frames']) != 1 else ''}"]
        if r["ran"] is not None:
            cost.append(f"ran {_e(round(r['ran']))}×")
        if r["eager"]:
            ops = f" ({_e(round(r['eager'][1]))} ATen ops)" if r["eager"][1] else ""
            cost.append(f"{format_ms(r['eager'][0])} eager{ops}")
        frames = " ".join(f"[{_e(c)}]" for c in r["frames"])
        parts = [
            f"<b>{_e(b.get('gb_type'))}</b>{gb}{' at ' + where if where else ''}"
            f' · <span class="dx-badge dx-s-graph_break">{" · ".join(cost)}</span> <span class="dx-meta">in {frames}</span>'
        ]
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
        if len(stack) > 1:
            srows = [[_e(s.get("name")), cell.where(s.get("filename"), s.get("line"))] for s in stack]
            parts.append(_details("user stack", _table(["function", "where"], srows, "stack frames")))
        items.append(f'<li class="dx-break">{"".join(parts)}</li>')
    title = f"{_e(PANE_TITLES['graph-breaks'])}: what to fix first ({len(rows)} distinct, {total} in all, {order})"
    return f'<h4>{title}</h4><ol class="dx-breaks">{"".join(items)}</ol>'


def _graph_title(graph: dict) -> str:
    nodes = graph.get("nodes") or []
    return (
        f"<b>graph {_e(graph.get('id'))}</b> {_e(graph.get('kind'))} [{_e(graph.get('compile_id'))}]"
        + (f" {_e(graph['name'])}" if graph.get("name") else "")
        + f" · {len(nodes)} nodes"
    )


class _Pictures:
    """The FX pictures of one report: at most ``MAX_PICTURES``, and ``dot`` asked only until it is found missing."""

    def __init__(self) -> None:
        self.drawn = 0
        self.no_dot = False

    def draw(self, graph: dict) -> str:
        nodes = graph.get("nodes") or []
        if self.no_dot:
            return ""
        if len(nodes) > MAX_PICTURE_NODES:
            return f'<div class="dx-meta">No picture: {len(nodes)} nodes (the static view draws graphs of up to {MAX_PICTURE_NODES}).</div>'
        if self.drawn >= MAX_PICTURES:
            return f'<div class="dx-meta">No picture: the static view draws the first {MAX_PICTURES} graphs of a report.</div>'
        try:
            svg = fx_picture(graph)
        except NoDot:
            self.no_dot = True
            return ""
        except Exception as exc:  # noqa: BLE001 - a picture that cannot be drawn costs one line, not the view
            return f'<div class="dx-meta">No picture: dot failed ({_e(type(exc).__name__)}: {_one_line(exc)}).</div>'
        self.drawn += 1
        return f'<div class="dx-fx">{svg}</div>'


def _graph(graph: dict, cell: _Cell, pictures: _Pictures) -> str:
    nodes = graph.get("nodes") or []
    ops: dict[str, int] = {}
    for n in nodes:
        ops[str(n.get("op"))] = ops.get(str(n.get("op")), 0) + 1
    summary = f'<div class="dx-meta">{_e(", ".join(f"{v} {k}" for k, v in ops.items()))}</div>' if ops else ""
    picture = pictures.draw(graph)
    body = summary + picture
    if '<div class="dx-fx">' not in picture:  # no picture: the start of the graph's readable code stands in
        body += _details("readable code", _pre(cell.label_paths(graph.get("code")), MAX_PRE_CHARS // 2))
    return _details(_graph_title(graph), body, open_=True)


class NoDot(RuntimeError):
    """Graphviz's ``dot`` program (or the Python ``graphviz`` package that runs it) is not installed."""


#: What of dot's SVG the picture keeps: these elements, with these attributes (the ``class`` of a ``g``
#: says node / edge / graph, which the view's CSS colours for the theme).
_SVG_KEEP: dict[str, frozenset[str]] = {
    "svg": frozenset({"width", "height", "viewBox"}),
    "g": frozenset({"class", "transform"}),
    "polygon": frozenset({"points", "fill", "stroke"}),
    "polyline": frozenset({"points", "fill", "stroke"}),
    "ellipse": frozenset({"cx", "cy", "rx", "ry", "fill", "stroke"}),
    "path": frozenset({"d", "fill", "stroke"}),
    "text": frozenset({"x", "y", "text-anchor", "font-size"}),
}
_LABEL_CHARS = 22
# dot writes coordinates in points with two decimals: whole points draw the same at this size, in a third less text
_ROUNDED = frozenset({"points", "d", "x", "y", "cx", "cy", "rx", "ry"})
_NUMBER = re.compile(r"-?\d+\.\d+")


def _whole(number: re.Match[str]) -> str:
    return str(round(float(number[0])))


def _short(text: Any) -> str:
    text = str(text or "")
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def _label(node: dict) -> str:
    """Two short lines: the node's name, and what it calls (its target's last part) or its op."""
    name, op, target = str(node.get("name")), str(node.get("op")), str(node.get("target") or "")
    if op in ("placeholder", "output", "get_attr"):
        return _short(name) if op != "output" else "output"
    callee = target.rsplit(".", 1)[-1] if op == "call_function" else target
    return _short(name) + ("" if callee == name else "\n" + _short(callee))


def fx_picture(graph: dict) -> str:
    """The inline SVG of an FX graph (its nodes and their ``users`` edges), laid out by Graphviz's ``dot``
    and written again from ``_SVG_KEEP`` ([Note: escaping]); ``NoDot`` when ``dot`` cannot be run."""
    try:
        import graphviz
    except ImportError as exc:
        raise NoDot("the Python graphviz package is not installed") from exc
    nodes = graph.get("nodes") or []
    index = {n.get("name"): i for i, n in enumerate(nodes)}
    dot = graphviz.Digraph(
        graph_attr={"nodesep": "0.15", "ranksep": "0.22", "margin": "0"},
        node_attr={"shape": "box", "fontsize": "9", "height": "0.2", "margin": "0.05,0.02"},
        edge_attr={"arrowsize": "0.5"},
    )
    for i, n in enumerate(nodes):
        shape = {"placeholder": "ellipse", "output": "ellipse", "get_attr": "note"}.get(str(n.get("op")), "box")
        dot.node(f"n{i}", label=graphviz.escape(_label(n)), shape=shape)
    for i, n in enumerate(nodes):
        for user in n.get("users") or []:
            if user in index:
                dot.edge(f"n{i}", f"n{index[user]}")
    try:
        raw = dot.pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound as exc:
        raise NoDot(str(exc)) from exc
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", raw, count=1))
    return _svg(root)


def _svg(el: ET.Element) -> str:
    """One element of dot's SVG and its kept children, attributes and text escaped; others dropped."""
    tag = el.tag.rsplit("}", 1)[-1]
    keep = _SVG_KEEP.get(tag)
    if keep is None or (tag == "polygon" and el.get("fill") == "white"):  # unknown, or the page's white background
        return ""
    attrs = "".join(
        f' {name}="{_e(_NUMBER.sub(_whole, value) if name in _ROUNDED else value)}"'
        for name, value in el.attrib.items()
        if name in keep
    )
    if tag == "svg":
        attrs += ' role="img"'
    inner = _e(el.text.strip()) if tag == "text" and el.text else ""
    inner += "".join(_svg(child) for child in el)
    return f"<{tag}{attrs}>{inner}</{tag}>"


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
    out = "<h4>Dynamic shapes</h4>" + _table(head, rows, "symbols", MAX_GUARDS * 2)
    grows = [
        [
            _e(g.get("compile_id")),
            f'<span class="dx-mono">{_e(g.get("expr"))}</span>',
            cell.where(file_of.get(g.get("compile_id")), g.get("line")),
        ]
        for g in guards
    ]
    table = _table(["compile id", "guard", "line"], grows, "shape guards", MAX_GUARDS * 2)
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
    "profile": StaticSection(report=profile_section),
    "frames": StaticSection(report=_frames_section, frame=cudagraphs_frame),
    "source": StaticSection(report=_cell_source, frame=_source),
    "original-bytecode": StaticSection(frame=_original_bytecode, column=True),
    "modified-bytecode": StaticSection(frame=_modified_bytecode, column=True, below=_decompiled),
    "guards": StaticSection(frame=_guards, report=_shapes),
    "graph-breaks": StaticSection(report=_break_list, frame=_breaks),
    "trace-steps": StaticSection(report=trace_steps_section),
    "decisions": StaticSection(frame=decisions_section),
    "try-fix": StaticSection(report=try_fix_section),
    "dispatch": StaticSection(report=dispatch_section),
    "compile-time": StaticSection(frame=compile_time_section),
    "fx-graph": StaticSection(report=_graphs_section),
    "code": StaticSection(report=_output_code_section),
}

#: Panes the static view leaves out on purpose, each with the reason (a test requires one or the other).
ABSENT: dict[str, str] = {}
