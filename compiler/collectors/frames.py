"""Collector for frames: compile ids, code objects, original/modified bytecode, decompiled source.

Sources ([Note: zero-cost capture] in base.py): the compile start callback (every compile that
started on this thread, in order), the bytecode hook (``register_bytecode_hook``: every successful
frame compile, with the original and modified code) and the ``CompilationMetrics`` Dynamo records
for every compile, including those that failed or were skipped (fail type and reason, compile time,
the code's name and place when no bytecode was produced). A frame traced for ``fullgraph_capture`` (strict export)
reaches the same hooks through the dispatcher; no metrics record carries its id, and the dispatcher's
``ctx.fullgraph_captures`` gives its code, time and exception.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .. import compile_ids
from ..bytecode import RESUME_PREFIX, decompile, instruction_rows
from ..model import CodeInfo, CompileReport, Frame
from ..user_code import is_user_file
from .base import CaptureContext, CodeRecord, Collector
from .logs import LogsCollector


def _metrics_by_id(ctx: CaptureContext, metrics: list[Any]) -> dict[str, Any]:
    """This run's forward-compile metrics by compile id (the last record of an id wins)."""
    known = set(ctx.compile_ids) | {rec.compile_id for rec in ctx.get(LogsCollector).records if rec.compile_id}
    out: dict[str, Any] = {}
    for m in metrics:
        cid = ctx.metric_id(m)
        if cid is not None and cid in known and m.is_forward is not False and not m.is_runtime:
            out[cid] = m
    return out


class FramesCollector(Collector):
    name = "frames"
    requires = ("logs",)

    def __init__(self) -> None:
        self.metrics: list[Any] = []  # the CompilationMetrics Dynamo recorded during the run

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        from . import capture_torch  # a live run's: importing this module imports no torch

        with capture_torch.compilation_metrics_window() as new_metrics:
            try:
                yield
            finally:
                self.metrics = new_metrics()

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        metrics = _metrics_by_id(ctx, self.metrics)
        order = list(ctx.compile_order)
        for cid in [*(r.compile_id for r in ctx.code_records), *metrics, *ctx.fullgraph_captures]:
            if cid not in order:  # e.g. a compile refused before it started (recompile limit)
                order.append(cid)
        records = {r.compile_id: r for r in ctx.code_records}  # the last attempt wins
        failed_codes: dict[tuple[str, str, int], Any] | None = None
        for cid in order:
            rec = records.get(cid)
            m = metrics.get(cid)
            captured = ctx.fullgraph_captures.get(cid) if m is None else None
            if rec is not None:
                name, filename, first = rec.orig.co_name, rec.orig.co_filename, rec.orig.co_firstlineno
            elif m is not None:
                name, filename, first = m.co_name or "?", m.co_filename or "?", int(m.co_firstlineno or 0)
            elif captured is not None:
                name, filename, first = captured.code.co_name, captured.code.co_filename, captured.code.co_firstlineno
            else:
                continue
            frame = Frame(
                compile_id=cid,
                attempt=rec.attempt if rec is not None else 0,  # no bytecode: the timings collector counts attempts
                status="ok",
                code=CodeInfo(
                    name=name,
                    filename=filename,
                    firstlineno=first,
                    is_resume=name.startswith(RESUME_PREFIX),
                    in_cell=filename == ctx.program.filename,
                ),
                fail_type=captured.fail_type if captured else getattr(m, "fail_type", None),
                fail_reason=captured.fail_reason if captured else getattr(m, "fail_reason", None),
                compile_time_s=round(captured.seconds, 4) if captured else getattr(m, "entire_frame_compile_time_s", None),
                start_time=getattr(m, "start_time", None),
            )
            if rec is None and captured is not None:
                frame.original_bytecode = instruction_rows(captured.code)
            elif rec is None and frame.fail_type:  # no bytecode was made; the code Dynamo gave up on is still known
                if failed_codes is None:
                    from .capture_torch import codes_dynamo_saw

                    failed_codes = {(c.co_name, c.co_filename, c.co_firstlineno): c for c in codes_dynamo_saw()}
                code = failed_codes.get((name, filename, first))
                if code is not None:
                    frame.original_bytecode = instruction_rows(code)
            if rec is not None:
                frame.original_bytecode = instruction_rows(rec.orig)
                frame.modified_bytecode = instruction_rows(rec.new)
                frame.decompiled_source, frame.decompile_error = _decompiled(
                    ctx.options.decompile, rec, len(frame.modified_bytecode)
                )
            report.frames.append(frame)
        _name_refused(report)


def _name_refused(report: CompileReport) -> None:
    """A compile Dynamo refused before it began (``recompile_limit`` hit) records no code; its frame id is that of
    the code's other compiles (Dynamo numbers a code's compiles ``N/0``, ``N/1``, ...): name it after them."""
    known: dict[tuple[str, int], CodeInfo] = {}
    for f in report.frames:
        if f.code.name != "?":
            dynamo, epoch = compile_ids.split(f.compile_id)
            known.setdefault((dynamo.rsplit("/", 1)[0], epoch), f.code)
    for f in report.frames:
        if f.code.name == "?":
            dynamo, epoch = compile_ids.split(f.compile_id)
            same = known.get((dynamo.rsplit("/", 1)[0], epoch))
            if same is not None:
                f.code = CodeInfo(
                    name=same.name,
                    filename=same.filename,
                    firstlineno=same.firstlineno,
                    is_resume=same.is_resume,
                    in_cell=same.in_cell,
                )


def _decompiled(choice: str, rec: CodeRecord, n_instructions: int) -> tuple[str | None, str | None]:
    """depyf's source of the modified code, or why there is none ([Note: decompile scope] in options.py)."""
    if choice == "none":
        return None, "not decompiled (decompile: none); read the bytecode listing"
    if choice == "user" and not is_user_file(rec.orig.co_filename):
        return None, ("not decompiled: library code, outside your files; read the bytecode listing, or run with --decompile all")
    return decompile(rec.new, n_instructions)
