"""Collector for ``--profile``: what the run cost, measured by ``torch.profiler`` as the cell ran.

[Note: profile] Opt-in (``RunOptions.profile``); without it this collector installs nothing and wraps
nothing. With it, ``torch.profiler`` records the cell's thread (CPU activity, plus CUDA where there is
a GPU) from the first line of the cell to the last, and three kinds of marks make its events readable:
- Dynamo's own: ``Torch-Compiled Region: <compile id>`` around each call of a cache entry's code (one
  per hit), ``TorchDynamo Cache Lookup`` around each guard evaluation, and autograd's
  ``autograd::engine::evaluate_function: <node>`` around each backward node
  (``CompiledFunctionBackward`` for a compiled backward graph);
- ``dynamo_explorer.graph <compile id>#<n>`` around each call of a compiled graph: the ``on_compiled``
  hook wraps what the backend returned (AOT runtime wrappers included in its time);
- ``dynamo_explorer.compile`` around each compile (compile start to end callback), and
  ``dynamo_explorer.cell`` around the whole run.
The profiler keeps recording while Dynamo compiles (``toggle_collection_dynamic`` would save that cost
but prints a C++ warning into the cell's output on every toggle); whatever lies inside a compile is
skipped when the events are read.

Events are read from kineto's raw list (``_compat.profiler_events``: far cheaper than building
``FunctionEvent`` trees) and nested by time on the cell's thread. A span's time belongs to the innermost
of: a compile, a graph call, a cache lookup, a backward node, a cache entry's region, the cell. ATen ops
are counted where no ATen op, graph, compile or backward node encloses them (top-level ops, the unit
of TorchDynamo Update 5's profiler, ``torch/_dynamo/profiler.py``: one per torch call made eagerly).
A graph's captured ops are its Dynamo graph's nodes that make a tensor (``GraphProfile.ops``), the same
unit: the eager ops one call replaces. Device kernels (a GPU) are attributed to the graph whose call
launched them through the profiler's correlation ids.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import _compat
from ..model import (
    BackwardProfile,
    CompileReport,
    Coverage,
    EagerGap,
    EntryProfile,
    FrameCoverage,
    Graph,
    GraphProfile,
    KernelProfile,
    Profile,
)
from .base import CaptureContext, Collector

__all__ = ["ProfileCollector", "graph_ops"]

CELL = "dynamo_explorer.cell"
COMPILE = "dynamo_explorer.compile"
GRAPH = "dynamo_explorer.graph "
REGION = "Torch-Compiled Region: "
LOOKUP = "TorchDynamo Cache Lookup"
BACKWARD = "autograd::engine::evaluate_function: "
COMPILED_BACKWARD = BACKWARD + "CompiledFunctionBackward"
# Dynamo's compile spans start a little before the compile-start callback (dynamo_timed's outermost)
COMPILE_NAMES = frozenset({COMPILE, "dynamo"})
_ATTEMPT = re.compile(r"_\d+$")

METHOD = (
    "torch.profiler (CPU{cuda}) recorded the cell's thread as it ran, once. Graph time: host time inside each "
    "compiled graph's callable{device}. Compile time: inside Dynamo's compiles (callback start to end). "
    "Eager: the rest (the cell's own lines, graph-break code, Dynamo's glue and cache lookups). Ops: eager "
    "ops are the top-level ATen ops that ran outside graphs, compiles and autograd's backward; captured ops "
    "are, per graph call, the Dynamo graph's nodes that make a tensor (one per torch call it replaces), as "
    "TorchDynamo Update 5 counted them. The profiler adds its own cost to each eager op."
)


def graph_ops(graph: Graph) -> int:
    """The torch operations a Dynamo graph replaces: its call nodes that make a tensor (not getitem)."""
    return sum(
        1
        for n in graph.nodes
        if n.op in ("call_function", "call_method", "call_module") and n.dtype is not None and n.target != "_operator.getitem"
    )


@dataclass(slots=True)
class _Span:
    """One recorded event on the cell's thread, with what was found inside it."""

    name: str
    start: int
    end: int
    correlation: int
    cut: int = 0  # ns of its duration that belongs to spans nested in it (of another kind)
    ops: int = 0  # top-level eager ATen ops under it (not in a nested cut)
    op_ns: int = 0


