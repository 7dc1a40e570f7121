"""Collector for compile time per phase.

Per frame: ``dynamo_timed`` records every timed phase's duration in ``compilation_time_metrics``
whether or not anything listens (the same names as ``torch._dynamo.utils.compile_times()`` and the
``chromium_event`` trace: ``bytecode_tracing``, ``build_guards``, ``backend_compile``, ...); the
compile start/end callbacks take what each compile added (base.py). The total is the frame's
``entire_frame_compile_time_s`` from ``CompilationMetrics`` (frames collector).
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..model import CompileReport, Phase


class TimingsCollector:
    name = "timings"
    requires: tuple[str, ...] = ("frames",)

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()  # the compile callbacks are installed by the frames collector

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        for frame in report.frames:
            phases = ctx.phase_s.get(frame.compile_id, {})
            frame.phases = [Phase(name=n, ms=round(s * 1000.0, 3)) for n, s in sorted(phases.items())]
        report.timings["compile_s"] = sum(f.compile_time_s or 0.0 for f in report.frames)
