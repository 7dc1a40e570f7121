"""The static view's FX graph pane: a small picture of each Dynamo graph, one line per AOT graph and per DDP piece.

A picture is an SVG that Graphviz's ``dot`` lays out (the Python ``graphviz`` package runs it) for a graph of at
most ``MAX_PICTURE_NODES`` nodes, ``MAX_PICTURES`` a report; a bigger graph, or one past that count, shows the
start of its readable code instead, and a machine without ``dot`` gets one line saying how to install it (the
JupyterLab view and the widget lay graphs out in the browser, without it). dot's SVG is parsed and written again
from an allow-list of elements and attributes ([Note: escaping] in static_markup.py).

Contents: ``graphs_section(report, cell) -> str``; ``fx_picture(graph) -> str`` (raises ``NoDot``); ``NO_DOT``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from .static_markup import MAX_PRE_CHARS, details, one_line, pre
from .static_markup import escape as _e
from .static_source import Cell

__all__ = ["MAX_PICTURES", "MAX_PICTURE_NODES", "NO_DOT", "NoDot", "fx_picture", "graphs_section"]

#: FX graphs drawn as a picture: at most this many nodes each, at most this many pictures per report.
MAX_PICTURE_NODES = 60
MAX_PICTURES = 20

#: The one line shown instead of the pictures when Graphviz's ``dot`` cannot be run.
NO_DOT = (
    "No FX pictures here: they are drawn by Graphviz's <code>dot</code> program, which is not installed "
    "(<code>apt install graphviz</code>, <code>brew install graphviz</code> or <code>conda install graphviz</code>); "
    "the JupyterLab view draws them without it."
)


def graphs_section(report: dict, cell: Cell) -> str:
    """Each Dynamo graph (its op counts, its picture or the start of its code), DDPOptimizer's pieces, the AOT graphs."""
    graphs = report.get("graphs") or []
    if not graphs:
        return ""
    out = []
    pictures = _Pictures()
    lines = []
    for g in graphs:
        if g.get("kind") in ("dynamo", "dynamo_partial"):
            out.append(_graph(g, cell, pictures))
        elif str(g.get("kind")).startswith("aot_"):
            lines.append(f"<li>{_graph_title(g)}</li>")
    if pictures.no_dot:
        out.insert(0, f'<div class="dx-meta dx-nodot">{NO_DOT}</div>')
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
            return f'<div class="dx-meta">No picture: dot failed ({_e(type(exc).__name__)}: {one_line(exc)}).</div>'
        self.drawn += 1
        return f'<div class="dx-fx">{svg}</div>'


def _graph(graph: dict, cell: Cell, pictures: _Pictures) -> str:
    nodes = graph.get("nodes") or []
    ops: dict[str, int] = {}
    for n in nodes:
        ops[str(n.get("op"))] = ops.get(str(n.get("op")), 0) + 1
    summary = f'<div class="dx-meta">{_e(", ".join(f"{v} {k}" for k, v in ops.items()))}</div>' if ops else ""
    picture = pictures.draw(graph)
    body = summary + picture
    if '<div class="dx-fx">' not in picture:  # no picture: the start of the graph's readable code stands in
        body += details("readable code", pre(cell.label_paths(graph.get("code")), MAX_PRE_CHARS // 2))
    return details(_graph_title(graph), body, open_=True)


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
