"""Collector that owns the structured-trace stream: ``torch.__trace`` records, read by AOT graphs and output code.

The stream listens only while an AOT-based backend compiles (``backend_window`` and lazy backward
compiles; [Note: zero-cost capture] in base.py): only AOT graphs and inductor's output code are read
from it (``ctx.get(StreamCollector).stream``). Its ``chromium_event`` records drive the finer phases of
the live progress line (AOT, inductor codegen). Its handler is gone when the run ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

from ..events import StructuredStream, TraceEvent
from ..model import CompileReport
from .base import CaptureContext, Collector

_PHASES = (  # chromium_event name prefix -> what the progress line says
    ("bytecode_tracing", "tracing"),
    ("compile_attempt", "tracing"),
    ("build_guards", "guards"),
    ("aot", "AOT"),
    ("create_aot_dispatcher", "AOT"),
    ("inductor", "inductor codegen"),
    ("code_gen", "inductor codegen"),
    ("compile_file", "inductor codegen"),
    ("Scheduler", "inductor codegen"),
    ("GraphLowering", "inductor codegen"),
    ("backend_compile", "backend"),
)


class StreamCollector(Collector):
    name = "stream"

    def __init__(self) -> None:
        self.stream = StructuredStream()
        self._depth = 0
        self._ctx: CaptureContext | None = None

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        from .._compat import current_trace_id  # a live run's: importing this module imports no torch

        accept = lambda: ctx.watches(current_trace_id()[0])  # noqa: E731 - one line, used once
        if ctx.on_progress is not None:
            self._ctx = ctx
        self.stream = StructuredStream(on_event=self._on_event if ctx.on_progress is not None else None, accept=accept)
        try:
            yield
        finally:
            self._depth = 0
            self.stream.__exit__(None, None, None)

    @contextlib.contextmanager
    def backend_window(self, ctx: CaptureContext) -> Iterator[None]:
        self._open(ctx)
        try:
            yield
        finally:
            self._close(ctx)

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if trigger == "LAZY_BACKWARD":  # AOTAutograd compiles the backward at its first call (an AOT backend)
            self._open(ctx, lazy_backward=True)

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if trigger == "LAZY_BACKWARD":
            self._close(ctx, lazy_backward=True)

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        return None  # the stream's events are read by the collectors that require this one

    def _open(self, ctx: CaptureContext, lazy_backward: bool = False) -> None:
        if lazy_backward or ctx.needs_trace:
            self._depth += 1
            if self._depth == 1:
                self.stream.__enter__()

    def _close(self, ctx: CaptureContext, lazy_backward: bool = False) -> None:
        if (lazy_backward or ctx.needs_trace) and self._depth > 0:
            self._depth -= 1
            if self._depth == 0:
                self.stream.__exit__(None, None, None)

    def _on_event(self, ev: TraceEvent) -> None:
        """Finer phases (AOT, inductor codegen) for the progress line while the stream is on."""
        if self._ctx is not None and ev.name == "chromium_event" and ev.payload and '"ph": "B"' in ev.payload:
            name = json.loads(ev.payload).get("name", "")
            phase = next((label for prefix, label in _PHASES if name.startswith(prefix)), None)
            if phase:
                self._ctx.progress(phase, ev.compile_id)
