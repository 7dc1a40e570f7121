"""Collector for recompiles: the failing guard(s) behind each new compile id, and limit hits.

``artifact:recompile_reasons`` is emitted under the NEW compile id with one ``'<old id>: <reason>'``
entry per cache entry whose guards failed. A ``recompile_limit`` hit shows as the WARNING Dynamo
logs (diverted into the report by the logs collector) and as ``fail_reason`` of that compile.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from ..model import CompileReport, RecompileReason

_ENTRY = re.compile(r"^(?P<cid>(?:!\d+/)?\d+/\d+): (?P<reason>.*)$", re.S)


def split_reasons(payload: str) -> list[RecompileReason]:
    try:
        items = json.loads(payload)
    except (ValueError, TypeError):
        items = payload
    if isinstance(items, str):
        items = [items]
    out = []
    for item in items:
        text = str(item).strip()
        m = _ENTRY.match(text)
        if m:
            out.append(RecompileReason(failed_compile_id=m.group("cid"), reason=m.group("reason").strip()))
        elif text:
            out.append(RecompileReason(failed_compile_id=None, reason=text))
    return out


class RecompilesCollector:
    name = "recompiles"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        for ev in ctx.stream.named("artifact:recompile_reasons"):
            frame = report.frame(ev.compile_id) if ev.compile_id else None
            if frame is not None and ev.payload:
                frame.recompile_reasons.extend(split_reasons(ev.payload))
        for rec in ctx.logs:
            if "hit config.recompile_limit" in rec.message or "hit config.accumulated_recompile_limit" in rec.message:
                report.diagnose("recompile_limit", rec.message.strip().splitlines()[0] + " — " + _function_of(rec.message), rec.compile_id)


def _function_of(message: str) -> str:
    m = re.search(r"function: '([^']+)' \(([^)]*)\)", message)
    return f"{m.group(1)} ({m.group(2)}) now runs without compiling; raise --recompile-limit or remove the cause" if m else "raise --recompile-limit or remove the cause"
