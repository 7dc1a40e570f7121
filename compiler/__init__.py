"""Dynamo Explorer's engine: run a cell through the real TorchDynamo and capture a compile report.

Public API::

    from compiler import run_cell, RunOptions
    run = run_cell(source, namespace, RunOptions(backend="eager"))
    run.report      # JSON-ready dict following compiler/schema/compile_report.v1.schema.json
    run.value       # the cell's last expression
    run.exception   # what the cell raised, or None

    from compiler import reset_code
    reset_code(fn)  # drop Dynamo's caches and automatic-dynamic memory of fn only (not torch._dynamo.reset())

This package never imports IPython; ``kernel_ext`` is the notebook layer on top of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import UsageError
from .options import RunOptions
from .schema import MIME_TYPE, SCHEMA_VERSION, report_errors, validate_report

if TYPE_CHECKING:
    from .reset import reset_code
    from .runner import CellRun, Progress, run_cell

#: what needs torch, imported when first named: reading a trace (``compiler.trace``) or a report imports no torch
_WITH_TORCH = {"reset_code": ".reset", "CellRun": ".runner", "Progress": ".runner", "run_cell": ".runner"}


def __getattr__(name: str) -> Any:
    if name in _WITH_TORCH:
        import importlib

        return getattr(importlib.import_module(_WITH_TORCH[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MIME_TYPE",
    "SCHEMA_VERSION",
    "CellRun",
    "Progress",
    "RunOptions",
    "UsageError",
    "report_errors",
    "reset_code",
    "run_cell",
    "validate_report",
]
