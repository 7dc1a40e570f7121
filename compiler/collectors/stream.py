"""Collector that owns the structured-trace stream (installed first).

The stream listens only while an AOT-based backend compiles (``CaptureContext.backend_window`` and
lazy backward compiles, [Note: zero-cost capture] in base.py); only AOT graphs and inductor's output
code are read from it. This collector guarantees its handler is gone when the run ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..model import CompileReport


class StreamCollector:
    name = "stream"
    requires: tuple[str, ...] = ()

    @contextlib.contextmanager
    def install(self, ctx: Any) -> Iterator[None]:
        try:
            yield
        finally:
            ctx.close_stream()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        return None
