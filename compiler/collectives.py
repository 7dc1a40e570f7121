"""The collective ops a compile issues, in issue order, and the first place two ranks issue different ones.

Dynamo traces ``torch.distributed`` collectives in a compiled frame as functional collectives
(``torch.ops._c10d_functional.all_reduce(a, 'sum', '0')`` then ``wait_tensor``); the AOT graphs and inductor run
them in that order. Every rank must issue the same collectives in the same order: a rank that issues another op,
shape or reduce op at the same place hangs the job, or reduces the wrong tensors silently (gloo and nccl pair the
ranks' collectives by position, not by name). ``collectives(graphs)`` reads them from a compile's
latest graphs (AOT forward/inference then backward, else the Dynamo graph; the nodes carry shapes), and
``first_mismatch`` finds the first position where ranks differ. ``wait_tensor`` is the wait, not a collective.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["collectives", "describe", "first_mismatch", "signature"]

#: the namespaces of torch's collective ops: functional (Dynamo's, AOT's, inductor's) and c10d's own
_TARGET = re.compile(r"^(?:torch\.ops\.)?(?:_c10d_functional|c10d_functional|c10d)\.(?P<op>\w+?)(?:\.\w+)?$")
_NOT_COLLECTIVES = frozenset({"wait_tensor", "wait", "barrier_wait"})
#: the graphs read, by preference: what runs (AOT's), else what Dynamo traced
_STAGES = (("aot_forward", "aot_inference", "aot_backward"), ("dynamo",))
_LITERAL = re.compile(r"^(?:'[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?|\[[-\d, ]*\]|None|True|False)$")


def _op(target: str) -> str | None:
    m = _TARGET.match(target)
    if m is None:
        return None
    op = m.group("op").rstrip("_")  # all_reduce_ (in place) is the same collective on the wire as all_reduce
    return None if op in _NOT_COLLECTIVES else op


def _top_level(args: str) -> list[str]:
    """The top-level items of an FX node's args string ``(a, 'sum', '0')``."""
    inner = args.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(inner[start:i].strip())
            start = i + 1
    items.append(inner[start:].strip())
    return [s for s in items if s]


def collectives(graphs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The collectives of one compile (``graphs``: that compile's graphs, in the report's order), in issue order (the
    schema's ``Collective``)."""
    for kinds in _STAGES:
        staged = sorted((g for g in graphs if g["kind"] in kinds), key=lambda g: kinds.index(g["kind"]))
        if not staged:
            continue
        out = []
        for g in staged:
            for node in g["nodes"]:
                op = _op(str(node.get("target") or "")) if node["op"] == "call_function" else None
                if op is None:
                    continue
                literals = [a for a in _top_level(str(node.get("args") or "")) if _LITERAL.match(a)]
                out.append(
                    {
                        "op": op,
                        "shape": node.get("shape"),
                        "dtype": node.get("dtype"),
                        "args": ", ".join(literals),
                        "graph": g["kind"],
                        "node": node["name"],
                    }
                )
        return out
    return []


def signature(c: dict[str, Any]) -> tuple[Any, ...]:
    """What must be equal for two ranks' collectives at one position to pair up: the op, shape, dtype and its
    literal arguments (reduce op, group name, group size). Tensor names are each rank's own."""
    return (c["op"], tuple(c["shape"]) if isinstance(c["shape"], list) else c["shape"], c["dtype"], c["args"])


def describe(c: dict[str, Any] | None) -> str:
    """``all_reduce(float32[4], 'sum', '0')``; ``nothing`` for a position a rank does not reach."""
    if c is None:
        return "nothing"
    shape = f"{c['dtype'] or '?'}{list(c['shape']) if isinstance(c['shape'], list) else ''}"
    return f"{c['op']}({', '.join(s for s in (shape, c['args']) if s)})"


def first_mismatch(seqs: dict[int, list[dict[str, Any]]]) -> tuple[int, list[int]] | None:
    """The first position where a rank's collective differs from the lowest rank's, and the ranks that differ."""
    ranks = sorted(seqs)
    ref = ranks[0]
    for i in range(max((len(s) for s in seqs.values()), default=0)):
        at = {r: (signature(seqs[r][i]) if i < len(seqs[r]) else None) for r in ranks}
        odd = [r for r in ranks[1:] if at[r] != at[ref]]
        if odd:
            return i, odd
    return None
