"""``--profile``'s reading of the profiler's events ([Note: profile] in ``collectors/profile/profile.py``): the marks' names,
the events nested by time thread by thread, the run split, each graph's and cache entry's calls and time, device
work charged by launch, eager gaps by cause, captured-op coverage, the backward (``Analysis``);
``profile_report.analyse`` makes the report's ``Profile`` of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...model import (
    BackwardProfile,
    Graph,
)

__all__ = [
    "ATTEMPT",
    "CELL",
    "COMPILE",
    "COMPILED_BACKWARD",
    "DEVICE_METHOD",
    "EAGER_KERNELS",
    "GRAPH",
    "METHOD",
    "Analysis",
    "Call",
    "Span",
    "graph_ops",
    "is_device_work",
    "is_launch_site",
]

CELL = "dynamo_explorer.cell"
COMPILE = "dynamo_explorer.compile"
GRAPH = "dynamo_explorer.graph "
REGION = "Torch-Compiled Region: "
LOOKUP = "TorchDynamo Cache Lookup"
BACKWARD = "autograd::engine::evaluate_function: "
COMPILED_BACKWARD = BACKWARD + "CompiledFunctionBackward"
# Dynamo's compile spans start a little before the compile-start callback (dynamo_timed's outermost)
COMPILE_NAMES = frozenset({COMPILE, "dynamo"})
# compile work that also runs inside a call: every dynamo_timed span ("<key> (dynamo_timed)") and the phase
# names its chromium events give the profiler (torch 2.13; older torch: the "(dynamo_timed)" span only)
DYNAMO_TIMED = " (dynamo_timed)"
COMPILE_PHASES = frozenset(
    {
        "entire_frame_compile",
        "entire_backward_compile",
        "backend_compile",
        "inductor_compile",
        "code_gen",
        "CachingAutotuner.benchmark_all_configs",
        "CachingAutotuner.coordinate_descent_tuning",
        "CachingAutotuner.combo_sequential_autotune",
        "CachingAutotuner.slow_precompile_config",
    }
)
# kineto activity types (ProfilerEvent.kind): the CPU spans a device kernel can be linked to, device work
LAUNCH_SITES = frozenset({"cpu_op", "user_annotation", "python_function"})
DEVICE_WORK = frozenset({"kernel", "gpu_memcpy", "gpu_memset"})
_RUNTIME_CALL = re.compile(r"cu(?:da)?[A-Z]")  # cudaLaunchKernel, cuLaunchKernel (where kind is unknown)
ATTEMPT = re.compile(r"_\d+$")
EAGER_KERNELS = 20  # the most device time first

METHOD = (
    "torch.profiler (CPU{cuda}) recorded every thread as the cell ran, once. Graph time: host time inside each "
    "compiled graph's callable{device}; a graph's first call is shown apart from the calls after it, with the "
    "compile work inside it (a lazy compile, loading its code, inductor's autotuning). Compile time: inside "
    "Dynamo's compiles (callback start to end) and that compile work. Eager: the rest (the cell's own lines, "
    "graph-break code, Dynamo's glue and cache lookups). The split follows the cell's thread; another thread "
    "(autograd's device thread, a thread the cell started) counts only while the cell's thread is neither in a "
    "graph nor compiling, and each moment once. Ops: eager ops are the top-level ATen ops that ran outside "
    "graphs, compiles and autograd's backward; captured ops are, per graph call, the Dynamo graph's nodes that "
    "make a tensor (one per torch call it replaces), as TorchDynamo Update 5 counted them. The profiler adds "
    "its own cost to each eager op."
)
DEVICE_METHOD = (
    "; device time: each kernel is charged to the call that launched it (the profiler's link from a kernel to "
    "the CPU op that launched it), not to whatever ran on the host while it ran: kernels launched by compile "
    "work (autotuning's benchmark runs and cache flushes) count as compile, kernels launched outside any graph "
    "call as eager"
)


def graph_ops(graph: Graph) -> int:
    """The torch operations a Dynamo graph replaces: its call nodes that make a tensor (not getitem)."""
    return sum(
        1
        for n in graph.nodes
        if n.op in ("call_function", "call_method", "call_module") and n.dtype is not None and n.target != "_operator.getitem"
    )


def is_compile_work(name: str) -> bool:
    """A span of compile work: a compile, a Dynamo compile phase, inductor's autotuning."""
    return name in COMPILE_NAMES or name in COMPILE_PHASES or name.endswith(DYNAMO_TIMED)


