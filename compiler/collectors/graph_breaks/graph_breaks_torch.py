"""torch's graph-break registry (``GBxxxx`` ids with their type, explanation and hints), read for
``collectors/graph_breaks/graph_breaks.py``.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["gb_registry"]


@lru_cache(maxsize=1)
def gb_registry() -> dict[str, dict[str, Any]]:
    """``GBxxxx -> {Gb_type, Context, Explanation, Hints}`` from torch's graph-break registry, the file found beside
    torch without importing it (a trace is read with no torch loaded)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        return {}
    try:
        text = (Path(spec.origin).parent / "_dynamo" / "graph_break_registry.json").read_text()
    except OSError:
        return {}
    data = json.loads(text)
    return {gid: (entries[0] if isinstance(entries, list) and entries else entries) for gid, entries in data.items()}
