"""Collector for compile time per phase.

Per frame: ``dynamo_timed`` records every timed phase's duration in ``compilation_time_metrics``
whether or not anything listens (the same names as ``torch._dynamo.utils.compile_times()`` and the
``chromium_event`` trace: ``bytecode_tracing``, ``build_guards``, ``backend_compile``, ...); the
compile start/end callbacks take what each compile added. The total is the frame's
``entire_frame_compile_time_s`` from ``CompilationMetrics`` (frames collector). A frame that made
no bytecode (its compile failed) gets its attempt count here, from its ``compile_attempt_N`` phases.
"""

from __future__ import annotations

from .. import _compat
from ..model import CompileReport, Phase
from .base import CaptureContext, Collector


class TimingsCollector(Collector):
    name = "timings"
    requires = ("frames",)

    def __init__(self) -> None:
        self.phase_s: dict[str, dict[str, float]] = {}  # compile id -> phase -> seconds
        self._marks: dict[str, dict[str, int]] = {}

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        self._marks[compile_id] = _compat.timed_phase_counts()

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        marks = self._marks.pop(compile_id, None)
        if marks is not None:
            per = self.phase_s.setdefault(compile_id, {})
            for name, seconds in _compat.timed_phases_since(marks).items():
                per[name] = per.get(name, 0.0) + seconds

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for frame in report.frames:
            phases = self.phase_s.get(frame.compile_id, {})
            frame.phases = [Phase(name=n, ms=round(s * 1000.0, 3)) for n, s in sorted(phases.items())]
            if not frame.modified_bytecode:
                attempts = [int(k.rsplit("_", 1)[1]) for k in phases if k.startswith("compile_attempt_")]
                frame.attempt = max(attempts, default=frame.attempt)
        report.timings["compile_s"] = sum(f.compile_time_s or 0.0 for f in report.frames)
