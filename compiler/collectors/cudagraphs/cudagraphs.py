"""Collector for CUDA graphs (``mode="reduce-overhead"``): for each graph inductor compiled, whether it was recorded
as a CUDA graph, skipped (with inductor's own reason) or re-recorded (with its reason), how many recordings were
made, and with ``--profile`` how many calls replayed a CUDA graph and how many ran eagerly.

The decision is read from each ``CompiledFxGraph`` as inductor finishes it, the recordings from inductor's own
``cudagraphs`` log lines; [Note: cudagraphs] says why and how.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ... import _compat
from ...model import CompileReport
from ..base import CaptureContext, Collector
from .cudagraphs_report import Decision, Event, summarise
from .cudagraphs_torch import (
    TREES_LOG,
    UTILS_LOG,
    cudagraphs_asked,
    graph_facts,
    handed_callables,
    original_graph_method,
    patched_graph_method,
    patched_replays,
    tree_function,
)

__all__ = ["CudaGraphsCollector"]

# [Note: cudagraphs] What inductor does with CUDA graphs, and where each fact of the report comes from (torch 2.11
# and 2.13 alike, checked in both sources).
# - The decision is per compiled graph (``CompiledFxGraph``: a forward, a backward or an inference graph of one
#   compile id) and made while it compiles. ``config.triton.cudagraphs`` (what reduce-overhead and max-autotune
#   set) starts a ``BoxedBool`` that AOTAutograd shares between a forward and its backward. Lowering sets
#   ``disabled_cudagraphs_reason`` (``check_lowering_disable_cudagraph``: "skipping cudagraphs due to cpu device
#   (...)", "... multiple devices: ...", an incompatible op, dynamic shapes with ``cudagraph_skip_dynamic_graphs``);
#   ``CompiledFxGraph.__init__`` adds ``cudagraph_info.cudagraph_fail_reasons`` (mutated inputs, non-Tensor
#   inputs); ``post_compile`` (run for a fresh compile and for an FX-graph cache hit alike) then either wraps the
#   graph's callable for CUDA graph trees (``compile_fx.cudagraphify``: one function per graph partition with
#   ``graph_partition``, the default) or turns the box off. It logs "skipping cudagraphs due to ..." and bumps
#   ``counters['inductor']['cudagraph_skips']`` (``log_cudagraph_skip_and_bump_counter``) only when the graph has
#   CUDA code: a CPU graph bumps the counter and logs nothing, so the reason exists only on the object. A backward
#   whose forward was skipped compiles with the box already off and has no reason of its own: its forward's is
#   the reason (``from_forward``).
#   So ``CompiledFxGraph.post_compile`` is wrapped for the run (one call per compiled graph, nothing per call), and
#   reads after it: the box (wrapped or not), ``disabled_cudagraphs_reason``, the fail reasons, and the callables
#   it handed to the trees (which identify the graph at run time). The compile id is the compile context's, also
#   for a backward compiled lazily (AOTAutograd restores it, on autograd's thread too).
# - Recording happens at run time, not in the compile: CUDA graph trees (``cudagraph_trees.py``) run a function
#   eagerly first (a warm-up), record it at its next call, replay it after that, and record it again when a
#   recorded graph's invariants fail (an input's or a static input's address changed). Inductor writes each step
#   to its ``cudagraphs`` artifact log at DEBUG: "[%s] Recording function=...", "[%s] Re-recording function=...,
#   reason=%s" (the reason is computed only when DEBUG is on), "[%s] Running warmup function=...", "[%s] Running
#   eager function=..."; 2.13 adds "mode=%s", 2.11 does not, so only the format's start is read, and the reason is
#   the last argument in both. A run-time skip (an input mutation CUDA graphs do not manage, too many
#   re-recordings) goes to the warning "skipping cudagraph(s) due to ..." of ``cudagraph_utils``. A filter on
#   the two loggers (DEBUG only on the trees' logger and only while the run lasts; a record under the logger's
#   own level is dropped there, so nothing new is printed) takes every record, on any thread. Which graph it is
#   about: the tree manager's frame that made it (``_run``, ``record_function``, ``run_eager`` and
#   ``_update_non_cudagraph_managed_mutation`` all take ``function_id``), its ``ids_to_funcs[function_id].model``
#   being one of the callables ``post_compile`` handed over.
# - With ``--profile`` each call of a compiled graph is classified: ``CompiledFxGraph.__call__`` is wrapped and
#   ``CUDAGraphTreeManager.execute_node`` (the replay of a recorded graph) too, from the first graph wrapped for
#   CUDA graphs on. A call that replayed and did nothing else is a replay, one that recorded is a recording, the
#   rest ran the compiled code eagerly (a warm-up, a graph skipped at compile or at run time).
# What can only be seen on a GPU: recordings, re-recordings, run-time skips and replays (the CPU never wraps a
# graph); ``summarise`` turns these events into the report and is tested on constructed events.

_EVENTS = (  # the start of each format string the trees' logger writes -> event
    ("[%s] Recording function=", "record"),
    ("[%s] Re-recording function=", "rerecord"),
    ("[%s] Running warmup function=", "warmup"),
    ("[%s] Running eager function=", "eager"),
)


@dataclass(slots=True)
class _Call:
    decision: int
    seen: set[str] = field(default_factory=set)


class CudaGraphsCollector(Collector):
    name = "cudagraphs"
    requires = ("aot_graphs",)  # graph ids of the AOT graphs

    def __init__(self) -> None:
        self.decisions: list[Decision] = []
        self.events: list[Event] = []
        self.compile_messages: dict[str, list[str]] = {}  # compile id -> skip messages logged outside the trees
        self.profile = False
        # id(callable handed to the trees) -> (decision, a reference to it); id(CompiledFxGraph) -> the same. Weak:
        # the run must not keep a graph (and through it its CUDA graph tree) alive longer than Dynamo does.
        self._handed: dict[int, tuple[int, Callable[[], Any]]] = {}
        self._graphs: dict[int, tuple[int, Callable[[], Any]]] = {}
        self._calls = threading.local()
        self._stack = contextlib.ExitStack()
        self._replays_patched = False
        self._lock = threading.Lock()
        self._failures: list[tuple[str, str, Exception]] | None = None

    def failed(self, where: str, exc: Exception) -> None:
        """A listener raised: kept for the report (``collector_failed``), never passed on to torch."""
        if self._failures is not None and len(self._failures) < 20:
            self._failures.append((self.name, where, exc))

    # --- while the cell runs ---------------------------------------------------------------------
    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        self.profile = bool(ctx.options.profile)
        self._failures = ctx.hook_failures
        with self._stack:
            self._stack.enter_context(patched_graph_method("post_compile", self._post_compile_wrapper()))
            if self.profile:
                self._stack.enter_context(patched_graph_method("__call__", self._call_wrapper()))
            self._stack.enter_context(_listening(TREES_LOG, _TreeLog(self), logging.DEBUG))
            self._stack.enter_context(_listening(UTILS_LOG, _TreeLog(self), None))
            try:
                yield
            finally:
                self._handed.clear()
                self._graphs.clear()

    def _post_compile_wrapper(self) -> Callable[..., Any]:
        original = original_graph_method("post_compile")
        collector = self

        def post_compile(graph: Any, example_inputs: Any, constants: Any, graph_kwargs: Any) -> Any:
            try:
                watched = collector._before(graph, graph_kwargs)
            except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
                collector.failed("post_compile", exc)
                watched = None
            result = original(graph, example_inputs, constants, graph_kwargs)
            if watched is not None:
                try:
                    collector._after(graph, graph_kwargs, *watched)
                except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
                    collector.failed("post_compile", exc)
            return result

        return post_compile

    def _before(self, graph: Any, graph_kwargs: Any) -> tuple[bool, list[Any]] | None:
        """Whether CUDA graphs were asked for this graph, and the callables post_compile may hand to the trees."""
        if not cudagraphs_asked(graph_kwargs):
            return None
        return bool(graph_kwargs.get("cudagraphs")), handed_callables(graph)

    def _after(self, graph: Any, graph_kwargs: Any, box_was_on: bool, handed: list[Any]) -> None:
        cid = _compat.current_trace_id()[0]
        if cid is None:
            return
        facts = graph_facts(graph, graph_kwargs, box_was_on)
        with self._lock:
            index = len(self.decisions)
            self.decisions.append(
                Decision(
                    compile_id=cid,
                    kind=facts.kind,
                    wrapped=facts.wrapped,
                    reason=facts.reason,
                    box_was_off=not box_was_on,
                    partitions=facts.partitions,
                    note=facts.note,
                )
            )
            self._graphs[id(graph)] = (index, _ref(graph))
            if facts.wrapped:
                for fn in handed:
                    self._handed[id(fn)] = (index, _ref(fn))
        if facts.wrapped and self.profile and not self._replays_patched:
            replays = patched_replays(self._replay_wrapper)
            if replays is not None:
                self._replays_patched = True
                self._stack.enter_context(replays)

    def _call_wrapper(self) -> Callable[..., Any]:
        """``CompiledFxGraph.__call__`` (--profile): each call of a graph CUDA graphs were asked for, classified."""
        original = original_graph_method("__call__")
        collector = self

        def call(graph: Any, inputs: Any) -> Any:
            known = collector._graphs.get(id(graph))
            if known is None or known[1]() is not graph:
                return original(graph, inputs)
            outer = getattr(collector._calls, "current", None)
            current = collector._calls.current = _Call(known[0])
            try:
                return original(graph, inputs)
            finally:
                collector._calls.current = outer
                seen = current.seen
                what = "record" if "record" in seen else "replay" if seen == {"replay"} else "eager"
                collector.events.append(Event(current.decision, f"call:{what}"))

        return call

    def _replay_wrapper(self, original: Any) -> Callable[..., Any]:
        collector = self

        def execute_node(tree: Any, node: Any, new_inputs: Any) -> Any:
            collector._saw("replay")
            return original(tree, node, new_inputs)

        return execute_node

    def _saw(self, what: str) -> None:
        current = getattr(self._calls, "current", None)
        if current is not None:
            current.seen.add(what)

    def take_record(self, record: logging.LogRecord) -> None:
        """One record of inductor's ``cudagraphs`` loggers (any thread)."""
        found = tree_function(sys._getframe(1))
        if found is None:  # a compile-time skip: the post_compile decision says it already, kept as a fallback
            cid = _compat.current_trace_id()[0]
            if record.name == UTILS_LOG and cid is not None:
                self.compile_messages.setdefault(cid, []).append(_message(record))
            return
        known = self._handed.get(id(found))
        if known is None or known[1]() is not found:
            return  # a function this run did not compile
        if record.name == UTILS_LOG:
            if record.levelno >= logging.WARNING:
                self.events.append(Event(known[0], "skip", _message(record)))
            return
        fmt = str(record.msg)
        what = next((w for start, w in _EVENTS if fmt.startswith(start)), None)
        if what is None:
            return
        detail = str(record.args[-1]) if what == "rerecord" and isinstance(record.args, tuple) and record.args else None
        self.events.append(Event(known[0], what, detail))
        if what in ("record", "warmup", "eager"):
            self._saw(what)

    # --- after the run -----------------------------------------------------------------------------
    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        known = ctx.compile_ids | {f.compile_id for f in report.frames}
        keep = [i for i, d in enumerate(self.decisions) if d.compile_id in known]
        if not keep:
            return
        aot: dict[tuple[str, str], list[int]] = {}
        for g in report.graphs:
            if g.kind.startswith("aot_") and g.compile_id is not None:
                aot.setdefault((g.compile_id, g.kind[4:]), []).append(g.id)
        rows = summarise(self.decisions, self.events, self.profile, self.compile_messages)
        seen: dict[tuple[str, str], int] = {}
        for i in keep:
            row = rows[i]
            n = seen.get((row.compile_id, row.kind), 0)
            seen[(row.compile_id, row.kind)] = n + 1
            ids = aot.get((row.compile_id, row.kind), [])
            row.graph_id = ids[n] if n < len(ids) else None
            report.cudagraphs.append(row)