@dataclass(slots=True)
class _Entry:
    hits: int = 0
    total: int = 0
    self_ns: int = 0
    graph: int = 0
    lookup: int = 0
    lookups: int = 0
    ops: int = 0
    op_ns: int = 0


@dataclass(slots=True)
class _GraphCalls:
    calls: int = 0
    total: int = 0
    device: int = 0
    kernels: dict[str, list[int]] = field(default_factory=dict)  # name -> [calls, ns]


class ProfileCollector(Collector):
    name = "profile"
    requires = ("frames", "fx_graphs", "graph_breaks", "timings")

    def __init__(self) -> None:
        self.profiler: Any = None
        self.events: list[Any] = []
        self.cuda = False
        self._graph_count: dict[str, int] = {}
        self._compiles: list[Any] = []

    # --- while the cell runs ---------------------------------------------------------------------
    def install(self, ctx: CaptureContext) -> contextlib.AbstractContextManager[Any]:
        return self._profiling(ctx) if ctx.options.profile else contextlib.nullcontext()

    @contextlib.contextmanager
    def _profiling(self, ctx: CaptureContext) -> Iterator[None]:
        self.profiler, self.cuda = _compat.start_profiler()
        try:
            with _compat.profiler_mark(CELL):
                yield
        finally:
            while self._compiles:  # a compile interrupted by an exception
                self._compiles.pop().__exit__(None, None, None)
            self.events = _compat.stop_profiler(self.profiler)
            self.profiler = None

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if self.profiler is not None:
            mark = _compat.profiler_mark(COMPILE)
            mark.__enter__()
            self._compiles.append(mark)

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if self.profiler is not None and self._compiles:
            self._compiles.pop().__exit__(None, None, None)

    def on_compiled(self, ctx: CaptureContext, compile_id: str, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        if not ctx.options.profile:
            return compiled_fn
        n = self._graph_count.get(compile_id, 0)
        self._graph_count[compile_id] = n + 1
        return _compat.marked_call(compiled_fn, f"{GRAPH}{compile_id}#{n}")

    # --- after the run -----------------------------------------------------------------------------
    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        if not ctx.options.profile or not self.events:
            return
        report.profile = _analyse(self.events, report, self.cuda)
        self.events = []


def _analyse(events: list[Any], report: CompileReport, cuda: bool) -> Profile:
    cpu = [e for e in events if e.device_type == "cpu"]
    root = next((e for e in cpu if e.name == CELL), None)
    thread = root.thread if root is not None else None
    spans = sorted(
        (_Span(e.name, e.start, e.end, e.correlation) for e in cpu if e.thread == thread),
        key=lambda s: (s.start, -s.end),
    )
    entries: dict[str, _Entry] = {}
    graphs: dict[str, _GraphCalls] = {}
    backward = BackwardProfile(compiled_calls=0, compiled_ms=0.0, eager_nodes=0, eager_ms=0.0)
    backward_op_ns = [0, 0]  # eager backward: ns, ops (not counted in coverage)
    compile_ns = lookup_ns = lookups = 0
    outside = _Entry()
    graph_of_correlation: dict[int, str] = {}

    # The stack holds the open spans; ``ctx`` is the innermost span that owns time (a "cut"), ``skip``
    # says that everything below is not eager (inside a graph, a compile or an ATen op already counted).
    stack: list[tuple[_Span, str, bool]] = []  # (span, kind, skip below)
    pending_lookup: list[int] = []  # a lookup's ns waits for the region that follows it

    def close(span: _Span, kind: str) -> None:
        nonlocal compile_ns
        dur = span.end - span.start
        if kind == "region":
            cid = _ATTEMPT.sub("", span.name[len(REGION) :])
            e = entries.setdefault(cid, _Entry())
            e.hits += 1
            e.total += dur
            e.self_ns += dur - span.cut
            e.ops += span.ops
            e.op_ns += span.op_ns
        elif kind == "cell":
            outside.self_ns += dur - span.cut
            outside.ops += span.ops
            outside.op_ns += span.op_ns
        elif kind == "backward":
            backward.eager_nodes += 1
            backward.eager_ms += dur / 1e6
            backward_op_ns[0] += span.op_ns
            backward_op_ns[1] += span.ops

    for span in spans:
        while stack and stack[-1][0].end <= span.start:
            done, kind, _ = stack.pop()
            close(done, kind)
        parent = stack[-1] if stack else None
        skip = parent[2] if parent else False
        name = span.name
        dur = span.end - span.start
        owner = next((s for s, k, _ in reversed(stack) if k in ("region", "cell", "backward")), None)
        if skip:
            # inside a graph call: its device launches belong to it
            g = next((s.name[len(GRAPH) :] for s, k, _ in reversed(stack) if k == "graph"), None)
            if g is not None:
                graph_of_correlation[span.correlation] = g
            stack.append((span, "inner", True))
            continue
        kind = "inner"
        if name == CELL:
            kind = "cell"
        elif name in COMPILE_NAMES:
            kind = "compile"
            compile_ns += dur
        elif name.startswith(GRAPH):
            kind = "graph"
            made = graphs.setdefault(name[len(GRAPH) :], _GraphCalls())
            made.calls += 1
            made.total += dur
            graph_of_correlation[span.correlation] = name[len(GRAPH) :]
            if owner is not None and owner.name.startswith(REGION):
                entries.setdefault(_ATTEMPT.sub("", owner.name[len(REGION) :]), _Entry()).graph += dur
        elif name == LOOKUP:
            kind = "lookup"
            lookup_ns += dur
            lookups += 1
            pending_lookup.append(dur)
        elif name.startswith(REGION):
            kind = "region"
            cid = _ATTEMPT.sub("", name[len(REGION) :])
            e = entries.setdefault(cid, _Entry())
            if pending_lookup:  # the lookup that chose this entry ends right before it starts
                e.lookup += pending_lookup.pop()
                e.lookups += 1
            pending_lookup.clear()
        elif name == COMPILED_BACKWARD:
            kind = "compiled_backward"
            backward.compiled_calls += 1
            backward.compiled_ms += dur / 1e6
        elif name.startswith(BACKWARD):
            kind = "backward"
        elif name.startswith("aten::"):
            kind = "op"
            if owner is not None:
                owner.ops += 1
                owner.op_ns += dur
        cut = kind in ("compile", "graph", "lookup", "region", "compiled_backward", "backward")
        if cut and owner is not None and kind != "cell":
            owner.cut += dur
        stack.append((span, kind, kind in ("compile", "graph", "op", "compiled_backward")))
    while stack:
        done, kind, _ = stack.pop()
        close(done, kind)

    # device kernels (a GPU): each one's launch correlates with a CPU event inside a graph call
    for e in events:
        if e.device_type == "cpu":
            continue
        key = graph_of_correlation.get(e.linked_correlation)
        if key is None:
            continue
        launched = graphs[key]
        launched.device += e.end - e.start
        k = launched.kernels.setdefault(e.name, [0, 0])
        k[0] += 1
        k[1] += e.end - e.start

    return _build(report, entries, graphs, outside, backward, backward_op_ns, compile_ns, lookup_ns, lookups, root, cuda)


def _ms(ns: float) -> float:
    return round(ns / 1e6, 4)


def _pct(part: float, whole: float) -> float:
    return round(part / whole, 4) if whole else 0.0


def _build(
    report: CompileReport,
    entries: dict[str, _Entry],
    graphs: dict[str, _GraphCalls],
    outside: _Entry,
    backward: BackwardProfile,
    backward_op_ns: list[int],
    compile_ns: int,
    lookup_ns: int,
    lookups: int,
    root: Any,
    cuda: bool,
) -> Profile:
    dynamo_graphs: dict[str, list[Graph]] = {}
    for g in report.graphs:
        if g.kind == "dynamo":
            dynamo_graphs.setdefault(g.compile_id, []).append(g)
    rows = []
    for key, calls in graphs.items():
        cid, n = key.rsplit("#", 1)
        cid = _ATTEMPT.sub("", cid)
        of_frame = dynamo_graphs.get(cid, [])
        graph = of_frame[int(n)] if int(n) < len(of_frame) else None
        kernels = sorted(
            (KernelProfile(name=k, calls=c, device_ms=_ms(ns)) for k, (c, ns) in calls.kernels.items()),
            key=lambda k: -k.device_ms,
        )
        rows.append(
            GraphProfile(
                graph_id=graph.id if graph is not None else None,
                compile_id=cid,
                calls=calls.calls,
                total_ms=_ms(calls.total),
                mean_ms=_ms(calls.total / calls.calls) if calls.calls else 0.0,
                device_ms=_ms(calls.device) if cuda else None,
                ops=graph_ops(graph) if graph is not None else 0,
                kernels=kernels,
            )
        )
    rows.sort(key=lambda r: -r.total_ms)
    order = {f.compile_id: i for i, f in enumerate(report.frames)}
    entry_rows = [
        EntryProfile(
            compile_id=cid,
            hits=e.hits,
            total_ms=_ms(e.total),
            self_ms=_ms(e.self_ns + e.graph),
            graph_ms=_ms(e.graph),
            eager_ms=_ms(e.self_ns),
            eager_ops=e.ops,
            cache_lookup_ms=_ms(e.lookup),
        )
        for cid, e in sorted(entries.items(), key=lambda kv: order.get(kv[0], len(order)))
    ]
    gaps: list[EagerGap] = []
    for cid, e in entries.items():
        frame = report.frame(cid)
        breaks = frame.graph_breaks if frame is not None else []
        gaps.append(
            EagerGap(
                cause="graph_break" if breaks else "frame",
                compile_id=cid,
                break_index=len(breaks) - 1 if breaks else None,
                calls=e.hits,
                ms=_ms(e.self_ns),
                ops=e.ops,
            )
        )
    gaps.append(EagerGap(cause="outside", compile_id=None, break_index=None, calls=1, ms=_ms(outside.self_ns), ops=outside.ops))
    if backward.eager_nodes:
        gaps.append(
            EagerGap(
                cause="backward",
                compile_id=None,
                break_index=None,
                calls=backward.eager_nodes,
                ms=round(backward.eager_ms, 4),
                ops=backward_op_ns[1],
            )
        )
    gaps.sort(key=lambda g: -g.ms)
    backward.compiled_ms = round(backward.compiled_ms, 4)
    backward.eager_ms = round(backward.eager_ms, 4)

    graph_ns = sum(g.total for g in graphs.values())
    graph_ms_by_cid: dict[str, tuple[int, int, int]] = {}  # cid -> (calls, captured ops, ns)
    for r in rows:
        n_calls, ops, ns = graph_ms_by_cid.get(r.compile_id, (0, 0, 0))
        graph_ms_by_cid[r.compile_id] = (n_calls + r.calls, ops + r.calls * r.ops, ns + int(r.total_ms * 1e6))
    captured = sum(r.calls * r.ops for r in rows)
    eager_ops = outside.ops + sum(e.ops for e in entries.values())
    eager_op_ns = outside.op_ns + sum(e.op_ns for e in entries.values())
    frames_cov = []
    for er in entry_rows:
        n_calls, ops, ns = graph_ms_by_cid.get(er.compile_id, (0, 0, 0))
        e = entries[er.compile_id]
        frames_cov.append(
            FrameCoverage(
                compile_id=er.compile_id,
                graph_calls=n_calls,
                captured_ops=ops,
                total_ops=ops + e.ops,
                pct_ops=_pct(ops, ops + e.ops),
                pct_time=_pct(ns, ns + e.op_ns),
            )
        )
    coverage = Coverage(
        unique_graphs=len(rows),
        graph_calls=sum(r.calls for r in rows),
        captured_ops=captured,
        total_ops=captured + eager_ops,
        pct_ops=_pct(captured, captured + eager_ops),
        pct_time=_pct(graph_ns, graph_ns + eager_op_ns),
        frames=frames_cov,
    )
    wall_ns = (root.end - root.start) if root is not None else 0
    compiled_ms = _ms(graph_ns) + backward.compiled_ms
    compile_ms = _ms(compile_ns)
    return Profile(
        method=METHOD.format(
            cuda=" and CUDA" if cuda else "",
            device="; device time: the CUDA kernels each call launched" if cuda else "",
        ),
        device="cuda" if cuda else "cpu",
        wall_ms=_ms(wall_ns),
        compiled_ms=round(compiled_ms, 4),
        eager_ms=round(max(0.0, _ms(wall_ns) - compiled_ms - compile_ms), 4),
        compile_ms=compile_ms,
        cache_lookup_ms=_ms(lookup_ns),
        cache_lookups=lookups,
        graphs=rows,
        entries=entry_rows,
        eager=[g for g in gaps if g.ms > 0 or g.ops > 0],
        coverage=coverage,
        backward=backward,
    )
