"""Reading torch's structured trace from files: the logs ``TORCH_TRACE=DIR`` writes, one per process (rank).

A log is a sequence of glog lines (``V1126 23:31:46.666000 9884 torch/_dynamo/utils.py:2350] {...}``), each
holding the JSON metadata of one ``trace_structured`` record (what a live handler on ``torch.__trace`` gets,
``compiler/events.py``), followed by its payload, if any, as lines that start with a tab. ``str`` records
grow the string table that the ``filename`` of a stack frame indexes. The same ``event_from_metadata``
turns a record into a ``TraceEvent`` here and live, so the per-pane builders read both alike.

Streamed: ``read_events`` reads a log line by line and keeps a payload only when ``keep(name)`` asks for it
(a multi-GB log holds megabytes of config dumps and Perfetto events nobody reads twice); a gzip-compressed
log (``.gz``) is read the same way. A line that is not a record (a torn last line, a foreign log line) is
counted in ``ReadStats.skipped``, not fatal.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ..events import TraceEvent, event_from_metadata

__all__ = ["ReadStats", "TraceLog", "TraceNotFound", "read_events", "trace_logs"]

_GLOG = re.compile(r"^[VIWEC]\d{4} [\d:.]+\s+\d+ [^\]]*\] ")
_RANK_IN_NAME = re.compile(r"rank_(\d+)")


class TraceNotFound(ValueError):
    """The path names no structured-trace log (the message says what to pass)."""


@dataclass
class ReadStats:
    lines: int = 0
    records: int = 0
    skipped: int = 0
    bytes: int = 0
    rank: int | None = None


@dataclass
class TraceLog:
    """One log file of a trace, and the rank its file name names (the records' own ``rank`` wins when read)."""

    path: str
    rank: int | None
    stats: ReadStats = field(default_factory=ReadStats)


def _is_log(name: str) -> bool:
    return name.endswith((".log", ".log.gz")) or name.startswith("dedicated_log_torch_trace")


def trace_logs(paths: list[str]) -> list[TraceLog]:
    """The logs of ``paths`` (files, or directories whose ``*.log`` files are the trace), by rank then name."""
    found: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            names = sorted(n for n in os.listdir(p) if _is_log(n) and os.path.isfile(os.path.join(p, n)))
            if not names:
                raise TraceNotFound(f"{p}: no *.log file in this directory; pass the directory TORCH_TRACE named, or a log file")
            found.extend(os.path.join(p, n) for n in names)
        elif os.path.isfile(p):
            found.append(p)
        else:
            raise TraceNotFound(f"{p}: no such file or directory; pass the directory TORCH_TRACE named, or a log file")
    logs = []
    for f in found:
        m = _RANK_IN_NAME.search(os.path.basename(f))
        logs.append(TraceLog(path=f, rank=int(m.group(1)) if m else None))
    return sorted(logs, key=lambda log: (log.rank is None, log.rank or 0, log.path))


def _open(path: str) -> IO[str]:
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def read_events(log: TraceLog, keep: Callable[[str], bool] = lambda name: True) -> Iterator[TraceEvent]:
    """Every event of ``log`` in order; a payload only where ``keep(event name)``. Fills ``log.stats``."""
    stats = log.stats
    strings: dict[int, str] = {}
    pending: tuple[TraceEvent | None, list[str] | None] | None = None  # the record read, and its payload's lines

    def finish() -> TraceEvent | None:
        assert pending is not None
        ev, lines = pending
        if ev is None:
            return None
        if lines is not None:
            ev.payload = "\n".join(lines)
        if ev.stack:
            ev.stack = _resolved(ev.stack, strings)
        if isinstance(ev.meta, dict):
            for key in ("stack", "user_stack"):
                if isinstance(ev.meta.get(key), list):
                    ev.meta[key] = _resolved(ev.meta[key], strings)
        return ev

    with _open(log.path) as fh:
        for line in fh:
            stats.lines += 1
            stats.bytes += len(line)
            if line.startswith("\t") or not line.strip():  # a payload line (one a tool stripped to nothing too)
                if pending is not None and pending[1] is not None:
                    pending[1].append(line[1:].rstrip("\n") if line.startswith("\t") else "")
                continue
            if pending is not None:
                ev = finish()
                pending = None
                if ev is not None:
                    yield ev
            m = _GLOG.match(line)
            try:
                md = json.loads(line[m.end() :] if m else line)
            except ValueError:
                stats.skipped += 1
                continue
            if not isinstance(md, dict):
                stats.skipped += 1
                continue
            stats.records += 1
            if "str" in md and isinstance(md["str"], list) and len(md["str"]) == 2:
                text, index = md["str"]
                strings[int(index)] = str(text)
                continue
            if stats.rank is None and isinstance(md.get("rank"), int):
                stats.rank = md["rank"]
            event = event_from_metadata(md, None)  # its payload, when kept, once its lines are read
            pending = (event, [] if event is not None and md.get("has_payload") and keep(event.name) else None)
        if pending is not None:
            ev = finish()
            if ev is not None:
                yield ev
    if stats.rank is not None:
        log.rank = stats.rank


def _resolved(stack: list[Any], strings: dict[int, str]) -> list[Any]:
    out = []
    for fr in stack:
        if isinstance(fr, dict) and isinstance(fr.get("filename"), int):
            fr = {**fr, "filename": strings.get(fr["filename"], f"<string {fr['filename']}>")}
        out.append(fr)
    return out
