"""What an exported program checks of its inputs when called (``ExportedProgram.module()`` checks them before it
runs), built from the user inputs' sizes and the program's ranges: one builder for a live run
(``exports_torch.checks`` reads an ``ExportedProgram``) and a trace (``exports_trace`` reads its printout).

Each size export specialized is a ``static`` check (``x.shape[1] == 8``); the first size of a symbol is its ``range``
(``2 <= x.shape[0] <= 64``); a later size of the same symbol, or one derived from a symbol seen before and without a
range of its own, is ``equal`` (``y.shape[0] == x.shape[0]``); the shape guards export kept come last (``guard``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["Size", "input_checks"]

#: one dimension's size: an int (specialized) or its symbolic expression (``s77``, ``2*s77``)
Size = int | str


def input_checks(
    inputs: Sequence[tuple[str, Sequence[Size]]],
    ranges: dict[str, tuple[int | None, int | None]],
    guards: Sequence[str] = (),
) -> list[tuple[str, str, str | None]]:
    """``(kind, expr, input)`` for each check, in input order: ``inputs`` are the user inputs with their sizes,
    ``ranges`` each symbol's bounds (None: unbounded), ``guards`` the kept shape guards as Python."""
    out: list[tuple[str, str, str | None]] = []
    place: dict[str, str] = {}  # each symbol -> the first input dimension it stands for
    for name, sizes in inputs:
        for d, size in enumerate(sizes):
            here = f"{name}.shape[{d}]"
            if isinstance(size, int):
                out.append(("static", f"{here} == {size}", name))
            elif size in ranges and size not in place:
                place[size] = here
                lo, hi = ranges[size]
                out.append(
                    ("range", (f"{lo} <= " if lo is not None else "") + here + (f" <= {hi}" if hi is not None else ""), name)
                )
            else:
                other = size
                for s in sorted(place, key=len, reverse=True):  # s77 before s7
                    other = re.sub(rf"\b{re.escape(s)}\b", place[s], other)
                out.append(("equal", f"{here} == {other}", name))
    out += [("guard", g, None) for g in guards]
    return out
