"""The Dynamo hooks of one run, each installed once, fanned out to the collectors that declare them.

``Dispatcher.install()`` registers the bytecode hook and the compile start/end callbacks, and opens the seams of
``observe_torch.py``: every graph handed to a backend (``on_graph``, ``backend_window``, ``compiled``), every cache
entry's guards (``on_guards``) and every old entry Dynamo explains when it recompiles (``on_guard_failure``). Every
hook tags the call with the compile id Dynamo is working on and records what all collectors share in
``CaptureContext`` (compile order, code records, codes seen) before the collectors' own hooks run. All of it is
removed when ``install()`` exits.

[Note: one capture path] Nothing is asked of the backend or of ``torch._dynamo.optimize``: the hooks observe
calls Dynamo makes for every compile (the bytecode hook, the compile callbacks, ``call_user_compiler``, the guard
build, the recompile explanation, the graph-break artifact), whoever started it. A compile the cell's own code
makes (``torch.compile`` in a loop, a decorator stacked on a compiled function, ``explain``, compiled autograd, a
compile inside a frame the explorer compiled) is seen with the user's own backend object, exactly as it happens,
and the explorer's own compiles (scope ``calls``) are seen the same way: its backend only delegates, and is there
so that its cache entries can be told from the user's afterwards (``isolation.drop_explorer_caches``).

[Note: threads] What Dynamo compiles on another thread while the cell runs is the run's when that thread
belongs to the run (``CaptureContext.watches``): a thread the cell started (``threading.Thread(target=f)``:
calls.py compiles ``f`` where the thread calls it), a thread that existed before and calls one of the run's
compiled callables (a pool made in an earlier cell: ``claim_thread``; a graph handed to the explorer's own backend
claims its thread too), or a compile for a compile id the run made (AOTAutograd compiles a backward lazily, at its
first call: on a GPU autograd runs it on its device thread). A thread that was alive before the run and only
compiles its own code (a background worker of the user's, a kernel thread) is not the run's, and what it compiles
stays out of the report. Dynamo compiles one frame at a time (``convert_frame.compile_lock``, which inductor's
backward compile takes too), so the hooks of two compiles never interleave.

A ``torch._dynamo.reset()`` made by the cell clears Dynamo's callbacks (``capture_torch.compile_callbacks``
registers them again) and restarts its frame numbering at 0; the run never changes that numbering, and the ids
after the reset carry the reset they came after ([Note: compile ids after a reset] in compile_ids.py);
``ctx.resets`` keeps the line and what happened.

A collector's hook that raises is not allowed to reach Dynamo (where it would fail the user's compile):
the error is kept in ``ctx.hook_failures`` and the report says so (``collector_failed``).
"""

from __future__ import annotations

import contextlib
import sys
import time
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from torch._dynamo.utils import get_compilation_metrics

from .. import _compat, compile_ids
from .._compat import current_trace_id
from ..backend import is_explorer_backend
from ..model import DynamoReset
from . import capture_torch, observe_torch
from .base import HOOKS, CaptureContext, CodeRecord, Collector, FullgraphCapture, declares

__all__ = ["Dispatcher"]


