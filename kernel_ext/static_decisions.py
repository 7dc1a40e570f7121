"""The static view's "Inline / skip decisions" part of each frame: ``frames[].decisions`` (schema minor 7) as a
plain nested list, no script.

The same tree as the JupyterLab pane (``labextension/src/panes/decisions.ts``, ``decisionsModel.ts``) with its
default filter: every call Dynamo met while tracing the frame except torch ops, builtins and other plain callees
that decided nothing (those stay in the report); each with the callee (``copy.deepcopy`` for a library's,
``helper`` for the cell's own), Dynamo's decision, the rule in Dynamo's words and where it was called, and a
call that broke the graph says which break. A library's inlined internals are folded into a ``<details>``.
A frame without decisions (an older report, or no call) gets no part.

Contents: ``decisions_section(frame, cell) -> str`` (a ``StaticSection.frame`` part), ``kept_tree(decisions)``
(the twin of ``buildTree(decisions, false)`` in decisionsModel.ts) and ``DECISIONS_CSS``. Every string from the
report goes through ``_e`` ([Note: escaping] in static_html.py).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from compiler.schema import PANE_TITLES

from .static_chart import escape as _e

__all__ = ["DECISIONS_CSS", "MAX_DECISION_ROWS", "decisions_section", "kept_tree"]

#: The most calls drawn per frame; the report keeps them all.
MAX_DECISION_ROWS = 200

#: Leaves that decide nothing a reader looks for (``QUIET`` in decisionsModel.ts).
_QUIET = frozenset({"in_graph", "builtin", "other"})
_ORDER = ("inline", "skip", "disabled", "allow_in_graph", "polyfill", "in_graph", "builtin", "other")

DECISIONS_CSS = (
    ".dx-decisions,.dx-decisions ul{list-style:none;margin:0;padding-left:14px}"
    ".dx-decisions details>summary{cursor:pointer}"
    ".dx-d{padding:0 4px;border:1px solid currentColor;border-radius:8px;font-size:90%}"
    ".dx-d-inline{color:var(--jp-success-color0,#1b5e20)}"
    ".dx-d-skip,.dx-d-disabled{color:var(--jp-warn-color0,#8a4b00)}"
    ".dx-d-allow_in_graph,.dx-d-polyfill{color:var(--jp-brand-color0,#0d47a1)}"
    ".dx-d-broke{background:var(--jp-warn-color3,#fff3e0)}"
)


Node = tuple[int, list["Node"]]


def kept_tree(decisions: list[dict[str, Any]]) -> list[Node]:
    """The call tree as (index, children), without quiet leaves unless they broke or hold shown calls."""
    children: list[list[Node]] = [[] for _ in decisions]
    roots: list[Node] = []
    for i, d in enumerate(decisions):
        parent = d.get("parent")
        node: Node = (i, children[i])
        if isinstance(parent, int) and 0 <= parent < i:
            children[parent].append(node)
        else:
            roots.append(node)
    return _prune(roots, decisions)


def _prune(nodes: list[Node], decisions: list[dict[str, Any]]) -> list[Node]:
    kept: list[Node] = []
    for i, kids in nodes:
        shown = _prune(kids, decisions)
        d = decisions[i]
        if shown or d.get("decision") not in _QUIET or d.get("outcome") != "ok":
            kept.append((i, shown))
    return kept


def _label(d: dict[str, Any], cell_file: Any) -> str:
    name, module = str(d.get("name") or "?"), d.get("module")
    if not module or module in ("__main__", "builtins") or name.startswith(f"{module}.") or d.get("filename") == cell_file:
        return name
    return f"{module}.{name}"


def decisions_section(frame: dict[str, Any], cell: Any) -> str:
    """The frame's decisions (module docstring); '' when it has none."""
    decisions = [d for d in frame.get("decisions") or [] if isinstance(d, dict)]
    if not decisions:
        return ""
    counts = Counter(d.get("decision") for d in decisions)
    summary = ", ".join(f"{k} {counts[k]}" for k in _ORDER if counts[k])
    breaks = frame.get("graph_breaks") or []
    budget = [MAX_DECISION_ROWS]

    def item(node: Node) -> str:
        i, kids = node
        if budget[0] <= 0:
            return ""
        budget[0] -= 1
        d = decisions[i]
        kind = str(d.get("decision"))
        broke = ""
        gb = d.get("graph_break")
        if d.get("outcome") == "graph_break" and isinstance(gb, int) and 0 <= gb < len(breaks):
            broke = f" · <b>graph break</b>: {_e(breaks[gb].get('gb_type'))}"
        elif d.get("outcome") == "raised":
            broke = f' · <span class="dx-meta">raised {_e(d.get("error"))}</span>'
        row = (
            f"<code>{_e(_label(d, cell.filename))}</code> "
            f'<span class="dx-d dx-d-{_e(kind)}">{_e(kind)}</span> '
            f'<span class="dx-meta">{_e(cell.label_paths(d.get("rule")))}</span> · {cell.where(d.get("call_filename"), d.get("call_line"))}'
            f"{broke}"
        )
        cls = ' class="dx-d-broke"' if broke and d.get("outcome") == "graph_break" else ""
        if not kids:
            return f"<li{cls}>{row}</li>"
        inner = "<ul>" + "".join(item(k) for k in kids) + "</ul>"
        mine = d.get("filename") == cell.filename or d.get("outcome") == "graph_break"
        return f"<li{cls}><details{' open' if mine else ''}><summary>{row}</summary>{inner}</details></li>"

    tree = "".join(item(n) for n in kept_tree(decisions))
    more = ""
    if budget[0] <= 0:
        more = f'<div class="dx-meta">… more calls: the report itself holds all {len(decisions)}</div>'
    title = _e(PANE_TITLES.get("decisions", "Inline / skip decisions"))
    return (
        f"<details><summary>{title} ({len(decisions)} calls: {_e(summary)})</summary>"
        f'<ul class="dx-decisions">{tree}</ul>{more}</details>'
    )
