"""The guard, recompile, dynamic-shape and compile-phase panes of a report read from a structured trace.

``build.py`` makes the report and its frames, bytecode and graphs; these add, from the same events: guards
(``dynamo_cpp_guards_str``, the tree ``TORCH_LOGS=guards`` prints), recompile reasons (``recompile_reasons``, else the
metrics' ``recompile_reason``), dynamic shapes (``create_symbol``, ``symbolic_shape_specialization``,
``guard_added`` / ``guard_added_fast``) and compile phases (``chromium_event``), each through the live collectors' own
builders (the cache story: ``collectors/caches/cache_story.py``, called by ``build.py``).

[Note: a trace's big guard trees] A model guards every parameter: a 12-layer encoder's tree is 0.7 MB and 1,500
guards a compile, and a server's warm-up log holds hundreds of them (half of its bytes). A tree longer than
``LAZY_TREE_CHARS`` is counted as the log streams, never cut out (``lazy_tree``): the report holds its count
(``guard_count``) and, for its rows and its text, a part of ``parts_cut`` that names its bytes in the log (``kept``
0, ``PartCut.log``), which ``compiler/trace/parts.py`` reads when a view asks (the kernel's ``%dynamo_open``, the
``--html`` page, a diff), as the kernel keeps a run's big parts.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass
from typing import Any

from ..collectors.guards.guards import count_leaves, parse_tree, rows_from_tree
from ..collectors.recompile_reasons import split_reasons
from ..collectors.timings import Event, phase_trees
from ..events import TraceEvent
from ..model import (
    CompileReport,
    LogSpan,
    PartCut,
    ShapeGuard,
    Symbol,
)
from .reader import payload_of

__all__ = [
    "GUARD_TREE",
    "LAZY_TREE_CHARS",
    "guards",
    "lazy_tree",
    "phases",
    "recompiles",
    "shapes",
    "tabbed_tree",
    "tree_text",
]

GUARD_TREE = "dynamo_cpp_guards_str"
#: a guard tree longer than this (about 150 guards) stays in the log until a view asks ([Note: a trace's big guard trees])
LAZY_TREE_CHARS = 64 * 1024


@dataclass(slots=True)
class TreeDigest:
    """What the report needs of a big guard tree read from a log, its text dropped (``TraceEvent.digest``)."""

    guards: int  # its leaves
    chars: int  # its text's characters, as tree_text gives it


def tree_text(payload: str) -> str:
    """The tree as TORCH_LOGS=guards prints it (what a live run keeps), from a ``dynamo_cpp_guards_str`` payload: the
    trace adds the guards' measured latency after it."""
    head, sep, tail = payload.strip().rpartition("\n\nGuard latency = ")
    return head if sep else tail


# a guard tree's lines as the log holds them (each after a tab): its leaves and where the measured latency starts
_LEAF_IN_LOG = re.compile(rb"\n\t[| ]*\+- [A-Z][A-Z0-9_]+: ")
_FIRST_LEAF_IN_LOG = re.compile(rb"\t[| ]*\+- [A-Z][A-Z0-9_]+: ")
_LATENCY_IN_LOG = b"\n\t\n\tGuard latency = "
_UNTABBED_IN_LOG = re.compile(rb"\n(?!\t)")


def tabbed_tree(lines: bytes) -> bytes | None:
    """The usual guard tree's lines as the log holds them (ASCII, every line after its tab, no blank line first, no
    latency after, nothing to strip at either end): ``tree_text(payload_of(lines))`` is these bytes without the first
    tab and with each ``\n\t`` a ``\n``. None for any other tree (read it as text)."""
    stop = len(lines) - 1 if lines.endswith(b"\n") else len(lines)
    cut = lines.rfind(_LATENCY_IN_LOG, 0, stop)
    stop = cut if cut >= 0 else stop
    first = 0  # the tree's first line: torch writes a blank one before it
    while lines.startswith(b"\t\n", first):
        first += 2
    usual = lines.isascii() and lines[first : first + 1] == b"\t" and not lines[first + 1 : first + 2].isspace()
    if usual and not lines[stop - 1 : stop].isspace() and _UNTABBED_IN_LOG.search(lines, first, stop) is None:
        return lines[first:stop]
    return None


def lazy_tree(name: str, lines: bytes) -> tuple[TreeDigest, bytes | str] | None:
    """What the report keeps of a big guard tree, from its lines' bytes as the log streams by, and the tree as a page
    holds it (``parts.page_parts``), or None: a small tree, cut out whole, or another record
    ([Note: a trace's big guard trees]). The usual tree (``tabbed_tree``) is counted on its bytes, no text built,
    and held as its lines as the log holds them; any other by its text (``count_leaves(tree_text(payload))``)."""
    if name != GUARD_TREE or len(lines) <= LAZY_TREE_CHARS:  # a line's bytes are at least its characters
        return None
    tree: bytes | str | None = tabbed_tree(lines)
    if isinstance(tree, bytes):
        chars = len(tree) - tree.count(b"\n") - 1  # each line's tab
        guards = len(_LEAF_IN_LOG.findall(tree)) + (_FIRST_LEAF_IN_LOG.match(tree) is not None)
    else:
        tree = tree_text(payload_of(lines))
        chars, guards = len(tree), count_leaves(tree)
    return (TreeDigest(guards=guards, chars=chars), tree) if chars > LAZY_TREE_CHARS else None