class _TreeLog(logging.Filter):
    """On a ``cudagraphs`` logger: hands every record to the collector, and lets on only those the logger's own
    level let through before the run (the DEBUG records it asked for stay here)."""

    def __init__(self, collector: CudaGraphsCollector) -> None:
        super().__init__()
        self.collector = collector
        self.level = logging.NOTSET

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            self.collector.take_record(record)
        except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's run
            self.collector.failed("cudagraphs log", exc)
        return record.levelno >= self.level


@contextlib.contextmanager
def _listening(name: str, filt: _TreeLog, level: int | None) -> Iterator[None]:
    """``filt`` on logger ``name`` while open; with ``level``, the logger lets records of that level through to
    the filter (its own level is put back after)."""
    logger = logging.getLogger(name)  # the artifact logger exists before its module is imported (same name)
    saved = logger.level
    filt.level = logger.getEffectiveLevel()
    logger.addFilter(filt)
    if level is not None and not logger.isEnabledFor(level):
        logger.setLevel(level)
    try:
        yield
    finally:
        logger.removeFilter(filt)
        logger.setLevel(saved)


def _ref(obj: Any) -> Callable[[], Any]:
    """A weak reference to ``obj``, or a strong one where it takes none."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception:  # noqa: BLE001 - a malformed log call must not break the user's run
        return str(record.msg)
