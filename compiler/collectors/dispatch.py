"""The Dynamo hooks of one run, each installed once, fanned out to the collectors that declare them.

``Dispatcher.install()`` registers the bytecode hook and the compile start/end callbacks; the
explorer backend calls ``on_graph``, ``backend_window`` and ``compiled`` (``backend.set_capture``); the runner
passes ``guard_export_fn``/``guard_fail_fn`` to ``torch._dynamo.optimize``: ``None`` when no collector
declares ``on_guards``/``on_guard_failure``, so Dynamo is asked for nothing nobody reads. Every hook
tags the call with the compile id Dynamo is working on and records what all collectors share in
``CaptureContext`` (compile order, code records, codes seen) before the collectors' own hooks run. All of
it is removed when ``install()`` exits.

[Note: threads] What Dynamo compiles on another thread while the cell runs is the run's when that thread
belongs to the run (``CaptureContext.watches``): a thread the cell started (``threading.Thread(target=f)``:
calls.py compiles ``f`` where the thread calls it), a thread that existed before and calls one of the run's
compiled callables (a pool made in an earlier cell: ``claim_thread``), or a compile for a compile id the run
made (AOTAutograd compiles a backward lazily, at its first call: on a GPU autograd runs it on its device
thread). A thread that was alive before the run and only compiles its own code (a background worker of the
user's, a kernel thread) is not the run's, and what it compiles stays out of the report. Dynamo compiles one
frame at a time (``convert_frame.compile_lock``, which inductor's backward compile takes too), so the hooks of
two compiles never interleave.

A ``torch._dynamo.reset()`` made by the cell clears Dynamo's callbacks (``capture_torch.compile_callbacks``
registers them again) and restarts its frame numbering at 0: when the run had compiled frames before it,
the numbering goes on from the next free id instead, so no compile id of the report names two frames, and
``ctx.resets`` keeps the line and what happened.

A collector's hook that raises is not allowed to reach Dynamo (where it would fail the user's compile):
the error is kept in ``ctx.hook_failures`` and the report says so (``collector_failed``).
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .. import _compat
from .._compat import current_trace_id
from ..model import DynamoReset
from . import capture_torch
from .base import HOOKS, CaptureContext, CodeRecord, Collector, declares

__all__ = ["Dispatcher"]

_FRAME_ID = re.compile(r"(\d+)/\d+$")


def _cell_line(filename: str) -> int | None:
    """The innermost line of the cell's own code on this thread's stack (the call that led here), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_lineno
        frame = frame.f_back  # type: ignore[assignment]
    return None


