"""What every collector shares: the ``Collector`` protocol and the per-run ``CaptureContext``.

A collector has a ``name``, an ``install(ctx)`` that returns a context manager (its hooks are removed
when it exits, also on exceptions), and a ``finalize(ctx, report)`` that adds its artifact kind to the
report after the run. Collectors never talk to each other; they share only the context.
"""

from __future__ import annotations

import json
import threading
import time
import types
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Protocol

from ..cell import CellProgram
from ..events import CapturedLog, StructuredStream, TraceEvent
from ..model import CompileReport, Guard, Node
from ..options import RunOptions
from .._compat import current_trace_id

__all__ = ["CaptureContext", "CodeRecord", "Collector", "GraphRecord"]


class Collector(Protocol):
    name: str

    def install(self, ctx: CaptureContext) -> ContextManager[Any]: ...

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


_PHASES = (  # chromium_event name prefix -> what the progress line says
    ("bytecode_tracing", "tracing"), ("compile_attempt", "tracing"), ("build_guards", "guards"),
    ("aot", "AOT"), ("create_aot_dispatcher", "AOT"), ("inductor", "inductor codegen"),
    ("code_gen", "inductor codegen"), ("compile_file", "inductor codegen"),
    ("Scheduler", "inductor codegen"), ("GraphLowering", "inductor codegen"), ("backend_compile", "backend"),
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
    guard_exports: dict[str, list[Guard]] = field(default_factory=dict)
    logs: list[CapturedLog] = field(default_factory=list)
    codes_seen: list[types.CodeType] = field(default_factory=list)
    shared_codes: list[types.CodeType] = field(default_factory=list)
    seeded: list[str] = field(default_factory=list)
    added_names: list[str] = field(default_factory=list)
    frames_started: int = 0
    exception: BaseException | None = None
    stream: StructuredStream = field(init=False)

    def __post_init__(self) -> None:
        self.stream = StructuredStream(on_event=self._on_event if self.on_progress else None)

    # --- hooks called by torch while the cell runs -------------------------------------------
    def record_code(self, orig: types.CodeType, new: types.CodeType) -> None:
        cid, attempt = current_trace_id()
        if threading.get_ident() != self.thread or cid is None:
            return
        self.code_records.append(CodeRecord(cid, attempt, orig, new))
        if all(orig is not c for c in self.codes_seen):
            self.codes_seen.append(orig)

    def record_graph(self, gm: Any, example_inputs: list[Any]) -> None:
        from .fx_graphs import node_rows, graph_device

        cid, attempt = current_trace_id()
        if cid is None:
            return
        self.graph_records.append(GraphRecord(cid, attempt, node_rows(gm), graph_device(example_inputs)))

    def record_guards(self, guards: Any) -> None:
        from .guards import export_rows

        cid, _ = current_trace_id()
        if threading.get_ident() != self.thread or cid is None:
            return
        self.guard_exports[cid] = export_rows(guards)  # copy now: the GuardsSet is cleared afterwards

    # --- progress ------------------------------------------------------------------------------
    def _on_event(self, ev: TraceEvent) -> None:
        assert self.on_progress is not None
        if ev.name == "dynamo_start":
            self.frames_started += 1
            self.on_progress(self.frames_started, "tracing", ev.compile_id, time.perf_counter() - self.started)
        elif ev.name == "chromium_event" and ev.payload and '"ph": "B"' in ev.payload:
            name = json.loads(ev.payload).get("name", "")
            phase = next((label for prefix, label in _PHASES if name.startswith(prefix)), None)
            if phase:
                self.on_progress(self.frames_started, phase, ev.compile_id, time.perf_counter() - self.started)
