"""Reading torch's structured trace from files: the logs ``TORCH_TRACE=DIR`` writes, one per process (rank).

A log is a sequence of glog lines (``V1126 23:31:46.666000 9884 torch/_dynamo/utils.py:2350] {...}``), each
holding the JSON metadata of one ``trace_structured`` record (what a live handler on ``torch.__trace`` gets,
``compiler/events.py``), followed by its payload, if any, as lines that start with a tab. ``str`` records
grow the string table that the ``filename`` of a stack frame indexes. The same ``event_from_metadata``
turns a record into a ``TraceEvent`` here and live, so the per-pane builders read both alike.

Streamed: ``read_events`` reads a log's bytes in chunks, finds its record lines with one regex scan (a payload's
lines, most of a log, are never looped over in Python, nor decoded) and cuts a payload out only when ``keep(name)``
asks for it (a multi-GB log holds megabytes of config dumps and Perfetto events nobody reads twice); every event
with a payload says where it is (``TraceEvent.span``: byte offset and length), which ``read_span`` reads again when
a pane asks for a payload that was not kept (``compiler/trace/parts.py``). A gzip-compressed log (``.gz``) is read
the same way (its spans are offsets into the uncompressed text). A line that is not a record (a torn last line, a
foreign log line) is counted in ``ReadStats.skipped``, not fatal.
"""

from __future__ import annotations

import collections
import gzip
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ..events import TraceEvent, event_from_metadata

__all__ = ["ReadStats", "TraceLog", "TraceNotFound", "payload_of", "read_events", "read_lines", "read_span", "trace_logs"]

_PREFIX = rb"[VIWEC]\d{4} [\d:.]+\s+\d+ [^\]]*\] "  # glog's: level, date, time, thread, file:line]
_GLOG = re.compile(_PREFIX)
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
    #: records counted by name only (``read_events``'s ``skim``)
    skimmed: collections.Counter[str] = field(default_factory=collections.Counter)


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


def _open(path: str) -> IO[bytes]:
    if path.endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def read_events(
    log: TraceLog,
    keep: Callable[[str], bool] = lambda name: True,
    skim: Callable[[str], bool] = lambda name: False,
    digest: Callable[[str, bytes, int], Any] | None = None,
) -> Iterator[TraceEvent]:
    """Every event of ``log`` in order; a payload only where ``keep(event name)``; a record whose name ``skim(name)``
    is counted by name only (``stats.skimmed``: its metadata never parsed, no event); ``digest(name, lines, offset)``,
    where not None, stands for a kept payload (``TraceEvent.digest``: its lines' bytes as the log holds them and where
    they start in it; the payload is never cut out).
    Fills ``log.stats``."""
    stats = log.stats
    strings: dict[int, str] = {}
    with _open(log.path) as fh:
        for line, text, start, end, offset in _records(fh, stats):
            head = _HEAD.match(line)  # the usual: the glog prefix and the record's first key (its event) at once
            if head is not None:
                body = line[head.start(1) :]
                if skim(name := head.group(2).decode("utf-8", "replace")):
                    stats.records += 1  # most of a big log: describe_tensor, _source and _storage, one each a tensor
                    stats.skimmed[name] += 1
                    continue
            else:
                m = _GLOG.match(line)
                body = line[m.end() :] if m else line
            try:
                md = json.loads(body.decode("utf-8", "replace"))
            except ValueError:
                stats.skipped += 1
                continue
            if not isinstance(md, dict):
                stats.skipped += 1
                continue
            stats.records += 1
            if "str" in md and isinstance(md["str"], list) and len(md["str"]) == 2:
                value, index = md["str"]
                strings[int(index)] = str(value)
                continue
            if stats.rank is None and isinstance(md.get("rank"), int):
                stats.rank = md["rank"]
            ev = event_from_metadata(md, None)
            if ev is None:
                continue
            if md.get("has_payload"):
                ev.span = (offset, end - start)
                if keep(ev.name):
                    lines = text[start:end]
                    ev.digest = digest(ev.name, lines, offset) if digest is not None else None
                    if ev.digest is None:
                        ev.payload = payload_of(lines)
            if ev.stack:
                ev.stack = _resolved(ev.stack, strings)
            if isinstance(ev.meta, dict):
                for key in ("stack", "user_stack"):
                    if isinstance(ev.meta.get(key), list):
                        ev.meta[key] = _resolved(ev.meta[key], strings)
            yield ev
    if stats.rank is not None:
        log.rank = stats.rank


_CHUNK = 1 << 22  # bytes read at a time
# where a line that may be a record starts: after a newline, neither a payload line (a tab first) nor a blank one; a
# literal first, so the scan runs at memchr speed (a ^ in MULTILINE mode tries every byte: 8 times slower here)
_LINE = re.compile(rb"\n(?![\t\n])")
_SPACE = frozenset(b" \r\x0b\x0c")  # a line that starts with one of these is a record only if it holds more than white space
_SPACED = re.compile(rb"\n[ \r\x0b\x0c]")
# a record's line: its glog prefix, then its JSON, whose first key is its event (torch writes it first)
_HEAD = re.compile(_PREFIX + rb'(\{\s*"([^"\\]+)")')


