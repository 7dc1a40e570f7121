"""Collector for recompiles: the failing guard(s) behind each new compile id, and limit hits.

``guard_fail_fn`` (passed to ``torch._dynamo.optimize``) is called while Dynamo decides to recompile,
under the NEW compile id, with one ``'<old id>: <reason>'`` per cache entry whose guards failed: the
same list ``TORCH_LOGS=recompiles`` prints. Entries made by the user's own ``torch.compile`` of the
same code carry no such callback; then the first reason comes from ``CompilationMetrics``. A
``recompile_limit`` hit shows as the WARNING Dynamo logs (diverted into the report by the logs
collector) and as ``fail_reason`` of that compile.
"""

from __future__ import annotations

import re
from typing import Any

from ..model import CompileReport, RecompileReason
from .base import CaptureContext, Collector
from .frames import FramesCollector
from .logs import LogsCollector

_ENTRY = re.compile(r"^(?P<cid>(?:!\d+/)?\d+/\d+): (?P<reason>.*)$", re.S)


def split_reasons(items: list[str]) -> list[RecompileReason]:
    out = []
    for item in items:
        text = str(item).strip()
        m = _ENTRY.match(text)
        if m:
            out.append(RecompileReason(failed_compile_id=m.group("cid"), reason=m.group("reason").strip()))
        elif text:
            out.append(RecompileReason(failed_compile_id=None, reason=text))
    return out


class RecompilesCollector(Collector):
    name = "recompiles"
    requires = ("frames", "logs")

    def __init__(self) -> None:
        self.failures: dict[str, list[str]] = {}  # new compile id -> '<old id>: <reason>' items

    def on_guard_failure(self, ctx: CaptureContext, compile_id: str, failure: Any) -> None:
        self.failures.setdefault(compile_id, []).append(str(failure.reason))

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        metrics = ctx.get(FramesCollector).metrics
        fallback = {str(m.compile_id): m.recompile_reason for m in metrics if m.recompile_reason}
        for frame in report.frames:
            reasons = self.failures.get(frame.compile_id) or (
                [fallback[frame.compile_id]] if frame.compile_id in fallback else []
            )
            frame.recompile_reasons.extend(split_reasons(reasons))
        for rec in ctx.get(LogsCollector).records:
            if "hit config.recompile_limit" in rec.message or "hit config.accumulated_recompile_limit" in rec.message:
                report.diagnose(
                    "recompile_limit", rec.message.strip().splitlines()[0] + " — " + _function_of(rec.message), rec.compile_id
                )


def _function_of(message: str) -> str:
    m = re.search(r"function: '([^']+)' \(([^)]*)\)", message)
    return (
        f"{m.group(1)} ({m.group(2)}) now runs without compiling; raise --recompile-limit or remove the cause"
        if m
        else "raise --recompile-limit or remove the cause"
    )
