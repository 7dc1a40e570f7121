"""Collector for dynamic shapes: symbols (symbol -> source, value, range) and shape guards.

Symbols are read from the ShapeEnv of each compile when its graph reaches the backend
(``_compat.shape_env_symbols``: ``var_to_sources``, ``backed_var_to_val``, ``var_to_range``). Shape
guards are the checks of each frame's ``SHAPE_ENV`` guard, written in terms of sources
(``2 <= L['x'].size()[0]``; runs after the guards collector), with the user line the guard tree
gives them; a symbol's line is that of the first shape guard on its source. Symbol names are hashed
from their source (``s97``), not sequential.
"""

from __future__ import annotations

from typing import Any

from .. import _compat
from ..model import CompileReport, ShapeGuard, Symbol
from .base import CaptureContext, Collector


class DynamicShapesCollector(Collector):
    name = "dynamic_shapes"
    requires = ("guards",)

    def __init__(self) -> None:
        self.symbols: dict[str, list[tuple[str, list[str], Any, str]]] = {}  # compile id -> ShapeEnv symbols

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        self.symbols[compile_id] = _compat.shape_env_symbols()

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        seen: set[tuple[str, str]] = set()
        for frame in report.frames:
            for guard in frame.guards:
                if guard.type != "SHAPE_ENV":
                    continue
                for expr in guard.code:
                    if (frame.compile_id, expr) not in seen:
                        seen.add((frame.compile_id, expr))
                        report.shape_guards.append(ShapeGuard(compile_id=frame.compile_id, expr=expr, line=guard.line))
        for cid, symbols in self.symbols.items():
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