def _cell_call(filename: str) -> tuple[int | None, str | None]:
    """The innermost line of the cell's own code on this thread's stack (the call that led here) and the name of the
    function it called (``reset``, ``explain``'s ``inner``), or ``(None, None)``."""
    frame = sys._getframe(1)
    called: str | None = None
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_lineno, called
        called = frame.f_code.co_qualname.split(".<locals>", 1)[0]
        frame = frame.f_back  # type: ignore[assignment]
    return None, None


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
        compile_ids.set_epoch(self.ctx.epoch)
        try:
            with contextlib.ExitStack() as stack:
                stack.enter_context(capture_torch.compile_callbacks(self.on_compile_start, self.on_compile_end, self.on_reset))
                stack.enter_context(observe_torch.backend_calls(self.on_backend_call))
                stack.enter_context(observe_torch.fullgraph_captures(self.on_fullgraph_capture))
                if self.by_hook["on_guards"]:  # nothing is observed that no collector reads
                    stack.enter_context(observe_torch.guard_builds(self.on_guards))
                if self.by_hook["on_guard_failure"]:
                    stack.enter_context(observe_torch.guard_failures(self.on_guard_failure))
                yield
        finally:
            handle.remove()
            compile_ids.set_epoch(0)

    # --- what Dynamo calls -----------------------------------------------------------------------
    def on_reset(self) -> None:
        """``torch._dynamo.reset()`` ran (Dynamo's compile lock is held): Dynamo numbers from ``0/0`` again; when the
        run compiled since its last such reset, what it compiles now carries the next epoch
        ([Note: compile ids after a reset] in compile_ids.py)."""
        ctx = self.ctx
        before = len(ctx.compile_order)
        epoch: int | None = None
        if any(compile_ids.epoch_of(cid) == ctx.epoch for cid in ctx.compile_ids):
            ctx.new_epoch(get_compilation_metrics())
            epoch = ctx.epoch
        line, called = _cell_call(ctx.program.filename)
        where = f" at line {line}" if line is not None else ""
        how = "torch._dynamo.reset()" if called in (None, "reset") else f"torch._dynamo.reset(), made by {called}()"
        if epoch is None:
            message = (
                f"The cell reset Dynamo{where} ({how}): every compiled function's cache, what "
                "automatic dynamic shapes remembered and the frame numbering start afresh, as in a new process"
            )
        else:
            message = (
                f"The cell reset Dynamo{where} ({how}) after {before} compile{'s' if before != 1 else ''} "
                f"of this run: caches and automatic-dynamic memory start afresh and Dynamo numbers its frames from 0/0 "
                f"again; the compile ids after it carry @{epoch} ([0/0]@{epoch} is Dynamo's [0/0] after this reset)"
            )
        ctx.resets.append(DynamoReset(line=line, frames_before=before, epoch=epoch, message=message))

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

    def on_fullgraph_capture(
        self, code: types.CodeType, capture: Callable[[], Any], read: Callable[[Any], observe_torch.Captured]
    ) -> Any:
        """A frame Dynamo traces for ``fullgraph_capture`` (strict export: ``observe_torch.fullgraph_captures``) is
        told to the collectors as ``torch.compile``'s frames are: its start and end, its code and generated
        bytecode, its guards; its time and its exception when it failed (``ctx.fullgraph_captures``)."""
        cid, _ = current_trace_id()
        if cid is None or not self.ctx.watches(cid):
            return capture()
        self.on_compile_start(cid, "DYNAMO")
        noted = self.ctx.fullgraph_captures[cid] = FullgraphCapture(code, 0.0)
        started = time.perf_counter()
        try:
            out = capture()
        except BaseException as exc:
            noted.fail_type, noted.fail_reason = type(exc).__name__, str(exc)
            noted.real_stack = list(getattr(exc, "real_stack", None) or [])
            raise
        finally:
            noted.seconds = time.perf_counter() - started
            self.on_compile_end(cid, "DYNAMO")
        try:
            made = read(out)
        except Exception as exc:  # noqa: BLE001 - a torch whose output reads otherwise: the compile is the user's
            self.ctx.hook_failures.append(("dispatch", "on_fullgraph_capture", exc))
            return out
        if made.bytecode is not None:
            self.on_code(code, made.bytecode)
        if made.guards is not None:
            self._watched("on_guards", made.guards)
        return out

    def on_backend_call(self, backend: Any, gm: Any, example_inputs: list[Any], compile: Callable[[], Any]) -> Any:
        """A graph handed to ``backend`` (``observe_torch.backend_calls``): the collectors see it before the backend
        can change it, the backend compiles it inside ``backend_window``, and Dynamo gets what ``compiled`` makes
        of the result."""
        cid, _ = current_trace_id()
        if cid is None:
            return compile()
        if is_explorer_backend(observe_torch.innermost(backend)):
            self.ctx.claim_thread()  # the explorer's backend compiles here: this thread runs the run's code
        if not self.ctx.watches(cid):
            return compile()
        self.ctx.compile_ids.add(cid)
        for c in self.by_hook["on_graph"]:
            self._call(c, "on_graph", self.ctx, cid, gm, example_inputs)
        self.ctx.progress("backend", cid)
        name = observe_torch.backend_name(backend)
        if name not in self.ctx.backends:
            self.ctx.backends.append(name)
        with self.backend_window(name):
            compiled_fn = compile()
        return self.compiled(cid, compiled_fn)

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

    def compiled(self, cid: str, compiled_fn: Callable[..., Any]) -> Callable[..., Any]:
        """What Dynamo calls for a graph the backend compiled: ``compiled_fn`` or a collector's wrapper."""
        for c in self.by_hook["on_compiled"]:
            try:
                compiled_fn = c.on_compiled(self.ctx, cid, compiled_fn)
            except Exception as exc:  # noqa: BLE001 - a capture bug must never fail the user's compile
                self.ctx.hook_failures.append((c.name, "on_compiled", exc))
        return compiled_fn

    def on_guards(self, guards: Any) -> None:
        """A cache entry's guards were built (``observe_torch.guard_builds``)."""
        self._watched("on_guards", guards)

    def on_guard_failure(self, entry: observe_torch.FailedEntry) -> None:
        """Dynamo explained an old cache entry while deciding to recompile, under the NEW compile id."""
        self._watched("on_guard_failure", entry)

    def _watched(self, hook: str, value: Any) -> None:
        cid, _ = current_trace_id()
        if cid is None or not self.ctx.watches(cid):
            return
        self.ctx.compile_ids.add(cid)
        for c in self.by_hook[hook]:
            self._call(c, hook, self.ctx, cid, value)
