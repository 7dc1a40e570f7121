"""Collector for dynamic shapes: symbols (symbol -> source, value, range), their specialisations, shape guards.

Symbols are read from the ShapeEnv of each compile (``dynamic_shapes_torch.shape_env_symbols``: ``var_to_sources``,
``backed_var_to_val``, ``var_to_range``), taken when its graph reaches the backend and read again when
its guards are exported (the backend may have added guards since). A symbol ShapeEnv replaced by a
constant was specialised (``dynamic_shapes_torch.shape_env_specializations``): the report says to what, the reason
ShapeEnv gave (``range_refined_to_singleton``, recorded by ``dynamic_shapes_torch.shape_replacements`` while the run
lasts), the shape guard that pinned it (``L['x'].size()[0] == 3``) and the user line (ShapeEnv's
``specialization_stacks``, else ``replacements_slocs``); such a size is then checked by the frame's
TENSOR_MATCH, not by a shape guard. Shape guards are the checks of each frame's ``SHAPE_ENV`` guard,
written in terms of sources (``2 <= L['x'].size()[0]``; runs after the guards collector), each with the
user line of its own leaf in the guard tree and Dynamo's note when the leaf has one (0/1 specialization,
duck sizing). Another symbol's line is that of the first shape guard on its source. Symbol names are
hashed from their source (``s97``), not sequential.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from typing import Any

from ...model import CompileReport, ShapeGuard, Symbol
from ..base import CaptureContext, Collector
from ..guards.guards import GuardsCollector, user_line
from . import dynamic_shapes_torch

#: A framework location in a shape guard's comment (``_prims/__init__.py:1483 in _collapse_view_helper``).
_FRAMEWORK_LOC = re.compile(r"^[^\s()]+:\d+ in [\w<>.]+$")
#: A comment that ends with the place of its user code (``x + 1  # f.py:3 in f``).
_WHERE_AT_END = re.compile(r"[^\s#]+:\d+ in [\w<>.]+$")


def shape_note(comment: str) -> str | None:
    """Dynamo's note on why a shape guard exists, from its comment in the guard tree: after the user code and
    its place, a parenthesised note that is not a framework location (``x + 1  # f.py:3 in f (user code
    shown is first use of this value--... 0/1 specialization ...)``); a comment without a place is a note as
    a whole (``duck sizing added this equality because ...``). None when there is no note."""
    comment = comment.strip()
    if not comment or comment.startswith("(unknown"):
        return None
    head, inner = comment, None
    if comment.endswith(")"):
        depth = 0
        for i in range(len(comment) - 1, 0, -1):
            depth += {")": 1, "(": -1}.get(comment[i], 0)
            if depth == 0:
                if comment[i - 1] == " ":
                    head, inner = comment[:i].rstrip(), comment[i + 1 : -1].strip()
                break
    if not _WHERE_AT_END.search(head):
        return comment
    return inner if inner and not _FRAMEWORK_LOC.match(inner) else None


class DynamicShapesCollector(Collector):
    name = "dynamic_shapes"
    requires = ("guards",)

    def __init__(self) -> None:
        self.symbols: dict[str, list[tuple[str, list[str], Any, str]]] = {}  # compile id -> ShapeEnv symbols
        self.specializations: dict[str, list[tuple[dynamic_shapes_torch.Specialization, str | None]]] = {}  # ..., its reason
        self.envs: dict[str, Any] = {}  # compile id -> its ShapeEnv, until its guards are exported
        #: ShapeEnv -> symbol -> the reason of its first replacement by a constant
        self.reasons: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()

    def install(self, ctx: CaptureContext) -> contextlib.AbstractContextManager[None]:
        def replaced(shape_env: Any, symbol: Any, target: Any, reason: str) -> None:
            if getattr(target, "is_number", False):
                self.reasons.setdefault(shape_env, {}).setdefault(str(symbol), reason)

        return dynamic_shapes_torch.shape_replacements(replaced)

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        shape_env = dynamic_shapes_torch.current_shape_env()
        if shape_env is not None:
            self.envs[compile_id] = shape_env
            self._read(compile_id)

    def on_guards(self, ctx: CaptureContext, compile_id: str, guards: Any) -> None:
        if compile_id in self.envs:
            self._read(compile_id)
            del self.envs[compile_id]

    def _read(self, compile_id: str) -> None:
        shape_env = self.envs[compile_id]
        self.symbols[compile_id] = dynamic_shapes_torch.shape_env_symbols(shape_env)
        reasons = self.reasons.get(shape_env, {})
        self.specializations[compile_id] = [
            (spec, reasons.get(spec[0])) for spec in dynamic_shapes_torch.shape_env_specializations(shape_env)
        ]

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for compile_id in list(self.envs):  # a compile whose guards were never exported (it failed)
            self._read(compile_id)
        self.envs.clear()
        collected = ctx.get(GuardsCollector)
        roots, shape_codes = collected.root_leaves, collected.shape_codes
        files = {f.compile_id: f.code.filename for f in report.frames}
        seen: set[tuple[str, str]] = set()
        for frame in report.frames:
            leaves = roots.get(frame.compile_id, {})
            for expr in shape_codes.get(frame.compile_id, []):  # the checks of the frame's SHAPE_ENV guard
                if (frame.compile_id, expr) in seen:
                    continue
                seen.add((frame.compile_id, expr))
                leaf = leaves.get(expr)
                report.shape_guards.append(
                    ShapeGuard(
                        compile_id=frame.compile_id,
                        expr=expr,
                        line=leaf[0] if leaf else None,
                        note=shape_note(leaf[1]) if leaf else None,
                    )
                )
        for cid, symbols in self.symbols.items():
            guards = [g for g in report.shape_guards if g.compile_id == cid]
            specialized = {spec[0]: (spec, reason) for spec, reason in self.specializations.get(cid, [])}
            filename = files.get(cid, "")
            for symbol, sources, value, rng in symbols:
                source = sources[0] if sources else ""
                line = next((g.line for g in guards if source and source in g.expr and g.line is not None), None)
                row = Symbol(
                    compile_id=cid,
                    symbol=symbol,
                    source=source,
                    value="" if value is None else str(value),
                    range=rng,
                    line=line,
                )
                if symbol in specialized:
                    (_, constant, pinned, stack, user_loc), reason = specialized[symbol]
                    row.specialized_to, row.specialization_reason, row.specialization_guard = constant, reason, pinned
                    row.line = _specialization_line(stack, user_loc, filename) or line
                report.symbols.append(row)


def _specialization_line(stack: list[tuple[str, int]], user_loc: str | None, filename: str) -> int | None:
    """The user line of a specialisation in the frame's own file: the innermost frame of ShapeEnv's user stack
    there, else the ``file:line in fn`` of its ``replacements_slocs`` entry."""
    lines = [line for f, line in stack if f == filename and line]
    if lines:
        return lines[-1]
    return user_line(user_loc, filename) if user_loc and filename else None
