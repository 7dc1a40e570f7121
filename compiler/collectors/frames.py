"""Collector for frames: compile ids, code objects, original/modified bytecode, decompiled source.

Sources: the bytecode hook (``register_bytecode_hook``: every successful frame compile, with the
original and modified code), structured ``dynamo_start`` (every compile that started, including
those that failed or were skipped) and ``compilation_metrics`` (fail type/reason, compile time).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from .. import _compat
from ..bytecode import decompile, instruction_rows
from ..model import CodeInfo, CompileReport, Frame


class FramesCollector:
    name = "frames"

    @contextlib.contextmanager
    def install(self, ctx: Any) -> Iterator[None]:
        handle = _compat.register_bytecode_hook(lambda orig, new: ctx.record_code(orig, new) and None)
        try:
            yield
        finally:
            handle.remove()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        order: list[str] = []
        starts: dict[str, dict[str, Any]] = {}
        attempts: dict[str, int] = {}
        metrics: dict[str, dict[str, Any]] = {}
        for ev in ctx.stream.events:
            cid = ev.compile_id
            if cid is None:
                continue
            if ev.name == "dynamo_start" and cid not in starts:
                frame = (ev.meta or {}).get("stack") or [{}]
                starts[cid] = frame[-1]
                order.append(cid)
            elif ev.name == "compilation_metrics" and isinstance(ev.meta, dict):
                metrics[cid] = ev.meta
            attempts[cid] = max(attempts.get(cid, 0), ev.attempt)
        records = {r.compile_id: r for r in ctx.code_records}  # the last attempt wins
        for rec in ctx.code_records:
            if rec.compile_id not in starts and rec.compile_id not in order:
                order.append(rec.compile_id)
            attempts[rec.compile_id] = max(attempts.get(rec.compile_id, 0), rec.attempt)
        for cid in order:
            rec = records.get(cid)
            m = metrics.get(cid, {})
            start = starts.get(cid, {})
            if rec is not None:
                name, filename, first = rec.orig.co_name, rec.orig.co_filename, rec.orig.co_firstlineno
            else:
                name = m.get("co_name") or start.get("name") or "?"
                filename = m.get("co_filename") or _compat.interned_filename(start.get("filename"))
                first = int(m.get("co_firstlineno") or start.get("line") or 0)
            frame = Frame(
                compile_id=cid,
                attempt=attempts.get(cid, 0),
                status="ok",
                code=CodeInfo(
                    name=name,
                    filename=filename,
                    firstlineno=first,
                    is_resume=name.startswith(_compat.TORCH_DYNAMO_RESUME_IN_PREFIX),
                    in_cell=filename == ctx.program.filename,
                ),
                fail_type=m.get("fail_type"),
                fail_reason=m.get("fail_reason"),
                compile_time_s=m.get("entire_frame_compile_time_s"),
            )
            if rec is not None:
                frame.original_bytecode = instruction_rows(rec.orig)
                frame.modified_bytecode = instruction_rows(rec.new)
                frame.decompiled_source, frame.decompile_error = decompile(rec.new, len(frame.modified_bytecode))
            report.frames.append(frame)
