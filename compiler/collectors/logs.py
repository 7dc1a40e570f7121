"""Collector for torch's own warnings and errors: kept off the user's stderr, put in the report."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from ..events import TorchLogDiverter, TorchWarningDiverter
from ..model import CompileReport, LogRecord


class LogsCollector:
    name = "logs"

    @contextlib.contextmanager
    def install(self, ctx: Any) -> Iterator[None]:
        with TorchLogDiverter() as diverter, TorchWarningDiverter(diverter.records):
            try:
                yield
            finally:
                ctx.logs = diverter.records

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        report.logs = [LogRecord(level=r.level, logger=r.logger, message=r.message[:20000], compile_id=r.compile_id) for r in ctx.logs]