def is_launch_site(e: Any) -> bool:
    """A CPU span (a RecordFunction: an ATen op, a mark) that the profiler can link device work to; not a
    CUDA runtime or driver call, whose correlation ids are CUPTI's own and collide with the ops'."""
    if e.device_type != "cpu":
        return False
    if e.kind:
        return e.kind in LAUNCH_SITES
    return e.linked_correlation == 0 and not _RUNTIME_CALL.match(e.name)


def is_device_work(e: Any) -> bool:
    """Device work with a time of its own: a kernel, a memcpy, a memset (not a GPU-side annotation range)."""
    if e.device_type == "cpu":
        return False
    return e.kind in DEVICE_WORK if e.kind else True


Interval = tuple[int, int]


@dataclass(slots=True)
class Span:
    """One recorded event on a thread, with what was found inside it."""

    name: str
    start: int
    end: int
    correlation: int
    cut: int = 0  # ns of its duration that belongs to spans nested in it (of another kind)
    ops: int = 0  # top-level eager ATen ops under it (not in a nested cut)
    op_ns: int = 0
    cuts: list[Interval] | None = None  # those nested spans, where another thread's time is taken out of it


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
class Call:
    """One call of a compiled graph (``key``: ``<compile id>#<n>``) or of a compiled backward (``key`` None)."""

    key: str | None
    index: int  # 0: the graph's first call (by start time, over all threads)
    host: int
    compile: int = 0  # ns of compile work inside it
    device: int = 0  # ns of the device work it launched itself
    kernels: int = 0
    compile_device: int = 0  # ns of the device work its compile work launched (autotuning)
    compile_kernels: int = 0


@dataclass(slots=True)
class _GraphCalls:
    calls: list[Call] = field(default_factory=list)
    kernels: dict[str, list[int]] = field(default_factory=dict)  # its own kernels: name -> [launches, ns]


@dataclass(slots=True)
class _Frame:
    """An open span on a thread's stack."""

    span: Span
    kind: str
    skip: bool  # everything below is not eager (inside a graph, a compile or an ATen op already counted)
    call: Call | None  # the innermost graph or compiled backward call it lies in
    compiling: bool  # inside compile work


