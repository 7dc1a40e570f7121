"""The collectors, one per artifact kind (``registry.py``: the registry and the order they run in), and the trace
path's builders they share with it.

Importing this package imports none of them: a live run imports the registry (``compiler.runner``), reading a trace
only the builders it needs (``compiler.trace``), which import no torch. The registry's names are still reachable
here (``from compiler.collectors import REGISTRY``), imported when first named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import CaptureContext, CodeRecord, Collector
    from .registry import DEFAULT_COLLECTORS, REGISTRY, ordered

_NAMES = {
    "DEFAULT_COLLECTORS": ".registry",
    "REGISTRY": ".registry",
    "ordered": ".registry",
    "CaptureContext": ".base",
    "CodeRecord": ".base",
    "Collector": ".base",
}


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        import importlib

        return getattr(importlib.import_module(_NAMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_COLLECTORS", "REGISTRY", "CaptureContext", "CodeRecord", "Collector", "ordered"]
