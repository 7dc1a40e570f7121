"""Dynamo's recompile reasons (``'0/0: tensor 'x' size mismatch at index 0...'``) as ``RecompileReason`` rows: one
reader for a live run's recompiles collector and a trace's (``trace/panes.py``), importing no torch."""

from __future__ import annotations

import re

from ..model import RecompileReason

__all__ = ["split_reasons"]

_ENTRY = re.compile(r"^(?P<cid>(?:!\d+/)?\d+/\d+): (?P<reason>.*)$", re.S)


def split_reasons(items: list[str]) -> list[RecompileReason]:
    """One ``RecompileReason`` per ``'<old id>: <reason>'`` item (an item without an id keeps none), in order."""
    out = []
    for item in items:
        text = str(item).strip()
        m = _ENTRY.match(text)
        if m:
            out.append(RecompileReason(failed_compile_id=m.group("cid"), reason=m.group("reason").strip()))
        else:
            out.append(RecompileReason(failed_compile_id=None, reason=text))
    return out
