"""Reading torch's structured trace from files: the logs ``TORCH_TRACE=DIR`` writes, one per process (rank).

A log is a sequence of glog lines (``V1126 23:31:46.666000 9884 torch/_dynamo/utils.py:2350] {...}``), each
holding the JSON metadata of one ``trace_structured`` record (what a live handler on ``torch.__trace`` gets,
``compiler/events.py``), followed by its payload, if any, as lines that start with a tab. ``str`` records
grow the string table that the ``filename`` of a stack frame indexes. The same ``event_from_metadata``
turns a record into a ``TraceEvent`` here and live, so the per-pane builders read both alike.

Streamed: ``read_events`` reads a log in chunks, finds its record lines with one regex scan (a payload's lines, most
of a log, are never looped over in Python) and cuts a payload out only when ``keep(name)`` asks for it (a multi-GB
log holds megabytes of config dumps and Perfetto events nobody reads twice); a gzip-compressed log (``.gz``) is read
the same way. A line that is not a record (a torn last line, a foreign log line) is
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
    with _open(log.path) as fh:
        for line, text, start, end in _records(fh, stats):
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
            ev = event_from_metadata(md, None)
            if ev is None:
                continue
            if md.get("has_payload") and keep(ev.name):
                ev.payload = _payload(text[start:end])
            if ev.stack:
                ev.stack = _resolved(ev.stack, strings)
            if isinstance(ev.meta, dict):
                for key in ("stack", "user_stack"):
                    if isinstance(ev.meta.get(key), list):
                        ev.meta[key] = _resolved(ev.meta[key], strings)
            yield ev
    if stats.rank is not None:
        log.rank = stats.rank


_CHUNK = 1 << 22  # characters read at a time
# a record's line: neither a payload line (a tab first) nor a blank one (a tool may strip a payload line to nothing)
_RECORD = re.compile(r"^(?=[^\t\n])(?=[^\n]*\S)[^\n]*", re.M)


def _records(fh: IO[str], stats: ReadStats) -> Iterator[tuple[str, str, int, int]]:
    """Each record's line, and where the text after it up to the next record is (its payload's lines, as the log
    holds them): ``text[start:end]``, to be cut out before the next record is asked for. The log is read in chunks and its
    record lines found by a regex scan (no Python loop over the payload lines, which are most of a log: a guard
    tree, a graph); a payload is cut out only when asked for. Text before the first record is skipped."""
    buf, eof = "", False
    while not eof:
        chunk = fh.read(_CHUNK)
        eof = not chunk
        stats.bytes += len(chunk)
        stats.lines += chunk.count("\n")
        if eof and buf and not buf.endswith("\n"):
            stats.lines += 1  # a last line without its newline
        scanned = buf.rfind("\n") + 1  # what the last scan read whole: the record kept from it starts buf
        buf += chunk
        first = _RECORD.match(buf) if scanned else None  # that record, its line whole now
        found = [first] if first else []
        found += _RECORD.finditer(buf, max(scanned, first.end() + 1) if first else 0)
        ready = found if eof else found[:-1]  # the last one's payload may go on in the next chunk
        for i, m in enumerate(ready):
            end = found[i + 1].start() if i + 1 < len(found) else len(buf)
            yield m.group(), buf, m.end() + 1, end
        buf = buf[found[-1].start() :] if found and not eof else ""


def _payload(block: str) -> str:
    """A payload's text from its lines as the log holds them: each after its tab; a blank line stays blank."""
    text = block[:-1] if block.endswith("\n") else block
    if not text:
        return ""
    if text.startswith("\t") and text.count("\n") == text.count("\n\t"):  # every line a tabbed one: the usual
        return text[1:].replace("\n\t", "\n")
    return "\n".join(line[1:] if line.startswith("\t") else "" for line in text.split("\n"))


def _resolved(stack: list[Any], strings: dict[int, str]) -> list[Any]:
    out = []
    for fr in stack:
        if isinstance(fr, dict) and isinstance(fr.get("filename"), int):
            fr = {**fr, "filename": strings.get(fr["filename"], f"<string {fr['filename']}>")}
        out.append(fr)
    return out
