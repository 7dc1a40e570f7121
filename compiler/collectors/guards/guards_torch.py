"""The torch side of reading a guard tree a line at a time (guards.py ``read_tree``, [Note: a guard tree never whole]).

``write_tree(manager, sink)`` runs torch's own ``GuardManagerWrapper.__str__`` (the text ``TORCH_LOGS=guards``
prints) with the buffer it writes into taking ``sink`` for its list of lines: every line goes to ``sink.append`` as
torch makes it, and nothing is joined. The buffer class is torch's (``IndentedBufferWithPrefix``), swapped in
``torch._dynamo.guards`` for the length of the call and put back in ``finally``. False, and nothing written, when this
torch's wrapper or buffer is not the one this reads (``read_tree`` then calls ``str``).
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["write_tree"]


def write_tree(manager: Any, sink: Any) -> bool:
    """Write ``str(manager)``'s lines to ``sink.append`` without joining them; False: not this way on this torch."""
    import torch._dynamo.guards as guards_mod

    buffer = getattr(guards_mod, "IndentedBufferWithPrefix", None)
    wrapper = getattr(guards_mod, "GuardManagerWrapper", None)
    if buffer is None or wrapper is None or type(manager).__str__ is not wrapper.__str__:
        return False
    if not isinstance(getattr(buffer(), "_lines", None), list):
        return False

    owner = threading.get_ident()

    class Streamed(buffer):  # type: ignore[misc, valid-type]
        """torch's buffer; in the calling thread only, its lines go to ``sink`` (another thread printing a tree while
        this one reads gets its text as ever)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if threading.get_ident() == owner:
                self._lines = sink

        def getvalue(self) -> str:
            return "" if self._lines is sink else str(super().getvalue())

    guards_mod.IndentedBufferWithPrefix = Streamed  # type: ignore[misc]
    try:
        str(manager)
    finally:
        guards_mod.IndentedBufferWithPrefix = buffer  # type: ignore[misc]
    return True
