"""Collector for the cache story of every compile: inductor's FX graph cache and AOTAutograd's cache, hit, miss or
bypass, and for a miss what differs from the nearest earlier entry of the same code ([Note: cache story] in
``cache_story.py``). The records are read from the run's structured-trace stream (``stream.py``, open while an
AOT-based backend compiles), with the reader a structured trace's ``open`` uses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ...model import CompileReport
from ..base import CaptureContext, Collector
from ..stream import StreamCollector
from .cache_story import CACHE_EVENTS, attach, cache_line, read
from .caches_torch import aot_components

__all__ = ["CachesCollector"]


class CachesCollector(Collector):
    name = "caches"
    # records; their frames; the Dynamo graphs' Sym placeholders. A guard miss's hints are report.symbols, which the
    # dynamic_shapes collector (before this one in the registry) writes when it runs: without it, not evaluated
    requires = ("stream", "frames", "fx_graphs")

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        with aot_components():
            yield

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        attach(report, read(ctx.get(StreamCollector).stream.named(*CACHE_EVENTS)))
        for frame in report.frames:
            frame.cache_story = cache_line(frame.caches) or None
