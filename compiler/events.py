"""In-process capture streams shared by the collectors.

Holds:
- ``TraceEvent`` and ``StructuredStream``: a ``logging.Handler`` on torch's structured-trace logger
  (``torch.__trace``, the stream tlparse reads) keeping this run's records;
- ``TorchLogDiverter``: a filter on torch's own stderr handlers that moves Dynamo's warnings and
  errors into the report instead of the user's stderr (or copies them there, for code that compiles itself; the
  user's own logging is untouched);
- ``TorchWarningDiverter``: the same for ``warnings.warn`` raised from inside torch.

A handler keeps the records of any thread that ``accept()`` says belongs to the run (its default: every
thread): Dynamo compiles on whichever thread runs the code (a thread the cell started, autograd's device thread
compiling a backward), one compile at a time ([Note: threads] in collectors/dispatch.py).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from .compile_ids import report_id

_RESERVED = {
    "rank",
    "compiled_autograd_id",
    "frame_id",
    "frame_compile_id",
    "attempt",
    "severity",
    "timestamp",
    "pathname",
    "thread",
    "subgraph_name",
    "has_payload",
    "stack",
}  # keys trace_structured adds beside the event's own; keep in sync with torch/_logging/_internal.py

# torch's own directory, found without importing torch: a trace is read with no torch loaded (compiler.trace)
_TORCH_SPEC = importlib.util.find_spec("torch")
_TORCH_DIR = os.path.dirname(_TORCH_SPEC.origin) + os.sep if _TORCH_SPEC and _TORCH_SPEC.origin else "\0"

__all__ = ["StructuredStream", "TorchLogDiverter", "TorchWarningDiverter", "TraceEvent", "event_from_metadata"]


@dataclass(slots=True)
class TraceEvent:
    """One ``trace_structured`` record: ``name`` is the event (``artifact:<name>`` for artifacts)."""

    name: str
    compile_id: str | None
    attempt: int
    meta: Any
    payload: str | None
    stack: list[dict[str, Any]] | None
    #: read from a log (compiler/trace/reader.py): where its payload's lines are, as ``(byte offset, byte length)``
    span: tuple[int, int] | None = None
    #: what a trace builder kept of a big payload it dropped as the log streamed (compiler/trace/panes.py)
    digest: Any = None


def event_from_metadata(md: dict[str, Any], payload: str | None) -> TraceEvent | None:
    """The event of one structured-trace record's metadata (a live record's, or a line of a ``TORCH_TRACE`` log:
    compiler/trace/reader.py); ``None`` for the string table (``str``) and a record with no event."""
    kind = next((k for k in md if k not in _RESERVED), None)
    if kind is None or kind == "str":
        return None
    meta = md.get(kind)
    name = f"artifact:{meta.get('name')}" if kind == "artifact" and isinstance(meta, dict) else kind
    fid, fcid = md.get("frame_id"), md.get("frame_compile_id")
    cid = f"{fid}/{fcid}" if fid is not None and fcid is not None else None
    if cid is not None and md.get("compiled_autograd_id") is not None:
        cid = f"!{md['compiled_autograd_id']}/{cid}"
    return TraceEvent(name, cid, int(md.get("attempt") or 0), meta, payload, md.get("stack"))


class StructuredStream(logging.Handler):
    """Collects structured-trace records (of any thread) while installed.

    Adding any handler to ``torch.__trace`` is what turns emission on (no env var, no file).
    ``on_event`` is called for each kept event (used for live progress).
    """

    def __init__(self, on_event: Callable[[TraceEvent], None] | None = None, accept: Callable[[], bool] | None = None) -> None:
        super().__init__(level=logging.DEBUG)
        self.events: list[TraceEvent] = []
        self._on_event = on_event
        self._accept = accept

    def emit(self, record: logging.LogRecord) -> None:
        if self._accept is not None and not self._accept():
            return
        payload = getattr(record, "payload", None)
        ev = event_from_metadata(getattr(record, "metadata", None) or {}, payload if isinstance(payload, str) else None)
        if ev is None:
            return
        ev.compile_id = report_id(ev.compile_id)  # a live record: the id as the run's report names it
        self.events.append(ev)
        if self._on_event is not None:
            self._on_event(ev)

    def __enter__(self) -> StructuredStream:
        from ._compat import trace_log

        trace_log.addHandler(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        from ._compat import trace_log

        trace_log.removeHandler(self)

    def named(self, *names: str) -> list[TraceEvent]:
        return [e for e in self.events if e.name in names]


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception:  # noqa: BLE001 - a malformed log call must not break the user's run
        return str(record.msg)


@dataclass(slots=True)
class CapturedLog:
    level: str
    logger: str
    message: str
    compile_id: str | None


class _DivertFilter(logging.Filter):
    def __init__(self, sink: list[CapturedLog], seen: set[int], accept: Callable[[], bool] | None, divert: bool) -> None:
        super().__init__()
        self.sink, self.seen, self.accept, self.divert = sink, seen, accept, divert

    def filter(self, record: logging.LogRecord) -> bool:
        if self.accept is not None and not self.accept():
            return True  # another thread's record: printed as usual
        if id(record) not in self.seen:
            self.seen.add(id(record))
            from ._compat import current_trace_id

            self.sink.append(CapturedLog(record.levelname, record.name, _message(record), current_trace_id()[0]))
        return not self.divert


class TorchLogDiverter:
    """While installed, records that torch's own handlers would print go to ``self.records``; with ``divert`` False
    they are printed as well (the code's own compiles: what the user's log settings ask for stays on stderr)."""

    def __init__(self, accept: Callable[[], bool] | None = None, divert: bool = True) -> None:
        self.records: list[CapturedLog] = []
        self._installed: list[tuple[logging.Handler, logging.Filter]] = []
        self._accept = accept
        self._divert = divert

    def __enter__(self) -> TorchLogDiverter:
        from torch._logging._internal import _is_torch_handler

        from ._compat import trace_log

        filt = _DivertFilter(self.records, set(), self._accept, self._divert)
        for name, logger in list(logging.root.manager.loggerDict.items()):
            if not isinstance(logger, logging.Logger) or not name.startswith("torch") or name == trace_log.name:
                continue
            for h in logger.handlers:
                if _is_torch_handler(h) and all(h is not x for x, _ in self._installed):
                    h.addFilter(filt)
                    self._installed.append((h, filt))
        return self

    def __exit__(self, *exc: object) -> None:
        for h, f in self._installed:
            h.removeFilter(f)
        self._installed.clear()


class TorchWarningDiverter:
    """``warnings.warn`` from torch's own files goes to ``records``; every other warning is shown as usual."""

    def __init__(self, records: list[CapturedLog]) -> None:
        self.records = records
        self._cm: warnings.catch_warnings | None = None

    def __enter__(self) -> TorchWarningDiverter:
        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        original = warnings.showwarning

        def showwarning(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if str(filename).startswith(_TORCH_DIR):
                self.records.append(CapturedLog("WARNING", f"warnings.{category.__name__}", str(message), None))
            else:
                original(message, category, filename, lineno, file, line)

        warnings.showwarning = showwarning
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._cm is not None:
            self._cm.__exit__(*exc)
            self._cm = None
