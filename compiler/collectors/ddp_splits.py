"""Collector for DDP's graph splits: DDPOptimizer cutting a Dynamo graph at DDP's bucket boundaries.

[Note: DDP splits] A frame Dynamo compiles inside a ``DistributedDataParallel`` forward (``optimize_ddp``'s
default mode, ``ddp_optimizer``) does not go to the backend whole: ``DDPOptimizer.compile_fn`` counts the
parameters' bytes backwards through the graph, cuts it wherever a bucket (``bucket_cap_mb``) fills, and hands
each piece, ``submod_0``, ``submod_1``, ..., to the backend on its own, so that a bucket's gradients can be
all-reduced while the backward of the pieces before it still runs. Dynamo's graph of the frame (kind
``dynamo``) is then the whole graph; the backend's graphs are the pieces (kind ``ddp_split_child``, named as
DDPOptimizer names them), and the split graph that calls them in turn is kind ``ddp_split_graph``.
``report.ddp_splits`` says, per split compile, each piece's parameters (the graph inputs Dynamo named from a
``_parameters[...]`` source) and their bytes. With one bucket nothing is split and nothing is recorded here.

One builder for both sources: DDPOptimizer's own structured events, ``optimize_ddp_split_graph`` (the split
graph, its pieces nested in it) and ``optimize_ddp_split_child`` (each piece, ``{"name": "submod_0"}``), read
from a ``TORCH_TRACE`` log (``compiler/trace/build.py``) or, live, teed from ``trace_structured`` in
DDPOptimizer's module while the cell runs (its payload is built then only for these two events). Live, the whole
graph is the one Dynamo handed to the backend (``fx_graphs``: ``DDPOptimizer.compile_fn`` is that backend), and the
pieces' graphs are recorded as ``compile_fn`` hands each to the real backend, kept only when it did split, with
DDPOptimizer's ``bucket_bytes_cap`` (a trace does not hold the cap).
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..model import CompileReport, DdpParameter, DdpSplit, DdpSubmodule, Graph, Node
from .aot_graphs import parse_readable
from .base import CaptureContext, Collector
from .fx_graphs import FxGraphsCollector, GraphRecord, graph_device, node_rows, readable

SPLIT_GRAPH = "optimize_ddp_split_graph"
SPLIT_CHILD = "optimize_ddp_split_child"
_ITEMSIZE = {
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "uint8": 1,
    "bool": 1,
    "complex64": 8,
    "complex128": 16,
}


def split_graph_code(payload: str) -> str:
    """The split graph's own code: DDPOptimizer's payload less the pieces' classes nested in it."""
    cut = payload.find("\n    class ")
    return payload if cut < 0 else payload[: cut + 1]


def _split_graph_nodes(code: str) -> list[Node]:
    nodes = parse_readable(code)
    for node in nodes:  # ``submod_0 = self.submod_0(l_x_, ...)``: a call of the piece, as FX names it
        if node.op == "call_function" and node.target.startswith("self."):
            node.op, node.target = "call_module", node.target[len("self.") :]
    return nodes


def parameters(nodes: list[Node]) -> list[DdpParameter]:
    """A piece's parameters: its inputs Dynamo named from a module's ``_parameters[...]`` (``l_self_modules_0_
    parameters_weight_``), with their bytes when the shape is static."""
    out = []
    for n in nodes:
        if n.op != "placeholder" or "_parameters_" not in n.name.lower():
            continue
        size: int | None = None
        if n.shape is not None and all(isinstance(d, int) for d in n.shape) and n.dtype in _ITEMSIZE:
            size = math.prod(int(d) for d in n.shape) * _ITEMSIZE[n.dtype]
        out.append(DdpParameter(name=n.name, shape=n.shape, dtype=n.dtype, bytes=size))
    return out


