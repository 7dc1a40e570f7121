"""Collector for the FX graphs Dynamo hands to the backend (kind ``dynamo``), and the partial graph of a
frame Dynamo raised on (kind ``dynamo_partial``, fullgraph=True).

``node_rows`` and ``readable`` snapshot a ``GraphModule`` at backend time (inductor mutates the graph
later) into schema ``Node`` rows and the readable code ``TORCH_LOGS=graph_code`` prints; ``finalize``
turns each snapshot into a ``Graph`` (the renderer lays its nodes out: ``labextension/src/graph/fxmodel.ts``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..model import CompileReport, Node
from .base import CaptureContext, Collector

_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)')
_OPS = {"placeholder", "get_attr", "call_function", "call_method", "call_module", "output"}


def _fmt(arg: Any) -> str:
    import torch.fx

    if isinstance(arg, torch.fx.Node):
        return arg.name
    if isinstance(arg, tuple):
        inner = ", ".join(_fmt(a) for a in arg)
        return f"({inner},)" if len(arg) == 1 else f"({inner})"
    if isinstance(arg, list):
        return "[" + ", ".join(_fmt(a) for a in arg) + "]"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k!r}: {_fmt(v)}" for k, v in arg.items()) + "}"
    return repr(arg)


def _target(node: Any) -> str:
    from torch.fx.node import _get_qualified_name

    if node.op == "call_function" and callable(node.target):
        try:
            return _get_qualified_name(node.target)
        except Exception:  # noqa: BLE001 - some builtins have no qualified name
            return getattr(node.target, "__name__", str(node.target))
    return str(node.target)


def _shape_dtype(value: Any) -> tuple[list[int | str] | None, str | None]:
    import torch

    if isinstance(value, torch.Tensor):
        shape: list[int | str] = [int(s) if isinstance(s, int) else str(s) for s in value.shape]
        return shape, str(value.dtype).replace("torch.", "")
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return None, type(value).__name__
    return None, None


def node_rows(gm: Any) -> list[Node]:
    """The graph's nodes as the report holds them. A string many nodes repeat (a target, a dtype, a file name, the
    empty kwargs) is held once: a 100,000-node graph's rows are made while Dynamo is at its peak memory."""
    rows = []
    same: dict[str, str] = {}
    one = same.setdefault
    for n in gm.graph.nodes:
        shape, dtype = _shape_dtype(n.meta.get("example_value", n.meta.get("val")))
        filename = line = None
        trace = n.meta.get("stack_trace") or ""
        found = _FILE_LINE.findall(trace)
        if found:
            filename, line = one(found[-1][0], found[-1][0]), int(found[-1][1])
        stack = n.meta.get("nn_module_stack") or {}
        target, kwargs = _target(n), _fmt(dict(n.kwargs))
        rows.append(
            Node(
                name=n.name,
                op=n.op if n.op in _OPS else "call_function",
                target=one(target, target),
                args=_fmt(tuple(n.args)),
                kwargs=one(kwargs, kwargs),
                users=[u.name for u in n.users],
                shape=shape,
                dtype=one(dtype, dtype) if dtype is not None else None,
                line=line,
                filename=filename,
                nn_module_stack=[str(v[0]) for v in stack.values() if isinstance(v, tuple) and v],
            )
        )
    return rows


# ``print_readable`` regenerates the graph's code (~30 us a node); ``gm.code`` is already there.
READABLE_MAX_NODES = 1000


def readable(gm: Any) -> str:
    """The graph's code with shapes, strides and devices (Dynamo's ``dynamo_output_graph`` text);
    above ``READABLE_MAX_NODES`` nodes the plain generated code (the node table has the shapes)."""
    n = len(gm.graph.nodes)
    if n <= READABLE_MAX_NODES:
        try:
            return gm.print_readable(print_output=False, include_stride=True, include_device=True)
        except Exception:  # noqa: BLE001, S110 - a graph torch cannot print readably still has its plain code
            pass
    note = f"# {n} nodes: shapes are in the node table (annotated code is kept up to {READABLE_MAX_NODES} nodes)\n"
    return note + str(getattr(gm, "code", "")).lstrip("\n")


def graph_device(example_inputs: list[Any]) -> str:
    import torch

    for t in example_inputs:
        if isinstance(t, torch.Tensor):
            return t.device.type
    return "cpu"


@dataclass(slots=True)
class GraphRecord:
    """One graph handed to the backend, snapshotted before the backend could mutate it."""

    compile_id: str
    nodes: list[Node]
    device: str
    code: str
    graph_id: int | None = None  # the report's graph made of it (finalize)


class FxGraphsCollector(Collector):
    name = "fx_graphs"
    requires = ("frames",)

    def __init__(self) -> None:
        self.records: list[GraphRecord] = []

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        self.records.append(GraphRecord(compile_id, node_rows(gm), graph_device(example_inputs), readable(gm)))

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        devices = {rec.device for rec in self.records}
        report.device = "cuda" if "cuda" in devices else (sorted(devices)[0] if devices else "cpu")
        for rec in self.records:
            rec.graph_id = report.add_graph(compile_id=rec.compile_id, kind="dynamo", nodes=rec.nodes, code=rec.code).id
        partial = _partial_graph(ctx.exception)
        failed = [f for f in report.frames if f.fail_type]
        if partial is not None and failed:
            from .aot_graphs import parse_readable  # the same print_readable text AOT graphs come in

            nodes = parse_readable(partial)
            graph = report.add_graph(compile_id=failed[-1].compile_id, kind="dynamo_partial", nodes=nodes, code=partial)
            graph.name = "traced before the error"


def _partial_graph(exc: BaseException | None) -> str | None:
    """The graph Dynamo had traced when it raised, as it attaches it (``partial_fx_graph``: the
    readable code, on data-dependent errors under fullgraph=True), searching the exception's chain."""
    seen = 0
    while exc is not None and seen < 10:
        text = getattr(exc, "partial_fx_graph", None)
        if isinstance(text, str) and text.strip():
            return text
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None
