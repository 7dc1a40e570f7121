"""Which compile of one run is which compile of another: two runs' compiles paired by function, never by line.

``align_compiles(a, b)`` pairs ``CompileFacts`` of two reports:
1. by function: the code's name and file (its base name), resume functions without their line;
2. what is left, by the code's name alone (the same script saved as v2.py, a notebook's cell under another name);
3. within one function, by the order of its compiles: ``align`` matches equal compiles first (a recompile added
   in the middle shifts nothing after it), the rest in order.
A compile on one side only is paired with None. The pairs come in the newer side's compile order (B), each compile
of A alone after the compile of A before it.

``align`` is also how the ranks of one job are paired (``compiler/ranks.py``: by compile id): one alignment engine for
ranks and runs.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from .facts import CompileFacts

__all__ = ["Pair", "align", "align_compiles"]

T = TypeVar("T")
Pair = tuple[CompileFacts | None, CompileFacts | None]


def align(a: Sequence[T], b: Sequence[T], key: Callable[[T], Hashable]) -> list[tuple[T | None, T | None]]:
    """``a`` and ``b`` paired in order: items with equal keys first (difflib's matching blocks), the items between two
    matches position by position, what is left over with None."""
    ka, kb = [key(x) for x in a], [key(y) for y in b]
    if ka == kb:  # the common case, and the only cheap one for 10,000s of compiles
        return list(zip(a, b, strict=True))
    out: list[tuple[T | None, T | None]] = []
    for _tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        n = max(i2 - i1, j2 - j1)
        out.extend((a[i1 + k] if i1 + k < i2 else None, b[j1 + k] if j1 + k < j2 else None) for k in range(n))
    return out


def _signature(c: CompileFacts) -> Hashable:
    return (c.status, c.graph, tuple(br.key for br in c.breaks))


def align_compiles(a: list[CompileFacts], b: list[CompileFacts]) -> list[Pair]:
    """Every compile of ``a`` and ``b``, paired by function (see the module's docstring)."""

    def groups(cs: list[CompileFacts]) -> dict[tuple[str, str], list[CompileFacts]]:
        out: dict[tuple[str, str], list[CompileFacts]] = {}
        for c in cs:
            out.setdefault((c.function, c.filename), []).append(c)
        return out

    ga, gb = groups(a), groups(b)
    matched = [(k, k) for k in ga if k in gb]
    left_a = [k for k in ga if k not in gb]
    left_b = [k for k in gb if k not in ga]
    for ka in left_a:  # the same function in a file of another name
        kb = next((k for k in left_b if k[0] == ka[0]), None)
        if kb is not None:
            matched.append((ka, kb))
            left_b.remove(kb)
    pairs: list[Pair] = []
    for ka, kb in matched:
        found = align(ga[ka], gb[kb], _signature)
        pairs.extend(found)
    done_a = {ka for ka, _ in matched}
    done_b = {kb for _, kb in matched}
    pairs.extend((c, None) for k in ga if k not in done_a for c in ga[k])
    pairs.extend((None, c) for k in gb if k not in done_b for c in gb[k])
    return _in_order(pairs, a)


def _in_order(pairs: list[Pair], a: list[CompileFacts]) -> list[Pair]:
    """``pairs`` in B's compile order; a compile of A alone right after the pair of the compile of A before it."""
    place: dict[int, float] = {}  # A's index -> where its pair stands
    for x, y in pairs:
        if x is not None and y is not None:
            place[x.index] = y.index
    last = -1.0
    for c in a:  # A's compiles alone: after their predecessor in A, in A's order
        if c.index in place:
            last = place[c.index]
        else:
            last += 1e-6
            place[c.index] = last

    def at(p: Pair) -> tuple[float, int]:
        x, y = p
        return (float(y.index), 1) if y is not None else (place[x.index] if x is not None else 0.0, 0)

    return sorted(pairs, key=at)
