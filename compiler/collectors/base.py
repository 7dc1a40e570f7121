"""What every collector shares: the ``Collector`` protocol and the per-run ``CaptureContext``.

A collector has a ``name``, an ``install(ctx)`` that returns a context manager (its hooks are removed
when it exits, also on exceptions), and a ``finalize(ctx, report)`` that adds its artifact kind to the
report after the run. Collectors never talk to each other; they share only the context.

[Note: zero-cost capture] Once any handler listens on ``torch.__trace``, torch builds every structured
payload of every compile (tensor descriptions, config dumps, readable graphs, guard trees): 1.03-1.14x
on a compile, measured (BENCHMARKS.md). So frames, graphs, guards, breaks, recompiles, symbols and
phase times come from hooks that cost nothing until Dynamo calls them: the bytecode hook, the backend,
``guard_export_fn``/``guard_fail_fn``, the compile start/end callbacks, the ``CompilationMetrics``
Dynamo always records, the cache entries' guard managers and the ``graph_breaks`` log (built only
when a break happens). The structured stream carries what exists nowhere else (AOT graphs, inductor's
output code); it is listened to only while an AOT-based backend compiles (``needs_trace``): inside the
explorer backend's call (``backend_window``) and during a lazy backward compile. Listening through a
whole aot_eager run cost 1.11x on the toy_example, measured; inside the window the rest of Dynamo's
compile builds no payloads.
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import _compat
from .._compat import current_trace_id
from ..cell import CellProgram
from ..events import BreakLog, CapturedLog, StructuredStream, TraceEvent
from ..model import CompileReport, Guard, Node
from ..options import RunOptions

__all__ = ["CaptureContext", "CodeRecord", "Collector", "GraphRecord", "gc_paused"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Hold off Python's cyclic GC while building many small objects that all survive: a full
    collection of a kernel's heap (a model, its fake tensors) in the middle costs more than the
    building (0.5 s seen on a 2,600-node report). The previous state is restored."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Collector(Protocol):
    name: str
    requires: tuple[str, ...]  # the collectors whose results this one reads (collectors/__init__.py orders them)

    def install(self, ctx: CaptureContext) -> AbstractContextManager[Any]: ...

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None: ...


@dataclass(slots=True)
class CodeRecord:
    """One successful frame compile, from the bytecode hook."""

    compile_id: str
    attempt: int
    orig: types.CodeType
    new: types.CodeType


@dataclass(slots=True)
class GraphRecord:
    """One graph handed to the backend, snapshotted before the backend could mutate it."""

    compile_id: str
    attempt: int
    nodes: list[Node]
    device: str
    code: str


_PHASES = (  # chromium_event name prefix -> what the progress line says
    ("bytecode_tracing", "tracing"),
    ("compile_attempt", "tracing"),
    ("build_guards", "guards"),
    ("aot", "AOT"),
    ("create_aot_dispatcher", "AOT"),
    ("inductor", "inductor codegen"),
    ("code_gen", "inductor codegen"),
    ("compile_file", "inductor codegen"),
    ("Scheduler", "inductor codegen"),
    ("GraphLowering", "inductor codegen"),
    ("backend_compile", "backend"),
)


@dataclass
class CaptureContext:
    """Everything one run captures; filled while the cell runs, read by ``finalize``."""

    program: CellProgram
    options: RunOptions
    on_progress: Callable[[int, str, str | None, float], None] | None = None
    thread: int = field(default_factory=threading.get_ident)
    started: float = field(default_factory=time.perf_counter)
    code_records: list[CodeRecord] = field(default_factory=list)
    graph_records: list[GraphRecord] = field(default_factory=list)
    guard_exports: dict[str, tuple[list[Guard], int]] = field(default_factory=dict)  # rows (capped), total
    logs: list[CapturedLog] = field(default_factory=list)
    codes_seen: list[types.CodeType] = field(default_factory=list)
    shared_codes: list[types.CodeType] = field(default_factory=list)
    seeded: list[str] = field(default_factory=list)
    added_names: list[str] = field(default_factory=list)
    compile_order: list[str] = field(default_factory=list)
    phase_s: dict[str, dict[str, float]] = field(default_factory=dict)
    guard_failures: dict[str, list[str]] = field(default_factory=dict)
    symbols: dict[str, list[tuple[str, list[str], Any, str]]] = field(default_factory=dict)
    metrics: list[Any] = field(default_factory=list)
    guard_managers: dict[str, Any] = field(default_factory=dict)
    breaks: BreakLog = field(default_factory=BreakLog)
    exception: BaseException | None = None
    calls: Any = None  # the CallCompiler of a calls-scope run
    label_file: Callable[[str], str | None] | None = None  # [Note: sources] in sources.py
    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    stream: StructuredStream = field(init=False)
    _phase_marks: dict[str, dict[str, int]] = field(default_factory=dict)
    _stream_depth: int = 0

    def __post_init__(self) -> None:
        self.stream = StructuredStream(on_event=self._on_event if self.on_progress else None)

    @property
    def needs_trace(self) -> bool:
        """Listen on ``torch.__trace`` only for AOT-based backends ([Note: zero-cost capture])."""
        return self.options.backend != "eager"

    # --- hooks called by torch while the cell runs -------------------------------------------
    def record_code(self, orig: types.CodeType, new: types.CodeType) -> None:
        cid, attempt = current_trace_id()
        if threading.get_ident() != self.thread or cid is None:
            return
        self.code_records.append(CodeRecord(cid, attempt, orig, new))
        if all(orig is not c for c in self.codes_seen):
            self.codes_seen.append(orig)

    def record_graph(self, gm: Any, example_inputs: list[Any]) -> None:
        from .fx_graphs import graph_device, node_rows, readable

        cid, attempt = current_trace_id()
        if cid is None:
            return
        self.graph_records.append(GraphRecord(cid, attempt, node_rows(gm), graph_device(example_inputs), readable(gm)))
        self.symbols[cid] = _compat.shape_env_symbols()
        self._progress("backend", cid)

    def on_compile_start(self, compile_id: str, trigger: str) -> None:
        if threading.get_ident() != self.thread:
            return
        if trigger == "DYNAMO" and compile_id not in self.compile_order:
            self.compile_order.append(compile_id)
        elif trigger == "LAZY_BACKWARD":
            self._open_stream()
        self._phase_marks[compile_id] = _compat.timed_phase_counts()
        self._progress("tracing" if trigger == "DYNAMO" else "AOT", compile_id)

    def on_compile_end(self, compile_id: str, trigger: str) -> None:
        if threading.get_ident() != self.thread:
            return
        if trigger == "LAZY_BACKWARD":
            self._close_stream()
        marks = self._phase_marks.pop(compile_id, None)
        if marks is not None:
            per = self.phase_s.setdefault(compile_id, {})
            for name, seconds in _compat.timed_phases_since(marks).items():
                per[name] = per.get(name, 0.0) + seconds

    @contextlib.contextmanager
    def backend_window(self) -> Iterator[None]:
        """While the real backend compiles a graph (called by the explorer backend)."""
        self._open_stream()
        try:
            yield
        finally:
            self._close_stream()

    def _open_stream(self) -> None:
        if self.needs_trace:
            self._stream_depth += 1
            if self._stream_depth == 1:
                self.stream.__enter__()

    def _close_stream(self) -> None:
        if self.needs_trace and self._stream_depth > 0:
            self._stream_depth -= 1
            if self._stream_depth == 0:
                self.stream.__exit__(None, None, None)

    def close_stream(self) -> None:
        """Remove the stream's handler whatever happened (the stream collector's exit)."""
        self._stream_depth = 0
        self.stream.__exit__(None, None, None)

    def record_guard_failure(self, failure: Any) -> None:
        cid, _ = current_trace_id()
        if threading.get_ident() == self.thread and cid is not None:
            self.guard_failures.setdefault(cid, []).append(str(failure.reason))

    def record_guards(self, guards: Any) -> None:
        from .guards import MAX_GUARDS_PER_FRAME, export_rows

        cid, _ = current_trace_id()
        if threading.get_ident() != self.thread or cid is None:
            return
        with gc_paused():  # ~10^4 rows for a large model
            self.guard_exports[cid] = export_rows(guards, MAX_GUARDS_PER_FRAME)  # copy now: the set is cleared afterwards

    # --- progress ------------------------------------------------------------------------------
    def _progress(self, phase: str, compile_id: str | None) -> None:
        if self.on_progress is not None:
            self.on_progress(len(self.compile_order), phase, compile_id, time.perf_counter() - self.started)

    def _on_event(self, ev: TraceEvent) -> None:
        """Finer phases (AOT, inductor codegen) while the structured stream is on."""
        if ev.name == "chromium_event" and ev.payload and '"ph": "B"' in ev.payload:
            name = json.loads(ev.payload).get("name", "")
            phase = next((label for prefix, label in _PHASES if name.startswith(prefix)), None)
            if phase:
                self._progress(phase, ev.compile_id)
