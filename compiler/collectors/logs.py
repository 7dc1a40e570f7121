"""Collector for torch's own warnings and errors: kept off the user's stderr, put in the report.

Dynamo's log records are diverted, except in the ``watch`` scope: there every compile is the code's own, and what its
log settings (``TORCH_LOGS``, ``set_logs``) ask for is printed as without the explorer, and copied into the report.
``warnings.warn`` from torch's files is diverted too, except in the ``calls`` and ``watch`` scopes: there library
code runs as plain Python, and showing a warning runs Python frames (``warnings.py``) that Dynamo sees and counts
(``counters['frames']``), so a diverted warning would make the run differ from ``torch.compile``'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..events import CapturedLog, TorchLogDiverter, TorchWarningDiverter
from ..model import CompileReport, LogRecord
from .base import CaptureContext, Collector


class LogsCollector(Collector):
    name = "logs"

    def __init__(self) -> None:
        self.records: list[CapturedLog] = []  # Dynamo's log records (and torch's warnings) of the run

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        from .._compat import current_trace_id  # a live run's: importing this module imports no torch

        divert_warnings = ctx.program.scope not in ("calls", "watch")
        with (
            TorchLogDiverter(accept=lambda: ctx.watches(current_trace_id()[0]), divert=ctx.program.scope != "watch") as diverter,
            TorchWarningDiverter(diverter.records) if divert_warnings else contextlib.nullcontext(),
        ):
            try:
                yield
            finally:
                self.records = diverter.records

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        report.logs = [
            LogRecord(level=r.level, logger=r.logger, message=r.message[:20000], compile_id=r.compile_id) for r in self.records
        ]
