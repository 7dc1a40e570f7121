"""Collector that installs the structured-trace stream every other collector reads (installed first)."""

from __future__ import annotations

import contextlib
from typing import Any

from ..model import CompileReport


class StreamCollector:
    name = "stream"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return ctx.stream

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        return None
