"""A diff of two runs (``compiler.diff``) as static HTML, no script: the ``text/html`` of a diff shown in a notebook
(what a frontend without the explorer shows, and a saved notebook's HTML export), and what the ``--html`` page of
``dynamo-explorer diff`` shows before its script draws the diff view (``export.diff_page``; a reader with scripts off).

``render(diff)`` is the fragment. What it shows, in the terminal summary's order
(``dynamo_explorer/diff_cmd.py``): both sides, each confounding setting, the first difference, a table of every pair
of compiles (A's id, B's, the function, what differs), then each pair that differs with its differences, what was
added, removed and changed, and a graph's canonical diff. Markup and style are the static report view's (``static_markup``).
"""

from __future__ import annotations

from typing import Any

from .static_markup import CSS, details, pre, table
from .static_markup import escape as _e

__all__ = ["render"]

_DIFF_CSS = """
.dx-diff .dx-add { color: #1a7f37; } .dx-diff .dx-del { color: #cf222e; }
.dx-diff ul { margin: 2px 0 6px 18px; padding: 0; list-style: none; } .dx-diff h5 { margin: 10px 0 2px; }
"""


def _side(name: str, s: dict[str, Any]) -> list[str]:
    return [
        name,
        _e(s["source"]),
        _e(s["torch_version"]),
        _e(s["python_version"]),
        _e(s["backend"]),
        _e(s["device"]),
        _e(s["frames"]),
        _e(s["graphs"]),
        _e(s["graph_breaks"]),
        _e(s["recompiles"]),
        f"{float(s['compile_s']):.2f} s",
    ]


def _rows(d: dict[str, Any]) -> str:
    items = [f'<li class="dx-add">+ {_e(r)}</li>' for r in d["added"]]
    items += [f'<li class="dx-del">- {_e(r)}</li>' for r in d["removed"]]
    items += [f"<li>~ {_e(r)}</li>" for r in d["changed"]]
    return f"<ul>{''.join(items)}</ul>" if items else ""


def render(diff: dict[str, Any]) -> str:
    """The diff as an HTML fragment (styles included)."""
    a, b = diff["sides"]
    parts = [f'<div class="dx-report dx-diff"><style>{CSS}{_DIFF_CSS}</style>']
    head = ["", "source", "torch", "Python", "backend", "device", "frames", "graphs", "graph breaks", "recompiles", "compile"]
    parts.append(table(head, [_side("A", a), _side("B", b)], "sides"))
    for c in diff["confounded"]:
        parts.append(
            f'<div class="dx-banner dx-warn">confounded: {_e(c["setting"])} {_e(c["a"])} vs {_e(c["b"])}: '
            "a difference below may come from it</div>"
        )
    if diff["first_difference"]:
        parts.append(f'<div class="dx-banner dx-warn"><b>first difference</b>: {_e(diff["first_difference"])}</div>')
    else:
        parts.append('<div class="dx-banner">the same compile story</div>')
    rows = [
        [
            _e(p["a"] or "–"),
            _e(p["b"] or "–"),
            f'{_e(p["function"])} <span class="dx-meta">{_e(p["filename"])}</span>',
            _e(", ".join(d["kind"] for d in p["differences"] + p["costs"]) or "alike"),
        ]
        for p in diff["frames"]
    ]
    parts.append(table(["A", "B", "function", "differs"], rows, "compiles"))
    for p in diff["frames"]:
        shown = p["differences"] + p["costs"]
        if not shown:
            continue
        ids = f"A [{p['a']}] → B [{p['b']}]" if p["a"] and p["b"] else f"only in {'B' if p['b'] else 'A'}"
        parts.append(f"<h5>{_e(p['function'])} ({_e(p['filename'])}): {_e(ids)}</h5>")
        for d in shown:
            body = _rows(d) + (details("the graphs, node by node", pre(d["detail"])) if d["detail"] else "")
            parts.append(f"<div><b>{_e(d['kind'])}</b>: {_e(d['summary'])}{body}</div>")
    n = diff["differences"]
    said = f"{n} difference{'s' if n != 1 else ''} of the story" if n else "the same compile story"
    parts.append(f'<div class="dx-meta">{said}; written by dynamo-explorer diff</div></div>')
    return "".join(parts)
