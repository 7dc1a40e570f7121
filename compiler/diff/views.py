"""Both sides of a pair of compiles that differ, as the diff view draws them side by side (the schema's
``FramePair.view``): each side's compile id, the function's source with its graph breaks marked, its guards and its
Dynamo graphs' canonical lines (``facts.py``). The view compares them line by line; the differences themselves are
``compare.py``'s.

Only the first ``MAX_VIEWS`` pairs that differ get one (in B's compile order), and each side keeps at most
``MAX_GUARDS`` guards and ``MAX_GRAPH_LINES`` graph lines, saying how many it left out: a diff of two torch versions
differs in every compile's global-state guard, and the view must not hold both runs whole.
"""

from __future__ import annotations

from typing import Any

from .align import Pair
from .facts import CompileFacts, base_name, guard_line

__all__ = ["MAX_GRAPH_LINES", "MAX_GUARDS", "MAX_VIEWS", "pair_view"]

MAX_VIEWS = 100
MAX_GUARDS = 500
MAX_GRAPH_LINES = 2_000


def _side(c: CompileFacts | None) -> dict[str, Any] | None:
    if c is None:
        return None
    guards = [guard_line(g) for g in c.guards]
    return {
        "compile_id": c.compile_id,
        "source": (
            {"filename": c.source.filename, "first_line": c.source.first_line, "lines": list(c.source.lines)}
            if c.source is not None
            else None
        ),
        "breaks": [
            {
                "filename": base_name(b.filename or "") or None,
                "line": b.line,
                "gb_type": b.gb_type,
                "reason": b.reason,
            }
            for b in c.breaks
        ],
        "guards": guards[:MAX_GUARDS],
        "guards_left_out": max(0, len(guards) - MAX_GUARDS),
        "graph": list(c.graph[:MAX_GRAPH_LINES]),
        "graph_left_out": max(0, len(c.graph) - MAX_GRAPH_LINES),
    }


def pair_view(pair: Pair) -> dict[str, Any]:
    """The ``FramePair.view`` of one pair: ``{"a": side or None, "b": side or None}``."""
    return {"a": _side(pair[0]), "b": _side(pair[1])}