# --- intervals (ns), for the run split -----------------------------------------------------------------
def _union(intervals: Iterable[Interval]) -> list[Interval]:
    out: list[Interval] = []
    for s, e in sorted(intervals):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _intersect(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """Both sorted and disjoint (``_union``'s output)."""
    out: list[Interval] = []
    i = j = 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append((s, e))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _minus(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """``a`` less ``b``, both sorted and disjoint."""
    out: list[Interval] = []
    j = 0
    for s, e in a:
        while j < len(b) and b[j][1] <= s:
            j += 1
        k = j
        while k < len(b) and b[k][0] < e:
            if b[k][0] > s:
                out.append((s, b[k][0]))
            s = max(s, b[k][1])
            k += 1
        if s < e:
            out.append((s, e))
    return out


def _length(intervals: Iterable[Interval]) -> int:
    return sum(e - s for s, e in intervals)


class Analysis:
    """The events of one run, read thread by thread ([Note: profile])."""

    def __init__(self, call_index: dict[int, int]) -> None:
        self.call_index = call_index  # a graph mark's correlation -> its call number in that graph
        self.entries: dict[str, _Entry] = {}
        self.graphs: dict[str, _GraphCalls] = {}
        self.backward = BackwardProfile(compiled_calls=0, compiled_ms=0.0, eager_nodes=0, eager_ms=0.0)
        self.backward_calls: list[Call] = []
        self.backward_op_ns = [0, 0]  # eager backward: ns, ops (not counted in coverage)
        self.lookup_ns = 0
        self.lookups = 0
        self.outside = _Entry()
        self.launch: dict[int, tuple[Call | None, bool]] = {}  # an op's correlation -> (its call, compile work)
        # the other threads' compile work and calls, and the part of them the run split counts
        self.other_compile_iv: list[Interval] = []
        self.other_call_iv: list[Interval] = []
        self.projected: list[Interval] = []
        self.eager_device = 0
        self.compile_device = 0
        self.eager_kernels: dict[str, list[int]] = {}

    def _self_ns(self, span: Span) -> int:
        """A span's own time: less its nested cuts, and less another thread's time the split counted in it."""
        own = span.end - span.start - span.cut
        if span.cuts is not None and self.projected:
            mine = _minus([(span.start, span.end)], _union(span.cuts))
            own -= _length(_intersect(mine, self.projected))
        return own

    def close(self, frame: _Frame) -> None:
        span, kind = frame.span, frame.kind
        dur = span.end - span.start
        if kind == "region":
            e = self.entries.setdefault(ATTEMPT.sub("", span.name[len(REGION) :]), _Entry())
            e.hits += 1
            e.total += dur
            e.self_ns += self._self_ns(span)
            e.ops += span.ops
            e.op_ns += span.op_ns
        elif kind == "cell":
            self.outside.self_ns += self._self_ns(span)
            self.outside.ops += span.ops
            self.outside.op_ns += span.op_ns
        elif kind == "thread":  # another thread's top-level eager ops count with the cell's own
            self.outside.ops += span.ops
            self.outside.op_ns += span.op_ns
        elif kind == "backward":
            self.backward.eager_nodes += 1
            self.backward.eager_ms += dur / 1e6
            self.backward_op_ns[0] += span.op_ns
            self.backward_op_ns[1] += span.ops

    def walk(self, spans: list[Span], main: bool) -> None:
        """Nest one thread's spans by time; ``main``: the cell's thread (the timeline of the run split; read
        after the others, whose time the split counted is taken out of the eager time it waited in)."""
        compile_iv: list[Interval] = [] if main else self.other_compile_iv
        call_iv: list[Interval] = [] if main else self.other_call_iv
        track = main and bool(self.projected)
        # another thread has no cell span: a root that only collects its top-level eager ops
        stack: list[_Frame] = [] if main else [_Frame(Span("", 0, 1 << 63, 0), "thread", False, None, False)]
        pending_lookup: list[int] = []  # a lookup's ns waits for the region that follows it
        for span in spans:
            while stack and stack[-1].span.end <= span.start:
                self.close(stack.pop())
            top = stack[-1] if stack else None
            skip = top.skip if top else False
            call = top.call if top else None
            compiling = top.compiling if top else False
            name = span.name
            dur = span.end - span.start
            work = not compiling and is_compile_work(name)
            if skip:
                if work:
                    compiling = True
                    if call is not None:  # inside a call: its lazy compile, its autotuning
                        call.compile += dur
                        compile_iv.append((span.start, span.end))
                self.launch[span.correlation] = (call, compiling)
                stack.append(_Frame(span, "inner", True, call, compiling))
                continue
            owner = next((f.span for f in reversed(stack) if f.kind in ("region", "cell", "backward", "thread")), None)
            kind = "inner"
            if name == CELL and main:
                kind = "cell"
            elif work:
                kind = "compile"
                compiling = True
                compile_iv.append((span.start, span.end))
            elif name.startswith(GRAPH):
                kind = "graph"
                key = name[len(GRAPH) :]
                call = Call(key, self.call_index.get(span.correlation, 0), dur)
                self.graphs.setdefault(key, _GraphCalls()).calls.append(call)
                call_iv.append((span.start, span.end))
                if owner is not None and owner.name.startswith(REGION):
                    self.entries.setdefault(ATTEMPT.sub("", owner.name[len(REGION) :]), _Entry()).graph += dur
            elif name == LOOKUP:
                kind = "lookup"
                self.lookup_ns += dur
                self.lookups += 1
                pending_lookup.append(dur)
            elif name.startswith(REGION):
                kind = "region"
                e = self.entries.setdefault(ATTEMPT.sub("", name[len(REGION) :]), _Entry())
                if pending_lookup:  # the lookup that chose this entry ends right before it starts
                    e.lookup += pending_lookup.pop()
                    e.lookups += 1
                pending_lookup.clear()
            elif name == COMPILED_BACKWARD:
                kind = "compiled_backward"
                call = Call(None, 0, dur)
                self.backward_calls.append(call)
                self.backward.compiled_calls += 1
                self.backward.compiled_ms += dur / 1e6
                if not main:
                    self.backward.other_thread_calls += 1
                call_iv.append((span.start, span.end))
            elif name.startswith(BACKWARD):
                kind = "backward"
            elif name.startswith("aten::"):
                kind = "op"
                if owner is not None:
                    owner.ops += 1
                    owner.op_ns += dur
            cut = kind in ("compile", "graph", "lookup", "region", "compiled_backward", "backward")
            if cut and owner is not None:
                owner.cut += dur
                if track:
                    if owner.cuts is None:
                        owner.cuts = []
                    owner.cuts.append((span.start, span.end))
            self.launch[span.correlation] = (call, compiling)
            stack.append(_Frame(span, kind, kind in ("compile", "graph", "op", "compiled_backward"), call, compiling))
        while stack:
            self.close(stack.pop())

    def charge(self, e: Any) -> None:
        """One piece of device work, to whoever launched it (its launch site's call and compile work)."""
        ns = e.end - e.start
        call, compiling = self.launch.get(e.linked_correlation, (None, False)) if e.linked_correlation else (None, False)
        if compiling:
            self.compile_device += ns
            if call is not None:
                call.compile_device += ns
                call.compile_kernels += 1
            return
        if call is None:
            self.eager_device += ns
            _add_kernel(self.eager_kernels, e.name, ns)
            return
        call.device += ns
        call.kernels += 1
        if call.key is not None:
            _add_kernel(self.graphs[call.key].kernels, e.name, ns)

    def split(self, main: list[Span], root: Any) -> tuple[int, int]:
        """(compiled ns, compile ns) of the run split: the cell's thread (``main``), then, where it was in neither,
        the other threads' compile work and calls (read first), each moment once. Sets ``projected``."""
        compiling = _union((s.start, s.end) for s in main if is_compile_work(s.name))
        calls = _union((s.start, s.end) for s in main if s.name.startswith(GRAPH) or s.name == COMPILED_BACKWARD)
        compiled_ns = _length(_minus(calls, compiling))
        compile_ns = _length(compiling)
        if root is not None and (self.other_compile_iv or self.other_call_iv):
            free = _minus([(root.start, root.end)], _union(compiling + calls))
            other_compiling = _intersect(_union(self.other_compile_iv), free)
            other_compiled = _minus(_intersect(_union(self.other_call_iv), free), other_compiling)
            compile_ns += _length(other_compiling)
            compiled_ns += _length(other_compiled)
            self.projected = _union(other_compiling + other_compiled)
        return compiled_ns, compile_ns


def _add_kernel(kernels: dict[str, list[int]], name: str, ns: int) -> None:
    k = kernels.setdefault(name, [0, 0])
    k[0] += 1
    k[1] += ns
