"""Collector for dynamic shapes: symbols (symbol -> source, value, range) and shape guards.

From structured ``create_symbol`` (symbol, val, vr, source, user_stack) and ``guard_added_fast``
(expr, user_stack), plus the checks of each frame's ``SHAPE_ENV`` guard written in terms of sources
(``2 <= L['x'].size()[0]``; runs after the guards collector). Symbol names are hashed from their
source (``s97``), not sequential.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..model import CompileReport, ShapeGuard, Symbol


def _user_line(meta: dict[str, Any]) -> int | None:
    stack = meta.get("user_stack") or []
    return int(stack[-1]["line"]) if stack and stack[-1].get("line") is not None else None


class DynamicShapesCollector:
    name = "dynamic_shapes"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        for ev in ctx.stream.named("create_symbol", "guard_added_fast"):
            meta = ev.meta if isinstance(ev.meta, dict) else {}
            if ev.compile_id is None:
                continue
            if ev.name == "create_symbol":
                report.symbols.append(Symbol(compile_id=ev.compile_id, symbol=str(meta.get("symbol")), source=str(meta.get("source", "")),
                                             value=str(meta.get("val", "")), range=str(meta.get("vr", "")), line=_user_line(meta)))
            else:
                report.shape_guards.append(ShapeGuard(compile_id=ev.compile_id, expr=str(meta.get("expr", "")), line=_user_line(meta)))
        seen = {(g.compile_id, g.expr) for g in report.shape_guards}
        for frame in report.frames:
            for guard in frame.guards:
                if guard.type != "SHAPE_ENV":
                    continue
                for expr in guard.code:
                    if (frame.compile_id, expr) not in seen:
                        seen.add((frame.compile_id, expr))
                        report.shape_guards.append(ShapeGuard(compile_id=frame.compile_id, expr=expr, line=guard.line))
