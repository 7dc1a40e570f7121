"""What every collector shares: the ``Collector`` base class, its Dynamo hooks, and ``CaptureContext``.

A collector owns one artifact kind. It declares:
- ``name`` and ``requires`` (the collectors whose results it reads; ``collectors/__init__.py`` orders
  them and refuses unknown names and cycles);
- the Dynamo hooks it needs, by overriding the ``on_*`` methods and ``backend_window`` below (the
  dispatcher, ``dispatch.py``, installs each Dynamo hook once and calls only the collectors that
  override it);
- ``install(ctx)``: anything else it listens to while the cell runs (a log handler, a metrics
  window), as a context manager whose exit removes it, also on exceptions;
- ``finalize(ctx, report)``: adds its artifact kind to the report after the run.
Its state is its own (instance attributes). Another collector reads it through ``ctx.get(Cls)``,
which is allowed only for a collector named in ``requires`` (checked). ``CaptureContext`` holds only
what every part of a run shares: the cell, the options, the compiles this run saw, the exception.

[Note: zero-cost capture] Once any handler listens on ``torch.__trace``, torch builds every structured
payload of every compile (tensor descriptions, config dumps, readable graphs, guard trees): 1.03-1.14x
on a compile, measured (BENCHMARKS.md). So frames, graphs, guards, breaks, recompiles, symbols and
phase times come from hooks that cost nothing until Dynamo calls them: the bytecode hook, the backend call,
the guard build and the recompile explanation (``observe_torch.py``), the compile start/end callbacks, the
``CompilationMetrics`` Dynamo always records, the phase starts and ends its ``ChromiumEventLogger`` always logs
(wrapped for the run: [Note: compile phases] in timings.py), the cache entries' guard managers and the graph-break
artifact (listened to for that one call, when a break happens). The structured stream carries what exists nowhere
else (AOT graphs, inductor's output code); it is listened to only while an AOT-based backend compiles
(``needs_trace``): inside the backend's call (``backend_window``) and during a lazy backward compile. Listening through a
whole aot_eager run cost 1.11x on the toy_example, measured; inside the window the rest of Dynamo's
compile builds no payloads.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
import types
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .. import compile_ids
from ..encoding import encode_list
from ..model import CompileReport, CutPart, DynamoReset, PartCut, json_ready
from ..options import RunOptions

if TYPE_CHECKING:
    from ..cell import CellProgram  # a live run's (it imports torch; reading a trace does not)

__all__ = ["HOOKS", "CaptureContext", "CodeRecord", "Collector", "FullgraphCapture", "gc_paused", "line_cut"]


def line_cut(text: str, cap: int) -> int:
    """Where a report cuts ``text`` to hold at most ``cap`` characters of it (a guard tree, a graph's code): at the end of
    its last whole line, or inside the first line when that one is longer than ``cap``."""
    cut = text.rfind("\n", 0, cap)
    return cut if cut > 0 else cap


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


@dataclass(slots=True)
class CodeRecord:
    """One successful frame compile, from the bytecode hook."""

    compile_id: str
    attempt: int
    orig: types.CodeType
    new: types.CodeType


@dataclass(slots=True)
class FullgraphCapture:
    """A frame Dynamo traced for ``fullgraph_capture`` (strict export): no compilation metrics carry its compile id,
    so the dispatcher notes its code, how long it took and, when it failed, its exception."""

    code: types.CodeType
    seconds: float
    fail_type: str | None = None
    fail_reason: str | None = None
    #: Dynamo's user stack of the failure (the exception's ``real_stack``: file, line, function and code of each
    #: frame), for the break's user line when the cell catches the exception
    real_stack: list[Any] = field(default_factory=list)


class Collector:
    """One artifact kind: its hooks, its state, its part of the report. Subclass and override."""

    name: ClassVar[str]
    requires: ClassVar[tuple[str, ...]] = ()

    def install(self, ctx: CaptureContext) -> AbstractContextManager[Any]:
        """What this collector listens to besides the Dynamo hooks; its exit removes it."""
        return contextlib.nullcontext()

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        """Add this collector's artifact kind to ``report`` (after the run, in ``requires`` order)."""
        raise NotImplementedError

    # --- Dynamo hooks: override the ones you need (dispatch.py installs them, this thread only) ---
    def on_compile_start(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        """``torch._dynamo.callback_handler`` start: trigger ``DYNAMO`` (a frame) or ``LAZY_BACKWARD``."""

    def on_compile_end(self, ctx: CaptureContext, compile_id: str, trigger: str) -> None:
        """``torch._dynamo.callback_handler`` end: after the backend compiled (or the compile failed)."""

    def on_code(self, ctx: CaptureContext, record: CodeRecord) -> None:
        """The bytecode hook: a frame compiled, with its original and modified code."""

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        """Dynamo hands a graph to a backend (any backend: ``observe_torch.backend_calls``), before the backend can
        change it."""

    def backend_window(self, ctx: CaptureContext) -> AbstractContextManager[Any]:
        """Entered while the backend compiles a graph (``ctx.compiling_backend`` names it)."""
        return contextlib.nullcontext()

    def on_compiled(self, ctx: CaptureContext, compile_id: str, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        """The backend returned ``compiled_fn`` for a graph: return what Dynamo calls instead (a wrapper)
        or ``compiled_fn`` itself. Chained through the collectors that declare it, in their order."""
        return compiled_fn

    def on_guards(self, ctx: CaptureContext, compile_id: str, guards: Any) -> None:
        """A cache entry's ``GuardsSet``, as ``guard_export_fn`` would get it (``observe_torch.guard_builds``;
        cleared by Dynamo afterwards: copy now)."""

    def on_guard_failure(self, ctx: CaptureContext, compile_id: str, failure: Any) -> None:
        """An old cache entry Dynamo explains while deciding to recompile (``observe_torch.FailedEntry``), called
        under the NEW compile id."""


#: The hook methods of ``Collector``; a collector declares a hook by overriding it.
HOOKS: tuple[str, ...] = (
    "on_compile_start",
    "on_compile_end",
    "on_code",
    "on_graph",
    "backend_window",
    "on_compiled",
    "on_guards",
    "on_guard_failure",
)


def declares(collector: Collector, hook: str) -> bool:
    """Does ``collector`` override ``hook``?"""
    return getattr(type(collector), hook) is not getattr(Collector, hook)


C = TypeVar("C", bound=Collector)


@dataclass
class CaptureContext:
    """What every part of one run shares; each collector's own state lives in the collector."""

    program: CellProgram
    options: RunOptions
    on_progress: Callable[[int, str, str | None, float], None] | None = None
    label_file: Callable[[str], str | None] | None = None  # [Note: sources] in sources.py
    thread: int = field(default_factory=threading.get_ident)
    #: threads alive when the run started, other than the cell's (a kernel's own threads, a user's background
    #: worker): what Dynamo compiles there is not this run's, unless the thread calls one of the run's compiled
    #: callables (``claim_thread``: a pool made in an earlier cell, handed a function by this one) or compiles for
    #: a compile id this run made (autograd's device thread compiling the backward of this run's graph)
    foreign_threads: set[int] = field(
        default_factory=lambda: {t.ident for t in threading.enumerate() if t.ident} - {threading.get_ident()}
    )
    started: float = field(default_factory=time.perf_counter)
    #: every compile the run started (on its threads: ``watches``), in order (compile start callback)
    compile_order: list[str] = field(default_factory=list)
    #: seconds spent compiling so far (compile start to end callbacks, nested ones once)
    compiling_s: float = 0.0
    #: every compile id any hook saw (a compile refused before it started has no start)
    compile_ids: set[str] = field(default_factory=set)
    #: every successful frame compile (bytecode hook); the runner drops their cache entries afterwards
    code_records: list[CodeRecord] = field(default_factory=list)
    #: the code objects this run compiled, each once, in order
    codes_seen: list[types.CodeType] = field(default_factory=list)
    #: codes whose cache also holds entries of the user's own torch.compile (kept; the runner says so)
    shared_codes: list[types.CodeType] = field(default_factory=list)
    #: (collector, hook, error) of every collector hook that raised (dispatch.py keeps them from Dynamo)
    hook_failures: list[tuple[str, str, Exception]] = field(default_factory=list)
    #: (name, file, first line) of each code compiled with fullgraph=True by the user's own torch.compile (calls.py)
    fullgraph_codes: set[tuple[str, str, int]] = field(default_factory=set)
    #: frames Dynamo traced for ``fullgraph_capture`` (strict export), by compile id
    fullgraph_captures: dict[str, FullgraphCapture] = field(default_factory=dict)
    #: every ``torch._dynamo.reset()`` the cell made (dispatch.py), in order
    resets: list[DynamoReset] = field(default_factory=list)
    #: how many of those came after a compile of the run: the ``@n`` of the ids compiled now
    #: ([Note: compile ids after a reset] in compile_ids.py)
    epoch: int = 0
    #: per epoch after the first, the compilation metrics Dynamo held when it began (by ``id``): a record not among
    #: them is of that epoch or a later one (``metric_id``)
    epoch_marks: list[set[int]] = field(default_factory=list)
    #: the cell's exception, set before ``finalize``
    exception: BaseException | None = None
    #: artifacts kept whole beyond the report's caps, by ``PartCut.key`` (``keep_part``; ``CellRun.parts``)
    parts: dict[str, Any] = field(default_factory=dict)
    _collectors: dict[str, Collector] = field(default_factory=dict)
    _reading: Collector | None = None

    #: the backend compiling now (its name), set by the dispatcher for the backend's window: a compile the user's
    #: own torch.compile made has its own backend ([Note: one capture path] in dispatch.py)
    compiling_backend: str | None = None
    #: every backend a graph of the run went to, by name, in first-use order (scope watch names them in the header)
    backends: list[str] = field(default_factory=list)

    @property
    def needs_trace(self) -> bool:
        """Listen on ``torch.__trace`` only for AOT-based backends ([Note: zero-cost capture])."""
        return (self.compiling_backend or self.options.backend) != "eager"

    def attach(self, collectors: Sequence[Collector]) -> None:
        """The run's collectors, for ``get``."""
        self._collectors = {c.name: c for c in collectors}

    def get(self, cls: type[C]) -> C:
        """The run's instance of collector ``cls``; while a collector finalizes, only one it requires."""
        reader = self._reading
        if reader is not None and cls.name not in reader.requires:
            raise LookupError(f"collector {reader.name!r} reads {cls.name!r} but does not list it in requires")
        found = self._collectors.get(cls.name)
        if not isinstance(found, cls):
            raise LookupError(f"collector {cls.name!r} is not part of this run")
        return found

    @contextlib.contextmanager
    def reading_as(self, collector: Collector) -> Iterator[None]:
        """While ``collector`` runs its ``finalize``: ``get`` checks its ``requires``."""
        self._reading = collector
        try:
            yield
        finally:
            self._reading = None

    #: a part of more items than this is kept in its stored form (``encoding.encode_list``), not as objects
    ENCODE_PART_ITEMS = 20_000

    def keep_part(
        self, report: CompileReport, part: CutPart, compile_id: str, kept: int, whole: Any, graph: int | None = None
    ) -> None:
        """``whole`` (a list, or a string) is in the report only in part (its first ``kept`` items or characters):
        keep it for the process that ran the cell, which can hand it to a view that asks (``CellRun.parts``).
        ``graph``: the graph whose part it is (``graph_code``)."""
        key = f"{uuid.uuid4().hex}:{part}:{compile_id}" + (f":{graph}" if graph is not None else "")  # no other run's
        cut = PartCut(key=key, part=part, compile_id=compile_id, kept=kept, total=len(whole), graph=graph)
        if isinstance(whole, list) and len(whole) > self.ENCODE_PART_ITEMS:  # stored now: its objects let go
            whole = encode_list(whole, json_ready)
        self.parts[key] = whole
        report.parts_cut.append(cut)

    def new_epoch(self, metrics: Iterable[Any]) -> None:
        """A reset after the run compiled: what compiles from now on carries the next ``@n``; ``metrics``: the
        compilation metrics Dynamo holds now (``torch._dynamo.utils.get_compilation_metrics()``)."""
        self.epoch += 1
        self.epoch_marks.append({id(m) for m in metrics})
        compile_ids.set_epoch(self.epoch)

    def report_id(self, compile_id: Any) -> str:
        """The report's id of a compile Dynamo still keeps as the run ends (a cache entry's): of the last epoch."""
        return str(compile_ids.report_id(str(compile_id), self.epoch))

    def metric_id(self, metric: Any) -> str | None:
        """The report's id of one of Dynamo's ``CompilationMetrics`` records, by the epoch it was recorded in."""
        if metric.compile_id is None:
            return None
        epoch = sum(1 for mark in self.epoch_marks if id(metric) not in mark)
        return compile_ids.report_id(str(metric.compile_id), epoch)

    def claim_thread(self) -> None:
        """The calling thread runs the run's compiled code: what it compiles is the run's."""
        self.foreign_threads.discard(threading.get_ident())

    def watches(self, compile_id: str | None = None) -> bool:
        """Is what the calling thread does now part of this run? ([Note: threads] in collectors/dispatch.py)"""
        return threading.get_ident() not in self.foreign_threads or (compile_id is not None and compile_id in self.compile_ids)

    def progress(self, phase: str, compile_id: str | None) -> None:
        """Tell the live status line (``run_cell(on_progress=...)``) what is happening; from the cell's own thread
        only (a front end's display is not safe to update from another thread)."""
        if self.on_progress is not None and threading.get_ident() == self.thread:
            self.on_progress(len(self.compile_order), phase, compile_id, time.perf_counter() - self.started)
