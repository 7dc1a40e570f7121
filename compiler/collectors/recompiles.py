"""Collector for recompiles: the failing guards behind each new compile id, and limit hits.

While Dynamo decides to recompile it explains each old cache entry (``observe_torch.guard_failures``, where it would
call the entry's ``guard_fail_fn``), under the NEW compile id: one ``'<old id>: <reason>'`` per entry whose guards
failed, the same list ``TORCH_LOGS=recompiles`` prints, where each reason names the first failing guard only. The
entry's guard manager and the call's values come with it, and every guard of the entry is evaluated against them
(``guard_failures.evaluate``, [Note: every failing guard]): ``recompile_reasons[].failures``. Nothing of it runs
when nothing recompiles. Dynamo's first reason from ``CompilationMetrics`` stands in, without failures, where no
explanation was seen. A ``recompile_limit`` hit shows as the WARNING Dynamo logs (diverted into the report by the
logs collector) and as ``fail_reason`` of that compile.
"""

from __future__ import annotations

import re
from typing import Any

from ..compile_ids import with_epoch_of
from ..model import CompileReport, GuardFailure
from .base import CaptureContext, Collector, gc_paused
from .frames import FramesCollector
from .guards.guard_failures import MAX_ENTRIES, Call, evaluate
from .logs import LogsCollector
from .recompile_reasons import split_reasons

#: failures_note of a reason Dynamo recorded without explaining the entry where the run could see it.
NOT_EVALUATED = (
    "not evaluated: Dynamo recorded this reason without explaining the cache entry where the explorer looks "
    "(guards.get_guard_fail_reason); it names the first failing guard only"
)
#: failures_note when the entry's guard manager or the call's values were not usable.
NOT_REACHED = "not evaluated: the failing cache entry's guards or the call's values could not be read"
#: failures_note of an entry past the MAX_ENTRIES most recent ones of a recompile.
TOO_MANY = (
    f"not evaluated: only the {MAX_ENTRIES} most recent cache entries of a code are evaluated at each recompile; "
    "Dynamo's reason names this one's first failing guard"
)


class RecompilesCollector(Collector):
    name = "recompiles"
    requires = ("frames", "logs")

    def __init__(self) -> None:
        # new compile id -> ('<old id>: <reason>', every failing guard of that entry, what the list leaves out)
        self.failures: dict[str, list[tuple[str, list[GuardFailure], str | None]]] = {}
        self.call: Call | None = None  # the values of the call Dynamo is explaining, shared by its old entries

    def on_guard_failure(self, ctx: CaptureContext, compile_id: str, failure: Any) -> None:
        """``failure``: an ``observe_torch.FailedEntry``."""
        done = self.failures.setdefault(compile_id, [])
        failures: list[GuardFailure] = []
        note: str | None = NOT_REACHED if len(done) < MAX_ENTRIES else TOO_MANY
        usable = getattr(failure.guard_manager, "root", None) is not None and isinstance(failure.f_locals, dict)
        if usable and len(done) < MAX_ENTRIES:
            filename = getattr(failure.code, "co_filename", "") or ""
            with gc_paused():  # many small objects that survive, in a heap that holds a model: no full collection
                failures, note, self.call = evaluate(failure.guard_manager, failure.f_locals, filename, self.call)
        done.append((failure.reason, failures, note))

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        self.call = None  # the call's values are not kept past its compile

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        self.call = None
        metrics = ctx.get(FramesCollector).metrics
        fallback = {ctx.metric_id(m): m.recompile_reason for m in metrics if m.recompile_reason}
        for frame in report.frames:
            items = self.failures.get(frame.compile_id)
            if items:
                for (_, failures, note), reason in zip(items, split_reasons([text for text, _, _ in items]), strict=True):
                    reason.failures, reason.failures_note = failures, note
                    frame.recompile_reasons.append(reason)
            elif frame.compile_id in fallback:
                for reason in split_reasons([fallback[frame.compile_id]]):
                    reason.failures_note = NOT_EVALUATED
                    frame.recompile_reasons.append(reason)
            for reason in frame.recompile_reasons:  # Dynamo wrote the old entry's id as it numbers it: this epoch's
                if reason.failed_compile_id is not None:
                    reason.failed_compile_id = with_epoch_of(frame.compile_id, reason.failed_compile_id)
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
