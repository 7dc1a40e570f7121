"""Collector for ``--profile``: what the run cost, measured by ``torch.profiler`` as the cell ran.

[Note: profile] Opt-in (``RunOptions.profile``); without it this collector installs nothing and wraps
nothing. With it, ``torch.profiler`` records every thread (CPU activity, plus CUDA where there is a GPU)
from the first line of the cell to the last, and three kinds of marks make its events readable:
- Dynamo's own: ``Torch-Compiled Region: <compile id>`` around each call of a cache entry's code (one
  per hit), ``TorchDynamo Cache Lookup`` around each guard evaluation, and autograd's
  ``autograd::engine::evaluate_function: <node>`` around each backward node
  (``CompiledFunctionBackward`` for a compiled backward graph); Dynamo's ``<key> (dynamo_timed)`` around
  each compile phase (inductor's autotuning, ``CachingAutotuner.benchmark_all_configs``, included);
- ``dynamo_explorer.graph <compile id>#<n>`` around each call of a compiled graph (the n-th graph of that
  compile): the ``on_compiled`` hook wraps what the backend returned (AOT runtime wrappers included in
  its time);
- ``dynamo_explorer.compile`` around each compile (compile start to end callback, on the thread that
  compiles), and ``dynamo_explorer.cell`` around the whole run.
The profiler keeps recording while Dynamo compiles (``toggle_collection_dynamic`` would save that cost
but prints a C++ warning into the cell's output on every toggle); whatever lies inside a compile is
skipped when the events are read.

Events are read from kineto's raw list (``profile_torch.stop_profiler``: far cheaper than building
``FunctionEvent`` trees) and nested by time, thread by thread. CUDA runtime calls (``cudaLaunchKernel``)
are not nested: the profiler moves them onto their op's thread, and one it could not link lands on the
thread that stopped the profiler, at its own time. A span's time belongs to the innermost of: a compile,
a graph call, a cache lookup, a backward node, a cache entry's region, the cell. ATen ops are counted
where no ATen op, graph, compile or backward node encloses them (top-level ops, the unit of TorchDynamo
Update 5's profiler, ``torch/_dynamo/profiler.py``: one per torch call made eagerly). A graph's captured
ops are its Dynamo graph's nodes that make a tensor (``GraphProfile.ops``), the same unit: the eager ops
one call replaces.

Compile work inside a call (a graph's first call: a lazy compile, loading the generated code, inductor's
autotuning; a compiled backward's first call: AOTAutograd's lazy backward compile) is any compile span in
it: counted apart per call (``CallsProfile.compile_ms``, ``BackwardProfile.compile_ms``) and as compile
time in the run split. A graph's calls are numbered by their start, over all threads: its first call
(``GraphProfile.first_call``) is reported apart from the calls after it (``steady``).

Device work (kernels, memcpy, memset on a GPU) is charged by launch, never by time: the profiler links
each one (its ``linked_correlation``) to the CPU op that was innermost on the launching thread when it was
launched (kineto's external correlation; the CUDA runtime call lies inside that op). That op's enclosing
spans on its thread say whose it is: a graph call (#n of that graph), a compiled backward call, compile
work (autotuning's benchmark runs and L2-cache flushes: ``compile_device_ms``), or none of them (eager: the
cell's own ``torch.randn(..., device="cuda")`` between two graphs, ``eager_device_ms``). A kernel runs after
its launch, often while the next call or the next eager op already runs on the host; its time still goes
to the call that launched it.

The run split follows the cell's thread. Another thread (autograd's device thread, a thread the cell
started) counts only where the cell's thread is neither in a graph call nor compiling (it waits for it):
there, time in a compiled call or a compile on any other thread counts as compiled or compile time, once.
Its graph calls, compiled backward calls and backward nodes are counted wherever they ran; its top-level
eager ATen ops count with the cell's own (``outside``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ...model import (
    CompileReport,
)
from ..base import CaptureContext, Collector
from . import profile_torch
from .profile_analysis import CELL, COMPILE, GRAPH
from .profile_report import analyse

__all__ = ["ProfileCollector"]


class ProfileCollector(Collector):
    name = "profile"
    requires = ("frames", "fx_graphs", "graph_breaks", "timings")

    def __init__(self) -> None:
        self.profiler: Any = None
        self.events: list[Any] = []
        self.cuda = False
        self._graph_count: dict[str, int] = {}
        self._compiles: dict[int, list[Any]] = {}  # thread -> the compile marks open on it

    # --- while the cell runs ---------------------------------------------------------------------
    def install(self, ctx: CaptureContext) -> contextlib.AbstractContextManager[Any]:
        return self._profiling(ctx) if ctx.options.profile else contextlib.nullcontext()

    @contextlib.contextmanager
    def _profiling(self, ctx: CaptureContext) -> Iterator[None]:
        self.profiler, self.cuda = profile_torch.start_profiler()
        try:
            with profile_torch.profiler_mark(CELL):
                yield
        finally:
            # a compile interrupted by an exception: its mark is closed here on its own thread; another thread's
            # is let go once the profiler stopped (a span is closed on the thread that opened it)
            mine = self._compiles.pop(threading.get_ident(), [])
            while mine:
                mine.pop().__exit__(None, None, None)
            self.events = profile_torch.stop_profiler(self.profiler)
            self.profiler = None
            self._compiles.clear()

    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        if self.profiler is not None:
            mark = profile_torch.profiler_mark(COMPILE)
            mark.__enter__()
            self._compiles.setdefault(threading.get_ident(), []).append(mark)

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        marks = self._compiles.get(threading.get_ident())
        if self.profiler is not None and marks:
            marks.pop().__exit__(None, None, None)

    def on_compiled(self, ctx: CaptureContext, compile_id: str, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        if not ctx.options.profile:
            return compiled_fn
        n = self._graph_count.get(compile_id, 0)
        self._graph_count[compile_id] = n + 1
        return profile_torch.marked_call(compiled_fn, f"{GRAPH}{compile_id}#{n}")

    # --- after the run -----------------------------------------------------------------------------
    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        if not ctx.options.profile or not self.events:
            return
        report.profile = analyse(self.events, report, self.cuda)
        self.events = []
