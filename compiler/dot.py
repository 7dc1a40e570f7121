"""Graphviz DOT text for a graph's nodes, built with the ``graphviz`` package (no ``dot`` binary).

The browser lays the DOT out with WebAssembly graphviz; nodes are coloured by FX op and carry
``name | target | shape dtype`` so the picture reads like the node table.
"""

from __future__ import annotations

import graphviz

from .model import Node

_FILL = {
    "placeholder": "#cfe2ff",
    "get_attr": "#e2d9f3",
    "call_function": "#d1e7dd",
    "call_method": "#fff3cd",
    "call_module": "#f8d7da",
    "output": "#e9ecef",
}


def graph_dot(nodes: list[Node], name: str = "G") -> str:
    g = graphviz.Digraph(name)
    g.attr("graph", rankdir="TB")
    g.attr("node", shape="box", style="rounded,filled", fontname="monospace", fontsize="10")
    for n in nodes:
        meta = f"{n.shape} {n.dtype}" if n.shape is not None else (n.dtype or "")
        label = "\n".join(p for p in (n.name, n.target if n.op not in ("placeholder", "output") else n.op, meta) if p)
        g.node(n.name, label=label, fillcolor=_FILL.get(n.op, "#ffffff"), tooltip=f"{n.op} {n.target}")
    for n in nodes:
        for user in n.users:
            g.edge(n.name, user)
    return g.source
