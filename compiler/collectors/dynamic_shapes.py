"""Collector for dynamic shapes: symbols (symbol -> source, value, range) and shape guards.

Symbols are read from the ShapeEnv of each compile when its graph reaches the backend
(``_compat.shape_env_symbols``: ``var_to_sources``, ``backed_var_to_val``, ``var_to_range``). Shape
guards are the checks of each frame's ``SHAPE_ENV`` guard, written in terms of sources
(``2 <= L['x'].size()[0]``; runs after the guards collector), with the user line the guard tree
gives them; a symbol's line is that of the first shape guard on its source. Symbol names are hashed
from their source (``s97``), not sequential.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..model import CompileReport, ShapeGuard, Symbol


class DynamicShapesCollector:
    name = "dynamic_shapes"
    requires: tuple[str, ...] = ("guards",)

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()  # symbols arrive with each graph (CaptureContext.record_graph)

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        seen: set[tuple[str, str]] = set()
        for frame in report.frames:
            for guard in frame.guards:
                if guard.type != "SHAPE_ENV":
                    continue
                for expr in guard.code:
                    if (frame.compile_id, expr) not in seen:
                        seen.add((frame.compile_id, expr))
                        report.shape_guards.append(ShapeGuard(compile_id=frame.compile_id, expr=expr, line=guard.line))
        for cid, symbols in ctx.symbols.items():
            guards = [g for g in report.shape_guards if g.compile_id == cid]
            for symbol, sources, value, rng in symbols:
                source = sources[0] if sources else ""
                line = next((g.line for g in guards if source and source in g.expr and g.line is not None), None)
                report.symbols.append(
                    Symbol(
                        compile_id=cid,
                        symbol=symbol,
                        source=source,
                        value="" if value is None else str(value),
                        range=rng,
                        line=line,
                    )
                )