def _records(fh: IO[bytes], stats: ReadStats) -> Iterator[tuple[bytes, bytes, int, int, int]]:
    """Each record's line, and where the bytes after it up to the next record are (its payload's lines, as the log
    holds them): ``text[start:end]``, to be cut out before the next record is asked for, and ``offset``, where they
    start in the log. The log is read in chunks and its record lines found by a regex scan (no Python loop over the
    payload lines, which are most of a log: a guard tree, a graph); a payload is cut out only when asked for. Text
    before the first record is skipped."""
    buf, eof, base = b"", False, 0  # base: where buf starts in the log
    while not eof:
        chunk = fh.read(_CHUNK)
        eof = not chunk
        stats.bytes += len(chunk)
        stats.lines += chunk.count(b"\n")
        if eof and buf and not buf.endswith(b"\n"):
            stats.lines += 1  # a last line without its newline
        kept = bool(buf)  # a record kept from the last scan starts buf
        scanned = buf.rfind(b"\n") + 1  # what the last scan read whole
        buf += chunk
        starts = [0] if kept else []
        starts += _line_starts(buf, max(scanned, 1) if kept else 0)
        ready = len(starts) if eof else len(starts) - 1  # the last one's payload may go on in the next chunk
        for i in range(ready):
            line_end = buf.find(b"\n", starts[i])
            end = starts[i + 1] if i + 1 < len(starts) else len(buf)
            line_end = end if line_end < 0 or line_end > end else line_end
            start = min(line_end + 1, end)
            yield buf[starts[i] : line_end], buf, start, end, base + start
        if starts and not eof:
            base += starts[-1]
            buf = buf[starts[-1] :]
        else:
            base += len(buf)
            buf = b""


def _line_starts(buf: bytes, lo: int) -> list[int]:
    """Where the lines that may be records start in ``buf``, from ``lo`` on: the first line, or a line after a newline
    that starts with neither a tab nor a newline and holds more than white space. A line cut by the end of ``buf``
    counts as what it holds so far (its last start is never read before its line is whole)."""
    out = [0] if lo == 0 and buf[:1] not in (b"", b"\t", b"\n") else []
    out += [m.end() for m in _LINE.finditer(buf, max(lo - 1, 0))]
    if out and out[-1] == len(buf):  # a newline last: the line after it is not in buf yet
        out.pop()
    if (buf and buf[0] in _SPACE) or _SPACED.search(buf, max(lo - 1, 0)):  # rare: a line of white space is none
        out = [s for s in out if buf[s] not in _SPACE or _holds(buf, s)]
    return out


def _holds(buf: bytes, at: int) -> bool:
    """Does the line at ``at`` hold more than white space?"""
    end = buf.find(b"\n", at)
    return bool(buf[at : end if end >= 0 else len(buf)].strip())


def read_span(path: str, span: tuple[int, int]) -> str:
    """The payload whose lines are at ``span`` (``TraceEvent.span``) in the log ``path``, as ``read_events`` cuts
    it out. Raises ``OSError`` when the log is gone or shorter than it was."""
    return payload_of(read_lines(path, span))


def read_lines(path: str, span: tuple[int, int]) -> bytes:
    """The lines' bytes at ``span`` in the log ``path``, as the log holds them (each after its tab)."""
    offset, length = span
    with _open(path) as fh:
        fh.seek(offset)  # a .gz log: decompressed up to there
        block = fh.read(length)
    if len(block) != length:
        raise OSError(f"{path}: the log is shorter than when it was read (it changed or was cut)")
    return block


_UNTABBED = re.compile(r"\n(?!\t)")  # a line of a payload without its tab (blank: a tool stripped it)


def payload_of(lines: bytes) -> str:
    """A payload's text from its lines' bytes as the log holds them: each after its tab; a blank line stays blank."""
    return _payload(lines.decode("utf-8", "replace"))


def _payload(block: str) -> str:
    text = block[:-1] if block.endswith("\n") else block
    if not text:
        return ""
    if text.startswith("\t") and _UNTABBED.search(text) is None:  # every line a tabbed one: the usual
        return text[1:].replace("\n\t", "\n")
    return "\n".join(line[1:] if line.startswith("\t") else "" for line in text.split("\n"))


def _resolved(stack: list[Any], strings: dict[int, str]) -> list[Any]:
    out = []
    for fr in stack:
        if isinstance(fr, dict) and isinstance(fr.get("filename"), int):
            fr = {**fr, "filename": strings.get(fr["filename"], f"<string {fr['filename']}>")}
        out.append(fr)
    return out