class Dispatcher:
    """Calls each Dynamo hook on every collector that overrides it, in the collectors' order."""

    def __init__(self, ctx: CaptureContext, collectors: Sequence[Collector]) -> None:
        self.ctx = ctx
        self.by_hook: dict[str, list[Collector]] = {h: [c for c in collectors if declares(c, h)] for h in HOOKS}
        self._compiling: list[float] = []  # start times of the compiles under way (ctx.compiling_s)

    def _call(self, collector: Collector, hook: str, *args: Any) -> None:
        try:
            getattr(collector, hook)(*args)
        except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
            self.ctx.hook_failures.append((collector.name, hook, exc))

    @contextlib.contextmanager
    def install(self) -> Iterator[None]:
        handle = _compat.register_bytecode_hook(self.on_code)
        try:
            with capture_torch.compile_callbacks(self.on_compile_start, self.on_compile_end, self.on_reset):
                yield
        finally:
            handle.remove()

    # --- what Dynamo calls -----------------------------------------------------------------------
    def on_reset(self) -> None:
        """``torch._dynamo.reset()`` ran (Dynamo's compile lock is held): keep the run's compile ids distinct."""
        ctx = self.ctx
        frame_ids = [int(m.group(1)) for cid in ctx.compile_ids if (m := _FRAME_ID.search(cid))]
        before = len(ctx.compile_order)
        next_id = max(frame_ids) + 1 if frame_ids else None
        if next_id is not None:
            capture_torch.continue_frame_numbering(next_id)
        line = _cell_line(ctx.program.filename)
        where = f" at line {line}" if line is not None else ""
        if next_id is None:
            message = (
                f"The cell reset Dynamo{where} (torch._dynamo.reset()): every compiled function's cache, what "
                "automatic dynamic shapes remembered and the frame numbering start afresh, as in a new process"
            )
        else:
            message = (
                f"The cell reset Dynamo{where} (torch._dynamo.reset()) after {before} compile{'s' if before != 1 else ''} "
                f"of this run: caches and automatic-dynamic memory start afresh; Dynamo's frame numbering goes on at "
                f"{next_id}/0 (a plain run restarts at 0/0) so that each compile id of this report names one frame"
            )
        ctx.resets.append(DynamoReset(line=line, frames_before=before, next_frame_id=next_id, message=message))

    def on_compile_start(self, compile_id: str, trigger: str) -> None:
        ctx = self.ctx
        if not ctx.watches(compile_id):
            return
        self._compiling.append(time.perf_counter())
        ctx.compile_ids.add(compile_id)
        if trigger == "DYNAMO" and compile_id not in ctx.compile_order:
            ctx.compile_order.append(compile_id)
        for c in self.by_hook["on_compile_start"]:
            self._call(c, "on_compile_start", ctx, compile_id, trigger)
        ctx.progress("tracing" if trigger == "DYNAMO" else "AOT", compile_id)

    def on_compile_end(self, compile_id: str, trigger: str) -> None:
        if not self.ctx.watches(compile_id):
            return
        for c in self.by_hook["on_compile_end"]:
            self._call(c, "on_compile_end", self.ctx, compile_id, trigger)
        if self._compiling:
            started = self._compiling.pop()
            if not self._compiling:
                self.ctx.compiling_s += time.perf_counter() - started

    def on_code(self, code: types.CodeType, new_code: types.CodeType) -> types.CodeType | None:
        cid, attempt = current_trace_id()
        if cid is None or not self.ctx.watches(cid):
            return None  # None: the bytecode hook keeps Dynamo's code
        ctx = self.ctx
        record = CodeRecord(cid, attempt, code, new_code)
        ctx.compile_ids.add(cid)
        ctx.code_records.append(record)
        if all(code is not c for c in ctx.codes_seen):
            ctx.codes_seen.append(code)
        for c in self.by_hook["on_code"]:
            self._call(c, "on_code", ctx, record)
        return None

    def on_graph(self, gm: Any, example_inputs: list[Any]) -> None:
        cid, _ = current_trace_id()
        if cid is None:
            return
        self.ctx.claim_thread()  # the explorer's backend compiles here: this thread runs the run's code
        self.ctx.compile_ids.add(cid)
        for c in self.by_hook["on_graph"]:
            self._call(c, "on_graph", self.ctx, cid, gm, example_inputs)
        self.ctx.progress("backend", cid)

    @contextlib.contextmanager
    def backend_window(self, backend: str) -> Iterator[None]:
        """While ``backend`` (its name) compiles a graph."""
        self.ctx.compiling_backend = backend
        with contextlib.ExitStack() as stack:
            stack.callback(setattr, self.ctx, "compiling_backend", None)
            for c in self.by_hook["backend_window"]:
                try:
                    stack.enter_context(c.backend_window(self.ctx))
                except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
                    self.ctx.hook_failures.append((c.name, "backend_window", exc))
            yield

    def compiled(self, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        """What Dynamo calls for a graph the real backend compiled: ``compiled_fn`` or a collector's wrapper."""
        cid, _ = current_trace_id()
        if cid is None:
            return compiled_fn
        for c in self.by_hook["on_compiled"]:
            try:
                compiled_fn = c.on_compiled(self.ctx, cid, compiled_fn)
            except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
                self.ctx.hook_failures.append((c.name, "on_compiled", exc))
        return compiled_fn

    def guard_export_fn(self) -> Callable[[Any], None] | None:
        return self._optimize_fn("on_guards")

    def guard_fail_fn(self) -> Callable[[Any], None] | None:
        return self._optimize_fn("on_guard_failure")

    def _optimize_fn(self, hook: str) -> Callable[[Any], None] | None:
        """The callback ``torch._dynamo.optimize`` takes for ``hook``; None when no collector declares it."""
        if not self.by_hook[hook]:
            return None

        def call(value: Any) -> None:
            cid, _ = current_trace_id()
            if cid is None or not self.ctx.watches(cid):
                return
            self.ctx.compile_ids.add(cid)
            for c in self.by_hook[hook]:
                self._call(c, hook, self.ctx, cid, value)

        return call
