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

from .errors import UsageError
from .options import RunOptions
from .reset import reset_code
from .runner import CellRun, Progress, run_cell
from .schema import MIME_TYPE, SCHEMA_VERSION, report_errors, validate_report

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
