"""The records torch keeps of every compile whether or not anyone listens, as the collectors read them
([Note: zero-cost capture] in ``collectors/base.py``): Dynamo's compile start / end callbacks (``dispatch.py``),
the chromium events of its timed phases (``timings.py``), its compilation metrics and the codes it was called on
(``frames.py``); each with the probes of torch it needs. The seams that observe each compile's graph, guards,
recompile explanations and graph breaks are ``observe_torch.py``.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

import torch
import torch._dynamo

from ..compile_ids import report_id

__all__ = [
    "chromium_events",
    "codes_dynamo_saw",
    "compilation_metrics_window",
    "compile_callbacks",
    "frames_numbered",
]


@contextlib.contextmanager
def compile_callbacks(
    on_start: Callable[[str, str], None],
    on_end: Callable[[str, str], None],
    on_reset: Callable[[], None] | None = None,
) -> Iterator[None]:
    """Call ``on_start(compile_id, trigger)`` / ``on_end(compile_id, trigger)`` around every compile.

    ``torch._dynamo.callback_handler`` runs them on the compiling thread (2.11 and 2.13), outermost
    compile only: trigger ``DYNAMO`` in ``convert_frame._compile`` before tracing and after the
    backend compile; ``LAZY_BACKWARD`` when AOTAutograd compiles a backward at its first call, under
    the forward's compile id.

    ``torch._dynamo.reset()`` (``torch.compiler.reset()``, a common first line of a notebook cell) ends with
    ``callback_handler.clear()``, which drops every registered callback, ours too (2.11 and 2.13). While open,
    the handler's ``clear`` is wrapped on the instance: the callbacks are registered again right after it, and
    ``on_reset()`` is told (Dynamo's ``compile_lock`` is held: it must not compile). On exit each callback is
    removed if it is still registered, and the original ``clear`` is put back unless someone replaced it since.
    """
    handler = torch._dynamo.callback_handler

    # A LAZY_BACKWARD compile starts inside the user's compiled code when ``loss.backward()`` runs at a
    # graph break: Dynamo's frame evaluation is live there, and a callback frame that refers to torch
    # would be traced by Dynamo, whose compile then waits on the callback handler's lock the outer
    # compile holds (a deadlock, seen with --profile). The callbacks run with Dynamo off.
    @torch._dynamo.disable(recursive=True)
    def start(args: Any) -> None:
        on_start(str(report_id(str(args.compile_id))), args.callback_trigger.name)

    @torch._dynamo.disable(recursive=True)
    def end(args: Any) -> None:
        on_end(str(report_id(str(args.compile_id))), args.callback_trigger.name)

    def register() -> None:
        if start not in handler.start_callbacks:
            handler.register_start_callback(start)
        if end not in handler.end_callbacks:
            handler.register_end_callback(end)

    had_own_clear = "clear" in handler.__dict__
    own_clear = handler.__dict__.get("clear")
    original_clear = handler.clear

    def clear() -> None:
        original_clear()
        register()
        if on_reset is not None:
            with contextlib.suppress(Exception):  # a capture bug must never fail the user's reset
                on_reset()

    register()
    handler.clear = clear  # type: ignore[method-assign]
    try:
        yield
    finally:
        if handler.__dict__.get("clear") is clear:
            if had_own_clear:
                handler.clear = own_clear  # type: ignore[method-assign,assignment]
            else:
                del handler.clear
        if start in handler.start_callbacks:
            handler.remove_start_callback(start)
        if end in handler.end_callbacks:
            handler.remove_end_callback(end)


def frames_numbered() -> int:
    """How many frame ids Dynamo has handed out (``convert_frame.FRAME_COUNTER``, 2.11 and 2.13)."""
    from torch._dynamo import convert_frame

    return int(convert_frame.FRAME_COUNTER)


@contextlib.contextmanager
def chromium_events(record: Callable[[str, str, int, str | None, str | None], None]) -> Iterator[None]:
    """Hand each compile event Dynamo's one ``ChromiumEventLogger`` logs to ``record`` while open.

    Every ``dynamo_timed`` phase (and ``chromium_event_timed``, e.g. the outermost ``dynamo``) logs its
    start and end there, on the thread that runs it, whether or not anything listens (the ``chromium_event``
    trace and tlparse's Perfetto view are built from the same calls); cache lookups log instant events
    (``fx_graph_cache_miss``, ``autograd_cache_hit``, ...). ``record(ph, name, time_ns, compile_id, key)``
    gets ``ph`` ``'B'``, ``'E'`` or ``'i'``, the event name, its ``time.time_ns()``, the compile id the
    logger tags it with (``None`` outside a compile) and, on a start whose event name is a ``phase_name``,
    the ``dynamo_timed`` key (``backend_compile`` is ``OutputGraph.call_user_compiler``), on any thread.

    The three methods are wrapped on the logger instance and put back on exit (LIFO with any other
    wrapper of the same instance); nothing is built that Dynamo does not build anyway. 2.13 and 2.11:
    ``log_event_start(name, time_ns, metadata, ...)`` sets ``metadata['compile_id']``, and so does
    ``log_event_end(name, time_ns, metadata, ...)`` and ``log_instant_event(name, time_ns, metadata, ...)``.
    """
    from torch._dynamo.utils import get_chromium_event_logger

    logger = get_chromium_event_logger()
    names = ("log_event_start", "log_event_end", "log_instant_event")
    saved = {n: logger.__dict__[n] for n in names if n in logger.__dict__}
    start, end, instant = logger.log_event_start, logger.log_event_end, logger.log_instant_event

    def _cid(metadata: dict[str, Any]) -> str | None:
        cid = metadata.get("compile_id")
        return None if cid is None or cid == "None" else report_id(str(cid))

    def log_event_start(event_name: str, time_ns: int, metadata: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        start(event_name, time_ns, metadata, *args, **kwargs)
        record("B", event_name, time_ns, _cid(metadata), metadata.get("fn_name"))

    def log_event_end(event_name: str, time_ns: int, metadata: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        end(event_name, time_ns, metadata, *args, **kwargs)
        record("E", event_name, time_ns, _cid(metadata), None)

    def log_instant_event(
        event_name: str, time_ns: int, metadata: dict[str, Any] | None = None, *args: Any, **kwargs: Any
    ) -> None:
        metadata = {} if metadata is None else metadata
        instant(event_name, time_ns, metadata, *args, **kwargs)
        record("i", event_name, time_ns, _cid(metadata), None)

    logger.log_event_start = log_event_start  # type: ignore[method-assign]
    logger.log_event_end = log_event_end  # type: ignore[method-assign]
    logger.log_instant_event = log_instant_event  # type: ignore[method-assign]
    try:
        yield
    finally:
        for n in names:
            if n in saved:
                setattr(logger, n, saved[n])
            else:
                logger.__dict__.pop(n, None)


@contextlib.contextmanager
def compilation_metrics_window(limit: int = 100_000) -> Iterator[Callable[[], list[Any]]]:
    """Yield a getter of the ``CompilationMetrics`` Dynamo records while the window is open.

    Dynamo always appends one record per frame compile to a deque of 64 (``get_compilation_metrics``).
    The window widens it so a cell with more compiles loses none, and narrows it back on exit, which
    leaves exactly the last 64 records, as if it had never been widened.
    """
    from torch._dynamo import utils

    original = utils._compilation_metrics.maxlen or utils.DEFAULT_COMPILATION_METRICS_LIMIT
    before = {id(m) for m in utils.get_compilation_metrics()}
    utils.set_compilation_metrics_limit(limit)
    captured: list[Any] = []

    def new_records() -> list[Any]:
        if not captured:
            captured.extend(m for m in utils.get_compilation_metrics() if id(m) not in before)
        return captured

    try:
        yield new_records
    finally:
        new_records()
        utils.set_compilation_metrics_limit(original)


def codes_dynamo_saw() -> list[types.CodeType]:
    """Every code object Dynamo was called on in this process and that is still alive
    (``convert_frame.input_codes``, weak references; in 2.11 and 2.13): a frame whose compile failed
    produced no bytecode-hook record, and this is where its original code can still be found."""
    from torch._dynamo import convert_frame

    return [c for c in (ref() for ref in list(convert_frame.input_codes.seen)) if c is not None]