def add_split(
    report: CompileReport,
    compile_id: str,
    split_payload: str,
    children: list[tuple[str, str]],
    child_graphs: list[Graph] | None = None,
    bucket_cap_bytes: int | None = None,
) -> DdpSplit:
    """Add one split to ``report``: the split graph, each piece's graph (``child_graphs``, the backend's, relabelled;
    else built from its payload) and ``report.ddp_splits``' entry."""
    code = split_graph_code(split_payload)
    outer = report.add_graph(compile_id=compile_id, kind="ddp_split_graph", nodes=_split_graph_nodes(code), code=code)
    outer.name = "split graph"
    subs = []
    for i, (name, payload) in enumerate(children):
        nodes = parse_readable(payload)
        if child_graphs is not None and i < len(child_graphs):
            graph = child_graphs[i]
            graph.kind = "ddp_split_child"
        else:
            graph = report.add_graph(compile_id=compile_id, kind="ddp_split_child", nodes=nodes, code=payload)
        graph.name = name
        params = parameters(nodes)
        subs.append(
            DdpSubmodule(
                name=name,
                graph_id=graph.id,
                parameters=params,
                bytes=sum(p.bytes or 0 for p in params),
            )
        )
    split = DdpSplit(compile_id=compile_id, graph_id=outer.id, bucket_cap_bytes=bucket_cap_bytes, submodules=subs)
    report.ddp_splits.append(split)
    return split


@dataclass(slots=True)
class _Split:
    """One ``DDPOptimizer.compile_fn`` call of the run that split its graph."""

    compile_id: str
    pieces: list[GraphRecord]
    events: list[tuple[str, str | None, str]] = field(default_factory=list)  # (event, piece name, payload)
    bucket_cap_bytes: int | None = None


class DdpSplitsCollector(Collector):
    name = "ddp_splits"
    requires = ("fx_graphs",)

    def __init__(self) -> None:
        self.splits: list[_Split] = []
        self._local = threading.local()  # the events of the compile_fn call running on this thread

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        try:
            from torch._dynamo.backends import distributed
        except ImportError:  # a torch built without distributed: no DDP, nothing to split
            yield
            return
        optimizer = getattr(distributed, "DDPOptimizer", None)
        original_tee = getattr(distributed, "trace_structured", None)
        if optimizer is None or original_tee is None:
            yield
            return
        original_compile = optimizer.compile_fn
        fx = ctx.get(FxGraphsCollector)
        collector = self

        def tee(name: str, metadata_fn: Any = dict, **kwargs: Any) -> Any:
            events = getattr(collector._local, "events", None)
            if events is not None and name in (SPLIT_GRAPH, SPLIT_CHILD):
                payload = kwargs["payload_fn"]()
                meta = metadata_fn()
                events.append((name, meta.get("name") if isinstance(meta, dict) else None, payload))
                kwargs["payload_fn"] = lambda: payload
                return original_tee(name, lambda: meta, **kwargs)
            return original_tee(name, metadata_fn, **kwargs)

        from .._compat import current_trace_id  # a live run's: importing this module imports no torch

        def compile_fn(opt: Any, gm: Any, example_inputs: list[Any], **kwargs: Any) -> Any:
            cid = current_trace_id()[0]
            if cid is None or not ctx.watches(cid):
                return original_compile(opt, gm, example_inputs, **kwargs)
            outer = getattr(collector._local, "events", None)
            events: list[tuple[str, str | None, str]] = []
            pieces: list[GraphRecord] = []
            backend = opt.backend_compile_fn

            def piece(sub: Any, inputs: list[Any], **configs: Any) -> Any:
                pieces.append(GraphRecord(cid, node_rows(sub), graph_device(inputs), readable(sub)))
                return backend(sub, inputs, **configs)

            collector._local.events = events
            opt.backend_compile_fn = piece
            try:
                return original_compile(opt, gm, example_inputs, **kwargs)
            finally:
                opt.backend_compile_fn = backend
                collector._local.events = outer
                if any(e[0] == SPLIT_GRAPH for e in events):  # split: the backend got the pieces, never ``gm`` itself
                    fx.records.extend(pieces)  # after the whole graph, as Dynamo traced it
                    collector.splits.append(_Split(cid, pieces, events, getattr(opt, "bucket_bytes_cap", None)))

        optimizer.compile_fn = compile_fn
        distributed.trace_structured = tee
        try:
            yield
        finally:
            optimizer.compile_fn = original_compile
            distributed.trace_structured = original_tee

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for split in self.splits:
            graph = next((e[2] for e in split.events if e[0] == SPLIT_GRAPH), "")
            named = [(name, payload) for event, name, payload in split.events if event == SPLIT_CHILD]
            children = [(name or f"submod_{i}", payload) for i, (name, payload) in enumerate(named)]
            pieces = [report.graphs[r.graph_id] for r in split.pieces if r.graph_id is not None]
            add_split(
                report,
                split.compile_id,
                graph,
                children,
                pieces if len(pieces) == len(children) else None,
                split.bucket_cap_bytes,
            )