def guards(report: CompileReport, events: list[TraceEvent]) -> None:
    trees = {ev.compile_id: ev for ev in events if ev.name == GUARD_TREE and ev.compile_id and (ev.payload or ev.digest)}
    path = os.path.abspath(report.trace.logs[0].path) if report.trace and report.trace.logs else None
    for frame in report.frames:
        ev = trees.get(frame.compile_id)
        if ev is None:
            continue
        if isinstance(ev.digest, TreeDigest) and ev.span is not None and path is not None:
            span, cid, token = LogSpan(path=path, offset=ev.span[0], length=ev.span[1]), frame.compile_id, uuid.uuid4().hex
            for part, total in (("guards", ev.digest.guards), ("guard_tree", ev.digest.chars)):
                cut = PartCut(key=f"{token}:{part}:{cid}", part=part, compile_id=cid, kept=0, total=total, log=span)  # type: ignore[arg-type]
                report.parts_cut.append(cut)
            frame.guard_count = ev.digest.guards
            continue
        if not ev.payload:
            continue
        tree = tree_text(ev.payload)
        rows = rows_from_tree(parse_tree(tree, frame.code.filename))  # a small tree: whole in the report
        frame.guard_count = len(rows)
        frame.guards, frame.guard_tree = rows, tree


_REASON_START = re.compile(r"^(?:!\d+/)?\d+/\d+: ", re.M)


def _reason_items(payload: str) -> list[str]:
    try:
        value = json.loads(payload)
    except ValueError:
        value = None
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str):
        payload = value
    starts = [m.start() for m in _REASON_START.finditer(payload)] or [0]
    return [payload[a:b].strip() for a, b in zip(starts, [*starts[1:], len(payload)], strict=True)]


def recompiles(report: CompileReport, events: list[TraceEvent], metrics: dict[str, dict[str, Any]]) -> None:
    for ev in events:
        frame = report.frame(ev.compile_id) if ev.name == "artifact:recompile_reasons" and ev.compile_id else None
        if frame is None or not ev.payload:
            continue
        for reason in split_reasons(_reason_items(ev.payload)):
            reason.failures_note = "not in the trace: Dynamo's reason names the first failing guard of the entry"
            frame.recompile_reasons.append(reason)
    for frame in report.frames:
        m = metrics.get(frame.compile_id)
        if not frame.recompile_reasons and m and m.get("recompile_reason"):
            for reason in split_reasons([str(m["recompile_reason"])]):
                reason.failures_note = "not in the trace: Dynamo's reason names the first failing guard of the entry"
                frame.recompile_reasons.append(reason)


def _user_line(meta: dict[str, Any], filename: str) -> int | None:
    """The innermost line of the event's user stack in the frame's own file."""
    lines = [fr.get("line") for fr in meta.get("user_stack") or [] if isinstance(fr, dict) and fr.get("filename") == filename]
    return next((int(x) for x in reversed(lines) if x), None)


def shapes(report: CompileReport, events: list[TraceEvent]) -> None:
    files = {f.compile_id: f.code.filename for f in report.frames}
    symbols: dict[tuple[str, str], Symbol] = {}
    seen: set[tuple[str, str]] = set()
    for ev in events:
        meta = ev.meta if isinstance(ev.meta, dict) else None
        cid = ev.compile_id
        if meta is None or cid is None:
            continue
        filename = files.get(cid, "")
        if ev.name == "create_symbol":
            row = Symbol(
                compile_id=cid,
                symbol=str(meta.get("symbol", "")),
                source=str(meta.get("source", "")),
                value=str(meta.get("val", "")),
                range=str(meta.get("vr", "")),
                line=_user_line(meta, filename),
            )
            if (cid, row.symbol) in symbols:  # a restarted attempt creates its symbols again
                report.symbols.remove(symbols[cid, row.symbol])
            symbols[cid, row.symbol] = row
            report.symbols.append(row)
        elif ev.name == "symbolic_shape_specialization":
            found = symbols.get((cid, str(meta.get("symbol", ""))))
            if found is not None:
                found.specialized_to = str(meta.get("value"))
                found.specialization_reason = meta.get("reason")
                found.line = _user_line(meta, filename) or found.line
        elif ev.name in ("guard_added", "guard_added_fast") and (cid, str(meta.get("expr"))) not in seen:
            seen.add((cid, str(meta.get("expr"))))
            report.shape_guards.append(
                ShapeGuard(compile_id=cid, expr=str(meta.get("expr", "")), line=_user_line(meta, filename))
            )


def phases(report: CompileReport, events: list[TraceEvent]) -> None:
    timed: list[Event] = []
    for ev in events:
        if ev.name != "chromium_event" or not ev.payload:
            continue
        try:
            e = json.loads(ev.payload)
        except ValueError:
            continue
        args = e.get("args") or {}
        cid = args.get("compile_id")
        if e.get("ph") in ("B", "E", "i") and isinstance(e.get("ts"), (int, float)):
            cid = None if cid in (None, "None") else str(cid)
            timed.append((e["ph"], str(e.get("name", "")), int(e["ts"] * 1000), cid, args.get("fn_name"), int(e.get("tid") or 0)))
    trees = phase_trees(timed)
    for frame in report.frames:
        frame.phases = trees.get(frame.compile_id, [])
