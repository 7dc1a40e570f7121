"""Collector for the run's ``torch.export`` calls: each call, how it ended, and what export saw, failed on or assumed.

[Note: export calls] ``torch.export`` is Dynamo's other way in; code that exports is code that compiles itself
(``self_compile.ENTRY_POINTS``), so the run watches it and adds nothing ([Note: watch scope] in calls.py). For the run,
torch's export entry points are wrapped (``exports_torch.watched``: ``torch.export._trace._export``, which
``torch.export.export`` looks up when called, ``torch.export._draft_export.draft_export``, ``torch._dynamo.export``)
and put back after. A wrapper makes each call exactly as it came and hands its result back, or lets its exception
go on as it is; in between it notes the call (its API and mode, the module and where its ``forward`` is, the
user's line of the call, each input's shape and dtype, the ``dynamic_shapes`` with each ``Dim`` by name) and reads
what it gave at once, keeping nothing of the user's: for an ``ExportedProgram`` its graph signature (torch's
``InputKind`` / ``OutputKind`` names), ``range_constraints`` with the ``Dim`` and input dimension of each symbol, its
graph's code; for ``draft_export`` its report (each failure, the expression and what it assumed, the user's line);
for a failure its exception classified (``exports_torch.classify``: a guard on a data-dependent value, a
constraint violation, an unsupported op or construct), the user's innermost frame (the traceback's in non-strict
mode, Dynamo's user stack in strict mode) and export's own suggested fixes; and the compiles Dynamo made within the
call (strict mode's, a frame of the report: the dispatcher sees it through ``observe_torch.fullgraph_captures``). An
export inside another (strict export calls ``torch._dynamo.export``) is the outer one's. A ``--try`` run may make one
call otherwise (``exports_torch.Rewrite``; the fixes are ``collectors/fixes.py``'s). A trace's export calls (``TORCH_DTRACE``) are read by
``exports_trace.py`` into the same records; the input checks of either come from ``checks.input_checks``.
"""

from __future__ import annotations

import contextlib
import json
import linecache
from collections.abc import Iterator
from typing import Any

import torch

from ...model import (
    CompileReport,
    DraftFailure,
    ExportCall,
    ExportCheck,
    ExportInput,
    ExportRange,
    ExportSpec,
    Graph,
)
from ..base import CaptureContext, Collector
from ..fx_graphs import node_rows, readable
from .exports_torch import Call, draft_failures, program_parts, watched
from .words import summary_line

__all__ = ["ExportsCollector", "summary_line"]


class ExportsCollector(Collector):
    name = "exports"
    requires = ()

    def __init__(self) -> None:
        self.calls: list[ExportCall] = []
        self.graphs: dict[int, Graph] = {}  # a call's index -> its exported graph, read at once

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        self.calls, self.graphs = [], {}
        with watched(lambda call: self._record(ctx, call), lambda: len(ctx.compile_order)):
            yield

    def _record(self, ctx: CaptureContext, call: Call) -> None:
        """One export call, read at once (its program is the user's: never kept), with the compiles made within it."""
        try:
            out, graph = _export_call(len(self.calls), call)
            if graph is not None:
                self.graphs[out.index] = graph
        except Exception as exc:  # noqa: BLE001 - the user's export call goes on as it was
            out = _call_record(len(self.calls), call, failed=call.failure is not None)
            out.summary = f"export {call.module}: not read ({type(exc).__name__}: {exc})"
        out.compile_ids = ctx.compile_order[call.started_after :]
        self.calls.append(out)

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for call in self.calls:
            g = self.graphs.get(call.index)
            if g is not None:
                call.graph_id = report.add_graph(compile_id=None, kind="export", nodes=g.nodes, code=g.code, name=g.name).id
        report.exports = self.calls
        self.calls, self.graphs = [], {}


def _export_call(index: int, call: Call) -> tuple[ExportCall, Graph | None]:
    """The call in the report's words, and its exported graph (added to the report's graphs at the end)."""
    program = call.program
    parts: dict[str, Any] = {}
    draft: list[dict[str, Any]] = []
    if isinstance(program, torch.export.ExportedProgram):
        parts = program_parts(program, call.dynamic_shapes)
        draft = draft_failures(program)
    elif isinstance(program, torch.fx.GraphModule):  # torch._dynamo.export: a graph module, no signature
        parts = {"gm": program}
    gm = parts.get("gm")
    graph = (
        Graph(id=-1, compile_id=None, kind="export", name=call.module, nodes=node_rows(gm), code=readable(gm))
        if gm is not None
        else None
    )
    failure = call.failure
    out = _call_record(index, call, failed=failure is not None)
    out.inputs = [ExportInput(name=n, shape=s, dtype=d) for n, s, d in call.inputs]
    out.dynamic_shapes = json.dumps(call.dynamic_shapes) if call.dynamic_shapes is not None else None
    out.failure = failure
    out.signature = [ExportSpec(direction=d, kind=k, name=n, target=t) for d, k, n, t in parts.get("signature", [])]  # type: ignore[arg-type]
    out.ranges = [ExportRange(symbol=s, dim=dim, place=p, min=lo, max=hi) for s, dim, p, lo, hi in parts.get("ranges", [])]
    out.graph_nodes = len(graph.nodes) if graph is not None else None
    out.draft = [_placed(DraftFailure(**d), graph) for d in draft]
    out.checks = [ExportCheck(kind=k, expr=e, input=i) for k, e, i in parts.get("checks", [])]  # type: ignore[arg-type]
    out.summary = summary_line(out)
    return out, graph


def _call_record(index: int, call: Call, failed: bool) -> ExportCall:
    """A call's record with what the wrapper noted as it was made (what export gave is read into it after)."""
    return ExportCall(
        index=index,
        api=call.api,
        mode=call.mode,  # type: ignore[arg-type]
        module=call.module,
        module_line=call.module_line,
        filename=call.filename,
        line=call.line,
        inputs=[],
        dynamic_shapes=None,
        outcome="failed" if failed else "exported",
        seconds=round(call.seconds, 4),
        summary="",
    )


def _placed(entry: DraftFailure, graph: Graph | None) -> DraftFailure:
    """A draft entry about an op with no stack of its own (``MISSING_FAKE_KERNEL``: only the op) placed at the user's
    line of the first node of the exported graph that calls the op."""
    if entry.line is not None or entry.op is None or graph is None:
        return entry
    node = next((n for n in graph.nodes if n.line is not None and n.target.endswith(entry.op)), None)
    if node is not None and node.filename is not None and node.line is not None:
        entry.filename, entry.line = node.filename, node.line
        entry.code = linecache.getline(node.filename, node.line).strip() or None
    return entry
